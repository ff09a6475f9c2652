"""French and English for the pages: the language comes from the browser and can be switched.

``?lang=fr`` (or ``en``) switches and is remembered in a cookie; otherwise the
browser's ``Accept-Language`` decides. Texts live in ``MESSAGES``; pages get ``t(key)``
and the JavaScript gets the same catalogue as JSON.
"""

from __future__ import annotations

from typing import Any

from flask import request

LANGUAGES = ("en", "fr")
COOKIE = "pace_lang"

MESSAGES: dict[str, dict[str, str]] = {
    "app.tagline": {
        "en": "Pace-of-play timing for golf and swin-golf competitions",
        "fr": "Chronométrage du rythme de jeu pour les compétitions de golf et de swin-golf",
    },
    "home.rounds": {"en": "Rounds", "fr": "Tours"},
    "home.none": {
        "en": "No round yet. Import a course and a draw: pace import course FILE,"
        " then pace import draw FILE --round NAME.",
        "fr": "Aucun tour pour l'instant. Importez un parcours et un tirage :"
        " pace import course FICHIER, puis pace import draw FICHIER --round NOM.",
    },
    "round.day": {"en": "Day", "fr": "Jour"},
    "round.course": {"en": "Course", "fr": "Parcours"},
    "round.groups": {"en": "Groups", "fr": "Parties"},
    "round.events": {"en": "Events", "fr": "Événements"},
    "page.marshal": {"en": "Marshal", "fr": "Commissaire"},
    "page.dashboard": {"en": "Referee dashboard", "fr": "Tableau des arbitres"},
    "lang.switch": {"en": "Français", "fr": "English"},
}


def current_language() -> str:
    """Return the page language: ``?lang=``, else the cookie, else the browser's choice."""
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return asked
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return cookie
    return request.accept_languages.best_match(LANGUAGES) or "en"


def translate(key: str, lang: str) -> str:
    """Return the text of ``key`` in ``lang`` (English, then the key, when missing)."""
    texts = MESSAGES.get(key)
    if texts is None:
        return key
    return texts.get(lang) or texts.get("en") or key


def catalogue(lang: str) -> dict[str, str]:
    """Return every text in ``lang``, for the pages' JavaScript."""
    return {key: translate(key, lang) for key in MESSAGES}


def page_context() -> dict[str, Any]:
    """Return what every template needs: ``lang``, ``other_lang``, ``t`` and ``messages``."""
    lang = current_language()
    return {
        "lang": lang,
        "other_lang": "fr" if lang == "en" else "en",
        "t": lambda key: translate(key, lang),
        "messages": catalogue(lang),
    }

"""French, English and Dutch for the pages: gettext catalogues, read by Flask-Babel (issue 14).

The language is ``?lang=fr`` (or ``en``, ``nl``: the header's menu of every page), remembered in
a cookie on the device; otherwise the browser's ``Accept-Language`` (``nl-BE`` is Dutch), else
English. Every text of the pages has a stable key (its gettext context) and its English here
(the shared texts) or in the ``messages`` module of its feature (pace/web/<feature>/, joined
below); the French and the Dutch are in ``pace/translations/<fr|nl>/LC_MESSAGES/messages.po``.
Templates get ``t(key)``, ``tn(key, n)`` (plurals) and dates and times formatted by Babel in the
page's language and the round's time zone; the JavaScript gets the page's texts from the same
catalogue as JSON (a plural as ``{one, other}``, picked with ``Intl.PluralRules``).
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from typing import Any
from urllib.parse import urlencode

import flask_babel
from babel import dates as babel_dates
from flask import request

from pace import i18n
from pace.i18n import Source
from pace.rules.errors import Label, PaceError, Sentence, fill
from pace.web import clubs_messages
from pace.web.audit import messages as audit_messages
from pace.web.committee import calibration_messages
from pace.web.committee import messages as committee_messages
from pace.web.dashboard import messages as dashboard_messages
from pace.web.marshal import messages as marshal_messages
from pace.web.referee import messages as referee_messages
from pace.web.reports import messages as reports_messages
from pace.web.scoring import messages as scoring_messages

LANGUAGES = i18n.LANGUAGES
COOKIE = "pace_lang"

MESSAGES: dict[str, Source] = {
    "app.tagline": "Pace-of-play timing for golf and swin-golf competitions",
    "home.rounds": "Rounds",
    "home.today": "Today's rounds",
    "home.none": (
        "No round yet. Import a course and a draw: pace import course FILE, then pace import "
        "draw FILE --round NAME."
    ),
    "round.day": "Day",
    "round.course": "Course",
    "round.groups": "Groups",
    "round.events": "Events",
    "lang.menu": "Language",
    "sun.toggle": "Sun mode",
    "live.online": "Online",
    "live.offline": "Offline: taps are kept on this phone and sent when the signal returns",
    "live.offline_short": "Offline",
    "live.loading": "Loading the round…",
    "live.error": "Error: {message}",
    "live.cancel": "Cancel",
    "live.close": "Close",
    "live.confirm": "Confirm",
    "live.group": "Group {group}",
    "live.hole": "Hole {hole}",
    "live.minutes": "{value} min",
    "status.not_started": "Not started",
    "status.on_pace": "On pace",
    "status.behind": "Behind",
    "status.overdue": "Overdue",
    "status.out_of_position": "Out of position",
    "status.finished": "Finished",
    "status.withdrawn": "Withdrawn",
    "board.col.group": "Group",
    "board.col.players": "Players",
    "board.col.tee": "Tee",
    "board.col.start": "Start",
    "board.expected": "expected",
    "board.completed": "completed",
    "board.legend": (
        "Each hole: the time the group is expected to finish it, and below, in bold, when it "
        "did. Times are local."
    ),
    "board.hole_cell": "Hole {hole}: expected {due}{done}",
    "board.hole_done": ", completed {time}",
    "board.hole_reported": ", completed {time} as reported by the group (*)",
    "board.estimate_now": "now",
    "board.hole_estimated": (
        ", no tap: estimated {time} (between {earliest} and {latest}), to be confirmed"
    ),
    "board.suspended": "Play is suspended",
    "board.key": "How to read a hole",
    "board.key_due": "planned: expected to finish by",
    "board.key_done": "actual: finished at",
    "board.from_tee": "From tee {tee}",
    "board.dq": "DQ",
    "board.dq_title": "disqualified",
    # the board's and the leaderboard's search field (issue 47)
    "find.label": "Find your group or name",
    "find.none": "No group or player matches.",
    "home.enter_code": "Enter your access code",
    "home.committee_login": "Committee sign-in",
    "home.signed_in_as": "Signed in as",
    "home.sign_out": "Sign out",
    "role.committee": "Committee",
    "role.referee": "Referee",
    "role.marshal": "Marshal",
    "role.viewer": "Viewer",
    "page.join": "Access code",
    "page.login": "Committee",
    "page.access": "Access",
    "join.title": "Enter your access code",
    "join.hint": (
        "The committee gives each marshal, referee and viewer a code for the round (on the "
        "timing sheet)."
    ),
    "join.code": "Code",
    "join.submit": "Open",
    "join.committee": "Committee: sign in with the committee secret",
    "login.title": "Committee sign-in",
    "login.hint_1": "The committee secret was printed once by ",
    "login.hint_2": " (or the first ",
    "login.hint_3": ").",
    "login.secret": "Secret",
    "login.submit": "Sign in",
    "access.error.invalid_code": (
        "This code is not valid (or its round is over): check it on the timing sheet."
    ),
    "access.error.invalid_payload": (
        "This label cannot be stored (control characters or invalid text): retype it."
    ),
    "access.error.rate_limited": "Too many wrong codes: wait a minute before trying again.",
    "access.error.csrf_failed": (
        "This form has expired or did not come from this site: reload the page and send it again."
    ),
    "access.title": "Access codes for {round}",
    "access.shown_once": "Each code is shown this once: print this page with the timing sheet now.",
    "access.qr_alt": "QR code of the {role} link",
    "access.label": "Label",
    "access.label_example": "hole 7 marshal",
    "access.make": "Make codes",
    "access.made": "Codes made for this round",
    "access.col.id": "#",
    "access.col.role": "Role",
    "access.col.label": "Label",
    "access.col.created": "Made (local time)",
    "access.col.prefix": "Begins with",
    "access.col.state": "State",
    "access.revoke": "Revoke (ends its sessions)",
    "access.revoked": "revoked",
    "message.title.forbidden": "Access refused",
    "message.forbidden": (
        "Your access does not open this page: ask the committee for an access code of the right "
        "role."
    ),
    "message.title.csrf_failed": "Form expired",
    "message.csrf_failed": (
        "This form has expired or did not come from this site: reload the page and send it again."
    ),
    "message.title.unauthorized": "Not signed in",
    "message.unauthorized": (
        "You are not signed in (or your session ended): enter your access code."
    ),
    "message.title.refused": "Request refused",
    "message.refused": "The request was refused ({code}).",
    "message.title.not_found": "Page not found",
    "message.not_found": "There is no page at this address.",
    "message.title.unknown_round": "Unknown round",
    "message.unknown_round": "This server has no round by that name.",
    "message.title.method_not_allowed": "Not allowed",
    "message.method_not_allowed": "This address does not take that kind of request.",
    "message.title.invalid_payload": "Form incomplete",
    "message.invalid_payload": (
        "The form was sent with a field missing or wrong: go back, check it and send it again."
    ),
    "message.title.missing_field": "Form incomplete",
    "message.missing_field": "The form needs a field that was left empty: go back and fill it in.",
    "message.title.payload_too_large": "Too large",
    "message.payload_too_large": "What was sent is too large for this form.",
    "message.refused_role": "You are signed in as {role}: the page “{page}” is for {who} only.",
    "message.or": "or",
    "as.committee": "the committee",
    "as.referee": "a referee",
    "as.scorer": "a scorer",
    "as.marshal": "a marshal",
    "as.viewer": "a viewer",
    "for.committee": "the committee",
    "for.referee": "a referee",
    "for.scorer": "a scorer",
    "for.marshal": "a marshal",
    "for.viewer": "a viewer",
    # who did something, when no person's name was given: the role (issue 47)
    "by.committee": "the committee",
    "by.referee": "a referee",
    "by.scorer": "a scorer",
    "by.marshal": "a marshal",
    "by.viewer": "a viewer",
    "message.join": "Enter an access code",
    "message.home": "Home",
    # the members' page on positions (/privacy, issue 48): its text is docs/privacy.md's
    "privacy.title": "Your group's position: what pace does with it",
    "privacy.link": "What is sent, to whom, for how long",
}

#: every module of the pages' texts, for the catalogue's extraction (``pace.i18n.catalog``)
MODULES: dict[str, dict[str, Source]] = {
    "pace/web/i18n.py": MESSAGES,
    "pace/web/marshal/messages.py": marshal_messages.MESSAGES,
    "pace/web/dashboard/messages.py": dashboard_messages.MESSAGES,
    "pace/web/referee/messages.py": referee_messages.MESSAGES,
    "pace/web/reports/messages.py": reports_messages.MESSAGES,
    "pace/web/audit/messages.py": audit_messages.MESSAGES,
    "pace/web/committee/messages.py": committee_messages.MESSAGES,
    "pace/web/committee/calibration_messages.py": calibration_messages.MESSAGES,
    "pace/web/scoring/messages.py": scoring_messages.MESSAGES,
    "pace/web/clubs_messages.py": clubs_messages.MESSAGES,
}
#: the English of every page text, by key
ENGLISH: dict[str, Source] = {k: v for texts in MODULES.values() for k, v in texts.items()}


def current_language() -> str:
    """Return the page language: ``?lang=``, else the cookie, else the browser's choice."""
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return asked
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return cookie
    return browser_language() or "en"


def chosen_language() -> str | None:
    """Return the language chosen for this request with ``?lang=``, None when none was: the
    links and forms a page makes carry only a choice, never the browser's language, so that
    following one (signing in included) stores no cookie nobody chose (issue 47)."""
    asked = request.args.get("lang")
    return asked if asked in LANGUAGES else None


def browser_language() -> str | None:
    """Return the first of the browser's ``Accept-Language`` that pace speaks (``nl-BE``: nl).

    Werkzeug's ``best_match`` only matches a region-free tag when the browser lists it too;
    a Flemish phone sends ``nl-BE,nl;q=0.9`` or only ``nl-BE``: its primary language counts.
    """
    for tag, _quality in request.accept_languages:
        primary = tag.split("-")[0].split("_")[0].lower()
        if primary in LANGUAGES:
            return primary
    return None


def remember_language(response: Any) -> Any:
    """Keep a language chosen with ``?lang=`` in the device's cookie (a year), for every page."""
    asked = request.args.get("lang")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=365 * 24 * 3600, samesite="Lax", path="/")
    return response


def translate(key: str, lang: str) -> str:
    """Return the text of ``key`` in ``lang`` (the key itself when it is not a text)."""
    source = ENGLISH.get(key)
    return key if source is None else i18n.text(key, source, lang)


def translate_n(key: str, n: int, lang: str, **values: object) -> str:
    """Return the text of ``key`` for ``n`` things in ``lang``, ``{n}`` and ``values`` filled."""
    source = ENGLISH.get(key)
    if source is None:
        return key
    return i18n.fill(i18n.plural(key, source, n, lang), {"n": n, **values})


def say(sentence: Sentence, lang: str) -> str:
    """Return a sentence of the code (a refusal: ``pace.rules.errors.said``) in ``lang``: its
    catalogue text filled with its values, a sentence among them said in ``lang`` too, a
    field by its label (``field.<name>``, else its name), a number with ``lang``'s decimal
    mark. A sentence the catalogue has no translation for stays English (gettext's way).

    >>> from pace.rules.errors import said
    >>> say(said("refusal.form.not_clock", "{field} {value} is not a time of day such as 08:40",
    ...          field=Label("start"), value="'25:99'"), "nl")
    "starttijd '25:99' is geen tijdstip zoals 08:40"
    """
    values: dict[str, str] = {}
    for name, value in sentence.values.items():
        if isinstance(value, Sentence):
            values[name] = say(value, lang)
        elif isinstance(value, Label):
            values[name] = field_label(value.name, lang)
        elif isinstance(value, float):
            values[name] = i18n.decimal(f"{value:g}", lang)
        elif isinstance(value, datetime):
            values[name] = f"{i18n.day_text(value.date(), lang)} {value:%H:%M}"
        elif isinstance(value, date):
            values[name] = i18n.day_text(value, lang)
        else:
            values[name] = str(value)
    return fill(i18n.text(sentence.key, sentence.english, lang), values)


def field_label(name: str, lang: str) -> str:
    """Return a field's label in ``lang`` (``field.<name>`` of the catalogue: a form's field,
    a column of the draw, a key of the course file), else the field's own name."""
    key = f"field.{name}"
    return translate(key, lang) if key in ENGLISH else name


def refusal_text(e: PaceError, lang: str) -> str | None:
    """Return a refusal's sentence in ``lang``, or None when it has no sentence of the
    catalogue (its English ``message`` is all there is)."""
    return say(e.sentence, lang) if e.sentence is not None else None


def catalogue(lang: str) -> dict[str, Any]:
    """Return every page text in ``lang``, for the pages' JavaScript (plurals as one/other)."""
    return {key: i18n.forms(key, source, lang) for key, source in ENGLISH.items()}


def local_time(instant: datetime | None, tz: tzinfo, lang: str, seconds: bool = False) -> str:
    """Return an instant's clock time in the round's time zone, as Babel writes it in ``lang``.

    >>> from datetime import UTC
    >>> from zoneinfo import ZoneInfo
    >>> local_time(datetime(2026, 6, 14, 7, 10, tzinfo=UTC), ZoneInfo("Europe/Brussels"), "fr")
    '09:10'
    """
    if instant is None:
        return ""
    return babel_dates.format_time(
        instant, "HH:mm:ss" if seconds else "HH:mm", tzinfo=tz, locale=i18n.babel_locale(lang)
    )


def local_datetime(instant: datetime | None, tz: tzinfo, lang: str) -> str:
    """Return an instant as a short date and a clock time, in ``lang``, in the round's zone.

    >>> from datetime import UTC
    >>> from zoneinfo import ZoneInfo
    >>> at = datetime(2026, 6, 14, 7, 10, tzinfo=UTC)
    >>> local_datetime(at, ZoneInfo("Europe/Brussels"), "fr")
    '14/06/2026 09:10'
    >>> local_datetime(at, ZoneInfo("Europe/Brussels"), "en")
    '6/14/26, 09:10'
    """
    if instant is None:
        return ""
    day = babel_dates.format_date(
        instant.astimezone(tz).date(), "short", locale=i18n.babel_locale(lang)
    )
    return f"{day}{', ' if lang == 'en' else ' '}{local_time(instant, tz, lang)}"


def local_date(day: date | None, lang: str, form: str = "long") -> str:
    """Return a day as Babel writes it in ``lang`` ("14 juin 2026", "June 14, 2026").

    >>> local_date(date(2026, 6, 14), "fr"), local_date(date(2026, 6, 14), "en")
    ('14 juin 2026', 'June 14, 2026')
    """
    return "" if day is None else babel_dates.format_date(day, form, locale=i18n.babel_locale(lang))


def language_links() -> list[tuple[str, str, str]]:
    """Return the language menu's links: each language's code, its name in its own words and
    the page's address in it, ``?lang=`` set and the page's other query parameters kept
    (``?per=group`` of the letters, ``?strip_at=`` of the report; issue 47)."""
    kept = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    return [
        (code, i18n.NAMES[code], "?" + urlencode([*kept, ("lang", code)]))
        for code in ("fr", "en", "nl")
    ]


def page_context() -> dict[str, Any]:
    """Return what every template needs: ``lang``, ``url_lang`` (the language to carry in
    the page's own links and forms: only one chosen with ``?lang=``), the header's
    ``language_menu``, ``t``,
    ``tn``, ``messages`` and the date and time formatters of the page's language."""
    lang = current_language()
    return {
        "lang": lang,
        "url_lang": chosen_language(),
        "language_menu": [(code, i18n.NAMES[code]) for code in ("fr", "en", "nl")],
        "language_links": language_links(),
        "language_label": translate("lang.menu", lang),
        "t": lambda key: _page_text(key),
        "tn": lambda key, n, **values: translate_n(key, n, lang, **values),
        "messages": catalogue(lang),
        "local_time": lambda instant, tz, seconds=False: local_time(instant, tz, lang, seconds),
        "local_datetime": lambda instant, tz: local_datetime(instant, tz, lang),
        "local_date": lambda day, form="long": local_date(day, lang, form),
    }


def _page_text(key: str) -> str:
    """Return ``key``'s text through Flask-Babel, in the request's language."""
    source = ENGLISH.get(key)
    if source is None:
        return key
    if isinstance(source, tuple):  # Flask-Babel's npgettext %-formats: pace fills {n} itself
        return i18n.text(key, source, str(flask_babel.get_locale() or "en"))
    return flask_babel.pgettext(key, source)

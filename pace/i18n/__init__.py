"""The pages', reports' and messages' words in the people's language: gettext catalogues.

English is written in the code, next to what uses it, as the catalogue's source: each text
has a stable key (its gettext context, ``msgctxt``) and its English words (``msgid``; a
plural has two, ``msgid``/``msgid_plural``). The French and the Dutch live in
``pace/translations/<fr|nl>/LC_MESSAGES/messages.po`` (compiled to ``messages.mo``, committed;
``python -m pace.i18n.catalog`` extracts ``messages.pot``, updates the ``.po`` and compiles
it), where translators work with the usual tools. Flask-Babel reads the same catalogue for
the pages; this module reads it where there is no request (the reports, the PDF process).
Stdlib only at run time.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Mapping
from datetime import date
from pathlib import Path

LANGUAGES = ("en", "fr", "nl")
#: the languages' names in their own words, for the pages' language menu
NAMES = {"fr": "Français", "en": "English", "nl": "Nederlands"}
#: the languages that write a decimal comma (46,2 s) and day/month/year
COMMA = frozenset({"fr", "nl"})
#: Babel's locale of a language where it is not the language itself: pace's Dutch is Flemish
#: (14/06/2026, not the Netherlands' 14-06-2026)
BABEL_LOCALES = {"nl": "nl_BE"}


def babel_locale(lang: str) -> str:
    """Return the Babel locale that writes ``lang``'s dates and times.

    >>> babel_locale("nl"), babel_locale("fr")
    ('nl_BE', 'fr')
    """
    return BABEL_LOCALES.get(lang, lang)


DOMAIN = "messages"
#: where the catalogues live: pace/translations/<lang>/LC_MESSAGES/messages.{po,mo}
DIRECTORY = Path(__file__).resolve().parent.parent / "translations"

#: a text's English: its words, or (singular, plural) for a text that counts something
Source = str | tuple[str, str]


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """Return the compiled catalogue of ``lang`` (English: the source itself)."""
    path = DIRECTORY / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang == "en" or not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as f:
        return gettext.GNUTranslations(f)


def decimal(value: str, lang: str) -> str:
    """Return a number written with a point in ``lang``'s notation (a comma in French, Dutch).

    >>> decimal("46.2", "nl"), decimal("46.2", "en")
    ('46,2', '46.2')
    """
    return value.replace(".", ",") if lang in COMMA else value


def day_text(day: date, lang: str) -> str:
    """Return a day as pace's documents write it in ``lang``: ``14/06/2026`` in French and
    Dutch, ``2026-06-14`` in English (the results sheet, the report, the letters: issue 47).

    >>> day_text(date(2026, 6, 14), "nl"), day_text(date(2026, 6, 14), "en")
    ('14/06/2026', '2026-06-14')
    """
    return day.strftime("%d/%m/%Y" if lang in COMMA else "%Y-%m-%d")


def tenths(value: float, lang: str) -> str:
    """Return minutes (or any amount) whole where they are, else to a tenth, in ``lang``'s
    notation, a minus sign for a negative (``7``, ``7,5`` in Dutch, ``−0.5``).

    >>> tenths(7.0, "nl"), tenths(7.5, "nl"), tenths(-0.5, "en"), tenths(7.04, "fr")
    ('7', '7,5', '−0.5', '7')
    """
    v = round(value, 1)
    words = f"{v:.0f}" if v == int(v) else f"{v:.1f}"
    return decimal(words.replace("-", "−"), lang)


def text(key: str, source: Source, lang: str) -> str:
    """Return the text ``key`` (English ``source``) in ``lang``; a plural's singular."""
    if isinstance(source, tuple):
        return translations(lang).npgettext(key, source[0], source[1], 1)
    return translations(lang).pgettext(key, source)


def plural(key: str, source: Source, n: int, lang: str) -> str:
    """Return the text ``key`` for ``n`` things in ``lang`` (gettext's plural rule)."""
    if not isinstance(source, tuple):
        return text(key, source, lang)
    return translations(lang).npgettext(key, source[0], source[1], n)


def forms(key: str, source: Source, lang: str) -> str | dict[str, str]:
    """Return what a script needs of ``key``: its text, or its ``one``/``other`` forms.

    A page picks the form with ``Intl.PluralRules`` of its language, which agrees with the
    catalogues' rules (English and Dutch: one for 1; French: one for 0 and 1).
    """
    if not isinstance(source, tuple):
        return text(key, source, lang)
    return {"one": plural(key, source, 1, lang), "other": plural(key, source, 2, lang)}


def fill(template: str, values: Mapping[str, object]) -> str:
    """Return ``template`` with each ``{name}`` of ``values`` put in (others left as they are).

    >>> fill("Group {group} on hole {hole}", {"group": "6"})
    'Group 6 on hole {hole}'
    """
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template

"""The translators' tool: extract ``messages.pot``, update the French ``.po``, compile ``.mo``.

::

    python -m pace.i18n.catalog update    # messages.pot from the code, merged into fr's .po
    python -m pace.i18n.catalog compile   # fr's .po to .mo (committed, read at run time)
    python -m pace.i18n.catalog check     # what tests/unit/test_translations.py checks

The English sources are the pages' texts (``pace.web.i18n.MODULES``) and the reports' words
(``pace.reports.words.TEXTS``, context ``words:<key>``). A text is an entry whose context is
its key and whose ``msgid`` is its English (``msgid_plural`` too for a plural); ``update``
keeps every translation whose English did not change, marks a changed one fuzzy and a new one
untranslated, for a translator to see (Poedit, Weblate, any gettext tool). Uses Babel.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from babel.messages import mofile, pofile
from babel.messages.catalog import Catalog

from pace.i18n import DIRECTORY, DOMAIN, Source

#: fixed, so that the committed files change only when a text does
STAMP = datetime(2026, 12, 1, 0, 0)
POT = DIRECTORY / f"{DOMAIN}.pot"
TRANSLATED = ("fr",)
_FIELD = re.compile(r"\{(\w+)(?:![rsa])?\}")


def po_path(lang: str) -> Path:
    """Return the ``.po`` file of ``lang``."""
    return DIRECTORY / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    """Return the compiled ``.mo`` file of ``lang``."""
    return DIRECTORY / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def sources() -> Iterator[tuple[str, Source, str]]:
    """Yield every text of the code: (context, English, the file it is written in)."""
    from pace.reports import words
    from pace.web import i18n as pages

    for where, texts in pages.MODULES.items():
        for key, source in texts.items():
            yield key, source, where
    for key, source in words.TEXTS.items():
        yield words.CONTEXT + key, source, "pace/reports/words.py"


def template() -> Catalog:
    """Return the catalogue template (``messages.pot``) of the code's English texts."""
    catalog = _catalog(None)
    for context, source, where in sources():
        catalog.add(source, locations=[(where, 0)], context=context)
    return catalog


#: gettext's plural rules as people use them (CLDR's third French form, for millions, left out:
#: pages pick "one" or "other" with Intl.PluralRules, which agrees with these for counts here)
PLURAL_FORMS = {"fr": (2, "(n > 1)"), "en": (2, "(n != 1)")}


def _catalog(locale: str | None) -> Catalog:
    catalog = Catalog(
        locale=locale,
        domain=DOMAIN,
        project="pace",
        version="1",
        copyright_holder="pace",
        msgid_bugs_address="",
        creation_date=STAMP,
        revision_date=STAMP,
        language_team="French" if locale == "fr" else "",
        fuzzy=False,
    )
    _plurals(catalog, locale)
    return catalog


def _plurals(catalog: Catalog, locale: str | None) -> None:
    if locale in PLURAL_FORMS:
        catalog._num_plurals, catalog._plural_expr = PLURAL_FORMS[locale]


def render_po(catalog: Catalog) -> bytes:
    """Return a catalogue as ``.po`` text (no line numbers: they would churn)."""
    out = io.BytesIO()
    pofile.write_po(out, catalog, width=100, omit_header=False, ignore_obsolete=True,
                    include_lineno=False)  # fmt: skip
    return out.getvalue()


def render_mo(catalog: Catalog) -> bytes:
    """Return a catalogue compiled (fuzzy entries left out)."""
    out = io.BytesIO()
    mofile.write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def read(lang: str) -> Catalog:
    """Return the ``.po`` catalogue of ``lang``."""
    with po_path(lang).open("rb") as f:
        catalog = pofile.read_po(f, locale=lang, domain=DOMAIN)
    _plurals(catalog, lang)
    return catalog


def update(lang: str) -> Catalog:
    """Return ``lang``'s catalogue brought up to the code's texts (its translations kept)."""
    pot = template()
    try:
        catalog = read(lang)
    except FileNotFoundError:
        catalog = _catalog(lang)
    catalog.update(pot, no_fuzzy_matching=False, update_header_comment=False)
    catalog.revision_date = STAMP
    catalog.creation_date = STAMP
    return catalog


def fields(text: str) -> set[str]:
    """Return the ``{name}`` fields of a text.

    >>> sorted(fields("Group {group} on hole {hole}, {policy!r}"))
    ['group', 'hole', 'policy']
    """
    return set(_FIELD.findall(text))


def problems() -> list[str]:
    """Return what is wrong with the catalogues: stale files, texts without French, fields."""
    out = []
    if not POT.is_file() or POT.read_bytes() != render_po(template()):
        out.append(f"{POT} is not the code's texts: run python -m pace.i18n.catalog update")
    wanted = {(c, s if isinstance(s, str) else s[0]): s for c, s, _ in sources()}
    for lang in TRANSLATED:
        catalog = read(lang)
        found = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog}
        for (context, msgid), source in wanted.items():
            message = found.get((context, msgid))
            english = [source] if isinstance(source, str) else list(source)
            strings = [] if message is None else (
                [message.string] if isinstance(message.string, str) else list(message.string)
            )  # fmt: skip
            if message is None or not all(strings) or message.fuzzy:
                out.append(f"{lang}: {context!r} ({english[0]!r}) has no {lang} translation")
                continue
            allowed = set().union(*(fields(e) for e in english))
            counts = {"n", "count", "amount"} if len(english) > 1 else set()
            if any(fields(s) - allowed or allowed - counts - fields(s) for s in strings):
                out.append(f"{lang}: {context!r}: its fields are not its English's {allowed}")
        if not mo_path(lang).is_file() or mo_path(lang).read_bytes() != render_mo(catalog):
            out.append(f"{mo_path(lang)} is not {po_path(lang)} compiled: run ... compile")
    return out


def main(argv: list[str]) -> int:
    """Run ``update``, ``compile`` or ``check``."""
    command = argv[0] if argv else "check"
    if command == "update":
        POT.parent.mkdir(parents=True, exist_ok=True)
        POT.write_bytes(render_po(template()))
        for lang in TRANSLATED:
            po_path(lang).parent.mkdir(parents=True, exist_ok=True)
            po_path(lang).write_bytes(render_po(update(lang)))
        return 0
    if command == "compile":
        for lang in TRANSLATED:
            mo_path(lang).write_bytes(render_mo(read(lang)))
        return 0
    if command == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    print(f"unknown command {command!r}: update, compile or check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

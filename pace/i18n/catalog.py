"""The translators' tool: extract ``messages.pot``, update the French and Dutch ``.po``, compile.

::

    python -m pace.i18n.catalog update    # messages.pot from the code, merged into fr, nl .po
    python -m pace.i18n.catalog compile   # each .po to .mo (committed, read at run time)
    python -m pace.i18n.catalog check     # what tests/unit/test_translations.py checks
    python -m pace.i18n.catalog port FILE NAME   # fold a hand-made {"en", "fr"} dict in

The English sources are the pages' texts (``pace.web.i18n.MODULES``), the reports' words
(``pace.reports.words.TEXTS``, context ``words:<key>``) and the sentences the code says where
it refuses something, ``said("refusal.<what>", "English", ...)`` (:func:`sentences`, issue 47).
A text is an entry whose context is its key and whose ``msgid`` is its English
(``msgid_plural`` too for a plural); ``update`` keeps every translation whose English did not
change, marks a changed one fuzzy and a new one untranslated, for a translator to see (Poedit,
Weblate, any gettext tool). Uses Babel.
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
TRANSLATED = ("fr", "nl")
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
    seen: set[str] = set()
    for key, english, where in sentences():
        if key not in seen:
            seen.add(key)
            yield key, english, where


#: the package whose ``said("key", "English", ...)`` sentences are texts of the catalogue
PACKAGE = DIRECTORY.parent


def sentences() -> list[tuple[str, str, str]]:
    """Return the sentences the code says with ``said("key", "English", ...)`` (its refusals,
    ``pace.rules.errors.said``): (key, English, file), as xgettext finds ``_("...")`` calls.

    Only a call whose key and English are written as literals is a text; the same key with
    two Englishes is a mistake that :func:`problems` reports.
    """
    import ast

    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "said(" not in text:
            continue
        where = str(path.relative_to(PACKAGE.parent))
        for node in ast.walk(ast.parse(text, str(path))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else (
                node.func.id if isinstance(node.func, ast.Name) else None
            )  # fmt: skip
            key, english = (a.value if isinstance(a, ast.Constant) else None
                            for a in node.args[:2])  # fmt: skip
            if name == "said" and isinstance(key, str) and isinstance(english, str):
                found.append((key, english, where))
    return found


def template() -> Catalog:
    """Return the catalogue template (``messages.pot``) of the code's English texts."""
    catalog = _catalog(None)
    for context, source, where in sources():
        catalog.add(source, locations=[(where, 0)], context=context)
    return catalog


#: gettext's plural rules as people use them (CLDR's third French form, for millions, left out:
#: pages pick "one" or "other" with Intl.PluralRules, which agrees with these for counts here)
PLURAL_FORMS = {"fr": (2, "(n > 1)"), "en": (2, "(n != 1)"), "nl": (2, "(n != 1)")}


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
        language_team={"fr": "French", "nl": "Dutch"}.get(locale or "", ""),
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
    """Return what is wrong with the catalogues: stale files, untranslated texts, fields."""
    out = []
    englishes: dict[str, set[str]] = {}
    for key, english, _where in sentences():
        englishes.setdefault(key, set()).add(english)
    out += [f"{key!r} is said with {len(e)} Englishes: one key, one sentence"
            for key, e in englishes.items() if len(e) > 1]  # fmt: skip
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


def _literal(text: str) -> str:
    out = repr(text)
    if out.startswith("'") and '"' not in text:
        out = '"' + out[1:-1].replace("\\'", "'") + '"'
    return out


def _wrapped(text: str, indent: int) -> list[str]:
    """Return ``text`` as string literals of at most 100 columns, cut after spaces."""
    width = 100 - indent - 3
    if len(_literal(text)) <= width + 2:
        return [" " * indent + _literal(text)]
    parts, current = [], ""
    for word in text.split(" "):
        longer = f"{current} {word}" if current else word
        if len(_literal(longer)) > width and current:
            parts.append(current + " ")
            current = word
        else:
            current = longer
    parts.append(current)
    return [" " * indent + _literal(p) for p in parts]


def render_source(name: str, texts: dict[str, Source]) -> str:
    """Return the Python of an English-only dict of texts (what ``port`` writes back)."""
    lines = [f"{name}: dict[str, Source] = {{"]
    for key, source in texts.items():
        values = [source] if isinstance(source, str) else list(source)
        one = f"    {_literal(key)}: " + (
            _literal(values[0]) if len(values) == 1 else f"({', '.join(map(_literal, values))})"
        )
        if len(one) < 100:
            lines.append(one + ",")
            continue
        lines.append(f"    {_literal(key)}: (")
        for value in values:
            chunk = _wrapped(value, 8)
            if len(values) > 1:
                chunk[-1] += ","
            lines += chunk
        lines.append("    ),")
    return "\n".join([*lines, "}"]) + "\n"


def port(path: Path, name: str) -> list[str]:
    """Fold the hand-made ``{key: {"en": ..., "fr": ...}}`` dict ``name`` of ``path`` in.

    The file keeps the English only (``{key: "English"}``); the French goes to the ``.po``,
    which is then compiled. The module must be one of the catalogue's sources (for the pages:
    a line in ``pace.web.i18n.MODULES``). Returns the keys that found no place.
    """
    import importlib.util

    spec = importlib.util.spec_from_file_location("_ported", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    hand_made: dict[str, dict[str, str]] = getattr(module, name)
    text = path.read_text(encoding="utf-8")
    start = re.search(rf"^{name}: [^=]+= {{\n", text, re.M)
    if start is None:
        raise SystemExit(f"{path}: no {name} = {{...}} at the start of a line")
    end = text.index("\n}\n", start.start()) + 3
    english = {key: entry["en"] for key, entry in hand_made.items()}
    text = text[: start.start()] + render_source(name, english) + text[end:]
    if "from pace.i18n import Source" not in text:
        text = text.replace(
            "from __future__ import annotations\n",
            "from __future__ import annotations\n\nfrom pace.i18n import Source\n",
            1,
        )
    path.write_text(text, encoding="utf-8")
    import importlib

    import pace.web.i18n as pages

    for loaded in list(sys.modules.values()):  # the ported module, if imported already
        if Path(getattr(loaded, "__file__", "") or "").resolve() == path.resolve():
            importlib.reload(loaded)
    importlib.reload(pages)
    catalog = update("fr")
    by_key = {m.context: m for m in catalog if m.id}
    lost = []
    for key, entry in hand_made.items():
        message = by_key.get(key)
        if message is None:
            lost.append(key)
            continue
        message.string = entry.get("fr") or ""
        message.flags.discard("fuzzy")
    POT.write_bytes(render_po(template()))
    po_path("fr").write_bytes(render_po(catalog))
    mo_path("fr").write_bytes(render_mo(catalog))
    return lost


def main(argv: list[str]) -> int:
    """Run ``update``, ``compile``, ``check`` or ``port``."""
    command = argv[0] if argv else "check"
    if command == "port" and len(argv) == 3:
        lost = port(Path(argv[1]), argv[2])
        for key in lost:
            print(f"{key}: not a source of the catalogue (add the module to its MODULES)")
        return 1 if lost else 0
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

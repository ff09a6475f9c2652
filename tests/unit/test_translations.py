"""Translations the ecosystem's way (issue 14, point 16; Dutch: issue 41): gettext catalogues.

The English is in the code under stable keys (gettext contexts); ``messages.pot`` is extracted
from it, the French and the Dutch are in ``fr|nl/LC_MESSAGES/messages.po``, compiled to
``messages.mo``, all committed and checked fresh here. Every key a template, a script or a
Python message uses must be a text of the catalogue, and every text must have its French and
its Dutch.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from pace import i18n
from pace.i18n import catalog
from pace.reports import words
from pace.web import i18n as pages
from pace.web.dashboard.pages import explanation_words

#: what a script may say: the pages' texts, and the report's words the dashboard is given for
#: an alert's "Why" (static/dashboard/why.js)
SCRIPT_TEXTS = {**pages.ENGLISH, **explanation_words("en")}

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
SCRIPTS = ROOT / "static"

#: t('key'), t("key"), tn('key', ...), and the reports' txn('key', ...)
LITERAL = re.compile(r"""\b(?:t|tn|txn)\(\s*(['"])([\w.:-]+)\1\s*[,)]""")
#: t(`prefix.${...}`) in scripts, t('prefix.' ~ x) in templates: a family of keys
PREFIX = re.compile(r"""\b(?:t|tn)\(\s*(?:`([\w.]+)\$\{|(['"])([\w.]+\.)\2\s*~)""")
#: Python: translate("key", ...), translate_n("key", ...), _t("key", ...), text("key", ...)
PYTHON = re.compile(r"""\b(translate|translate_n|_t|text|text_n)\(\s*f?"([\w.:{}-]+)\"""")


def used_keys(folder: Path, pattern: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob(pattern)):
        if "vendor" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        found[str(path.relative_to(ROOT))] = {m[1] for m in LITERAL.findall(text)}
    return found


def test_the_catalogues_are_fresh_and_every_text_has_its_french_and_dutch():
    assert catalog.TRANSLATED == ("fr", "nl")
    assert catalog.problems() == []


def test_every_dutch_text_is_dutch_not_a_copy_of_the_english():
    # a translator who copies the English marks the text done without translating it: only
    # words Dutch golf writes the same way (Stableford, par, greensome, a lone field) may match
    same = {
        m.context
        for m in catalog.read("nl")
        if m.id
        and m.string
        and (m.string if isinstance(m.string, str) else m.string[0])
        == (m.id if isinstance(m.id, str) else m.id[0])
    }
    english = {c: s if isinstance(s, str) else s[0] for c, s, _ in catalog.sources()}
    long_copies = sorted(
        c
        for c in same
        if len(re.findall(r"(?<!\{)\b[a-z]{2,}\b(?!\})", english.get(c, ""), re.I)) > 3
    )
    assert long_copies == []


def test_a_stale_dutch_catalogue_is_found(monkeypatch, tmp_path):
    # a .po edited without ``compile`` leaves its .mo behind: reported for nl as for fr
    stale = tmp_path / "messages.mo"
    stale.write_bytes(catalog.mo_path("fr").read_bytes())
    original = catalog.mo_path
    monkeypatch.setattr(catalog, "mo_path", lambda lang: stale if lang == "nl" else original(lang))
    found = catalog.problems()
    assert any("messages.mo is not" in p and "/nl/" in p for p in found), found


def test_the_check_fails_for_a_text_without_french(monkeypatch):
    original = catalog.sources

    def more():
        yield from original()
        yield "dash.brand_new", "A text nobody translated", "pace/web/i18n.py"

    monkeypatch.setattr(catalog, "sources", more)
    found = catalog.problems()
    assert any("messages.pot is not the code's texts" in p for p in found)
    assert any("'dash.brand_new'" in p and "no fr translation" in p for p in found)
    assert any("'dash.brand_new'" in p and "no nl translation" in p for p in found)


def test_every_key_a_page_template_or_a_script_uses_is_a_text():
    missing = []
    for where, keys in {**used_keys(TEMPLATES, "*.html"), **used_keys(SCRIPTS, "*.js")}.items():
        known = (
            words.TEXTS if where.startswith("templates/reports/")
            else SCRIPT_TEXTS if where.startswith("static/") else pages.ENGLISH
        )  # fmt: skip
        missing += [f"{where}: {k}" for k in keys if k not in known]
    assert missing == []


def test_every_family_of_keys_a_page_builds_has_texts():
    families: set[tuple[str, bool, bool]] = set()
    scripts = [p for p in SCRIPTS.rglob("*.js") if "vendor" not in p.parts]
    for path in [*TEMPLATES.rglob("*.html"), *scripts]:
        report = "reports" in path.parts
        for m in PREFIX.finditer(path.read_text(encoding="utf-8")):
            families.add((m[1] or m[3], report, path.suffix == ".js"))
    assert {("status.", False), ("role.", False), ("dash.siren.", False)} <= {
        f[:2] for f in families
    }
    for prefix, report, script in families:
        known = words.TEXTS if report else SCRIPT_TEXTS if script else pages.ENGLISH
        assert any(k.startswith(prefix) for k in known), prefix


def test_every_key_the_python_code_says_is_a_text():
    missing = []
    for path in sorted((ROOT / "pace").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for function, key in PYTHON.findall(text):
            if "{" in key:
                continue  # built from a value: its family is checked where it is defined
            known = words.TEXTS if function in ("text", "text_n") else pages.ENGLISH
            if function in ("text", "text_n") and "reports" not in path.parts:
                continue  # another function of that name
            if key not in known:
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    assert missing == []


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("en", 1, "+1 stroke"),
        ("en", 2, "+2 strokes"),
        ("fr", 1, "+1 coup"),
        ("fr", 2, "+2 coups"),
        ("fr", 0, "+0 coup"),
        ("nl", 1, "+1 slag"),
        ("nl", 2, "+2 slagen"),
        ("nl", 0, "+0 slagen"),
    ],
)
def test_plurals_follow_the_languages_rule(lang, n, expected):
    # issue 14: the dashboard said "+1 stroke(s)"
    assert pages.translate_n("pen.strokes_total", n, lang) == expected


def test_the_scripts_get_plurals_as_their_forms():
    forms = pages.catalogue("fr")["pen.strokes_total"]
    assert forms == {"one": "+{n} coup", "other": "+{n} coups"}
    assert pages.catalogue("fr")["live.online"] == "En ligne"
    assert pages.catalogue("en")["live.online"] == "Online"
    assert pages.catalogue("nl")["pen.strokes_total"] == {"one": "+{n} slag",
                                                          "other": "+{n} slagen"}  # fmt: skip
    assert pages.catalogue("nl")["status.out_of_position"] == "Uit positie"


def test_the_reports_speak_through_the_same_catalogue():
    assert words.text("group_n", "fr", group="7") == "Partie 7"
    assert words.text_n("held_line", 1, "en", group="3", hole=4, time="10:02", minutes="9 min",
                        behind="4", holes="4") .startswith("Group 3 held up 1 group")  # fmt: skip
    assert i18n.translations("fr").pgettext("words:title", "Pace-of-play report") == (
        "Rapport sur le rythme de jeu"
    )
    assert words.text("group_n", "nl", group="7") == "Flight 7"
    assert words.text_n("effect.strokes", 2, "nl", amount=2, hole=4) == "2 strafslagen op hole 4"
    assert words.seconds(timedelta(seconds=46.2), "nl") == "46,2 s"


def test_dates_and_times_are_babels_in_the_rounds_language_and_zone():
    at = datetime(2026, 6, 14, 7, 10, tzinfo=UTC)
    brussels = ZoneInfo("Europe/Brussels")
    assert pages.local_time(at, brussels, "fr") == "09:10"
    assert pages.local_datetime(at, brussels, "fr") == "14/06/2026 09:10"
    assert pages.local_date(at.date(), "fr") == "14 juin 2026"
    assert pages.local_date(at.date(), "en") == "June 14, 2026"
    assert pages.local_time(at, brussels, "nl") == "09:10"
    assert pages.local_datetime(at, brussels, "nl") == "14/06/2026 09:10"
    assert pages.local_date(at.date(), "nl") == "14 juni 2026"

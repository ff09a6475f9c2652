"""No CSV export of pace hands a spreadsheet a formula (issue 38, item 4).

A draw may come from the players' own online entries: names such as ``=HYPERLINK(...)``,
``+SUM(1+1)``, ``@cmd...`` or ``-2+3``. Every CSV the command line writes (``pace results
--csv`` and ``--excel`` from files, of a stored round and of a competition (``--event``),
``pace report --format csv``, ``pace sheet --format csv``) is read back: no cell begins with a
formula character unguarded, while the figures (``-1`` playing handicap, ``-1.2`` index) stay
figures.
The HTTP exports are checked against a real server in tests/security/test_console.py.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli
from pace.formats import spreadsheet

DATA = Path(__file__).resolve().parents[1] / "data" / "results"
PACE = Path(__file__).resolve().parents[2] / "pace"

#: the golden players renamed as a hostile entry form would send them
HOSTILE = {
    "Julie Gagné": '=HYPERLINK("http://evil.example/","Julie")',
    "Luc Nadeau": "+SUM(1+1)",
    "Marc Roy": "@cmd|' /C calc'!A0",
    "Anne Côté": "-2+3",
}
NUMBER = re.compile(r"[+-]?(\d+([.,]\d+)?|[.,]\d+)")


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args, code=0) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def rewritten(tmp_path: Path, name: str, delimiter: str) -> Path:
    """Return the golden file ``name`` with the players renamed as a hostile entry form
    would send them, properly quoted."""
    text = (DATA / name).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    for i, row in enumerate(rows):
        rows[i] = [HOSTILE.get(c, c) for c in row]
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerows(rows)
    path = tmp_path / name
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def hostile(tmp_path: Path, name: str) -> Path:
    return rewritten(tmp_path, name, ",")


def files(tmp_path: Path) -> list[object]:
    return ["--course", DATA / "course.toml", "--draw", hostile(tmp_path, "draw.csv"),
            "--scores", rewritten(tmp_path, "scores.csv", ";")]  # fmt: skip


def cells(text: str) -> list[list[str]]:
    text = text.removeprefix("\ufeff")
    delimiter = ";" if text.split("\n", 1)[0].count(";") else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def assert_no_formula(text: str) -> list[list[str]]:
    rows = cells(text)
    assert len(rows) > 1
    for row in rows:
        for cell in row:
            if cell[:1] in spreadsheet.FORMULA_START:
                assert cell == "-" or NUMBER.fullmatch(cell), (cell, row)
    return rows


def test_the_guard_keeps_figures_and_quotes_formulas():
    assert [spreadsheet.guard(v) for v in HOSTILE.values()] == ["'" + v for v in HOSTILE.values()]
    assert [spreadsheet.guard(v) for v in (-3, "-3", "+2", "-1,5", "-0.25", "-", "", None, 4)] == [
        "-3", "-3", "+2", "-1,5", "-0.25", "-", "", "", "4"
    ]  # fmt: skip
    assert spreadsheet.guard("\tx") == "'\tx" and spreadsheet.guard("\rx") == "'\rx"


@pytest.mark.parametrize("scoring", ["stroke", "stableford", "match", "bogey"])
@pytest.mark.parametrize("excel", [False, True], ids=["csv", "excel"])
def test_results_csv_from_files_quotes_every_hostile_name(tmp_path, scoring, excel):
    out = run("results", *files(tmp_path), "--scoring", scoring, "--net", "--csv",
              *(["--excel"] if excel else []))  # fmt: skip
    rows = assert_no_formula(out)
    text = "\n".join("|".join(r) for r in rows)
    for evil in ('=HYPERLINK("http://evil.example/","Julie")', "+SUM(1+1)"):
        assert "'" + evil in text
    if scoring != "match":
        head, *body = rows
        # Luc Nadeau's +1.2 index plays off -1: a figure, not a quoted text
        luc = next(r for r in body if r[head.index("entry")] == "'+SUM(1+1)")
        assert luc[head.index("playing_handicap")] == "-1"
        assert luc[head.index("handicap_index")] in ("-1.2", "-1,2")


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "pace.db"
    run("import", "course", DATA / "course.toml", "--db", path)
    run("import", "draw", hostile(tmp_path, "draw.csv"), "--round", "R1", "--date",
        "2026-06-14", "--timezone", "Europe/Brussels", "--scoring", "stroke", "--net",
        "--db", path)  # fmt: skip
    return path


def test_a_stored_rounds_csv_exports_quote_every_hostile_name(db, tmp_path):
    for excel in ([], ["--excel"]):
        rows = assert_no_formula(run("results", "--round", "R1", "--db", db, "--csv", *excel))
        assert "'+SUM(1+1)" in [r[4] for r in rows]
    report = tmp_path / "report.csv"
    run("report", "--round", "R1", "--db", db, "--format", "csv", "-o", report,
        "--progress", "none")  # fmt: skip
    assert_no_formula(report.read_text(encoding="utf-8"))


def test_a_competitions_csv_quotes_every_hostile_name(db, tmp_path):
    run("import", "draw", hostile(tmp_path, "draw.csv"), "--round", "R2", "--date",
        "2026-06-15", "--timezone", "Europe/Brussels", "--scoring", "stroke", "--net",
        "--db", db)  # fmt: skip
    for name in ("R1", "R2"):
        run("import", "scores", rewritten(tmp_path, "scores.csv", ";"), "--round", name,
            "--db", db)  # fmt: skip
    run("event", "create", "Formula cup", "--round", "R1", "--round", "R2", "--db", db)
    for excel in ([], ["--excel"]):
        out = run("results", "--event", "Formula cup", "--db", db, "--csv", *excel)
        rows = assert_no_formula(out)
        entry = rows[0].index("entry")
        assert "'+SUM(1+1)" in [r[entry] for r in rows[1:]]


def test_the_timing_sheet_csv_quotes_every_hostile_name(tmp_path):
    out = run("sheet", "--course", DATA / "course.toml", "--draw", hostile(tmp_path, "draw.csv"),
              "--format", "csv", "--date", "2026-06-14")  # fmt: skip
    rows = assert_no_formula(out)
    assert any(r[3].startswith("'=HYPERLINK(") for r in rows)


def test_every_csv_writer_of_pace_guards_its_cells():
    """One guard for every export: ``csv.writer`` only in pace.formats.spreadsheet, and in the
    demo's own input files (its draw and hole times, read back by pace's importers)."""
    writers = sorted(
        str(p.relative_to(PACE.parent))
        for p in PACE.rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\(", p.read_text(encoding="utf-8"))
    )
    assert writers == ["pace/demo/data.py", "pace/formats/spreadsheet.py"]

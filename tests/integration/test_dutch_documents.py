"""Documents in Dutch from a real database and the CLI (issue 41), read back with pdftotext.

The paper round of tests/integration/test_reports.py, its draw with a ``taal`` column: Cid
Poe's letter language is Dutch, Eve Kim's French, the others none. The committee's language
for the round is stored with it; a document asked for without ``--lang`` is in it, a letter
in its player's own language where the draw gives one.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pace.cli import cli
from pace.store import open_store

DAY = "2026-06-14"

COURSE = """name = "Trois trous"
hole_count = 3  # a practice loop: not 9 or 18, and said so
[[holes]]
number = 1
par = 4
[[holes]]
number = 2
par = 4
[[holes]]
number = 3
par = 4
"""
TIMES = """group,hole,completed
A,1,08:12
A,2,08:24
A,3,08:36
B,1,08:26
B,2,08:41
B,3,08:45
C,1,08:34
C,2,08:49
C,3,08:59
"""
#: the referee's paper log (docs/formats.md §5), as `pace import referee-log` takes it
REFEREE_LOG = """at,act,group,player,hole,kind,first,seconds,id,fault,decision,reason
08:27:00,decide,B,,,,,,,,time,
08:28:00,tell,B,Cid Poe,,,,,,,,
08:29:00,tell,B,Dee Fox,,,,,,,,
08:33:00,stroke,B,Cid Poe,2,other,no,46.0,S1,,,
08:35:00,notify,B,Cid Poe,,,,,,S1,,
08:38:00,stroke,B,Cid Poe,2,approach,yes,51.0,S2,,,
08:39:00,stroke,B,Dee Fox,2,other,no,38.0,S3,,,
08:46:00,stop,B,,,,,,,,,
08:50:00,decide,C,,,,,,,,not_time,ruling
"""


def run(*args: object, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result


def pdf_text(path: Path) -> str:
    """Return the PDF's text: pages split by form feeds, each run of blanks one space."""
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return "\f".join(" ".join(page.split()) for page in out.stdout.split("\f"))


#: the paper round's draw, with the players' languages (French and Flemish spellings)
DRAW = """group,start,tee,player,taal
A,08:00,1,Ann Lee,
A,08:00,1,Bob Roy,
B,08:10,1,Cid Poe,nl-BE
B,08:10,1,Dee Fox,
C,08:20,1,Eve Kim,Français
C,08:20,1,Fay Oz,
"""


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def dutch_db(tmp_path) -> Path:
    """Round P1 timed on paper, its players' languages in the draw."""
    db = tmp_path / "paper.db"
    for name, text in (("course.toml", COURSE), ("draw.csv", DRAW), ("times.csv", TIMES),
                       ("referee.csv", REFEREE_LOG)):  # fmt: skip
        (tmp_path / name).write_text(text, encoding="utf-8")
    run("import", "course", tmp_path / "course.toml", "--db", db)
    run("import", "draw", tmp_path / "draw.csv", "--round", "P1", "--date", DAY,
        "--timezone", "Europe/Brussels", "--db", db)  # fmt: skip
    run("import", "times", tmp_path / "times.csv", "--round", "P1", "--db", db)
    run("import", "referee-log", tmp_path / "referee.csv", "--round", "P1",
        "--by", "Marc Arbitre", "--db", db)  # fmt: skip
    return db


def test_a_report_in_dutch_reads_back_from_its_pdf(dutch_db, tmp_path):
    out = tmp_path / "rapport.pdf"
    run("report", "--round", "P1", "--db", dutch_db, "--format", "pdf", "-o", out, "--lang", "nl")
    text = pdf_text(out)
    assert "Rapport speeltempo" in text and "Flight B" in text and "Cid Poe" in text
    assert "1 strafslag op hole 2" in text and "terug in positie" in text
    assert "waarschuwing (geen gevolg voor de score)" in text
    assert "Flight B hield 1 flight op op hole 2" in text
    assert "pagina 1 /" in text
    assert "Group B" not in text and "Partie B" not in text


def test_the_rounds_language_is_the_default_of_its_documents(dutch_db, tmp_path):
    with open_store(dutch_db) as store:
        store.update_round("P1", language="nl")
    html = run("report", "--round", "P1", "--db", dutch_db).output
    assert '<html lang="nl">' in html and "Rapport speeltempo" in html
    # asked for, another language wins over the round's
    assert "Rapport sur le rythme de jeu" in run("report", "--round", "P1", "--db", dutch_db,
                                                 "--lang", "fr").output  # fmt: skip


def test_each_letter_is_in_its_players_language_where_the_draw_says_it(dutch_db, tmp_path):
    out = tmp_path / "brieven.pdf"
    run("letters", "--round", "P1", "--db", dutch_db, "--format", "pdf", "-o", out,
        "--lang", "en")  # fmt: skip
    letters = [p for p in pdf_text(out).split("\f") if p.strip()]
    assert len(letters) == 4
    cid = next(p for p in letters if "Cid Poe" in p and p.startswith("Speeltempo"))
    assert "Aan Cid Poe (flight B)" in cid
    assert "Uw flight speelde hole 2 uit om 08:41, 7 minuten boven de toegestane tijd" in cid
    assert "46,0 s op hole 2 (toegestaan 40,0 s, slechte tijd)" in cid
    assert "1 strafslag op hole 2" in cid and "Meegedeeld om 08:35 door Marc Arbitre" in cid
    eve = next(p for p in letters if "Eve Kim (partie C)" in p)
    assert "Rythme de jeu" in eve or "rythme de jeu" in eve
    dee = next(p for p in letters if "To Dee Fox (group B)" in p)  # no language: the asked one
    assert "Your group finished hole 2 at 08:41" in dee
    html = run("letters", "--round", "P1", "--db", dutch_db, "--lang", "en").output
    assert '<article class="letter" data-group="B" lang="nl">' in html
    assert '<article class="letter" data-group="B" lang="en">' in html
    # per group: B's players do not share a language, so the group's letter is the asked one
    group = run("letters", "--round", "P1", "--db", dutch_db, "--per", "group",
                "--lang", "nl").output  # fmt: skip
    assert "Aan de spelers van flight B: Cid Poe, Dee Fox" in group


def test_the_timing_sheet_and_the_results_sheet_in_dutch(dutch_db, tmp_path):
    sheet = run("sheet", "--course", tmp_path / "course.toml", "--draw", tmp_path / "draw.csv",
                "--format", "html", "--lang", "nl", "--date", DAY).output  # fmt: skip
    assert "<html lang='nl'>" in sheet and "Tijdenblad — Trois trous" in sheet
    assert "<th class='group'>flight</th>" in sheet and "par 4" in sheet
    run("results", "--round", "P1", "--db", dutch_db, "--format", "pdf", "-o", "u.pdf",
        "--lang", "nl")  # fmt: skip
    text = pdf_text(tmp_path / "u.pdf")
    assert "Uitslagen · P1" in text and "14/06/2026" in text
    assert "Uitslagen nog niet definitief" in text

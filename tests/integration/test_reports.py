"""Post-round reports from a real database: a round timed on paper, the CLI's exports (issue 12).

The paper round, worked by hand. Course: three par 4s, so a 2-ball has 12 minutes a hole
(docs/rules.md §1: 12 minutes average, par 4 = the average). Draw: A 08:00, B 08:10, C 08:20,
two players each, 10-minute interval. Hole times from the referees' sheets:

    A  08:12 08:24 08:36   on pace all round
    B  08:26 08:41 08:45   over 4 and 7 with gaps 14 and 17 (> 10): out of position from
                           hole 1; hole 3 at 35 of 36 minutes: back in position
    C  08:34 08:49 08:59   over 2 and 5, 8 behind B: behind (held up by B); hole 3: 3 over,
                           14 behind: out of position

So B held the field up: at hole 1 (C 2 over) and hole 2 (C 5 over). The referee's log: B
timed from 08:27, Cid Poe told at 08:28, 46.0 s on hole 2 (bad time, warning), told of it
at 08:35, then 51.0 s for an approach he played first (50 s allowed: 1 penalty stroke on
hole 2); Dee Fox 38.0 s; timing stopped by itself at 08:45 (B back in position; the
referee's stop came at 08:46); C not timed (a ruling) at 08:50.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import jsonschema
import pytest
from click.testing import CliRunner, Result

from pace import config
from pace.cli import cli
from pace.rules.model import Status
from pace.services.reports import ReportService
from pace.services.rounds import RoundService
from pace.store import open_store

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))
TZ = ZoneInfo("Europe/Brussels")
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
DRAW = """group,start,tee,player
A,08:00,1,Ann Lee
A,08:00,1,Bob Roy
B,08:10,1,Cid Poe
B,08:10,1,Dee Fox
C,08:20,1,Eve Kim
C,08:20,1,Fay Oz
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


def local(hhmm: str) -> datetime:
    h, m, *s = (int(x) for x in hhmm.split(":"))
    return datetime(2026, 6, 14, h, m, s[0] if s else 0, tzinfo=TZ)


def run(*args: object, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def paper_db(tmp_path) -> Path:
    """Round P1 timed on paper: the committee's files and the referee's log imported."""
    db = tmp_path / "paper.db"
    for name, text in (("course.toml", COURSE), ("draw.csv", DRAW), ("times.csv", TIMES)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    run("import", "course", tmp_path / "course.toml", "--db", db)
    run("import", "draw", tmp_path / "draw.csv", "--round", "P1", "--date", DAY,
        "--timezone", "Europe/Brussels", "--db", db)  # fmt: skip
    run("import", "times", tmp_path / "times.csv", "--round", "P1", "--db", db)
    (tmp_path / "referee.csv").write_text(REFEREE_LOG, encoding="utf-8")
    out = run("import", "referee-log", tmp_path / "referee.csv", "--round", "P1",
              "--by", "Marc Arbitre", "--db", db)  # fmt: skip
    assert "9 referee acts imported" in out.output
    return db


def report_of(db: Path):
    with open_store(db) as store:
        return ReportService(RoundService(store, config.Settings())).round_report("P1")


def test_the_paper_round_is_reported_from_its_imported_times_and_referee_log(paper_db):
    r = report_of(paper_db).report
    b = r.group("B")
    assert [(h.logged, h.over // timedelta(minutes=1)) for h in b.holes] == [
        (local("08:26"), 4), (local("08:41"), 7), (local("08:45"), -1),
    ]  # fmt: skip
    [e] = b.episodes
    assert (e.episode.start, e.episode.end, e.episode.ended_by) == (
        local("08:26"), local("08:45"), "back_in_position",
    )  # fmt: skip
    assert e.holes == (1, 2, 3) and e.worst_gap == timedelta(minutes=17)
    [held] = r.field.held_up
    assert (held.group, held.groups, held.worst.hole, held.minutes) == (
        "B", 1, 2, timedelta(minutes=5),
    )  # fmt: skip
    assert [h.status for h in r.group("C").holes] == [
        Status.BEHIND, Status.BEHIND, Status.OUT_OF_POSITION,
    ]  # fmt: skip
    cid = b.players[0]
    assert [(f.outcome.penalty.kind, f.notified is not None) for f in cid.faults] == [
        ("warning", True), ("strokes", False),
    ]  # fmt: skip
    assert cid.faults[0].notified.by == "Marc Arbitre"
    assert [d.reason for d in r.group("C").acts.decisions] == ["ruling"]
    # the spell ended by itself when hole 3 put B back in position (docs/rules.md §4.6), before the
    # referee's stop at 08:46
    [spell] = b.acts.spells
    assert (spell.start, spell.end, spell.ended_by, spell.by) == (
        local("08:27"), local("08:45"), "back_in_position", "Marc Arbitre",
    )  # fmt: skip


def pdf_text(path: Path) -> str:
    """Return the PDF's text: pages split by form feeds, each run of blanks one space."""
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return "\f".join(" ".join(page.split()) for page in out.stdout.split("\f"))


def test_pdftotext_finds_the_groups_times_episodes_and_penalties_in_the_pdf(paper_db, tmp_path):
    out = tmp_path / "report.pdf"
    run("report", "--round", "P1", "--db", paper_db, "--format", "pdf", "-o", out, "--lang", "en")
    assert out.read_bytes().startswith(b"%PDF")
    text = pdf_text(out)
    for expected in ("Group A", "Group B", "Group C", "Cid Poe", "Dee Fox"):
        assert expected in text
    for time in ("08:26", "08:41", "08:45", "08:59"):  # logged times of B and C
        assert time in text
    assert "08:26 (Hole 1)" in text and "back in position" in text  # B's episode
    assert "Group B held up 1 group at hole 2" in text
    assert "warning (no effect on the score)" in text
    assert "1 penalty stroke on hole 2" in text
    assert "page 1 /" in text


def test_the_pdf_is_in_the_rounds_language(paper_db, tmp_path):
    out = tmp_path / "rapport.pdf"
    run("report", "--round", "P1", "--db", paper_db, "--format", "pdf", "-o", out, "--lang", "fr")
    text = pdf_text(out)
    assert "Rapport sur le rythme de jeu" in text and "Partie B" in text
    assert "1 coup de pénalité au trou 2" in text and "revenue en position" in text


def validator() -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())


def test_the_json_validates_against_the_documented_shape(paper_db):
    doc = json.loads(run("report", "--round", "P1", "--db", paper_db, "--format", "json").output)
    validator().validate(doc)
    assert doc["summary"]["held_up"][0]["group"] == "B"
    b = doc["groups"][1]
    assert b["holes"][1]["logged"] == "2026-06-14T08:41:00+02:00"
    assert b["players"][0]["faults"][1]["penalty"] == {
        "kind": "strokes", "amount": 1, "hole": 2, "bearer": "player",
    }  # fmt: skip


def test_the_schema_refuses_a_document_that_drifts(paper_db):
    doc = json.loads(run("report", "--round", "P1", "--db", paper_db, "--format", "json").output)
    doc["groups"][0]["holes"][0]["over"] = 3  # an undocumented key
    del doc["summary"]["bottlenecks"]
    doc["at"] = "08:00"
    where = {e.json_path for e in validator().iter_errors(doc)}
    assert where == {"$.at", "$.summary", "$.groups[0].holes[0]"}


def test_the_csv_has_a_row_per_group_and_hole_per_timed_stroke_and_per_fault(paper_db):
    text = run("report", "--round", "P1", "--db", paper_db, "--format", "csv").output
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [sum(r["record"] == k for r in rows) for k in ("hole", "stroke", "fault")] == [9, 3, 2]
    penalty = [r for r in rows if r["record"] == "fault"][1]
    # the repository's config.toml writes reports in French
    assert (penalty["player"], penalty["penalty"], penalty["effect"]) == (
        "Cid Poe", "strokes", "1 coup de pénalité au trou 2",
    )  # fmt: skip


def test_the_excel_csv_has_semicolons_decimal_commas_and_a_bom(paper_db, tmp_path):
    out = tmp_path / "r.csv"
    run("report", "--round", "P1", "--db", paper_db, "--format", "csv", "--excel", "-o", out)
    raw = out.read_bytes()
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    b1 = next(r for r in rows if r["group"] == "B" and r["hole"] == "1")
    assert b1["over_min"] == "4,0" and b1["status"] == "out_of_position"


def test_the_letters_are_one_per_player_concerned_one_per_page(paper_db, tmp_path):
    out = tmp_path / "letters.pdf"
    run("letters", "--round", "P1", "--db", paper_db, "--format", "pdf", "-o", out, "--lang", "en")
    pages = pdf_text(out).split("\f")
    letters = [p for p in pages if p.strip()]
    # B's and C's players: their groups were out of position
    assert len(letters) == 4
    cid = next(p for p in letters if "To Cid Poe (group B)" in p)
    assert "finished hole 2 at 08:41, 7 minutes over its allotted time and 17 minutes" in cid
    eve = next(p for p in letters if "To Eve Kim (group C)" in p)
    assert "finished hole 3 at 08:59, 3 minutes over its allotted time and 14 minutes" in eve
    assert "On holes 1, 2 your group was over its allotted time but close behind" in eve
    assert "46.0 s on hole 2 (allowed 40.0 s, bad time)" in cid
    assert "1 penalty stroke on hole 2" in cid and "Told at 08:35 by Marc Arbitre" in cid
    html = run("letters", "--round", "P1", "--db", paper_db, "--per", "group", "--lang", "fr")
    assert html.output.count("<article") == 2 and "Aux joueurs de la partie B" in html.output


def test_a_report_up_to_an_instant_leaves_out_what_came_later(paper_db):
    doc = json.loads(
        run("report", "--round", "P1", "--db", paper_db, "--format", "json", "--at", "08:30").output
    )
    b = doc["groups"][1]
    assert [h["logged"] is not None for h in b["holes"]] == [True, False, False]
    assert doc["at"] == "2026-06-14T08:30:00+02:00"


def test_an_unknown_round_is_refused_by_name(paper_db):
    result = run("report", "--round", "nope", "--db", paper_db, code=1)
    assert "nope" in result.output


def test_repeat_offenders_list_each_player_once_with_the_rounds_in_the_window(paper_db):
    text = run("offenders", "--db", paper_db, "--days", "3650", "--json").output
    doc = json.loads(text)
    names = [p["player"] for p in doc["players"]]
    assert sorted(names) == ["Cid Poe", "Dee Fox", "Eve Kim", "Fay Oz"]
    cid = next(p for p in doc["players"] if p["player"] == "Cid Poe")
    assert (cid["episodes"], cid["bad_times"], cid["penalties"]) == (1, 2, 2)
    assert cid["rounds"][0]["round"] == "P1"
    assert (
        json.loads(run("offenders", "--db", paper_db, "--days", "1", "--json").output)["players"]
        == []
    )  # the round's day is outside a one-day window ending today


def test_a_time_credit_is_written_with_a_comma_in_a_dutch_report(paper_db, tmp_path):
    # issue 47: the report wrote "7.0 min" on a Dutch page
    from pace.rules.events import Event

    at = datetime.fromisoformat(f"{DAY}T09:30:00+02:00")
    with open_store(paper_db) as store:
        store.append(Event("credit-1", "time_credit_granted", "P1", at,
                           {"group": "B", "minutes": 7.5, "reason": "ruling"},
                           by={"role": "referee", "device": "r"}), recorded_at=at)  # fmt: skip
    out = tmp_path / "rapport.html"
    run("report", "--round", "P1", "--db", paper_db, "--format", "html", "-o", out, "--lang", "nl")
    page = out.read_text(encoding="utf-8")
    assert "7,5 min" in page and "7.5 min" not in page


def test_the_report_and_the_letters_write_the_day_as_the_results_sheet_does(paper_db, tmp_path):
    # issue 47: the report and the letters wrote 2026-06-14 where the results sheet writes
    # 14/06/2026 in French and Dutch
    out = tmp_path / "rapport.html"
    run("report", "--round", "P1", "--db", paper_db, "--format", "html", "-o", out, "--lang", "nl")
    assert "<dd>14/06/2026</dd>" in out.read_text(encoding="utf-8")
    letters = run("letters", "--round", "P1", "--db", paper_db, "--per", "group", "--lang", "nl")
    assert "14/06/2026" in letters.output and "2026-06-14" not in letters.output
    english = run("letters", "--round", "P1", "--db", paper_db, "--per", "group", "--lang", "en")
    assert "2026-06-14" in english.output

"""The report's course strip at a chosen instant (issue 40): ``pace report --strip-at``, its
JSON, its static SVG in the HTML and the PDF, against the status document at that instant.

Course: three par 4s (12 minutes a hole for a 2-ball). Draw: A 08:00, B 08:10, C 08:20. Taps,
each *recorded* a minute after it happened, except B's hole 2 at 08:41, logged at 09:30 (a late
tap), and A's hole 1, corrected at 09:00 from 08:14 to 08:12:

    A  08:14→08:12 08:24 08:36
    B  08:26 08:41 (logged 09:30)
    C  08:34

At 08:45, with the corrections logged since (the status document's reading): A finished,
B on hole 3 (4 of 12 minutes passed since 08:41), C on hole 2 (11 of 12 minutes). As the log
stood at 08:45: B's hole 2 was not known yet, so B is on hole 2.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import jsonschema
import pytest
from click.testing import CliRunner, Result

from pace import config
from pace.cli import cli
from pace.reports.status import status_document
from pace.rules.events import Event
from pace.services.rounds import RoundService
from pace.store import open_store

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))
TZ = ZoneInfo("Europe/Brussels")
COURSE = """name = "Trois trous"
hole_count = 3  # a practice loop
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


def local(hhmm: str) -> datetime:
    h, m = (int(x) for x in hhmm.split(":"))
    return datetime(2026, 6, 14, h, m, tzinfo=TZ)


def run(*args: object, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "strip.db"
    (tmp_path / "course.toml").write_text(COURSE, encoding="utf-8")
    (tmp_path / "draw.csv").write_text(DRAW, encoding="utf-8")
    run("import", "course", tmp_path / "course.toml", "--db", path)
    run("import", "draw", tmp_path / "draw.csv", "--round", "P1", "--date", "2026-06-14",
        "--timezone", "Europe/Brussels", "--db", path)  # fmt: skip
    taps = [
        ("A", 1, "08:14", None), ("A", 2, "08:24", None), ("A", 3, "08:36", None),
        ("B", 1, "08:26", None), ("B", 2, "08:41", "09:30"), ("C", 1, "08:34", None),
    ]  # fmt: skip
    with open_store(path) as store:
        ids = {}
        for group, hole, at, logged in taps:
            payload = {"group": group, "hole": hole}
            by = {"role": "marshal", "device": "m"}
            e = Event(f"{group}{hole}", "hole_completed", "P1", local(at), payload, by)
            store.append(
                e, recorded_at=local(logged) if logged else local(at) + timedelta(minutes=1)
            )
            ids[group, hole] = e.id
        fix = Event("fix", "hole_time_corrected", "P1", local("09:00"),
                    {"target": ids["A", 1], "at": local("08:12").isoformat(), "reason": "late"},
                    {"role": "referee", "device": "r"})  # fmt: skip
        store.append(fix, recorded_at=local("09:00"))
    return path


def strip_of(db: Path, *extra: str) -> dict:
    out = run("report", "--round", "P1", "--format", "json", "--strip-at", "08:45", *extra,
              "--db", db)  # fmt: skip
    report = json.loads(out.output)
    jsonschema.validate(report, SCHEMA)
    return report["strip"]


def test_the_reports_strip_is_status_at_its_instant_with_later_corrections(db):
    strip = strip_of(db)
    assert strip["at"] == "08:45" and strip["reading"] == "corrected"
    assert strip["lanes"] == [{"tee": 1, "holes": [1, 2, 3]}]
    with open_store(db) as store:  # the status document at 08:45 (GET status?at='s)
        field = RoundService(store, config.Settings()).status("P1", local("08:45"))
        status = status_document(field, TZ)
    by = {g["group"]: g for g in strip["groups"]}
    for s in status["groups"]:
        g = by[s["group"]]
        assert (g["status"], g["holes_completed"], g["gap_min"]) == (
            s["status"],
            s["holes_completed"],
            s["gap_min"],
        )
    a, b, c = by["A"], by["B"], by["C"]
    assert a["finished"] and a["hole"] is None
    assert (b["hole"], b["fraction"]) == (3, round(4 / 12, 3))
    assert (c["hole"], c["fraction"]) == (2, round(11 / 12, 3))


def test_as_the_log_stood_the_late_tap_is_not_drawn(db):
    by = {g["group"]: g for g in strip_of(db, "--strip-reading", "known")["groups"]}
    assert by["B"]["hole"] == 2 and by["B"]["holes_completed"] == 1
    # B on hole 2 since 08:26: 19 minutes of its 12: drawn at the hole's end, over
    assert by["B"]["fraction"] == 1.0 and by["B"]["over"] is True


def test_the_html_and_pdf_draw_the_jsons_strip(db, tmp_path):
    strip = strip_of(db)
    page = run("report", "--round", "P1", "--format", "html", "--strip-at", "08:45",
               "--lang", "en", "--db", db).output  # fmt: skip
    svg = re.search(r'<figure class="course-strip">.*?</figure>', page, re.S)
    assert svg, "no strip in the HTML"
    drawn = {
        m["group"]: m
        for m in re.finditer(
            r'<g class="strip-group" data-group="(?P<group>[^"]+)" data-status="(?P<status>[^"]+)"'
            r' data-hole="(?P<hole>[^"]*)" data-fraction="(?P<fraction>[^"]+)"',
            svg[0],
        )
    }
    assert set(drawn) == {g["group"] for g in strip["groups"]}
    for g in strip["groups"]:
        m = drawn[g["group"]]
        assert m["status"] == g["status"]
        assert m["hole"] == ("" if g["hole"] is None else str(g["hole"]))
        assert float(m["fraction"]) == pytest.approx(g["fraction"])
    titles = re.findall(r"<title>([^<]+)</title>", svg[0])
    assert titles == [
        "Group A, finished",
        "Group B, out of position, on hole 3, 33 % of its time passed, 17.0 min behind the"
        " group ahead, holding up groups C",
        "Group C, behind, on hole 2, 92 % of its time passed, 8.0 min behind the group ahead,"
        " held up by group B",
    ]
    assert 'class="strip-chain" data-group="B"' in svg[0]  # B's chain, drawn as such
    assert "The field at 08:45, with the corrections logged since" in svg[0]
    pdf = tmp_path / "r.pdf"
    run("report", "--round", "P1", "--format", "pdf", "--strip-at", "08:45", "-o", pdf, "--db", db)
    assert pdf.read_bytes()[:5] == b"%PDF-"
    # a wrong instant is refused by its option's name
    wrong = run("report", "--round", "P1", "--strip-at", "25:99", "--db", db, code=2)
    assert "--strip-at" in wrong.output

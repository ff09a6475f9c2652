"""Golden events of several rounds run end to end through ``pace results --event`` (issue 28).

Each folder under ``events/`` holds a competition as a committee hands it over: the course,
each round's draw and scores (and, for a round timed on paper, its hole times and referee's
log), and ``expected.toml``, worked out by hand in its comments. The test builds a real
SQLite database with the real import commands (``pace init``, ``pace import course|draw|
scores|times|referee-log``), creates the event with ``pace event create``, and checks the
``pace results --event --json`` document against the file. TOML has no null: ``"null"``
stands for JSON ``null``.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli
from tests.golden.test_penalties_golden import nulls

HERE = Path(__file__).parent / "events"
SCENARIOS = sorted(p.parent for p in HERE.glob("*/expected.toml"))
ENTRY_KEYS = (
    "position", "tied", "class_position", "entry", "players", "class", "made_cut", "rounds",
    "total", "result", "status", "reason", "countback",
)  # fmt: skip


def pace(*args: object) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


def build(folder: Path, expected: dict, db: Path, *, unscored: tuple[str, ...] = ()) -> None:
    """Make the event's database as a committee would, with the import commands (the rounds
    ``unscored`` get their draw and no score: not played yet)."""
    pace("init", "--db", db)
    pace("import", "course", folder / "course.toml", "--db", db)
    for r in expected["rounds"]:
        pace("import", "draw", folder / r["draw"], "--round", r["name"], "--date", r["date"],
             "--timezone", "UTC", "--policy", "frbg", *expected["import"], "--db", db)  # fmt: skip
        if r["name"] in unscored:
            continue
        pace("import", "scores", folder / r["scores"], "--round", r["name"], "--db", db)
        if "times" in r:
            pace("import", "times", folder / r["times"], "--round", r["name"], "--db", db)
            pace("import", "referee-log", folder / r["referee"], "--round", r["name"],
                 "--db", db)  # fmt: skip
    pace("event", "create", expected["event"], *expected["create"], "--db", db)


@pytest.mark.parametrize("folder", SCENARIOS, ids=[f.name for f in SCENARIOS])
def test_golden_event(folder, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
    db = tmp_path / "club.db"
    build(folder, expected, db)

    document = json.loads(pace("results", "--event", expected["event"], "--db", db, "--json"))

    want = nulls(expected["expected"])
    assert list(document) == ["event", "scoring", "holes", "played", "rounds", "cut", "entries"]
    assert document["event"] == expected["event"]
    assert [r["round"] for r in document["rounds"]] == [r["name"] for r in expected["rounds"]]
    for key in ("scoring", "holes", "played", "cut"):
        assert document[key] == want[key], key
    got = document["entries"]
    assert [tuple(e) for e in got] == [ENTRY_KEYS] * len(got)
    assert [e["entry"] for e in got] == [e["entry"] for e in want["entries"]], "entries in order"
    points = want["scoring"] == "points"
    for g, w in zip(got, want["entries"], strict=True):
        figures = [None if r is None else r["figure"] for r in g["rounds"]]
        penalty = [None if r is None else r["penalty_points" if points else "penalty_strokes"]
                   for r in g["rounds"]]  # fmt: skip
        shown = {k: g[k] for k in w if k not in ("rounds", "round_penalties")}
        assert {**shown, "rounds": figures, "round_penalties": penalty} == w, w["entry"]
        for r in g["rounds"]:  # a round's figure is its card's, its penalties included
            if r is not None and r["status"] == "ok":
                card = r["points"] - r["penalty_points"] if points else r["gross"]
                assert r["figure"] == card, (w["entry"], r["round"])
    penalties = [
        {"entry": e["entry"], "round": n, "kind": p["kind"], "hole": p["hole"],
         "amount": p["amount"], "effect": p["effect"]}
        for e in got for n, r in enumerate(e["rounds"], start=1) if r for p in r["penalties"]
    ]  # fmt: skip
    assert penalties == want["penalties"]


def test_the_event_reads_as_a_table_and_a_spreadsheet(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    folder = HERE / "a_two_rounds_cut"
    expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
    db = tmp_path / "club.db"
    build(folder, expected, db)
    event = expected["event"]

    table = pace("results", "--event", event, "--db", db).splitlines()
    assert table[0].startswith(f"event {event}: gross, 2 rounds (18 holes), 2 played; cut: top 3")
    assert table[1].split() == [
        "pos", "entry", "class", "R1", "R2", "total", "result", "countback", "note",
    ]  # fmt: skip
    assert table[3].split()[:8] == ["2", "Julie", "Gagné", "A", "38", "37", "75", "75"]
    assert table[3].endswith("R1: 1 penalty stroke(s)")

    rows = pace("results", "--event", event, "--db", db, "--csv").splitlines()
    assert rows[0].split(",")[:10] == [
        "position", "tied", "class", "class_position", "entry", "made_cut",
        "round_1", "round_1_penalty", "round_2", "round_2_penalty",
    ]  # fmt: skip
    assert rows[2].split(",")[4:11] == ["Julie Gagné", "yes", "38", "1", "37", "0", "75"]
    assert rows[5].split(",")[4:13] == [
        "Sophie Lavoie", "no", "44", "0", "", "", "44", "MC", "mc",
    ]  # fmt: skip

    out = tmp_path / "event.csv"
    pace("results", "--event", event, "--db", db, "--excel", "-o", out)
    raw = out.read_bytes().decode("utf-8")
    assert raw.startswith("\ufeffposition;tied;") and "\r\n" in raw
    assert "1;;AA;1;Luc Nadeau;yes;38;0;37;0;75;75;ok;;R2 last 6: 24\r\n" in raw

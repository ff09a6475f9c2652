"""``pace round finish|final|reopen|status`` on a real SQLite file (issue 28, part 5), and what
``pace results --round`` says of final results; hostile input: an unknown round, final twice,
a reopening without a reason, a score imported after final.

Round R1 is tests/data/results' Stableford round of 2026-06-14 (past: in play by the clock).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data" / "results"


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args, code=0) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "pace.db"
    run("import", "course", DATA / "course.toml", "--db", path)
    run("import", "draw", DATA / "draw.csv", "--round", "R1", "--date", "2026-06-14",
        "--timezone", "Europe/Brussels", "--scoring", "stableford", "--db", path)  # fmt: skip
    return path


def status(db) -> dict:
    return json.loads(run("round", "life", "--round", "R1", "--json", "--db", db))


def test_finish_final_reopen_and_status(db):
    assert status(db)["stage"] == "in_play"
    out = run("round", "finish", "--round", "R1", "--by", "J. Martin", "--db", db)
    assert out.startswith("round R1: finished; finished 2026-") and "(by J. Martin)" in out
    out = run("round", "final", "--round", "R1", "--by", "J. Martin", "--db", db)
    assert out.startswith("round R1: final;") and "results final" in out
    doc = status(db)
    assert (doc["stage"], doc["final"], doc["finalised"]["by"]) == ("final", True, "J. Martin")
    out = run("round", "reopen", "--round", "R1", "--reason", "card of group 2 mis-added",
              "--db", db)  # fmt: skip
    assert "reopened" in out and "(by committee: card of group 2 mis-added)" in out
    assert status(db)["stage"] == "finished"
    line = run("round", "life", "--round", "R1", "--db", db)
    assert line.startswith("round R1: finished;")


def test_results_say_final_and_by_whom_in_every_form(db):
    run("import", "scores", DATA / "scores.csv", "--round", "R1", "--db", db)
    table = run("results", "--round", "R1", "--db", db)
    assert table.splitlines()[1] == "results provisional (round in play)"
    run("round", "finish", "--round", "R1", "--db", db)
    run("round", "final", "--round", "R1", "--by", "J. Martin", "--db", db)
    doc = json.loads(run("results", "--round", "R1", "--db", db, "--json"))
    assert doc["life"]["final"] is True and doc["life"]["finalised"]["by"] == "J. Martin"
    at = doc["life"]["finalised"]["at"]
    table = run("results", "--round", "R1", "--db", db)
    assert table.splitlines()[1] == f"results final {at} by J. Martin"
    rows = list(csv.DictReader(io.StringIO(run("results", "--round", "R1", "--db", db, "--csv"))))
    assert rows and all(
        (r["results"], r["final_at"], r["final_by"]) == ("final", at, "J. Martin") for r in rows
    )
    excel = run("results", "--round", "R1", "--db", db, "--excel")
    assert excel.splitlines()[0].endswith(";results;final_at;final_by")


def test_a_score_imported_after_final_is_refused_and_nothing_is_stored(db):
    run("round", "finish", "--round", "R1", "--db", db)
    run("round", "final", "--round", "R1", "--db", db)
    out = run("import", "scores", DATA / "scores.csv", "--round", "R1", "--db", db, code=1)
    assert "are final since" in out and "a score cannot be added" in out
    assert "pace round reopen" in out
    doc = json.loads(run("results", "--round", "R1", "--db", db, "--json"))
    assert all(e["gross"] is None for e in doc["entries"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["finish", "--round", "R9"], "R9"),
        (["life", "--round", "R9"], "R9"),
        (["final", "--round", "R1"], "finish it first"),
        (["reopen", "--round", "R1", "--reason", "x"], "not final"),
    ],
)
def test_hostile_commands_are_refused_with_a_sentence(db, args, message):
    out = run("round", *args, "--db", db, code=1)
    assert message in out and "Traceback" not in out


def test_final_twice_and_reopen_without_a_reason(db):
    run("round", "finish", "--round", "R1", "--db", db)
    run("round", "final", "--round", "R1", "--by", "A", "--db", db)
    out = run("round", "final", "--round", "R1", "--by", "B", "--db", db, code=1)
    assert "already final" in out and "by A" in out
    assert "--reason" in run("round", "reopen", "--round", "R1", "--db", db, code=2)
    out = run("round", "reopen", "--round", "R1", "--reason", "   ", "--db", db, code=1)
    assert "say why" in out
    assert status(db)["final"] is True

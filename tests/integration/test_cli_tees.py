"""Tee sets through the command line on a real SQLite file (issue 38): a course with tee sets
imported and exported to the same course, a draw whose players take the round's default tees,
a player moved to other tees before he has a score, the stored round's results naming each
player's tees; a bad ``--tees`` exits 2 with a sentence."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pace.cli import cli
from pace.formats import parse_course
from pace.store import open_store

COURSE = (Path(__file__).resolve().parents[1] / "golden" / "results"
          / "b_mixed_tees_stableford" / "course.toml")  # fmt: skip
DRAW = """group,start,tee,player,handicap,gender,class
1,00:10,1,Alain Caron,12.4,M,
1,00:10,1,Claire Ouellet,18.0,F,
1,00:10,1,Éric Caron,30.0,M,B
"""


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args: object, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "club.db"
    (tmp_path / "draw.csv").write_text(DRAW, encoding="utf-8")
    day = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
    run("init", "--db", path)
    run("import", "course", COURSE, "--db", path)
    run("import", "draw", tmp_path / "draw.csv", "--round", "R1", "--date", day, "--timezone",
        "UTC", "--scoring", "stableford", "--net", "--tees", "men=Yellow, women=Red, B=Blue",
        "--db", path)  # fmt: skip
    return path


def players(db: Path) -> list[tuple[str, str | None, str | None]]:
    """The imported draw's players (the changes on the day apply on top of it)."""
    with open_store(db) as store:
        (group,) = store.get_round("R1").groups
    return [(p.name, p.tees, p.gender) for p in group.players]


def test_a_course_with_tee_sets_exports_to_the_same_course(db, tmp_path):
    out = tmp_path / "again.toml"
    run("export", "course", "Golf des Trois Tees", "-o", out, "--db", db)
    text = out.read_text(encoding="utf-8")
    assert text.count("[[tees]]") == 3 and "par = { 5 = 5 }" in text
    assert parse_course(text, "again.toml") == parse_course(COURSE.read_text("utf-8"), "c.toml")


def test_the_draw_takes_the_rounds_default_tees_by_class_then_gender(db):
    assert players(db) == [("Alain Caron", "Yellow", "men"), ("Claire Ouellet", "Red", "women"),
                           ("Éric Caron", "Blue", "men")]  # fmt: skip


def test_a_player_moves_to_other_tees_and_the_results_name_them(db, tmp_path):
    run("round", "change", "tees", "--round", "R1", "--player", "Alain Caron", "--tees", "blue",
        "--reason", "a junior's tees by mistake", "--db", db)  # fmt: skip
    listed = run("round", "changes", "--round", "R1", "--db", db).output
    assert "Alain Caron (group 1) plays from the Blue tees" in listed
    refused = run("round", "change", "tees", "--round", "R1", "--player", "Claire Ouellet",
                  "--tees", "Blue", "--reason", "x", "--db", db, code=1)  # fmt: skip
    assert "no women's slope or rating" in refused.output
    scores = tmp_path / "scores.csv"
    scores.write_text("group,player,hole,strokes\n1,Claire Ouellet,1,5\n", encoding="utf-8")
    run("import", "scores", scores, "--round", "R1", "--db", db)
    refused = run("round", "change", "tees", "--round", "R1", "--player", "Claire Ouellet",
                  "--tees", "Yellow", "--reason", "x", "--db", db, code=1)  # fmt: skip
    assert "has a score on hole 1" in refused.output
    doc = json.loads(run("results", "--round", "R1", "--db", db, "--json").output)
    tees = {e["entry"]: (e["tees"], e["course_handicap"]) for e in doc["entries"]}
    # Alain from the blue: 12.4 × 113/113 + (66.0 − 72) = 6.4 → 6
    assert tees == {"Alain Caron": ("Blue", 6), "Claire Ouellet": ("Red", 19),
                    "Éric Caron": ("Blue", 24)}  # fmt: skip


def test_a_bad_tees_option_exits_2_with_a_sentence(tmp_path):
    (tmp_path / "draw.csv").write_text(DRAW, encoding="utf-8")
    out = run("import", "draw", tmp_path / "draw.csv", "--round", "R2", "--tees", "Yellow",
              "--db", tmp_path / "x.db", code=2)  # fmt: skip
    assert "--tees" in out.output and "GENDER=TEES" in out.output

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


#: issue 47: a Flemish club's export, Dutch headers and genders, the default tees in Dutch
FLEMISH = (
    "\ufeffFlight;Starttijd;Afslag;Voornaam;Naam;Geslacht;Exact HCP;Lidnummer;Club;Afslagkleur\n"
    "1;00:10;1;Jan;Peeters;M;12,4;1234567;Royal Waterloo GC;\n"
    "1;00:10;1;Els;Maes;V;20,1;1234568;Keerbergen GC;\n"
    "2;00:20;10;Pieter;Janssens;man;30;1234570;Rigenée;Blauw\n"
)


def test_a_flemish_start_list_is_imported_with_dutch_default_tees(tmp_path):
    path = tmp_path / "club.db"
    (tmp_path / "startlijst.csv").write_text(FLEMISH, encoding="utf-8")
    day = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
    run("init", "--db", path)
    run("import", "course", COURSE, "--db", path)
    out = run(
        "import",
        "draw",
        tmp_path / "startlijst.csv",
        "--round",
        "R47",
        "--date",
        day,
        "--timezone",
        "UTC",
        "--tees",
        "heren=Geel, dames=Rood",
        "--db",
        path,
    ).output
    assert "2 groups, 3 players imported" in out and "note:" not in out
    with open_store(path) as store:
        groups = store.get_round("R47").groups
    assert [(g.id, g.tee) for g in groups] == [("1", 1), ("2", 10)]
    assert [(p.name, p.handicap, p.gender, p.tees, p.club) for g in groups for p in g.players] == [
        ("Jan Peeters", 12.4, "men", "Yellow", "Royal Waterloo GC"),
        ("Els Maes", 20.1, "women", "Red", "Keerbergen GC"),
        ("Pieter Janssens", 30.0, "men", "Blue", "Rigenée"),
    ]


def test_dutch_default_tees_the_course_lacks_are_refused_by_the_command(tmp_path):
    path = tmp_path / "club.db"
    (tmp_path / "startlijst.csv").write_text(FLEMISH, encoding="utf-8")
    run("init", "--db", path)
    run("import", "course", COURSE, "--db", path)
    out = run(
        "import",
        "draw",
        tmp_path / "startlijst.csv",
        "--round",
        "R47",
        "--date",
        "2026-06-13",
        "--tees",
        "heren=Geel, dames=Wit",
        "--db",
        path,
        code=1,
    ).output
    assert "default tees for 'dames': tees 'Wit' are not a tee set" in out

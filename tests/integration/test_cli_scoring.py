"""The scoring commands on a stored round (issue 11): ``pace import draw --scoring``, ``pace
import scores`` and ``pace results --round``, through Click's runner on a real SQLite file.

The round is the results golden files' (tests/data/results: nine holes, four players); its
stored results must be the document ``pace results`` prints from the files.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data" / "results"
FILES = ["--course", DATA / "course.toml", "--draw", DATA / "draw.csv"]


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
        "--timezone", "Europe/Brussels", "--scoring", "stableford", "--net", "--allowance", "90",
        "--db", path)  # fmt: skip
    return path


def stored(db: Path) -> tuple:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT scoring, net, allowance, play FROM rounds").fetchone()


def test_a_round_stores_its_scoring_net_and_allowance(db):
    assert stored(db) == ("stableford", 1, "[90.0]", "stroke_play")
    out = run("import", "draw", DATA / "draw.csv", "--round", "R1", "--scoring", "match",
              "--gross", "--db", db)  # fmt: skip
    assert "4 players imported" in out
    assert stored(db) == ("match", 0, "[90.0]", "match_play")  # match play follows the scoring


@pytest.mark.parametrize(
    "options, message",
    [
        (["--scoring", "match", "--play", "stroke_play"], "contradicts it"),
        (["--scoring", "golf"], "unknown scoring 'golf'"),
        (["--allowance", "60/40"], "takes 1 allowance"),
        (["--allowance", "ninety"], "expected a percentage"),
        (["--allowance", "120"], "from 0 to 100"),
    ],
)
def test_a_bad_scoring_setup_is_refused_and_stores_nothing(tmp_path, options, message):
    path = tmp_path / "bad.db"
    run("import", "course", DATA / "course.toml", "--db", path)
    out = run("import", "draw", DATA / "draw.csv", "--round", "R1", *options, "--db", path,
              code=1 if "ninety" not in options else 2)  # fmt: skip
    assert message in out
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM rounds").fetchone() == (0,)


def test_imported_cards_give_the_results_the_files_give(db):
    out = run("import", "scores", DATA / "scores.csv", "--round", "R1", "--by", "S. Roy",
              "--db", db)  # fmt: skip
    assert out.strip() == "36 scores imported into round 'R1'"
    again = run("import", "scores", DATA / "scores.csv", "--round", "R1", "--db", db)
    assert again.strip() == (
        "0 scores imported into round 'R1'; 36 already recorded, left as they are"
    )
    from_db = json.loads(run("results", "--round", "R1", "--db", db, "--json"))
    from_files = json.loads(run("results", *FILES, "--scores", DATA / "scores.csv",
                                "--scoring", "stableford", "--net", "--allowance", "90",
                                "--json", "--date", "2026-06-14"))  # fmt: skip
    # a stored round also says whether its results are final (issue 28)
    assert from_db.pop("life")["final"] is False
    assert from_db == from_files
    assert from_db["scoring"] == "stableford" and from_db["entries"][0]["points"] == 18
    csv = run("results", "--round", "R1", "--db", db, "--csv", "--excel")
    assert csv.startswith("\ufeff") and ";" in csv.splitlines()[0]


def test_a_file_that_contradicts_a_recorded_score_imports_nothing(db, tmp_path):
    first = tmp_path / "first.csv"
    first.write_text("group,player,hole,strokes\n1,Julie Gagné,1,5\n", encoding="utf-8")
    run("import", "scores", first, "--round", "R1", "--db", db)
    other = tmp_path / "other.csv"
    other.write_text(
        "group,player,hole,strokes\n1,Julie Gagné,2,4\n1,julie gagné,1,6\n", encoding="utf-8"
    )
    out = run("import", "scores", other, "--round", "R1", "--db", db, code=2)
    assert "other.csv, line 3, field 'strokes'" in out and "already scored 5" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (1,)


def test_results_of_a_round_leave_out_the_file_options_and_need_one_or_the_other(db):
    assert "leave out the file" in run("results", "--round", "R1", "--db", db, "--net", code=2)
    assert "give --course, --draw, --scores" in run("results", code=2)
    assert "does not exist" in run("results", "--round", "Nope", "--db", db, code=1)


def test_a_scorer_code_is_made_from_the_command_line(db):
    out = run("access", "code", "--round", "R1", "--role", "scorer", "--db", db)
    assert out.split("\t")[:2] == ["scorer", "R1"]

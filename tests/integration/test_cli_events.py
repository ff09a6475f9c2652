"""``pace event create|list|show`` and ``pace results --event`` on a real SQLite database
(issue 28): what a committee types, and what it mistypes. Every refused command exits with
status 2, says what is wrong and what to do, and stores nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli
from pace.store import open_store

FILES = Path(__file__).resolve().parents[1] / "golden" / "events" / "a_two_rounds_cut"


def pace(db: Path, *args: object, code: int = 0) -> str:
    result = CliRunner().invoke(cli, [*(str(a) for a in args), "--db", str(db)])
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    """A club's database: R1 and R2 stroke play gross, S1 Stableford net, R1 with scores."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    path = tmp_path / "club.db"
    pace(path, "init")
    pace(path, "import", "course", FILES / "course.toml")
    for name, day, scoring in (("R1", "2025-06-14", ["--gross"]), ("R2", "2025-06-15", ["--gross"]),
                               ("S1", "2025-06-16", ["--net"])):  # fmt: skip
        kind = "stableford" if name == "S1" else "stroke"
        pace(path, "import", "draw", FILES / "draw_r1.csv", "--round", name, "--date", day,
             "--timezone", "UTC", "--scoring", kind, *scoring)  # fmt: skip
    pace(path, "import", "scores", FILES / "scores_r1.csv", "--round", "R1")
    return path


def stored(db: Path) -> list[str]:
    with open_store(db) as store:
        return [c.name for c in store.list_competitions()]


def test_create_list_and_show_an_event(db):
    out = pace(db, "event", "create", "Club championship", "--round", "R1", "--round", "R2",
               "--cut-after", "1", "--cut-within", "6")  # fmt: skip
    assert out.strip() == (
        "event 'Club championship': gross, 2 rounds (R1, R2), cut within 6 strokes of the lead"
        " after round 1"
    )
    assert pace(db, "event", "list").strip() == out.strip().removeprefix("event ").replace(
        "'Club championship'", "Club championship"
    )
    show = pace(db, "event", "show", "Club championship").splitlines()
    assert show[1].split(",")[0] == "  round 1: 'R1' on 2025-06-14"
    assert show[1].endswith("6 players, 54 scores recorded")
    assert show[2].endswith("6 players, 0 scores recorded")
    # round 1 played, round 2 not yet: the cut falls (within 6 of Anne's 37: 43 and better)
    table = pace(db, "results", "--event", "Club championship").splitlines()
    assert (
        "1 played; cut: within 6 strokes of the lead after round 1 (4 made it, at 38)" in (table[0])
    )
    assert [row.split()[0] for row in table[-2:]] == ["Sophie", "Marc"]
    assert all(row.endswith("missed the cut after round 1") for row in table[-2:])


def test_the_scoring_is_the_rounds_own_and_a_stableford_event(db):
    pace(db, "import", "draw", FILES / "draw_r2.csv", "--round", "S2", "--date", "2025-06-17",
         "--scoring", "stableford", "--net")  # fmt: skip
    out = pace(db, "event", "create", "Points", "--round", "S1", "--round", "S2",
               "--cut-after", "1", "--cut-within", "4")  # fmt: skip
    assert "points, 2 rounds (S1, S2), cut within 4 points of the lead after round 1" in out
    assert "0 played" in pace(db, "results", "--event", "Points")


HOSTILE = [
    (["--round", "R1", "--round", "Ghost"], "round 'Ghost' does not exist"),
    (["--round", "R1", "--round", "R1"], "round 'R1' is given twice"),
    (["--round", "R1"], "2 to 4 rounds (36 to 72 holes on 18); 1 given"),
    (
        [a for n in range(5) for a in ("--round", ["R1", "R2", "S1", "R1", "R2"][n])],
        "2 to 4 rounds",
    ),  # fmt: skip
    (
        ["--round", "R1", "--round", "R2", "--cut-after", "2", "--cut-top", "3"],
        "the cut comes before the last round (after round 1 at most)",
    ),  # fmt: skip
    (
        ["--round", "R1", "--round", "R2", "--cut-after", "-1", "--cut-top", "3"],
        "rounds are numbered from 1",
    ),  # fmt: skip
    (
        ["--round", "R1", "--round", "R2", "--cut-after", "1", "--cut-top", "-3"],
        "keep at least 1 player",
    ),  # fmt: skip
    (
        ["--round", "R1", "--round", "R2", "--cut-after", "1", "--cut-within", "-8"],
        "the margin is 0 or more",
    ),  # fmt: skip
    (["--round", "R1", "--round", "R2", "--cut-top", "3"], "need --cut-after N"),
    (["--round", "R1", "--round", "R2", "--cut-after", "1"], "a cut needs its rule"),
    (
        [
            "--round",
            "R1",
            "--round",
            "R2",
            "--cut-after",
            "1",
            "--cut-top",
            "3",
            "--cut-within",
            "2",
        ],
        "not both",
    ),  # fmt: skip
    (
        ["--round", "R1", "--round", "R2", "--cut-after", "1", "--cut-top", "ten"],
        "'ten' is not a valid integer",
    ),  # fmt: skip
    (["--round", "R1", "--round", "S1"], "round 'S1' is scored stableford net but round 'R1'"),
    (
        ["--round", "R1", "--round", "R2", "--scoring", "points"],
        "scoring 'points' adds up stableford rounds; the rounds are scored stroke gross",
    ),  # fmt: skip
    (["--round", "R1", "--round", "R2", "--scoring", "medal"], "expected one of gross, net"),
]


@pytest.mark.parametrize(("args", "words"), HOSTILE)
def test_a_bad_event_is_refused_with_a_clear_message_and_stores_nothing(db, args, words):
    out = pace(db, "event", "create", "Open", *args, code=2)
    assert words in " ".join(out.split())
    assert stored(db) == []


@pytest.mark.parametrize("name", ["", "  ", " Open", "Open\x07", "x" * 101])
def test_a_bad_name_is_refused(db, name):
    out = pace(db, "event", "create", name, "--round", "R1", "--round", "R2", code=2)
    assert "competition name" in out
    assert stored(db) == []


def test_a_name_taken_is_refused_and_the_first_event_kept(db):
    pace(db, "event", "create", "Open", "--round", "R1", "--round", "R2")
    out = pace(db, "event", "create", "Open", "--round", "R2", "--round", "R1", code=2)
    assert "competition 'Open' already exists" in out
    with open_store(db) as store:
        assert store.get_competition("Open").rounds == ("R1", "R2")


def test_results_and_show_of_an_unknown_event_and_mixed_options(db):
    assert "competition 'Nope' does not exist; create it with" in pace(
        db, "results", "--event", "Nope", code=2
    )
    assert "does not exist" in pace(db, "event", "show", "Nope", code=2)
    pace(db, "event", "create", "Open", "--round", "R1", "--round", "R2")
    out = pace(db, "results", "--event", "Open", "--round", "R1", code=2)
    assert "leave out --round and the file and scoring options" in out
    assert "no event yet" not in pace(db, "event", "list")


def test_a_round_scored_otherwise_since_the_event_was_set_up_is_named(db):
    pace(db, "event", "create", "Open", "--round", "R1", "--round", "R2")
    with open_store(db) as store:  # the committee changed R2's scoring on the scorer page
        store.update_round("R2", scoring="stableford", play="stroke_play")
    out = pace(db, "results", "--event", "Open", code=2)
    assert "round 'R2' is scored stableford gross, not as the competition (gross)" in out

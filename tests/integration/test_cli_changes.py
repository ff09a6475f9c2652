"""``pace round change …`` and ``pace round changes`` on a real SQLite file (issue 28).

The CLI reads the system clock: the round is yesterday's, in UTC, so every instant of the test
is in the past whatever the hour it runs at. A hostile or refused command exits 1
with a sentence and stores nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pace.cli import cli
from pace.store import open_store

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
COURSE = DATA / "course_louiseville.toml"
DRAW = """group,start,tee,player,handicap
1,00:10,1,Marie Lavoie,4.2
1,00:10,1,Julie Gagnon,6.1
1,00:10,1,Sophie Tremblay,6.8
2,00:20,1,Marc Bélanger,11.4
2,00:20,1,Luc Côté,9.9
3,00:30,1,Nadia Morin,18.5
3,00:30,1,Jean Gauthier,21.0
"""
TIMES = "group,hole,completed\n1,1,00:24\n"


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args: object, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result


def build(tmp_path: Path, day: str, times: bool) -> Path:
    path = tmp_path / "club.db"
    (tmp_path / "draw.csv").write_text(DRAW, encoding="utf-8")
    (tmp_path / "times.csv").write_text(TIMES, encoding="utf-8")
    run("init", "--db", path)
    run("import", "course", COURSE, "--db", path)
    run("import", "draw", tmp_path / "draw.csv", "--round", "R1", "--date", day,
        "--timezone", "UTC", "--db", path)  # fmt: skip
    if times:
        run("import", "times", tmp_path / "times.csv", "--round", "R1", "--db", path)
    return path


@pytest.fixture
def db(tmp_path) -> Path:
    """Yesterday's round, group 1 through hole 1: every instant of a test is in the past."""
    return build(tmp_path, (datetime.now(UTC) - timedelta(days=1)).date().isoformat(), True)


@pytest.fixture
def db_today(tmp_path) -> Path:
    """Today's round, nothing logged: an instant later today is in the future."""
    return build(tmp_path, datetime.now(UTC).date().isoformat(), False)


def change(db: Path, *args: object, code: int = 0) -> Result:
    return run("round", "change", *args, "--round", "R1", "--db", db, code=code)


def stored(db: Path) -> list:
    store = open_store(db)
    try:
        return store.events("R1")
    finally:
        store.close()


def players(db: Path) -> dict[str, list[str]]:
    from pace import config
    from pace.services.rounds import RoundService

    store = open_store(db)
    try:
        view = RoundService(store, config.Settings()).round_view("R1")
        return {g.id: [p.name for p in g.players] for g in view.setup.groups}
    finally:
        store.close()


def test_each_change_is_stored_with_who_and_why_and_listed(db):
    out = change(db, "withdraw", "--player", "Luc Côté", "--reason", "no_show",
                 "--note", "called in sick", "--by", "Anne Roy")  # fmt: skip
    assert "Luc Côté withdrawn from group 2 (no_show)" in out.output
    change(db, "add-player", "--group", "2", "--player", "Tom Ruiz", "--handicap", "12.4",
           "--reason", "late entry")  # fmt: skip
    change(db, "move-player", "--player", "Nadia Morin", "--to", "2", "--reason", "team")
    change(db, "swap", "--player", "Marc Bélanger", "--with", "Jean Gauthier",
           "--reason", "car sharing")  # fmt: skip
    change(db, "start", "--group", "3", "--start", "00:50", "--reason", "waiting")
    change(db, "tee", "--group", "3", "--tee", "10", "--reason", "tee 1 full")
    change(db, "add-group", "--group", "9", "--start", "00:40", "--player", "Lea Martin",
           "--handicap", "20", "--player", "Paul Roy", "--reason", "late entries")  # fmt: skip
    assert players(db) == {
        "1": ["Marie Lavoie", "Julie Gagnon", "Sophie Tremblay"],
        "2": ["Jean Gauthier", "Tom Ruiz", "Nadia Morin"],
        "3": ["Marc Bélanger"],
        "9": ["Lea Martin", "Paul Roy"],
    }
    change(db, "remove-group", "--group", "9", "--reason", "they left")
    assert "9" not in players(db)
    changes = [e for e in stored(db) if e.type not in ("hole_completed",)]
    assert len(changes) == 8
    first = changes[0]
    assert first.by == {"role": "committee", "device": "cli", "name": "Anne Roy"}
    assert first.payload["note"] == "called in sick"
    listing = run("round", "changes", "--round", "R1", "--db", db).output.splitlines()
    assert len(listing) == 8
    assert "by Anne Roy: called in sick" in listing[0]
    assert "group 3 starts at 00:50 — by committee: waiting" in listing[4]


def test_a_retirement_during_play_and_its_void(db):
    out = change(db, "withdraw", "--player", "Julie Gagnon", "--reason", "retired", "--at",
                 "00:30", "--note", "back")  # fmt: skip
    id = out.output.rsplit("change ", 1)[1].strip(" )\n")
    store = open_store(db)
    try:
        from pace import config
        from pace.services.rounds import RoundService

        group = RoundService(store, config.Settings()).round_view("R1").setup.groups[0]
        assert group.size == 3 and [n for n, _ in group.retired] == ["Julie Gagnon"]
    finally:
        store.close()
    change(db, "void", "--change", id, "--reason", "she plays on")
    listing = run("round", "changes", "--round", "R1", "--db", db).output
    assert "[voided]" in listing


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("move-player", "--player", "Marie Lavoie", "--to", "2", "--reason", "x"),
         "group 1 completed hole 1 at 00:24:00: moving Marie Lavoie out of it would rewrite"),
        (("move-player", "--player", "Luc Côté", "--to", "1", "--reason", "x"),
         "into it would give Luc Côté no score"),
        (("start", "--group", "1", "--start", "00:15", "--reason", "x"),
         "its start can no longer change"),
        (("remove-group", "--group", "1", "--reason", "x"), "withdraw it instead"),
        (("withdraw", "--player", "Nobody", "--reason", "retired"), "Nobody is not in the draw"),
        (("tee", "--group", "7", "--tee", "3", "--reason", "x"), "group 7 is not in the draw"),
        (("swap", "--player", "Luc Côté", "--with", "luc côté", "--reason", "x"),
         "name two players"),
        (("tee", "--group", "2", "--tee", "3", "--reason", "   "), "say why"),
        (("tee", "--group", "2", "--tee", "99", "--reason", "x"), "not a hole of the course"),
        (("add-player", "--group", "2", "--player", "marie lavoie", "--reason", "x"),
         "already in group 1"),
        (("add-player", "--group", "2", "--player", "Tom\u200bRuiz", "--reason", "x"),
         "player "),
        (("add-player", "--group", "2", "--player", "x" * 201, "--reason", "x"),
         "give 1 to 200 characters"),
    ],
)  # fmt: skip
def test_a_hostile_or_refused_change_exits_1_with_a_sentence_and_stores_nothing(db, args, words):
    before = stored(db)
    out = change(db, *args, code=1)
    assert words in out.output
    assert stored(db) == before


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("withdraw", "--player", "Luc Côté", "--reason", "ill"), "'ill' is not one of"),
        (("start", "--group", "2", "--start", "8h", "--reason", "x"), "expected a time of day"),
    ],
)
def test_a_malformed_option_exits_2_and_stores_nothing(db, args, words):
    before = stored(db)
    out = change(db, *args, code=2)
    assert words in out.output
    assert stored(db) == before


def test_every_change_command_has_help_with_an_example():
    for name in ("withdraw", "add-player", "move-player", "swap", "start", "tee", "add-group",
                 "remove-group", "withdraw-group", "void"):  # fmt: skip
        out = run("round", "change", name, "--help").output
        assert "Example: pace round change " + name in " ".join(out.split())
    assert "Example: pace round changes" in run("round", "changes", "--help").output


@pytest.mark.parametrize("ahead", [timedelta(hours=1), timedelta(minutes=2)])
def test_a_future_instant_is_refused(db_today, ahead):
    later = datetime.now(UTC) + ahead
    if later.date() != datetime.now(UTC).date():
        pytest.skip("that instant is tomorrow, which --at (a time of the round's day) cannot say")
    before = stored(db_today)
    out = change(db_today, "withdraw", "--player", "Luc Côté", "--reason", "retired", "--at",
                 later.strftime("%H:%M:%S"), code=1)  # fmt: skip
    assert "in the future" in out.output
    assert stored(db_today) == before


def test_round_status_judges_the_stored_round_with_its_changes(db):
    import json

    def status(at: str) -> dict:
        out = run("round", "status", "--round", "R1", "--at", at, "--json", "--db", db).output
        return {g["group"]: g for g in json.loads(out)["groups"]}

    before = status("00:40")
    assert before["3"]["status"] != "not_started"  # off at 00:30
    change(db, "start", "--group", "3", "--start", "00:50", "--reason", "waiting")
    after = status("00:40")
    assert after["3"]["status"] == "not_started"
    assert after["3"]["lead"] is True  # 30 min after group 2: a starter's gap

"""The ``pace`` command line on real SQLite files under ``tmp_path`` (issues 2 and 3).

Imports are all or nothing: every broken file exits with status 2, names the file, the line
and the field, and leaves the database exactly as it was.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from pace.cli import cli
from pace.store import open_store

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
COURSE = DATA / "course_louiseville.toml"
DRAW = DATA / "draw.csv"
TIMES = DATA / "times.csv"
DAY = "2025-06-14"
ZONE = "Europe/Brussels"


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    # Default settings and no stray pace.db: every test runs in its own empty folder.
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args: object, code: int = 0) -> Result:
    """Run ``pace ARGS`` and check its exit status."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    if code == 0:
        assert result.exception is None
    return result


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def db(tmp_path) -> Path:
    """A database with the Louiseville course, round R1 (draw.csv) and its ten paper times."""
    path = tmp_path / "club.db"
    run("init", "--db", path)
    run("import", "course", COURSE, "--db", path)
    run("import", "draw", DRAW, "--round", "R1", "--date", DAY, "--timezone", ZONE, "--db", path)
    run("import", "times", TIMES, "--round", "R1", "--db", path)
    return path


def snapshot(path: Path) -> dict[str, object]:
    """Everything an import could write: courses, rounds with their draws, and events."""
    with open_store(path) as store:
        rounds = store.list_rounds()
        return {
            "courses": [(c.name, c.holes) for c in store.list_courses()],
            "rounds": rounds,
            "draws": {r.name: store.get_round(r.name).groups for r in rounds},
            "events": {r.name: store.events(r.name) for r in rounds},
            "count": store.count_events(),
        }


def rounds_listing(path: Path) -> str:
    return run("rounds", "--db", path).output


# --------------------------------------------------------------------------- help


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, command in sorted(group.commands.items()):
        yield (*prefix, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))


ALL_COMMANDS = [(), *_commands(cli)]


@pytest.mark.parametrize("path", ALL_COMMANDS, ids=lambda p: " ".join(("pace", *p)))
def test_every_command_has_help_text_with_an_example(path):
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    assert command.help, f"pace {' '.join(path)} has no docstring"
    assert "Example: pace" in command.help
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help, f"pace {' '.join(path)} {param.opts[0]} has no help="
    result = run(*path, "--help")
    assert "Example: pace" in result.output


def test_the_cli_walk_finds_the_commands_of_the_issues():
    names = {" ".join(p) for p in ALL_COMMANDS}
    expected = {"init", "serve", "rounds", "import course", "import draw", "import times"}
    assert expected | {"status", "sheet"} <= names


# --------------------------------------------------------------------------- init, --db


def test_init_creates_the_database(tmp_path):
    path = tmp_path / "new" / "club.db"
    path.parent.mkdir()
    result = run("init", "--db", path)
    assert path.exists()
    assert "database ready" in result.output
    assert "no rounds yet" in rounds_listing(path)
    with open_store(path) as store:
        assert store.journal_mode == "wal"
        assert store.applied_migrations()


def test_init_twice_keeps_what_is_there(db):
    before = snapshot(db)
    run("init", "--db", db)
    assert snapshot(db) == before


def test_databases_side_by_side_do_not_see_each_other(tmp_path):
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    run("init", "--db", two)
    run("import", "course", COURSE, "--db", one)
    run("import", "draw", DRAW, "--round", "R1", "--date", DAY, "--db", one)
    run("import", "times", TIMES, "--round", "R1", "--db", one)
    assert rounds_listing(one).startswith("R1\t2025-06-14\tGolf de Louiseville\t6 groups\t10")
    assert "no rounds yet" in rounds_listing(two)
    assert not (tmp_path / "pace.db").exists(), "--db must override database.path"
    # the second database has no course either: a new round there needs one
    result = run("import", "draw", DRAW, "--round", "R1", "--db", two, code=1)
    assert "import one first" in result.output


def test_database_path_from_pace_config(tmp_path, monkeypatch):
    cfg = write(tmp_path / "other.toml", f'[database]\npath = "{tmp_path / "cfg.db"}"\n')
    monkeypatch.setenv("PACE_CONFIG", str(cfg))
    run("init")
    assert (tmp_path / "cfg.db").exists()


def test_broken_configuration_stops_a_command_with_file_and_key(tmp_path, monkeypatch):
    cfg = write(tmp_path / "bad.toml", "[server]\nport = 0\n")
    monkeypatch.setenv("PACE_CONFIG", str(cfg))
    result = run("init", "--db", tmp_path / "x.db", code=2)
    assert f"{cfg}: server.port = 0: expected a port number" in result.output


# --------------------------------------------------------------------------- good imports


def test_imports_of_good_files(tmp_path):
    path = tmp_path / "club.db"
    out = run("import", "course", COURSE, "--db", path).output
    assert "course 'Golf de Louiseville': 18 holes imported" in out
    out = run("import", "draw", DRAW, "--round", "R1", "--date", DAY, "--db", path).output
    assert "round 'R1' on 2025-06-14: 6 groups, 21 players imported" in out
    out = run("import", "times", TIMES, "--round", "R1", "--by", "J. Dupont", "--db", path).output
    assert "10 hole times imported into round 'R1'" in out
    assert rounds_listing(path) == "R1\t2025-06-14\tGolf de Louiseville\t6 groups\t10 events\n"
    with open_store(path) as store:
        events = store.events("R1")
        record = store.get_round("R1")
    assert {e.type for e in events} == {"hole_completed"}
    assert {e.by["name"] for e in events} == {"J. Dupont"}
    assert [g.id for g in record.groups] == ["1", "2", "3", "4", "5", "6"]
    assert [g.size for g in record.groups] == [3, 4, 3, 4, 3, 4]
    # local 08:29:40 in Brussels summer time (UTC+2) is stored as UTC
    first_hole_2 = next(e for e in events if e.payload == {"group": "1", "hole": 2})
    assert first_hole_2.at == datetime(2025, 6, 14, 6, 29, 40, tzinfo=UTC)


def test_french_spreadsheet_draw_is_accepted(tmp_path):
    path = tmp_path / "club.db"
    run("import", "course", COURSE, "--db", path)
    out = run(
        "import", "draw", DATA / "draw_fr.csv", "--round", "R1", "--date", DAY, "--db", path
    ).output
    assert "4 groups, 13 players imported" in out


def test_reimporting_the_same_times_adds_nothing(db):
    before = snapshot(db)
    out = run("import", "times", TIMES, "--round", "R1", "--db", db).output
    assert "0 hole times imported" in out
    assert snapshot(db) == before


def test_times_overlapping_a_previous_import_add_only_the_new_rows(db, tmp_path):
    more = write(tmp_path / "more.csv", "group,hole,completed\n1,1,08:13\n5,1,08:55\n")
    out = run("import", "times", more, "--round", "R1", "--db", db).output
    assert "1 hole times imported" in out
    assert snapshot(db)["count"] == 11


def test_times_row_clashing_with_a_logged_time_refuses_the_whole_file(db, tmp_path):
    before = snapshot(db)
    # line 2 is new and valid; line 3 gives group 1 hole 1 another time than the 08:13 logged
    clash = write(tmp_path / "clash.csv", "group,hole,completed\n5,1,08:55\n1,1,08:14\n")
    result = run("import", "times", clash, "--round", "R1", "--db", db, code=2)
    assert f"{clash}, line 3, field 'completed'" in result.output
    assert "already logged at 08:13:00" in result.output
    assert snapshot(db) == before


def test_restart_keeps_every_committed_event(db):
    expected = {
        (row["group"], int(row["hole"]), row["completed"])
        for row in csv.DictReader(io.StringIO(TIMES.read_text(encoding="utf-8")))
    }
    with open_store(db) as first:
        events = first.events("R1")
    with open_store(db) as second:  # a new connection, as after a restart
        again = second.events("R1")
    assert again == events
    assert len(events) == len(expected) == 10
    local = {
        (e.payload["group"], e.payload["hole"], e.at.astimezone(_zone()).strftime("%H:%M:%S"))
        for e in events
    }
    assert local == {(g, h, t if t.count(":") == 2 else f"{t}:00") for g, h, t in expected}


def _zone():
    from zoneinfo import ZoneInfo

    return ZoneInfo(ZONE)


# --------------------------------------------------------------------------- broken imports


# (file name, content, line, field, words of the message)
# fmt: off
BROKEN_TIMES = [
    pytest.param("group,hole,completed\n5,1,08:55\n5,19,09:20\n", 3, "hole",
                 "hole 19 does not exist on this course; holes are 1–18", id="bad hole"),
    pytest.param("group,hole,completed\n5,1,08:55\n5,2,9h7x\n", 3, "completed",
                 "completed '9h7x' is not a time", id="bad time"),
    pytest.param("group,hole\n5,1\n", 1, "completed", "missing column 'completed'",
                 id="missing column"),
    pytest.param("group,hole,completed\n5,1,08:55\n7,1,09:00\n", 3, "group",
                 "group '7' is not in the draw", id="unknown group"),
    pytest.param("group,hole,completed\n5,1,08:55\n6,1,08:45\n", 3, "completed",
                 "before the scheduled start of group '6' (08:50)", id="time before start"),
    pytest.param("group,hole,completed\n5,1,08:55\n5,1,08:56\n", 3, "hole",
                 "already timed on line 2", id="same hole twice in the file"),
]
# fmt: on


@pytest.mark.parametrize(("content", "line", "field", "words"), BROKEN_TIMES)
def test_broken_times_file_exits_2_naming_file_line_field_and_writes_nothing(
    db, tmp_path, content, line, field, words
):
    before, listing = snapshot(db), rounds_listing(db)
    bad = write(tmp_path / "bad-times.csv", content)
    result = run("import", "times", bad, "--round", "R1", "--db", db, code=2)
    assert f"{bad}, line {line}, field '{field}': " in result.output
    assert words in result.output
    assert snapshot(db) == before
    assert rounds_listing(db) == listing


HEADER = "group,start,tee,player\n"

# fmt: off
BROKEN_DRAWS = [
    pytest.param(HEADER + "A,08:00,1,Ann\nA,08:00,19,Bob\n", 3, "tee",
                 "tee 19 does not exist on this course", id="bad hole"),
    pytest.param(HEADER + "A,08:00,1,Ann\nB,8h7x,1,Bob\n", 3, "start",
                 "start '8h7x' is not a time", id="bad time"),
    pytest.param("group,start,player\nA,08:00,Ann\n", 1, "tee", "missing column 'tee'",
                 id="missing column"),
    pytest.param(HEADER + "A,08:00,1,Ann\nA,08:10,1,Bob\n", 3, "start",
                 "group 'A' starts at '08:10' here but at '08:00' on line 2",
                 id="duplicate group row with a different start"),
    pytest.param(HEADER + "A,08:00,1,Ann\nA,08:00,10,Bob\n", 3, "tee",
                 "all rows of a group share start and tee",
                 id="duplicate group row with a different tee"),
]
# fmt: on


@pytest.mark.parametrize(("content", "line", "field", "words"), BROKEN_DRAWS)
def test_broken_draw_exits_2_naming_file_line_field_and_creates_no_round(
    db, tmp_path, content, line, field, words
):
    before, listing = snapshot(db), rounds_listing(db)
    bad = write(tmp_path / "bad-draw.csv", content)
    result = run("import", "draw", bad, "--round", "R2", "--date", DAY, "--db", db, code=2)
    assert f"{bad}, line {line}, field '{field}': " in result.output
    assert words in result.output
    assert snapshot(db) == before
    assert rounds_listing(db) == listing


def test_draw_of_a_round_with_events_is_not_replaced(db, tmp_path):
    before = snapshot(db)
    other = write(tmp_path / "other.csv", HEADER + "Z,09:00,1,Zoe\n")
    result = run("import", "draw", other, "--round", "R1", "--db", db, code=1)
    assert "already has 10 event(s)" in result.output
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--timezone", "Europe/Bruxelles", "expected an IANA time zone"),
        ("--policy", "fast", "expected one of frbg, mauricie, swin"),
        ("--play", "skins", "expected one of stroke_play, match_play"),
        ("--format", "scramble", "expected one of individual, foursome"),
    ],
)
def test_draw_with_a_bad_round_setting_exits_2_and_creates_no_round(db, option, value, words):
    before = snapshot(db)
    result = run("import", "draw", DRAW, "--round", "R2", option, value, "--db", db, code=2)
    assert f"{option} {value!r}: {words}" in result.output
    assert "Traceback" not in result.output
    assert snapshot(db) == before


def test_draw_sets_a_new_rounds_play_format_and_custom_policy(db, tmp_path, monkeypatch):
    # issue 5: a committee's own ladder from config.toml, match play, foursomes
    monkeypatch.setenv("PACE_CONFIG", str(write(tmp_path / "club.toml", CLUB_POLICY)))
    run(
        "import", "draw", DRAW, "--round", "R2", "--date", DAY, "--policy", "club",
        "--play", "match_play", "--format", "foursome", "--db", db,
    )  # fmt: skip
    with open_store(db) as store:
        r2 = store.get_round("R2")
    assert (r2.policy, r2.play, r2.format) == ("club", "match_play", "foursome")
    result = run("import", "draw", DRAW, "--round", "R3", "--policy", "other", "--db", db, code=2)
    assert "expected one of frbg, mauricie, swin, club" in result.output


CLUB_POLICY = """
[policies.club]
description = "two warnings"
stroke_ladder = ["warning", "warning", "strokes:2"]
"""


def _course(holes: list[tuple[int, int]], name: str = "Broken") -> str:
    text = f'name = "{name}"\n'
    for number, par in holes:
        text += f"\n[[holes]]\nnumber = {number}\npar = {par}\n"
    return text


# fmt: off
BROKEN_COURSES = [
    # each [[holes]] table takes 4 lines after the name line and a blank line
    pytest.param(_course([(1, 4), (2, 4), (19, 4)] + [(n, 4) for n in range(4, 10)]), 11,
                 "number", "number 19 is not a hole number; with 9 holes the numbers are 1–9",
                 id="bad hole number"),
    pytest.param(_course([(1, 4), (2, 7)] + [(n, 4) for n in range(3, 10)]), 7, "par",
                 "hole 2: par 7 is not allowed", id="bad par"),
    pytest.param(_course([(1, 4), (2, 4), (2, 4)] + [(n, 4) for n in range(4, 10)]), 11,
                 "number", "hole 2 is given twice; first on line 7", id="repeated hole number"),
    pytest.param(_course([(1, 4), (2, 4)] + [(n, 4) for n in range(4, 11)]), None,
                 "number", "hole numbers must be 1–9 each once; missing 3",
                 id="missing hole number"),
    pytest.param('name = "Broken"\n[[holes]\n', 2, None, "not valid TOML", id="not TOML"),
]
# fmt: on


@pytest.mark.parametrize(("content", "line", "field", "words"), BROKEN_COURSES)
def test_broken_course_exits_2_naming_file_line_field_and_writes_nothing(
    db, tmp_path, content, line, field, words
):
    before = snapshot(db)
    bad = write(tmp_path / "bad-course.toml", content)
    result = run("import", "course", bad, "--db", db, code=2)
    where = str(bad)
    if line is not None:
        where += f", line {line}"
    if field is not None:
        where += f", field '{field}'"
    assert f"{where}: " in result.output
    assert words in result.output
    assert snapshot(db) == before


def test_every_problem_of_a_file_is_reported_at_once(db, tmp_path):
    bad = write(tmp_path / "bad.csv", "group,hole,completed\n7,1,08:00\n5,19,08:55\n5,2,8h\n")
    result = run("import", "times", bad, "--round", "R1", "--db", db, code=2)
    for line in (2, 3, 4):
        assert f"{bad}, line {line}, " in result.output


def test_times_into_an_unknown_round_fail_without_writing(db):
    before = snapshot(db)
    result = run("import", "times", TIMES, "--round", "nope", "--db", db, code=1)
    assert "'nope'" in result.output
    assert snapshot(db) == before


# --------------------------------------------------------------------------- pace status

STATUS = ("status", "--course", COURSE, "--draw", DRAW, "--times", TIMES, "--date", DAY,
          "--timezone", ZONE)  # fmt: skip


def test_status_json_follows_the_formats_contract():
    # Louiseville, default split. At 09:00 local (hand-worked, docs/rules.md §1 and §3):
    # 1 (3-ball, 08:00): hole 4 at 08:55:10, el 55.17 - cum 14+17+11+14 = 56 -> -0.83
    # 2 (4-ball, 08:10): hole 3 at 08:53, el 43 - 15+18+12 = 45 -> -2; gap to 1's 08:40 = 13
    # 3 (3-ball, 08:20): hole 1 at 08:36, el 16 - 14 = +2; gap to 2's 08:24 = 12 > 10 -> OOP
    # 4 (4-ball, 08:30): hole 1 at 08:45:30, el 15.5 - 15 = +0.5; gap to 08:36 = 9.5 -> behind
    # 5 (3-ball, 08:40): nothing logged; el 20 - 14 = +6 on hole 1, last cleared 08:45:30,
    #   14.5 > 10 min ago -> overdue
    # 6 (4-ball, 08:50): el 10 - 15 = -5 on hole 1
    result = run(*STATUS, "--at", "09:00", "--json")
    document = json.loads(result.stdout)
    assert document == {
        "at": "09:00:00",
        "groups": [
            _g("1", "on_pace", 4, True, -0.83, None, None),
            _g("2", "on_pace", 3, False, -2.0, 13.0, 10.0),
            _g("3", "out_of_position", 1, False, 2.0, 12.0, 10.0),
            _g("4", "behind", 1, False, 0.5, 9.5, 10.0),
            _g("5", "overdue", 0, False, 6.0, 14.5, 10.0),
            _g("6", "on_pace", 0, False, -5.0, None, 10.0),
        ],
    }


def _g(group, status, holes, lead, over, gap, interval):
    return {
        "group": group,
        "status": status,
        "holes_completed": holes,
        "lead": lead,
        "over_min": over,
        "gap_min": gap,
        "interval_min": interval,
    }


def test_status_table_is_readable():
    out = run(*STATUS, "--at", "09:00").output
    lines = out.splitlines()
    assert lines[0] == "status at 09:00:00"
    assert lines[1].split() == [
        "group", "status", "holes", "lead", "over", "gap", "interval", "hole", "finish",
    ]  # fmt: skip
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert list(rows) == ["1", "2", "3", "4", "5", "6"]
    assert rows["3"][:6] == ["3", "out_of_position", "1", "+2.0", "12.0", "10.0"]
    assert rows["1"][:4] == ["1", "on_pace", "4", "yes"]


def test_status_before_any_start_and_with_the_interval_overridden():
    document = json.loads(run(*STATUS, "--at", "07:59:59", "--json", "--interval", "8").stdout)
    assert {g["status"] for g in document["groups"]} == {"not_started"}
    assert document["at"] == "07:59:59"


def test_status_uses_no_database(tmp_path):
    run(*STATUS, "--at", "09:00", "--json")
    assert list(tmp_path.iterdir()) == []


# fmt: off
STATUS_BAD_TIMES = [
    pytest.param("group,hole,completed\n1,19,08:10\n", "line 2, field 'hole'",
                 "hole 19 does not exist", id="unknown hole"),
    pytest.param("group,hole,completed\n9,1,08:10\n", "line 2, field 'group'",
                 "group '9' is not in the draw", id="unknown group"),
    pytest.param("group,hole,completed\n2,1,08:05\n", "line 2, field 'completed'",
                 "completed '08:05' is before the scheduled start of group '2' (08:10)",
                 id="time before start"),
    pytest.param("group,hole,completed\n2,1,8.15\n", "line 2, field 'completed'",
                 "completed '8.15' is not a time", id="unparseable time"),
]
# fmt: on


@pytest.mark.parametrize(("content", "where", "words"), STATUS_BAD_TIMES)
def test_status_with_bad_times_exits_2(tmp_path, content, where, words):
    bad = write(tmp_path / "t.csv", content)
    result = run(
        "status", "--course", COURSE, "--draw", DRAW, "--times", bad, "--at", "09:00", code=2
    )
    assert f"{bad}, {where}: {words}" in result.output


@pytest.mark.parametrize(
    ("holes", "words"),
    [
        ([(1, 4), (2, 4), (2, 4)] + [(n, 4) for n in range(4, 10)], "hole 2 is given twice"),
        ([(1, 4), (2, 4)] + [(n, 4) for n in range(4, 11)], "missing 3"),
    ],
    ids=["repeated hole number", "missing hole number"],
)
def test_status_with_a_bad_course_exits_2(tmp_path, holes, words):
    bad = write(tmp_path / "c.toml", _course(holes))
    result = run(
        "status", "--course", bad, "--draw", DRAW, "--times", TIMES, "--at", "09:00", code=2
    )
    assert str(bad) in result.output
    assert words in result.output


def test_status_with_a_draw_row_disagreeing_on_the_start_exits_2(tmp_path):
    bad = write(tmp_path / "d.csv", HEADER + "1,08:00,1,Ann\n1,08:05,1,Bob\n")
    times = write(tmp_path / "t.csv", "group,hole,completed\n")
    result = run(
        "status", "--course", COURSE, "--draw", bad, "--times", times, "--at", "09:00", code=2
    )
    assert f"{bad}, line 3, field 'start'" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--at", "25:00"), "--at '25:00': '25:00' is not a time"),
        (("--at", "soon"), "--at 'soon': 'soon' is not a time"),
        (("--at", "09:00", "--timezone", "Mars/Olympus"), "--timezone 'Mars/Olympus'"),
        (("--at", "09:00", "--policy", "fast"), "--policy 'fast'"),
        (("--at", "09:00", "--interval", "0"), "--interval 0.0: expected minutes above 0"),
    ],
    ids=["hour 25", "not a time", "unknown time zone", "unknown policy", "interval 0"],
)
def test_status_with_bad_options_exits_2_with_a_clear_message(args, words):
    result = run("status", "--course", COURSE, "--draw", DRAW, "--times", TIMES, *args, code=2)
    assert words in result.output
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- pace sheet

SHEET = ("sheet", "--course", COURSE, "--draw", DRAW, "--date", DAY, "--timezone", ZONE)


def test_sheet_csv():
    rows = list(csv.reader(io.StringIO(run(*SHEET).stdout)))
    assert rows[0] == ["group", "tee", "start", "players", *(f"hole_{h}" for h in range(1, 19))]
    assert len(rows) == 7
    # group 1, a 3-ball from 08:00: holes 1-4 allotted 14, 17, 11, 14 (par 4, 5, 3, 4)
    assert rows[1][:8] == [
        "1", "1", "08:00", "Marie Lavoie / Julie Gagnon / Sophie Tremblay",
        "08:14", "08:31", "08:42", "08:56",
    ]  # fmt: skip
    # group 2, a 4-ball from 08:10: 15, 18, 12 -> 08:25, 08:43, 08:55
    assert rows[2][4:7] == ["08:25", "08:43", "08:55"]


def test_sheet_html_to_a_file(tmp_path):
    out = tmp_path / "sheet.html"
    result = run(*SHEET, "--format", "html", "-o", out)
    assert f"timing sheet written to {out}" in result.output
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>")
    assert "size: A4 landscape" in html
    assert "Golf de Louiseville" in html
    assert "Pierre &quot;Pete&quot; Roy" in html
    assert html.count("<tr><td class='group'>") == 6


def test_sheet_csv_to_a_file(tmp_path):
    out = tmp_path / "sheet.csv"
    run(*SHEET, "-o", out)
    assert out.read_text(encoding="utf-8") == run(*SHEET).stdout


def test_sheet_with_a_bad_draw_exits_2(tmp_path):
    bad = write(tmp_path / "d.csv", HEADER + "1,08:00,19,Ann\n")
    result = run("sheet", "--course", COURSE, "--draw", bad, code=2)
    assert f"{bad}, line 2, field 'tee'" in result.output


def test_sheet_with_a_bad_time_zone_exits_2():
    result = run("sheet", "--course", COURSE, "--draw", DRAW, "--timezone", "Nowhere", code=2)
    assert "--timezone 'Nowhere'" in result.output

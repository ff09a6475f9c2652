"""A committee's files, refused or noted where a person would be misled (issue 14, points 8, 9).

Round R1 of the shared test data (Louiseville, draw.csv: groups 1–6 off tee 1 from 08:00) with
its ten paper times (times.csv: group 1 holes 1, 2, 3, 4 and 6 among them).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner, Result

from pace import formats
from pace.cli import cli
from pace.rules import errors

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
COURSE = DATA / "course_louiseville.toml"
DRAW = DATA / "draw.csv"
TIMES = DATA / "times.csv"
DAY = "2025-06-14"
TZ = ZoneInfo("Europe/Brussels")


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
    run("import", "course", COURSE, "--db", path)
    run("import", "draw", DRAW, "--round", "R1", "--date", DAY, "--db", path)
    run("import", "times", TIMES, "--round", "R1", "--db", path)
    return path


def draw_problems(text: str) -> list[errors.Problem]:
    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_draw(text, "draw.csv", day=date(2025, 6, 14), tz=TZ)
    return info.value.problems


# -- point 8: the draw -------------------------------------------------------------------------


def test_a_player_in_two_groups_is_refused_naming_both_lines():
    text = "group,start,tee,player\n1,08:00,1,Ann Lee\n1,08:00,1,Bob Roy\n2,08:10,1,ann  LEE\n"
    (problem,) = draw_problems(text)
    assert (problem.line, problem.field) == (4, "player")
    assert "in group '2' here and in group '1' on line 2" in problem.message


def test_unknown_columns_are_named_and_known_ones_kept(tmp_path, db):
    path = tmp_path / "draw2.csv"
    path.write_text(
        "group,start,tee,player,class,match,Remarque,Voiturette\n"
        "1,08:00,1,Ann Lee,AA,m1,rapide,oui\n1,08:00,1,Bob Roy,B,m1,,\n",
        encoding="utf-8",
    )
    out = run("import", "draw", path, "--round", "R2", "--date", DAY, "--db", db).output
    assert "column" in out and "'Remarque', 'Voiturette' ignored" in out
    notes: list[str] = []
    [group] = formats.load_draw(path, day=date(2025, 6, 14), tz=TZ, notes=notes)
    assert [(p.class_name, p.match) for p in group.players] == [("AA", "m1"), ("B", "m1")]
    assert notes == [
        f"{path}, line 1: columns 'Remarque', 'Voiturette' ignored (not a column of this file;"
        " its columns are group, start, tee, player, first_name, last_name, handicap, side, club,"
        " class, match, tees, gender, language, member)"
    ]


@pytest.mark.parametrize(
    "header",
    [
        "Partie;Heure;Départ;Joueur;Index;Club",  # the board's own words: Départ is the tee
        "Groupe;Heure;Trou de départ;Joueur;Index;Club",
        "groupe;départ;trou de départ;joueur;index;club",  # départ as the start, as before
        "Groupe;Départ;Heure;Joueur;Index;Club",
    ],
)
def test_the_french_headers_the_board_uses_are_accepted(header):
    values = {"Heure": "08:10", "heure": "08:10", "Départ": "10", "départ": "08:10"}
    if header.startswith("groupe;départ"):
        row = "7;08:10;10;Anna;12,5;Louiseville"
    else:
        cells = header.split(";")
        row = ";".join(
            {"Partie": "7", "Groupe": "7", "Joueur": "Anna", "Index": "12,5", "Club": "Louiseville",
             "Trou de départ": "10"}.get(c, values.get(c, "")) for c in cells
        )  # fmt: skip
    [group] = formats.parse_draw(f"{header}\n{row}\n", "draw.csv", day=date(2025, 6, 14), tz=TZ)
    assert (group.id, group.tee, group.start.astimezone(TZ).strftime("%H:%M")) == ("7", 10, "08:10")
    assert group.players[0].club == "Louiseville"


# -- point 9: hole times and courses -------------------------------------------------------------


def test_a_hole_completed_before_one_the_group_plays_earlier_is_refused_naming_both_lines():
    course = formats.load_course(COURSE)
    groups = formats.load_draw(DRAW, day=date(2025, 6, 14), tz=TZ, course=course)
    text = "group,hole,completed\n1,3,09:10\n2,1,08:24\n1,4,09:02\n"
    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_times(
            text, "times.csv", day=date(2025, 6, 14), tz=TZ, course=course, groups=groups
        )
    (problem,) = info.value.problems
    assert (problem.line, problem.field) == (4, "completed")
    assert "hole 4 at '09:02', before hole 3 on line 2 at '09:10'" in problem.message


def test_pace_status_refuses_times_out_of_order(tmp_path):
    times = tmp_path / "t.csv"
    times.write_text("group,hole,completed\n1,3,09:10\n1,4,09:02\n", encoding="utf-8")
    out = run("status", "--course", COURSE, "--draw", DRAW, "--times", times, "--at", "10:00",
              "--date", DAY, code=2).output  # fmt: skip
    assert f"{times}, line 3, field 'completed'" in out


def test_an_import_out_of_order_with_the_times_already_logged_is_refused(tmp_path, db):
    # group 1's hole 4 is logged at 08:55:10: its hole 5 cannot be at 08:50
    more = tmp_path / "more.csv"
    more.write_text("group,hole,completed\n1,5,08:50\n", encoding="utf-8")
    out = run("import", "times", more, "--round", "R1", "--db", db, code=2).output
    assert f"{more}, line 2, field 'completed'" in out
    assert "before hole 4 already logged at 08:55:10" in out


def test_reimport_names_the_times_already_stored(db):
    out = run("import", "times", TIMES, "--round", "R1", "--db", db).output
    assert "0 hole times imported into round 'R1' (10 already stored, 0 new)" in out


def test_a_course_of_17_holes_is_refused_and_an_odd_par_noted(tmp_path):
    text = COURSE.read_text(encoding="utf-8")
    last = text.rindex("[[holes]]")
    short = tmp_path / "short.toml"
    short.write_text(text[:last], encoding="utf-8")
    out = run("import", "course", short, "--db", tmp_path / "x.db", code=2).output
    assert "17 [[holes]] tables; expected 9 or 18" in out
    odd = tmp_path / "odd.toml"
    odd.write_text(text.replace("par = 4", "par = 6", 1), encoding="utf-8")
    out = run("import", "course", odd, "--db", tmp_path / "x.db").output
    assert "hole 1 has par 6; pars are usually 3, 4 or 5" in out

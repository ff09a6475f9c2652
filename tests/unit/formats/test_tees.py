"""Tee sets in the course TOML and the draw (issue 38): read, refused by line and field, and
written back to the same course."""

from __future__ import annotations

from datetime import UTC, date
from pathlib import Path

import pytest

from pace import formats
from pace.rules import model
from pace.rules.errors import FileFormatError, SetupError

GOLDEN = Path(__file__).parents[2] / "golden" / "results"
MIXED = (GOLDEN / "b_mixed_tees_stableford" / "course.toml").read_text(encoding="utf-8")
DAY = date(2026, 6, 13)


def course() -> model.Course:
    return formats.parse_course(MIXED, "mixed.toml")


def draw(text: str, **kw) -> tuple[model.Group, ...]:
    return formats.parse_draw(text, "draw.csv", day=DAY, tz=UTC, course=course(), **kw)


def test_a_course_reads_its_tee_sets_and_writes_them_back():
    c = course()
    assert [t.name for t in c.tees] == ["Yellow", "Red", "Blue"]
    red = c.tee_set("RED")
    assert (red.slope, red.rating, red.women_slope, red.women_rating) == (115, 67.2, 126, 71.8)
    assert red.par == {5: 5} and red.stroke_index == {2: 11, 5: 1}
    assert c.tees[0].length_m[1] == 350 and c.slope is None
    played = c.played_from("Red", model.WOMEN)
    assert played.par == 73 and played.hole(5).par == 5 and played.hole(5).stroke_index == 1
    assert (played.slope, played.rating) == (126, 71.8)
    text = formats.course_toml(c)
    assert formats.parse_course(text, "again.toml") == c


def test_a_course_with_one_slope_and_rating_stays_one_tee_set():
    c = formats.parse_course(
        'name = "Old"\nslope = 120\nrating = 70.1\n'
        + "".join(f"[[holes]]\nnumber = {n}\npar = 4\n" for n in range(1, 10)),
        "old.toml",
    )
    assert c.tees == () and c.played_from("anything", model.WOMEN) is c


@pytest.mark.parametrize(
    ("tees", "field", "words"),
    [
        ('name = ""', "name", "is not a tee set name"),
        ('name = "Y"\nslope = 300', "slope", "is not a slope rating"),
        ('name = "Y"\nwomen_rating = "x"', "women_rating", "is not a course rating"),
        ('name = "Y"\npar = { 12 = 5 }', "par", "names hole '12'"),
        ('name = "Y"\npar = { 2 = 9 }', "par", "par 9 of hole 2 is not allowed"),
        ('name = "Y"\nstroke_index = { 1 = 2 }', "stroke_index", "given to hole 1 and hole 2"),
        ('name = "Y"\nlength_m = [1, 2]', "length_m", "has 2 values for 9 holes"),
        ('name = "Y"\ncolor = "red"', "color", "did you mean 'colour'"),
    ],
)
def test_a_bad_tee_set_is_refused_by_line_and_field(tees, field, words):
    holes = "".join(
        f"\n[[holes]]\nnumber = {n}\npar = 4\nstroke_index = {n}\n" for n in range(1, 10)
    )
    with pytest.raises(FileFormatError) as e:
        formats.parse_course(f'name = "C"\n\n[[tees]]\n{tees}\n{holes}', "c.toml")
    (problem,) = e.value.problems
    assert (problem.line, problem.field) == (3, field)
    assert words in problem.message


def test_tee_sets_given_twice_or_beside_a_top_slope_are_refused():
    holes = "".join(f"\n[[holes]]\nnumber = {n}\npar = 4\n" for n in range(1, 10))
    text = f'name = "C"\nslope = 120\n[[tees]]\nname = "Y"\n[[tees]]\nname = "y"\n{holes}'
    with pytest.raises(FileFormatError) as e:
        formats.parse_course(text, "c.toml")
    got = {(p.line, p.field) for p in e.value.problems}
    assert got == {(2, "slope"), (5, "name")}


def test_the_draw_reads_tees_and_gender_with_french_headers_and_defaults():
    (g,) = draw(
        "groupe,heure,trou,joueur,index,sexe,boules\n"
        "1,08:00,1,Ann,10,F,\n1,08:00,1,Bob,12,H,\n1,08:00,1,Cid,30,M,blue\n"
        "1,08:00,1,Dee,20,F,yellow\n",
        tee_defaults=formats.check_tee_defaults({"men": "Yellow", "women": "red"}, course()),
    )
    assert [(p.name, p.tees, p.gender) for p in g.players] == [
        ("Ann", "Red", "women"), ("Bob", "Yellow", "men"), ("Cid", "Blue", "men"),
        ("Dee", "Yellow", "women"),
    ]  # fmt: skip


def test_every_tees_problem_of_the_draw_is_named_by_line_and_field():
    with pytest.raises(FileFormatError) as e:
        draw(
            "group,start,tee,player,gender,tees\n"
            "1,08:00,1,Ann,X,Red\n1,08:00,1,Bob,M,Green\n1,08:00,1,Eve,F,Blue\n"
            "1,08:00,1,Zoe,F,=cmd|' /C calc'!A0\n"
        )
    got = [(p.line, p.field) for p in e.value.problems]
    assert got == [(2, "gender"), (3, "tees"), (4, "tees"), (5, "tees")]
    assert "no women's slope or rating" in e.value.problems[2].message
    assert "its tees are Yellow, Red, Blue" in e.value.problems[1].message


def test_defaults_that_are_not_a_gender_class_or_tee_set_are_refused():
    with pytest.raises(SetupError, match="neither a gender"):
        formats.check_tee_defaults({"juniors": "Blue"}, course())
    with pytest.raises(SetupError, match="not a tee set"):
        formats.check_tee_defaults({"women": "Pink"}, course())
    with pytest.raises(ValueError, match="GENDER=TEES"):
        formats.parse_tee_defaults("men:Yellow")


def test_a_backup_keeps_the_tee_sets_and_each_players_tees():
    from pace.formats import backup

    c = course()
    (g,) = draw("group,start,tee,player,gender,tees\n1,08:00,1,Ann,F,Red\n1,08:00,1,Bob,,\n")
    setup = backup.RoundSetup("R1", DAY, "UTC", "frbg", None, "stroke_play", "individual",
                              "stableford", True, None)  # fmt: skip
    text = backup.dump(c, setup, (g,), ())
    back = backup.parse(text, "r1.pace")
    assert back.course == c
    assert [(p.tees, p.gender) for p in back.groups[0].players] == [("Red", "women"), (None, None)]

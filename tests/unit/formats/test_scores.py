"""The scores CSV and the scoring columns of the course and draw files.

docs/formats.md §1, §2, §7; issue 11.

All or nothing: every problem names the file, the line and the field.
"""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

import pytest

from pace import formats
from pace.rules import errors
from pace.rules.scoring import Score

DAY = date(2025, 6, 14)
TZ = ZoneInfo("Europe/Brussels")
#: a one-hole course, said so (a course has 9 or 18 holes otherwise: issue 14)
ONE_HOLE = 'name = "c"\nhole_count = 1\n'
COURSE_TEXT = (
    'name = "Nine"\nslope = 121\nrating = 35.2\n'
    + "".join(
        f"\n[[holes]]\nnumber = {n}\npar = {par}\nstroke_index = {si}\n"
        for n, (par, si) in enumerate(
            zip((4, 4, 3, 5, 4, 4, 3, 5, 4), (5, 1, 9, 2, 3, 4, 8, 6, 7), strict=True), 1
        )
    )
)  # fmt: skip
COURSE = formats.parse_course(COURSE_TEXT, "nine.toml")
DRAW = formats.parse_draw(
    "group,start,tee,player,handicap,side,class,match\n"
    '1,08:00,1,Julie Gagné,"+1,2",a,,m1\n'
    "1,08:00,1,Luc Nadeau,12.0,a,bb,m1\n"
    "1,08:00,1,Ann Roy,8.4,b,,m2\n"
    "1,08:00,1,Bob Roy,20.1,b,B,m2\n",
    "draw.csv",
    day=DAY,
    tz=TZ,
    course=COURSE,
)


def parse(text, **kw):
    return formats.parse_scores(text, "scores.csv", course=COURSE, groups=DRAW, **kw)


def problems_of(text, **kw):
    with pytest.raises(errors.FileFormatError) as info:
        parse(text, **kw)
    assert all(p.file == "scores.csv" for p in info.value.problems)
    return [(p.line, p.field) for p in info.value.problems], str(info.value)


def test_course_slope_rating_and_bogey():
    assert (COURSE.slope, COURSE.rating, COURSE.par) == (121.0, 35.2, 36)
    text = ONE_HOLE + "[[holes]]\nnumber = 1\npar = 4\nbogey = 5\n"
    assert formats.parse_course(text, "c.toml").hole(1).bogey == 5
    assert (
        formats.parse_course(ONE_HOLE + "[[holes]]\nnumber = 1\npar = 4\n", "c.toml").slope is None
    )


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        (ONE_HOLE + "slope = 40\n[[holes]]\nnumber = 1\npar = 4\n", "slope", "55 to 155"),
        (ONE_HOLE + 'rating = "x"\n[[holes]]\nnumber = 1\npar = 4\n', "rating", "course rating"),
        (ONE_HOLE + "[[holes]]\nnumber = 1\npar = 4\nbogey = 3\n", "bogey", "from the par"),
    ],
)
def test_bad_course_scoring_keys_name_line_and_field(text, field, words):
    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_course(text, "c.toml")
    (problem,) = info.value.problems
    assert problem.field == field and words in problem.message and problem.line is not None


def test_draw_class_match_and_plus_index():
    julie, luc, ann, bob = DRAW[0].players
    assert (julie.handicap, julie.class_name, julie.match, julie.side) == (-1.2, None, "m1", "a")
    assert (luc.class_name, bob.class_name) == ("BB", "B")
    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_draw(
            "group,start,tee,player,class\n1,08:00,1,Ann,C\n", "d.csv", day=DAY, tz=TZ
        )
    (problem,) = info.value.problems
    assert (problem.line, problem.field) == (2, "class")


def test_scores_file_gives_scores_in_file_order():
    text = (
        "group;player;hole;strokes;conceded\n"
        "1;Julie Gagné;1;4;\n"
        "1;julie  gagné;2;-;\n"  # the draw's spelling comes back
        "1;Luc Nadeau;1;;\n"
        "1;Ann Roy;3;20;yes\n"
        "1;Bob Roy;3;1;non\n"
    )
    assert parse(text) == (
        Score("1", "Julie Gagné", 1, 4),
        Score("1", "Julie Gagné", 2, None),
        Score("1", "Luc Nadeau", 1, None),
        Score("1", "Ann Roy", 3, 20, True),
        Score("1", "Bob Roy", 3, 1, False),
    )


def test_a_name_with_decomposed_accents_is_the_drawn_player():
    decomposed = "Julie Gagne\u0301"  # e + combining acute, as some keyboards type é
    assert parse(f"group,player,hole,strokes\n1,{decomposed},1,4\n") == (
        Score("1", "Julie Gagné", 1, 4),
    )


def test_french_headers_are_accepted():
    assert parse("groupe,joueur,trou,coups,concédé\n1,Ann Roy,1,5,oui\n") == (
        Score("1", "Ann Roy", 1, 5, True),
    )


def test_every_problem_is_reported_at_once_with_line_and_field():
    text = (
        "group,player,hole,strokes,conceded\n"
        "9,Ann Roy,1,4,\n"  # 2: unknown group
        "1,Zoé,1,4,\n"  # 3: unknown player
        "1,Ann Roy,10,4,\n"  # 4: no hole 10
        "1,Ann Roy,1,21,\n"  # 5: strokes out of range
        "1,Ann Roy,2,0,\n"  # 6
        "1,Ann Roy,3,4.5,\n"  # 7
        "1,Ann Roy,4,4,maybe\n"  # 8: conceded
        "1,Ann Roy,5,4,\n"
        "1,Ann Roy,5,5,\n"  # 10: twice
        ",Ann Roy,6,4,\n"  # 11: no group
    )
    where, message = problems_of(text)
    assert where == [
        (2, "group"), (3, "player"), (4, "hole"), (5, "strokes"), (6, "strokes"), (7, "strokes"),
        (8, "conceded"), (10, "hole"), (11, "group"),
    ]  # fmt: skip
    assert "scores.csv, line 3, field 'player': player 'Zoé' is not in group '1'" in message
    assert "already scored on hole 5 on line 9" in message
    assert "holes are 1–9" in message


def test_one_ball_formats_any_partner_names_the_side_once_per_hole():
    assert parse("group,player,hole,strokes\n1,Luc Nadeau,1,4\n1,Julie Gagné,2,5\n",
                 format_name="foursome")  # fmt: skip
    where, message = problems_of(
        "group,player,hole,strokes\n1,Luc Nadeau,1,4\n1,Julie Gagné,1,5\n", format_name="foursome"
    )
    assert where == [(3, "hole")]
    assert (
        "side 'a' of group '1' is already scored on hole 1 on line 2 (as 'Luc Nadeau')" in message
    )
    # in four-ball every partner has his own ball
    assert len(parse("group,player,hole,strokes\n1,Luc Nadeau,1,4\n1,Julie Gagné,1,5\n",
                     format_name="four_ball")) == 2  # fmt: skip


def test_a_file_without_scores_is_refused():
    where, _ = problems_of("group,player,hole,strokes\n")
    assert where == [(1, None)]
    where, message = problems_of("group,player,hole\n1,Ann Roy,1\n")
    assert where == [(1, "strokes")] and "missing column 'strokes'" in message

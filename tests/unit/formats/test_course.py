from datetime import timedelta
from pathlib import Path

import pytest

from pace import formats
from pace.rules import errors

DATA = Path(__file__).parents[2] / "data" / "formats"


def nine_holes(**changes: str) -> str:
    """Return a valid 9-hole course TOML; ``changes`` replaces a hole's body by number."""
    pars = [4, 4, 3, 5, 4, 4, 3, 5, 4]
    parts = ['name = "Practice Nine"', ""]
    for number, par in enumerate(pars, start=1):
        body = changes.get(f"hole{number}", f"number = {number}\npar = {par}")
        parts += ["[[holes]]", body, ""]
    return "\n".join(parts)


def problems_of(text: str) -> list[tuple[int | None, str | None]]:
    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_course(text, "course.toml")
    assert all(p.file == "course.toml" for p in info.value.problems)
    return [(p.line, p.field) for p in info.value.problems]


def test_par_72_course_reads_all_holes_in_order():
    course = formats.load_course(DATA / "course_louiseville.toml")

    assert course.name == "Golf de Louiseville"
    assert course.hole_numbers == tuple(range(1, 19))
    assert sum(h.par for h in course.holes) == 72
    assert [h.par for h in course.holes].count(3) == 4
    assert [h.par for h in course.holes].count(5) == 4
    assert sorted(h.stroke_index for h in course.holes) == list(range(1, 19))
    first = course.hole(1)
    assert (first.par, first.stroke_index, first.length_m) == (4, 7, 352.0)
    assert first.walk == timedelta(0)
    assert first.allotted == {}


def test_committee_allotted_and_walk_minutes_become_timedeltas():
    course = formats.load_course(DATA / "course_committee.toml")

    assert course.hole(4).allotted == {
        2: timedelta(minutes=13),
        3: timedelta(minutes=15),
        4: timedelta(minutes=16, seconds=30),
    }
    assert course.hole(10).walk == timedelta(minutes=5)
    assert course.hole(14).walk == timedelta(minutes=1, seconds=30)
    assert course.hole(1).walk == timedelta(0)
    four_ball = sum((h.allotted[4] for h in course.holes), timedelta())
    assert four_ball == timedelta(hours=4, minutes=31, seconds=30)


def test_holes_are_returned_sorted_by_number():
    text = nine_holes(hole1="number = 2\npar = 4", hole2="number = 1\npar = 5")

    course = formats.parse_course(text, "course.toml")

    assert course.hole_numbers == tuple(range(1, 10))
    assert course.hole(1).par == 5


def test_inline_array_of_holes_is_accepted():
    holes = "holes = [{ number = 1, par = 3 }, { number = 2, par = 3 }]"
    text = f'name = "Pitch"\nhole_count = 2\n{holes}\n'

    course = formats.parse_course(text, "course.toml")

    assert course.hole_numbers == (1, 2)


def test_bom_is_ignored():
    course = formats.parse_course("\ufeff" + nine_holes(), "course.toml")

    assert course.name == "Practice Nine"


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"hole3": "number = 3\npar = 7"}, [(11, "par")]),
        ({"hole3": "number = 3"}, [(11, "par")]),
        ({"hole3": 'number = 3\npar = "3"'}, [(11, "par")]),
        ({"hole2": "number = 2\npar = 4\nwalkmin = 2"}, [(7, "walkmin")]),
        ({"hole2": "number = 2\npar = 4\nstroke_index = 10"}, [(7, "stroke_index")]),
        ({"hole2": "number = 2\npar = 4\nlength_m = -5"}, [(7, "length_m")]),
        ({"hole2": "number = 2\npar = 4\nwalk_min = -1"}, [(7, "walk_min")]),
        ({"hole2": "number = 2\npar = 4\nwalk_min = true"}, [(7, "walk_min")]),
        ({"hole2": "number = 2\npar = 4\nallotted = { 4 = 0 }"}, [(7, "allotted")]),
        ({"hole2": "number = 2\npar = 4\nallotted = { four = 15 }"}, [(7, "allotted")]),
        ({"hole2": "number = 2\npar = 4\nallotted = { 7 = 15 }"}, [(7, "allotted")]),
        ({"hole2": "number = 2\npar = 4\nallotted = 15"}, [(7, "allotted")]),
        ({"hole2": "par = 4"}, [(7, "number"), (None, "number")]),
    ],
    ids=[
        "par-out-of-range",
        "par-missing",
        "par-as-text",
        "unknown-key",
        "stroke-index-above-n",
        "negative-length",
        "negative-walk",
        "walk-not-a-number",
        "allotted-zero",
        "allotted-key-not-a-size",
        "allotted-size-too-large",
        "allotted-not-a-table",
        "number-missing",
    ],
)
def test_bad_hole_value_is_reported_at_its_holes_header(changes, expected):
    assert problems_of(nine_holes(**changes)) == expected


def test_unknown_key_message_suggests_the_right_one():
    with pytest.raises(
        errors.FileFormatError, match=r"unknown key 'walkmin' \(did you mean 'walk_min'\?\)"
    ):
        formats.parse_course(nine_holes(hole2="number = 2\npar = 4\nwalkmin = 2"), "course.toml")


def test_repeated_and_missing_hole_numbers_are_both_reported():
    text = nine_holes(hole5="number = 4\npar = 4")

    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_course(text, "course.toml")

    repeated, missing = info.value.problems
    assert (repeated.line, repeated.field) == (19, "number")
    assert repeated.message == "hole 4 is given twice; first on line 15"
    assert (missing.line, missing.field) == (None, "number")
    assert missing.message == "hole numbers must be 1–9 each once; missing 5"


def test_hole_number_beyond_the_count_is_reported():
    text = nine_holes(hole9="number = 10\npar = 4")

    assert problems_of(text) == [(35, "number"), (None, "number")]


def test_stroke_index_given_twice_names_the_first_hole():
    text = nine_holes(
        hole1="number = 1\npar = 4\nstroke_index = 3",
        hole6="number = 6\npar = 4\nstroke_index = 3",
    )

    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_course(text, "course.toml")

    (problem,) = info.value.problems
    assert (problem.line, problem.field) == (24, "stroke_index")
    assert "also given to hole 1 (on line 3)" in problem.message


def test_every_problem_of_the_file_is_reported_at_once():
    text = nine_holes(
        hole1="number = 1\npar = 8",
        hole4="number = 4\npar = 5\nlenght_m = 480",
    ).replace('name = "Practice Nine"', "name = 9")

    assert problems_of(text) == [(1, "name"), (3, "par"), (15, "lenght_m")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hole_count = 1\n[[holes]]\nnumber = 1\npar = 4\n", [(None, "name")]),
        ('name = "Empty"\n', [(None, "holes")]),
        ('name = "Empty"\nholes = []\n', [(None, "holes")]),
        ('name = "Odd"\nholes = 18\n', [(2, "holes")]),
        (
            'name = "Typo"\nnmae = "x"\nhole_count = 1\n[[holes]]\nnumber = 1\npar = 3\n',
            [(2, "nmae")],
        ),
    ],
    ids=["no-name", "no-holes", "empty-holes", "holes-not-tables", "unknown-top-key"],
)
def test_course_level_problems(text, expected):
    assert problems_of(text) == expected


def test_toml_syntax_error_reports_tomllibs_line():
    text = nine_holes(hole3="number = 3\npar = ")

    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_course(text, "course.toml")

    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.field) == ("course.toml", 13, None)
    assert problem.message == "not valid TOML: invalid value"


def test_non_utf8_file_is_refused_with_its_name(tmp_path):
    path = tmp_path / "course.toml"
    path.write_bytes('name = "Golf de la Vallée"\n'.encode("cp1252"))

    with pytest.raises(errors.FileFormatError, match="save it again as UTF-8") as info:
        formats.load_course(path)

    (problem,) = info.value.problems
    assert (problem.file, problem.line) == (str(path), 1)


# -- issue 14, point 9: 9 or 18 holes, and unusual pars noted -----------------------------------


def eighteen(pars: list[int] | None = None, count: int = 18) -> str:
    pars = pars or [4] * count
    return 'name = "Club"\n' + "".join(
        f"\n[[holes]]\nnumber = {n}\npar = {p}\n" for n, p in enumerate(pars, 1)
    )


def test_a_course_of_17_holes_is_refused_with_its_reason():
    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_course(eighteen(count=17), "course.toml")
    (problem,) = info.value.problems
    assert problem.field == "holes"
    assert "17 [[holes]] tables; expected 9 or 18" in problem.message
    assert "hole_count = 17" in problem.message


def test_a_course_that_says_its_hole_count_is_read():
    text = eighteen(count=6).replace('name = "Club"', 'name = "Loop"\nhole_count = 6')
    assert formats.parse_course(text, "course.toml").hole_numbers == tuple(range(1, 7))
    wrong = eighteen(count=6).replace('name = "Club"', 'name = "Loop"\nhole_count = 9')
    assert problems_of(wrong) == [(2, "hole_count")]


def test_nine_and_eighteen_holes_need_no_word():
    notes: list[str] = []
    assert len(formats.parse_course(eighteen(), "c.toml", notes).holes) == 18
    assert len(formats.parse_course(nine_holes(), "c.toml", notes).holes) == 9
    assert notes == []


def test_a_par_outside_3_to_5_is_read_with_a_note():
    notes: list[str] = []
    course = formats.parse_course(eighteen([6] + [4] * 16 + [2]), "course.toml", notes)
    assert (course.hole(1).par, course.hole(18).par) == (6, 2)
    assert notes == [
        "course.toml, line 3: hole 1 has par 6; pars are usually 3, 4 or 5: check it",
        "course.toml, line 71: hole 18 has par 2; pars are usually 3, 4 or 5: check it",
    ]
    assert problems_of(eighteen([7] + [4] * 17)) == [(3, "par")]

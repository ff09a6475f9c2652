"""Course TOML written back (issue 28, part 1): ``course_toml`` is the parser's inverse.

Every course file under tests/data and any course Hypothesis makes re-imports to the same
course; a course the parser would refuse is refused on the way out, with the parser's words.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pace import formats
from pace.rules import errors, model
from pace.rules import names as pace_names

TESTS = Path(__file__).resolve().parents[2]
DATA = TESTS / "data"
#: every course file of the tests: tests/data's and the golden cases' (not their expected.toml)
FIXTURES = sorted([*DATA.rglob("*.toml"), *(TESTS / "golden").rglob("course.toml")])


def test_there_are_course_fixtures_to_go_round():
    assert len(FIXTURES) >= 10


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(TESTS)))
def test_every_course_fixture_reimports_to_the_same_course(path):
    course = formats.load_course(path)
    text = formats.course_toml(course)
    assert formats.parse_course(text, "exported.toml") == course
    assert formats.course_toml(formats.parse_course(text, "exported.toml")) == text


def test_the_file_reads_as_a_committee_would_write_it():
    course = model.Course(
        'Golf "du Lac"\\nord',
        tuple(
            model.Hole(
                n,
                4,
                stroke_index=10 - n,
                length_m=352.5 if n == 1 else None,
                walk=timedelta(minutes=2, seconds=30) if n == 2 else timedelta(0),
                allotted={2: timedelta(minutes=12), 3: timedelta(minutes=14.5)},
            )
            for n in range(1, 10)
        ),  # fmt: skip
        slope=121,
        rating=35.2,
    )
    text = formats.course_toml(course)
    lines = text.splitlines()
    assert lines[:3] == ['name = "Golf \\"du Lac\\"\\\\nord"', "slope = 121", "rating = 35.2"]
    assert "length_m = 352.5" in lines and "walk_min = 2.5" in lines
    assert "allotted = { 2 = 12, 3 = 14.5 }" in lines and "hole_count" not in text
    assert formats.parse_course(text, "x.toml") == course


def test_a_course_the_parser_refuses_is_refused_on_the_way_out():
    holes = tuple(model.Hole(n, 9 if n == 3 else 4) for n in range(1, 10))
    with pytest.raises(errors.FileFormatError) as e:
        formats.course_toml(model.Course("Broken", holes), "broken.toml")
    assert "hole 3: par 9 is not allowed" in e.value.message
    assert "broken.toml" in e.value.message


minutes = st.integers(1, 3600).map(lambda s: timedelta(seconds=s))


def _canonical_name(s: str) -> bool:
    """A name as pace stores it (docs: pace.rules.names): its own canonical spelling."""
    try:
        return s != "" and pace_names.canonical(s) == s
    except pace_names.SpellingError:
        return False


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(
    _canonical_name
)


@st.composite
def courses(draw) -> model.Course:
    count = draw(st.integers(1, 20))
    indexes = draw(st.one_of(st.none(), st.permutations(range(1, count + 1))))
    holes = []
    for n in range(1, count + 1):
        par = draw(st.integers(2, 6))
        holes.append(model.Hole(
            number=n,
            par=par,
            stroke_index=None if indexes is None else indexes[n - 1],
            length_m=draw(st.one_of(st.none(), st.floats(0, 1000, allow_nan=False))),
            walk=draw(st.one_of(st.just(timedelta(0)), minutes)),
            allotted=dict(sorted(draw(st.dictionaries(st.integers(1, 6), minutes)).items())),
            bogey=draw(st.one_of(st.none(), st.integers(par, par + 2))),
        ))  # fmt: skip
    return model.Course(
        draw(names),
        tuple(holes),
        slope=draw(st.one_of(st.none(), st.floats(55, 155))),
        rating=draw(st.one_of(st.none(), st.floats(0.1, 99.9))),
    )


@settings(max_examples=100, deadline=None)
@given(courses())
def test_any_course_reimports_to_the_same_course(course):
    assert formats.parse_course(formats.course_toml(course), "x.toml") == course

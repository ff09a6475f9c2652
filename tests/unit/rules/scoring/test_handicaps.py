"""Course and playing handicaps, strokes received (docs/rules.md §10.1), worked by hand.

Course handicap = index × slope / 113 + (rating − par), rounded to the nearest whole number,
.5 towards plus infinity; nine-hole courses use the nine-hole index (half the index rounded
to one decimal, .05 towards plus infinity). Playing handicap = course handicap × the
format's allowance, rounded the same way.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pace.rules.errors import SetupError
from pace.rules.scoring import handicaps
from pace.rules.scoring.handicaps import Allowances
from pace.rules.scoring.teams import MATCH, STABLEFORD, STROKE, find_format
from tests.builders import PAR_72, scoring_course

NINE = (4, 4, 3, 5, 4, 4, 3, 5, 4)  # par 36


@pytest.mark.parametrize(
    ("index", "slope", "rating", "pars", "expected"),
    [
        # 8.4 × 128 / 113 = 9.515…; + (70.4 − 72) = 7.915… → 8
        (8.4, 128, 70.4, PAR_72, 8),
        # plus 1.2: −1.2 × 128 / 113 = −1.359…; − 1.6 = −2.959… → −3
        (-1.2, 128, 70.4, PAR_72, -3),
        # no slope nor rating: the rounded index; 12.5 → 13 (.5 up)
        (12.5, None, None, PAR_72, 13),
        # −2.5 → −2: .5 rounds towards plus infinity, not away from zero
        (-2.5, None, None, PAR_72, -2),
        # 20 + (73 − 72) = 21
        (20.0, 113, 73.0, PAR_72, 21),
        # 54 × 155 / 113 = 74.07…; + 2.2 = 76.27… → 76
        (54.0, 155, 74.2, PAR_72, 76),
        # 11.3 × 130 / 113 = 13 exactly; + (71.5 − 72) = 12.5 → 13 (exact arithmetic)
        (11.3, 130, 71.5, PAR_72, 13),
        # no index: scratch, 0 + (70.4 − 72) = −1.6 → −2
        (None, 128, 70.4, PAR_72, -2),
        # nine holes: half the index, 12 / 2 = 6; 13 / 2 = 6.5 → 7
        (12.0, None, None, NINE, 6),
        (13.0, None, None, NINE, 7),
        # nine holes: 7.5 × 120 / 113 = 7.964…; + (35.1 − 36) = 7.064… → 7
        (15.0, 120, 35.1, NINE, 7),
        # docs/rules.md §10.1's examples: 4.35 → 4.4; 4.4 × 121 / 113 − 0.7 = 4.011… → 4
        (8.7, 121, 35.3, NINE, 4),
        # 4.45 → 4.5 → 5 (the unrounded half, 4.45, gave 4)
        (8.9, 113, 36.0, NINE, 5),
        # plus 1.1: −0.55 → −0.5 (towards plus infinity) → 0 (the unrounded half gave −1)
        (-1.1, None, None, NINE, 0),
    ],
    ids=[
        "slope-and-rating", "plus-index", "half-up", "minus-half-towards-plus-infinity",
        "rating-over-par", "index-54", "exact-half", "no-index", "nine-holes",
        "nine-holes-half-up", "nine-holes-slope", "usga-nine-example", "nine-index-rounds-up",
        "nine-index-plus",
    ],
)  # fmt: skip
def test_course_handicap(index, slope, rating, pars, expected):
    course = scoring_course(pars, slope=slope, rating=rating)
    assert handicaps.course_handicap(index, course) == expected


@pytest.mark.parametrize(
    ("format_name", "family", "course_handicaps", "expected"),
    [
        ("individual", STROKE, (21,), (20,)),  # 21 × 95 % = 19.95 → 20
        ("individual", STROKE, (-3,), (-3,)),  # −2.85 → −3
        ("individual", STABLEFORD, (10,), (10,)),  # 9.5 → 10
        ("individual", MATCH, (13,), (13,)),  # 100 %
        ("four_ball", STROKE, (10, 17), (9, 14)),  # 8.5 → 9; 14.45 → 14
        ("four_ball", MATCH, (10, 17), (9, 15)),  # 9; 15.3 → 15
        ("best_ball", STROKE, (-1, 30), (-1, 26)),  # −0.85 → −1; 25.5 → 26
        ("foursome", STROKE, (10, 15), (13,)),  # 50 % of 25 = 12.5 → 13
        ("threesome", MATCH, (10, 15), (13,)),
        ("foursome", STROKE, (9,), (9,)),  # a side of one: his individual 95 %, 8.55 → 9
        ("greensome", STROKE, (10, 15), (12,)),  # 60 % of 10 + 40 % of 15 = 12
        ("greensome", MATCH, (20, 7), (12,)),  # 4.2 + 8 = 12.2 → 12
    ],
)
def test_playing_handicap_with_the_formats_allowance(
    format_name, family, course_handicaps, expected
):
    got = find_format(format_name).playing_handicaps(course_handicaps, family, Allowances())
    assert got == expected


def test_a_rounds_allowance_overrides_the_default():
    four_ball = find_format("four_ball")
    changed = four_ball.override(Allowances(), STROKE, (100,))
    assert four_ball.playing_handicaps((10, 17), STROKE, changed) == (10, 17)
    assert changed.four_ball_match_play == 90  # the other allowances stay
    greensome = find_format("greensome").override(Allowances(), STROKE, (50, 50))
    assert find_format("greensome").playing_handicaps((10, 15), STROKE, greensome) == (13,)
    with pytest.raises(SetupError, match="takes 2 allowance"):
        find_format("greensome").override(Allowances(), STROKE, (60,))
    with pytest.raises(SetupError, match="percentage from 0 to 100"):
        Allowances(stroke_play=120)


def test_strokes_received_by_stroke_index():
    course = scoring_course()  # SI: hole 4 = 1, hole 13 = 2, hole 8 = 3, …, hole 12 = 18
    si = {h.number: h.stroke_index for h in course.holes}
    # 23 = one stroke on every hole and one more on stroke indexes 1-5
    r = handicaps.strokes_received(23, course)
    assert sum(r.values()) == 23
    assert {n for n, s in r.items() if s == 2} == {n for n in si if si[n] <= 5} == {4, 13, 8, 17, 9}
    assert all(r[n] == 1 for n in si if si[n] > 5)
    # 5: one stroke on stroke indexes 1-5 only
    r = handicaps.strokes_received(5, course)
    assert {n for n, s in r.items() if s} == {4, 13, 8, 17, 9}
    # 36: two everywhere
    assert set(handicaps.strokes_received(36, course).values()) == {2}
    # plus 2 gives back on stroke indexes 18 (hole 12) and 17 (hole 3)
    r = handicaps.strokes_received(-2, course)
    assert {n: s for n, s in r.items() if s} == {12: -1, 3: -1}
    # nine holes: 11 = one everywhere and one more on stroke indexes 1 and 2
    nine = scoring_course(NINE, stroke_indexes=(5, 1, 9, 2, 3, 4, 8, 6, 7))
    r = handicaps.strokes_received(11, nine)
    assert r == {1: 1, 2: 2, 3: 1, 4: 2, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1}


def test_net_scoring_needs_stroke_indexes():
    course = scoring_course((4, 4, 3), stroke_indexes=(1, 2, 3))
    bare = type(course)("bare", tuple(type(h)(h.number, h.par) for h in course.holes))
    assert handicaps.strokes_received(0, bare) == {1: 0, 2: 0, 3: 0}
    with pytest.raises(SetupError, match="stroke_index on every hole"):
        handicaps.strokes_received(4, bare)


@pytest.mark.parametrize(
    ("index", "tenths"),
    [
        (8.7, 44),  # 4.35 → 4.4; round(8.7 / 2, 1) with floats gives 4.3 (4.34999…)
        (8.9, 45),  # 4.45 → 4.5
        (8.4, 42),  # 4.2: nothing to round
        (12.5, 63),  # 6.25 → 6.3; round(6.25, 1) gives 6.2 (half to even)
        (0.1, 1),  # 0.05 → 0.1
        (0.0, 0),
        (-0.1, 0),  # plus 0.1: −0.05 → 0.0, towards plus infinity, as −2.5 → −2
        (-0.9, -4),  # plus 0.9: −0.45 → −0.4
        (-1.3, -6),  # plus 1.3: −0.65 → −0.6
        (-1.2, -6),  # −0.6: nothing to round
        (54.0, 270),
        (16.9, 85),  # 8.45 → 8.5; round(16.9 / 2, 1) gives 8.4 (8.44999…)
        (8.45, 42),  # an index given to two decimals: 4.225 → 4.2
    ],
)
def test_nine_hole_index_rounds_half_to_a_tenth_towards_plus_infinity(index, tenths):
    assert handicaps.nine_hole_index(index) == Fraction(tenths, 10)


def test_rounding_is_exact():
    assert handicaps.round_half_up(Fraction(1, 2)) == 1
    assert handicaps.round_half_up(Fraction(-1, 2)) == 0
    assert handicaps.round_half_up(Fraction(-3, 2)) == -1
    assert handicaps.exact(0.1) * 3 == Fraction(3, 10)

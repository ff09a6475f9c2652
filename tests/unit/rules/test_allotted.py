"""Allotted time per hole and cumulative, in each group's playing order (docs/rules.md §1, §9)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pace.rules import allotted
from pace.rules.model import PaceSettings
from tests import builders
from tests.builders import make_course, minutes


def _cumulative_min(course, tee=1, size=4, settings=None):
    values = allotted.cumulative_allotments(course, tee, size, settings or PaceSettings())
    return [v / minutes(1) for v in values]


# --------------------------------------------------------------------------- default split


@pytest.mark.parametrize(
    ("par", "size", "expected_min"),
    [
        # federation averages 12 / 14 / 15 min; par 3 = average − 3, par 5 = average + 3
        (3, 2, 9),
        (4, 2, 12),
        (5, 2, 15),
        (3, 3, 11),
        (4, 3, 14),
        (5, 3, 17),
        (3, 4, 12),
        (4, 4, 15),
        (5, 4, 18),
    ],
    ids=lambda v: str(v),
)
def test_default_split_by_par_of_the_federation_average(par, size, expected_min):
    hole = make_course(pars=[par]).holes[0]
    assert allotted.hole_allotment(hole, size, PaceSettings()) == minutes(expected_min)


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (2, timedelta(hours=3, minutes=36)),  # 4×9 + 10×12 + 4×15 = 216
        (3, timedelta(hours=4, minutes=12)),  # 4×11 + 10×14 + 4×17 = 252
        (4, timedelta(hours=4, minutes=30)),  # 4×12 + 10×15 + 4×18 = 270
    ],
    ids=["2-ball 3h36", "3-ball 4h12", "4-ball 4h30"],
)
def test_default_split_gives_the_federation_totals_on_a_par_72(size, expected):
    course = make_course(pars=builders.PAR_72)
    assert sum(h.par for h in course.holes) == 72
    assert [h.par for h in course.holes].count(3) == 4
    assert [h.par for h in course.holes].count(5) == 4
    assert allotted.round_allotment(course, size, PaceSettings()) == expected
    assert allotted.cumulative_allotments(course, 1, size, PaceSettings())[-1] == expected


def test_committee_averages_change_the_default_split():
    # committee gives only a 4-ball average of 16 min: par 3 = 13, par 4 = 16, par 5 = 19
    settings = PaceSettings(averages={2: minutes(12), 3: minutes(14), 4: minutes(16)})
    course = make_course(pars=[3, 4, 5])
    assert _cumulative_min(course, settings=settings) == [0, 13, 29, 48]


def test_committee_par_split_changes_the_default_split():
    settings = PaceSettings(par_split=minutes(2))
    course = make_course(pars=[3, 4, 5])
    # 4-ball: 13, 15, 17
    assert _cumulative_min(course, settings=settings) == [0, 13, 28, 45]


# --------------------------------------------------------------------------- committee values


@pytest.mark.parametrize(
    ("given", "size", "expected_min"),
    [
        ({4: 13}, 4, 13),  # par 4 would be 15 by default; the committee's 13 wins
        ({4: 13}, 3, 14),  # no 3-ball value typed: the default split (14) applies
        ({2: 10, 3: 12, 4: 13}, 2, 10),
        ({2: 10, 3: 12, 4: 13}, 3, 12),
        ({4: 13.5}, 4, 13.5),  # seconds resolution: 13 min 30 s
        ({4: 20}, 4, 20),  # longer than the split is fine too
    ],
    ids=[
        "4-ball value wins",
        "3-ball falls back to split",
        "2-ball column",
        "3-ball column",
        "seconds resolution",
        "longer than split",
    ],
)
def test_committee_allotment_wins_over_the_default_split(given, size, expected_min):
    hole = make_course(pars=[4], allotted={1: given}).holes[0]
    assert allotted.hole_allotment(hole, size, PaceSettings()) == minutes(expected_min)


# --------------------------------------------------------------------------- group-size columns


@pytest.mark.parametrize(
    ("size", "column"),
    [(1, 2), (2, 2), (3, 3), (4, 4), (5, 4), (6, 4)],
    ids=["single uses 2-ball", "2-ball", "3-ball", "4-ball", "5 use 4-ball", "6 use 4-ball"],
)
def test_group_size_column(size, column):
    assert allotted.column_for(size, PaceSettings()) == column


@pytest.mark.parametrize(
    ("size", "expected_min"),
    [(1, 10), (2, 10), (3, 12), (4, 13), (5, 13)],
    ids=["group of 1 -> 2 column", "2", "3", "4", "group of 5 -> 4 column"],
)
def test_group_size_picks_the_committee_column(size, expected_min):
    hole = make_course(pars=[4], allotted={1: {2: 10, 3: 12, 4: 13}}).holes[0]
    assert allotted.hole_allotment(hole, size, PaceSettings()) == minutes(expected_min)


def test_committee_can_set_other_columns_for_small_and_large_groups():
    settings = PaceSettings(small_group_column=3, large_group_column=3)
    hole = make_course(pars=[4], allotted={1: {2: 10, 3: 12, 4: 13}}).holes[0]
    assert allotted.hole_allotment(hole, 1, settings) == minutes(12)
    assert allotted.hole_allotment(hole, 5, settings) == minutes(12)
    assert allotted.hole_allotment(hole, 4, settings) == minutes(13)


def test_single_and_five_ball_use_default_split_of_their_column():
    course = make_course(pars=[3, 4, 5])
    # group of 1 -> 2-ball column: 9, 12, 15; group of 5 -> 4-ball column: 12, 15, 18
    assert _cumulative_min(course, size=1) == [0, 9, 21, 36]
    assert _cumulative_min(course, size=5) == [0, 12, 27, 45]


# --------------------------------------------------------------------------- playing order


@pytest.mark.parametrize(
    ("tee", "expected"),
    [
        (1, tuple(range(1, 19))),
        (10, (10, 11, 12, 13, 14, 15, 16, 17, 18, 1, 2, 3, 4, 5, 6, 7, 8, 9)),
        (5, (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 1, 2, 3, 4)),
        (18, (18, *range(1, 18))),
    ],
    ids=["tee 1", "tee 10 plays 10..18 then 1..9", "shotgun hole 5", "shotgun hole 18"],
)
def test_playing_order_from_a_starting_tee(tee, expected):
    assert allotted.playing_order(make_course(pars=[4] * 18), tee) == expected


def test_cumulative_allotment_follows_the_groups_playing_order():
    # committee values 10, 11, 12, 13 min on holes 1..4
    course = make_course(pars=[4] * 4, allotted={1: 10, 2: 11, 3: 12, 4: 13})
    assert _cumulative_min(course, tee=1) == [0, 10, 21, 33, 46]
    # from tee 3: holes 3, 4, 1, 2 -> 12, +13 = 25, +10 = 35, +11 = 46
    assert _cumulative_min(course, tee=3) == [0, 12, 25, 35, 46]


# --------------------------------------------------------------------------- walk_min


@pytest.mark.parametrize(
    ("tee", "expected"),
    [
        # all par 4 (15 min, 4-ball); walk 5 before hole 10 (halfway), 3 before hole 1.
        # tee 1: hole 1's walk is not added (start hole); hole 10 = 15 + 5.
        # after 9: 135; after 10: 155; after 18: 275
        (1, {1: 15, 9: 135, 10: 155, 18: 275}),
        # tee 10: hole 10's walk not added (start hole); hole 1 (its 10th) = 15 + 3.
        # after 9 (hole 18): 135; after 10 (hole 1): 153; after 18 (hole 9): 273
        (10, {1: 15, 9: 135, 10: 153, 18: 273}),
    ],
    ids=["tee 1 skips hole 1 walk", "tee 10 skips hole 10 walk, adds hole 1 walk"],
)
def test_walk_is_added_except_on_the_starting_hole(tee, expected):
    course = make_course(pars=[4] * 18, walk={10: 5, 1: 3})
    cumulative = _cumulative_min(course, tee=tee)
    for k, value in expected.items():
        assert cumulative[k] == value, k


def test_walk_on_every_hole_counts_seventeen_times_in_a_round():
    # 1 min walk before every hole: 270 + 17 = 287 min whatever the starting tee
    course = make_course(pars=builders.PAR_72, walk={n: 1 for n in range(1, 19)})
    for tee in (1, 10, 7):
        assert _cumulative_min(course, tee=tee)[-1] == 287


def test_round_allotment_from_tee_1_includes_walks_but_not_hole_1s():
    course = make_course(pars=builders.PAR_72, walk={1: 4, 10: 6})
    assert allotted.round_allotment(course, 4, PaceSettings()) == minutes(270 + 6)


def test_walk_adds_to_a_committee_allotment():
    course = make_course(pars=[4, 4], walk={2: 2}, allotted={2: 13})
    assert _cumulative_min(course, tee=1) == [0, 15, 30]  # 15, then 13 + 2
    assert _cumulative_min(course, tee=2) == [0, 13, 28]  # 13 (walk skipped), then 15

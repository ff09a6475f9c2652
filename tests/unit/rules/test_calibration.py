"""Time pars from the course's history (issue 30 part 2, docs/calibration.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pace.demo import history as gh
from pace.rules import calibration as cal
from pace.rules import ranges
from pace.rules.model import (
    Course,
    Group,
    Hole,
    HoleCompletion,
    Player,
    RoundFacts,
    RoundSetup,
    Suspension,
    TimeCredit,
)

M = timedelta(minutes=1)
T0 = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)
COURSE = Course("c", tuple(Hole(n, 4) for n in range(1, 4)))
GROUP = Group("1", T0, 1, (Player("a"), Player("b")))

#: the tolerance the docs state: each hole's suggested share of the round is within one
#: percentage point of the truth's share, and within 12 % of it (docs/calibration.md)
SHARE_POINTS = 0.01
SHARE_RELATIVE = 0.12


def taken(facts: RoundFacts) -> tuple[dict[int, timedelta], dict[str, int]]:
    times, _, skipped = cal.group_history(
        "r", RoundSetup(COURSE, (GROUP,)), facts, GROUP, T0 + 300 * M
    )
    return {t.hole: t.taken for t in times}, skipped


def done(*minutes: int | None) -> tuple[HoleCompletion, ...]:
    return tuple(
        HoleCompletion("1", n, T0 + m * M) for n, m in enumerate(minutes, 1) if m is not None
    )


def test_each_hole_is_timed_from_the_completion_before_it():
    times, skipped = taken(RoundFacts(done(15, 27, 45)))
    assert times == {1: 15 * M, 2: 12 * M, 3: 18 * M}
    assert not skipped


def test_a_missed_tap_leaves_out_both_holes_it_bounds():
    times, skipped = taken(RoundFacts(done(15, None, 45)))
    assert times == {1: 15 * M}
    assert skipped == {cal.MISSING: 2}


def test_holes_logged_out_of_order_are_left_out_at_both_ends():
    # hole 2 logged after hole 3: neither instant can be trusted, nor the holes they bound
    times, skipped = taken(RoundFacts(done(15, 46, 45)))
    assert times == {1: 15 * M}
    assert skipped == {cal.OUT_OF_ORDER: 2}


def test_a_stop_of_play_inside_a_hole_leaves_it_out():
    stop = Suspension(T0 + 20 * M, T0 + 40 * M)
    times, skipped = taken(RoundFacts(done(15, 47, 65), (stop,)))
    assert times == {1: 15 * M, 3: 18 * M}
    assert skipped == {cal.STOPPED: 1}


def test_a_credit_inside_a_hole_leaves_it_out():
    credit = TimeCredit("1", T0 + 20 * M, 5 * M, "ruling")
    times, skipped = taken(RoundFacts(done(15, 32, 50), credits=(credit,)))
    assert times == {1: 15 * M, 3: 18 * M}
    assert skipped == {cal.CREDITED: 1}


@dataclass(frozen=True)
class EstimatedCompletion(HoleCompletion):
    """A completion as issue 30 part 1 marks an estimate."""

    estimated: bool = True


def test_an_estimated_completion_bounds_no_interval():
    facts = RoundFacts((*done(15), EstimatedCompletion("1", 2, T0 + 27 * M), *done(None, None, 45)))
    times, skipped = taken(facts)
    assert times == {1: 15 * M}
    assert skipped == {cal.ESTIMATED: 2}


def test_the_walk_is_taken_out_of_the_play_time_but_not_on_the_starting_hole():
    course = Course("c", (Hole(1, 4, walk=2 * M), Hole(2, 4, walk=3 * M)))
    setup = RoundSetup(course, (GROUP,))
    times, _, _ = cal.group_history("r", setup, RoundFacts(done(15, 30)), GROUP, T0 + 99 * M)
    assert [(t.taken, t.play) for t in times] == [(15 * M, 15 * M), (15 * M, 12 * M)]


@given(st.lists(st.floats(0.01, 1000), min_size=1, max_size=30), st.integers(0, 100_000))
def test_largest_remainder_adds_up_and_stays_within_a_unit(weights, total):
    parts = cal.largest_remainder(weights, total)
    assert sum(parts) == total
    whole = sum(weights)
    assert all(abs(p - w * total / whole) < 1 for p, w in zip(parts, weights, strict=True))


@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=50), st.floats(0, 1))
def test_a_quantile_lies_between_the_smallest_and_largest_value(values, q):
    assert min(values) - 1e-6 <= cal.quantile(values, q) <= max(values) + 1e-6


def test_median_and_80th_percentile_per_hole_and_size():
    setup = RoundSetup(COURSE, (GROUP,))
    rounds = []
    for r, minutes in enumerate(
        [(10, 25, 45), (12, 26, 47), (11, 27, 46), (13, 28, 48), (14, 29, 49)]
    ):
        group = Group("1", T0 + r * 24 * 60 * M, 1, GROUP.players)
        facts = RoundFacts(
            tuple(HoleCompletion("1", n, group.start + m * M) for n, m in enumerate(minutes, 1))
        )
        rounds.append((f"R{r}", RoundSetup(COURSE, (group,)), facts))
    c = cal.calibrate(setup.course, cal.history(rounds))
    column = c.column(2)
    hole1 = column.holes[0]
    assert (hole1.count, hole1.median, hole1.p80) == (5, 12 * M, timedelta(minutes=13.2))
    assert hole1.allotted == 12 * M
    # without a target, the suggestion sums to the observed median round (47 min)
    assert column.observed_round == 47 * M
    assert sum(column.suggested.values(), timedelta()) == 47 * M


def test_a_thin_hole_leaves_the_column_without_suggestion():
    rounds = [("R", RoundSetup(COURSE, (GROUP,)), RoundFacts(done(15, 27, 45)))]
    column = cal.calibrate(COURSE, cal.history(rounds), min_count=5).column(2)
    assert column.suggested == {}
    assert "fewer than 5" in (column.reason or "")


TRUTH = gh.default_truth()
MESS = gh.Mess(missed=0.03, swapped=0.03, siren=0.5, credit=0.2)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_suggestion_recovers_the_truths_shares_through_a_messy_log(seed):
    course = gh.course_for(TRUTH)
    rounds = gh.generate(TRUTH, 8, seed, mess=MESS)
    target = timedelta(hours=4, minutes=10)
    c = cal.calibrate(course, cal.history(rounds), target=target, size=4)
    walks = sum((h.walk for h in course.holes[1:]), timedelta())
    for column in c.columns:
        suggested = column.suggested
        assert len(suggested) == 18, column.reason
        total = sum(suggested.values(), timedelta())
        assert total + walks == column.target
        truth = TRUTH.shares(column.column)
        for hole, part in suggested.items():
            share = part / total
            assert abs(share - truth[hole]) <= SHARE_POINTS, (column.column, hole)
            assert abs(share / truth[hole] - 1) <= SHARE_RELATIVE, (column.column, hole)
    # the target is the reference column's round exactly, in whole minutes
    assert c.column(4).target == target
    assert all(p % M == timedelta(0) for p in c.column(4).suggested.values())


def test_the_mess_is_what_the_calibration_leaves_out():
    h = cal.history(gh.generate(TRUTH, 8, 5, mess=MESS))
    assert all(h.skipped[k] > 0 for k in (cal.MISSING, cal.OUT_OF_ORDER, cal.STOPPED, cal.CREDITED))
    clean = cal.history(gh.generate(TRUTH, 4, 5))
    assert sum(clean.skipped.values()) == 0
    assert len(clean.times) == 4 * 15 * 18


def test_without_the_exclusions_a_siren_would_bias_the_holes_it_stops():
    # the same rounds, the stops of play forgotten: the holes they stopped take longer
    course = gh.course_for(TRUTH)
    rounds = gh.generate(TRUTH, 8, 4, mess=gh.Mess(siren=1.0))
    kept = cal.history(rounds)
    blind = cal.history([(n, s, RoundFacts(f.completions)) for n, s, f in rounds])
    assert kept.skipped[cal.STOPPED] > 0
    longest = max(t.taken for t in blind.times)
    assert longest > max(t.taken for t in kept.times) + 15 * M
    assert cal.calibrate(course, kept).columns


def test_a_target_for_a_size_the_history_lacks_suggests_nothing():
    course = gh.course_for(TRUTH)
    h = cal.history(gh.generate(TRUTH, 6, 2, sizes=(2, 3)))
    c = cal.calibrate(course, h, target=timedelta(hours=4), size=4)
    assert [col.column for col in c.columns] == [2, 3]
    assert all(not col.suggested and "groups of 4" in (col.reason or "") for col in c.columns)
    # a group of 1 plays in the 2-ball column: a target for it is the 2-ball's
    one = cal.calibrate(course, h, target=timedelta(hours=3, minutes=30), size=1)
    assert one.column(2).target == timedelta(hours=3, minutes=30)
    assert sum(one.column(2).suggested.values(), timedelta()) + 3 * M == one.column(2).target


def test_the_suggested_course_carries_the_suggestion_in_its_columns():
    course = gh.course_for(TRUTH)
    c = cal.calibrate(course, cal.history(gh.generate(TRUTH, 6, 9)))
    new = c.suggested_course()
    for column in c.columns:
        for hole, value in column.suggested.items():
            assert new.hole(hole).allotted[column.column] == value
    assert [h.walk for h in new.holes] == [h.walk for h in course.holes]


def test_the_finish_range_holds_the_truth_about_four_times_in_five():
    course = gh.course_for(TRUTH)
    s = ranges.spread(course, cal.history(gh.generate(TRUTH, 10, 11)))
    inside = total = 0
    for _, setup, facts in gh.generate(TRUTH, 4, 12):
        for g in setup.groups:
            mine = sorted((c for c in facts.completions if c.group == g.id), key=lambda c: c.at)
            finish = mine[-1].at
            for k in range(0, 18, 3):
                anchor = g.start if k == 0 else mine[k - 1].at
                r = ranges.finish_range(
                    s, course, [c.hole for c in mine], g.size, k, anchor, anchor
                )
                assert r is not None and r[0] <= r[1]
                inside += r[0] <= finish <= r[1]
                total += 1
    assert 0.7 <= inside / total <= 0.9


def test_the_over_hole_range_runs_from_the_slow_end_to_the_fast_end():
    course = gh.course_for(TRUTH)
    s = ranges.spread(course, cal.history(gh.generate(TRUTH, 6, 3)))
    order = course.hole_numbers
    cumulative = [i * 15 * M for i in range(19)]
    # a group 4 minutes over after 6 holes of 15 on a course that takes about 14.5 a hole
    early, late = ranges.over_hole_range(s, course, order, 4, 6, 94 * M, cumulative)
    assert early is not None and early in order[6:]
    assert late is None or order.index(late) >= order.index(early)
    # far behind: over at once at both ends; far ahead: never over at either end
    assert ranges.over_hole_range(s, course, order, 4, 6, 130 * M, cumulative) == (
        order[6],
        order[6],
    )
    assert ranges.over_hole_range(s, course, order, 4, 6, 20 * M, cumulative) == (None, None)
    # with no history, no range
    assert (
        ranges.over_hole_range(ranges.Spread({}, {}, {}), course, order, 4, 6, 94 * M, cumulative)
        is None
    )

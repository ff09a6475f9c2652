"""Invariants of the rules core, checked with Hypothesis (docs/rules.md §1–3, §5, §8)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from pace.rules import allotted, position
from pace.rules.model import (
    HoleCompletion,
    PaceSettings,
    RoundFacts,
    Status,
    Suspension,
    TimeCredit,
)
from tests.builders import at, make_course, make_group, make_setup, minutes

FAST = settings(max_examples=100, deadline=None, database=None)
T0 = at("08:00")

# --------------------------------------------------------------------------- strategies

pars = st.lists(st.integers(3, 5), min_size=1, max_size=18)
seconds = st.integers(0, 6 * 3600)  # instants as seconds after 08:00, over six hours


def instant(s: int):
    return T0 + timedelta(seconds=s)


@st.composite
def courses(draw):
    course_pars = draw(pars)
    n = len(course_pars)
    walk = draw(st.lists(st.sampled_from([0, 0, 0.5, 2, 5]), min_size=n, max_size=n))
    given_min = draw(
        st.lists(st.one_of(st.none(), st.integers(300, 1500).map(lambda s: s / 60)), min_size=n)
    )
    committee = {h: {c: m for c in (2, 3, 4)} for h, m in enumerate(given_min[:n], 1) if m}
    return make_course(pars=course_pars, walk=dict(enumerate(walk, 1)), allotted=committee)


@st.composite
def fields(draw):
    """A course of 9 holes, a draw of 2–5 groups on tees 1 and 5, and random facts."""
    course = make_course(pars=draw(st.lists(st.integers(3, 5), min_size=9, max_size=9)))
    n_groups = draw(st.integers(2, 5))
    groups = []
    for i in range(n_groups):
        tee = draw(st.sampled_from([1, 1, 5]))
        start = draw(st.sampled_from([0, 8, 9, 10, 20, 30, 40]))
        g = make_group(f"G{i}", "08:00", tee=tee, size=draw(st.integers(1, 5)))
        groups.append(dataclasses.replace(g, start=T0 + minutes(start)))
    setup = make_setup(course, groups, gap_margin=minutes(draw(st.sampled_from([0, 0, 2]))))
    done = []
    for g in groups:
        for hole in draw(st.sets(st.integers(1, 9), max_size=9)):
            done.append(HoleCompletion(g.id, hole, instant(draw(seconds))))
    sirens = [
        Suspension(instant(s), draw(st.one_of(st.none(), st.just(instant(s + d)))))
        for s, d in draw(st.lists(st.tuples(seconds, st.integers(0, 3600)), max_size=3))
    ]
    credits = [
        TimeCredit(draw(st.sampled_from(groups)).id, instant(s), minutes(m))
        for s, m in draw(st.lists(st.tuples(seconds, st.integers(1, 10)), max_size=3))
    ]
    withdrawn = {g.id: instant(draw(seconds)) for g in groups if draw(st.integers(0, 9)) == 0}
    facts = RoundFacts(tuple(done), tuple(sirens), tuple(credits), withdrawn)
    return setup, facts


def known_at(facts: RoundFacts, now):
    """Return the facts as they stood at ``now``: nothing stamped after it."""
    return RoundFacts(
        completions=tuple(c for c in facts.completions if c.at <= now),
        suspensions=tuple(
            Suspension(s.start, s.end if s.end is not None and s.end <= now else None, s.kind)
            for s in facts.suspensions
            if s.start <= now
        ),
        credits=tuple(c for c in facts.credits if c.at <= now),
        withdrawn={g: t for g, t in facts.withdrawn.items() if t <= now},
    )


# --------------------------------------------------------------------------- allotment (§1)


@FAST
@given(course=courses(), size=st.integers(1, 6), data=st.data())
def test_cumulative_allotment_is_non_decreasing_and_sums_holes_and_walks(course, size, data):
    tee = data.draw(st.sampled_from(course.hole_numbers))
    s = PaceSettings()
    cumulative = allotted.cumulative_allotments(course, tee, size, s)
    assert len(cumulative) == len(course.holes) + 1
    assert cumulative[0] == timedelta(0)
    assert all(a <= b for a, b in zip(cumulative, cumulative[1:], strict=False))
    holes = sum((allotted.hole_allotment(h, size, s) for h in course.holes), timedelta(0))
    walks = sum((h.walk for h in course.holes if h.number != tee), timedelta(0))
    assert cumulative[-1] == holes + walks


@FAST
@given(course=courses(), size=st.integers(1, 6))
def test_round_total_differs_between_tees_only_by_the_starting_holes_walk(course, size):
    s = PaceSettings()
    totals = {
        allotted.cumulative_allotments(course, h.number, size, s)[-1] + h.walk for h in course.holes
    }
    assert len(totals) == 1


# --------------------------------------------------------------------------- status (§3)


@FAST
@given(
    course_pars=st.lists(st.integers(3, 5), min_size=9, max_size=9),
    done=st.lists(st.integers(60, 1800), max_size=8),
    sirens=st.lists(st.tuples(seconds, st.one_of(st.none(), st.integers(0, 3600))), max_size=2),
    waits=st.lists(st.integers(0, 3 * 3600), min_size=2, max_size=6),
)
def test_lead_group_status_never_improves_while_its_clock_runs_without_completions(
    course_pars, done, sirens, waits
):
    # A (lead) has completed holes 1..k at increasing instants; no credit is granted.
    setup = make_setup(
        make_course(pars=course_pars), [make_group("A", "08:00"), make_group("B", "08:10")]
    )
    t, log = 0, []
    for hole, step in enumerate(done, 1):
        t += step
        log.append(HoleCompletion("A", hole, instant(t)))
    facts = RoundFacts(
        completions=tuple(log),
        suspensions=tuple(
            Suspension(instant(s), None if d is None else instant(s + d)) for s, d in sirens
        ),
    )
    nows, acc = [], t
    for w in waits:
        acc += w
        nows.append(instant(acc))
    ranks = [position.evaluate_field(setup, facts, n).group("A").status.severity for n in nows]
    assert ranks == sorted(ranks)


@FAST
@given(field=fields(), now_s=seconds)
def test_facts_stamped_after_now_do_not_change_the_evaluation(field, now_s):
    setup, facts = field
    now = instant(now_s)
    assert position.evaluate_field(setup, facts, now) == position.evaluate_field(
        setup, known_at(facts, now), now
    )
    assert position.episodes(setup, facts, now) == position.episodes(
        setup, known_at(facts, now), now
    )


@FAST
@given(field=fields(), now_s=seconds, extra=st.integers(1, 5))
def test_a_larger_committee_margin_never_makes_a_status_worse(field, now_s, extra):
    setup, facts = field
    now = instant(now_s)
    wider = dataclasses.replace(
        setup,
        settings=dataclasses.replace(
            setup.settings, gap_margin=setup.settings.gap_margin + minutes(extra)
        ),
    )
    before = position.evaluate_field(setup, facts, now)
    after = position.evaluate_field(wider, facts, now)
    for a, b in zip(before.groups, after.groups, strict=True):
        assert b.status.severity <= a.status.severity, a.group


@FAST
@given(field=fields(), now_s=seconds, data=st.data())
def test_time_off_the_clock_never_makes_a_status_worse(field, now_s, data):
    # a time credit (§5) or a suspension (§8) only takes time off a group's clock
    setup, facts = field
    now = instant(now_s)
    group = data.draw(st.sampled_from(setup.groups)).id
    when = instant(data.draw(st.integers(0, now_s)))
    if data.draw(st.booleans()):
        more = dataclasses.replace(
            facts, credits=(*facts.credits, TimeCredit(group, when, minutes(5)))
        )
    else:
        more = dataclasses.replace(
            facts, suspensions=(*facts.suspensions, Suspension(when, when + minutes(20)))
        )
    before = position.evaluate_field(setup, facts, now)
    after = position.evaluate_field(setup, more, now)
    for a, b in zip(before.groups, after.groups, strict=True):
        assert b.status.severity <= a.status.severity, a.group
        assert a.holes_completed == b.holes_completed


@FAST
@given(field=fields(), now_s=seconds)
def test_confirmed_status_agrees_with_its_numbers(field, now_s):
    # over time: over > 0; out of position for a following group: no gap seen or
    # gap > interval (+ margin); behind: a following group with gap <= interval (+ margin)
    setup, facts = field
    now = instant(now_s)
    margin = setup.settings.gap_margin
    zero = timedelta(0)
    for s in position.evaluate_field(setup, facts, now).groups:
        if s.status is not s.confirmed:
            continue  # the numbers are the projection's
        if s.status is Status.ON_PACE:
            assert s.over <= zero
        elif s.status is Status.OUT_OF_POSITION:
            assert s.over > zero
            assert s.lead or s.gap is None or s.gap > s.interval + margin
        elif s.status is Status.BEHIND:
            assert s.over > zero
            assert not s.lead and s.gap is not None and s.gap <= s.interval + margin


@FAST
@given(field=fields(), now_s=seconds)
def test_a_group_has_an_open_episode_exactly_when_it_is_out_of_position(field, now_s):
    setup, facts = field
    now = instant(now_s)
    statuses = position.evaluate_field(setup, facts, now)
    open_ = {e.group for e in position.episodes(setup, facts, now) if e.end is None}
    for s in statuses.groups:
        if s.status is Status.WITHDRAWN:
            assert s.group not in open_
        else:
            assert (s.group in open_) == (s.status is Status.OUT_OF_POSITION), s

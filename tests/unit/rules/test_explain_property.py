"""Explanations agree with the verdicts they explain, on generated rounds (issue 30).

The rounds are test_fieldfold's (taps out of order and ahead of the clock, corrections, voids,
sirens, credits, withdrawals), some with a player of group B retiring during play. At each
instant checked, every alert the live loop finds due (``episode_alerts``, ``overdue_alerts``
over the round's ``FieldFold``) is explained from that fold, and the explanation's figures
judged again give the alert's verdict: time over the allotment and a gap over the limit
(or a lead group, or nobody ahead) ⇔ out of position. The whole log's reading (the report's)
gives the same explanation; and every "held up the field" naming of the report is explained
by figures that give it: the group out of position there, each group of the chain behind.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pace.rules import alerts as alertsmod
from pace.rules import explain as ex
from pace.rules import facts as factsmod
from pace.rules import position
from pace.rules.events import Event
from pace.rules.fieldfold import FieldFold
from pace.rules.model import RoundSetup, Status
from pace.rules.report import build_report
from tests.builders import make_course, make_group
from tests.unit.rules.test_fieldfold import FOLDS, T0, played, rounds


@st.composite
def cases(draw):
    setup, _, events, checks = draw(st.one_of(rounds(), played()))
    if draw(st.booleans()):  # B, a three-ball, becomes a two-ball during play
        when = T0 + timedelta(minutes=draw(st.integers(10, 120)))
        groups = tuple(
            replace(g, retired=((g.players[-1].name, when),)) if g.id == "B" else g
            for g in setup.groups
        )
        setup = replace(setup, groups=groups)
    return setup, events, checks


def judged_again(x: ex.Explanation) -> None:
    """The explanation's own figures add up and give its verdict."""
    assert x.elapsed == x.clock - x.stopped - x.credited
    assert x.over == x.elapsed - x.allotted
    assert x.verdict() is x.status


@FOLDS
@given(cases())
def test_every_alert_is_explained_by_figures_that_give_its_verdict(case):
    setup, events, checks = case
    plan = position.plan_field(setup)
    fold = FieldFold(setup, plan)
    for e in events:
        fold.apply(e, e.at)
    sources = ex.Sources(events)
    facts = factsmod.fold(events)
    for now in [*checks, *(e.at for e in events[-3:])]:
        fold.advance(now)
        whole = ex.LogReading(setup, facts, now, plan)
        for p in plan.groups:
            s = fold.status(p.id, now)
            due = [*alertsmod.episode_alerts(fold.episodes(p.id, now), s),
                   *alertsmod.overdue_alerts(s, now)]  # fmt: skip
            for a in due:
                x = ex.explain(fold, sources, a.kind, a.group, a.at)
                assert x is not None, a
                judged_again(x)
                assert ex.explain(whole, sources, a.kind, a.group, a.at) == x
                if a.kind == alertsmod.OUT_OF_POSITION:
                    # over time, and a lead group, nobody ahead or a gap over the limit
                    # (by more than the allowance when it rests on a report or positions)
                    assert x.status is Status.OUT_OF_POSITION
                    assert x.over > x.slack
                    assert x.lead or x.gap is None or (
                        x.limit is not None and x.gap - x.slack > x.limit
                    )
                    assert x.hole == a.hole
                elif a.kind == alertsmod.BACK_IN_POSITION:
                    assert x.status in (Status.ON_PACE, Status.BEHIND)
                    assert x.over <= x.slack or (
                        not x.lead and x.gap is not None and x.limit is not None
                        and x.gap - x.slack <= x.limit
                    )  # fmt: skip
                else:
                    assert x.status is Status.OVERDUE and (x.over, x.hole) == (a.over, a.hole)
                    assert x.over > x.slack
                for w in x.behind:  # the chain: each waiting, over time close behind
                    assert w.status is Status.BEHIND and w.over is not None
                    assert w.over > timedelta(0)


@FOLDS
@given(cases())
def test_every_hold_up_is_explained_by_figures_that_give_the_naming(case):
    setup, events, checks = case
    facts = factsmod.fold(events)
    for now in checks:
        report = build_report(setup, facts, events, None, now)
        for u in report.field.held_up:
            (x,) = [y for y in report.group(u.group).explanations if y.subject == ex.HELD_UP]
            judged_again(x)
            assert (x.status, x.hole, x.at, x.over) == (
                Status.OUT_OF_POSITION, u.worst.hole, u.worst.at, u.worst.over)  # fmt: skip
            assert [(w.group, w.over) for w in x.behind] == list(u.worst.behind)
            assert all(w.status is Status.BEHIND for w in x.behind)
        for g in report.groups:  # each episode's start, as judged out of position
            starts = [y for y in g.explanations if y.subject == ex.OUT_OF_POSITION]
            assert [y.at for y in starts] == [e.episode.start for e in g.episodes]
            for y in g.explanations:
                judged_again(y)


@pytest.mark.parametrize(("source", "slack"), [("group", 3), ("position", 1)])
def test_a_verdict_resting_on_a_report_or_positions_is_explained_with_its_allowance(
    source, slack
):
    # one group, out of position at hole 1 (an official's tap 10 min over), back in position
    # at hole 2 on a completion over by less than the allowance it rests on
    setup = RoundSetup(make_course(pars=[3, 3, 3]), (make_group("B", "08:00", size=3),))
    plan = position.plan_field(setup)
    p = plan.by_id["B"]
    start = p.group.start
    one = start + p.cumulative[1] + timedelta(minutes=10)
    two = start + p.cumulative[2] + timedelta(seconds=30)
    second = {"group": "B", "hole": 2, "source": source}
    if source == "position":  # its interval: a minute either side
        second |= {"earliest": (two - timedelta(minutes=1)).isoformat(),
                   "latest": (two + timedelta(minutes=1)).isoformat()}  # fmt: skip
    events = [
        Event("t1", "hole_completed", "R", one, {"group": "B", "hole": 1}, {}),
        Event("t2", "hole_completed", "R", two, second, {}),
    ]
    fold = FieldFold(setup, plan)
    for e in events:
        fold.apply(e, e.at)
    x = ex.explain(fold, ex.Sources(events), alertsmod.BACK_IN_POSITION, "B", two)
    assert x is not None and x.status is Status.ON_PACE
    assert x.over == timedelta(seconds=30) and x.slack == timedelta(minutes=slack)
    judged_again(x)  # the figures give on pace only with the allowance

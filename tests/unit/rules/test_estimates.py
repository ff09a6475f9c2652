"""Missed taps found and estimated honestly (issue 30, part 1; docs/estimates.md).

One test per way a missed tap shows in the log (a hole skipped, a group passed, a group silent),
the bounds, the no-penalty mark, and Hypothesis rounds played to a known truth with taps
removed at random: every estimate lies within its bounds and its bounds hold the truth, the
real tap replaces it, and once every tap is in the statuses are the whole-log fold's.
"""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pace.rules import estimates, position
from pace.rules.model import HoleCompletion, RoundFacts
from tests.builders import at, make_course, make_facts, make_group, make_setup, minutes, suspension

EXAMPLES = settings(
    max_examples=int(os.environ.get("PACE_FOLD_EXAMPLES", "60")), deadline=None, database=None
)

# six par-4 holes: 15 minutes a hole for a four-ball (docs/rules.md §1)
COURSE = make_course(pars=[4] * 6)
FIELD = [make_group("A", "08:00"), make_group("B", "08:10"), make_group("C", "08:20")]
# a group out on the course long before the field, every hole logged: each hole has a marshal
# (a hole nobody was logged on stays "not observed", docs/rules.md §3)
Z = make_group("Z", "06:00", tee=1)
SEEN = {"Z": {h: f"06:{10 * h:02d}" for h in range(1, 6)} | {6: "07:00"}}


def plan(groups=FIELD, course=COURSE):
    return position.plan_field(make_setup(course, [Z, *groups]))


def found(log, now, **kw):
    p = plan(kw.pop("groups", FIELD))
    return estimates.of_facts(p, make_facts({**SEEN, **log}, **kw), at(now))


def test_a_hole_nobody_was_logged_on_has_no_marshal_and_no_estimate():
    p = position.plan_field(make_setup(COURSE, FIELD))
    assert estimates.of_facts(p, make_facts({"A": {1: "08:15", 3: "08:45"}}), at("08:50")) == ()
    (e,) = found({"A": {1: "08:15", 3: "08:45"}}, "08:50")
    assert e.hole == 2


def test_a_hole_skipped_between_two_logged_holes_is_estimated_between_them():
    (e,) = found({"A": {1: "08:15", 2: "08:30", 4: "09:10"}}, "09:12")
    assert (e.group, e.hole, e.reason) == ("A", 3, estimates.SKIPPED)
    assert (e.earliest, e.latest) == (at("08:30"), at("09:10"))
    assert e.at == at("08:50")  # the two holes' allotments are equal: half-way


def test_a_skipped_hole_takes_its_share_of_the_allotments():
    # hole 2 is a par 3 (12 min), hole 3 a par 5 (18 min): hole 2 ends 12/30 of the way
    course = make_course(pars=[4, 3, 5, 4])
    p = position.plan_field(
        make_setup(course, [make_group("A", "08:00"), make_group("Y", "08:10")])
    )
    facts = make_facts({"A": {1: "08:15", 3: "08:45"}, "Y": {1: "08:25", 2: "08:40"}})
    (e,) = estimates.of_facts(p, facts, at("08:50"))
    assert (e.hole, e.reason, e.at) == (2, estimates.SKIPPED, at("08:27"))


def test_the_first_holes_missed_are_bounded_by_the_start():
    es = found({"A": {3: "08:45"}}, "08:46")
    assert [(e.hole, e.earliest, e.at) for e in es] == [
        (1, at("08:00"), at("08:15")),
        (2, at("08:00"), at("08:30")),
    ]


def test_the_group_behind_logging_a_hole_first_reveals_the_group_ahead_completed_it():
    # A logged hole 2 at 08:30; B completed hole 3 at 09:00 and A has not: A completed 3 before
    (e,) = found({"A": {1: "08:15", 2: "08:30"}, "B": {1: "08:27", 2: "08:42", 3: "09:00"}},
                 "09:01")  # fmt: skip
    assert (e.group, e.hole, e.reason) == ("A", 3, estimates.PASSED)
    assert (e.earliest, e.latest) == (at("08:30"), at("09:00"))
    assert e.earliest < e.at < e.latest


def test_a_group_passed_on_several_holes_gets_each_in_order_below_the_group_behinds():
    es = found({"A": {1: "08:15"}, "B": {1: "08:27", 2: "08:42", 3: "09:00"}}, "09:01")
    assert [e.hole for e in es] == [2, 3]
    assert es[0].latest == at("08:42") and es[1].latest == at("09:00")
    assert es[0].at <= es[1].at


def test_a_group_on_another_tee_is_never_the_group_behind():
    # E starts on tee 4 at 08:00: it reaches hole 4 before A by the draw, not by passing
    groups = [*FIELD, make_group("E", "08:00", tee=4)]
    assert found({"A": {1: "08:15"}, "E": {4: "08:15"}}, "08:20", groups=groups) == ()


def test_a_shotgun_partner_starting_at_the_same_instant_is_not_the_group_behind():
    groups = [make_group("1A", "08:00"), make_group("1B", "08:00")]
    assert found({"1B": {1: "08:15"}}, "08:20", groups=groups) == ()


def test_a_group_silent_far_beyond_its_allotment_while_the_group_behind_comes_up():
    log = {"A": {1: "08:15"}, "B": {1: "08:30"}}
    assert found(log, "08:45") == ()  # 30 min of silence: 2 x 15, not more
    (e,) = found(log, "08:46")
    assert (e.group, e.hole, e.reason) == ("A", 2, estimates.SILENT)
    assert (e.at, e.earliest, e.latest) == (at("08:30"), at("08:15"), at("08:46"))
    assert not e.counts  # asked about, never judged with


def test_a_silent_group_nobody_has_caught_up_with_is_not_suspected():
    assert found({"A": {1: "08:15"}, "B": {}}, "09:30") == ()


def test_a_stop_of_play_is_no_silence():
    log = {"A": {1: "08:15"}, "B": {1: "08:30"}}
    assert found(log, "08:50", suspensions=[suspension("08:20", "08:40")]) == ()


def test_a_withdrawn_group_is_not_passed_nor_silent():
    log = {"A": {1: "08:15"}, "B": {1: "08:27", 2: "08:42"}}
    assert found(log, "09:30", withdrawn={"A": "08:20"}) == ()


def test_the_log_contradicting_itself_gives_no_estimate():
    # hole 3 logged before hole 1: the log is wrong, not a tap missing
    assert [e.hole for e in found({"A": {1: "08:40", 3: "08:30"}}, "08:50")] == []


def test_a_verdict_on_the_group_ahead_s_estimate_is_marked_and_the_group_behind_not_penalised():
    # A's tap on hole 2 was missed; B completed hole 2 at 08:41: without the estimate the group
    # seen ahead on hole 2 is Z, two hours before (out of position); with it, B's gap is
    # measured to A's estimate and the verdict rests on it
    log = {"A": {1: "08:15", 3: "08:45"}, "B": {1: "08:31", 2: "08:41"}}
    p = plan()
    facts = make_facts({**SEEN, **log})
    now = at("08:46")
    plain = position.evaluate_field(make_setup(COURSE, [Z, *FIELD]), facts, now, p).group("B")
    es = estimates.of_facts(p, facts, now)
    judged = estimates.judge_field(p, facts, now, es)
    s, rests = judged["B"]
    assert plain.gap == at("08:41") - at("06:20") and rests  # Z's, two hours earlier
    assert s.gap == at("08:41") - at("08:30")
    history = estimates.judge_history(
        p.by_id["B"], estimates.EstimatedIndex(position.CompletionIndex(p, facts.completions, now),
                                               p, es),
        {1: at("08:31"), 2: at("08:41")}, (), (), (),
    )  # fmt: skip
    assert [rests for _, rests in history] == [False, True]


def test_an_episode_that_begins_on_an_estimate_is_not_firm():
    # B over time at hole 2 with only A's estimate ahead: whatever the verdict, no alert
    log = {"A": {1: "08:15", 3: "09:05"}, "B": {1: "08:24", 2: "09:04"}}
    p = plan()
    facts = make_facts({**SEEN, **log})
    now = at("09:06")
    es = estimates.of_facts(p, facts, now)
    index = estimates.EstimatedIndex(position.CompletionIndex(p, facts.completions, now), p, es)
    history = estimates.judge_history(
        p.by_id["B"], index, {1: at("08:24"), 2: at("09:04")}, (), (), ()
    )
    assert any(e.out_of_position for e, _ in history)
    assert estimates.firm_episodes("B", history, None, now) == ()


def test_the_real_tap_replaces_the_estimate():
    log = {"A": {1: "08:15", 3: "08:45"}}
    assert [e.hole for e in found(log, "08:50")] == [2]
    assert found({"A": {1: "08:15", 2: "08:33", 3: "08:45"}}, "08:50") == ()


def test_an_estimate_of_a_group_s_furthest_hole_makes_its_status_rest_on_it():
    log = {"A": {1: "08:15"}, "B": {1: "08:27", 2: "08:42"}}
    p = plan()
    facts = make_facts({**SEEN, **log})
    now = at("08:43")
    judged = estimates.judge_field(p, facts, now, estimates.of_facts(p, facts, now))
    s, rests = judged["A"]
    assert s.holes_completed == 2 and s.last_hole == 2 and rests


# --------------------------------------------------------------------------- generated rounds

TEE1 = [make_group(g, f"08:{m:02d}", size=4) for g, m in (("A", 0), ("B", 10), ("C", 20),
                                                          ("D", 30))]  # fmt: skip
ROUTE2 = [make_group("E", "08:00", tee=4, size=3), make_group("F", "08:12", tee=4, size=3)]
GROUPS = TEE1 + ROUTE2


@st.composite
def truths(draw):
    """Return (setup, completions): a round played to a known truth, nobody passing anyone."""
    pars = draw(st.lists(st.integers(3, 5), min_size=6, max_size=6))
    setup = make_setup(make_course(pars=pars), GROUPS)
    p = position.plan_field(setup)
    truth: list[HoleCompletion] = []
    for tee in (1, 4):
        ahead: dict[int, object] = {}
        for g in [g for g in GROUPS if g.tee == tee]:
            t = g.start
            for hole in p.by_id[g.id].order:
                t = t + minutes(draw(st.integers(8, 22)))
                if hole in ahead:  # held up: the group ahead must leave the green first
                    t = max(t, ahead[hole] + timedelta(minutes=1))  # type: ignore[operator]
                truth.append(HoleCompletion(g.id, hole, t))
                ahead[hole] = t
    return setup, p, truth


@EXAMPLES
@given(truths(), st.data())
def test_estimates_lie_within_their_bounds_and_the_bounds_hold_the_truth(round_, data):
    setup, p, truth = round_
    now = at("08:00") + minutes(data.draw(st.integers(0, 200)))
    kept = [c for c in truth if not data.draw(st.booleans())]
    real = {(c.group, c.hole): c.at for c in truth}
    es = estimates.of_facts(p, RoundFacts(completions=tuple(kept)), now)
    logged = {(c.group, c.hole) for c in kept if c.at <= now}
    for e in es:
        assert e.earliest <= e.at <= e.latest <= now
        assert (e.group, e.hole) not in logged
        if e.counts:  # the log proves the hole was completed: the truth is inside the bounds
            assert e.earliest <= real[(e.group, e.hole)] <= e.latest


@EXAMPLES
@given(truths(), st.data())
def test_a_real_tap_replaces_its_estimate(round_, data):
    setup, p, truth = round_
    now = at("08:00") + minutes(data.draw(st.integers(0, 200)))
    kept = [c for c in truth if not data.draw(st.booleans())]
    es = estimates.of_facts(p, RoundFacts(completions=tuple(kept)), now)
    if not es:
        return
    e = data.draw(st.sampled_from(es))
    tap = HoleCompletion(e.group, e.hole, e.at)  # the marshal confirms the estimate
    after = estimates.of_facts(p, RoundFacts(completions=(*kept, tap)), now)
    assert (e.group, e.hole) not in {(x.group, x.hole) for x in after}


@EXAMPLES
@given(truths(), st.integers(0, 200))
def test_once_every_tap_is_in_the_statuses_are_the_whole_log_fold(round_, minute):
    setup, p, truth = round_
    now = at("08:00") + minutes(minute)
    facts = RoundFacts(completions=tuple(sorted(truth, key=lambda c: c.at)))
    es = estimates.of_facts(p, facts, now)
    assert all(not e.counts for e in es)  # nothing proven missing
    judged = estimates.judge_field(p, facts, now, es)
    plain = position.evaluate_field(setup, facts, now, p)
    assert {g: s for g, (s, _) in judged.items()} == {s.group: s for s in plain.groups}
    assert not any(rests for _, rests in judged.values())


@EXAMPLES
@given(truths(), st.data())
def test_an_estimate_never_makes_a_group_out_of_position_that_the_truth_does_not(round_, data):
    """The verdicts resting on estimates are marked, and those that do not rest on one are the
    verdicts the plain log gives (the estimates change only what they are marked on)."""
    setup, p, truth = round_
    now = at("08:00") + minutes(data.draw(st.integers(0, 200)))
    kept = tuple(c for c in truth if not data.draw(st.booleans()))
    facts = RoundFacts(completions=kept)
    es = estimates.of_facts(p, facts, now)
    judged = estimates.judge_field(p, facts, now, es)
    plain = position.evaluate_field(setup, facts, now, p)
    for s in plain.groups:
        mine, rests = judged[s.group]
        if not rests and not any(e.group == s.group and e.counts for e in es):
            assert mine == s


@pytest.mark.parametrize("reason", estimates.REASONS)
def test_every_reason_is_documented(reason):
    from pathlib import Path

    text = (Path(__file__).parents[3] / "docs" / "estimates.md").read_text(encoding="utf-8")
    assert f"`{reason}`" in text

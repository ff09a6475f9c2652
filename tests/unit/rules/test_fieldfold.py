"""The incremental folds equal the whole-log ones after every event (issue 13).

Generated rounds mix taps (two phones on one hole, out of order, ahead of the clock),
corrections, voids, sirens, time credits, withdrawals and the referees' acts (decisions,
stops, players told, timed strokes, notifications) under the three presets. After every event,
``FieldFold`` and ``RefereeFold`` must give exactly what ``facts.fold``, ``position`` and
``refereeing.judge_round`` give for the log so far; and a group whose version did not move and
whose wake-up instant is still ahead shows the same status as a fresh evaluation, its moving
figures grown minute for minute.
"""

from __future__ import annotations

import os
import uuid
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from pace.rules import facts as factsmod
from pace.rules import policies, position
from pace.rules import refereeing as rr
from pace.rules.events import Event
from pace.rules.fieldfold import FAR, FINISH, GAP, OVER, FieldFold
from pace.rules.refereefold import RefereeFold
from tests.builders import at, make_course, make_group, make_setup

FOLDS = settings(
    max_examples=int(os.environ.get("PACE_FOLD_EXAMPLES", "60")), deadline=None, database=None
)
T0 = at("08:00")
GROUPS = [
    make_group("A", "08:00", size=2),
    make_group("B", "08:10", size=3),
    make_group("C", "08:20", size=2),
    make_group("D", "08:45", size=2),  # after a starter's gap: a lead group
    make_group("E", "08:00", tee=4, size=2),
]
PLAYERS = {g.id: [p.name for p in g.players] for g in GROUPS}
PRESETS = [policies.FRBG, policies.MAURICIE, policies.SWIN]


def event(type: str, seconds: int, payload: dict) -> Event:
    return Event(str(uuid.uuid4()), type, "R", T0 + timedelta(seconds=seconds), payload)


@st.composite
def rounds(draw):
    """Return (setup, policy, events, checks): a generated round and instants to check it at."""
    pars = draw(st.lists(st.integers(3, 5), min_size=6, max_size=6))
    setup = make_setup(make_course(pars=pars), GROUPS)
    policy = draw(st.sampled_from(PRESETS))
    events: list[Event] = []
    taps: list[Event] = []
    strokes: list[Event] = []
    voidable: list[Event] = []
    n = draw(st.integers(1, 45))
    clock = 0
    for _ in range(n):
        clock += draw(st.integers(0, 900))
        kind = draw(st.sampled_from(
            ["tap"] * 8 + ["report"] * 4
            + ["correct", "void", "siren", "credit", "withdraw", "decide", "stop",
               "tell", "stroke", "stroke", "notify"]
        ))  # fmt: skip
        g = draw(st.sampled_from(GROUPS))
        player = draw(st.sampled_from(PLAYERS[g.id]))
        when = max(0, clock + draw(st.integers(-1200, 60)))  # late phones, a clock ahead
        if kind == "tap":
            e = event("hole_completed", when, {"group": g.id, "hole": draw(st.integers(1, 6))})
            taps.append(e)
        elif kind == "report":  # a group's own report (issue 39): batches, an official over it
            e = event("hole_completed", when, {"group": g.id, "hole": draw(st.integers(1, 6)),
                                               "source": "group"})  # fmt: skip
            taps.append(e)
        elif kind == "correct" and taps:
            target = draw(st.sampled_from(taps))
            new = (T0 + timedelta(seconds=max(0, when - draw(st.integers(0, 600))))).isoformat()
            e = event("hole_time_corrected", clock, {"target": target.id, "at": new})
        elif kind == "void" and voidable:
            target = draw(st.sampled_from(voidable))
            voidable.remove(target)
            e = event("event_voided", clock, {"target": target.id, "reason": "slip"})
        elif kind == "siren":
            siren = draw(st.sampled_from(["suspension", "interruption", "resume", "resume"]))
            e = event("siren", when, {"kind": siren})
        elif kind == "credit":
            minutes = draw(st.sampled_from([2, 4.5, 10]))
            e = event("time_credit_granted", when, {"group": g.id, "minutes": minutes})
        elif kind == "withdraw":
            e = event("group_withdrawn", when, {"group": g.id})
        elif kind == "decide":
            decision = draw(st.sampled_from(["time", "time", "not_time"]))
            e = event("timing_decided", when, {"group": g.id, "decision": decision,
                                               "reason": None, "note": ""})  # fmt: skip
        elif kind == "stop":
            e = event("timing_stopped", when, {"group": g.id, "reason": ""})
        elif kind == "tell":
            e = event("player_told_timed", when, {"group": g.id, "player": player})
        elif kind == "stroke":
            took = draw(st.integers(10, 90))
            started = T0 + timedelta(seconds=when)
            hole = draw(st.one_of(st.none(), st.integers(1, 6)))
            e = event("stroke_timed", when + took, {
                "group": g.id, "player": player, "hole": hole,
                "kind": draw(st.sampled_from(["par3_tee", "approach", "chip_putt", "other"])),
                "first_to_play": draw(st.booleans()), "between_holes": draw(st.booleans()),
                "started": started.isoformat(),
                "stopped": (started + timedelta(seconds=took)).isoformat()})  # fmt: skip
            strokes.append(e)
        elif kind == "notify":
            faults = [s.id for s in strokes if s.payload["group"] == g.id]
            faults += [f"checkpoint:{g.id}:{k}" for k in (1, 2)]
            fault = draw(st.sampled_from(faults))
            e = event("player_notified", when, {"group": g.id, "player": player, "fault": fault})
        else:
            continue
        events.append(e)
        if e.type in ("hole_completed", "hole_time_corrected", "siren", "time_credit_granted",
                      "group_withdrawn", "stroke_timed", "player_notified",
                      "player_told_timed"):  # fmt: skip
            voidable.append(e)
    checks = draw(st.lists(st.integers(0, 6 * 3600), min_size=1, max_size=3))
    return setup, policy, events, [T0 + timedelta(seconds=s) for s in checks]


@st.composite
def played(draw):
    """Return (setup, policy, events, checks): groups playing their holes in order, some slow.

    Each group completes its holes one after the other, 8 to 25 minutes a hole and never
    within a minute of the group ahead on that hole, so following groups run over time behind
    the slow ones; a siren's stop and a credit or two come in between.
    """
    setup, policy, _, checks = draw(rounds())
    plan = position.plan_field(setup)
    events: list[Event] = []
    previous: dict[int, int] = {}
    for p in sorted(plan.groups, key=lambda p: p.rank):
        t = int((p.group.start - T0).total_seconds())
        for hole in p.order[: draw(st.integers(0, len(p.order)))]:
            t += draw(st.integers(8 * 60, 25 * 60))
            t = max(t, previous.get(hole, 0) + 60)
            previous[hole] = t
            events.append(event("hole_completed", t, {"group": p.id, "hole": hole}))
    for _ in range(draw(st.integers(0, 3))):
        when = draw(st.integers(0, 4 * 3600))
        g = draw(st.sampled_from(GROUPS))
        events.append(draw(st.sampled_from([
            event("siren", when, {"kind": "suspension"}),
            event("siren", when + 600, {"kind": "resume"}),
            event("time_credit_granted", when, {"group": g.id, "minutes": 5}),
        ])))  # fmt: skip
    return setup, policy, sorted(events, key=lambda e: e.at), checks


def assert_field_equal(fold: FieldFold, setup, plan, facts, now) -> None:
    evaluated = position.evaluations(setup, facts, now, plan)
    field = position.evaluate_field(setup, facts, now, plan)
    overs = position.hole_overs(setup, facts, now, plan)
    episodes = position.episodes(setup, facts, now, plan)
    for p in plan.groups:
        assert fold.evaluations(p.id, now) == evaluated[p.id]
        assert fold.status(p.id, now) == field.group(p.id)
        assert fold.overs(p.id, now) == overs.get(p.id, {})
        assert fold.episodes(p.id, now) == tuple(e for e in episodes if e.group == p.id)


@FOLDS
@given(st.one_of(rounds(), played()))
def test_the_incremental_folds_equal_the_whole_log_folds_after_every_event(case):
    setup, policy, events, checks = case
    plan = position.plan_field(setup)
    fold = FieldFold(setup, plan)
    referees = RefereeFold(fold, policy)
    for i, e in enumerate(events):
        fold.apply(e, e.at)
        referees.apply(e)
        log = events[: i + 1]
        facts = factsmod.fold(log)
        assert fold.facts() == facts
        state = rr.fold(log)
        assert referees.state() == state
        for now in [*checks, e.at]:
            assert_field_equal(fold, setup, plan, facts, now)
        for p in plan.groups:  # the evaluations as of the end of the log
            assert fold.evaluations(p.id) == position.evaluations(setup, facts, FAR, plan)[p.id]
        whole = rr.judge_round(setup, facts, state, policy, FAR, plan=plan)
        assert referees.judgement() == whole
        assert referees.all_spells() == rr.round_spells(
            setup, state, position.evaluations(setup, facts, FAR, plan), FAR
        )


def grown(before, after, moving, delta) -> None:
    """``after`` is ``before`` with the moving figures grown by ``delta``."""
    for name, value in (("over", OVER), ("gap", GAP), ("projected_finish", FINISH)):
        old, new = getattr(before, name), getattr(after, name)
        assert new == (old + delta if value in moving else old), (name, before, after, moving)
    for name in ("status", "holes_completed", "hole", "last_hole", "lead", "interval",
                 "confirmed", "projected"):  # fmt: skip
        assert getattr(before, name) == getattr(after, name), name


@FOLDS
@given(
    st.one_of(rounds(), played()),
    st.lists(st.integers(1, 900), min_size=3, max_size=12),
    st.booleans(),
)
def test_a_group_whose_version_and_wake_up_did_not_come_changes_only_by_its_moving_figures(
    case, steps, judged
):
    setup, _, events, _ = case
    plan = position.plan_field(setup)
    fold = FieldFold(setup, plan)
    pending = sorted(events, key=lambda e: e.at)  # a log in (mostly) time order
    now = T0 - timedelta(minutes=5)
    seen: dict[str, tuple] = {}
    for step in steps * 3:
        now += timedelta(seconds=step * 2)
        log_to = now + timedelta(seconds=20)  # facts up to 20 s ahead of the clock come in
        while pending and pending[0].at <= log_to:
            fold.apply(pending.pop(0), now)
            if judged:  # the referees' fold reads every group's evaluations, as live
                for p in plan.groups:
                    fold.evaluations(p.id)
        fold.advance(now)
        facts = fold.facts()
        truth = position.evaluate_field(setup, facts, now, plan)
        for p in plan.groups:
            known = seen.get(p.id)
            if known and known[0] == fold.version[p.id] and (known[4] is None or known[4] > now):
                _, before, then, moving, _ = known
                grown(before, truth.group(p.id), moving, now - then)
                assert fold.moving(p.id, truth.group(p.id), now) == moving
                continue
            s = fold.status(p.id, now)
            assert s == truth.group(p.id)
            moving = fold.moving(p.id, s, now)
            seen[p.id] = (fold.version[p.id], s, now, moving, fold.wake(p.id, s, now))

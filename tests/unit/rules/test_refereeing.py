"""The referees' fold, timing spells and the judgement of strokes (issues 5 and 10).

Hand-worked from docs/rules.md §4.3, §4.6, §4.7:

- A spell runs from a decision to time the group until the earliest of a referee's stop and
  the instant an evaluation (a completion or a credit) finds the group back in position.
- A stroke is judged by its own start: inside a spell it is judged; started after a spell
  that ended by the group being back in position it is ``group_in_position`` (not counted);
  started outside every spell (before the decision, after a stop) it is ``not_timed``.
- The par-3 tee shot's extra 10 s go by the hole's par, whatever kind the device sent.

Course: 9 holes, pars 4 3 4 4 4 4 4 4 4: a 4-ball is allotted 15 min a par 4 and 12 min the
par 3, so the cumulative allotment after k holes is 15, 27, 42, 57, 72...
Draw: A 08:00 (lead), B 08:10. A completes hole 1 at 08:16 (16 > 15: out of position) and
hole 2 at 08:26 (26 <= 27: back in position at 08:26).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from pace.rules import position, refereeing, spells
from pace.rules.events import Event
from pace.rules.penalties import MATCH_PLAY, Reason
from pace.rules.policies import FRBG, MAURICIE
from tests.builders import at, credit, make_course, make_facts, make_group, make_setup

COURSE = make_course(pars=[4, 3, 4, 4, 4, 4, 4, 4, 4])
SETUP = make_setup(COURSE, (make_group("A", "08:00"), make_group("B", "08:10")))
OUT_THEN_BACK = {"A": {1: "08:16", 2: "08:26"}}
NOW = "12:00"


def ev(id: str, type: str, hhmm: str, **payload) -> Event:
    return Event(id, type, "r", at(hhmm), payload, by={"role": "referee", "device": "p"})


def decide(hhmm: str, group: str = "A", id: str | None = None, decision: str = "time") -> Event:
    return ev(id or f"d{hhmm}", "timing_decided", hhmm, group=group, decision=decision)


def stop(hhmm: str, group: str = "A") -> Event:
    return ev(f"s{hhmm}", "timing_stopped", hhmm, group=group)


def stroke(
    id: str, start: str, seconds: float, hole: int = 1, kind: str = "other", first=False,
    player: str = "A1", between=False,
) -> Event:  # fmt: skip
    started = at(start)
    stopped = started + timedelta(seconds=seconds)
    payload = {
        "group": "A", "player": player, "hole": hole, "kind": kind, "first_to_play": first,
        "between_holes": between, "started": started.isoformat(), "stopped": stopped.isoformat(),
    }  # fmt: skip
    return Event(id, "stroke_timed", "r", stopped, payload)


def judge(log, completions=OUT_THEN_BACK, now=NOW, policy=FRBG, credits=(), **kw):
    facts = make_facts(completions, credits=credits)
    return refereeing.judge_round(
        SETUP, facts, refereeing.fold(log), policy, at(now), **kw
    )  # fmt: skip


# --------------------------------------------------------------------------- the fold


def test_the_fold_keeps_each_decision_with_its_note_and_author():
    log = [
        ev("d1", "timing_decided", "08:20", group="A", decision="not_time", reason="ruling"),
        ev("d2", "timing_decided", "08:40", group="A", decision="time", note="slow on the 3rd"),
    ]
    state = refereeing.fold(log)
    assert [(d.decision, d.reason, d.note) for d in state.decisions_of("A")] == [
        ("not_time", "ruling", ""),
        ("time", None, "slow on the 3rd"),
    ]
    assert state.decisions[1].by == {"role": "referee", "device": "p"}
    # a decision not to time is a stop to the spells: the latest decision stands
    assert state.spell_acts == (
        spells.SpellAct("A", spells.STOP, at("08:20")),
        spells.SpellAct("A", spells.START, at("08:40")),
    )


def test_a_voided_decision_times_nobody():
    log = [decide("08:20", id="d"), ev("v", "event_voided", "08:21", target="d")]
    assert judge(log).spells_of("A") == ()


# --------------------------------------------------------------------------- spells


def span(start, end=None, ended_by=None, hole=None, stopped=None):
    return (
        at(start), end and at(end), ended_by, hole, stopped and at(stopped)
    )  # fmt: skip


BACK = spells.BACK_IN_POSITION
STOPPED = spells.STOPPED


@pytest.mark.parametrize(
    ("log", "completions", "credits", "expected"),
    [
        # decided at 08:20 while out of position: hole 2 at 08:26 puts A back, timing stops
        ([decide("08:20")], OUT_THEN_BACK, (), [span("08:20", "08:26", BACK, 2)]),
        # a referee stopping before that ends the spell at the stop
        ([decide("08:20"), stop("08:24")], OUT_THEN_BACK, (),
         [span("08:20", "08:24", STOPPED, stopped="08:24")]),
        # a stop after the spell ended by itself is recorded on it (the players were told)
        ([decide("08:20"), stop("08:30")], OUT_THEN_BACK, (),
         [span("08:20", "08:26", BACK, 2, stopped="08:30")]),
        # still out of position at hole 2 (08:29 > 27): the spell runs on
        ([decide("08:20")], {"A": {1: "08:16", 2: "08:29"}}, (), [span("08:20")]),
        # ...until the credit that puts A back in position (29 - 3 = 26 <= 27)
        ([decide("08:20")], {"A": {1: "08:16", 2: "08:29"}}, [credit("A", "08:35", 3)],
         [span("08:20", "08:35", BACK, 2)]),
        # a second decision while a spell runs changes nothing
        ([decide("08:20"), decide("08:22")], OUT_THEN_BACK, (), [span("08:20", "08:26", BACK, 2)]),
        # a new decision after the spell ended opens a new spell
        ([decide("08:20"), decide("08:40")], {"A": {1: "08:16", 2: "08:26", 3: "08:41"}}, (),
         [span("08:20", "08:26", BACK, 2), span("08:40", "08:41", BACK, 3)]),
        # timed while in position (before its first completion): ends at its next completion
        # that finds it in position
        ([decide("08:05")], {"A": {1: "08:14"}}, (), [span("08:05", "08:14", BACK, 1)]),
        # a decision arriving late (log order) still opens the spell at its own instant
        ([stop("08:24"), decide("08:20")], OUT_THEN_BACK, (),
         [span("08:20", "08:24", STOPPED, stopped="08:24")]),
        # a stop with nothing to stop changes nothing
        ([stop("08:10")], OUT_THEN_BACK, (), []),
        # a decision not to time opens no spell
        ([decide("08:20", decision="not_time")], OUT_THEN_BACK, (), []),
    ],
    ids=[
        "ends-when-back-in-position",
        "referee-stops-earlier",
        "stop-after-the-end-is-kept",
        "still-out-runs-on",
        "credit-puts-back",
        "second-decision-ignored",
        "new-spell-after-the-end",
        "timed-in-position",
        "decision-after-stop-in-log-order",
        "stop-without-spell",
        "not-time-opens-nothing",
    ],
)  # fmt: skip
def test_timing_spells(log, completions, credits, expected):
    got = judge(log, completions, credits=credits).spells_of("A")
    assert [(s.start, s.end, s.ended_by, s.end_hole, s.stopped) for s in got] == expected


def test_players_told_are_those_told_inside_the_spell():
    log = [
        decide("08:20"),
        ev("t1", "player_told_timed", "08:21", group="A", player="A1"),
        ev("t2", "player_told_timed", "08:30", group="A", player="A2"),  # after it ended
    ]
    [spell] = judge(log).spells_of("A")
    assert spell.told == frozenset({"A1"})


# --------------------------------------------------------------------------- strokes


@pytest.mark.parametrize(
    ("log", "placement", "reason", "counted"),
    [
        # started inside the spell (decided 08:20, back in position 08:26)
        ([decide("08:20"), stroke("k", "08:22", 46)], spells.TIMED, Reason.COUNTED, True),
        # started after the completion that put A back in position, before any stop
        ([decide("08:20"), stroke("k", "08:27", 46, hole=3)],
         spells.GROUP_IN_POSITION, Reason.GROUP_IN_POSITION, False),
        # timed inside the spell, reaching the log after the referee's stop
        ([decide("08:20"), stop("08:24"), stroke("k", "08:23", 46)],
         spells.TIMED, Reason.COUNTED, True),
        # started before the decision to time
        ([stroke("k", "08:19", 46), decide("08:20")], spells.NOT_TIMED, Reason.NOT_TIMED, False),
        # started after a referee's stop
        ([decide("08:20"), stop("08:24"), stroke("k", "08:25", 46)],
         spells.NOT_TIMED, Reason.NOT_TIMED, False),
        # started just before the spell ended, stopped after: judged by its start
        ([decide("08:20"), stroke("k", "08:25:40", 46)], spells.TIMED, Reason.COUNTED, True),
        # started at the very instant the group got back in position: no longer timed
        ([decide("08:20"), stroke("k", "08:26", 46)],
         spells.GROUP_IN_POSITION, Reason.GROUP_IN_POSITION, False),
    ],
    ids=[
        "inside-the-spell",
        "after-back-in-position",
        "sent-after-stop",
        "before-the-decision",
        "after-a-stop",
        "straddling-the-end",
        "at-the-end-instant",
    ],
)  # fmt: skip
def test_a_stroke_is_judged_by_its_own_start(log, placement, reason, counted):
    j = judge(log)
    assert j.stroke("k").placement == placement
    [o] = j.outcomes
    assert (o.reason, o.counted) == (reason, counted)
    assert (o.penalty is not None) is counted


@pytest.mark.parametrize(
    ("hole", "kind", "first", "seconds", "allowed", "bad"),
    [
        (2, "par3_tee", True, 46, 50, False),  # hole 2 is the par 3
        (1, "par3_tee", True, 46, 40, True),  # a "par-3 tee shot" on a par 4: 40 s
        (3, "par3_tee", True, 41, 40, True),
        (2, "par3_tee", False, 46, 40, True),  # not the first to play
        (1, "approach", True, 46, 50, False),  # the other kinds need no par 3
        (1, "chip_putt", True, 50, 50, False),
    ],
    ids=["par-3", "par-4-at-46s", "par-4-at-41s", "par-3-not-first", "approach", "putt"],
)
def test_the_course_decides_the_par_3_allowance(hole, kind, first, seconds, allowed, bad):
    j = judge([decide("08:20"), stroke("k", "08:21", seconds, hole, kind, first)])
    v = j.stroke("k").verdict
    assert (v.allowed, v.is_bad_time) == (timedelta(seconds=allowed), bad)


def test_a_par_3_tee_shot_between_holes_is_judged_on_the_next_hole():
    # timed between holes 1 and 2: the tee shot of hole 2, the par 3
    j = judge([decide("08:20"), stroke("k", "08:17", 46, 1, "par3_tee", True, between=True)],
              completions={"A": {1: "08:16"}})  # fmt: skip
    assert j.stroke("k").hole == 2 and j.stroke("k").verdict.allowed == timedelta(seconds=50)


def test_a_stroke_between_holes_without_a_hole_goes_to_the_next_hole_played():
    log = [decide("08:20"), stroke("k", "08:21", 46, None, between=True)]
    j = judge(log, completions={"A": {1: "08:16"}})
    assert j.outcomes[0].fault.hole == 2


def test_uncounted_strokes_do_not_touch_the_ladder_and_faults_stay_in_log_order():
    log = [
        stroke("early", "08:18", 45),  # before the decision: not timed
        decide("08:20"),
        stroke("one", "08:21", 45),  # 1st bad time: warning
        ev("n", "player_notified", "08:22", group="A", player="A1", fault="one"),
        stroke("late", "08:27", 45, hole=3),  # back in position since 08:26
        stroke("two", "08:23", 45),  # sent last, played before: 2nd bad time, one stroke
    ]
    out = judge(log).outcomes
    assert [(o.fault.id, o.reason.value, o.rank) for o in out] == [
        ("early", "not_timed", None),
        ("one", "counted", 1),
        ("two", "counted", 2),
        ("late", "group_in_position", None),
    ]
    assert out[2].penalty.kind == "strokes" and out[2].penalty.amount == 1


def test_a_stroke_stopped_after_now_is_not_judged_yet():
    assert judge([decide("08:20"), stroke("k", "08:22", 46)], now="08:22:30").strokes == ()


# --------------------------------------------------------------------------- checkpoints


def test_checkpoint_faults_are_numbered_by_breach_and_keep_their_stretch():
    # mauricie on this nine: checkpoints after holes 6 (one stretch of six holes).
    # A: holes 1-6 in 95 min (08:00 -> 09:35): a breach, penalty on hole 7
    j = judge([], completions={"A": {6: "09:35"}}, policy=MAURICIE, play=MATCH_PLAY)
    assert [(o.fault.id, o.fault.player, o.fault.hole) for o in j.outcomes] == [
        ("checkpoint:A:1", "A1", 7), ("checkpoint:A:1", "A2", 7),
        ("checkpoint:A:1", "A3", 7), ("checkpoint:A:1", "A4", 7),
    ]  # fmt: skip
    assert j.outcomes[0].penalty.kind == "loss_of_hole"
    breach = j.breaches["checkpoint:A:1"]
    assert (breach.checkpoint, breach.taken) == (1, timedelta(minutes=95))


# --------------------------------------------------------------------------- prompts


def prompts(log, now, completions):
    facts = make_facts(completions)
    field = position.evaluate_field(SETUP, facts, at(now))
    j = refereeing.judge_round(SETUP, facts, refereeing.fold(log), FRBG, at(now))
    return refereeing.stop_timing_alerts(j, field)


TIMED_AT_0820 = [decide("08:20")]


def test_no_prompt_while_the_timed_group_is_out_of_position():
    assert prompts(TIMED_AT_0820, "08:25", {"A": {1: "08:16"}}) == ()


def test_a_spell_that_ended_by_itself_prompts_once_to_tell_the_players():
    [alert] = prompts(TIMED_AT_0820, "08:31", OUT_THEN_BACK)
    assert alert.kind == "stop_timing" and alert.group == "A"
    assert alert.key == f"stop_timing:A:{at('08:20').isoformat()}"
    assert (alert.at, alert.hole) == (at("08:26"), 2)


def test_no_prompt_once_a_referee_stopped_and_a_new_spell_has_a_new_key():
    stopped = [*TIMED_AT_0820, stop("08:32")]
    assert prompts(stopped, "08:33", OUT_THEN_BACK) == ()
    again = [*stopped, decide("08:50")]
    # A on hole 3 at 08:47 (47 > 42) is out again; back at hole 4 at 08:56 (56 <= 57)
    [alert] = prompts(again, "09:00", {"A": {1: "08:16", 2: "08:26", 3: "08:47", 4: "08:56"}})
    assert alert.key == f"stop_timing:A:{at('08:50').isoformat()}"
    assert alert.at == at("08:56")


def test_a_group_timed_while_not_out_of_position_is_prompted_from_the_decision():
    [alert] = prompts(TIMED_AT_0820, "08:25", {"A": {1: "08:14"}})
    assert (alert.at, alert.hole) == (at("08:20"), 1)

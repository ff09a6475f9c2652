"""What ends a timing spell, and which strokes it leaves untimed (issue 26).

docs/rules.md §4.6, §4.7.

Every act that might open or close a spell, one row each, as docs/penalties.md's table "What
opens and ends a spell" lists them; then the two situations of issue 26 (a stroke after a
referee's stop; a credit that puts the group back in position). Each round is one event log
folded into facts and referees' acts as the live service folds it, judged by ``judge_round``
(what ``pace penalties`` and an imported log are judged by) and by the live incremental folds,
which must agree.

Course: eighteen holes, par 72 (4 4 3 5 4 4 3 5 4 twice); a 4-ball is allotted 15 minutes a
par 4, 12 a par 3 and 18 a par 5: 15 30 42 60 after its first four holes, from hole 1 as from
hole 10. A two-tee start: group 1 (08:00, lead) and group 2 (08:10) from tee 1, group 10
(08:00, lead) from tee 10. Group 1 completing hole 1 at 08:20 is 5 minutes over: out of
position; hole 2 at 08:28 (28 <= 30) puts it back, at 08:33 (33 > 30) it is still out.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pace.rules import facts as factsmod
from pace.rules import position, refereeing, spells
from pace.rules.events import Event
from pace.rules.fieldfold import FAR, FieldFold
from pace.rules.policies import FRBG
from pace.rules.refereefold import RefereeFold
from tests.builders import at, make_course, make_group, make_setup

SETUP = make_setup(
    make_course(),
    (make_group("1", "08:00"), make_group("2", "08:10"), make_group("10", "08:00", tee=10)),
)
PLAN = position.plan_field(SETUP)

TIMED, IN_POSITION, NOT_TIMED = spells.TIMED, spells.GROUP_IN_POSITION, spells.NOT_TIMED
BACK, STOPPED = spells.BACK_IN_POSITION, spells.STOPPED


def ev(id: str, type: str, hhmm: str, **payload) -> Event:
    return Event(id, type, "r", at(hhmm), payload, by={"role": "referee", "device": "p"})


def decide(hhmm: str, group: str = "1", decision: str = "time", **kw) -> Event:
    reason = {"reason": "ruling"} if decision == "not_time" else {}
    return ev(f"d{group}@{hhmm}", "timing_decided", hhmm, group=group, decision=decision,
              **reason, **kw)  # fmt: skip


def stop(hhmm: str, group: str = "1") -> Event:
    return ev(f"s{group}@{hhmm}", "timing_stopped", hhmm, group=group)


def tell(hhmm: str, player: str, group: str = "1") -> Event:
    return ev(f"t{player}@{hhmm}", "player_told_timed", hhmm, group=group, player=player)


def hole(group: str, number: int, hhmm: str) -> Event:
    return ev(f"h{group}:{number}", "hole_completed", hhmm, group=group, hole=number)


def credit(hhmm: str, minutes: float, group: str = "1") -> Event:
    return ev(f"c{group}@{hhmm}", "time_credit_granted", hhmm, group=group, minutes=minutes,
              reason="ruling")  # fmt: skip


def siren(hhmm: str, kind: str) -> Event:
    return ev(f"siren@{hhmm}", "siren", hhmm, kind=kind)


def void(hhmm: str, target: str) -> Event:
    return ev(f"v@{hhmm}", "event_voided", hhmm, target=target, reason="wrong")


def notify(hhmm: str, player: str, fault: str, group: str = "1") -> Event:
    return ev(f"n{fault}", "player_notified", hhmm, group=group, player=player, fault=fault)


def stroke(id: str, start: str, seconds: float, *, player: str, group: str = "1",
           hole: int = 2) -> Event:  # fmt: skip
    started = at(start)
    stopped = started + timedelta(seconds=seconds)
    payload = {
        "group": group, "player": player, "hole": hole, "kind": "other",
        "first_to_play": False, "between_holes": False,
        "started": started.isoformat(), "stopped": stopped.isoformat(),
    }  # fmt: skip
    return Event(id, "stroke_timed", "r", stopped, payload)


def judged(log: list[Event]) -> refereeing.Judgement:
    """Return the round judged as ``pace penalties`` judges it, once the live folds agree."""
    whole = refereeing.judge_round(
        SETUP, factsmod.fold(log), refereeing.fold(log), FRBG, FAR, plan=PLAN
    )
    fold = FieldFold(SETUP, PLAN)
    referees = RefereeFold(fold, FRBG)
    for e in log:
        fold.apply(e, e.at)
        referees.apply(e)
    assert referees.judgement() == whole  # the live service judges alike
    return whole


def spans(j: refereeing.Judgement, group: str = "1") -> list[tuple]:
    def hhmm(t):
        return t and t.strftime("%H:%M")

    return [(hhmm(s.start), hhmm(s.end), s.ended_by, hhmm(s.stopped)) for s in j.spells_of(group)]


def probes(*starts: str, group: str = "1") -> list[Event]:
    """Return a 46-second stroke (a bad time) started at each of ``starts``, each by another
    player so that the notification gate does not mix in: ``p1``, ``p2``... by their order."""
    return [
        stroke(f"p{i}", start, 46, player=f"{group}{i}", group=group)
        for i, start in enumerate(starts, 1)
    ]


def reasons(j: refereeing.Judgement) -> dict[str, tuple[str, str]]:
    """Return each stroke's placement and the reason its bad time is counted or not."""
    out = {o.fault.id: o.reason.value for o in j.outcomes}
    return {s.stroke.id: (s.placement, out[s.stroke.id]) for s in j.strokes}


OUT = [hole("1", 1, "08:20")]  # group 1 out of position from 08:20

# --------------------------------------------------------------------------- every act

#: The rows of docs/penalties.md's table "What opens and ends a spell", one case each.
ACT_ROWS = [
    "time-opens",
    "time-after-the-end",
    "time-while-timed",
    "not-time",
    "not-time-while-timed",
    "stop",
    "stop-after-back-in-position",
    "stop-without-spell",
    "completion-back-in-position",
    "completion-still-out",
    "credit-back-in-position",
    "credit-before-the-first-completion",
    "credit-still-out",
    "siren-stop",
    "siren-resume",
    "completion-after-a-suspension",
    "void-of-the-decision",
    "void-of-a-stop",
    "void-of-a-told-stop",
    "void-of-a-credit",
    "void-of-a-completion",
]


@pytest.mark.parametrize(
    ("log", "expected_spells", "expected"),
    [
        # a decision to time opens a spell at its instant; a stroke started before is not timed
        ([*OUT, decide("08:22"), *probes("08:21", "08:23")],
         [("08:22", None, None, None)],
         {"p1": (NOT_TIMED, "not_timed"), "p2": (TIMED, "counted")}),
        # a decision after a spell ended opens a new one
        ([*OUT, decide("08:22"), stop("08:25"), decide("08:30"), *probes("08:27", "08:31")],
         [("08:22", "08:25", STOPPED, "08:25"), ("08:30", None, None, None)],
         {"p1": (NOT_TIMED, "not_timed"), "p2": (TIMED, "counted")}),
        # a second decision while a spell runs changes nothing (live: refused already_timed)
        ([*OUT, decide("08:22"), decide("08:24"), *probes("08:23", "08:25")],
         [("08:22", None, None, None)],
         {"p1": (TIMED, "counted"), "p2": (TIMED, "counted")}),
        # a decision not to time, no spell running, opens nothing
        ([*OUT, decide("08:22", decision="not_time"), decide("08:25"), *probes("08:23", "08:26")],
         [("08:25", None, None, None)],
         {"p1": (NOT_TIMED, "not_timed"), "p2": (TIMED, "counted")}),
        # a decision not to time while a spell runs ends it at its instant, as a stop (the
        # latest decision stands; live it is recorded, not refused)
        ([*OUT, decide("08:22"), decide("08:27", decision="not_time"),
          *probes("08:26", "08:28")],
         [("08:22", "08:27", STOPPED, "08:27")],
         {"p1": (TIMED, "counted"), "p2": (NOT_TIMED, "not_timed")}),
        # a referee's stop ends the spell at the stop
        ([*OUT, decide("08:22"), stop("08:25"), *probes("08:24", "08:26")],
         [("08:22", "08:25", STOPPED, "08:25")],
         {"p1": (TIMED, "counted"), "p2": (NOT_TIMED, "not_timed")}),
        # a stop after the spell ended by itself records that the players were told: strokes
        # after the end are group_in_position until it, not timed from it on
        ([*OUT, decide("08:22"), hole("1", 2, "08:28"), stop("08:31"),
          *probes("08:29", "08:32")],
         [("08:22", "08:28", BACK, "08:31")],
         {"p1": (IN_POSITION, "group_in_position"), "p2": (NOT_TIMED, "not_timed")}),
        # a stop with no spell changes nothing (live: refused not_timed)
        ([*OUT, stop("08:21"), *probes("08:22")], [], {"p1": (NOT_TIMED, "not_timed")}),
        # the completion that finds the group back in position ends the spell by itself
        ([*OUT, decide("08:22"), hole("1", 2, "08:28"), *probes("08:27", "08:29")],
         [("08:22", "08:28", BACK, None)],
         {"p1": (TIMED, "counted"), "p2": (IN_POSITION, "group_in_position")}),
        # a completion still out of position ends nothing
        ([*OUT, decide("08:22"), hole("1", 2, "08:33"), *probes("08:34")],
         [("08:22", None, None, None)], {"p1": (TIMED, "counted")}),
        # a credit that, applied, finds the group in position (20 - 6 = 14 <= 15) ends it
        ([*OUT, decide("08:22"), credit("08:25", 6), *probes("08:24", "08:26")],
         [("08:22", "08:25", BACK, None)],
         {"p1": (TIMED, "counted"), "p2": (IN_POSITION, "group_in_position")}),
        # ...also before the group's first completion: nothing can put it out of position yet
        ([decide("08:10"), credit("08:13", 3), *probes("08:12", "08:14")],
         [("08:10", "08:13", BACK, None)],
         {"p1": (TIMED, "counted"), "p2": (IN_POSITION, "group_in_position")}),
        # a credit that leaves it out of position (20 - 3 = 17 > 15) ends nothing
        ([*OUT, decide("08:22"), credit("08:25", 3), *probes("08:26")],
         [("08:22", None, None, None)], {"p1": (TIMED, "counted")}),
        # a siren stopping play (one long or three short) ends nothing...
        ([*OUT, decide("08:22"), siren("08:24", "interruption"), *probes("08:25")],
         [("08:22", None, None, None)], {"p1": (TIMED, "counted")}),
        # ...nor does the resumption, though the 10 minutes stopped left the group's time
        ([*OUT, decide("08:22"), siren("08:24", "suspension"), siren("08:34", "resume"),
          *probes("08:35")],
         [("08:22", None, None, None)], {"p1": (TIMED, "counted")}),
        # the next completion is judged net of them: hole 2 at 08:40 is 40 - 10 = 30 <= 30
        ([*OUT, decide("08:22"), siren("08:24", "suspension"), siren("08:34", "resume"),
          hole("1", 2, "08:40"), *probes("08:39", "08:41")],
         [("08:22", "08:40", BACK, None)],
         {"p1": (TIMED, "counted"), "p2": (IN_POSITION, "group_in_position")}),
        # a voided decision never opened a spell: its strokes are not timed
        ([*OUT, decide("08:22"), *probes("08:23"), void("08:30", "d1@08:22")],
         [], {"p1": (NOT_TIMED, "not_timed")}),
        # a voided stop never ended the spell: it runs on
        ([*OUT, decide("08:22"), stop("08:25"), void("08:27", "s1@08:25"), *probes("08:28")],
         [("08:22", None, None, None)], {"p1": (TIMED, "counted")}),
        # a voided told-stop: the spell that ended by itself is still to be stopped
        ([*OUT, decide("08:22"), hole("1", 2, "08:28"), stop("08:31"),
          void("08:33", "s1@08:31"), *probes("08:34")],
         [("08:22", "08:28", BACK, None)], {"p1": (IN_POSITION, "group_in_position")}),
        # a voided credit never put the group back: the spell runs on
        ([*OUT, decide("08:22"), credit("08:25", 6), void("08:27", "c1@08:25"),
          *probes("08:28")],
         [("08:22", None, None, None)], {"p1": (TIMED, "counted")}),
        # a voided completion never put the group back: the spell runs on
        ([*OUT, decide("08:22"), hole("1", 2, "08:28"), void("08:29", "h1:2"), *probes("08:30")],
         [("08:22", None, None, None)], {"p1": (TIMED, "counted")}),
    ],
    ids=ACT_ROWS,
)  # fmt: skip
def test_what_each_act_does_to_the_spell_and_its_strokes(log, expected_spells, expected):
    j = judged(log)
    assert spans(j) == expected_spells
    assert reasons(j) == expected


def test_the_docs_table_has_one_row_per_case():
    text = (Path(__file__).parents[3] / "docs" / "penalties.md").read_text(encoding="utf-8")
    table = text[text.index("**What opens and ends a spell**") :].split("\n\n")[1]
    rows = [line.split("|")[-2].strip() for line in table.splitlines()[2:]]
    assert rows == [f"`{row}`" for row in ACT_ROWS]


# --------------------------------------------------------------------------- issue 26, 1

# Group 10, from tee 10: hole 10 at 08:20 (20 > 15: out of position); decided 08:22, a player
# told; two bad times of 101's, each told to him: a warning, then one stroke.
TEE_10 = [
    hole("10", 10, "08:20"),
    decide("08:22", "10"),
    tell("08:22:30", "101", "10"),
    stroke("k1", "08:23", 46, player="101", group="10", hole=11),
    notify("08:24", "101", "k1", "10"),
    stroke("k2", "08:26", 47, player="101", group="10", hole=11),
    notify("08:27", "101", "k2", "10"),
]


@pytest.mark.parametrize(
    ("after", "expected_spells", "expected"),
    [
        # stopped at 08:30; a minute-long stroke at 08:34, before any new decision
        ([stop("08:30", "10"), stroke("k3", "08:34", 60, player="101", group="10", hole=11)],
         [("08:22", "08:30", STOPPED, "08:30")], {"k3": (NOT_TIMED, "not_timed")}),
        # still out at hole 11 (08:32: 32 > 30), then stopped: the same
        ([hole("10", 11, "08:32"), stop("08:33", "10"),
          stroke("k3", "08:36", 60, player="101", group="10", hole=12)],
         [("08:22", "08:33", STOPPED, "08:33")], {"k3": (NOT_TIMED, "not_timed")}),
        # back in position at hole 11 (08:28: 28 <= 30) before the stop came: a stroke
        # between them is group_in_position, one after the stop is not timed
        ([hole("10", 11, "08:28"), stroke("kb", "08:29", 45, player="102", group="10", hole=12),
          stop("08:31", "10"), stroke("k3", "08:34", 60, player="101", group="10", hole=12)],
         [("08:22", "08:28", BACK, "08:31")],
         {"kb": (IN_POSITION, "group_in_position"), "k3": (NOT_TIMED, "not_timed")}),
        # ...also once it is out of position again (hole 12 at 08:50: 50 > 42), undecided
        ([hole("10", 11, "08:28"), stop("08:31", "10"), hole("10", 12, "08:50"),
          stroke("k3", "08:52", 60, player="101", group="10", hole=13)],
         [("08:22", "08:28", BACK, "08:31")], {"k3": (NOT_TIMED, "not_timed")}),
        # a new decision times it again: the same stroke is his third bad time
        ([stop("08:30", "10"), decide("08:33", "10"),
          stroke("k3", "08:34", 60, player="101", group="10", hole=11)],
         [("08:22", "08:30", STOPPED, "08:30"), ("08:33", None, None, None)],
         {"k3": (TIMED, "counted")}),
    ],
    ids=[
        "stopped-then-a-stroke",
        "stopped-after-a-completion-still-out",
        "back-in-position-then-told-then-a-stroke",
        "told-then-out-again-undecided",
        "stopped-then-decided-again",
    ],
)  # fmt: skip
def test_a_stroke_after_a_stop_on_tee_10_is_not_timed(after, expected_spells, expected):
    j = judged([*TEE_10, *after])
    assert spans(j, "10") == expected_spells
    got = reasons(j)
    assert got["k1"] == got["k2"] == (TIMED, "counted")
    assert {k: got[k] for k in expected} == expected
    ladder = [(o.fault.id, o.penalty.kind, o.penalty.amount) for o in j.outcomes if o.counted]
    third = [("k3", "strokes", 2)] if expected["k3"][0] == TIMED else []
    assert ladder == [("k1", "warning", 0), ("k2", "strokes", 1), *third]


# --------------------------------------------------------------------------- issue 26, 2


@pytest.mark.parametrize(
    ("log", "group", "expected_spells"),
    [
        # no completion since the decision: 20 - 6 = 14 <= 15 at the credit
        ([*OUT, decide("08:22"), credit("08:25", 6)], "1", [("08:22", "08:25", BACK, None)]),
        # a completion since the decision, still out (33 > 30); then 33 - 4 = 29 <= 30
        ([*OUT, decide("08:22"), hole("1", 2, "08:33"), credit("08:35", 4)], "1",
         [("08:22", "08:35", BACK, None)]),
        # before the group's first completion (timed while in position)
        ([decide("08:10"), credit("08:13", 3)], "1", [("08:10", "08:13", BACK, None)]),
        # a following group (2, off at 08:10), before its first completion
        ([hole("1", 1, "08:20"), decide("08:21", "2"), credit("08:24", 3, "2")], "2",
         [("08:21", "08:24", BACK, None)]),
        # group 10, from tee 10: hole 10 at 08:20, 20 - 6 = 14 <= 15 at the credit
        ([hole("10", 10, "08:20"), decide("08:22", "10"), credit("08:25", 6, "10")], "10",
         [("08:22", "08:25", BACK, None)]),
    ],
    ids=[
        "no-completion-since-the-decision",
        "a-completion-since-the-decision",
        "before-the-first-completion",
        "following-group-before-its-first-completion",
        "tee-10",
    ],
)  # fmt: skip
def test_a_credit_that_puts_the_group_back_ends_its_timing(log, group, expected_spells):
    credited = next(e.at for e in log if e.type == "time_credit_granted")
    before = credited - timedelta(minutes=1)
    after = credited + timedelta(minutes=1)
    j = judged([
        *log,
        stroke("before", before.strftime("%H:%M"), 46, player=f"{group}1", group=group),
        stroke("after", after.strftime("%H:%M"), 60, player=f"{group}2", group=group),
    ])  # fmt: skip
    assert spans(j, group) == expected_spells
    assert reasons(j) == {
        "before": (TIMED, "counted"), "after": (IN_POSITION, "group_in_position"),
    }  # fmt: skip


def test_a_credit_short_of_the_position_leaves_the_stroke_after_it_counted():
    # 20 - 3 = 17 > 15: still out of position, the spell runs on
    log = [*OUT, decide("08:22"), credit("08:25", 3), stroke("after", "08:26", 60, player="11")]
    j = judged(log)
    assert spans(j) == [("08:22", None, None, None)]
    assert reasons(j) == {"after": (TIMED, "counted")}

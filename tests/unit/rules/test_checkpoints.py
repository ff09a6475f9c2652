"""The mauricie checkpoint policy, hand-worked from docs/rules.md §6 and golf-mauricie 13.4.

- At most 90 minutes per six holes: checkpoints after the 6th, 12th and 18th hole **in the
  group's playing order** (a tee-10 group: after 15, 3 and 9).
- Each stretch is measured from the start (or the previous checkpoint's completion) to the
  completion of the checkpoint hole, with suspensions (§8) and the group's time credits (§5)
  inside the stretch removed. Exactly 90 minutes is fine; one second more is a breach.
- A checkpoint hole that was not logged cannot be judged.
- Stroke play: each competitor of the group gets a warning for the first breach, then two
  strokes from the second warning on. Match play: loss of hole, loss of hole, then
  disqualification.

Draw: A (A1, A2) 08:00 and B (B1, B2, B3) 08:10 from tee 1; T (T1, T2) 08:00 from tee 10;
S (S1, S2) 08:00 from tee 13. Course: the par-72 of the builders (allotments do not matter).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from pace.rules.penalties import (
    MATCH_PLAY,
    STROKE_PLAY,
    CheckpointBreach,
    Notification,
    Penalty,
    Reason,
    checkpoint_breaches,
    checkpoint_faults,
    escalate,
)
from pace.rules.policies import CHECKPOINTS, MAURICIE, Policy
from tests.builders import at, credit, make_course, make_facts, make_group, make_setup, suspension

SETUP = make_setup(
    make_course(),
    [
        make_group("A", "08:00", size=2),
        make_group("B", "08:10", size=3),
        make_group("T", "08:00", tee=10, size=2),
        make_group("S", "08:00", tee=13, size=2),
    ],
)
LIMIT = timedelta(minutes=90)


def breaches(log, now="16:00", policy=MAURICIE, **facts):
    return checkpoint_breaches(SETUP, make_facts(log, **facts), at(now), policy)


def breach(group, k, after_hole, when, taken_s, penalty_hole, limit=LIMIT):
    return CheckpointBreach(
        group, k, after_hole, at(when), timedelta(seconds=taken_s), limit, penalty_hole
    )


M = 60  # seconds in a minute, for the taken times below


# --------------------------------------------------------------------------- breaches


@pytest.mark.parametrize(
    ("log", "facts", "expected"),
    [
        pytest.param({"A": {6: "09:30"}}, {}, [], id="exactly 90 min is fine"),
        pytest.param(
            {"A": {6: "09:30:01"}},
            {},
            [breach("A", 1, 6, "09:30:01", 90 * M + 1, 7)],
            id="one second over: breach, penalty on the next hole",
        ),
        pytest.param({"A": {6: "09:20", 12: "10:50"}}, {}, [], id="second stretch exactly 90"),
        pytest.param(
            # 171 min after twelve holes, but the second six took 91
            {"A": {6: "09:20", 12: "10:51"}},
            {},
            [breach("A", 2, 12, "10:51", 91 * M, 13)],
            id="second stretch from the sixth hole's completion",
        ),
        pytest.param(
            {"A": {6: "09:35", 12: "11:10"}},
            {},
            [breach("A", 1, 6, "09:35", 95 * M, 7), breach("A", 2, 12, "11:10", 95 * M, 13)],
            id="both stretches over",
        ),
        pytest.param(
            # after the 18th there is no next hole: the penalty stays on 18 (see the report)
            {"A": {6: "09:00", 12: "10:30", 18: "12:01"}},
            {},
            [breach("A", 3, 18, "12:01", 91 * M, 18)],
            id="third stretch over",
        ),
        pytest.param(
            {"A": {6: "09:50"}},
            {"suspensions": [suspension("08:30", "08:50")]},
            [],
            id="suspension removed: 110 - 20 = 90",
        ),
        pytest.param(
            {"A": {6: "09:50:01"}},
            {"suspensions": [suspension("08:30", "08:50", kind="interruption")]},
            [breach("A", 1, 6, "09:50:01", 90 * M + 1, 7)],
            id="interruption removed: 90 min 1 s",
        ),
        pytest.param(
            # 09:20-09:40: 5 min inside stretch one (ends 09:25), 15 inside stretch two
            {"A": {6: "09:25", 12: "11:10"}},
            {"suspensions": [suspension("09:20", "09:40")]},
            [],
            id="suspension across the checkpoint split between stretches",
        ),
        pytest.param(
            {"A": {6: "09:36"}},
            {"credits": [credit("A", "08:40", 6)]},
            [],
            id="credit removed: 96 - 6 = 90",
        ),
        pytest.param(
            {"A": {6: "09:37"}},
            {"credits": [credit("A", "08:40", 6)]},
            [breach("A", 1, 6, "09:37", 91 * M, 7)],
            id="credit removed: 97 - 6 = 91",
        ),
        pytest.param(
            {"A": {6: "09:00", 12: "10:36"}},
            {"credits": [credit("A", "08:40", 6)]},
            [breach("A", 2, 12, "10:36", 96 * M, 13)],
            id="a credit of stretch one does not help stretch two",
        ),
        pytest.param(
            {"A": {6: "09:36"}},
            {"credits": [credit("B", "08:40", 6)]},
            [breach("A", 1, 6, "09:36", 96 * M, 7)],
            id="another group's credit does not help",
        ),
        pytest.param(
            # 105 min by the 7th hole, but nobody logged the 6th: no judgement
            {"A": {5: "09:00", 7: "09:45"}},
            {},
            [],
            id="checkpoint hole not logged: not judged",
        ),
        pytest.param(
            # stretch two has no known start; stretch three runs from the 12th (91 min)
            {"A": {5: "09:00", 12: "11:30", 18: "13:01"}},
            {},
            [breach("A", 3, 18, "13:01", 91 * M, 18)],
            id="sixth not logged: stretch two not judged, stretch three is",
        ),
        pytest.param(
            # B starts 08:10: 09:40 is exactly its 90 minutes, A's 09:31 is over
            {"A": {6: "09:31"}, "B": {6: "09:40"}},
            {},
            [breach("A", 1, 6, "09:31", 91 * M, 7)],
            id="each group on its own start",
        ),
        pytest.param(
            {"T": {6: "10:00", 15: "09:31"}},
            {},
            [breach("T", 1, 15, "09:31", 91 * M, 16)],
            id="tee 10: first checkpoint after 15",
        ),
        pytest.param(
            {"T": {15: "09:00", 3: "10:31", 9: "12:00"}},
            {},
            [breach("T", 2, 3, "10:31", 91 * M, 4)],
            id="tee 10: second after 3, third after 9",
        ),
        pytest.param(
            {"S": {18: "09:31"}},
            {},
            [breach("S", 1, 18, "09:31", 91 * M, 1)],
            id="tee 13: first checkpoint after 18, penalty on hole 1",
        ),
    ],
)
def test_checkpoint_breaches(log, facts, expected):
    assert list(breaches(log, **facts)) == expected


@pytest.mark.parametrize(
    ("now", "expected"),
    [("09:39", []), ("09:40", [breach("A", 1, 6, "09:40", 100 * M, 7)])],
    ids=["completion not known yet", "known at its instant"],
)
def test_breach_known_from_the_completion_on(now, expected):
    assert list(breaches({"A": {6: "09:40"}}, now=now)) == expected


def test_suspension_still_running_at_now_is_removed_up_to_now():
    # the group finished the 6th at 09:40 during a suspension called at 09:30 (three sirens:
    # groups finish their hole); the clock stopped at 09:30: 90 min
    assert breaches({"A": {6: "09:40"}}, now="09:45", suspensions=[suspension("09:30")]) == ()


def test_credit_granted_at_the_start_counts_for_the_first_stretch():
    # a 5-minute ruling on the first tee, credited at 08:00 exactly: 95 - 5 = 90, fine
    assert breaches({"A": {6: "09:35"}}, credits=[credit("A", "08:00", 5)]) == ()


def test_custom_checkpoint_policy():
    # a committee's own: 135 min per nine holes -> checkpoints after 9 and 18 only
    club = Policy(
        "club", faults_from=CHECKPOINTS, checkpoint_holes=9, checkpoint_limit=timedelta(minutes=135)
    )
    log = {"A": {6: "09:40", 9: "10:15", 18: "12:31"}}
    assert list(breaches(log, policy=club)) == [
        breach("A", 2, 18, "12:31", 136 * M, 18, limit=timedelta(minutes=135))
    ]


# --------------------------------------------------------------------------- faults


def test_one_fault_per_competitor_of_the_breaking_group():
    found = breaches({"A": {6: "09:35", 12: "11:10"}, "B": {6: "09:40"}})
    faults = checkpoint_faults(found, SETUP)
    assert [(f.group, f.player, f.at, f.hole, f.source) for f in faults] == [
        ("A", "A1", at("09:35"), 7, "checkpoint"),
        ("A", "A2", at("09:35"), 7, "checkpoint"),
        ("A", "A1", at("11:10"), 13, "checkpoint"),
        ("A", "A2", at("11:10"), 13, "checkpoint"),
    ]
    # one fault per player per checkpoint: distinct per checkpoint for a player
    assert len({(f.player, f.id) for f in faults}) == 4


def test_three_competitors_each_get_a_fault():
    faults = checkpoint_faults(breaches({"B": {6: "09:41"}}), SETUP)
    assert [(f.player, f.hole) for f in faults] == [("B1", 7), ("B2", 7), ("B3", 7)]


# --------------------------------------------------------------------------- ladder

# A breaks all three checkpoints: 95 min each (penalty holes 7, 13 and 18).
THREE_BREACHES = {"A": {6: "09:35", 12: "11:10", 18: "12:45"}}


def mauricie_outcomes(play, tell=("A1", "A2")):
    faults = checkpoint_faults(breaches(THREE_BREACHES), SETUP)
    # a referee tells each competitor named in ``tell`` a minute after each breach
    notes = [
        Notification(f.group, f.player, f.id, f.at + timedelta(minutes=1))
        for f in faults
        if f.player in tell
    ]
    out = escalate(faults, notes, MAURICIE, play=play)
    return {
        p: [
            (o.reason, o.rank, o.penalty)
            for o in out
            if o.fault.player == p
        ]
        for p in ("A1", "A2")
    }  # fmt: skip


@pytest.mark.parametrize(
    ("play", "expected"),
    [
        (
            STROKE_PLAY,
            [
                (Reason.COUNTED, 1, Penalty("warning", 0, 7)),
                (Reason.COUNTED, 2, Penalty("strokes", 2, 13)),  # from the second warning
                (Reason.COUNTED, 3, Penalty("strokes", 2, 18)),  # and again
            ],
        ),
        (
            MATCH_PLAY,
            [
                (Reason.COUNTED, 1, Penalty("loss_of_hole", 0, 7)),
                (Reason.COUNTED, 2, Penalty("loss_of_hole", 0, 13)),
                (Reason.COUNTED, 3, Penalty("disqualification", 0, 18)),
            ],
        ),
    ],
    ids=[STROKE_PLAY, MATCH_PLAY],
)
def test_mauricie_ladder_hits_each_competitor(play, expected):
    assert mauricie_outcomes(play) == {"A1": expected, "A2": expected}


def test_mauricie_telling_one_competitor_does_not_count_for_his_partner():
    # the partners share the breach, but each is told (and counted) on his own
    out = mauricie_outcomes(STROKE_PLAY, tell=("A1",))
    assert [r for r, _, _ in out["A1"]] == [Reason.COUNTED] * 3
    assert [r for r, _, _ in out["A2"]] == [
        Reason.COUNTED,
        Reason.PREVIOUS_NOT_NOTIFIED,
        Reason.PREVIOUS_NOT_NOTIFIED,
    ]


def test_a_group_without_breach_gets_nothing():
    faults = checkpoint_faults(breaches({"B": {6: "09:40", 12: "11:10"}}), SETUP)
    assert faults == []
    assert escalate(faults, [], MAURICIE) == ()

"""The penalty ladder for bad times, hand-worked from docs/rules.md §6 (frbg hard card 7.a(c)(d)).

| bad time | stroke play                 | match play         |
| 1st      | warning                     | warning            |
| 2nd      | one stroke                  | loss of hole       |
| 3rd      | two more strokes            | final warning      |
| 4th      | disqualification            | disqualification   |

- counted per player per round, across every out-of-position episode (7.a(d));
- notification gate: a bad time while the player's previous *counted* bad time was not yet
  notified to him is stored, shown and not counted;
- the penalty goes on the hole where the bad time happened, between holes on the next hole of
  the group's order; in team formats the side bears it as the Rules say for the format;
- swin (rule 2): every breach 1 point, no warning, no ladder, no gate;
- mauricie (13.4) counts checkpoint breaches: warning, then 2 strokes from the second one on;
  match play loss of hole, loss of hole, then disqualification (see also test_checkpoints).

Every fault below is in group "7"; instants are 10:MM on the fixed day of the builders.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pace.rules import allotted, position
from pace.rules.penalties import (
    MATCH_PLAY,
    STROKE_PLAY,
    Fault,
    Notification,
    Penalty,
    Reason,
    bearer,
    escalate,
    penalty_hole,
)
from pace.rules.policies import FRBG, MAURICIE, SWIN, Policy
from tests.builders import at, make_course, make_facts, make_group, make_setup

FAST = settings(max_examples=200, deadline=None, database=None)

COUNTED = Reason.COUNTED.value
GATED = Reason.PREVIOUS_NOT_NOTIFIED.value
AFTER_DQ = Reason.AFTER_DISQUALIFICATION.value
BEYOND = Reason.BEYOND_LADDER.value


def fault(fid, when, hole=5, player="Ann", group="7"):
    return Fault(fid, group, player, at(when), hole)


def told(fid, when, player="Ann", group="7"):
    return Notification(group, player, fid, at(when))


def summary(outcomes):
    """Return (fault id, reason, rank, penalty) per outcome; penalty is (kind, amount, hole)."""
    return [
        (
            o.fault.id,
            o.reason.value,
            o.rank,
            None if o.penalty is None else (o.penalty.kind, o.penalty.amount, o.penalty.hole),
        )
        for o in outcomes
    ]


def by_id(outcomes):
    return {o.fault.id: o for o in outcomes}


# --------------------------------------------------------------------------- the ladders

# Five bad times of one player on holes 3, 7, 11, 15 and 17, each told to him a minute later,
# so the notification gate never holds one back.
FIVE = [
    fault("f1", "10:00", 3),
    fault("f2", "10:10", 7),
    fault("f3", "10:20", 11),
    fault("f4", "10:30", 15),
    fault("f5", "10:40", 17),
]
FIVE_TOLD = [told(f"f{i}", f"10:{i - 1}1") for i in range(1, 6)]


@pytest.mark.parametrize(
    ("policy", "play", "expected"),
    [
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [
                ("f1", COUNTED, 1, ("warning", 0, 3)),
                ("f2", COUNTED, 2, ("strokes", 1, 7)),
                ("f3", COUNTED, 3, ("strokes", 2, 11)),  # "additional" two: 3 in all
                ("f4", COUNTED, 4, ("disqualification", 0, 15)),
                ("f5", AFTER_DQ, None, None),
            ],
            id="frbg stroke play",
        ),
        pytest.param(
            FRBG,
            MATCH_PLAY,
            [
                ("f1", COUNTED, 1, ("warning", 0, 3)),
                ("f2", COUNTED, 2, ("loss_of_hole", 0, 7)),
                ("f3", COUNTED, 3, ("final_warning", 0, 11)),
                ("f4", COUNTED, 4, ("disqualification", 0, 15)),
                ("f5", AFTER_DQ, None, None),
            ],
            id="frbg match play",
        ),
        pytest.param(
            MAURICIE,
            STROKE_PLAY,
            [
                ("f1", COUNTED, 1, ("warning", 0, 3)),
                # "two strokes from the second warning": the second and every later one
                ("f2", COUNTED, 2, ("strokes", 2, 7)),
                ("f3", COUNTED, 3, ("strokes", 2, 11)),
                ("f4", COUNTED, 4, ("strokes", 2, 15)),
                ("f5", COUNTED, 5, ("strokes", 2, 17)),
            ],
            id="mauricie stroke play",
        ),
        pytest.param(
            MAURICIE,
            MATCH_PLAY,
            [
                ("f1", COUNTED, 1, ("loss_of_hole", 0, 3)),
                ("f2", COUNTED, 2, ("loss_of_hole", 0, 7)),
                ("f3", COUNTED, 3, ("disqualification", 0, 11)),
                ("f4", AFTER_DQ, None, None),
                ("f5", AFTER_DQ, None, None),
            ],
            id="mauricie match play",
        ),
        pytest.param(
            SWIN,
            STROKE_PLAY,
            [(f"f{i}", COUNTED, i, ("points", 1, h)) for i, h in enumerate([3, 7, 11, 15, 17], 1)],
            id="swin stroke play: 1 point each",
        ),
        pytest.param(
            SWIN,
            MATCH_PLAY,
            [(f"f{i}", COUNTED, i, ("points", 1, h)) for i, h in enumerate([3, 7, 11, 15, 17], 1)],
            id="swin match play: 1 point each",
        ),
    ],
)
def test_first_to_fifth_fault(policy, play, expected):
    assert summary(escalate(FIVE, FIVE_TOLD, policy, play=play)) == expected


@pytest.mark.parametrize(
    ("policy", "play"),
    [(p, play) for p in (FRBG, MAURICIE, SWIN) for play in (STROKE_PLAY, MATCH_PLAY)],
    ids=lambda v: getattr(v, "name", v),
)
def test_input_order_does_not_matter(policy, play):
    shuffled = [FIVE[3], FIVE[0], FIVE[4], FIVE[2], FIVE[1]]
    assert escalate(shuffled, FIVE_TOLD[::-1], policy, play=play) == escalate(
        FIVE, FIVE_TOLD, policy, play=play
    )


def test_individual_penalties_are_borne_by_the_player():
    assert {o.penalty.bearer for o in escalate(FIVE[:4], FIVE_TOLD, FRBG)} == {"player"}


def test_swin_has_no_warning_even_for_the_first_breach():
    (first,) = escalate([fault("f1", "10:00", 3)], [], SWIN)
    assert first.counted and first.penalty == Penalty("points", 1, 3)


def test_unknown_play_is_a_caller_error():
    with pytest.raises(ValueError, match="'stableford'"):
        escalate(FIVE, FIVE_TOLD, FRBG, play="stableford")


# --------------------------------------------------------------------------- two episodes


def test_bad_times_accumulate_across_two_episodes_of_one_round():
    # Nine par 4s (15 min each for a 4-ball); lead group A from 08:00:
    # hole 1 at 08:16 (16 > 15: out), hole 2 at 08:29 (29 <= 30: back in position),
    # hole 3 at 08:47 (47 > 45: out again) -> two episodes.
    setup = make_setup(make_course(pars=[4] * 9), [make_group("A", "08:00")])
    facts = make_facts({"A": {1: "08:16", 2: "08:29", 3: "08:47"}})
    eps = position.episodes(setup, facts, at("09:00"))
    assert [(e.start, e.end) for e in eps] == [(at("08:16"), at("08:29")), (at("08:47"), None)]
    # episode 1: a bad time on hole 2, told at once; episode 2: two more on hole 4
    faults = [
        Fault("e1", "A", "A1", at("08:20"), 2),
        Fault("e2a", "A", "A1", at("08:50"), 4),
        Fault("e2b", "A", "A1", at("08:55"), 4),
    ]
    notes = [
        Notification("A", "A1", "e1", at("08:21")),
        Notification("A", "A1", "e2a", at("08:51")),
    ]
    assert summary(escalate(faults, notes, FRBG)) == [
        ("e1", COUNTED, 1, ("warning", 0, 2)),
        ("e2a", COUNTED, 2, ("strokes", 1, 4)),  # not a new warning: the count goes on
        ("e2b", COUNTED, 3, ("strokes", 2, 4)),
    ]
    assert summary(escalate(faults, notes, FRBG, play=MATCH_PLAY)) == [
        ("e1", COUNTED, 1, ("warning", 0, 2)),
        ("e2a", COUNTED, 2, ("loss_of_hole", 0, 4)),
        ("e2b", COUNTED, 3, ("final_warning", 0, 4)),
    ]


# --------------------------------------------------------------------------- notification gate


@pytest.mark.parametrize(
    ("policy", "play", "faults", "notes", "expected"),
    [
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4)],
            [],
            [("a", COUNTED, 1, ("warning", 0, 3)), ("b", GATED, None, None)],
            id="never told: stored, not counted",
        ),
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4)],
            [told("a", "10:04")],
            [("a", COUNTED, 1, ("warning", 0, 3)), ("b", COUNTED, 2, ("strokes", 1, 4))],
            id="told before: counted",
        ),
        pytest.param(
            # the player was told at the very instant of the bad time: he was notified
            # ("not yet notified" is false); see the report for this reading
            FRBG,
            STROKE_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4)],
            [told("a", "10:05")],
            [("a", COUNTED, 1, ("warning", 0, 3)), ("b", COUNTED, 2, ("strokes", 1, 4))],
            id="told at the same instant: counted",
        ),
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4)],
            [told("a", "10:06")],
            [("a", COUNTED, 1, ("warning", 0, 3)), ("b", GATED, None, None)],
            id="told after: not counted",
        ),
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4), fault("c", "10:10", 6)],
            [told("a", "10:06")],
            [
                ("a", COUNTED, 1, ("warning", 0, 3)),
                ("b", GATED, None, None),
                ("c", COUNTED, 2, ("strokes", 1, 6)),
            ],
            id="a later bad time after being told is the next rank",
        ),
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4), fault("c", "10:10", 6)],
            [told("b", "10:06")],
            [
                ("a", COUNTED, 1, ("warning", 0, 3)),
                ("b", GATED, None, None),
                ("c", GATED, None, None),
            ],
            id="told of the uncounted one only: still gated",
        ),
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4)],
            [told("a", "10:07"), told("a", "10:03")],
            [("a", COUNTED, 1, ("warning", 0, 3)), ("b", COUNTED, 2, ("strokes", 1, 4))],
            id="the earliest notification counts",
        ),
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [
                fault("a", "10:00", 3),
                fault("b", "10:10", 4),
                fault("c", "10:20", 5),
                fault("d", "10:30", 6),
            ],
            [told("a", "10:01"), told("b", "10:25")],
            [
                ("a", COUNTED, 1, ("warning", 0, 3)),
                ("b", COUNTED, 2, ("strokes", 1, 4)),
                ("c", GATED, None, None),  # b not told yet at 10:20
                ("d", COUNTED, 3, ("strokes", 2, 6)),
            ],
            id="gate on a later rung",
        ),
        pytest.param(
            FRBG,
            STROKE_PLAY,
            [
                fault("a", "10:00", 3),
                fault("b", "10:10", 4),
                fault("c", "10:20", 5),
                fault("d", "10:30", 6),
            ],
            [told("a", "10:01"), told("b", "10:11")],
            [
                ("a", COUNTED, 1, ("warning", 0, 3)),
                ("b", COUNTED, 2, ("strokes", 1, 4)),
                ("c", COUNTED, 3, ("strokes", 2, 5)),
                ("d", GATED, None, None),  # no disqualification before being told of c
            ],
            id="gate holds back a disqualification",
        ),
        pytest.param(
            FRBG,
            MATCH_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4), fault("c", "10:10", 6)],
            [told("a", "10:06")],
            [
                ("a", COUNTED, 1, ("warning", 0, 3)),
                ("b", GATED, None, None),
                ("c", COUNTED, 2, ("loss_of_hole", 0, 6)),
            ],
            id="match play: the hole lost is the later one",
        ),
        pytest.param(
            SWIN,
            STROKE_PLAY,
            [fault("a", "10:00", 3), fault("b", "10:05", 4), fault("c", "10:06", 4)],
            [],
            [
                ("a", COUNTED, 1, ("points", 1, 3)),
                ("b", COUNTED, 2, ("points", 1, 4)),
                ("c", COUNTED, 3, ("points", 1, 4)),
            ],
            id="swin: no gate, every breach 1 point",
        ),
    ],
)
def test_notification_gate(policy, play, faults, notes, expected):
    assert summary(escalate(faults, notes, policy, play=play)) == expected


def test_a_gated_bad_time_is_kept_and_shown():
    out = by_id(escalate([fault("a", "10:00", 3), fault("b", "10:05", 4)], [], FRBG))
    b = out["b"]
    assert (b.counted, b.reason, b.rank, b.penalty) == (
        False,
        Reason.PREVIOUS_NOT_NOTIFIED,
        None,
        None,
    )
    assert b.fault == fault("b", "10:05", 4)


@pytest.mark.parametrize(
    ("notes", "awaiting"),
    [
        ([], {"a": True, "b": False}),  # b is not counted: nothing to tell about it
        ([told("a", "10:06")], {"a": False, "b": False}),
    ],
    ids=["nobody told", "told of the warning"],
)
def test_awaiting_notification(notes, awaiting):
    out = by_id(escalate([fault("a", "10:00", 3), fault("b", "10:05", 4)], notes, FRBG))
    assert {fid: o.awaiting_notification for fid, o in out.items()} == awaiting


# --------------------------------------------------------------------------- per player


def test_each_player_is_counted_separately():
    faults = [
        fault("a", "10:00", 3, player="Ann"),
        fault("b", "10:02", 3, player="Bob"),  # Ann's untold warning does not hold Bob back
        fault("c", "10:04", 4, player="Ann"),
        fault("d", "10:05", 4, player="Bob"),  # Bob not told of b
        fault("e", "10:06", 4, player="Ann", group="8"),  # another Ann, in another group
    ]
    notes = [told("a", "10:03", player="Ann")]
    out = escalate(faults, notes, FRBG)
    assert [(o.fault.player, *row) for o, row in zip(out, summary(out), strict=True)] == [
        ("Ann", "a", COUNTED, 1, ("warning", 0, 3)),
        ("Bob", "b", COUNTED, 1, ("warning", 0, 3)),
        ("Ann", "c", COUNTED, 2, ("strokes", 1, 4)),
        ("Bob", "d", GATED, None, None),
        ("Ann", "e", COUNTED, 1, ("warning", 0, 4)),
    ]
    assert out[-1].fault.group == "8"


def test_notifying_one_player_does_not_open_the_gate_for_another():
    faults = [fault("a", "10:00", 3, player="Bob"), fault("b", "10:05", 4, player="Bob")]
    notes = [told("a", "10:01", player="Ann")]  # the wrong player was told
    assert summary(escalate(faults, notes, FRBG))[1] == ("b", GATED, None, None)


# --------------------------------------------------------------------------- penalty hole

TEE_1 = allotted.playing_order(make_course(), 1)
TEE_10 = allotted.playing_order(make_course(), 10)
TEE_4 = allotted.playing_order(make_course(), 4)  # a shotgun group off hole 4


@pytest.mark.parametrize(
    ("hole", "between", "order", "expected"),
    [
        (5, False, TEE_1, 5),
        (5, True, TEE_1, 6),
        (9, True, TEE_1, 10),
        (17, True, TEE_1, 18),
        (18, False, TEE_10, 18),
        (18, True, TEE_10, 1),  # after 18 a tee-10 group plays 1
        (10, True, TEE_10, 11),
        (3, True, TEE_10, 4),
        (9, False, TEE_10, 9),
        (18, True, TEE_4, 1),
        (2, True, TEE_4, 3),
    ],
    ids=[
        "during hole 5",
        "between 5 and 6",
        "between 9 and 10",
        "between 17 and 18",
        "tee 10 during 18",
        "tee 10 between 18 and 1",
        "tee 10 between 10 and 11",
        "tee 10 between 3 and 4",
        "tee 10 during its last hole 9",
        "tee 4 between 18 and 1",
        "tee 4 between 2 and 3",
    ],
)
def test_penalty_hole(hole, between, order, expected):
    assert penalty_hole(hole, between, order) == expected


def test_loss_of_hole_is_the_hole_the_bad_time_belongs_to():
    # tee-10 group, second bad time between holes 18 and 1: the hole lost is hole 1
    faults = [
        fault("a", "10:00", penalty_hole(14, False, TEE_10)),
        fault("b", "10:30", penalty_hole(18, True, TEE_10)),
    ]
    out = escalate(faults, [told("a", "10:01")], FRBG, play=MATCH_PLAY)
    assert [o.penalty for o in out] == [Penalty("warning", 0, 14), Penalty("loss_of_hole", 0, 1)]


# --------------------------------------------------------------------------- team formats

ALL_KINDS = ("warning", "strokes", "final_warning", "loss_of_hole", "disqualification")


@pytest.mark.parametrize(
    ("format_name", "kind", "expected"),
    [
        # one ball per side: the side bears every penalty
        *[("foursome", k, "side") for k in ALL_KINDS],
        *[("greensome", k, "side") for k in ALL_KINDS],
        *[("threesome", k, "side") for k in ALL_KINDS],
        # four-ball: strokes and loss of hole stay with the partner (Rules 30-3f, 31-8: his
        # partner plays on for the side); disqualification for slow play hits the side
        ("four_ball", "strokes", "player"),
        ("four_ball", "loss_of_hole", "player"),
        ("four_ball", "disqualification", "side"),
        ("best_ball", "strokes", "player"),
        ("best_ball", "loss_of_hole", "player"),
        ("best_ball", "disqualification", "side"),
        # individual formats
        *[("individual", k, "player") for k in ALL_KINDS],
    ],
    ids=lambda v: v,
)
def test_bearer(format_name, kind, expected):
    assert bearer(kind, format_name) == expected


@pytest.mark.parametrize(
    ("format_name", "play", "expected"),
    [
        (
            "foursome",
            STROKE_PLAY,
            [("warning", "side"), ("strokes", "side"), ("strokes", "side"), ("warning", "side")],
        ),
        (
            "greensome",
            MATCH_PLAY,
            [
                ("warning", "side"),
                ("loss_of_hole", "side"),
                ("final_warning", "side"),
                ("warning", "side"),
            ],
        ),
        (
            "four_ball",
            STROKE_PLAY,
            [
                ("warning", "player"),
                ("strokes", "player"),
                ("strokes", "player"),
                ("warning", "player"),
            ],
        ),
        (
            "four_ball",
            MATCH_PLAY,
            [
                ("warning", "player"),
                ("loss_of_hole", "player"),
                ("final_warning", "player"),
                ("warning", "player"),
            ],
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_team_formats_time_each_partner_and_the_side_bears_the_penalty(format_name, play, expected):
    # Partners Ann and Bob: Ann has three bad times, Bob one. The timing stays per player:
    # Bob's first bad time is his own warning, not the side's fourth fault.
    faults = [
        fault("a1", "10:00", 3, player="Ann"),
        fault("a2", "10:10", 4, player="Ann"),
        fault("a3", "10:20", 5, player="Ann"),
        fault("b1", "10:30", 6, player="Bob"),
    ]
    notes = [told("a1", "10:01"), told("a2", "10:11")]
    out = escalate(faults, notes, FRBG, play=play, format_name=format_name)
    assert [(o.penalty.kind, o.penalty.bearer) for o in out] == expected
    assert [o.rank for o in out] == [1, 2, 3, 1]


def test_four_ball_disqualification_hits_the_side():
    faults = [fault(f"f{i}", f"10:{i}0", 2 + i) for i in range(1, 5)]
    notes = [told(f"f{i}", f"10:{i}1") for i in range(1, 5)]
    out = escalate(faults, notes, FRBG, format_name="four_ball")
    assert out[-1].penalty == Penalty("disqualification", 0, 6, "side")


# --------------------------------------------------------------------------- custom ladders


@pytest.mark.parametrize(
    ("repeat_last", "expected"),
    [
        (
            False,
            [
                ("f1", COUNTED, 1, ("warning", 0, 3)),
                ("f2", COUNTED, 2, ("strokes", 2, 7)),
                ("f3", BEYOND, None, None),
                ("f4", BEYOND, None, None),
            ],
        ),
        (
            True,
            [
                ("f1", COUNTED, 1, ("warning", 0, 3)),
                ("f2", COUNTED, 2, ("strokes", 2, 7)),
                ("f3", COUNTED, 3, ("strokes", 2, 11)),
                ("f4", COUNTED, 4, ("strokes", 2, 15)),
            ],
        ),
    ],
    ids=["past the end: no effect", "repeat the last step"],
)
def test_custom_ladder(repeat_last, expected):
    club = Policy("club", stroke_ladder=("warning", "strokes:2"), repeat_last=repeat_last)
    assert summary(escalate(FIVE[:4], FIVE_TOLD, club)) == expected


# --------------------------------------------------------------------------- invariants


@FAST
@given(
    fault_min=st.lists(st.integers(0, 300), min_size=1, max_size=8, unique=True),
    tell_after=st.lists(st.one_of(st.none(), st.integers(0, 60)), min_size=8, max_size=8),
    policy=st.sampled_from([FRBG, MAURICIE, SWIN]),
    play=st.sampled_from([STROKE_PLAY, MATCH_PLAY]),
)
def test_escalation_never_goes_back(fault_min, tell_after, policy, play):
    t0 = at("10:00")
    faults = [Fault(f"f{m:03d}", "7", "Ann", t0 + timedelta(minutes=m), 5) for m in fault_min]
    notes = [
        Notification("7", "Ann", f.id, f.at + timedelta(minutes=d))
        for f, d in zip(faults, tell_after, strict=False)
        if d is not None
    ]
    out = escalate(faults, notes, policy, play=play)
    ladder = policy.stroke_ladder if play == STROKE_PLAY else policy.match_ladder
    assert len(out) == len(faults)
    assert [o.fault.at for o in out] == sorted(f.at for f in faults)
    counted = [o for o in out if o.counted]
    # ranks run 1, 2, 3, ... in time order, each on its own ladder step
    assert [o.rank for o in counted] == list(range(1, len(counted) + 1))
    for o in counted:
        step = ladder[min(o.rank, len(ladder)) - 1]
        assert f"{o.penalty.kind}:{o.penalty.amount}".removesuffix(":0") == step
    # nothing counts after a disqualification
    dq = [o.fault.at for o in counted if o.penalty.kind == "disqualification"]
    if dq:
        assert all(not o.counted for o in out if o.fault.at > dq[0])
    # with the gate, a counted fault's predecessor had been told at or before it
    told_at = {n.fault: n.at for n in notes}
    if policy.notification_gate:
        for prev, nxt in zip(counted, counted[1:], strict=False):
            assert told_at.get(prev.fault.id) is not None
            assert told_at[prev.fault.id] <= nxt.fault.at
    else:
        assert len(counted) == len(out)

"""Individual timing of strokes: the allowance and the bad time (docs/rules.md §4.3, §4.5, §6).

Hand-worked from the rulebook, not from the code:

- frbg hard card 7.a(c): 40 s per stroke; +10 s (50 s) for the *first player to play*
  (a) a par-3 tee shot, (b) an approach, (c) a chip or a putt. Not the first to play, or any
  other stroke: 40 s.
- swin golf rule 2: 40 s after taking charge of the ball, no extra time at all.
- A bad time is a stroke timed *above* the allowance: exactly 40.0 s (or 50.0 s) is fine,
  40.001 s is a bad time.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pace.rules.policies import FRBG, SWIN, Policy
from pace.rules.timing import StrokeKind, TimedStroke, allowance, judge
from tests.builders import at

FAST = settings(max_examples=200, deadline=None, database=None)
T0 = at("10:00")

PAR3_TEE = StrokeKind.PAR3_TEE
APPROACH = StrokeKind.APPROACH
CHIP_PUTT = StrokeKind.CHIP_PUTT
OTHER = StrokeKind.OTHER


def stroke(seconds: float, kind=OTHER, first=False, hole=5, player="Ann"):
    return TimedStroke(
        "s1", "7", player, hole, T0, T0 + timedelta(seconds=seconds), kind, first
    )  # fmt: skip


# --------------------------------------------------------------------------- allowance


@pytest.mark.parametrize(
    ("policy", "kind", "first", "seconds"),
    [
        # frbg 7.a(c): the three cases that earn the first to play 10 more seconds
        (FRBG, PAR3_TEE, True, 50),
        (FRBG, APPROACH, True, 50),
        (FRBG, CHIP_PUTT, True, 50),
        # the same strokes by a player who is not first to play: 40 s
        (FRBG, PAR3_TEE, False, 40),
        (FRBG, APPROACH, False, 40),
        (FRBG, CHIP_PUTT, False, 40),
        # any other stroke (a drive on a par 4, a lay-up, a bunker shot...): 40 s, first or not
        (FRBG, OTHER, True, 40),
        (FRBG, OTHER, False, 40),
        # swin rule 2: 40 s, whatever the stroke and whoever plays first
        (SWIN, PAR3_TEE, True, 40),
        (SWIN, APPROACH, True, 40),
        (SWIN, CHIP_PUTT, True, 40),
        (SWIN, OTHER, True, 40),
        (SWIN, CHIP_PUTT, False, 40),
        (SWIN, OTHER, False, 40),
    ],
    ids=[
        "frbg first to play par-3 tee shot 50",
        "frbg first to play approach 50",
        "frbg first to play chip or putt 50",
        "frbg not first par-3 tee shot 40",
        "frbg not first approach 40",
        "frbg not first chip or putt 40",
        "frbg first to play other stroke 40",
        "frbg not first other stroke 40",
        "swin first par-3 tee shot 40",
        "swin first approach 40",
        "swin first chip or putt 40",
        "swin first other 40",
        "swin not first chip or putt 40",
        "swin not first other 40",
    ],
)
def test_allowance(policy, kind, first, seconds):
    assert allowance(kind, first, policy) == timedelta(seconds=seconds)


def test_allowance_numbers_come_from_the_policy():
    # a committee's own numbers (docs/rules.md: everything numeric is configuration)
    club = Policy(
        "club", stroke_allowance=timedelta(seconds=45), extra_allowance=timedelta(seconds=15)
    )
    assert allowance(CHIP_PUTT, True, club) == timedelta(seconds=60)
    assert allowance(CHIP_PUTT, False, club) == timedelta(seconds=45)
    assert allowance(OTHER, True, club) == timedelta(seconds=45)


# --------------------------------------------------------------------------- bad time


@pytest.mark.parametrize(
    ("policy", "seconds", "kind", "first", "bad", "over"),
    [
        # 40-second strokes: the limit itself is fine, a millisecond more is a bad time
        (FRBG, 39.999, OTHER, False, False, -0.001),
        (FRBG, 40.0, OTHER, False, False, 0),
        (FRBG, 40.001, OTHER, False, True, 0.001),
        (FRBG, 41, OTHER, False, True, 1),
        # 50-second strokes (first to play a putt): 50.0 fine, 50.001 bad
        (FRBG, 50.0, CHIP_PUTT, True, False, 0),
        (FRBG, 50.001, CHIP_PUTT, True, True, 0.001),
        # 45 s: fine for the first to play an approach or a par-3 tee shot...
        (FRBG, 45, APPROACH, True, False, -5),
        (FRBG, 45, PAR3_TEE, True, False, -5),
        # ...a bad time (5 s over) for the second to play the same kind of stroke
        (FRBG, 45, APPROACH, False, True, 5),
        (FRBG, 45, CHIP_PUTT, False, True, 5),
        # ...and for the first to play a stroke that earns no extra time
        (FRBG, 45, OTHER, True, True, 5),
        # swin: 40 s even for the first to play a par-3 tee shot
        (SWIN, 40.0, PAR3_TEE, True, False, 0),
        (SWIN, 40.001, PAR3_TEE, True, True, 0.001),
        (SWIN, 45, CHIP_PUTT, True, True, 5),
    ],
    ids=[
        "39.999 s fine",
        "exactly 40.0 s fine",
        "40.001 s bad",
        "41 s bad",
        "first to putt exactly 50.0 s fine",
        "first to putt 50.001 s bad",
        "first approach 45 s fine",
        "first par-3 tee 45 s fine",
        "second approach 45 s bad",
        "second putt 45 s bad",
        "first other stroke 45 s bad",
        "swin exactly 40.0 s fine",
        "swin first par-3 tee 40.001 s bad",
        "swin first putt 45 s bad",
    ],
)
def test_bad_time(policy, seconds, kind, first, bad, over):
    verdict = judge(stroke(seconds, kind, first), policy)
    assert verdict.is_bad_time is bad
    assert verdict.over == timedelta(seconds=over)
    assert verdict.allowed == allowance(kind, first, policy)


def test_duration_is_stop_minus_start():
    s = TimedStroke("s1", "7", "Ann", 5, at("10:00:10"), at("10:00:52"))
    assert s.duration == timedelta(seconds=42)
    assert judge(s, FRBG).is_bad_time


def test_verdict_keeps_the_stroke():
    s = stroke(44, APPROACH, True)
    assert judge(s, FRBG).stroke is s


@FAST
@given(
    ms=st.integers(0, 180_000),
    kind=st.sampled_from(list(StrokeKind)),
    first=st.booleans(),
    policy=st.sampled_from([FRBG, SWIN]),
)
def test_bad_time_iff_strictly_over_the_allowance(ms, kind, first, policy):
    duration = timedelta(milliseconds=ms)
    verdict = judge(stroke(ms / 1000, kind, first), policy)
    limit = timedelta(seconds=50 if policy is FRBG and first and kind != OTHER else 40)
    assert verdict.allowed == limit
    assert verdict.is_bad_time is (duration > limit)


# --------------------------------------------------------------------------- the course's par


@pytest.mark.parametrize(
    ("par", "seconds"),
    [(3, 50), (4, 40), (5, 40), (None, 50)],
    ids=["par-3", "par-4", "par-5", "hole-unknown"],
)
def test_the_hole_par_decides_the_par_3_tee_shot_allowance(par, seconds):
    # docs/rules.md §4.3 (issue 10): the course decides, not the kind the referee's device sent
    assert allowance(PAR3_TEE, True, FRBG, par) == timedelta(seconds=seconds)
    assert allowance(APPROACH, True, FRBG, par) == timedelta(seconds=50)  # any par


def test_a_par_3_tee_shot_on_a_par_4_at_46_seconds_is_a_bad_time():
    assert judge(stroke(46, PAR3_TEE, True), FRBG, par=4).is_bad_time
    assert not judge(stroke(46, PAR3_TEE, True), FRBG, par=3).is_bad_time

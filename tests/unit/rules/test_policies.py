"""Pace policy presets and their validation (docs/rules.md §4, §6; issue 5, item 2).

- frbg (hard card 7.a): 40 s, +10 s; warning, 1 stroke, 2 more strokes, disqualification;
  match play warning, loss of hole, final warning, disqualification; notification gate;
  ball search 3 minutes.
- mauricie (13.4): 90 minutes per six holes; warning then 2 strokes from the second warning;
  match play loss of hole, loss of hole, then disqualification; ball search 5 minutes.
- swin (rules 2 and 6.1): 40 s after taking charge of the ball, no extra; every breach
  1 point, no warning, no gate; ball search 5 minutes.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from pace.rules.errors import SetupError
from pace.rules.policies import (
    BAD_TIMES,
    CHECKPOINTS,
    FRBG,
    MAURICIE,
    PRESETS,
    SWIN,
    Policy,
    find_policy,
    parse_step,
)

S = timedelta(seconds=1)
MIN = timedelta(minutes=1)


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        (
            "frbg",
            {
                "stroke_allowance": 40 * S,
                "extra_allowance": 10 * S,
                "stroke_ladder": ("warning", "strokes:1", "strokes:2", "disqualification"),
                "match_ladder": ("warning", "loss_of_hole", "final_warning", "disqualification"),
                "repeat_last": False,
                "notification_gate": True,
                "faults_from": BAD_TIMES,
                "ball_search": 3 * MIN,
            },
        ),
        (
            "mauricie",
            {
                "stroke_ladder": ("warning", "strokes:2"),
                "match_ladder": ("loss_of_hole", "loss_of_hole", "disqualification"),
                "repeat_last": True,
                "faults_from": CHECKPOINTS,
                "checkpoint_holes": 6,
                "checkpoint_limit": 90 * MIN,
                "ball_search": 5 * MIN,
            },
        ),
        (
            "swin",
            {
                "stroke_allowance": 40 * S,
                "extra_allowance": 0 * S,
                "stroke_ladder": ("points:1",),
                "match_ladder": ("points:1",),
                "repeat_last": True,
                "notification_gate": False,
                "faults_from": BAD_TIMES,
                "ball_search": 5 * MIN,
            },
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_preset(name, fields):
    policy = find_policy(name)
    assert policy.name == name
    assert {k: getattr(policy, k) for k in fields} == fields
    assert policy.description  # each preset is documented


def test_presets_are_the_three_named_ones():
    assert PRESETS == {"frbg": FRBG, "mauricie": MAURICIE, "swin": SWIN}


def test_policies_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        FRBG.stroke_allowance = 60 * S  # type: ignore[misc]


# --------------------------------------------------------------------------- find_policy


def test_find_policy_unknown_name():
    with pytest.raises(SetupError, match="unknown pace policy 'belgian'") as info:
        find_policy("belgian")
    assert info.value.field == "policy"
    assert info.value.code == "invalid_setup"
    for known in ("frbg", "mauricie", "swin"):
        assert known in info.value.message


def test_find_policy_custom():
    club = Policy("club", stroke_ladder=("warning", "strokes:2"))
    assert find_policy("club", {"club": club}) is club
    assert find_policy("frbg", {"club": club}) is FRBG
    with pytest.raises(SetupError, match="'other'.*club"):
        find_policy("other", {"club": club})


# --------------------------------------------------------------------------- ladder steps


@pytest.mark.parametrize(
    ("step", "parsed"),
    [
        ("warning", ("warning", 0)),
        ("final_warning", ("final_warning", 0)),
        ("loss_of_hole", ("loss_of_hole", 0)),
        ("disqualification", ("disqualification", 0)),
        ("strokes:1", ("strokes", 1)),
        ("strokes:2", ("strokes", 2)),
        ("points:1", ("points", 1)),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_parse_step(step, parsed):
    assert parse_step(step) == parsed


BAD_STEPS = [
    "penalty",  # unknown step
    "",  # empty
    "Warning",  # steps are lower case
    "strokes",  # needs a number
    "strokes:",
    "strokes:0",
    "strokes:-1",
    "strokes:two",
    "points:0",
    "warning:1",  # takes no number
    "disqualification:1",
]


@pytest.mark.parametrize("step", BAD_STEPS, ids=lambda s: repr(s))
@pytest.mark.parametrize("ladder", ["stroke_ladder", "match_ladder"])
def test_bad_ladder_step_is_a_setup_error(step, ladder):
    with pytest.raises(SetupError, match="'club'") as info:
        Policy("club", **{ladder: ("warning", step)})
    assert repr(step) in info.value.message


@pytest.mark.parametrize("ladder", ["stroke_ladder", "match_ladder"])
def test_empty_ladder_is_a_setup_error(ladder):
    with pytest.raises(SetupError, match="'club'.*at least one step"):
        Policy("club", **{ladder: ()})


@pytest.mark.parametrize("source", ["holes", "", "bad-times", "CHECKPOINTS"])
def test_unknown_faults_from_is_a_setup_error(source):
    with pytest.raises(SetupError, match=f"faults_from {source!r}"):
        Policy("club", faults_from=source)


def test_a_valid_custom_policy():
    club = Policy(
        "club",
        stroke_allowance=45 * S,
        stroke_ladder=("final_warning", "strokes:3", "disqualification"),
        match_ladder=("loss_of_hole",),
        repeat_last=True,
        faults_from=CHECKPOINTS,
        checkpoint_holes=9,
        checkpoint_limit=135 * MIN,
    )
    assert club.stroke_ladder[1] == "strokes:3"

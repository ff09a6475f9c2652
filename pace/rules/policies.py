"""Pace policies: the named presets of docs/rules.md §4–§6, and custom ones from configuration.

A policy holds every number of the referees' procedure: the time allowed per stroke, the
penalty ladders in stroke play and match play, whether the notification gate applies,
where faults come from (timed strokes, or checkpoints), and the ball-search limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from pace.rules.errors import SetupError, said

# Ladder steps, written as in configuration: "warning", "final_warning", "loss_of_hole",
# "disqualification", "strokes:N" (N penalty strokes), "points:N" (N penalty points, swin).
STEP_NAMES = ("warning", "final_warning", "loss_of_hole", "disqualification", "strokes", "points")

BAD_TIMES = "bad_times"
CHECKPOINTS = "checkpoints"


@dataclass(frozen=True)
class Policy:
    """A named pace policy.

    ``stroke_ladder`` and ``match_ladder`` give the penalty of the 1st, 2nd, … counted
    fault; past the end, the last step repeats when ``repeat_last`` is set, else a fault
    after the last step has no further effect. ``extra_allowance`` is added for the first
    to play a par-3 tee shot, an approach, a chip or a putt (docs/rules.md §4.3).
    """

    name: str
    stroke_allowance: timedelta = timedelta(seconds=40)
    extra_allowance: timedelta = timedelta(seconds=10)
    stroke_ladder: tuple[str, ...] = ("warning", "strokes:1", "strokes:2", "disqualification")
    match_ladder: tuple[str, ...] = ("warning", "loss_of_hole", "final_warning", "disqualification")
    repeat_last: bool = False
    notification_gate: bool = True
    faults_from: str = BAD_TIMES
    checkpoint_holes: int = 6
    checkpoint_limit: timedelta = timedelta(minutes=90)
    ball_search: timedelta = timedelta(minutes=3)
    description: str = ""

    def __post_init__(self) -> None:
        for ladder in (self.stroke_ladder, self.match_ladder):
            if not ladder:
                raise SetupError(f"policy {self.name!r}: a ladder needs at least one step")
            for step in ladder:
                parse_step(step, policy=self.name)
        if self.faults_from not in (BAD_TIMES, CHECKPOINTS):
            raise SetupError(
                f"policy {self.name!r}: faults_from {self.faults_from!r} must be "
                f"{BAD_TIMES!r} or {CHECKPOINTS!r}"
            )


def parse_step(step: str, *, policy: str = "") -> tuple[str, int]:
    """Return a ladder step as (kind, amount); amount is 0 for steps without a number.

    >>> parse_step("strokes:2"), parse_step("warning")
    (('strokes', 2), ('warning', 0))
    """
    kind, _, amount = step.partition(":")
    if kind not in STEP_NAMES:
        raise SetupError(
            f"policy {policy!r}: unknown ladder step {step!r}; steps are "
            + ", ".join(STEP_NAMES[:4])
            + ", strokes:N, points:N"
        )
    if kind in ("strokes", "points"):
        if not amount.isdigit() or int(amount) < 1:
            raise SetupError(f"policy {policy!r}: step {step!r} needs a number, like {kind}:1")
        return kind, int(amount)
    if amount:
        raise SetupError(f"policy {policy!r}: step {step!r} takes no number")
    return kind, 0


FRBG = Policy(
    name="frbg",
    description="Belgian federation hard card 7.a: 40 s per stroke (+10 s for the first to play "
    "a par-3 tee shot, an approach, a chip or a putt); warning, 1 stroke, 2 more strokes, "
    "disqualification (match play: warning, loss of hole, final warning, disqualification); "
    "a player is not penalised before being told of his previous bad time.",
)

MAURICIE = Policy(
    name="mauricie",
    stroke_ladder=("warning", "strokes:2"),
    match_ladder=("loss_of_hole", "loss_of_hole", "disqualification"),
    repeat_last=True,
    faults_from=CHECKPOINTS,
    ball_search=timedelta(minutes=5),
    description="Golf Mauricie 13.4: at most 90 minutes per six holes (checkpoints after holes "
    "6, 12, 18); stroke play: a warning, then two strokes to each competitor of the group from "
    "the second warning on; match play: loss of hole, loss of hole, then disqualification.",
)

SWIN = Policy(
    name="swin",
    extra_allowance=timedelta(0),
    stroke_ladder=("points:1",),
    match_ladder=("points:1",),
    repeat_last=True,
    notification_gate=False,
    ball_search=timedelta(minutes=5),
    description="Swin golf rule 2: 40 s to play after taking charge of the ball; every breach "
    "is a 1-point penalty, no warning; ball search limited to 5 minutes (rule 6.1).",
)

PRESETS: dict[str, Policy] = {p.name: p for p in (FRBG, MAURICIE, SWIN)}


def find_policy(name: str, custom: dict[str, Policy] | None = None) -> Policy:
    """Return the preset or custom policy called ``name``."""
    known = {**PRESETS, **(custom or {})}
    try:
        return known[name]
    except KeyError:
        raise SetupError(
            said("refusal.setup.policy", "unknown pace policy {value}; known policies: {names}",
                 value=repr(name), names=", ".join(sorted(known))),
            field="policy",
        ) from None  # fmt: skip

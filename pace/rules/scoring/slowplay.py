"""Pace penalties on the card: what each counted slow-play penalty does in each scoring.

The scoring takes the round's judged faults (``penalties.FaultOutcome``) as they are;
nothing about a penalty is ever copied into the scores (docs/rules.md §6, §7, §10 "Slow-play
penalties by format"). Each scoring converts a counted penalty into one effect:

- ``strokes``: strokes added to the penalty hole of the ball that bears it;
- ``points_off`` / ``holes_off``: a deduction from the round's total (Stableford 2 points,
  bogey/par one hole), which countback does not see;
- ``loss_of_hole``: the penalty hole is lost (match play; in four-ball the player's own ball
  does not count on it);
- ``disqualification``: the side (or, in four-ball, a partner's ball) is out, with a reason;
- ``none``: a warning or a final warning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from pace.rules.penalties import FaultOutcome
from pace.rules.policies import STEP_NAMES
from pace.rules.scoring.sides import Roster, Side

STROKES = "strokes"
POINTS_OFF = "points_off"
HOLES_OFF = "holes_off"
LOSS_OF_HOLE = "loss_of_hole"
DISQUALIFICATION = "disqualification"
NONE = "none"

_SOURCES = {"bad_time": "bad time", "checkpoint": "checkpoint breach"}


@dataclass(frozen=True)
class PenaltyLine:
    """One counted penalty as it lands on a card: the fault, the ladder's step, the effect."""

    fault: str
    group: str
    player: str
    hole: int
    kind: str
    amount: int
    bearer: str
    effect: str
    value: int
    rank: int | None
    source: str


@dataclass(frozen=True)
class SideEffects:
    """Everything the counted penalties do to one side.

    ``strokes`` maps (ball, hole) to penalty strokes; ``deductions`` is the round-level total
    taken off (Stableford points, bogey/par holes); ``lost`` holds (ball, hole) pairs whose
    ball does not count on that hole, with ball None when the whole side loses the hole;
    ``dq_balls`` are partners' balls out of the round; ``dq`` is the side's
    disqualification reason.
    """

    strokes: Mapping[tuple[str, int], int] = field(default_factory=dict)
    deductions: int = 0
    lost: frozenset[tuple[str | None, int]] = frozenset()
    dq_balls: frozenset[str] = frozenset()
    dq: str | None = None
    lines: tuple[PenaltyLine, ...] = ()

    def penalty_strokes(self, ball: str, hole: int) -> int:
        """Return the penalty strokes of a ball on a hole."""
        return self.strokes.get((ball, hole), 0)


NO_EFFECTS = SideEffects()


def unknown_kind(kind: str) -> ValueError:
    """Return the error for a penalty kind no ladder step has (``policies.STEP_NAMES``)."""
    return ValueError(f"unknown penalty kind {kind!r}; kinds are " + ", ".join(STEP_NAMES))


def ordinal(n: int) -> str:
    """Return 1st, 2nd, 3rd, 4th, ...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def dq_reason(outcome: FaultOutcome) -> str:
    """Return the reason shown with a slow-play disqualification.

    >>> from datetime import UTC, datetime
    >>> from pace.rules.penalties import Fault, Penalty, Reason
    >>> f = Fault("L9", "4", "Ann", datetime(2025, 6, 14, tzinfo=UTC), 12)
    >>> dq_reason(FaultOutcome(f, True, Reason.COUNTED, 4, Penalty("disqualification", 0, 12)))
    'slow play: 4th bad time, hole 12 (Ann)'
    """
    f = outcome.fault
    what = _SOURCES.get(f.source, f.source)
    rank = f"{ordinal(outcome.rank)} " if outcome.rank else ""
    return f"slow play: {rank}{what}, hole {f.hole} ({f.player})"


class Converter(Protocol):
    """How a scoring turns a counted ladder step (kind, amount) into an effect and its size."""

    def convert(self, kind: str, amount: int) -> tuple[str, int]:
        """Return the effect of a counted step other than a warning or a disqualification."""
        ...


def side_effects(
    outcomes: Iterable[FaultOutcome], roster: Roster, converter: Converter
) -> dict[str, SideEffects]:
    """Return, by side key, what the counted penalties of ``outcomes`` do under a scoring.

    Faults of players not in the draw are ignored (the referees' log may name a player a
    committee later took off the draw).
    """
    acc: dict[str, _Acc] = {}
    for o in outcomes:
        if not o.counted or o.penalty is None:
            continue
        try:
            side = roster.side_of(o.fault.group, o.fault.player)
        except (LookupError, ValueError):
            continue
        acc.setdefault(side.key, _Acc(side)).add(o, converter)
    return {key: a.freeze() for key, a in acc.items()}


class _Acc:
    def __init__(self, side: Side) -> None:
        self.side = side
        self.strokes: dict[tuple[str, int], int] = {}
        self.deductions = 0
        self.lost: set[tuple[str | None, int]] = set()
        self.dq_balls: set[str] = set()
        self.dq: str | None = None
        self.lines: list[PenaltyLine] = []
        self.borne: set[str] = set()  # faults the whole side already bears

    def add(self, o: FaultOutcome, converter: Converter) -> None:
        p = o.penalty
        assert p is not None
        if p.kind == "disqualification":
            effect, value = DISQUALIFICATION, 0
        elif p.kind in ("warning", "final_warning"):
            effect, value = NONE, 0
        else:
            effect, value = converter.convert(p.kind, p.amount)
        whole_side = p.bearer == "side" or len(self.side.balls) == 1
        if whole_side and len(self.side.players) > 1:
            # one breach of the group (a checkpoint) is a fault of each partner: the side
            # bears it once
            if o.fault.id in self.borne:
                return
            self.borne.add(o.fault.id)
        balls = self.side.balls if whole_side else (self.side.ball_of(o.fault.player),)
        if effect == STROKES:
            for ball in balls:
                self.strokes[(ball, p.hole)] = self.strokes.get((ball, p.hole), 0) + value
        elif effect in (POINTS_OFF, HOLES_OFF):
            self.deductions += value
        elif effect == LOSS_OF_HOLE:
            self.lost.add((None, p.hole) if whole_side else (balls[0], p.hole))
        elif effect == DISQUALIFICATION:
            if whole_side:
                self.dq = self.dq or dq_reason(o)
            else:
                self.dq_balls.add(balls[0])
                if set(self.side.balls) <= self.dq_balls:
                    self.dq = self.dq or dq_reason(o)
        f = o.fault
        self.lines.append(
            PenaltyLine(
                f.id,
                f.group,
                f.player,
                p.hole,
                p.kind,
                p.amount,
                p.bearer,
                effect,
                value,
                o.rank,
                f.source,
            )  # fmt: skip
        )

    def freeze(self) -> SideEffects:
        return SideEffects(
            dict(self.strokes),
            self.deductions,
            frozenset(self.lost),
            frozenset(self.dq_balls),
            self.dq,
            tuple(self.lines),
        )

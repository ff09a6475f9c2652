"""Stableford (Rule 32-1b; swin golf uses the same scale): points against a fixed score.

The fixed score of a hole is its par, plus the strokes received there when net. More than
one over it, or no score, 0 points; one over 1; equal 2; one under 3; two under 4; three
under 5; four under 6, and one more per stroke under after that (docs/rules.md §10.1). The most
points win.

Pace penalties: each counted slow-play penalty of the ladder (one stroke or two) takes 2
points off the round's total, and the card's strokes stay as played (Rule 32-1b, note 3). A
swin point is a stroke on its hole, as every swin penalty point is: the hole's points are
counted with it (docs/scoring.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from pace.rules.model import Hole
from pace.rules.scoring import countback, slowplay
from pace.rules.scoring.base import CardScoring
from pace.rules.scoring.results import OK, Entry, HoleLine, Totals
from pace.rules.scoring.slowplay import POINTS_OFF, STROKES, SideEffects
from pace.rules.scoring.teams import STABLEFORD

#: Points taken off the round per counted slow-play penalty (Rule 32-1b, note 3).
SLOW_PLAY_POINTS = 2


def points(strokes: int | None, fixed: int) -> int:
    """Return the Stableford points of a hole played in ``strokes`` against ``fixed``.

    >>> [points(s, 4) for s in (7, 6, 5, 4, 3, 2, 1, None)]
    [0, 0, 1, 2, 3, 4, 5, 0]
    >>> points(1, 6)  # four under: 6 points, and the scale goes on
    7
    """
    if strokes is None:
        return 0
    return max(0, 2 + fixed - strokes)


class Stableford(CardScoring):
    """Stableford: the most points win; 2 points off per counted slow-play penalty.

    >>> Stableford().convert("strokes", 1), Stableford().convert("points", 1)
    (('points_off', 2), ('strokes', 1))
    """

    name = "stableford"
    aliases = ("points", "swin_stableford")
    family = STABLEFORD
    higher_is_better = True

    def convert(self, kind: str, amount: int) -> tuple[str, int]:
        if kind == "points":
            return STROKES, amount
        if kind in ("strokes", "loss_of_hole"):
            return POINTS_OFF, SLOW_PLAY_POINTS
        raise slowplay.unknown_kind(kind)

    def hole_value(self, strokes: int | None, hole: Hole, received: int, net: bool) -> int | None:
        return points(strokes, hole.par + (received if net else 0))

    def labels(self, value: int | None) -> tuple[int | None, str | None]:
        return value, None

    def total(self, lines: Sequence[HoleLine], effects: SideEffects) -> Totals:
        total = sum(line.value or 0 for line in lines)
        after = total - effects.deductions
        return {
            "status": OK,
            "points": total,
            "penalty_points": effects.deductions,
            "result": f"{after} point" if abs(after) == 1 else f"{after} points",
        }

    def primary(self, entry: Entry) -> countback.Value | None:
        assert entry.points is not None and entry.penalty_points is not None
        return -(entry.points - entry.penalty_points)

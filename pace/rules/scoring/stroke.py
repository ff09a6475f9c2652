"""Stroke play, gross and net (docs/rules.md §10, §10.1; Rule 31 for four-ball).

The total is the sum of the strokes, penalty strokes on their holes included; net is the
gross less the playing handicap. A hole without a score is a no return (``nr``): no gross,
no net, no position. In four-ball the side's hole is its partners' better score, net when
net (each partner's strokes less his own strokes received).

Pace penalties: the strokes go on the penalty hole; a swin point counts as one stroke; a
loss of hole (only on a committee's own stroke-play ladder) costs the two strokes that are
stroke play's general penalty.
"""

from __future__ import annotations

from collections.abc import Sequence

from pace.rules.model import Hole
from pace.rules.scoring import countback, slowplay
from pace.rules.scoring.base import CardScoring
from pace.rules.scoring.results import NR, OK, Entry, HoleLine, Totals
from pace.rules.scoring.slowplay import STROKES, SideEffects
from pace.rules.scoring.teams import STROKE

#: Stroke play's general penalty, the counterpart of match play's loss of hole.
GENERAL_PENALTY = 2


class StrokePlay(CardScoring):
    """Stroke play: the fewest strokes win.

    >>> from pace.rules.model import Hole
    >>> [StrokePlay().hole_value(s, Hole(1, 4), 1, True) for s in (6, None)]
    [5, None]
    >>> StrokePlay().convert("points", 1), StrokePlay().convert("strokes", 2)
    (('strokes', 1), ('strokes', 2))
    """

    name = "stroke"
    aliases = ("stroke_play", "strokeplay", "medal", "stroke-play", "par_coups")
    family = STROKE

    def convert(self, kind: str, amount: int) -> tuple[str, int]:
        if kind in ("strokes", "points"):
            return STROKES, amount
        if kind == "loss_of_hole":
            return STROKES, GENERAL_PENALTY
        raise slowplay.unknown_kind(kind)

    def hole_value(self, strokes: int | None, hole: Hole, received: int, net: bool) -> int | None:
        if strokes is None:
            return None
        # gross: nothing received, but the par strokes of WHS Rule 6.2b (i) (Field.received)
        return strokes - received

    def total(self, lines: Sequence[HoleLine], effects: SideEffects) -> Totals:
        values = [line.value for line in lines]
        if any(v is None for v in values):
            return {"status": NR, "result": "NR", "gross": None, "net": None}
        return {"status": OK, "result": str(sum(v for v in values if v is not None))}

    def primary(self, entry: Entry) -> countback.Value | None:
        """Return the net, else the gross less the par strokes of Rule 6.2b (i) (the holes'
        values: the gross itself when the tees in play have one par)."""
        if entry.net is not None:
            return entry.net
        if entry.gross is None:
            return None
        return sum(line.value or 0 for line in entry.holes)

    def countback_value(self, entry: Entry, step: countback.Step, net: bool) -> countback.Value:
        """Return the strokes on the step's holes; net with one handicap, less its share.

        Four-ball net holes are already net (each partner's own strokes received), so their
        countback adds the holes' net scores.
        """
        if not net or entry.playing_handicap is None:
            return super().countback_value(entry, step, net)
        first = step.holes[0]  # the steps are the course's last holes
        strokes = sum(
            (line.strokes or 0) + line.penalty_strokes for line in entry.holes if line.hole >= first
        )
        return strokes - entry.playing_handicap * step.share

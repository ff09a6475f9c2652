"""Bogey and par competitions (Rule 32-1a): each hole is a match against a fixed score.

The fixed score is the hole's par in a par competition; in a bogey competition the course's
``bogey`` for the hole, par + 1 by default; plus the strokes received when net. Below it the
hole is won, equal halved, above it or without a score lost. The result is holes won less
holes lost: "2 up", "1 down" or "all square".

Pace penalties: each counted slow-play penalty of the ladder takes one hole off the result
(Rule 32-1a, note 3); a swin point is a stroke on its hole (docs/scoring.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from pace.rules.model import Hole
from pace.rules.scoring import countback, slowplay
from pace.rules.scoring.base import CardScoring
from pace.rules.scoring.results import OK, Entry, HoleLine, Totals
from pace.rules.scoring.slowplay import HOLES_OFF, STROKES, SideEffects
from pace.rules.scoring.teams import BOGEY_PAR

WON, HALVED, LOST = "won", "halved", "lost"
_OUTCOMES = {1: WON, 0: HALVED, -1: LOST}


def balance_text(balance: int) -> str:
    """Return how a bogey/par result reads.

    >>> balance_text(2), balance_text(-1), balance_text(0)
    ('2 up', '1 down', 'all square')
    """
    if balance > 0:
        return f"{balance} up"
    if balance < 0:
        return f"{-balance} down"
    return "all square"


class Bogey(CardScoring):
    """Bogey competition: against the hole's ``bogey`` (par + 1 by default).

    >>> from pace.rules.model import Hole
    >>> [Bogey().hole_value(s, Hole(1, 4), 0, False) for s in (4, 5, 6, None)]
    [1, 0, -1, -1]
    >>> Bogey().hole_value(5, Hole(1, 4, bogey=4), 1, True)
    0
    """

    name = "bogey"
    aliases = ("bogey_competition", "contre_bogey")
    family = BOGEY_PAR
    higher_is_better = True

    def fixed(self, hole: Hole) -> int:
        """Return the hole's fixed score before strokes received."""
        return hole.bogey if hole.bogey is not None else hole.par + 1

    def convert(self, kind: str, amount: int) -> tuple[str, int]:
        if kind == "points":
            return STROKES, amount
        if kind in ("strokes", "loss_of_hole"):
            return HOLES_OFF, 1
        raise slowplay.unknown_kind(kind)

    def hole_value(self, strokes: int | None, hole: Hole, received: int, net: bool) -> int | None:
        if strokes is None:
            return -1
        target = self.fixed(hole) + (received if net else 0)
        return 1 if strokes < target else 0 if strokes == target else -1

    def labels(self, value: int | None) -> tuple[int | None, str | None]:
        return None, _OUTCOMES[value] if value is not None else None

    def total(self, lines: Sequence[HoleLine], effects: SideEffects) -> Totals:
        values = [line.value for line in lines]
        won, halved, lost = values.count(1), values.count(0), values.count(-1)
        balance = won - lost - effects.deductions
        return {
            "status": OK,
            "holes_won": won,
            "holes_halved": halved,
            "holes_lost": lost,
            "penalty_holes": effects.deductions,
            "balance": balance,
            "result": balance_text(balance),
        }

    def primary(self, entry: Entry) -> countback.Value | None:
        assert entry.balance is not None
        return -entry.balance


class Par(Bogey):
    """Par competition: against the hole's par.

    >>> from pace.rules.model import Hole
    >>> [Par().hole_value(s, Hole(1, 4), 0, False) for s in (3, 4, 5)]
    [1, 0, -1]
    """

    name = "par"
    aliases = ("par_competition", "contre_par")

    def fixed(self, hole: Hole) -> int:
        return hole.par

"""A competition as a round's leaderboard shows it (``leaderboard.events``), and the one
reading of a round's penalty in a competition's figures: what the services and the renderers
of ``pace results --event`` share (docs/scoring.md, "Competitions of several rounds")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pace.rules.scoring.competition import POINTS, CompetitionResults, Cut, RoundFigure


class Competition(Protocol):
    """What a view reads of a stored competition (``pace.store.competitions.CompetitionRecord``)."""

    @property
    def name(self) -> str: ...
    @property
    def scoring(self) -> str: ...
    @property
    def rounds(self) -> Sequence[str]: ...
    @property
    def cut(self) -> Cut | None: ...


def round_penalty(f: RoundFigure | None, scoring: str) -> int | None:
    """Return a round's pace penalty in the competition's unit: points off, or strokes."""
    if f is None:
        return None
    return (f.penalty_points or 0) if scoring == POINTS else f.penalty_strokes


def event_view(
    record: Competition,
    number: int,
    outcome: CompetitionResults | None,
    *,
    error: str | None = None,
) -> dict[str, Any]:
    """Return a competition as a round's leaderboard shows it: which round of it this is,
    the standings over the rounds counted so far, the cut, who made it."""
    out: dict[str, Any] = {
        "event": record.name,
        "scoring": record.scoring,
        "rounds": list(record.rounds),
        "round_number": number,
        "counted": 0 if outcome is None else len(outcome.rounds),
        "cut": None,
        "entries": [],
        "error": error,
    }
    if record.cut is not None:
        line = outcome.cut_line if outcome is not None else None
        out["cut"] = {
            "after": record.cut.after,
            "rule": record.cut.describe(record.scoring),
            "applied": line is not None,
            "line": line.line if line else None,
            "made": line.made if line else None,
        }
    if outcome is not None:
        out["entries"] = [
            {
                "position": e.position,
                "tied": e.tied,
                "entry": e.entry,
                "made_cut": e.made_cut,
                "rounds": [None if f is None else f.figure for f in e.rounds],
                "penalties": [round_penalty(f, record.scoring) for f in e.rounds],
                "total": e.total,
                "result": e.result,
                "status": e.status,
                "countback": e.countback,
            }
            for e in outcome.entries
        ]
    return out

"""Where a group is on the course at an instant, for the course strip (issue 40).

The same rule as the pages' ``static/strip.js`` (the live strip works it out in the browser,
the clock moving the groups between two deltas; the report's static strip here): a group is
on the hole after its ``holes_completed`` in its own playing order — the status's own count —
and as far along it as the share of that hole's allotment that has passed since it completed
the hole before (or started), capped at the hole's end (``over``: beyond it). A group not
started waits on its first hole; a finished one is past its last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Place:
    """A group's place on the strip: the hole in play and the share of its allotment passed.

    ``index`` is the 0-based place of ``hole`` in the group's order (its length once finished).
    """

    group: str
    index: int
    hole: int | None
    fraction: float
    over: bool
    finished: bool


def place(
    group: str,
    status: str,
    order: Sequence[int],
    start: datetime,
    due: Sequence[datetime],
    holes_completed: int,
    done: Mapping[int, datetime],
    at: datetime,
) -> Place:
    """Return where ``group`` is at ``at``.

    ``due`` holds the instant each hole of ``order`` is due (the row's ``due``), ``done`` the
    instants of the holes logged (a hole not logged but counted counts from its due instant).

    >>> from datetime import UTC, timedelta
    >>> t0 = datetime(2026, 6, 1, 8, tzinfo=UTC)
    >>> due = [t0 + timedelta(minutes=15 * i) for i in (1, 2, 3)]
    >>> place("1", "on_pace", (1, 2, 3), t0, due, 1, {1: t0 + timedelta(minutes=14)},
    ...       t0 + timedelta(minutes=21.5))
    Place(group='1', index=1, hole=2, fraction=0.5, over=False, finished=False)
    """
    n = len(order)
    k = min(max(holes_completed, 0), n)
    if status == "not_started":
        return Place(group, 0, order[0] if order else None, 0.0, False, False)
    if status == "finished" or k >= n:
        return Place(group, n, None, 0.0, False, True)

    def due_at(i: int) -> datetime:
        return start if i == 0 else due[i - 1]

    began = start if k == 0 else done.get(order[k - 1], due_at(k))
    allot = (due[k] - due_at(k)).total_seconds()
    passed = (at - began).total_seconds() / allot if allot > 0 else 0.0
    return Place(group, k, order[k], min(1.0, max(0.0, passed)), passed > 1, False)


def lanes(groups: Sequence[tuple[int, Sequence[int]]]) -> list[tuple[int | None, tuple[int, ...]]]:
    """Return the strip's lanes from each group's (starting tee, order), in draw order: one a
    starting tee when the groups start from one or two tees (its holes in the order its groups
    play them), else one lane in the course's order, ``None`` for its tee (a shotgun).

    >>> lanes([(1, (1, 2)), (10, (2, 1)), (1, (1, 2))])
    [(1, (1, 2)), (10, (2, 1))]
    """
    tees: dict[int, tuple[int, ...]] = {}
    for tee, order in groups:
        tees.setdefault(tee, tuple(order))
    if len(tees) <= 2:
        return list(tees.items())
    return [(None, tuple(sorted({h for _, order in groups for h in order})))]

"""The group rows pages show: a group's status entry, its plan and its logged holes.

A row is evaluated at an instant (``at``) and names the figures that grow with the clock from
there (``moving``: the time over, the gap and the projected finish while the projection
decides the status): the page projects those minutes itself, so a row goes out again only when
something it cannot project changes (:func:`row_key`; docs/protocol.md, group rows).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from pace.documents.status import group_document
from pace.documents.values import minutes
from pace.rules.fieldfold import FINISH, GAP, OVER
from pace.rules.position import GroupPlan, GroupStatus

#: a logged hole: its instant, the time over at it, the id of the tap that counts
Hole = tuple[datetime, timedelta, str | None]


def fixed_row(plan: GroupPlan) -> dict[str, Any]:
    """Return the parts of a group's row that only the setup changes (``due``: while the
    group keeps its size; see :func:`due`)."""
    g = plan.group
    return {
        "tee": g.tee,
        "start": g.start.isoformat(),
        "players": tuple(p.name for p in g.players),
        "order": tuple(plan.order),
        "due": tuple((g.start + c).isoformat() for c in plan.cumulative[1:]),
    }


def due(plan: GroupPlan, done: Mapping[int, datetime], at: datetime) -> tuple[str, ...]:
    """Return the instant each hole of ``plan`` is due as the allotments stand at ``at``.

    For a group a player retired from, the holes begun after his retirement take the
    smaller group's minutes (:meth:`GroupPlan.cumulative_at`): the row shows the same
    allotments its status was judged by, not the draw's (docs/status.md, "Changes on the
    day"). ``done`` holds the holes completed by ``at``.
    """
    start = plan.group.start
    return tuple((start + c).isoformat() for c in plan.cumulative_at(done, at)[1:])


def group_row(
    s: GroupStatus,
    fixed: Mapping[str, Any],
    holes: Mapping[int, Hole],
    at: datetime,
    moving: frozenset[str],
) -> dict[str, Any]:
    """Return a group's row: its status document entry, its plan and its logged holes.

    ``at`` is the instant it was evaluated at; ``moving`` the figures that grow from there.
    """
    row = group_document(s)
    row.update(
        {
            "tee": fixed["tee"],
            "start": fixed["start"],
            "players": list(fixed["players"]),
            "order": list(fixed["order"]),
            "hole": s.hole,
            "projected_finish": s.projected_finish.isoformat() if s.projected_finish else None,
            "due": list(fixed["due"]),
            "holes": {
                str(hole): {"at": when.isoformat(), "over_min": minutes(over), "id": tap}
                for hole, (when, over, tap) in holes.items()
            },
            "at": at.isoformat(),
            "moving": sorted(moving),
        }
    )
    return row


def row_key(
    s: GroupStatus, holes: Mapping[int, Hole], at: datetime, moving: frozenset[str]
) -> tuple[Any, ...]:
    """Return what a page cannot work out of a row it holds: the row goes out when it changes.

    The status and its numbers as shown (to the hundredth of a minute), the logged holes,
    and for a figure that grows with the clock the instant it counts from instead of its value.
    """

    def figure(name: str, value: timedelta | None) -> Any:
        if value is None:
            return None
        return ("from", at - value) if name in moving else minutes(value)

    finish: Any = s.projected_finish
    if FINISH in moving and finish is not None:
        finish = ("from", finish - at)
    return (
        s.status,
        s.holes_completed,
        s.hole,
        s.lead,
        minutes(s.interval),
        figure(OVER, s.over),
        figure(GAP, s.gap),
        finish,
        moving,
        tuple(sorted((h, w, minutes(o), tap) for h, (w, o, tap) in holes.items())),
    )

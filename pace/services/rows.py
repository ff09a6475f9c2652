"""The group rows pages show: a group's status entry, its plan and its logged holes.

Built from an evaluation of the field; ``essential`` is what may change between two
broadcasts, so only changed rows go out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pace.reports.status import group_document, minutes
from pace.rules import facts as factsmod
from pace.rules.events import Event
from pace.rules.position import FieldStatus, GroupPlan, GroupStatus


@dataclass(frozen=True)
class Evaluation:
    """The field at an instant, with each logged hole's time over and tap id."""

    field: FieldStatus
    overs: Mapping[str, Mapping[int, tuple[datetime, timedelta]]]
    ids: Mapping[tuple[str, int], str]


def fixed_row(plan: GroupPlan) -> dict[str, Any]:
    """Return the parts of a group's row that only the setup changes."""
    g = plan.group
    return {
        "tee": g.tee,
        "start": g.start.isoformat(),
        "players": tuple(p.name for p in g.players),
        "order": tuple(plan.order),
        "due": tuple((g.start + c).isoformat() for c in plan.cumulative[1:]),
    }


def group_row(s: GroupStatus, fixed: Mapping[str, Any], ev: Evaluation) -> dict[str, Any]:
    """Return a group's row: its status document entry, its plan and its logged holes."""
    holes = {
        str(hole): {
            "at": at.isoformat(),
            "over_min": minutes(over),
            "id": ev.ids.get((s.group, hole)),
        }
        for hole, (at, over) in ev.overs.get(s.group, {}).items()
    }
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
            "holes": holes,
        }
    )
    return row


def essential(s: GroupStatus, ev: Evaluation) -> Any:
    """Return what a page shows of a group that may change: status, numbers, logged holes."""
    holes = tuple(
        (hole, at, minutes(over), ev.ids.get((s.group, hole)))
        for hole, (at, over) in sorted(ev.overs.get(s.group, {}).items())
    )
    return (s.status, s.holes_completed, minutes(s.over), minutes(s.gap), holes)


def voided_ids(events: list[Event]) -> set[str]:
    """Return the ids of the events a later ``event_voided`` cancelled."""
    return {str(e.payload["target"]) for e in events if e.type == factsmod.EVENT_VOIDED}


def completion_ids(events: list[Event]) -> dict[tuple[str, int], str]:
    """Return the id of the tap behind each (group, hole) still standing."""
    voided = voided_ids(events)
    out = {}
    for e in events:
        if e.type == factsmod.HOLE_COMPLETED and e.id not in voided:
            out[(str(e.payload["group"]), int(str(e.payload["hole"])))] = e.id
    return out

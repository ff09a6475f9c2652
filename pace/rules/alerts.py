"""Alerts for the referees, derived from the evaluation (RULES.md §3; DESIGN.md scheduler).

An alert has a stable ``key``: the same situation always gives the same key, so raising
is idempotent and a restart re-derives exactly the alerts already raised. Alerts stay
until a referee acknowledges them (an event); deciding that is the service's job.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pace.rules.model import Status
from pace.rules.position import Episode, FieldStatus, GroupStatus

OUT_OF_POSITION = "out_of_position"
OVERDUE = "overdue"
BACK_IN_POSITION = "back_in_position"


@dataclass(frozen=True)
class Alert:
    """Something a referee must see: a group out of position, overdue, or back in position.

    ``hole`` is the hole concerned (for ``overdue``, the hole in play that a marshal
    should check); ``at`` is the instant of the situation.
    """

    key: str
    kind: str
    group: str
    hole: int | None
    at: datetime
    over: timedelta | None = None
    gap: timedelta | None = None
    check_holes: tuple[int, ...] = ()


def nearby_holes(hole: int, hole_numbers: Sequence[int], radius: int = 1) -> tuple[int, ...]:
    """Return ``hole`` and the holes within ``radius`` of it around the course.

    The marshals there are asked to look for an overdue group; the course is a loop, so
    hole 1's neighbours include the last hole.

    >>> nearby_holes(1, range(1, 19)), nearby_holes(10, range(1, 19))
    ((18, 1, 2), (9, 10, 11))
    """
    numbers = list(hole_numbers)
    if hole not in numbers:
        return (hole,)
    i, n = numbers.index(hole), len(numbers)
    picked = [numbers[(i + d) % n] for d in range(-radius, radius + 1)]
    return tuple(dict.fromkeys(picked))


def due_alerts(
    field: FieldStatus, episodes: Iterable[Episode], hole_numbers: Sequence[int] = ()
) -> tuple[Alert, ...]:
    """Return every alert the round's state calls for at ``field.at``.

    One ``out_of_position`` alert per episode (keyed by its start), one
    ``back_in_position`` per episode that ended that way, and one ``overdue`` per group
    and hole while the projection finds the group overdue on that hole (with the holes whose
    marshals should look for it, given the course's ``hole_numbers``).
    """
    by_group = {s.group: s for s in field.groups}
    out = [a for e in episodes for a in episode_alerts(e, by_group.get(e.group))]
    for s in field.groups:
        out.extend(overdue_alerts(s, field.at, hole_numbers))
    return tuple(out)


def episode_alerts(e: Episode, s: GroupStatus | None) -> tuple[Alert, ...]:
    """Return the alerts of one episode: out of position, and back in position if it ended so.

    ``s`` is the group's status now: an episode still running shows its time over and gap.
    """
    running = s is not None and e.end is None
    out = [
        Alert(
            f"{OUT_OF_POSITION}:{e.group}:{e.start.isoformat()}",
            OUT_OF_POSITION,
            e.group,
            e.start_hole,
            e.start,
            s.over if running and s is not None else None,
            s.gap if running and s is not None else None,
        )
    ]
    if e.end is not None and e.ended_by == BACK_IN_POSITION:
        out.append(
            Alert(
                f"{BACK_IN_POSITION}:{e.group}:{e.end.isoformat()}",
                BACK_IN_POSITION,
                e.group,
                e.end_hole,
                e.end,
            )
        )
    return tuple(out)


def overdue_alerts(
    s: GroupStatus, at: datetime, hole_numbers: Sequence[int] = ()
) -> tuple[Alert, ...]:
    """Return the ``overdue`` alert of a group the projection finds overdue at ``at``, if any."""
    if s.status is not Status.OVERDUE or s.hole is None:
        return ()
    return (
        Alert(
            f"{OVERDUE}:{s.group}:{s.hole}",
            OVERDUE,
            s.group,
            s.hole,
            at,
            s.over,
            check_holes=nearby_holes(s.hole, hole_numbers or (s.hole,)),
        ),
    )

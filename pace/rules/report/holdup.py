"""Who held the field up: a group with open course ahead while the groups behind wait on it.

The reading (docs/reports.md): at a hole, take the groups in the order the marshals saw them
complete it. A group **held the field up** there when it was out of position at that hole
(over its allotted time with a gap ahead larger than its starting interval, or a lead group
over time: the course ahead of it was open) and the groups that completed the hole right
after it were, one after the other, ``behind``: over their allotted time but close to the
group ahead (gap within their interval), i.e. waiting. The chain stops at the first group
that is on pace or itself out of position. The **minutes it held up** at that hole are the
held groups' minutes over their allotment there, added up (group-minutes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pace.rules.model import Status
from pace.rules.position import FieldPlan
from pace.rules.report.holes import HoleOrder, HoleRow

ZERO = timedelta(0)


@dataclass(frozen=True)
class HeldAtHole:
    """At ``hole`` (completed at ``at``), the groups held behind and their minutes over."""

    hole: int
    position: int
    at: datetime
    over: timedelta
    behind: tuple[tuple[str, timedelta], ...]

    @property
    def minutes(self) -> timedelta:
        """Return the held groups' time over their allotment at that hole, added up."""
        return sum((over for _, over in self.behind), ZERO)


@dataclass(frozen=True)
class HoldUp:
    """A group that held the field up: every hole where it did, and the worst of them.

    ``worst`` is the hole with the most groups held (then the most minutes, then the
    earliest); ``held`` every group it held at any hole, in the order first held.
    """

    group: str
    holes: tuple[HeldAtHole, ...]
    worst: HeldAtHole
    held: tuple[str, ...]

    @property
    def groups(self) -> int:
        """Return how many groups it held at its worst hole."""
        return len(self.worst.behind)

    @property
    def minutes(self) -> timedelta:
        """Return the group-minutes held at its worst hole."""
        return self.worst.minutes

    @property
    def latest(self) -> HeldAtHole:
        """Return the last hole (in its playing order) where it held the field up."""
        return self.holes[-1]


def held_up(
    plan: FieldPlan, order: HoleOrder, rows: Mapping[str, Sequence[HoleRow]]
) -> tuple[HoldUp, ...]:
    """Return every group that held the field up, the most groups held first.

    ``rows`` holds each group's holes as :func:`pace.rules.report.holes.group_holes` judged
    them. Ties are broken by the minutes held, then by draw order.
    """
    judged: dict[tuple[str, int], HoleRow] = {}
    for group, group_rows in rows.items():
        for r in group_rows:
            if r.logged is not None:
                judged[(group, r.hole)] = r
    found: dict[str, list[HeldAtHole]] = {}
    for hole in {h for p in plan.groups for h in p.order}:
        sequence = order.sequence(hole)
        for i, (_, _, group) in enumerate(sequence):
            row = judged.get((group, hole))
            if row is None or row.status is not Status.OUT_OF_POSITION or row.over is None:
                continue
            behind = []
            for _, _, follower in sequence[i + 1 :]:
                f = judged.get((follower, hole))
                if f is None or f.status is not Status.BEHIND or f.over is None:
                    break
                behind.append((follower, f.over))
            if behind:
                assert row.logged is not None
                found.setdefault(group, []).append(
                    HeldAtHole(hole, row.position, row.logged, row.over, tuple(behind))
                )
    draw = {p.id: i for i, p in enumerate(plan.groups)}
    out = []
    for group, holes in found.items():
        holes.sort(key=lambda h: h.position)
        worst = max(holes, key=lambda h: (len(h.behind), h.minutes, -h.position))
        held: dict[str, None] = {}
        for h in holes:
            held.update((g, None) for g, _ in h.behind)
        out.append(HoldUp(group, tuple(holes), worst, tuple(held)))
    out.sort(key=lambda u: (-u.groups, -u.minutes, draw.get(u.group, 0)))
    return tuple(out)


def ongoing(holdup: HoldUp, holes_completed: int, finished: bool) -> bool:
    """Return whether the hold-up is still going on: at the group's last two holes logged.

    A group that has finished holds nobody up any more.

    >>> from datetime import UTC
    >>> h = HeldAtHole(7, 7, datetime(2025, 6, 14, 10, 0, tzinfo=UTC), ZERO, (("2", ZERO),))
    >>> u = HoldUp("1", (h,), h, ("2",))
    >>> ongoing(u, 8, False), ongoing(u, 9, False), ongoing(u, 8, True)
    (True, False, False)
    """
    return not finished and holdup.latest.position >= holes_completed - 1

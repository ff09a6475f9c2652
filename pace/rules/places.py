"""Where a group stands on its hole, from its last kept fix (issue 48; docs/positions.md,
"The picture").

Pure functions of the course's shape (:class:`pace.rules.positions.CourseShape`), a group's
order of holes, the hole in play (its tracker's, or the completions counted: whichever is
further on) and one fix: no store, no clock (``now`` is an argument).

**The place** is the hole, the phase (on the tee, along the hole, on the green, walking to the
tee), the metres along the hole's line of play from its tee (negative while still walking to
it) and the fix's instant. The hole comes from the group's sequence, as the tracker's does: a
fix is read against the hole in play and, once clear of that hole's corridor and green (by
twice its accuracy: a tee often lies 10-30 m from the green before it), the walk to the next
tee and the next hole (the group has left the green; its tracker confirms it a
fix or two later). Nothing here is a coordinate: what the pages are told is the hole, the phase,
the metres left to the green (rounded to :data:`ROUND_M`) and the share of the hole's line
walked, which the map turns into a point on the hole's own line.

**Stale**: a place older than ``stale`` (5 minutes by default) is not where the group stands;
a page shows it as "last seen" and judges no distance on it (a locked phone is a gap, never a
group standing still).

**Behind the group ahead**: both places read along the group's own route (its holes' lines and
the straight walks from each green to the next tee), when both are fresh and the group ahead
is on a hole of the group's own order at or after its own; otherwise nothing.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pace.rules import positions as posmod
from pace.rules.position import GroupPlan

TEE = "tee"
HOLE = "hole"
GREEN = "green"
WALKING = "walking"
PHASES = (TEE, HOLE, GREEN, WALKING)

#: on the tee: within this of the tee's centre (a tee box and the players waiting beside it)
TEE_M = 20.0
#: on the green: within its radius and this
GREEN_M = 5.0
#: a fix puts the group past its hole only this many of its accuracies (at least
#: :data:`MIN_ACCURACY_M`) clear of the green's edge: the next tee often lies 10-30 m from the
#: green, and a fix on the green may be 15 m off
CLEAR_K = 2.0
MIN_ACCURACY_M = 5.0
#: the distances the pages are told are rounded to this (a phone's fix is 5-25 m off)
ROUND_M = 10
#: a place older than this is "last seen", never where the group stands
STALE = timedelta(minutes=5)

XY = tuple[float, float]


@dataclass(frozen=True)
class Place:
    """Where a group stood at ``at`` (its last kept fix): on ``hole`` (the ``index``-th of its
    order), in ``phase``, ``along`` metres down the hole's line of play from its tee (negative:
    metres still to walk to the tee), the line ``length`` metres long."""

    hole: int
    index: int
    phase: str
    along: float
    length: float
    at: datetime

    @property
    def to_green(self) -> int:
        """Return the metres left to the green along the line of play, rounded to
        :data:`ROUND_M` (0 on the green).

        >>> from datetime import UTC
        >>> Place(7, 6, HOLE, 126.0, 340.0, datetime(2026, 6, 6, tzinfo=UTC)).to_green
        210
        """
        if self.phase == GREEN:
            return 0
        return rounded(max(0.0, self.length - max(0.0, self.along)))

    @property
    def fraction(self) -> float:
        """Return the share of the hole's line walked, 0 (its tee) to 1 (its green)."""
        if self.phase == GREEN:
            return 1.0
        if self.length <= 0:
            return 0.0
        return min(1.0, max(0.0, self.along / self.length))

    def age(self, now: datetime) -> timedelta:
        """Return how old the place is at ``now`` (never negative)."""
        return max(timedelta(0), now - self.at)

    def is_stale(self, now: datetime, stale: timedelta = STALE) -> bool:
        """Return whether the place is older than ``stale`` at ``now``: only "last seen"."""
        return self.age(now) > stale


def rounded(metres: float) -> int:
    """Return ``metres`` rounded to :data:`ROUND_M`.

    >>> rounded(214.9), rounded(215.0), rounded(4)
    (210, 220, 0)
    """
    return int(math.floor(metres / ROUND_M + 0.5)) * ROUND_M


def _dist(a: XY, b: XY) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _on_green(p: XY, h: posmod.HoleShape) -> bool:
    return _dist(p, h.green) <= h.green_r + GREEN_M


def _in_corridor(p: XY, h: posmod.HoleShape) -> bool:
    """Return whether ``p`` lies in the hole's corridor (its fairway and rough) or on its green."""
    line = h.fairway if len(h.fairway) > 1 else h.line
    return posmod._polyline(p, line)[0] <= posmod.FAIRWAY_M or _on_green(p, h)


def _walk(p: XY, green: posmod.HoleShape, tee: XY) -> float:
    """Return the distance from ``p`` to the walk from ``green``'s edge to ``tee``."""
    d = _dist(green.green, tee)
    f = 0.0 if d == 0 else min(1.0, green.green_r / d)
    edge = (green.green[0] + f * (tee[0] - green.green[0]),
            green.green[1] + f * (tee[1] - green.green[1]))  # fmt: skip
    return posmod._seg(p, edge, tee)[0]


def _has_left(p: XY, accuracy: float, here: posmod.HoleShape, nxt: posmod.HoleShape) -> bool:
    """Return whether a fix at ``p`` puts the group past the hole ``here``: clear of its
    corridor, clear of its green by :data:`CLEAR_K` of the fix's accuracy, and on the walk to
    the next tee, at that tee or down the next hole."""
    clear = CLEAR_K * max(accuracy, MIN_ACCURACY_M)
    if _in_corridor(p, here) or _dist(p, here.green) - here.green_r <= clear:
        return False
    return (_walk(p, here, nxt.tee) <= posmod.WALK_M or _dist(p, nxt.tee) <= TEE_M
            or _in_corridor(p, nxt))  # fmt: skip


def place_of(
    shape: posmod.CourseShape, order: Sequence[int], k: int, sample: posmod.Sample
) -> Place | None:
    """Return where ``sample`` puts a group playing ``order``, the ``k``-th hole of it in play
    (0-based); None once it has played them all, or when the hole is not on the map."""
    n = len(order)
    if k >= n or order[k] not in shape.holes:
        return None
    p = shape.frame.xy(sample.lon, sample.lat)
    here = shape.holes[order[k]]
    if k + 1 < n and order[k + 1] in shape.holes and not _on_green(p, here):
        nxt = shape.holes[order[k + 1]]
        if _has_left(p, sample.accuracy, here, nxt):
            k, here = k + 1, nxt
    h = here
    at = sample.at
    if _on_green(p, h):
        return Place(h.number, k, GREEN, h.length, h.length, at)
    to_tee = _dist(p, h.tee)
    if to_tee <= TEE_M:
        return Place(h.number, k, TEE, 0.0, h.length, at)
    _, along = posmod._polyline(p, h.line)
    if not _in_corridor(p, h) and along < TEE_M:
        # behind or beside the tee, off the hole: still on the way to it
        return Place(h.number, k, WALKING, -to_tee, h.length, at)
    return Place(h.number, k, HOLE, along, h.length, at)


def _route(shape: posmod.CourseShape, order: Sequence[int], index: int, along: float) -> float:
    """Return the metres along a group's route (its holes' lines and the walks from each green
    to the next tee) from its first tee to ``along`` metres down its ``index``-th hole."""
    done = 0.0
    for i in range(index):
        h = shape.holes[order[i]]
        done += h.length + _dist(h.green, shape.holes[order[i + 1]].tee)
    return done + along


def distance_behind(
    shape: posmod.CourseShape,
    order: Sequence[int],
    behind: Place,
    ahead: Place,
    now: datetime,
    stale: timedelta = STALE,
) -> int | None:
    """Return how many metres (rounded to :data:`ROUND_M`) the group at ``behind``, playing
    ``order``, is behind the group at ``ahead``, along its route; None when either place is
    stale at ``now``, the group ahead is on no hole of ``order`` at or after the group's own,
    or it stands behind it (nothing is invented)."""
    if behind.is_stale(now, stale) or ahead.is_stale(now, stale):
        return None
    if any(h not in shape.holes for h in order):
        return None
    j = next((i for i in range(behind.index, len(order)) if order[i] == ahead.hole), None)
    if j is None:
        return None
    metres = _route(shape, order, j, ahead.along) - _route(shape, order, behind.index, behind.along)
    if metres < 0:
        return None
    return rounded(metres)


def group_ahead(
    plans: Sequence[GroupPlan], group: str, withdrawn: Collection[str] = ()
) -> str | None:
    """Return the group starting just before ``group`` off the same tee (the start order), the
    groups that withdrew left out; None for the first off its tee (and in a shotgun, where no
    other group starts on its hole)."""
    me = next((p for p in plans if p.id == group), None)
    if me is None or not me.order:
        return None
    before = [p for p in plans if p.id != group and p.id not in withdrawn and p.order
              and p.order[0] == me.order[0] and p.rank < me.rank]  # fmt: skip
    return max(before, key=lambda p: p.rank).id if before else None

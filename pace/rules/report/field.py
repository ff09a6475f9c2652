"""The field's summary after the round: times against the allotment, bands, bottlenecks, sirens."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pace.rules import groupclock
from pace.rules.model import Course, Suspension
from pace.rules.report.holes import HoleRow

ZERO = timedelta(0)
BAND = timedelta(minutes=10)


@dataclass(frozen=True)
class Band:
    """Groups whose round ended more than ``low`` and at most ``high`` over the allotment."""

    low: timedelta
    high: timedelta
    groups: tuple[str, ...]


def bands(overs: Mapping[str, timedelta], width: timedelta = BAND) -> tuple[Band, ...]:
    """Return the finishing times over the allotment in bands of ``width``, lowest first.

    A band holds the times above its low end and up to its high end, so exactly on the
    allotment falls in the band ending at 0 (not over time, docs/rules.md §3). Empty bands between
    the lowest and the highest are kept, so the bands read as a histogram.

    >>> m = timedelta(minutes=1)
    >>> [(b.low // m, b.high // m, b.groups) for b in bands({"1": 0 * m, "2": 12 * m})]
    [(-10, 0, ('1',)), (0, 10, ()), (10, 20, ('2',))]
    """
    if not overs:
        return ()
    index = {g: math.ceil(o / width) for g, o in overs.items()}
    lo, hi = min(index.values()), max(index.values())
    return tuple(
        Band((k - 1) * width, k * width, tuple(g for g, i in index.items() if i == k))
        for k in range(lo, hi + 1)
    )


@dataclass(frozen=True)
class HoleStat:
    """One hole of the course across the field (averages over the groups logged there).

    ``over`` is the average time over the cumulative allotment at the completion;
    ``hole_over`` the average time on the hole itself beyond its allotment; ``gap`` the
    average gap to the group ahead; ``gap_change`` the average change of a group's gap from
    its previous hole (negative: gaps compress, groups close up on the one ahead).
    """

    hole: int
    par: int
    groups: int
    over: timedelta | None
    hole_over: timedelta | None
    gap: timedelta | None
    gap_change: timedelta | None


def _mean(values: Sequence[timedelta]) -> timedelta | None:
    return sum(values, ZERO) / len(values) if values else None


def hole_stats(course: Course, rows: Mapping[str, Sequence[HoleRow]]) -> tuple[HoleStat, ...]:
    """Return every hole's averages across the field, in course order."""
    overs: dict[int, list[timedelta]] = defaultdict(list)
    hole_overs: dict[int, list[timedelta]] = defaultdict(list)
    gaps: dict[int, list[timedelta]] = defaultdict(list)
    changes: dict[int, list[timedelta]] = defaultdict(list)
    for group_rows in rows.values():
        previous_gap: timedelta | None = None
        for r in group_rows:
            if r.logged is None:
                previous_gap = None
                continue
            if r.over is not None:
                overs[r.hole].append(r.over)
            if r.hole_over is not None:
                hole_overs[r.hole].append(r.hole_over)
            if r.gap is not None:
                gaps[r.hole].append(r.gap)
                if previous_gap is not None:
                    changes[r.hole].append(r.gap - previous_gap)
            previous_gap = r.gap
    return tuple(
        HoleStat(
            h.number,
            h.par,
            len(overs[h.number]),
            _mean(overs[h.number]),
            _mean(hole_overs[h.number]),
            _mean(gaps[h.number]),
            _mean(changes[h.number]),
        )
        for h in course.holes
    )


def bottlenecks(stats: Sequence[HoleStat], count: int = 3) -> tuple[int, ...]:
    """Return the holes that cost the most time beyond their own allotment (at most ``count``).

    Only holes where the groups took longer than allotted on average count; the worst first,
    and on a tie the one where gaps compressed the most.
    """
    slow = [s for s in stats if s.hole_over is not None and s.hole_over > ZERO]
    slow.sort(key=lambda s: (-(s.hole_over or ZERO), s.gap_change or ZERO, s.hole))
    return tuple(s.hole for s in slow[:count])


@dataclass(frozen=True)
class Stoppage:
    """A stop of play by siren (docs/rules.md §8): when, how long, and the groups on the course."""

    kind: str
    start: datetime
    end: datetime | None
    duration: timedelta
    groups: tuple[str, ...]


def stoppages(
    suspensions: Sequence[Suspension],
    now: datetime,
    on_course: Mapping[str, tuple[datetime, datetime | None]],
) -> tuple[Stoppage, ...]:
    """Return the stops of play up to ``now``; ``on_course`` maps a group to (start, end)."""
    out = []
    for s in sorted(suspensions, key=lambda s: s.start):
        if s.start > now:
            continue
        end = s.end if s.end is not None and s.end <= now else None
        groups = tuple(
            g for g, (a, b) in on_course.items() if a <= s.start and (b is None or b > s.start)
        )
        out.append(Stoppage(s.kind, s.start, end, (end or now) - s.start, groups))
    return tuple(out)


def stopped_total(spans: Sequence[tuple[datetime, datetime | None]], now: datetime) -> timedelta:
    """Return how long play was stopped in all, overlapping sirens counted once."""
    return sum(((e or now) - s for s, e in spans), ZERO)


def stopped_in(
    spans: Sequence[tuple[datetime, datetime | None]], start: datetime, end: datetime
) -> timedelta:
    """Return the siren time between ``start`` and ``end`` (a group's time on the course)."""
    return groupclock.stopped_between(spans, start, end) if end > start else ZERO

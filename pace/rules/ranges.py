"""The 80 % ranges of the projections, from a course's history (issue 30 part 3).

The projected finish (docs/rules.md §3) is the last completion plus the allotment of the holes
left: a rule. Its range comes from the course's finished rounds (:mod:`pace.rules.calibration`
reads them): how the time the remaining holes took spread around their typical time
(:func:`spread`), which gives the finish (:func:`finish_range`) and the hole a group is first
over time at (:func:`over_hole_range`) a range; docs/calibration.md, "Projections with a range".
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pace.rules import allotted
from pace.rules.calibration import History, quantile
from pace.rules.model import Course, PaceSettings

ZERO = timedelta(0)


@dataclass(frozen=True)
class Spread:
    """How the remaining holes' time spreads around their typical time, from the history.

    ``typical`` maps (column, hole) to the median play time of the hole (the hole alone,
    every size pooled, where the column has too few); ``ratios`` maps a number of holes
    left to the 10 %, 50 % and 90 % quantiles of (time the group took on them) / (their
    typical time): the 80 % range is the 10 %–90 % one. ``samples`` counts the ratios.
    """

    typical: Mapping[tuple[int, int], timedelta]
    ratios: Mapping[int, tuple[float, float, float]]
    samples: Mapping[int, int]
    settings: PaceSettings = field(default_factory=PaceSettings)

    def parts(
        self, course: Course, order: Sequence[int], size: int, first: bool
    ) -> list[timedelta]:
        """Return the typical time of each hole of ``order``, walk included (``first``: the first
        of them is the group's starting hole, which has no walk)."""
        ps = self.settings
        column = allotted.column_for(size, ps)
        holes = {h.number: h for h in course.holes}
        out = []
        for i, number in enumerate(order):
            h = holes[number]
            play = self.typical.get((column, number))
            if play is None:
                play = self.typical.get((0, number), allotted.hole_allotment(h, size, ps))
            out.append(play + (ZERO if (i == 0 and first) else h.walk))
        return out

    def base(self, course: Course, order: Sequence[int], size: int, first: bool) -> timedelta:
        """Return the typical time of the holes ``order`` (:meth:`parts` added up)."""
        return sum(self.parts(course, order, size, first), ZERO)

    def ratio(self, left: int) -> tuple[float, float, float] | None:
        """Return the quantiles for ``left`` holes left, or the nearest number that has them."""
        if not self.ratios:
            return None
        if left in self.ratios:
            return self.ratios[left]
        nearest = min(self.ratios, key=lambda n: (abs(n - left), n))
        return self.ratios[nearest]


def spread(
    course: Course, h: History, settings: PaceSettings | None = None, min_samples: int = 10
) -> Spread:
    """Return the spread of the remaining holes' time over the runs of ``h``.

    Each finished run gives, for each position ``k`` it logged, one ratio: the time its
    last ``n - k`` holes took (stops of play taken out) over their typical time. A number
    of holes left with fewer than ``min_samples`` ratios is left out (:meth:`Spread.ratio`
    takes the nearest one).
    """
    ps = settings or PaceSettings()
    by: dict[tuple[int, int], list[float]] = defaultdict(list)
    for t in h.times:
        if course.has_hole(t.hole):
            by[(allotted.column_for(t.size, ps), t.hole)].append(t.play.total_seconds())
            by[(0, t.hole)].append(t.play.total_seconds())
    typical = {k: timedelta(seconds=statistics.median(v)) for k, v in by.items() if len(v) >= 3}
    draft = Spread(typical, {}, {}, ps)
    n = len(course.holes)
    ratios: dict[int, list[float]] = defaultdict(list)
    for run in h.runs:
        if not run.finished or len(run.order) != n:
            continue
        # the typical time of the holes after each position, from the last one back
        parts = draft.parts(course, run.order, run.size, True)
        after = [ZERO] * (n + 1)
        for k in range(n - 1, -1, -1):
            after[k] = after[k + 1] + parts[k]
        for k, done in run.net.items():
            if k < n and after[k] > ZERO:
                ratios[n - k].append((run.net[n] - done) / after[k])
    quantiles = {
        left: (quantile(v, 0.1), quantile(v, 0.5), quantile(v, 0.9))
        for left, v in ratios.items()
        if len(v) >= min_samples
    }
    samples = {left: len(v) for left, v in ratios.items() if left in quantiles}
    return Spread(typical, quantiles, samples, ps)


def finish_range(
    s: Spread,
    course: Course,
    order: Sequence[int],
    size: int,
    k: int,
    anchor: datetime,
    now: datetime,
) -> tuple[datetime, datetime] | None:
    """Return the 80 % range of a group's finish, ``k`` holes of ``order`` done at ``anchor``.

    The range is the typical time of the holes left times the 10 % and 90 % ratios of the
    history; neither end is before ``now`` (the group has not finished yet). None: the
    history has no ratio, or nothing is left to play. Future stops of play are not in it.
    """
    left = len(order) - k
    q = s.ratio(left)
    if left <= 0 or q is None:
        return None
    base = s.base(course, order[k:], size, k == 0)
    lo, hi = anchor + base * q[0], anchor + base * q[2]
    return max(lo, now), max(hi, now)


def over_hole_range(
    s: Spread,
    course: Course,
    order: Sequence[int],
    size: int,
    k: int,
    elapsed_at_anchor: timedelta,
    cumulative: Sequence[timedelta],
) -> tuple[int | None, int | None] | None:
    """Return the range of the hole a group is first over time at, from ``k`` holes done.

    ``elapsed_at_anchor`` is the group's elapsed time (docs/rules.md §2) at its ``k``-th
    completion, ``cumulative`` its cumulative allotment after 0..N holes. The first element
    is the earliest hole (the slow end of the 80 % range), the second the latest (the fast
    end); None in either place: not over time by the last hole at that end. None: no ratio
    in the history.
    """
    if s.ratio(1) is None:
        return None

    # the typical time of the holes left, hole by hole, added up once
    base = ZERO
    bases = []
    for part in s.parts(course, order[k:], size, k == 0):
        base += part
        bases.append(base)

    def first_over(which: int) -> int | None:
        for j, b in enumerate(bases, start=k + 1):
            q = s.ratio(j - k)
            assert q is not None
            if elapsed_at_anchor + b * q[which] > cumulative[j]:
                return order[j - 1]
        return None

    return first_over(2), first_over(0)

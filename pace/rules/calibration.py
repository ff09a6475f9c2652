"""Time pars from the course's own history, and the ranges of the projections (issue 30).

Pure: the finished rounds' setups and facts in, the statistics and a suggestion out
(docs/calibration.md). Three things are read from the history:

- the time each group took per hole (:func:`hole_times`), kept only where the log says it
  plainly: both ends of the interval logged, in the group's playing order, no stop of play
  and no time credit inside it, no estimated completion at either end;
- per hole and group size, the count, the median and the 80th percentile of those times,
  against the configured allotment, and a suggested allotment per hole that sums to a
  target round and keeps each hole's share of the observed time (:func:`calibrate`);
- the runs (:class:`GroupRun`) from which :mod:`pace.rules.ranges` draws the spread of the
  remaining holes' time that gives the projections their 80 % range.

Nothing here reads a clock: every instant comes from the facts passed in.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from pace.rules import allotted, groupclock
from pace.rules.model import (
    Course,
    Group,
    HoleCompletion,
    PaceSettings,
    RoundFacts,
    RoundSetup,
)

ZERO = timedelta(0)
MINUTE = timedelta(minutes=1)

#: why an interval was left out of the statistics (docs/calibration.md, "What is counted")
MISSING = "missing"  # one end not logged: the interval would span two holes
OUT_OF_ORDER = "out_of_order"  # the hole completed before the one played before it
STOPPED = "stopped"  # a stop of play (siren) overlaps the interval
CREDITED = "credited"  # a referee granted the group time inside the interval
ESTIMATED = "estimated"  # an end is an estimated completion, not a tap
SKIPS = (MISSING, OUT_OF_ORDER, STOPPED, CREDITED, ESTIMATED)


@dataclass(frozen=True)
class HoleTime:
    """The time one group took on one hole, walk to it included when it was not its first.

    ``play`` is that time less the hole's walk (the part the course's ``allotted`` column
    stands for, docs/rules.md §1).
    """

    round: str
    group: str
    hole: int
    size: int
    position: int  # 1-based, in the group's playing order
    taken: timedelta
    play: timedelta


@dataclass(frozen=True)
class GroupRun:
    """One group's round as the history keeps it: its completions net of stops of play.

    ``net`` maps a position in the playing order (0: the start) to the group's time from
    its start to that completion, less the stops of play (docs/rules.md §2, without the
    credits: what the group took, not what it was allowed). A position whose completion
    is missing, estimated or out of order is absent.
    """

    round: str
    group: str
    size: int
    order: tuple[int, ...]
    net: Mapping[int, timedelta]

    @property
    def finished(self) -> bool:
        """Return whether the group's last hole is logged (its whole round is known)."""
        return len(self.order) in self.net


@dataclass(frozen=True)
class History:
    """What the history of a course holds: the clean hole times, every run, what was left out."""

    times: tuple[HoleTime, ...]
    runs: tuple[GroupRun, ...]
    skipped: Mapping[str, int]


def is_estimated(c: HoleCompletion) -> bool:
    """Return whether a completion is an estimate rather than a tap (issue 30 part 1).

    The estimates carry an ``estimated`` flag where the log has them; a completion without
    the attribute is a tap.
    """
    return bool(getattr(c, "estimated", False))


def _overlaps(spans: Sequence[tuple[datetime, datetime | None]], a: datetime, b: datetime) -> bool:
    return any(s < b and (e is None or e > a) for s, e in spans)


def group_history(
    round: str,
    setup: RoundSetup,
    facts: RoundFacts,
    group: Group,
    end: datetime,
    mine: Sequence[HoleCompletion] | None = None,
) -> tuple[list[HoleTime], GroupRun, dict[str, int]]:
    """Return one group's clean hole times, its run and the intervals it left out, and why.

    ``end`` is an instant after the round (the stops of play are read as known then);
    ``mine``, the group's completions when the caller has them apart (default: from ``facts``).
    """
    course = setup.course
    order = allotted.playing_order(course, group.tee)
    spans = groupclock.merge_suspensions(facts.suspensions, end)
    if mine is None:
        mine = [c for c in facts.completions if c.group == group.id]
    done = {c.hole: c for c in mine}
    credits = [c.at for c in facts.credits if c.group == group.id]
    # each position's completion, or why it cannot bound an interval (0: the start)
    state: dict[int, datetime | str] = {0: group.start}
    logged = [(i, done[h].at) for i, h in enumerate(order, start=1) if h in done]
    # the latest instant logged before each, and the earliest after: one pass each way
    befores, latest = [], group.start
    for _, at in logged:
        befores.append(latest)
        latest = max(latest, at)
    afters: list[datetime | None] = []
    earliest: datetime | None = None
    for _, at in reversed(logged):
        afters.append(earliest)
        earliest = at if earliest is None else min(earliest, at)
    afters.reverse()
    for j, (i, at) in enumerate(logged):
        before, after = befores[j], afters[j]
        if at <= before or (after is not None and at >= after):
            # out of the playing order: which of the two instants is wrong, the log cannot say
            state[i] = OUT_OF_ORDER
        elif is_estimated(done[order[i - 1]]):
            state[i] = ESTIMATED
        else:
            state[i] = at
    times: list[HoleTime] = []
    skipped: dict[str, int] = defaultdict(int)
    net: dict[int, timedelta] = {}
    for i in range(len(order) + 1):
        fin = state.get(i, MISSING)
        if isinstance(fin, datetime):
            net[i] = fin - group.start - groupclock.stopped_between(spans, group.start, fin)
        if i == 0 or (i not in state and (i - 1) not in state):
            continue  # a hole with no fact at either end is not an interval of the log
        began = state.get(i - 1, MISSING)
        if not isinstance(fin, datetime) or not isinstance(began, datetime):
            bad = fin if isinstance(fin, str) and fin != MISSING else began
            skipped[bad if isinstance(bad, str) else MISSING] += 1
        elif _overlaps(spans, began, fin):
            skipped[STOPPED] += 1
        elif any(began < t <= fin for t in credits):
            skipped[CREDITED] += 1
        else:
            hole = order[i - 1]
            taken = fin - began
            walk = course.hole(hole).walk if i > 1 else ZERO
            size = group.size_at(began)
            times.append(HoleTime(round, group.id, hole, size, i, taken, taken - walk))
    run = GroupRun(round, group.id, group.size, order, net)
    return times, run, dict(skipped)


def history(rounds: Iterable[tuple[str, RoundSetup, RoundFacts]]) -> History:
    """Return the clean hole times and the runs of every group of the finished ``rounds``.

    A withdrawn group's run ends where it withdrew; its holes before count.
    """
    times: list[HoleTime] = []
    runs: list[GroupRun] = []
    skipped: dict[str, int] = dict.fromkeys(SKIPS, 0)
    for name, setup, facts in rounds:
        end = max([c.at for c in facts.completions] + [g.start for g in setup.groups])
        end = max([end] + [s.end or s.start for s in facts.suspensions])
        by_group: dict[str, list[HoleCompletion]] = defaultdict(list)
        for c in facts.completions:
            by_group[c.group].append(c)
        for g in setup.groups:
            t, run, why = group_history(name, setup, facts, g, end, by_group[g.id])
            times.extend(t)
            runs.append(run)
            for k, v in why.items():
                skipped[k] += v
    return History(tuple(times), tuple(runs), skipped)


def quantile(values: Sequence[float], q: float) -> float:
    """Return the ``q`` quantile of ``values`` by linear interpolation between order statistics.

    >>> quantile([1, 2, 3, 4, 5], 0.8), quantile([10], 0.8)
    (4.2, 10.0)
    """
    if not values:
        raise ValueError("no values to take a quantile of")
    s = sorted(values)
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return float(s[lo] + (s[hi] - s[lo]) * (pos - lo))


@dataclass(frozen=True)
class HoleStats:
    """One hole for one group-size column: the observed play times against the allotment."""

    hole: int
    column: int
    count: int
    median: timedelta | None
    p80: timedelta | None
    allotted: timedelta
    suggested: timedelta | None = None


@dataclass(frozen=True)
class NoSuggestion:
    """Why a column has no suggestion: a ``code`` and the figures it names, which the console
    says in its language (issue 47); ``str()`` is the English ``pace calibrate`` prints.

    >>> str(NoSuggestion("thin", holes=(3, 7), count=5))
    'fewer than 5 clean times on holes 3, 7'
    """

    #: ``thin`` (too few clean times on some holes), ``unscaled`` (the target's size has no
    #: history to scale from), ``no_round`` (no whole round at this size), ``no_play_time``
    #: (the target leaves no time once the walks are taken)
    code: str
    holes: tuple[int, ...] = ()
    count: int = 0
    size: int | None = None
    goal: timedelta | None = None
    walks: timedelta | None = None

    def __str__(self) -> str:
        if self.code == "thin":
            holes = ", ".join(map(str, self.holes))
            return f"fewer than {self.count} clean times on holes {holes}"
        if self.code == "unscaled":
            return (f"the target is for groups of {self.size}, and the history has none to "
                    "scale it from")  # fmt: skip
        if self.code == "no_round":
            return "no whole round observed at this size to size the suggestion"
        return (f"the round {self.goal} leaves no time to play once the walks ({self.walks}) "
                "are taken")  # fmt: skip


@dataclass(frozen=True)
class Column:
    """A group-size column of the course: each hole's statistics and the round they add to.

    ``observed_round`` is the median of the whole rounds played at this size (start to the
    last hole, stops of play taken out); ``target`` the round the suggestion sums to (walks
    included, as the published total, docs/rules.md §1); ``suggested`` is empty when the
    history is too thin for a suggestion (``reason`` says why; ``why``, its code and figures).
    """

    column: int
    holes: tuple[HoleStats, ...]
    rounds: int
    observed_round: timedelta | None
    allotted_round: timedelta
    target: timedelta | None
    reason: str | None = None
    why: NoSuggestion | None = None

    @property
    def suggested(self) -> dict[int, timedelta]:
        """Return the suggested allotment of each hole (play time, walk not included)."""
        return {h.hole: h.suggested for h in self.holes if h.suggested is not None}


@dataclass(frozen=True)
class Calibration:
    """The calibration of a course: its columns, the rounds read and what was left out."""

    course: Course
    columns: tuple[Column, ...]
    rounds: tuple[str, ...]
    skipped: Mapping[str, int] = field(default_factory=dict)
    counted: int = 0

    def column(self, size: int) -> Column:
        """Return the column of group size ``size``; raise ``KeyError`` if none was observed."""
        for c in self.columns:
            if c.column == size:
                return c
        raise KeyError(size)

    def suggested_course(self) -> Course:
        """Return the course with the suggested allotments in its ``allotted`` columns.

        Columns without a suggestion keep what the course had.
        """
        holes = []
        for h in self.course.holes:
            given = dict(h.allotted)
            for c in self.columns:
                s = c.suggested.get(h.number)
                if s is not None:
                    given[c.column] = s
            holes.append(replace(h, allotted=dict(sorted(given.items()))))
        return replace(self.course, holes=tuple(holes))


def largest_remainder(weights: Sequence[float], total: int) -> list[int]:
    """Return whole numbers in proportion to ``weights`` that add up to ``total`` exactly.

    Each gets the floor of its exact share; the units left go to the largest remainders
    (the earlier one on a tie), so no part is ever more than one unit from its exact share.

    >>> largest_remainder([1, 1, 1], 10)
    [4, 3, 3]
    >>> sum(largest_remainder([0.3, 2.7, 5.5], 17))
    17
    """
    whole = sum(weights)
    if whole <= 0 or total < 0:
        raise ValueError(f"cannot share {total!r} in proportion to {list(weights)!r}")
    exact = [w * total / whole for w in weights]
    parts = [math.floor(x) for x in exact]
    left = total - sum(parts)
    ranked = sorted(range(len(weights)), key=lambda i: (-(exact[i] - parts[i]), i))
    for i in ranked[:left]:
        parts[i] += 1
    return parts


def share_out(
    medians: Mapping[int, timedelta], total: timedelta, unit: timedelta
) -> dict[int, timedelta]:
    """Return each hole's part of ``total`` in whole ``unit``s, in proportion to ``medians``.

    ``total`` must be a whole number of units; the parts add up to it exactly.

    >>> m = timedelta(minutes=1)
    >>> parts = share_out({1: 10 * m, 2: 20 * m}, 31 * m, m)
    >>> [p // m for p in parts.values()]
    [10, 21]
    """
    units, rest = divmod(total, unit)
    if rest:
        raise ValueError(f"total {total} is not a whole number of {unit}")
    holes = list(medians)
    parts = largest_remainder([medians[h] / unit for h in holes], units)
    return {h: p * unit for h, p in zip(holes, parts, strict=True)}


def _median(values: Sequence[timedelta]) -> timedelta:
    return timedelta(seconds=statistics.median(v.total_seconds() for v in values))


def _p80(values: Sequence[timedelta]) -> timedelta:
    return timedelta(seconds=round(quantile([v.total_seconds() for v in values], 0.8), 3))


def _walks(course: Course) -> timedelta:
    # the published round starts on the course's first hole, whose walk is not added
    return sum((h.walk for h in course.holes[1:]), ZERO)


def calibrate(
    course: Course,
    h: History,
    settings: PaceSettings | None = None,
    *,
    rounds: Sequence[str] = (),
    target: timedelta | None = None,
    size: int | None = None,
    min_count: int = 5,
) -> Calibration:
    """Return the course's statistics per hole and column and the suggested allotments.

    ``target`` is the round the suggestion of the reference column (``size``; default the
    group size most played in the history) sums to, walks included; the other columns keep
    their observed ratio to it. Without it, each column sums to its own observed median
    round. A hole with fewer than ``min_count`` clean times leaves its column without a
    suggestion. The suggestion is in whole minutes when the part left for play (the round
    less the walks) is a whole number of minutes, else in whole seconds.
    """
    pace_settings = settings or PaceSettings()
    by: dict[tuple[int, int], list[timedelta]] = defaultdict(list)
    for t in h.times:
        if course.has_hole(t.hole):
            by[(allotted.column_for(t.size, pace_settings), t.hole)].append(t.play)
    whole: dict[int, list[timedelta]] = defaultdict(list)
    n = len(course.holes)
    for run in h.runs:
        if run.finished and len(run.order) == n:
            whole[allotted.column_for(run.size, pace_settings)].append(run.net[n])
    columns = sorted({c for c, _ in by} | set(whole))
    if not columns:
        return Calibration(course, (), tuple(rounds), h.skipped, 0)
    played = {c: sum(len(v) for (cc, _), v in by.items() if cc == c) for c in columns}
    asked = None if size is None else allotted.column_for(size, pace_settings)
    ref = asked if asked is not None else max(columns, key=lambda c: (played[c], c))
    observed = {c: _median(whole[c]) if whole[c] else None for c in columns}
    walks = _walks(course)
    out = []
    for c in columns:
        goal = _goal(c, ref, target, observed)
        stats = []
        for hole in course.holes:
            values = by.get((c, hole.number), [])
            stats.append(
                HoleStats(
                    hole.number,
                    c,
                    len(values),
                    _median(values) if values else None,
                    _p80(values) if values else None,
                    allotted.hole_allotment(hole, c, pace_settings),
                )
            )
        lost = ref if target is not None and ref not in columns else None
        why = _why_not(stats, goal, walks, min_count, lost)
        if why is None:
            assert goal is not None
            medians = {s.hole: s.median for s in stats if s.median is not None}
            play = goal - walks
            unit = MINUTE if not play % MINUTE else timedelta(seconds=1)
            parts = share_out(medians, play, unit)
            stats = [_with(s, parts[s.hole]) for s in stats]
        out.append(
            Column(
                c,
                tuple(stats),
                len(whole[c]),
                observed[c],
                allotted.round_allotment(course, c, pace_settings),
                goal,
                None if why is None else str(why),
                why,
            )
        )
    counted = sum(len(v) for v in by.values())
    return Calibration(course, tuple(out), tuple(rounds), h.skipped, counted)


def _with(s: HoleStats, suggested: timedelta) -> HoleStats:
    return replace(s, suggested=suggested)


def _goal(
    c: int, ref: int, target: timedelta | None, observed: Mapping[int, timedelta | None]
) -> timedelta | None:
    if target is None:
        mine = observed.get(c)
        return None if mine is None else _whole_minutes(mine)
    if c == ref:
        return target
    if ref not in observed:
        return None
    mine, theirs = observed.get(c), observed.get(ref)
    if mine is None or theirs is None or not theirs:
        return None
    return _whole_minutes(target * (mine / theirs))


def _whole_minutes(t: timedelta) -> timedelta:
    # a published round is in whole minutes (4 h 30): the target the suggestion sums to too
    return round(t / MINUTE) * MINUTE


def _why_not(
    stats: Sequence[HoleStats],
    goal: timedelta | None,
    walks: timedelta,
    min_count: int,
    ref: int | None = None,
) -> NoSuggestion | None:
    thin = [s.hole for s in stats if s.count < min_count]
    if thin:
        return NoSuggestion("thin", holes=tuple(thin), count=min_count)
    if goal is None and ref is not None:
        return NoSuggestion("unscaled", size=ref)
    if goal is None:
        return NoSuggestion("no_round")
    if goal <= walks:
        return NoSuggestion("no_play_time", goal=goal, walks=walks)
    return None

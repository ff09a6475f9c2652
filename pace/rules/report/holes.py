"""Each group's holes after the fact: logged and due instants, minutes over, gap, status.

Everything is judged as it stood at the completion (docs/rules.md §2, §3): the minutes over at a
hole count the time credits granted up to that instant, the gap is to the last group seen
completing the hole before it, and the status is the one a marshal's tap gave then.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from pace.rules import groupclock
from pace.rules.model import HoleCompletion, RoundSetup, Status, TimeCredit
from pace.rules.position import FieldPlan, GroupPlan, judge_completion

ZERO = timedelta(0)
Spans = Sequence[tuple[datetime, datetime | None]]


class HoleOrder:
    """Who completed each hole when: per hole, the completions in the order marshals saw them.

    At the same instant the group that started earlier counts as having holed out first
    (as in the live evaluation).
    """

    def __init__(self, plan: FieldPlan, completions: Iterable[HoleCompletion], now: datetime):
        seen: dict[int, list[tuple[datetime, int, str]]] = defaultdict(list)
        done: dict[str, dict[int, datetime]] = defaultdict(dict)
        reported: set[tuple[str, int]] = set()
        #: the (group, hole) whose counted completion its positions inferred (issue 48)
        positioned: set[tuple[str, int]] = set()
        for c in completions:
            p = plan.by_id.get(c.group)
            if c.at > now or p is None or c.hole not in p.position:
                continue
            seen[c.hole].append((c.at, p.rank, c.group))
            done[c.group][c.hole] = c.at
            if c.source == "group":
                reported.add((c.group, c.hole))
            elif c.source == "position":
                positioned.add((c.group, c.hole))
        #: the (group, hole) whose counted completion is the group's own report (issue 39)
        self.reported: frozenset[tuple[str, int]] = frozenset(reported)
        self.positioned: frozenset[tuple[str, int]] = frozenset(positioned)
        for entries in seen.values():
            entries.sort()
        self._seen = dict(seen)
        self.done: Mapping[str, Mapping[int, datetime]] = dict(done)

    def sequence(self, hole: int) -> Sequence[tuple[datetime, int, str]]:
        """Return the completions of ``hole``: (instant, start rank, group), first first."""
        return self._seen.get(hole, ())

    def ahead(self, hole: int, at: datetime, rank: int) -> tuple[str, datetime] | None:
        """Return the group that completed ``hole`` last before (``at``, ``rank``), and when."""
        entries = self._seen.get(hole, ())
        i = bisect_left(entries, (at, rank, ""))
        if not i:
            return None
        before_at, _, group = entries[i - 1]
        return group, before_at


@dataclass(frozen=True)
class HoleRow:
    """One hole of a group's round, in its playing order.

    ``allotted`` is this hole's allotment (its walk included, except on the starting hole)
    and ``cumulative`` the allotment up to and including it. ``due`` is when the group's
    clock reached ``cumulative`` (stops of play and time credits move it; ``None`` while play
    is still stopped then). ``over``, ``gap``, ``ahead`` and ``status`` are as judged at the
    completion; ``hole_time`` is the time spent on this hole alone (from the previous
    completion, or the start, siren stops removed), known when both ends were logged;
    ``stopped`` is the siren time within that stretch.
    """

    hole: int
    position: int
    par: int
    allotted: timedelta
    cumulative: timedelta
    due: datetime | None
    logged: datetime | None = None
    over: timedelta | None = None
    gap: timedelta | None = None
    ahead: str | None = None
    status: Status | None = None
    hole_time: timedelta | None = None
    stopped: timedelta | None = None
    credited: timedelta = ZERO
    #: who saw the completion: ``official`` (a tap), ``group`` (its own report; issue 39)
    source: str = "official"

    @property
    def hole_over(self) -> timedelta | None:
        """Return the time on this hole beyond its allotment and credits (negative: under)."""
        if self.hole_time is None:
            return None
        return self.hole_time - self.allotted - self.credited


def due_instant(
    start: datetime, allotted: timedelta, spans: Spans, credits: Sequence[TimeCredit]
) -> datetime | None:
    """Return when a group's clock reaches ``allotted``: the hole's due instant (docs/rules.md §2).

    Stops of play and time credits granted before that instant push it later; ``None`` when
    play is stopped with no resumption at that instant.

    >>> from datetime import UTC
    >>> t = datetime(2025, 6, 14, 8, 0, tzinfo=UTC)
    >>> m = timedelta(minutes=1)
    >>> due_instant(t, 30 * m, [(t + 10 * m, t + 25 * m)], []).strftime("%H:%M")
    '08:45'
    >>> due_instant(t, 30 * m, [(t + 10 * m, None)], []) is None
    True
    """
    due = start + allotted
    for _ in range(len(spans) + len(credits) + 2):
        if any(s < due and e is None for s, e in spans):
            return None
        moved = (
            start
            + allotted
            + groupclock.stopped_between(spans, start, due)
            + groupclock.credit_until(credits, due)
        )
        if moved == due:
            return due
        due = moved
    return due


def holes_key(
    p: GroupPlan, order: HoleOrder, spans: Spans, credits: Sequence[TimeCredit]
) -> tuple[object, ...]:
    """Return what :func:`group_holes` reads of ``p``'s round besides its plan: its
    completions, the group seen ahead at each and when, which are its own reports, the stops
    of play and its credits. Two equal keys (for the same plan) give the same holes."""
    done = order.done.get(p.id, {})
    return (
        tuple(done.items()),
        tuple(order.ahead(h, at, p.rank) for h, at in done.items()),
        tuple(h for h in done if (p.id, h) in order.reported),
        tuple(spans),
        tuple(credits),
    )


def group_holes(
    setup: RoundSetup,
    p: GroupPlan,
    order: HoleOrder,
    spans: Spans,
    credits: Sequence[TimeCredit],
) -> tuple[HoleRow, ...]:
    """Return the group's holes in its playing order, each judged as at its completion."""
    g = p.group
    limit = None if p.interval is None else p.interval + setup.settings.gap_margin
    done = order.done.get(g.id, {})
    rows = []
    # a group whose size changed (a player retired): each hole as its allotment stood at its
    # completion, the holes not logged as they stand at the end (docs/status.md)
    last = p.cumulative_at(done, max([g.start, *done.values(), *(t for _, t in g.retired)]))
    for i, hole in enumerate(p.order):
        pos = i + 1
        column = last
        if p.sizes and hole in done:
            column = p.cumulative_at({h: t for h, t in done.items() if t <= done[hole]}, done[hole])
        cumulative = column[pos]
        row = HoleRow(
            hole=hole,
            position=pos,
            par=setup.course.hole(hole).par,
            allotted=cumulative - column[i],
            cumulative=cumulative,
            due=due_instant(g.start, cumulative, spans, credits),
        )
        at = done.get(hole)
        if at is not None:
            row = _logged(row, p, order, spans, credits, limit, at, _previous(p, done, i))
            if (g.id, hole) in order.reported:
                row = replace(row, source="group")
            elif (g.id, hole) in order.positioned:
                row = replace(row, source="position")
        rows.append(row)
    return tuple(rows)


def _previous(p: GroupPlan, done: Mapping[int, datetime], i: int) -> datetime | None:
    if i == 0:
        return p.group.start
    return done.get(p.order[i - 1])


def _logged(
    row: HoleRow,
    p: GroupPlan,
    order: HoleOrder,
    spans: Spans,
    credits: Sequence[TimeCredit],
    limit: timedelta | None,
    at: datetime,
    previous: datetime | None,
) -> HoleRow:
    over = groupclock.elapsed(p.group.start, at, spans, credits) - row.cumulative
    seen = order.ahead(row.hole, at, p.rank)
    gap = None if seen is None else at - seen[1]
    status = judge_completion(p.lead, over, gap, limit)
    hole_time = stopped = None
    credited = ZERO
    if previous is not None and previous <= at:
        stopped = groupclock.stopped_between(spans, previous, at)
        hole_time = at - previous - stopped
        credited = sum((c.amount for c in credits if previous < c.at <= at), ZERO)
    return HoleRow(
        hole=row.hole,
        position=row.position,
        par=row.par,
        allotted=row.allotted,
        cumulative=row.cumulative,
        due=row.due,
        logged=at,
        over=over,
        gap=gap,
        ahead=None if seen is None else seen[0],
        status=status,
        hole_time=hole_time,
        stopped=stopped,
        credited=credited,
    )

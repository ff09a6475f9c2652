"""Out-of-position evaluation of a field of groups at an instant (docs/rules.md §3).

Everything is a function of the round's setup, its facts and ``now``; nothing here
reads a clock. Facts stamped after ``now`` are ignored, so evaluating a finished round
at an earlier instant gives exactly what the live scheduler saw then.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from pace.rules import allotted, groupclock, reported
from pace.rules.model import (
    Group,
    HoleCompletion,
    PaceSettings,
    RoundFacts,
    RoundSetup,
    Status,
    TimeCredit,
)

ZERO = timedelta(0)


# --------------------------------------------------------------------------- starts


def standard_interval(groups: Sequence[Group], settings: PaceSettings) -> timedelta | None:
    """Return the standard interval: the committee's, else the most common one in the draw.

    The most common interval between consecutive starts from the same tee wins; on a tie
    the smallest (docs/rules.md §3). Simultaneous starts and shotgun waves do not count.
    ``None`` when no tee has two successive starts.
    """
    if settings.standard_interval is not None:
        return settings.standard_interval
    waves = shotgun_starts(groups)
    counts: Counter[timedelta] = Counter()
    for tee_groups in _by_tee(groups).values():
        for prev, group in zip(tee_groups, tee_groups[1:], strict=False):
            step = group.start - prev.start
            if step > ZERO and group.start not in waves and prev.start not in waves:
                counts[step] += 1
    if not counts:
        return None
    best = max(counts.values())
    return min(step for step, n in counts.items() if n == best)


#: A start instant shared by groups on at least this many tees is a shotgun wave. A
#: crossover start uses two tees (1 and 10), so it is never taken for a shotgun.
SHOTGUN_TEES = 3


def shotgun_starts(groups: Sequence[Group]) -> frozenset[datetime]:
    """Return the start instants at which groups start together from several holes.

    Every group of a shotgun wave is a lead group (docs/rules.md §9); a round may have several
    waves (morning and afternoon).
    """
    tees: dict[datetime, set[int]] = defaultdict(set)
    for g in groups:
        tees[g.start].add(g.tee)
    return frozenset(t for t, on in tees.items() if len(on) >= SHOTGUN_TEES)


def _by_tee(groups: Sequence[Group]) -> dict[int, list[Group]]:
    tees: dict[int, list[Group]] = defaultdict(list)
    for g in groups:
        tees[g.tee].append(g)
    for tee_groups in tees.values():
        tee_groups.sort(key=lambda g: g.start)  # stable: draw order on equal starts
    return tees


@dataclass(frozen=True)
class GroupPlan:
    """What is known of a group before play: lead or following, interval, allotments."""

    group: Group
    rank: int  # start order (start, then draw order): breaks ties between equal instants
    lead: bool
    interval: timedelta | None  # starting interval; None for the first group off its tee
    order: tuple[int, ...]  # hole numbers in playing order
    cumulative: tuple[timedelta, ...]  # cumulative allotment after 0..N holes
    position: Mapping[int, int]  # hole number -> 1-based position in the group's order
    #: for a group whose size changes during play (a player retired), the cumulative
    #: allotment of each size it takes (docs/status.md, "Changes on the day")
    sizes: Mapping[int, tuple[timedelta, ...]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """Return the group's id."""
        return self.group.id

    def cumulative_at(self, done: Mapping[int, datetime], at: datetime) -> tuple[timedelta, ...]:
        """Return the cumulative allotment after 0..N holes as it stands at ``at``.

        ``done`` holds the holes completed by ``at``. Each hole takes the column of the
        group's size when the group began it (the previous completion, or its start): a hole
        already begun keeps its column when a player retires; the holes not begun yet take
        the size at ``at``. A group whose size never changes has :attr:`cumulative`.
        """
        if not self.sizes:
            return self.cumulative
        g = self.group
        k = max((self.position[h] for h in done), default=0)
        began = g.start
        total = ZERO
        out = [total]
        for i, hole in enumerate(self.order):
            size = g.size_at(min(began, at) if i <= k else at)
            column = self.sizes[size]
            total += column[i + 1] - column[i]
            out.append(total)
            when = done.get(hole)
            if when is not None and when > began:
                began = when
        return tuple(out)


@dataclass(frozen=True)
class FieldPlan:
    """The plans of every group of a round, in draw order."""

    standard_interval: timedelta | None
    groups: tuple[GroupPlan, ...]
    by_id: Mapping[str, GroupPlan]


def plan_field(setup: RoundSetup) -> FieldPlan:
    """Return each group's lead/following role, starting interval and cumulative allotment.

    Lead groups are the first from each tee, any group whose starting interval is at least
    ``gap_factor`` × the standard interval (a starter's gap), every group of a shotgun wave,
    and a group starting together with the previous one from the same tee (docs/rules.md §3, §9).
    """
    settings = setup.settings
    standard = standard_interval(setup.groups, settings)
    waves = shotgun_starts(setup.groups)
    start_order = sorted(enumerate(setup.groups), key=lambda ig: (ig[1].start, ig[0]))
    rank = {g.id: r for r, (_, g) in enumerate(start_order)}
    role: dict[str, tuple[bool, timedelta | None]] = {}
    for tee_groups in _by_tee(setup.groups).values():
        prev: Group | None = None
        for g in tee_groups:
            if prev is None:
                role[g.id] = (True, None)
            else:
                step = g.start - prev.start
                lead = (
                    step == ZERO
                    or g.start in waves
                    or (standard is not None and step >= standard * settings.gap_factor)
                )
                role[g.id] = (lead, step)
            prev = g
    cache: dict[tuple[int, int], tuple[tuple[int, ...], tuple[timedelta, ...]]] = {}
    plans = []
    for g in setup.groups:
        key = (g.tee, allotted.column_for(g.size, settings))
        if key not in cache:
            cache[key] = (
                allotted.playing_order(setup.course, g.tee),
                allotted.cumulative_allotments(setup.course, g.tee, g.size, settings),
            )
        order, cumulative = cache[key]
        lead, interval = role[g.id]
        sizes: dict[int, tuple[timedelta, ...]] = {}
        if g.retired:
            for n in range(len(g.players) - len(g.retired), len(g.players) + 1):
                sizes[n] = allotted.cumulative_allotments(setup.course, g.tee, n, settings)
        plans.append(
            GroupPlan(
                group=g,
                rank=rank[g.id],
                lead=lead,
                interval=interval,
                order=order,
                cumulative=cumulative,
                position={h: i + 1 for i, h in enumerate(order)},
                sizes=sizes,
            )
        )
    return FieldPlan(standard, tuple(plans), {p.id: p for p in plans})


# --------------------------------------------------------------------------- statuses


@dataclass(frozen=True)
class GroupStatus:
    """A group's status at an instant, with the numbers that decided it.

    ``over`` is elapsed minus allotted for the holes completed (negative: under), or for
    the hole in play when the projection decided the status; ``hole`` is that hole.
    ``gap`` is the gap to the group ahead used for the decision (None when the group was
    judged as a lead group). ``confirmed`` and ``projected`` are the two halves of the
    status before taking the worse (docs/rules.md §3).
    """

    group: str
    status: Status
    lead: bool
    holes_completed: int
    last_hole: int | None
    over: timedelta | None
    gap: timedelta | None
    interval: timedelta | None
    hole: int | None
    confirmed: Status | None
    projected: Status | None
    projected_finish: datetime | None
    elapsed: timedelta


@dataclass(frozen=True)
class FieldStatus:
    """The whole field's statuses at instant ``at``, in draw order."""

    at: datetime
    standard_interval: timedelta | None
    groups: tuple[GroupStatus, ...]

    def group(self, group_id: str) -> GroupStatus:
        """Return the status of ``group_id``; raise ``KeyError`` if it is not in the field."""
        for s in self.groups:
            if s.group == group_id:
                return s
        raise KeyError(group_id)


class Completions(Protocol):
    """What a group's evaluation asks of the field's completions (:class:`CompletionIndex`)."""

    def latest_before(self, hole: int, at: datetime, rank: int) -> datetime | None:
        """Return the latest completion of ``hole`` by another group before (``at``, ``rank``)."""
        ...

    def latest_at(self, hole: int, now: datetime) -> datetime | None:
        """Return the latest completion of ``hole`` by any group at or before ``now``."""
        ...

    def reported(self, group: str) -> Collection[int]:
        """Return the holes whose counted completion by ``group`` is its own report."""
        ...

    def positioned(self, group: str) -> Mapping[int, timedelta]:
        """Return the holes whose counted completion by ``group`` its positions inferred,
        each with its spread (half its interval)."""
        ...


class CompletionIndex:
    """Completions known at an instant, per hole, sorted by (instant, start rank)."""

    def __init__(self, plan: FieldPlan, completions: Iterable[HoleCompletion], now: datetime):
        instants: dict[int, list[tuple[datetime, int]]] = defaultdict(list)
        per_group: dict[str, dict[int, datetime]] = defaultdict(dict)
        own_reports: dict[str, set[int]] = defaultdict(set)
        positioned: dict[str, dict[int, timedelta]] = defaultdict(dict)
        by_id = plan.by_id
        for c in completions:
            at = c.at
            if at > now:
                continue
            p = by_id.get(c.group)
            if p is None or c.hole not in p.position:
                continue
            instants[c.hole].append((at, p.rank))
            per_group[c.group][c.hole] = at
            if c.source == reported.GROUP:
                own_reports[c.group].add(c.hole)
            elif c.source == reported.POSITION:
                positioned[c.group][c.hole] = c.spread
        for entries in instants.values():
            entries.sort()  # linear: the fold gives completions in time order
        self.per_group = per_group
        self._instants = instants
        self._reported = own_reports
        self._positioned = positioned

    def latest_before(self, hole: int, at: datetime, rank: int) -> datetime | None:
        """Return the latest completion of ``hole`` by another group before (``at``, ``rank``).

        At the same instant, a group that started earlier counts as having holed out first.
        """
        instants = self._instants.get(hole)
        if not instants:
            return None
        i = bisect_left(instants, (at, rank))
        return instants[i - 1][0] if i else None

    def latest_at(self, hole: int, now: datetime) -> datetime | None:
        """Return the latest completion of ``hole`` by any group at or before ``now``."""
        instants = self._instants.get(hole)
        if not instants:
            return None
        i = bisect_right(instants, (now, 1 << 62))
        return instants[i - 1][0] if i else None

    def reported(self, group: str) -> Collection[int]:
        """Return the holes whose counted completion by ``group`` is its own report."""
        return self._reported.get(group, ())

    def positioned(self, group: str) -> Mapping[int, timedelta]:
        """Return the holes whose counted completion by ``group`` its positions inferred,
        each with its spread (half its interval)."""
        return self._positioned.get(group, {})


def slack_of(
    index: Completions, group: str, hole: int | None, allowance: timedelta, positions: timedelta
) -> timedelta:
    """Return the allowance a verdict resting on ``group``'s completion of ``hole`` reads
    with: the report's for its own report; for one its positions inferred, half its interval,
    at least the positions' allowance; else none."""
    if hole is None:
        return ZERO
    if allowance and hole in index.reported(group):
        return allowance
    spread = index.positioned(group).get(hole)
    if spread is not None:
        return max(spread, positions)
    return ZERO


def judge_completion(
    lead: bool, over: timedelta, gap: timedelta | None, limit: timedelta | None
) -> Status:
    """Return the status a logged completion gives (docs/rules.md §3, the confirmed half).

    Not over time is ``on_pace``; over time is ``out_of_position`` for a lead group, when no
    other group was seen completing the hole before it, or when the gap exceeds ``limit``
    (its starting interval plus the committee margin); otherwise ``behind``.

    >>> m = timedelta(minutes=1)
    >>> [judge_completion(False, o * m, 12 * m, 10 * m).value for o in (0, 3)]
    ['on_pace', 'out_of_position']
    >>> judge_completion(False, 3 * m, 8 * m, 10 * m).value
    'behind'
    """
    if over <= ZERO:
        return Status.ON_PACE
    if lead or gap is None or limit is None or gap > limit:
        return Status.OUT_OF_POSITION
    return Status.BEHIND


def _worse(a: Status, b: Status) -> bool:
    return a.severity > b.severity


def evaluate_group(
    plan: GroupPlan,
    index: Completions,
    spans: Sequence[tuple[datetime, datetime | None]],
    credits: Sequence[TimeCredit],
    now: datetime,
    *,
    margin: timedelta = ZERO,
    withdrawn_at: datetime | None = None,
    done: Mapping[int, datetime] | None = None,
    allowance: timedelta = ZERO,
    position_allowance: timedelta = ZERO,
) -> GroupStatus:
    """Return one group's status at ``now`` (docs/rules.md §3).

    ``done`` maps the holes the group completed to their instants (default: from ``index``,
    which must then be a :class:`CompletionIndex`).

    ``allowance``: how late a group's own report may come after it holed out (issue 46,
    docs/status.md "Groups' reports"). When the last hole counted is the group's report, the
    group may have holed out up to that much earlier: it is over time there only when over
    by more than ``allowance``, and its gap exceeds its interval only when by more than
    ``allowance`` (the gap's lower bound: the group ahead's instant is its own report, an
    upper bound, or an official's tap); and the hole in play is overdue only ``allowance``
    later (its report may be on its way). The figures shown are the ones read.

    ``position_allowance`` is read the same way when the last hole counted was inferred from
    the group's positions (issue 48, docs/positions.md): its instant is the middle of an
    interval, so a verdict within that much of the limit is not taken as sure.
    """
    g = plan.group
    if done is None:
        assert isinstance(index, CompletionIndex), "pass done with another index"
        done = index.per_group.get(g.id, {})
    k = max((plan.position[h] for h in done), default=0)
    n = len(plan.order)
    limit = None if plan.interval is None else plan.interval + margin
    elapsed_now = groupclock.elapsed(g.start, now, spans, credits)
    cumulative = plan.cumulative_at(done, now)

    confirmed: Status | None = None
    c_over = c_gap = None
    last_hole = None
    anchor = g.start
    slack = ZERO
    if k:
        last_hole = plan.order[k - 1]
        anchor = done[last_hole]
        c_over = groupclock.elapsed(g.start, anchor, spans, credits, credits_at=now) - cumulative[k]
        if not plan.lead:
            ahead = index.latest_before(last_hole, anchor, plan.rank)
            c_gap = None if ahead is None else anchor - ahead
        slack = slack_of(index, g.id, last_hole, allowance, position_allowance)
        confirmed = judge_completion(
            plan.lead, c_over - slack, None if c_gap is None else c_gap - slack, limit
        )

    projected: Status | None = None
    p_over = p_gap = None
    if k < n and now >= g.start:
        hole = plan.order[k]
        p_over = elapsed_now - cumulative[k + 1]
        if p_over <= slack:
            projected = Status.ON_PACE
        elif plan.lead or limit is None:
            projected = Status.OVERDUE
        else:
            ahead = index.latest_at(hole, now)
            p_gap = None if ahead is None else now - ahead
            projected = Status.OVERDUE if p_gap is not None and p_gap > limit else Status.BEHIND

    remaining_after_k = cumulative[n] - cumulative[k]
    finish: datetime | None = anchor + remaining_after_k
    if k < n and now >= g.start:
        finish = max(anchor + remaining_after_k, now + cumulative[n] - cumulative[k + 1])

    use_projection = projected is not None and (confirmed is None or _worse(projected, confirmed))
    hole_used: int | None
    if use_projection:
        status, over, gap, hole_used = projected, p_over, p_gap, plan.order[k]
    else:
        status, over, gap, hole_used = confirmed, c_over, c_gap, last_hole

    if withdrawn_at is not None and withdrawn_at <= now:
        status = Status.WITHDRAWN
        finish = None
    elif k == n:
        status = Status.FINISHED
        finish = anchor
    elif k == 0 and now < g.start:
        status = Status.NOT_STARTED
    assert status is not None
    return GroupStatus(
        group=g.id,
        status=status,
        lead=plan.lead,
        holes_completed=k,
        last_hole=last_hole,
        over=over,
        gap=None if plan.lead else gap,
        interval=plan.interval,
        hole=hole_used,
        confirmed=confirmed,
        projected=projected,
        projected_finish=finish,
        elapsed=elapsed_now,
    )


def evaluate_field(
    setup: RoundSetup, facts: RoundFacts, now: datetime, plan: FieldPlan | None = None
) -> FieldStatus:
    """Return every group's status at ``now``, in draw order (docs/rules.md §3).

    ``plan`` may be passed when the caller keeps :func:`plan_field`'s result between ticks.
    """
    plan = plan or plan_field(setup)
    index = CompletionIndex(plan, facts.completions, now)
    spans = groupclock.merge_suspensions(facts.suspensions, now)
    credits = _credits_by_group(facts.credits, now)
    margin = setup.settings.gap_margin
    statuses = tuple(
        evaluate_group(
            p,
            index,
            spans,
            credits.get(p.id, ()),
            now,
            margin=margin,
            withdrawn_at=facts.withdrawn.get(p.id),
            allowance=setup.settings.report_allowance,
            position_allowance=setup.settings.position_allowance,
        )
        for p in plan.groups
    )
    return FieldStatus(now, plan.standard_interval, statuses)


def _credits_by_group(
    credits: Iterable[TimeCredit], now: datetime
) -> dict[str, tuple[TimeCredit, ...]]:
    out: dict[str, list[TimeCredit]] = defaultdict(list)
    for c in credits:
        if c.at <= now:
            out[c.group].append(c)
    return {k: tuple(v) for k, v in out.items()}


# --------------------------------------------------------------------------- episodes


@dataclass(frozen=True)
class Episode:
    """A spell out of position: from the evaluation that found it to the one that cleared it.

    ``end`` is None while the group is still out of position; ``ended_by`` is
    ``"back_in_position"``, ``"finished"`` or ``"withdrawn"``.
    """

    group: str
    start: datetime
    start_hole: int | None
    end: datetime | None = None
    end_hole: int | None = None
    ended_by: str | None = None


@dataclass(frozen=True)
class Evaluation:
    """A group's confirmed status at one of its completions or time credits (docs/rules.md §3)."""

    at: datetime
    status: GroupStatus

    @property
    def out_of_position(self) -> bool:
        """Return whether the evaluation finds the group out of position."""
        return self.status.confirmed is Status.OUT_OF_POSITION


def evaluations(
    setup: RoundSetup, facts: RoundFacts, now: datetime, plan: FieldPlan | None = None
) -> dict[str, tuple[Evaluation, ...]]:
    """Return, per group, its status re-evaluated at each of its completions and credits.

    These are the instants at which a group falls out of position or gets back in position
    (docs/rules.md §3, last clause): the logged hole completion, or the time credit, that does it.
    Only facts up to ``now`` count.
    """
    plan = plan or plan_field(setup)
    spans = groupclock.merge_suspensions(facts.suspensions, now)
    credits = _credits_by_group(facts.credits, now)
    index = CompletionIndex(plan, facts.completions, now)
    margin = setup.settings.gap_margin
    out: dict[str, tuple[Evaluation, ...]] = {}
    for p in plan.groups:
        done = index.per_group.get(p.id, {})
        group_credits = credits.get(p.id, ())
        instants = sorted(set(done.values()) | {c.at for c in group_credits})
        evaluated = []
        for t in instants:
            seen = {h: at for h, at in done.items() if at <= t}
            s = evaluate_group(p, index, spans, group_credits, t, margin=margin, done=seen,
                               allowance=setup.settings.report_allowance,
                               position_allowance=setup.settings.position_allowance)  # fmt: skip
            evaluated.append(Evaluation(t, s))
        out[p.id] = tuple(evaluated)
    return out


def episodes(
    setup: RoundSetup,
    facts: RoundFacts,
    now: datetime,
    plan: FieldPlan | None = None,
    evaluated: Mapping[str, Sequence[Evaluation]] | None = None,
) -> tuple[Episode, ...]:
    """Return every out-of-position episode of the round up to ``now``, by group then time.

    A group's status is re-evaluated at each of its completions and time credits; an
    episode starts at the first evaluation out of position and ends at the first later one
    that is not (docs/rules.md §3, last clause). Finishing or withdrawing closes it.
    ``evaluated`` (:func:`evaluations` at ``now``) may be passed when the caller keeps it.
    """
    plan = plan or plan_field(setup)
    if evaluated is None:
        evaluated = evaluations(setup, facts, now, plan)
    out: list[Episode] = []
    for group, group_evaluations in evaluated.items():
        withdrawn_at = facts.withdrawn.get(group)
        current: Episode | None = None
        for e in group_evaluations:
            s, oop = e.status, e.out_of_position
            if current is None and oop:
                current = Episode(group, e.at, s.last_hole)
            if current is not None and (not oop or s.status is Status.FINISHED):
                ended_by = "finished" if oop else "back_in_position"
                out.append(_close(current, e.at, s.last_hole, ended_by))
                current = None
        if current is not None:
            if withdrawn_at is not None and withdrawn_at <= now:
                current = _close(current, withdrawn_at, None, "withdrawn")
            out.append(current)
    return tuple(out)


def _close(e: Episode, end: datetime, hole: int | None, ended_by: str) -> Episode:
    return Episode(e.group, e.start, e.start_hole, end, hole, ended_by)


def hole_overs(
    setup: RoundSetup, facts: RoundFacts, now: datetime, plan: FieldPlan | None = None
) -> dict[str, dict[int, tuple[datetime, timedelta]]]:
    """Return, per group and logged hole, the completion instant and the time over at it.

    Over is elapsed at the completion minus the cumulative allotment up to that hole in the
    group's order (negative: under); it colours a timing grid.
    """
    plan = plan or plan_field(setup)
    spans = groupclock.merge_suspensions(facts.suspensions, now)
    credits = _credits_by_group(facts.credits, now)
    out: dict[str, dict[int, tuple[datetime, timedelta]]] = {}
    for c in facts.completions:
        p = plan.by_id.get(c.group)
        if p is None or c.at > now or c.hole not in p.position:
            continue
        e = groupclock.elapsed(p.group.start, c.at, spans, credits.get(c.group, ()), credits_at=now)
        cumulative = p.cumulative
        if p.sizes:  # the allotment as it stood at the completion
            seen = {
                d.hole: d.at
                for d in facts.completions
                if d.group == c.group and d.at <= c.at and d.hole in p.position
            }
            cumulative = p.cumulative_at(seen, c.at)
        out.setdefault(c.group, {})[c.hole] = (c.at, e - cumulative[p.position[c.hole]])
    return out

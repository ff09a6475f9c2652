"""Why a group was named: the explanation of a judgement a committee can show the players.

Every out-of-position judgement, every alert and every "held up the field" naming rests on a
few figures and a few facts (docs/rules.md §2, §3, §5, §8): at the instant judged, the group's
clock (the time since its start, less the siren stops and its time credits) against its
cumulative allotment (per the group's size at that instant), its gap to the group ahead
against its starting interval, and the groups waiting behind it. An :class:`Explanation`
holds those figures, worked out from the **same reading** as the judgement (the live
``FieldFold``, or the whole log read by :class:`LogReading`: the same ``evaluate_group``), and
a short timeline of the facts they rest on (taps, sirens, credits, a player retiring: their
ids, instants and authors). :meth:`Explanation.verdict` judges the figures again as
docs/rules.md §3 does; tests check it gives the verdict explained (docs/explanations.md).

The shells say it in words (``pace/reports/explain.py``, the dashboard's ``alerts.js``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from pace.rules import facts as factsmod
from pace.rules import groupclock, reported
from pace.rules.changes import PLAYER_WITHDRAWN
from pace.rules.events import Event
from pace.rules.model import HoleCompletion, RoundFacts, RoundSetup, Status, TimeCredit
from pace.rules.position import (
    CompletionIndex,
    Completions,
    Evaluation,
    FieldPlan,
    GroupPlan,
    GroupStatus,
    evaluate_group,
    evaluations,
    judge_completion,
    slack_of,
)

ZERO = timedelta(0)
Spans = Sequence[tuple[datetime, datetime | None]]

#: what is explained: the alerts' kinds, and the report's "held up the field"
OUT_OF_POSITION, BACK_IN_POSITION, OVERDUE, HELD_UP = (
    "out_of_position", "back_in_position", "overdue", "held_up",
)  # fmt: skip
#: what a judgement rests on: a logged completion (§3 confirmed) or the clock (§3 projection)
COMPLETION, PROJECTION = "completion", "projection"

#: the kinds of timeline lines
START, TAP, AHEAD, SIREN, CREDIT, RETIRED, VERDICT, WAITING = (
    "start", "tap", "ahead", "siren", "credit", "retired", "verdict", "waiting",
)  # fmt: skip


# --------------------------------------------------------------------------- the facts' sources


@dataclass(frozen=True)
class Fact:
    """A fact of the log a judgement rests on: its event id, instant and author (``by``)."""

    id: str
    at: datetime
    by: Mapping[str, object]
    #: the ids of the corrections applied to a tap, in log order
    corrected: tuple[str, ...] = ()


class Sources:
    """Who recorded each fact the rules read, and when: the log's ids kept by fact.

    A fold of the log like :func:`pace.rules.facts.fold` (corrections and voids applied), that
    keeps the ids and authors the facts drop: a group's counted tap on a hole (an official's
    over the group's own report, the earliest of a kind: :func:`pace.rules.reported.counted`),
    each credit, siren and player's retirement.
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._taps: dict[str, tuple[str, int, datetime, Mapping[str, object], str]] = {}
        #: the ids of the taps on each (group, hole), in log order (a counted tap is one of them)
        self._on: dict[tuple[str, int], list[str]] = {}
        self._corrections: dict[str, list[str]] = {}
        self._other: dict[str, Event] = {}
        for e in events:
            self.apply(e)

    def apply(self, e: Event) -> None:
        """Fold one event (other kinds than the facts': nothing)."""
        p = e.payload
        if e.type == factsmod.HOLE_COMPLETED:
            group, hole = str(p["group"]), int(str(p["hole"]))
            if e.id not in self._taps:
                self._on.setdefault((group, hole), []).append(e.id)
            self._taps[e.id] = (group, hole, e.at, e.by, reported.source_of(p))
        elif e.type == factsmod.HOLE_TIME_CORRECTED:
            target = str(p["target"])
            tap = self._taps.get(target)
            if tap is not None:
                at = datetime.fromisoformat(str(p["at"]))
                self._taps[target] = (tap[0], tap[1], at, tap[3], tap[4])
                self._corrections.setdefault(target, []).append(e.id)
        elif e.type == factsmod.EVENT_VOIDED:
            self._taps.pop(str(p["target"]), None)
            self._other.pop(str(p["target"]), None)
        elif e.type in (factsmod.SIREN, factsmod.TIME_CREDIT_GRANTED, PLAYER_WITHDRAWN):
            self._other[e.id] = e

    def tap(self, group: str, hole: int) -> Fact | None:
        """Return the tap that counts for ``group``'s ``hole`` (an official's over a report,
        the earliest of a kind; on a tie the first in the log), with the corrections applied
        to it."""
        live = [(id, self._taps[id]) for id in self._on.get((group, hole), ()) if id in self._taps]
        best = reported.counted(
            (id, HoleCompletion(group, hole, tap[2], tap[4])) for id, tap in live
        )  # (a voided tap is gone)
        if best is None:
            return None
        id = best[0]
        return Fact(id, self._taps[id][2], self._taps[id][3], tuple(self._corrections.get(id, ())))

    def sirens(self, until: datetime) -> list[tuple[Fact, str]]:
        """Return the sirens sounded by ``until`` and their kinds, in time order."""
        found = [e for e in self._other.values() if e.type == factsmod.SIREN and e.at <= until]
        found.sort(key=lambda e: e.at)
        return [(Fact(e.id, e.at, e.by), str(e.payload["kind"])) for e in found]

    def credit(self, c: TimeCredit) -> Fact | None:
        """Return the event that granted credit ``c``."""
        for e in self._other.values():
            if (e.type == factsmod.TIME_CREDIT_GRANTED and e.at == c.at
                    and str(e.payload["group"]) == c.group):  # fmt: skip
                return Fact(e.id, e.at, e.by)
        return None

    def retirement(self, group: str, player: str) -> Fact | None:
        """Return the event by which ``player`` of ``group`` retired during play."""
        for e in self._other.values():
            p = e.payload
            if e.type == PLAYER_WITHDRAWN and p.get("group") == group and p.get("player") == player:
                return Fact(e.id, e.at, e.by)
        return None


# --------------------------------------------------------------------------- the reading


class Reading(Protocol):
    """What an explanation reads: the judgement's own state (``FieldFold`` is one)."""

    plan: FieldPlan
    margin: timedelta

    @property
    def index(self) -> Completions:
        """The field's completions, per hole."""
        ...

    @property
    def spans(self) -> Spans:
        """The stops of play."""
        ...

    def done(self, group: str, now: datetime) -> Mapping[int, datetime]:
        """Return the holes ``group`` completed by ``now``."""
        ...

    def credits(self, group: str, now: datetime) -> tuple[TimeCredit, ...]:
        """Return ``group``'s credits granted by ``now``."""
        ...

    def evaluations(self, group: str, now: datetime) -> tuple[Evaluation, ...]:
        """Return ``group``'s evaluations at its completions and credits up to ``now``."""
        ...

    def status(self, group: str, now: datetime) -> GroupStatus:
        """Return ``group``'s status at ``now``."""
        ...


class LogReading:
    """A :class:`Reading` of a whole log's facts as of ``now`` (the reports'): the same
    functions as :func:`pace.rules.position.evaluate_field` and ``evaluations``."""

    def __init__(self, setup: RoundSetup, facts: RoundFacts, now: datetime, plan: FieldPlan):
        self.plan = plan
        self.margin = setup.settings.gap_margin
        self.allowance = setup.settings.report_allowance
        self.position_allowance = setup.settings.position_allowance
        self._facts = facts
        self._now = now
        self._index = CompletionIndex(plan, facts.completions, now)
        self._spans = groupclock.merge_suspensions(facts.suspensions, now)
        #: every group's evaluations at ``now`` (:func:`pace.rules.position.evaluations`)
        self.evaluated = evaluations(setup, facts, now, plan)

    @property
    def index(self) -> Completions:
        """The field's completions known at the reading's instant."""
        return self._index

    @property
    def spans(self) -> Spans:
        """The stops of play known at the reading's instant."""
        return self._spans

    def done(self, group: str, now: datetime) -> Mapping[int, datetime]:
        """Return the holes ``group`` completed by ``now``."""
        return {h: t for h, t in self._index.per_group.get(group, {}).items() if t <= now}

    def credits(self, group: str, now: datetime) -> tuple[TimeCredit, ...]:
        """Return ``group``'s credits granted by ``now`` (and by the reading's instant)."""
        until = min(now, self._now)
        return tuple(c for c in self._facts.credits if c.group == group and c.at <= until)

    def evaluations(self, group: str, now: datetime) -> tuple[Evaluation, ...]:
        """Return ``group``'s evaluations up to ``now``."""
        return tuple(e for e in self.evaluated.get(group, ()) if e.at <= now)

    def status(self, group: str, now: datetime) -> GroupStatus:
        """Return ``group``'s status at ``now`` (at most the reading's instant)."""
        withdrawn = self._facts.withdrawn.get(group)
        return evaluate_group(
            self.plan.by_id[group], self._index, self._spans, self.credits(group, now), now,
            margin=self.margin, withdrawn_at=withdrawn, done=self.done(group, now),
            allowance=self.allowance, position_allowance=self.position_allowance,
        )  # fmt: skip


# --------------------------------------------------------------------------- explanations


@dataclass(frozen=True)
class Waiting:
    """A group behind the one named, and how it stood: over its allotment (waiting) or not."""

    group: str
    status: Status
    hole: int | None
    over: timedelta | None
    gap: timedelta | None
    at: datetime | None = None  # its completion of the hole (a hold-up), else the instant


@dataclass(frozen=True)
class Line:
    """One dated line of an explanation's timeline; ``fact`` is the log's event, if any."""

    at: datetime
    kind: str
    group: str | None = None
    hole: int | None = None
    fact: Fact | None = None
    detail: str | None = None  # a siren's kind, a credit's reason, a player's name, a status
    amount: timedelta | None = None  # a credit's minutes, a waiting group's minutes over


@dataclass(frozen=True)
class Explanation:
    """Why ``group`` was judged ``status`` at ``at``: the figures and the facts (see module).

    ``basis`` says what the judgement read: the completion of ``hole`` at ``reference``
    (docs/rules.md §3, confirmed) or the clock at ``at`` on the hole in play ``hole``
    (projection). ``elapsed`` = ``clock`` − ``stopped`` − ``credited`` (§2), ``over`` =
    ``elapsed`` − ``allotted`` (the cumulative allotment of the holes up to ``hole``, each in the
    column of the group's size when it began it; ``size`` the group's size at ``at``), ``gap``
    to ``ahead`` (the group seen completing ``hole`` before it, at ``ahead_at``) against
    ``interval`` + ``margin``. ``behind``: the chain of groups waiting behind it.
    """

    subject: str
    group: str
    at: datetime
    status: Status
    basis: str
    lead: bool
    hole: int | None
    reference: datetime
    holes_completed: int
    size: int
    clock: timedelta
    stopped: timedelta
    credited: timedelta
    elapsed: timedelta
    allotted: timedelta
    over: timedelta
    gap: timedelta | None
    ahead: str | None
    ahead_at: datetime | None
    interval: timedelta | None
    margin: timedelta
    behind: tuple[Waiting, ...]
    timeline: tuple[Line, ...]
    #: the allowance the verdict was read with: the report's or the positions' when the last
    #: hole counted rests on one (docs/status.md, "Groups' reports"; docs/positions.md)
    slack: timedelta = ZERO

    @property
    def limit(self) -> timedelta | None:
        """Return the gap allowed: the starting interval plus the committee's margin."""
        return None if self.interval is None else self.interval + self.margin

    def verdict(self) -> Status:
        """Return the status the figures give, judged again as docs/rules.md §3 says.

        A completion: not over time is ``on_pace``; over time, ``out_of_position`` for a lead
        group, with nobody ahead or a gap over the limit, else ``behind``. The clock: not over
        time is ``on_pace``; over time, ``overdue`` for a lead group or a gap over the limit,
        else ``behind`` (the hole ahead still occupied).
        """
        if self.basis == COMPLETION:
            gap = None if self.gap is None else self.gap - self.slack
            return judge_completion(self.lead, self.over - self.slack, gap, self.limit)
        if self.over <= self.slack:
            return Status.ON_PACE
        limit = self.limit
        if self.lead or limit is None or (self.gap is not None and self.gap > limit):
            return Status.OVERDUE
        return Status.BEHIND


@dataclass(frozen=True)
class _Figures:
    reference: datetime
    clock: timedelta
    stopped: timedelta
    credited: timedelta
    elapsed: timedelta
    allotted: timedelta
    gap: timedelta | None
    ahead: str | None
    ahead_at: datetime | None


def _ahead_of(
    reading: Reading, hole: int, ahead_at: datetime | None, before: tuple[datetime, int]
) -> str | None:
    """Return the group whose completion of ``hole`` at ``ahead_at`` came last before ``before``."""
    if ahead_at is None:
        return None
    found = [
        (q.rank, q.id)
        for q in reading.plan.groups
        if reading.done(q.id, ahead_at).get(hole) == ahead_at and (ahead_at, q.rank) < before
    ]
    return max(found)[1] if found else None


def _figures(
    reading: Reading, p: GroupPlan, basis: str, hole: int, at: datetime, position: int
) -> _Figures:
    """Return the figures of ``p`` judged at ``at``: at its completion of ``hole`` (the
    ``position``-th of its order), or on the clock for ``hole`` in play."""
    g = p.group
    done = reading.done(p.id, at)
    credits = reading.credits(p.id, at)
    if basis == COMPLETION:
        reference = done[hole]
        ahead_at = reading.index.latest_before(hole, reference, p.rank)
        before = (reference, p.rank)
    else:
        reference = at
        ahead_at = reading.index.latest_at(hole, at)
        before = (at, 1 << 62)
    clock = reference - g.start
    stopped = groupclock.stopped_between(reading.spans, g.start, reference)
    credited = groupclock.credit_until(credits, at)
    allotted = p.cumulative_at(done, at)[position]
    return _Figures(
        reference, clock, stopped, credited, clock - stopped - credited, allotted,
        None if ahead_at is None else reference - ahead_at,
        _ahead_of(reading, hole, ahead_at, before), ahead_at,
    )  # fmt: skip


def explain(
    reading: Reading,
    sources: Sources,
    subject: str,
    group: str,
    at: datetime,
    evaluation: GroupStatus | None = None,
) -> Explanation | None:
    """Return why ``group`` was judged as it was at ``at`` (``subject``: an alert's kind).

    An ``out_of_position`` or ``back_in_position`` judgement is the group's evaluation at its
    completion or credit at ``at`` (the episode's start or end, docs/rules.md §3), read from
    the group's evaluations; ``overdue`` is its status at ``at`` (the projection). ``None``
    when there is nothing to explain (no such evaluation: a fact since voided, say).
    """
    p = reading.plan.by_id.get(group)
    if p is None:
        return None
    s = evaluation
    if s is None and subject in (OUT_OF_POSITION, BACK_IN_POSITION):
        found = [e.status for e in reading.evaluations(group, at) if e.at == at]
        s = found[-1] if found else None
    elif s is None:
        s = reading.status(group, at)
    if s is None:
        return None
    k = s.holes_completed
    if subject == OVERDUE:
        if s.projected is None or k >= len(p.order):
            return None
        basis, hole, position, status = PROJECTION, p.order[k], k + 1, s.projected
    else:
        if s.confirmed is None or s.last_hole is None:
            return None
        basis, hole, position, status = COMPLETION, s.last_hole, k, s.confirmed
    f = _figures(reading, p, basis, hole, at, position)
    behind = _chain(reading, p, s, at)
    return _explanation(reading, sources, subject, p, status, basis, hole, at, k, f, behind)


def explain_hold(
    reading: Reading, sources: Sources, group: str, hole: int, followers: Sequence[str]
) -> Explanation | None:
    """Return why ``group`` held the field up at ``hole`` (docs/reports.md, "Who held the field
    up"): its completion of the hole judged there, and each follower's (the chain)."""
    p = reading.plan.by_id.get(group)
    if p is None:
        return None
    at = reading.done(group, _END).get(hole)
    if at is None:
        return None
    f = _figures(reading, p, COMPLETION, hole, at, p.position[hole])
    status = _judged(p, f, reading.margin)
    behind = []
    for name in followers:
        q = reading.plan.by_id.get(name)
        when = reading.done(name, _END).get(hole) if q is not None else None
        if q is None or when is None:
            continue
        qf = _figures(reading, q, COMPLETION, hole, when, q.position[hole])
        behind.append(Waiting(name, _judged(q, qf, reading.margin), hole,
                              qf.elapsed - qf.allotted, qf.gap, when))  # fmt: skip
    k = max(p.position[h] for h in reading.done(group, at))
    return _explanation(reading, sources, HELD_UP, p, status, COMPLETION, hole, at, k, f,
                        tuple(behind))  # fmt: skip


#: beyond any instant of a round
_END = datetime.max.replace(tzinfo=UTC)


def _judged(p: GroupPlan, f: _Figures, margin: timedelta) -> Status:
    limit = None if p.interval is None else p.interval + margin
    return judge_completion(p.lead, f.elapsed - f.allotted, f.gap, limit)


def _chain(reading: Reading, p: GroupPlan, s: GroupStatus, at: datetime) -> tuple[Waiting, ...]:
    """Return the groups waiting behind ``p`` at ``at``, nearest first.

    Behind it are the groups on the course that have still to complete the hole it last
    completed (its first hole, before any), the nearest (fewest holes to play before it, then
    the earliest start) first. The chain is those that are ``behind`` (over their allotment
    but close to the group ahead: waiting), up to the first that is not.
    """
    hole = s.last_hole if s.last_hole is not None else p.order[0]
    candidates = []
    for q in reading.plan.groups:
        if q.id == p.id or hole not in q.position or q.group.start > at:
            continue
        done = reading.done(q.id, at)
        k = max((q.position[h] for h in done), default=0)
        if q.position[hole] <= k:
            continue
        candidates.append((q.position[hole] - k, q.rank, q))
    out = []
    for _, _, q in sorted(candidates, key=lambda c: (c[0], c[1])):
        qs = reading.status(q.id, at)
        if qs.status is not Status.BEHIND:
            break
        out.append(Waiting(q.id, qs.status, qs.hole, qs.over, qs.gap))
    return tuple(out)


def _explanation(
    reading: Reading,
    sources: Sources,
    subject: str,
    p: GroupPlan,
    status: Status,
    basis: str,
    hole: int,
    at: datetime,
    k: int,
    f: _Figures,
    behind: tuple[Waiting, ...],
) -> Explanation:
    g = p.group
    lines = [Line(g.start, START, g.id)]
    for player, when in g.retired:
        if when <= at:
            lines.append(Line(when, RETIRED, g.id, None, sources.retirement(g.id, player), player))
    for fact, kind in sources.sirens(f.reference):
        if fact.at >= g.start:
            lines.append(Line(fact.at, SIREN, None, None, fact, kind))
    for c in reading.credits(g.id, at):
        lines.append(Line(c.at, CREDIT, g.id, None, sources.credit(c), c.reason, c.amount))
    if f.ahead is not None and f.ahead_at is not None:
        lines.append(Line(f.ahead_at, AHEAD, f.ahead, hole, sources.tap(f.ahead, hole)))
    if basis == COMPLETION:
        lines.append(Line(f.reference, TAP, g.id, hole, sources.tap(g.id, hole)))
    for w in behind:
        if w.at is not None:
            lines.append(Line(w.at, TAP, w.group, w.hole, sources.tap(w.group, hole),
                              w.status.value, w.over))  # fmt: skip
    lines.append(Line(at, VERDICT, g.id, hole, None, status.value))
    if subject != HELD_UP:
        lines.extend(Line(at, WAITING, w.group, w.hole, None, w.status.value, w.over)
                     for w in behind)  # fmt: skip
    lines.sort(key=lambda x: x.at)  # stable: a verdict after the tap it reads
    last = hole if basis == COMPLETION else (p.order[k - 1] if k else None)
    slack = slack_of(reading.index, g.id, last, getattr(reading, "allowance", ZERO),
                     getattr(reading, "position_allowance", ZERO))  # fmt: skip
    return Explanation(
        subject=subject, group=g.id, at=at, status=status, basis=basis, lead=p.lead, hole=hole,
        reference=f.reference, holes_completed=k, size=g.size_at(at), clock=f.clock,
        stopped=f.stopped, credited=f.credited, elapsed=f.elapsed, allotted=f.allotted,
        over=f.elapsed - f.allotted, gap=f.gap, ahead=f.ahead, ahead_at=f.ahead_at,
        interval=p.interval, margin=reading.margin, behind=behind, timeline=tuple(lines),
        slack=slack,
    )  # fmt: skip


def as_document(
    x: Explanation,
    author: Callable[[Mapping[str, object]], str],
    instant: Callable[[datetime], str] = datetime.isoformat,
    mins: Callable[[timedelta | None], float | None] | None = None,
) -> dict[str, Any]:
    """Return ``x`` as plain JSON: ``author`` names who recorded a fact from its event's ``by``;
    instants as ``instant`` writes them (default ISO 8601 in UTC), durations as minutes (``mins``,
    default to the tenth)."""

    def tenths(d: timedelta | None) -> float | None:
        return None if d is None else round(d.total_seconds() / 60, 1)

    m = mins or tenths

    def fact(v: Fact | None) -> dict[str, Any] | None:
        if v is None:
            return None
        return {"id": v.id, "at": instant(v.at), "by": author(v.by), "corrected": list(v.corrected)}

    return {
        "subject": x.subject, "group": x.group, "at": instant(x.at), "status": x.status.value,
        "basis": x.basis, "lead": x.lead, "hole": x.hole, "reference": instant(x.reference),
        "start": instant(x.reference - x.clock), "holes_completed": x.holes_completed,
        "size": x.size, "clock_min": m(x.clock), "stopped_min": m(x.stopped),
        "credited_min": m(x.credited), "elapsed_min": m(x.elapsed), "allotted_min": m(x.allotted),
        "over_min": m(x.over), "gap_min": m(x.gap), "ahead": x.ahead,
        "interval_min": m(x.interval), "margin_min": m(x.margin), "limit_min": m(x.limit),
        "behind": [{"group": w.group, "status": w.status.value, "hole": w.hole,
                    "over_min": m(w.over), "gap_min": m(w.gap)} for w in x.behind],
        "timeline": [{"at": instant(ln.at), "kind": ln.kind, "group": ln.group, "hole": ln.hole,
                      "fact": fact(ln.fact), "detail": ln.detail, "minutes": m(ln.amount)}
                     for ln in x.timeline],
    }  # fmt: skip

"""Missed taps found in the log and filled honestly (issue 30, part 1; docs/estimates.md).

A marshal may miss a group on a hole. The log then shows it in three ways, each read here from
the real completions known at ``now`` (nothing else):

- ``skipped``: the group logged a later hole (7 and 9, not 8): it completed 8, in between.
- ``passed``: a group that started after it from the same tee logged a hole the group has not:
  groups do not pass each other, so it completed that hole (and those before it) first.
- ``silent``: nothing from the group for far longer than its hole's allotment (more than
  ``silent_factor`` times it, stops of play left out) while the group behind it has come up to
  its last hole. This is a suspicion, not a proof (the group may be searching for a ball): its
  estimate is shown and asked about, never used to judge anyone (:attr:`Estimate.counts`).

Each missing instant is estimated between the neighbouring facts, in proportion to the holes'
allotments, and carries its bounds (``earliest``, ``latest``): what the log allows, never after
``now``. A status worked out with estimates says whether it rests on one (:func:`judge`); the
live loop raises no out-of-position alert from such a verdict until a real tap (a late
``hole_completed`` with its instant) replaces the estimate. Once every tap is in there is no
estimate, and the statuses are exactly the whole-log fold's.

Stdlib only; ``now`` is always passed in.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pace.rules import groupclock
from pace.rules.events import Event
from pace.rules.fieldfold import group_episodes
from pace.rules.model import RoundFacts, TimeCredit
from pace.rules.position import (
    CompletionIndex,
    Completions,
    Episode,
    Evaluation,
    FieldPlan,
    GroupPlan,
    GroupStatus,
    evaluate_group,
)

SKIPPED = "skipped"
PASSED = "passed"
SILENT = "silent"
REASONS = (SKIPPED, PASSED, SILENT)

ZERO = timedelta(0)
Spans = Sequence[tuple[datetime, datetime | None]]


@dataclass(frozen=True)
class Estimate:
    """The estimated instant a group completed a hole no tap was logged for.

    ``earliest`` and ``latest`` are the bounds the log allows (``earliest <= at <= latest``);
    ``reason`` is how the missing tap was found (``skipped``, ``passed``, ``silent``).
    """

    group: str
    hole: int
    at: datetime
    earliest: datetime
    latest: datetime
    reason: str

    @property
    def counts(self) -> bool:
        """Return whether the estimate stands in for a completion when statuses are judged.

        ``skipped`` and ``passed`` follow from the log (the hole was completed); a ``silent``
        group may still be on its hole, so its estimate is only asked about.
        """
        return self.reason != SILENT


@dataclass(frozen=True)
class Behind:
    """What the groups behind a group logged: per hole, the earliest and the latest instant.

    "The groups behind" are those that start strictly later from the same tee. On another tee
    (a crossover or a shotgun) a group may reach a hole before or after by the draw alone; a
    group starting at the same instant on the same tee (a shotgun's A and B) may have teed off
    first.
    """

    first: Mapping[int, datetime]
    last: Mapping[int, datetime]


def behind(plan: FieldPlan, known: Mapping[str, Mapping[int, datetime]]) -> dict[str, Behind]:
    """Return, per group, what the groups behind it logged (:class:`Behind`).

    One sweep per tee from its last start back: linear in the completions.
    """
    tees: dict[int, list[GroupPlan]] = {}
    for p in plan.groups:
        tees.setdefault(p.group.tee, []).append(p)
    out: dict[str, Behind] = {}
    for groups in tees.values():
        groups.sort(key=lambda q: q.group.start, reverse=True)
        first: dict[int, datetime] = {}
        last: dict[int, datetime] = {}
        i = 0
        while i < len(groups):
            same = [q for q in groups[i:] if q.group.start == groups[i].group.start]
            for q in same:
                out[q.id] = Behind(dict(first), dict(last))
            for q in same:  # counted for the groups that started before them only
                for h, t in known.get(q.id, {}).items():
                    if h not in first or t < first[h]:
                        first[h] = t
                    if h not in last or t > last[h]:
                        last[h] = t
            i += len(same)
    return out


def find(
    plan: FieldPlan,
    done: Mapping[str, Mapping[int, datetime]],
    now: datetime,
    *,
    spans: Spans = (),
    withdrawn: Mapping[str, datetime] | None = None,
    silent_factor: float = 2.0,
) -> tuple[Estimate, ...]:
    """Return the estimates of every missed tap the completions known at ``now`` reveal.

    ``done`` maps each group to its logged holes and their instants (those after ``now`` are
    left out); ``spans`` are the stops of play (they do not count as silence); ``withdrawn``
    the groups that left the round (a group that left is passed legitimately, and silent).
    Estimates come by group in draw order, then by hole in the group's playing order.

    >>> from datetime import UTC
    >>> from pace.rules.model import Course, Group, Hole, RoundSetup
    >>> from pace.rules.position import plan_field
    >>> t = lambda h, m: datetime(2026, 6, 14, h, m, tzinfo=UTC)
    >>> setup = RoundSetup(Course("c", tuple(Hole(n, 4) for n in range(1, 10))),
    ...                    (Group("Z", t(7, 0), 1, ()), Group("A", t(8, 0), 1, ())))
    >>> seen = {"Z": {1: t(7, 15), 2: t(7, 30), 3: t(7, 45)}}  # each hole has a marshal
    >>> [(e.hole, e.at.strftime("%H:%M"), e.earliest.strftime("%H:%M"), e.reason) for e in find(
    ...     plan_field(setup), {**seen, "A": {1: t(8, 15), 3: t(8, 45)}}, t(8, 50))]
    [(2, '08:30', '08:15', 'skipped')]
    """
    withdrawn = withdrawn or {}
    known = {g: {h: t for h, t in d.items() if t <= now} for g, d in done.items()}
    later = behind(plan, known)
    # a hole nobody was logged on has no marshal (a committee may watch a few holes only):
    # it stays "not observed" (docs/rules.md §3); a missed tap is one a hole's marshal missed
    observed = {h for d in known.values() for h in d}
    out: list[Estimate] = []
    for p in plan.groups:
        found = find_group(
            p, known.get(p.id, {}), later[p.id], now, observed,
            spans=spans, left=withdrawn.get(p.id), silent_factor=silent_factor,
        )  # fmt: skip
        out.extend(found)
    return tuple(out)


def find_group(
    p: GroupPlan,
    mine: Mapping[int, datetime],
    later: Behind,
    now: datetime,
    observed: Iterable[int] | set[int] | frozenset[int],
    *,
    spans: Spans = (),
    left: datetime | None = None,
    silent_factor: float = 2.0,
) -> tuple[Estimate, ...]:
    """Return :func:`find`'s estimates of one group: ``mine`` its holes known at ``now``,
    ``later`` what the groups behind it logged (:func:`behind_of`), ``observed`` the holes
    anybody was logged on, ``left`` when it withdrew (if it did)."""
    by_pos = {p.position[h]: t for h, t in mine.items() if h in p.position}
    k = max(by_pos, default=0)
    found = _skipped(p, by_pos, k)
    if left is None or left > now:
        passed = _passed(p, by_pos, k, later)
        found += passed or _silent(p, by_pos, k, later, now, spans, silent_factor)
    return tuple(e for e in found if e.hole in observed)


def behind_of(
    p: GroupPlan, tee: Sequence[GroupPlan], known: Callable[[str], Mapping[int, datetime]]
) -> Behind:
    """Return what the groups behind ``p`` logged (:class:`Behind`, as :func:`behind` gives
    it), from ``tee``: the groups of its tee; ``known(group)``: a group's holes known now.

    Only the holes :func:`find_group` reads are gathered (``p``'s last hole and those after
    it): the cost is the groups behind it, a few dictionary reads each.
    """
    start = p.group.start
    first: dict[int, datetime] = {}
    last: dict[int, datetime] = {}
    mine = known(p.id)
    k = max((p.position[h] for h in mine if h in p.position), default=0)
    wanted = p.order[max(k - 1, 0) :]
    for q in tee:
        if q.group.start <= start:
            continue
        theirs = known(q.id)
        if not theirs:
            continue
        for h in wanted:
            t = theirs.get(h)
            if t is None:
                continue
            if h not in first or t < first[h]:
                first[h] = t
            if h not in last or t > last[h]:
                last[h] = t
    return Behind(first, last)


def silent_from(
    p: GroupPlan,
    mine: Mapping[int, datetime],
    now: datetime,
    spans: Spans = (),
    silent_factor: float = 2.0,
) -> datetime | None:
    """Return the first instant after ``now`` from which the clock alone may make ``p`` a
    silent group (:func:`_silent`: its silence beyond ``silent_factor`` × its hole's
    allotment), None if the clock alone cannot (not off yet, finished, or play stopped: the
    silence waits for the resumption, a fact)."""
    by_pos = {p.position[h]: t for h, t in mine.items() if h in p.position}
    k = max(by_pos, default=0)
    if k == 0 or k >= len(p.order):
        return None
    if spans and spans[-1][1] is None and spans[-1][0] <= now:
        return None  # play stopped now: the silence does not grow until it resumes
    since = by_pos[k]
    stopped = groupclock.stopped_between(spans, since, max(now, since))
    return since + _allot(p, k, k + 1) * silent_factor + stopped + timedelta(microseconds=1)


def _allot(p: GroupPlan, a: int, b: int) -> timedelta:
    """Return the allotment from position ``a`` to position ``b`` in ``p``'s order."""
    return p.cumulative[b] - p.cumulative[a]


def _share(part: timedelta, whole: timedelta) -> float:
    return part / whole if whole > ZERO else 0.5


def _skipped(p: GroupPlan, by_pos: Mapping[int, datetime], k: int) -> list[Estimate]:
    """The holes before the furthest one logged that have no tap (their start bounds the first)."""
    out = []
    known = sorted({0: p.group.start, **by_pos}.items())
    for (a, ta), (b, tb) in zip(known, known[1:], strict=False):
        if b - a < 2 or tb < ta:
            continue  # nothing between, or the log contradicts itself: no estimate
        for m in range(a + 1, b):
            share = _share(_allot(p, a, m), _allot(p, a, b))
            out.append(Estimate(p.id, p.order[m - 1], ta + (tb - ta) * share, ta, tb, SKIPPED))
    return out


def _passed(
    p: GroupPlan,
    by_pos: Mapping[int, datetime],
    k: int,
    later: Behind,
) -> list[Estimate]:
    """The holes beyond the furthest one logged that a group behind has logged already.

    Hole m's latest bound is the earliest instant a group behind completed m or a later hole.
    The group behind plays a hole once the group ahead has left it, so the span between the
    group's last fact and that bound holds the holes up to m and one more hole's allotment
    (the group behind playing m): the estimate takes its share of that, in allotments.
    """
    n = len(p.order)
    first_after: dict[int, datetime] = {}  # position -> earliest completion by a group behind
    for h, t in later.first.items():
        pos = p.position.get(h)
        if pos is not None and pos > k:
            first_after[pos] = t
    if not first_after:
        return []
    top = max(first_after)
    start = by_pos.get(k, p.group.start)
    out: list[Estimate] = []
    latest: datetime | None = None
    bounds: dict[int, datetime] = {}
    for m in range(top, k, -1):  # the latest bound of m: the earliest at m or beyond
        seen = first_after.get(m)
        if seen is not None and (latest is None or seen < latest):
            latest = seen
        assert latest is not None
        bounds[m] = latest
    previous = start
    for m in range(k + 1, min(top, n) + 1):
        bound = bounds[m]
        if bound < start:
            return []  # a group behind completed it before our last fact: no reading
        share = _share(_allot(p, k, m), _allot(p, k, m) + _allot(p, m - 1, m))
        at = max(previous, start + (bound - start) * share)
        at = min(at, bound)
        out.append(Estimate(p.id, p.order[m - 1], at, start, bound, PASSED))
        previous = at
    return out


def _silent(
    p: GroupPlan,
    by_pos: Mapping[int, datetime],
    k: int,
    later: Behind,
    now: datetime,
    spans: Spans,
    factor: float,
) -> list[Estimate]:
    """The hole in play of a group silent for more than ``factor`` × its allotment while a
    group behind has completed its last hole since (the field moves up to it)."""
    if k == 0 or k >= len(p.order):
        return []
    last_hole, since = p.order[k - 1], by_pos[k]
    allot = _allot(p, k, k + 1)
    silence = now - since - groupclock.stopped_between(spans, since, now)
    if silence <= allot * factor:
        return []
    if later.last.get(last_hole, since) <= since:
        return []
    at = min(since + allot + groupclock.stopped_between(spans, since, since + allot), now)
    return [Estimate(p.id, p.order[k], at, since, now, SILENT)]


# --------------------------------------------------------------------------- judging with them


class EstimatedIndex:
    """A field's real completions (any :class:`~pace.rules.position.Completions`) with the
    counted estimates added; :attr:`rested` says whether an answer came from an estimate.

    On a tie the real completion answers: a tap is worth more than an estimate.
    """

    def __init__(self, base: Completions, plan: FieldPlan, estimates: Iterable[Estimate]):
        self.base = base
        self.rested = False
        self._extra: dict[int, list[tuple[datetime, int]]] = {}
        for e in estimates:
            q = plan.by_id.get(e.group)
            if e.counts and q is not None:
                insort(self._extra.setdefault(e.hole, []), (e.at, q.rank))

    def _pick(self, real: datetime | None, guess: datetime | None) -> datetime | None:
        if guess is not None and (real is None or guess > real):
            self.rested = True
            return guess
        return real

    def latest_before(self, hole: int, at: datetime, rank: int) -> datetime | None:
        """Return the latest completion of ``hole`` by another group before (``at``, ``rank``)."""
        extra = self._extra.get(hole, [])
        i = bisect_left(extra, (at, rank))
        return self._pick(self.base.latest_before(hole, at, rank), extra[i - 1][0] if i else None)

    def latest_at(self, hole: int, now: datetime) -> datetime | None:
        """Return the latest completion of ``hole`` by any group at or before ``now``."""
        extra = self._extra.get(hole, [])
        i = bisect_right(extra, (now, 1 << 62))
        return self._pick(self.base.latest_at(hole, now), extra[i - 1][0] if i else None)

    def reported(self, group: str) -> Collection[int]:
        """Return the holes whose counted completion by ``group`` is its own report (an
        estimate is none)."""
        return self.base.reported(group)

    def positioned(self, group: str) -> Mapping[int, timedelta]:
        """Return the holes whose counted completion by ``group`` its positions inferred (an
        estimate is none)."""
        return self.base.positioned(group)


def with_own(
    done: Mapping[int, datetime], own: Iterable[Estimate], now: datetime
) -> tuple[dict[int, datetime], frozenset[int]]:
    """Return a group's logged holes with its counted estimates up to ``now`` added, and the
    holes estimated (a real tap always wins)."""
    merged = dict(done)
    guessed = set()
    for e in own:
        if e.counts and e.at <= now and e.hole not in merged:
            merged[e.hole] = e.at
            guessed.add(e.hole)
    return merged, frozenset(guessed)


def judge(
    p: GroupPlan,
    index: EstimatedIndex,
    done: Mapping[int, datetime],
    own: Sequence[Estimate],
    spans: Spans,
    credits: Sequence[TimeCredit],
    now: datetime,
    *,
    margin: timedelta = ZERO,
    withdrawn_at: datetime | None = None,
    allowance: timedelta = ZERO,
    position_allowance: timedelta = ZERO,
) -> tuple[GroupStatus, bool]:
    """Return a group's status at ``now`` judged with the estimates, and whether it rests on one.

    It rests on an estimate when the hole that decides it is estimated (the group's furthest
    hole) or its gap was measured to another group's estimated completion.
    """
    merged, guessed = with_own(done, own, now)
    index.rested = False
    s = evaluate_group(
        p, index, spans, credits, now, margin=margin, withdrawn_at=withdrawn_at, done=merged,
        allowance=allowance, position_allowance=position_allowance,
    )
    return s, index.rested or (s.last_hole is not None and s.last_hole in guessed)


def judge_history(
    p: GroupPlan,
    index: EstimatedIndex,
    done: Mapping[int, datetime],
    own: Sequence[Estimate],
    spans: Spans,
    credits: Sequence[TimeCredit],
    *,
    margin: timedelta = ZERO,
    allowance: timedelta = ZERO,
    position_allowance: timedelta = ZERO,
) -> tuple[tuple[Evaluation, bool], ...]:
    """Return the group's evaluations at its real completions and credits, judged with the
    estimates, each with whether it rests on one (an estimate is no fact: no evaluation at it)."""
    instants = sorted(set(done.values()) | {c.at for c in credits})
    out = []
    for t in instants:
        seen = {h: at for h, at in done.items() if at <= t}
        s, rests = judge(p, index, seen, own, spans, credits, t, margin=margin,
                         allowance=allowance, position_allowance=position_allowance)  # fmt: skip
        out.append((Evaluation(t, s), rests))
    return tuple(out)


def firm_episodes(
    group: str,
    history: Sequence[tuple[Evaluation, bool]],
    withdrawn_at: datetime | None,
    now: datetime,
) -> tuple[Episode, ...]:
    """Return the group's episodes whose start does not rest on an estimate (the ones an
    out-of-position alert may be raised for: an estimate never penalises)."""
    evaluated = [e for e, _ in history if e.at <= now]
    resting = {e.at for e, rests in history if rests}
    return tuple(
        ep for ep in group_episodes(group, evaluated, withdrawn_at, now) if ep.start not in resting
    )


def of_facts(
    plan: FieldPlan, facts: RoundFacts, now: datetime, *, silent_factor: float = 2.0
) -> tuple[Estimate, ...]:
    """Return :func:`find` for a round's folded facts at ``now``."""
    index = CompletionIndex(plan, facts.completions, now)
    return find(
        plan,
        index.per_group,
        now,
        spans=groupclock.merge_suspensions(facts.suspensions, now),
        withdrawn=facts.withdrawn,
        silent_factor=silent_factor,
    )


def judge_field(
    plan: FieldPlan,
    facts: RoundFacts,
    now: datetime,
    estimates: Sequence[Estimate],
    *,
    margin: timedelta = ZERO,
    allowance: timedelta = ZERO,
    position_allowance: timedelta = ZERO,
) -> dict[str, tuple[GroupStatus, bool]]:
    """Return every group's status at ``now`` judged with ``estimates``, and whether it rests
    on one, in draw order (``position.evaluate_field`` when there is no estimate)."""
    base = CompletionIndex(plan, facts.completions, now)
    index = EstimatedIndex(base, plan, estimates)
    spans = groupclock.merge_suspensions(facts.suspensions, now)
    own: dict[str, list[Estimate]] = {}
    for e in estimates:
        own.setdefault(e.group, []).append(e)
    out = {}
    for p in plan.groups:
        credits = tuple(c for c in facts.credits if c.group == p.id and c.at <= now)
        out[p.id] = judge(
            p,
            index,
            base.per_group.get(p.id, {}),
            own.get(p.id, ()),
            spans,
            credits,
            now,
            margin=margin,
            withdrawn_at=facts.withdrawn.get(p.id),
            allowance=allowance,
            position_allowance=position_allowance,
        )
    return out


# --------------------------------------------------------------------------- the report


@dataclass(frozen=True)
class Confirmed:
    """A missed tap the live loop asked about (a ``missing_tap`` alert) and the real tap that
    answered it: who logged it, when it says the group holed out, and the estimate it replaced.
    """

    group: str
    hole: int
    reason: str
    estimate: datetime
    earliest: datetime | None
    latest: datetime | None
    at: datetime
    by: str

    @property
    def within(self) -> bool | None:
        """Return whether the real instant lies within the estimate's bounds (None: unknown)."""
        if self.earliest is None:
            return None
        return self.earliest <= self.at and (self.latest is None or self.at <= self.latest)


@dataclass(frozen=True)
class MissedTaps:
    """The round's missed taps for its report: how many were asked about, which a real tap
    answered and who logged it, and the estimates still standing at the report's instant."""

    asked: int
    confirmed: tuple[Confirmed, ...]
    standing: tuple[Estimate, ...]

    def estimate(self, group: str, hole: int) -> Estimate | None:
        """Return the standing estimate of ``group``'s ``hole``, if any."""
        return next((e for e in self.standing if (e.group, e.hole) == (group, hole)), None)


#: the alert kind of a missed tap's prompt (docs/estimates.md)
MISSING_TAP = "missing_tap"


def missed_taps(
    plan: FieldPlan,
    facts: RoundFacts,
    events: Sequence[Event],
    now: datetime,
    *,
    author: Callable[[Mapping[str, object]], str] = lambda by: str(by.get("role") or "?"),
) -> MissedTaps:
    """Return the round's missed taps as of ``now``: the ``missing_tap`` prompts in the log, the
    real tap logged after each (not voided; ``author`` names who logged it), and the estimates
    of the taps still missing."""
    voided = {str(e.payload.get("target")) for e in events if e.type == "event_voided"}
    asked: dict[tuple[str, int], Event] = {}
    confirmed: list[Confirmed] = []
    for e in events:
        if e.at > now and e.type != "alert_raised":
            continue
        p = e.payload
        if e.type == "alert_raised" and p.get("kind") == MISSING_TAP and e.at <= now:
            asked.setdefault((str(p.get("group")), int(str(p.get("hole")))), e)
        elif e.type == "hole_completed" and e.id not in voided:
            key = (str(p.get("group")), int(str(p.get("hole"))))
            prompt = asked.pop(key, None)
            if prompt is not None:
                q = prompt.payload
                confirmed.append(
                    Confirmed(
                        key[0],
                        key[1],
                        str(q.get("reason") or ""),
                        prompt.at,
                        _instant(q.get("earliest")),
                        _instant(q.get("latest")),
                        e.at,
                        author(e.by),
                    )
                )
    total = len(confirmed) + len(asked)
    return MissedTaps(total, tuple(confirmed), of_facts(plan, facts, now))


def _instant(value: object) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else None

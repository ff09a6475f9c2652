"""The field folded one event at a time: facts, completions, evaluations and statuses (issue 13).

:func:`pace.rules.facts.fold` folds a whole log, and :func:`pace.rules.position.evaluate_field`
and :func:`~pace.rules.position.evaluations` judge it from scratch: on a live round that costs
O(events) at every tap and every tick. :class:`FieldFold` keeps the same state and applies each
new event to it. A completion, its correction or its void changes the facts of one group and,
through the gaps, may change the evaluations of the groups that completed a hole since (they
are evaluated again at once, and count as changed only if their evaluations did: a correction
re-judges only what it changes) and the status of those that play that hole now; a credit or
a withdrawal changes one group; a siren every group (docs/rules.md §2, §3, §5, §8).

What an event may change bumps counters the callers compare with what they last saw: a
group's ``version`` (its status at any instant, its episodes) and ``evals_version`` (its
evaluations at its completions and credits). Between events a group's status changes by the
clock alone, and only from :meth:`FieldFold.wake` on; a fact stamped after ``now`` (a phone's
clock a few seconds ahead) counts from its instant, when :meth:`FieldFold.advance` reaches it.

Every result equals the whole-log functions' after every event (``facts``, ``evaluations``,
``status``, ``overs``, ``episodes``; tests/unit/rules/test_fieldfold.py checks it on generated
rounds). Evaluations are kept for every fact of the log ("as of the end of the log"): an
evaluation at an instant depends only on facts up to that instant, so those up to ``now`` are
exactly what :func:`~pace.rules.position.evaluations` gives at ``now``.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from pace.rules import facts as factsmod
from pace.rules import groupclock, reported
from pace.rules.events import Event
from pace.rules.model import (
    HoleCompletion,
    RoundFacts,
    RoundSetup,
    Status,
    Suspension,
    TimeCredit,
)
from pace.rules.position import (
    Episode,
    Evaluation,
    FieldPlan,
    GroupPlan,
    GroupStatus,
    evaluate_group,
    slack_of,
)

#: beyond any instant of a round: the evaluations' "end of the log"
FAR = datetime.max.replace(tzinfo=UTC)
#: the clock's resolution: a status that changes *after* an instant changes at this much later
TICK = timedelta(microseconds=1)
ZERO = timedelta(0)

Spans = tuple[tuple[datetime, datetime | None], ...]

#: the figures of a status that grow with the clock, minute for minute, while it projects
OVER, GAP, FINISH = "over_min", "gap_min", "projected_finish"


class LiveIndex:
    """Every group's counted completions per hole, sorted by (instant, start rank).

    The incremental twin of :class:`pace.rules.position.CompletionIndex`, for every fact of
    the log: ``latest_before`` and ``latest_at`` only look before an instant, so they answer
    exactly what an index made at any later ``now`` answers.
    """

    def __init__(self) -> None:
        self._instants: dict[int, list[tuple[datetime, int]]] = {}
        #: per group, the holes whose counted completion is its own report (kept by the fold)
        self._reported: dict[str, set[int]] = {}
        #: per group, the holes whose counted completion its positions inferred, with its spread
        self._positioned: dict[str, dict[int, timedelta]] = {}

    def add(self, hole: int, at: datetime, rank: int) -> None:
        """Count a completion of ``hole`` at ``at`` by the group of start rank ``rank``."""
        insort(self._instants.setdefault(hole, []), (at, rank))

    def remove(self, hole: int, at: datetime, rank: int) -> None:
        """Forget a completion counted with :meth:`add`."""
        entries = self._instants[hole]
        del entries[bisect_left(entries, (at, rank))]

    def latest_before(self, hole: int, at: datetime, rank: int) -> datetime | None:
        """Return the latest completion of ``hole`` by another group before (``at``, ``rank``)."""
        entries = self._instants.get(hole)
        if not entries:
            return None
        i = bisect_left(entries, (at, rank))
        return entries[i - 1][0] if i else None

    def reported(self, group: str) -> set[int] | tuple[()]:
        """Return the holes whose counted completion by ``group`` is its own report."""
        return self._reported.get(group, ())

    def positioned(self, group: str) -> Mapping[int, timedelta]:
        """Return the holes whose counted completion by ``group`` its positions inferred,
        each with its spread (half its interval)."""
        return self._positioned.get(group, {})

    def set_positioned(self, group: str, hole: int, spread: timedelta | None) -> None:
        """Say that ``group``'s counted completion of ``hole`` was inferred from positions,
        with ``spread`` (None: it was not)."""
        if spread is not None:
            self._positioned.setdefault(group, {})[hole] = spread
        else:
            self._positioned.get(group, {}).pop(hole, None)

    def set_reported(self, group: str, hole: int, reported: bool) -> None:
        """Say whether ``group``'s counted completion of ``hole`` is its own report."""
        if reported:
            self._reported.setdefault(group, set()).add(hole)
        else:
            self._reported.get(group, set()).discard(hole)

    def latest_rank_before(self, hole: int, at: datetime, rank: int) -> int | None:
        """Return the start rank of the group whose completion :meth:`latest_before` reads."""
        entries = self._instants.get(hole)
        if not entries:
            return None
        i = bisect_left(entries, (at, rank))
        return entries[i - 1][1] if i else None

    def holes(self, now: datetime) -> frozenset[int]:
        """Return the holes some group completed at or before ``now`` (those observed)."""
        return frozenset(h for h, seen in self._instants.items() if seen and seen[0][0] <= now)

    def latest_at(self, hole: int, now: datetime) -> datetime | None:
        """Return the latest completion of ``hole`` by any group at or before ``now``."""
        entries = self._instants.get(hole)
        if not entries:
            return None
        i = bisect_right(entries, (now, 1 << 62))
        return entries[i - 1][0] if i else None

    def ranks_after(self, hole: int, at: datetime, rank: int) -> list[int]:
        """Return the start ranks of the completions of ``hole`` after (``at``, ``rank``): the
        groups whose gap on that hole a completion at ``at`` by ``rank`` may measure."""
        entries = self._instants.get(hole, [])
        return [r for _, r in entries[bisect_right(entries, (at, rank)) :]]


def stopped(spans: Spans, now: datetime) -> bool:
    """Return whether play is stopped at ``now`` (a siren's stop running, docs/rules.md §8)."""
    return any(s <= now and (e is None or e > now) for s, e in spans)


def anchor(plan: GroupPlan, s: GroupStatus, done: Mapping[int, datetime]) -> datetime:
    """Return the instant a status counts from: the last hole's completion, else the start."""
    return plan.group.start if s.last_hole is None else done[s.last_hole]


def moving(
    plan: GroupPlan,
    s: GroupStatus,
    spans: Spans,
    now: datetime,
    since: datetime,
    cumulative: Sequence[timedelta] | None = None,
) -> frozenset[str]:
    """Return the figures of ``s`` that grow minute for minute with the clock after ``now``.

    While the projection decides the status (the hole in play, docs/rules.md §3), its time over
    grows with the group's clock (not while play is stopped) and its gap with the server's;
    the projected finish grows once the hole in play has taken longer than its allotment
    (``since``: the last completion, or the start). A page projects those figures itself,
    so a row is sent again only when something else changes. ``cumulative``: the group's
    allotment as it stands at ``now`` (:meth:`GroupPlan.cumulative_at`; default: its plan's).
    """
    k, n = s.holes_completed, len(plan.order)
    if k >= n or now < plan.group.start:
        return frozenset()
    cumulative = plan.cumulative if cumulative is None else cumulative
    out = set()
    if s.hole == plan.order[k]:
        if not stopped(spans, now):
            out.add(OVER)
        if s.gap is not None:
            out.add(GAP)
    if s.projected_finish is not None and now - since > cumulative[k + 1] - cumulative[k]:
        out.add(FINISH)
    return frozenset(out)


def next_change(
    plan: GroupPlan,
    s: GroupStatus,
    index: LiveIndex,
    spans: Spans,
    now: datetime,
    since: datetime,
    margin: timedelta = ZERO,
    cumulative: Sequence[timedelta] | None = None,
    allowance: timedelta = ZERO,
    position_allowance: timedelta = ZERO,
) -> datetime | None:
    """Return the first instant after ``now`` at which the clock alone may change ``s``.

    Its status, or which of its figures grow: the start; the instant the group goes over time
    on the hole in play (later if play stops: the siren is a fact, and facts are evaluated when
    they come); for a following group over time, the instant its gap to the group ahead passes
    its interval; the instant its projected finish starts to grow. ``None``: nothing changes
    before the next fact.
    """
    g = plan.group
    if now < g.start:
        return g.start
    k, n = s.holes_completed, len(plan.order)
    if k >= n:
        return None
    cumulative = plan.cumulative if cumulative is None else cumulative
    candidates = []
    p_over = s.elapsed - cumulative[k + 1]
    # a group reporting its own holes is overdue only ``allowance`` later (evaluate_group)
    slack = slack_of(index, g.id, s.last_hole, allowance, position_allowance)
    if p_over <= slack:
        if not stopped(spans, now):  # while play is stopped the group's clock waits too
            candidates.append(now - p_over + slack + TICK)
    elif not plan.lead and plan.interval is not None:
        ahead = index.latest_at(plan.order[k], now)
        if ahead is not None and ahead + plan.interval + margin >= now:
            candidates.append(ahead + plan.interval + margin + TICK)
    switch = since + cumulative[k + 1] - cumulative[k]
    if switch >= now:
        candidates.append(switch + TICK)
    return min(candidates, default=None)


@dataclass(frozen=True)
class _Scope:
    """What a fact's instant reaching ``now`` may change: a group, its hole, or the field."""

    group: str | None = None
    hole: int | None = None


_ALL = _Scope()


class FieldFold:
    """A round's facts and each group's evaluation, kept up to date one event at a time."""

    def __init__(self, setup: RoundSetup, plan: FieldPlan):
        self.setup = setup
        self.plan = plan
        self.margin = setup.settings.gap_margin
        self.allowance = setup.settings.report_allowance
        self.position_allowance = setup.settings.position_allowance
        # facts.fold's tables, in the same order (facts() is computed from them)
        self._completions: dict[str, HoleCompletion] = {}
        self._credits: dict[str, TimeCredit] = {}
        self._withdrawn: dict[str, tuple[str, datetime]] = {}
        self._sirens: dict[str, tuple[str, datetime]] = {}
        self._facts: RoundFacts | None = None
        # what the evaluations read, per group
        self._taps: dict[tuple[str, int], list[str]] = {}
        self._counted: dict[tuple[str, int], datetime] = {}
        self._tap_of: dict[tuple[str, int], str] = {}
        self._batched: dict[str, frozenset[str]] = {}
        self._done: dict[str, dict[int, datetime]] = {p.id: {} for p in plan.groups}
        self._group_credits: dict[str, tuple[TimeCredit, ...]] = {}
        self._withdrawn_at: dict[str, datetime] = {}
        self._latest: dict[str, datetime | None] = {p.id: None for p in plan.groups}
        self.index = LiveIndex()
        self.suspensions: tuple[Suspension, ...] = ()
        self.spans: Spans = ()
        # what callers compare with
        self.version: dict[str, int] = {p.id: 0 for p in plan.groups}
        self.evals_version: dict[str, int] = {p.id: 0 for p in plan.groups}
        self._evals: dict[str, tuple[int, tuple[Evaluation, ...]]] = {}
        self._overs: dict[str, tuple[int, dict[int, tuple[datetime, timedelta]]]] = {}
        self._reached: dict[str, int] = {p.id: 0 for p in plan.groups}
        self._latest_done: dict[str, datetime | None] = {p.id: None for p in plan.groups}
        self._pending: list[tuple[datetime, int, _Scope]] = []
        self._pushed = 0
        #: when each completion reached this fold (the server's instant: a report replayed
        #: from a phone's queue arrives long after its own instant, issue 46)
        self.arrived: dict[str, datetime] = {}
        #: each group's predecessor: the group that started just before it from its tee
        self.predecessor: dict[str, str | None] = predecessors(plan)
        self._by_rank: dict[int, str] | None = None

    # -- folding ------------------------------------------------------------------------------

    def apply(self, e: Event, now: datetime) -> None:
        """Fold one event, as :func:`pace.rules.facts.fold` would after the ones before it.

        ``now`` is the server's instant: a fact stamped later counts from its instant on
        (:meth:`advance`). Events of other kinds change nothing here.
        """
        p = e.payload
        if e.type == factsmod.HOLE_COMPLETED:
            c = reported.completion_of(e)
            self.arrived.setdefault(e.id, now)
            old = self._completions.get(e.id)
            self._completions[e.id] = c
            self._tap_changed(e.id, old, c, now)
            if c.source == reported.GROUP:
                self._reports_changed(c.group, now)
        elif e.type == factsmod.HOLE_TIME_CORRECTED:
            target = str(p["target"])
            old = self._completions.get(target)
            if old is not None:
                at = datetime.fromisoformat(str(p["at"]))
                new = replace(old, at=at)
                self._completions[target] = new
                self._tap_changed(target, old, new, now)
                if new.source == reported.GROUP:
                    self._reports_changed(new.group, now)
        elif e.type == factsmod.EVENT_VOIDED:
            target = str(p["target"])
            tap = self._completions.pop(target, None)
            if tap is not None:
                self._tap_changed(target, tap, None, now)
                if tap.source == reported.GROUP:
                    self._reports_changed(tap.group, now)
            credit = self._credits.pop(target, None)
            if credit is not None:
                self._credits_changed(credit.group, credit.at, now)
            withdrawal = self._withdrawn.pop(target, None)
            if withdrawal is not None:
                self._withdrawals_changed(withdrawal[0], withdrawal[1], now)
            siren = self._sirens.pop(target, None)
            if siren is not None:
                self._sirens_changed(siren[1], now)
        elif e.type == factsmod.TIME_CREDIT_GRANTED:
            amount = timedelta(minutes=float(str(p["minutes"])))
            credit = TimeCredit(str(p["group"]), e.at, amount, str(p.get("reason", "")))
            self._credits[e.id] = credit
            self._credits_changed(credit.group, credit.at, now)
        elif e.type == factsmod.GROUP_WITHDRAWN:
            self._withdrawn[e.id] = (str(p["group"]), e.at)
            self._withdrawals_changed(str(p["group"]), e.at, now)
        elif e.type == factsmod.SIREN:
            self._sirens[e.id] = (str(p["kind"]), e.at)
            self._sirens_changed(e.at, now)
        else:
            return
        self._facts = None

    def _tap_changed(
        self, id: str, old: HoleCompletion | None, new: HoleCompletion | None, now: datetime
    ) -> None:
        if old is not None and (new is None or (new.group, new.hole) != (old.group, old.hole)):
            self._taps[(old.group, old.hole)].remove(id)
            self._recount(old.group, old.hole, now)
        if new is not None:
            taps = self._taps.setdefault((new.group, new.hole), [])
            if id not in taps:
                taps.append(id)
            self._recount(new.group, new.hole, now)

    def _reports_changed(self, group: str, now: datetime) -> None:
        """Read ``group``'s reports again: count again the holes whose report joined or left a
        batch (:func:`pace.rules.reported.batched`)."""
        reports = [
            (id, c)
            for id, c in self._completions.items()
            if c.group == group and c.source == reported.GROUP
        ]
        batched = reported.batched(reports)
        before = self._batched.get(group, frozenset())
        self._batched[group] = batched
        for id in before ^ batched:
            c = self._completions.get(id)
            if c is not None:
                self._recount(group, c.hole, now)

    def _recount(self, group: str, hole: int, now: datetime) -> None:
        """Count the completion of (``group``, ``hole``) again: an official's tap over a
        report, the earliest of a kind, batched reports left out (``one_per_hole_sourced``)."""
        key = (group, hole)
        left_out = self._batched.get(group, frozenset())
        best = reported.counted(
            (id, self._completions[id]) for id in self._taps.get(key, ()) if id not in left_out
        )
        before = self._counted.get(key)
        tap_before = self._tap_of.get(key)
        was_report = hole in self.index.reported(group)
        was_position = self.index.positioned(group).get(hole)
        if best is None:
            self._counted.pop(key, None)
            self._tap_of.pop(key, None)
        else:
            self._counted[key] = best[1].at
            self._tap_of[key] = best[0]
        is_report = best is not None and best[1].source == reported.GROUP
        is_position = best is not None and best[1].source == reported.POSITION
        self.index.set_reported(group, hole, is_report)
        self.index.set_positioned(group, hole, best[1].spread if is_position and best else None)
        after = self._counted.get(key)
        p = self.plan.by_id.get(group)
        if p is None or hole not in p.position:
            return
        if before == after:
            now_position = self.index.positioned(group).get(hole)
            if is_report != was_report or now_position != was_position:
                # the same instant, seen by another: the report's allowance comes or goes
                self._bump(group, evals=True)
            elif self._tap_of.get(key) != tap_before:
                self._bump(group)  # the same instant, another tap: the row names its id
            return
        done = self._done[group]
        if before is not None:
            self.index.remove(hole, before, p.rank)
            del done[hole]
        if after is not None:
            self.index.add(hole, after, p.rank)
            done[hole] = after
            self._later(after, _Scope(group, hole), now)
        self._latest_changed(group)
        low = min(t for t in (before, after) if t is not None)
        self._bump(group, evals=True)
        for q in self.plan.groups:
            if q.id == group:
                continue
            latest = self._latest[q.id]
            # a gap at one of its completions or credits since ``low`` may change: judged again
            # only if its evaluations did (a correction re-judges only what it changes)
            if latest is not None and latest >= low and self._evaluations_changed(q):
                continue
            if self._plays_or_left(q, hole, low, now):
                self._bump(q.id)

    def _evaluations_changed(self, q: GroupPlan) -> bool:
        """Evaluate ``q``'s history again after another group's completion changed; bump and
        keep it if it differs from the one kept (always when none is kept to compare with)."""
        known = self._evals.get(q.id)
        if known is None or known[0] != self.evals_version[q.id]:
            self._bump(q.id, evals=True)
            return True
        fresh = self._evaluate_history(q)
        if fresh == known[1]:
            return False
        self._bump(q.id, evals=True)
        self._evals[q.id] = (self.evals_version[q.id], fresh)
        return True

    def _plays_or_left(self, q: GroupPlan, hole: int, low: datetime, now: datetime) -> bool:
        """Return whether another group's completion of ``hole`` at ``low`` (or a change of
        it from ``low`` on) may change ``q``'s status at ``now``: ``hole`` is the one ``q``
        plays, or the last it completed, at or after that completion (its gap to the group
        ahead reads only the completions of the hole before its own; a group that finished
        long ago is not judged again at every other group's last hole).

        At ``now`` or later: a group with a completion stamped after ``now`` may not have
        reached its furthest hole yet.
        """
        pos = q.position.get(hole)
        if pos is None:
            return False
        reached = self._reached[q.id]
        if not reached and now < q.group.start:
            # not off yet: not_started at ``now`` whatever the others did (its tee time
            # wakes it, ``wake``); every tap on a first hole bumped the whole field before
            return False
        if pos > reached + 1:
            return False
        latest = self._latest_done[q.id]
        if (latest is not None and latest > now) or pos == reached + 1:
            return True
        # ``hole`` is the last ``q`` completed (or one before it): its confirmed gap is to the
        # latest completion of it before its own (``latest_before``)
        return pos == reached and low <= self._done[q.id][hole]

    def _credits_changed(self, group: str, at: datetime, now: datetime) -> None:
        self._group_credits[group] = tuple(c for c in self._credits.values() if c.group == group)
        if group in self.version:
            self._latest_changed(group)
            self._bump(group, evals=True)
            self._later(at, _Scope(group), now)

    def _withdrawals_changed(self, group: str, at: datetime, now: datetime) -> None:
        withdrawn = {g: t for g, t in self._withdrawn.values()}
        if group in withdrawn:
            self._withdrawn_at[group] = withdrawn[group]
        else:
            self._withdrawn_at.pop(group, None)
        if group in self.version:
            self._bump(group)
            self._later(at, _Scope(group), now)

    def _sirens_changed(self, at: datetime, now: datetime) -> None:
        self.suspensions = factsmod.suspensions_from_sirens(self._sirens.values())
        self.spans = groupclock.merge_suspensions(self.suspensions, FAR)
        for q in self.plan.groups:
            self._bump(q.id, evals=True)
        self._later(at, _ALL, now)

    def _latest_changed(self, group: str) -> None:
        done = self._done[group]
        p = self.plan.by_id[group]
        self._reached[group] = max((p.position[h] for h in done), default=0)
        self._latest_done[group] = max(done.values(), default=None)
        credits = [c.at for c in self._group_credits.get(group, ())]
        self._latest[group] = max([*done.values(), *credits], default=None)

    def _bump(self, group: str, *, evals: bool = False) -> None:
        self.version[group] += 1
        if evals:
            self.evals_version[group] += 1

    def _later(self, at: datetime, scope: _Scope, now: datetime) -> None:
        """Remember a fact stamped after ``now``: it counts once :meth:`advance` reaches it."""
        if at > now:
            self._pushed += 1
            heapq.heappush(self._pending, (at, self._pushed, scope))

    def advance(self, now: datetime) -> None:
        """Count the facts whose instant ``now`` has reached (bumping what they change)."""
        while self._pending and self._pending[0][0] <= now:
            at, _, scope = heapq.heappop(self._pending)
            if scope.group is None:
                for q in self.plan.groups:
                    self._bump(q.id)
            else:
                self._bump(scope.group)
                if scope.hole is not None:
                    for q in self.plan.groups:
                        if q.id != scope.group and self._plays_or_left(q, scope.hole, at, now):
                            self._bump(q.id)

    # -- what the rules make of it ----------------------------------------------------------------

    def facts(self) -> RoundFacts:
        """Return the round's facts: exactly :func:`pace.rules.facts.fold` of the log so far."""
        if self._facts is None:
            self._facts = RoundFacts(
                completions=reported.one_per_hole_sourced(list(self._completions.items())),
                suspensions=self.suspensions,
                credits=tuple(self._credits.values()),
                withdrawn={g: at for g, at in self._withdrawn.values()},
            )
        return self._facts

    def done(self, group: str, now: datetime = FAR) -> dict[int, datetime]:
        """Return the holes ``group`` completed by ``now`` and when (the counted completions)."""
        return dict(self._done_by(group, now))

    def _done_by(self, group: str, now: datetime) -> Mapping[int, datetime]:
        """:meth:`done`, read only: the fold's own mapping when every one is done by ``now``
        (the common case: no completion is stamped ahead of the clock)."""
        done = self._done.get(group, {})
        latest = self._latest_done.get(group)
        if latest is None or latest <= now:
            return done
        return {h: at for h, at in done.items() if at <= now}

    def seen_at(self, group: str, hole: int) -> bool:
        """Return whether anything tells that ``group`` completed ``hole``: a live completion
        of it (counted, or a report a batch left out), or a completion of a later hole."""
        if self._taps.get((group, hole)):
            return True
        p = self.plan.by_id.get(group)
        return p is not None and self._reached[group] >= p.position.get(hole, len(p.order) + 1)

    def still_on(self, group: str, hole: int, at: datetime) -> GroupStatus | None:
        """Return ``group``'s status at ``at`` when, seen still on ``hole`` then (a fix of its
        phone, issue 48), it is proved out of position at ``hole`` whatever instant it leaves
        it; None when the sighting proves nothing (docs/positions.md, "Still on the hole").

        Seen on h at t, the group completes h after t: its time over there is at least its
        time over at t, and its gap at least its gap at t (the latest other completion of h
        before it is the same one). So the hole in play ``overdue`` at t (over time on it, its
        gap past its interval and the margin: docs/rules.md §3) proves it. Its time over at t
        is read exactly, whatever its last completion rests on (the status allows for a
        completion of h inferred or reported later than it happened: the fix says there is
        none yet); a completion of h ahead inferred from positions counts at its interval's
        end. Only while no
        completion of h is logged, once its predecessor (the group before it from its tee)
        has been seen at h (else the hole may still be held ahead of it: ``behind``), and,
        when the group reports its own holes (its completion of h may be its report, judged
        with the report's allowance), past both limits by that allowance too."""
        if self.seen_at(group, hole):
            return None
        before = self.predecessor.get(group)
        if before is not None and self._withdrawn_at.get(before) is None \
                and not self.seen_at(before, hole):  # fmt: skip
            return None
        p = self.plan.by_id[group]
        done = self._done_by(group, at)
        k = max((p.position[h] for h in done), default=0)
        if at < p.group.start or k >= len(p.order) or p.order[k] != hole:
            return None
        s = self.status(group, at)
        if s.confirmed is Status.OUT_OF_POSITION or s.status is Status.WITHDRAWN:
            return None
        # seen on the hole at ``at``: it has not completed it, so its time over there is read
        # exactly (no allowance for a completion of it on its way, as the status allows)
        over = s.elapsed - p.cumulative_at(done, at)[k + 1]
        extra = self.allowance if self.reported_holes(group) else ZERO
        if over <= extra:
            return None
        gap = None
        if not p.lead and p.interval is not None:
            ahead_at = self.index.latest_at(hole, at)
            if ahead_at is None:
                return None  # nobody seen there: the hole may still be held ahead of it
            ahead = self.seen_ahead(group, hole, at)
            # a completion ahead inferred from positions may be as late as its interval's end
            gap = at - ahead_at - (self.spread(ahead, hole) if ahead is not None else ZERO)
            if gap <= p.interval + self.margin + extra:
                return None
        return replace(s, status=Status.OVERDUE, projected=Status.OVERDUE, hole=hole, over=over,
                       gap=gap)  # fmt: skip

    def settles(self, group: str, hole: int | None, now: datetime) -> datetime | None:
        """Return until when a verdict on ``group``'s completion of ``hole`` waits for the
        evidence that settles it, None when it need not (docs/status.md, "Groups' reports").

        Only a verdict resting on the group's own report waits: for :data:`reported.BATCH_WINDOW`
        after the report reached the server (a later report within it makes it a batch,
        which proves nothing of this hole), and while the group's predecessor (the group that
        started just before it from its tee) has not been seen at the hole, for the report's
        allowance more (its own report of the hole may be on its way: without it the gap is
        read to a group further ahead, or to nobody).
        """
        if hole is None or self.source(group, hole) != reported.GROUP:
            return None
        id = self._tap_of.get((group, hole))
        at = self._done[group].get(hole)
        if id is None or at is None:
            return None
        known = max(at, self.arrived.get(id, at))
        until = known + reported.BATCH_WINDOW
        before = self.predecessor.get(group)
        if before is not None and self._withdrawn_at.get(before) is None:
            ahead = self._done[before].get(hole)
            ahead_id = self._tap_of.get((before, hole))
            if ahead is None or ahead > at:
                # not seen there before it: its report may be on its way (a later one proves
                # nothing of the gap: it may be a batch's), unless a later hole proves the gap
                if ahead is not None or not self._passed(before, group, hole, at):
                    until = max(until, known + self.report_wait(before, hole))
            elif ahead_id is not None and self.source(before, hole) == reported.GROUP:
                # seen there: once its report cannot turn out to open a batch
                until = max(until, self.arrived.get(ahead_id, ahead) + reported.BATCH_WINDOW)
        return until if until > now else None

    def _passed(self, before: str, group: str, hole: int, at: datetime) -> bool:
        """Return whether ``before`` (``group``'s predecessor, not seen at ``hole``) was seen at
        a later hole early enough to prove ``group``'s gap at ``hole``, completed at ``at`` (its
        report): ``before`` completed ``hole`` no later than its earliest counted completion of
        a later hole, so the gap is at least ``at`` less the report's allowance less that
        instant; past the starting interval between the two and the margin, no report of
        ``hole`` by ``before`` can bring the gap back within them, and the verdict need not
        wait for it (issue 46: a batch's earlier hole, or a hole forgotten)."""
        p, q = self.plan.by_id.get(before), self.plan.by_id.get(group)
        if p is None or q is None or hole not in p.position:
            return False
        k = p.position[hole]
        later = [t for h, t in self._done[before].items() if p.position.get(h, 0) > k]
        if not later:
            return False
        return at - self.allowance - min(later) > q.group.start - p.group.start + self.margin

    def in_batches(self, group: str) -> bool:
        """Return whether ``group`` reports its holes in batches (one of its live reports is
        a batch's earlier hole): its next report may come a hole or two after the one due."""
        return bool(self._batched.get(group))

    def report_wait(self, group: str, hole: int) -> timedelta:
        """Return how long after it is due a report of ``hole`` by ``group`` may still come:
        twice the report's allowance and the allotment of the hole after it (a scorer may
        enter it with the next one), of the two holes after it for a group that reports in
        batches."""
        wait = 2 * self.allowance
        p = self.plan.by_id.get(group)
        if p is None or hole not in p.position:
            return wait
        k = p.position[hole]
        more = 2 if self.in_batches(group) else 1
        return wait + p.cumulative[min(k + more, len(p.order))] - p.cumulative[k]

    def seen_episodes(self, group: str, now: datetime) -> tuple[Episode, ...]:
        """Return ``group``'s episodes of the real log (:meth:`episodes`) that begin with a gap
        to the group truly seen at the hole larger than the starting interval between the two
        groups (the intervals of the groups between them summed, an unseen one included) and
        the committee's margin (issue 46, docs/status.md "Groups' reports").

        A group behind a silent one is judged against the group seen ahead of both: it is out
        of position there only when it has truly lost its place, not merely because the group
        between them was never seen.
        """
        p = self.plan.by_id[group]
        starts = {e.at: e.status for e in self.evaluations(group, now)}
        kept = []
        for e in self.episodes(group, now):
            s = starts.get(e.start)
            if s is None or s.last_hole is None or s.gap is None:
                continue
            seen = self.seen_ahead(group, s.last_hole, e.start)
            if seen is None:
                continue
            if s.gap > p.group.start - self.plan.by_id[seen].group.start + self.margin:
                kept.append(e)
        return tuple(kept)

    def seen_ahead(self, group: str, hole: int, at: datetime) -> str | None:
        """Return the group whose completion of ``hole`` is the latest before ``group``'s at
        ``at`` (the group its gap is read to), None when nobody was seen there before it."""
        p = self.plan.by_id[group]
        rank = self.index.latest_rank_before(hole, at, p.rank)
        if rank is None:
            return None
        if self._by_rank is None:
            self._by_rank = {q.rank: q.id for q in self.plan.groups}
        return self._by_rank.get(rank)

    def ahead_reporting(
        self, group: str, hole: int | None, over: timedelta, now: datetime
    ) -> datetime | None:
        """Return until when ``group``, overdue on ``hole`` by ``over``, waits for its group
        ahead's report: while its predecessor reports its own holes (its last counted
        completion is its report) and has not been seen at ``hole``, the hole may be free
        already and its report on its way; the group is overdue once over by twice the
        report's allowance. None: no wait."""
        if hole is None:
            return None
        waits = []
        done = self._done[group]
        if done and self.source(group, max(done, key=lambda h: done[h])) == reported.GROUP:
            # its own report of the hole in play may be on its way
            waits.append(self.report_wait(group, hole) - 2 * self.allowance)
        before = self.predecessor.get(group)
        if (
            before is not None
            and self._withdrawn_at.get(before) is None
            and not self.seen_at(before, hole)
            and (ahead := self._done[before])
            and self.source(before, max(ahead, key=lambda h: ahead[h])) == reported.GROUP
        ):
            # the group ahead may have left the hole, its report on its way
            waits.append(self.report_wait(before, hole))
        wait = max(waits, default=ZERO) - over
        return now + wait if wait > ZERO else None

    def tap_id(self, group: str, hole: int) -> str | None:
        """Return the id of the tap that counts for ``group``'s ``hole`` (the earliest one)."""
        return self._tap_of.get((group, hole))

    def report_of(self, group: str, hole: int) -> str | None:
        """Return the id of ``group``'s own live report of ``hole`` (batched or not), if any."""
        for id in self._taps.get((group, hole), ()):
            if self._completions[id].source == reported.GROUP:
                return id
        return None

    def reported_holes(self, group: str) -> list[int]:
        """Return the holes ``group`` reported itself (live reports, batched or not)."""
        return sorted(
            {c.hole for c in self._completions.values()
             if c.group == group and c.source == reported.GROUP}
        )  # fmt: skip

    def source(self, group: str, hole: int) -> str | None:
        """Return who saw the completion that counts for ``group``'s ``hole`` (``official``,
        ``group``), None if none counts."""
        id = self._tap_of.get((group, hole))
        c = None if id is None else self._completions.get(id)
        return None if c is None else c.source

    def spread(self, group: str, hole: int) -> timedelta:
        """Return the half interval of the completion that counts for ``group``'s ``hole``
        (one inferred from positions: ``at ± spread``); zero for a tap, a report or none."""
        id = self._tap_of.get((group, hole))
        c = None if id is None else self._completions.get(id)
        return timedelta(0) if c is None else c.spread

    def rests_on_report(self, group: str, at: datetime) -> bool:
        """Return whether ``group``'s latest completion counted by ``at`` is its own report (a
        status resting on it: the alert says "reported by the group")."""
        done = self._done_by(group, at)
        if not done:
            return False
        hole = max(done, key=lambda h: done[h])
        return self.source(group, hole) == reported.GROUP

    def rests_on_position(self, group: str, at: datetime) -> bool:
        """Return whether ``group``'s latest completion counted by ``at`` was inferred from
        its positions (a status resting on it: the alert says "from positions"; issue 48)."""
        done = self._done_by(group, at)
        if not done:
            return False
        hole = max(done, key=lambda h: done[h])
        return self.source(group, hole) == reported.POSITION

    def credits(self, group: str, now: datetime = FAR) -> tuple[TimeCredit, ...]:
        """Return ``group``'s time credits granted by ``now``, in log order."""
        return tuple(c for c in self._group_credits.get(group, ()) if c.at <= now)

    def withdrawn_at(self, group: str) -> datetime | None:
        """Return when ``group`` withdrew, if it did."""
        return self._withdrawn_at.get(group)

    def evaluations(self, group: str, now: datetime = FAR) -> tuple[Evaluation, ...]:
        """Return ``group``'s evaluations at its completions and credits up to ``now``.

        Equal to :func:`pace.rules.position.evaluations` at ``now``; kept until an event
        changes them.
        """
        version = self.evals_version[group]
        known = self._evals.get(group)
        if known is None or known[0] != version:
            known = (version, self._evaluate_history(self.plan.by_id[group]))
            self._evals[group] = known
        if now >= FAR:
            return known[1]
        return tuple(e for e in known[1] if e.at <= now)

    def _evaluate_history(self, p: GroupPlan) -> tuple[Evaluation, ...]:
        done = self._done[p.id]
        credits = self._group_credits.get(p.id, ())
        instants = sorted(set(done.values()) | {c.at for c in credits})
        out = []
        for t in instants:
            seen = {h: at for h, at in done.items() if at <= t}
            s = evaluate_group(p, self.index, self.spans, credits, t, margin=self.margin,
                               done=seen, allowance=self.allowance,
                               position_allowance=self.position_allowance)  # fmt: skip
            out.append(Evaluation(t, s))
        return tuple(out)

    def status(self, group: str, now: datetime) -> GroupStatus:
        """Return ``group``'s status at ``now``, as :func:`~pace.rules.position.evaluate_field`."""
        return evaluate_group(
            self.plan.by_id[group],
            self.index,
            self.spans,
            self._group_credits.get(group, ()),
            now,
            margin=self.margin,
            withdrawn_at=self._withdrawn_at.get(group),
            done=self._done_by(group, now),
            allowance=self.allowance,
            position_allowance=self.position_allowance,
        )

    def wake(self, group: str, s: GroupStatus, now: datetime) -> datetime | None:
        """Return when the clock alone may next change ``group``'s status ``s`` at ``now``.

        ``None``: not before the next fact. Until then, and while ``version`` stays, the
        status at a later instant is ``s`` with its :meth:`moving` figures grown.
        """
        p = self.plan.by_id[group]
        done = self._done_by(group, now)
        cumulative = p.cumulative_at(done, now)
        return next_change(p, s, self.index, self.spans, now, anchor(p, s, done), self.margin,
                           cumulative, self.allowance, self.position_allowance)  # fmt: skip

    def moving(self, group: str, s: GroupStatus, now: datetime) -> frozenset[str]:
        """Return the figures of ``group``'s status ``s`` at ``now`` that grow with the clock."""
        p = self.plan.by_id[group]
        done = self._done_by(group, now)
        return moving(p, s, self.spans, now, anchor(p, s, done), p.cumulative_at(done, now))

    def overs(self, group: str, now: datetime) -> dict[int, tuple[datetime, timedelta]]:
        """Return each hole ``group`` completed by ``now``: its instant and the time over at it.

        As :func:`pace.rules.position.hole_overs` (the credits granted by ``now`` count).
        """
        latest = self._latest.get(group)
        # once every completion and credit of the group is at or before ``now``, they read the
        # same at any later instant: kept until its evaluations change (a siren changes every
        # group's)
        version = self.evals_version[group]
        known = self._overs.get(group)
        settled = latest is None or latest <= now
        if settled and known is not None and known[0] == version:
            return dict(known[1])
        p = self.plan.by_id[group]
        credits = self.credits(group, now)
        out = {}
        done = self._done_by(group, now)
        for hole, at in sorted(done.items(), key=lambda x: x[1]):
            e = groupclock.elapsed(p.group.start, at, self.spans, credits, credits_at=now)
            cumulative = p.cumulative
            if p.sizes:  # the allotment as it stood at the completion
                cumulative = p.cumulative_at({h: t for h, t in done.items() if t <= at}, at)
            out[hole] = (at, e - cumulative[p.position[hole]])
        if settled:
            self._overs[group] = (version, out)
            return dict(out)
        return out

    def episodes(self, group: str, now: datetime) -> tuple[Episode, ...]:
        """Return ``group``'s out-of-position episodes up to ``now`` (as ``position.episodes``)."""
        return group_episodes(group, self.evaluations(group, now), self.withdrawn_at(group), now)


def group_episodes(
    group: str,
    evaluated: Sequence[Evaluation],
    withdrawn_at: datetime | None,
    now: datetime,
) -> tuple[Episode, ...]:
    """Return one group's episodes from its evaluations, as :func:`pace.rules.position.episodes`.

    An episode starts at the first evaluation out of position and ends at the first later one
    that is not (docs/rules.md §3, last clause); finishing or withdrawing closes it.
    """
    out: list[Episode] = []
    current: Episode | None = None
    for e in evaluated:
        s, oop = e.status, e.out_of_position
        if current is None and oop:
            current = Episode(group, e.at, s.last_hole)
        if current is not None and (not oop or s.status is Status.FINISHED):
            ended_by = "finished" if oop else "back_in_position"
            out.append(Episode(group, current.start, current.start_hole, e.at, s.last_hole,
                               ended_by))  # fmt: skip
            current = None
    if current is not None:
        if withdrawn_at is not None and withdrawn_at <= now:
            current = Episode(group, current.start, current.start_hole, withdrawn_at, None,
                              "withdrawn")  # fmt: skip
        out.append(current)
    return tuple(out)


def predecessors(plan: FieldPlan) -> dict[str, str | None]:
    """Return each group's predecessor: the group that started just before it from its tee
    (None for the first off each tee; on equal starts, the earlier in the draw)."""
    out: dict[str, str | None] = {}
    last: dict[int, str] = {}
    for p in sorted(plan.groups, key=lambda p: p.rank):
        out[p.id] = last.get(p.group.tee)
        last[p.group.tee] = p.id
    return out


def fold_all(
    setup: RoundSetup, plan: FieldPlan, events: Iterable[Event], now: datetime
) -> FieldFold:
    """Return a :class:`FieldFold` of ``events`` (a log read back at a restart)."""
    fold = FieldFold(setup, plan)
    for e in events:
        fold.apply(e, now)
    return fold

"""The live round's missed taps: estimates, the statuses judged with them, their prompts.

The pure readings are :mod:`pace.rules.estimates` (docs/estimates.md). Here they meet the live
state: :func:`find` reads the fold's real completions at ``now``; :class:`Judged` gives a
group's status judged with the estimates (a verdict resting on one is marked), its episodes
an out-of-position alert may be raised for (never one that begins on an estimate), and the
row part the pages show. The live loop (:class:`pace.services.live.LiveService`) asks it for
every group an estimate may touch; every other group is judged by the fold as before.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from pace.rules import alerts as alertsmod
from pace.rules import estimates as est
from pace.rules import fieldfold, reported
from pace.rules.estimates import Estimate
from pace.rules.position import Episode, GroupPlan, GroupStatus
from pace.services.state import LiveRound

#: the prompt to confirm or correct an estimate (an alert kind of the live loop)
MISSING_TAP = est.MISSING_TAP


def find(live: LiveRound, now: datetime) -> tuple[Estimate, ...]:
    """Return the estimates of the round's missed taps at ``now``, from its real completions."""
    fold = live.field
    plan = live.view.plan
    withdrawn = {p.id: t for p in plan.groups if (t := fold.withdrawn_at(p.id)) is not None}
    return est.find(
        plan,
        {p.id: fold.done(p.id, now) for p in plan.groups},
        now,
        spans=fold.spans,
        withdrawn=withdrawn,
    )


def touched(live: LiveRound, estimates: Iterable[Estimate], now: datetime) -> frozenset[str]:
    """Return the groups a counted estimate may change the verdict of: its own group, those
    that completed its hole since its earliest bound (their gap), and those playing it."""
    counted = [e for e in estimates if e.counts]
    if not counted:
        return frozenset()
    fold = live.field
    out = {e.group for e in counted}
    for p in live.view.plan.groups:
        done = fold.done(p.id, now)
        reached = max((p.position[h] for h in done), default=0)
        playing = p.order[reached] if reached < len(p.order) else None
        for e in counted:
            when = done.get(e.hole)
            if (when is not None and when >= e.earliest) or playing == e.hole:
                out.add(p.id)
                break
    return frozenset(out)


def _signature(own: Iterable[Estimate]) -> tuple[tuple[Any, ...], ...]:
    """Return estimates as the pages see them (a silent group's latest bound is "now": out)."""
    return tuple(
        (e.group, e.hole, e.reason, e.at, e.earliest, e.latest if e.counts else None) for e in own
    )


def _touches(p: GroupPlan, done: Mapping[int, datetime], e: Estimate) -> bool:
    """Return whether counted estimate ``e`` may change ``p``'s verdict (:func:`touched`)."""
    if p.id == e.group:
        return True
    when = done.get(e.hole)
    if when is not None and when >= e.earliest:
        return True
    reached = max((p.position[h] for h in done if h in p.position), default=0)
    return reached < len(p.order) and p.order[reached] == e.hole


class Standing:
    """A round's missed taps kept group by group as the log and the clock move on (issue 37).

    :func:`find` reads the whole field; here each group's estimates are worked out again only
    when what they read may have changed: the group's own facts (its ``version`` in the
    fold), what the groups behind it on its tee logged of its last hole and beyond (a tap, a
    correction or a void there), or the clock (the instant its silence would exceed its
    hole's allotment, a fact stamped ahead of the clock reaching ``now``: wake-up instants).
    A siren, or a hole logged for the first time, works out the whole field again. The
    estimates are those :func:`find` gives at the same instant (a silent group's ``latest``
    bound aside: "now", which nobody reads). ``moved`` gathers the groups whose rows the
    estimates may have changed, for the live loop to judge again.
    """

    def __init__(self, live: LiveRound) -> None:
        self.live = live
        self.tees: dict[int, list[GroupPlan]] = {}
        for p in live.view.plan.groups:
            self.tees.setdefault(p.group.tee, []).append(p)
        self.own: dict[str, tuple[Estimate, ...]] = {}
        self.estimates: tuple[Estimate, ...] = ()
        self.touched: frozenset[str] = frozenset()
        #: the groups each counted estimate touches, by (group, hole)
        self._touched_by: dict[tuple[str, int], frozenset[str]] = {}
        self._counted: dict[tuple[str, int], Estimate] = {}
        self._known: dict[str, dict[int, datetime]] = {}
        self._versions: dict[str, int] = {}
        self._wakes: dict[str, datetime] = {}
        self._heap: list[tuple[datetime, str]] = []
        self._observed: frozenset[int] | None = None
        self._spans: Any = None
        self.at: datetime | None = None
        #: the groups whose rows the estimates may have changed since :meth:`drain`
        self.moved: set[str] = set()
        #: how many groups' estimates were worked out (the tests' and the bench's count)
        self.worked = 0

    def drain(self) -> frozenset[str]:
        """Return :attr:`moved` and start it again."""
        moved = frozenset(self.moved)
        self.moved.clear()
        return moved

    def update(self, now: datetime, *, wakes: bool = True) -> bool:
        """Bring the estimates to ``now`` (not before the last instant asked: see
        :meth:`pace.services.live.LiveService._judged`); return whether they are whole.

        ``wakes=False`` (issue 50: a tap's own row first) works out only the groups whose
        facts changed and those ahead of them that read the changed holes, on the holes
        observed at the last whole update, and leaves the rest to the next call: the groups
        whose wake-up instant came (the clock's part), and the whole field when a hole was
        logged for the first time (an estimate on it may now show). That call works them out
        as one call would have: the groups a fact changed are worked out again there
        whenever the field is, and nothing a woken group's estimate reads is changed by the
        first part. On a first look, after a siren, or when nothing is left for later, it
        does the whole update and returns True."""
        live = self.live
        fold = live.field
        plan = live.view.plan
        observed = fold.index.holes(now)
        if not wakes and self.at is not None and fold.spans is self._spans:
            if observed != self._observed or self._waiting(now):
                self.at = now
                self._work(self._groups(self._facts(now)), now, False)
                return False
        full = self.at is None or observed != self._observed or fold.spans is not self._spans
        self._observed, self._spans, self.at = observed, fold.spans, now
        if full:
            groups = {p.id for p in plan.groups}
            for p in plan.groups:
                self._known[p.id] = fold.done(p.id, now)
                self._versions[p.id] = fold.version[p.id]
        else:
            groups = self._groups([*self._facts(now), *self._woken(now)])
        if groups:
            self._work(groups, now, full)
        return True

    def _groups(self, changed: Iterable[tuple[str, set[int]]]) -> set[str]:
        """Return the groups to work out again for ``changed`` (each group with the holes
        that changed): each, and the groups ahead of it that read those holes."""
        plan = self.live.view.plan
        groups: set[str] = set()
        for g, holes in changed:
            groups.add(g)
            if holes:
                groups.update(self._ahead(plan.by_id[g], holes))
        return groups

    def _waiting(self, now: datetime) -> bool:
        """Return whether a group's wake-up instant came by ``now`` (an outdated entry of
        the heap too: the next whole update drops it)."""
        return bool(self._heap) and self._heap[0][0] <= now

    def _facts(self, now: datetime) -> list[tuple[str, set[int]]]:
        """Note the known holes of the groups whose facts changed since the last update (their
        version in the fold); return each with the holes that changed."""
        fold = self.live.field
        changed: list[tuple[str, set[int]]] = []
        for p in self.live.view.plan.groups:
            version = fold.version[p.id]
            if self._versions.get(p.id) == version:
                continue
            self._versions[p.id] = version
            new = fold.done(p.id, now)
            old = self._known.get(p.id, {})
            self._known[p.id] = new
            changed.append((p.id, {h for h in new.keys() | old.keys() if new.get(h) != old.get(h)}))
        return changed

    def _woken(self, now: datetime) -> list[tuple[str, set[int]]]:
        """Note the known holes of the groups whose wake-up instant came by ``now``; return
        each with the holes that changed (a fact stamped ahead of the clock reached)."""
        fold = self.live.field
        changed: list[tuple[str, set[int]]] = []
        while self._heap and self._heap[0][0] <= now:
            t, g = heapq.heappop(self._heap)
            if self._wakes.get(g) == t:
                del self._wakes[g]
                new = fold.done(g, now)
                old = self._known.get(g, {})
                self._known[g] = new
                changed.append((g, {h for h in new.keys() | old.keys()
                                    if new.get(h) != old.get(h)}))  # fmt: skip
        return changed

    def _ahead(self, p: GroupPlan, holes: set[int]) -> list[str]:
        """Return the groups ahead of ``p`` on its tee whose estimates read ``holes`` of the
        groups behind them: their last hole logged, or one they have not reached."""
        out = []
        for q in self.tees[p.group.tee]:
            if q.group.start >= p.group.start:
                continue
            known = self._known.get(q.id, {})
            k = max((q.position[h] for h in known if h in q.position), default=0)
            if k >= len(q.order):
                # its last hole logged: its estimates read its own holes alone (no hole is
                # beyond it to pass, and it is not silent: ``find_group``), so no group's
                # fact moves them (at a tap on the last hole, every group done before it)
                continue
            if any(h in q.position and q.position[h] >= k for h in holes):
                out.append(q.id)
        return out

    def _work(self, groups: set[str], now: datetime, full: bool) -> None:
        """Work out the estimates of ``groups`` again, their wake-up instants, and what the
        counted ones touch."""
        fold = self.live.field
        plan = self.live.view.plan
        known = self._known
        observed = self._observed or frozenset()
        spans = fold.spans
        moved_own = False
        for g in groups:
            p = plan.by_id[g]
            mine = known[g]
            later = est.behind_of(p, self.tees[p.group.tee], lambda q: known.get(q, {}))
            left = fold.withdrawn_at(g)
            new = est.find_group(p, mine, later, now, observed, spans=spans, left=left)
            self.worked += 1
            old = self.own.get(g, ())
            if full or _signature(old) != _signature(new):
                if new or old:
                    self.moved.add(g)
                moved_own = True
            if new:
                self.own[g] = new
            else:
                self.own.pop(g, None)
            wakes = [w for w in (est.silent_from(p, mine, now, spans), left) if w and w > now]
            wakes.extend(t for t in fold.done(g).values() if t > now)  # stamped ahead
            if wakes:
                wake = min(wakes)
                if self._wakes.get(g) != wake:
                    self._wakes[g] = wake
                    heapq.heappush(self._heap, (wake, g))
            else:
                self._wakes.pop(g, None)
        if moved_own:
            self.estimates = tuple(e for p in plan.groups for e in self.own.get(p.id, ()))
            counted = {(e.group, e.hole): e for e in self.estimates if e.counts}
            for key in self._counted.keys() | counted.keys():
                before, after = self._counted.get(key), counted.get(key)
                if before == after and not full:
                    continue
                self.moved.update(self._touched_by.pop(key, frozenset()))
                if after is not None:
                    found = frozenset(
                        q.id for q in plan.groups if _touches(q, known.get(q.id, {}), after)
                    )
                    self._touched_by[key] = found
                    self.moved.update(found)
            self._counted = counted
        for key, e in self._counted.items() if not full else ():
            # a group whose own facts changed may start or stop being touched (it is judged
            # again anyway: its version changed)
            was = self._touched_by.get(key, frozenset())
            for g in groups:
                touches = _touches(plan.by_id[g], known.get(g, {}), e)
                if touches != (g in was):
                    was = was | {g} if touches else was - {g}
                    self.moved.add(g)
            self._touched_by[key] = was
        self.touched = frozenset().union(*self._touched_by.values())


class Judged:
    """A round's estimates at ``now`` and the verdicts judged with them."""

    def __init__(
        self, live: LiveRound, now: datetime, standing: Standing | None = None, *,
        wakes: bool = True,
    ) -> None:  # fmt: skip
        self.live = live
        self.now = now
        if standing is None:
            standing = Standing(live)
        #: whether the estimates are the whole field's at ``now`` (``wakes=False``: maybe
        #: not, part of them left to the next update, :meth:`Standing.update`)
        self.whole = standing.update(now, wakes=wakes)
        self.standing = standing
        self.estimates = standing.estimates
        self.touched = standing.touched
        self._estimated: est.EstimatedIndex | None = None
        #: whether each group's status, as last judged here, rests on an estimate
        self.rests: dict[str, bool] = {}

    def own(self, group: str) -> tuple[Estimate, ...]:
        """Return ``group``'s estimates, in its playing order."""
        return self.standing.own.get(group, ())

    def _index(self) -> est.EstimatedIndex:
        if self._estimated is None:
            self._estimated = est.EstimatedIndex(
                self.live.field.index, self.live.view.plan, self.estimates
            )
        return self._estimated

    def status(self, group: str, s: GroupStatus) -> tuple[GroupStatus, bool]:
        """Return ``group``'s status ``s`` (the fold's) judged with the estimates, and whether
        it rests on one (the fold's own when no estimate touches the group)."""
        if group not in self.touched:
            self.rests[group] = False
            return s, False
        fold = self.live.field
        judged, rests = est.judge(
            self.live.view.plan.by_id[group],
            self._index(),
            fold.done(group, self.now),
            self.own(group),
            fold.spans,
            fold.credits(group),
            self.now,
            margin=fold.margin,
            withdrawn_at=fold.withdrawn_at(group),
            allowance=fold.allowance,
            position_allowance=fold.position_allowance,
        )
        self.rests[group] = rests
        return judged, rests

    def _merged(self, group: str) -> Mapping[int, datetime] | None:
        """Return the group's holes with its own counted estimates, None when it has none."""
        own = [e for e in self.own(group) if e.counts]
        if not own:
            return None
        merged, _ = est.with_own(self.live.field.done(group, self.now), own, self.now)
        return merged

    def moving(self, group: str, s: GroupStatus) -> frozenset[str]:
        """Return the figures of the group's status ``s`` that grow with the clock (as the
        fold's ``moving``, from its estimated last hole when it has one)."""
        fold = self.live.field
        merged = self._merged(group)
        if merged is None:
            return fold.moving(group, s, self.now)
        p = self.live.view.plan.by_id[group]
        since = fieldfold.anchor(p, s, merged)
        cumulative = p.cumulative_at(merged, self.now)
        return fieldfold.moving(p, s, fold.spans, self.now, since, cumulative)

    def wake(self, group: str, s: GroupStatus) -> datetime | None:
        """Return when the clock alone may next change the group's status ``s`` (as the
        fold's ``wake``, with the estimates)."""
        fold = self.live.field
        if group not in self.touched:
            return fold.wake(group, s, self.now)
        p = self.live.view.plan.by_id[group]
        merged = self._merged(group) or fold.done(group, self.now)
        since = fieldfold.anchor(p, s, merged)
        cumulative = p.cumulative_at(merged, self.now)
        # the estimated index answers next_change's one question (latest_at) as the fold's does
        index: Any = self._index()
        return fieldfold.next_change(
            p, s, index, fold.spans, self.now, since, fold.margin, cumulative, fold.allowance,
            fold.position_allowance,
        )

    def part(self, group: str) -> dict[str, Any] | None:
        """Return the group row's ``estimate`` part (:func:`row_part`), once its status was
        judged here."""
        return row_part(self.own(group), self.rests.get(group, False))

    def signature(self) -> tuple[tuple[Any, ...], ...]:
        """Return what, when it changes, may change the rows of :meth:`groups`: each estimate
        as the pages see it (a silent group's latest bound is "now": left out)."""
        return _signature(self.estimates)

    def groups(self) -> frozenset[str]:
        """Return the groups whose rows the estimates change: those touched, and those with
        an estimate of their own."""
        return self.touched | {e.group for e in self.estimates}

    def episodes(self, group: str) -> tuple[Episode, ...]:
        """Return the group's episodes an out-of-position alert may be raised for: the fold's,
        or when an estimate touches the group, those that do not begin on an estimate."""
        fold = self.live.field
        if group not in self.touched:
            return fold.episodes(group, self.now)
        history = est.judge_history(
            self.live.view.plan.by_id[group],
            self._index(),
            fold.done(group, self.now),
            self.own(group),
            fold.spans,
            fold.credits(group, self.now),
            margin=fold.margin,
            allowance=fold.allowance,
            position_allowance=fold.position_allowance,
        )
        return est.firm_episodes(group, history, fold.withdrawn_at(group), self.now)

    def alerts(self) -> tuple[alertsmod.Alert, ...]:
        """Return the ``missing_tap`` prompts: one per estimate, for the marshals of its hole
        (``check_holes``); in a round whose completions are the groups' alone there is no
        marshal (:func:`asks`)."""
        scorers = self.live.view.record.completions == reported.GROUPS
        return tuple(
            alertsmod.Alert(
                f"{MISSING_TAP}:{e.group}:{e.hole}",
                MISSING_TAP,
                e.group,
                e.hole,
                e.at,
                check_holes=() if scorers else (e.hole,),
                reason=e.reason,
                bounds=(e.earliest, None if e.reason == est.SILENT else e.latest),
            )
            for e in self.estimates
            if asks(e, scorers)
        )


def asks(e: Estimate, scorers: bool) -> bool:
    """Return whether estimate ``e`` raises a ``missing_tap`` prompt (issue 46).

    With marshals, every estimate does: the marshal of its hole confirms it by logging the tap
    late, with its instant (docs/estimates.md). In a round whose completions are the groups'
    alone (``scorers``) only a ``silent`` one does, and it asks the group's scorer: the hole in
    play, that the group may have finished without entering it. A ``skipped`` or ``passed``
    hole is one the group has left behind (entered only in a batch, or not at all), and
    nobody can give its time: the group's report is the instant it is entered (a batch's hole
    cannot be reported again), so the estimate stays shown as one, and nobody is asked.
    """
    return not scorers or e.reason == est.SILENT


def row_part(own: Sequence[Estimate], rests: bool) -> dict[str, Any] | None:
    """Return a group row's ``estimate`` part: whether its status rests on an estimate, and
    each estimated hole with its instant and bounds (``latest`` null: up to now, a silent
    group's). ``None`` when the group has none and rests on none."""
    if not own and not rests:
        return None
    return {
        "rests": rests,
        "holes": {str(e.hole): hole_view(e) for e in own},
    }


def hole_view(e: Estimate) -> dict[str, Any]:
    """Return an estimated hole as the pages and the report get it."""
    return {
        "at": e.at.isoformat(),
        "earliest": e.earliest.isoformat(),
        "latest": None if e.reason == est.SILENT else e.latest.isoformat(),
        "reason": e.reason,
        "counts": e.counts,
    }


def row_key(part: Mapping[str, Any] | None) -> Any:
    """Return what of the row's ``estimate`` part a page cannot work out (it goes out again
    when it changes)."""
    if part is None:
        return None
    holes = part["holes"]
    return (part["rests"], tuple(sorted((h, tuple(sorted(v.items()))) for h, v in holes.items())))

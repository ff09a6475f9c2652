"""The live round's missed taps: estimates, the statuses judged with them, their prompts.

The pure readings are :mod:`pace.rules.estimates` (docs/estimates.md). Here they meet the live
state: :func:`find` reads the fold's real completions at ``now``; :class:`Judged` gives a
group's status judged with the estimates (a verdict resting on one is marked), its episodes
an out-of-position alert may be raised for (never one that begins on an estimate), and the
row part the pages show. The live loop (:class:`pace.services.live.LiveService`) asks it for
every group an estimate may touch; every other group is judged by the fold as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from pace.rules import alerts as alertsmod
from pace.rules import estimates as est
from pace.rules import fieldfold
from pace.rules.estimates import Estimate
from pace.rules.position import Episode, GroupStatus
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


class Judged:
    """A round's estimates at ``now`` and the verdicts judged with them."""

    def __init__(self, live: LiveRound, now: datetime) -> None:
        self.live = live
        self.now = now
        self.estimates = find(live, now)
        self.touched = touched(live, self.estimates, now)
        #: whether each group's status, as last judged here, rests on an estimate
        self.rests: dict[str, bool] = {}

    def own(self, group: str) -> tuple[Estimate, ...]:
        """Return ``group``'s estimates, in its playing order."""
        return tuple(e for e in self.estimates if e.group == group)

    def _index(self) -> est.EstimatedIndex:
        return est.EstimatedIndex(self.live.field.index, self.live.view.plan, self.estimates)

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
            p, s, index, fold.spans, self.now, since, fold.margin, cumulative
        )

    def part(self, group: str) -> dict[str, Any] | None:
        """Return the group row's ``estimate`` part (:func:`row_part`), once its status was
        judged here."""
        return row_part(self.own(group), self.rests.get(group, False))

    def signature(self) -> tuple[tuple[Any, ...], ...]:
        """Return what, when it changes, may change the rows of :meth:`groups`: each estimate
        as the pages see it (a silent group's latest bound is "now": left out)."""
        return tuple(
            (e.group, e.hole, e.reason, e.at, e.earliest, e.latest if e.counts else None)
            for e in self.estimates
        )

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
        )
        return est.firm_episodes(group, history, fold.withdrawn_at(group), self.now)

    def alerts(self) -> tuple[alertsmod.Alert, ...]:
        """Return one ``missing_tap`` prompt per estimate, for the marshals of its hole."""
        return tuple(
            alertsmod.Alert(
                f"{MISSING_TAP}:{e.group}:{e.hole}",
                MISSING_TAP,
                e.group,
                e.hole,
                e.at,
                check_holes=(e.hole,),
                reason=e.reason,
                bounds=(e.earliest, None if e.reason == est.SILENT else e.latest),
            )
            for e in self.estimates
        )


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

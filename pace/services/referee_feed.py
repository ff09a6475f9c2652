"""The referees' live feed: a live-service companion that keeps each group judged and tells
the pages what changed (penalties, timing, prompts to stop timing).

A companion of :class:`pace.services.live.LiveService` (``LiveService.extend``) over the same
folded round state and lock. The round's referee fold (:class:`pace.rules.refereefold.RefereeFold`)
keeps each group's judgement (docs/rules.md §4–§7), equal to what
:func:`pace.rules.refereeing.judge_round` (``pace penalties``) makes of the same log, and judges
again only the groups an event names. The views (timing per group, penalty rows per player,
the round's policy) join the snapshot; the penalties and timings that changed, and the prompts
to stop timing (§4.6), join the round's feed. The referees' commands are
:class:`pace.services.referees.RefereeService`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pace.rules import alerts as alertsmod
from pace.rules import policies, spells
from pace.rules import refereeing as rr
from pace.rules.errors import SetupError
from pace.rules.penalties import FaultOutcome
from pace.rules.position import GroupStatus
from pace.rules.refereefold import GroupJudgement
from pace.services import referee_views as views
from pace.services import validation
from pace.services.commands import CommandError
from pace.services.live import LiveService
from pace.services.rounds import RoundService, RoundView
from pace.services.state import PENALTIES, TIMING, LiveRound

__all__ = ["RefereeFeed", "round_policy"]


def round_policy(service: RoundService, view: RoundView) -> policies.Policy:
    """Return the round's pace policy (a preset or a custom one of the configuration);
    ``unknown_policy`` when the configuration does not define it."""
    try:
        return service.settings.policy(view.record.policy)
    except SetupError as e:
        raise CommandError(
            f"round {view.record.name!r} uses pace policy {view.record.policy!r}, which "
            f"the configuration does not define ({e.message})",
            code="unknown_policy",
        ) from None


class RefereeFeed:
    """The referees' views of a round and their part of its feed; thread-safe."""

    #: the alerts it raises in the round's feed (resolved when no longer called for)
    alert_kinds = (rr.STOP_TIMING,)

    def __init__(self, live: LiveService) -> None:
        self.live = live
        live.extend(self)

    def policy(self, round: str) -> policies.Policy:
        """Return the round's pace policy (a preset or a custom one of the configuration)."""
        return round_policy(self.live.service, self.live.service.round_view(round))

    def _policy(self, view: RoundView) -> policies.Policy:
        return round_policy(self.live.service, view)

    def timing(self, round: str, now: datetime | None = None) -> dict[str, dict[str, Any]]:
        """Return the timing view of each group with any timing decision."""
        with self.live.lock:
            now = now or self.live.clock.now()
            return _timing_views(self.live.live(round, now), now)

    def penalties(
        self, round: str, now: datetime | None = None, group: str | None = None
    ) -> list[dict[str, Any]]:
        """Return one row per player with any fault, in draw order, every fault whole
        (docs/rules.md §6): the round's, or ``group``'s only (``unknown_group`` when it is not
        in the draw). The snapshot and the feed carry them at a glance (``glance_rows``)."""
        with self.live.lock:
            live = self.live.live(round, now)
            policy = self._policy(live.view)
            if group is not None:
                validation.group_of(live.view, group)
                return list(_rows(live, group, policy)[0])
            return [row for p in live.view.plan.groups for row in _rows(live, p.id, policy)[0]]

    def judgement(self, round: str, now: datetime | None = None) -> rr.Judgement:
        """Return the round's judgement (spells, strokes, faults) as the pages see it."""
        with self.live.lock:
            live = self.live.live(round, now)
            self._policy(live.view)
            return live.referees.judgement()

    def outcomes(self, round: str, now: datetime | None = None) -> tuple[FaultOutcome, ...]:
        """Return every judged fault of the round, counted or not (the cards' penalties)."""
        return self.judgement(round, now).outcomes

    def snapshot_parts(self, live: LiveRound, now: datetime) -> dict[str, Any]:
        """Return the snapshot's ``timing``, ``penalties`` and ``policy_detail``."""
        timing = _timing_views(live, now)
        if live.policy is None:  # the dashboard still shows the field and who is timed
            try:
                self._policy(live.view)
            except CommandError as e:
                message = e.message
            return {
                "timing": timing,
                "penalties": [],
                "policy_detail": {"name": live.view.record.policy, "error": message},
            }
        rows = [row for p in live.view.plan.groups for row in _rows(live, p.id, live.policy)[1]]
        return {
            "timing": timing,
            "penalties": rows,
            "policy_detail": views.policy_view(live.policy, live.view),
        }

    def deltas(
        self, live: LiveRound, statuses: Mapping[str, GroupStatus], now: datetime, tick: bool
    ) -> tuple[list[tuple[str, Mapping[str, Any]]], list[alertsmod.Alert], set[str]]:
        """Return the penalties and timings that changed, the prompts to stop timing due,
        and the groups they were looked for in.

        A group is judged again only when its acts or its evaluations changed; a prompt
        (docs/rules.md §4.6) is looked for in the groups judged again or evaluated again, and in
        those whose spell began or ended with the clock (a decision stamped a moment ahead of
        the feed that heard it begins at a later tick).
        """
        told = live.told.setdefault(
            "referees", {"keys": {}, "penalties": {}, "timing": {}, "timing_keys": {}}
        )
        out: list[tuple[str, Mapping[str, Any]]] = []
        prompts: list[alertsmod.Alert] = []
        looked: set[str] = set()
        refold = live.referees
        for p in live.view.plan.groups:
            g = p.id
            key = refold.key(g)
            known = told["keys"].get(g)
            if known is None and not tick and key == live.base_judged.get(g) and g not in statuses:
                continue  # not touched since the log was folded: the tick tells it
            judged_again = known != key
            if judged_again:
                told["keys"][g] = key
                if live.policy is not None:
                    # told when any fault changed, the uncounted ones too (a page showing the
                    # group's every fault fetches them again); sent at a glance
                    rows, glance = _rows(live, g, live.policy)
                    if told["penalties"].get(g, []) != rows:
                        told["penalties"][g] = rows
                        out.append((PENALTIES, {"group": g, "players": glance}))
            decisions = refold.decisions(g) if judged_again or tick else ()
            began = False  # a spell begun or ended with the clock: its prompt may be due now
            if decisions:  # a spell's start or end may also come with the clock
                group_spells = refold.spells_of(g)
                # what of the view the clock moves: the spell running, the spells begun
                running = spells.running(group_spells, now)
                begun = sum(1 for x in group_spells if x.start <= now)
                seen = (key, None if running is None else running.start, begun)
                if told["timing_keys"].get(g) != seen:
                    began = True
                    told["timing_keys"][g] = seen
                    timing = views.timing_view(live.view, group_spells, decisions, g, now)
                    if told["timing"].get(g) != timing:
                        told["timing"][g] = timing
                        out.append((TIMING, {"group": g, "timing": timing}))
            if judged_again or began or g in statuses:
                s = statuses.get(g) or self.live.judged_status(live, g, now)
                prompts.extend(rr.stop_timing_alert(refold.spells_of(g), s, now))
                looked.add(g)
        return out, prompts, looked


def _rows(
    live: LiveRound, group: str, policy: policies.Policy
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the penalty rows of ``group``'s players with any fault (its judgement's): every
    fault whole, and the same rows at a glance (the snapshot's and the feed's)."""
    judged: GroupJudgement = live.referees.group(group)
    if not judged.outcomes:
        return [], []
    notified = live.referees.notified(group)
    made = live.told.setdefault("penalty_rows", {})
    known = made.get(group)
    if known is not None and known[0] is judged and known[1] == notified and known[3] == policy:
        return known[2], known[4]  # the same judgement (a tap it reads nothing of): the same rows
    strokes = {j.stroke.id: j for _, j in judged.strokes}
    rows = views.penalty_rows(
        live.view,
        group,
        # the round's judgement's order (``refereefold.assemble``): time, then the log's
        (o for _, o in sorted(judged.outcomes, key=lambda x: (x[1].fault.at, x[0]))),
        strokes,
        dict(judged.breaches),
        notified,
        policy,
    )
    glance = views.glance_rows(rows)
    made[group] = (judged, notified, rows, policy, glance)
    return rows, glance


def _timing_views(live: LiveRound, now: datetime) -> dict[str, dict[str, Any]]:
    """Return the timing view of each group with any decision, in draw order."""
    out = {}
    for p in live.view.plan.groups:
        decisions = live.referees.decisions(p.id)
        if decisions:
            spells_of = live.referees.spells_of(p.id)
            out[p.id] = views.timing_view(live.view, spells_of, decisions, p.id, now)
    return out

"""The referees' use cases: timing decisions, the shot clock, notifications, time credits.

A companion of :class:`pace.services.taps.LiveService` over the same log, lock and cache: each
command is validated against the round's state (field-level errors), appended (committed
before returning) and answered with what changed, for the web layer to broadcast. The
views (timing per group, penalties per player, the round's policy) are folds of the log
judged by ``pace.rules`` (RULES.md §4–§7); they join the round's snapshot, and the prompts
to stop timing join the tick's alerts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pace.reports.status import minutes
from pace.rules import alerts as alertsmod
from pace.rules import facts as factsmod
from pace.rules import penalties, policies, timing
from pace.rules import refereeing as rr
from pace.rules.errors import SetupError, UnknownGroupError, UnknownHoleError
from pace.rules.events import Event
from pace.rules.model import Group
from pace.rules.position import Episode, FieldStatus
from pace.services import commands as cmd
from pace.services.rounds import RoundView
from pace.services.taps import CommandError, LiveService

#: A shot clock running longer than this was left running: the stroke is refused.
MAX_STROKE = timedelta(minutes=10)


@dataclass(frozen=True)
class RefereeOutcome:
    """What a referee's command did: the stored event, whether it was new, and its effects.

    ``timing`` is the group's timing view when the command changed it (decide, tell, stop);
    ``verdict`` and ``outcome`` judge a timed stroke (``outcome`` is ``None`` unless the
    stroke is a fault on the policy's ladder).
    """

    event: Event
    created: bool
    group: str
    timing: Mapping[str, Any] | None = None
    verdict: Mapping[str, Any] | None = None
    outcome: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class _Judged:
    """The round's referee state and its penalties, as of an instant."""

    policy: policies.Policy
    state: rr.RefereeState
    penalties: rr.RoundPenalties


class RefereeService:
    """The referees' commands and views over a :class:`LiveService`; thread-safe like it."""

    def __init__(self, live: LiveService, *, max_stroke: timedelta = MAX_STROKE):
        self.live = live
        self.max_stroke = max_stroke
        #: the penalty rows each group's pages were last told of, per round
        self._told: dict[str, dict[str, list[dict[str, Any]]]] = {}
        live.extend(self)

    @property
    def clock(self):
        """Return the service's clock."""
        return self.live.clock

    # -- policy ------------------------------------------------------------------------

    def policy(self, round: str) -> policies.Policy:
        """Return the round's pace policy (a preset or a custom one of the configuration)."""
        return self._policy(self.live.service.round_view(round))

    def _policy(self, view: RoundView) -> policies.Policy:
        try:
            return self.live.service.settings.policy(view.record.policy)
        except SetupError as e:
            raise CommandError(
                f"round {view.record.name!r} uses pace policy {view.record.policy!r}, which "
                f"the configuration does not define ({e.message})",
                code="unknown_policy",
            ) from None

    # -- views -------------------------------------------------------------------------

    def _state(self, round: str) -> rr.RefereeState:
        """Return the referees' state of the round, folded once per new event."""
        cache = self.live._cache(round)
        return cache.memo("referee_state", lambda: rr.fold(cache.events))

    def _judge(self, view: RoundView, events: Sequence[Event], now: datetime) -> _Judged:
        policy = self._policy(view)
        state = self._state(view.record.name)
        # every accepted instant is at most the tolerance ahead of the server's clock
        horizon = now + self.live.future_tolerance
        judged = rr.round_penalties(
            view.setup,
            self.live._cache(view.record.name).folded(),
            state,
            policy,
            horizon,
            play=view.record.play,
            format_name=view.record.format,
            plan=view.plan,
        )
        return _Judged(policy, state, judged)

    def timing(self, round: str) -> dict[str, dict[str, Any]]:
        """Return the timing view of each group with any timing event."""
        with self.live._lock:
            view = self.live.service.round_view(round)
            state = self._state(round)
            return {g: _timing_view(view, t) for g, t in state.groups.items()}

    def penalties(self, round: str, now: datetime | None = None) -> list[dict[str, Any]]:
        """Return one row per player with any fault, in draw order (RULES.md §6)."""
        with self.live._lock:
            view = self.live.service.round_view(round)
            judged = self._judge(view, self.live._cache(round).events, now or self.clock.now())
            return _penalty_rows(view, judged)

    def outcomes(
        self, round: str, now: datetime | None = None
    ) -> tuple[penalties.FaultOutcome, ...]:
        """Return every judged fault of the round, counted or not (the cards' penalties)."""
        with self.live._lock:
            view = self.live.service.round_view(round)
            events = self.live._cache(round).events
            return self._judge(view, events, now or self.clock.now()).penalties.outcomes

    def snapshot_parts(
        self, view: RoundView, events: Sequence[Event], now: datetime
    ) -> dict[str, Any]:
        """Return the snapshot's ``timing``, ``penalties`` and ``policy_detail``."""
        state = self._state(view.record.name)
        parts: dict[str, Any] = {
            "timing": {g: _timing_view(view, t) for g, t in state.groups.items()},
        }
        try:
            judged = self._judge(view, events, now)
        except CommandError as e:  # the dashboard still shows the field
            parts["penalties"] = []
            parts["policy_detail"] = {"name": view.record.policy, "error": e.message}
            return parts
        parts["penalties"] = _penalty_rows(view, judged)
        parts["policy_detail"] = _policy_view(judged.policy, view)
        return parts

    def due_alerts(
        self,
        view: RoundView,
        events: Sequence[Event],
        field: FieldStatus,
        episodes: Sequence[Episode],
        now: datetime,
    ) -> Iterable[alertsmod.Alert]:
        """Return a ``stop_timing`` prompt per timed group back in position (RULES.md §4.6)."""
        return rr.stop_timing_alerts(self._state(view.record.name), field, episodes)

    def changed_penalties(
        self, round: str, now: datetime | None = None
    ) -> list[tuple[str, list[dict[str, Any]]]]:
        """Return (group, rows) for each group whose penalty rows changed since last returned."""
        with self.live._lock:
            view = self.live.service.round_view(round)
            try:
                judged = self._judge(view, self.live._cache(round).events, now or self.clock.now())
            except CommandError:
                return []
            by_group: dict[str, list[dict[str, Any]]] = {}
            for row in _penalty_rows(view, judged):
                by_group.setdefault(row["group"], []).append(row)
            told = self._told.setdefault(round, {})
            changed = []
            for p in view.plan.groups:
                rows = by_group.get(p.id, [])
                if told.get(p.id, []) != rows:
                    told[p.id] = rows
                    changed.append((p.id, rows))
            return changed

    # -- commands ----------------------------------------------------------------------

    def decide_timing(self, c: cmd.DecideTiming) -> RefereeOutcome:
        """Record a decision to time a group, or not to with its mitigating reason (§4.1)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            payload = {
                "group": c.group,
                "decision": c.decision,
                "reason": c.reason or None,
                "note": c.note,
            }
            event = self._event(c, rr.TIMING_DECIDED, payload)
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            _group(view, c.group)
            t = self._state(c.round).timing(c.group)
            if t.timed:
                raise CommandError(
                    f"group {c.group!r} is already being timed since "
                    f"{_local(view, t.since)}; stop timing it first",
                    field="group",
                    code="already_timed",
                )
            stored, created = self.live._append(event)
            return self._timing_outcome(view, stored, created)

    def tell_player_timed(self, c: cmd.TellPlayerTimed) -> RefereeOutcome:
        """Record that a player was told his group is being timed (RULES.md §4.2)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            event = self._event(c, rr.PLAYER_TOLD_TIMED, {"group": c.group, "player": c.player})
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            _player(view, c.group, c.player)
            self._require_timed(view, c.group)
            stored, created = self.live._append(event)
            return self._timing_outcome(view, stored, created)

    def record_stroke(self, c: cmd.RecordStroke) -> RefereeOutcome:
        """Record a stroke timed on the shot clock and judge it (RULES.md §4.3–§4.5, §6)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            started, stopped = c.started.corrected, c.stopped.corrected
            payload = {
                "group": c.group,
                "player": c.player,
                "hole": c.hole,
                "kind": c.kind,
                "first_to_play": c.first_to_play,
                "between_holes": c.between_holes,
                "started": started.isoformat(),
                "stopped": stopped.isoformat(),
                "device_started": c.started.raw.isoformat(),
                "device_stopped": c.stopped.raw.isoformat(),
                "clock_offset_ms": round(c.stopped.offset.total_seconds() * 1000, 1),
                "clock_source": c.stopped.source,
            }
            event = self._event(c, rr.STROKE_TIMED, payload, at=stopped)
            if (stored := self.live.resent(event)) is not None:
                return self._stroke_outcome(view, stored, False)
            self._policy(view)  # unknown_policy before anything is stored
            _player(view, c.group, c.player)
            if not view.record.course.has_hole(c.hole):
                numbers = view.record.course.hole_numbers
                raise UnknownHoleError(
                    f"hole {c.hole} does not exist on this course; holes are "
                    f"{numbers[0]}–{numbers[-1]}",
                    field="hole",
                )
            if stopped < started:
                raise CommandError(
                    f"the shot clock stopped at {_local(view, stopped)}, before it started at "
                    f"{_local(view, started)}",
                    field="stopped",
                    code="invalid_payload",
                )
            if stopped - started > self.max_stroke:
                raise CommandError(
                    f"the shot clock ran {_duration(stopped - started)}, more than "
                    f"{_duration(self.max_stroke)}: it was left running; time the stroke again",
                    field="stopped",
                    code="invalid_payload",
                )
            self.live._check_instant(view, stopped, "stopped")
            self.live._check_instant(view, started, "started")
            self._require_timed(view, c.group)
            stored, created = self.live._append(event)
            return self._stroke_outcome(view, stored, created)

    def notify_player(self, c: cmd.NotifyPlayer) -> RefereeOutcome:
        """Record that a player was told of his fault: the notification gate opens (§6)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            payload = {"group": c.group, "player": c.player, "fault": c.fault}
            event = self._event(c, rr.PLAYER_NOTIFIED, payload)
            if (stored := self.live.resent(event)) is not None:
                return RefereeOutcome(stored, False, c.group)
            _player(view, c.group, c.player)
            judged = self._judge(view, self.live._cache(c.round).events, self.clock.now())
            faults = [o.fault for o in judged.penalties.outcomes if o.fault.id == c.fault]
            if not faults:
                raise CommandError(
                    f"no fault {c.fault!r} in round {c.round!r}: a fault is a bad time's "
                    "stroke id or a checkpoint fault such as 'checkpoint:<group>:1'",
                    field="fault",
                    code="unknown_fault",
                )
            if not any((f.group, f.player) == (c.group, c.player) for f in faults):
                raise CommandError(
                    f"fault {c.fault!r} is {faults[0].player!r}'s (group {faults[0].group!r}), "
                    f"not {c.player!r}'s",
                    field="player",
                    code="unknown_fault",
                )
            stored, created = self.live._append(event)
            return RefereeOutcome(stored, created, c.group)

    def grant_time_credit(self, c: cmd.GrantTimeCredit) -> RefereeOutcome:
        """Grant a group minutes from now on, with a reason (RULES.md §5)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            payload = {"group": c.group, "minutes": c.minutes, "reason": c.reason}
            event = self._event(c, factsmod.TIME_CREDIT_GRANTED, payload)
            if (stored := self.live.resent(event)) is not None:
                return RefereeOutcome(stored, False, c.group)
            _group(view, c.group)
            stored, created = self.live._append(event)
            return RefereeOutcome(stored, created, c.group)

    def stop_timing(self, c: cmd.StopTiming) -> RefereeOutcome:
        """Stop timing a group (back in position; the players are told, RULES.md §4.6)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            event = self._event(c, rr.TIMING_STOPPED, {"group": c.group, "reason": c.reason})
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            _group(view, c.group)
            self._require_timed(view, c.group)
            stored, created = self.live._append(event)
            return self._timing_outcome(view, stored, created)

    # -- helpers -------------------------------------------------------------------------

    def _event(
        self, c: Any, type: str, payload: dict[str, Any], *, at: datetime | None = None
    ) -> Event:
        """Return the event command ``c`` records (appended only once it is judged valid)."""
        return Event(
            id=c.id,
            type=type,
            round=c.round,
            at=at or self.clock.now(),
            payload=payload,
            by=c.by.as_dict(),
        )

    def _require_timed(self, view: RoundView, group: str) -> None:
        _group(view, group)
        if not self._state(view.record.name).timing(group).timed:
            raise CommandError(
                f"group {group!r} is not being timed; decide to time it first",
                field="group",
                code="not_timed",
            )

    def _timing_outcome(self, view: RoundView, stored: Event, created: bool) -> RefereeOutcome:
        group = str(stored.payload["group"])
        t = self._state(view.record.name).timing(group)
        return RefereeOutcome(stored, created, group, timing=_timing_view(view, t))

    def _stroke_outcome(self, view: RoundView, stored: Event, created: bool) -> RefereeOutcome:
        judged = self._judge(view, self.live._cache(view.record.name).events, self.clock.now())
        stroke = rr.fold([stored]).strokes[0]
        verdict = timing.judge(stroke, judged.policy)
        outcome = next((o for o in judged.penalties.outcomes if o.fault.id == stored.id), None)
        return RefereeOutcome(
            stored,
            created,
            stroke.group,
            verdict=_verdict_view(verdict),
            outcome=None if outcome is None else _outcome_view(outcome),
        )


# -- views ---------------------------------------------------------------------------------


def _seconds(d: timedelta | None) -> float | None:
    return None if d is None else round(d.total_seconds(), 1)


def _duration(d: timedelta) -> str:
    total = int(d.total_seconds())
    return f"{total // 60} min {total % 60:02d} s"


def _local(view: RoundView, instant: datetime | None) -> str:
    return "?" if instant is None else instant.astimezone(view.tz).strftime("%H:%M:%S")


def _timing_view(view: RoundView, t: rr.GroupTiming) -> dict[str, Any]:
    plan = view.plan.by_id.get(t.group)
    names = [p.name for p in plan.group.players] if plan else []
    told = [n for n in names if n in t.told] + sorted(t.told - set(names))
    return {
        "timed": t.timed,
        "since": t.since.isoformat() if t.since else None,
        "told": told,
        "decisions": [
            {
                "decision": d.get("decision"),
                "reason": d.get("reason"),
                "note": d.get("note") or "",
                "at": d["at"].isoformat() if isinstance(d.get("at"), datetime) else d.get("at"),
                "by": d.get("by") or {},
            }
            for d in t.decisions
        ],
    }


def _verdict_view(v: timing.StrokeVerdict) -> dict[str, Any]:
    return {
        "allowed_s": _seconds(v.allowed),
        "duration_s": _seconds(v.stroke.duration),
        "over_s": _seconds(v.over),
        "bad_time": v.is_bad_time,
    }


def _penalty_view(p: penalties.Penalty | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"kind": p.kind, "amount": p.amount, "hole": p.hole, "bearer": p.bearer}


def _outcome_view(o: penalties.FaultOutcome) -> dict[str, Any]:
    return {
        "counted": o.counted,
        "reason": o.reason.value,
        "rank": o.rank,
        "penalty": _penalty_view(o.penalty),
    }


def _penalty_rows(view: RoundView, judged: _Judged) -> list[dict[str, Any]]:
    """Return one row per player with any fault, in draw order, each fault judged."""
    verdicts = {v.stroke.id: v for v in judged.penalties.verdicts}
    notified = {(n.group, n.player, n.fault) for n in judged.state.notifications}
    rows = []
    for p in view.plan.groups:
        for player in p.group.players:
            outcomes = judged.penalties.for_player(p.id, player.name)
            if not outcomes:
                continue
            faults = []
            for o in outcomes:
                v = verdicts.get(o.fault.id)
                faults.append(
                    {
                        "id": o.fault.id,
                        "at": o.fault.at.isoformat(),
                        "hole": o.fault.hole,
                        **_outcome_view(o),
                        "awaiting_notification": o.awaiting_notification,
                        "notified": (p.id, player.name, o.fault.id) in notified,
                        "source": o.fault.source,
                        "duration_s": _seconds(v.stroke.duration) if v else None,
                        "allowed_s": _seconds(v.allowed) if v else None,
                        "over_s": _seconds(v.over) if v else None,
                    }
                )
            counted = [o.penalty for o in outcomes if o.counted and o.penalty is not None]
            rows.append(
                {
                    "group": p.id,
                    "player": player.name,
                    "faults": faults,
                    "strokes_total": sum(x.amount for x in counted if x.kind == "strokes"),
                    "points_total": sum(x.amount for x in counted if x.kind == "points"),
                    "holes_lost": [x.hole for x in counted if x.kind == "loss_of_hole"],
                    "disqualified": any(x.kind == "disqualification" for x in counted),
                }
            )
    return rows


def _policy_view(policy: policies.Policy, view: RoundView) -> dict[str, Any]:
    play = view.record.play
    return {
        "name": policy.name,
        "description": policy.description,
        "stroke_allowance_s": _seconds(policy.stroke_allowance),
        "extra_allowance_s": _seconds(policy.extra_allowance),
        # what the shot clock counts down from, per stroke kind (the kinds that earn extra time
        # when the player is the first to play; "other" never does): the rule stays here
        "allowances_s": {
            k.value: _seconds(timing.allowance(k, k is not timing.StrokeKind.OTHER, policy))
            for k in timing.StrokeKind
        },
        "ball_search_s": _seconds(policy.ball_search),
        "play": play,
        "format": view.record.format,
        "gate": policy.notification_gate,
        "ladder": list(
            policy.stroke_ladder if play == penalties.STROKE_PLAY else policy.match_ladder
        ),
        "stroke_ladder": list(policy.stroke_ladder),
        "match_ladder": list(policy.match_ladder),
        "repeat_last": policy.repeat_last,
        "faults_from": policy.faults_from,
        "checkpoint_holes": policy.checkpoint_holes,
        "checkpoint_limit_min": minutes(policy.checkpoint_limit),
    }


# -- validation ----------------------------------------------------------------------------


def _group(view: RoundView, group_id: str) -> Group:
    try:
        return view.plan.by_id[group_id].group
    except KeyError:
        raise UnknownGroupError(
            f"group {group_id!r} is not in the draw of round {view.record.name!r}", field="group"
        ) from None


def _player(view: RoundView, group_id: str, name: str) -> None:
    group = _group(view, group_id)
    names = [p.name for p in group.players]
    if name not in names:
        raise CommandError(
            f"{name!r} is not in group {group_id!r}; its players are "
            + ", ".join(repr(n) for n in names),
            field="player",
            code="unknown_player",
        )

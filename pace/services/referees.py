"""The referees' use cases: timing decisions, the shot clock, notifications, time credits.

A companion of :class:`pace.services.taps.LiveService` over the same log, lock and cache: each
command is validated against the round's state at the act's own instant (field-level
errors), appended (committed before returning) and answered with what changed, for the web
layer to broadcast. The views (timing per group, penalties per player, the round's policy)
come from one judgement of the log by :func:`pace.rules.refereeing.judge_round` (RULES.md
§4–§7), the function ``pace penalties`` judges a paper log with; they join the round's
snapshot, and the prompts to stop timing join the tick's alerts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pace.rules import alerts as alertsmod
from pace.rules import facts as factsmod
from pace.rules import policies, spells
from pace.rules import refereeing as rr
from pace.rules.errors import SetupError, UnknownGroupError, UnknownHoleError
from pace.rules.events import Event
from pace.rules.model import Group
from pace.rules.penalties import FaultOutcome
from pace.rules.position import Episode, FieldStatus
from pace.services import commands as cmd
from pace.services import referee_views as views
from pace.services.rounds import RoundView
from pace.services.taps import CommandError, LiveService

#: A shot clock running longer than this was left running: the stroke is refused.
MAX_STROKE = timedelta(minutes=10)


@dataclass(frozen=True)
class RefereeOutcome:
    """What a referee's command did: the stored event, whether it was new, and its effects.

    ``timing`` is the group's timing view when the command may have changed it (decide,
    tell, stop, a time credit); ``verdict`` and ``outcome`` judge a timed stroke
    (``outcome`` is ``None`` unless the stroke is a fault: a bad time, counted or not).
    """

    event: Event
    created: bool
    group: str
    timing: Mapping[str, Any] | None = None
    verdict: Mapping[str, Any] | None = None
    outcome: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class _Judged:
    """The round's referee state and its judgement, as of an instant."""

    policy: policies.Policy
    state: rr.RefereeState
    judgement: rr.Judgement


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

    # -- the judgement -------------------------------------------------------------------

    def _state(self, round: str) -> rr.RefereeState:
        """Return the referees' state of the round, folded once per new event."""
        cache = self.live._cache(round)
        return cache.memo("referee_state", lambda: rr.fold(cache.events))

    def _judge(self, view: RoundView, now: datetime) -> _Judged:
        """Return the round judged at ``now``: the referees' acts up to the tolerance ahead of
        it (every accepted instant is at most that far ahead of the server's clock, so a stroke
        just recorded is judged), the completions and credits up to ``now``.
        """
        policy = self._policy(view)
        cache = self.live._cache(view.record.name)
        state = self._state(view.record.name)
        horizon = now + self.live.future_tolerance

        def compute() -> rr.Judgement:
            return rr.judge_round(
                view.setup,
                cache.folded(),
                state,
                policy,
                horizon,
                play=view.record.play,
                format_name=view.record.format,
                plan=view.plan,
                evaluated=cache.evaluations(view, now),
            )

        return _Judged(policy, state, self._kept(view, "judgement", now, compute, policy))

    def _kept(
        self, view: RoundView, name: str, now: datetime, compute: Any, key: Any = None
    ) -> Any:
        """Return ``compute()``, kept until the log grows (and for the same ``key``, the
        policy): it is the same at every later instant once the log's latest instant is past.
        """
        cache = self.live._cache(view.record.name)
        known = cache.memo(name, dict)
        latest = cache.memo("latest", lambda: max((e.at for e in cache.events), default=None))
        valid = "value" in known and known.get("key") == key and known["at"] <= now
        if not (valid and (latest is None or latest <= known["at"])):
            known.update(key=key, at=now, value=compute())
        return known["value"]

    def _spells(self, view: RoundView, now: datetime) -> dict[str, tuple[spells.Spell, ...]]:
        """Return every group's timing spells (whatever the policy)."""
        cache = self.live._cache(view.record.name)
        horizon = now + self.live.future_tolerance

        def compute() -> dict[str, tuple[spells.Spell, ...]]:
            state = self._state(view.record.name)
            return rr.round_spells(view.setup, state, cache.evaluations(view, now), horizon)

        return self._kept(view, "spells", now, compute)

    # -- views -------------------------------------------------------------------------

    def timing(self, round: str, now: datetime | None = None) -> dict[str, dict[str, Any]]:
        """Return the timing view of each group with any timing decision."""
        with self.live._lock:
            view = self.live.service.round_view(round)
            now = now or self.clock.now()
            return views.timing_views(view, self._spells(view, now), self._state(round), now)

    def penalties(self, round: str, now: datetime | None = None) -> list[dict[str, Any]]:
        """Return one row per player with any fault, in draw order (RULES.md §6)."""
        with self.live._lock:
            view = self.live.service.round_view(round)
            judged = self._judge(view, now or self.clock.now())
            return views.penalty_rows(view, judged.judgement, judged.state)

    def judgement(self, round: str, now: datetime | None = None) -> rr.Judgement:
        """Return the round's judgement (spells, strokes, faults) as the pages see it."""
        with self.live._lock:
            view = self.live.service.round_view(round)
            return self._judge(view, now or self.clock.now()).judgement

    def outcomes(self, round: str, now: datetime | None = None) -> tuple[FaultOutcome, ...]:
        """Return every judged fault of the round, counted or not (the cards' penalties)."""
        return self.judgement(round, now).outcomes

    def snapshot_parts(
        self, view: RoundView, events: Sequence[Event], now: datetime
    ) -> dict[str, Any]:
        """Return the snapshot's ``timing``, ``penalties`` and ``policy_detail``."""
        state = self._state(view.record.name)
        timing = views.timing_views(view, self._spells(view, now), state, now)
        try:
            judged = self._judge(view, now)
        except CommandError as e:  # the dashboard still shows the field and who is timed
            return {
                "timing": timing,
                "penalties": [],
                "policy_detail": {"name": view.record.policy, "error": e.message},
            }
        return {
            "timing": timing,
            "penalties": views.penalty_rows(view, judged.judgement, judged.state),
            "policy_detail": views.policy_view(judged.policy, view),
        }

    def due_alerts(
        self,
        view: RoundView,
        events: Sequence[Event],
        field: FieldStatus,
        episodes: Sequence[Episode],
        now: datetime,
    ) -> Iterable[alertsmod.Alert]:
        """Return a ``stop_timing`` prompt per timed group back in position (RULES.md §4.6)."""
        try:
            judged = self._judge(view, now)
        except CommandError:
            return ()
        return rr.stop_timing_alerts(judged.judgement, field)

    def changed_penalties(
        self, round: str, now: datetime | None = None
    ) -> list[tuple[str, list[dict[str, Any]]]]:
        """Return (group, rows) for each group whose penalty rows changed since last returned."""
        with self.live._lock:
            view = self.live.service.round_view(round)
            try:
                judged = self._judge(view, now or self.clock.now())
            except CommandError:
                return []
            by_group: dict[str, list[dict[str, Any]]] = {}
            for row in views.penalty_rows(view, judged.judgement, judged.state):
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
                **_device_fields(c.at),
            }
            event = self._event(c, rr.TIMING_DECIDED, payload, at=self._instant(c.at))
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            _group(view, c.group)
            self._check(view, c.at)
            current = self._running(view, c.group, event.at)
            if current is not None:
                raise CommandError(
                    f"group {c.group!r} is already being timed since "
                    f"{_local(view, current.start)}; stop timing it first",
                    field="group",
                    code="already_timed",
                )
            stored, created = self.live._append(event)
            return self._timing_outcome(view, stored, created)

    def tell_player_timed(self, c: cmd.TellPlayerTimed) -> RefereeOutcome:
        """Record that a player was told the group is being timed (RULES.md §4.2)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            payload = {"group": c.group, "player": c.player, **_device_fields(c.at)}
            event = self._event(c, rr.PLAYER_TOLD_TIMED, payload, at=self._instant(c.at))
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            _player(view, c.group, c.player)
            self._check(view, c.at)
            if self._running(view, c.group, event.at) is None:
                raise self._not_timed(view, c.group, event.at)
            stored, created = self.live._append(event)
            return self._timing_outcome(view, stored, created)

    def record_stroke(self, c: cmd.RecordStroke) -> RefereeOutcome:
        """Record a stroke timed on the shot clock and judge it (RULES.md §4.3–§4.7, §6).

        The stroke is judged by its own corrected instants, whenever it arrives: refused only
        when it started outside every timing spell of its group.
        """
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
            spells_of = self._spells(view, self.clock.now()).get(c.group, ())
            if spells.placement(spells_of, started) == spells.NOT_TIMED:
                raise self._not_timed(view, c.group, started, what="when the stroke started at")
            stored, created = self.live._append(event)
            return self._stroke_outcome(view, stored, created)

    def notify_player(self, c: cmd.NotifyPlayer) -> RefereeOutcome:
        """Record that a player was told of a fault: the notification gate opens (§6)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            payload = {
                "group": c.group,
                "player": c.player,
                "fault": c.fault,
                **_device_fields(c.at),
            }
            event = self._event(c, rr.PLAYER_NOTIFIED, payload, at=self._instant(c.at))
            if (stored := self.live.resent(event)) is not None:
                return RefereeOutcome(stored, False, c.group)
            _player(view, c.group, c.player)
            self._check(view, c.at)
            judged = self._judge(view, self.clock.now())
            faults = [o.fault for o in judged.judgement.outcomes if o.fault.id == c.fault]
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
        """Grant a group minutes from the act's instant on, with a reason (RULES.md §5)."""
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            payload = {
                "group": c.group,
                "minutes": c.minutes,
                "reason": c.reason,
                **_device_fields(c.at),
            }
            event = self._event(c, factsmod.TIME_CREDIT_GRANTED, payload, at=self._instant(c.at))
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            _group(view, c.group)
            self._check(view, c.at)
            stored, created = self.live._append(event)
            # a credit may put the group back in position: its timing stops by itself (§4.6)
            return self._timing_outcome(view, stored, created)

    def stop_timing(self, c: cmd.StopTiming) -> RefereeOutcome:
        """Stop timing a group (the players are told, RULES.md §4.6).

        After a spell ended by itself (the group back in position), a stop records that the
        referee told the players; with no spell to stop it is refused (``not_timed``).
        """
        with self.live._lock:
            view = self.live.service.round_view(c.round)
            payload = {"group": c.group, "reason": c.reason, **_device_fields(c.at)}
            event = self._event(c, rr.TIMING_STOPPED, payload, at=self._instant(c.at))
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            _group(view, c.group)
            self._check(view, c.at)
            at = event.at
            group_spells = self._spells(view, self.clock.now()).get(c.group, ())
            latest = next((s for s in reversed(group_spells) if s.start <= at), None)
            stoppable = latest is not None and (
                latest.holds(at)
                or (latest.ended_by == spells.BACK_IN_POSITION and latest.stopped is None)
            )
            if not stoppable:
                raise self._not_timed(view, c.group, at)
            stored, created = self.live._append(event)
            return self._timing_outcome(view, stored, created)

    # -- helpers -------------------------------------------------------------------------

    def _instant(self, at: cmd.DeviceTime | None) -> datetime:
        """Return the act's corrected device instant, or the server's now without one."""
        return self.clock.now() if at is None else at.corrected

    def _check(self, view: RoundView, at: cmd.DeviceTime | None) -> None:
        """Refuse an act's device instant in the future or off the round's day."""
        if at is not None:
            self.live._check_instant(view, at.corrected, "at")

    def _running(self, view: RoundView, group: str, at: datetime) -> spells.Spell | None:
        return spells.running(self._spells(view, self.clock.now()).get(group, ()), at)

    def _not_timed(
        self, view: RoundView, group: str, at: datetime, what: str = "at"
    ) -> CommandError:
        spans = [
            f"{_local(view, s.start)}–{_local(view, s.end) if s.end else 'now'}"
            for s in self._spells(view, self.clock.now()).get(group, ())
        ]
        timed = f"timed {', '.join(spans)}" if spans else "never timed"
        return CommandError(
            f"group {group!r} is not being timed {what} {_local(view, at)} ({timed}); "
            "decide to time it first",
            field="group",
            code="not_timed",
        )

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

    def _timing_outcome(self, view: RoundView, stored: Event, created: bool) -> RefereeOutcome:
        group = str(stored.payload["group"])
        now = self.clock.now()
        state = self._state(view.record.name)
        timing = views.timing_view(view, self._spells(view, now), state, group, now)
        return RefereeOutcome(stored, created, group, timing=timing)

    def _stroke_outcome(self, view: RoundView, stored: Event, created: bool) -> RefereeOutcome:
        judgement = self._judge(view, self.clock.now()).judgement
        judged = judgement.stroke(stored.id)
        outcome = judgement.outcome(stored.id)
        return RefereeOutcome(
            stored,
            created,
            str(stored.payload["group"]),
            verdict=None if judged is None else views.verdict_view(judged),
            outcome=None if outcome is None else views.outcome_view(outcome),
        )


# -- helpers -------------------------------------------------------------------------------


def _device_fields(at: cmd.DeviceTime | None) -> dict[str, Any]:
    """Return what is kept of the act's device instant: its raw value and the offset."""
    if at is None:
        return {}
    return {
        "device_at": at.raw.isoformat(),
        "clock_offset_ms": round(at.offset.total_seconds() * 1000, 1),
        "clock_source": at.source,
    }


def _duration(d: timedelta) -> str:
    total = int(d.total_seconds())
    return f"{total // 60} min {total % 60:02d} s"


def _local(view: RoundView, instant: datetime | None) -> str:
    return "?" if instant is None else instant.astimezone(view.tz).strftime("%H:%M:%S")


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

"""The referees' use cases: timing decisions, the shot clock, notifications, time credits.

Over the live service's folded round state (:mod:`pace.services.state`) and lock, like the
marshals' (:mod:`pace.services.taps`): each command is validated against the round's state at
the act's own instant (field-level errors), appended (committed before returning) and answered
with what it judged: the group's timing, a stroke's verdict and its fault. What the referees'
pages are then told (timing, penalty rows, prompts) is the round's feed, its part by
:class:`pace.services.referee_feed.RefereeFeed`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pace.rules import facts as factsmod
from pace.rules import refereeing as rr
from pace.rules import spells
from pace.rules.events import Event
from pace.services import commands as cmd
from pace.services import referee_views as views
from pace.services.commands import CommandError
from pace.services.live import LiveService
from pace.services.referee_feed import round_policy
from pace.services.rounds import RoundView
from pace.services.validation import check_hole, check_player, group_of, local

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


class RefereeService:
    """The referees' commands over a :class:`LiveService`; thread-safe like it."""

    def __init__(self, live: LiveService, *, max_stroke: timedelta = MAX_STROKE):
        self.live = live
        self.max_stroke = max_stroke

    @property
    def clock(self):
        """Return the service's clock."""
        return self.live.clock

    def decide_timing(self, c: cmd.DecideTiming) -> RefereeOutcome:
        """Record a decision to time a group, or not to with its mitigating reason (§4.1).

        A second decision to time while a spell runs is refused (``already_timed``); a
        decision not to time is always recorded, and ends the spell that runs at its instant.
        """
        with self.live.lock:
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
            group_of(view, c.group)
            self._check(view, c.at)
            # a decision not to time ends the spell that runs, like a stop (docs/penalties.md)
            current = self._running(view, c.group, event.at) if c.decision == "time" else None
            if current is not None:
                raise CommandError(
                    f"group {c.group!r} is already being timed since "
                    f"{local(view, current.start)}; stop timing it first",
                    field="group",
                    code="already_timed",
                )
            stored, created = self.live.append(event)
            return self._timing_outcome(view, stored, created)

    def tell_player_timed(self, c: cmd.TellPlayerTimed) -> RefereeOutcome:
        """Record that a player was told the group is being timed (docs/rules.md §4.2)."""
        with self.live.lock:
            view = self.live.service.round_view(c.round)
            payload = {"group": c.group, "player": c.player, **_device_fields(c.at)}
            event = self._event(c, rr.PLAYER_TOLD_TIMED, payload, at=self._instant(c.at))
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            check_player(view, c.group, c.player)
            self._check(view, c.at)
            if self._running(view, c.group, event.at) is None:
                raise self._not_timed(view, c.group, event.at)
            stored, created = self.live.append(event)
            return self._timing_outcome(view, stored, created)

    def record_stroke(self, c: cmd.RecordStroke) -> RefereeOutcome:
        """Record a stroke timed on the shot clock and judge it (docs/rules.md §4.3–§4.7, §6).

        The stroke is judged by its own corrected instants, whenever it arrives: refused only
        when it started outside every timing spell of its group.
        """
        with self.live.lock:
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
            round_policy(self.live.service, view)  # unknown_policy before anything is stored
            check_player(view, c.group, c.player)
            check_hole(view, c.hole)
            if stopped < started:
                raise CommandError(
                    f"the shot clock stopped at {local(view, stopped)}, before it started at "
                    f"{local(view, started)}",
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
            self.live.check_instant(view, stopped, "stopped")
            self.live.check_instant(view, started, "started")
            if spells.placement(self._spells(view, c.group), started) == spells.NOT_TIMED:
                raise self._not_timed(view, c.group, started, what="when the stroke started at")
            stored, created = self.live.append(event)
            return self._stroke_outcome(view, stored, created)

    def notify_player(self, c: cmd.NotifyPlayer) -> RefereeOutcome:
        """Record that a player was told of a fault: the notification gate opens (§6)."""
        with self.live.lock:
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
            check_player(view, c.group, c.player)
            self._check(view, c.at)
            round_policy(self.live.service, view)
            judgement = self.live.live(c.round).referees.judgement()
            faults = [o.fault for o in judgement.outcomes if o.fault.id == c.fault]
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
            stored, created = self.live.append(event)
            return RefereeOutcome(stored, created, c.group)

    def grant_time_credit(self, c: cmd.GrantTimeCredit) -> RefereeOutcome:
        """Grant a group minutes from the act's instant on, with a reason (docs/rules.md §5)."""
        with self.live.lock:
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
            group_of(view, c.group)
            self._check(view, c.at)
            stored, created = self.live.append(event)
            # a credit may put the group back in position: its timing stops by itself (§4.6)
            return self._timing_outcome(view, stored, created)

    def stop_timing(self, c: cmd.StopTiming) -> RefereeOutcome:
        """Stop timing a group (the players are told, docs/rules.md §4.6).

        After a spell ended by itself (the group back in position), a stop records that the
        referee told the players; with no spell to stop it is refused (``not_timed``).
        """
        with self.live.lock:
            view = self.live.service.round_view(c.round)
            payload = {"group": c.group, "reason": c.reason, **_device_fields(c.at)}
            event = self._event(c, rr.TIMING_STOPPED, payload, at=self._instant(c.at))
            if (stored := self.live.resent(event)) is not None:
                return self._timing_outcome(view, stored, False)
            group_of(view, c.group)
            self._check(view, c.at)
            at = event.at
            group_spells = self._spells(view, c.group)
            latest = next((s for s in reversed(group_spells) if s.start <= at), None)
            stoppable = latest is not None and (
                latest.holds(at)
                or (latest.ended_by == spells.BACK_IN_POSITION and latest.stopped is None)
            )
            if not stoppable:
                raise self._not_timed(view, c.group, at)
            stored, created = self.live.append(event)
            return self._timing_outcome(view, stored, created)

    # -- helpers -------------------------------------------------------------------------

    def _instant(self, at: cmd.DeviceTime | None) -> datetime:
        """Return the act's corrected device instant, or the server's now without one."""
        return self.clock.now() if at is None else at.corrected

    def _check(self, view: RoundView, at: cmd.DeviceTime | None) -> None:
        """Refuse an act's device instant in the future or off the round's day."""
        if at is not None:
            self.live.check_instant(view, at.corrected, "at")

    def _running(self, view: RoundView, group: str, at: datetime) -> spells.Spell | None:
        return spells.running(self._spells(view, group), at)

    def _not_timed(
        self, view: RoundView, group: str, at: datetime, what: str = "at"
    ) -> CommandError:
        spans = [
            f"{local(view, s.start)}–{local(view, s.end) if s.end else 'now'}"
            for s in self._spells(view, group)
        ]
        timed = f"timed {', '.join(spans)}" if spans else "never timed"
        return CommandError(
            f"group {group!r} is not being timed {what} {local(view, at)} ({timed}); "
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

    def _spells(self, view: RoundView, group: str) -> tuple[spells.Spell, ...]:
        """Return the group's timing spells (whatever the policy), from the whole log."""
        return self.live.live(view.record.name).referees.spells_of(group)

    def _timing_outcome(self, view: RoundView, stored: Event, created: bool) -> RefereeOutcome:
        group = str(stored.payload["group"])
        live = self.live.live(view.record.name)
        spells_of, decisions = live.referees.spells_of(group), live.referees.decisions(group)
        timing = views.timing_view(view, spells_of, decisions, group, self.clock.now())
        return RefereeOutcome(stored, created, group, timing=timing)

    def _stroke_outcome(self, view: RoundView, stored: Event, created: bool) -> RefereeOutcome:
        group = str(stored.payload["group"])
        judged = self.live.live(view.record.name).referees.group(group)
        stroke = next((j for _, j in judged.strokes if j.stroke.id == stored.id), None)
        outcome = next((o for _, o in judged.outcomes if o.fault.id == stored.id), None)
        return RefereeOutcome(
            stored,
            created,
            group,
            verdict=None if stroke is None else views.verdict_view(stroke),
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


def _duration(d: timedelta) -> str:
    total = int(d.total_seconds())
    return f"{total // 60} min {total % 60:02d} s"

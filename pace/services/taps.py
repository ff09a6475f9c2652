"""The live loop's use cases: marshals' taps, corrections, sirens, alerts and the tick.

Each command is validated against the round's current state (field-level errors),
appended to the log (committed before returning), and answered with what changed, for
the web layer to broadcast. The tick re-evaluates a round at ``now`` and raises the
alerts the evaluation calls for, as events, so a restart re-sends nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple, Protocol

from pace.rules import alerts as alertsmod
from pace.rules import facts as factsmod
from pace.rules import refereeing
from pace.rules.errors import PaceError, UnknownGroupError, UnknownHoleError
from pace.rules.events import Event, check_resend
from pace.rules.model import RoundFacts
from pace.rules.position import (
    Episode,
    Evaluation,
    FieldStatus,
    episodes,
    evaluate_field,
    evaluations,
    hole_overs,
)
from pace.rules.scoring import records
from pace.services import alerts as alertstore
from pace.services import commands as cmd
from pace.services import rows as rowsmod
from pace.services.rounds import PaceService, RoundView

ALERT_RAISED = alertstore.ALERT_RAISED
ALERT_ACKNOWLEDGED = alertstore.ALERT_ACKNOWLEDGED
ALERT_NAMESPACE = alertstore.ALERT_NAMESPACE

#: How far in the future (server clock) a corrected instant may be: taps are in the past.
FUTURE_TOLERANCE = timedelta(seconds=30)


class CommandError(PaceError, ValueError):
    """A command that cannot be carried out as given; nothing was recorded."""

    code = "invalid_command"


@dataclass(frozen=True)
class Outcome:
    """What a command did: the stored event and whether it was new.

    The group rows it changed are asked afterwards (``LiveService.changed_rows``), so the
    web layer can announce the fact before the field is re-evaluated.
    """

    event: Event
    created: bool
    new_alerts: tuple[dict[str, Any], ...] = ()


class RoundExtension(Protocol):
    """A companion service that adds to a round's snapshot and to the alerts of its tick.

    The referees' service (``pace.services.referees``) is one: it adds timing, penalties and the
    policy to the snapshot, and the prompts to stop timing to the tick's alerts.
    """

    def snapshot_parts(
        self, view: RoundView, events: Sequence[Event], now: datetime
    ) -> Mapping[str, Any]:
        """Return the fields this service adds to the round's snapshot."""
        ...

    def due_alerts(
        self,
        view: RoundView,
        events: Sequence[Event],
        field: FieldStatus,
        episodes: Sequence[Episode],
        now: datetime,
    ) -> Iterable[alertsmod.Alert]:
        """Return the alerts the round's state calls for, besides the live loop's."""
        ...


class Tick(NamedTuple):
    """What a tick changed: group rows, alerts raised, and the ``alert_resolved`` events."""

    rows: tuple[dict[str, Any], ...]
    alerts: tuple[dict[str, Any], ...]
    resolved: tuple[Event, ...] = ()


@dataclass
class _RoundCache:
    events: list[Event] = field(default_factory=list)
    last_seq: int = 0
    #: what the pages were last told of each group (``_essential``), to announce only changes
    told: dict[str, Any] = field(default_factory=dict)
    #: the parts of the group rows that only the setup changes, and the view they come from
    fixed_for: RoundView | None = None
    fixed: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the fold of ``events`` and the ``last_seq`` it was made at (refolded when the log grows)
    facts: RoundFacts | None = None
    facts_seq: int = -1

    #: values derived from the log alone, dropped when the log grows (see ``memo``)
    derived: dict[str, Any] = field(default_factory=dict)
    derived_seq: int = -1

    def folded(self) -> RoundFacts:
        """Return the facts of the cached log, folding again only after new events."""
        if self.facts is None or self.facts_seq != self.last_seq:
            self.facts = factsmod.fold(self.events)
            self.facts_seq = self.last_seq
        return self.facts

    def memo(self, name: str, compute: Callable[[], Any]) -> Any:
        """Return ``compute()`` for the log as it is, computing it again only after new events."""
        if self.derived_seq != self.last_seq:
            self.derived = {}
            self.derived_seq = self.last_seq
        if name not in self.derived:
            self.derived[name] = compute()
        return self.derived[name]

    def settled(self, name: str, now: datetime, compute: Callable[[], Any]) -> Any:
        """Return ``compute()`` of a fold that depends on the log and on ``now``, kept while valid.

        Such a value changes only with the log, as long as no fact lies after the instant it
        was last computed at (a stop of play still running is counted up to ``now``).
        """
        facts = self.folded()
        known = self.memo(name, dict)
        last = known.get("value")
        if last is not None and known["at"] <= now and not _running_stop(facts, now):
            return last
        value = compute()
        if _latest_fact(facts) <= now:
            known.update(value=value, at=now)
        return value

    def episodes(self, view: RoundView, now: datetime) -> tuple[Episode, ...]:
        """Return the round's out-of-position episodes at ``now``."""
        return self.settled(
            "episodes",
            now,
            lambda: episodes(
                view.setup, self.folded(), now, view.plan, self.evaluations(view, now)
            ),
        )

    def evaluations(self, view: RoundView, now: datetime) -> dict[str, tuple[Evaluation, ...]]:
        """Return each group's evaluations at its completions and credits, up to ``now``."""
        return self.settled(
            "evaluations", now, lambda: evaluations(view.setup, self.folded(), now, view.plan)
        )


class LiveService:
    """The live commands over a :class:`PaceService`; safe to call from many threads."""

    def __init__(self, service: PaceService, *, future_tolerance: timedelta = FUTURE_TOLERANCE):
        self.service = service
        self.future_tolerance = future_tolerance
        self._lock = threading.RLock()
        self._rounds: dict[str, _RoundCache] = {}
        self._extensions: list[RoundExtension] = []

    def extend(self, extension: RoundExtension) -> None:
        """Add a companion service's parts to every snapshot and its alerts to every tick."""
        self._extensions.append(extension)

    @property
    def clock(self):
        """Return the service's clock."""
        return self.service.clock

    # -- the log, cached per round ---------------------------------------------------

    def _cache(self, round: str) -> _RoundCache:
        """Return the round's events, refreshed from the store (another process may append)."""
        cache = self._rounds.setdefault(round, _RoundCache())
        new = self.service.store.events(round, after_seq=cache.last_seq)
        if new:
            cache.events.extend(new)
            cache.last_seq = new[-1].seq or cache.last_seq
        return cache

    def events(self, round: str) -> list[Event]:
        """Return the round's log in order."""
        with self._lock:
            self.service.round_view(round)  # UnknownRoundError for a round that is not stored
            return list(self._cache(round).events)

    def resent(self, event: Event) -> Event | None:
        """Return the stored event if ``event``'s id is stored already (a resend), else None.

        The same id with another fact is refused (``event_conflict``): one rule for every
        event kind, ``pace.rules.events.check_resend``.
        """
        stored = self.service.store.event(event.id)
        if stored is not None:
            check_resend(stored, event)
        return stored

    def _append(self, event: Event) -> tuple[Event, bool]:
        stored, created = self.service.store.append(event, recorded_at=self.clock.now())
        self._cache(event.round)
        return stored, created

    # -- evaluation ----------------------------------------------------------------------

    def field(self, round: str, now: datetime | None = None) -> FieldStatus:
        """Return the round's statuses at ``now``."""
        with self._lock:
            view = self.service.round_view(round)
            facts = self._cache(round).folded()
            return evaluate_field(view.setup, facts, now or self.clock.now(), view.plan)

    def snapshot(self, round: str, now: datetime | None = None) -> dict[str, Any]:
        """Return everything a dashboard shows of a round: groups, holes, alerts, sirens."""
        with self._lock:
            now = now or self.clock.now()
            view = self.service.round_view(round)
            # The rows are not remembered: what changed since the last broadcast is still to
            # be announced to the pages that joined earlier (the tick compares with them).
            rows = self._rows(view, now)
            cache = self._cache(round)
            events, facts = cache.events, cache.folded()
            snapshot = {
                "round": round,
                "at": now.isoformat(),
                "day": view.record.day.isoformat(),
                "timezone": view.record.timezone,
                "policy": view.record.policy,
                "course": {
                    "name": view.record.course.name,
                    "holes": [{"number": h.number, "par": h.par} for h in view.record.course.holes],
                },
                "groups": rows,
                "alerts": self.open_alerts(round),
                "resolved_alerts": self.resolved_alerts(round),
                "suspended": any(s.end is None and s.start <= now for s in facts.suspensions),
            }
            for extension in self._extensions:
                snapshot.update(extension.snapshot_parts(view, events, now))
            return snapshot

    def _evaluation(self, view: RoundView, now: datetime) -> rowsmod.Evaluation:
        cache = self._cache(view.record.name)
        events, facts = cache.events, cache.folded()
        return rowsmod.Evaluation(
            evaluate_field(view.setup, facts, now, view.plan),
            hole_overs(view.setup, facts, now, view.plan),
            rowsmod.completion_ids(events),
        )

    def _fixed(self, view: RoundView) -> dict[str, dict[str, Any]]:
        cache = self._rounds.setdefault(view.record.name, _RoundCache())
        if cache.fixed_for is not view:
            cache.fixed = {p.id: rowsmod.fixed_row(p) for p in view.plan.groups}
            cache.fixed_for = view
        return cache.fixed

    def _rows(self, view: RoundView, now: datetime) -> list[dict[str, Any]]:
        ev = self._evaluation(view, now)
        fixed = self._fixed(view)
        return [rowsmod.group_row(s, fixed[s.group], ev) for s in ev.field.groups]

    def changed_rows(self, round: str, now: datetime | None = None) -> tuple[dict[str, Any], ...]:
        """Return the rows of the groups whose status or numbers changed since last returned.

        Only the changed groups' rows are built: a tap re-evaluates the whole field, but
        usually changes one or two rows.
        """
        with self._lock:
            now = now or self.clock.now()
            view = self.service.round_view(round)
            cache = self._cache(round)
            ev = self._evaluation(view, now)
            fixed = self._fixed(view)
            changed = []
            for s in ev.field.groups:
                key = rowsmod.essential(s, ev)
                if cache.told.get(s.group) != key:
                    cache.told[s.group] = key
                    changed.append(rowsmod.group_row(s, fixed[s.group], ev))
            return tuple(changed)

    # -- commands ----------------------------------------------------------------------

    def log_hole_completed(self, c: cmd.LogHoleCompleted) -> Outcome:
        """Record that a group completed a hole; a resend of the same id changes nothing."""
        with self._lock:
            view = self.service.round_view(c.round)
            at = c.at.corrected
            event = Event(
                id=c.id,
                type=factsmod.HOLE_COMPLETED,
                round=c.round,
                at=at,
                payload={
                    "group": c.group,
                    "hole": c.hole,
                    "device_at": c.at.raw.isoformat(),
                    "clock_offset_ms": round(c.at.offset.total_seconds() * 1000, 1),
                    "clock_source": c.at.source,
                },
                by=c.by.as_dict(),
            )
            if (stored := self.resent(event)) is not None:
                return Outcome(stored, False)
            group = _group(view, c.group)
            if not view.record.course.has_hole(c.hole):
                numbers = view.record.course.hole_numbers
                raise UnknownHoleError(
                    f"hole {c.hole} does not exist on this course; holes are "
                    f"{numbers[0]}–{numbers[-1]}",
                    field="hole",
                )
            self._check_instant(view, at, "at")
            if at < group.start:
                raise CommandError(
                    f"group {c.group!r} starts at {_local(view, group.start)}; a completion at "
                    f"{_local(view, at)} is before its start",
                    field="at",
                    code="before_start",
                )
            logged = _logged_completion(self._cache(c.round).folded(), c.group, c.hole)
            if logged is not None:
                raise CommandError(
                    f"group {c.group!r} hole {c.hole} is already logged at "
                    f"{_local(view, logged[1])}; correct that time instead",
                    field="hole",
                    code="already_logged",
                )
            stored, created = self._append(event)
            return Outcome(stored, created)

    def correct_hole_time(self, c: cmd.CorrectHoleTime) -> Outcome:
        """Replace a logged completion's instant; the original stays in the log."""
        with self._lock:
            view = self.service.round_view(c.round)
            at = c.at.corrected
            event = Event(
                id=c.id,
                type=factsmod.HOLE_TIME_CORRECTED,
                round=c.round,
                at=self.clock.now(),
                payload={
                    "target": c.target,
                    "at": at.isoformat(),
                    "device_at": c.at.raw.isoformat(),
                    "reason": c.reason,
                },
                by=c.by.as_dict(),
            )
            if (stored := self.resent(event)) is not None:
                return Outcome(stored, False)
            events = self._cache(c.round).events
            target = _live_target(events, c.target, (factsmod.HOLE_COMPLETED,))
            self._check_instant(view, at, "at")
            group = _group(view, str(target.payload["group"]))
            if at < group.start:
                raise CommandError(
                    f"group {group.id!r} starts at {_local(view, group.start)}; "
                    f"{_local(view, at)} is before its start",
                    field="at",
                    code="before_start",
                )
            stored, created = self._append(event)
            return Outcome(stored, created)

    def void_event(self, c: cmd.VoidEvent) -> Outcome:
        """Cancel a logged fact with a reason; the original stays in the log."""
        with self._lock:
            self.service.round_view(c.round)
            event = Event(
                id=c.id,
                type=factsmod.EVENT_VOIDED,
                round=c.round,
                at=self.clock.now(),
                payload={"target": c.target, "reason": c.reason},
                by=c.by.as_dict(),
            )
            if (stored := self.resent(event)) is not None:
                return Outcome(stored, False)
            _live_target(self._cache(c.round).events, c.target, VOIDABLE)
            stored, created = self._append(event)
            return Outcome(stored, created)

    def record_siren(self, c: cmd.RecordSiren) -> Outcome:
        """Record a siren: play stops (interruption, suspension) or resumes (RULES.md §8)."""
        with self._lock:
            view = self.service.round_view(c.round)
            at = c.at.corrected
            event = Event(
                id=c.id,
                type=factsmod.SIREN,
                round=c.round,
                at=at,
                payload={"kind": c.kind, "device_at": c.at.raw.isoformat()},
                by=c.by.as_dict(),
            )
            if (stored := self.resent(event)) is not None:
                return Outcome(stored, False)
            self._check_instant(view, at, "at")
            stored, created = self._append(event)
            return Outcome(stored, created)

    def acknowledge_alert(self, c: cmd.AcknowledgeAlert) -> Outcome:
        """Take an alert off the dashboards: a referee has seen it."""
        with self._lock:
            self.service.round_view(c.round)
            event = Event(
                id=c.id,
                type=ALERT_ACKNOWLEDGED,
                round=c.round,
                at=self.clock.now(),
                payload={"alert": c.alert, "note": c.note},
                by=c.by.as_dict(),
            )
            if (stored := self.resent(event)) is not None:
                return Outcome(stored, False)
            known = alertstore.state(self._cache(c.round).events)
            raised, acked = known.raised, known.acked
            if c.alert not in raised:
                raise CommandError(
                    f"no alert {c.alert!r} was raised in round {c.round!r}",
                    field="alert",
                    code="unknown_alert",
                )
            if c.alert in acked:
                raise CommandError(
                    f"alert {c.alert!r} is already acknowledged", field="alert", code="already_done"
                )
            stored, created = self._append(event)
            return Outcome(stored, created)

    def _check_instant(self, view: RoundView, at: datetime, field_name: str) -> None:
        now = self.clock.now()
        if at > now + self.future_tolerance:
            raise CommandError(
                f"{_local(view, at)} is in the future (server time {_local(view, now)}); "
                "check the phone's clock",
                field=field_name,
                code="time_in_future",
            )
        day = at.astimezone(view.tz).date()
        if day != view.record.day:
            raise CommandError(
                f"{at.astimezone(view.tz):%Y-%m-%d %H:%M} is not on the round's day "
                f"({view.record.day})",
                field=field_name,
                code="wrong_day",
            )

    # -- alerts and the tick -----------------------------------------------------------

    def open_alerts(self, round: str) -> list[dict[str, Any]]:
        """Return the raised alerts neither acknowledged nor resolved, newest first, those of
        one group together (``pace.rules.alerts.arrange``)."""
        with self._lock:
            return alertsmod.arrange(alertstore.state(self._cache(round).events).open())

    def resolved_alerts(self, round: str) -> list[dict[str, Any]]:
        """Return the alerts whose situation ended, not acknowledged, newest first."""
        with self._lock:
            closed = alertstore.state(self._cache(round).events).closed()
            closed.sort(key=lambda a: a["resolved_at"], reverse=True)
            return closed[: alertstore.RESOLVED_SHOWN]

    def tick(self, round: str, now: datetime | None = None) -> Tick:
        """Re-evaluate ``round`` at ``now``; return the changed group rows, the new alerts
        and the alerts resolved.

        New alerts are appended as ``alert_raised`` events with ids derived from their
        keys, so the same alert is never raised twice, across restarts included; an open
        alert whose situation no longer holds gets an ``alert_resolved`` event (issue 14).
        """
        with self._lock:
            now = now or self.clock.now()
            view = self.service.round_view(round)
            cache = self._cache(round)
            events, facts = cache.events, cache.folded()
            field_ = evaluate_field(view.setup, facts, now, view.plan)
            eps = cache.episodes(view, now)
            due = list(alertsmod.due_alerts(field_, eps, view.record.course.hole_numbers))
            for extension in self._extensions:
                due.extend(extension.due_alerts(view, events, field_, eps, now))
            known = cache.memo("alerts", lambda: alertstore.state(events))
            fresh = []
            for a in due:
                if a.key in known.raised:
                    continue
                stored, created = self._append(alertstore.raised_event(round, a, now))
                if created:
                    fresh.append(alertstore.view(stored))
            ended = []
            if fresh:
                known = alertstore.state(cache.events)
            for alert in alertstore.to_resolve(known, due):
                stored, created = self._append(alertstore.resolved_event(round, alert, now))
                if created:
                    ended.append(stored)
            return Tick(self.changed_rows(round, now), tuple(fresh), tuple(ended))


VOIDABLE = (
    factsmod.HOLE_COMPLETED,
    factsmod.HOLE_TIME_CORRECTED,
    factsmod.SIREN,
    factsmod.TIME_CREDIT_GRANTED,
    factsmod.GROUP_WITHDRAWN,
    # a referee's slip on the shot clock: a stroke timed for the wrong player, a wrong tap
    refereeing.STROKE_TIMED,
    refereeing.PLAYER_NOTIFIED,
    refereeing.PLAYER_TOLD_TIMED,
    # a scorer's slip: a score on the wrong player or hole, a correction taken back
    records.SCORE_RECORDED,
    records.SCORE_CORRECTED,
)


def _group(view: RoundView, group_id: str):
    try:
        return view.plan.by_id[group_id].group
    except KeyError:
        raise UnknownGroupError(
            f"group {group_id!r} is not in the draw of round {view.record.name!r}", field="group"
        ) from None


def _local(view: RoundView, instant: datetime) -> str:
    return instant.astimezone(view.tz).strftime("%H:%M:%S")


def _latest_fact(facts: RoundFacts) -> datetime:
    instants = [c.at for c in facts.completions] + [c.at for c in facts.credits]
    instants += [s.start for s in facts.suspensions] + [s.end for s in facts.suspensions if s.end]
    instants += list(facts.withdrawn.values())
    return max(instants, default=datetime.min.replace(tzinfo=UTC))


def _running_stop(facts: RoundFacts, now: datetime) -> bool:
    return any(s.start <= now and (s.end is None or s.end > now) for s in facts.suspensions)


def _logged_completion(facts: RoundFacts, group: str, hole: int) -> tuple[str, datetime] | None:
    for c in facts.completions:
        if c.group == group and c.hole == hole:
            return (group, c.at)
    return None


def _live_target(events: list[Event], target: str, types: tuple[str, ...]) -> Event:
    voided = rowsmod.voided_ids(events)
    for e in events:
        if e.id == target:
            if e.type not in types:
                raise CommandError(
                    f"event {target!r} is a {e.type}, which cannot be changed this way",
                    field="target",
                    code="wrong_target",
                )
            if target in voided:
                raise CommandError(
                    f"event {target!r} was already voided", field="target", code="already_done"
                )
            return e
    raise CommandError(f"no event {target!r} in this round", field="target", code="unknown_target")

"""The live loop's use cases: marshals' taps, corrections, sirens, alerts, the feed and the tick.

Each command is validated against the round's folded state (:mod:`pace.services.state`;
field-level errors), appended to the log (committed before returning), and answered with the
stored event. What the pages must then be told comes from :meth:`LiveService.changes`: the
group rows whose status or shown figures changed, the alerts the new state calls for (raised
as events, so a restart re-sends nothing), and what the companion services add (the referees'
penalties and timing, the hold-up panel), each numbered in the round's feed. The tick is the
same question asked by the clock: a group is evaluated again only when an event touched it or
its status may have changed with the clock, so a quiet tick folds and evaluates nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pace.rules import alerts as alertsmod
from pace.rules import facts as factsmod
from pace.rules import refereeing
from pace.rules.errors import PaceError, UnknownGroupError, UnknownHoleError
from pace.rules.events import Event, EventConflictError, check_resend
from pace.rules.position import FieldStatus, GroupStatus
from pace.rules.scoring import records
from pace.services import alerts as alertstore
from pace.services import commands as cmd
from pace.services import rows as rowsmod
from pace.services.rounds import PaceService, RoundView
from pace.services.state import (
    ACKNOWLEDGED,
    ALERT,
    ALERT_ACKNOWLEDGED,
    ALERT_RAISED,
    PARTS,
    RESOLVED,
    ROW,
    Companion,
    Delta,
    LiveRound,
    LiveRounds,
    alert_view,
)
from pace.services.state import suspended as _suspended

__all__ = ["ALERT_ACKNOWLEDGED", "ALERT_RAISED", "CommandError", "LiveService", "Outcome"]

ALERT_NAMESPACE = alertstore.ALERT_NAMESPACE
#: the alerts the live loop itself raises (a companion raises its own kinds)
LIVE_KINDS = (alertsmod.OUT_OF_POSITION, alertsmod.BACK_IN_POSITION, alertsmod.OVERDUE)

#: How far in the future (server clock) a corrected instant may be: taps are in the past.
FUTURE_TOLERANCE = timedelta(seconds=30)


class CommandError(PaceError, ValueError):
    """A command that cannot be carried out as given; nothing was recorded."""

    code = "invalid_command"


@dataclass(frozen=True)
class Outcome:
    """What a command did: the stored event and whether it was new.

    What it changed for the pages is asked afterwards (``LiveService.changes``), so the web
    layer can announce the fact first.
    """

    event: Event
    created: bool


class LiveService:
    """The live commands and the round's feed over a :class:`PaceService`; thread-safe."""

    def __init__(self, service: PaceService, *, future_tolerance: timedelta = FUTURE_TOLERANCE):
        self.service = service
        self.future_tolerance = future_tolerance
        self.rounds = LiveRounds(service)
        #: the snapshot says which delta it includes (``rev``); off with several workers, whose
        #: feeds number their own deltas: pages then apply deltas as they come
        self.numbered = True
        self._lock = self.rounds.lock
        self._companions: list[Companion] = []
        self._fixed: dict[str, tuple[RoundView, dict[str, dict[str, Any]]]] = {}

    def extend(self, companion: Companion) -> None:
        """Add a companion's parts to every snapshot, and its deltas and alerts to the feed."""
        self._companions.append(companion)

    @property
    def clock(self):
        """Return the service's clock."""
        return self.service.clock

    # -- the shared state ------------------------------------------------------------------

    def live(self, round: str, now: datetime | None = None) -> LiveRound:
        """Return the round's folded state, every stored event applied (``UnknownRoundError``)."""
        return self.rounds.get(round, now or self.clock.now())

    def events(self, round: str) -> list[Event]:
        """Return the round's log in order."""
        with self._lock:
            return list(self.live(round).events)

    def resent(self, event: Event) -> Event | None:
        """Return the stored event if ``event``'s id is stored already (a resend), else None.

        The same id with another fact is refused (``event_conflict``): one rule for every
        event kind, ``pace.rules.events.check_resend``.
        """
        stored = self.service.store.event(event.id)
        if stored is not None:
            check_resend(stored, event)
        return stored

    def append(self, event: Event) -> tuple[Event, bool]:
        """Store ``event`` (committed on return) and fold it into the round's state."""
        stored, created = self.service.store.append(event, recorded_at=self.clock.now())
        self.live(event.round)
        return stored, created

    # -- what pages are shown ------------------------------------------------------------------

    def field(self, round: str, now: datetime | None = None) -> FieldStatus:
        """Return the round's statuses at ``now`` (any instant: the facts up to it count)."""
        with self._lock:
            now = now or self.clock.now()
            live = self.live(round, now)
            statuses = tuple(live.field.status(p.id, now) for p in live.view.plan.groups)
            return FieldStatus(now, live.view.plan.standard_interval, statuses)

    def snapshot(self, round: str, now: datetime | None = None) -> dict[str, Any]:
        """Return everything a dashboard shows of a round: groups, holes, alerts, sirens.

        ``rev`` is the number of the last delta of the round's feed it includes.
        """
        with self._lock:
            now = now or self.clock.now()
            live = self.live(round, now)
            view = live.view
            rows = [self._row(live, p.id, live.field.status(p.id, now), now)[0]
                    for p in view.plan.groups]  # fmt: skip
            snapshot = {
                "round": round,
                "rev": live.rev if self.numbered else None,
                "at": now.isoformat(),
                "day": view.record.day.isoformat(),
                "timezone": view.record.timezone,
                "policy": view.record.policy,
                "course": {
                    "name": view.record.course.name,
                    "holes": [{"number": h.number, "par": h.par} for h in view.record.course.holes],
                },
                "groups": rows,
                "alerts": alertsmod.arrange(live.alerts.open()),
                "resolved_alerts": live.alerts.closed(alertstore.RESOLVED_SHOWN),
                "suspended": _suspended(live, now),
            }
            for companion in self._companions:
                snapshot.update(companion.snapshot_parts(live, now))
            return snapshot

    def open_alerts(self, round: str) -> list[dict[str, Any]]:
        """Return the raised alerts no referee has acknowledged yet, oldest first."""
        with self._lock:
            return self.live(round).alerts.open()

    def _fixed_rows(self, view: RoundView) -> dict[str, dict[str, Any]]:
        known = self._fixed.get(view.record.name)
        if known is None or known[0] is not view:
            known = (view, {p.id: rowsmod.fixed_row(p) for p in view.plan.groups})
            self._fixed[view.record.name] = known
        return known[1]

    def _row(
        self, live: LiveRound, group: str, s: GroupStatus, now: datetime
    ) -> tuple[dict[str, Any], tuple[Any, ...]]:
        """Return a group's row at ``now`` and its key (what a page cannot project)."""
        fold = live.field
        holes = {
            h: (at, over, fold.tap_id(group, h)) for h, (at, over) in fold.overs(group, now).items()
        }
        moving = fold.moving(group, s, now)
        fixed = self._fixed_rows(live.view)[group]
        return rowsmod.group_row(s, fixed, holes, now, moving), rowsmod.row_key(
            s, holes, now, moving
        )

    # -- the feed ----------------------------------------------------------------------------

    def changes(
        self, round: str, now: datetime | None = None, *, tick: bool = False
    ) -> tuple[Delta, ...]:
        """Return what changed for the round's pages since last asked, numbered in its feed.

        The alerts acknowledged, the rows of the groups whose status or shown figures changed,
        the alerts the state now calls for (raised here, once each), and what the companions
        add (``tick``: the slower parts, such as who holds the field up, are refreshed too).
        Only the groups an event touched, or whose status the clock may have changed, are
        evaluated.
        """
        with self._lock:
            now = now or self.clock.now()
            live = self.live(round, now)
            live.field.advance(now)
            out: list[Delta] = []
            acked = live.told.get("acknowledged", 0)
            for e in live.alerts.acknowledgements[acked:]:
                out.append(live.delta(ACKNOWLEDGED, {"event": e}))
            live.told["acknowledged"] = len(live.alerts.acknowledgements)
            statuses = self._row_deltas(live, now, out, tick)
            holes = live.view.record.course.hole_numbers
            due: list[alertsmod.Alert] = []
            for group, s in statuses.items():
                due.extend(alertsmod.episode_alerts(live.field.episodes(group, now), s))
                due.extend(alertsmod.overdue_alerts(s, now, holes))
            # the groups whose alerts of each kind were looked for (the others stand as they are)
            looked: list[tuple[tuple[str, ...], set[str]]] = [(LIVE_KINDS, set(statuses))]
            later: list[tuple[str, Mapping[str, Any]]] = []
            for companion in self._companions:
                parts, alerts, groups = companion.deltas(live, statuses, now, tick)
                later.extend(parts)
                due.extend(alerts)
                looked.append((companion.alert_kinds, set(groups)))
            for alert in self._raise(live, due, now):
                out.append(live.delta(ALERT, alert))
            self._resolve(live, due, looked, now)
            done = live.told.get("resolved", 0)
            for e in live.alerts.resolutions[done:]:
                out.append(live.delta(RESOLVED, {"event": e}))
            live.told["resolved"] = len(live.alerts.resolutions)
            suspended = _suspended(live, now)
            if live.told.get("suspended") != suspended:
                later.append((PARTS, {"suspended": suspended}))
                live.told["suspended"] = suspended
            out.extend(live.delta(kind, data) for kind, data in later)
            return tuple(out)

    def tick(self, round: str, now: datetime | None = None) -> tuple[Delta, ...]:
        """Re-evaluate ``round`` at ``now`` (the scheduler's job): :meth:`changes`, slow parts
        included."""
        return self.changes(round, now, tick=True)

    def _row_deltas(
        self, live: LiveRound, now: datetime, out: list[Delta], tick: bool
    ) -> dict[str, GroupStatus]:
        """Add the changed rows to ``out``; return the statuses evaluated again, by group.

        A group is evaluated again when an event touched it, and on a tick also when the clock
        may have changed its status (its wake-up instant has come): a command answers for its
        facts, the tick for the clock.
        """
        told: dict[str, tuple[int, Any, datetime | None]] = live.told.setdefault("rows", {})
        fold = live.field
        statuses = {}
        for p in live.view.plan.groups:
            known = told.get(p.id)
            version = fold.version[p.id]
            if known is None:
                if not tick and version == live.base.get(p.id):
                    continue  # not touched since the log was folded: the tick tells it
            elif known[0] == version:
                if not tick or known[2] is None or known[2] > now:
                    continue
            s = fold.status(p.id, now)
            statuses[p.id] = s
            row, key = self._row(live, p.id, s, now)
            if known is None or known[1] != key:
                out.append(live.delta(ROW, row))
            told[p.id] = (version, key, fold.wake(p.id, s, now))
        return statuses

    def _raise(
        self, live: LiveRound, due: Iterable[alertsmod.Alert], now: datetime
    ) -> list[dict[str, Any]]:
        """Append an ``alert_raised`` event for each alert not raised yet; return the new ones.

        The event's id derives from the alert's key, so an alert is never raised twice,
        across restarts included.
        """
        fresh: dict[str, Event] = {}
        for a in due:
            if a.key in live.alerts.raised or a.key in fresh:
                continue
            fresh[a.key] = alertstore.raised_event(live.name, a, now)
        if not fresh:
            return []
        stored = self._append_derived(list(fresh.values()), now)
        self.live(live.name, now)
        return [alert_view(e) for e, created in stored if created]

    def _append_derived(self, events: list[Event], now: datetime) -> list[tuple[Event, bool]]:
        """Append events the log implies (their ids derive from their keys); one that another
        worker stored first, at its own instant, is that worker's: kept, not a conflict that
        would fail the command that found it due (several workers, issue 15)."""
        store = self.service.store
        try:
            return store.append_many(events, recorded_at=now)
        except EventConflictError:
            stored = []
            for e in events:
                try:
                    stored.append(store.append(e, recorded_at=now))
                except EventConflictError:
                    continue  # the same alert, raised or resolved already by another worker
            return stored

    def _resolve(
        self,
        live: LiveRound,
        due: Iterable[alertsmod.Alert],
        looked: Iterable[tuple[tuple[str, ...], set[str]]],
        now: datetime,
    ) -> None:
        """Append an ``alert_resolved`` event for each open alert whose situation has ended.

        Only the alerts of the kinds and groups looked for again are judged (``looked``): an
        open one that ``due`` no longer holds current is resolved (issue 14), once (its id
        derives from its key).
        """
        scope = [(frozenset(kinds), groups) for kinds, groups in looked if groups]
        if not scope:
            return
        holding = {a.key for a in due if a.current}
        ended = [
            alertstore.resolved_event(live.name, a, now)
            for a in live.alerts.open()
            if a["key"] not in holding
            and any(a.get("kind") in kinds and a.get("group") in groups for kinds, groups in scope)
        ]
        if ended:
            self._append_derived(ended, now)
            self.live(live.name, now)

    # -- commands ----------------------------------------------------------------------

    def log_hole_completed(self, c: cmd.LogHoleCompleted) -> Outcome:
        """Record that a group completed a hole; a resend of the same id changes nothing."""
        with self._lock:
            live = self.live(c.round)
            view = live.view
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
            logged = live.field.done(c.group).get(c.hole)
            if logged is not None:
                raise CommandError(
                    f"group {c.group!r} hole {c.hole} is already logged at "
                    f"{_local(view, logged)}; correct that time instead",
                    field="hole",
                    code="already_logged",
                )
            return Outcome(*self.append(event))

    def correct_hole_time(self, c: cmd.CorrectHoleTime) -> Outcome:
        """Replace a logged completion's instant; the original stays in the log."""
        with self._lock:
            live = self.live(c.round)
            view = live.view
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
            target = _live_target(live, c.target, (factsmod.HOLE_COMPLETED,))
            self._check_instant(view, at, "at")
            group = _group(view, str(target.payload["group"]))
            if at < group.start:
                raise CommandError(
                    f"group {group.id!r} starts at {_local(view, group.start)}; "
                    f"{_local(view, at)} is before its start",
                    field="at",
                    code="before_start",
                )
            return Outcome(*self.append(event))

    def void_event(self, c: cmd.VoidEvent) -> Outcome:
        """Cancel a logged fact with a reason; the original stays in the log."""
        with self._lock:
            live = self.live(c.round)
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
            _live_target(live, c.target, VOIDABLE)
            return Outcome(*self.append(event))

    def record_siren(self, c: cmd.RecordSiren) -> Outcome:
        """Record a siren: play stops (interruption, suspension) or resumes (RULES.md §8)."""
        with self._lock:
            view = self.live(c.round).view
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
            return Outcome(*self.append(event))

    def acknowledge_alert(self, c: cmd.AcknowledgeAlert) -> Outcome:
        """Take an alert off the dashboards: a referee has seen it."""
        with self._lock:
            live = self.live(c.round)
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
            if c.alert not in live.alerts.raised:
                raise CommandError(
                    f"no alert {c.alert!r} was raised in round {c.round!r}",
                    field="alert",
                    code="unknown_alert",
                )
            if c.alert in live.alerts.acked:
                raise CommandError(
                    f"alert {c.alert!r} is already acknowledged", field="alert", code="already_done"
                )
            return Outcome(*self.append(event))

    def check_instant(self, view: RoundView, at: datetime, field_name: str) -> None:
        """Refuse an instant beyond the tolerance ahead of the server's clock, or off the day."""
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

    _check_instant = check_instant


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


def _live_target(live: LiveRound, target: str, types: tuple[str, ...]) -> Event:
    e = live.by_id.get(target)
    if e is None:
        raise CommandError(
            f"no event {target!r} in this round", field="target", code="unknown_target"
        )
    if e.type not in types:
        raise CommandError(
            f"event {target!r} is a {e.type}, which cannot be changed this way",
            field="target",
            code="wrong_target",
        )
    if target in live.voided:
        raise CommandError(
            f"event {target!r} was already voided", field="target", code="already_done"
        )
    return e

"""The referees' use cases: timing decisions, the shot clock, notifications, time credits.

A companion of :class:`pace.services.taps.LiveService` over the same folded round state
(:mod:`pace.services.state`) and lock: each command is validated against the round's state at
the act's own instant (field-level errors), appended (committed before returning) and answered
with what it judged. The round's referee fold (:class:`pace.rules.refereefold.RefereeFold`)
keeps each group's judgement (RULES.md §4–§7), equal to what
:func:`pace.rules.refereeing.judge_round` (``pace penalties``) makes of the same log, and judges
again only the groups an event names. The views (timing per group, penalty rows per player,
the round's policy) join the snapshot; the penalties and timings that changed, and the prompts
to stop timing, join the round's feed.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from pace.rules.position import GroupStatus
from pace.rules.refereefold import GroupJudgement
from pace.services import commands as cmd
from pace.services import referee_views as views
from pace.services.rounds import RoundView
from pace.services.state import PENALTIES, TIMING, LiveRound
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


class RefereeService:
    """The referees' commands and views over a :class:`LiveService`; thread-safe like it."""

    #: the alerts it raises in the round's feed (resolved when no longer called for)
    alert_kinds = (rr.STOP_TIMING,)

    def __init__(self, live: LiveService, *, max_stroke: timedelta = MAX_STROKE):
        self.live = live
        self.max_stroke = max_stroke
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

    def timing(self, round: str, now: datetime | None = None) -> dict[str, dict[str, Any]]:
        """Return the timing view of each group with any timing decision."""
        with self.live._lock:
            now = now or self.clock.now()
            return _timing_views(self.live.live(round, now), now)

    def penalties(self, round: str, now: datetime | None = None) -> list[dict[str, Any]]:
        """Return one row per player with any fault, in draw order (RULES.md §6)."""
        with self.live._lock:
            live = self.live.live(round, now)
            policy = self._policy(live.view)
            return [row for p in live.view.plan.groups for row in _rows(live, p.id, policy)]

    def judgement(self, round: str, now: datetime | None = None) -> rr.Judgement:
        """Return the round's judgement (spells, strokes, faults) as the pages see it."""
        with self.live._lock:
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
        rows = [row for p in live.view.plan.groups for row in _rows(live, p.id, live.policy)]
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
        (RULES.md §4.6) is looked for in the groups judged again or evaluated again.
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
            if known is None and not tick and key == live.base_judged.get(g):
                continue  # not touched since the log was folded: the tick tells it
            judged_again = known != key
            if judged_again:
                told["keys"][g] = key
                if live.policy is not None:
                    rows = _rows(live, g, live.policy)
                    if told["penalties"].get(g, []) != rows:
                        told["penalties"][g] = rows
                        out.append((PENALTIES, {"group": g, "players": rows}))
            decisions = refold.decisions(g) if judged_again or tick else ()
            if decisions:  # a spell's start or end may also come with the clock
                group_spells = refold.spells_of(g)
                # what of the view the clock moves: the spell running, the spells begun
                running = spells.running(group_spells, now)
                begun = sum(1 for x in group_spells if x.start <= now)
                seen = (key, None if running is None else running.start, begun)
                if told["timing_keys"].get(g) != seen:
                    told["timing_keys"][g] = seen
                    timing = views.timing_view(live.view, group_spells, decisions, g, now)
                    if told["timing"].get(g) != timing:
                        told["timing"][g] = timing
                        out.append((TIMING, {"group": g, "timing": timing}))
            if judged_again or g in statuses:
                s = statuses.get(g) or live.field.status(g, now)
                prompts.extend(rr.stop_timing_alert(refold.spells_of(g), s, now))
                looked.add(g)
        return out, prompts, looked

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
            stored, created = self.live.append(event)
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
            stored, created = self.live.append(event)
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
            self.live.check_instant(view, stopped, "stopped")
            self.live.check_instant(view, started, "started")
            if spells.placement(self._spells(view, c.group), started) == spells.NOT_TIMED:
                raise self._not_timed(view, c.group, started, what="when the stroke started at")
            stored, created = self.live.append(event)
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
            self._policy(view)
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
            stored, created = self.live.append(event)
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
            f"{_local(view, s.start)}–{_local(view, s.end) if s.end else 'now'}"
            for s in self._spells(view, group)
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


def _rows(live: LiveRound, group: str, policy: policies.Policy) -> list[dict[str, Any]]:
    """Return the penalty rows of ``group``'s players with any fault (its judgement's)."""
    judged: GroupJudgement = live.referees.group(group)
    if not judged.outcomes:
        return []
    strokes = {j.stroke.id: j for _, j in judged.strokes}
    return views.penalty_rows(
        live.view,
        group,
        # the round's judgement's order (``refereefold.assemble``): time, then the log's
        (o for _, o in sorted(judged.outcomes, key=lambda x: (x[1].fault.at, x[0]))),
        strokes,
        dict(judged.breaches),
        live.referees.notified(group),
        policy,
    )


def _timing_views(live: LiveRound, now: datetime) -> dict[str, dict[str, Any]]:
    """Return the timing view of each group with any decision, in draw order."""
    out = {}
    for p in live.view.plan.groups:
        decisions = live.referees.decisions(p.id)
        if decisions:
            spells_of = live.referees.spells_of(p.id)
            out[p.id] = views.timing_view(live.view, spells_of, decisions, p.id, now)
    return out


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

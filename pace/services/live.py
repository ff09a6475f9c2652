"""The live loop's round state and its feed: what the pages are shown, and what changed.

Every live use case (the marshals' taps, the alerts, the referees', the scorers') reads and
appends through one :class:`LiveService`: the round's folded state (:mod:`pace.services.state`)
kept in step with the store, one lock. What the pages must be told after a command or a tick
comes from :meth:`LiveService.changes`: the group rows whose status or shown figures changed,
the alerts the new state calls for (raised and resolved as events by
:class:`pace.services.alerts.AlertDesk`, so a restart re-sends nothing), and what the
companion services add (the referees' penalties and timing, the hold-up panel), each numbered
in the round's feed. The tick is the same question asked by the clock: a group is evaluated
again only when an event touched it or its status may have changed with the clock, so a quiet
tick folds and evaluates nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from pace.rules import alerts as alertsmod
from pace.rules import changes as changesmod
from pace.rules import facts as factsmod
from pace.rules import groupclock, reported
from pace.rules import life as lifemod
from pace.rules.events import Event
from pace.rules.position import Episode, FieldStatus, GroupPlan, GroupStatus
from pace.services import alerts as alertsdesk
from pace.services import calibration as calmod
from pace.services import estimates as estimatesmod
from pace.services import finality, validation
from pace.services import rows as rowsmod
from pace.services.alerts import RESOLVED_SHOWN, AlertDesk
from pace.services.commands import CommandError
from pace.services.rounds import RoundService, RoundView
from pace.services.state import (
    ACKNOWLEDGED,
    ALERT,
    PARTS,
    RESOLVED,
    ROW,
    Companion,
    Delta,
    LiveRound,
    LiveRounds,
)
from pace.services.state import suspended as _suspended
from pace.services.validation import FUTURE_TOLERANCE
from pace.store.errors import StorageError

__all__ = ["LIVE_KINDS", "LiveService", "listed"]

#: the alerts the live loop itself raises (a companion raises its own kinds); the missed taps'
#: prompts (``missing_tap``) are looked for in every group at every look
LIVE_KINDS = (alertsmod.OUT_OF_POSITION, alertsmod.BACK_IN_POSITION, alertsmod.OVERDUE)


def listed(alert: Mapping[str, Any]) -> dict[str, Any]:
    """Return an alert as the snapshot and the feed list it: without its explanation, which
    a page fetches when a referee asks "Why" (``LiveService.alert``; docs/protocol.md,
    "An alert's details"); ``why`` says whether it has one."""
    out = {k: v for k, v in alert.items() if k != "explanation"}
    out["why"] = alert.get("explanation") is not None
    return out


class LiveService:
    """The rounds' shared live state and their feed over a :class:`RoundService`; thread-safe
    (every service that reads or appends holds :attr:`lock`)."""

    def __init__(self, service: RoundService, *, future_tolerance: timedelta = FUTURE_TOLERANCE):
        self.service = service
        self.future_tolerance = future_tolerance
        self.rounds = LiveRounds(service)
        #: the snapshot says which delta it includes (``rev``); off with several workers, whose
        #: feeds number their own deltas: pages then apply deltas as they come
        self.numbered = True
        self.lock = self.rounds.lock
        #: raises and resolves the alerts the state calls for; takes acknowledgements
        self.alerts = AlertDesk(self.rounds)
        self._companions: list[Companion] = []
        self._fixed: dict[str, tuple[RoundView, dict[str, dict[str, Any]]]] = {}
        #: the course's history, for the ranges of the projections (issue 30)
        self.calibration = calmod.CalibrationService(service)
        #: each round's life: (its live state, events folded, the fold), see :meth:`life`
        self._life: dict[str, tuple[LiveRound, int, lifemod.Life]] = {}
        #: each round's missed taps at the instant last asked (see :meth:`_judged`)
        self._estimates: dict[str, tuple[Any, estimatesmod.Judged]] = {}
        #: each round's missed taps kept group by group (``estimatesmod.Standing``)
        self._standing: dict[str, estimatesmod.Standing] = {}
        #: the rounds whose command's own rows are being judged: their estimates may leave
        #: what those rows do not need for after they are sent (:meth:`_row_deltas`)
        self._first_rows: set[str] = set()
        #: by group, the hole in play and the latest instant its phone showed it still on it
        #: (``PositionService.seen_on_hole``; None: no positions): see :meth:`_seen_late`
        self.seen_on_hole: Callable[[str], Mapping[str, tuple[int, datetime]]] | None = None

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
        with self.lock:
            return list(self.live(round).events)

    def resent(self, event: Event) -> Event | None:
        """Return the stored event if ``event``'s id is stored already (a resend), else None
        (``LiveRounds.resent``: one rule for every event kind)."""
        return self.rounds.resent(event)

    def append(self, event: Event) -> tuple[Event, bool]:
        """Store ``event`` (committed on return) and fold it into the round's state.

        Every live command appends here, after its own checks: a fact that would change
        final results is refused here, once for all of them (``results_final``).
        """
        live = self.live(event.round)
        target = None
        if event.type == factsmod.EVENT_VOIDED:
            target = live.by_id.get(str(event.payload.get("target")))
        finality.check_open(event.round, live.view.tz, self.life(event.round), event, target)
        return self.rounds.append(event)

    def life(self, round: str) -> lifemod.Life:
        """Return the committee's acts on the round's life, folded once per state of the log."""
        live = self.live(round)
        kept = self._life.get(round)
        if kept is None or kept[0] is not live or kept[1] > len(live.events):
            kept = (live, 0, lifemod.Life())
        if kept[1] < len(live.events):  # the log only grows: fold the new events alone
            kept = (live, len(live.events), lifemod.fold(live.events[kept[1] :], kept[2]))
        self._life[round] = kept
        return kept[2]

    def check_instant(self, view: RoundView, at: datetime, field_name: str) -> None:
        """Refuse an instant beyond the tolerance ahead of the server's clock, or off the day
        (``pace.services.validation.check_instant``)."""
        validation.check_instant(view, at, field_name, self.clock.now(), self.future_tolerance)

    # -- what pages are shown ------------------------------------------------------------------

    def field(self, round: str, now: datetime | None = None) -> FieldStatus:
        """Return the round's statuses at ``now`` (any instant: the facts up to it count)."""
        with self.lock:
            now = now or self.clock.now()
            live = self.live(round, now)
            statuses = tuple(self._status(live, p.id, now) for p in live.view.plan.groups)
            return FieldStatus(now, live.view.plan.standard_interval, statuses)

    def snapshot(self, round: str, now: datetime | None = None) -> dict[str, Any]:
        """Return everything a dashboard shows of a round: groups, holes, alerts, sirens.

        ``rev`` is the number of the last delta of the round's feed it includes.
        """
        with self.lock:
            now = now or self.clock.now()
            live = self.live(round, now)
            view = live.view
            rows = [self._row(live, p.id, self._status(live, p.id, now), now)
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
                "alerts": alertsmod.arrange(listed(a) for a in live.alerts.open()),
                "resolved_alerts": [listed(a) for a in live.alerts.closed(RESOLVED_SHOWN)],
                "suspended": _suspended(live, now),
                "changes": live.memo("changes", lambda: changesmod.listing(live.events)),
            }
            for companion in self._companions:
                snapshot.update(companion.snapshot_parts(live, now))
            return snapshot

    def alert(self, round: str, key: str) -> dict[str, Any]:
        """Return a raised alert whole, as it was raised (its explanation, docs/explanations.md)
        with ``resolved_at`` and ``acknowledged`` (what a page shows only when asked: "Why",
        a resolved alert's details); ``unknown_alert`` when the round raised no such alert."""
        with self.lock:
            live = self.live(round)
            a = live.alerts.raised.get(key)
            if a is None:
                raise CommandError(
                    f"no alert {key[:80]!r} was raised in round {round!r}",
                    field="alert",
                    code="unknown_alert",
                )
            resolved = live.alerts.resolved.get(key)
            return {
                **a,
                "explanation": a.get("explanation"),
                "resolved_at": resolved.isoformat() if resolved is not None else None,
                "acknowledged": key in live.alerts.acked,
            }

    def open_alerts(self, round: str) -> list[dict[str, Any]]:
        """Return the raised alerts no referee has acknowledged yet, oldest first."""
        with self.lock:
            return self.live(round).alerts.open()

    def _judged(self, live: LiveRound, now: datetime) -> estimatesmod.Judged:
        """Return the round's missed taps at ``now`` and the verdicts judged with them
        (docs/estimates.md), once per state of the log and instant: the estimates are kept
        group by group (``estimatesmod.Standing``), worked out again only for the groups a
        command or the clock may have changed. An instant before the last one asked (a
        status read at an earlier ``?at=``) is worked out apart, the kept ones untouched."""
        key = (id(live), live.last_seq, len(live.events), now)
        # a command's own rows may be judged on the estimates of the groups whose facts
        # changed alone (``Standing.update``); everything else waits for the whole field
        first = live.name in self._first_rows
        known = self._estimates.get(live.name)
        if known is None or known[0] != key or not (first or known[1].whole):
            standing = self._standing.get(live.name)
            if standing is None or standing.live is not live:
                standing = self._standing[live.name] = estimatesmod.Standing(live)
            if standing.at is not None and now < standing.at:
                standing = estimatesmod.Standing(live)  # an earlier instant: worked out apart
            known = (key, estimatesmod.Judged(live, now, standing, wakes=not first))
            self._estimates[live.name] = known
        return known[1]

    def judged_status(self, live: LiveRound, group: str, now: datetime) -> GroupStatus:
        """Return a group's status at ``now`` as the rows and alerts judge it (the companions
        judge a group none of them evaluated again with it)."""
        return self._status(live, group, now)

    def _status(self, live: LiveRound, group: str, now: datetime) -> GroupStatus:
        """Return a group's status at ``now``: the fold's, judged with the estimates of the
        missed taps that touch it (docs/estimates.md)."""
        return self._judged(live, now).status(group, live.field.status(group, now))[0]

    def group_row(self, round: str, group: str, now: datetime | None = None) -> dict[str, Any]:
        """Return one group's row at ``now`` (the scorer's own pace, issue 39)."""
        with self.lock:
            now = now or self.clock.now()
            live = self.live(round, now)
            return self._row(live, group, self._status(live, group, now), now)

    def _fixed_rows(self, view: RoundView) -> dict[str, dict[str, Any]]:
        known = self._fixed.get(view.record.name)
        if known is None or known[0] is not view:
            known = (view, {p.id: rowsmod.fixed_row(p) for p in view.plan.groups})
            self._fixed[view.record.name] = known
        return known[1]

    def _row(self, live: LiveRound, group: str, s: GroupStatus, now: datetime) -> dict[str, Any]:
        """Return a group's row at ``now``."""
        return self._make_row(live, group, s, now, *self._shown(live, group, s, now))

    def _shown(
        self, live: LiveRound, group: str, s: GroupStatus, now: datetime
    ) -> tuple[dict[int, rowsmod.Hole], frozenset[str]]:
        """Return what a group's row shows beyond its status: its logged holes, and the
        figures that grow with the clock (with the status, they make the row's key)."""
        fold = live.field
        holes = {
            h: (at, over, fold.tap_id(group, h)) for h, (at, over) in fold.overs(group, now).items()
        }
        return holes, self._judged(live, now).moving(group, s)

    def _make_row(
        self,
        live: LiveRound,
        group: str,
        s: GroupStatus,
        now: datetime,
        holes: dict[int, rowsmod.Hole],
        moving: frozenset[str],
    ) -> dict[str, Any]:
        """Return a group's row from its status and what :meth:`_shown` found, with its
        missed taps' estimates (``estimate``, docs/estimates.md) when it has any."""
        fixed = self._fixed_rows(live.view)[group]
        plan = live.view.plan.by_id[group]
        if plan.sizes:  # a player retired: the holes begun since are due sooner
            done = {h: when for h, (when, _, _) in holes.items()}
            fixed = {**fixed, "due": rowsmod.due(plan, done, now)}
        row = rowsmod.group_row(s, fixed, holes, now, moving)
        # issue 39: who saw each counted completion, an official or the group itself
        for number, cell in row["holes"].items():
            cell["source"] = live.field.source(group, int(number)) or "official"
            # issue 48: a completion inferred from positions is shown with its interval
            spread = live.field.spread(group, int(number))
            if spread:
                at = datetime.fromisoformat(cell["at"])
                cell["earliest"] = (at - spread).isoformat()
                cell["latest"] = (at + spread).isoformat()
        # the projection's 80 % ranges from the course's finished rounds (issue 30)
        # (the spread as kept: the scheduler's :meth:`refresh` reads the history again)
        course = live.view.setup.course
        spread = self.calibration.kept(course, now)
        fold = live.field
        spans = groupclock.merge_suspensions(fold.suspensions, now)
        row.update(
            calmod.projection_ranges(
                spread, course, plan, s, fold.done(group, now), spans, fold.credits(group), now
            )
        )
        part = self._judged(live, now).part(group)
        if part is not None:
            row["estimate"] = part
        return row

    # -- the feed ----------------------------------------------------------------------------

    def changes(
        self, round: str, now: datetime | None = None, *, tick: bool = False
    ) -> tuple[Delta, ...]:
        """Return what changed for the round's pages since last asked, numbered in its feed.

        The alerts acknowledged, the rows of the groups whose status or shown figures changed,
        the alerts the state now calls for (raised here, once each), and what the companions
        add (``tick``: the slower parts, such as who holds the field up, are refreshed too).
        Only the groups an event touched, or whose status the clock may have changed, are
        evaluated. These are :meth:`stages`, run to the end.
        """
        return tuple(d for stage in self.stages(round, now, tick=tick) for d in stage)

    def stages(
        self, round: str, now: datetime | None = None, *, tick: bool = False
    ) -> Iterator[tuple[Delta, ...]]:
        """Yield :meth:`changes` in stages, so each part can be sent before the rest is worked
        out: first the acknowledgements and the rows (after a command, those of the groups its
        facts name alone; the others' wait for the next stages); after a command, the new
        alerts of those groups alone, once stored, with the resolutions they bring
        (:meth:`_named_alerts`); then, once stored, the other new alerts (the live loop's
        and the companions'), the resolutions, the other groups' rows
        (numbered after the alerts: a page shows a command's alert before them) and the
        companions' parts. The round's lock is held from the first stage to the end, so nothing
        reads or acts on an alert before it is stored: run it to the end (docs/architecture.md,
        "The row goes out first").

        A look that fails other than by a refused store (a bug) forgets which rows the
        pages were told and which facts its alerts were looked for in: the next look judges
        and sends every row again, and looks for every group's alerts, so nothing this look
        judged and did not send is lost (a refused store answers for itself, below)."""
        with self.lock:
            now = now or self.clock.now()
            live = self.live(round, now)
            try:
                yield from self._stages(live, now, tick)
            except StorageError:
                raise
            except Exception:
                live.told.pop("rows", None)
                live.told.pop("alerts.seen", None)
                raise

    def _stages(self, live: LiveRound, now: datetime, tick: bool) -> Iterator[tuple[Delta, ...]]:
        """:meth:`stages` of ``live`` at ``now``, under the round's lock."""
        live.field.advance(now)
        out: list[Delta] = []
        acked = live.told.get("acknowledged", 0)
        for e in live.alerts.acknowledgements[acked:]:
            out.append(live.delta(ACKNOWLEDGED, {"event": e}))
        live.told["acknowledged"] = len(live.alerts.acknowledgements)
        named = set(live.named)
        # the rows of the groups the command's facts name (the tapped group's) are worked
        # out and go out alone first, before the rows of the groups around it are worked
        # out (issue 50: a page has the tapped row one judgement of the field sooner)
        statuses, rest, partial = self._row_deltas(live, now, out, tick)
        around: list[tuple[str, Mapping[str, Any]]] = []
        first = bool(named and out and rest)
        if first:
            yield tuple(out)
            out = []
        if partial:
            # those rows were judged before the whole field's estimates were worked out: their
            # groups are judged again with them before any alert is looked for
            statuses = {g: self._status(live, g, now) for g in statuses}
        if first:
            # the alerts the tapped group's facts raise go next, once stored, before the
            # rows of the groups around it are worked out (issue 50)
            early = self._named_alerts(live, statuses, now)
            if early:
                yield early
                # the log grew (the alerts): the named groups are judged again with the
                # estimates' verdicts of this state of it (their ``rests``, read below)
                statuses = {g: self._status(live, g, now) for g in statuses}
            statuses.update(rest(out))
            # the other groups' rows go after the alerts (issue 50): a page shows a
            # command's alert one fan-out sooner, and no delta leaves out of its number;
            # ``rest`` numbered them last (and nothing else), so their numbers are given
            # back and given again after the alerts'
            if out:
                live.rev -= len(out)
                around = [(d.kind, d.data) for d in out]
                out = []
        else:
            if rest:
                statuses.update(rest(out))
            if out:
                yield tuple(out)
                out = []
        judged = self._judged(live, now)
        # the groups whose alerts are looked for: those judged again (``statuses``), and
        # those whose history, not only their status, the new facts changed (docs/protocol.md,
        # "What a fresh process holds"): the groups that completed a hole after a tap
        # logged late there, or whose missed taps' estimates moved; on the first look of
        # a fold of the log (a restart), every group, so the book is settled against the
        # whole history; and those the clock may have changed since the last tick (a
        # command between two ticks answers for them too: a group now overdue)
        looking = dict(statuses)
        gates: dict[str, datetime] = live.told.setdefault("gates", {})
        opened = {g for g, until in gates.items() if until <= now}
        for group in self._history_changed(live, judged) | self._woken(live, now) | opened:
            if group not in looking:
                looking[group] = self._status(live, group, now)
        # the groups a phone showed still on their hole in play are looked at each tick
        # (a command's look is the groups it touched): that fact may prove them out of
        # position before they leave it (issue 48)
        seen = self.seen_on_hole(live.name) if self.seen_on_hole is not None else {}
        for group in seen if tick else ():
            if group not in looking and group in live.view.plan.by_id:
                looking[group] = self._status(live, group, now)
        standing = _seen_standing(live)
        due: list[alertsmod.Alert] = list(judged.alerts())
        for group, s in looking.items():
            due.extend(self._due(live, judged, group, s, seen, standing, gates, now))
        # the groups whose alerts of each kind were looked for (the others stand as they are)
        looked: list[tuple[tuple[str, ...], set[str]]] = [
            (LIVE_KINDS, set(looking)),
            ((estimatesmod.MISSING_TAP,), {p.id for p in live.view.plan.groups}),
        ]
        later: list[tuple[str, Mapping[str, Any]]] = []
        theirs: list[alertsmod.Alert] = []
        for companion in self._companions:
            parts, alerts, groups = companion.deltas(live, looking, now, tick)
            later.extend(parts)
            theirs.extend(alerts)
            looked.append((companion.alert_kinds, set(groups)))
        # an alert goes out once it is stored (docs/protocol.md, "Announced once"): a
        # crash before the commit leaves nothing announced, and the restarted process
        # raises and announces it then; only the raises this process stored are sent
        raises = self.alerts.raises(live, due + theirs, now)
        try:
            raised = self.alerts.settle(live, raises, due + theirs, looked, now)
        except StorageError:
            # the store refused the alerts (the command's own event is stored): the groups
            # judged here are judged again at the next tick, which stores them then
            told_rows = live.told.get("rows", {})
            for group in statuses:
                told_rows.pop(group, None)
            live.told.pop("alerts.seen", None)
            held = [*out, *(live.delta(kind, data) for kind, data in around)]
            if held:
                yield tuple(held)  # the rows held for the alerts' stage
            raise
        out.extend(_announced(live, raised))
        out.extend(live.delta(kind, data) for kind, data in around)
        suspended = _suspended(live, now)
        if live.told.get("suspended") != suspended:
            later.append((PARTS, {"suspended": suspended}))
            live.told["suspended"] = suspended
        out.extend(live.delta(kind, data) for kind, data in later)
        if out:
            yield tuple(out)

    def _named_alerts(
        self, live: LiveRound, statuses: Mapping[str, GroupStatus], now: datetime
    ) -> tuple[Delta, ...]:
        """Store and return the live loop's new alerts of the groups a command's facts name
        (``statuses``: their rows are sent), with the resolutions they bring, before the
        other groups are judged (issue 50: the tapped group's alert one judgement of the
        field sooner). Nothing new to raise: nothing is stored here, the next stage looks for
        every alert as it did. A store that refuses them: the same, the next stage tries
        again and answers for the refusal."""
        judged = self._judged(live, now)
        seen = self.seen_on_hole(live.name) if self.seen_on_hole is not None else {}
        standing = _seen_standing(live)
        gates: dict[str, datetime] = live.told.setdefault("gates", {})
        due: list[alertsmod.Alert] = []
        for group, s in statuses.items():
            due.extend(self._due(live, judged, group, s, seen, standing, gates, now))
        raises = self.alerts.raises(live, due, now)
        if not raises:
            return ()
        try:
            raised = self.alerts.settle(live, raises, due, [(LIVE_KINDS, set(statuses))], now)
        except StorageError:
            return ()
        return tuple(_announced(live, raised))

    def _due(
        self,
        live: LiveRound,
        judged: estimatesmod.Judged,
        group: str,
        s: GroupStatus,
        seen: Mapping[str, tuple[int, datetime]],
        standing: Mapping[str, Sequence[alertsmod.Alert]],
        gates: dict[str, datetime],
        now: datetime,
    ) -> list[alertsmod.Alert]:
        """Return the live loop's alerts due for ``group`` (status ``s``): its episodes',
        those of a phone that saw it still on its hole, and its overdue ones, but those held
        back until their evidence settles (``gates``: when it is looked at again)."""
        gates.pop(group, None)
        # an estimate never penalises: no alert from a verdict that rests on one, and an
        # alert's numbers are the real log's (docs/estimates.md); such a verdict is judged
        # against the groups truly seen as well (issue 46): the real log's episodes are raised
        # too, marked as resting on a group not seen
        resting = judged.rests.get(group, False)
        real = live.field.status(group, now) if resting else s
        episodes = judged.episodes(group)
        if group in judged.touched:
            episodes = self._seen_too(live, group, episodes, now)
        alerts = alertsmod.episode_alerts(episodes, real)
        if (group in seen or group in standing) and not resting:
            alerts += self._seen_late(live, group, episodes, seen.get(group),
                                      standing.get(group, ()), now)  # fmt: skip
        due = self._settled(live, group, alerts, now, gates)
        if not resting:
            holes = live.view.record.course.hole_numbers
            due.extend(self._settled(live, group, alertsmod.overdue_alerts(s, now, holes),
                                     now, gates, s))  # fmt: skip
        return due

    @staticmethod
    def _seen_late(
        live: LiveRound,
        group: str,
        episodes: tuple[Episode, ...],
        seen: tuple[int, datetime] | None,
        standing: Sequence[alertsmod.Alert],
        now: datetime,
    ) -> tuple[alertsmod.Alert, ...]:
        """Return the ``out_of_position`` alert of a group its phone showed still on its hole
        in play past the instant it was overdue there (``FieldFold.still_on``: out of position
        at that hole whatever instant it leaves; issue 48), or nothing.

        The alert is the one the episode beginning at h will have (its key), raised at t and
        marked ``reason: seen_on_hole``; the completion then logged takes it over. Only when
        no episode of the group is open (its own alert stands) and the verdict rests on the
        real log (the caller's ``resting``). Once raised, it stands (``standing``: the
        group's open alerts raised so) until the group's completion of h is logged, whatever
        this process holds of the phone's fixes (a restart, another worker, the sharing
        stopped): what was seen is a fact."""
        fold = live.field
        if any(e.end is None for e in episodes):
            return ()  # out of position already: the episode's own alert
        kept = tuple(a for a in standing if a.hole is not None and not fold.seen_at(group, a.hole))
        if kept or seen is None:
            return kept
        hole, at = seen
        s = fold.still_on(group, hole, at) if at <= now else None
        if s is None:
            return ()
        name = alertsmod.episode_keys([*episodes, Episode(group, at, hole)])[-1]
        return (
            alertsmod.Alert(
                f"{alertsmod.OUT_OF_POSITION}:{name}", alertsmod.OUT_OF_POSITION, group, hole,
                at, s.over, s.gap, reason=alertsmod.SEEN_ON_HOLE,
            ),
        )  # fmt: skip

    @staticmethod
    def _seen_too(
        live: LiveRound, group: str, episodes: tuple[Episode, ...], now: datetime
    ) -> tuple[Episode, ...]:
        """Return the group's episodes judged with the estimates (``episodes``), and the real
        log's episodes judged against the group truly seen (``FieldFold.seen_episodes``) that
        they do not hold: a verdict resting on another group's estimated completion is judged
        against the group truly seen as well (issue 46)."""
        kept = live.field.seen_episodes(group, now)
        if not kept:
            return episodes
        known = set(alertsmod.episode_keys(episodes))
        if set(alertsmod.episode_keys(kept)) <= known:
            return episodes
        return tuple(sorted((*episodes, *kept), key=lambda e: e.start))

    @staticmethod
    def _settled(
        live: LiveRound,
        group: str,
        alerts: tuple[alertsmod.Alert, ...],
        now: datetime,
        gates: dict[str, datetime],
        s: GroupStatus | None = None,
    ) -> list[alertsmod.Alert]:
        """Return ``alerts`` but those resting on a group's report whose evidence has not
        settled yet, unless already raised and open (docs/status.md, "Groups' reports",
        issue 46): the first report of a batch, or a report whose group ahead has not been
        seen at the hole yet, waits (``FieldFold.settles``); an ``overdue`` whose group ahead
        reports its own holes and has not been seen at the hole in play waits until the group
        is over by twice the report's allowance. ``gates`` keeps when the group is looked at
        again."""
        fold, book = live.field, live.alerts
        out: list[alertsmod.Alert] = []
        held: set[str] = set()  # the episodes held back, by name (``episode_keys``)
        for a in alerts:
            name = a.key.split(":", 1)[1]  # an episode's alerts are "<kind>:<name>"
            if a.key in book.raised and a.key not in book.resolved:
                out.append(a)  # raised and open: it stands until its situation ends
            elif a.kind == alertsmod.BACK_IN_POSITION:
                if name not in held or a.key in book.raised:
                    out.append(a)  # (an episode held back keeps its end back too)
            elif a.kind == alertsmod.OUT_OF_POSITION and not a.current and a.hole is not None \
                    and fold.source(group, a.hole) == reported.GROUP:  # fmt: skip
                # an episode on a report that ended before it was raised: the report keeps
                # it, no referee need go and look (issue 46)
                held.add(name)
            else:
                until = None
                if a.kind == alertsmod.OUT_OF_POSITION:
                    until = fold.settles(group, a.hole, now)
                elif a.kind == alertsmod.OVERDUE and s is not None and s.over is not None:
                    until = fold.ahead_reporting(group, a.hole, s.over, now)
                if until is None:
                    out.append(a)
                else:
                    held.add(name)
                    gates[group] = min(gates.get(group, until), until)
        return out

    def tick(self, round: str, now: datetime | None = None) -> tuple[Delta, ...]:
        """Re-evaluate ``round`` at ``now`` (the scheduler's job): :meth:`changes`, slow parts
        included."""
        return self.changes(round, now, tick=True)

    def tick_stages(self, round: str, now: datetime | None = None) -> Iterator[tuple[Delta, ...]]:
        """:meth:`tick` in :meth:`stages` (a caller that meets a failure part-way still
        holds the stages yielded before it)."""
        return self.stages(round, now, tick=True)

    def refresh(self, round: str, now: datetime | None = None) -> None:
        """Bring the companions' slow parts up to date (the scheduler's job, before a
        :meth:`tick`, which sends what changed): each takes what it needs under the lock and
        works on it outside, so no command waits for the lock meanwhile (under gevent the
        work still holds the hub: docs/architecture.md, "The hub is not held by slow parts")."""
        now = now or self.clock.now()
        held = self.rounds.held(round)
        if held is not None:
            # the projections' ranges: the course's finished rounds read again when due
            self.calibration.refresh(held.view.setup.course, now)
        for companion in self._companions:
            refresh = getattr(companion, "refresh", None)
            if refresh is not None:
                refresh(round, now)

    @staticmethod
    def _woken(live: LiveRound, now: datetime) -> set[str]:
        """Return the groups whose status the clock alone may have changed since their rows
        were last worked out (their wake-up instant has come: the next tick's)."""
        told = live.told.get("rows", {})
        return {g for g, known in told.items() if known[2] is not None and known[2] <= now}

    @staticmethod
    def _history_changed(live: LiveRound, judged: estimatesmod.Judged) -> set[str]:
        """Return the groups whose alerts must be looked for beside those judged again: every
        group on the first look of this fold of the log, else those whose history the facts
        folded since the last look changed (``alerts.behind_late_facts``) and those whose
        missed taps' estimates moved (their episodes are judged with them)."""
        seen = live.told.get("alerts.seen")
        live.told["alerts.seen"] = len(live.events)
        signature, groups = judged.signature(), judged.groups()
        before = live.told.get("alerts.estimates")
        live.told["alerts.estimates"] = (signature, groups)
        if seen is None or seen > len(live.events):
            return {p.id for p in live.view.plan.groups}
        out = alertsdesk.behind_late_facts(live, seen)
        if before is not None and before[0] != signature:
            out |= groups | before[1]
        return out

    def _row_order(self, live: LiveRound) -> tuple[list[GroupPlan], int]:
        """Return the groups in the order their rows go out, and how many come first: those
        the events folded since the rows were last worked out name (the tapped group's row
        before those of the groups it holds up or leaves behind, which a page shows as they
        come), then the others in draw order."""
        plan = live.view.plan
        first = [plan.by_id[g] for g in dict.fromkeys(live.named) if g in plan.by_id]
        live.named.clear()
        if not first:
            return list(plan.groups), 0
        ids = {p.id for p in first}
        return first + [p for p in plan.groups if p.id not in ids], len(first)

    def _row_key(
        self,
        live: LiveRound,
        group: str,
        s: GroupStatus,
        holes: dict[int, rowsmod.Hole],
        now: datetime,
        moving: frozenset[str],
    ) -> tuple[Any, ...]:
        """Return :func:`rowsmod.row_key` with the row's estimates (docs/estimates.md)."""
        part = estimatesmod.row_key(self._judged(live, now).part(group))
        return (*rowsmod.row_key(s, holes, now, moving), part)

    def _estimates_moved(self, live: LiveRound, now: datetime) -> frozenset[str]:
        """Return the groups whose rows the missed taps' estimates may have changed since the
        rows were last worked out (they are judged again, whatever their version says)."""
        # the groups whose own estimates moved, or that a moved estimate touches (kept group
        # by group: ``estimatesmod.Standing``)
        moved = self._judged(live, now).standing.drain()
        # a status judged with an estimate reads the other groups' taps (the group ahead's
        # completion of the hole it is estimated to have reached), which the fold's versions
        # do not follow: after any new fact, the groups with or touched by an estimate are
        # judged again
        grew = live.told.get("estimates.events") != len(live.events)
        live.told["estimates.events"] = len(live.events)
        return moved | self._judged(live, now).groups() if grew else moved

    def _row_deltas(
        self, live: LiveRound, now: datetime, out: list[Delta], tick: bool
    ) -> tuple[
        dict[str, GroupStatus], Callable[[list[Delta]], dict[str, GroupStatus]] | None, bool
    ]:
        """Add the changed rows of the groups the events folded since name to ``out``;
        return the statuses evaluated again, by group, what adds the other groups' rows
        to the list it is given and returns their statuses (``None``: no other group), to
        call once the first rows are sent, and whether the first rows were judged before the
        whole field's estimates (then the other rows' call judges their groups again too).

        A group is evaluated again when an event touched it, and on a tick also when the clock
        may have changed its status (its wake-up instant has come): a command answers for its
        facts, the tick for the clock. A redrawn round's rows are all added at once.

        A command's own rows (the groups its facts name, when others follow) are judged with
        the estimates of the groups whose facts changed brought up to date; the groups whose
        wake-up instant came, and the whole field when a hole was logged for the first time,
        are left for the other rows' call (issue 50; ``Standing.update``). That call works
        them out, judges the first rows' groups again and sends a row whose key moved, so
        the rows a page holds once the command is sent are those one whole judgement gives.
        """
        told: dict[str, tuple[int, Any, datetime | None]] = live.told.setdefault("rows", {})
        fold = live.field
        statuses = {}
        if live.redrawn:
            # the draw changed on the day: every row at once, with the changes, as snapshot
            # parts replaced whole (``round_changed``; the feed skipped a number, so a page
            # that missed it reads the snapshot again)
            live.redrawn = False
            rows = []
            for p in live.view.plan.groups:
                s = statuses[p.id] = self._status(live, p.id, now)
                holes, moving = self._shown(live, p.id, s, now)
                told[p.id] = (fold.version[p.id], self._row_key(live, p.id, s, holes, now, moving),
                              self._judged(live, now).wake(p.id, s))  # fmt: skip
                rows.append(self._make_row(live, p.id, s, now, holes, moving))
            # each row too, for the marshals' pages (they hear rows, not ``round_changed``)
            out.extend(live.delta(ROW, row) for row in rows)
            listing = live.memo("changes", lambda: changesmod.listing(live.events))
            out.append(live.delta(PARTS, {"groups": rows, "changes": listing}))
            return statuses, None, False
        order, named = self._row_order(live)

        def rows_of(plans: Sequence[GroupPlan], out: list[Delta]) -> dict[str, GroupStatus]:
            statuses = {}
            for p in plans:
                known = told.get(p.id)
                version = fold.version[p.id]
                # a group whose missed tap's estimate moved is judged again whatever it was told
                if p.id not in forced:
                    if known is None:
                        if not tick and version == live.base.get(p.id):
                            continue  # not touched since the log was folded: the tick tells it
                    elif known[0] == version and (not tick or known[2] is None or known[2] > now):
                        continue
                s = self._status(live, p.id, now)
                statuses[p.id] = s
                holes, moving = self._shown(live, p.id, s, now)
                key = self._row_key(live, p.id, s, holes, now, moving)
                if known is None or known[1] != key:
                    # the row itself is made only to be sent (most groups a tap evaluates
                    # again show nothing new)
                    out.append(live.delta(ROW, self._make_row(live, p.id, s, now, holes, moving)))
                told[p.id] = (version, key, self._judged(live, now).wake(p.id, s))
            return statuses

        quick = not tick and 0 < named < len(order)
        if quick:
            self._first_rows.add(live.name)
        try:
            forced = self._estimates_moved(live, now)
            first = rows_of(order[:named], out) if quick else {}
            partial = quick and not self._judged(live, now).whole
        finally:
            self._first_rows.discard(live.name)

        if quick:

            def later(into: list[Delta]) -> dict[str, GroupStatus]:
                nonlocal forced
                if not partial:
                    return rows_of(order[named:], into)
                # the estimates left for now worked out: what one whole look would judge again
                judged = self._judged(live, now)
                forced = forced | judged.standing.drain() | judged.groups()
                forced |= {p.id for p in order[:named]}
                return rows_of(order, into)

            return first, later, partial
        if named == len(order):
            return rows_of(order, out), None, False
        return rows_of(order[:named], out), lambda into: rows_of(order[named:], into), False


def _announced(live: LiveRound, raised: Sequence[Mapping[str, Any]]) -> list[Delta]:
    """Return the deltas of the alerts ``raised`` (stored) and of the resolutions stored
    since the pages were last told, numbered in that order."""
    out = [live.delta(ALERT, listed(alert)) for alert in raised]
    done = live.told.get("resolved", 0)
    out.extend(live.delta(RESOLVED, {"event": e}) for e in live.alerts.resolutions[done:])
    live.told["resolved"] = len(live.alerts.resolutions)
    return out


def _seen_standing(live: LiveRound) -> dict[str, list[alertsmod.Alert]]:
    """Return, by group, the open ``out_of_position`` alerts raised on a fix still on the hole
    (``reason: seen_on_hole``; :meth:`LiveService._seen_late`)."""
    book = live.alerts
    out: dict[str, list[alertsmod.Alert]] = {}
    for key, a in book.raised.items():
        if a.get("reason") != alertsmod.SEEN_ON_HOLE or key in book.resolved:
            continue
        hole = a.get("hole")
        out.setdefault(str(a["group"]), []).append(
            alertsmod.Alert(
                key,
                alertsmod.OUT_OF_POSITION,
                str(a["group"]),
                hole if isinstance(hole, int) else None,
                datetime.fromisoformat(str(a["at"])),
                reason=alertsmod.SEEN_ON_HOLE,
            )  # fmt: skip
        )
    return out

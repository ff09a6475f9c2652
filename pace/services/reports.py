"""The report use cases: a round's post-round report, repeat offenders, the live hold-ups.

Report data are pure folds of the log (``pace.rules.report``); this module loads the round's
setup and log from the store, picks the round's policy from the configuration, and hands the
result to the renderers (``pace.reports``). Nothing is stored in the database; the last few
reports and their charts are kept in memory (``ReportCache``), by round, log position and
instant, so that the page, its charts and the letters build each once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any, TypeVar

from pace.documents.report import ReportMeta, holdup_view
from pace.rules import explain as explainmod
from pace.rules import life as lifemod
from pace.rules import report as rp
from pace.rules.errors import SetupError, UnknownGroupError
from pace.rules.events import Event
from pace.rules.report import author
from pace.rules.report import offenders as offendersmod
from pace.services.life import life_document
from pace.services.rounds import RoundService, RoundView
from pace.services.state import PARTS, LiveRound

T = TypeVar("T")

#: Repeat offenders are looked for over this many days back from today (config default).
OFFENDERS_DAYS = 183


@dataclass(frozen=True)
class RoundReportView:
    """A round's report and what is said of its round (names, day, zone, policy)."""

    meta: ReportMeta
    report: rp.RoundReport


def end_of_day(view: RoundView) -> datetime:
    """Return the last instant of the round's day: no fact of the round comes later."""
    return datetime.combine(view.record.day, time(23, 59, 59), tzinfo=view.tz)


def _meta(view: RoundView, known: bool) -> ReportMeta:
    rec = view.record
    languages = tuple((p.name, p.language) for g in rec.groups for p in g.players if p.language)
    return ReportMeta(
        rec.name,
        rec.course.name,
        rec.day,
        rec.timezone,
        rec.policy,
        rec.play,
        rec.format,
        known,
        languages=languages,
    )


@dataclass
class _Built:
    """One report kept: what it was built from, the report, and the charts drawn of it."""

    view: RoundView
    report: RoundReportView
    drawn: dict[tuple[str, ...], Any] = field(default_factory=dict)


class ReportCache:
    """The last ``size`` reports built, each with the charts drawn of it.

    A report is kept under its round, the log's position (the last event's ``seq``) and the
    instant it stops at, and stays valid while the round's setup is the one it was built
    from: an event appended to the log (a correction, a void, a late notification) moves the
    log's position, so the next report is built again, never served stale.
    """

    def __init__(self, size: int = 4):
        self.size = size
        self._built: OrderedDict[tuple[str, int, datetime], _Built] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, datetime], view: RoundView) -> _Built | None:
        """Return the report kept under ``key`` if it was built from ``view``."""
        with self._lock:
            found = self._built.get(key)
            if found is None or found.view is not view:
                return None
            self._built.move_to_end(key)
            return found

    def put(self, key: tuple[str, int, datetime], built: _Built) -> None:
        """Keep ``built`` under ``key``, forgetting the least recently used beyond ``size``."""
        with self._lock:
            self._built[key] = built
            self._built.move_to_end(key)
            while len(self._built) > self.size:
                self._built.popitem(last=False)


class ReportService:
    """Builds reports over a :class:`RoundService` (its store, settings and clock).

    With a ``cache`` (the web app keeps one), a report asked for again at the same log
    position and instant, and each chart drawn of it, are built once.
    """

    def __init__(self, service: RoundService, cache: ReportCache | None = None):
        self.service = service
        self.cache = cache

    def instant(self, round: str, now: datetime | None = None) -> datetime:
        """Return the instant a report of the round asked for at ``now`` stops at: ``now``
        (default: the clock's now), at most the end of the round's day."""
        return min(now or self.service.clock.now(), end_of_day(self.service.round_view(round)))

    def round_report(self, round: str, now: datetime | None = None) -> RoundReportView:
        """Return the round's report with every fact logged up to ``now`` (default: now).

        A round whose policy is not in the configuration is reported without faults. The
        report of a past round stops at the end of its day.
        """
        return self._built(round, now).report

    def drawn(
        self, round: str, name: tuple[str, ...], draw: Callable[[RoundReportView], T],
        now: datetime | None = None,
    ) -> T:  # fmt: skip
        """Return ``draw(report)`` for the round's report at ``now`` (a chart, by ``name``),
        drawn once for that report and kept with it when there is a cache."""
        built = self._built(round, now)
        if name not in built.drawn:
            built.drawn[name] = draw(built.report)
        found: T = built.drawn[name]
        return found

    def _built(self, round: str, now: datetime | None) -> _Built:
        view = self.service.round_view(round)
        at = self.instant(round, now)
        if self.cache is not None:
            found = self.cache.get((round, self.service.store.last_seq(round), at), view)
            if found is not None:
                return found
        events = self.service.store.events(round)
        built = _Built(view, self._build(view, round, events, at))
        if self.cache is not None:
            self.cache.put((round, (events[-1].seq or 0) if events else 0, at), built)
        return built

    def _build(
        self, view: RoundView, round: str, events: Sequence[Event], now: datetime
    ) -> RoundReportView:
        facts = self.service.facts(round, events)
        try:
            policy = self.service.settings.policy(view.record.policy)
        except SetupError:
            policy = None
        report = rp.build_report(
            view.setup,
            facts,
            events,
            policy,
            now,
            play=view.record.play,
            format_name=view.record.format,
            plan=view.plan,
        )
        meta = _meta(view, policy is not None)
        done_at = None
        if view.plan.groups and not report.field.not_finished:
            done_at = max((c.at for c in facts.completions), default=None)
        life = life_document(view, lifemod.fold(events), now, done_at)
        return RoundReportView(replace(meta, life=life), report)

    def offenders(
        self, days: int | None = None, today: date | None = None, club: str | None = None
    ) -> offendersmod.Offenders:
        """Return the players with episodes, bad times or penalties in the last ``days`` days.

        The window (default ``reports.offenders_days``) ends today on the service's clock; a
        round counts when its day falls in it. Newest first, one line per player.
        """
        days = self.service.settings.reports.offenders_days if days is None else days
        now = self.service.clock.now()
        today = today or now.date()
        since = today - timedelta(days=days)
        rounds = []
        for summary in self.service.list_rounds(club):
            if not since <= summary.day <= today:
                continue
            view = self.service.round_view(summary.name)
            events = self.service.store.events(summary.name)
            facts = self.service.facts(summary.name, events)
            try:
                policy = self.service.settings.policy(view.record.policy)
            except SetupError:
                policy = None
            rounds.append(
                offendersmod.round_record(
                    summary.name,
                    summary.day,
                    view.setup,
                    facts,
                    events,
                    policy,
                    now,
                    play=view.record.play,
                    format_name=view.record.format,
                    plan=view.plan,
                )
            )
        return offendersmod.Offenders(days, since, today, offendersmod.repeat_offenders(rounds))


class HoldUpPanel:
    """Adds who is holding the field up to the dashboard's snapshot and feed (``held_up``).

    A companion of the live service (``LiveService.extend``): the same reading as the report,
    over the log up to now. It is read again only once the log has grown, by the scheduler
    before its tick (:meth:`refresh`, outside the round's lock and the feed's order), and sent
    to the pages by the tick. A first reading costs about 17 ms for 52 groups mid-round; the
    next ones read again only the groups whose holes changed (``held_up_rows``: a tap changes
    its group's, and those of the groups that now see it ahead). Under gevent it still runs on
    the hub (a real thread fared worse: docs/architecture.md), a group at a time, with
    :attr:`pause` between two groups read.
    """

    #: it raises no alert
    alert_kinds: tuple[str, ...] = ()

    def __init__(self, live: Any):
        self.live = live
        #: lets other work run between two groups of a reading made by :meth:`refresh`
        #: (``pace serve`` under gevent: ``pace.web.server.hub_pause``, so a tap never waits
        #: for a whole reading)
        self.pause: Callable[[], None] | None = None
        live.extend(self)

    def held_up(self, live: LiveRound, now: datetime) -> list[dict[str, Any]]:
        """Return one row per group that held the field up (kept until the log grows)."""
        kept = self._kept(live)
        if kept is not None:
            return kept
        size, reading = self._reading(live, now)
        value = reading()
        live.told["held_up_value"] = (size, value)
        return list(value)

    def refresh(self, round: str, now: datetime) -> None:
        """Read who holds the field up again if the log grew since the last reading: the
        inputs are taken under the round's lock (they are immutable), the reading is made
        without it, and kept unless a newer one was."""
        with self.live.lock:
            live = self.live.live(round, now)
            if self._kept(live) is not None:
                return
            size, reading = self._reading(live, now, self.pause)
        value = reading()
        with self.live.lock:
            known = live.told.get("held_up_value")
            if known is None or known[0] < size:
                live.told["held_up_value"] = (size, value)

    def _kept(self, live: LiveRound) -> list[dict[str, Any]] | None:
        """Return the reading kept, if the log did not grow since it was made."""
        known = live.told.get("held_up_value")
        if known is not None and known[0] == len(live.events):
            return list(known[1])
        return None

    def _reading(
        self, live: LiveRound, now: datetime, pause: Callable[[], None] | None = None
    ) -> tuple[int, Callable[[], list[dict[str, Any]]]]:
        """Return the log's size and the reading of who held the field up in it, to run with
        or without the lock (what it reads is immutable); ``pause`` runs between its steps
        (without the lock only)."""
        # every accepted instant is at most the tolerance ahead of the server's clock
        horizon = now + self.live.future_tolerance
        view, facts = live.view, live.field.facts()
        # the groups' holes of the last reading: only the groups whose inputs changed since
        # are read again (a tap changes its group's and those it is seen ahead of)
        kept = live.told.setdefault("held_up_rows", {})

        def reading() -> list[dict[str, Any]]:
            steps = rp.field_holdups_steps(view.setup, facts, horizon, view.plan, kept)
            found = rp.run_steps(steps, pause)
            return [holdup_view(u, view.tz, going) for u, going in found]

        return len(live.events), reading

    def why(self, round: str, group: str, now: datetime) -> dict[str, Any]:
        """Return why ``group`` is named as holding the field up (docs/explanations.md): the
        explanation of its row on the panel, at the hole the row names (its worst), from the
        round's own fold: its time over, its gap to the group ahead, each group held behind it
        with its minutes over and its gap, the holes where it held the field up, and the facts
        with who logged them. Worked out when a referee asks, never put in the snapshot.

        Refused ``unknown_group`` (404) when the panel does not name the group.
        """
        with self.live.lock:
            live = self.live.live(round, now)
            row = next((r for r in self._latest(live, now) if r["group"] == group), None)
            if row is None:
                named = ", ".join(r["group"] for r in self._latest(live, now)) or "none"
                raise UnknownGroupError(
                    f"group {group[:40]!r} is not named as holding the field up"
                    f" (groups named: {named})",
                    field="group",
                )
            sources = live.memo("explain.sources", lambda: explainmod.Sources(live.events))
            followers = [b["group"] for b in row["behind"]]
            x = explainmod.explain_hold(live.field, sources, group, row["hole"], followers)
        if x is None:  # the fact it rested on was voided since the panel was read
            raise UnknownGroupError(
                f"group {group[:40]!r} no longer holds the field up at hole {row['hole']}",
                field="group",
            )
        return {
            "group": group,
            "held_up": row,
            "explanation": explainmod.as_document(x, author),
        }

    def _latest(self, live: LiveRound, now: datetime) -> list[dict[str, Any]]:
        """Return the latest reading (:meth:`refresh`'s), or read it here if there is none."""
        known = live.told.get("held_up_value")
        return list(known[1]) if known is not None else self.held_up(live, now)

    def snapshot_parts(self, live: LiveRound, now: datetime) -> Mapping[str, Any]:
        """Return the snapshot's ``held_up``.

        The first snapshot of a round in this process is what its pages hold until the feed
        tells them otherwise (after a restart nothing is announced again).
        """
        value = self.held_up(live, now)
        live.told.setdefault("held_up", value)
        return {"held_up": value}

    def deltas(
        self, live: LiveRound, statuses: Mapping[str, Any], now: datetime, tick: bool
    ) -> tuple[list[tuple[str, Mapping[str, Any]]], list[Any], list[str]]:
        """On a tick, return ``held_up`` as a part of the feed when it changed; no alert."""
        if not tick:
            return [], [], []
        value = self._latest(live, now)
        if live.told.get("held_up") == value:
            return [], [], []
        live.told["held_up"] = value
        return [(PARTS, {"held_up": value})], [], []

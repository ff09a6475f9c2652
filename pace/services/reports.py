"""The report use cases: a round's post-round report, repeat offenders, the live hold-ups.

Report data are pure folds of the log (``pace.rules.report``); this module loads the round's
setup and log from the store, picks the round's policy from the configuration, and hands the
result to the renderers (``pace.reports``). Nothing is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from pace.reports.document import ReportMeta, holdup_view
from pace.rules import report as rp
from pace.rules.errors import SetupError
from pace.rules.report import offenders as offendersmod
from pace.services.rounds import PaceService, RoundView
from pace.services.state import PARTS, LiveRound

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
    return ReportMeta(
        rec.name, rec.course.name, rec.day, rec.timezone, rec.policy, rec.play, rec.format, known
    )


class ReportService:
    """Builds reports over a :class:`PaceService` (its store, settings and clock)."""

    def __init__(self, service: PaceService):
        self.service = service

    def round_report(self, round: str, now: datetime | None = None) -> RoundReportView:
        """Return the round's report with every fact logged up to ``now`` (default: now).

        A round whose policy is not in the configuration is reported without faults. The
        report of a past round stops at the end of its day.
        """
        view = self.service.round_view(round)
        now = min(now or self.service.clock.now(), end_of_day(view))
        events = self.service.store.events(round)
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
        return RoundReportView(_meta(view, policy is not None), report)

    def offenders(
        self, days: int | None = None, today: date | None = None
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
        for summary in self.service.list_rounds():
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
    over the log up to now. It is read again only once the log has grown, and sent to the pages
    by the tick (a slow part: no tap waits for it).
    """

    def __init__(self, live: Any):
        self.live = live
        live.extend(self)

    def held_up(self, live: LiveRound, now: datetime) -> list[dict[str, Any]]:
        """Return one row per group that held the field up (kept until the log grows)."""
        known = live.told.get("held_up_value")
        if known is not None and known[0] == len(live.events):
            return list(known[1])
        # every accepted instant is at most the tolerance ahead of the server's clock
        horizon = now + self.live.future_tolerance
        view = live.view
        found = rp.field_holdups(view.setup, live.field.facts(), horizon, view.plan)
        value = [holdup_view(u, view.tz, going) for u, going in found]
        live.told["held_up_value"] = (len(live.events), value)
        return list(value)

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
    ) -> tuple[list[tuple[str, Mapping[str, Any]]], list[Any]]:
        """On a tick, return ``held_up`` as a part of the feed when it changed; no alert."""
        if not tick:
            return [], []
        value = self.held_up(live, now)
        if live.told.get("held_up") == value:
            return [], []
        live.told["held_up"] = value
        return [(PARTS, {"held_up": value})], []

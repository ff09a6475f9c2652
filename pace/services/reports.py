"""The report use cases: a round's post-round report, repeat offenders, the live hold-ups.

Report data are pure folds of the log (``pace.rules.report``); this module loads the round's
setup and log from the store, picks the round's policy from the configuration, and hands the
result to the renderers (``pace.reports``). Nothing is stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from pace.reports.document import ReportMeta, holdup_view
from pace.rules import alerts as alertsmod
from pace.rules import report as rp
from pace.rules.errors import SetupError
from pace.rules.events import Event
from pace.rules.position import Episode, FieldStatus
from pace.rules.report import offenders as offendersmod
from pace.services.rounds import PaceService, RoundView

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
    """Adds who is holding the field up to the dashboard's snapshot (``held_up``).

    A companion of the live service (``LiveService.extend``): the same reading as the report,
    over the log up to now, computed again only when the log grows.
    """

    def __init__(self, live: Any):
        self.live = live
        live.extend(self)

    def snapshot_parts(
        self, view: RoundView, events: Sequence[Event], now: datetime
    ) -> Mapping[str, Any]:
        """Return the snapshot's ``held_up``: one row per group that held the field up."""
        cache = self.live._cache(view.record.name)
        # every accepted instant is at most the tolerance ahead of the server's clock
        horizon = now + self.live.future_tolerance

        def compute() -> list[dict[str, Any]]:
            found = rp.field_holdups(view.setup, cache.folded(), horizon, view.plan)
            return [holdup_view(u, view.tz, going) for u, going in found]

        return {"held_up": cache.memo("held_up", compute)}

    def due_alerts(
        self,
        view: RoundView,
        events: Sequence[Event],
        field: FieldStatus,
        episodes: Sequence[Episode],
        now: datetime,
    ) -> Iterable[alertsmod.Alert]:
        """Return no alert: the panel only shows."""
        return ()

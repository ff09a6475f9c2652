"""APScheduler wiring: one job per round in play re-evaluates the field every tick.

Jobs are thin: they call ``live.tick(round)`` and broadcast the deltas it returns. The
scheduler starts only in the serving process (never at import time) and exactly once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.schedulers.background import BackgroundScheduler

from pace.rules.errors import PaceError
from pace.services.taps import LiveService
from pace.web.broadcast import Broadcaster

log = logging.getLogger(__name__)

SUPERVISOR_SECONDS = 15.0
CLOCK_PROBE_SECONDS = 60.0


class PaceScheduler:
    """Keeps one tick job per round in play, plus a supervisor that adds and removes them."""

    def __init__(
        self,
        live: LiveService,
        broadcaster: Broadcaster,
        *,
        tick_seconds: float,
        probe: Any = None,
        after_tick: Callable[[str], None] | None = None,
    ):
        self.live = live
        self.broadcaster = broadcaster
        self.tick_seconds = tick_seconds
        self.probe = probe
        #: what else follows a tick (the cards and leaderboards that changed)
        self.after_tick = after_tick
        self.scheduler = BackgroundScheduler(timezone="UTC")

    def start(self) -> None:
        """Start the scheduler and its supervisor (which schedules the rounds at once)."""
        self.scheduler.add_job(
            self.supervise,
            "interval",
            seconds=SUPERVISOR_SECONDS,
            id="supervisor",
            replace_existing=True,
            max_instances=1,
            coalesce=True,
            next_run_time=datetime.now(ZoneInfo("UTC")),
        )
        if self.probe is not None:
            self.scheduler.add_job(
                self.probe,
                "interval",
                seconds=CLOCK_PROBE_SECONDS,
                id="clock-probe",
                replace_existing=True,
                max_instances=1,
                coalesce=True,
            )
        self.scheduler.start()
        log.info("scheduler started: tick every %s s", self.tick_seconds)

    def shutdown(self) -> None:
        """Stop every job (waiting for a running tick to end)."""
        if self.scheduler.running:
            self.scheduler.shutdown(wait=True)

    def rounds_in_play(self) -> list[str]:
        """Return the rounds whose day is today on the service's clock and that have groups."""
        now = self.live.clock.now()
        out = []
        for r in self.live.service.list_rounds():
            record = self.live.service.store.get_round(r.name)
            if r.groups and now.astimezone(ZoneInfo(record.timezone)).date() == r.day:
                out.append(r.name)
        return out

    def supervise(self) -> None:
        """Add a tick job for each round in play and remove the others."""
        wanted = {f"tick:{name}": name for name in self.rounds_in_play()}
        for job in self.scheduler.get_jobs():
            if job.id.startswith("tick:") and job.id not in wanted:
                job.remove()
        for job_id, name in wanted.items():
            if self.scheduler.get_job(job_id) is None:
                self.scheduler.add_job(
                    self.tick,
                    "interval",
                    args=[name],
                    seconds=self.tick_seconds,
                    id=job_id,
                    replace_existing=True,
                    max_instances=1,
                    coalesce=True,
                    next_run_time=datetime.now(ZoneInfo("UTC")),
                )

    def tick(self, round: str) -> None:
        """Evaluate ``round`` now and broadcast what changed (the round's deltas, in order)."""

        def changes() -> tuple[Any, ...]:
            try:
                return tuple(self.live.tick(round))
            except PaceError as e:
                log.warning("tick of round %r refused: %s", round, e.message)
            except Exception:
                log.exception("tick of round %r failed", round)
            return ()

        self.broadcaster.feed(round, changes)
        if self.after_tick is not None:
            try:
                self.after_tick(round)
            except Exception:
                log.exception("announcing the tick of round %r failed", round)

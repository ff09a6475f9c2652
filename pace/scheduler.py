"""APScheduler wiring: one job per round in play re-evaluates the field every tick.

Jobs are thin: they call ``live.refresh(round)`` (the slow parts, off the round's lock) and
``live.tick_stages(round)``, and broadcast the deltas the tick's stages yield (those yielded
before a failure too). The scheduler starts only in the serving process (never at import
time) and exactly once.

With several workers (``leases``, ``pace.cluster.leases``), each worker's scheduler claims the
rounds in play every third of a lease and ticks only those it holds: one tick per round across
the workers, taken over by another within a lease when its holder dies. ``poke(round)`` ticks a
held round at once (another worker stored one of its events); ticks of one round never overlap
here, and a poke during a tick runs one more tick after it. A worker's first tick of a round
it took over announces, with its own, the alerts its dead predecessor stored but may not have
announced (those after the round's announced mark, ``RoundLeases.announced``), and every
tick that announces alerts moves the mark to the log's position.

Each round ticks at its own phase of the period (``phase``: a hash of its name), so a worker's
ticks are spread over the period instead of all starting at once; a round newly scheduled
(the scheduler's start, a round taken over) also ticks at once. A tick that starts late (its
worker busy) still runs, up to a whole period late; ``due`` is told the seconds from each
scheduled tick's due instant to its end (within the period: in its budget). The leases'
renewal and the supervisor run in executors of their own, never waiting behind the ticks.

With ``backup.every_minutes`` set, a ``backup`` job writes a snapshot of each round in play
(of each round held, with leases) through ``pace.services.backup.Snapshots``.

Each supervisor run also drops the groups' positions held past ``[positions] keep_hours`` or
of a round over (``PositionService.sweep``; docs/privacy.md), whether or not a phone sends.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from pace.rules import alerts
from pace.rules.errors import PaceError
from pace.services.backup import Snapshots
from pace.services.live import LiveService, listed
from pace.services.state import ALERT, RESOLVED, Delta

log = logging.getLogger(__name__)


class DeltaFeed(Protocol):
    """Where a tick's deltas go: the web adapter's broadcaster, handed in by the composition
    root (pace/app.py), so the scheduler knows no web module."""

    def feed(self, round: str, changes: Callable[[], Iterable[Delta]]) -> None:
        """Work out the round's deltas (``changes()``) and send them in their numbers' order."""


SUPERVISOR_SECONDS = 15.0
CLOCK_PROBE_SECONDS = 60.0


def phase(round: str, period: float) -> float:
    """Return the instant within ``period`` (seconds past each multiple of it, on the wall
    clock) at which ``round``'s ticks are due: the same on every worker, spread over rounds."""
    digest = hashlib.blake2b(round.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 * period


def due_after(round: str, period: float, now: float) -> float:
    """Return the first instant (wall-clock seconds) after ``now`` at which ``round``'s tick is
    due."""
    offset = phase(round, period)
    return offset + math.floor((now - offset) / period + 1) * period


def due_before(round: str, period: float, now: float) -> float:
    """Return the last instant (wall-clock seconds) at or before ``now`` at which ``round``'s
    tick was due."""
    return due_after(round, period, now) - period


class PaceScheduler:
    """Keeps one tick job per round in play, plus a supervisor that adds and removes them."""

    def __init__(
        self,
        live: LiveService,
        broadcaster: DeltaFeed,
        *,
        tick_seconds: float,
        probe: Any = None,
        after_tick: Callable[[str], None] | None = None,
        leases: Any = None,
        monotonic: Callable[[], float] = time.monotonic,
        ticked: Callable[[float], None] | None = None,
        due: Callable[[float], None] | None = None,
        wall: Callable[[], float] = time.time,
        snapshots: Snapshots | None = None,
        backup_minutes: float = 0.0,
        sweep: Callable[[], object] | None = None,
    ):
        self.live = live
        self.broadcaster = broadcaster
        self.tick_seconds = tick_seconds
        self.probe = probe
        #: what else follows a tick (the cards and leaderboards that changed)
        self.after_tick = after_tick
        #: the tick leases shared with the other workers (None: this process ticks every round)
        self.leases = leases
        self.scheduler = BackgroundScheduler(timezone="UTC")
        self.in_play: list[str] = []
        self._lock = threading.Lock()
        self._claiming = threading.Lock()
        # APScheduler 3's shutdown(wait=True) holds its job stores' lock while it waits for the
        # running jobs; a supervisor run asking for its jobs then would wait for ever. The jobs
        # change the job list only under _jobs, and not once shutdown has begun.
        self._jobs = threading.Lock()
        self._stopping = False
        self._running: dict[str, threading.Lock] = {}
        self._again: set[str] = set()
        #: the due instant of a scheduled tick asked for while the round's last one ran
        self._due: dict[str, float] = {}
        #: the rounds held at the last claim, and those taken over since (to catch up on)
        self._holding: set[str] = set()
        self._taken: set[str] = set()
        #: the log position last marked announced, by round (the mark moves only with it)
        self._marked: dict[str, int] = {}
        #: the operator's readiness check (``/readyz``) reads when this scheduler last worked:
        #: a tick ended or the supervisor ran (``monotonic()`` seconds; None: never started)
        self.monotonic = monotonic
        self.last_tick: float | None = None
        #: told each tick's seconds (the operator's metrics; None: nobody listens)
        self.ticked = ticked
        #: told, for each scheduled tick, the seconds from its due instant to its end (the
        #: operator's metrics: over the period, it ran into the next one's time)
        self.due = due
        self.wall = wall
        #: the scheduled backups (``backup.every_minutes``; None or 0: none)
        self.snapshots = snapshots
        self.backup_minutes = backup_minutes
        #: what the supervisor also runs: the groups' positions held past their time (or of
        #: a round over) dropped (issue 48; docs/privacy.md)
        self.sweep = sweep

    def start(self) -> None:
        """Start the scheduler and its supervisor (which schedules the rounds at once)."""
        self.last_tick = self.monotonic()  # its first period runs from now
        # the supervisor and the leases' renewal never wait for a free thread behind the ticks
        self.scheduler.add_executor(ThreadPoolExecutor(1), "supervisor")
        self.scheduler.add_executor(ThreadPoolExecutor(1), "leases")
        self.scheduler.add_job(
            self.supervise,
            "interval",
            seconds=SUPERVISOR_SECONDS,
            executor="supervisor",
            id="supervisor",
            replace_existing=True,
            max_instances=1,
            coalesce=True,
            next_run_time=datetime.now(ZoneInfo("UTC")),
        )
        if self.leases is not None:
            self.scheduler.add_job(
                self.claim,
                "interval",
                seconds=self.leases.renew_seconds,
                executor="leases",
                misfire_grace_time=max(1, math.ceil(self.leases.renew_seconds)),
                id="leases",
                replace_existing=True,
                max_instances=1,
                coalesce=True,
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
        if self.snapshots is not None and self.backup_minutes > 0:
            self.scheduler.add_job(
                self.back_up,
                "interval",
                minutes=self.backup_minutes,
                id="backup",
                replace_existing=True,
                max_instances=1,
                coalesce=True,
            )
        self.scheduler.start()
        log.info("scheduler started: tick every %s s", self.tick_seconds)

    def shutdown(self) -> None:
        """Stop every job (waiting for a running tick to end); hand the leases over."""
        with self._jobs:
            self._stopping = True
        if self.scheduler.running:
            self.scheduler.shutdown(wait=True)
        if self.leases is not None:
            self.leases.release()

    def period(self) -> float:
        """Return how often this scheduler should have worked: a tick's period while it ticks
        a round, else the supervisor's."""
        ticking = any(job.id.startswith("tick:") for job in self.scheduler.get_jobs())
        return self.tick_seconds if ticking else SUPERVISOR_SECONDS

    def ticked_within(self, periods: float) -> bool:
        """Return whether the scheduler worked (ticked, or supervised) in the last ``periods``
        periods: a stuck or dead scheduler stops ticking without a word."""
        last = self.last_tick
        return last is not None and self.monotonic() - last <= periods * self.period()

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
        """Add a tick job for each round in play (held, with leases) and remove the others;
        drop the positions held past their time."""
        if self.sweep is not None:
            try:
                self.sweep()
            except Exception:
                log.exception("dropping the positions held past their time failed")
        self.in_play = self.rounds_in_play()
        if self.leases is None:
            self._schedule(self.in_play)
        else:
            self.claim()
        self.last_tick = self.monotonic()

    def back_up(self) -> list[Path]:
        """Write a snapshot of each round in play (with several workers, of each round this
        one ticks: one worker writes each round); return the files written."""
        if self.snapshots is None:
            return []
        with self._lock:
            held = sorted(self._holding)
        rounds = self.rounds_in_play() if self.leases is None else held
        return self.snapshots.take(rounds, at=datetime.now(ZoneInfo("UTC")))

    def claim(self) -> None:
        """Take or renew the leases of the rounds in play; tick those held, and only those.

        A worker that stopped beating since the last claim is dead (or cut off): its leases
        run out within half a renewal of its beat, so this worker claims once more just after
        that, rather than a whole renewal later (its rounds are ticked again sooner)."""
        with self._claiming:
            held = self.leases.claim(self.in_play)
            with self._lock:
                self._taken = (self._taken | (held - self._holding)) & held
                self._holding = set(held)
            self._schedule(sorted(held))
            if self.leases.vanished:
                self._claim_again(self.leases.renew_seconds / 2 + 0.1)

    def _claim_again(self, seconds: float) -> None:
        with self._jobs:
            if self._stopping or not self.scheduler.running:
                return
            self.scheduler.add_job(
                self.claim, "date", id="leases-again", replace_existing=True,
                executor="leases", misfire_grace_time=None,
                run_date=datetime.fromtimestamp(time.time() + seconds, ZoneInfo("UTC")),
            )  # fmt: skip

    def _schedule(self, rounds: list[str]) -> None:
        with self._jobs:
            if not self._stopping:
                self._reschedule(rounds)

    def _reschedule(self, rounds: list[str]) -> None:
        wanted = {f"tick:{name}": name for name in rounds}
        for job in self.scheduler.get_jobs():
            if job.id.startswith("tick:") and job.id not in wanted:
                job.remove()
        now = self.wall()
        for job_id, name in wanted.items():
            if self.scheduler.get_job(job_id) is None:
                at = due_after(name, self.tick_seconds, now)
                self.scheduler.add_job(
                    self.tick_due,
                    "interval",
                    args=[name],
                    seconds=self.tick_seconds,
                    id=job_id,
                    replace_existing=True,
                    max_instances=1,
                    coalesce=True,
                    # a tick late by up to its period still runs (and says how late it ended)
                    misfire_grace_time=max(1, math.ceil(self.tick_seconds)),
                    next_run_time=datetime.fromtimestamp(at, ZoneInfo("UTC")),
                )
                # its first tick at once (a round taken over: its pages wait for nothing)
                self.scheduler.add_job(
                    self.tick, "date", args=[name], id=f"first:{name}", replace_existing=True,
                    misfire_grace_time=None,
                )  # fmt: skip

    def tick_due(self, round: str) -> None:
        """Tick ``round`` at its due instant (the job's), telling ``due`` how long after that
        instant the tick ended (if the round's last tick still runs, the one it runs after)."""
        self.tick(round, due=due_before(round, self.tick_seconds, self.wall()))

    def poke(self, round: str) -> None:
        """Tick ``round`` now if this worker ticks it (in a thread of its own: never waits)."""
        if self.leases is not None and self.leases.owns(round):
            threading.Thread(target=self.tick, args=(round,), daemon=True).start()

    def tick(self, round: str, due: float | None = None) -> None:
        """Evaluate ``round`` now and broadcast what changed; once more if asked meanwhile.
        ``due``: the wall-clock instant a scheduled tick was due at (its end is measured from
        it, by whichever call runs the tick)."""
        with self._lock:
            running = self._running.setdefault(round, threading.Lock())
            self._again.add(round)
            if due is not None:
                self._due.setdefault(round, due)  # the earliest still waiting
        while True:
            if not running.acquire(blocking=False):
                return  # the tick running now ticks once more after it
            try:
                while True:
                    with self._lock:
                        if round not in self._again:
                            break
                        self._again.discard(round)
                        waiting = self._due.pop(round, None)
                    self._tick_once(round)
                    if waiting is not None and self.due is not None:
                        self.due(self.wall() - waiting)
            finally:
                running.release()
            with self._lock:  # asked between the last check and the release
                if round not in self._again:
                    return

    def _tick_once(self, round: str) -> None:
        started = time.perf_counter()
        try:
            self._evaluate(round)
        finally:
            self.last_tick = self.monotonic()  # a tick that failed still shows it runs
            if self.ticked is not None:
                self.ticked(time.perf_counter() - started)

    def _evaluate(self, round: str) -> None:
        if self.leases is not None and not self.leases.owns(round):
            return  # the lease ran out or moved: the new holder ticks it
        with self._lock:
            taken = round in self._taken
            self._taken.discard(round)
        announced, failed = False, False
        try:
            # the slow parts first, outside the feed's order and the round's lock: no
            # command's deltas wait for them (LiveService.refresh)
            self.live.refresh(round)
        except PaceError as e:
            log.warning("refresh of round %r refused: %s", round, e.message)
        except Exception:
            log.exception("refresh of round %r failed", round)

        def changes() -> tuple[Delta, ...]:
            nonlocal announced, failed
            failed = True
            done: list[Delta] = []
            try:
                # the stages' deltas gathered as they come: a tick that fails part-way still
                # sends what it numbered (the rows held for a refused store of its alerts:
                # ``LiveService.stages``), so no page waits on stale rows for the next change
                for stage in self.live.tick_stages(round):
                    done.extend(stage)
                deltas = tuple(done)
                if taken:
                    deltas = self._unannounced(round, deltas)
            except PaceError as e:
                log.warning("tick of round %r refused: %s", round, e.message)
                return tuple(done)
            except Exception:
                log.exception("tick of round %r failed", round)
                return tuple(done)
            announced = any(d.kind in (ALERT, RESOLVED) for d in deltas)
            failed = False
            return deltas

        self.broadcaster.feed(round, changes)  # worked out and sent in the feed's order
        if failed:
            return
        if self.leases is not None:
            # a command announces its alerts with it, a tick its own: once this tick is sent,
            # every alert stored so far was announced (the mark moves with the log)
            seq = self.live.service.store.last_seq(round)
            if taken or announced or self._marked.get(round) != seq:
                self.leases.mark_announced(round, seq)
                self._marked[round] = seq
        if self.after_tick is not None:
            try:
                self.after_tick(round)
            except Exception:
                log.exception("announcing the tick of round %r failed", round)

    def _unannounced(self, round: str, deltas: tuple[Delta, ...]) -> tuple[Delta, ...]:
        """Add to a taken-over round's first tick the alerts stored after the announced mark
        and announced neither by this tick nor by a worker while the holder was dead (its
        noted ones, ``RoundLeases.told``): the raised ones nobody acknowledged since (a page
        would list an acknowledged one again) first, the resolutions last (a page moves the
        alert it just heard to the resolved ones); the feed is numbered again in that order."""
        mark = self.leases.announced(round)
        if mark is None:
            return deltas  # never marked (or Redis away): nothing known to catch up
        types = [alerts.ALERT_RAISED, alerts.ALERT_ACKNOWLEDGED, alerts.ALERT_RESOLVED]
        later = self.live.service.store.events(round, types=types, after_seq=mark)
        told = {d.data.get("id") for d in deltas if d.kind == ALERT}
        told |= {d.data["event"].id for d in deltas if d.kind == RESOLVED}
        told |= self.leases.told(round)  # announced by a worker while the holder was dead
        acked = {e.payload.get("alert") for e in later if e.type == alerts.ALERT_ACKNOWLEDGED}
        raised = [
            (ALERT, listed(alerts.view(e)))  # (its explanation fetched on "Why")
            for e in later
            if e.type == alerts.ALERT_RAISED
            and e.id not in told
            and e.payload.get("key") not in acked
        ]
        ended = [
            (RESOLVED, {"event": e})
            for e in later
            if e.type == alerts.ALERT_RESOLVED and e.id not in told
        ]
        if not raised and not ended:
            return deltas
        log.info("round %r: announcing %d alerts its last holder stored", round,
                 len(raised) + len(ended))  # fmt: skip
        live = self.live.live(round)
        first = deltas[0].rev if deltas else live.rev + 1
        parts = [*raised, *((d.kind, d.data) for d in deltas), *ended]
        out = tuple(Delta(kind, first + i, data) for i, (kind, data) in enumerate(parts))
        live.rev = out[-1].rev
        return out

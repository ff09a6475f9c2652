"""``pace demo``: a demo round played on an accelerated clock by simulated marshals.

The demo creates a clean database with a course and a draw for today, computes how
every group plays the round (seeded, so a run can be replayed), and serves it exactly as
``pace serve`` does. Six simulated marshals, real Socket.IO clients over websockets,
tap each completion at its simulated instant. The clock starts after the first groups
have teed off: the marshals first send what happened before, as a phone's offline queue
would, then play goes on live.
"""

from __future__ import annotations

import _thread
import logging
import os
import random
import signal
import socket
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pace import config
from pace.clock import AcceleratedClock
from pace.demo import data as demo_data
from pace.demo.play import Tap, marshal_holes, plan_incidents, play_round
from pace.rules.errors import PaceError

log = logging.getLogger(__name__)

ROUND = "demo"
#: How long play has been under way when the demo's clock starts.
HEAD_START = timedelta(minutes=75)
#: A line on the terminal every this many simulated minutes.
NOTE_EVERY = timedelta(minutes=30)
MARSHAL_NAMES = ("Martine", "Jacques", "Hélène", "Patrick", "Brigitte", "Didier")


class DemoError(PaceError, RuntimeError):
    """The demo cannot start as asked."""

    code = "demo_error"


@dataclass(frozen=True)
class DemoOptions:
    """What ``pace demo`` was asked for (``None``: the configured value)."""

    db: str = "pace-demo.db"
    host: str | None = None
    port: int | None = None
    speed: float = 60.0
    tick: float = 1.0
    seed: int = 1
    groups: int = 32
    duration: float | None = None


# --------------------------------------------------------------------------- the database


@dataclass(frozen=True)
class DemoRound:
    """The demo round as stored, and how it will be played."""

    day: date
    tz: ZoneInfo
    first_start: datetime
    groups: int
    players: int
    holes: tuple[int, ...]
    taps: tuple[Tap, ...]


def create_database(settings: config.Settings, options: DemoOptions) -> DemoRound:
    """Recreate the demo database from scratch and return the round and its play."""
    from pace.services.rounds import RoundService
    from pace.store import open_store

    path = Path(options.db)
    _remove_demo_database(path, settings)
    rng = random.Random(options.seed)
    tz = settings.round.tz
    day = datetime.now(tz).date()
    store = open_store(path, synchronous=settings.database.synchronous)
    try:
        service = RoundService(store, settings)
        course = service.import_course(demo_data.course_toml(), "demo-course.toml")
        record = service.import_draw(
            demo_data.draw_csv(options.groups, rng),
            "demo-draw.csv",
            round=ROUND,
            course=course.name,
            day=day,
            timezone=settings.round.timezone,
        )
        plan = service.round_view(ROUND).plan
    finally:
        store.close()
    pars = {h.number: h.par for h in course.holes}
    taps = play_round(plan, pars, rng, plan_incidents(plan, rng))
    return DemoRound(
        day=day,
        tz=tz,
        first_start=min(g.start for g in record.groups),
        groups=len(record.groups),
        players=sum(g.size for g in record.groups),
        holes=course.hole_numbers,
        taps=tuple(taps),
    )


def _remove_demo_database(path: Path, settings: config.Settings) -> None:
    """Delete a previous demo database; refuse a file that holds anything else."""
    from pace.store import open_store

    if path.exists():
        try:
            with open_store(path, synchronous=settings.database.synchronous) as store:
                others = [r.name for r in store.list_rounds() if r.name != ROUND]
                others += [c.name for c in store.list_courses() if c.name != demo_data.COURSE_NAME]
        except PaceError as e:
            raise DemoError(
                f"{str(path)!r} is not a demo database ({e.message}); choose another --db",
                field="db",
            ) from None
        if others:
            raise DemoError(
                f"{str(path)!r} holds more than the demo ({', '.join(map(repr, others[:3]))}); "
                "the demo deletes its database at every run, so choose another --db",
                field="db",
            )
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


# --------------------------------------------------------------------------- the marshals


class Marshal:
    """A simulated marshal: a real Socket.IO client that taps completions at their instants.

    Taps whose instant has passed are sent at once, one after the other, each waiting
    for its ack, as a phone drains its offline queue; a tap that gets no ack stays
    queued and is sent again with the same id, which the server counts once.
    """

    def __init__(
        self,
        number: int,
        holes: tuple[int, ...],
        taps: Iterable[Tap],
        *,
        url: str,
        clock: AcceleratedClock,
        tz: ZoneInfo,
        stop: threading.Event,
        token: str = "",
    ):
        self.number = number
        self.holes = holes
        self.queue = [(str(uuid.uuid4()), tap) for tap in taps if tap.hole in holes]
        self.url = url
        self.clock = clock
        self.tz = tz
        self.stop = stop
        self.sent = 0
        self.refused = 0
        self.drained = threading.Event()  # the taps of the past are all sent
        self.finished = threading.Event()
        name = MARSHAL_NAMES[(number - 1) % len(MARSHAL_NAMES)]
        self.auth = {
            "token": token,
            "device": f"demo-marshal-{number}",
            "name": f"{name} (holes {holes[0]}–{holes[-1]})",
        }
        self.thread = threading.Thread(target=self._run, name=f"marshal-{number}", daemon=True)

    def _device_time(self) -> str:
        return self.clock.now().astimezone(self.tz).isoformat()

    def _run(self) -> None:
        import socketio

        client = socketio.Client(reconnection_delay=0.2, reconnection_delay_max=1)
        client.on("clock_probe", lambda data=None: {"device_time": self._device_time()})
        joined = threading.Event()  # cleared at each (re)connection: rooms are per connection
        client.on("connect", joined.clear)
        try:
            client.connect(self.url, auth=self.auth, transports=["websocket"], wait_timeout=10)
            while self.queue and not self.stop.is_set():
                if not joined.is_set() and self._join(client):
                    joined.set()
                event_id, tap = self.queue[0]
                wait = self.clock.to_real_seconds(tap.at - self.clock.now())
                if wait > 0:
                    self.drained.set()
                    self.stop.wait(wait)
                elif self._send(client, event_id, tap):
                    self.queue.pop(0)
        except Exception:
            log.exception("demo marshal %s stopped", self.number)
        finally:
            try:
                client.disconnect()
            finally:
                self.drained.set()
                self.finished.set()

    def _join(self, client: Any) -> bool:
        """Follow the round and the holes covered, as the marshal page does."""
        import socketio

        try:
            reply = client.call("join_round", {"round": ROUND, "holes": [*self.holes]}, timeout=5)
        except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError):
            return False  # not connected right now: joined again after reconnecting
        return self._ack(reply)

    def _send(self, client: Any, event_id: str, tap: Tap) -> bool:
        import socketio

        payload = {
            "id": event_id,
            "round": ROUND,
            "group": tap.group,
            "hole": tap.hole,
            "at": tap.at.astimezone(self.tz).isoformat(),
            "device_time": self._device_time(),
        }
        try:
            reply = client.call("hole_completed", payload, timeout=5)
        except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError):
            self.stop.wait(0.2)  # not acknowledged: stays queued, sent again with its id
            return False
        if self._ack(reply):
            self.sent += 1
        else:
            self.refused += 1
        return True

    def _ack(self, reply: Any) -> bool:
        if isinstance(reply, dict) and reply.get("ok"):
            return True
        log.warning("demo marshal %s: refused: %r", self.number, reply)
        return False


# --------------------------------------------------------------------------- the run


class Demo:
    """Serves the demo round and drives its marshals until the round is over or stopped."""

    def __init__(self, settings: config.Settings, options: DemoOptions, demo_round: DemoRound):
        from pace import app as appmod

        self.settings = settings
        self.options = options
        self.round = demo_round
        self.origin = demo_round.first_start + HEAD_START
        self.clock = AcceleratedClock(self.origin, options.speed)
        self.app = appmod.create_app(settings, clock=self.clock)
        self.ext = self.app.extensions["pace"]
        self.stop = threading.Event()
        self.gevent = settings.server.async_mode == "gevent"
        host, port = settings.server.host, settings.server.port
        self.client_host = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
        self.url = f"http://{self.client_host}:{port}"
        self.marshals = [
            Marshal(
                i,
                holes,
                demo_round.taps,
                url=self.url,
                clock=self.clock,
                tz=demo_round.tz,
                stop=self.stop,
                # each simulated phone signs in as a marshal of the round (docs/access.md)
                token=self.ext.access.grant("marshal", ROUND, f"demo marshal {i}").token,
            )
            for i, holes in enumerate(marshal_holes(demo_round.holes), start=1)
        ]
        # one code per role for the people watching the demo, printed in the banner
        self.codes = {
            role: self.ext.access.create_code(ROUND, role, "demo")
            for role in ("committee", "referee", "marshal", "viewer")
        }
        self._stopping = False
        self._started = time.monotonic()

    # -- serving -----------------------------------------------------------------------

    def run(self) -> None:
        """Serve until the round is over, ``duration`` has passed, or a signal stops it."""
        from pace import app as appmod

        self._started = time.monotonic()
        self._catch_signals()
        director = threading.Thread(target=self._direct, name="demo-director", daemon=True)
        director.start()
        try:
            appmod.run_server(self.app)
        except KeyboardInterrupt:
            pass
        except OSError as e:
            raise DemoError(f"cannot serve on {self.url}: {e}", field="port") from None
        finally:
            self._stop_marshals()
            director.join(5)  # it may be reading the field: close the store after it
            appmod.close_app(self.app)

    def _catch_signals(self) -> None:
        if self.gevent:
            import gevent

            gevent.signal_handler(signal.SIGINT, self.request_stop, "interrupted")
            gevent.signal_handler(signal.SIGTERM, self.request_stop, "terminated")
        else:
            signal.signal(signal.SIGTERM, _interrupt)

    def request_stop(self, reason: str = "") -> None:
        """Stop the demo: the marshals first, then the server (a second request forces)."""
        if self._stopping:
            raise SystemExit(1)
        self._stopping = True
        if reason:
            print(f"pace demo: {reason}, stopping", flush=True)
        threading.Thread(target=self._shutdown, name="demo-shutdown", daemon=True).start()

    def _stop_marshals(self, timeout: float = 5) -> None:
        self.stop.set()
        deadline = time.monotonic() + timeout
        for m in self.marshals:
            m.finished.wait(max(0.0, deadline - time.monotonic()))

    def _shutdown(self) -> None:
        self._stop_marshals()
        if self.gevent:
            self.ext.socketio.stop()  # serve_forever returns
        else:
            _thread.interrupt_main()  # Werkzeug stops on KeyboardInterrupt

    # -- directing ------------------------------------------------------------------------

    def _direct(self) -> None:
        """Wait for the server, start the marshals, then the scheduler, then take notes."""
        from pace import app as appmod

        if not self._wait_listening():
            log.error("the demo server did not start listening on %s", self.url)
            self.request_stop()
            return
        self._print_banner()
        for m in self.marshals:
            m.thread.start()
        deadline = time.monotonic() + 30
        for m in self.marshals:
            m.drained.wait(max(0.0, deadline - time.monotonic()))
        if self.stop.is_set():
            return
        appmod.start_scheduler(self.app)
        next_note = _next_multiple(self.clock.now(), NOTE_EVERY)
        while not self.stop.is_set():
            if all(m.finished.is_set() for m in self.marshals):
                # let the scheduler see the last taps before stopping
                self.stop.wait(2 * self.settings.scheduler.tick_seconds + 0.5)
                self._note("the round is over")
                break
            if self.options.duration and time.monotonic() - self._started >= self.options.duration:
                self._note(f"stopping after {self.options.duration:g} s")
                break
            self.stop.wait(0.25)
            if self.clock.now() >= next_note:
                self._note()
                next_note += NOTE_EVERY
        if not self._stopping:
            self.request_stop()

    def _wait_listening(self, timeout: float = 20) -> bool:
        deadline = time.monotonic() + timeout
        while not self.stop.is_set() and time.monotonic() < deadline:
            try:
                with socket.create_connection((self.client_host, self.settings.server.port), 1):
                    return True
            except OSError:
                self.stop.wait(0.05)  # bounded poll for the server to listen
        return False

    def _print_banner(self) -> None:
        print(self.banner(), flush=True)

    def banner(self) -> str:
        """Return what the demo prints when it starts: the round, the clock, a link per page."""
        r = self.round
        return demo_data.banner(
            url=self.url,
            codes=self.codes,
            first_start=r.first_start.astimezone(r.tz),
            origin=self.origin.astimezone(r.tz),
            speed=self.options.speed,
            summary=f"{demo_data.COURSE_NAME}, round {ROUND!r} of {r.day}: {r.groups} groups,"
            f" {r.players} players",
            marshals=len(self.marshals),
            holes=self.marshals[0].holes if self.marshals else (),
            db=self.options.db,
        )

    def _note(self, extra: str = "") -> None:
        now = self.clock.now()
        field = self.ext.live.field(ROUND, now)
        counts = Counter(s.status.value for s in field.groups)
        out = [s.group for s in field.groups if s.status.value == "out_of_position"]
        sent = sum(m.sent for m in self.marshals)
        refused = sum(m.refused for m in self.marshals)
        line = (
            f"{now.astimezone(self.round.tz):%H:%M}  on course"
            f" {sum(counts[k] for k in ('on_pace', 'behind', 'overdue', 'out_of_position'))},"
            f" finished {counts['finished']}, behind {counts['behind']},"
            f" overdue {counts['overdue']}, out of position {len(out)}"
            + (f" (groups {', '.join(out)})" if out else "")
            + f"; {sent} taps"
            + (f", {refused} refused (see the log)" if refused else "")
        )
        print(f"{line}; {extra}" if extra else line, flush=True)


def _next_multiple(instant: datetime, step: timedelta) -> datetime:
    """Return the first instant after ``instant`` that is a whole multiple of ``step`` (UTC).

    >>> from datetime import UTC
    >>> _next_multiple(datetime(2026, 6, 1, 9, 17, tzinfo=UTC), timedelta(minutes=30)).time()
    datetime.time(9, 30)
    """
    epoch = datetime(2000, 1, 1, tzinfo=instant.tzinfo)
    return epoch + (instant - epoch) // step * step + step


def _interrupt(*args: Any) -> None:
    raise KeyboardInterrupt


def run(settings: config.Settings, options: DemoOptions) -> None:
    """Create the demo database, serve it and play the round (see the module docstring)."""
    settings = settings.replace(
        server={
            "host": options.host or settings.server.host,
            "port": options.port or settings.server.port,
        },
        database={"path": options.db},
        scheduler={"tick_seconds": options.tick, "enabled": True},
    )
    from pace import app as appmod

    appmod.configure_logging()
    _check_port_free(settings.server.host, settings.server.port)
    demo_round = create_database(settings, options)
    Demo(settings, options, demo_round).run()


def _check_port_free(host: str, port: int) -> None:
    """Refuse early, before touching the database, when the port is taken."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        raise DemoError(
            f"cannot listen on {host}:{port} ({os.strerror(e.errno) if e.errno else e}); "
            "pass another --port",
            field="port",
        ) from None

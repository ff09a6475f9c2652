"""``pace demo``: a demo round played on an accelerated clock by simulated people.

The demo creates a clean database with a course and a draw for today, computes how
every group plays the round and what everybody does about it (seeded, so a run can be
replayed: ``pace.demo.play``, ``pace.demo.cast``), and serves it exactly as ``pace serve``
does. Simulated marshals, referees, scorers and the committee, real Socket.IO clients over
websockets (``pace.demo.actors``), send each fact at its simulated instant. The clock starts
after the first groups have teed off: they first send what happened before, as a phone's
offline queue would, then play goes on live. ``--actors marshals`` leaves only the marshals;
``--actors groups``, only the groups' scorers reporting their holes (issue 39); ``--actors
phones``, only the groups' phones sharing their positions (issue 48), from which the server
infers every completion.
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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pace import config
from pace.clock import AcceleratedClock
from pace.demo import cast as castmod
from pace.demo import data as demo_data
from pace.demo import geography
from pace.demo.actors import Actor, PhoneActor
from pace.demo.play import Tap, group_reports, marshal_holes, plan_incidents, play_round
from pace.rules.errors import PaceError
from pace.rules.model import Suspension
from pace.rules.positions import CourseShape

log = logging.getLogger(__name__)

ROUND = "demo"
#: How long play has been under way when the demo's clock starts.
HEAD_START = timedelta(minutes=75)
#: A line on the terminal every this many simulated minutes.
NOTE_EVERY = timedelta(minutes=30)
MARSHAL_NAMES = ("Martine", "Jacques", "Hélène", "Patrick", "Brigitte", "Didier")
REFEREE_NAMES = ("Claire", "Marc")
SCORER_NAMES = ("Anne", "Luc", "Sabine", "Yves", "Nadia", "Paul", "Inès", "Hugo")
#: ``--actors``: who plays: everybody, only the marshals (the lighter demo), only the
#: groups' scorers reporting their holes, with no marshal (issue 39), or only the groups'
#: phones sharing their positions, with no marshal and nobody typing (issue 48)
ACTORS = ("all", "marshals", "groups", "phones")
#: the rounds with no marshal: their completions come from the groups (docs/status.md)
MARSHAL_LESS = ("groups", "phones")


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
    actors: str = "all"


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
    cast: castmod.Cast
    seed: int = 1


def create_database(settings: config.Settings, options: DemoOptions) -> DemoRound:
    """Recreate the demo database from scratch and return the round and its play."""
    from pace.services.geometry import import_geometry, round_geometry
    from pace.services.rounds import RoundService
    from pace.store import open_store

    path = Path(options.db)
    _remove_demo_database(path, settings)
    rng = random.Random(options.seed)
    tz = settings.round.tz
    policy = settings.policy(settings.round.policy)
    day = datetime.now(tz).date()
    store = open_store(path, synchronous=settings.database.synchronous)
    try:
        service = RoundService(store, settings)
        course = service.import_course(demo_data.course_toml(), "demo-course.toml")
        # the course's own map, made for it (issue 40), read as a club's export is
        import_geometry(service, geography.osm_xml(course).encode(), "demo-course.osm", course.name)
        record = service.import_draw(
            demo_data.draw_csv(options.groups, rng),
            "demo-draw.csv",
            round=ROUND,
            course=course.name,
            day=day,
            timezone=settings.round.timezone,
            completions="groups" if options.actors in MARSHAL_LESS else None,
        )
        shape = None
        if options.actors == "phones":
            service.set_positions(ROUND, True)  # the committee allows positions (issue 48)
            geometry = round_geometry(service, ROUND)
            assert geometry is not None  # imported above
            shape = CourseShape.of(geometry)
        view = service.round_view(ROUND)
    finally:
        store.close()
    pars = {h.number: h.par for h in course.holes}
    incidents = plan_incidents(view.plan, rng)
    first_start = min(g.start for g in record.groups)
    if options.actors in ("marshals", *MARSHAL_LESS):
        taps = play_round(view.plan, pars, rng, incidents)
        phones: tuple[castmod.Phone, ...] = ()
        if shape is not None:
            phones = castmod.plan_phones(shape, view.plan, taps,
                                         random.Random(f"{options.seed}/phones"))  # fmt: skip
        cast = castmod.Cast(tuple(taps), phones=phones)
    else:
        state = rng.getstate()

        def play(stops: Sequence[Suspension]) -> list[Tap]:
            rng.setstate(state)  # the same draws: the same round, stopped where play stops
            return play_round(view.plan, pars, rng, incidents, stops)

        cast = castmod.plan_cast(
            view.setup, view.plan, incidents, play,
            seed=options.seed, origin=first_start + HEAD_START, policy=policy,
        )  # fmt: skip
    return DemoRound(
        day=day,
        tz=tz,
        first_start=first_start,
        groups=len(record.groups),
        players=sum(g.size for g in record.groups),
        holes=course.hole_numbers,
        cast=cast,
        seed=options.seed,
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


# --------------------------------------------------------------------------- the run


class Demo:
    """Serves the demo round and drives its simulated people until it is stopped."""

    def __init__(self, settings: config.Settings, options: DemoOptions, demo_round: DemoRound):
        from pace import app as appmod

        self.settings = settings
        self.options = options
        self.round = demo_round
        self.origin = demo_round.first_start + HEAD_START
        self.clock = AcceleratedClock(self.origin, options.speed)
        self.app = appmod.create_app(settings, clock=self.clock)
        self.ext = self.app.extensions["pace"]
        # a phone's bound of fixes a minute (docs/positions.md) counts the minutes of the
        # demo's clock, as a phone's on the course counts the day's: at ×900 a group's whole
        # round of fixes takes 18 real seconds
        self.ext.positions.monotonic = lambda: self.clock.now().timestamp()
        self.stop = threading.Event()
        self.gevent = settings.server.async_mode == "gevent"
        host, port = settings.server.host, settings.server.port
        self.client_host = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
        self.url = f"http://{self.client_host}:{port}"
        # one code per role for the people watching the demo, printed in the banner
        self.codes = {
            role: self.ext.access.create_code(ROUND, role, "demo")
            for role in ("committee", "referee", "scorer", "marshal", "viewer")
        }
        # the console spans every round: the committee secret's alone (docs/access.md); the
        # demo's database is new at every run, so it has none yet and the banner shows it
        secret = self.ext.access.ensure_committee_account()
        if secret is not None:
            self.codes[demo_data.SECRET] = secret
        self.actors = self._cast()
        self._stopping = False
        self._started = time.monotonic()

    def _cast(self) -> list[Actor]:
        """Return the simulated people, each with an access code of its role (docs/access.md)."""
        r, seed, tz = self.round, self.round.seed, self.round.tz
        cast = r.cast
        actors = []

        def actor(role: str, number: int, name: str, commands: list[castmod.Command],
                  join: tuple[str, dict[str, object]]) -> None:  # fmt: skip
            code = self.ext.access.create_code(ROUND, role, f"demo: simulated {name}")
            actors.append(Actor(role, number, name, commands, code=code, join=join, round=ROUND,
                                url=self.url, clock=self.clock, tz=tz, stop=self.stop))  # fmt: skip

        if self.options.actors == "phones":
            # no marshal, nobody typing: each sharing group's phone (a scorer's session) agrees
            # to share, sends its fixes, and stops when the group has left the course
            for i, phone in enumerate(cast.phones, start=1):
                commands = castmod.phone_commands(phone, seed, tz)
                name = f"phone {phone.number} of group {phone.group}"
                code = self.ext.access.create_code(ROUND, "scorer", f"demo: simulated {name}")
                actors.append(PhoneActor("scorer", i, name, commands, code=code,
                                         join=("join_scores", {}), round=ROUND, url=self.url,
                                         clock=self.clock, tz=tz, stop=self.stop,
                                         device=f"demo-phone-{i}"))  # fmt: skip
            return actors
        if self.options.actors == "groups":
            # no marshal: each group's scorer reports its holes, some late, some in batches
            reports = group_reports(cast.taps, random.Random(seed))
            groups = sorted({t.group for t in cast.taps}, key=lambda g: (len(g), g))
            for i, group in enumerate(groups, start=1):
                mine = [castmod.report_command(x, seed, tz) for x in reports if x.group == group]
                name = f"scorer {SCORER_NAMES[(i - 1) % len(SCORER_NAMES)]} (group {group})"
                actor("scorer", i, name, mine, ("join_scores", {}))
            return actors
        for i, holes in enumerate(marshal_holes(r.holes), start=1):
            taps = [castmod.tap_command(t, seed, tz) for t in cast.taps if t.hole in holes]
            name = f"{MARSHAL_NAMES[(i - 1) % len(MARSHAL_NAMES)]} (holes {holes[0]}–{holes[-1]})"
            actor("marshal", i, name, taps, ("join_round", {"holes": [*holes]}))
        if cast.sirens:
            sirens = [castmod.referee_command(castmod.Planned(0, a), seed, tz) for a in cast.sirens]
            actor("committee", 1, "the committee", sirens, ("join_round", {}))
        for i, name in enumerate(REFEREE_NAMES, start=1):
            acts = [
                castmod.referee_command(p, seed, tz) for p in cast.referees.acts if p.referee == i
            ]
            if acts:
                actor("referee", i, f"referee {name}", acts, ("join_round", {}))
        scorers = sorted({s.scorer for s in cast.scores})
        for i in scorers:
            cards = [castmod.score_command(s, seed) for s in cast.scores if s.scorer == i]
            actor("scorer", i, f"scorer {SCORER_NAMES[(i - 1) % len(SCORER_NAMES)]}", cards,
                  ("join_scores", {}))  # fmt: skip
        return actors

    # -- serving -----------------------------------------------------------------------

    def run(self) -> None:
        """Serve until ``duration`` has passed or a signal stops it (the round over or not)."""
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
            self._stop_actors()
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
        """Stop the demo: the actors first, then the server (a second request forces)."""
        if self._stopping:
            raise SystemExit(1)
        self._stopping = True
        if reason:
            print(f"pace demo: {reason}, stopping", flush=True)
        threading.Thread(target=self._shutdown, name="demo-shutdown", daemon=True).start()

    def _stop_actors(self, timeout: float = 5) -> None:
        self.stop.set()
        deadline = time.monotonic() + timeout
        for a in self.actors:
            a.finished.wait(max(0.0, deadline - time.monotonic()))

    def _shutdown(self) -> None:
        self._stop_actors()
        if self.gevent:
            self.ext.socketio.stop()  # serve_forever returns
        else:
            _thread.interrupt_main()  # Werkzeug stops on KeyboardInterrupt

    # -- directing ------------------------------------------------------------------------

    def _direct(self) -> None:
        """Wait for the server, start the actors, then the scheduler, then take notes.

        Once everybody has done their part the round is over: the demo says where its
        report, letters and results are, and serves on (until ``--duration`` or Ctrl-C)
        so they can be read.
        """
        from pace import app as appmod

        if not self._wait_listening():
            log.error("the demo server did not start listening on %s", self.url)
            self.request_stop()
            return
        self._print_banner()
        for a in self.actors:
            a.thread.start()
        deadline = time.monotonic() + 30
        for a in self.actors:
            a.drained.wait(max(0.0, deadline - time.monotonic()))
        if self.stop.is_set():
            return
        appmod.start_scheduler(self.app)
        next_note = _next_multiple(self.clock.now(), NOTE_EVERY)
        over = False
        while not self.stop.is_set():
            if not over and all(a.finished.is_set() for a in self.actors):
                # let the scheduler see the last facts before saying so
                self.stop.wait(2 * self.settings.scheduler.tick_seconds + 0.5)
                self._note("the round is over")
                # from now on the clock runs at real time: the round's day (and the sessions
                # of its codes, which end with it) lasts while the report is read
                self.clock.change_speed(1)
                self._print_closing(serving=True)
                over = True
            if self.options.duration and time.monotonic() - self._started >= self.options.duration:
                self._note(f"stopping after {self.options.duration:g} s")
                if not over:
                    self._print_closing(serving=False)
                break
            self.stop.wait(0.25)
            if not over and self.clock.now() >= next_note:
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
            cast=self._cast_words(),
            holes=marshal_holes(r.holes)[0] if r.holes else (),
            db=self.options.db,
        )

    def _cast_words(self) -> str:
        """Return who plays, in words: "6 marshals, 2 referees, 4 scorers and the committee"."""
        phones = [a for a in self.actors if isinstance(a, PhoneActor)]
        if phones:
            sharing = len({p.group for p in self.round.cast.phones})
            silent = self.round.groups - sharing
            return (f"{len(phones)} phones of {sharing} groups sharing their positions"
                    + (f" ({silent} group{'s' if silent > 1 else ''} not sharing)"
                       if silent else ""))  # fmt: skip
        counts = Counter(a.role for a in self.actors)
        words = [
            f"{counts[role]} {noun}{'s' if counts[role] > 1 else ''}"
            for role, noun in (("marshal", "marshal"), ("referee", "referee"), ("scorer", "scorer"))
            if counts[role]
        ]
        if counts["committee"]:
            words.append("the committee")
        return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)

    def _print_closing(self, *, serving: bool) -> None:
        print(
            demo_data.closing(
                url=self.url, codes=self.codes, db=self.options.db, serving=serving,
                at=self.clock.now().astimezone(self.round.tz),
            ),
            flush=True,
        )  # fmt: skip

    @property
    def _scorers_send(self) -> str:
        """What the scorers send: their groups' reports (``--actors groups``), else scores."""
        return "groups' reports" if self.options.actors == "groups" else "scores"

    def _note(self, extra: str = "") -> None:
        now = self.clock.now()
        field = self.ext.live.field(ROUND, now)
        counts = Counter(s.status.value for s in field.groups)
        out = [s.group for s in field.groups if s.status.value == "out_of_position"]
        sent = Counter[str]()
        phones = [a for a in self.actors if isinstance(a, PhoneActor)]
        for a in self.actors:
            if a not in phones:
                sent[a.role] += a.sent
        refused = sum(a.refused for a in self.actors)
        line = (
            f"{now.astimezone(self.round.tz):%H:%M}  on course"
            f" {sum(counts[k] for k in ('on_pace', 'behind', 'overdue', 'out_of_position'))},"
            f" finished {counts['finished']}, behind {counts['behind']},"
            f" overdue {counts['overdue']}, out of position {len(out)}"
            + (f" (groups {', '.join(out)})" if out else "")
            + f"; {sent['marshal']} taps"
            + (f", {sent['referee']} referees' acts" if sent["referee"] else "")
            + (f", {sent['scorer']} {self._scorers_send}" if sent["scorer"] else "")
            + (self._positions_words(phones) if phones else "")
            + (f", {refused} refused (see the log)" if refused else "")
        )
        print(f"{line}; {extra}" if extra else line, flush=True)

    def _positions_words(self, phones: list[PhoneActor]) -> str:
        """Return what the phones sent and what the server inferred from it, in words."""
        inferred = sum(
            1 for e in self.ext.live.events(ROUND)
            if e.type == "hole_completed" and e.payload.get("source") == "position"
        )  # fmt: skip
        discarded = sum(p.discarded for p in phones)
        return (f", {sum(p.fixes for p in phones)} fixes from {len(phones)} phones"
                + (f" ({discarded} discarded)" if discarded else "")
                + f", {inferred} completions from positions")  # fmt: skip


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

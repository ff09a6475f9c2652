"""A federation's Saturday: many clubs' rounds at once on three workers (issue 50, item 5).

``--clubs`` clubs (50) of ``--rounds-per-club`` rounds each (2) of ``--groups`` three-balls
(30-40, drawn per round), each club with its own course and its own referee (a person's
account, signed in with ``POST /api/session``), played at once on one PostgreSQL and one Redis
(``tests/engines.py``, PostgreSQL's defaults: fsync and ``synchronous_commit`` on) served by
``--workers`` ``pace serve`` processes (3), all on this machine. Each round has, spread over
the workers (round i's first marshal on worker i mod W, the next on the next worker...):

- ``--marshals`` marshals' phones (3; holes 1-6, 7-12, 13-18), each sending the taps of its
  holes over Socket.IO when pace's clock reaches them, resending each (same id) until acked,
  and reconnecting to another worker when theirs dies (as nginx's ``ip_hash`` moves a client
  whose worker is down);
- a referee's dashboard (``join_round``, the page's deltas), which notes when each tap's row
  (``group_updated`` holding the tap's id) arrives;
- a scorer's phone (``join_scores``) recording a player's score every ``--score-every`` s;
- a public board (``join_board``, a viewer's session), which notes when each tap shows.

The rounds are mid-morning: every completion before the morning (10:45 on pace's clock) is in
the log already (``import_times``); the first groups started 07:30-08:10 (per round), off tees
1 and 10 every 8 minutes. pace's clock starts a little before the morning (about the time the
workers take to start and the clients to connect), so the morning starts on time. It lasts
``--seconds`` real seconds on a clock running ``--speed`` times real time (4 by default: a
real Saturday, 100 rounds of 35 groups each completing a hole every ~13 minutes, is ~4.5
taps/s; the bench carries 4x that, ~16.6 taps/s, so its figures keep a margin, and 10 minutes
of a morning fit in 150 s). Once ``--kill-at`` of the morning has passed, the worker holding
the most rounds' tick leases is SIGKILLed and started again on its port.

Then the same bench is run at 1 round (1 club, 1 round, the same groups, workers, clients per
round, clock, kill) for the comparison (``--baseline-only``: only that; ``--no-baseline``:
not at all; ``--repeat K``: K pairs, alternating which runs first).

Checked (``problems`` lists what failed; the exit status is 1 if any):

- every tap acked, and stored exactly once, and nothing else: the ``hole_completed`` events
  counted by id in PostgreSQL; every score acked stored once;
- no alert raised twice (one ``alert_raised`` per round, key and generation) and every alert's
  id derived from its key;
- the killed worker's rounds held again by a living worker within 5 s (their leases' holders
  read in Redis every 50 ms: a worker that takes a lease ticks the round at once);
- no worker logged a traceback.

Measured (and printed with MET or MISSED against issue 50's targets):

- tap -> dashboard row (the marshal's emit until the round's dashboard holds a ``group_updated``
  showing the tap), p50/p95/p99/max, over the taps sent before the kill (the steady morning;
  those sent from 1 s before the kill on are printed apart), at N rounds and at 1 round, and
  the ratio; tap -> ack and tap -> board likewise;
- CPU per tap of each worker, of PostgreSQL (the postmaster and its children: the backends,
  the WAL writer...; children that ended are in its ``cutime``), of Redis and of the bench's
  own clients, from ``/proc/<pid>/stat`` (utime + stime, and the reaped children's), over the
  steady morning (its start to the kill), and the cores each used; the whole morning's CPU
  too (the killed worker's two processes);
- the ticks: no worker tells a round's tick apart (``pace_tick_seconds`` has no round label),
  so "every tick of every round in its budget" is read from what is observable: each
  worker's ``pace_tick_seconds`` histogram (``server.metrics = true``; scraped at the start,
  just before the kill and at the end: the ticks over ``--tick-budget``, by default the tick's
  period, are the count above that bucket), its ``pace_tick_due_seconds`` histogram (each
  scheduled tick's seconds from its due instant to its end: those over the budget started
  late or ran long, into the next one's time), and the scheduler's own warnings in each
  worker's log during the morning: APScheduler skips a round's tick whose run comes more than
  a period late ("was missed by") or whose previous tick still runs ("maximum number of
  running instances reached"), and says so;
- the rounds' leases per worker (before the kill, after the takeover, at the end), the
  takeover time, the leases that changed hands with no worker killed (holders read every
  second) and the renewals of a worker's leases its scheduler skipped (its log).

Every worker's clock runs from the machine's wall clock (``LAUNCHER``, which starts ``pace
serve`` as ``python -m pace`` does, its accelerated clock set from one wall-clock instant):
``--clock-origin`` would start each worker's clock when its process builds it, seconds apart.

    python bench/bench_federation.py                  # 50 clubs x 2 rounds, then 1 round (~6.5 min)
    python bench/bench_federation.py --speed 1 --no-baseline           # a real Saturday's rate
    python bench/bench_federation.py --clubs 10 --seconds 60 --no-baseline --trace
    python bench/bench_federation.py --baseline-only --json

docs/performance.md, "A federation's Saturday (issue 50)", holds its figures and their reading.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    # the clients are lean Socket.IO clients on gevent: hundreds of sockets in one process
    from gevent import monkey

    monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.error  # noqa: E402
import urllib.request  # noqa: E402
import uuid  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from datetime import date, datetime, timedelta  # noqa: E402
from datetime import time as clock_time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402
from zoneinfo import ZoneInfo  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
# the workers (``python -m pace``) run this checkout's code, not the last editable install
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
)

import engines  # noqa: E402

TIMEZONE = "Europe/Brussels"
TZ = ZoneInfo(TIMEZONE)
COURSE = ROOT / "tests" / "data" / "formats" / "course_louiseville.toml"
#: a three-ball's minutes per par (pace's default split of the federation's average)
ALLOT = {3: 11, 4: 14, 5: 17}
#: the instant (local, pace's clock) the measured morning starts at; the log holds every
#: completion before it
MORNING = clock_time(10, 45)
#: the tees the groups are dealt to, in turn, and the minutes between two starts off a tee
TEES = (1, 10)
INTERVAL_MIN = 8
#: a real Saturday: 100 rounds of 35 groups, a hole every ~13 minutes (issue 50)
SATURDAY_TAPS_PER_S = 100 * 35 / (13 * 60)
#: how long a phone waits for an ack before it sends the same command again
ACK_SECONDS = 5.0
CONNECT_SECONDS = 10.0
#: the takeover target: a killed worker's rounds ticked elsewhere within this (issue 50)
TAKEOVER_TARGET_S = 5.0
#: how long before the morning pace's clock starts (real seconds): the workers' start, then
#: the clients' connections (``LEAD_PER_CLIENT_S`` each, 25 at a time), then a tick
LEAD_S = 12.0
LEAD_PER_CLIENT_S = 0.04
#: the referees' password (their accounts are made for the run)
PASSWORD = "a federation's saturday"
PROBLEMS_SHOWN = 12


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


def by_phase(m: Morning, taps: list[Tap], period: float, bins: int = 10) -> list[float | None]:
    """The p90 of the taps' rows by when in the tick's period (from the morning's start, in
    ``bins`` slices) each was sent: a worker ticks its rounds together, so the taps whose rows
    wait behind those ticks are those sent at one phase."""
    slices: list[list[float]] = [[] for _ in range(bins)]
    for t in taps:
        if t.id in m.rows:
            k = int((m.sent[t.id] - m.start) % period / period * bins) % bins
            slices[k].append(m.rows[t.id] - m.sent[t.id])
    return [ms(percentile(v, 0.9)) for v in slices]


def quantiles(values: list[float]) -> dict[str, Any]:
    """n, p50, p95, p99 and max of ``values`` (seconds), in ms."""
    return {
        "n": len(values),
        **{
            k: ms(percentile(values, q))
            for k, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
        },
    }


# -- the plan ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tap:
    """One hole completion: its id, round, group, hole, planned instant and marshal."""

    id: str
    round: str
    group: str
    hole: int
    at: datetime
    marshal: int


@dataclass
class RoundPlan:
    """One round of the Saturday: its club, draw, the taps logged before the morning and
    those of the morning, and the players of each group."""

    index: int
    name: str
    club: str
    course: str
    groups: int
    draw: str
    before: list[Tap]
    live: list[Tap]
    players: dict[str, list[str]]


def course_pars() -> dict[int, int]:
    import tomllib

    data = tomllib.loads(COURSE.read_text(encoding="utf-8"))
    return {int(h["number"]): int(h["par"]) for h in data["holes"]}


def marshal_of(hole: int, marshals: int) -> int:
    """Return which of a round's ``marshals`` watches ``hole`` (holes shared out in order)."""
    return min(marshals - 1, (hole - 1) * marshals // 18)


def plan_round(
    index: int,
    name: str,
    club: str,
    course: str,
    groups: int,
    day: date,
    morning: datetime,
    end: datetime,
    marshals: int,
    seed: int,
) -> RoundPlan:
    """Return a round of ``groups`` three-balls dealt in turn to tees 1 and 10, every 8 minutes
    from a first start between 07:30 and 08:10; each group plays each hole near its allotment,
    every seventh group slowly (1-3 minutes more a hole), and no group completes a hole less
    than a minute after another. Taps before ``morning`` are the log's; those from ``morning``
    to ``end`` are the morning's."""
    rng = random.Random(f"{seed}/{index}")
    pars = course_pars()
    first = datetime.combine(day, clock_time(7, 30), tzinfo=TZ) + timedelta(
        minutes=rng.randint(0, 40)
    )
    lines = ["group,start,tee,player"]
    players: dict[str, list[str]] = {}
    completions: list[tuple[datetime, str, int]] = []
    last: dict[int, datetime] = {}  # hole -> the latest completion planned (in group order)
    for g in range(1, groups + 1):
        tee = TEES[(g - 1) % len(TEES)]
        start = first + timedelta(minutes=INTERVAL_MIN * ((g - 1) // len(TEES)))
        players[str(g)] = [f"Player {index}-{g}-{p}" for p in range(1, 4)]
        for player in players[str(g)]:
            lines.append(f"{g},{start.astimezone(TZ):%H:%M},{tee},{player}")
        slow = g % 7 == 3
        at = start
        for hole in [*range(tee, 19), *range(1, tee)]:
            at += timedelta(
                minutes=ALLOT[pars[hole]] + (rng.choice((1, 2, 3)) if slow else 0),
                seconds=rng.randint(-45, 45),
            )
            before = last.get(hole)
            if before is not None and abs((at - before).total_seconds()) < 60:
                at = max(at, before) + timedelta(minutes=1, seconds=rng.randint(0, 30))
            last[hole] = max(at, last.get(hole, at))
            completions.append((at, str(g), hole))
    completions.sort()
    taps = [
        Tap(
            str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            name,
            g,
            hole,
            at,
            marshal_of(hole, marshals),
        )
        for at, g, hole in completions
    ]
    return RoundPlan(
        index,
        name,
        club,
        course,
        groups,
        "\n".join(lines) + "\n",
        [t for t in taps if t.at < morning],
        [t for t in taps if morning <= t.at < end],
        players,
    )


def times_csv(taps: list[Tap]) -> str:
    """The completions as a hole-times CSV (docs/formats.md §3)."""
    rows = ["group,hole,completed"]
    rows += [f"{t.group},{t.hole},{t.at.astimezone(TZ):%H:%M:%S}" for t in taps]
    return "\n".join(rows) + "\n"


def club_ids(clubs: int) -> list[str]:
    return [f"club-{c:02d}" for c in range(1, clubs + 1)]


def plan_saturday(
    clubs: int,
    rounds_per_club: int,
    groups: tuple[int, int],
    day: date,
    speed: float,
    seconds: float,
    marshals: int,
    seed: int,
) -> list[RoundPlan]:
    morning = datetime.combine(day, MORNING, tzinfo=TZ)
    end = morning + timedelta(seconds=seconds * speed)
    rng = random.Random(seed)
    plans = []
    for club in club_ids(clubs):
        for k in range(1, rounds_per_club + 1):
            index = len(plans)
            plans.append(
                plan_round(
                    index,
                    f"{club} R{k}",
                    club,
                    f"Course of {club}",
                    rng.randint(*groups),
                    day,
                    morning,
                    end,
                    marshals,
                    seed,
                )
            )
    return plans


# -- the database --------------------------------------------------------------------------------


@dataclass
class Access:
    """The sessions of the run: each round's phones' tokens, each club's referee."""

    marshals: dict[str, list[str]] = field(default_factory=dict)
    scorer: dict[str, str] = field(default_factory=dict)
    viewer: dict[str, str] = field(default_factory=dict)
    referees: dict[str, str] = field(default_factory=dict)  # club -> e-mail


def fill(db: str, plans: list[RoundPlan], marshals: int, morning: datetime) -> Access:
    """Make the clubs, their courses, rounds, logs so far, referees and phones' sessions, as
    ``pace club add``, ``pace import course|draw|times --club`` and ``pace account add`` do (in
    this process: 200 commands' start-ups would take minutes)."""
    from pace import config
    from pace.clock import FakeClock
    from pace.services.access import AccessService
    from pace.services.accounts import Accounts
    from pace.services.rounds import open_service

    settings = config.Settings()
    clock = FakeClock(morning)  # the setup happens "this morning", on pace's clock
    service = open_service(settings, db)  # makes the schema and runs the migrations
    service.clock = clock
    access = AccessService(service.store, settings, clock)
    accounts = Accounts(service.store, access, clock)
    out = Access()
    course_text = COURSE.read_text(encoding="utf-8")
    try:
        for club in sorted({p.club for p in plans}):
            accounts.add_club(club, f"Golf club {club[5:]}", by="bench")
            text = re.sub(r'(?m)^name = ".*"$', f'name = "Course of {club}"', course_text)
            service.import_course(text, f"{club}.toml", [], club=club)
            made = accounts.add_account(f"referee@{club}.example", f"Referee of {club}")
            accounts.set_role(club, made.account.id, "referee")
            assert made.token is not None
            accounts.finish_setup(made.token, PASSWORD, PASSWORD)
            out.referees[club] = f"referee@{club}.example"
        for p in plans:
            service.import_draw(
                p.draw,
                f"{p.name}.csv",
                round=p.name,
                course=p.course,
                day=morning.date(),
                timezone=TIMEZONE,
                club=p.club,
            )
            if p.before:
                service.import_times(
                    times_csv(p.before),
                    f"{p.name}-times.csv",
                    round=p.name,
                    by="marshals (before the bench)",
                )
            out.marshals[p.name] = [
                access.grant("marshal", p.name, f"marshal {k + 1}").token for k in range(marshals)
            ]
            out.scorer[p.name] = access.grant("scorer", p.name, "scorer").token
            out.viewer[p.name] = access.grant("viewer", p.name, "board").token
    finally:
        service.store.close()
    return out


# -- the workers ---------------------------------------------------------------------------------


@dataclass
class Timeline:
    """pace's clock as the bench keeps it: ``origin`` at the machine's wall-clock instant
    ``wall``, running ``speed`` times real time. Every worker's clock is this one
    (``LAUNCHER``)."""

    origin: datetime
    wall: float
    speed: float

    @classmethod
    def starting(cls, origin: datetime, speed: float) -> Timeline:
        return cls(origin, time.time(), speed)

    def now(self) -> datetime:
        return self.origin + timedelta(seconds=(time.time() - self.wall) * self.speed)


def cpu_seconds(pid: int) -> float:
    """Return the user + system CPU seconds of ``pid`` and of its children it reaped."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """Return the processes whose parent is ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry))
    return out


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its children, living or reaped (PostgreSQL's postmaster:
    its backends and helpers are its children)."""
    return cpu_seconds(pid) + sum(
        float(sum(int(f) for f in (s[11], s[12]))) / os.sysconf("SC_CLK_TCK")
        for s in (_stat(c) for c in children(pid))
        if s
    )


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


#: ``pace serve`` (``python -m pace serve``: gevent first), its accelerated clock built from the
#: machine's wall clock: ``origin`` at wall instant ``wall``, ``speed`` times real time. With
#: ``--clock-origin`` each worker's clock would start counting when its process builds it, 1 to
#: 7 s after the process starts (more for a worker started again under load): the workers'
#: clocks would disagree by seconds (times the speed), and a worker behind another holds a tap
#: stamped by the one ahead as not yet come (``FieldFold.advance``), so its row waits for that
#: worker's next tick. Every production worker's clock is the machine's (NTP): so are these.
LAUNCHER = """
import sys, time
from datetime import datetime, timedelta
from gevent import monkey
monkey.patch_all()
import pace.cli as cli
from pace.clock import AcceleratedClock
origin, wall, speed = datetime.fromisoformat(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
def clock(_origin, _speed):
    return AcceleratedClock(origin + timedelta(seconds=(time.time() - wall) * speed), speed)
cli._clock = clock
cli.cli(sys.argv[4:], prog_name="pace")
"""


class Worker:
    """One ``pace serve`` on the shared PostgreSQL and Redis, on its own port."""

    def __init__(self, n: int, folder: Path, db: str, queue: str, timeline: Timeline, tick: float):
        self.n, self.folder, self.db, self.queue = n, folder, db, queue
        self.timeline, self.tick = timeline, tick
        self.port = engines.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.pids: list[int] = []

    def launch(self) -> None:
        """Start the process (its clock the timeline's); ``ready`` waits for it."""
        self.log = self.folder / f"worker{self.n}-{self.starts}.log"
        t = self.timeline
        command = [sys.executable, "-c", LAUNCHER, t.origin.isoformat(), str(t.wall), str(t.speed),
                   "serve", "--db", self.db, "--host", "127.0.0.1", "--port", str(self.port),
                   "--message-queue", self.queue, "--tick", str(self.tick)]  # fmt: skip
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=self.folder,
                stdout=out,
                stderr=subprocess.STDOUT,
                env={
                    **os.environ,
                    "PYTHONUNBUFFERED": "1",
                    "PACE_CONFIG": str(self.folder / "config.toml"),
                },
            )
        self.starts += 1
        self.pids.append(self.process.pid)

    def ready(self, timeout: float = 60) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker {self.n} exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2):
                    return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"worker {self.n} did not answer within {timeout:.0f} s")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def metrics(self) -> dict[str, float]:
        """Scrape ``/metrics``: the tick histogram's buckets, count and sum."""
        try:
            with urllib.request.urlopen(self.url + "/metrics", timeout=10) as r:
                text = r.read().decode()
        except (urllib.error.URLError, ConnectionError, OSError):
            return {}
        out: dict[str, float] = {}
        for line in text.splitlines():
            if line.startswith(("pace_tick_seconds", "pace_tick_due_seconds")):
                name, value = line.rsplit(" ", 1)
                out[name] = float(value)
        return out

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read())


def tick_delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: v - before.get(k, 0.0) for k, v in after.items()}


def tick_summary(histograms: list[dict[str, float]], budget: float) -> dict[str, Any]:
    """Sum the workers' tick histograms (deltas); ticks over ``budget`` are those above the
    largest bucket bound not over it."""
    total: dict[str, float] = {}
    for h in histograms:
        for k, v in h.items():
            total[k] = total.get(k, 0.0) + v
    count = total.get("pace_tick_seconds_count", 0.0)
    buckets = sorted(
        (float(m.group(1)), v)
        for k, v in total.items()
        if (m := re.match(r'pace_tick_seconds_bucket\{le="([0-9.e+-]+)"\}', k))
    )
    bound, within = max(((b, v) for b, v in buckets if b <= budget), default=(0.0, 0.0))
    share = {f"<= {b:g} s": round(100 * v / count, 2) for b, v in buckets if count and b <= 5}
    return {
        "ticks": int(count),
        "tick_seconds": round(total.get("pace_tick_seconds_sum", 0.0), 2),
        "tick_mean_ms": round(1000 * total.get("pace_tick_seconds_sum", 0.0) / count, 2)
        if count
        else None,
        "budget_bucket_s": bound,
        "over_budget": int(count - within),
        **due_summary(total, budget),
        "share_within_pct": share,
    }


def due_summary(total: dict[str, float], budget: float) -> dict[str, Any]:
    """From the summed ``pace_tick_due_seconds`` histograms: the scheduled ticks, those that
    ended after ``budget`` from their due instant (the largest bucket bound not over it), and
    the mean seconds from the due instant to the end."""
    count = total.get("pace_tick_due_seconds_count", 0.0)
    buckets = sorted(
        (float(m.group(1)), v)
        for k, v in total.items()
        if (m := re.match(r'pace_tick_due_seconds_bucket\{le="([0-9.e+-]+)"\}', k))
    )
    _, within = max(((b, v) for b, v in buckets if b <= budget), default=(0.0, 0.0))
    return {
        "ticks_due": int(count),
        "ticks_due_mean_ms": round(1000 * total.get("pace_tick_due_seconds_sum", 0.0) / count, 2)
        if count
        else None,
        "ticks_ended_late": int(count - within),
        "ticks_due_share_pct": {
            f"<= {b:g} s": round(100 * v / count, 2) for b, v in buckets if count and b <= 5
        },
    }


#: APScheduler's warnings when it does not run a round's tick: too late (more than its
#: misfire grace, a tick's period), or the round's last tick still running
SKIPPED = ("was missed by", "maximum number of running instances reached")


def skipped_ticks(
    folder: Path,
    since: datetime | None = None,
    until: datetime | None = None,
    job: str = "PaceScheduler.tick",
) -> dict[str, int]:
    """Count the runs of ``job`` (a round's tick; ``PaceScheduler.claim``: the renewal of the
    worker's leases) the workers' schedulers skipped and said so, between ``since`` and
    ``until`` (local wall-clock instants, as the logs stamp their lines)."""
    found = {s: 0 for s in SKIPPED}
    for log in folder.glob("worker*.log"):
        for line in log.read_text(errors="replace").splitlines():
            for s in SKIPPED:
                if s in line and job in line:
                    try:
                        at = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f")
                    except ValueError:
                        at = None
                    if (
                        at is None
                        or (since is None or at >= since)
                        and (until is None or at <= until)
                    ):
                        found[s] += 1
    return found


# -- Redis: who ticks which round ------------------------------------------------------------------


class Leases:
    """The rounds' tick leases as Redis holds them (``<prefix>tick:<round>``)."""

    def __init__(self, url: str):
        import redis

        self.client = redis.Redis.from_url(url)

    def holders(self) -> dict[str, int | None]:
        """Return each round's holder's process id (``None``: nobody)."""
        keys = self.client.keys("pace:*:tick:*")
        if not keys:
            return {}
        values = self.client.mget(keys)
        out: dict[str, int | None] = {}
        for key, value in zip(keys, values, strict=True):
            round = key.decode().split(":tick:", 1)[1]
            out[round] = int(value.decode().split(":")[-2]) if value else None
        return out

    def close(self) -> None:
        self.client.close()


def spread(holders: dict[str, int | None], workers: list[Worker]) -> dict[str, int]:
    """Return how many rounds each worker holds (``w1``...; ``nobody``)."""
    by_pid = {pid: f"w{w.n}" for w in workers for pid in w.pids}
    out = {f"w{w.n}": 0 for w in workers}
    for pid in holders.values():
        name = by_pid.get(pid, "nobody") if pid is not None else "nobody"
        out[name] = out.get(name, 0) + 1
    return out


# -- the clients ---------------------------------------------------------------------------------


class Socket:
    """A Socket.IO 5 / Engine.IO 4 client over one websocket (gevent), as cheap as a browser's
    page (``bench/bench_latency.py``'s lean client, which also says when it drops)."""

    def __init__(self, url: str, token: str, device: str, handlers: dict[str, Any]):
        import gevent
        import websocket

        self.handlers = handlers
        self.acks: dict[int, Any] = {}
        self.next_id = 0
        self.closed = False
        ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        self.ws = websocket.create_connection(
            ws_url, timeout=CONNECT_SECONDS, skip_utf8_validation=True, enable_multithread=True
        )
        opened = self.ws.recv()
        if not opened.startswith("0"):
            raise ConnectionError(opened)
        self.ws.send("40" + json.dumps({"token": token, "device": device}))
        answer = self.ws.recv()
        while answer.startswith("42"):  # pace probes the clock before it says connected
            answer = self.ws.recv()
        if not answer.startswith("40"):
            raise ConnectionError(answer)
        self.ws.settimeout(None)
        self.reader = gevent.spawn(self._read)

    def _read(self) -> None:
        import orjson

        try:
            while not self.closed:
                frame = self.ws.recv()
                if not frame:
                    break
                if frame == "2":
                    self.ws.send("3")
                elif frame.startswith("42"):
                    body = frame[2:]
                    if body[:1].isdigit():  # a clock probe: left unanswered
                        body = body[len(body) - len(body.lstrip("0123456789")) :]
                    name = body[2 : body.index('"', 2)]
                    handler = self.handlers.get(name)
                    if handler is not None:
                        data = orjson.loads(body)
                        handler(data[1] if len(data) > 1 else None)
                elif frame.startswith("43"):
                    body = frame[2:]
                    digits = len(body) - len(body.lstrip("0123456789"))
                    callback = self.acks.pop(int(body[:digits]), None)
                    if callback is not None:
                        data = orjson.loads(body[digits:])
                        callback(data[0] if data else None)
                elif frame.startswith("41") or frame.startswith("1"):
                    break
        except Exception:  # noqa: BLE001 - the connection ended (the worker died, or closing)
            pass
        self.closed = True
        for callback in list(self.acks.values()):
            callback(None)
        self.acks.clear()

    def call(self, event: str, data: Any, timeout: float = ACK_SECONDS) -> Any:
        """Return the answer, or ``None`` if the socket dropped or nothing came in time."""
        import gevent.event

        if self.closed:
            return None
        done = gevent.event.AsyncResult()
        self.next_id += 1
        self.acks[self.next_id] = done.set
        try:
            self.ws.send(f"42{self.next_id}" + json.dumps([event, data]))
        except Exception:  # noqa: BLE001
            self.acks.pop(self.next_id, None)
            return None
        return done.get(timeout=timeout) if done.wait(timeout) else None

    def close(self) -> None:
        self.closed = True
        try:
            self.ws.send("41")
            self.ws.close()
        except Exception:  # noqa: BLE001 - already gone
            pass


@dataclass
class Morning:
    """What the clients share: the workers, the clock, when each tap was sent and shown."""

    workers: list[Worker]
    timeline: Timeline
    morning_at: datetime = datetime.min  # the morning's instant on pace's clock (10:45)
    start: float = 0.0  # the monotonic instant the morning's taps begin
    stopping: bool = False
    scoring: bool = True  # the scorers go on until the last tap is sent
    sent: dict[str, float] = field(default_factory=dict)  # tap id -> first send
    via: dict[str, int] = field(default_factory=dict)  # tap id -> the worker it went to
    acked: dict[str, float] = field(default_factory=dict)
    duplicates: int = 0  # acks saying "already stored" (the first ack was lost)
    resends: int = 0
    rows: dict[str, float] = field(default_factory=dict)  # tap id -> row on its dashboard
    boards: dict[str, float] = field(default_factory=dict)  # tap id -> shown on its board
    scores_sent: set[str] = field(default_factory=set)
    scores_acked: set[str] = field(default_factory=set)
    announced_twice: int = 0
    reconnects: int = 0
    back: dict[str, float] = field(default_factory=dict)  # client -> last (re)join
    failures: list[str] = field(default_factory=list)

    def fail(self, why: str) -> None:
        if len(self.failures) < 50:
            self.failures.append(why)

    def candidates(self, home: int) -> list[Worker]:
        """The workers a client tries, its own first, then the next ones (nginx's upstreams)."""
        n = len(self.workers)
        return [self.workers[(home + k) % n] for k in range(n)]


class Client:
    """A page or phone of one round on a home worker: connects (or reconnects to the next
    living worker, as the proxy sends it), joins, and joins again after a drop."""

    def __init__(self, m: Morning, plan: RoundPlan, home: int, token: str, name: str):
        self.m, self.plan, self.home, self.token, self.name = m, plan, home, token, name
        self.sock: Socket | None = None
        self.worker: Worker | None = None

    def handlers(self) -> dict[str, Any]:
        return {"join_again": lambda _m: self._spawn_join()}

    def join(self, sock: Socket) -> bool:
        return True

    def _spawn_join(self) -> None:
        import gevent

        sock = self.sock
        if sock is not None:
            gevent.spawn(self.join, sock)

    def connect(self, first: bool = False) -> bool:
        """Connect to the first worker that lets it in and join; return whether it did."""
        import gevent

        for worker in self.m.candidates(self.home) if not first else [self.m.workers[self.home]]:
            if not worker.alive():
                continue
            try:
                sock = Socket(worker.url, self.token, self.name, self.handlers())
            except Exception:  # noqa: BLE001 - down or restarting: the next one
                continue
            if not self.join(sock):
                sock.close()
                continue
            self.sock, self.worker = sock, worker
            if not first:
                self.m.reconnects += 1
            self.m.back[self.name] = time.monotonic()
            return True
        gevent.sleep(0.2)
        return False

    def ensure(self) -> bool:
        """Return whether connected now; else wait a moment (``keep`` reconnects)."""
        import gevent

        if self.sock is not None and not self.sock.closed:
            return True
        gevent.sleep(0.05)
        return False

    def keep(self) -> None:
        """Stay connected until the morning ends (a page's socket.io reconnects)."""
        import gevent

        while not self.m.stopping:
            if self.sock is None or self.sock.closed:
                self.connect()
            else:
                gevent.sleep(0.1)

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()


class Dashboard(Client):
    """A referee's dashboard: the round's deltas; notes each tap's first row showing it."""

    def handlers(self) -> dict[str, Any]:
        rows, heard = self.m.rows, set()

        def row(msg: dict[str, Any]) -> None:
            now = time.monotonic()
            for hole in (msg["group"].get("holes") or {}).values():
                tap = hole.get("id") if isinstance(hole, dict) else None
                if tap is not None and tap not in rows:
                    rows[tap] = now

        def alert(msg: dict[str, Any]) -> None:
            key = msg["alert"]["id"]
            if key in heard:
                self.m.announced_twice += 1
            heard.add(key)

        return {**super().handlers(), "group_updated": row, "alert_raised": alert}

    def join(self, sock: Socket) -> bool:
        answer = sock.call("join_round", {"round": self.plan.name}, timeout=30)
        if not answer or not answer.get("ok"):
            return False
        now = time.monotonic()
        for row in answer["snapshot"]["groups"]:
            for hole in (row.get("holes") or {}).values():
                tap = hole.get("id") if isinstance(hole, dict) else None
                if tap is not None:
                    self.m.rows.setdefault(tap, now)
        return True


class Board(Client):
    """A public board (a viewer's session): ``join_board`` and its deltas."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.taps = {(t.group, t.hole): t.id for t in self.plan.live}

    def note(self, groups: list[dict[str, Any]]) -> None:
        now = time.monotonic()
        for row in groups:
            for hole, done in (row.get("holes") or {}).items():
                tap = self.taps.get((str(row.get("group")), int(hole)))
                if tap is not None and isinstance(done, dict) and done.get("at"):
                    self.m.boards.setdefault(tap, now)

    def handlers(self) -> dict[str, Any]:
        return {
            **super().handlers(),
            "board_changed": lambda msg: self.note(msg.get("groups") or []),
        }

    def join(self, sock: Socket) -> bool:
        answer = sock.call("join_board", {"round": self.plan.name}, timeout=30)
        if not answer or not answer.get("ok"):
            return False
        self.note(answer["snapshot"].get("groups") or [])
        return True


class Marshal(Client):
    """A marshal's phone: its holes' taps, each sent when pace's clock reaches it (``at`` is
    the phone's clock then), resent with the same id until acked, across drops."""

    def __init__(self, *args: Any, k: int, marshals: int) -> None:
        super().__init__(*args)
        self.holes = [h for h in range(1, 19) if marshal_of(h, marshals) == k]
        self.taps = [t for t in self.plan.live if t.marshal == k]

    def join(self, sock: Socket) -> bool:
        answer = sock.call("join_round", {"round": self.plan.name, "holes": self.holes}, timeout=30)
        return bool(answer and answer.get("ok"))

    def run(self) -> None:
        import gevent

        m = self.m
        try:
            for tap in self.taps:
                # the group holes out ``tap.at - morning`` of pace's time into the morning
                due = m.start + (tap.at - m.morning_at).total_seconds() / m.timeline.speed
                gevent.sleep(max(0.0, due - time.monotonic()))
                if m.stopping:
                    return
                self.deliver(tap)
        except Exception as e:  # noqa: BLE001 - reported with the figures
            m.fail(f"{self.name}: {e!r}")

    def deliver(self, tap: Tap) -> None:
        m = self.m
        tries = 0
        at = m.timeline.now().isoformat()  # the tap's instant: kept by every resend
        while not m.stopping:
            if not self.ensure():
                continue
            assert self.sock is not None
            payload = {
                "id": tap.id,
                "round": tap.round,
                "group": tap.group,
                "hole": tap.hole,
                "at": at,
                "device_time": m.timeline.now().isoformat(),
            }
            m.sent.setdefault(tap.id, time.monotonic())
            m.via.setdefault(tap.id, self.worker.n if self.worker else 0)
            ack = self.sock.call("hole_completed", payload)
            if ack is None:
                m.resends += 1
                if self.sock is not None and not self.sock.closed and tries > 3:
                    self.sock.close()  # no answer for long: a new connection
                tries += 1
                continue
            if ack.get("ok"):
                if tap.id in m.acked:
                    m.fail(f"{tap.id} acked twice")
                m.acked[tap.id] = time.monotonic()
                m.duplicates += bool(ack.get("duplicate"))
                return
            code = (ack.get("error") or {}).get("code")
            if code in ("storage_unavailable", "storage_error"):
                tries += 1
                continue
            m.fail(f"tap {tap.round}/{tap.group}/{tap.hole} refused: {ack}")
            return


class Scorer(Client):
    """A scorer's phone: a player's score on a hole already played, every ``every`` s."""

    def __init__(self, *args: Any, every: float) -> None:
        super().__init__(*args)
        self.every = every
        rng = random.Random(self.plan.name)
        done = [(t.group, t.hole) for t in self.plan.before]
        self.scores = [(g, p, h, rng.randint(3, 7)) for g, h in done for p in self.plan.players[g]]

    def join(self, sock: Socket) -> bool:
        answer = sock.call("join_scores", {"round": self.plan.name}, timeout=30)
        return bool(answer and answer.get("ok"))

    def run(self) -> None:
        import gevent

        m = self.m
        gevent.sleep(random.Random(self.name).uniform(0, self.every))
        for group, player, hole, strokes in self.scores:
            if not m.scoring:
                return
            score = str(uuid.uuid4())
            m.scores_sent.add(score)
            payload = {
                "id": score,
                "round": self.plan.name,
                "group": group,
                "player": player,
                "hole": hole,
                "strokes": strokes,
            }
            while not m.stopping:
                if not self.ensure():
                    continue
                assert self.sock is not None
                ack = self.sock.call("record_score", payload)
                if ack is None:
                    continue
                if ack.get("ok"):
                    m.scores_acked.add(score)
                else:
                    m.fail(f"score refused: {ack}")
                break
            gevent.sleep(self.every)


# -- one run ---------------------------------------------------------------------------------------


@dataclass
class Shape:
    """What one run plays: the field, the workers, the clients, the clock, the kill."""

    clubs: int
    rounds_per_club: int
    groups: tuple[int, int]
    workers: int
    seconds: float
    speed: float
    tick: float
    lease: float
    marshals: int
    score_every: float
    kill_at: float
    tick_budget: float
    seed: int


class Saturday:
    """One run: the engines, the clubs' rounds, the workers, the clients, the morning with its
    kill, and the figures."""

    def __init__(self, shape: Shape, label: str, keep_logs: str = ""):
        self.s, self.label, self.keep_logs = shape, label, keep_logs
        self.day = datetime.now(TZ).date()
        self.morning_at = datetime.combine(self.day, MORNING, tzinfo=TZ)
        self.plans = plan_saturday(
            shape.clubs,
            shape.rounds_per_club,
            shape.groups,
            self.day,
            shape.speed,
            shape.seconds,
            shape.marshals,
            shape.seed,
        )
        self.live = [t for p in self.plans for t in p.live]
        self.figures: dict[str, Any] = {"run": label}
        self.problems: list[str] = []
        self.trace: list[str] = []
        self.pool: list[Worker] = []
        self.clients: list[Client] = []

    def run(self) -> dict[str, Any]:
        """Play the Saturday once; return its figures, ``problems`` listing what failed."""
        began, load = time.monotonic(), os.getloadavg()[0]
        self.pg = engines.start_postgres(durable=True)
        self.redis = engines.start_redis()
        self.leases = Leases(self.redis.url)
        self.m: Morning | None = None
        try:
            with tempfile.TemporaryDirectory(prefix="pace-federation-") as tmp:
                self.folder = Path(tmp)
                self.prepare()
                self.connect()
                self.morning()
                self.count()
        except Exception as e:  # noqa: BLE001 - reported with the figures so far
            import traceback

            traceback.print_exc()
            self.problems.append(f"{type(e).__name__}: {e}")
        finally:
            self.stop()
            self.leases.close()
            self.redis.stop()
            self.pg.stop()
        self.figures["load"] = [round(load, 2), round(os.getloadavg()[0], 2)]
        self.figures["seconds"] = round(time.monotonic() - began, 1)
        self.figures["problems"] = self.problems
        return self.figures

    def prepare(self) -> None:
        """Fill the database; start the workers together, as ``systemctl start pace.target``
        does; sign each club's referee in."""
        s = self.s
        (self.folder / "config.toml").write_text(
            f"[server]\nmetrics = true\n\n[scheduler]\nlease_seconds = {s.lease}\n"
            f"tick_seconds = {s.tick}\n"
        )
        self.db = self.pg.database("federation")
        t0 = time.monotonic()
        self.access = fill(self.db, self.plans, s.marshals, self.morning_at)
        self.figures["setup_s"] = round(time.monotonic() - t0, 1)
        # pace's clock starts before the morning by about the time the workers take to start
        # and the clients to connect (the log holds everything before the morning: what is
        # after pace's clock is counted when it comes), so the morning starts on time: a
        # late start would hold every group back that long (overdue, missing taps)
        clients = len(self.plans) * (s.marshals + 3)
        self.lead = LEAD_S + LEAD_PER_CLIENT_S * clients + s.tick
        self.timeline = Timeline.starting(
            self.morning_at - timedelta(seconds=self.lead * s.speed), s.speed
        )
        self.pool = [
            Worker(n, self.folder, self.db, self.redis.url, self.timeline, s.tick)
            for n in range(1, s.workers + 1)
        ]
        for w in self.pool:
            w.launch()
        for w in self.pool:
            w.ready()
        # each referee signs in as themselves, on the worker of their club's first round
        self.tokens: dict[str, str] = {}
        for p in self.plans:
            if p.club not in self.tokens:
                email = self.access.referees[p.club]
                answer = self.pool[p.index % s.workers].post(
                    "/api/session", {"email": email, "password": PASSWORD}
                )
                if not answer.get("ok"):
                    raise RuntimeError(f"the referee of {p.club} cannot sign in: {answer}")
                self.tokens[p.club] = answer["token"]

    def connect(self) -> None:
        """Each round's phones and pages, spread over the workers: round i's marshal k on
        worker i + k, its dashboard, scorer and board on the next ones (mod the workers)."""
        import gevent
        import gevent.pool

        s, a = self.s, self.access
        self.m = m = Morning(self.pool, self.timeline)
        for p in self.plans:
            home = [(p.index + k) % s.workers for k in range(s.marshals + 3)]
            for k in range(s.marshals):
                self.clients.append(
                    Marshal(
                        m,
                        p,
                        home[k],
                        a.marshals[p.name][k],
                        f"{p.name} marshal {k + 1}",
                        k=k,
                        marshals=s.marshals,
                    )
                )
            self.clients += [
                Dashboard(m, p, home[s.marshals], self.tokens[p.club], f"{p.name} dashboard"),
                Scorer(
                    m,
                    p,
                    home[s.marshals + 1],
                    a.scorer[p.name],
                    f"{p.name} scorer",
                    every=s.score_every,
                ),
                Board(m, p, home[s.marshals + 2], a.viewer[p.name], f"{p.name} board"),
            ]
        t0 = time.monotonic()
        joined = gevent.pool.Pool(25).map(lambda c: c.connect(first=True), self.clients)
        if not all(joined):
            raise RuntimeError(f"{joined.count(False)} clients could not connect and join")
        self.figures["clients"] = len(self.clients)
        self.figures["connect_s"] = round(time.monotonic() - t0, 1)
        gevent.sleep(s.tick)  # every round ticked once more with its pages on

    def morning(self) -> None:
        """The morning's taps and scores; the kill once ``kill_at`` of it has passed."""
        import gevent

        s, m, pool = self.s, self.m, self.pool
        assert m is not None
        # a tap planned at ``morning_at + x`` goes at ``start + x / speed``, once pace's clock
        # reaches the morning (later if the clients took longer than the lead: the field
        # waits that long)
        early = (self.morning_at - self.timeline.now()).total_seconds() / s.speed
        gevent.sleep(max(0.0, early))
        m.morning_at, m.start = self.morning_at, time.monotonic()
        self.wall_start = datetime.now()
        self.figures["late_start_s"] = round(max(0.0, -early), 1)
        self.figures["leases_at_start"] = spread(self.leases.holders(), pool)
        self.cpu0 = cpu_sample(pool, self.pg, self.redis)
        self.ticks0 = {w.n: w.metrics() for w in pool}
        self.tasks = [gevent.spawn(c.keep) for c in self.clients]
        self.tasks.append(
            gevent.spawn(sample, m, pool, self.pg, self.redis, self.folder, self.trace)
        )
        #: every change of a round's holder seen: when, the round, its new holder (pid)
        self.moves: list[tuple[float, str, int | None]] = []
        self.tasks.append(gevent.spawn(self.watch_leases))
        phones = [gevent.spawn(c.run) for c in self.clients if isinstance(c, Marshal)]
        scorers = [gevent.spawn(c.run) for c in self.clients if isinstance(c, Scorer)]
        self.tasks += phones + scorers

        gevent.sleep(max(0.0, m.start + s.kill_at * s.seconds - time.monotonic()))
        self.kill()

        gevent.joinall(phones, timeout=max(1.0, m.start + s.seconds + 60 - time.monotonic()))
        m.scoring = False
        gevent.joinall(scorers, timeout=2 * ACK_SECONDS)
        self.t_end, self.wall_end = time.monotonic(), datetime.now()
        self.cpu1 = cpu_sample(pool, self.pg, self.redis)
        self.ticks1 = {w.n: w.metrics() for w in pool}
        settle = time.monotonic() + 10  # the last taps' rows
        while time.monotonic() < settle and any(
            t.id not in m.rows for t in self.live if t.id in m.acked
        ):
            gevent.sleep(0.1)
        self.figures["leases_at_end"] = spread(self.leases.holders(), pool)

    def watch_leases(self) -> None:
        """Note every change of a round's lease holder (Redis read every second): when, and
        which round."""
        import gevent

        assert self.m is not None
        last = self.leases.holders()
        while not self.m.stopping:
            gevent.sleep(1.0)
            now = self.leases.holders()
            t = time.monotonic()
            self.moves += [
                (t, r, now.get(r)) for r in now.keys() | last.keys() if now.get(r) != last.get(r)
            ]
            last = now

    def kill(self) -> None:
        """SIGKILL the worker holding the most rounds; wait until a living worker holds each
        of them (Redis read every 50 ms); start it again on its port."""
        import gevent

        holders = self.leases.holders()
        before = spread(holders, self.pool)
        victim = max(self.pool, key=lambda w: (before.get(f"w{w.n}", 0), -w.n))
        rounds = sorted(r for r, pid in holders.items() if pid == victim.pid)
        self.ticks_kill = victim.metrics()
        self.cpu_kill = cpu_sample(self.pool, self.pg, self.redis)
        self.t_kill, self.wall_kill = time.monotonic(), datetime.now()
        victim.kill()
        living = {w.pid for w in self.pool if w is not victim}
        taken: dict[str, float] = {}
        while len(taken) < len(rounds) and time.monotonic() - self.t_kill < 30:
            now = self.leases.holders()
            for r in rounds:
                if r not in taken and now.get(r) in living:
                    taken[r] = time.monotonic() - self.t_kill
            gevent.sleep(0.05)
        self.figures.update(
            {
                "leases_before_kill": before,
                "killed": f"w{victim.n}",
                "killed_rounds": len(rounds),
                "leases_after_takeover": spread(self.leases.holders(), self.pool),
                "takeover_s": round(max(taken.values()), 2) if taken else None,
                "takeover_all": len(taken) == len(rounds),
            }
        )
        if not rounds:
            self.problems.append("the killed worker held no round")
        elif len(taken) < len(rounds):
            self.problems.append(
                f"{len(rounds) - len(taken)} of the killed worker's rounds not "
                "held by a living worker within 30 s"
            )
        self.victim = victim
        victim.launch()
        victim.ready()
        self.figures["restart_s"] = round(time.monotonic() - self.t_kill, 1)

    def count(self) -> None:
        """Work the figures out, and check the log."""
        s, m, f, live = self.s, self.m, self.figures, self.live
        assert m is not None
        victim, t_kill = self.victim, self.t_kill
        self.stop_clients()
        back = max(
            (m.back.get(c.name, 0.0) for c in self.clients if c.home == victim.n - 1),
            default=t_kill,
        )
        # the latencies of the taps sent before the kill (the steady morning), and after it
        sent = [t for t in live if t.id in m.sent]
        steady = [t for t in sent if m.sent[t.id] < t_kill - 1.0]
        later = [t for t in sent if m.sent[t.id] >= t_kill - 1.0]

        def delays(seen: dict[str, float], taps: list[Tap]) -> list[float]:
            return [seen[t.id] - m.sent[t.id] for t in taps if t.id in seen]

        slowest = sorted(
            ((m.rows[t.id] - m.sent[t.id], t) for t in sent if t.id in m.rows), key=lambda x: -x[0]
        )[:5]
        span = max(m.sent[t.id] for t in sent) - min(m.sent[t.id] for t in sent) if sent else 0
        steady_s = t_kill - m.start
        settled = t_kill + (f.get("takeover_s") or 0.0) + 2.0
        # after the takeover, the rounds handed back to the restarted worker (the others held
        # more than their share: pace/cluster/leases.py) are moves a worker's start forced
        back_to = {r for _, r, pid in self.moves if pid is not None and pid == victim.pids[-1]}
        handed_back = {(t, r) for t, r, _ in self.moves if t > settled and r in back_to}
        unforced = [
            (t, r)
            for t, r, _ in self.moves
            if (t < t_kill or t > settled) and (t, r) not in handed_back
        ]
        taps_steady = sum(1 for t in live if m.acked.get(t.id, float("inf")) <= t_kill)
        cpu = {k: self.cpu_kill[k] - self.cpu0[k] for k in self.cpu0}
        # the whole morning: the killed worker's two processes, the others' one
        morning = {k: self.cpu1[k] - self.cpu0[k] for k in self.cpu0}
        morning[f"w{victim.n}"] = cpu[f"w{victim.n}"] + self.cpu1[f"w{victim.n}"]
        histograms = [
            tick_delta(self.ticks1[w.n], self.ticks0[w.n]) for w in self.pool if w is not victim
        ]
        histograms += [tick_delta(self.ticks_kill, self.ticks0[victim.n]), self.ticks1[victim.n]]
        f.update(
            {
                "rounds": len(self.plans),
                "clubs": s.clubs,
                "groups": sum(p.groups for p in self.plans),
                "groups_per_round": [
                    min(p.groups for p in self.plans),
                    max(p.groups for p in self.plans),
                ],
                "workers": s.workers,
                "speed": s.speed,
                "tick_s": s.tick,
                "lease_s": s.lease,
                "morning_s": round(self.t_end - m.start, 1),
                "taps_before": sum(len(p.before) for p in self.plans),
                "taps": len(live),
                "taps_acked": sum(1 for t in live if t.id in m.acked),
                "taps_per_s": round(len(sent) / span, 2) if span else None,
                "resends": m.resends,
                "duplicate_acks": m.duplicates,
                "row_ms": quantiles(delays(m.rows, steady)),
                "ack_ms": quantiles(delays(m.acked, steady)),
                "board_ms": quantiles(delays(m.boards, steady)),
                "row_p90_by_phase_ms": by_phase(m, steady, s.tick),
                "row_after_kill_ms": quantiles(delays(m.rows, later)),
                "rows_after_kill_over_1s": sum(1 for d in delays(m.rows, later) if d > 1.0),
                "slowest_rows": [
                    f"{ms(d)} ms: {t.round} group {t.group} hole {t.hole}, to"
                    f" w{m.via.get(t.id)}, {m.sent[t.id] - t_kill:+.1f} s from the kill"
                    for d, t in slowest
                ],
                "clients_back_s": round(back - t_kill, 1),
                "steady_s": round(steady_s, 1),
                "taps_steady": taps_steady,
                "cpu_s_steady": {k: round(v, 2) for k, v in cpu.items()},
                "cpu_ms_per_tap": {
                    k: round(1000 * v / max(1, taps_steady), 2) for k, v in cpu.items()
                },
                "cores": {k: round(v / steady_s, 3) for k, v in cpu.items()},
                "cpu_s_morning": {k: round(v, 2) for k, v in morning.items()},
                "scores": len(m.scores_sent),
                "scores_acked": len(m.scores_acked),
                "ticks": tick_summary(histograms, s.tick_budget),
                "ticks_skipped": skipped_ticks(self.folder, self.wall_start, self.wall_end),
                "ticks_skipped_before_kill": sum(
                    skipped_ticks(self.folder, self.wall_start, self.wall_kill).values()
                ),
                "ticks_skipped_at_start": sum(
                    skipped_ticks(self.folder, None, self.wall_start).values()
                ),
                "ticks_scheduled": round(len(self.plans) * (self.t_end - m.start) / s.tick),
                "reconnects": m.reconnects,
                "alerts_announced_twice": m.announced_twice,
                # leases that changed hands with no worker killed (before the kill, or once the
                # takeover is over): a worker too busy to renew its leases in time loses them
                "lease_moves_unforced": len(unforced),
                "lease_moves_handed_back": len({r for _, r in handed_back}),
                "lease_moves_unforced_at_s": sorted({round(t - m.start) for t, _ in unforced}),
                "lease_renewals_skipped": sum(
                    skipped_ticks(
                        self.folder, self.wall_start, self.wall_end, "PaceScheduler.claim"
                    ).values()
                ),
            }
        )
        started = self.morning_at + timedelta(seconds=f["late_start_s"] * s.speed)
        self.problems += check(self.db, self.plans, m, f, started)
        self.problems += [f"client: {why}" for why in m.failures[:PROBLEMS_SHOWN]]
        for w in self.pool:
            w.stop()
        for log in sorted(self.folder.glob("worker*.log")):
            if "Traceback" in log.read_text(errors="replace"):
                self.problems.append(f"{log.name} holds a traceback")
            if self.keep_logs:
                kept = Path(self.keep_logs)
                kept.mkdir(parents=True, exist_ok=True)
                (kept / f"{self.label.replace(' ', '-')}-{log.name}").write_bytes(log.read_bytes())

    def stop_clients(self) -> None:
        if self.m is not None:
            self.m.stopping = True
        for task in getattr(self, "tasks", []):
            task.kill(block=False)
        for c in self.clients:
            c.close()

    def stop(self) -> None:
        self.stop_clients()
        for w in self.pool:
            w.stop()
        if self.trace and TRACE:
            print("\n".join(self.trace), flush=True)


#: print each run's 5-second samples (``--trace``)
TRACE = False


def sample(
    m: Morning,
    pool: list[Worker],
    pg: engines.PostgresServer,
    redis_server: engines.RedisServer,
    folder: Path,
    trace: list[str],
) -> None:
    """Every 5 s: the taps acked, each worker's ticks and their seconds, the CPU each
    process used (``--trace`` prints it)."""
    import gevent

    last_cpu = cpu_sample(pool, pg, redis_server)
    last_ticks = {w.n: w.metrics() for w in pool}
    while not m.stopping:
        gevent.sleep(5.0)
        cpu = cpu_sample(pool, pg, redis_server)
        ticks = {w.n: w.metrics() for w in pool}
        parts = []
        for w in pool:
            d = tick_delta(ticks[w.n], last_ticks[w.n]) if ticks[w.n] else {}
            n = d.get("pace_tick_seconds_count", 0)
            parts.append(
                f"w{w.n} {n:.0f} ticks {d.get('pace_tick_seconds_sum', 0):.1f} s"
                f" cpu {max(0.0, cpu[f'w{w.n}'] - last_cpu.get(f'w{w.n}', 0)):.1f}"
            )
        skipped = sum(skipped_ticks(folder).values())
        trace.append(
            f"t {time.monotonic() - m.start:6.1f} s, taps acked {len(m.acked)}: "
            + "; ".join(parts)
            + f"; pg cpu {cpu['postgresql'] - last_cpu['postgresql']:.1f}"
            f", redis {cpu['redis'] - last_cpu['redis']:.1f}"
            f", clients {cpu['clients'] - last_cpu['clients']:.1f}; skipped {skipped}"
        )
        last_cpu, last_ticks = cpu, ticks


def cpu_sample(
    pool: list[Worker], pg: engines.PostgresServer, redis_server: engines.RedisServer
) -> dict[str, float]:
    out = {f"w{w.n}": cpu_seconds(w.pid) for w in pool}
    out["postgresql"] = tree_cpu(pg.process.pid)
    out["redis"] = cpu_seconds(redis_server.process.pid)
    own = _stat(os.getpid()) or ["0"] * 15  # not its reaped children (the killed worker)
    out["clients"] = (int(own[11]) + int(own[12])) / os.sysconf("SC_CLK_TCK")
    return out


def check(
    db: str, plans: list[RoundPlan], m: Morning, figures: dict[str, Any], morning: datetime
) -> list[str]:
    """Count what PostgreSQL holds: every tap once, nothing else, scores, alerts."""
    import psycopg

    from pace.services.alerts import ALERT_NAMESPACE

    problems: list[str] = []
    live = {t.id for p in plans for t in p.live}
    before = {t.id for p in plans for t in p.before}
    with psycopg.connect(db) as conn:
        taps = conn.execute(
            "SELECT id, count(*) FROM events WHERE type = 'hole_completed' GROUP BY id"
        ).fetchall()
        scores = dict(
            conn.execute(
                "SELECT id, count(*) FROM events WHERE type = 'score_recorded' GROUP BY id"
            ).fetchall()
        )
        raised = conn.execute(
            "SELECT id, round, payload, recorded_at FROM events WHERE type = 'alert_raised'"
        ).fetchall()
    counts = dict(taps)
    imported = [i for i in counts if i not in live]
    lost = [i for i in m.acked if i not in counts]
    twice = [i for i, n in counts.items() if n > 1]
    unacked = [i for i in live if i not in m.acked]
    figures.update(
        {
            "stored": sum(1 for i in live if i in counts),
            "lost": len(lost),
            "stored_twice": len(twice),
            "not_acked": len(unacked),
            "stored_before": len(imported),
        }
    )
    if lost or twice or unacked:
        problems.append(
            f"taps: {len(unacked)} never acked, {len(lost)} acked but not stored, "
            f"{len(twice)} stored twice"
        )
    if len(imported) != len(before):
        problems.append(
            f"{len(imported)} hole_completed events besides the morning's, {len(before)} imported"
        )
    lost_scores = [s for s in m.scores_acked if s not in scores]
    figures.update(
        {
            "scores_stored": sum(1 for s in m.scores_sent if s in scores),
            "scores_lost": len(lost_scores),
        }
    )
    unacked_scores = len(m.scores_sent - m.scores_acked)
    if lost_scores or unacked_scores or any(n > 1 for n in scores.values()):
        problems.append(
            f"scores: {unacked_scores} never acked, {len(lost_scores)} acked but not stored, "
            f"{sum(1 for n in scores.values() if n > 1)} stored twice"
        )
    keys = []
    underived = 0
    kinds: dict[str, int] = {}
    for id, round, payload, recorded in raised:
        p = payload if isinstance(payload, dict) else json.loads(payload)
        if datetime.fromisoformat(recorded) >= morning:
            kind = str(p["key"]).split(":", 1)[0]
            kinds[kind] = kinds.get(kind, 0) + 1
        generation = p.get("generation", 1)
        keys.append((round, p["key"], generation))
        name = (
            f"{round}/{p['key']}"
            if generation == 1
            else f"{round}/reopened/{generation}/{p['key']}"
        )
        underived += id != str(uuid.uuid5(ALERT_NAMESPACE, name))
    doubled = len(keys) - len(set(keys))
    figures.update(
        {
            "alerts_raised": len(keys),
            "alerts_raised_in_morning": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),
            "alerts_raised_twice": doubled,
            "alert_ids_not_derived": underived,
        }
    )
    if doubled:
        problems.append(f"{doubled} alerts raised twice")
    if underived:
        problems.append(f"{underived} alert ids not derived from their keys")
    return problems


# -- the report ----------------------------------------------------------------------------------


def server_ms_per_tap(f: dict[str, Any]) -> float | None:
    """CPU ms per tap of the server side: the workers, PostgreSQL and Redis."""
    per = f.get("cpu_ms_per_tap") or {}
    return round(sum(v for k, v in per.items() if k != "clients"), 2) if per else None


def comparison(big: dict[str, Any], one: dict[str, Any]) -> dict[str, Any]:
    """The N-round run against the 1-round run: the row's quantiles and the CPU per tap."""
    out: dict[str, Any] = {"runs": [big["run"], one["run"]]}
    for q in ("p50", "p95", "p99"):
        a, b = (big.get("row_ms") or {}).get(q), (one.get("row_ms") or {}).get(q)
        out[f"row_{q}_ms"] = [a, b, round(a / b, 2) if a and b else None]
    for k, v in (big.get("cpu_ms_per_tap") or {}).items():
        w = (one.get("cpu_ms_per_tap") or {}).get(k)
        out[f"cpu_ms_per_tap_{k}"] = [v, w, round(v / w, 2) if v and w else None]
    a, b = server_ms_per_tap(big), server_ms_per_tap(one)
    out["cpu_ms_per_tap_server"] = [a, b, round(a / b, 2) if a and b else None]
    return out


def verdicts(n: dict[str, Any]) -> list[tuple[str, bool, str]]:
    """Issue 50's targets for a run: (what, met, the figure)."""
    t = n.get("ticks") or {}
    skipped = sum((n.get("ticks_skipped") or {}).values())
    before = n.get("leases_before_kill") or {}
    rounds = n.get("rounds") or 0
    rate = (n.get("taps_per_s") or 0) * 100 / max(1, rounds)  # at 100 rounds
    return [
        (
            "every tick of every round in its budget",
            t.get("over_budget") == 0
            and t.get("ticks_ended_late") == 0
            and skipped == 0
            and bool(t.get("ticks")),
            f"{t.get('over_budget')} of {t.get('ticks')} ticks over {t.get('budget_bucket_s')} s,"
            f" {t.get('ticks_ended_late')} of {t.get('ticks_due')} scheduled ticks ended more"
            f" than {t.get('budget_bucket_s')} s after their due instant (mean"
            f" {t.get('ticks_due_mean_ms')} ms),"
            f" {skipped} skipped by the scheduler (more than a period late, or the round's last"
            f" tick still running); {n.get('lease_renewals_skipped')} renewals of a worker's"
            f" leases skipped, {n.get('lease_moves_unforced')} leases moved with no worker"
            f" killed ({n.get('lease_moves_handed_back')} handed back to the restarted worker"
            " apart)",
        ),
        (
            "the rounds' ticks spread over the workers (each ticks some, none twice its share)",
            bool(before)
            and min(before.values()) > 0
            and max(before.values()) <= 2 * rounds / len(before),
            f"rounds held before the kill {before}, after the takeover"
            f" {n.get('leases_after_takeover')}, at the end {n.get('leases_at_end')}",
        ),
        (
            f"the killed worker's rounds ticked elsewhere within {TAKEOVER_TARGET_S:g} s",
            bool(n.get("takeover_all")) and (n.get("takeover_s") or 99) <= TAKEOVER_TARGET_S,
            f"{n.get('killed_rounds')} rounds, all held by a living worker after"
            f" {n.get('takeover_s')} s",
        ),
        (
            "nothing lost or doubled",
            n.get("lost") == 0
            and n.get("stored_twice") == 0
            and n.get("not_acked") == 0
            and n.get("alerts_raised_twice") == 0
            and n.get("scores_lost") == 0
            and n.get("stored_before") == n.get("taps_before"),
            f"taps {n.get('stored')}/{n.get('taps')} stored once, {n.get('lost')} lost,"
            f" {n.get('stored_twice')} twice; scores {n.get('scores_stored')}/{n.get('scores')};"
            f" alerts raised twice {n.get('alerts_raised_twice')} of {n.get('alerts_raised')}",
        ),
        (
            "at least a real Saturday's taps",
            rate >= SATURDAY_TAPS_PER_S,
            f"{n.get('taps_per_s')} taps/s over {rounds} rounds ({rate:.1f} for 100 rounds; a real"
            f" Saturday {SATURDAY_TAPS_PER_S:.1f})",
        ),
    ]


#: the figures printed for each run, in order
# fmt: off
SHOWN = (
    "setup_s", "connect_s", "late_start_s", "morning_s", "taps_before", "taps", "taps_acked",
    "taps_per_s", "resends", "duplicate_acks", "row_ms", "ack_ms", "board_ms",
    "row_p90_by_phase_ms", "row_after_kill_ms", "rows_after_kill_over_1s", "slowest_rows",
    "clients_back_s",
    "steady_s", "taps_steady", "cpu_s_steady", "cpu_ms_per_tap", "cores", "cpu_s_morning",
    "scores", "scores_acked", "scores_stored", "ticks", "ticks_skipped",
    "ticks_skipped_before_kill",
    "ticks_skipped_at_start", "ticks_scheduled", "leases_at_start", "leases_before_kill",
    "killed", "killed_rounds", "leases_after_takeover", "takeover_s", "restart_s",
    "leases_at_end", "lease_moves_unforced", "lease_moves_handed_back",
    "lease_moves_unforced_at_s",
    "lease_renewals_skipped", "reconnects", "stored", "lost", "stored_twice", "not_acked",
    "stored_before", "alerts_raised", "alerts_raised_in_morning", "alerts_raised_twice",
    "alert_ids_not_derived", "alerts_announced_twice",
)
# fmt: on


def pairs(runs: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each N-round run with the 1-round run of its pair (``--repeat``: in order)."""
    big = [f for f in runs if f.get("rounds", 0) > 1 or f["run"].startswith("federation")]
    one = [f for f in runs if f["run"].startswith("one round")]
    return list(zip(big, one, strict=False))


def report(runs: list[dict[str, Any]]) -> None:
    for f in runs:
        print(
            f"\n== {f['run']}: {f.get('rounds')} rounds of {f.get('clubs')} clubs,"
            f" {f.get('groups')} groups ({f.get('groups_per_round')} a round),"
            f" {f.get('workers')} workers, {f.get('clients')} sockets, pace's clock"
            f" x{f.get('speed')}, tick {f.get('tick_s')} s, lease {f.get('lease_s')} s;"
            f" load {f.get('load')}, {f.get('seconds')} s in all"
        )
        for key in SHOWN:
            if key in f:
                print(f"  {key:26} {f[key]}")
        print("  problems                   " + ("; ".join(f["problems"]) or "none"))
    for big, one in pairs(runs):
        c = comparison(big, one)
        print(f"\n{big.get('rounds')} rounds ({big['run']}) against 1 round ({one['run']}):")
        for q in ("p50", "p95", "p99"):
            a, b, r = c[f"row_{q}_ms"]
            print(f"  tap -> dashboard row {q}: {a} ms against {b} ms ({r}x)")
        print(
            f"  (taps measured: {big['row_ms']['n']} against {one['row_ms']['n']}, those sent"
            f" before the kill)"
        )
        for k in [*(big.get("cpu_ms_per_tap") or {}), "server"]:
            a, b, r = c[f"cpu_ms_per_tap_{k}"]
            print(f"  CPU ms per tap, {k}: {a} against {b} ({r}x)")
    for f in runs:
        if f["run"].startswith("one round") and len(runs) > 1:
            continue
        print(f"\ntargets ({f['run']}):")
        for what, met, figure in verdicts(f):
            print(f"  {'MET' if met else 'MISSED':7} {what}: {figure}")


def parse_range(text: str) -> tuple[int, int]:
    low, _, high = text.replace("–", "-").partition("-")
    return int(low), int(high or low)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=50)
    parser.add_argument("--rounds-per-club", type=int, default=2)
    parser.add_argument(
        "--groups",
        type=parse_range,
        default=(30, 40),
        help="three-balls per round, a range (drawn per round): 30-40",
    )
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument(
        "--seconds",
        type=float,
        default=150.0,
        help="real seconds of the measured morning (each run)",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=4.0,
        help="pace's clock against real time (4: four times a Saturday's taps)",
    )
    parser.add_argument("--tick", type=float, default=5.0, help="scheduler.tick_seconds")
    parser.add_argument(
        "--tick-budget",
        type=float,
        default=None,
        help="seconds a tick may take (default: the tick's period)",
    )
    parser.add_argument("--lease", type=float, default=4.0, help="scheduler.lease_seconds")
    parser.add_argument("--marshals", type=int, default=3, help="marshals' phones per round")
    parser.add_argument(
        "--score-every",
        type=float,
        default=20.0,
        help="real seconds between two scores of a round's scorer",
    )
    parser.add_argument("--kill-at", type=float, default=0.5, help="share of the morning")
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="pairs of runs (N rounds, 1 round), alternating which goes first",
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--baseline-only", action="store_true", help="only the 1-round run")
    group.add_argument("--no-baseline", action="store_true", help="no 1-round run")
    parser.add_argument("--json", action="store_true", help="print one JSON line of figures")
    parser.add_argument("--keep-logs", default="", help="copy the workers' logs to this folder")
    parser.add_argument(
        "--trace",
        action="store_true",
        help="print every 5 s of each run: taps, ticks, CPU by process",
    )
    args = parser.parse_args(argv)

    global TRACE
    TRACE = args.trace

    def shape(clubs: int, per_club: int) -> Shape:
        return Shape(
            clubs,
            per_club,
            args.groups,
            args.workers,
            args.seconds,
            args.speed,
            args.tick,
            args.lease,
            args.marshals,
            args.score_every,
            args.kill_at,
            args.tick_budget or args.tick,
            args.seed,
        )

    shapes = []
    if not args.baseline_only:
        shapes.append(("federation", args.clubs, args.rounds_per_club))
    if not args.no_baseline:
        shapes.append(("one round", 1, 1))
    runs = []
    for k in range(args.repeat):
        for label, clubs, per_club in shapes if k % 2 == 0 else shapes[::-1]:
            if not args.json:
                print(f"running {label} ({clubs} x {per_club} rounds)...", flush=True)
            name = f"{label} #{k + 1}" if args.repeat > 1 else label
            runs.append(Saturday(shape(clubs, per_club), name, args.keep_logs).run())
    if args.json:
        print(
            json.dumps(
                {
                    "runs": runs,
                    "comparisons": [comparison(big, one) for big, one in pairs(runs)],
                    "verdicts": {
                        f["run"]: [
                            {"what": w, "met": met, "figure": figure}
                            for w, met, figure in verdicts(f)
                        ]
                        for f in runs
                    },
                }
            )
        )
    else:
        report(runs)
    return 0 if not any(r["problems"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())

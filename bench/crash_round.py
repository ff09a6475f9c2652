"""Crash test: a round's taps survive the server being killed again and again (issue 6).

A simulated round: ``--groups`` three-balls off tee 1 every 8 minutes from 07:30, each hole
completed near its allotment (some groups slow), up to ``--at`` (15:20 local): every
completion so far is a ``hole_completed`` event with its own id. They are shared out, in
order of time, over ``--clients`` marshals: python-socketio clients (threads, websocket),
each sending its own events in order and resending each one (same id) until it is acked,
reconnecting whenever the server goes away.

The server is the real ``pace serve`` (gevent, ``synchronous=FULL``, scheduler ticking every
``--tick`` s), its clock at 17:00 on the round's day. The round is played in ``--kills`` + 1
slices of time; in each slice but the last, once half of the slice's events are acked, the
server is killed with SIGKILL in the middle of the traffic and started again on the same
database and port. After each restart the open alerts are acknowledged (a referee, over
HTTP), and a dashboard follows the round throughout.

At the end the log must hold every acked event exactly once and nothing else, each at its
instant (within 2 s: :data:`AT_ERROR`), the alerts raised once each and never announced
twice, none of the acknowledged ones open again, and ``GET /api/rounds/R1/status?at=...``
must equal what ``pace status --json`` prints offline for the same completions (a run without
kills).

``--engine postgresql`` plays the same round on a PostgreSQL database (a server started for
the run, ``tests/engines.py``) instead of a SQLite file; ``--db URL`` on an empty database of
a running PostgreSQL.

    python bench/crash_round.py                  # 60 clients, 30 groups, 12 kills
    python bench/crash_round.py --kills 10 --json
    python bench/crash_round.py --engine postgresql --json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import socketio  # noqa: E402
from livesupport import COURSE, TIMEZONE, free_port, pace, setup_round, wait_until_ready  # noqa: E402

from pace import config, formats  # noqa: E402
from pace.clock import SystemClock  # noqa: E402
from pace.reports.status import status_document  # noqa: E402
from pace.rules.model import HoleCompletion, RoundSetup  # noqa: E402
from pace.services.access import AccessService  # noqa: E402
from pace.services.alerts import ALERT_NAMESPACE  # noqa: E402
from pace.services.rounds import offline_status  # noqa: E402
from pace.store import open_store  # noqa: E402

#: session tokens by role (docs/access.md), made on the database before the first start; kept
#: in the database, so they outlive every SIGKILL
TOKENS: dict[str, str] = {}


def grant_sessions(db: Path | str, round: str) -> None:
    """Open a marshal's, a referee's and the committee's session on ``db``; fill ``TOKENS``."""
    with open_store(db) as store:
        access = AccessService(store, config.Settings(), SystemClock())
        for role in ("marshal", "referee", "committee"):
            TOKENS[role] = access.grant(role, round, f"crash bench {role}").token


TZ = ZoneInfo(TIMEZONE)
ROUND = "R1"
#: How long a marshal waits for an ack before sending the same event again.
ACK_SECONDS = 5.0


# -- the round ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tap:
    """One completion to log: its id, group, hole, instant, marshal and slice of the round."""

    id: str
    group: str
    hole: int
    at: datetime
    marshal: int = 0
    phase: int = 0


def plan_round(day: date, groups: int, until: datetime, seed: int) -> tuple[str, list[Tap]]:
    """Return the draw CSV and every completion before ``until``, in order of time.

    Completions sit on a 3-second grid with a per-group second (never :00), so each group's
    time over is a whole hundredth of a minute and never exactly on a minute: the statuses
    cannot tip on the few milliseconds the clock correction adds or removes.
    """
    rng = random.Random(seed)
    course = formats.parse_course(COURSE.read_text(encoding="utf-8"), str(COURSE))
    allot = {3: 11, 4: 14, 5: 17}  # a three-ball's minutes per par (pace's default split)
    lines = ["group,start,tee,player,handicap,club,notes"]
    taps: list[Tap] = []
    previous: dict[int, datetime] = {}
    for g in range(1, groups + 1):
        start = datetime.combine(day, clock_time(7, 30), tzinfo=TZ) + timedelta(minutes=8 * (g - 1))
        for p in range(3):
            lines.append(f"{g},{start:%H:%M},1,Player {g}-{p + 1},{rng.randint(0, 36)},Club,")
        second = 3 * (1 + (7 * g) % 19)  # 3..57, never the same for two groups in a row
        slow = g % 7 == 3
        drift = 0
        elapsed = timedelta()
        for hole in course.holes:
            elapsed += timedelta(minutes=allot[hole.par])
            drift += rng.choice((1, 2, 3)) if slow else rng.choice((-1, 0, 0, 1))
            at = start + elapsed + timedelta(minutes=drift, seconds=second)
            ahead = previous.get(hole.number)
            while ahead is not None and at < ahead + timedelta(minutes=1):
                drift += 1  # a group never passes the one ahead
                at += timedelta(minutes=1)
            previous[hole.number] = at
            if at <= until - timedelta(minutes=1):
                taps.append(Tap(str(uuid.UUID(int=rng.getrandbits(128), version=4)), str(g),
                                hole.number, at))  # fmt: skip
    taps.sort(key=lambda t: (t.at, int(t.group)))
    return "\n".join(lines) + "\n", taps


def times_csv(taps: list[Tap]) -> str:
    """Return the completions as a hole-times CSV (docs/formats.md §3), for ``pace status``."""
    rows = ["group,hole,completed"]
    rows += [f"{t.group},{t.hole},{t.at.astimezone(TZ):%H:%M:%S}" for t in taps]
    return "\n".join(rows) + "\n"


# -- the server ----------------------------------------------------------------------------------


class Server:
    """``pace serve`` on one database and port, started, killed and started again."""

    def __init__(self, folder: Path, db: Path | str, origin: datetime, tick: float):
        self.folder, self.db, self.tick = folder, db, tick
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.origin = origin
        self.t0 = time.monotonic()
        self.process: subprocess.Popen[str] | None = None
        self.starts = 0
        self.start_seconds: list[float] = []

    def start(self) -> None:
        """Start the server and return once it answers (its clock goes on from 17:00)."""
        began = time.monotonic()
        origin = self.origin + timedelta(seconds=began - self.t0)
        log = self.folder / f"serve-{self.starts}.log"
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "pace", "serve", "--db", str(self.db),
                 "--host", "127.0.0.1", "--port", str(self.port),
                 "--clock-origin", origin.isoformat(), "--tick", str(self.tick)],
                cwd=self.folder, stdout=out, stderr=subprocess.STDOUT, text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
        wait_until_ready(self.url, self.process, log, timeout=30)
        self.starts += 1
        self.start_seconds.append(time.monotonic() - began)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye to the clients."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def get(self, path: str) -> Any:
        import urllib.request

        req = urllib.request.Request(
            self.url + path, headers={"Authorization": f"Bearer {TOKENS['committee']}"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: Any, headers: dict[str, str]) -> Any:
        import urllib.error
        import urllib.request

        req = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json",
                     "Authorization": f"Bearer {TOKENS['referee']}", **headers},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read())


# -- the run's shared state ------------------------------------------------------------------------


@dataclass
class Run:
    """What the marshals and the killer share, under one condition."""

    url: str
    deadline: float
    cond: threading.Condition = field(default_factory=threading.Condition)
    phase: int = 0
    generation: int = 0  # bumped at each restart
    acked: int = 0
    failed: str = ""
    acks: dict[str, dict] = field(default_factory=dict)  # id -> first ok ack
    duplicates: int = 0  # acks saying "already stored": the first ack was lost
    resends: int = 0  # sends that got no answer (killed meanwhile) and went again
    in_flight: int = 0

    def fail(self, why: str) -> None:
        with self.cond:
            self.failed = self.failed or why
            self.cond.notify_all()

    def left(self) -> float:
        return self.deadline - time.monotonic()


class Connection:
    """One python-socketio connection whose pending call ends as soon as the socket drops."""

    def __init__(self, url: str, device: str):
        self.client = socketio.Client(reconnection=False)
        self.lost = threading.Event()
        self.waiting: threading.Event | None = None
        self.offset = timedelta()

        def dropped(*args: Any) -> None:
            self.lost.set()
            if self.waiting is not None:
                self.waiting.set()

        self.client.on("disconnect", dropped)
        self.client.connect(url, auth={"token": TOKENS["marshal"], "device": device},
                            transports=["websocket"], wait_timeout=3)  # fmt: skip

    def call(self, event: str, payload: Any, timeout: float = ACK_SECONDS) -> Any:
        """Return the ack, or None when the socket dropped or no answer came in time."""
        done = threading.Event()
        box: list[Any] = []

        def answered(*args: Any) -> None:
            box.append(args[0] if args else None)
            done.set()

        self.waiting = done
        try:
            if self.lost.is_set():
                return None
            self.client.emit(event, payload, callback=answered)
            done.wait(timeout)
        except Exception:  # noqa: BLE001 - disconnected meanwhile: the caller sends again
            return None
        finally:
            self.waiting = None
        return box[0] if box else None

    def sync_clock(self, samples: int = 3) -> bool:
        """Set this device's clock to the server's (shortest round trip wins)."""
        best: tuple[float, timedelta] | None = None
        for _ in range(samples):
            t0, w0 = time.monotonic(), datetime.now(UTC)
            answer = self.call("clock_sync", {})
            if not answer or not answer.get("ok"):
                return False
            rtt = time.monotonic() - t0
            offset = datetime.fromisoformat(answer["server_time"]) - (
                w0 + timedelta(seconds=rtt / 2)
            )
            if best is None or rtt < best[0]:
                best = (rtt, offset)
        assert best is not None
        self.offset = best[1]
        return True

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def close(self) -> None:
        try:
            self.client.disconnect()
        except Exception:  # noqa: BLE001 - already gone with the server
            pass


class Marshal(threading.Thread):
    """A marshal's phone: sends its taps in order, each until acked, across every crash."""

    def __init__(self, n: int, taps: list[Tap], run: Run):
        super().__init__(name=f"marshal-{n}", daemon=True)
        self.n, self.taps, self.run_ = n, taps, run
        self.conn: Connection | None = None

    def run(self) -> None:
        try:
            for tap in self.taps:
                self.wait_for_phase(tap.phase)
                self.deliver(tap)
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            self.run_.fail(f"marshal {self.n}: {e!r}")
        finally:
            if self.conn is not None:
                self.conn.close()

    def wait_for_phase(self, phase: int) -> None:
        run = self.run_
        with run.cond:
            if not run.cond.wait_for(lambda: run.phase >= phase or run.failed, run.left()):
                raise TimeoutError("the round never reached this tap's slice")

    def connect(self) -> bool:
        run = self.run_
        with run.cond:
            generation = run.generation
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        try:
            conn = Connection(run.url, f"marshal-{self.n}")
        except Exception:  # noqa: BLE001 - the server is down: wait for the next start
            with run.cond:
                run.cond.wait_for(lambda: run.generation != generation or run.failed, 0.5)
            return False
        if not conn.sync_clock():
            conn.close()
            return False
        self.conn = conn
        return True

    def deliver(self, tap: Tap) -> None:
        run = self.run_
        while True:
            if run.failed:
                raise RuntimeError("stopped: " + run.failed)
            if run.left() <= 0:
                raise TimeoutError(f"tap {tap.id} not acked in time")
            if self.conn is None or self.conn.lost.is_set():
                if not self.connect():
                    continue
            assert self.conn is not None
            payload = {
                "id": tap.id, "round": ROUND, "group": tap.group, "hole": tap.hole,
                "at": tap.at.isoformat(), "device_time": self.conn.now().isoformat(),
            }  # fmt: skip
            with run.cond:
                run.in_flight += 1
            try:
                ack = self.conn.call("hole_completed", payload)
            finally:
                with run.cond:
                    run.in_flight -= 1
            if ack is None:
                with run.cond:
                    run.resends += 1
                continue  # same id, again
            if ack.get("ok"):
                with run.cond:
                    if tap.id in run.acks:
                        raise AssertionError(f"{tap.id} acked twice to its one marshal")
                    run.acks[tap.id] = ack
                    run.duplicates += bool(ack.get("duplicate"))
                    run.acked += 1
                    run.cond.notify_all()
                return
            if ack.get("error", {}).get("code") in ("storage_unavailable", "storage_error"):
                continue
            raise AssertionError(f"tap {tap.group}/{tap.hole} refused: {ack}")


class Dashboard:
    """A referee's dashboard following the round, reconnected after every start."""

    def __init__(self, url: str):
        self.url = url
        self.heard: list[tuple[str, str]] = []  # (key, id) of each alert_raised heard
        self.client: socketio.Client | None = None

    def follow(self) -> None:
        self.close()
        client = socketio.Client(reconnection=False)

        @client.on("alert_raised")
        def raised(message: Any) -> None:
            self.heard.append((message["alert"]["key"], message["alert"]["id"]))

        client.connect(self.url, auth={"token": TOKENS["referee"], "device": "dashboard"},
                       transports=["websocket"], wait_timeout=5)  # fmt: skip
        answer = client.call("join_round", {"round": ROUND}, timeout=ACK_SECONDS)
        assert answer and answer["ok"], answer
        self.client = client

    def close(self) -> None:
        if self.client is not None:
            try:
                self.client.disconnect()
            except Exception:  # noqa: BLE001
                pass
            self.client = None


def alert_id(key: str, generation: int) -> str:
    """Return the id an alert's raise must have: derived from its key and which raise it is."""
    name = f"{ROUND}/{key}" if generation == 1 else f"{ROUND}/reopened/{generation}/{key}"
    return str(uuid.uuid5(ALERT_NAMESPACE, name))


def acknowledge_open_alerts(server: Server) -> list[str]:
    """A referee acknowledges every open alert (over HTTP); return their keys."""
    keys = []
    for alert in server.get(f"/api/rounds/{ROUND}/snapshot")["snapshot"]["alerts"]:
        answer = server.post(
            "/api/commands/acknowledge_alert",
            {"id": str(uuid.uuid4()), "round": ROUND, "alert": alert["key"], "note": "seen"},
            {"X-Pace-Device": "referee-tablet"},
        )
        if answer.get("ok"):
            keys.append(alert["key"])
        elif answer["error"]["code"] != "already_done":  # the tick raced us: fine
            raise AssertionError(answer)
    return keys


# -- the run ---------------------------------------------------------------------------------------


def run(
    *, clients: int = 60, groups: int = 30, kills: int = 12, at: str = "15:20", tick: float = 0.5,
    seed: int = 6, budget: float = 170.0, folder: Path | None = None, engine: str = "sqlite",
    db: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Play the round with ``kills`` SIGKILLs; return the figures and the problems found."""
    if db is not None:
        figures = _run(clients, groups, kills, at, tick, seed, budget, folder, db)
        figures["engine"] = "postgresql" if db.startswith("postgres") else "sqlite"
        return figures
    if engine == "postgresql":
        import engines

        pg = engines.start_postgres()
        try:
            figures = _run(clients, groups, kills, at, tick, seed, budget, folder, pg.database())
        finally:
            pg.stop()
        figures["engine"] = engine
        return figures
    figures = _run(clients, groups, kills, at, tick, seed, budget, folder, None)
    figures["engine"] = engine
    return figures


def _run(
    clients: int, groups: int, kills: int, at: str, tick: float, seed: int, budget: float,
    folder: Path | None, url: str | None,
) -> dict[str, Any]:  # fmt: skip
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pace-crash-") as tmp:
        folder = folder or Path(tmp)
        day = datetime.now(TZ).date()
        until = datetime.combine(day, formats.parse_clock(at), tzinfo=TZ)
        draw_text, taps = plan_round(day, groups, until, seed)
        draw = folder / "draw.csv"
        draw.write_text(draw_text, encoding="utf-8")
        times = folder / "times.csv"
        times.write_text(times_csv(taps), encoding="utf-8")
        db = setup_round(folder, day=day.isoformat(), draw=draw, db=url)
        grant_sessions(db, ROUND)

        slices = kills + 1
        marshals: list[list[Tap]] = [[] for _ in range(clients)]
        for i, t in enumerate(taps):
            tap = Tap(t.id, t.group, t.hole, t.at, i % clients, i * slices // len(taps))
            marshals[tap.marshal].append(tap)
        per_phase = [sum(1 for i in range(len(taps)) if i * slices // len(taps) == p)
                     for p in range(slices)]  # fmt: skip

        server = Server(folder, db, datetime.combine(day, clock_time(17, 0), tzinfo=TZ), tick)
        state = Run(server.url, deadline=began + budget)
        dashboard = Dashboard(server.url)
        killed_in_flight: list[int] = []
        acknowledged: list[str] = []
        problems: list[str] = []
        threads = [Marshal(n, mine, state) for n, mine in enumerate(marshals)]
        figures: dict[str, Any] = {}
        try:
            server.start()
            dashboard.follow()
            for t in threads:
                t.start()
            for k in range(kills):
                with state.cond:
                    state.phase = k
                    state.cond.notify_all()
                    target = sum(per_phase[:k]) + math.ceil(per_phase[k] / 2)
                    if not state.cond.wait_for(
                        lambda target=target: state.acked >= target or state.failed, state.left()
                    ):
                        raise TimeoutError(f"slice {k}: {state.acked} acked, {target} wanted")
                    if state.failed:
                        break
                    killed_in_flight.append(state.in_flight)
                server.kill()  # mid-traffic: some taps stored and not acked, some not stored
                server.start()
                with state.cond:
                    state.generation += 1
                    state.cond.notify_all()
                dashboard.follow()
                acknowledged += acknowledge_open_alerts(server)
            with state.cond:
                state.phase = slices
                state.cond.notify_all()
            for t in threads:
                t.join(max(0.0, state.left()))
                if t.is_alive():
                    state.fail(f"{t.name} still running at the end of the budget")
            if state.failed:
                problems.append(state.failed)
            acknowledged += acknowledge_open_alerts(server)
            figures, found = check(server, taps, state, dashboard, acknowledged, folder, at, day)
            problems += found
        except Exception as e:  # noqa: BLE001 - reported with the figures so far
            problems.append(f"{type(e).__name__}: {e}")
        finally:
            state.fail(state.failed or "finished")
            dashboard.close()
            server.stop()
        figures.update(
            {
                "events": len(taps),
                "clients": clients,
                "groups": groups,
                "kills": len(killed_in_flight),
                "starts": server.starts,
                "in_flight_at_kills": killed_in_flight,
                "restart_s_mean": round(sum(server.start_seconds) / max(1, server.starts), 2),
                "seconds": round(time.monotonic() - began, 1),
                "problems": problems,
            }
        )
        return figures


def check(
    server: Server, taps: list[Tap], state: Run, dashboard: Dashboard,
    acknowledged: list[str], folder: Path, at: str, day: date,
) -> tuple[dict[str, Any], list[str]]:  # fmt: skip
    """Compare the server's log and statuses with the round as planned."""
    problems = []
    events = server.get(f"/api/rounds/{ROUND}/events")["events"]
    logged = [e for e in events if e["type"] == "hole_completed"]
    counts: dict[str, int] = {}
    for e in logged:
        counts[e["id"]] = counts.get(e["id"], 0) + 1
    planned = {t.id: t for t in taps}
    lost = [i for i in planned if i not in counts]
    doubled = [i for i, n in counts.items() if n > 1]
    extra = [i for i in counts if i not in planned]
    unacked = [i for i in planned if i not in state.acks]
    if lost:
        problems.append(f"{len(lost)} planned taps not stored")
    if doubled:
        problems.append(f"{len(doubled)} taps stored more than once")
    if extra:
        problems.append(f"{len(extra)} hole_completed events nobody sent")
    if unacked:
        problems.append(f"{len(unacked)} taps never acked")
    worst = 0.0
    for e in logged:
        t = planned.get(e["id"])
        if t is None:
            continue
        if (e["payload"]["group"], e["payload"]["hole"]) != (t.group, t.hole):
            problems.append(f"{e['id']} stored as {e['payload']} instead of {t.group}/{t.hole}")
        error = abs((datetime.fromisoformat(e["at"]) - t.at).total_seconds())
        worst = max(worst, error)
        ack = state.acks.get(e["id"])
        if ack is not None and (ack["seq"], ack["at"]) != (e["seq"], e["at"]):
            problems.append(f"{e['id']} acked as seq {ack['seq']} but stored as {e['seq']}")
    if worst >= AT_ERROR:
        problems.append(f"a stored instant is {worst:.3f} s from the tap's")

    raised = [e for e in events if e["type"] == "alert_raised"]
    # an alert's raises: its first, then one per re-opening (``generation``, docs/protocol.md)
    raises = [(e["payload"]["key"], e["payload"].get("generation", 1)) for e in raised]
    if len(raises) != len(set(raises)):
        problems.append("an alert was raised twice")
    for e in raised:
        if e["id"] != alert_id(e["payload"]["key"], e["payload"].get("generation", 1)):
            problems.append(f"alert {e['payload']['key']} has an id not derived from its key")
    # announced once: each raise (its id) heard once by a dashboard that followed the whole
    # round, across every kill (docs/protocol.md, "Announced once")
    ids = [i for _, i in dashboard.heard]
    heard_twice = sorted({k for k, i in dashboard.heard if ids.count(i) > 1})
    if heard_twice:
        problems.append(f"alerts announced twice: {heard_twice[:3]}")
    open_keys = {
        a["key"] for a in server.get(f"/api/rounds/{ROUND}/snapshot")["snapshot"]["alerts"]
    }
    if open_keys & set(acknowledged):
        problems.append("an acknowledged alert is open again")
    acks = [e["payload"]["alert"] for e in events if e["type"] == "alert_acknowledged"]
    if len(acks) != len(set(acks)):
        problems.append("an alert was acknowledged twice")

    live = server.get(f"/api/rounds/{ROUND}/status?at={at}")
    # 1. exactly what an evaluation of the stored completions, away from the server, gives
    stored = [HoleCompletion(e["payload"]["group"], int(e["payload"]["hole"]),
                             datetime.fromisoformat(e["at"])) for e in logged]  # fmt: skip
    fold = offline_document(folder / "draw.csv", stored, at, day)
    if live != fold:
        problems.append(f"statuses differ from the stored completions': {differences(live, fold)}")
    # 2. what `pace status --json` prints for the round as planned: a run without kills,
    # the same but for the clock correction of each tap (a few hundred ms under load)
    planned = json.loads(
        pace("status", "--course", str(COURSE), "--draw", str(folder / "draw.csv"),
             "--times", str(folder / "times.csv"), "--at", at, "--json",
             "--date", day.isoformat(), "--timezone", TIMEZONE, cwd=folder).stdout
    )  # fmt: skip
    if not same_statuses(live, planned):
        problems.append(f"statuses differ from the run without kills: {differences(live, planned)}")
    statuses: dict[str, int] = {}
    for g in live["groups"]:
        statuses[g["status"]] = statuses.get(g["status"], 0) + 1
    return (
        {
            "events": len(taps),
            "stored": len(logged),
            "lost": len(lost),
            "duplicates_stored": len(doubled),
            "duplicate_acks": state.duplicates,
            "resends": state.resends,
            "max_at_error_ms": round(worst * 1000, 1),
            "alerts_raised": len(raised),
            "alerts_acknowledged": len(acks),
            "alerts_heard": len(dashboard.heard),
            "alerts_heard_twice": heard_twice,
            "statuses": statuses,
            "statuses_equal_stored": live == fold,
            "statuses_equal_planned": same_statuses(live, planned),
            "statuses_identical_planned": live == planned,
        },
        problems,
    )


def offline_document(draw: Path, completions: list[HoleCompletion], at: str, day: date) -> dict:
    """The status document of ``completions`` evaluated from the files, as ``pace status``."""
    settings = config.load() if os.environ.get("PACE_CONFIG") else config.Settings()
    course = formats.parse_course(COURSE.read_text(encoding="utf-8"), str(COURSE))
    groups = formats.parse_draw(draw.read_text(encoding="utf-8"), str(draw), day=day, tz=TZ,
                                course=course)  # fmt: skip
    setup = RoundSetup(course, groups, settings.pace_settings())
    now = datetime.combine(day, formats.parse_clock(at), tzinfo=TZ)
    return status_document(offline_status(setup, completions, now), TZ)


#: How far (seconds) a stored instant may be from the tap's. A tap resent on a new connection,
#: before its first clock probe, is corrected by its ``device_time`` against the server's
#: receipt (docs/protocol.md), which counts the time the message waited as the phone's clock
#: being late: in a restart storm on CI's two cores (60 clients, PostgreSQL, 12 SIGKILLs) one
#: tap was stored 1.335 s late. The rules read minutes: such a tap moves a time over or a gap
#: by at most :data:`MINUTES_NOISE` (a verdict right at its threshold could still turn).
AT_ERROR = 2.0
#: How far a time over or a gap may differ from the plan: the clock correction of a tap
#: (within :data:`AT_ERROR`) moves it by at most this once rounded to the hundredth of a minute.
MINUTES_NOISE = 0.04


def same_statuses(live: dict, planned: dict) -> bool:
    """Whether two status documents agree but for clock-correction noise in the minutes."""
    if live["at"] != planned["at"] or len(live["groups"]) != len(planned["groups"]):
        return False
    for a, b in zip(live["groups"], planned["groups"], strict=True):
        for key in a.keys() | b.keys():
            x, y = a.get(key), b.get(key)
            if key in ("over_min", "gap_min") and x is not None and y is not None:
                if abs(x - y) > MINUTES_NOISE + 1e-9:
                    return False
            elif x != y:
                return False
    return True


def differences(a: dict, b: dict) -> list:
    return [(x, y) for x, y in zip(a["groups"], b["groups"], strict=False) if x != y][:2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--groups", type=int, default=30)
    parser.add_argument("--kills", type=int, default=12)
    parser.add_argument("--at", default="15:20", help="end of the round played, HH:MM local")
    parser.add_argument("--tick", type=float, default=0.5, help="scheduler tick, seconds")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--budget", type=float, default=170.0, help="give up after, seconds")
    parser.add_argument("--engine", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--db", default=None, help="an empty postgresql:// database to use")
    parser.add_argument("--json", action="store_true", help="print one JSON line of figures")
    args = parser.parse_args(argv)
    figures = run(
        clients=args.clients, groups=args.groups, kills=args.kills, at=args.at,
        tick=args.tick, seed=args.seed, budget=args.budget, engine=args.engine, db=args.db,
    )  # fmt: skip
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"crash round on {figures['engine']}: {figures['clients']} marshals, "
              f"{figures['groups']} groups, "
              f"{figures['events']} taps, {figures['kills']} SIGKILLs "
              f"({figures['starts']} starts, {figures['restart_s_mean']} s each) "
              f"in {figures['seconds']} s")  # fmt: skip
        for key in ("stored", "lost", "duplicates_stored", "duplicate_acks", "resends",
                    "in_flight_at_kills", "max_at_error_ms", "alerts_raised",
                    "alerts_acknowledged", "alerts_heard", "alerts_heard_twice", "statuses",
                    "statuses_equal_stored", "statuses_equal_planned",
                    "statuses_identical_planned"):  # fmt: skip
            print(f"  {key:22} {figures[key]}")
        print("  problems              " + ("; ".join(figures["problems"]) or "none"))
    return 0 if not figures["problems"] else 1


if __name__ == "__main__":
    sys.exit(main())

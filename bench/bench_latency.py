"""Measure tap-to-dashboard latency: ``pace serve`` against a bare Flask-SocketIO relay (issue 4).

Starts the real ``pace serve`` (gevent, as in production, ``synchronous=FULL``) over a
round of ``--groups`` groups, and a bare relay: a tiny Flask-SocketIO app in the same async
mode that only acks a marshal's event and forwards it to a room. Connects ``--marshals``
marshal and ``--dashboards`` dashboard clients to each (python-socketio, websocket
transport; every client follows the round, as the pages do, so a tap goes out to all of
them), then sends ``--taps`` taps, spread over the marshals, alternating between the two
servers so both see the same machine noise. A tap's latency runs from the marshal's emit
until *every* dashboard has received its ``hole_logged``; taps are sent one at a time
(``--gap`` ms apart), so this is latency, not queueing. Prints p50/p99 side by side and the
ratio; targets: pace p99 ≤ 30 ms and ≤ 1.5× the relay's.

The marshals run in a worker process and the dashboards here, both on gevent and without
websocket-client's pure-Python UTF-8 check: on one machine the 160 clients' own work
(parsing every broadcast) would otherwise be most of what is measured. ``perf_counter``
is the system's monotonic clock, so instants compare across the two processes.

The round is replayed live: the groups (four-balls off tee 1 every 10 min from 08:00) take
13 min a hole, pace's clock starts just before the first tap and runs ``--speed`` times
faster than real time, and each tap is sent when pace's clock reaches its instant, so the
field is evaluated in a realistic state (groups on the course, the scheduler ticking).

    python bench/bench_latency.py
    python bench/bench_latency.py --taps 600 --profile pace.prof   # cProfile the pace server
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    # The relay runs as pace does (gevent, patched first). The clients run on gevent too:
    # python-socketio's client starts a thread per received message, which would make the
    # bench measure its own thread starts; greenlets keep the client side cheap.
    from gevent import monkey

    monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402
from zoneinfo import ZoneInfo  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# child processes (``python -m pace``) run this checkout's code, not the last editable install
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
)

ROUND = "BENCH"
TZ = ZoneInfo("Europe/Brussels")
COURSE = ROOT / "tests" / "data" / "formats" / "course_louiseville.toml"
CONNECT_TIMEOUT = 10.0
WAIT = 5.0


# -- the relay ---------------------------------------------------------------------------------


def serve_relay(port: int) -> None:
    """Run the bare relay: ack a tap and forward it to the round's room, nothing else."""
    from flask import Flask
    from flask_socketio import SocketIO, join_room

    app = Flask(__name__)
    socketio = SocketIO(app, async_mode="gevent", cors_allowed_origins=[])

    @app.get("/ready")
    def ready() -> str:
        return "ok"

    @socketio.on("join_round")
    def join(payload):
        join_room(f"round:{payload['round']}")
        return {"ok": True}

    @socketio.on("hole_completed")
    def tap(payload):
        socketio.emit("hole_logged", payload, to=f"round:{payload['round']}")
        return {"ok": True, "id": payload["id"]}

    print(f"relay serving on {port}", flush=True)
    socketio.run(app, host="127.0.0.1", port=port, log_output=False)


# -- servers -----------------------------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str, process: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.05)  # bounded readiness poll
    process.kill()
    process.wait(timeout=10)
    raise SystemExit(f"server did not answer within {timeout} s:\n{log.read_text()}")


def write_draw(path: Path, groups: int) -> list[tuple[str, datetime]]:
    """Write a draw of ``groups`` four-balls off tee 1 every 10 min from 08:00."""
    lines = ["group,start,tee,player"]
    starts = []
    for g in range(1, groups + 1):
        start = datetime(2000, 1, 1, 8, 0) + timedelta(minutes=10 * (g - 1))
        starts.append((str(g), start))
        for p in range(1, 5):
            lines.append(f"{g},{start:%H:%M},1,Player {g}-{p}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return starts


def pace_cli(*args: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "pace", *args], cwd=cwd, check=True,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    return done.stdout


def sign_in(url: str, code: str) -> str:
    """Open a session with an access code (docs/access.md); return its token."""
    import urllib.request

    request = urllib.request.Request(
        url + "/api/session",
        data=json.dumps({"code": code}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())["token"]


def cpu_seconds(pid: int) -> float:
    """Return the CPU time process ``pid`` has used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Server:
    name: str
    url: str
    process: subprocess.Popen
    log: Path
    #: session tokens by role (pace only: the relay lets anyone in)
    tokens: dict[str, str] = field(default_factory=dict)

    def cpu_seconds(self) -> float:
        """Return the CPU time the server has used so far (Linux)."""
        return cpu_seconds(self.process.pid)

    def stop(self) -> None:
        # SIGINT lets `python -m cProfile` write its profile; then make sure it is gone
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def plan_taps(starts: list[tuple[str, datetime]], day) -> list[tuple[str, int, datetime]]:
    """Return every (group, hole, instant) of the round in time order: 13 min a hole."""
    taps = [
        (g, hole, datetime.combine(day, start.time(), tzinfo=TZ) + timedelta(minutes=13 * hole))
        for g, start in starts
        for hole in range(1, 19)
    ]
    return sorted(taps, key=lambda t: t[2])


def start_pace(
    folder: Path, groups: int, tick: float, speed: float, profile: str | None
) -> tuple[Server, list]:
    db = folder / "pace.db"
    draw = folder / "draw.csv"
    starts = write_draw(draw, groups)
    today = datetime.now(TZ).date()
    pace_cli("import", "course", str(COURSE), "--db", str(db), cwd=folder)
    pace_cli("import", "draw", str(draw), "--round", ROUND, "--date", today.isoformat(),
             "--timezone", "Europe/Brussels", "--db", str(db), cwd=folder)  # fmt: skip
    codes = {
        role: pace_cli("access", "code", "--round", ROUND, "--role", role, "--db", str(db),
                       cwd=folder).split("\t")[2].strip()
        for role in ("marshal", "referee")
    }  # fmt: skip
    taps = plan_taps(starts, today)
    origin = taps[0][2] - timedelta(minutes=1)
    port = free_port()
    log = folder / "pace.log"
    runner = [sys.executable]
    if profile:
        runner += ["-m", "cProfile", "-o", str(Path(profile).resolve())]
    with log.open("w") as out:
        process = subprocess.Popen(
            [*runner, "-m", "pace", "serve", "--db", str(db), "--host", "127.0.0.1",
             "--port", str(port), "--clock-origin", origin.isoformat(),
             "--clock-speed", str(speed), "--tick", str(tick)],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    wait_ready(url + "/", process, log)
    tokens = {role: sign_in(url, code) for role, code in codes.items()}
    return Server("pace", url, process, log, tokens), taps


def start_relay(folder: Path) -> Server:
    port = free_port()
    log = folder / "relay.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, __file__, "--serve-relay", "--port", str(port)],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    wait_ready(url + "/ready", process, log)
    return Server("relay", url, process, log)


# -- clients -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ServerClock:
    """pace's accelerated clock seen from here: ``server`` at ``perf`` and ``speed``."""

    perf: float
    server: datetime
    speed: float

    def now(self) -> datetime:
        return self.server + timedelta(seconds=(time.perf_counter() - self.perf) * self.speed)

    def perf_at(self, instant: datetime) -> float:
        return self.perf + (instant - self.server).total_seconds() / self.speed


def connect_client(url: str, token: str, device: str, handlers: dict | None = None):
    """Return a python-socketio client connected over websocket (``handlers``: event → fn)."""
    import socketio

    # websocket-client checks UTF-8 in pure Python (~0.8 ms for a group row), which would
    # make the bench measure its own clients; browsers do it natively
    c = socketio.Client(websocket_extra_options={"skip_utf8_validation": True})
    for event, handler in (handlers or {}).items():
        c.on(event, handler)
    c.connect(url, auth={"token": token, "device": device}, transports=["websocket"],
              wait_timeout=CONNECT_TIMEOUT)  # fmt: skip
    return c


def join(client, holes: list[int] | None = None) -> None:
    payload = {"round": ROUND, **({"holes": holes} if holes else {})}
    answer = client.call("join_round", payload, timeout=WAIT)
    assert answer and answer.get("ok"), answer


# -- the marshals' worker process ---------------------------------------------------------------


def marshal_worker(urls: list[str], tokens: list[str], n: int, ipc_port: int) -> None:
    """Connect ``n`` marshals to each server, then tap on request from the main process.

    Requests and answers are JSON lines on a loopback socket: ``{"side", "i", "payload"}``
    in, ``{"t0", "t_ack", "ack"}`` out (``perf_counter`` instants).
    """
    marshals = [
        [connect_client(url, token, f"marshal-{side}-{i}") for i in range(n)]
        for side, (url, token) in enumerate(zip(urls, tokens, strict=True))
    ]
    for side in marshals:
        for i, c in enumerate(side):
            join(c, [i % 18 + 1])
    ipc = socket.create_connection(("127.0.0.1", ipc_port))
    lines = ipc.makefile("r", encoding="utf-8")
    ipc.sendall(b"ready\n")
    for line in lines:
        request = json.loads(line)
        if request.get("quit"):
            break
        acked = threading.Event()
        answer: dict = {}

        def on_ack(*reply, answer=answer, acked=acked):
            answer.update(t_ack=time.perf_counter(), ack=reply[0] if reply else None)
            acked.set()

        marshal = marshals[request["side"]][request["i"] % n]
        answer["t0"] = time.perf_counter()
        marshal.emit("hole_completed", request["payload"], callback=on_ack)
        if not acked.wait(WAIT):
            answer.update(t_ack=None, ack=None)
        ipc.sendall((json.dumps(answer) + "\n").encode())
    for side in marshals:
        for c in side:
            c.disconnect()


@dataclass
class Marshals:
    """The worker process holding every marshal, and the line protocol to it."""

    process: subprocess.Popen
    conn: socket.socket
    lines: Any

    @classmethod
    def start(cls, servers: list[Server], n: int, folder: Path) -> Marshals:
        urls = [s.url for s in servers]
        tokens = [s.tokens.get("marshal", "-") for s in servers]
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(60)
        port = listener.getsockname()[1]
        log = folder / "marshals.log"
        with log.open("w") as out:
            process = subprocess.Popen(
                [sys.executable, __file__, "--marshal-worker", "--ipc-port", str(port),
                 "--marshals", str(n), "--urls", *urls, "--tokens", *tokens],
                stdout=out, stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            process.kill()
            raise SystemExit(f"the marshals did not connect:\n{log.read_text()}") from None
        finally:
            listener.close()
        lines = conn.makefile("r", encoding="utf-8")
        if lines.readline().strip() != "ready":
            raise SystemExit(f"the marshals failed:\n{log.read_text()}")
        return cls(process, conn, lines)

    def tap(self, side: int, i: int, payload: dict) -> dict:
        self.conn.sendall((json.dumps({"side": side, "i": i, "payload": payload}) + "\n").encode())
        return json.loads(self.lines.readline())

    def stop(self) -> None:
        try:
            self.conn.sendall(b'{"quit": true}\n')
            self.process.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(timeout=10)
        self.conn.close()


# -- the dashboards and the measure ----------------------------------------------------------


@dataclass
class Side:
    """One server with its dashboards, and the receipts of each tap."""

    index: int
    server: Server
    dashboards: list = field(default_factory=list)
    receipts: dict[str, list[float]] = field(default_factory=dict)
    done: dict[str, threading.Event] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    received: dict[str, int] = field(default_factory=dict)

    def connect(self, n_dashboards: int) -> None:
        handlers = {"hole_logged": self._receipt, "*": self._count}
        for i in range(n_dashboards):
            token = self.server.tokens.get("referee", "-")
            c = connect_client(self.server.url, token, f"dashboard-{i}", handlers)
            join(c)
            self.dashboards.append(c)

    def _count(self, name: str, *args) -> None:
        self.received[name] = self.received.get(name, 0) + 1

    def _receipt(self, event: dict) -> None:
        t = time.perf_counter()
        with self.lock:
            times = self.receipts.get(event["id"])
            if times is None:
                return
            times.append(t)
            if len(times) == len(self.dashboards):
                self.done[event["id"]].set()

    def server_clock(self, speed: float) -> ServerClock:
        """Estimate pace's rehearsal clock from ``clock_sync`` (shortest round trip wins)."""
        best = None
        for _ in range(7):
            t0 = time.perf_counter()
            answer = self.dashboards[0].call("clock_sync", {}, timeout=WAIT)
            t1 = time.perf_counter()
            if best is None or t1 - t0 < best[0]:
                best = (t1 - t0, (t0 + t1) / 2, datetime.fromisoformat(answer["server_time"]))
        return ServerClock(best[1], best[2], speed)

    def tap(
        self,
        marshals: Marshals,
        i: int,
        group: str,
        hole: int,
        at: datetime,
        device_now: datetime,
        *,
        measure: bool,
    ) -> None:
        tap_id = str(uuid.uuid4())
        payload = {"id": tap_id, "round": ROUND, "group": group, "hole": hole,
                   "at": at.isoformat(), "device_time": device_now.isoformat()}  # fmt: skip
        with self.lock:
            self.receipts[tap_id] = []
            self.done[tap_id] = threading.Event()
        answer = marshals.tap(self.index, i, payload)
        if answer["t_ack"] is None or not self.done[tap_id].wait(WAIT):
            raise SystemExit(f"{self.server.name}: tap {i} not delivered within {WAIT} s")
        if not (isinstance(answer["ack"], dict) and answer["ack"].get("ok")):
            raise SystemExit(f"{self.server.name}: tap {i} refused: {answer['ack']}")
        if measure:
            self.latencies.append(max(self.receipts[tap_id]) - answer["t0"])
            self.acks.append(answer["t_ack"] - answer["t0"])
        with self.lock:
            del self.receipts[tap_id], self.done[tap_id]

    def close(self) -> None:
        for c in self.dashboards:
            c.disconnect()


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--marshals", type=int, default=60)
    parser.add_argument("--dashboards", type=int, default=20)
    parser.add_argument("--taps", type=int, default=300, help="measured taps per server")
    parser.add_argument("--warmup", type=int, default=20, help="taps per server not measured")
    parser.add_argument("--groups", type=int, default=30)
    parser.add_argument("--gap", type=float, default=20, help="ms between two taps")
    parser.add_argument("--tick", type=float, default=5, help="pace's scheduler tick (s)")
    parser.add_argument("--speed", type=float, default=300, help="pace's clock speed")
    parser.add_argument("--profile", default=None, help="write pace's cProfile stats here")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--serve-relay", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--marshal-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--ipc-port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--urls", nargs="*", default=[], help=argparse.SUPPRESS)
    parser.add_argument("--tokens", nargs="*", default=[], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_relay:
        serve_relay(args.port)
        return
    if args.marshal_worker:
        marshal_worker(args.urls, args.tokens, args.marshals, args.ipc_port)
        return

    with tempfile.TemporaryDirectory(prefix="pace-bench-") as tmp:
        folder = Path(tmp)
        pace_server, taps = start_pace(folder, args.groups, args.tick, args.speed, args.profile)
        relay_server = start_relay(folder)
        needed = args.taps + args.warmup
        if needed > len(taps):
            raise SystemExit(f"{needed} taps asked; the draw has {len(taps)} (raise --groups)")
        sides = [Side(0, pace_server), Side(1, relay_server)]
        marshals = None
        try:
            t0 = time.perf_counter()
            for side in sides:
                side.connect(args.dashboards)
            marshals = Marshals.start([s.server for s in sides], args.marshals, folder)
            print(f"connected {2 * (args.marshals + args.dashboards)} clients"
                  f" in {time.perf_counter() - t0:.1f} s", flush=True)  # fmt: skip
            clock = sides[0].server_clock(args.speed)
            for i, (group, hole, at) in enumerate(taps[:needed]):
                # the group holes out when pace's clock reaches ``at`` (a bench's pacing)
                time.sleep(max(0.0, clock.perf_at(at) - time.perf_counter()))
                for side in sides:
                    device_now = clock.now()
                    side.tap(marshals, i, group, hole, at, device_now, measure=i >= args.warmup)
                    time.sleep(args.gap / 1000)  # spacing between two taps
            cpu = [side.server.cpu_seconds() for side in sides]
            cpu += [sum(os.times()[:2]), cpu_seconds(marshals.process.pid)]
        finally:
            if marshals is not None:
                marshals.stop()
            for side in sides:
                side.close()
            for side in sides:
                side.server.stop()

    pace, relay = sides
    rows = [
        ("tap → every dashboard, p50", quantile(pace.latencies, 0.5),
         quantile(relay.latencies, 0.5)),
        ("tap → every dashboard, p99", quantile(pace.latencies, 0.99),
         quantile(relay.latencies, 0.99)),
        ("tap → every dashboard, max", max(pace.latencies), max(relay.latencies)),
        ("tap → ack, p50", quantile(pace.acks, 0.5), quantile(relay.acks, 0.5)),
        ("tap → ack, p99", quantile(pace.acks, 0.99), quantile(relay.acks, 0.99)),
    ]  # fmt: skip
    print(f"\n{args.taps} taps per server, {args.marshals} marshals + {args.dashboards}"
          f" dashboards each, {args.groups} groups, {args.gap:g} ms apart (ms)")  # fmt: skip
    print(f"{'':30} {'pace':>8} {'relay':>8} {'ratio':>6}")
    for label, p, r in rows:
        print(f"{label:30} {ms(p):>8} {ms(r):>8} {p / r:6.2f}")
    p99, r99 = rows[1][1], rows[1][2]
    ok = p99 <= 0.030 and p99 <= 1.5 * r99
    print(f"\ntarget p99 ≤ 30 ms and ≤ 1.5× relay: {'met' if ok else 'MISSED'}"
          f" (p99 {p99 * 1000:.1f} ms, {p99 / r99:.2f}× relay)")  # fmt: skip
    per_dashboard = {
        side.server.name: {k: v // args.dashboards for k, v in sorted(side.received.items())}
        for side in sides
    }
    print(f"CPU seconds: pace {cpu[0]:.1f}, relay {cpu[1]:.1f},"
          f" dashboards {cpu[2]:.1f}, marshals {cpu[3]:.1f}")  # fmt: skip
    print(f"events received per dashboard: {per_dashboard}")
    if args.json:
        print(json.dumps({label: {"pace_ms": p * 1000, "relay_ms": r * 1000}
                          for label, p, r in rows}))  # fmt: skip
    if args.profile:
        print(f"pace profile written to {args.profile}"
              f" (python -m pstats {args.profile}; sort cumtime; stats 30)")  # fmt: skip


if __name__ == "__main__":
    main()

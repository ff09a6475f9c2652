"""Measure what a referee sees: a tap's row and alert on every dashboard, pace against relays.

Issue 13. Starts the real ``pace serve`` (gevent, ``synchronous=FULL``, the scheduler ticking)
over a round of ``--groups`` three-balls, and relays: tiny Flask-SocketIO apps in the same async
mode and on the same server (``pace.web.server``: Nagle's algorithm off, as pace), each in its
own process. ``--relay`` chooses them (``both`` by default):

- the **bare relay** (issue 50), the floor: it acks a marshal's tap and re-emits the tap alone,
  numbered like pace's deltas, to the round's room the dashboards are in; the marshals hear
  nothing. A dashboard counts the tap as shown when it hears it: that one message is the tap's
  row, and for a tap that makes an alert its alert too (an alert's floor is also one message to
  the dashboards). It is what a referee's dashboard and 60 marshals' phones could see at best.
- the **forwarding relay** (issue 13): it acks a tap and forwards what pace sends for it (the
  stored event, a group row of the same shape and size, an alert), numbered, to the rooms pace
  sends them to: the row to every page, marshals included, the event and the alert to the
  dashboards only (pace's marshals' room hears neither: docs/protocol.md). Sending every
  marshal a row per tap, where pace sends a marshal only the rows its page shows, it is slower
  than the floor and flatters pace's ratio.
- the **durable relay** (``--relay bare,durable``; no target, a reading): the bare relay once
  the tap is committed to a SQLite file as pace commits a fact (WAL, ``synchronous=FULL``, in
  the handler, as pace does while the disk is fast). It is the floor of a tool that, like
  pace, keeps a marshal's tap before it shows it; the bench prints pace's ratio to it and how
  many taps it committed.

Each server has its own client process (lean Socket.IO clients on gevent, websocket transport):
``--marshals`` marshals and ``--dashboards`` dashboards that behave like the real page: they join
(the snapshot), apply the deltas as they come, and re-read the snapshot once when they see a
delta's number skip; a server that numbers no deltas (before issue 13) gets what the page did
then: the snapshot read again 250 ms after each fact.

The round is replayed live: every completion of the round (about 18 × ``--groups`` taps; slow
groups fall out of position, the groups behind them are held up), each sent when pace's
accelerated clock reaches its instant, one tap at a time to each server in turn (which goes
first turns with every tap). A tap's **row** latency runs from the marshal's emit until every
dashboard holds the ``group_updated`` row that shows the tap (the bare relay's: until every
dashboard heard the tap); its **alert** latency, for a tap that puts a group out of (or back in)
position, until every dashboard holds that alert (the relays: every tap, each making one).
``perf_counter`` is the system's monotonic clock, read within one client process for each
measure.

Prints p50/p99 of both for every server (and of the row's time to the first dashboard that
holds it: the rest is the fan-out and the clients' reading) and pace's ratio to each relay,
and says MET or MISSED
against two targets: issue 50's, pace's row p99 and alert p99 ≤ 1.5× the bare relay's; and issue
13's, pace's row p99 ≤ 1.5× the forwarding relay's and its p50 ≤ 2× (issue 37).

``--positions N`` (issue 48) also measures what the groups' phones cost the taps: the round
allows positions and its course has its map (the demo's drawing of it), and N phones, each a
scorer's session on its own socket in a process of their own, agree to share their group's
position (phone i, group i modulo the field) and then, while switched on, each send
``send_positions`` every 15 s of real time: one fix where their group is on pace's clock
(``pace.demo.phones.walk`` of its bench round, 5-12 m off). The phones are switched on and off
every ``--spell`` seconds during the measured run, so pace's row latencies fall in two bins of
the same run; it prints the row p99 with and without the phones, the ratio, and MET or MISSED
against issue 48's "≤ 10 % added to the tap's p99". At an accelerated clock a phone's fix every
15 real seconds is a fix every 15 × speed seconds of pace's clock: the trackers rarely infer a
completion, so what is measured is each message's handling, not the completions' appends.

``--spans [FILE]`` (issue 50) says where pace's time goes in each tap: pace is started through
``bench/spans.py``, which times its steps (the session's look-up, the tap checked, stored and
folded, the commit, the tapped row judged, the estimates, the first stage's send, the whole
event, the scheduler's tick) in the served process and writes each call when pace stops (to
FILE if given). Each measured tap gets the calls that started while its row was on its way,
and the bench prints each step's p50, p90, p99 and its mean over the slowest 5 % of taps, the
time from the tap to its first stage's send and from there to every dashboard, and the taps
whose row was on its way while the scheduler ticked (with the row p99 without them). Pace and
the relays also note each row frame they write (``spans.trace_frames``), and the bench splits
every server's rows in three: the tap to the server's first write of its row, that write to its
last to a dashboard (the server's fan-out), and that one to every dashboard holding the row (the
clients' reading: one process reads the twenty dashboards, one after the other).

``--pin`` keeps the servers on the first core the bench may use and every client process on
the others. Without it a dashboards' process woken by the server's first write can take the
server's core, and the server's next writes wait for it: the bench then measures its own
clients (docs/performance.md, "Seventh pass"). Real dashboards are other devices.

    python bench/bench_latency.py
    python bench/bench_latency.py --groups 20 --speed 600          # a shorter run
    python bench/bench_latency.py --relay bare                      # against the floor only
    python bench/bench_latency.py --profile pace.prof               # cProfile the pace server
    python bench/bench_latency.py --relay bare --spans              # where pace's time goes
    python bench/bench_latency.py --relay bare,durable --pin        # clients off pace's core
    python bench/bench_latency.py --groups 240 --tees 4 --speed 50   # a large field, four tees
    python bench/bench_latency.py --groups 120 --tees 2 --speed 75   # 120 groups, two tees
    python bench/bench_latency.py --positions 240 --speed 300         # 240 phones, 4 fixes a min
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    # The relay runs as pace does (gevent, patched first), and so do the client processes:
    # python-socketio's client starts a thread per received message otherwise.
    from gevent import monkey

    monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import urllib.error  # noqa: E402
import urllib.request  # noqa: E402
import uuid  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from datetime import date, datetime, timedelta  # noqa: E402
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
#: a three-ball's minutes per par (pace's default split of the federation's average)
ALLOT = {3: 11, 4: 14, 5: 17}
PARS = {}  # hole number -> par, read from the course file
CONNECT_TIMEOUT = 20.0
WAIT = 10.0
#: how long after a tap its alert may come and still be the tap's (a later one is a tick's)
ALERT_WINDOW = 2.0
#: the alerts a tap raises (the others come from the clock, at a tick)
TAP_ALERTS = ("out_of_position", "back_in_position")
#: a phone's cadence (real seconds) while it shares (issue 48: about every 15 s)
PHONE_EVERY = 15.0


def read_pars() -> dict[int, int]:
    import tomllib

    data = tomllib.loads(COURSE.read_text(encoding="utf-8"))
    return {int(h["number"]): int(h["par"]) for h in data["holes"]}


# -- the relay ---------------------------------------------------------------------------------


def relay_row(group: str, start: datetime, holes: dict[str, dict], at: str) -> dict[str, Any]:
    """Return a group row of pace's shape and size (docs/protocol.md, group rows)."""
    due = [(start + timedelta(minutes=14 * k)).isoformat() for k in range(1, 19)]
    return {
        "group": group, "status": "on_pace", "holes_completed": len(holes), "lead": False,
        "over_min": -1.25, "gap_min": 8.5, "interval_min": 8.0, "tee": 1,
        "start": start.isoformat(), "players": [f"Player {group}-{p}" for p in (1, 2, 3)],
        "order": list(range(1, 19)), "hole": len(holes) + 1,
        "projected_finish": due[-1], "due": due, "holes": holes, "at": at, "moving": [],
    }  # fmt: skip


def serve_relay(port: int, groups: int, kind: str = "forward", frames: str = "") -> None:
    """Run a relay: ``forward`` acks a tap and forwards its event, a row and an alert,
    numbered; ``bare`` acks it and re-emits the tap alone, numbered, to the dashboards;
    ``durable`` does what ``bare`` does once the tap is committed to a SQLite file as pace
    commits a fact (WAL, ``synchronous=FULL``: an fsync; ``DURABLE_DB`` in its folder).
    ``frames``: note the frames it writes there, as pace's launcher does (``--spans``)."""
    from flask import Flask, jsonify
    from flask_socketio import SocketIO, join_room

    app = Flask(__name__)
    socketio = SocketIO(app, async_mode="gevent", cors_allowed_origins=[])
    starts = {str(g): datetime(2026, 1, 1, 8, 0) + timedelta(minutes=8 * (g - 1))
              for g in range(1, groups + 1)}  # fmt: skip
    holes: dict[str, dict[str, dict]] = {g: {} for g in starts}
    #: the bare relay's taps, for a snapshot read again after a skipped number
    taps: list[dict[str, Any]] = []
    state = {"rev": 0}

    def snapshot() -> dict[str, Any]:
        now = datetime.now().isoformat()
        if kind == "bare":
            # what the taps show: each tap its group's hole (the dashboard's row) and its alert
            return {"round": ROUND, "rev": state["rev"], "at": now, "groups": bare_rows(taps),
                    "alerts": [bare_alert(t) for t in taps]}  # fmt: skip
        rows = [relay_row(g, s, holes[g], now) for g, s in starts.items()]
        return {"round": ROUND, "rev": state["rev"], "at": now, "groups": rows, "alerts": []}

    @app.get("/ready")
    def ready() -> str:
        return "ok"

    @app.get("/api/rounds/<round>/snapshot")
    def http_snapshot(round: str) -> Any:
        return jsonify({"ok": True, "snapshot": snapshot()})

    @socketio.on("clock_sync")
    def clock_sync(payload):
        return {"ok": True, "server_time": datetime.now().astimezone().isoformat()}

    @socketio.on("join_round")
    def join(payload):
        # pace's rooms: a marshal (who follows holes) hears the rows (and the ends of alerts,
        # which the relay never sends), a dashboard everything
        join_room(f"{'marshals' if payload.get('holes') else 'round'}:{payload['round']}")
        return {"ok": True, "snapshot": snapshot()}

    def forward(payload):
        room = f"round:{payload['round']}"
        both = [room, f"marshals:{payload['round']}"]
        group, hole = str(payload["group"]), str(payload["hole"])
        now = datetime.now().astimezone().isoformat()
        holes[group][hole] = {"at": payload["at"], "over_min": 0.5, "id": payload["id"]}
        event = {"id": payload["id"], "type": "hole_completed", "round": payload["round"],
                 "at": payload["at"], "recorded_at": now, "seq": 1,
                 "by": {"role": "marshal", "device": "relay"},
                 "payload": {"group": group, "hole": int(hole), "device_at": payload["at"],
                             "clock_offset_ms": 0.0, "clock_source": "send"}}  # fmt: skip
        socketio.emit("hole_logged", event, to=room)
        state["rev"] += 1
        row = relay_row(group, starts[group], holes[group], now)
        socketio.emit("group_updated", {"round": ROUND, "rev": state["rev"], "group": row}, to=both)
        state["rev"] += 1
        alert = {"id": str(uuid.uuid4()), "key": f"out_of_position:{group}:{payload['at']}",
                 "kind": "out_of_position", "group": group, "hole": int(hole),
                 "over_min": 2.5, "gap_min": 9.0, "at": payload["at"]}  # fmt: skip
        socketio.emit("alert_raised", {"round": ROUND, "rev": state["rev"], "alert": alert},
                      to=room)  # fmt: skip
        return {"ok": True, "id": payload["id"], "seq": 1, "at": payload["at"],
                "duplicate": False}  # fmt: skip

    def bare(payload):
        # the floor (issue 50): one message per tap, to the dashboards' room only; the
        # marshals hear nothing. It is the dashboard's row and, for a tap that makes an
        # alert, its alert too (an alert's floor is also one message to the dashboards).
        state["rev"] += 1
        taps.append(payload)
        socketio.emit("hole_completed", {"round": ROUND, "rev": state["rev"], "tap": payload},
                      to=f"round:{payload['round']}")  # fmt: skip
        return {"ok": True, "id": payload["id"]}

    if kind == "durable":
        import sqlite3

        db = sqlite3.connect(DURABLE_DB, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE IF NOT EXISTS taps (id TEXT PRIMARY KEY, tap TEXT NOT NULL)")
        kept = threading.Lock()

        def durable(payload):
            # the floor of a tool that keeps a tap before it shows it: committed (its fsync)
            # in the handler, as pace commits while the disk is fast, then shown as the bare
            # relay shows it; a resent tap is stored once
            with kept:
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO taps (id, tap) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
                           (str(payload["id"]), json.dumps(payload)))  # fmt: skip
                db.execute("COMMIT")
            return bare(payload)

        socketio.on_event("hole_completed", durable)
    else:
        socketio.on_event("hole_completed", bare if kind == "bare" else forward)
    print(f"{kind} relay serving on {port}", flush=True)
    # the server pace serves on (Nagle's algorithm off): socketio.run's would hold the relay's
    # second frame of a tap (its row) for the client's delayed ACK, ~40 ms, and flatter pace
    from pace.web.server import wsgi_server

    if frames:
        import spans

        # stopped with SIGINT (the bench's ``Server.stop``), even started in the background
        signal.signal(signal.SIGINT, signal.default_int_handler)
        spans.trace_frames(frames)
    wsgi_server(app, "127.0.0.1", port).serve_forever()


def bare_rows(taps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the rows the bare relay's taps show: each group's holes, with the taps' ids."""
    rows: dict[str, dict[str, Any]] = {}
    for t in taps:
        row = rows.setdefault(str(t["group"]), {"group": str(t["group"]), "holes": {}})
        row["holes"][str(t["hole"])] = {"at": t["at"], "id": t["id"]}
    return list(rows.values())


def bare_alert(tap: dict[str, Any]) -> dict[str, Any]:
    """Return the alert a dashboard counts when it hears the bare relay's ``tap``."""
    return {"key": f"tap:{tap['id']}", "kind": "out_of_position", "group": str(tap["group"]),
            "hole": int(tap["hole"])}  # fmt: skip


# -- servers -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str, process: subprocess.Popen, log: Path, timeout: float = 30) -> None:
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


def pace_cli(*args: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "pace", *args], cwd=cwd, check=True,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    return done.stdout


def sign_in(url: str, code: str) -> str:
    """Open a session with an access code (docs/access.md); return its token."""
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

    def stop(self) -> None:
        # SIGINT lets `python -m cProfile` write its profile; then make sure it is gone
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


@dataclass(frozen=True)
class Tap:
    group: str
    hole: int
    at: datetime


#: the tees a field of several tees starts from, in the order groups are dealt to them
TEES = (1, 10, 5, 14)


def group_start(g: int, day: date, tees: int = 1) -> datetime:
    """Return group ``g``'s start: every 8 min from 08:00 off each of its ``tees``."""
    return datetime.combine(day, datetime.min.time(), tzinfo=TZ) + timedelta(
        hours=8, minutes=8 * ((g - 1) // tees)
    )


def plan_round(groups: int, day: date, seed: int = 13, tees: int = 1) -> tuple[str, list[Tap]]:
    """Return the draw CSV (three-balls off tee 1 every 8 min from 08:00; with ``tees`` > 1,
    dealt in turn to tees 1, 10, 5 and 14, each every 8 min: a large field on one day) and
    every tap.

    Each group plays each hole near its allotment; every seventh group is slow (1 to 3 minutes
    a hole), and a group never completes a hole less than a minute after the group ahead (from
    its tee).
    """
    rng = random.Random(seed)
    lines = ["group,start,tee,player"]
    taps: list[Tap] = []
    previous: dict[tuple[int, int], datetime] = {}
    for g in range(1, groups + 1):
        tee = TEES[(g - 1) % tees]
        start = group_start(g, day, tees)
        for p in range(1, 4):
            lines.append(f"{g},{start.astimezone(TZ):%H:%M},{tee},Player {g}-{p}")
        slow = g % 7 == 3
        at = start
        for hole in [*range(tee, 19), *range(1, tee)]:
            at += timedelta(minutes=ALLOT[PARS[hole]] + (rng.choice((1, 2, 3)) if slow else 0),
                            seconds=rng.randint(-45, 45))  # fmt: skip
            ahead = previous.get((tee, hole))
            if ahead is not None and at < ahead + timedelta(minutes=1):
                at = ahead + timedelta(minutes=1, seconds=rng.randint(0, 30))
            previous[(tee, hole)] = at
            taps.append(Tap(str(g), hole, at))
    taps.sort(key=lambda t: t.at)
    return "\n".join(lines) + "\n", taps


def pin(process: subprocess.Popen, args, server: bool) -> None:
    """``--pin``: keep a server on the first of the cores this bench may use, and a client
    process on the others (the dashboards and the phones are other devices: their reading
    does not take the server's core); without it the system places them."""
    if args.pin:
        os.sched_setaffinity(process.pid, set(CORES[:1]) if server else set(CORES[1:]))
        PINNED["servers" if server else "clients"].update(os.sched_getaffinity(process.pid))


#: the cores this bench may use (``--pin``), read when it starts
CORES: list[int] = []
#: the cores the servers' and the clients' processes were kept on (``--pin``), read back
PINNED: dict[str, set[int]] = {"servers": set(), "clients": set()}


def start_pace(folder: Path, draw: str, day: date, origin: datetime, args) -> Server:
    db = folder / "pace.db"
    (folder / "draw.csv").write_text(draw, encoding="utf-8")
    pace_cli("import", "course", str(COURSE), "--db", str(db), cwd=folder)
    pace_cli("import", "draw", str(folder / "draw.csv"), "--round", ROUND, "--date",
             day.isoformat(), "--timezone", "Europe/Brussels", "--db", str(db),
             cwd=folder)  # fmt: skip
    roles = ["marshal", "referee"]
    if args.positions:
        # the course's map (the demo's drawing of it) and the round allowing positions
        osm = folder / "course.osm"
        osm.write_text(course_osm(), encoding="utf-8")
        pace_cli("import", "geometry", str(osm), "--course", course_name(), "--db", str(db),
                 cwd=folder)  # fmt: skip
        pace_cli("round", "positions", "on", "--round", ROUND, "--db", str(db), cwd=folder)
        roles.append("scorer")
    codes = {
        role: pace_cli("access", "code", "--round", ROUND, "--role", role, "--db", str(db),
                       cwd=folder).split("\t")[2].strip()
        for role in roles
    }  # fmt: skip
    port = free_port()
    log = folder / "pace.log"
    runner = [sys.executable]
    if args.profile:
        runner += ["-m", "cProfile", "-o", str(Path(args.profile).resolve()), "-m", "pace"]
    elif args.spans is not None:
        # pace's steps timed by the launcher (bench/spans.py), written when it stops
        runner += [str(Path(__file__).with_name("spans.py")), str(spans_file(args, folder))]
    else:
        runner += ["-m", "pace"]
    with log.open("w") as out:
        process = subprocess.Popen(
            [*runner, "serve", "--db", str(db), "--host", "127.0.0.1",
             "--port", str(port), "--clock-origin", origin.isoformat(),
             "--clock-speed", str(args.speed), "--tick", str(args.tick)],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    pin(process, args, server=True)
    url = f"http://127.0.0.1:{port}"
    wait_ready(url + "/", process, log)
    tokens = {role: sign_in(url, code) for role, code in codes.items()}
    return Server("pace", url, process, log, tokens)


def spans_file(args, folder: Path) -> Path:
    """Return where pace's timed steps are written (``--spans``: the path given, else the
    run's folder)."""
    return Path(args.spans).resolve() if args.spans else folder / "spans.json"


def read_spans(path: Path) -> dict[str, Any] | str:
    """Return the calls pace's launcher wrote (``bench/spans.py``), or why there are none."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return f"pace wrote none to {path} ({e})"


def durable_taps(folder: Path) -> int:
    """Return how many taps the durable relay's file holds."""
    import sqlite3

    with sqlite3.connect(folder / DURABLE_DB) as db:
        return int(db.execute("SELECT count(*) FROM taps").fetchone()[0])


def relay_frames(folder: Path, kind: str) -> Path:
    """Return where a relay writes its frames (``--spans``)."""
    return folder / f"frames-{kind}.json"


def spansmod() -> Any:
    """Return ``bench/spans.py``, the launcher's module."""
    here = str(Path(__file__).parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import spans

    return spans


def print_fan_out(frames: dict[str, Any], clients: list[Clients], dashboards: int) -> None:
    """Print, for each server, its measured taps' rows in three parts (``spans.fan_out``):
    the tap to the server's first write of its row, that write to its last to a dashboard (the
    server's fan-out), and that one to every dashboard holding the row (the clients' reading,
    one client process for every dashboard). The forwarding relay is left out: it writes a
    row to the dashboards and the marshals in one emit, so its first writes are not the
    dashboards' alone."""
    clients = [c for c in clients if c.server.name != "forward"]
    print(f"\nthe row's way, server and clients (--spans; ms; the server's writes noted in"
          f" the process; {dashboards} dashboards read by one client process)")  # fmt: skip
    parts = (("before", "tap → the server's first write of its row"),
             ("server", "first write → last dashboard's write"),
             ("clients", "last write → every dashboard holds it"))  # fmt: skip
    print(f"{'':44}" + "".join(f" {c.server.name + ' ' + q:>12}" for c in clients
                                for q in ("p50", "p99")))  # fmt: skip
    series = {}
    for c in clients:
        got = frames.get(c.server.name)
        if isinstance(got, str) or got is None:
            print(f"{c.server.name}: no frames ({got})")
            return
        taps = list(zip(c.ids, c.sent, c.rows, strict=True))
        series[c.server.name] = spansmod().fan_out(got, taps, dashboards)
    for key, label in parts:
        print(f"{label:44}" + "".join(
            f" {quantile(series[c.server.name][key], q) * 1000:12.2f}"
            for c in clients for q in (0.5, 0.99)))  # fmt: skip
    print("taps whose row's writes were found: "
          + ", ".join(f"{c.server.name} {len(series[c.server.name]['before'])} of {len(c.ids)}"
                      for c in clients))  # fmt: skip


def print_spans(calls: dict[str, Any] | str, taps: list[tuple[float, float]]) -> None:
    """Print, for pace's measured taps, the time of each step of ``bench/spans.py`` (p50,
    p90, p99 and the mean over the slowest 5 % of taps by row latency), the time before the
    first stage's send and after it, the taps whose row was on its way during a tick, and
    those sent while pace still ran an earlier event."""
    spans = spansmod()
    if isinstance(calls, str):
        print(f"\nno spans: {calls}")
        return
    series = spans.attribute(calls, taps)
    slow = sorted(range(len(taps)), key=lambda i: -taps[i][1])[: max(1, len(taps) // 20)]
    print(f"\nwhere pace's time goes (--spans; {len(taps)} taps, ms; a step's time in a tap is"
          " the calls that started while its row was on its way; the indented steps are part"
          " of the one above, the fold is read inside several of them: the lines do not add"
          " up; the timers make this run a little slower than one without)")  # fmt: skip
    print(f"{'step':40} {'p50':>7} {'p90':>7} {'p99':>7} {'slowest 5 %':>12}")
    rows = [("row: tap → every dashboard", [r for _, r in taps])]
    apart = ("during a tick", "behind an earlier event", spans.TICK)
    rows += [(k, v) for k, v in series.items() if k not in apart]
    for label, values in rows:
        mean = sum(values[i] for i in slow) / len(slow)
        print(f"{label:40} {quantile(values, 0.5) * 1000:7.2f} {quantile(values, 0.9) * 1000:7.2f}"
              f" {quantile(values, 0.99) * 1000:7.2f} {mean * 1000:12.2f}")  # fmt: skip
    ticking = series["during a tick"]
    quiet = [r for (_, r), t in zip(taps, ticking, strict=True) if not t]
    print(f"taps whose row was on its way during a scheduler tick: {int(sum(ticking))} of"
          f" {len(taps)} ({sum(ticking[i] for i in slow):.0f} of the slowest 5 %); row p99"
          f" without them {quantile(quiet, 0.99) * 1000:.2f} ms, with them"
          f" {quantile([r for _, r in taps], 0.99) * 1000:.2f} ms")  # fmt: skip
    behind = series["behind an earlier event"]
    free = [r for (_, r), b in zip(taps, behind, strict=True) if not b]
    waited = [r for (_, r), b in zip(taps, behind, strict=True) if b]
    if taps:
        # (either group may be empty: every tap free in a closed-loop bench, or every one behind)
        parts = [f"; row p50/p99 of {name} {quantile(rows, 0.5) * 1000:.2f}/"
                 f"{quantile(rows, 0.99) * 1000:.2f} ms"
                 for name, rows in (("those", waited), ("the others", free)) if rows]  # fmt: skip
        print(f"taps sent while pace still ran an earlier event: {int(sum(behind))} of"
              f" {len(taps)} ({sum(behind[i] for i in slow):.0f} of the slowest 5 %)"
              + "".join(parts))  # fmt: skip


def start_relay(folder: Path, groups: int, kind: str, args) -> Server:
    port = free_port()
    log = folder / f"relay-{kind}.log"
    frames = ["--frames", str(relay_frames(folder, kind))] if args.spans is not None else []
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, __file__, "--serve-relay", kind, "--port", str(port),
             "--groups", str(groups), *frames],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    pin(process, args, server=True)
    url = f"http://127.0.0.1:{port}"
    wait_ready(url + "/ready", process, log)
    return Server(kind, url, process, log)


# -- a client process: one server's marshals and dashboards ----------------------------------


class LeanClient:
    """A Socket.IO 5 / Engine.IO 4 client over one websocket, as cheap as a browser's.

    python-socketio's client spends ~0.2 ms of pure Python per received message (and a
    greenlet each), which, for 80 clients in one process, would make the bench measure its own
    clients. This one reads frames in one greenlet per connection, answers pings, parses a
    message (orjson, native like a browser's) only when it has a handler for its event, and
    calls handlers inline, in order, as a page's single thread does.
    """

    def __init__(self, url: str, auth: dict, handlers: dict | None = None):
        import gevent
        import websocket

        self.handlers = handlers or {}
        self.acks: dict[int, Any] = {}
        self.next_id = 0
        self.received: dict[str, int] = {}
        self.closed = False
        ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        self.ws = websocket.create_connection(ws_url, timeout=CONNECT_TIMEOUT,
                                              skip_utf8_validation=True,
                                              enable_multithread=True)  # fmt: skip
        opened = self.ws.recv()
        assert opened.startswith("0"), opened
        self.ws.send("40" + json.dumps(auth))
        answer = self.ws.recv()
        while answer.startswith("42"):  # pace probes the clock before it says connected
            answer = self.ws.recv()
        assert answer.startswith("40"), answer
        self.ws.settimeout(None)
        self.reader = gevent.spawn(self._read)

    def _read(self) -> None:
        import orjson

        while not self.closed:
            try:
                frame = self.ws.recv()
            except Exception:  # the connection ended (closing, or the server stopped)
                return
            if not frame:
                continue
            if frame == "2":
                self.ws.send("3")
            elif frame.startswith("42"):
                body = frame[2:]
                if body[:1].isdigit():  # an ack id: the dashboards ask for no ack
                    digits = len(body) - len(body.lstrip("0123456789"))
                    body = body[digits:]
                name = body[2 : body.index('"', 2)]
                self.received[name] = self.received.get(name, 0) + 1
                handler = self.handlers.get(name)
                if handler is not None:
                    data = orjson.loads(body)
                    handler(data[1] if len(data) > 1 else None)
                # a clock probe (``ack_id``) goes unanswered: the bench's clock is pace's
                # accelerated one, which each tap's ``device_time`` gives (the "send" offset)
            elif frame.startswith("43"):
                body = frame[2:]
                digits = len(body) - len(body.lstrip("0123456789"))
                callback = self.acks.pop(int(body[:digits]), None)
                if callback is not None:
                    data = orjson.loads(body[digits:])
                    callback(data[0] if data else None)

    def emit(self, event: str, data: Any, callback=None) -> None:
        if callback is None:
            self.ws.send("42" + json.dumps([event, data]))
            return
        self.next_id += 1
        self.acks[self.next_id] = callback
        self.ws.send(f"42{self.next_id}" + json.dumps([event, data]))

    def call(self, event: str, data: Any, timeout: float = WAIT) -> Any:
        done = threading.Event()
        answer: list = []
        self.emit(event, data, lambda reply: (answer.append(reply), done.set()))
        if not done.wait(timeout):
            raise TimeoutError(f"no answer to {event} within {timeout} s")
        return answer[0]

    def disconnect(self) -> None:
        self.closed = True
        try:
            self.ws.send("41")
            self.ws.close()
        except Exception:  # already gone
            pass


def connect_client(url: str, token: str, device: str, handlers: dict | None = None) -> LeanClient:
    """Return a client connected over websocket (``handlers``: event → fn)."""
    return LeanClient(url, {"token": token, "device": device}, handlers)


#: the facts after which the page of before issue 13 read the snapshot again (250 ms later)
LEGACY_FACTS = ("hole_logged", "hole_time_corrected", "event_voided", "siren_recorded",
                "stroke_recorded")  # fmt: skip
#: the deltas a page applies (each carries the round's next ``rev``)
DELTAS = ("group_updated", "alert_raised", "alert_acknowledged", "alert_resolved",
          "penalties_changed", "timing_changed", "round_changed")  # fmt: skip
#: the bare relay's one message per tap: the tap itself, numbered (the row and the alert); the
#: durable relay's too
BARE_TAP = "hole_completed"
#: the durable relay's SQLite file, in the bench's folder
DURABLE_DB = "relay-durable.db"
#: the relays ``--relay`` may name
RELAYS = ("forward", "bare", "durable")


def relay_kinds(value: str) -> list[str]:
    """Return the relays ``--relay`` names: ``both`` (the forwarding and the bare relay, the
    default), or a comma-separated list of :data:`RELAYS`."""
    kinds = ["forward", "bare"] if value == "both" else [k.strip() for k in value.split(",")]
    unknown = [k for k in kinds if k not in RELAYS]
    if unknown or not kinds or len(set(kinds)) < len(kinds):
        raise argparse.ArgumentTypeError(
            f"{value!r}: say both, or some of {', '.join(RELAYS)} once each, comma-separated"
        )
    return kinds


class Dashboard:
    """A referee's dashboard as the page behaves: snapshot, deltas, one re-read on a gap."""

    def __init__(self, worker: Worker, index: int):
        self.worker = worker
        self.index = index
        self.rows: dict[str, dict] = {}
        self.alerts: dict[str, dict] = {}
        self.rev: int | None = None
        self.legacy = False
        self.reading = False
        self.pending: list[tuple[str, dict]] = []
        self.rereads = 0
        self.timer = None
        handlers: dict[str, Any] = {name: self._handler(name) for name in (*DELTAS, BARE_TAP)}
        for name in LEGACY_FACTS:
            handlers[name] = self._fact
        self.client = connect_client(worker.url, worker.tokens.get("referee", "-"),
                                     f"dashboard-{index}", handlers)  # fmt: skip
        answer = self.client.call("join_round", {"round": ROUND}, timeout=WAIT)
        assert answer and answer.get("ok"), answer
        self._apply_snapshot(answer["snapshot"])

    def _apply_snapshot(self, snapshot: dict) -> None:
        self.legacy = "rev" not in snapshot
        self.rows = {r["group"]: r for r in snapshot["groups"]}
        self.alerts = {a["key"]: a for a in snapshot.get("alerts", [])}
        self.rev = snapshot.get("rev")
        now = time.perf_counter()
        for row in snapshot["groups"]:
            self.worker.saw_row(self.index, row, now)
        for a in snapshot.get("alerts", []):
            self.worker.saw_alert(self.index, a, now)
        pending, self.pending = self.pending, []
        for name, msg in pending:
            if self.rev is not None and msg.get("rev", 0) > self.rev:
                self._delta(name, msg)

    def _reread(self) -> None:
        self.rereads += 1
        self.reading = True
        request = urllib.request.Request(
            f"{self.worker.url}/api/rounds/{ROUND}/snapshot",
            headers={"Authorization": f"Bearer {self.worker.tokens.get('referee', '-')}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as r:
                body = json.loads(r.read())
        finally:
            self.reading = False
        self._apply_snapshot(body["snapshot"])

    def _handler(self, name: str):
        def handle(msg: dict) -> None:
            if self.reading or self.rev is None and not self.legacy:
                self.pending.append((name, msg))
                return
            self._delta(name, msg)

        return handle

    def _delta(self, name: str, msg: dict) -> None:
        if not self.legacy:
            rev = msg.get("rev")
            if rev is None or rev <= self.rev:
                return
            if rev != self.rev + 1:  # a delta was missed: read the snapshot once
                self.pending.append((name, msg))
                self._reread()
                return
            self.rev = rev
        now = time.perf_counter()
        if name == "group_updated":
            row = msg["group"]
            self.rows[row["group"]] = row
            self.worker.saw_row(self.index, row, now)
        elif name == "alert_raised":
            self.alerts[msg["alert"]["key"]] = msg["alert"]
            self.worker.saw_alert(self.index, msg["alert"], now)
        elif name == "alert_acknowledged":
            self.alerts.pop((msg.get("payload") or {}).get("alert"), None)
        elif name == BARE_TAP:  # the bare relay's tap: the dashboard shows it when it hears it
            tap = msg["tap"]
            self.worker.saw_row(self.index, {"holes": {str(tap["hole"]): {"id": tap["id"]}}}, now)
            self.worker.saw_alert(self.index, bare_alert(tap), now)

    def _fact(self, msg: dict) -> None:
        if not self.legacy:
            return
        if self.timer is not None:
            self.timer.cancel()
        self.timer = threading.Timer(0.25, self._reread)
        self.timer.daemon = True
        self.timer.start()

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.client.disconnect()


class Worker:
    """A client process: one server's marshals and dashboards, and the receipts of each tap."""

    def __init__(self, url: str, tokens: dict[str, str], marshals: int, dashboards: int):
        self.url = url
        self.tokens = tokens
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        #: tap id -> the dashboards that hold a row showing it, and when each got it
        self.rows: dict[str, dict[int, float]] = {}
        #: (group, hole) -> the dashboards that hold an alert the tap raised, and when
        self.alerts: dict[tuple[str, int], dict[int, float]] = {}
        self.alert_kinds: dict[tuple[str, int], str] = {}
        self.marshals = [connect_client(url, tokens.get("marshal", "-"), f"marshal-{i}")
                         for i in range(marshals)]  # fmt: skip
        for i, m in enumerate(self.marshals):
            answer = m.call("join_round", {"round": ROUND, "holes": [i % 18 + 1]}, timeout=WAIT)
            assert answer and answer.get("ok"), answer
        self.dashboards = [Dashboard(self, i) for i in range(dashboards)]

    def saw_row(self, index: int, row: dict, now: float) -> None:
        with self.changed:
            for hole in (row.get("holes") or {}).values():
                tap = hole.get("id")
                if tap is not None:
                    self.rows.setdefault(tap, {}).setdefault(index, now)
            self.changed.notify_all()

    def saw_alert(self, index: int, alert: dict, now: float) -> None:
        if alert.get("kind") not in TAP_ALERTS or alert.get("hole") is None:
            return
        key = (str(alert["group"]), int(alert["hole"]))
        with self.changed:
            self.alerts.setdefault(key, {}).setdefault(index, now)
            self.alert_kinds[key] = alert["kind"]
            self.changed.notify_all()

    def tap(self, i: int, payload: dict) -> dict[str, Any]:
        """Send one tap from marshal ``i``; answer its ack, row and alert latencies."""
        acked = threading.Event()
        answer: dict[str, Any] = {}

        def on_ack(*reply):
            answer.update(t_ack=time.perf_counter(), ack=reply[0] if reply else None)
            acked.set()

        n = len(self.dashboards)
        t0 = time.perf_counter()
        self.marshals[i % len(self.marshals)].emit("hole_completed", payload, callback=on_ack)
        deadline = time.monotonic() + WAIT
        with self.changed:
            while len(self.rows.get(payload["id"], {})) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.changed.wait(left)
            got = self.rows.get(payload["id"], {})
        acked.wait(max(0.0, deadline - time.monotonic()))
        if not isinstance(answer.get("ack"), dict) or not answer["ack"].get("ok"):
            return {"error": f"tap refused or not acked: {answer.get('ack')}"}
        if len(got) < n:
            return {"error": f"{n - len(got)} dashboards never showed the row of tap {i}"}
        return {"t0": t0, "ack": answer["t_ack"] - t0, "row": max(got.values()) - t0,
                "first": min(got.values()) - t0}

    def alert_latencies(self, sent: dict[str, float]) -> dict[str, Any]:
        """Return each tap's alert latency (tap → every dashboard), keyed ``group:hole``."""
        n = len(self.dashboards)
        out = {}
        with self.lock:
            for (group, hole), seen in self.alerts.items():
                t0 = sent.get(f"{group}:{hole}")
                if t0 is None or len(seen) < n:
                    continue
                out[f"{group}:{hole}"] = {"latency": max(seen.values()) - t0,
                                          "kind": self.alert_kinds[(group, hole)]}  # fmt: skip
        return out

    def close(self) -> dict[str, Any]:
        rereads = [d.rereads for d in self.dashboards]
        for c in self.marshals:
            c.disconnect()
        for d in self.dashboards:
            d.close()
        received: dict[str, int] = {}
        for m in self.marshals:
            for name, n in m.received.items():
                received[name] = received.get(name, 0) + n
        return {"rereads": rereads, "received": received}


def client_worker(url: str, tokens: dict[str, str], marshals: int, dashboards: int,
                  ipc_port: int) -> None:  # fmt: skip
    """Serve the main process's requests (JSON lines on a loopback socket) for one server."""
    worker = Worker(url, tokens, marshals, dashboards)
    ipc = socket.create_connection(("127.0.0.1", ipc_port))
    lines = ipc.makefile("r", encoding="utf-8")
    ipc.sendall(b'{"ready": true}\n')
    sent: dict[str, float] = {}
    for line in lines:
        request = json.loads(line)
        if "tap" in request:
            p = request["tap"]
            answer = worker.tap(request["i"], p)
            if "t0" in answer:
                sent[f"{p['group']}:{p['hole']}"] = answer["t0"]
        elif request.get("alerts"):
            time.sleep(ALERT_WINDOW)  # the last taps' alerts
            answer = worker.alert_latencies(sent)
        else:
            answer = worker.close()
            ipc.sendall((json.dumps(answer) + "\n").encode())
            break
        ipc.sendall((json.dumps(answer) + "\n").encode())


@dataclass
class Clients:
    """A client process and the line protocol to it."""

    server: Server
    process: subprocess.Popen
    conn: socket.socket
    lines: Any
    rows: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    #: tap → the first dashboard holding its row (the rest of ``rows`` is the fan-out's and
    #: the clients' reading of the other dashboards' messages)
    firsts: list[float] = field(default_factory=list)
    #: when each measured tap was sent (``perf_counter``; ``--spans`` lines pace's steps up)
    sent: list[float] = field(default_factory=list)
    #: each measured tap's id (``--spans`` finds the frames that carry it)
    ids: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, server: Server, args, folder: Path) -> Clients:
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(120)
        log = folder / f"clients-{server.name}.log"
        with log.open("w") as out:
            process = subprocess.Popen(
                [sys.executable, __file__, "--client-worker", "--url", server.url,
                 "--tokens", json.dumps(server.tokens), "--ipc-port",
                 str(listener.getsockname()[1]), "--marshals", str(args.marshals),
                 "--dashboards", str(args.dashboards)],
                stdout=out, stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
        pin(process, args, server=False)
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            process.kill()
            raise SystemExit(
                f"{server.name}'s clients did not connect:\n{log.read_text()}"
            ) from None
        finally:
            listener.close()
        lines = conn.makefile("r", encoding="utf-8")
        first = lines.readline()
        if not first or not json.loads(first).get("ready"):
            raise SystemExit(f"{server.name}'s clients failed:\n{log.read_text()}")
        return cls(server, process, conn, lines)

    def ask(self, request: dict) -> dict:
        self.conn.sendall((json.dumps(request) + "\n").encode())
        line = self.lines.readline()
        if not line:
            raise SystemExit(f"{self.server.name}'s client process ended")
        return json.loads(line)

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.process.pid)

    def close(self) -> dict:
        try:
            answer = self.ask({"close": True})
            self.process.wait(timeout=60)
            return answer
        except (OSError, SystemExit, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(timeout=10)
            return {}
        finally:
            self.conn.close()


# -- the groups' phones (issue 48) -------------------------------------------------------------


def bench_course() -> Any:
    """Return the bench's course (Louiseville) as pace reads it."""
    from pace import formats

    return formats.parse_course(COURSE.read_text(encoding="utf-8"), COURSE.name)


def course_name() -> str:
    return str(bench_course().name)


def course_osm() -> str:
    """Return the course's map: the demo's drawing of it (``pace.demo.geography``)."""
    from pace.demo import geography

    return geography.osm_xml(bench_course())


def group_walks(groups: int, tees: int, day: date) -> tuple[Any, dict[str, Any]]:
    """Return the course's shape and each group's true path on it: its bench round (the
    taps of :func:`plan_round`) walked as ``pace.demo.phones.walk`` walks a group."""
    from pace.demo.phones import walk
    from pace.formats.geometry import parse_geometry
    from pace.rules.positions import CourseShape

    shape = CourseShape.of(parse_geometry(course_osm().encode(), "course.osm", bench_course()))
    _, taps = plan_round(groups, day, tees=tees)
    done: dict[str, dict[int, datetime]] = {}
    for t in taps:
        done.setdefault(t.group, {})[t.hole] = t.at
    rng = random.Random(48)
    walks = {}
    for g in range(1, groups + 1):
        tee = TEES[(g - 1) % tees]
        order = [*range(tee, 19), *range(1, tee)]
        walks[str(g)] = walk(shape, order, group_start(g, day, tees), done[str(g)], rng)
    return shape, walks


def phones_worker(url: str, tokens: dict[str, str], phones: int, groups: int, tees: int,
                  day: date, speed: float, ipc_port: int) -> None:  # fmt: skip
    """Run the groups' phones for the main process: each agrees to share its group's position,
    then, while the main process has them on, sends one fix every :data:`PHONE_EVERY` s."""
    import gevent

    shape, walks = group_walks(groups, tees, day)
    clock = server_clock(Server("pace", url, None, Path(), tokens), speed)  # type: ignore[arg-type]
    rng = random.Random(15)
    connected = []
    for i in range(phones):
        group = str(i % groups + 1)
        c = connect_client(url, tokens["scorer"], f"bench-phone-{i + 1}")
        joined = c.call("join_scores", {"round": ROUND}, timeout=WAIT)
        assert joined and joined.get("ok"), joined
        consent = c.call(
            "share_positions",
            {"id": str(uuid.uuid4()), "round": ROUND, "group": group, "share": True},
            timeout=WAIT,
        )
        assert consent and consent.get("ok"), consent  # fmt: skip
        connected.append((c, group, consent["id"]))
    state = {"on": False, "closed": False}
    stats: dict[str, Any] = {"sent": 0, "acked": 0, "kept": 0, "discarded": {}, "inferred": 0,
                             "refused": {}, "acks": []}  # fmt: skip

    def fix(group: str) -> dict[str, Any]:
        now = clock.now()
        path = walks[group]
        first = path.pieces[0]
        x, y = first[2] if now < first[0] else path.at(now)[0]  # not there yet: by its tee
        accuracy = rng.uniform(5, 12)
        lon, lat = shape.frame.lonlat(x + rng.gauss(0, accuracy / 3),
                                      y + rng.gauss(0, accuracy / 3))  # fmt: skip
        return {"at": now.isoformat(), "lon": round(lon, 7), "lat": round(lat, 7),
                "accuracy": round(accuracy, 1)}  # fmt: skip

    def acked(reply: Any, t0: float) -> None:
        stats["acks"].append(time.perf_counter() - t0)
        if isinstance(reply, dict) and reply.get("ok"):
            stats["acked"] += 1
            stats["kept"] += reply.get("kept", 0)
            stats["inferred"] += len(reply.get("inferred") or ())
            for reason, n in (reply.get("discarded") or {}).items():
                stats["discarded"][reason] = stats["discarded"].get(reason, 0) + n
        else:
            code = (reply or {}).get("error", {}).get("code", "?")
            stats["refused"][code] = stats["refused"].get(code, 0) + 1

    def phone(k: int, c: LeanClient, group: str, consent: str, base: float) -> None:
        # each phone on its own phase: together they send evenly, N every PHONE_EVERY s
        due = base + PHONE_EVERY * k / len(connected)
        while not state["closed"]:
            gevent.sleep(max(0.0, due - time.perf_counter()))
            due += PHONE_EVERY
            if not state["on"] or state["closed"]:
                continue
            f = fix(group)
            payload = {"round": ROUND, "group": group, "consent_id": consent, "fixes": [f],
                       "device_time": f["at"]}  # fmt: skip
            stats["sent"] += 1
            sent = time.perf_counter()
            c.emit("send_positions", payload, callback=lambda r, t0=sent: acked(r, t0))

    base = time.perf_counter()
    runners = [gevent.spawn(phone, k, c, g, consent, base)
               for k, (c, g, consent) in enumerate(connected)]  # fmt: skip
    ipc = socket.create_connection(("127.0.0.1", ipc_port))
    lines = ipc.makefile("r", encoding="utf-8")
    ipc.sendall(b'{"ready": true}\n')
    for line in lines:
        request = json.loads(line)
        if "on" in request:
            state["on"] = bool(request["on"])
            ipc.sendall(b'{"ok": true}\n')
            continue
        state["on"] = False
        gevent.sleep(1.0)  # the last acks
        state["closed"] = True
        acks = stats.pop("acks")
        stats["ack_p50_ms"] = quantile(acks, 0.5) * 1000
        stats["ack_p99_ms"] = quantile(acks, 0.99) * 1000
        ipc.sendall((json.dumps(stats) + "\n").encode())
        break
    gevent.killall(runners, timeout=2)
    for c, _, _ in connected:
        c.disconnect()


@dataclass
class Phones:
    """The phones' process and the line protocol to it."""

    process: subprocess.Popen
    conn: socket.socket
    lines: Any
    count: int
    on: bool = False

    @classmethod
    def start(cls, server: Server, args, folder: Path, day: date) -> Phones:
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(180)
        log = folder / "phones.log"
        with log.open("w") as out:
            process = subprocess.Popen(
                [sys.executable, __file__, "--phones-worker", "--url", server.url,
                 "--tokens", json.dumps(server.tokens), "--ipc-port",
                 str(listener.getsockname()[1]), "--positions", str(args.positions),
                 "--groups", str(args.groups), "--tees", str(args.tees),
                 "--speed", str(args.speed), "--day", day.isoformat()],
                stdout=out, stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
        pin(process, args, server=False)
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            process.kill()
            raise SystemExit(f"the phones did not connect:\n{log.read_text()}") from None
        finally:
            listener.close()
        lines = conn.makefile("r", encoding="utf-8")
        first = lines.readline()
        if not first or not json.loads(first).get("ready"):
            raise SystemExit(f"the phones failed:\n{log.read_text()}")
        return cls(process, conn, lines, args.positions)

    def switch(self, on: bool) -> None:
        self.conn.sendall((json.dumps({"on": on}) + "\n").encode())
        if not self.lines.readline():
            raise SystemExit("the phones' process ended")
        self.on = on

    def close(self) -> dict[str, Any]:
        try:
            self.conn.sendall(b'{"close": true}\n')
            line = self.lines.readline()
            self.process.wait(timeout=30)
            return json.loads(line) if line else {}
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(timeout=10)
            return {}
        finally:
            self.conn.close()


# -- the measure ---------------------------------------------------------------------------------


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


def server_clock(server: Server, speed: float) -> ServerClock:
    """Estimate pace's rehearsal clock from ``clock_sync`` (shortest round trip wins)."""
    c = connect_client(server.url, server.tokens["referee"], "bench-clock")
    best = None
    try:
        for _ in range(7):
            t0 = time.perf_counter()
            answer = c.call("clock_sync", {}, timeout=WAIT)
            t1 = time.perf_counter()
            if best is None or t1 - t0 < best[0]:
                best = (t1 - t0, (t0 + t1) / 2, datetime.fromisoformat(answer["server_time"]))
    finally:
        c.disconnect()
    return ServerClock(best[1], best[2], speed)


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--marshals", type=int, default=60)
    parser.add_argument("--dashboards", type=int, default=20)
    parser.add_argument("--groups", type=int, default=52)
    parser.add_argument("--tees", type=int, default=1, choices=(1, 2, 3, 4),
                        help="tees the groups are dealt to (1, 10, 5, 14): 120 or 240 groups"
                        " fit in one day off 2 or 4 tees")  # fmt: skip
    parser.add_argument("--warmup", type=int, default=20, help="first taps not measured")
    parser.add_argument("--gap", type=float, default=20, help="ms between two taps")
    parser.add_argument("--tick", type=float, default=5, help="pace's scheduler tick (s)")
    parser.add_argument("--speed", type=float, default=150, help="pace's clock speed")
    parser.add_argument("--relay", default="both", type=relay_kinds,
                        help="the relays pace is measured against, comma-separated: bare (acks"
                        " a tap, re-emits it to the dashboards: issue 50's floor), durable"
                        " (the same once the tap is committed, as pace commits it), forward"
                        " (a row per tap to every page: issue 37); both: forward,bare"
                        " (the default)")  # fmt: skip
    parser.add_argument("--profile", default=None, help="write pace's cProfile stats here")
    parser.add_argument("--spans", nargs="?", const="", default=None, metavar="FILE",
                        help="time pace's steps of each tap (bench/spans.py) and print where"
                        " the time goes; FILE keeps the timed calls as JSON")  # fmt: skip
    parser.add_argument("--pin", action="store_true",
                        help="keep the servers on one core and the clients on the others (the"
                        " dashboards are other devices; needs 2 cores)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--progress", action="store_true", help="print a line every 50 taps")
    parser.add_argument("--positions", type=int, default=0,
                        help="this many groups' phones send send_positions every 15 s to pace,"
                        " switched on and off every --spell s (issue 48)")  # fmt: skip
    parser.add_argument(
        "--spell", type=float, default=20, help="seconds between switching the phones on and off"
    )
    parser.add_argument("--phones-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--day", default="", help=argparse.SUPPRESS)
    parser.add_argument("--serve-relay", default="", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--frames", default="", help=argparse.SUPPRESS)
    parser.add_argument("--client-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--ipc-port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--url", default="", help=argparse.SUPPRESS)
    parser.add_argument("--tokens", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profile and args.spans is not None:
        parser.error("--profile and --spans each start pace their own way: choose one")
    if args.serve_relay:
        serve_relay(args.port, args.groups, args.serve_relay, args.frames)
        return
    if args.phones_worker:
        PARS.update(read_pars())
        phones_worker(args.url, json.loads(args.tokens), args.positions, args.groups, args.tees,
                      date.fromisoformat(args.day), args.speed, args.ipc_port)  # fmt: skip
        return
    if args.client_worker:
        client_worker(args.url, json.loads(args.tokens), args.marshals, args.dashboards,
                      args.ipc_port)  # fmt: skip
        return
    PARS.update(read_pars())
    if args.pin:
        if not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2:
            parser.error("--pin needs a system with sched_setaffinity and 2 cores to use")
        CORES.extend(sorted(os.sched_getaffinity(0)))
        # this process and the client processes it starts share the cores but the first
        os.sched_setaffinity(0, set(CORES[1:]))

    day = datetime.now(TZ).date()
    draw, taps = plan_round(args.groups, day, tees=args.tees)
    # pace's clock reaches the first tap about when the clients are connected (~15 s, and
    # about 1 s more for every 20 phones)
    origin = taps[0].at - timedelta(seconds=(15 + args.positions / 20) * args.speed)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="pace-bench-") as tmp:
        folder = Path(tmp)
        pace_server = start_pace(folder, draw, day, origin, args)
        kinds = args.relay
        servers = [pace_server, *(start_relay(folder, args.groups, k, args) for k in kinds)]
        clients: list[Clients] = []
        cpu: dict[str, float] = {}
        closing: list[dict] = []
        alerts: list[dict] = []
        lag = 0.0
        phones: Phones | None = None
        phone_stats: dict[str, Any] = {}
        #: pace's row latencies of the measured taps: (the phones sending, the spell, latency)
        loaded: list[tuple[bool, int, float]] = []
        spell = 0
        try:
            t0 = time.perf_counter()
            clients = [Clients.start(s, args, folder) for s in servers]
            print(f"connected {len(servers) * (args.marshals + args.dashboards)} clients in"
                  f" {time.perf_counter() - t0:.1f} s", flush=True)  # fmt: skip
            if args.positions:
                t0 = time.perf_counter()
                phones = Phones.start(pace_server, args, folder, day)
                print(f"connected {args.positions} phones (each agreed to share its group's"
                      f" position) in {time.perf_counter() - t0:.1f} s", flush=True)  # fmt: skip
            switched = time.perf_counter()
            clock = server_clock(pace_server, args.speed)
            cpu0 = {c.server.name: cpu_seconds(c.server.process.pid) for c in clients}
            lag = 0.0
            for i, tap in enumerate(taps):
                # the group holes out when pace's clock reaches its instant (the bench's pacing)
                wait = clock.perf_at(tap.at) - time.perf_counter()
                time.sleep(max(0.0, wait))
                if i >= args.warmup:
                    lag = max(lag, -wait * args.speed)
                if phones is not None and time.perf_counter() - switched >= args.spell:
                    phones.switch(not phones.on)  # the phones on, then off, then on...
                    switched = time.perf_counter()
                    spell += 1
                # which server goes first turns with every tap (each its own process)
                turn = i % len(clients)
                order = clients[turn:] + clients[:turn]
                for c in order:
                    payload = {"id": str(uuid.uuid4()), "round": ROUND, "group": tap.group,
                               "hole": tap.hole, "at": tap.at.isoformat(),
                               "device_time": clock.now().isoformat()}  # fmt: skip
                    answer = c.ask({"tap": payload, "i": i})
                    if "error" in answer:
                        raise SystemExit(f"{c.server.name}: {answer['error']}")
                    if i >= args.warmup:
                        c.rows.append(answer["row"])
                        c.acks.append(answer["ack"])
                        c.firsts.append(answer["first"])
                        c.sent.append(answer["t0"])
                        c.ids.append(payload["id"])
                        if phones is not None and c.server is pace_server:
                            loaded.append((phones.on, spell, answer["row"]))
                    time.sleep(args.gap / 1000)
                if args.progress and i % 50 == 0 and i >= args.warmup:
                    print(f"tap {i}: pace's clock {clock.now().astimezone(TZ):%H:%M}, tap at"
                          f" {tap.at.astimezone(TZ):%H:%M}; row p50 so far"
                          + "".join(f" {c.server.name} {quantile(c.rows, 0.5) * 1000:.1f} ms"
                                    for c in clients), flush=True)  # fmt: skip
            alerts = [c.ask({"alerts": True}) for c in clients]
            cpu = {c.server.name: cpu_seconds(c.server.process.pid) - cpu0[c.server.name]
                   for c in clients}  # fmt: skip
            cpu.update({f"clients of {c.server.name}": c.cpu_seconds() for c in clients})
        finally:
            if phones is not None:
                phone_stats = phones.close()
            closing = [c.close() for c in clients]
            for s in servers:
                s.stop()
        spans = read_spans(spans_file(args, folder)) if args.spans is not None else None
        kept = durable_taps(folder) if "durable" in kinds else None
        frames = {}
        if args.spans is not None:
            frames = {s.name: read_spans(Path(spansmod().frames_file(spans_file(args, folder)))
                                         if s is pace_server else relay_frames(folder, s.name))
                      for s in servers}  # fmt: skip

    names = [c.server.name for c in clients]
    pace = clients[0]
    latencies = [[a["latency"] for a in got.values()] for got in alerts]
    pace_alerts = latencies[0]
    late = [a for a in pace_alerts if a > ALERT_WINDOW / 2]
    rows = [
        ("row: tap → every dashboard, p50", [quantile(c.rows, 0.5) for c in clients]),
        ("row: tap → every dashboard, p99", [quantile(c.rows, 0.99) for c in clients]),
        ("row: tap → every dashboard, max", [max(c.rows) for c in clients]),
        ("row: tap → first dashboard, p50", [quantile(c.firsts, 0.5) for c in clients]),
        ("row: tap → first dashboard, p99", [quantile(c.firsts, 0.99) for c in clients]),
        ("alert: tap → every dashboard, p50", [quantile(a, 0.5) for a in latencies]),
        ("alert: tap → every dashboard, p99", [quantile(a, 0.99) for a in latencies]),
        ("tap → ack, p50", [quantile(c.acks, 0.5) for c in clients]),
        ("tap → ack, p99", [quantile(c.acks, 0.99) for c in clients]),
    ]
    figures = {label: dict(zip(names, values, strict=True)) for label, values in rows}
    load_after = os.getloadavg()
    print(f"\n{len(pace.rows)} taps measured per server ({len(taps)} in the round,"
          f" {args.warmup} warm-up), {args.groups} three-balls, {args.marshals} marshals +"
          f" {args.dashboards} dashboards per server, each server's clients in their own"
          f" process, {args.gap:g} ms between taps, pace's clock ×{args.speed:g},"
          f" tick {args.tick:g} s")  # fmt: skip
    print(f"taps sent at most {lag / 60:.1f} min (pace's clock) after their instant;"
          f" load average before {load_before[0]:.2f}, after {load_after[0]:.2f}"
          f" ({os.cpu_count()} cores)"
          + (f"; --pin: the servers on cores {sorted(PINNED['servers'])}, the clients on"
             f" {sorted(PINNED['clients'])}" if args.pin else ""))  # fmt: skip
    relays = names[1:]
    print(f"{'(ms)':36}" + "".join(f" {n:>8}" for n in names)
          + "".join(f" {'÷' + n:>8}" for n in relays))  # fmt: skip
    for label, values in rows:
        print(f"{label:36}" + "".join(f" {v * 1000:8.2f}" for v in values)
              + "".join(f" {values[0] / v:8.2f}" for v in values[1:]))  # fmt: skip
    print("alerts raised by a tap and seen by every dashboard: pace"
          f" {len(pace_alerts)} ({len(late)} more than {ALERT_WINDOW / 2:g} s after the tap)"
          + "".join(f", {n} relay {len(a)}" for n, a in zip(relays, latencies[1:],
                                                              strict=True)))  # fmt: skip
    p50 = figures["row: tap → every dashboard, p50"]
    p99 = figures["row: tap → every dashboard, p99"]
    a99 = figures["alert: tap → every dashboard, p99"]
    if "forward" in names:
        # issue 37's target: the row's p99 within 1.5× the forwarding relay's and its p50
        # within 2×, both measured in this run (a loaded machine slows every server alike)
        ok = p99["pace"] <= 1.5 * p99["forward"] and p50["pace"] <= 2 * p50["forward"]
        print(f"\ntarget row p99 ≤ 1.5× forward relay and p50 ≤ 2× (issue 37):"
              f" {'MET' if ok else 'MISSED'} (p99 pace {p99['pace'] * 1000:.1f} ms,"
              f" {p99['pace'] / p99['forward']:.2f}× forward relay's"
              f" {p99['forward'] * 1000:.1f} ms;"
              f" p50 {p50['pace'] / p50['forward']:.2f}×)")  # fmt: skip
        if pace_alerts:
            aok = a99["pace"] <= 1.5 * a99["forward"]
            print(f"alert p99 ≤ 1.5× forward relay: {'MET' if aok else 'MISSED'}"
                  f" (pace {a99['pace'] * 1000:.1f} ms, {a99['pace'] / a99['forward']:.2f}×"
                  f" forward relay's {a99['forward'] * 1000:.1f} ms)")  # fmt: skip
    if "bare" in names:
        # issue 50's target: the row's and the alert's p99 within 1.5× the bare relay's (the
        # floor: a tap acked and re-emitted to the dashboards, nothing to the marshals)
        print()
        verdicts = []
        for what, q in (("row", p99), ("alert", a99)):
            met = q["pace"] <= 1.5 * q["bare"]
            verdicts.append(met)
            print(f"{what} p99 ≤ 1.5× bare relay (issue 50): {'MET' if met else 'MISSED'}"
                  f" (pace {q['pace'] * 1000:.1f} ms, {q['pace'] / q['bare']:.2f}× bare relay's"
                  f" {q['bare'] * 1000:.1f} ms)")  # fmt: skip
        print(f"issue 50's target (row and alert p99 ≤ 1.5× the bare relay):"
              f" {'MET' if all(verdicts) else 'MISSED'}")  # fmt: skip
    if "durable" in names:
        # no target: how far pace is from a relay that keeps the tap, as pace does, first
        print(f"\nthe durable relay committed {kept} taps ({len(taps)} sent to it);"
              f" pace against it: row p99 {p99['pace'] / p99['durable']:.2f}×, alert p99"
              f" {a99['pace'] / a99['durable']:.2f}×, row p50"
              f" {p50['pace'] / p50['durable']:.2f}×")  # fmt: skip
    print("CPU seconds during the round: "
          + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items()))  # fmt: skip
    for c, done in zip(clients, closing, strict=True):
        rereads = done.get("rereads") or []
        received = {k: v // max(1, args.marshals) for k, v in
                    sorted((done.get("received") or {}).items())}  # fmt: skip
        print(
            f"{c.server.name}: snapshot reads per dashboard after joining"
            f" {sum(rereads) / max(1, len(rereads)):.1f}; events per marshal {received}"
        )
    if args.positions:
        print_positions(args, loaded, phone_stats)
    if spans is not None:
        print_spans(spans, list(zip(pace.sent, pace.rows, strict=True)))
        print_fan_out(frames, clients, args.dashboards)
    if args.json:
        print(json.dumps({label: {f"{n}_ms": v * 1000 for n, v in by_server.items()}
                          for label, by_server in figures.items()}))  # fmt: skip
    if args.profile:
        print(f"pace profile written to {args.profile}"
              f" (python -m pstats {args.profile}; sort cumtime; stats 30)")  # fmt: skip


def print_positions(args, loaded: list[tuple[bool, int, float]], stats: dict[str, Any]) -> None:
    """Print pace's row latencies with and without the phones sending, and issue 48's target.

    How far the figure is from noise: each bin's p99 is printed again for its spells taken
    one in two (the first, third, fifth spells of that bin, then the others): two halves of
    one condition differ by this much with no difference of load between them.
    """
    on = [r for is_on, _, r in loaded if is_on]
    off = [r for is_on, _, r in loaded if not is_on]
    print(f"\npositions (issue 48): {args.positions} phones, each a scorer's session on its own"
          f" socket, sending send_positions every {PHONE_EVERY:g} s (one fix) to pace, switched"
          f" on and off every {args.spell:g} s: {len(on)} taps measured with them, {len(off)}"
          f" without")  # fmt: skip
    print(f"{'pace row (ms)':36} {'with':>8} {'without':>8} {'ratio':>6}")
    for label, q in (("p50", 0.5), ("p99", 0.99)):
        w, wo = quantile(on, q), quantile(off, q)
        print(f"{'row: tap → every dashboard, ' + label:36} {w * 1000:8.2f} {wo * 1000:8.2f}"
              f" {w / wo:6.2f}")  # fmt: skip
    halves = []
    for state in (True, False):
        spells = sorted({k for is_on, k, _ in loaded if is_on is state})
        first = set(spells[0::2])
        a = [r for is_on, k, r in loaded if is_on is state and k in first]
        b = [r for is_on, k, r in loaded if is_on is state and k not in first]
        halves.append(f"{'with' if state else 'without'} {quantile(a, 0.99) * 1000:.1f} and"
                      f" {quantile(b, 0.99) * 1000:.1f} ms")  # fmt: skip
    print(f"the noise: each bin's p99 over its spells one in two: {'; '.join(halves)}")
    p99_on, p99_off = quantile(on, 0.99), quantile(off, 0.99)
    ok = p99_on <= 1.10 * p99_off
    print(f"target ≤ 10 % added to the row's p99: {'MET' if ok else 'MISSED'}"
          f" ({p99_on * 1000:.1f} ms with the phones, {p99_off * 1000:.1f} ms without:"
          f" {100 * (p99_on / p99_off - 1):+.1f} %)")  # fmt: skip
    if stats:
        print(f"phones: {stats['sent']} messages sent, {stats['acked']} acked (ack p50"
              f" {stats['ack_p50_ms']:.1f} ms, p99 {stats['ack_p99_ms']:.1f} ms), fixes kept"
              f" {stats['kept']}, discarded {stats['discarded'] or 0}, completions inferred"
              f" {stats['inferred']}, refused {stats['refused'] or 0}")  # fmt: skip


if __name__ == "__main__":
    main()

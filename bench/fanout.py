"""Public board fan-out: 2,000 viewer sockets over 1 worker and over 3 workers (issue 15).

Each layout serves one round (``bench/crash_round.py``'s plan, ``--groups`` three-balls) to
``--viewers`` viewers, spread evenly over its workers; each viewer is what the facts-only board
page does (``static/board.js``): a websocket (Engine.IO 4 / Socket.IO 5, spoken here over
websocket-client on gevent, so 2,000 sockets fit in one process), ``join_board`` with a viewer
session, and each ``board_changed`` applied as it comes: the board's delta carries the tapped
group's row (docs/protocol.md, "The board's feed"), so nothing is read again. A marshal then logs
``--taps`` completions over HTTP on worker 1, one at a time: each tap waits until every viewer
has shown it (or ``--timeout``).

Printed side by side for each layout: tap → last viewer notified (``board_changed``) and tap →
last viewer showing the tap (the delta holding its row), p50 and p99 over the taps, the p99
over every (viewer, tap), and the CPU seconds the workers (and PostgreSQL and Redis) used during
the taps, per tap and as a share of one core. The layouts (``--layouts``):

- ``sqlite:1``: the embedded default, one worker, a SQLite file, no message queue;
- ``cluster:1``: one worker on PostgreSQL and Redis (what the message queue costs);
- ``cluster:3``: three workers on one PostgreSQL and one Redis.

The viewers, the marshal and the servers share this machine's cores: on a 2-core machine the
client's own CPU (printed) competes with the workers', so the figures are an upper bound of
what the server side needs, and more workers than cores cannot add capacity here.

    python bench/fanout.py                              # 2,000 viewers, sqlite:1 and cluster:3
    python bench/fanout.py --viewers 500 --taps 5 --layouts sqlite:1,cluster:1,cluster:3
"""

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from datetime import time as clock_time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import gevent  # noqa: E402
import gevent.event  # noqa: E402
import gevent.pool  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import engines  # noqa: E402
import websocket  # noqa: E402
from cluster_round import ROUND, Worker, grant, percentile  # noqa: E402
from crash_round import TZ, plan_round  # noqa: E402
from livesupport import setup_round  # noqa: E402

CONNECTING_AT_ONCE = 50


def cpu_seconds(pid: int) -> float:
    """Return the user + system CPU seconds process ``pid`` (and its reaped children) used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")


class Viewer:
    """One board page: its socket, the board's deltas, and when it saw each tap."""

    def __init__(self, n: int, worker: Worker, token: str) -> None:
        self.n, self.worker, self.token = n, worker, token
        self.notified: dict[str, float] = {}  # tap id -> board_changed heard
        self.shown: dict[str, float] = {}  # tap id -> board delta showing it
        self.waiting: dict[tuple[str, int], str] = {}  # (group, hole) -> tap id still unseen
        self.ws: Any = None
        self.error = ""

    def connect(self) -> None:
        url = f"ws://127.0.0.1:{self.worker.port}/socket.io/?EIO=4&transport=websocket"
        self.ws = websocket.create_connection(url, timeout=30)
        assert self.ws.recv().startswith("0"), "no Engine.IO open packet"
        auth = {"token": self.token, "device": f"board-{self.n}"}
        self.ws.send("40" + json.dumps(auth))
        while not (packet := self.ws.recv()).startswith("40"):
            if packet.startswith("44"):
                raise RuntimeError(f"connection refused: {packet}")
        self.ws.send("421" + json.dumps(["join_board", {"round": ROUND}]))
        while not (packet := self.ws.recv()).startswith("431"):
            if packet == "2":
                self.ws.send("3")
        answer = json.loads(packet[3:])[0]
        if not answer.get("ok"):
            raise RuntimeError(f"join_board refused: {answer}")
        self.ws.settimeout(None)

    def listen(self) -> None:
        """Answer pings and note every ``board_changed`` until the socket closes."""
        try:
            while True:
                packet = self.ws.recv()
                if packet == "2":
                    self.ws.send("3")
                elif packet.startswith('42["board_changed"'):
                    now = time.monotonic()
                    for tap in self.waiting.values():
                        self.notified.setdefault(tap, now)
                    self.apply(json.loads(packet[2:])[1], now)
        except Exception as e:  # noqa: BLE001 - closed at the end, or the bench fails below
            self.error = self.error or repr(e)

    def apply(self, delta: dict[str, Any], now: float) -> None:
        """Show the rows a board delta carries (the page applies it: nothing is read again)."""
        for row in delta.get("groups") or []:
            for hole, done in (row.get("holes") or {}).items():
                tap = self.waiting.get((row["group"], int(hole)))
                if tap and done.get("at"):
                    self.shown.setdefault(tap, now)
                    del self.waiting[(row["group"], int(hole))]

    def close(self) -> None:
        for closing in (self.ws,):
            try:
                if closing is not None:
                    closing.close()
            except Exception:  # noqa: BLE001
                pass


def tap(worker: Worker, token: str, t: Any) -> dict[str, Any]:
    """Log one completion over HTTP on ``worker``; return the ack."""
    conn = http.client.HTTPConnection("127.0.0.1", worker.port, timeout=30)
    try:
        # the worker's clock runs from its --clock-origin: the marshal's phone is on time
        now = worker.origin + timedelta(seconds=time.monotonic() - worker.t0)
        body = {"id": t.id, "round": ROUND, "group": t.group, "hole": t.hole,
                "at": t.at.isoformat(), "device_time": now.isoformat()}  # fmt: skip
        conn.request("POST", "/api/commands/hole_completed", body=json.dumps(body),
                     headers={"Content-Type": "application/json",
                              "Authorization": f"Bearer {token}",
                              "X-Pace-Device": "marshal-phone"})  # fmt: skip
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def layout(name: str, *, viewers: int, taps: int, groups: int, timeout: float) -> dict[str, Any]:
    """Run one layout (``sqlite:1``, ``cluster:N``); return its figures."""
    engine, count = name.split(":")
    workers_n = int(count)
    pg = redis_server = None
    workers: list[Worker] = []
    pages: list[Viewer] = []
    out: dict[str, Any] = {"layout": name, "workers": workers_n, "viewers": viewers}
    try:
        with tempfile.TemporaryDirectory(prefix="pace-fanout-") as tmp:
            folder = Path(tmp)
            (folder / "config.toml").write_text("")
            day = datetime.now(TZ).date()
            end = datetime.combine(day, clock_time(23, 0), tzinfo=TZ)
            draw_text, planned = plan_round(day, groups, end, 15)
            (folder / "draw.csv").write_text(draw_text, encoding="utf-8")
            if engine == "sqlite":
                db, queue = str(folder / "pace.db"), ""
            else:
                pg, redis_server = engines.start_postgres(), engines.start_redis()
                db, queue = pg.database("fanout"), redis_server.url
            setup_round(folder, day=day.isoformat(), draw=folder / "draw.csv", db=db)
            tokens = grant(db, ROUND)
            origin = datetime.combine(day, clock_time(17, 0), tzinfo=TZ)
            workers = [Worker(n, folder, db, queue, origin, 5.0) for n in range(1, workers_n + 1)]
            for w in workers:
                w.start()
            pages = [Viewer(i, workers[i % workers_n], tokens["viewer"]) for i in range(viewers)]
            began = time.monotonic()
            pool = gevent.pool.Pool(CONNECTING_AT_ONCE)
            for p in pages:
                pool.spawn(p.connect)
            pool.join(raise_error=True)
            out["connect_s"] = round(time.monotonic() - began, 1)
            listeners = [gevent.spawn(p.listen) for p in pages]
            servers = [w.pid for w in workers]
            engines_pids = [s.process.pid for s in (pg, redis_server) if s is not None]
            gevent.sleep(1.0)  # the joins' first re-reads settle
            cpu0 = [cpu_seconds(p) for p in servers + engines_pids]
            me0 = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.monotonic()
            last_notified, last_shown, every_shown, missed = [], [], [], 0
            for t in planned[:taps]:
                for p in pages:
                    p.waiting[(t.group, t.hole)] = t.id
                sent = time.monotonic()
                ack = tap(workers[0], tokens["marshal"], t)
                if not ack.get("ok"):
                    raise RuntimeError(f"tap refused: {ack}")
                deadline = sent + timeout
                while time.monotonic() < deadline and any(t.id not in p.shown for p in pages):
                    gevent.sleep(0.01)
                shown = [p.shown[t.id] - sent for p in pages if t.id in p.shown]
                notified = [p.notified[t.id] - sent for p in pages if t.id in p.notified]
                missed += viewers - len(shown)
                every_shown += shown
                if notified:
                    last_notified.append(max(notified))
                if shown:
                    last_shown.append(max(shown))
                gevent.sleep(0.5)
            elapsed = time.monotonic() - t0
            cpu1 = [cpu_seconds(p) for p in servers + engines_pids]
            me1 = resource.getrusage(resource.RUSAGE_SELF)
            used = [b - a for a, b in zip(cpu0, cpu1, strict=True)]

            def ms(values: list[float], q: float) -> float | None:
                p = percentile(values, q)
                return None if p is None else round(p * 1000)

            out.update({
                "taps": taps,
                "not_shown": missed,
                "last_notified_ms": {"p50": ms(last_notified, 0.5), "p99": ms(last_notified, 0.99)},
                "last_shown_ms": {"p50": ms(last_shown, 0.5), "p99": ms(last_shown, 0.99)},
                "every_shown_p99_ms": ms(every_shown, 0.99),
                "worker_cpu_s": round(sum(used[:workers_n]), 2),
                "worker_cpu_per_tap_s": round(sum(used[:workers_n]) / taps, 2),
                "worker_core_share": round(sum(used[:workers_n]) / elapsed, 2),
                "engines_cpu_s": round(sum(used[workers_n:]), 2),
                "client_cpu_s": round(me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime, 2),
                "seconds": round(elapsed, 1),
                "viewer_errors": sum(1 for p in pages if p.error),
            })  # fmt: skip
            for p in pages:
                p.close()
            gevent.killall(listeners, timeout=5)
            for w in workers:
                w.stop()
    finally:
        for p in pages:
            p.close()
        for w in workers:
            w.stop()
        for s in (redis_server, pg):
            if s is not None:
                s.stop()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=2000)
    parser.add_argument("--taps", type=int, default=10)
    parser.add_argument("--groups", type=int, default=30)
    parser.add_argument("--layouts", default="sqlite:1,cluster:3")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds a tap may take")
    parser.add_argument("--json", action="store_true", help="print one JSON line per layout")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 3 * args.viewers + 200  # a socket and a keep-alive connection per viewer, both ends
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    results = []
    for name in args.layouts.split(","):
        figures = layout(name, viewers=args.viewers, taps=args.taps, groups=args.groups,
                         timeout=args.timeout)  # fmt: skip
        results.append(figures)
        if args.json:
            print(json.dumps(figures), flush=True)
    rows = [
        ("viewers per worker", lambda f: f"{f['viewers'] // f['workers']}"),
        ("connect all (s)", lambda f: f"{f['connect_s']}"),
        ("tap → last notified p50 (ms)", lambda f: f"{f['last_notified_ms']['p50']}"),
        ("tap → last notified p99 (ms)", lambda f: f"{f['last_notified_ms']['p99']}"),
        ("tap → last viewer shows p50 (ms)", lambda f: f"{f['last_shown_ms']['p50']}"),
        ("tap → last viewer shows p99 (ms)", lambda f: f"{f['last_shown_ms']['p99']}"),
        ("any viewer shows p99 (ms)", lambda f: f"{f['every_shown_p99_ms']}"),
        ("viewers that never showed a tap", lambda f: f"{f['not_shown']}"),
        ("workers' CPU per tap (s)", lambda f: f"{f['worker_cpu_per_tap_s']}"),
        ("workers' CPU (share of a core)", lambda f: f"{f['worker_core_share']}"),
        ("PostgreSQL + Redis CPU (s)", lambda f: f"{f['engines_cpu_s']}"),
        ("the viewers' own CPU (s)", lambda f: f"{f['client_cpu_s']}"),
    ]
    print(f"{args.viewers} viewers, {args.taps} taps, {os.cpu_count()} cores "
          "(clients and servers together)")  # fmt: skip
    print(f"  {'':34}" + "".join(f"{f['layout']:>14}" for f in results))
    for label, cell in rows:
        print(f"  {label:34}" + "".join(f"{cell(f):>14}" for f in results))
    return 0 if all(f["not_shown"] == 0 and not f["viewer_errors"] for f in results) else 1


if __name__ == "__main__":
    sys.exit(main())

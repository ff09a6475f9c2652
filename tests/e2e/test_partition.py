"""Pages follow the log across workers (issue 37, part 4): two ``pace serve`` on one PostgreSQL
and one Redis, a link to Redis cut for a while, then back.

Worker 2 starts first and holds the round's tick lease; worker 1 reaches Redis through a TCP
relay of the test's that can be cut (every connection closed, new ones refused) and restored,
as a network partition would. Two marshals, one on each worker, tap a round of nine
three-balls throughout (real Socket.IO, every tap until acked). On each worker a referee's
dashboard, a marshal's page and a viewer's board follow the round as the pages do with several
workers: they join, apply each delta as it comes (``rev`` is null), and join again when the
server says ``join_again`` (static/common.js). A third of the way in, worker 1's link is cut;
once two thirds are acked, it is restored. After the last tap and a bounded wait, every page
shows exactly what a fresh read of the log shows: every stored tap in its group's row and, on
the dashboards, the same open alerts. Without the numbered queue (pace/cluster/queue.py)
worker 1's pages miss the taps announced on worker 2 while cut off, and worker 2's pages those
stored on worker 1, and nothing ever makes them join again.

The pages end equal to the log too when Redis itself is stopped at a third of the round (both
workers lose it at once, and Redis every subscription and lease) and started again, empty, at
two thirds; and when the relay is frozen instead of cut (every byte dropped, nothing closed: a
link that loses its packets, which only the beat and the timeouts can find).
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime
from datetime import time as clock_time
from pathlib import Path
from typing import Any

import engines
import pytest
import socketio

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import crash_round  # noqa: E402
from cluster_round import ROUND, Marshal, Run, Worker, grant, wait_for_holder  # noqa: E402
from crash_round import TZ, plan_round  # noqa: E402
from livesupport import free_port, setup_round, wait_for  # noqa: E402

pytestmark = pytest.mark.e2e

GROUPS = 9
#: real seconds the round's taps are sent over
SECONDS = 10.0
#: seconds the pages may take to equal the log once the last tap is acked and the link is back
SETTLE = 15.0


class Relay:
    """A TCP relay on 127.0.0.1 to a local port, that can be cut and restored, or frozen (it
    keeps the connections open and drops every byte, as a link that loses its packets)."""

    def __init__(self, target: int):
        self.target = target
        self.port = free_port()
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        self.listener: socket.socket | None = None
        self.frozen = False
        self.restore()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def restore(self) -> None:
        """Accept connections again."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Close every connection through the relay and refuse new ones."""
        if self.listener is not None:
            _close(self.listener)
            self.listener = None
        with self.lock:
            links, self.open = self.open, []
        for s in links:
            _close(s)

    def freeze(self) -> None:
        """Drop every byte from now on, in both directions, closing nothing."""
        self.frozen = True

    def thaw(self) -> None:
        """Forward again."""
        self.frozen = False

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                far = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                far.settimeout(None)
            except OSError:
                near.close()
                continue
            with self.lock:
                self.open += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                if not self.frozen:
                    b.sendall(data)
        except OSError:
            pass
        finally:
            _close(a)
            _close(b)


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()


def shown(row: dict[str, Any]) -> dict[str, str]:
    """Return the holes a row shows logged, each with its instant."""
    return {str(h): v.get("at") for h, v in (row.get("holes") or {}).items() if v.get("at")}


class Page:
    """A page following the round on a worker as the real pages do with several workers
    (static/common.js, live.js): it joins (its answer is the snapshot), applies each delta as
    it comes, and joins again when the server says ``join_again``. ``kind`` is ``dashboard``
    (a referee's: rows and open alerts), ``marshal`` (rows) or ``board`` (a viewer's)."""

    def __init__(self, kind: str, worker: Worker, token: str):
        self.kind, self.worker = kind, worker
        self.name = f"{kind} on worker {worker.n}"
        self.lock = threading.RLock()
        self.rows: dict[str, dict[str, str]] = {}
        self.alerts: set[str] = set()
        self.told = 0  # join_again heard
        self.client = c = socketio.Client(reconnection=False)
        if kind == "board":
            c.on("board_changed", self._board_changed)
        else:
            c.on("group_updated", self._group_updated)
            c.on("round_changed", self._round_changed)
            c.on("alert_raised", self._alert_raised)
            c.on("alert_acknowledged", self._alert_gone)
            c.on("alert_resolved", self._alert_gone)
        c.on("join_again", self._join_again)
        c.connect(worker.url, auth={"token": token, "device": self.name},
                  transports=["websocket"], wait_timeout=10)  # fmt: skip
        self.join()

    def join(self) -> None:
        event = "join_board" if self.kind == "board" else "join_round"
        answer = self.client.call(event, {"round": ROUND}, timeout=10)
        assert answer and answer["ok"], answer
        snapshot = answer["snapshot"]
        with self.lock:
            self.rows = {r["group"]: shown(r) for r in snapshot["groups"]}
            self.alerts = {a["key"] for a in snapshot.get("alerts") or []}

    def _join_again(self, message: Any) -> None:
        self.told += 1
        # not on the client's reading thread: the answer is read there
        threading.Thread(target=self.join, daemon=True).start()

    def _group_updated(self, m: Any) -> None:
        with self.lock:
            self.rows[m["group"]["group"]] = shown(m["group"])

    def _round_changed(self, m: Any) -> None:
        groups = (m.get("parts") or {}).get("groups")
        if groups is not None:
            with self.lock:
                self.rows = {r["group"]: shown(r) for r in groups}

    def _board_changed(self, m: Any) -> None:
        with self.lock:
            for row in m.get("groups") or []:
                self.rows[row["group"]] = shown(row)

    def _alert_raised(self, m: Any) -> None:
        with self.lock:
            self.alerts.add(m["alert"]["key"])

    def _alert_gone(self, m: Any) -> None:
        with self.lock:
            self.alerts.discard((m.get("payload") or {}).get("alert"))

    def taps(self) -> int:
        with self.lock:
            return sum(len(holes) for holes in self.rows.values())

    def differs(self, tokens: dict[str, str]) -> str:
        """Return how the page differs from a fresh read of the log on its worker ("": not)."""
        if self.kind == "board":
            fresh = self.worker.request(f"/api/rounds/{ROUND}/board", tokens["viewer"])
        else:
            fresh = self.worker.request(f"/api/rounds/{ROUND}/snapshot", tokens["referee"])
        snapshot = fresh["snapshot"]
        rows = {r["group"]: shown(r) for r in snapshot["groups"]}
        alerts = {a["key"] for a in snapshot.get("alerts") or []}
        with self.lock:
            if self.rows != rows:
                wrong = sorted(g for g in rows if rows[g] != self.rows.get(g))
                return (f"{self.name} shows {self.taps()} taps, the log "
                        f"{sum(len(h) for h in rows.values())} (groups {wrong})")  # fmt: skip
            if self.kind == "dashboard" and self.alerts != alerts:
                return f"{self.name}: open alerts {sorted(self.alerts)}, the log {sorted(alerts)}"
        return ""

    def close(self) -> None:
        try:
            self.client.disconnect()
        except Exception:  # noqa: BLE001 - gone already
            pass


Trouble = Callable[["engines.RedisServer", Relay], tuple[Callable[[], None], Callable[[], None]]]


def play(pg: engines.PostgresServer, trouble: Trouble) -> None:
    """Play the round on two workers (worker 1 through a relay), with ``trouble`` begun once a
    third of the taps are acked and ended at two thirds; check every page against the log."""
    try:
        redis_server = engines.start_redis()
    except engines.EngineUnavailable as e:
        pytest.skip(f"Redis cannot start here: {e}")
    relay = Relay(redis_server.port)
    db = ""
    workers: list[Worker] = []
    pages: list[Page] = []
    state = Run()
    try:
        with tempfile.TemporaryDirectory(prefix="pace-partition-") as tmp:
            folder = Path(tmp)
            (folder / "config.toml").write_text("[scheduler]\nlease_seconds = 2\n")
            day = datetime.now(TZ).date()
            end = datetime.combine(day, clock_time(23, 0), tzinfo=TZ)
            draw_text, taps = plan_round(day, GROUPS, end, 37)
            (folder / "draw.csv").write_text(draw_text, encoding="utf-8")
            db = pg.database("partition")
            setup_round(folder, day=day.isoformat(), draw=folder / "draw.csv", db=db)
            tokens = grant(db, ROUND)
            origin = datetime.combine(day, clock_time(17, 0), tzinfo=TZ)
            w1 = Worker(1, folder, db, relay.url, origin, 0.5)
            w2 = Worker(2, folder, db, redis_server.url, origin, 0.5)
            workers = [w1, w2]
            w2.start()  # first: it ticks the round, and keeps Redis
            _, holder = wait_for_holder(redis_server.url, {w2.pid}, 10)
            assert holder == w2.pid, "worker 2 did not take the round's lease"
            w1.start()
            for w in workers:
                pages += [Page("dashboard", w, tokens["referee"]),
                          Page("marshal", w, tokens["marshal"]),
                          Page("board", w, tokens["viewer"])]  # fmt: skip

            crash_round.TOKENS["marshal"] = tokens["marshal"]
            start = time.monotonic() + 0.5
            plan = [(start + i * SECONDS / len(taps), t) for i, t in enumerate(taps)]
            marshals = [Marshal(n, w, tokens["marshal"], plan[n::2], state)
                        for n, w in enumerate(workers)]  # fmt: skip
            for m in marshals:
                m.start()
            begin, end_trouble = trouble(redis_server, relay)
            acked(state, len(taps) // 3)
            begin()
            acked(state, 2 * len(taps) // 3)
            end_trouble()
            for m in marshals:
                m.join(60)
            assert not state.failed, state.failed
            assert len(state.acks) == len(taps)

            events = w2.request(f"/api/rounds/{ROUND}/events", tokens["committee"])["events"]
            stored = [e["id"] for e in events if e["type"] == "hole_completed"]
            assert sorted(stored) == sorted(t.id for t in taps)  # none lost, none twice

            started = time.monotonic()
            wrong: list = []

            def settled() -> bool:
                wrong[:] = [why for p in pages if (why := p.differs(tokens))]
                return not wrong

            wait_for(settled, SETTLE, interval=0.25)
            told = {p.name: p.told for p in pages}
            assert not wrong, f"after {SETTLE:.0f} s: {wrong} (join_again heard: {told})"
            print(f"pages equal to the log {time.monotonic() - started:.1f} s after "
                  f"the last tap; join_again heard: {told}")  # fmt: skip
            for p in pages:
                assert p.taps() == len(taps), p.name

            # a key may be raised again once resolved (a re-opening, its ``generation``): each
            # raise of a key and generation is stored once
            raised = [(e["payload"]["key"], e["payload"].get("generation", 1))
                      for e in events if e["type"] == "alert_raised"]  # fmt: skip
            assert len(raised) == len(set(raised)), "an alert was raised twice"
            for w in workers:
                w.stop()
            for w in workers:
                text = "\n".join(p.read_text() for p in folder.glob(f"worker{w.n}-*.log"))
                assert "Traceback" not in text, f"worker {w.n} logged a traceback"
    finally:
        state.stop.set()
        for p in pages:
            p.close()
        for w in workers:
            w.stop()
        relay.cut()
        redis_server.stop()
        if db:
            pg.drop(db)


def acked(state: Run, count: int) -> None:
    with state.cond:
        assert state.cond.wait_for(lambda: len(state.acks) >= count or state.failed, 60), count
        assert not state.failed, state.failed


def test_pages_follow_the_log_after_a_worker_is_cut_off_from_redis(postgres_server) -> None:
    play(postgres_server, lambda redis_server, relay: (relay.cut, relay.restore))


def test_pages_follow_the_log_after_redis_restarts(postgres_server) -> None:
    play(postgres_server, lambda redis_server, relay: (redis_server.halt, redis_server.resume))


def test_pages_follow_the_log_after_a_worker_loses_every_packet_to_redis(postgres_server) -> None:
    # nothing closes: the subscription hears nothing, not even its worker's beat, and the
    # publishes get no answer
    play(postgres_server, lambda redis_server, relay: (relay.freeze, relay.thaw))

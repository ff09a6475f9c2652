"""Several workers, one round: three ``pace serve`` on one PostgreSQL and one Redis (issue 15).

Worker 1 serves the marshals, worker 2 the referees (their dashboards, and a referee who
acknowledges the open alerts over HTTP), worker 3 the viewers' facts-only boards. Worker 3 is
started first, so it takes the round's tick lease. A whole round (``--groups`` three-balls,
every hole; ``bench/crash_round.py``'s plan) is tapped by ``--marshals`` marshals over about
``--seconds`` real seconds; once ``--kill-at`` of the taps are acked, worker 3, the lease
holder, is killed with SIGKILL and started again on the same port, and its viewers reconnect.

Checked at the end, and printed with the figures (``problems`` lists what failed):

- every acked tap is stored exactly once, and nothing else;
- every referee dashboard heard every tap (``hole_logged``) and its group's row with that hole
  (``group_updated``) within ``--within`` seconds of the tap being sent; the rows of the few
  taps whose nudge reached worker 3 as it died are counted apart (they wait for the next
  holder's first tick); every viewer saw every tap on its re-read board within ``--within``
  seconds, but for the taps sent while its worker was down;
- the lease moved to a living worker within a lease, a third and a second, and the round
  was ticked after the kill (alerts raised after it);
- every alert raised was announced to every referee dashboard once (or listed in its snapshot
  when it joined, if raised before): no alert was raised twice (keys unique, ids derived from
  the keys) nor announced twice; the referee acknowledges only the alerts their dashboard
  heard, as a person acts on what the screen shows;
- the three workers' status documents, at several instants, equal each other, the evaluation
  of the stored completions away from the server, and ``pace status --json`` of the planned
  taps (one process, the same taps; but for each tap's clock correction, a few ms).

    python bench/cluster_round.py                    # 12 groups, 4 marshals, ~20 s of taps
    python bench/cluster_round.py --groups 30 --seconds 60 --json
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from datetime import time as clock_time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import engines  # noqa: E402
import socketio  # noqa: E402
from crash_round import (  # noqa: E402
    TZ,
    Connection,
    Tap,
    differences,
    offline_document,
    plan_round,
    same_statuses,
    times_csv,
)
from livesupport import COURSE, TIMEZONE, free_port, pace, setup_round, wait_until_ready  # noqa: E402

from pace import config  # noqa: E402
from pace.clock import SystemClock  # noqa: E402
from pace.rules.model import HoleCompletion  # noqa: E402
from pace.services.access import AccessService  # noqa: E402
from pace.services.alerts import ALERT_NAMESPACE  # noqa: E402
from pace.store import open_store  # noqa: E402

ROUND = "R1"
#: the instants (local) the workers' statuses are compared at
STATUS_AT = ("09:30", "11:00", "12:30", "17:00")


def alert_id(key: str, generation: int) -> str:
    """Return the id of an alert's raise: derived from its key, and its generation once
    re-opened (pace.services.alerts.raised_event)."""
    name = f"{ROUND}/{key}" if generation == 1 else f"{ROUND}/reopened/{generation}/{key}"
    return str(uuid.uuid5(ALERT_NAMESPACE, name))


def grant(db: str, round: str) -> dict[str, str]:
    """Open a session of each role on ``db``; return their tokens."""
    with open_store(db) as store:
        access = AccessService(store, config.Settings(), SystemClock())
        return {role: access.grant(role, round, f"cluster {role}").token
                for role in ("marshal", "referee", "viewer", "committee")}  # fmt: skip


class Worker:
    """One ``pace serve`` worker on the shared database and Redis, on its own port."""

    def __init__(self, n: int, folder: Path, db: str, queue: str, origin: datetime, tick: float):
        self.n, self.folder, self.db, self.queue, self.tick = n, folder, db, queue, tick
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.origin, self.t0 = origin, time.monotonic()
        self.process: subprocess.Popen[str] | None = None
        self.starts = 0

    def start(self) -> None:
        origin = self.origin + timedelta(seconds=time.monotonic() - self.t0)
        log = self.folder / f"worker{self.n}-{self.starts}.log"
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "pace", "serve", "--db", self.db, "--host", "127.0.0.1",
                 "--port", str(self.port),
                 *(["--message-queue", self.queue] if self.queue else []),
                 "--clock-origin", origin.isoformat(), "--tick", str(self.tick)],
                cwd=self.folder, stdout=out, stderr=subprocess.STDOUT, text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1",
                     "PACE_CONFIG": str(self.folder / "config.toml")},
            )  # fmt: skip
        wait_until_ready(self.url, self.process, log, timeout=30)
        self.starts += 1

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def request(self, path: str, token: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, method="GET" if body is None else "POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}",
                     "X-Pace-Device": "referee-tablet"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read())


#: how long after its join's answer a page may still hear the raise of an alert its snapshot
#: listed (raised while it joined, relayed by another worker's queue)
JOIN_RACE_S = 2.0


@dataclass
class Heard:
    """What one page heard, by the test's monotonic clock."""

    name: str
    logged: dict[str, float] = field(default_factory=dict)  # tap id -> hole_logged
    rows: dict[str, float] = field(default_factory=dict)  # tap id -> first row showing it
    alerts: list[str] = field(default_factory=list)
    #: the open alerts its snapshot listed when it joined (raised before it was there)
    listed: set[str] = field(default_factory=set)
    #: when each raise was heard, and when the join's answer came back
    alert_times: dict[str, float] = field(default_factory=dict)
    #: every instant each alert was heard (monotonic), for the report of a double
    heard_at: dict[str, list[float]] = field(default_factory=dict)
    joined: float = 0.0
    up: list[tuple[float, float]] = field(default_factory=list)  # (joined, dropped) spells


class Dashboard:
    """A referee's dashboard on a worker: it hears the facts, the rows and the alerts."""

    def __init__(self, name: str, worker: Worker, token: str):
        self.heard = Heard(name)
        self.client = socketio.Client(reconnection=False)
        c, h = self.client, self.heard

        @c.on("hole_logged")
        def logged(m: Any) -> None:
            h.logged.setdefault(m["id"], time.monotonic())

        @c.on("group_updated")
        def row(m: Any) -> None:
            now = time.monotonic()
            for hole in (m["group"].get("holes") or {}).values():
                if hole.get("id"):
                    h.rows.setdefault(hole["id"], now)

        @c.on("alert_raised")
        def alert(m: Any) -> None:
            h.alerts.append(m["alert"]["id"])  # a raise (a key is raised again once re-opened)
            h.alert_times.setdefault(m["alert"]["id"], time.monotonic())
            h.heard_at.setdefault(m["alert"]["id"], []).append(time.monotonic())

        c.connect(worker.url, auth={"token": token, "device": name}, transports=["websocket"],
                  wait_timeout=10)  # fmt: skip
        # the stored facts too (``hole_logged``: when each tap reached the worker's pages)
        answer = c.call("join_round", {"round": ROUND, "facts": True}, timeout=10)
        assert answer and answer["ok"], answer
        h.listed = {a["id"] for a in answer["snapshot"]["alerts"]}
        h.joined = time.monotonic()
        h.up.append((time.monotonic(), float("inf")))

    def close(self) -> None:
        try:
            self.client.disconnect()
        except Exception:  # noqa: BLE001
            pass


class Viewer(threading.Thread):
    """A viewer's board on a worker: it joins the board and applies each ``board_changed``
    delta as it comes (several workers: ``rev`` is null), as static/board.js does, and notes
    when each tap first shows; it reconnects (and joins again) when its worker restarts."""

    def __init__(self, name: str, worker: Worker, token: str, stop: threading.Event,
                 taps: dict[tuple[str, int], str]):  # fmt: skip
        super().__init__(name=name, daemon=True)
        self.heard = Heard(name)
        self.worker, self.token, self.stopping, self.taps = worker, token, stop, taps
        self.errors: list[str] = []

    def note(self, snapshot: dict[str, Any]) -> None:
        now = time.monotonic()
        for row in snapshot["groups"]:
            for hole, done in (row.get("holes") or {}).items():
                tap = self.taps.get((row["group"], int(hole)))
                if tap and done.get("at"):
                    self.heard.rows.setdefault(tap, now)

    def run(self) -> None:
        while not self.stopping.is_set():
            client = socketio.Client(reconnection=False)
            dropped = threading.Event()

            def gone(*args: Any, dropped: threading.Event = dropped) -> None:
                dropped.set()

            client.on("board_changed", lambda m: self.note({"groups": m.get("groups") or []}))
            client.on("disconnect", gone)
            try:
                client.connect(self.worker.url, auth={"token": self.token, "device": self.name},
                               transports=["websocket"], wait_timeout=5)  # fmt: skip
                answer = client.call("join_board", {"round": ROUND}, timeout=10)
            except Exception:  # noqa: BLE001 - the worker is restarting: try again
                self.stopping.wait(0.2)
                continue
            joined = time.monotonic()
            self.heard.up.append((joined, float("inf")))
            self.note(answer["snapshot"])
            while not self.stopping.is_set() and not dropped.wait(0.5):
                pass
            if dropped.is_set():
                self.heard.up[-1] = (joined, time.monotonic())
            try:
                client.disconnect()
            except Exception:  # noqa: BLE001
                pass


class Marshal(threading.Thread):
    """A marshal on worker 1: sends each of its taps at its planned moment, until acked."""

    def __init__(self, n: int, worker: Worker, token: str, taps: list[tuple[float, Tap]],
                 state: Run):  # fmt: skip
        super().__init__(name=f"marshal-{n}", daemon=True)
        self.worker, self.token, self.taps, self.state = worker, token, taps, state

    def run(self) -> None:
        import crash_round

        crash_round.TOKENS["marshal"] = self.token
        conn = Connection(self.worker.url, self.name)
        try:
            if not conn.sync_clock():
                raise RuntimeError("no clock sync")
            for due, tap in self.taps:
                self.state.stop.wait(max(0.0, due - time.monotonic()))
                payload = {"id": tap.id, "round": ROUND, "group": tap.group, "hole": tap.hole,
                           "at": tap.at.isoformat()}  # fmt: skip
                sent = time.monotonic()
                for _ in range(20):
                    ack = conn.call(
                        "hole_completed", {**payload, "device_time": conn.now().isoformat()}
                    )
                    if ack and ack.get("ok"):
                        self.state.acked(tap.id, sent, ack)
                        break
                else:
                    raise RuntimeError(f"tap {tap.id} never acked")
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            self.state.fail(f"{self.name}: {e!r}")
        finally:
            conn.close()


@dataclass
class Run:
    """What the marshals report to the main thread."""

    cond: threading.Condition = field(default_factory=threading.Condition)
    stop: threading.Event = field(default_factory=threading.Event)
    sent: dict[str, float] = field(default_factory=dict)
    acks: dict[str, dict] = field(default_factory=dict)
    acked_at: dict[str, float] = field(default_factory=dict)
    failed: str = ""

    def acked(self, tap: str, sent: float, ack: dict) -> None:
        with self.cond:
            if tap in self.acks:
                self.failed = self.failed or f"{tap} acked twice"
            self.sent[tap], self.acks[tap] = sent, ack
            self.acked_at[tap] = time.monotonic()
            self.cond.notify_all()

    def fail(self, why: str) -> None:
        with self.cond:
            self.failed = self.failed or why
            self.cond.notify_all()


def lease_holder(queue: str) -> tuple[str | None, int | None]:
    """Return the worker holding round R1's tick lease in Redis, and its process id."""
    import redis

    client = redis.Redis.from_url(queue)
    try:
        keys = client.keys(f"pace:*:tick:{ROUND}")
        value = client.get(keys[0]) if keys else None
    finally:
        client.close()
    if value is None:
        return None, None
    holder = value.decode()
    return holder, int(holder.split(":")[-2])


def wait_for_holder(queue: str, pids: set[int], timeout: float) -> tuple[float, int | None]:
    """Wait until a worker of ``pids`` holds the lease; return the seconds waited and its pid."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        _, pid = lease_holder(queue)
        if pid in pids:
            return time.monotonic() - began, pid
        threading.Event().wait(0.05)  # Redis has no way to say "tell me when it changes"
    return time.monotonic() - began, None


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the run ---------------------------------------------------------------------------------


def run(*, groups: int = 12, marshals: int = 4, referees: int = 2, viewers: int = 3,
        seconds: float = 20.0, kill_at: float = 0.45, within: float = 1.0, tick: float = 0.5,
        lease: float = 2.0, seed: int = 15, budget: float = 240.0) -> dict[str, Any]:  # fmt: skip
    """Play the round on three workers, kill the lease holder; return figures and problems."""
    began = time.monotonic()
    problems: list[str] = []
    figures: dict[str, Any] = {}
    pg = engines.start_postgres()
    redis_server = engines.start_redis()
    workers: list[Worker] = []
    pages: list[Dashboard] = []
    boards: list[Viewer] = []
    state = Run()
    try:
        with tempfile.TemporaryDirectory(prefix="pace-cluster-") as tmp:
            folder = Path(tmp)
            (folder / "config.toml").write_text(f"[scheduler]\nlease_seconds = {lease}\n")
            day = datetime.now(TZ).date()
            end = datetime.combine(day, clock_time(23, 0), tzinfo=TZ)
            draw_text, taps = plan_round(day, groups, end, seed)
            (folder / "draw.csv").write_text(draw_text, encoding="utf-8")
            (folder / "times.csv").write_text(times_csv(taps), encoding="utf-8")
            db = pg.database("cluster")
            setup_round(folder, day=day.isoformat(), draw=folder / "draw.csv", db=db)
            tokens = grant(db, ROUND)
            origin = datetime.combine(day, clock_time(17, 0), tzinfo=TZ)
            workers = [Worker(n, folder, db, redis_server.url, origin, tick) for n in (1, 2, 3)]
            w1, w2, w3 = workers
            w3.start()  # first: it takes the round's lease
            waited, holder = wait_for_holder(redis_server.url, {w3.pid}, 10)
            if holder != w3.pid:
                raise RuntimeError(f"worker 3 did not take the lease ({waited:.1f} s)")
            w1.start()
            w2.start()
            by_hole = {(t.group, t.hole): t.id for t in taps}
            pages = [Dashboard(f"referee-{i}", w2, tokens["referee"]) for i in range(referees)]
            boards = [Viewer(f"viewer-{i}", w3, tokens["viewer"], state.stop, by_hole)
                      for i in range(viewers)]  # fmt: skip
            for b in boards:
                b.start()
            start = time.monotonic() + 1.0
            plan = [(start + i * seconds / len(taps), t) for i, t in enumerate(taps)]
            threads = [Marshal(n, w1, tokens["marshal"], plan[n::marshals], state)
                       for n in range(marshals)]  # fmt: skip
            for t in threads:
                t.start()
            referee = threading.Thread(
                target=acknowledge_alerts, daemon=True,
                args=(w2, tokens["referee"], state, pages[0].heard),
            )  # fmt: skip
            referee.start()

            deadline = began + budget
            kill_after = int(len(taps) * kill_at)
            with state.cond:
                if not state.cond.wait_for(
                    lambda: len(state.acks) >= kill_after or state.failed,
                    deadline - time.monotonic(),
                ):
                    raise TimeoutError(f"{len(state.acks)} taps acked, {kill_after} wanted")
            killed_pid = w3.pid
            t_kill = time.monotonic()
            w3.kill()
            takeover, new_holder = wait_for_holder(redis_server.url, {w1.pid, w2.pid}, lease * 4)
            w3.start()
            for t in threads:
                t.join(max(0.0, deadline - time.monotonic()))
                if t.is_alive():
                    state.fail(f"{t.name} still running at the end of the budget")
            if state.failed:
                problems.append(state.failed)
            settle(pages, boards, taps, state, within + 2.0)
            state.stop.set()
            referee.join(15)
            acknowledge_open(w2, tokens["referee"])
            figures, found = check(workers, tokens, taps, state, pages, boards, folder, day,
                                   t_kill, within)  # fmt: skip
            problems += found
            figures.update({
                "lease_holder_killed": killed_pid == holder,
                "takeover_s": round(takeover, 2),
                "new_holder_alive": new_holder in (w1.pid, w2.pid),
            })  # fmt: skip
            if new_holder not in (w1.pid, w2.pid):
                problems.append(f"no living worker took the lease within {lease * 4:.0f} s")
            elif takeover > lease * 4 / 3 + 1.0:
                problems.append(f"the lease moved after {takeover:.1f} s (lease {lease} s)")
            for w in workers:
                w.stop()
            for w in workers:
                text = "\n".join(p.read_text() for p in folder.glob(f"worker{w.n}-*.log"))
                if "Traceback" in text:
                    problems.append(f"worker {w.n} logged a traceback")
    except Exception as e:  # noqa: BLE001 - reported with the figures so far
        problems.append(f"{type(e).__name__}: {e}")
    finally:
        state.stop.set()
        for p in pages:
            p.close()
        for w in workers:
            w.stop()
        redis_server.stop()
        pg.stop()
    figures.update({"groups": groups, "taps": figures.get("taps", 0), "marshals": marshals,
                    "referee_dashboards": referees, "viewers": viewers,
                    "seconds": round(time.monotonic() - began, 1),
                    "problems": problems})  # fmt: skip
    return figures


def acknowledge_alerts(worker: Worker, token: str, state: Run, screen: Heard) -> None:
    """A referee on worker 2 acknowledges every second the open alerts that their dashboard
    shows (``screen``: the alerts it heard raised) until the end."""
    while not state.stop.wait(1.0):
        try:
            acknowledge_open(worker, token, set(screen.alerts))
        except Exception as e:  # noqa: BLE001
            state.fail(f"referee: {e!r}")
            return


def acknowledge_open(worker: Worker, token: str, shown: set[str] | None = None) -> list[str]:
    """Acknowledge the round's open alerts (those of ``shown`` only, if given)."""
    keys = []
    for alert in worker.request(f"/api/rounds/{ROUND}/snapshot", token)["snapshot"]["alerts"]:
        if shown is not None and alert["key"] not in shown:
            continue
        answer = worker.request(
            "/api/commands/acknowledge_alert", token,
            {"id": str(uuid.uuid4()), "round": ROUND, "alert": alert["key"], "note": "seen"},
        )  # fmt: skip
        if answer.get("ok"):
            keys.append(alert["key"])
        elif answer["error"]["code"] != "already_done":
            raise AssertionError(answer)
    return keys


def settle(pages: list[Dashboard], boards: list[Viewer], taps: list[Tap], state: Run,
           timeout: float) -> None:  # fmt: skip
    """Wait until every page has heard every tap, or ``timeout`` after the last one."""
    deadline = time.monotonic() + timeout
    ids = [t.id for t in taps]
    while time.monotonic() < deadline:
        heard = [p.heard for p in pages] + [b.heard for b in boards]
        if all(i in h.rows for h in heard for i in ids) and all(
            i in p.heard.logged for p in pages for i in ids
        ):
            return
        state.stop.wait(0.05)


def check(workers: list[Worker], tokens: dict[str, str], taps: list[Tap], state: Run,
          pages: list[Dashboard], boards: list[Viewer], folder: Path, day: Any, t_kill: float,
          within: float) -> tuple[dict[str, Any], list[str]]:  # fmt: skip
    """Compare the log, what each page heard and the statuses with the round as planned."""
    problems: list[str] = []
    committee = tokens["committee"]
    events = workers[1].request(f"/api/rounds/{ROUND}/events", committee)["events"]
    logged = [e for e in events if e["type"] == "hole_completed"]
    counts: dict[str, int] = {}
    for e in logged:
        counts[e["id"]] = counts.get(e["id"], 0) + 1
    planned = {t.id: t for t in taps}
    lost = [i for i in state.acks if i not in counts]
    doubled = [i for i, n in counts.items() if n > 1]
    extra = [i for i in counts if i not in planned]
    if lost or doubled or extra or len(state.acks) != len(taps):
        problems.append(f"acked {len(state.acks)}/{len(taps)}, lost {len(lost)}, stored twice "
                        f"{len(doubled)}, not sent {len(extra)}")  # fmt: skip

    # what the pages heard, within `within` of the tap being sent
    handover = {i for i, t in state.acked_at.items() if t_kill - 1.0 <= t <= t_kill + 0.2}
    late: dict[str, list[float]] = {"hole_logged": [], "group_updated": [], "board": []}
    waited: list[float] = []
    for page in pages:
        for i, sent in state.sent.items():
            for kind, seen in (
                ("hole_logged", page.heard.logged),
                ("group_updated", page.heard.rows),
            ):
                if i not in seen:
                    problems.append(f"{page.heard.name} never heard {kind} of tap {i}")
                    continue
                delay = seen[i] - sent
                if kind == "group_updated" and i in handover and delay > within:
                    waited.append(delay)  # its nudge reached the dying worker
                    continue
                late[kind].append(delay)
    down = 0
    for board in boards:
        for i, sent in state.sent.items():
            if not any(j <= sent and d > sent + within for j, d in board.heard.up):
                down += 1
                continue
            if i not in board.heard.rows:
                problems.append(f"{board.heard.name} never showed tap {i}")
                continue
            late["board"].append(board.heard.rows[i] - sent)
    for kind, delays in late.items():
        over = [d for d in delays if d > within]
        if over:
            problems.append(
                f"{len(over)} {kind} seen later than {within} s (worst {max(over):.2f} s)"
            )
    if waited and max(waited) > within + 2 * 4.0:
        problems.append(f"rows at the hand-over waited {max(waited):.1f} s")

    # alerts: raised once each, announced once each, and raised after the kill too
    raised = [e for e in events if e["type"] == "alert_raised"]
    # an alert's raises: its first, then one per re-opening (``generation``, docs/protocol.md),
    # each with an id derived from its key and generation
    raises = [(e["payload"]["key"], e["payload"].get("generation", 1)) for e in raised]
    if len(raises) != len(set(raises)):
        problems.append("an alert was raised twice")
    if any(e["id"] != alert_id(*r) for e, r in zip(raised, raises, strict=True)):
        problems.append("an alert id is not derived from its key")
    keys = [e["id"] for e in raised]
    seqs = {e["id"]: e["seq"] for e in raised}
    before = max((a["seq"] for i, a in state.acks.items() if state.acked_at[i] < t_kill), default=0)
    for page in pages:
        h = page.heard
        # an alert raised while the page was joining is both announced to its room and listed in
        # the snapshot read just after (the page drops the raise of an alert it holds, as
        # static/dashboard/alerts.js does): an overlap counts as a double only when the raise
        # was heard later than that join
        again = {a for a in set(h.alerts) & h.listed if h.alert_times[a] > h.joined + JOIN_RACE_S}
        twice = sorted({a for a in h.alerts if h.alerts.count(a) > 1} | again)
        if twice:
            problems.append(
                f"{h.name} heard an alert announced twice: {twice[:5]} (seq "
                f"{[seqs.get(a) for a in twice[:5]]}, kill after seq {before}; heard "
                f"{[[round(t - t_kill, 2) for t in h.heard_at[a]] for a in twice[:5]]} s "
                f"after the kill; "
                f"listed at the join: {[a in h.listed for a in twice[:5]]})"
            )
        missed = set(keys) - set(page.heard.alerts) - page.heard.listed
        if missed:
            problems.append(f"{page.heard.name} never heard {len(missed)} alerts raised: "
                            f"{sorted(missed)[:5]} (seq {sorted(seqs[k] for k in missed)[:5]},"
                            f" kill after seq {before})")  # fmt: skip
    after_kill = sum(1 for e in raised if e["seq"] > before)
    if not after_kill:
        problems.append("no alert raised after the kill: the tick did not resume")

    # statuses: the three workers, the stored completions away from the server, a single run
    stored = [HoleCompletion(e["payload"]["group"], int(e["payload"]["hole"]),
                             datetime.fromisoformat(e["at"])) for e in logged]  # fmt: skip
    equal_workers = equal_stored = equal_single = True
    for at in STATUS_AT:
        docs = [w.request(f"/api/rounds/{ROUND}/status?at={at}", committee) for w in workers]
        if any(d != docs[0] for d in docs):
            equal_workers = False
            problems.append(f"the workers' statuses at {at} differ")
        fold = offline_document(folder / "draw.csv", stored, at, day)
        if docs[0] != fold:
            equal_stored = False
            problems.append(f"statuses at {at} differ from the stored completions': "
                            f"{differences(docs[0], fold)}")  # fmt: skip
        single = json.loads(
            pace("status", "--course", str(COURSE), "--draw", str(folder / "draw.csv"),
                 "--times", str(folder / "times.csv"), "--at", at, "--json",
                 "--date", day.isoformat(), "--timezone", TIMEZONE, cwd=folder).stdout
        )  # fmt: skip
        if not same_statuses(docs[0], single):
            equal_single = False
            problems.append(f"statuses at {at} differ from a single process's: "
                            f"{differences(docs[0], single)}")  # fmt: skip

    def ms(values: list[float], q: float) -> float | None:
        p = percentile(values, q)
        return None if p is None else round(p * 1000, 1)

    return (
        {
            "taps": len(taps),
            "acked": len(state.acks),
            "stored": len(logged),
            "lost": len(lost),
            "stored_twice": len(doubled),
            "hole_logged_ms": {"p50": ms(late["hole_logged"], 0.5),
                               "p99": ms(late["hole_logged"], 0.99),
                               "max": ms(late["hole_logged"], 1.0)},
            "group_updated_ms": {"p50": ms(late["group_updated"], 0.5),
                                 "p99": ms(late["group_updated"], 0.99),
                                 "max": ms(late["group_updated"], 1.0)},
            "board_ms": {"p50": ms(late["board"], 0.5), "p99": ms(late["board"], 0.99),
                         "max": ms(late["board"], 1.0)},
            "rows_at_handover": len(waited),
            "rows_at_handover_max_s": round(max(waited), 2) if waited else None,
            "board_taps_while_down": down,
            "alerts_raised": len(raised),
            "alerts_raised_after_kill": after_kill,
            "statuses_equal_across_workers": equal_workers,
            "statuses_equal_stored": equal_stored,
            "statuses_equal_single_process": equal_single,
        },
        problems,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=12)
    parser.add_argument("--marshals", type=int, default=4)
    parser.add_argument("--referees", type=int, default=2, help="referee dashboards (worker 2)")
    parser.add_argument("--viewers", type=int, default=3, help="viewers' boards (worker 3)")
    parser.add_argument("--seconds", type=float, default=20.0, help="real seconds of tapping")
    parser.add_argument("--kill-at", type=float, default=0.45, help="share of taps acked")
    parser.add_argument("--within", type=float, default=1.0, help="seconds a page may take")
    parser.add_argument("--tick", type=float, default=0.5)
    parser.add_argument("--lease", type=float, default=2.0, help="scheduler.lease_seconds")
    parser.add_argument("--budget", type=float, default=240.0)
    parser.add_argument("--json", action="store_true", help="print one JSON line of figures")
    args = parser.parse_args(argv)
    figures = run(groups=args.groups, marshals=args.marshals, referees=args.referees,
                  viewers=args.viewers, seconds=args.seconds, kill_at=args.kill_at,
                  within=args.within, tick=args.tick, lease=args.lease,
                  budget=args.budget)  # fmt: skip
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            if key != "problems":
                print(f"  {key:32} {value}")
        print("  problems                         " + ("; ".join(figures["problems"]) or "none"))
    return 0 if not figures["problems"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""Start the real ``pace serve`` on a free loopback port, with a round set up for today.

Used by the end-to-end and browser tests: the server is the real entry point in its own
process (gevent, as in production), its database a real file under ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import socketio

#: the checkout under test: ``python -m pace`` in a child process runs this tree's code, not
#: whatever ``pip install -e`` last pointed at (a second worktree, say)
CHECKOUT = Path(__file__).resolve().parents[1]
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(CHECKOUT), *filter(None, [os.environ.get("PYTHONPATH")])]
)

DATA = Path(__file__).parent / "data" / "formats"
COURSE = DATA / "course_louiseville.toml"
DRAW = DATA / "draw.csv"
TIMEZONE = "Europe/Brussels"
ROUND = "R1"


def free_port() -> int:
    """Return a TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pace(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the ``pace`` command line in ``cwd`` and return its result (raise on failure)."""
    return subprocess.run(
        [sys.executable, "-m", "pace", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )


def setup_round(
    folder: Path,
    *,
    day: str | None = None,
    course: Path = COURSE,
    draw: Path = DRAW,
    round: str = ROUND,
    db: str | Path | None = None,
) -> Path | str:
    """Create ``pace.db`` in ``folder`` (or fill ``db``, a file or a ``postgresql://`` URL)
    with a course and a draw for ``day`` (default today); return the database."""
    db = db or folder / "pace.db"
    day = day or datetime.now(ZoneInfo(TIMEZONE)).date().isoformat()
    pace("import", "course", str(course), "--db", str(db), cwd=folder)
    pace(
        "import", "draw", str(draw), "--round", round, "--date", day,
        "--timezone", TIMEZONE, "--db", str(db), cwd=folder,
    )  # fmt: skip
    return db


def access_code(db: Path, role: str, round: str = ROUND) -> str:
    """Make an access code for ``role`` on ``round`` with ``pace access code``; return it."""
    out = pace("access", "code", "--round", round, "--role", role, "--db", str(db), cwd=db.parent)
    return out.stdout.split("\t")[2].strip()


@dataclass
class LiveServer:
    """A running ``pace serve``: its URL, database and process.

    ``token(role)`` signs in with a fresh code of that role (made through the CLI) and
    returns the session token: pass it as ``auth={"token": ...}`` to Socket.IO clients.
    ``get_json``/``post_json`` act as the committee unless given another ``token``.
    """

    url: str
    port: int
    db: Path
    process: subprocess.Popen[str]
    log: Path
    round: str = ROUND
    tokens: dict[str, str] = field(default_factory=dict)

    def code(self, role: str, round: str | None = None) -> str:
        """Return a new access code of ``role`` for ``round`` (default the server's round)."""
        return access_code(self.db, role, round or self.round)

    def token(self, role: str, round: str | None = None, *, new: bool = False) -> str:
        """Return a session token of ``role`` on ``round`` (one per role, unless ``new``)."""
        round = round or self.round
        key = f"{role}:{round}"
        if new or key not in self.tokens:
            answer = self.post_json("/api/session", {"code": self.code(role, round)}, token="")
            assert answer.get("ok"), answer
            self.tokens[key] = answer["token"]
        return self.tokens[key]

    def _auth(self, token: str | None) -> dict[str, str]:
        token = self.token("committee") if token is None else token
        return {"Authorization": f"Bearer {token}"} if token else {}

    def get_json(self, path: str, token: str | None = None) -> dict:
        """GET ``path`` and return the decoded JSON (errors included)."""
        req = urllib.request.Request(self.url + path, headers=self._auth(token))
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read())

    def post_json(
        self,
        path: str,
        body: object,
        headers: dict[str, str] | None = None,
        token: str | None = None,
    ) -> dict:
        """POST JSON to ``path`` and return the decoded JSON answer (errors included)."""
        req = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **self._auth(token), **(headers or {})},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read())

    def tap(self, group: str, hole: int, at: datetime, round: str = ROUND) -> dict:
        """Log through the HTTP mirror that ``group`` completed ``hole`` at ``at``; assert ok.

        The device's clock is the server's (its snapshot's ``at``), so ``at`` is stored as is.
        """
        now = self.get_json(f"/api/rounds/{round}/snapshot")["snapshot"]["at"]
        body = {"id": str(uuid.uuid4()), "round": round, "group": group, "hole": hole}
        answer = self.post_json(
            "/api/commands/hole_completed", {**body, "at": at.isoformat(), "device_time": now}
        )
        assert answer["ok"], answer
        return answer



def wait_for(found: Callable[[], Any], timeout: float, interval: float = 0.1) -> Any:
    """Return the first truthy ``found()`` within ``timeout`` seconds, asked again every
    ``interval`` (a bounded wait on a condition, never a sleep that moves a test's clock);
    the last falsy answer once the time is out."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while True:
        answer = found()
        if answer or time.monotonic() >= deadline:
            return answer
        pause.wait(interval)

def wait_until_ready(
    url: str, process: subprocess.Popen[str], log: Path, timeout: float = 20
) -> None:
    """Poll the public home page until it answers; fail with the server's log if it dies."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"pace serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url + "/", timeout=1):
                return
        except (urllib.error.URLError, ConnectionError, OSError):
            # not listening yet: wait up to 50 ms for the other condition, the server dying
            try:
                process.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                pass
    raise RuntimeError(f"pace serve did not answer within {timeout} s:\n{log.read_text()}")


def start_demo(folder: Path, *args: str, name: str = "demo") -> LiveServer:
    """Start ``pace demo`` on a free loopback port, its database and log in ``folder``."""
    port = free_port()
    db = folder / f"{name}.db"
    log = folder / f"{name}.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pace", "demo", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(db), *args],
            cwd=folder,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, process, log)
    except BaseException:
        process.kill()
        process.wait(timeout=10)
        raise
    return LiveServer(url, port, db, process, log, round="demo")


@contextmanager
def live_server(
    folder: Path, *, db: Path | None = None, extra_args: Sequence[str] = (), env: dict | None = None
) -> Iterator[LiveServer]:
    """Run ``pace serve`` on a free port over ``db`` (default: a new round for today)."""
    db = db or setup_round(folder)
    port = free_port()
    log = folder / f"serve-{port}.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pace", "serve", "--db", str(db), "--host", "127.0.0.1",
             "--port", str(port), *extra_args],
            cwd=folder,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, process, log)
        yield LiveServer(url, port, db, process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def clocked(hhmm: str, *, tick: float, speed: float = 1) -> list[str]:
    """Return ``pace serve``'s arguments for a clock at today's ``hhmm`` (the round's time
    zone) running at ``speed`` (real speed by default), the scheduler ticking every ``tick``
    seconds."""
    tz = ZoneInfo(TIMEZONE)
    hour, minute = (int(x) for x in hhmm.split(":"))
    origin = datetime.now(tz).replace(hour=hour, minute=minute, second=0, microsecond=0)
    return [
        "--tick", str(tick), "--clock-origin", origin.isoformat(), "--clock-speed", f"{speed:g}",
    ]  # fmt: skip


def connect(
    server: LiveServer,
    role: str | None,
    timeout: float = 5.0,
    round: str | None = None,
    device: str | None = None,
) -> socketio.SimpleClient:
    """Return a Socket.IO client connected to ``server`` as ``role`` on ``round`` (default:
    the server's) (websocket only; ``None``: no session, as the public's pages), its device
    ``device`` (default: a new one)."""
    c = socketio.SimpleClient()
    auth = {"device": device or f"{role or 'public'}-{uuid.uuid4().hex[:8]}"}
    if role is not None:
        auth["token"] = server.token(role, round)
    c.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=timeout)
    return c


@contextmanager
def phones(
    server: LiveServer, timeout: float = 5.0
) -> Iterator[Callable[..., socketio.SimpleClient]]:
    """Yield a maker of clients connected to ``server`` (``make(role, round)``, as
    :func:`connect`); every one is disconnected at the end."""
    opened: list[socketio.SimpleClient] = []

    def make(
        role: str, round: str | None = None, device: str | None = None
    ) -> socketio.SimpleClient:
        c = connect(server, role, timeout, round, device)
        opened.append(c)
        return c

    try:
        yield make
    finally:
        for c in opened:
            c.disconnect()


def server_now(server: LiveServer) -> datetime:
    """Return the server's clock (its snapshot's ``at``)."""
    return datetime.fromisoformat(
        server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]["at"]
    )


def command(server: LiveServer, name: str, **fields: object) -> dict:
    """Send a command as the committee over HTTP, on the server's clock; assert it is ok."""
    now = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]["at"]
    body = {"id": str(uuid.uuid4()), "round": ROUND, **fields}
    if "at" in fields or name == "record_stroke":
        body["device_time"] = now
    answer = server.post_json(f"/api/commands/{name}", body)
    assert answer["ok"], answer
    return answer


def disqualify(server: LiveServer, group: str, player: str) -> None:
    """Four bad times, each told to the player before the next (frbg: the 4th disqualifies)."""
    decided = server_now(server) - timedelta(minutes=10)
    command(server, "decide_timing", group=group, decision="time", at=decided.isoformat())
    for i in range(4):
        stopped = decided + timedelta(minutes=1 + i)
        ack = command(
            server, "record_stroke", group=group, player=player, hole=1, kind="other",
            first_to_play=False, started=(stopped - timedelta(seconds=55)).isoformat(),
            stopped=stopped.isoformat(),
        )  # fmt: skip
        if i < 3:
            told = (stopped + timedelta(seconds=20)).isoformat()
            command(server, "notify_player", group=group, player=player, fault=ack["id"], at=told)


def in_sequence(page: Any, rev: int) -> bool:
    """Apply the pages' rule for a numbered delta (docs/protocol.md, "Deltas") to a test page
    holding ``rev``, ``drop`` (a number to miss once) and ``join()``: return whether the delta
    numbered ``rev`` is the next one to apply (then ``page.rev`` is moved to it); one already
    held is skipped, and a number that skips makes the page join again, once."""
    if rev == page.drop:
        page.drop = None
        return False  # missed
    if rev <= page.rev:
        return False  # the snapshot holds it
    if rev != page.rev + 1:
        page.join()  # a number skipped: read again, once
        if rev <= page.rev:
            return False
        assert rev == page.rev + 1, (rev, page.rev)
    page.rev = rev
    return True

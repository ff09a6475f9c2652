"""pace serve's WSGI server turns Nagle's algorithm off on each connection (issue 13, point 1)."""

from __future__ import annotations

import socket

from flask import Flask

from pace.web.server import NoDelayHandler, no_delay, wsgi_server


def accepted_pair() -> tuple[socket.socket, socket.socket, socket.socket]:
    """Return (listener, client, accepted): a real TCP connection on the loopback."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    client = socket.create_connection(listener.getsockname())
    accepted, _ = listener.accept()
    return listener, client, accepted


def nagle_off(sock: socket.socket) -> bool:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def test_the_server_hands_each_connection_to_the_no_delay_handler():
    server = wsgi_server(Flask(__name__), "127.0.0.1", 0)
    assert server.handler_class is NoDelayHandler


def test_an_accepted_connection_has_nagle_off_before_it_is_handled():
    listener, client, accepted = accepted_pair()
    try:
        assert not nagle_off(accepted)  # the system's default: what the fix is for
        server = wsgi_server(Flask(__name__), "127.0.0.1", 0)
        NoDelayHandler(accepted, accepted.getpeername(), server)
        assert nagle_off(accepted)
    finally:
        for s in (accepted, client, listener):
            s.close()


def test_a_socket_that_is_not_tcp_is_left_as_it_is():
    a, b = socket.socketpair(socket.AF_UNIX)
    try:
        assert no_delay(a) is False
    finally:
        a.close()
        b.close()


#: a reading on the hub in 60 steps of 2 ms, paused between them; meanwhile a commit is handed
#: to the thread pool and a message arrives on a socket (a tap): when does each get through?
HUB_SCRIPT = r"""
import json, sqlite3, sys, threading, time
import gevent
import gevent.event
from gevent import socket
from pace.web.server import hub_pause

pause = hub_pause if sys.argv[1] == "hub_pause" else (lambda: gevent.sleep(0))
at = {}
started = gevent.event.Event()

def reading():
    for _ in range(60):
        started.set()
        t = time.perf_counter()
        while time.perf_counter() - t < 0.002:
            pass
        pause()
    at["reading"] = time.perf_counter()

def tap(conn):
    conn.recv(16)
    at["tap"] = time.perf_counter()

db = sqlite3.connect(sys.argv[2], isolation_level=None, check_same_thread=False)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE events (id TEXT)")

def commit():  # a tap's commit, as the store hands it to the pool
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO events VALUES ('tap')")
    db.execute("COMMIT")

a, b = socket.socketpair()
listener = gevent.spawn(tap, b)
worker = gevent.spawn(reading)
started.wait()  # the reading is under way
t0 = time.perf_counter()
threading.Thread(target=lambda: a.send(b"tap")).start()  # a marshal's tap comes in
gevent.get_hub().threadpool.apply(commit)
at["commit"] = time.perf_counter()
gevent.joinall([worker, listener])
print(json.dumps({k: (v - t0) * 1000 for k, v in at.items()}))
"""


def test_a_reading_paused_on_the_hub_lets_a_tap_and_a_commit_through_between_its_steps(
    tmp_path,
):
    """Under gevent, who holds the field up is read on the hub a group at a time: between two
    groups, a tap received and a commit done in the thread pool go on (docs/architecture.md,
    "The hub is not held by slow parts"). gevent's sleep(0) would not let them: it polls no
    socket and no pool result, so both waited for the whole reading."""
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", HUB_SCRIPT, "hub_pause", str(tmp_path / "pace.db")],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    ms = json.loads(out)
    assert ms["reading"] > 100  # 60 steps of 2 ms: the reading was still on when both came
    assert ms["commit"] < ms["reading"] / 2, ms
    assert ms["tap"] < ms["reading"] / 2, ms

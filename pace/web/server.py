"""The gevent WSGI server ``pace serve`` runs, with Nagle's algorithm off on every connection.

Flask-SocketIO's own ``run`` builds a ``gevent.pywsgi.WSGIServer`` whose accepted sockets keep
Nagle's algorithm on: a connection's second small frame (an ack right after a broadcast, a
``group_updated`` after a ``hole_logged``) then waits for the peer's delayed ACK, ~40 ms
(issue 13, point 1). The live loop sends small frames that must go at once, so every accepted
TCP socket gets ``TCP_NODELAY`` before its first byte is read.

A slow part that runs on the hub (who holds the field up, read a group at a time) pauses
between its steps with :func:`hub_pause`, not ``gevent.sleep(0)``: that one runs the greenlets
already runnable but polls no socket and no thread pool result, so a tap that came in meanwhile,
or a commit done in the pool, would wait for the whole reading (docs/architecture.md, "The hub
is not held by slow parts").
"""

from __future__ import annotations

import logging
import socket
from typing import Any

import gevent
from gevent import pywsgi

try:  # WebSocket transport, as Flask-SocketIO picks it
    from geventwebsocket.handler import WebSocketHandler as _Base
except ImportError:  # pragma: no cover - the websocket comes from simple-websocket then
    _Base = pywsgi.WSGIHandler


#: how long a slow part on the hub pauses between two steps (s): a timer, however short, makes
#: the loop poll the sockets and the thread pool before the part goes on
HUB_PAUSE = 0.0005


def hub_pause() -> None:
    """Let the hub serve whatever became ready (a tap received, a commit done), then go on."""
    gevent.sleep(HUB_PAUSE)


def no_delay(sock: Any) -> bool:
    """Turn Nagle's algorithm off on ``sock``; return whether it applied (a TCP socket)."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        return False  # not TCP (a Unix socket), or already closed
    return True


class NoDelayHandler(_Base):  # type: ignore[misc, valid-type]
    """The WSGI/WebSocket handler of one accepted connection, sending small frames at once."""

    def __init__(self, sock: Any, address: Any, server: Any, rfile: Any = None):
        no_delay(sock)
        super().__init__(sock, address, server, rfile)


def wsgi_server(app: Any, host: str, port: int) -> pywsgi.WSGIServer:
    """Return the server ``pace serve`` runs: ``app`` on (host, port), Nagle off, no access log
    (its lines would quote ``/join?code=…``), its errors through ``logging`` (the configured
    format, redacted: pace/web/logs.py) rather than straight to standard error."""
    # what it reports is a client's malformed request (quoting its request line): a warning
    errors = pywsgi.LoggingLogAdapter(logging.getLogger("gevent.pywsgi"), logging.WARNING)
    return pywsgi.WSGIServer((host, port), app, handler_class=NoDelayHandler, log=None,
                             error_log=errors)  # fmt: skip

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

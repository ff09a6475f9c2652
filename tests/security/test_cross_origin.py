"""A page of another origin cannot drive a signed-in session, socket or HTTP (issue 9).

Chromium signs in to a real ``pace serve`` as a referee (its cookie is ``SameSite=Lax``, and
another port of the same host is the same *site*: the browser sends the cookie along). A page
served from another port then tries what a forged page would: open a Socket.IO connection
(websocket and polling) and grant a 60-minute credit, and POST the command with the cookie.
Nothing is recorded. The same script on pace's own page does record it: the test can fail.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from datetime import datetime

import pytest
from livesupport import TIMEZONE, live_server

pytestmark = pytest.mark.browser

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch Debian's Chromium instead of a Playwright download."""
    return {**browser_type_launch_args, "executable_path": "/usr/bin/chromium",
            "args": CHROMIUM_ARGS}  # fmt: skip


EVIL = b"""<!doctype html><html><head><title>a forged page</title></head><body>
<p>nothing to see</p></body></html>"""

#: what the forged page runs: a socket (one transport), then a cookie-carried POST
ATTACK = """async ([pace, transport, body]) => {
  const result = {};
  await new Promise((done) => {
    const s = document.createElement("script");
    s.src = pace + "/static/vendor/socket.io.min.js";
    s.onload = done; s.onerror = done;
    document.head.appendChild(s);
  });
  result.socket = await new Promise((done) => {
    const socket = window.io(pace, { transports: [transport], reconnection: false,
                                     withCredentials: true });
    const timer = setTimeout(() => { socket.close(); done("no answer"); }, 5000);
    socket.on("connect_error", (e) => { clearTimeout(timer); done("refused: " + e.message); });
    socket.on("connect", () => {
      socket.emit("grant_time_credit", { ...body, id: crypto.randomUUID() }, (ack) => {
        clearTimeout(timer); socket.close(); done(ack && ack.ok ? "accepted" : JSON.stringify(ack));
      });
    });
  });
  for (const type of ["application/json", "text/plain"]) {
    try {
      const r = await fetch(pace + "/api/commands/grant_time_credit", {
        method: "POST", credentials: "include", mode: type === "text/plain" ? "no-cors" : "cors",
        headers: { "Content-Type": type },
        body: JSON.stringify({ ...body, id: crypto.randomUUID() }),
      });
      result[type] = r.type === "opaque" ? "opaque" : String(r.status);
    } catch (e) {
      result[type] = "blocked: " + e.message;
    }
  }
  return result;
}"""


@pytest.fixture
def pace_server(tmp_path) -> Iterator:
    noon = datetime.now(__import__("zoneinfo").ZoneInfo(TIMEZONE)).replace(hour=12, minute=0)
    with live_server(tmp_path, extra_args=["--clock-origin", noon.isoformat()]) as s:
        yield s


@pytest.fixture
def evil_origin() -> Iterator[str]:
    """A page on another port of 127.0.0.1: another origin, the same site."""

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(EVIL)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def credits(server) -> int:
    events = server.get_json(f"/api/rounds/{server.round}/events")["events"]
    return sum(1 for e in events if e["type"] == "time_credit_granted")


def test_a_page_of_another_origin_cannot_drive_a_signed_in_session(
    pace_server, evil_origin, new_context
):
    context = new_context()
    page = context.new_page()
    page.goto(f"{pace_server.url}/join?code={pace_server.code('referee')}")
    assert page.url.rstrip("/") == pace_server.url, page.url
    body = {"round": pace_server.round, "group": "2", "minutes": 60, "reason": "forged"}

    page.goto(evil_origin)
    for transport in ("websocket", "polling"):
        result = page.evaluate(ATTACK, [pace_server.url, transport, body])
        # refused at the handshake (gevent-websocket upgrades before Engine.IO's origin check
        # answers, so a websocket just never opens a session): never an acknowledged command
        assert result["socket"].startswith("refused") or result["socket"] == "no answer", (
            transport, result,
        )  # fmt: skip
        assert result["application/json"].startswith("blocked"), result  # no CORS preflight
        assert result["text/plain"] == "opaque", result  # sent, and refused: csrf_failed
    assert credits(pace_server) == 0, "a page of another origin granted a credit"

    # the same script on pace's own page: the session may grant it (the test can fail)
    page.goto(f"{pace_server.url}/rounds/{pace_server.round}/dashboard")
    result = page.evaluate(ATTACK, [pace_server.url, "websocket", body])
    assert result["socket"] == "accepted", result
    assert result["application/json"] == "200", result
    assert credits(pace_server) == 2
    context.close()

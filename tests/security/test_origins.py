"""Origins, redirects and headers as a browser meets them, on a real ``pace serve`` (issue 9).

The server runs with ``server.public_url`` set (config.toml through ``PACE_CONFIG``), as it
would behind a reverse proxy: its own origin and the public one may open Socket.IO
connections, no other; after signing in only a local path is followed.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
import websocket
from livesupport import LiveServer, live_server

pytestmark = pytest.mark.e2e

PUBLIC = "https://pace.club.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("origins")
    config = folder / "config.toml"
    config.write_text(f'[server]\npublic_url = "{PUBLIC}"\n', encoding="utf-8")
    with live_server(folder, env={"PACE_CONFIG": str(config)}) as s:
        yield s


@pytest.mark.parametrize(
    "origin, accepted",
    [
        (None, True),  # not a browser: python clients carry a token, never a cookie
        ("own", True),
        (PUBLIC, True),
        ("http://127.0.0.1:1", False),  # another port of the same host
        ("https://evil.example", False),
        (PUBLIC + ".evil.example", False),
        ("null", False),  # a sandboxed frame or a file:// page
    ],
)
def test_only_the_servers_own_and_public_origins_may_open_a_socket(server, origin, accepted):
    own = server.url if origin == "own" else origin
    # long-polling, by hand: the Engine.IO handshake (exactly the headers given)
    headers = {} if own is None else {"Origin": own}
    req = urllib.request.Request(
        server.url + "/socket.io/?EIO=4&transport=polling", headers=headers
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            opened = r.read().decode().startswith("0")
    except urllib.error.HTTPError as e:
        assert e.code == 400, e.code
        opened = False
    assert opened is accepted, origin
    # websocket, by hand: the Engine.IO handshake comes only for an accepted origin
    url = server.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket"
    try:
        ws = websocket.create_connection(
            url, timeout=5, **({"suppress_origin": True} if own is None else {"origin": own})
        )
        first = ws.recv()
        ws.close()
    except (websocket.WebSocketException, OSError):
        first = ""
    assert first.startswith("0") is accepted, (origin, first[:80])
    assert "Traceback" not in server.log.read_text()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.mark.parametrize(
    "next_", ["/%09/evil.example", "//evil.example", "/%5Cevil.example", "/%0a/evil.example",
              "https://evil.example/", "/%0d%0aSet-Cookie:%20x=1"],
)  # fmt: skip
def test_signing_in_never_leads_to_another_site(server, next_):
    url = f"{server.url}/join?code={server.code('marshal')}&next={next_}"
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        opener.open(url, timeout=10)
        raise AssertionError("a sign-in link answers a redirect")
    except urllib.error.HTTPError as e:
        assert e.code == 302, (e.code, e.read()[:300])
        location = e.headers["Location"]
    assert location == "/", location  # home: never another site, never a split header


def test_pages_answer_with_the_deployment_headers(server):
    code = server.code("referee")
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with opener.open(f"{server.url}/join?code={code}&next=/rounds/R1/dashboard", timeout=10) as r:
        headers = r.headers
        assert r.status == 200
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"
    # a public https address: the cookie only ever travels over https (the proxy's)
    req = urllib.request.Request(f"{server.url}/join?code={server.code('marshal')}")
    try:
        urllib.request.build_opener(_NoRedirect).open(req, timeout=10)
    except urllib.error.HTTPError as e:
        assert "Secure" in e.headers["Set-Cookie"] and "HttpOnly" in e.headers["Set-Cookie"]

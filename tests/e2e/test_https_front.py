"""pace behind a real HTTPS front: Debian's Caddy with ``tls internal`` (issue 29, part 3).

``pace serve`` listens on loopback with ``server.trusted_proxies = 1`` and an https
``server.public_url`` that is *not* the address the browser opens (a public name elsewhere),
so the pages' Socket.IO origin check passes only if pace believes the ``X-Forwarded-Proto``
and ``-Host`` Caddy sets. Caddy runs on a free loopback port with the repository's own
``deploy/pace.caddy`` (tests/engines.py). Chromium opens https://127.0.0.1:<port>, with
certificate errors ignored for this test only (Caddy's root is made for the test and thrown
away with it):

- the committee signs in: the session cookie is ``Secure``, HSTS is sent;
- a marshal's page installs its service worker over https, goes offline, reloads from the
  worker, queues taps, comes back and lands them once each (the stored log says so);
- its Socket.IO connection is a websocket through the proxy;
- ``X-Forwarded-*`` is believed from the trusted hop only: headers a client forges through
  Caddy are replaced by Caddy's (the rate limit of wrong codes is not dodged by a forged
  address, a forged ``-Proto`` changes nothing), and a pace trusting no proxy, reached
  directly, ignores forged ones.

Skipped, with the reason, only when Caddy cannot start here (``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.request
from datetime import datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import engines
import pytest
from livesupport import TIMEZONE, LiveServer, live_server, setup_round
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
PUBLIC_URL = "https://pace.club.example"
MARSHAL = "/rounds/R1/marshal"
RECONNECT_MS = 20_000
#: Caddy's certificate is signed by a root made for this test: not checked here
UNCHECKED = ssl.create_default_context()
UNCHECKED.check_hostname = False
UNCHECKED.verify_mode = ssl.CERT_NONE


def write_config(folder: Path, trusted_proxies: int) -> Path:
    config = folder / f"config-{trusted_proxies}.toml"
    config.write_text(
        f'[server]\npublic_url = "{PUBLIC_URL}"\ntrusted_proxies = {trusted_proxies}\n',
        encoding="utf-8",
    )
    return config


@pytest.fixture
def pace(tmp_path):
    """``pace serve`` trusting one proxy, its clock at noon (every group of the draw started)."""
    tz = ZoneInfo(TIMEZONE)
    noon = datetime.combine(datetime.now(tz).date(), time(12), tzinfo=tz)
    args = ["--clock-origin", noon.isoformat(), "--tick", "0.5"]
    env = {"PACE_CONFIG": str(write_config(tmp_path, 1))}
    with live_server(tmp_path, extra_args=args, env=env) as server:
        yield server


@pytest.fixture
def caddy(pace):
    try:
        front = engines.start_caddy(f"127.0.0.1:{pace.port}")
    except engines.EngineUnavailable as e:
        pytest.skip(f"Caddy cannot start here: {e}")
    yield front
    front.stop()


def fetch(url: str, *, data: dict | None = None, headers: dict | None = None):
    """GET (or POST JSON) ``url`` without checking Caddy's certificate; return the response
    (an HTTPError is a response too)."""
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers={**(headers or {})})
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        return urllib.request.urlopen(request, timeout=10, context=UNCHECKED)
    except urllib.error.HTTPError as e:
        return e


def socketio_handshake(url: str, origin: str, headers: dict | None = None) -> int:
    """Open an Engine.IO session by long-polling, as a browser page of ``origin``; return the
    status (400: the origin was refused)."""
    answer = fetch(
        f"{url}/socket.io/?EIO=4&transport=polling", headers={"Origin": origin, **(headers or {})}
    )
    return answer.status


def test_behind_caddy_the_pages_work_over_https_offline_and_live(pace, caddy, playwright):
    # pytest-playwright's session (one per test run, shared with the browser suite); this
    # test launches its own Chromium from it, with its own trust
    # Chromium refuses a service worker from a page with a certificate error, ignored or
    # not: this browser trusts the keys of this test's Caddy authority (and no other)
    trusted = "--ignore-certificate-errors-spki-list=" + ",".join(caddy.authority_keys())
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, trusted])
    try:
        committee = browser.new_context(ignore_https_errors=True)
        signed_in = committee.new_page().goto(f"{caddy.url}/join?code={pace.code('committee')}")
        assert signed_in is not None and signed_in.url.rstrip("/") == caddy.url
        cookie = next(c for c in committee.cookies() if c["name"] == "session")
        assert cookie["secure"] and cookie["httpOnly"], cookie
        home = committee.new_page().goto(caddy.url + "/")
        assert home is not None
        assert home.headers["strict-transport-security"].startswith("max-age=")
        committee.close()

        marshal = browser.new_context(ignore_https_errors=True)
        page = marshal.new_page()
        sockets = []
        page.on("websocket", lambda ws: sockets.append(ws))
        page.goto(f"{caddy.url}/join?code={pace.code('marshal')}&next={MARSHAL}")
        assert page.url == caddy.url + MARSHAL
        expect(page.locator("#conn")).to_have_text("Online")
        page.locator("label[for='hole-1']").click()
        expect(page.locator("#app")).to_have_attribute("data-offline", "ready")
        assert page.evaluate("navigator.serviceWorker.controller !== null || 'none'")

        # Socket.IO's transport is a websocket, through Caddy, opened and answered
        live = [ws for ws in sockets if "/socket.io/" in ws.url and not ws.is_closed()]
        assert live and live[0].url.startswith(f"wss://127.0.0.1:{caddy.port}/socket.io/")
        assert "transport=websocket" in live[0].url

        marshal.set_offline(True)
        expect(page.locator("#conn")).to_have_text("Offline")
        reloaded = page.reload()
        assert reloaded is not None and reloaded.ok and reloaded.from_service_worker
        tapped = []
        for i in range(3):
            button = page.locator("button.tap").first
            tapped.append(button.get_attribute("data-group"))
            button.click()
            expect(page.locator("#pending")).to_have_attribute("data-count", str(i + 1))
        assert stored_taps(pace) == []

        marshal.set_offline(False)
        expect(page.locator("#pending")).to_have_attribute("data-count", "0", timeout=RECONNECT_MS)
        expect(page.locator("li.entry[data-state='confirmed']")).to_have_count(3)
        # the page sends its queue again on every reconnection: still once each
        page.reload()
        expect(page.locator("#conn")).to_have_text("Online")
        stored = stored_taps(pace)
        assert sorted((e["payload"]["group"], e["payload"]["hole"]) for e in stored) == sorted(
            (g, 1) for g in tapped
        )
        assert len({e["id"] for e in stored}) == len(stored) == 3
    finally:
        browser.close()


def stored_taps(server: LiveServer) -> list[dict]:
    events = server.get_json("/api/rounds/R1/events")["events"]
    return [e for e in events if e["type"] == "hole_completed"]


def test_forwarded_headers_are_believed_from_the_trusted_hop_only(pace, caddy, tmp_path):
    # Believed from Caddy: pace takes the scheme and host the browser used, so a page of
    # Caddy's origin may open Socket.IO (the public_url is another name), even when the
    # client forges X-Forwarded-Proto (Caddy replaces it).
    assert socketio_handshake(caddy.url, caddy.url) == 200
    forged_proto = {"X-Forwarded-Proto": "http", "X-Forwarded-Host": "evil.example"}
    assert socketio_handshake(caddy.url, caddy.url, forged_proto) == 200
    assert socketio_handshake(caddy.url, "https://evil.example", forged_proto) == 400
    # Directly on pace, bypassing the proxy, the same page origin is not pace's own
    assert socketio_handshake(pace.url, caddy.url) == 400

    # A client forging X-Forwarded-For through Caddy does not dodge the limit of wrong codes:
    # Caddy sets the address it saw, and pace reads that one hop
    assert codes_from_forged_addresses(caddy.url, pace.code("marshal"), "192.0.2") == (
        "rate_limited"
    )

    # A pace that trusts no proxy ignores forged headers from whoever sends them
    folder = tmp_path / "untrusting"
    folder.mkdir()
    db = setup_round(folder)
    env = {"PACE_CONFIG": str(write_config(folder, 0))}
    with live_server(folder, db=db, env=env) as plain:
        lie = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "pace.lie.example"}
        assert socketio_handshake(plain.url, "https://pace.lie.example", lie) == 400
        assert socketio_handshake(plain.url, plain.url, lie) == 200
        assert codes_from_forged_addresses(plain.url, plain.code("marshal"), "198.51.100") == (
            "rate_limited"
        )


def codes_from_forged_addresses(url: str, good: str, network: str) -> str:
    """Send five wrong codes, then ``good``, each claiming another address of ``network`` in
    ``X-Forwarded-For``; return the error code of the last answer (its ``ok`` if none)."""
    for i in range(5):
        wrong = fetch(
            f"{url}/api/session",
            data={"code": "ZZZZ-ZZZZ"},
            headers={"X-Forwarded-For": f"{network}.{i + 1}"},
        )
        assert json.loads(wrong.read())["error"]["code"] == "invalid_code"
    last = json.loads(
        fetch(
            f"{url}/api/session", data={"code": good}, headers={"X-Forwarded-For": f"{network}.99"}
        ).read()
    )
    return str(last["error"]["code"] if not last.get("ok") else "ok")


def test_the_shipped_caddyfiles_are_valid(tmp_path):
    import shutil
    import subprocess

    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (apt-get install caddy)")
    deploy = Path(__file__).resolve().parents[2] / "deploy"
    for name in ("Caddyfile", "Caddyfile.lan"):
        adapted = subprocess.run(
            [caddy, "adapt", "--config", str(deploy / name), "--adapter", "caddyfile"],
            capture_output=True, text=True, timeout=30, env={"HOME": str(tmp_path)},
        )  # fmt: skip
        assert adapted.returncode == 0, adapted.stderr
        config = json.loads(adapted.stdout)
        routes = json.dumps(config["apps"]["http"])
        assert '"handler": "reverse_proxy"' in routes and "127.0.0.1:5000" in routes, name
        assert '"handler": "encode"' in routes, name

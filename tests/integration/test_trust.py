"""Trust, second pass (issue 9), in-process: deployment headers, the sign-in redirect, the
rate limit behind a proxy, storage faults, sockets of sessions ended elsewhere.

The wire-level attacks are in tests/security/; these check what needs the app's settings or
its database file at hand (a real SQLite file: ``max_page_count`` fills it for real).
"""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner
from drivers import COURSE, DAY, DRAW, ROUND, TIMEZONE, MarshalDriver, assert_error, local, new_id

from pace.app import close_app, create_app
from pace.cli import cli


def test_every_page_carries_the_deployment_headers(login):
    r = login("referee").get(f"/rounds/{ROUND}/dashboard")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["Referrer-Policy"] == "same-origin"
    assert "Strict-Transport-Security" not in r.headers  # plain http: no HSTS


def test_the_session_cookie_is_secure_when_the_public_url_is_https(settings, clock):
    for url, secure in (("https://pace.club.example", True), ("", False)):
        app = create_app(settings.replace(server={"public_url": url}), clock=clock, testing=True)
        try:
            code = app.extensions["pace"].access.create_code(_round(app), "marshal")
            r = app.test_client().get(f"/join?code={code}")
            cookie = r.headers["Set-Cookie"]
            assert ("Secure" in cookie) is secure and "HttpOnly" in cookie, cookie
        finally:
            close_app(app)


def _round(app) -> str:
    service = app.extensions["pace"].live.service
    service.import_course(COURSE.read_text(encoding="utf-8"), str(COURSE))
    service.import_draw(
        DRAW.read_text(encoding="utf-8"), str(DRAW), round=ROUND, day=DAY, timezone=TIMEZONE
    )
    return ROUND


@pytest.mark.parametrize(
    "target",
    ["//evil.example", "/\t/evil.example", "/\\evil.example", "https://evil.example",
     "/%0d%0aSet-Cookie:x", "/\n/evil.example", "javascript:alert(1)", "/ok\x00"],
)  # fmt: skip
def test_signing_in_goes_only_to_a_local_path(app, target):
    code = app.extensions["pace"].access.create_code(ROUND, "marshal")
    r = app.test_client().get("/join", query_string={"code": code, "next": target})
    assert r.status_code == 302
    location = r.headers["Location"]
    assert location in ("/", "http://localhost/") or (
        location.startswith("/") and not location.startswith(("//", "/\\")) and "\t" not in location
        and "\n" not in location and "evil" not in location.split("?")[0][:3]
    ), location  # fmt: skip
    if target.startswith("/%0d"):
        assert location == target  # a local path, percent-encoded: kept as it is
    else:
        assert location in ("/", "http://localhost/"), location


def test_the_rate_limit_keys_on_the_client_behind_a_trusted_proxy(settings, clock):
    for proxies, separate in ((1, True), (0, False)):
        app = create_app(
            settings.replace(server={"trusted_proxies": proxies}), clock=clock, testing=True
        )
        try:
            good = app.extensions["pace"].access.create_code(_round(app), "marshal")
            web = app.test_client()
            proxy = {"REMOTE_ADDR": "10.0.0.1"}
            for _ in range(5):
                r = web.post("/api/session", json={"code": "ZZZZ-ZZZZ"}, environ_base=proxy,
                             headers={"X-Forwarded-For": "192.0.2.7"})  # fmt: skip
                assert r.json["error"]["code"] == "invalid_code"
            # another client behind the same proxy, with a code of another prefix
            r = web.post("/api/session", json={"code": good}, environ_base=proxy,
                         headers={"X-Forwarded-For": "192.0.2.8"})  # fmt: skip
            if separate:
                assert r.json["ok"] is True, r.json
            else:  # no proxy is trusted: X-Forwarded-For is ignored, the address is the proxy's
                assert_error(r.json, "rate_limited")
        finally:
            close_app(app)


def _limit_pages(app) -> sqlite3.Connection:
    """The store's own connection (the test's hand on the file, as a full disk would be)."""
    return app.extensions["pace"].store._db.db.conn


def _tap(id: str, group: str, hole: int, clock) -> dict:
    return {"id": id, "round": ROUND, "group": group, "hole": hole,
            "at": local("08:59").isoformat(), "device_time": clock.now().isoformat()}  # fmt: skip


def test_a_full_disk_refuses_the_tap_unacked_and_it_lands_once_the_fault_clears(
    app, connect, clock, client
):
    marshal = MarshalDriver(connect("marshal"), clock.now)
    conn = _limit_pages(app)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the file cannot grow: SQLITE_FULL
    # the field's order, hole after hole: no group logs a hole the group ahead has not, which
    # would reveal a missed tap and store its prompt after the tap (docs/estimates.md)
    slots = [(g, h) for h in range(1, 19) for g in ("1", "2", "3", "4", "5", "6")]
    for group, hole in slots:  # the pages already there still hold a few taps
        tap = _tap(new_id(), group, hole, clock)
        answer = marshal.send("hole_completed", tap)
        if not answer["ok"]:
            break
    assert_error(answer, "storage_unavailable")
    # not acked, not stored; reads still answer meanwhile
    events = client.get(f"/api/rounds/{ROUND}/events")
    assert events.status_code == 200 and tap["id"] not in {e["id"] for e in events.json["events"]}
    assert client.get(f"/api/rounds/{ROUND}/snapshot").status_code == 200
    assert client.get(f"/rounds/{ROUND}/audit.csv").status_code == 200
    over_http = client.post("/api/commands/hole_completed", json=tap)
    assert over_http.status_code == 503
    assert over_http.json["error"]["code"] == "storage_unavailable"
    conn.execute("PRAGMA max_page_count = 1073741823")  # room again: the phone resends
    landed = marshal.send("hole_completed", tap)
    assert landed["ok"] is True and landed["duplicate"] is False, landed
    assert marshal.send("hole_completed", tap)["duplicate"] is True
    after = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    assert [e["id"] for e in after].count(tap["id"]) == 1


def test_a_tap_stored_before_its_alerts_could_be_is_acked_and_its_alerts_follow(
    app, connect, clock, client, monkeypatch
):
    """The store refuses the alerts a tap implies (the disk filled between the two commits):
    the tap is stored, so its ack says so (``storage_unavailable`` would tell the phone nothing
    was kept); the alerts are stored and sent at the next tick, once the store takes writes."""
    from pace.services.alerts import AlertDesk
    from pace.store.errors import StorageError

    def full(self, events, now):
        raise StorageError("database or disk is full")

    monkeypatch.setattr(AlertDesk, "append_implied", full)
    marshal = MarshalDriver(connect("marshal"), clock.now)
    tap = _tap(new_id(), "1", 1, clock)  # 08:59 on hole 1: out of position (docs/rules.md §3)
    answer = marshal.send("hole_completed", tap)
    assert answer["ok"] is True and answer["duplicate"] is False, answer
    types = [e["type"] for e in client.get(f"/api/rounds/{ROUND}/events").json["events"]]
    assert types == ["hole_completed"]
    monkeypatch.undo()
    app.extensions["pace"].live.tick(ROUND)
    events = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    raised = [e for e in events if e["type"] == "alert_raised"]
    # group 1's, which the refused commit lost (the tick also finds the groups overdue by now)
    assert [e["payload"]["group"] for e in raised if e["payload"]["kind"] == "out_of_position"] == [
        "1"
    ]
    assert [e["id"] for e in events].count(tap["id"]) == 1


def test_a_session_revoked_from_the_command_line_loses_its_sockets_at_the_next_sweep(
    app, settings, clock
):
    ext = app.extensions["pace"]
    code = ext.access.create_code(ROUND, "marshal")
    token = ext.access.open_with_code(code).token
    sio = ext.socketio.test_client(app, auth={"token": token, "device": "phone"})
    try:
        assert sio.emit("join_round", {"round": ROUND}, callback=True)["ok"]
        listed = CliRunner().invoke(cli, ["access", "list", "--round", ROUND,
                                          "--db", settings.database.path])  # fmt: skip
        lines = listed.output.splitlines()
        code_id = [line.split("\t")[0] for line in lines if "\tmarshal\t" in line][-1]
        result = CliRunner().invoke(cli, ["access", "revoke", code_id,
                                          "--db", settings.database.path])  # fmt: skip
        assert result.exit_code == 0 and "1 session(s) ended" in result.output, result.output
        assert_error(sio.emit("clock_sync", {}, callback=True), "unauthorized")
        assert sio.is_connected()
        ext.namespace.sweep()  # the periodic clock probe runs it
        assert not sio.is_connected()
    finally:
        if sio.is_connected():
            sio.disconnect()
        type(sio).clients.pop(sio.eio_sid, None)

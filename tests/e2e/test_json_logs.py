"""A real ``pace serve`` with ``server.log_format = "json"`` logs one JSON object a line, each
command with its round, outcome and duration, and never a code, token, secret or cookie
(issue 29, §4).

The whole run is the operator's log: the committee signs in with its secret (a ``/login``
link and ``/api/session``), marshals, a referee and a scorer follow their ``/join?code=…``
links or exchange their codes for tokens, and play round R1 over Socket.IO (taps, a resend,
a refusal, a timed stroke, a score); a stranger tries wrong codes; the committee sounds a
siren over HTTP. The server's standard output and error, read whole once it stopped: every
line is JSON, every command is there with its outcome and duration, the counts of the lines
equal the metrics' and the stored log's, and none of the codes, tokens, the secret or the
cookies used appears anywhere.
"""

from __future__ import annotations

import http.cookiejar
import json
import socket
import urllib.error
import urllib.request
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
import socketio
from drivers import (
    ACK_TIMEOUT,
    MarshalDriver,
    RefereeDriver,
    ScorerDriver,
    new_id,
    server_offset,
    skewed_clock,
)
from livesupport import ROUND, LiveServer, clocked, live_server, setup_round
from prometheus_client.parser import text_string_to_metric_families

pytestmark = pytest.mark.e2e

#: the event each accepted command of this run stores
STORES = {
    "hole_completed": "hole_completed",
    "decide_timing": "timing_decided",
    "record_stroke": "stroke_timed",
    "record_score": "score_recorded",
    "record_siren": "siren",
}


def follow_link(url: str) -> tuple[int, list[str]]:
    """GET ``url`` as a browser would (following the redirect, keeping cookies); return the
    status and the values of the cookies it was given."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    try:
        with opener.open(url, timeout=10) as r:
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    return status, [c.value for c in jar if c.value]


def post(server: LiveServer, path: str, body: dict, token: str = "") -> dict:
    return server.post_json(path, body, token=token)


def open_client(server: LiveServer, token: str) -> socketio.SimpleClient:
    c = socketio.SimpleClient()
    c.connect(server.url, auth={"token": token, "device": f"phone-{new_id()[:8]}"},
              transports=["websocket"], wait_timeout=ACK_TIMEOUT)  # fmt: skip
    return c


def scrape(server: LiveServer) -> dict[tuple[str, tuple], float]:
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_a_played_round_logs_json_lines_with_no_code_token_or_secret(tmp_path: Path):
    db = Path(setup_round(tmp_path))
    settings = tmp_path / "json.toml"
    settings.write_text('[server]\nlog_format = "json"\nmetrics = true\n', encoding="utf-8")
    secrets: dict[str, str] = {}  # what must never be logged, by what it is
    with live_server(tmp_path, db=db, extra_args=clocked("09:10", tick=0.5),
                     env={"PACE_CONFIG": str(settings)}) as server:  # fmt: skip
        # the committee: its secret (never shown by a JSON-logging server: written to a file)
        secret = db.with_name(db.name + ".committee-secret").read_text().strip()
        secrets["committee secret"] = secret
        status, cookies = follow_link(f"{server.url}/login?code={secret}")
        assert status == 200 and cookies, "the /login link signs the committee in"
        secrets.update({f"committee cookie {i}": c for i, c in enumerate(cookies)})
        committee = post(server, "/api/session", {"code": secret})
        assert committee["ok"] and committee["role"] == "committee", committee
        secrets["committee token"] = committee["token"]

        tokens = {}
        for role in ("marshal", "marshal", "referee", "scorer"):
            code = server.code(role)
            secrets[f"{role} code {len(secrets)}"] = code
            status, cookies = follow_link(f"{server.url}/join?code={code}")  # its card's link
            assert status == 200 and cookies, (role, status)
            secrets.update({f"{role} cookie {len(secrets)}-{i}": c for i, c in enumerate(cookies)})
            code = server.code(role)  # another card's code, exchanged by a python client
            secrets[f"{role} code {len(secrets)}"] = code
            opened = post(server, "/api/session", {"code": code})
            assert opened["ok"], opened
            tokens[role] = opened["token"]
            secrets[f"{role} token {len(secrets)}"] = opened["token"]
        # a stranger's wrong codes, by link and by the API
        assert follow_link(f"{server.url}/join?code=WXYZ-2345")[0] >= 400
        assert post(server, "/api/session", {"code": "QRST-6789"})["ok"] is False
        secrets["wrong code (link)"], secrets["wrong code (API)"] = "WXYZ-2345", "QRST-6789"
        # a malformed request quoting a real code: the server's error log has it, redacted
        bad_code = server.code("marshal")
        secrets["code in a malformed request"] = bad_code
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(f"GET /join?code={bad_code} HTTP/7.1\r\n\r\n".encode())
            assert raw.recv(4096).startswith(b"HTTP/1.1 400")

        phone = open_client(server, tokens["marshal"])
        marshal = MarshalDriver(phone, skewed_clock(server_offset(phone)))
        taps = [marshal.tap(g, 1, at) for g, at in (("1", "08:13"), ("2", "08:24"), ("3", "08:33"))]
        assert marshal.tap("1", 1, "08:13", id=taps[0]["id"])["duplicate"] is True
        # a code pasted where a group goes: refused, and not logged either
        marshal.tap(tokens["referee"][:12], 2, "08:30", error="unknown_group")
        secrets["token fragment sent as a group"] = tokens["referee"][:12]
        tablet = open_client(server, tokens["referee"])
        referee = RefereeDriver(tablet, skewed_clock(server_offset(tablet)))
        referee.decide("1", at=referee.clock() - timedelta(minutes=5))
        referee.timed_stroke("1", "Marie Lavoie", 2, 52)
        card = open_client(server, tokens["scorer"])
        scorer = ScorerDriver(card, skewed_clock(server_offset(card)))
        scorer.score("1", "Marie Lavoie", 1, 4)
        siren = {"id": new_id(), "round": ROUND, "kind": "suspension",
                 "at": marshal.now(), "device_time": marshal.now()}  # fmt: skip
        assert post(server, "/api/commands/record_siren", siren, committee["token"])["ok"]
        samples = scrape(server)
        events = server.get_json(f"/api/rounds/{ROUND}/events")["events"]
        stored = Counter(e["type"] for e in events)
        for c in (phone, tablet, card):
            c.disconnect()
    log = server.log.read_text(encoding="utf-8")

    lines = [json.loads(line) for line in log.splitlines() if line.strip()]  # each one JSON
    assert len(lines) == len([x for x in log.splitlines() if x.strip()])
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    commands = [line for line in lines if line["logger"] == "pace.commands"]
    assert commands, "every command is an event of the log"
    for line in commands:
        assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0, line
        assert line["round"] == ROUND and line["role"] in ("marshal", "referee", "scorer",
                                                            "committee"), line  # fmt: skip
    by_outcome = Counter((line["command"], line["outcome"]) for line in commands)
    for command, kind in STORES.items():
        assert by_outcome[(command, "ok")] == stored[kind] > 0, (command, by_outcome, stored)
    assert by_outcome[("hole_completed", "duplicate")] == 1
    assert by_outcome[("hole_completed", "unknown_group")] == 1
    # the log's counts are the metrics' (the same pass through the edge)
    for (command, outcome), n in by_outcome.items():
        labels = (("command", command), ("outcome", outcome))
        assert samples[("pace_commands_total", labels)] == n, (command, outcome)
    assert any("pace serving" in line["message"] for line in lines)  # the banner, as JSON
    assert any("committee secret written to" in line["message"] for line in lines)
    malformed = [line for line in lines if line["logger"] == "gevent.pywsgi"]
    assert malformed and "/join?code=…" in malformed[0]["message"], malformed

    leaked = {what: value for what, value in secrets.items() if value in log}
    assert not leaked, f"logged: {sorted(leaked)}"

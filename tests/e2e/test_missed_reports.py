"""End to end: who a missed report's prompt reaches on a real server (issue 46).

The real ``pace serve`` over a fresh database, its clock at 09:30 local: round R1 for today
takes hole times from the groups only (no marshal), round R2 (the same draw) from officials
and groups. Phones are real python-socketio clients over websocket: a marshal's phone on
hole 3 of each round, a scorer's phone following each round's cards, and the referees'
dashboard. In each round group 2 reports holes 1 and 2, then nothing while group 3 completes
hole 2 behind it: at 09:30 it is ``silent`` on hole 3, which group 1 has reported
(docs/estimates.md). R1 asks group 2's scorer and nobody on hole 3; R2 asks the marshal of
hole 3, and no scorer.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import socketio
from drivers import ACK_TIMEOUT
from livesupport import (
    DRAW,
    ROUND,
    TIMEZONE,
    LiveServer,
    clocked,
    live_server,
    pace,
    phones,
    server_now,
    setup_round,
)

pytestmark = pytest.mark.e2e

MARSHALS = "R2"
REPORTS = [("1", 1, "08:14"), ("1", 2, "08:28"), ("1", 3, "08:42"), ("2", 1, "08:26"),
           ("2", 2, "08:40"), ("3", 1, "08:38"), ("3", 2, "08:52")]  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("missed-reports")
    db = setup_round(folder)
    pace("round", "completions", "groups", "--round", ROUND, "--db", str(db), cwd=folder)
    day = datetime.now(ZoneInfo(TIMEZONE)).date().isoformat()
    pace("import", "draw", str(DRAW), "--round", MARSHALS, "--timezone", TIMEZONE, "--date", day,
         "--completions", "officials_and_groups", "--db", str(db), cwd=folder)  # fmt: skip
    with live_server(folder, db=db, extra_args=clocked("09:30", tick=0.2)) as s:
        yield s


@pytest.fixture
def phone(server) -> Iterator:
    with phones(server, ACK_TIMEOUT) as make:
        yield make


def heard(c: socketio.SimpleClient, seconds: float) -> list[tuple[str, dict]]:
    """Return the events ``c`` receives within ``seconds``."""
    out, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            name, *args = c.receive(timeout=left)
        except socketio.exceptions.TimeoutError:
            break
        out.append((name, args[0] if args else None))
    return out


def play(server: LiveServer, phone, round: str) -> dict[str, socketio.SimpleClient]:
    """Join the round's pages, then report its groups' holes from a scorer's phone."""
    dashboard, marshal, scorer = (
        phone("referee", round),
        phone("marshal", round),
        phone("scorer", round),
    )
    assert dashboard.call("join_round", {"round": round}, timeout=ACK_TIMEOUT)["ok"]
    assert marshal.call("join_round", {"round": round, "holes": [3]}, timeout=ACK_TIMEOUT)["ok"]
    assert scorer.call("join_scores", {"round": round}, timeout=ACK_TIMEOUT)["ok"]
    now = server_now(server)
    for group, hole, hhmm in REPORTS:
        h, m = (int(x) for x in hhmm.split(":"))
        at = now.replace(hour=h, minute=m, second=0, microsecond=0)
        ack = scorer.call("group_completed", {
            "id": str(uuid.uuid4()), "round": round, "group": group, "hole": hole,
            "at": at.isoformat(), "device_time": server_now(server).isoformat()},
            timeout=ACK_TIMEOUT)  # fmt: skip
        assert ack["ok"], ack
    return {"dashboard": dashboard, "marshal": marshal, "scorer": scorer}


def prompts(events: list[tuple[str, dict]]) -> list[dict]:
    return [e["alert"] for name, e in events
            if name == "alert_raised" and e["alert"]["kind"] == "missing_tap"]  # fmt: skip


def test_with_no_marshal_the_scorer_is_asked_and_no_holes_marshal(server, phone):
    pages = play(server, phone, ROUND)
    [prompt] = prompts(heard(pages["dashboard"], 3))
    assert (prompt["key"], prompt["reason"]) == ("missing_tap:2:3", "silent")
    assert not prompt.get("check_holes")
    scorer = [e for name, e in heard(pages["scorer"], 1) if name == "report_asked"]
    assert scorer == [{"round": ROUND, "group": "2", "hole": 3, "alert": "missing_tap:2:3"}]
    assert [name for name, _ in heard(pages["marshal"], 1) if name == "tap_missing"] == []
    own = server.get_json(f"/api/rounds/{ROUND}/cards/2/pace", server.token("scorer"))["pace"]
    assert own["asked"] == [3]


def test_with_marshals_the_marshal_of_the_hole_is_asked_and_no_scorer(server, phone):
    pages = play(server, phone, MARSHALS)
    [prompt] = prompts(heard(pages["dashboard"], 3))
    assert (prompt["key"], prompt["check_holes"]) == ("missing_tap:2:3", [3])
    [asked] = [e for name, e in heard(pages["marshal"], 1) if name == "tap_missing"]
    assert (asked["group"], asked["hole"], asked["alert"]) == ("2", 3, "missing_tap:2:3")
    assert [name for name, _ in heard(pages["scorer"], 1) if name == "report_asked"] == []

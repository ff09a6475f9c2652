"""End to end: a referee times a group out of position over real Socket.IO (issue 5).

The real ``pace serve`` (gevent) on a free loopback port, over a fresh database with round R1
for today; its clock starts at 09:10 local and runs at real speed, its scheduler ticks every
0.2 s. A marshal's phone and a referee's phone are real python-socketio clients over
websocket. Every wait is bounded; nothing sleeps to make time pass.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import socketio
from drivers import (
    ACK_TIMEOUT,
    MarshalDriver,
    RefereeDriver,
    receive_until,
    server_offset,
    skewed_clock,
)
from livesupport import ROUND, LiveServer, clocked, connect, live_server

pytestmark = pytest.mark.e2e

MARIE = "Marie Lavoie"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    args = clocked("09:10", tick=0.2)
    with live_server(tmp_path_factory.mktemp("referee-live"), extra_args=args) as s:
        yield s


@pytest.fixture
def open_client(server) -> Iterator:
    """Return a factory of connected ``SimpleClient``s (websocket only), closed after the test."""
    opened: list[socketio.SimpleClient] = []

    def make(role: str) -> socketio.SimpleClient:
        c = connect(server, role, ACK_TIMEOUT)
        opened.append(c)
        return c

    yield make
    for c in opened:
        c.disconnect()


def is_alert(kind: str, group: str):
    return lambda m: m["alert"]["kind"] == kind and m["alert"]["group"] == group


def for_group(group: str):
    return lambda m: m["group"] == group


def test_a_referee_times_a_group_out_of_position_until_it_is_back(server, open_client):
    phone = open_client("marshal")
    marshal = MarshalDriver(phone, skewed_clock(server_offset(phone)))
    tablet = open_client("referee")
    referee = RefereeDriver(tablet, skewed_clock(server_offset(tablet)))
    referee.join(facts=True)  # the stored strokes too, as they are announced

    # group 1 (lead, 3 players) is allotted 14 min for hole 1: 08:40 is 26 over
    marshal.tap("1", 1, "08:40")
    alert = receive_until(tablet, "alert_raised", is_alert("out_of_position", "1"))
    assert alert["alert"]["over_min"] == 26.0

    # decided at 09:05 on the referee's phone (sent now): strokes are timed after it
    decided = referee.decide("1", at="09:05")
    assert decided["timing"]["timed"] is True
    timing = receive_until(tablet, "timing_changed", for_group("1"))["timing"]
    assert timing["timed"] is True and timing["since"] == decided["at"]
    referee.tell("1", MARIE)
    assert receive_until(tablet, "timing_changed", for_group("1"))["timing"]["told"] == [MARIE]

    # the shot clock: 45 s for an ordinary stroke, 40 allowed
    stroke = referee.timed_stroke("1", MARIE, 2, 45, kind="other")
    assert stroke["verdict"]["bad_time"] is True and stroke["verdict"]["over_s"] == 5.0
    assert stroke["outcome"]["counted"] is True
    assert stroke["outcome"]["penalty"]["kind"] == "warning"
    recorded = receive_until(tablet, "stroke_recorded", lambda m: m["event"]["id"] == stroke["id"])
    assert recorded["verdict"] == stroke["verdict"]
    changed = receive_until(tablet, "penalties_changed", for_group("1"))
    assert [p["player"] for p in changed["players"]] == [MARIE]

    answer = server.get_json(f"/api/rounds/{ROUND}/penalties")
    assert answer["ok"] is True
    [row] = answer["penalties"]
    assert (row["group"], row["player"]) == ("1", MARIE)
    assert [f["id"] for f in row["faults"]] == [stroke["id"]]
    assert row["faults"][0]["awaiting_notification"] is True

    # holes 1–6 are allotted 81 min: holing out on the 6th now (about 09:11) is back in
    # position, and the timing stops by itself at that completion (docs/rules.md §4.6)
    back = marshal.tap("1", 6, marshal.clock())
    prompt = receive_until(tablet, "stop_timing_prompted", for_group("1"))
    assert prompt["round"] == ROUND and prompt["alert"].startswith("stop_timing:1:")
    assert prompt["at"] == back["at"]
    snapshot = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]
    [spell] = snapshot["timing"]["1"]["spells"]
    assert (spell["until"], spell["ended_by"]) == (back["at"], "back_in_position")

    # the referee confirms the players were told
    stopped = referee.stop_timing("1", "back in position on the 6th")
    assert stopped["timing"]["timed"] is False
    timing = receive_until(tablet, "timing_changed", for_group("1"))["timing"]
    assert timing["timed"] is False and timing["told"] == []
    snapshot = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]
    assert snapshot["timing"]["1"]["timed"] is False
    assert [r["player"] for r in snapshot["penalties"]] == [MARIE]


def test_a_decision_not_to_time_while_timed_ends_the_spell(server, open_client):
    """Issue 37: ``not_time`` while a spell runs was refused live (``already_timed``) and
    ignored offline; both now end the spell at its instant, as a stop (docs/penalties.md)."""
    phone = open_client("marshal")
    marshal = MarshalDriver(phone, skewed_clock(server_offset(phone)))
    tablet = open_client("referee")
    referee = RefereeDriver(tablet, skewed_clock(server_offset(tablet)))
    referee.join()
    luc = "Luc Côté"
    marshal.tap("2", 1, "08:55")  # 45 minutes on hole 1: out of position

    referee.decide("2", at="09:02")
    counted = referee.stroke("2", luc, 2, "09:03:00", "09:03:45")
    assert counted["outcome"]["counted"] is True

    ruling = referee.decide("2", "not_time", reason="ruling", at="09:04")

    assert ruling["ok"] is True and ruling["timing"]["timed"] is False
    [spell] = ruling["timing"]["spells"]
    assert (spell["until"], spell["ended_by"]) == (ruling["at"], "stopped")
    timing = receive_until(tablet, "timing_changed", for_group("2"))["timing"]
    while timing["timed"]:  # the decision to time came first
        timing = receive_until(tablet, "timing_changed", for_group("2"))["timing"]
    assert [d["decision"] for d in timing["decisions"]] == ["time", "not_time"]
    # a stroke started after the decision is not timed: refused, as after a stop
    refused = referee.stroke("2", luc, 2, "09:04:30", "09:05:15", error="not_timed")
    assert refused["error"]["field"] == "group"
    # one started inside the spell, sent late, still counts
    late = referee.stroke("2", "Marc Bélanger", 2, "09:03:10", "09:03:55")
    assert late["outcome"]["counted"] is True

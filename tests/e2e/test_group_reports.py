"""End to end: a round with no marshal, its groups' own scorecards report (issue 39).

The real ``pace serve`` over a fresh database: round R1 for today takes hole times from the
groups only (``pace round completions groups``), round R2 from officials only; the server's
clock starts at 10:30 local. Scorers' phones are real python-socketio clients over websocket;
one phone's clock is three minutes fast, and its reports are corrected exactly as a marshal's
taps are. A slow group is found out of position on its scorer's reports alone, its alert says
"reported by the group", a batch proves only its last hole, an official's tap wins over a
report, and hostile reports are refused and change nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from drivers import ACK_TIMEOUT
from livesupport import DRAW as DRAW_CSV
from livesupport import (
    ROUND,
    LiveServer,
    clocked,
    live_server,
    pace,
    phones,
    server_now,
    setup_round,
    wait_for,
)

pytestmark = pytest.mark.e2e

SKEW = timedelta(minutes=3)  # the scorer's phone is three minutes fast


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("group-reports")
    db = setup_round(folder)
    pace("round", "completions", "groups", "--round", ROUND, "--db", str(db), cwd=folder)
    from livesupport import TIMEZONE

    day = datetime.now(ZoneInfo(TIMEZONE)).date().isoformat()  # the round's day, as R1's

    pace("import", "draw", str(DRAW_CSV), "--round", "R2", "--timezone", TIMEZONE,
         "--date", day, "--completions", "officials", "--db", str(db), cwd=folder)  # fmt: skip
    # the clock runs 10 times real speed: an alert on a report waits a minute of the round's
    # clock after the report reached the server (docs/status.md, "Groups' reports")
    with live_server(folder, db=db, extra_args=clocked("10:30", tick=0.2, speed=10)) as s:
        yield s


@pytest.fixture
def phone(server) -> Iterator:
    with phones(server, ACK_TIMEOUT) as make:
        yield lambda role="scorer", round=ROUND: make(role, round)


def local(server: LiveServer, hhmm: str) -> datetime:
    """Return today's ``hhmm`` on the server's clock (its time zone)."""
    now = server_now(server)
    h, m, *s = (int(x) for x in hhmm.split(":"))
    return now.replace(hour=h, minute=m, second=s[0] if s else 0, microsecond=0)


def report(server, c, group, hole, hhmm, *, id=None, round=ROUND, skew=SKEW, **extra) -> dict:
    """Send ``group_completed`` from a phone ``skew`` fast: ``at`` read on that phone."""
    at = local(server, hhmm) + skew
    payload = {"id": id or str(uuid.uuid4()), "round": round, "group": group, "hole": hole,
               "at": at.isoformat(), "device_time": (server_now(server) + skew).isoformat(),
               **extra}  # fmt: skip
    return c.call("group_completed", payload, timeout=ACK_TIMEOUT)


def events(server, round=ROUND) -> list[dict]:
    token = server.token("committee", round)
    return server.get_json(f"/api/rounds/{round}/events", token)["events"]


def completions(server, round=ROUND) -> list[dict]:
    return [e for e in events(server, round) if e["type"] == "hole_completed"]


def row(server, group) -> dict:
    snap = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]
    return next(r for r in snap["groups"] if r["group"] == group)


def near(a: str, b: datetime, seconds: float = 5) -> bool:
    return abs((datetime.fromisoformat(a) - b).total_seconds()) <= seconds


def test_scorers_alone_find_the_slow_group(server, phone):
    one, two = phone(), phone()
    # group 1 on its allotments (14, 17, 11 min for three players on par 4, 5, 3)
    for hole, hhmm in ((1, "08:13"), (2, "08:30"), (3, "08:41")):
        ack = report(server, one, "1", hole, hhmm)
        assert ack["ok"] and not ack["duplicate"], ack
        # the phone's three minutes are taken off, as for a marshal's tap
        assert near(ack["at"], local(server, hhmm)), ack
    # group 2 holes out on the 1st 40 minutes after its start: 37 behind group 1
    slow = report(server, two, "2", 1, "08:50")
    assert slow["ok"], slow
    stored = [e for e in events(server) if e["type"] == "hole_completed"]
    assert all(e["payload"]["source"] == "group" for e in stored)
    assert all(e["by"]["role"] == "scorer" for e in stored)
    assert row(server, "2")["status"] == "out_of_position"
    assert row(server, "2")["holes"]["1"]["source"] == "group"
    # its alert is raised once the report cannot open a batch (a minute of the round's clock,
    # six seconds here) marked as resting on the group's report
    alert = wait_for_alert(server, "2")
    assert alert["reported_by_group"] is True, alert
    # the group's own pace, as its page reads it: facts, no status
    own = server.get_json(f"/api/rounds/{ROUND}/cards/2/pace", server.token("scorer"))["pace"]
    assert own["hole"] == 2 and own["gap_min"] is not None and own["gap_min"] > 10, own
    assert "status" not in own and own["reported"] == [1]


def wait_for_alert(server, group, timeout=10.0) -> dict:
    def alert() -> dict | None:
        snap = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]
        return next((a for a in snap["alerts"]
                     if a["group"] == group and a["kind"] == "out_of_position"), None)  # fmt: skip

    found = wait_for(alert, timeout)
    assert found, f"no out_of_position alert for group {group} within {timeout} s"
    return found


def test_a_resend_is_a_duplicate_and_a_batch_proves_only_its_last_hole(server, phone):
    c = phone()
    id = str(uuid.uuid4())
    first = report(server, c, "3", 1, "08:34", id=id)
    again = report(server, c, "3", 1, "08:34", id=id)
    assert (again["duplicate"], again["seq"]) == (True, first["seq"])
    # holes 2 and 3 entered on the 4th tee, 30 seconds apart: only the 3rd is a fact
    assert report(server, c, "3", 2, "09:10:00")["ok"]
    assert report(server, c, "3", 3, "09:10:30")["ok"]
    holes = row(server, "3")["holes"]
    assert sorted(holes) == ["1", "3"], holes
    assert near(holes["3"]["at"], local(server, "09:10:30"))
    # the 2nd is left to the missed-tap estimates, between the neighbouring facts
    guess = row(server, "3")["estimate"]["holes"]["2"]
    assert (
        local(server, "08:34") <= datetime.fromisoformat(guess["at"]) <= local(server, "09:10:30")
    ), guess
    # a second report of the same hole is refused
    assert report(server, c, "3", 2, "09:11")["error"]["code"] == "already_reported"


def test_an_officials_tap_wins_over_the_groups_report(server, phone):
    c = phone()
    mine = report(server, c, "4", 1, "08:50")
    assert mine["ok"]
    tapped = local(server, "08:46")
    answer = server.post_json("/api/commands/hole_completed", {
        "id": str(uuid.uuid4()), "round": ROUND, "group": "4", "hole": 1,
        "at": tapped.isoformat(), "device_time": server_now(server).isoformat()})  # fmt: skip
    assert answer["ok"], answer
    hole = row(server, "4")["holes"]["1"]
    assert hole["source"] == "official" and near(hole["at"], tapped), hole
    # a scorer voids its group's report (pressed by mistake), never an official's tap
    void = {"round": ROUND, "reason": "pressed by mistake"}
    refused = c.call("void_event", {**void, "id": str(uuid.uuid4()), "target": answer["id"]})
    assert refused["error"]["code"] == "forbidden", refused
    taken = c.call("void_event", {**void, "id": str(uuid.uuid4()), "target": mine["id"]})
    assert taken["ok"], taken


def test_hostile_reports_are_refused_and_change_nothing(server, phone):
    c = phone()
    before = completions(server)
    cases = [
        ({"hole": 42}, "unknown_hole"),
        ({"group": "99"}, "unknown_group"),
        ({"hole": "x"}, "invalid_payload"),
        ({"extra": 1}, "unknown_field"),
        ({"at": "not a time"}, "invalid_payload"),
    ]
    for change, code in cases:
        fields = {"group": "5", "hole": 1, **change}
        group, hole = fields.pop("group"), fields.pop("hole")
        ack = report(server, c, group, hole, "08:55", **fields)
        assert ack["ok"] is False and ack["error"]["code"] == code, (change, ack)
    # a report from the future (beyond the tolerance of a phone's clock)
    future = report(server, c, "5", 1, (server_now(server) + timedelta(minutes=30)).strftime(
        "%H:%M"))  # fmt: skip
    assert future["error"]["code"] == "time_in_future", future
    # before the group's start
    assert report(server, c, "5", 1, "08:30")["error"]["code"] == "before_start"
    # a marshal may not send a group's report
    assert report(server, phone("marshal"), "5", 1, "08:55")["error"]["code"] == "forbidden"
    # a round that takes officials only refuses it, with a clear error
    refused = report(server, phone("scorer", "R2"), "5", 1, "08:55", round="R2")
    assert refused["error"]["code"] == "groups_not_reporting", refused
    assert "officials only" in refused["error"]["message"]
    assert completions(server) == before
    assert completions(server, "R2") == []


def test_the_http_mirror_takes_a_scorers_report(server):
    now = server_now(server)
    body = {"id": str(uuid.uuid4()), "round": ROUND, "group": "6", "hole": 1,
            "at": local(server, "09:05").isoformat(), "device_time": now.isoformat()}  # fmt: skip
    answer = server.post_json("/api/commands/group_completed", body, token=server.token("scorer"))
    assert answer["ok"], answer
    assert row(server, "6")["holes"]["1"]["source"] == "group"


def test_the_setting_changed_on_a_running_server_applies_to_the_next_report(server, phone):
    c = phone("scorer", "R2")
    assert report(server, c, "6", 2, "09:20", round="R2")["error"]["code"] == (
        "groups_not_reporting"
    )
    pace("round", "completions", "officials_and_groups", "--round", "R2", "--db",
         str(server.db), cwd=server.db.parent)  # fmt: skip
    try:
        assert report(server, c, "6", 2, "09:20", round="R2")["ok"]
    finally:
        pace("round", "completions", "officials", "--round", "R2", "--db", str(server.db),
             cwd=server.db.parent)  # fmt: skip

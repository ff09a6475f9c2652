"""Where a group stands on its hole, from its phone (issue 48; docs/positions.md, "The picture").

The app on a FakeClock over a real SQLite file, round R1 on Louiseville with the demo's map,
positions allowed. Groups 1 and 2 share their positions over the socket (the scorers' phones
send the fixes of the groups walking their holes, group 2 slow on the 1st). The committee's and
the referees' places (GET /api/rounds/R1/places) say where each stands on its hole and how far
behind the group ahead; the group's own page is told its own; nothing else is (the public
board, the leaderboard, the snapshot, the strip, the log), no coordinate ever; a place older
than five minutes is stale and measures nothing; the alert resting on a completion inferred
from positions is marked ``from_positions``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from drivers import ROUND, local
from flask import Flask
from positioned import opened, walked

from pace.clock import FakeClock
from pace.services import commands as cmd
from pace.services.life import RoundLifeService

#: the groups' true completions: group 2 (off at 08:10) holes out on the 1st 20 minutes after
#: group 1, out of position
TRUE = {"1": {1: "08:14", 2: "08:31", 3: "08:42"}, "2": {1: "08:34", 2: "08:52"}}
START = {"1": "08:00", "2": "08:10"}
NOW = "08:40"
PLACE_KEYS = {"hole", "phase", "to_green_m", "fraction", "at", "age_s", "stale", "ahead",
              "behind_m"}  # fmt: skip


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(local(NOW))


@pytest.fixture
def app(tmp_path, clock) -> Iterator[Flask]:
    with opened(tmp_path, clock) as app:
        yield app


def fixes(app: Flask, group: str, until: str = NOW) -> list[dict]:
    """The fixes of ``group``'s phone walking its holes as TRUE says, as the phone sends them."""
    return walked(app, group, START[group], TRUE[group], until)


def share_and_send(connect, app, group: str) -> list[dict]:
    phone = connect("scorer", f"phone-{group}")
    ack = phone.emit("share_positions", {"id": f"00000000-0000-4000-8000-00000000000{group}",
                                         "round": ROUND, "group": group, "share": True},
                     callback=True)  # fmt: skip
    assert ack["ok"], ack
    sent = fixes(app, group)
    now = app.extensions["pace"].live.clock.now().isoformat()
    for i in range(0, len(sent), 40):
        ack = phone.emit("send_positions", {"round": ROUND, "group": group, "device_time": now,
                                            "fixes": sent[i : i + 40]}, callback=True)  # fmt: skip
        assert ack["ok"], ack
    return sent


@pytest.fixture
def sent(app, connect) -> list[dict]:
    return share_and_send(connect, app, "1") + share_and_send(connect, app, "2")


def places(login, role="committee") -> dict:
    reply = login(role).get(f"/api/rounds/{ROUND}/places")
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()["places"]


def test_the_committee_is_told_where_each_group_stands_on_its_hole(app, sent, login):
    got = places(login)
    assert set(got) == {"1", "2"}
    for place in got.values():
        assert set(place) == PLACE_KEYS, place  # no coordinate among them
        assert place["phase"] in ("tee", "hole", "green", "walking")
        assert place["to_green_m"] % 10 == 0 and place["to_green_m"] >= 0
        assert 0 <= place["fraction"] <= 1
        assert place["stale"] is False and 0 <= place["age_s"] <= 60, place
    # group 1 completed its 2nd hole at 08:31: on the 3rd at 08:40; group 2 on its 2nd
    assert got["1"]["hole"] == 3 and got["2"]["hole"] == 2
    # group 2 is behind group 1 along the holes: the rest of the 2nd, the walk, part of the 3rd
    assert got["2"]["ahead"] == "1"
    assert 100 <= got["2"]["behind_m"] <= 700 and got["2"]["behind_m"] % 10 == 0, got["2"]
    # group 1 is the first off the 1st tee: no group ahead, nothing invented
    assert got["1"]["ahead"] is None and got["1"]["behind_m"] is None
    assert places(login, "referee") == got


@pytest.mark.parametrize("role", ["marshal", "scorer", "viewer", None])
def test_nobody_else_reads_the_places(app, sent, login, role):
    reply = login(role).get(f"/api/rounds/{ROUND}/places")
    assert reply.status_code in (401, 403), (role, reply.status_code)
    assert "to_green_m" not in reply.get_data(as_text=True)


def test_the_place_goes_stale_after_five_minutes_and_measures_nothing(app, sent, login, clock):
    clock.advance(minutes=5, seconds=50)
    got = places(login)
    assert got["2"]["stale"] is True and got["2"]["age_s"] >= 300, got["2"]
    assert got["2"]["behind_m"] is None and got["2"]["ahead"] is None


def own_place(client, group: str, device: str | None) -> dict | None:
    headers = {"X-Pace-Device": device} if device is not None else {}
    reply = client.get(f"/api/rounds/{ROUND}/cards/{group}/pace", headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()["pace"]["place"]


def test_the_groups_own_page_is_told_its_own_place(app, sent, login):
    reply = login("scorer").get(f"/api/rounds/{ROUND}/cards/2/pace",
                                headers={"X-Pace-Device": "phone-2"})  # fmt: skip
    place = reply.get_json()["pace"]["place"]
    assert place["hole"] == 2 and place["behind_m"] == places(login)["2"]["behind_m"]
    # the group ahead is not named, nor the share of the line
    assert set(place) == {"hole", "phase", "to_green_m", "at", "age_s", "stale", "behind_m"}
    # a group whose phone does not share has none
    other = login("scorer").get(f"/api/rounds/{ROUND}/cards/3/pace").get_json()["pace"]
    assert other["place"] is None


def test_another_groups_phone_is_not_told_a_groups_place(app, sent, login, connect):
    scorer = login("scorer")
    assert own_place(scorer, "2", "phone-2") is not None
    # group 1's phone, a phone that never shared, a page that names no phone: the rest of
    # group 2's card and pace, not its place
    for device in ("phone-1", "phone-9", None, ""):
        assert own_place(scorer, "2", device) is None, device
    # the committee and the referees are told it (as on the dashboard)
    for role in ("committee", "referee"):
        assert own_place(login(role), "2", None) == own_place(scorer, "2", "phone-2")
    # once group 2's phone stops sharing, it is told nothing more either
    phone = connect("scorer", "phone-2")
    ack = phone.emit("share_positions", {"id": "00000000-0000-4000-8000-0000000000a2",
                                         "round": ROUND, "group": "2", "share": False},
                     callback=True)  # fmt: skip
    assert ack["ok"], ack
    assert own_place(scorer, "2", "phone-2") is None


def test_a_malformed_device_header_is_refused_plainly(app, sent, login):
    reply = login("scorer").get(f"/api/rounds/{ROUND}/cards/2/pace",
                                headers={"X-Pace-Device": "phone\u00072"})  # fmt: skip
    assert reply.status_code == 400, reply.status_code
    assert "device" in reply.get_json()["error"]["message"]


def test_no_place_and_no_coordinate_reach_any_other_page(app, sent, login, connect):
    committee = login("committee")
    viewer = login("viewer")
    bodies = {
        "snapshot": committee.get(f"/api/rounds/{ROUND}/snapshot"),
        "strip": committee.get(f"/api/rounds/{ROUND}/strip"),
        "status": committee.get(f"/api/rounds/{ROUND}/status"),
        "events": committee.get(f"/api/rounds/{ROUND}/events"),
        "board": viewer.get(f"/api/rounds/{ROUND}/board"),
        "board page": viewer.get(f"/rounds/{ROUND}/board"),
        "leaderboard": login(None).get(f"/api/rounds/{ROUND}/leaderboard"),
        "places": committee.get(f"/api/rounds/{ROUND}/places"),
        "own pace": login("scorer").get(f"/api/rounds/{ROUND}/cards/2/pace"),
    }
    texts = {name: r.get_data(as_text=True) for name, r in bodies.items()}
    assert all(r.status_code == 200 for r in bodies.values()), {
        n: r.status_code for n, r in bodies.items()}  # fmt: skip
    # what the socket tells the pages: the dashboard's and the board's snapshots
    referee = connect("referee", "ref-1")
    texts["join_round"] = json.dumps(referee.emit("join_round", {"round": ROUND}, callback=True))
    texts["feed"] = json.dumps(referee.get_received())
    board = connect("viewer", "viewer-1")
    texts["join_board"] = json.dumps(board.emit("join_round", {"round": ROUND}, callback=True))
    for name, text in texts.items():
        for f in sent:
            for value in (f["lon"], f["lat"]):
                assert f"{value:.5f}" not in text, (name, value)
        if name not in ("places", "own pace"):
            assert "to_green_m" not in text and "behind_m" not in text, name


def test_an_alert_resting_on_positions_is_marked(app, sent, login):
    snap = login("committee").get(f"/api/rounds/{ROUND}/snapshot").get_json()["snapshot"]
    row = next(r for r in snap["groups"] if r["group"] == "2")
    assert row["holes"]["1"]["source"] == "position", row["holes"]
    alert = next(a for a in snap["alerts"] if a["group"] == "2" and a["kind"] == "out_of_position")
    assert alert["from_positions"] is True, alert
    assert not alert.get("reported_by_group")


def test_sharing_stopped_forgets_the_place(app, sent, login, connect):
    phone = connect("scorer", "phone-2")
    ack = phone.emit("share_positions", {"id": "00000000-0000-4000-8000-0000000000aa",
                                         "round": ROUND, "group": "2", "share": False},
                     callback=True)  # fmt: skip
    assert ack["ok"], ack
    assert set(places(login)) == {"1"}


def test_turning_positions_off_or_finishing_the_round_forgets_the_places(app, sent, login):
    parts = app.extensions["pace"]
    parts.live.service.set_positions(ROUND, False)
    assert places(login) == {}
    assert parts.positions.held(ROUND) == 0
    parts.live.service.set_positions(ROUND, True)
    assert places(login) == {}  # forgotten: nothing comes back until the phones send again


def test_finishing_the_round_forgets_the_places(app, sent, login):
    parts = app.extensions["pace"]
    assert set(places(login)) == {"1", "2"}
    RoundLifeService(parts.live).finish(ROUND, cmd.Author("committee", "desk"))
    assert places(login) == {}
    assert parts.positions.held(ROUND) == 0


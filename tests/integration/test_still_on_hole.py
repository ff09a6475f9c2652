"""A group its phone shows still on its hole past the instant it was overdue there is out of
position before it leaves (issue 48; docs/positions.md, "Still on the hole").

The app on a FakeClock over a real SQLite file, round R1 on Louiseville with the demo's map,
positions allowed, the live loop ticked by hand. Group 1 (off at 08:00) holes out on the 1st at
08:14; group 2 (off at 08:10, ten minutes behind) is still on the 1st at 08:31, 21 minutes into
its 14-minute hole and 17 minutes after group 1 left it. Its phone's fixes prove that it will
complete the hole later than 08:31, so out of position there whatever instant it leaves: the
alert is raised at the next tick, marked ``seen_on_hole`` and ``from_positions``, before the
completion is inferred; when it is, the episode's alert is that same alert, raised once.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime

import pytest
from drivers import ROUND, local
from flask import Flask
from positioned import opened, walked

from pace.clock import FakeClock
from pace.services import commands as cmd

#: the groups' true completions: group 2 holes out on the 1st at 08:34, 20 minutes after
#: group 1 (its interval is 10), out of position there
TRUE = {"1": {1: "08:14", 2: "08:31", 3: "08:42"}, "2": {1: "08:34", 2: "08:52"}}
START = {"1": "08:00", "2": "08:10"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(local("08:31"))


@pytest.fixture
def app(tmp_path, clock) -> Iterator[Flask]:
    with opened(tmp_path, clock) as app:
        yield app


def share(connect, group: str):
    phone = connect("scorer", f"phone-{group}")
    ack = phone.emit("share_positions", {"id": f"00000000-0000-4000-8000-00000000000{group}",
                                         "round": ROUND, "group": group, "share": True},
                     callback=True)  # fmt: skip
    assert ack["ok"], ack
    return phone


def send(app, phone, group: str, since: str, until: str) -> None:
    sent = walked(app, group, START[group], TRUE[group], until, since)
    now = app.extensions["pace"].live.clock.now().isoformat()
    for i in range(0, len(sent), 40):
        ack = phone.emit("send_positions", {"round": ROUND, "group": group, "device_time": now,
                                            "fixes": sent[i : i + 40]}, callback=True)  # fmt: skip
        assert ack["ok"], ack


def tick(app) -> None:
    live = app.extensions["pace"].live
    live.tick(ROUND, live.clock.now())


def alerts_of(login, group: str) -> list[dict]:
    snap = login("committee").get(f"/api/rounds/{ROUND}/snapshot").get_json()["snapshot"]
    return [a for a in snap["alerts"] if a["group"] == group and a["kind"] == "out_of_position"]


def raises_of(login, key: str) -> list[dict]:
    events = login("committee").get(f"/api/rounds/{ROUND}/events").get_json()["events"]
    return [e for e in events if e["type"] == "alert_raised" and e["payload"]["key"] == key]


def test_a_group_still_on_its_hole_past_its_limits_is_out_of_position_before_it_leaves(
    app, connect, login, clock
):
    one, two = share(connect, "1"), share(connect, "2")
    send(app, one, "1", "07:00", "08:31")
    send(app, two, "2", "07:00", "08:31")
    live = app.extensions["pace"].live
    assert live.field(ROUND).group("2").holes_completed == 0  # not inferred: still on the 1st
    tick(app)
    [alert] = alerts_of(login, "2")
    assert alert["hole"] == 1 and alert["reason"] == "seen_on_hole", alert
    assert alert["from_positions"] is True and not alert.get("reported_by_group"), alert
    # raised on a fix showing it on the 1st past 08:24 (over time) and 08:24 (gap 10 after
    # 08:14), at most the phone's last fix
    assert local("08:24") < datetime.fromisoformat(alert["at"]) <= local("08:31"), alert
    assert alert["over_min"] > 0 and alert["gap_min"] > 10, alert
    # its "Why" is the hole in play overdue at that instant, with the alert's figures
    [raised] = raises_of(login, alert["key"])
    why = raised["payload"]["explanation"]
    assert why["status"] == "overdue" and why["basis"] == "projection", why
    assert abs(why["over_min"] - alert["over_min"]) < 0.06 and why["hole"] == 1, why

    # group 2 leaves the green at 08:34: its completion, inferred, is the episode's start and
    # its alert the one raised already (the same key, raised once, still open)
    clock.set(local("08:40"))
    send(app, two, "2", "08:31", "08:40")
    tick(app)
    assert live.field(ROUND).group("2").holes_completed >= 1
    [again] = alerts_of(login, "2")
    assert again["key"] == alert["key"], (again, alert)
    assert len(raises_of(login, alert["key"])) == 1


def test_without_the_fixes_still_on_the_hole_nothing_is_raised_before_it_leaves(
    app, connect, login
):
    # the same fixes, the live loop told nothing of where the phones showed the groups: the
    # alert waits for the completion (the behaviour before this reading)
    live = app.extensions["pace"].live
    live.seen_on_hole = None
    one, two = share(connect, "1"), share(connect, "2")
    send(app, one, "1", "07:00", "08:31")
    send(app, two, "2", "07:00", "08:31")
    tick(app)
    assert alerts_of(login, "2") == []


def test_nothing_is_raised_while_the_group_ahead_has_not_been_seen_leaving_the_hole(
    app, connect, login
):
    # group 1 shares nothing: the 1st may still be held ahead of group 2 (docs/rules.md §3:
    # behind, not overdue), so being on it proves nothing
    two = share(connect, "2")
    send(app, two, "2", "07:00", "08:31")
    tick(app)
    assert alerts_of(login, "2") == []
    assert app.extensions["pace"].live.field(ROUND).group("2").status != "out_of_position"


def official(app, group: str, hole: int, at: str) -> None:
    """A marshal's tap of ``group``'s ``hole`` at ``at``."""
    parts = app.extensions["pace"]
    parts.taps.log_hole_completed(cmd.LogHoleCompleted(
        str(uuid.uuid4()), ROUND, group, hole, cmd.DeviceTime(local(at)),
        cmd.Author("marshal", "m1")))  # fmt: skip


@pytest.fixture
def raised(app, connect, login) -> tuple[dict, object]:
    """Groups 1 and 2 share up to 08:31, a tick: group 2's alert, and group 2's phone."""
    one, two = share(connect, "1"), share(connect, "2")
    send(app, one, "1", "07:00", "08:31")
    send(app, two, "2", "07:00", "08:31")
    tick(app)
    [alert] = alerts_of(login, "2")
    return alert, two


def test_the_alert_stands_once_the_phone_stops_until_the_hole_is_logged(
    app, raised, login, clock
):
    alert, two = raised
    # the phone stops sharing: its fixes are forgotten, what they showed is not
    ack = two.emit("share_positions", {"id": "00000000-0000-4000-8000-0000000000b2",
                                       "round": ROUND, "group": "2", "share": False},
                   callback=True)  # fmt: skip
    assert ack["ok"], ack
    clock.set(local("08:33"))
    tick(app)
    assert [a["key"] for a in alerts_of(login, "2")] == [alert["key"]]
    # a marshal logs group 2 off the 1st at 08:34: out of position there, the same alert
    clock.set(local("08:35"))
    official(app, "2", 1, "08:34")
    tick(app)
    assert [a["key"] for a in alerts_of(login, "2")] == [alert["key"]]
    assert len(raises_of(login, alert["key"])) == 1


def test_the_alert_is_resolved_when_the_hole_logged_finds_the_group_in_position(
    app, raised, login, clock
):
    alert, _ = raised
    # group 3 plays through on the 1st (logged at 08:32), group 2 leaves a minute later: its
    # gap there is a minute, it is behind, not out of position; the alert is resolved
    clock.set(local("08:34"))
    official(app, "3", 1, "08:32")
    official(app, "2", 1, "08:33")
    tick(app)
    assert alerts_of(login, "2") == []
    events = login("committee").get(f"/api/rounds/{ROUND}/events").get_json()["events"]
    resolved = [
        e for e in events if e["type"] == "alert_resolved" and e["payload"]["alert"] == alert["key"]
    ]
    assert len(resolved) == 1

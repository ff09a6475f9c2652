"""Recovery (issue 6): a server that comes back on the same database carries on where it was.

Every acknowledged event is in the file before its ack, and everything else (statuses, open
alerts) is a fold of the log, so a new process on the file must answer exactly as the old
one did; its scheduler must not announce again the alerts already raised, nor bring back the
ones a referee acknowledged. (The kill itself, SIGKILL mid-round, is tests/e2e/test_crash.py.)
"""

from __future__ import annotations

import uuid

from drivers import ROUND, MarshalDriver, RefereeDriver
from flask_socketio.test_client import SocketIOTestClient

from pace.app import close_app, create_app
from pace.scheduler import PaceScheduler
from pace.services.alerts import ALERT_NAMESPACE


def observe(app) -> dict:
    """What pages and programs can see of the round (as the committee)."""
    token = app.extensions["pace"].access.grant("committee", None).token
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    snapshot = client.get(f"/api/rounds/{ROUND}/snapshot").json["snapshot"]
    snapshot.pop("at")
    snapshot.pop("rev")  # the number of this process's last delta: pages rejoin a new one
    return {
        "events": client.get(f"/api/rounds/{ROUND}/events").json["events"],
        "status": client.get(f"/api/rounds/{ROUND}/status").json,
        "later": client.get(f"/api/rounds/{ROUND}/status?at=12:00").json,
        "snapshot": snapshot,
    }


def names(sio) -> list[str]:
    return [e["name"] for e in sio.get_received()]


def test_a_restarted_server_answers_as_before_and_raises_nothing_again(
    app, settings, clock, connect
):
    ext = app.extensions["pace"]
    marshal = MarshalDriver(connect("marshal", "phone"), clock.now)
    referee = RefereeDriver(connect("referee", "tablet"), clock.now)
    tap = marshal.tap("1", 1, "08:40")  # out of position
    marshal.tap("2", 1, "08:24")
    marshal.tap("1", 2, "08:58")
    PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5).tick(ROUND)
    alerts = referee.join()["snapshot"]["alerts"]
    kinds = {a["kind"] for a in alerts}
    assert {"out_of_position", "overdue"} <= kinds, kinds
    acknowledged = next(a for a in alerts if a["kind"] == "out_of_position")
    referee.acknowledge(acknowledged["key"], "spoke to the group")
    before = observe(app)
    # the alerts' ids are derived from their keys: the same situation, the same event
    for a in alerts:
        assert a["id"] == str(uuid.uuid5(ALERT_NAMESPACE, f"{ROUND}/{a['key']}"))

    # a second process on the same file (the first one is simply gone: nothing was flushed
    # or closed for it, as after a crash)
    again = create_app(settings, clock=clock, testing=True)
    try:
        assert observe(again) == before
        socketio = again.extensions["pace"].socketio
        grant = again.extensions["pace"].access.grant
        page = socketio.test_client(
            again, auth={"token": grant("referee", ROUND).token, "device": "after"}
        )
        phone = socketio.test_client(
            again, auth={"token": grant("marshal", ROUND).token, "device": "phone"}
        )
        assert page.emit("join_round", {"round": ROUND}, callback=True)["ok"]
        assert phone.emit("join_round", {"round": ROUND, "holes": [1, 2, 3]}, callback=True)["ok"]
        page.get_received()
        phone.get_received()

        # the scheduler resumes: same instant, then later; nothing already raised comes back
        ext2 = again.extensions["pace"]
        scheduler = PaceScheduler(ext2.live, ext2.broadcaster, tick_seconds=5)
        scheduler.tick(ROUND)
        heard = names(page)
        assert "alert_raised" not in heard and "check_requested" not in names(phone)
        assert set(heard) <= {"group_updated"}
        scheduler.tick(ROUND)
        assert names(page) == []
        assert observe(again) == before
        open_keys = {a["key"] for a in observe(again)["snapshot"]["alerts"]}
        assert acknowledged["key"] not in open_keys

        # a phone resending a tap acked before the crash gets the same answer, once
        resend = MarshalDriver(phone, clock.now).tap("1", 1, "08:40", id=tap["id"])
        assert resend == {**tap, "duplicate": True}
        assert names(page) == []

        # and new situations are still raised, once
        clock.advance(minutes=40)
        MarshalDriver(phone, clock.now).tap("2", 2, "09:45")  # 95 minutes for two holes
        scheduler.tick(ROUND)
        raised = [e["args"][0]["alert"] for e in page.get_received() if e["name"] == "alert_raised"]
        assert raised, "a later overdue group raises its alert"
        assert not {a["key"] for a in raised} & {a["key"] for a in alerts}
        scheduler.tick(ROUND)
        assert "alert_raised" not in names(page)
    finally:
        for c in list(SocketIOTestClient.clients.values()):
            if c.app is again:
                c.disconnect()
                SocketIOTestClient.clients.pop(c.eio_sid, None)
        close_app(again)

    keys = [e["payload"]["key"] for e in observe(app)["events"] if e["type"] == "alert_raised"]
    assert len(keys) == len(set(keys))

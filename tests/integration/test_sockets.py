"""Socket.IO handlers through Flask-SocketIO's test client, on a FakeClock (issue 4).

Round R1 (tests/data/formats): six groups off tee 1 every 10 minutes from 08:00; group "1"
(3 players, lead group) is allotted 14 min for hole 1 (par 4), 31 for holes 1–2, 42 for
1–3, 70 for 1–5. The clock stands at 09:10 local unless a test moves it.
"""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from drivers import (
    COURSE,
    DAY,
    ROUND,
    MarshalDriver,
    RefereeDriver,
    answer_clock_probes,
    assert_error,
    local,
    new_id,
)
from socketio import packet

from pace.app import close_app, create_app
from pace.scheduler import PaceScheduler
from pace.store import open_store


def utc(hhmm: str) -> str:
    """Return ``HH:MM`` local on the round's day as the server writes instants (UTC)."""
    return local(hhmm).astimezone(UTC).isoformat()


def received(sio, name: str) -> list:
    """Return the payloads of the ``name`` events a test client received since last asked."""
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


def events_count(client) -> int:
    """Return how many facts were recorded (the alerts the live loop raised aside)."""
    events = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    return sum(1 for e in events if e["type"] not in ("alert_raised", "alert_resolved"))


def group_status(client, group: str, at: str | None = None) -> dict:
    query = f"?at={at}" if at else ""
    doc = client.get(f"/api/rounds/{ROUND}/status{query}").json
    return next(g for g in doc["groups"] if g["group"] == group)


@pytest.fixture
def scheduler(app) -> PaceScheduler:
    """The scheduler's tick job, called by the test (the APScheduler thread never starts)."""
    ext = app.extensions["pace"]
    return PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5)


# -- taps ------------------------------------------------------------------------------------


def test_a_tap_is_acked_only_once_it_is_committed(app, settings, marshal, monkeypatch):
    server = app.extensions["pace"].socketio.server
    send = server._send_packet
    committed_at_ack: list[bool] = []
    tap_id = new_id()

    def spy(eio_sid, pkt):
        if pkt.packet_type == packet.ACK:
            # another connection on the file sees the event only once it is committed
            with open_store(settings.database.path) as other:
                committed_at_ack.append(other.event(tap_id) is not None)
        send(eio_sid, pkt)

    monkeypatch.setattr(server, "_send_packet", spy)
    ack = marshal.tap("1", 1, "08:13", id=tap_id)

    assert committed_at_ack == [True]
    assert ack == {
        "ok": True,
        "id": tap_id,
        "seq": 1,
        "at": utc("08:13"),
        "duplicate": False,
    }


def test_the_tapped_group_s_row_goes_out_before_the_rows_it_changed_around_it(
    marshal, referee, dashboard, scheduler
):
    """Group 6 logs hole 1 before groups 4 and 5 ahead of it did: their rows change too (they
    are now behind a group that started after them), and its own row, the one the referee is
    looking for, comes first; then theirs, in draw order (issue 13: a tap's row waited for the
    rows of the groups ahead of it in draw order, one fan-out each)."""
    scheduler.tick(ROUND)
    marshal.tap("2", 1, "08:24")
    marshal.tap("3", 1, "08:40")
    dashboard.get_received()

    marshal.tap("6", 1, "09:02")

    rows = [m["group"]["group"] for m in received(dashboard, "group_updated")]
    assert rows == ["6", "4", "5"]


def test_a_resent_tap_is_a_duplicate_and_counted_once(marshal, referee, dashboard, client):
    first = marshal.tap("1", 1, "08:13")
    assert len(received(dashboard, "hole_logged")) == 1

    again = marshal.tap("1", 1, "08:13", id=first["id"])

    assert again == {**first, "duplicate": True}
    assert events_count(client) == 1
    assert received(dashboard, "hole_logged") == []
    assert group_status(client, "1")["holes_completed"] == 1


def test_a_phone_resending_minutes_later_gets_the_same_answer(marshal, clock, client):
    first = marshal.tap("1", 1, "08:13")
    clock.advance(minutes=3)  # the phone resends later: its device_time differs
    again = marshal.tap("1", 1, local("08:13"), id=first["id"])
    assert again["duplicate"] is True and again["at"] == first["at"]
    assert events_count(client) == 1


def test_the_same_id_for_another_hole_is_an_event_conflict(marshal, client):
    first = marshal.tap("1", 1, "08:13")
    refused = marshal.tap("1", 2, "08:30", id=first["id"], error="event_conflict")
    assert refused["error"]["field"] == "id"
    assert events_count(client) == 1
    assert group_status(client, "1")["holes_completed"] == 1


MISSING = object()


def tap_payload(marshal: MarshalDriver, **change: object) -> dict:
    """Return a good tap of group 1 on hole 1 at 08:40, with ``change`` applied."""
    payload = {
        "id": new_id(),
        "round": ROUND,
        "group": "1",
        "hole": 1,
        "at": local("08:40").isoformat(),
        "device_time": marshal.now(),
        **change,
    }
    return {k: v for k, v in payload.items() if v is not MISSING}


BAD_TAPS = [
    pytest.param({"hole": MISSING}, "missing_field", "hole", id="missing-hole"),
    pytest.param({"group": MISSING}, "missing_field", "group", id="missing-group"),
    pytest.param({"id": MISSING}, "missing_field", "id", id="missing-id"),
    pytest.param({"at": None}, "missing_field", "at", id="null-at"),
    pytest.param({"device_time": MISSING}, "missing_field", "device_time", id="no-device-time"),
    pytest.param({"score": 4}, "unknown_field", "score", id="extra-field-score"),
    pytest.param({"hole": "first"}, "invalid_payload", "hole", id="hole-as-words"),
    pytest.param({"hole": True}, "invalid_payload", "hole", id="hole-as-boolean"),
    pytest.param({"hole": 1.5}, "invalid_payload", "hole", id="hole-as-float"),
    pytest.param({"hole": 0}, "invalid_payload", "hole", id="hole-zero"),
    pytest.param({"group": 1}, "invalid_payload", "group", id="group-as-number"),
    pytest.param({"group": "  "}, "invalid_payload", "group", id="group-blank"),
    pytest.param({"id": "tap-1"}, "invalid_payload", "id", id="id-not-a-uuid"),
    pytest.param({"at": "08:40"}, "invalid_payload", "at", id="at-without-date"),
    pytest.param({"at": "2026-06-14T08:40:00"}, "invalid_payload", "at", id="at-without-offset"),
    pytest.param({"at": 1781419200}, "invalid_payload", "at", id="at-as-epoch"),
    pytest.param({"round": "R9"}, "unknown_round", "round", id="unknown-round"),
    pytest.param({"group": "99"}, "unknown_group", "group", id="unknown-group"),
    pytest.param({"hole": 19}, "unknown_hole", "hole", id="hole-19"),
    pytest.param({"at": local("09:12").isoformat()}, "time_in_future", "at", id="in-2-minutes"),
    pytest.param(
        {"at": local("08:40", DAY - timedelta(days=1)).isoformat()}, "wrong_day", "at", id="eve"
    ),
    pytest.param({"at": local("07:55").isoformat()}, "before_start", "at", id="before-tee-time"),
]


@pytest.mark.parametrize(("change", "code", "field"), BAD_TAPS)
def test_a_bad_tap_is_refused_with_the_error_shape_and_changes_nothing(
    marshal, referee, dashboard, client, change, code, field
):
    before = client.get(f"/api/rounds/{ROUND}/status").json

    answer = marshal.send("hole_completed", tap_payload(marshal, **change))

    assert_error(answer, code, field)
    assert events_count(client) == 0
    assert client.get(f"/api/rounds/{ROUND}/status").json == before
    assert received(dashboard, "hole_logged") == received(dashboard, "group_updated") == []


@pytest.mark.parametrize("payload", [None, "1,1,08:40", ["1", 1], 42], ids=repr)
def test_a_tap_that_is_not_an_object_is_refused(marshal, client, payload):
    assert_error(marshal.send("hole_completed", payload), "invalid_payload")
    assert events_count(client) == 0


def test_a_tap_half_a_minute_ahead_of_the_server_is_within_tolerance(marshal, clock):
    ack = marshal.tap("1", 1, clock.now() + timedelta(seconds=29))
    assert ack["duplicate"] is False


def test_a_hole_already_logged_for_the_group_is_refused(marshal, client):
    marshal.tap("1", 1, "08:13")
    refused = marshal.tap("1", 1, "08:14", error="already_logged")
    assert refused["error"]["field"] == "hole"
    assert "08:13" in refused["error"]["message"]
    assert events_count(client) == 1


# -- device clocks -----------------------------------------------------------------------


def test_a_phone_ten_minutes_fast_is_corrected_by_its_clock_probe(sio, marshal, clock, client):
    fast = timedelta(minutes=10)
    assert answer_clock_probes(sio, clock.now() + fast) == 1
    assert marshal.clock_sync()["offset_ms"] == 600_000

    # the phone's clock reads 08:50 when group 1 holes out at 08:40 on the server's clock
    ack = marshal.tap("1", 1, local("08:50"), device_time=(clock.now() + fast).isoformat())

    assert ack["at"] == utc("08:40")
    stored = client.get(f"/api/rounds/{ROUND}/events").json["events"][0]
    assert stored["at"] == ack["at"]
    assert stored["payload"]["device_at"] == local("08:50").isoformat()
    assert stored["payload"]["clock_source"] == "ping"
    assert stored["payload"]["clock_offset_ms"] == 600_000


def test_the_probe_with_the_shortest_round_trip_wins(sio, app, clock, marshal):
    offsets = app.extensions["pace"].namespace.offsets
    sid = app.extensions["pace"].socketio.server.manager.sid_from_eio_sid(sio.eio_sid, "/")
    clock.advance(seconds=4)  # the connect-time probe is answered 4 s later: a poor sample
    answer_clock_probes(sio, clock.now() + timedelta(minutes=5))
    app.extensions["pace"].namespace.probe_clock(sid)
    answer_clock_probes(sio, clock.now() + timedelta(minutes=2))  # answered at once
    assert offsets.offset(sid) == timedelta(minutes=2)


def test_the_periodic_probe_reaches_a_phone_that_missed_the_first_one(app, sio, clock):
    # regression (issue 4): only connections that had answered once were probed again
    namespace = app.extensions["pace"].namespace
    sid = app.extensions["pace"].socketio.server.manager.sid_from_eio_sid(sio.eio_sid, "/")
    sio.get_received()  # the connect-time probe, lost on the course

    namespace.probe_clocks()

    assert [e["name"] for e in sio.get_received()] == ["clock_probe"]
    answer_clock_probes(sio, clock.now() + timedelta(seconds=90))
    assert namespace.offsets.offset(sid) == timedelta(seconds=90)


def test_without_a_probe_the_device_time_at_receipt_gives_the_offset(sio, clock, client):
    fast = timedelta(minutes=10)
    phone = MarshalDriver(sio, lambda: clock.now() + fast)  # never answers clock_probe

    ack = phone.tap("1", 1, local("08:50"))

    assert ack["at"] == utc("08:40")
    payload = client.get(f"/api/rounds/{ROUND}/events").json["events"][0]["payload"]
    assert payload["clock_source"] == "send"
    assert payload["device_at"] == local("08:50").isoformat()


def test_the_future_is_judged_on_the_servers_clock_not_the_phones(sio, clock, client):
    slow = MarshalDriver(sio, lambda: clock.now() - timedelta(minutes=10))
    fast = MarshalDriver(sio, lambda: clock.now() + timedelta(minutes=10))

    slow.tap("1", 1, local("09:05"), error="time_in_future")  # the server's 09:15
    ack = fast.tap("1", 1, local("09:15"))  # the server's 09:05

    assert ack["at"] == utc("09:05")
    assert events_count(client) == 1


# -- joining a round -------------------------------------------------------------------------


def test_joining_a_round_answers_its_snapshot(marshal):
    snapshot = marshal.join(holes=(4, 5))["snapshot"]
    assert snapshot["round"] == ROUND and snapshot["day"] == DAY.isoformat()
    assert snapshot["timezone"] == "Europe/Brussels"
    assert [g["group"] for g in snapshot["groups"]] == ["1", "2", "3", "4", "5", "6"]
    assert len(snapshot["course"]["holes"]) == 18
    assert snapshot["alerts"] == [] and snapshot["suspended"] is False


def test_joining_an_unknown_round_is_refused_and_follows_nothing(marshal, sio, connect, clock):
    marshal.join(round="R9", error="unknown_round")
    other = MarshalDriver(connect("marshal"), clock.now)
    other.tap("1", 1, "08:13")
    assert received(sio, "group_updated") == []


def test_a_second_client_receives_hole_logged_and_group_updated(marshal, referee, dashboard):
    ack = marshal.tap("1", 1, "08:13")

    names = [(e["name"], e["args"][0]) for e in dashboard.get_received()]
    logged = [p for n, p in names if n == "hole_logged"]
    rows = [p["group"] for n, p in names if n == "group_updated"]
    assert len(logged) == 1
    assert logged[0]["id"] == ack["id"] and logged[0]["payload"]["group"] == "1"
    assert logged[0]["payload"]["hole"] == 1
    row = next(r for r in rows if r["group"] == "1")
    assert row["holes_completed"] == 1 and row["holes"]["1"]["id"] == ack["id"]
    assert row["holes"]["1"]["over_min"] == -1.0


def test_a_marshals_phone_hears_the_rows_and_the_ends_of_alerts_not_the_whole_feed(
    sio, marshal, referee, dashboard
):
    # the marshal page shows the groups due at its holes and drops a check once its alert is
    # acknowledged or resolved: nothing else of the feed goes to a phone on a weak signal
    marshal.join(holes=(5,))
    sio.get_received()
    marshal.tap("1", 1, "08:40")  # out of position at once
    marshal.tap("1", 5, "09:05")  # back in position: the out-of-position alert is resolved
    [back] = [p["alert"] for p in received(dashboard, "alert_raised")
              if p["alert"]["kind"] == "back_in_position"]  # fmt: skip
    referee.acknowledge(back["key"], "seen them on 6")

    heard = [(e["name"], e["args"][0]) for e in sio.get_received()]
    # the out-of-position alert's end and the back-in-position's acknowledgement are the
    # referees' (the marshal page shows checks and missed taps only: the ends of overdue and
    # missing_tap alerts reach the holes asked about them)
    assert {name for name, _ in heard} == {"group_updated"}
    rows = [m["group"] for name, m in heard if name == "group_updated"]
    assert sorted(next(r for r in reversed(rows) if r["group"] == "1")["holes"]) == ["1", "5"]
    assert "alert_acknowledged" in {e["name"] for e in dashboard.get_received()}


def test_a_marshals_phone_hears_a_row_only_when_what_its_page_shows_changed(
    sio, marshal, referee, dashboard
):
    # a tap re-judges the groups around it; their rows go to the referees whenever a figure
    # changed, to the marshals only when the groups due at their holes look different
    marshal.join(holes=(2,))
    marshal.tap("1", 1, "08:12")
    sio.get_received(), dashboard.get_received()
    marshal.tap("2", 1, "08:24")  # group 2's row changes its holes
    to_marshal = [e["args"][0]["group"]["group"] for e in sio.get_received()
                  if e["name"] == "group_updated"]  # fmt: skip
    to_referees = [e["args"][0]["group"]["group"] for e in dashboard.get_received()
                   if e["name"] == "group_updated"]  # fmt: skip
    # the groups behind group 2 are judged again (their figures moved) but show the marshal
    # nothing new: their rows stay in the referees' room
    assert to_marshal == ["2"]
    assert to_referees[0] == "2" and len(to_referees) > 1


def test_a_marshal_hears_the_rows_of_the_groups_its_page_shows_and_no_others(
    connect, marshal, referee, dashboard
):
    # the marshal of hole 1 shows a group until it completes hole 1: its later rows reach the
    # marshals of the holes still ahead of it (issue 37: sixty phones, one row each a tap)
    phones = {}
    for hole in (1, 3, 18):
        phones[hole] = connect("marshal", f"hole-{hole}-phone")
        phones[hole].emit("join_round", {"round": ROUND, "holes": [hole]}, callback=True)
    marshal.tap("1", 1, "08:13")  # the server's first row of group 1: every marshal
    for hole, phone in phones.items():
        rows = [r["group"] for r in received(phone, "group_updated") if r["group"]["group"] == "1"]
        assert rows and sorted(rows[-1]["holes"]) == ["1"], hole
    marshal.tap("1", 2, "08:27")
    heard = {hole: [r["group"] for r in received(phone, "group_updated")
                    if r["group"]["group"] == "1"]
             for hole, phone in phones.items()}  # fmt: skip
    assert heard[1] == []  # hole 1 is behind the group: its page no longer shows it
    for hole in (3, 18):
        assert sorted(heard[hole][-1]["holes"]) == ["1", "2"], hole
    # the referees' room hears every row
    assert "1" in [r["group"]["group"] for r in received(dashboard, "group_updated")]
    # voiding the tap on hole 2 shows the group again at hole 2 only: not to hole 1's marshal
    tap2 = next(e for e in referee.join()["snapshot"]["groups"] if e["group"] == "1")
    marshal.void(tap2["holes"]["2"]["id"], "wrong group")
    assert received(phones[1], "group_updated") == []
    assert sorted(received(phones[3], "group_updated")[-1]["group"]["holes"]) == ["1"]
    # a voided tap of hole 1 brings the group back on hole 1's page
    marshal.void(tap2["holes"]["1"]["id"], "wrong group")
    assert received(phones[1], "group_updated")[-1]["group"]["holes"] == {}


def test_the_end_of_a_check_reaches_the_marshals_asked_and_no_others(
    connect, marshal, referee, dashboard, scheduler
):
    phones = {}
    for hole in (2, 9):
        phones[hole] = connect("marshal", f"hole-{hole}-phone")
        phones[hole].emit("join_round", {"round": ROUND, "holes": [hole]}, callback=True)
    marshal.tap("1", 1, "08:13")
    scheduler.tick(ROUND)  # 70 minutes after the start, hole 2 (due at 31) is still in play
    checks = {hole: [c["alert"] for c in received(phone, "check_requested")]
              for hole, phone in phones.items()}  # fmt: skip
    assert "overdue:1:2" in checks[2] and "overdue:1:2" not in checks[9]
    marshal.tap("1", 2, "08:31")  # the group found: the overdue alert's situation ended
    scheduler.tick(ROUND)
    ended = {hole: [e["payload"]["alert"] for e in received(phone, "alert_resolved")]
             for hole, phone in phones.items()}  # fmt: skip
    assert ended[2] == ["overdue:1:2"] and ended[9] == []
    assert "overdue:1:2" in [e["payload"]["alert"] for e in received(dashboard, "alert_resolved")]


def test_the_referees_pages_hear_the_whole_feed(marshal, referee, dashboard):
    marshal.tap("1", 1, "08:40")
    marshal.tap("1", 5, "09:05")
    referee.acknowledge("back_in_position:1:h1", "seen them on 6")

    heard = {e["name"] for e in dashboard.get_received()}
    assert heard >= {"hole_logged", "group_updated", "alert_raised", "alert_resolved",
                     "alert_acknowledged"}  # fmt: skip


def test_a_late_joiners_snapshot_does_not_swallow_updates_for_the_others(
    app, marshal, referee, dashboard, connect, clock, scheduler
):
    # regression (issue 4): join_round's snapshot used to reset what the tick compares with
    clock.set(local("08:05"))
    scheduler.tick(ROUND)
    dashboard.get_received()
    clock.set(local("08:12"))  # group 2 (off at 08:10) has started: the clock changed its row

    late = RefereeDriver(connect("referee", "late-tablet"), clock.now).join()["snapshot"]
    assert next(g for g in late["groups"] if g["group"] == "2")["status"] == "on_pace"
    scheduler.tick(ROUND)

    rows = [p["group"] for p in received(dashboard, "group_updated")]
    assert [r["status"] for r in rows if r["group"] == "2"] == ["on_pace"]


# -- corrections -----------------------------------------------------------------------------


def test_a_corrected_hole_time_changes_the_status_and_keeps_the_original(
    marshal, referee, dashboard, clock, client
):
    clock.set(local("08:25"))
    tap = marshal.tap("1", 1, "08:24")
    assert group_status(client, "1")["status"] == "out_of_position"
    dashboard.get_received()

    ack = marshal.correct(tap["id"], "08:13", "tapped late, flag was back at 08:13")

    status = group_status(client, "1")
    assert (status["status"], status["over_min"]) == ("on_pace", -1.0)
    log = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    log = [e for e in log if not e["type"].startswith("alert_")]  # the tap at 08:24 raised one
    assert [e["type"] for e in log] == ["hole_completed", "hole_time_corrected"]
    assert log[0]["at"] == utc("08:24")  # the original is never updated
    assert log[1]["payload"]["target"] == tap["id"] and log[1]["payload"]["reason"]
    announced = received(dashboard, "hole_time_corrected")
    assert [e["id"] for e in announced] == [ack["id"]]


def test_a_voided_tap_no_longer_counts(marshal, referee, dashboard, clock, client):
    clock.set(local("08:25"))
    tap = marshal.tap("1", 1, "08:24")
    dashboard.get_received()

    ack = marshal.void(tap["id"], "wrong group: that was group 2")

    status = group_status(client, "1")
    assert (status["status"], status["holes_completed"]) == ("overdue", 0)
    assert [e["id"] for e in received(dashboard, "event_voided")] == [ack["id"]]
    assert events_count(client) == 2
    marshal.tap("1", 1, "08:15")  # the hole may be logged again once voided


@pytest.mark.parametrize(
    ("what", "code"),
    [
        ("void twice", "already_done"),
        ("correct a voided tap", "already_done"),
        ("correct a siren", "wrong_target"),
        ("void an unknown event", "unknown_target"),
        ("correct to the future", "time_in_future"),
        ("correct to before the tee time", "before_start"),
    ],
)
def test_a_correction_that_cannot_apply_is_refused(marshal, referee, client, what, code):
    tap = marshal.tap("1", 1, "08:24")
    siren = referee.siren("suspension", "09:00")
    if what == "void twice":
        marshal.void(tap["id"])
        marshal.void(tap["id"], error=code)
    elif what == "correct a voided tap":
        marshal.void(tap["id"])
        marshal.correct(tap["id"], "08:13", error=code)
    elif what == "correct a siren":
        marshal.correct(siren["id"], "08:13", error=code)
    elif what == "void an unknown event":
        marshal.void(new_id(), error=code)
    elif what == "correct to the future":
        marshal.correct(tap["id"], "09:20", error=code)
    else:
        marshal.correct(tap["id"], "07:59", error=code)
    voids = 1 if what in ("void twice", "correct a voided tap") else 0
    assert events_count(client) == 2 + voids


# -- sirens ------------------------------------------------------------------------------


def test_a_suspension_siren_stops_the_clocks_until_play_resumes(referee, dashboard, clock, client):
    over_at_siren = group_status(client, "1")["over_min"]
    ack = referee.siren("suspension", "09:10")
    assert [e["id"] for e in received(dashboard, "siren_recorded")] == [ack["id"]]

    clock.advance(minutes=20)
    assert group_status(client, "1")["over_min"] == over_at_siren
    assert referee.join()["snapshot"]["suspended"] is True

    referee.siren("resume", "09:30")
    clock.advance(minutes=5)
    assert group_status(client, "1")["over_min"] == over_at_siren + 5


def test_an_unknown_siren_kind_is_refused(referee, client):
    assert referee.siren("horn", "09:00", error="invalid_payload")["error"]["field"] == "kind"
    assert events_count(client) == 0


# -- the tick and alerts ---------------------------------------------------------------------


def out_of_position(alerts: list[dict], group: str = "1") -> list[dict]:
    return [a for a in alerts if a["kind"] == "out_of_position" and a["group"] == group]


def test_a_tap_raises_its_out_of_position_alert_at_once_and_once(
    marshal, referee, dashboard, scheduler
):
    dashboard.get_received()
    marshal.tap("1", 1, "08:40")  # 40 minutes on a 14-minute hole, and no group ahead

    raised = [p["alert"] for p in received(dashboard, "alert_raised")]  # with the tap (issue 13)
    scheduler.tick(ROUND)
    scheduler.tick(ROUND)

    [alert] = out_of_position(raised)
    assert (alert["hole"], alert["over_min"]) == (1, 26.0)
    assert out_of_position([p["alert"] for p in received(dashboard, "alert_raised")]) == []
    assert out_of_position(referee.join()["snapshot"]["alerts"]) == [alert]


def test_an_acknowledged_alert_leaves_the_open_alerts(marshal, referee, dashboard, scheduler):
    marshal.tap("1", 1, "08:40")
    scheduler.tick(ROUND)
    [alert] = out_of_position([p["alert"] for p in received(dashboard, "alert_raised")])

    ack = referee.acknowledge(alert["key"], "referee on the way to hole 2")

    assert [e["id"] for e in received(dashboard, "alert_acknowledged")] == [ack["id"]]
    assert out_of_position(referee.join()["snapshot"]["alerts"]) == []
    referee.acknowledge(alert["key"], error="already_done")
    referee.acknowledge("out_of_position:9:whenever", error="unknown_alert")
    scheduler.tick(ROUND)
    assert out_of_position([p["alert"] for p in received(dashboard, "alert_raised")]) == []


def test_a_group_back_in_position_after_a_later_hole_raises_its_alert(
    marshal, referee, dashboard, scheduler
):
    marshal.tap("1", 1, "08:40")
    scheduler.tick(ROUND)
    dashboard.get_received()

    marshal.tap("1", 5, "09:05")  # 65 minutes for five holes allotted 70
    scheduler.tick(ROUND)

    alerts = [p["alert"] for p in received(dashboard, "alert_raised")]
    back = [a for a in alerts if a["kind"] == "back_in_position" and a["group"] == "1"]
    assert [a["hole"] for a in back] == [5]
    assert out_of_position(alerts) == []


def test_an_overdue_group_asks_the_marshals_near_its_hole_to_check(
    sio, marshal, referee, scheduler
):
    marshal.join(holes=(2,))
    sio.get_received()
    marshal.tap("1", 1, "08:13")

    scheduler.tick(ROUND)  # 70 minutes after the start, hole 2 (due at 31) is still in play

    checks = [c for c in received(sio, "check_requested") if c["group"] == "1"]
    assert [(c["round"], c["hole"], c["alert"]) for c in checks] == [(ROUND, 2, "overdue:1:2")]


def test_the_marshal_on_the_last_hole_is_asked_to_check_a_group_overdue_on_hole_1(
    sio, marshal, referee, scheduler
):
    # the course is a loop: hole 18's green is next to hole 1's tee, so its marshal helps
    marshal.join(holes=(18,))
    sio.get_received()

    scheduler.tick(ROUND)  # group 1 (off at 08:00) has not completed hole 1, due at 08:15

    checks = [c for c in received(sio, "check_requested") if c["group"] == "1"]
    assert [(c["hole"], c["alert"]) for c in checks] == [(1, "overdue:1:1")]
    alert = next(a for a in referee.join()["snapshot"]["alerts"] if a["key"] == "overdue:1:1")
    assert alert["check_holes"] == [18, 1, 2]


def test_alerts_are_not_raised_again_after_a_restart(settings, clock, marshal, scheduler):
    marshal.tap("1", 1, "08:40")
    scheduler.tick(ROUND)

    again = create_app(settings, clock=clock, testing=True)
    try:
        deltas = again.extensions["pace"].live.tick(ROUND)
    finally:
        close_app(again)
    assert [d for d in deltas if d.kind == "alert"] == []


def test_a_setup_changed_in_play_skips_a_number_of_the_feed_so_pages_read_it_again(
    app, marshal, referee, dashboard, scheduler
):
    live = app.extensions["pace"].live
    marshal.tap("1", 1, "08:13")
    before = referee.join()["snapshot"]["rev"]
    assert before >= 1
    dashboard.get_received()
    # the course imported again (a par corrected, say): the round's setup is read again
    live.service.import_course(COURSE.read_text(encoding="utf-8"), str(COURSE))
    marshal.tap("2", 1, "08:24")
    revs = [p["rev"] for p in received(dashboard, "group_updated")]
    assert revs and revs[0] == before + 2, (before, revs)  # a page holding `before` re-reads
    assert referee.join()["snapshot"]["rev"] >= revs[-1]

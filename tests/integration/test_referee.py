"""The referees' commands through Flask-SocketIO's test client, on a FakeClock (issue 5).

Round R1 (frbg): group "1" (Marie Lavoie, Julie Gagnon, Sophie Tremblay; lead group, off at
08:00) is allotted 14 min for hole 1 and 70 min for holes 1–5. Holing out on the 1st at 08:40
puts it 26 min over: out of position. The clock stands at 09:10 local unless a test moves it.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

import pytest
from drivers import (
    COURSE,
    DAY,
    DRAW,
    ROUND,
    TIMEZONE,
    MarshalDriver,
    RefereeDriver,
    assert_error,
    new_id,
)
from flask_socketio.test_client import SocketIOTestClient

from pace import config
from pace.app import close_app, create_app
from pace.scheduler import PaceScheduler

MARIE, JULIE, SOPHIE = "Marie Lavoie", "Julie Gagnon", "Sophie Tremblay"


def received(sio, name: str) -> list:
    """Return the payloads of the ``name`` events a test client received since last asked."""
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


def received_all(sio) -> dict[str, list]:
    out: dict[str, list] = {}
    for e in sio.get_received():
        out.setdefault(e["name"], []).append(e["args"][0])
    return out


def log(client, round: str = ROUND) -> list[dict]:
    return client.get(f"/api/rounds/{round}/events").json["events"]


def penalties(client, round: str = ROUND) -> list[dict]:
    answer = client.get(f"/api/rounds/{round}/penalties")
    assert answer.status_code == 200 and answer.json["ok"] is True
    return answer.json["penalties"]


def row_of(rows: list[dict], player: str) -> dict:
    return next(r for r in rows if r["player"] == player)


def add_round(app, name: str, **options) -> None:
    """Set up another round on the same course, draw and day as R1."""
    service = app.extensions["pace"].live.service
    service.import_draw(
        DRAW.read_text(encoding="utf-8"), str(DRAW), round=name, day=DAY, timezone=TIMEZONE,
        **options,
    )  # fmt: skip


@pytest.fixture
def tablet(connect):
    """The referee's phone, following round R1; its join broadcasts are drained."""
    sio = connect("referee", "referee-phone")
    sio.get_received()
    return sio


@pytest.fixture
def referee(tablet, clock) -> RefereeDriver:
    driver = RefereeDriver(tablet, clock.now)
    driver.join(facts=True)  # the tests read the stored strokes as they are announced
    tablet.get_received()
    return driver


@pytest.fixture
def out_of_position(marshal, tablet) -> None:
    """Group 1 holes out on the 1st at 08:40: 26 minutes over, out of position."""
    marshal.tap("1", 1, "08:40")
    tablet.get_received()


@pytest.fixture
def timed(referee, out_of_position, tablet, clock) -> None:
    """Group 1 is out of position and being timed since two minutes (09:08)."""
    clock.advance(minutes=-2)
    referee.decide("1")
    clock.advance(minutes=2)
    tablet.get_received()


@pytest.fixture
def scheduler(app) -> PaceScheduler:
    """The scheduler's tick job with the referees' announcements, called by the test."""
    ext = app.extensions["pace"]
    return PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5)


# -- deciding, telling, stopping ------------------------------------------------------------


def test_deciding_to_time_a_group_starts_its_timing(referee, out_of_position, tablet, clock):
    ack = referee.decide("1", note="three players looking for a ball on the 2nd")

    assert datetime.fromisoformat(ack["at"]) == clock.now()
    assert ack["timing"]["timed"] is True
    assert ack["timing"]["told"] == []
    changed = received(tablet, "timing_changed")
    assert [(m["group"], m["timing"]["timed"]) for m in changed] == [("1", True)]
    assert changed[0]["timing"]["since"] == ack["at"]
    decision = changed[0]["timing"]["decisions"][0]
    assert (decision["decision"], decision["reason"]) == ("time", None)
    assert decision["note"].startswith("three players")
    assert decision["by"]["role"] == "referee"
    snapshot = referee.join()["snapshot"]
    assert snapshot["timing"] == {"1": changed[0]["timing"]}


def test_a_decision_not_to_time_needs_its_mitigating_reason(referee, out_of_position, client):
    before = len(log(client))
    refused = referee.decide("1", "not_time", error="missing_field")
    assert refused["error"]["field"] == "reason"
    referee.decide("1", "not_time", reason="banana", error="invalid_payload")
    assert len(log(client)) == before

    ack = referee.decide("1", "not_time", reason="lost_ball")

    assert ack["timing"]["timed"] is False
    assert ack["timing"]["decisions"][0]["reason"] == "lost_ball"
    assert referee.join()["snapshot"]["timing"]["1"]["timed"] is False


def test_a_group_already_timed_cannot_be_decided_again(referee, timed, client):
    before = len(log(client))
    refused = referee.decide("1", error="already_timed")
    assert refused["error"]["field"] == "group"
    assert len(log(client)) == before


def test_a_decision_not_to_time_a_timed_group_ends_its_spell(referee, timed, client, tablet):
    tablet.get_received()
    ack = referee.decide("1", "not_time", reason="ruling")

    assert ack["timing"]["timed"] is False
    [spell] = ack["timing"]["spells"]
    assert (spell["until"], spell["ended_by"]) == (ack["at"], "stopped")
    assert received(tablet, "timing_changed")[0]["timing"]["timed"] is False
    referee.stop_timing("1", error="not_timed")  # nothing left to stop


def test_telling_the_players_is_recorded_per_player(referee, timed, tablet):
    referee.tell("1", SOPHIE)
    ack = referee.tell("1", MARIE)

    assert ack["timing"]["told"] == [MARIE, SOPHIE]  # draw order
    told = [m["timing"]["told"] for m in received(tablet, "timing_changed")]
    assert told == [[SOPHIE], [MARIE, SOPHIE]]


def test_stopping_ends_the_spell_and_the_next_spell_tells_again(referee, timed, tablet, clock):
    referee.tell("1", MARIE)
    tablet.get_received()

    ack = referee.stop_timing("1", "back in position on the 5th")

    assert ack["timing"] == {**ack["timing"], "timed": False, "since": None, "told": []}
    assert received(tablet, "timing_changed")[0]["timing"]["timed"] is False
    referee.stop_timing("1", error="not_timed")
    referee.tell("1", MARIE, error="not_timed")
    clock.advance(minutes=20)
    again = referee.decide("1")
    assert again["timing"]["timed"] is True and again["timing"]["told"] == []
    assert again["timing"]["since"] == again["at"]
    assert [d["decision"] for d in again["timing"]["decisions"]] == ["time", "time"]


# -- the shot clock --------------------------------------------------------------------------


def test_a_stroke_within_its_allowance_is_no_fault(referee, timed, tablet, client):
    ack = referee.timed_stroke("1", MARIE, 2, 38)

    assert ack["verdict"] == {
        "allowed_s": 40.0,
        "duration_s": 38.0,
        "over_s": -2.0,
        "bad_time": False,
    }
    assert ack["outcome"] is None
    seen = received_all(tablet)
    assert seen["stroke_recorded"][0]["event"]["id"] == ack["id"]
    assert "penalties_changed" not in seen
    assert penalties(client) == []


def test_a_bad_time_is_a_warning_first_and_appears_in_the_penalties(
    referee, timed, tablet, client, clock
):
    ack = referee.timed_stroke("1", MARIE, 2, 45)

    assert ack["verdict"]["bad_time"] is True and ack["verdict"]["over_s"] == 5.0
    assert ack["outcome"] == {
        "counted": True,
        "reason": "counted",
        "rank": 1,
        "penalty": {"kind": "warning", "amount": 0, "hole": 2, "bearer": "player"},
    }
    seen = received_all(tablet)
    recorded = seen["stroke_recorded"][0]
    assert recorded["verdict"] == ack["verdict"] and recorded["outcome"] == ack["outcome"]
    stroke = recorded["event"]
    assert stroke["type"] == "stroke_timed" and stroke["payload"]["player"] == MARIE
    assert stroke["at"] == ack["at"]
    assert datetime.fromisoformat(ack["at"]) == clock.now() - timedelta(seconds=5)
    [changed] = seen["penalties_changed"]
    assert changed["group"] == "1" and [r["player"] for r in changed["players"]] == [MARIE]

    [row] = penalties(client)
    assert row == changed["players"][0]
    assert (row["group"], row["player"], row["strokes_total"], row["disqualified"]) == (
        "1",
        MARIE,
        0,
        False,
    )
    [fault] = row["faults"]
    assert fault["id"] == ack["id"] and fault["source"] == "bad_time"
    assert (fault["duration_s"], fault["allowed_s"], fault["over_s"]) == (45.0, 40.0, 5.0)
    assert fault["awaiting_notification"] is True and fault["notified"] is False
    assert referee.join()["snapshot"]["penalties"] == [row]


def test_the_notification_gate_end_to_end(referee, timed, tablet, client, clock):
    first = referee.timed_stroke("1", MARIE, 2, 45)
    clock.advance(minutes=2)
    # told of nothing yet: the second bad time is stored and shown, not counted
    second = referee.timed_stroke("1", MARIE, 3, 47)
    assert second["outcome"] == {
        "counted": False,
        "reason": "previous_not_notified",
        "rank": None,
        "penalty": None,
    }
    clock.advance(minutes=1)
    tablet.get_received()

    referee.notify("1", MARIE, first["id"])

    [changed] = received(tablet, "penalties_changed")
    # the feed carries the counted fault whole and counts the other (fetched when asked)
    [told] = changed["players"]
    assert [(f["notified"], f["awaiting_notification"]) for f in told["faults"]] == [(True, False)]
    assert told["uncounted"] == 1
    faults = row_of(penalties(client), MARIE)["faults"]
    assert [(f["notified"], f["awaiting_notification"]) for f in faults] == [
        (True, False),
        (False, False),
    ]
    clock.advance(minutes=2)
    third = referee.timed_stroke("1", MARIE, 4, 50)
    assert third["outcome"]["rank"] == 2
    assert third["outcome"]["penalty"] == {
        "kind": "strokes",
        "amount": 1,
        "hole": 4,
        "bearer": "player",
    }
    row = row_of(penalties(client), MARIE)
    assert [f["reason"] for f in row["faults"]] == ["counted", "previous_not_notified", "counted"]
    assert row["strokes_total"] == 1


@pytest.mark.parametrize(
    ("kind", "first", "allowed"),
    [
        ("par3_tee", True, 50),
        ("approach", True, 50),
        ("chip_putt", True, 50),
        ("other", True, 40),
        ("par3_tee", False, 40),
        ("chip_putt", False, 40),
    ],
)
def test_the_first_to_play_has_fifty_seconds_for_three_kinds_of_stroke(
    referee, timed, kind, first, allowed
):
    ack = referee.timed_stroke("1", JULIE, 3, 48, kind=kind, first_to_play=first)
    assert ack["verdict"]["allowed_s"] == allowed
    assert ack["verdict"]["bad_time"] is (allowed == 40)


def test_a_bad_time_between_holes_is_penalised_on_the_next_hole(referee, timed):
    ack = referee.timed_stroke("1", JULIE, 5, 45, between_holes=True)
    assert ack["outcome"]["penalty"]["hole"] == 6


def test_a_resent_stroke_is_a_duplicate_with_the_same_judgement(referee, timed, tablet, client):
    stroke_id = new_id()
    first = referee.timed_stroke("1", MARIE, 2, 45, id=stroke_id)
    tablet.get_received()
    count = len(log(client))

    stored = next(e for e in log(client) if e["id"] == stroke_id)["payload"]
    started = datetime.fromisoformat(stored["device_started"])
    again = referee.stroke(
        "1", MARIE, 2, started, datetime.fromisoformat(stored["device_stopped"]), id=stroke_id
    )

    assert again == {**first, "duplicate": True}
    assert len(log(client)) == count
    assert tablet.get_received() == []
    other = referee.timed_stroke("1", JULIE, 2, 45, id=stroke_id, error="event_conflict")
    assert other["error"]["field"] == "id"


BAD_STROKES = [
    ("not_timed", "group", {"group": "2", "player": "Luc Côté"}),
    ("unknown_player", "player", {"player": "Marc Bélanger"}),
    ("unknown_player", "player", {"player": "marie lavoie"}),
    ("unknown_group", "group", {"group": "99"}),
    ("unknown_hole", "hole", {"hole": 19}),
    ("invalid_payload", "stopped", {"started": -5, "stopped": -30}),
    ("invalid_payload", "stopped", {"started": -660, "stopped": -5}),
    ("time_in_future", "stopped", {"started": 120, "stopped": 180}),
    ("invalid_payload", "kind", {"kind": "drive"}),
    ("invalid_payload", "first_to_play", {"first_to_play": "yes"}),
    ("missing_field", "first_to_play", {"first_to_play": None}),
    ("unknown_field", "score", {"score": 4}),
]


@pytest.mark.parametrize(
    ("code", "field", "change"),
    BAD_STROKES,
    ids=[f"{c}-{f}-{i}" for i, (c, f, _) in enumerate(BAD_STROKES)],
)
def test_a_bad_stroke_is_refused_and_changes_nothing(
    referee, timed, tablet, client, clock, code, field, change
):
    before, count = penalties(client), len(log(client))
    now = clock.now()
    payload = {
        "id": new_id(),
        "round": ROUND,
        "group": "1",
        "player": MARIE,
        "hole": 2,
        "kind": "other",
        "first_to_play": False,
        "started": (now - timedelta(seconds=50)).isoformat(),
        "stopped": (now - timedelta(seconds=5)).isoformat(),
        "device_time": now.isoformat(),
    }
    for key, value in change.items():
        if key in ("started", "stopped"):
            value = (now + timedelta(seconds=value)).isoformat()
        payload[key] = value
    payload = {k: v for k, v in payload.items() if v is not None}

    answer = referee.send("record_stroke", payload)

    assert_error(answer, code, field)
    assert len(log(client)) == count and penalties(client) == before
    assert tablet.get_received() == []


def test_a_stroke_from_a_phone_with_a_fast_clock_is_corrected(referee, timed, client, clock):
    fast = timedelta(minutes=4)
    phone = clock.now() + fast
    payload = {
        "id": new_id(),
        "round": ROUND,
        "group": "1",
        "player": SOPHIE,
        "hole": 2,
        "kind": "approach",
        "first_to_play": True,
        "started": (phone - timedelta(seconds=60)).isoformat(),
        "stopped": (phone - timedelta(seconds=10)).isoformat(),
        "device_time": phone.isoformat(),
    }
    ack = referee.send("record_stroke", payload)

    assert ack["ok"] is True and ack["verdict"]["duration_s"] == 50.0
    assert ack["verdict"]["bad_time"] is False  # exactly the limit is fine
    assert datetime.fromisoformat(ack["at"]) == clock.now() - timedelta(seconds=10)
    stored = next(e for e in log(client) if e["id"] == ack["id"])
    assert stored["payload"]["clock_source"] == "send"
    assert stored["payload"]["clock_offset_ms"] == 240_000


# -- notifications -------------------------------------------------------------------------


def test_notifying_an_unknown_fault_or_another_players_changes_nothing(
    referee, timed, tablet, client
):
    bad = referee.timed_stroke("1", MARIE, 2, 45)
    good = referee.timed_stroke("1", JULIE, 2, 30)
    tablet.get_received()
    before, count = penalties(client), len(log(client))

    assert referee.notify("1", MARIE, new_id(), error="unknown_fault")["error"]["field"] == "fault"
    referee.notify("1", JULIE, good["id"], error="unknown_fault")  # within its allowance
    refused = referee.notify("1", JULIE, bad["id"], error="unknown_fault")
    assert refused["error"]["field"] == "player" and MARIE in refused["error"]["message"]
    referee.notify("1", "Nobody", bad["id"], error="unknown_player")

    assert len(log(client)) == count and penalties(client) == before
    assert tablet.get_received() == []


# -- time credits --------------------------------------------------------------------------


def test_a_time_credit_brings_a_group_back_in_position(
    referee, timed, tablet, client, scheduler, clock
):
    ack = referee.credit("1", 30, "ruling on the 1st: embedded ball, 30 min")

    seen = received_all(tablet)
    assert seen["time_credit_granted"][0]["id"] == ack["id"]
    [row] = [m["group"] for m in seen["group_updated"] if m["group"]["group"] == "1"]
    assert row["status"] != "out_of_position"
    assert row["over_min"] < 26
    [credit] = [e for e in log(client) if e["id"] == ack["id"]]
    assert credit["type"] == "time_credit_granted"
    assert credit["payload"] == {
        "group": "1",
        "minutes": 30.0,
        "reason": "ruling on the 1st: embedded ball, 30 min",
    }
    # the credit itself puts the group back in position: timing should stop, at once (the
    # tick after it raises nothing again)
    kinds = [m["alert"]["kind"] for m in seen["alert_raised"]]
    assert "back_in_position" in kinds and "stop_timing" in kinds
    assert [m["group"] for m in seen["stop_timing_prompted"]] == ["1"]
    scheduler.tick(ROUND)
    assert "alert_raised" not in received_all(tablet)


@pytest.mark.parametrize(
    ("minutes", "code"),
    [(0, "invalid_payload"), (-5, "invalid_payload"), (61, "invalid_payload"),
     ("6", "invalid_payload"), (True, "invalid_payload"), (None, "missing_field")],
    ids=["zero", "negative", "over-an-hour", "string", "boolean", "missing"],
)  # fmt: skip
def test_a_bad_credit_is_refused(referee, out_of_position, client, minutes, code):
    count = len(log(client))
    payload = {"id": new_id(), "round": ROUND, "group": "1", "reason": "ruling"}
    if minutes is not None:
        payload["minutes"] = minutes
    assert_error(referee.send("grant_time_credit", payload), code, "minutes")
    assert len(log(client)) == count


# -- the prompt to stop timing -----------------------------------------------------------------


def test_the_tick_prompts_once_to_stop_timing_a_group_back_in_position(
    referee, timed, marshal, tablet, scheduler, client, clock
):
    scheduler.tick(ROUND)
    assert "stop_timing_prompted" not in received_all(tablet)  # still out of position

    marshal.tap("1", 5, "09:05")  # holes 1–5 are allotted 70 min: back within
    clock.advance(seconds=5)
    scheduler.tick(ROUND)

    seen = received_all(tablet)
    [prompt] = seen["stop_timing_prompted"]
    [alert] = [m["alert"] for m in seen["alert_raised"] if m["alert"]["kind"] == "stop_timing"]
    # the completion at 09:05 precedes the decision (09:10): the spell runs on a group in
    # position, so the prompt says so (issue 14, point 5)
    assert prompt == {
        "round": ROUND, "group": "1", "at": alert["at"], "alert": alert["key"],
        "reason": "in_position",
    }  # fmt: skip
    assert alert["key"].startswith("stop_timing:1:") and alert["hole"] == 5
    # once per spell: not again at the next tick, nor after a restart of the process
    scheduler.tick(ROUND)
    assert "stop_timing_prompted" not in received_all(tablet)
    keys = [a["key"] for a in referee.join()["snapshot"]["alerts"]]
    assert alert["key"] in keys  # open until a referee acknowledges it

    ack = referee.stop_timing("1")
    referee.acknowledge(alert["key"])
    assert ack["timing"]["timed"] is False
    assert alert["key"] not in [a["key"] for a in referee.join()["snapshot"]["alerts"]]


def test_the_snapshot_holds_timing_penalties_and_the_policy(referee, timed, client):
    referee.timed_stroke("1", MARIE, 2, 45)
    snapshot = referee.join()["snapshot"]
    http = client.get(f"/api/rounds/{ROUND}/snapshot").json["snapshot"]

    for s in (snapshot, http):
        assert set(s["timing"]) == {"1"}
        assert [r["player"] for r in s["penalties"]] == [MARIE]
        detail = s["policy_detail"]
        assert {k: detail[k] for k in ("name", "stroke_allowance_s", "extra_allowance_s")} == {
            "name": "frbg",
            "stroke_allowance_s": 40.0,
            "extra_allowance_s": 10.0,
        }
        # what the shot clock counts down from, first to play: 50 s for the three kinds
        assert detail["allowances_s"] == {
            "par3_tee": 50.0,
            "approach": 50.0,
            "chip_putt": 50.0,
            "other": 40.0,
        }
        assert (detail["ball_search_s"], detail["play"], detail["format"]) == (
            180.0,
            "stroke_play",
            "individual",
        )
        assert detail["gate"] is True
        assert detail["ladder"] == ["warning", "strokes:1", "strokes:2", "disqualification"]
        assert "Belgian" in detail["description"]


# -- other policies and forms of play -------------------------------------------------------


def test_swin_gives_one_point_for_every_breach_without_warning(app, connect, clock, client):
    add_round(app, "S1", policy="swin")
    tablet = connect("referee", "swin-phone", round="S1")
    referee = RefereeDriver(tablet, clock.now, round="S1")
    MarshalDriver(tablet, clock.now, round="S1").tap("1", 1, "08:40")
    referee.decide("1")
    clock.advance(minutes=1)

    first = referee.timed_stroke("1", MARIE, 3, 45, kind="par3_tee", first_to_play=True)
    second = referee.timed_stroke("1", MARIE, 4, 41)

    assert first["verdict"]["allowed_s"] == 40.0  # no extra time in swin golf
    for ack in (first, second):
        assert ack["outcome"]["counted"] is True
        assert ack["outcome"]["penalty"]["kind"] == "points"
        assert ack["outcome"]["penalty"]["amount"] == 1
    row = row_of(penalties(client, "S1"), MARIE)
    assert row["points_total"] == 2 and row["strokes_total"] == 0
    detail = referee.join("S1")["snapshot"]["policy_detail"]
    assert (detail["name"], detail["gate"], detail["ball_search_s"]) == ("swin", False, 300.0)
    assert set(detail["allowances_s"].values()) == {40.0}  # swin: no extra time


def test_mauricie_warns_each_competitor_of_a_group_that_breaks_a_checkpoint(
    app, connect, clock, client
):
    add_round(app, "M1", policy="mauricie")
    tablet = connect("referee", "mauricie-phone", round="M1")
    referee = RefereeDriver(tablet, clock.now, round="M1")
    referee.join("M1")
    marshal = MarshalDriver(tablet, clock.now, round="M1")
    scheduler = PaceScheduler(
        app.extensions["pace"].live,
        app.extensions["pace"].broadcaster,
        tick_seconds=5,
    )
    clock.advance(minutes=30)  # 09:40
    marshal.tap("1", 6, "09:35")  # 95 minutes for holes 1–6: 5 over the 90 allowed
    [changed] = received(tablet, "penalties_changed")  # the tap's own deltas
    assert changed["group"] == "1" and len(changed["players"]) == 3
    assert isinstance(changed["rev"], int)

    rows = penalties(client, "M1")

    assert [r["player"] for r in rows] == [MARIE, JULIE, SOPHIE]
    for r in rows:
        [fault] = r["faults"]
        assert (fault["id"], fault["source"], fault["hole"]) == ("checkpoint:1:1", "checkpoint", 7)
        assert fault["penalty"]["kind"] == "warning" and fault["duration_s"] is None
    scheduler.tick("M1")
    assert received(tablet, "penalties_changed") == []  # the tick has nothing new to tell

    # Marie is told of the warning; the others are not: at the second breach only she
    # gets her two strokes (notification gate)
    referee.notify("1", MARIE, "checkpoint:1:1")
    clock.advance(minutes=100)  # 11:20
    marshal.tap("1", 12, "11:10")  # holes 7–12 in 95 minutes
    rows = penalties(client, "M1")
    assert row_of(rows, MARIE)["strokes_total"] == 2
    assert row_of(rows, JULIE)["faults"][1]["reason"] == "previous_not_notified"
    detail = referee.join("M1")["snapshot"]["policy_detail"]
    assert (detail["faults_from"], detail["checkpoint_limit_min"]) == ("checkpoints", 90.0)


def test_match_play_loses_the_hole_at_the_second_bad_time(app, connect, clock, client):
    add_round(app, "MP", play="match_play")
    tablet = connect("referee", "match-phone", round="MP")
    referee = RefereeDriver(tablet, clock.now, round="MP")
    MarshalDriver(tablet, clock.now, round="MP").tap("1", 1, "08:40")
    referee.decide("1")
    clock.advance(minutes=1)
    first = referee.timed_stroke("1", JULIE, 2, 45)
    referee.notify("1", JULIE, first["id"])
    clock.advance(minutes=1)

    second = referee.timed_stroke("1", JULIE, 3, 45)

    assert second["outcome"]["penalty"] == {
        "kind": "loss_of_hole",
        "amount": 0,
        "hole": 3,
        "bearer": "player",
    }
    assert row_of(penalties(client, "MP"), JULIE)["holes_lost"] == [3]


def test_in_foursomes_the_side_bears_the_penalty(app, connect, clock):
    add_round(app, "F1", format="foursome")
    tablet = connect("referee", "foursome-phone", round="F1")
    referee = RefereeDriver(tablet, clock.now, round="F1")
    MarshalDriver(tablet, clock.now, round="F1").tap("1", 1, "08:40")
    referee.decide("1")
    clock.advance(minutes=1)
    ack = referee.timed_stroke("1", JULIE, 2, 45)
    assert ack["outcome"]["penalty"]["bearer"] == "side"


def test_a_custom_policy_from_the_configuration(settings, clock):
    club = {"stroke_allowance_s": 45, "stroke_ladder": ["strokes:2"], "repeat_last": True}
    custom = config.from_dict({"policies": {"club": club}}).policies
    app = create_app(dataclasses.replace(settings, policies=custom), clock=clock, testing=True)
    try:
        service = app.extensions["pace"].live.service
        service.import_course(COURSE.read_text(encoding="utf-8"), str(COURSE))
        add_round(app, "C1", policy="club")
        token = app.extensions["pace"].access.grant("referee", "C1").token
        tablet = app.extensions["pace"].socketio.test_client(app, auth={"token": token})
        referee = RefereeDriver(tablet, clock.now, round="C1")
        MarshalDriver(tablet, clock.now, round="C1").tap("1", 1, "08:40")
        referee.decide("1")
        clock.advance(minutes=1)
        assert referee.timed_stroke("1", MARIE, 2, 44)["verdict"]["bad_time"] is False
        ack = referee.timed_stroke("1", MARIE, 2, 46)
        assert ack["outcome"]["penalty"]["kind"] == "strokes"
        assert ack["outcome"]["penalty"]["amount"] == 2
        assert referee.join("C1")["snapshot"]["policy_detail"]["stroke_allowance_s"] == 45.0
        tablet.disconnect()
        SocketIOTestClient.clients.pop(tablet.eio_sid, None)
    finally:
        close_app(app)


# -- HTTP ------------------------------------------------------------------------------------


def test_the_http_mirror_runs_the_referees_commands(login, referee, out_of_position, tablet, clock):
    client = login("referee")
    headers = {"X-Pace-Device": "laptop"}
    decided = client.post(
        "/api/commands/decide_timing",
        json={"id": new_id(), "round": ROUND, "group": "1", "decision": "time"},
        headers=headers,
    )
    assert decided.status_code == 200 and decided.json["timing"]["timed"] is True
    now = clock.advance(minutes=1)
    stroke = client.post(
        "/api/commands/record_stroke",
        json={
            "id": new_id(),
            "round": ROUND,
            "group": "1",
            "player": MARIE,
            "hole": 2,
            "kind": "other",
            "first_to_play": False,
            "started": (now - timedelta(seconds=50)).isoformat(),
            "stopped": (now - timedelta(seconds=5)).isoformat(),
            "device_time": now.isoformat(),
        },
        headers=headers,
    )
    assert stroke.status_code == 200 and stroke.json["outcome"]["rank"] == 1
    assert [m["event"]["id"] for m in received(tablet, "stroke_recorded")] == [stroke.json["id"]]
    refused = client.post(
        "/api/commands/tell_player_timed",
        json={"id": new_id(), "round": ROUND, "group": "2", "player": "Luc Côté"},
    )
    assert refused.status_code == 409 and refused.json["error"]["code"] == "not_timed"
    unknown = client.post(
        "/api/commands/notify_player",
        json={"id": new_id(), "round": ROUND, "group": "1", "player": MARIE, "fault": "x"},
    )
    assert unknown.status_code == 404 and unknown.json["error"]["code"] == "unknown_fault"


def test_the_penalties_of_an_unknown_round_are_not_found(client):
    answer = client.get("/api/rounds/R9/penalties")
    assert answer.status_code == 404 and answer.json["error"]["code"] == "unknown_round"


@pytest.mark.parametrize("page", ["shotclock", "board"])
def test_the_referee_pages_are_served(client, page):
    assert client.get(f"/rounds/{ROUND}/{page}").status_code == 200
    assert client.get(f"/rounds/R9/{page}").status_code == 404


def test_a_voided_stroke_takes_its_fault_away(referee, timed, marshal, tablet, client, scheduler):
    ack = referee.timed_stroke("1", MARIE, 2, 45)
    tablet.get_received()
    referee.void(ack["id"], "timed the wrong player")
    assert penalties(client) == []
    [changed] = received(tablet, "penalties_changed")  # with the void, not a tick later
    assert isinstance(changed.pop("rev"), int)
    assert changed == {"round": ROUND, "group": "1", "players": []}
    scheduler.tick(ROUND)
    assert received(tablet, "penalties_changed") == []


def test_a_round_whose_policy_left_the_configuration_still_shows_its_field(
    app, connect, clock, client
):
    add_round(app, "G1")
    app.extensions["pace"].store.update_round("G1", policy="club-2025")  # no such table now
    tablet = connect("referee", "gone-phone", round="G1")
    referee = RefereeDriver(tablet, clock.now, round="G1")
    MarshalDriver(tablet, clock.now, round="G1").tap("1", 1, "08:40")
    referee.decide("1")
    clock.advance(minutes=1)
    count = len(log(client, "G1"))

    refused = referee.timed_stroke("1", MARIE, 2, 45, error="unknown_policy")

    assert "club-2025" in refused["error"]["message"]
    assert len(log(client, "G1")) == count
    snapshot = referee.join("G1")["snapshot"]
    assert snapshot["penalties"] == [] and "error" in snapshot["policy_detail"]
    assert len(snapshot["groups"]) == 6
    assert client.get("/api/rounds/G1/penalties").status_code == 409


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"decision": "maybe"}, "invalid_payload", "decision"),
        ({"decision": None}, "missing_field", "decision"),
        ({"group": "99"}, "unknown_group", "group"),
        ({"device_time": "yesterday"}, "invalid_payload", "device_time"),
        ({"reason": "ruling", "minutes": 3}, "unknown_field", "minutes"),
    ],
    ids=["decision", "no-decision", "unknown-group", "device-time", "extra-field"],
)
def test_a_bad_decision_is_refused_and_changes_nothing(
    referee, out_of_position, tablet, client, change, code, field
):
    count = len(log(client))
    payload = {"id": new_id(), "round": ROUND, "group": "1", "decision": "time", **change}
    payload = {k: v for k, v in payload.items() if v is not None}
    assert_error(referee.send("decide_timing", payload), code, field)
    assert len(log(client)) == count and tablet.get_received() == []

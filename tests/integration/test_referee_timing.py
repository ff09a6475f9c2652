"""Referee timing to the letter, live (issue 10): spells that stop by themselves, strokes
judged by their own instants, the course's par, and the device instant ``at`` of commands.

Round R1 (frbg): group "1" (Marie Lavoie, Julie Gagnon, Sophie Tremblay; 3-ball, lead
group, off at 08:00) is allotted 14 min for hole 1 (par 4), 30 for holes 1-2 (hole 2 is a
par 5: 16 min) and 41 for holes 1-3 (hole 3 is the par 3: 11 min). Holing out on the 1st at
08:40 puts it 26 min over: out of position. The clock stands at 09:10 local.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from drivers import ROUND, MarshalDriver, RefereeDriver, assert_error, local, new_id

MARIE, JULIE = "Marie Lavoie", "Julie Gagnon"


@pytest.fixture
def tablet(connect):
    sio = connect("referee", "referee-phone")
    sio.get_received()
    return sio


@pytest.fixture
def referee(tablet, clock) -> RefereeDriver:
    driver = RefereeDriver(tablet, clock.now)
    driver.join()
    return driver


@pytest.fixture
def marshal(tablet, clock) -> MarshalDriver:
    return MarshalDriver(tablet, clock.now)


@pytest.fixture
def out_of_position(marshal) -> None:
    marshal.tap("1", 1, "08:40")


def act(referee: RefereeDriver, event: str, at: str | None, error: str | None = None, **fields):
    """Send a referee's command with its device instant ``at`` (``HH:MM:SS`` local)."""
    payload = {"id": new_id(), "round": ROUND, **fields, "device_time": referee.now()}
    if at is not None:
        payload["at"] = referee.instant(at)
    answer = referee.send(event, payload)
    if error is None:
        assert answer.get("ok") is True, answer
    else:
        assert_error(answer, error)
    return answer


def stroke(referee, start: str, seconds: float, *, hole=2, kind="other", first=False,
           player=MARIE, error=None):  # fmt: skip
    started = local(start)
    return referee.stroke(
        "1", player, hole, started, started + timedelta(seconds=seconds), kind, first,
        error=error,
    )  # fmt: skip


def penalties(client) -> list[dict]:
    return client.get(f"/api/rounds/{ROUND}/penalties").json["penalties"]


# -- the device instant of a command ---------------------------------------------------------


def test_a_decision_sent_late_from_an_outbox_keeps_its_instant(referee, out_of_position, clock):
    ack = act(referee, "decide_timing", "09:01:30", group="1", decision="time")

    assert datetime.fromisoformat(ack["at"]) == local("09:01:30")
    assert ack["timing"]["since"] == ack["at"]
    stored = referee.join()["snapshot"]["timing"]["1"]
    assert stored["timed"] is True and stored["since"] == ack["at"]


def test_an_instant_from_a_fast_phone_is_corrected_like_a_taps(referee, out_of_position, clock):
    fast = timedelta(minutes=3)
    phone = RefereeDriver(referee.client, lambda: clock.now() + fast)
    ack = act(phone, "decide_timing", "09:08:00", group="1", decision="time")  # phone's clock
    assert datetime.fromisoformat(ack["at"]) == local("09:05:00")


@pytest.mark.parametrize(
    ("at", "code"),
    [("09:11:00", "time_in_future"), (None, None)],
    ids=["a-minute-ahead", "no-instant"],
)
def test_the_instant_of_a_command_is_checked(referee, out_of_position, clock, at, code):
    ack = act(referee, "grant_time_credit", at, code, group="1", minutes=2, reason="ruling")
    if code is None:
        assert datetime.fromisoformat(ack["at"]) == clock.now()
    else:
        assert ack["error"]["field"] == "at"


def test_an_instant_off_the_rounds_day_is_refused(referee, out_of_position):
    payload = {
        "id": new_id(), "round": ROUND, "group": "1", "decision": "time",
        "at": (local("09:00") - timedelta(days=1)).isoformat(), "device_time": referee.now(),
    }  # fmt: skip
    assert_error(referee.send("decide_timing", payload), "wrong_day", "at")


def test_a_resent_command_with_its_instant_is_a_duplicate(referee, out_of_position, client):
    payload = {
        "id": new_id(), "round": ROUND, "group": "1", "decision": "time",
        "at": referee.instant("09:02"), "device_time": referee.now(),
    }  # fmt: skip
    first = referee.send("decide_timing", payload)
    again = referee.send("decide_timing", {**payload, "device_time": referee.now()})
    assert again["duplicate"] is True and again["at"] == first["at"]
    moved = referee.send("decide_timing", {**payload, "at": referee.instant("09:03")})
    assert_error(moved, "event_conflict", "id")


# -- spells and strokes ------------------------------------------------------------------------


def test_a_stroke_started_before_the_decision_to_time_is_refused(referee, out_of_position, client):
    act(referee, "decide_timing", "09:05:00", group="1", decision="time")
    refused = stroke(referee, "09:04:00", 50, error="not_timed")
    assert "09:04:00" in refused["error"]["message"]
    assert penalties(client) == []


def test_a_stroke_timed_inside_the_spell_and_sent_after_stop_counts(referee, out_of_position):
    act(referee, "decide_timing", "09:00:00", group="1", decision="time")
    act(referee, "stop_timing", "09:06:00", group="1")  # another referee, online

    ack = stroke(referee, "09:04:00", 47)  # the shot clock's outbox, back online

    assert ack["outcome"]["counted"] is True and ack["outcome"]["penalty"]["kind"] == "warning"
    stroke(referee, "09:06:30", 47, error="not_timed")  # after the stop: refused


def test_timing_stops_by_itself_at_the_completion_that_puts_the_group_back(
    referee, marshal, out_of_position, client, tablet
):
    act(referee, "decide_timing", "08:45:00", group="1", decision="time")
    # hole 5 at 09:05: 65 minutes for the 70 allotted to holes 1-5: back in position
    marshal.tap("1", 5, "09:05")
    snapshot = referee.join()["snapshot"]
    timing = snapshot["timing"]["1"]
    assert timing["timed"] is False
    [spell] = timing["spells"]
    assert datetime.fromisoformat(spell["until"]) == local("09:05")
    assert (spell["ended_by"], spell["hole"], spell["stopped"]) == ("back_in_position", 5, None)

    # a stroke started after that instant is stored, shown and not counted
    late = stroke(referee, "09:06:00", 47, hole=6)
    assert late["verdict"]["bad_time"] is True
    assert late["outcome"] == {
        "counted": False, "reason": "group_in_position", "rank": None, "penalty": None,
    }  # fmt: skip
    # one started before it, sent now, counts
    early = stroke(referee, "09:04:00", 47, hole=5)
    assert early["outcome"]["counted"] is True
    [row] = penalties(client)
    assert [(f["id"], f["reason"]) for f in row["faults"]] == [
        (early["id"], "counted"), (late["id"], "group_in_position"),
    ]  # fmt: skip
    # telling is over, a new decision opens a new spell; the referee's stop confirms the end
    act(referee, "tell_player_timed", "09:07:00", "not_timed", group="1", player=MARIE)
    stopped = act(referee, "stop_timing", None, group="1")
    assert stopped["timing"]["spells"][0]["stopped"] == stopped["at"]
    act(referee, "stop_timing", None, "not_timed", group="1")  # nothing more to stop
    again = act(referee, "decide_timing", None, group="1", decision="time")
    assert again["timing"]["timed"] is True and len(again["timing"]["spells"]) == 2


def test_a_time_credit_that_puts_the_group_back_ends_the_spell(referee, out_of_position, tablet):
    act(referee, "decide_timing", "09:00:00", group="1", decision="time")
    tablet.get_received()
    ack = act(referee, "grant_time_credit", "09:05:00", group="1", minutes=30, reason="ruling")
    assert ack["timing"]["timed"] is False
    assert ack["timing"]["spells"][0]["until"] == ack["at"]
    changed = [e["args"][0] for e in tablet.get_received() if e["name"] == "timing_changed"]
    assert [m["timing"]["timed"] for m in changed] == [False]


def test_the_par_3_allowance_comes_from_the_course(referee, out_of_position):
    act(referee, "decide_timing", "09:00:00", group="1", decision="time")
    # hole 1 is a par 4: a "par-3 tee shot" there is allowed 40 s, 46 s is a bad time
    on_par_4 = stroke(referee, "09:01:00", 46, hole=1, kind="par3_tee", first=True)
    assert on_par_4["verdict"]["allowed_s"] == 40.0 and on_par_4["verdict"]["bad_time"] is True
    on_par_3 = stroke(referee, "09:02:00", 46, hole=3, kind="par3_tee", first=True)
    assert on_par_3["verdict"]["allowed_s"] == 50.0 and on_par_3["verdict"]["bad_time"] is False


def test_a_player_told_late_is_told_in_the_spell_of_his_instant(referee, out_of_position):
    act(referee, "decide_timing", "09:00:00", group="1", decision="time")
    act(referee, "tell_player_timed", "09:01:00", group="1", player=JULIE)
    act(referee, "tell_player_timed", "08:59:00", "not_timed", group="1", player=MARIE)
    assert referee.join()["snapshot"]["timing"]["1"]["told"] == [JULIE]


# -- checkpoint breaches ---------------------------------------------------------------------


def test_a_checkpoint_breach_names_its_stretch_and_minutes(app, connect, clock, client):
    service = app.extensions["pace"].live.service
    from drivers import DAY, DRAW, TIMEZONE

    service.import_draw(
        DRAW.read_text(encoding="utf-8"), str(DRAW), round="M1", day=DAY, timezone=TIMEZONE,
        policy="mauricie",
    )  # fmt: skip
    tablet = connect("referee", "m-phone", round="M1")
    clock.advance(minutes=30)
    MarshalDriver(tablet, clock.now, round="M1").tap("1", 6, "09:36")
    rows = client.get("/api/rounds/M1/penalties").json["penalties"]
    fault = rows[0]["faults"][0]
    assert fault["id"] == "checkpoint:1:1" and fault["duration_s"] is None
    assert fault["stretch"] == {
        "checkpoint": 1, "holes": [1, 6], "taken_min": 96.0, "limit_min": 90.0,
    }  # fmt: skip

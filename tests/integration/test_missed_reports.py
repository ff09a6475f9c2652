"""Who a missed tap's prompt asks in a round timed by the groups' reports (issue 46).

Round R1 of the shared test data (groups "1" at 08:00, "2" at 08:10, "3" at 08:20 off tee 1),
its hole times from the groups' own scorecards. Group 2 reports holes 1 and 2, then nothing:
group 1 has reported hole 3 (so it is watched) and group 3 has completed hole 2 since, so at
09:30 group 2 is ``silent`` on hole 3 (docs/estimates.md). With no marshal (``groups``) the
prompt asks the group's scorer, never a hole's marshal; with marshals
(``officials_and_groups``) it asks the marshal of hole 3 as before. A hole the group left
behind (entered only in a batch) is estimated but asks nobody where there is no marshal.
"""

from __future__ import annotations

import pytest
from drivers import ROUND, Device, MarshalDriver, local, new_id


def received(sio, name: str) -> list:
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


def row(snapshot: dict, group: str) -> dict:
    return next(r for r in snapshot["groups"] if r["group"] == group)


@pytest.fixture
def scorer(connect, clock) -> Device:
    phone = Device(connect("scorer", "scorer-phone"), clock.now)
    assert phone.send("join_scores", {"round": ROUND})["ok"]
    phone.client.get_received()
    return phone


@pytest.fixture
def hole3(connect, clock) -> MarshalDriver:
    """A marshal's phone following hole 3 (a referee may carry one even in a round with no
    marshal): what reaches its room."""
    phone = MarshalDriver(connect("marshal", "hole-3-phone"), clock.now)
    phone.join(holes=(3,))
    phone.client.get_received()
    return phone


def report(scorer: Device, group: str, hole: int, hhmm: str) -> dict:
    answer = scorer.send("group_completed", {"id": new_id(), "round": ROUND, "group": group,
                                             "hole": hole, "at": scorer.instant(hhmm),
                                             "device_time": scorer.now()})  # fmt: skip
    assert answer["ok"], answer
    return answer


def play(app, clock, scorer: Device, setting: str) -> None:
    app.extensions["pace"].live.service.set_completions(ROUND, setting)
    clock.set(local("09:30"))
    for group, hole, hhmm in [("1", 1, "08:14"), ("1", 2, "08:28"), ("1", 3, "08:42"),
                              ("2", 1, "08:26"), ("2", 2, "08:40"),
                              ("3", 1, "08:38"), ("3", 2, "08:52")]:  # fmt: skip
        report(scorer, group, hole, hhmm)


def own_pace(login, group: str) -> dict:
    reply = login("scorer").get(f"/api/rounds/{ROUND}/cards/{group}/pace")
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()["pace"]


def test_with_no_marshal_the_prompt_asks_the_groups_scorer_and_no_hole(
    app, clock, referee, dashboard, scorer, hole3, login
):
    play(app, clock, scorer, "groups")
    [prompt] = [m["alert"] for m in received(dashboard, "alert_raised")
                if m["alert"]["kind"] == "missing_tap"]  # fmt: skip
    assert (prompt["key"], prompt["reason"]) == ("missing_tap:2:3", "silent")
    assert not prompt.get("check_holes")  # no marshal is asked
    assert not received(hole3.client, "tap_missing")  # nobody's hole room hears it
    asked = received(scorer.client, "report_asked")
    assert asked == [{"round": ROUND, "group": "2", "hole": 3, "alert": "missing_tap:2:3"}]
    assert own_pace(login, "2")["asked"] == [3]
    assert own_pace(login, "1")["asked"] == []

    # the scorer enters hole 3: the prompt is answered, and the page no longer asks
    report(scorer, "2", 3, "09:30")
    resolved = [e["payload"]["alert"] for e in received(dashboard, "alert_resolved")]
    assert "missing_tap:2:3" in resolved
    assert own_pace(login, "2")["asked"] == []
    assert not received(hole3.client, "tap_missing")


def test_with_marshals_the_prompt_still_asks_the_marshal_of_the_hole(
    app, clock, referee, dashboard, scorer, hole3, login
):
    play(app, clock, scorer, "officials_and_groups")
    [prompt] = [m["alert"] for m in received(dashboard, "alert_raised")
                if m["alert"]["kind"] == "missing_tap"]  # fmt: skip
    assert (prompt["key"], prompt["check_holes"]) == ("missing_tap:2:3", [3])
    [asked] = received(hole3.client, "tap_missing")
    assert (asked["group"], asked["hole"], asked["alert"]) == ("2", 3, "missing_tap:2:3")
    assert not received(scorer.client, "report_asked")
    assert own_pace(login, "2")["asked"] == []
    # a marshal joining hole 3 later finds the prompt in the snapshot (it names hole 3)
    snap = hole3.join(holes=(3,))["snapshot"]
    assert [a["check_holes"] for a in snap["alerts"] if a["kind"] == "missing_tap"] == [[3]]


@pytest.mark.parametrize("setting, prompted", [("groups", False), ("officials_and_groups", True)])
def test_a_hole_left_behind_in_a_batch_asks_nobody_where_there_is_no_marshal(
    app, clock, referee, dashboard, scorer, setting, prompted
):
    """Group 2 enters holes 3 and 4 together on the 5th tee: hole 3 is not a fact, estimated
    between its neighbours (``skipped``), and group 1, which has not reported hole 4, is
    estimated to have completed it first (``passed``). Neither scorer can give those times (a
    report is the instant it is entered, and hole 3 is reported already): with no marshal
    nobody is asked."""
    app.extensions["pace"].live.service.set_completions(ROUND, setting)
    clock.set(local("09:10"))
    for group, hole, hhmm in [("1", 1, "08:14"), ("1", 2, "08:28"), ("1", 3, "08:42"),
                              ("2", 1, "08:26"), ("2", 2, "08:40"),
                              ("2", 3, "09:05"), ("2", 4, "09:05:30")]:  # fmt: skip
        report(scorer, group, hole, hhmm)
    snap = referee.join()["snapshot"]
    assert row(snap, "2")["estimate"]["holes"]["3"]["reason"] == "skipped"  # shown as one
    # group 1 has not reported hole 4, which group 2 has: it completed it first (``passed``)
    assert row(snap, "1")["estimate"]["holes"]["4"]["reason"] == "passed"
    prompts = {a["key"] for a in snap["alerts"] if a["kind"] == "missing_tap"}
    assert prompts == ({"missing_tap:2:3", "missing_tap:1:4"} if prompted else set())
    assert bool(received(scorer.client, "report_asked")) is False

"""Who holds the field up is read by the scheduler outside the round's lock (issue 13).

The reading (``pace.rules.report.field_holdups`` over the whole log) took 17 ms a tick for 52
groups mid-round, with the round's lock held. The scheduler now makes it before its tick
(``LiveService.refresh``), without the lock, and the tick sends what changed. Round R1 of the
shared test data, the clock at 09:10 local.
"""

from __future__ import annotations

import pytest
from drivers import ROUND

from pace.services import reports


@pytest.fixture
def readings(app, monkeypatch) -> list[bool]:
    """Note, for each reading of who holds the field up, whether the round's lock was held."""
    live = app.extensions["pace"].live
    held: list[bool] = []
    read = reports.rp.field_holdups_steps

    def field_holdups_steps(*args, **kwargs):
        held.append(live.lock._is_owned())
        return (yield from read(*args, **kwargs))

    monkeypatch.setattr(reports.rp, "field_holdups_steps", field_holdups_steps)
    return held


def held_up(sio) -> list:
    return [
        e["args"][0]["parts"]["held_up"]
        for e in sio.get_received()
        if e["name"] == "round_changed" and "held_up" in e["args"][0]["parts"]
    ]


def test_the_tick_sends_who_holds_the_field_up_read_outside_the_lock(
    marshal, referee, dashboard, scheduler, readings
):
    scheduler.tick(ROUND)
    dashboard.get_received()
    readings.clear()
    marshal.tap("1", 1, "08:30")  # far over its 14 minutes
    marshal.tap("2", 1, "08:36")  # over time, close behind group 1: held up
    assert readings == []  # no tap reads it: the next tick does
    assert held_up(dashboard) == []

    scheduler.tick(ROUND)
    assert readings == [False]  # once, without the round's lock
    [value] = held_up(dashboard)
    assert [(u["group"], u["groups"]) for u in value] == [("1", 1)]

    scheduler.tick(ROUND)  # the log did not grow: not read again, nothing sent
    assert readings == [False] and held_up(dashboard) == []


def test_a_reading_overtaken_by_a_newer_one_is_not_kept(app, marshal, scheduler, readings):
    live = app.extensions["pace"].live
    panel = app.extensions["pace"].holdups
    marshal.tap("1", 1, "08:30")
    scheduler.tick(ROUND)
    state = live.live(ROUND)
    newer = state.told["held_up_value"]
    state.told["held_up_value"] = (newer[0] + 100, ["newer"])  # as if read after more events
    marshal.tap("2", 1, "08:36")  # the log grows: read again, but the kept one is newer
    panel.refresh(ROUND, live.clock.now())
    assert state.told["held_up_value"] == (newer[0] + 100, ["newer"])


def test_a_tap_made_between_two_groups_of_a_reading_is_stored_sent_and_read_next(
    app, marshal, referee, dashboard, scheduler, readings
):
    """Under gevent the reading runs on the hub: it pauses between groups (``pace serve``:
    ``hub_pause``) so a tap never waits for a whole reading; the lock is not held there."""
    live = app.extensions["pace"].live
    panel = app.extensions["pace"].holdups
    marshal.tap("1", 1, "08:30")
    pauses: list[bool] = []
    size: list[int] = []

    def pause():
        pauses.append(live.lock._is_owned())
        if len(pauses) == 3:  # a marshal's tap comes in while the reading is under way
            size.append(len(live.live(ROUND).events))
            marshal.tap("2", 1, "08:36")

    panel.pause = pause
    # a first reading (as after a restart): every group's holes are read
    live.live(ROUND).told.pop("held_up_rows", None)
    scheduler.tick(ROUND)
    assert len(pauses) == len(live.live(ROUND).view.plan.groups) + 1  # between every step
    assert not any(pauses)
    state = live.live(ROUND)
    assert state.told["held_up_value"][0] == size[0]  # the log as it was before the tap
    assert "2" in {r["group"]["group"] for r in _rows(dashboard)}  # the tap went out at once

    scheduler.tick(ROUND)  # the log grew during the reading: read again, with the tap
    assert state.told["held_up_value"][0] > size[0]
    assert [(u["group"], u["groups"]) for u in state.told["held_up_value"][1]] == [("1", 1)]


def test_a_reading_reads_again_only_the_groups_whose_holes_a_tap_changed(
    app, marshal, scheduler, readings
):
    # issue 37: the panel is read at every tick once the log grew; a group keeps its holes
    # of the last reading unless its completions, the groups seen ahead of it, the stops of
    # play or its credits changed
    live = app.extensions["pace"].live
    panel = app.extensions["pace"].holdups
    marshal.tap("1", 1, "08:30")
    marshal.tap("2", 1, "08:36")
    marshal.tap("3", 1, "08:41")
    scheduler.tick(ROUND)
    steps: list[int] = []
    panel.pause = lambda: steps.append(1)
    marshal.tap("1", 2, "08:50")  # group 1 only: nobody behind it completed hole 2 yet
    scheduler.tick(ROUND)
    assert len(steps) == 1 + 1  # group 1's holes, then the field's statuses
    steps.clear()
    marshal.tap("2", 2, "08:58")  # group 2 only: group 3 has not completed hole 2 yet
    scheduler.tick(ROUND)
    assert len(steps) == 1 + 1
    steps.clear()
    marshal.tap("2", 3, "09:08")
    scheduler.tick(ROUND)
    steps.clear()
    marshal.tap("1", 3, "09:04")  # late, before group 2's: group 2 now sees group 1 ahead
    scheduler.tick(ROUND)
    assert len(steps) == 2 + 1  # group 1's holes and group 2's (its gap at hole 3 changed)
    state = live.live(ROUND)
    fresh = panel.held_up(state, live.clock.now())
    state.told.pop("held_up_rows")
    state.told.pop("held_up_value")
    assert panel.held_up(state, live.clock.now()) == fresh  # the same as a reading anew


def _rows(sio) -> list:
    return [e["args"][0] for e in sio.get_received() if e["name"] == "group_updated"]


# -- the panel's "Why" (issue 37): fetched when asked, never in the snapshot ------------------


def test_why_a_group_holds_the_field_up_is_fetched_when_asked(
    client, login, marshal, referee, scheduler
):
    marshal.tap("1", 1, "08:30")  # 30 min for 14: out of position, open course ahead
    marshal.tap("2", 1, "08:36")  # over time, 6 min behind group 1: held up
    scheduler.tick(ROUND)
    snapshot = client.get(f"/api/rounds/{ROUND}/snapshot").json["snapshot"]
    [row] = snapshot["held_up"]
    assert "explanation" not in row  # the snapshot stays small

    for who in (client, login("referee")):
        answer = who.get(f"/api/rounds/{ROUND}/held_up/1/why")
        assert answer.status_code == 200, answer.json
        x = answer.json["explanation"]
        assert (x["subject"], x["group"], x["hole"], x["status"]) == (
            "held_up", "1", 1, "out_of_position",
        )  # fmt: skip
        assert x["over_min"] == 16.0  # 30 min played for 14 allotted
        assert [(b["group"], b["status"], b["gap_min"]) for b in x["behind"]] == [
            ("2", "behind", 6.0),
        ]  # fmt: skip
        assert answer.json["held_up"]["holes"] == [1]
        assert [line["kind"] for line in x["timeline"]][:2] == ["start", "tap"]


@pytest.mark.parametrize("role", ["marshal", "scorer", "viewer", None])
def test_why_a_group_holds_the_field_up_is_for_referees_and_the_committee(
    login, marshal, scheduler, role
):
    marshal.tap("1", 1, "08:30")
    marshal.tap("2", 1, "08:36")
    scheduler.tick(ROUND)
    answer = login(role).get(f"/api/rounds/{ROUND}/held_up/1/why")
    assert answer.status_code == (401 if role is None else 403)
    assert "explanation" not in answer.get_data(as_text=True)


def test_why_of_a_group_not_named_is_refused_clearly(client, marshal, scheduler):
    marshal.tap("1", 1, "08:30")
    marshal.tap("2", 1, "08:36")
    scheduler.tick(ROUND)
    answer = client.get(f"/api/rounds/{ROUND}/held_up/2/why")
    assert answer.status_code == 404
    error = answer.json["error"]
    assert (error["code"], error["field"]) == ("unknown_group", "group")
    assert "group '2' is not named as holding the field up (groups named: 1)" in error["message"]

"""A missed tap found live, estimated, prompted, and replaced by the real tap (issue 30, part 1).

Round R1 of the shared test data: group "1" (three players) off tee 1 at 08:00, group "2"
(four players) at 08:10. Hole 2's marshal misses group 1; group 2 then completes hole 2: groups
do not pass each other on one route, so group 1 completed hole 2 before (docs/estimates.md).
"""

from __future__ import annotations

from datetime import datetime

from drivers import ROUND, local


def received(sio, name: str) -> list:
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


def row(snapshot: dict, group: str) -> dict:
    return next(r for r in snapshot["groups"] if r["group"] == group)


def test_a_missed_tap_is_prompted_on_the_hole_and_the_late_real_tap_clears_it(
    app, connect, login, marshal, referee, dashboard, clock
):
    hole2 = connect("marshal", "hole-2-phone")
    hole2.emit("join_round", {"round": ROUND, "holes": [2]}, callback=True)
    hole2.get_received()
    clock.set(local("08:50"))
    marshal.tap("1", 1, "08:14")
    marshal.tap("2", 1, "08:26")
    dashboard.get_received()
    hole2.get_received()
    marshal.tap("2", 2, "08:45")  # group 1's tap on hole 2 was missed

    raised = [m["alert"] for m in received(dashboard, "alert_raised")]
    [prompt] = [a for a in raised if a["kind"] == "missing_tap"]
    assert (prompt["key"], prompt["group"], prompt["hole"]) == ("missing_tap:1:2", "1", 2)
    assert prompt["reason"] == "passed"
    earliest, latest = (datetime.fromisoformat(prompt[k]) for k in ("earliest", "latest"))
    estimate = datetime.fromisoformat(prompt["at"])
    assert (earliest, latest) == (local("08:14"), local("08:45"))
    assert earliest < estimate < latest
    # group 2, 5 min over with nobody seen ahead on hole 2, would be out of position: its
    # verdict rests on group 1's estimate, so it is marked and raises no alert
    assert not [a for a in raised if a["kind"] == "out_of_position" and a["group"] == "2"]
    fold = app.extensions["pace"].live.live(ROUND).field
    assert fold.status("2", clock.now()).status.value == "out_of_position"  # the plain log's
    [asked] = received(hole2, "tap_missing")
    assert (asked["group"], asked["hole"], asked["alert"]) == ("1", 2, "missing_tap:1:2")

    snap = referee.join()["snapshot"]
    mine, behind = row(snap, "1"), row(snap, "2")
    assert mine["estimate"]["holes"]["2"]["reason"] == "passed"
    assert mine["holes_completed"] == 2 and mine["estimate"]["rests"]
    assert behind["estimate"] == {"rests": True, "holes": {}}
    # the facts-only board shows the estimate as one, never whether a status rests on it
    reply = login("viewer").get(f"/api/rounds/{ROUND}/board")
    board = reply.get_json()["snapshot"]
    assert reply.status_code == 200, board
    shown = next(r for r in board["groups"] if r["group"] == "1")
    assert "2" not in shown["holes"] and shown["estimated"]["2"]["at"] == prompt["at"]
    assert "estimated" not in next(r for r in board["groups"] if r["group"] == "2")
    dashboard.get_received()

    # the marshal confirms: the real tap, late, with its instant
    marshal.tap("1", 2, "08:43")
    resolved = received(dashboard, "alert_resolved")
    assert "missing_tap:1:2" in [e["payload"]["alert"] for e in resolved]
    snap = referee.join()["snapshot"]
    assert "estimate" not in row(snap, "1") and "estimate" not in row(snap, "2")
    assert row(snap, "2")["status"] == "behind"  # held up by group 1, 2 minutes ahead
    assert not [a for a in snap["alerts"] if a["kind"] == "out_of_position" and a["group"] == "2"]


def test_a_hole_nobody_watches_asks_nothing(marshal, referee, dashboard, clock):
    """Group 1's hole 2 never observed by anyone (no marshal there): it stays "not observed"
    (docs/rules.md §3), no estimate, no prompt."""
    clock.set(local("08:50"))
    marshal.tap("1", 1, "08:14")
    marshal.tap("2", 1, "08:26")
    marshal.tap("1", 3, "08:49")  # group 1 skipped hole 2 on a hole nobody watches
    dashboard.get_received()
    snap = referee.join()["snapshot"]
    assert "estimate" not in row(snap, "1")
    assert not [a for a in snap["alerts"] if a["kind"] == "missing_tap"]

"""The penalty rows at a glance (issue 37): the snapshot and ``penalties_changed`` list each
player's counted faults whole and count the others; ``GET /api/rounds/<round>/penalties`` and
``GET /api/rounds/<round>/penalties/<group>`` list every fault.

Round R1 (frbg: warning, one stroke, two strokes, disqualification; the notification gate),
through Flask-SocketIO's test client on a FakeClock. Group 1 (Marie Lavoie, Julie Gagnon,
Sophie Tremblay) holes out on the 1st at 08:40, out of position, and is timed from 09:08; the
clock stands at 09:10 and moves a minute between strokes.
"""

from __future__ import annotations

import pytest
from drivers import assert_error

from pace.app import close_app, create_app

MARIE, JULIE = "Marie Lavoie", "Julie Gagnon"


def received(sio, name: str) -> list:
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


def full_rows(client, path: str = "") -> list[dict]:
    answer = client.get(f"/api/rounds/R1/penalties{path}")
    assert answer.status_code == 200 and answer.json["ok"] is True, answer.json
    return answer.json["penalties"]


def at_a_glance(rows: list[dict]) -> list[dict]:
    """The rows as the snapshot carries them: the counted faults only (docs/protocol.md)."""
    return [{**r, "faults": [f for f in r["faults"] if f["counted"]]} for r in rows]


def by_player(rows: list[dict]) -> dict[tuple[str, str], dict]:
    return {(r["group"], r["player"]): r for r in rows}


@pytest.fixture
def timed(referee, marshal, clock, dashboard) -> None:
    """Group 1 is out of position and timed since 09:08; the deltas so far drained."""
    marshal.tap("1", 1, "08:40")
    clock.advance(minutes=-2)
    referee.decide("1")
    clock.advance(minutes=2)
    dashboard.get_received()


def slow_marie(referee, clock, strokes: int) -> list[dict]:
    """Marie plays ``strokes`` bad times a minute apart, told of none: the first counts (a
    warning, awaiting notification), the others do not (the notification gate)."""
    acks = []
    for n in range(strokes):
        acks.append(referee.timed_stroke("1", MARIE, 2 + n % 3, 45))
        clock.advance(minutes=1)
    return acks


def test_the_snapshot_lists_the_counted_faults_whole_and_counts_the_others(
    referee, timed, clock, client
):
    first, *_ = slow_marie(referee, clock, 3)
    referee.notify("1", MARIE, first["id"])
    clock.advance(minutes=1)
    second = referee.timed_stroke("1", MARIE, 5, 50)  # counted: one stroke, to tell her
    assert second["outcome"]["rank"] == 2
    julie = referee.timed_stroke("1", JULIE, 5, 60)  # her first: a warning

    [marie, other] = referee.join()["snapshot"]["penalties"]
    assert [f["id"] for f in marie["faults"]] == [first["id"], second["id"]]
    assert [(f["rank"], f["notified"], f["awaiting_notification"]) for f in marie["faults"]] == [
        (1, True, False),
        (2, False, True),
    ]
    assert marie["faults"][1]["penalty"] == {
        "kind": "strokes", "amount": 1, "hole": 5, "bearer": "player",
    }  # fmt: skip
    assert marie["faults"][1]["duration_s"] == 50.0
    assert (marie["uncounted"], marie["strokes_total"], marie["disqualified"]) == (2, 1, False)
    assert (other["player"], other["uncounted"]) == (JULIE, 0)
    assert [f["id"] for f in other["faults"]] == [julie["id"]]

    # every fault, whole, from the round's rows and from the group's
    rows = full_rows(client)
    assert full_rows(client, "/1") == rows
    full = by_player(rows)[("1", MARIE)]
    assert [f["reason"] for f in full["faults"]] == [
        "counted", "previous_not_notified", "previous_not_notified", "counted",
    ]  # fmt: skip
    assert full["uncounted"] == 2
    assert at_a_glance(rows) == [marie, other]


def test_a_group_without_faults_has_no_rows_and_an_unknown_group_is_not_found(
    referee, timed, clock, client
):
    slow_marie(referee, clock, 1)
    answer = client.get("/api/rounds/R1/penalties/2")
    assert answer.status_code == 200
    assert answer.json == {"ok": True, "group": "2", "penalties": []}

    for group in ("99", "1%20"):
        answer = client.get(f"/api/rounds/R1/penalties/{group}")
        assert answer.status_code == 404
        assert_error(answer.json, "unknown_group")
        assert "is not in the draw of round 'R1'" in answer.json["error"]["message"]
    answer = client.get("/api/rounds/R9/penalties/1")
    assert answer.status_code == 404
    assert_error(answer.json, "unknown_round")


@pytest.mark.parametrize(
    ("role", "status"),
    [("committee", 200), ("referee", 200), ("marshal", 200), ("scorer", 403), ("viewer", 403),
     (None, 401)],
)  # fmt: skip
def test_a_groups_faults_are_for_the_roles_of_the_rounds(
    referee, timed, clock, login, role, status
):
    slow_marie(referee, clock, 2)
    answer = login(role).get("/api/rounds/R1/penalties/1")
    assert answer.status_code == status
    if status == 200:
        assert [len(r["faults"]) for r in answer.json["penalties"]] == [2]
    else:
        assert_error(answer.json, "forbidden" if role else "unauthorized")
        assert "penalties" not in answer.json


def test_the_feed_builds_the_rows_a_fresh_snapshot_and_a_fresh_process_hold(
    referee, timed, clock, dashboard, marshal, scheduler, settings
):
    held = referee.join()["snapshot"]
    dashboard.get_received()
    rows = by_player(held["penalties"])

    def follow() -> None:
        """Apply the dashboard's penalties_changed as the pages do (live.js)."""
        for msg in received(dashboard, "penalties_changed"):
            for key in [k for k in rows if k[0] == msg["group"]]:
                del rows[key]
            rows.update(by_player(msg["players"]))
            assert all(len(r["faults"]) == sum(f["counted"] for f in r["faults"])
                       for r in msg["players"])  # fmt: skip

    acks = slow_marie(referee, clock, 4)
    follow()
    referee.notify("1", MARIE, acks[0]["id"])
    follow()
    julie = referee.timed_stroke("1", JULIE, 4, 70)
    clock.advance(minutes=1)
    follow()
    referee.void(acks[0]["id"], "timed the wrong player")  # the gate moves: re-judged
    follow()
    referee.void(julie["id"], "the stopwatch slipped")  # Julie has no fault left: no row
    follow()
    marshal.tap("1", 2, clock.now())
    clock.advance(minutes=1)
    scheduler.tick("R1")
    follow()

    fresh = referee.join()["snapshot"]["penalties"]
    assert rows == by_player(fresh)
    assert [r["player"] for r in fresh] == [MARIE]
    assert fresh[0]["uncounted"] == 2 and len(fresh[0]["faults"]) == 1
    # a new process over the same log folds the same rows
    other = create_app(settings, clock=clock, testing=True)
    try:
        again = other.extensions["pace"].live.snapshot("R1", clock.now())["penalties"]
    finally:
        close_app(other)
    assert again == fresh

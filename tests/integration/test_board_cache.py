"""The facts-only board is made once per log position for all its viewers (issue 15).

``bench/fanout.py`` has 2,000 viewers re-read the board after each tap; these tests check
that the answer they share is the board of the log as it is: a new event shows at once,
and without one the board is made again only once ``max_age`` has passed.
"""

from __future__ import annotations

import pytest
from drivers import ROUND, MarshalDriver


@pytest.fixture
def viewer(login):
    return login("viewer")


@pytest.fixture
def made(app, monkeypatch) -> list[str]:
    """Count the snapshots the board is made from; its clock stands still until moved."""
    ext = app.extensions["pace"]
    calls: list[str] = []
    snapshot = ext.live.snapshot

    def counted(round, now=None):
        calls.append(round)
        return snapshot(round, now)

    monkeypatch.setattr(ext.live, "snapshot", counted)
    ext.board_cache.t = 100.0
    ext.board_cache.clock = lambda: ext.board_cache.t
    return calls


def board(viewer) -> dict:
    answer = viewer.get(f"/api/rounds/{ROUND}/board")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    body = answer.get_json()
    assert body["ok"]
    return body["snapshot"]


def test_viewers_share_one_board_until_the_log_grows(app, viewer, made, connect, clock):
    ext = app.extensions["pace"]
    first = board(viewer)
    assert first == ext.board_feed.snapshot(ROUND)  # the board of the log as it is
    made.clear()
    for _ in range(5):
        assert board(viewer) == first
    assert made == []  # five readers, no new board

    marshal = MarshalDriver(connect("marshal", "marshal-phone"), clock.now)
    tap = marshal.tap("1", 1, "08:13")
    shown = board(viewer)
    assert made == [ROUND]
    row = next(r for r in shown["groups"] if r["group"] == "1")
    assert row["holes"]["1"]["at"] == tap["at"]


def test_a_board_is_made_again_once_it_is_older_than_max_age(app, viewer, made, clock):
    ext = app.extensions["pace"]
    board(viewer)
    made.clear()
    ext.board_cache.t += ext.board_cache.max_age - 0.01
    board(viewer)
    assert made == []
    clock.advance(minutes=1)
    ext.board_cache.t += 0.02
    again = board(viewer)
    assert made == [ROUND]
    assert again == ext.board_feed.snapshot(ROUND)  # its clock a minute on

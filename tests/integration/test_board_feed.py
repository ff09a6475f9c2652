"""The board's own feed (pace/services/board.py) over a real SQLite file: what it sends, and
that a restarted server tells the board nothing the stored log already held."""

from __future__ import annotations

from drivers import ROUND

from pace.services.board import BOARD, BoardFeed
from pace.services.changes import ChangeService
from pace.services.commands import Author
from pace.services.live import LiveService
from pace.services.referee_feed import RefereeFeed
from pace.services.reports import HoldUpPanel
from pace.services.state import PENALTIES, ROW, TIMING

MARIE = "Marie Lavoie"


def shown(board: dict) -> dict:
    """What a board shows (its clock and number aside)."""
    return {k: board[k] for k in ("groups", "timing", "disqualified", "suspended")}


def changes(boards: BoardFeed, work) -> tuple[list, object]:
    """Run the round's deltas ``work()`` through the board's feed, as ``Broadcaster.feed``
    does (one stage); return the deltas sent and the board's delta."""
    sent: list = []
    board = boards.stream(ROUND, lambda: (work(),), sent.extend)
    return sent, board


def disqualify(referee, clock, group: str, player: str) -> None:
    """Four bad times of ``player``, each told before the next (frbg: the 4th disqualifies)."""
    for i in range(4):
        ack = referee.timed_stroke(group, player, 2, 45)
        if i < 3:
            referee.notify(group, player, ack["id"])
        clock.advance(minutes=1)


def test_the_board_feed_sends_only_what_the_board_shows(app, marshal, referee, clock):
    ext = app.extensions["pace"]
    boards: BoardFeed = ext.board_feed
    start = boards.snapshot(ROUND)["rev"]

    marshal.tap("1", 1, "08:40")  # a status, an alert, a row: the row's facts only
    clock.advance(minutes=-2)
    referee.decide("1")
    clock.advance(minutes=2)
    disqualify(referee, clock, "1", MARIE)
    snapshot = boards.snapshot(ROUND)
    assert snapshot["rev"] > start
    assert snapshot["disqualified"] == [{"group": "1", "player": MARIE}]
    assert snapshot["timing"] == {"1": {"timed": True}}

    # a tick with statuses moving and nothing new for the board: nothing for the board
    clock.advance(minutes=5)
    deltas, board = changes(boards, lambda: ext.live.tick(ROUND))
    assert board is None
    assert boards.snapshot(ROUND)["rev"] == snapshot["rev"]


def test_a_restarted_server_tells_the_board_nothing_the_stored_log_held(
    app, marshal, referee, clock
):
    ext = app.extensions["pace"]
    marshal.tap("1", 1, "08:40")
    marshal.tap("2", 1, "08:24")
    clock.advance(minutes=-2)
    referee.decide("1")
    clock.advance(minutes=2)
    disqualify(referee, clock, "1", MARIE)
    before = ext.board_feed.snapshot(ROUND)

    # a new process over the same database: its first tick tells the dashboards every row,
    # timing and penalty again (they were never told by it), and the board nothing
    live = LiveService(ext.live.service)
    RefereeFeed(live)
    HoldUpPanel(live)
    boards = BoardFeed(live)
    deltas, board = changes(boards, lambda: live.tick(ROUND))
    kinds = {d.kind for d in deltas}
    assert {ROW, TIMING, PENALTIES} <= kinds, kinds
    assert board is None
    after = boards.snapshot(ROUND)
    assert after["rev"] == 0
    assert shown(after) == shown(before)

    # and the next change goes out as the board's delta number 1, with only what changed
    marshal.tap("3", 1, "08:35")
    deltas, board = changes(boards, lambda: live.changes(ROUND))
    assert board is not None and board.kind == BOARD and board.rev == 1
    assert set(board.data) == {"groups"}
    assert [r["group"] for r in board.data["groups"]] == ["3"]


def test_a_withdrawn_group_is_marked_withdrawn_on_the_board(app, marshal, clock):
    """Issue 46: the board drew a group that had withdrawn as still on the course ("Group 1,
    on hole 4"); its row now says it withdrew, a fact, and nothing judged."""
    ext = app.extensions["pace"]
    boards: BoardFeed = ext.board_feed
    for hole, at in ((1, "08:14"), (2, "08:28"), (3, "08:42")):
        marshal.tap("1", hole, at)
    (row,) = [r for r in boards.snapshot(ROUND)["groups"] if r["group"] == "1"]
    assert "withdrawn" not in row

    author = Author(role="committee", device="desk", name="Anne Roy")
    ChangeService(ext.live).withdraw_group(ROUND, "1", "storm", author)
    deltas, board = changes(boards, lambda: ext.live.tick(ROUND))
    assert board is not None
    (sent,) = board.data["groups"]
    assert sent["group"] == "1" and sent["withdrawn"] is True
    assert set(sent) == {"group", "order", "players", "tee", "start", "due", "holes", "withdrawn"}
    (row,) = [r for r in boards.snapshot(ROUND)["groups"] if r["group"] == "1"]
    assert row["withdrawn"] is True and set(row["holes"]) == {"1", "2", "3"}

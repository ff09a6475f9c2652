"""End to end: the facts-only board lives on its own numbered feed (issue 13, point 2).

The real ``pace serve`` (gevent) and real python-socketio clients. ``BoardPage`` does what
static/board.js does (docs/protocol.md, "The board's feed"): it keeps the board and its ``rev``,
applies each ``board_changed`` numbered next, ignores those the board holds, and on a number
that skips joins again once. A viewer hears nothing but board deltas, and a board delta holds
nothing but the board's fields: never a status, minutes over, a gap or an alert. Every wait is
bounded; nothing sleeps to make time pass.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import socketio
from drivers import ACK_TIMEOUT, MarshalDriver, server_offset, skewed_clock
from livesupport import (
    ROUND,
    LiveServer,
    clocked,
    command,
    connect,
    in_sequence,
    live_server,
    server_now,
)
from socketio.exceptions import TimeoutError as SocketTimeout

pytestmark = pytest.mark.e2e

#: what a board row holds, and a board delta (docs/protocol.md)
ROW_FIELDS = {"group", "order", "players", "tee", "start", "due", "holes"}
DELTA_FIELDS = {"round", "rev", "groups", "timing", "disqualified", "suspended"}
#: what the server may send a viewer's connection besides the board's deltas
CONNECTION = {"clock_probe"}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    # a fast tick: the tick changes statuses all the time, and must send the board nothing
    args = clocked("09:40", tick=0.5)
    with live_server(tmp_path_factory.mktemp("board-deltas"), extra_args=args) as s:
        yield s


class BoardPage:
    """A board page's hold of the round: the board, its ``rev``, and everything it heard."""

    def __init__(self, client: socketio.SimpleClient, event: str = "join_board"):
        self.client = client
        self.event = event
        self.drop: int | None = None  # the number of a board delta to miss on purpose
        self.joins = 0
        self.heard: list[tuple[str, Any]] = []
        self.applied: list[dict[str, Any]] = []
        self.join()

    def join(self) -> None:
        ack = self.client.call(self.event, {"round": ROUND}, timeout=ACK_TIMEOUT)
        assert ack["ok"], ack
        self.joins += 1
        self.board = ack["snapshot"]
        self.rev = self.board["rev"]
        assert isinstance(self.rev, int), self.board

    def receive(self, until: float, quiet: float = 0.5, done=None) -> None:
        """Apply what comes until ``until`` (monotonic), until nothing comes for ``quiet``, or
        until ``done(self)`` holds after a message."""
        while (left := until - time.monotonic()) > 0:
            try:
                event = self.client.receive(timeout=min(left, quiet))
            except SocketTimeout:
                return
            name, msg = event[0], (event[1] if len(event) > 1 else None)
            self.heard.append((name, msg))
            if name == "board_changed":
                self.delta(msg)
            if done is not None and done(self):
                return

    def receive_until(self, done, timeout: float = 10.0) -> None:
        """Apply what comes until ``done(self)`` holds (bounded): it returns as soon as it
        does, not at the deadline."""
        deadline = time.monotonic() + timeout
        if not done(self):
            self.receive(deadline, quiet=timeout, done=done)
        assert done(self), self.heard

    def delta(self, msg: dict[str, Any]) -> None:
        rev = msg["rev"]
        if not in_sequence(self, rev):
            return
        self.applied.append(msg)
        b = self.board
        b["rev"] = rev
        for row in msg.get("groups", []):
            b["groups"] = [row if r["group"] == row["group"] else r for r in b["groups"]]
        b["timing"].update(msg.get("timing", {}))
        if "disqualified" in msg:
            b["disqualified"] = msg["disqualified"]
        if "suspended" in msg:
            b["suspended"] = msg["suspended"]

    def done(self, group: str, hole: int) -> bool:
        row = next(r for r in self.board["groups"] if r["group"] == group)
        return str(hole) in row["holes"]


def held(board: dict[str, Any]) -> dict[str, Any]:
    """What a board shows (its clock aside)."""
    return {k: board[k] for k in ("rev", "groups", "timing", "disqualified", "suspended")}


def assert_board_only(heard: list[tuple[str, Any]]) -> None:
    """Only board deltas (and the connection's clock probes) reached the page, each holding
    the board's fields and nothing else."""
    names = {name for name, _ in heard}
    assert names <= {"board_changed"} | CONNECTION, names
    for name, msg in heard:
        if name != "board_changed":
            continue
        assert set(msg) <= DELTA_FIELDS and len(msg) > 2, msg
        for row in msg.get("groups", []):
            # a missed tap's estimate is shown as one (docs/estimates.md): instants only
            assert set(row) - {"estimated"} == ROW_FIELDS, row
            assert all(set(h) == {"at"} for h in row["holes"].values()), row
            guessed = row.get("estimated", {}).values()
            assert all(set(h) == {"at", "earliest", "latest"} for h in guessed), row
        assert all(t == {"timed": t["timed"]} for t in msg.get("timing", {}).values()), msg


def test_a_tap_sends_the_viewer_one_numbered_board_delta_with_only_that_row(server):
    viewer = connect(server, "viewer")
    phone = connect(server, "marshal")
    try:
        page = BoardPage(viewer, "join_round")  # a viewer's join_round answers the board
        start = page.rev
        page.receive(time.monotonic() + 1.5)  # the ticks until now: nothing for the board
        assert page.heard == [] or {n for n, _ in page.heard} <= CONNECTION, page.heard
        marshal = MarshalDriver(phone, skewed_clock(server_offset(phone)))
        tap = marshal.tap("4", 1, "08:44")
        page.receive_until(lambda p: p.done("4", 1))
        page.receive(time.monotonic() + 1.5)  # and nothing else after it, ticks included

        deltas = [m for n, m in page.heard if n == "board_changed"]
        assert len(deltas) == 1, deltas
        (delta,) = deltas
        assert delta["rev"] == start + 1
        assert set(delta) == {"round", "rev", "groups"}
        # the tapped group's row; the groups ahead with no tap on hole 1 have missed taps
        # there, shown as estimates in rows of their own (docs/estimates.md)
        rows = {r["group"]: r for r in delta["groups"]}
        assert rows.pop("4")["holes"] == {"1": {"at": tap["at"]}}
        ahead = rows.values()
        assert all("1" in r["estimated"] and "1" not in r["holes"] for r in ahead), ahead
        assert_board_only(page.heard)
    finally:
        viewer.disconnect()
        phone.disconnect()


def test_a_viewer_that_missed_a_board_delta_reads_the_board_once_and_ends_equal_to_it(server):
    viewer = connect(server, "viewer")
    witness = connect(server, "referee")  # the board page opened by a referee: the same feed
    phone = connect(server, "marshal")
    try:
        page = BoardPage(viewer)
        whole = BoardPage(witness)
        assert whole.rev == page.rev
        page.drop = page.rev + 1  # the next board delta never reaches the page
        marshal = MarshalDriver(phone, skewed_clock(server_offset(phone)))
        marshal.tap("5", 1, "08:52")
        marshal.tap("6", 1, "09:05")
        marshal.tap("5", 2, "09:09")
        page.receive_until(lambda p: p.done("5", 2) and p.done("6", 1) and p.done("5", 1))
        whole.receive_until(lambda p: p.done("5", 2))

        assert page.joins == 2, "the page re-read the board once, at the gap"
        assert whole.joins == 1
        assert [d["rev"] for d in whole.applied] == list(range(whole.applied[0]["rev"],
                                                               whole.rev + 1))  # fmt: skip
        truth = server.get_json(f"/api/rounds/{ROUND}/board", server.token("viewer"))
        assert held(page.board) == held(truth["snapshot"]) == held(whole.board)
        assert_board_only(page.heard)
        assert_board_only(whole.heard)
    finally:
        for c in (viewer, witness, phone):
            c.disconnect()


def test_nothing_but_board_deltas_reaches_a_viewer_whatever_the_referees_do(server):
    viewer = connect(server, "viewer")
    phone = connect(server, "marshal")
    try:
        page = BoardPage(viewer)
        start = page.rev
        marshal = MarshalDriver(phone, skewed_clock(server_offset(phone)))
        first = marshal.tap("1", 1, "08:40")  # out of position: an alert, a status
        marshal.correct(first["id"], "08:41", "tapped late")
        spare = marshal.tap("1", 2, "08:59")
        marshal.void(spare["id"], "wrong group")
        now = server_now(server)

        # the referees time group 1; Julie Gagnon's fourth bad time, each told, disqualifies
        decided = now - timedelta(minutes=10)
        command(server, "decide_timing", group="1", decision="time", at=decided.isoformat())
        page.receive_until(lambda p: p.board["timing"].get("1") == {"timed": True})
        for i in range(4):
            stopped = decided + timedelta(minutes=1 + i)
            ack = command(
                server, "record_stroke", group="1", player="Julie Gagnon", hole=1, kind="other",
                first_to_play=False, started=(stopped - timedelta(seconds=55)).isoformat(),
                stopped=stopped.isoformat(),
            )  # fmt: skip
            if i < 3:
                told = (stopped + timedelta(seconds=20)).isoformat()
                command(server, "notify_player", group="1", player="Julie Gagnon",
                        fault=ack["id"], at=told)  # fmt: skip
        dq = [{"group": "1", "player": "Julie Gagnon"}]
        page.receive_until(lambda p: p.board["disqualified"] == dq)
        command(server, "grant_time_credit", group="2", minutes=2, reason="ruling")
        command(server, "stop_timing", group="1", reason="back in position")
        page.receive_until(lambda p: p.board["timing"].get("1") == {"timed": False})
        command(server, "record_siren", kind="suspension", at=server_now(server).isoformat())
        page.receive_until(lambda p: p.board["suspended"] is True)
        command(server, "record_siren", kind="resume", at=server_now(server).isoformat())
        page.receive_until(lambda p: p.board["suspended"] is False)
        page.receive(time.monotonic() + 1.5)

        assert_board_only(page.heard)
        assert page.joins == 1, "every change came as a delta"
        revs = [m["rev"] for n, m in page.heard if n == "board_changed"]
        assert revs == list(range(start + 1, start + 1 + len(revs))), revs
        # the strokes, notifications and the credit change nothing the board shows: only
        # the taps' rows, the timing flag twice, the disqualification, the sirens were sent
        kinds = [tuple(sorted(set(m) - {"round", "rev"})) for n, m in page.heard
                 if n == "board_changed"]  # fmt: skip
        assert kinds.count(("disqualified",)) == 1, kinds
        assert kinds.count(("timing",)) == 2, kinds
        assert kinds.count(("suspended",)) == 2, kinds
        assert set(kinds) == {("groups",), ("timing",), ("disqualified",), ("suspended",)}
        truth = server.get_json(f"/api/rounds/{ROUND}/board", server.token("viewer"))
        assert held(page.board) == held(truth["snapshot"])
    finally:
        viewer.disconnect()
        phone.disconnect()

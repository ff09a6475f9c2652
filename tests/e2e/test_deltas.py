"""End to end: a dashboard lives on the round's numbered deltas and recovers a missed one.

The real ``pace serve`` (gevent) and real python-socketio clients. ``Page`` does what
static/dashboard/feed.js does with the feed (docs/protocol.md, "Deltas"): it keeps the snapshot and
its ``rev``, applies each delta numbered next, ignores those the snapshot holds, and on a number
that skips joins again once. One delta is dropped on purpose, as a page that missed it: the page
notices at the next one, re-reads once, and ends up holding what the server holds. Every wait
is bounded; nothing sleeps to make time pass.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import socketio
from drivers import ACK_TIMEOUT, MarshalDriver, server_offset, skewed_clock
from livesupport import ROUND, LiveServer, clocked, connect, in_sequence, live_server
from socketio.exceptions import TimeoutError as SocketTimeout

pytestmark = pytest.mark.e2e

DELTAS = {
    "group_updated", "alert_raised", "alert_acknowledged", "alert_resolved",
    "penalties_changed", "timing_changed", "round_changed",
}  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    # a slow tick: the deltas here are the taps' own (the tick's would be applied the same way)
    args = clocked("09:10", tick=30)
    with live_server(tmp_path_factory.mktemp("deltas"), extra_args=args) as s:
        yield s


class Page:
    """A dashboard's hold of the round: rows by group, open alerts, penalties, its ``rev``."""

    def __init__(self, client: socketio.SimpleClient, drop: int | None = None):
        self.client = client
        self.drop = drop  # the number of a delta to miss on purpose
        self.joins = 0
        self.applied: list[int] = []
        self.join()

    def join(self) -> None:
        ack = self.client.call("join_round", {"round": ROUND}, timeout=ACK_TIMEOUT)
        assert ack["ok"], ack
        self.joins += 1
        snapshot = ack["snapshot"]
        self.rev = snapshot["rev"]
        self.rows = {r["group"]: r for r in snapshot["groups"]}
        self.alerts = {a["key"] for a in snapshot["alerts"]}
        self.penalties = {r["group"] for r in snapshot["penalties"]}

    def receive(self, until: float) -> None:
        """Apply what comes until ``until`` (monotonic), or until nothing comes for 0.5 s."""
        while (left := until - time.monotonic()) > 0:
            try:
                event = self.client.receive(timeout=min(left, 0.5))
            except SocketTimeout:
                return
            name, msg = event[0], (event[1] if len(event) > 1 else None)
            if name in DELTAS and msg.get("round", ROUND) == ROUND:
                self.delta(name, msg)

    def delta(self, name: str, msg: dict[str, Any]) -> None:
        rev = msg["rev"]
        if not in_sequence(self, rev):
            return
        self.applied.append(rev)
        if name == "group_updated":
            self.rows[msg["group"]["group"]] = msg["group"]
        elif name == "alert_raised":
            self.alerts.add(msg["alert"]["key"])
        elif name in ("alert_acknowledged", "alert_resolved"):
            self.alerts.discard(msg["payload"]["alert"])


def shown(row: dict[str, Any]) -> tuple:
    """What a page cannot project of a row (its moving minutes aside)."""
    return (row["status"], row["holes_completed"], row["hole"], row["holes"], row["moving"])


def test_a_dashboard_that_missed_a_delta_reads_the_snapshot_once_and_holds_what_the_server_holds(
    server,
):
    phone = connect(server, "marshal")
    tablet = connect(server, "referee")
    witness = connect(server, "referee")
    try:
        marshal = MarshalDriver(phone, skewed_clock(server_offset(phone)))
        page = Page(tablet)
        start = page.rev
        whole = Page(witness)  # the same feed, nothing missed
        page.drop = start + 1  # the first delta after the snapshot never reaches the page

        # group 1 ahead logged holes 1 and 2 first: group 2's verdict rests on no estimate of
        # a missed tap (docs/estimates.md)
        marshal.tap("1", 1, "08:13")
        marshal.tap("2", 1, "08:40")  # out of position: a row, then an alert
        marshal.tap("3", 1, "08:30")
        marshal.tap("1", 2, "08:28")
        marshal.tap("2", 2, "08:58")
        page.receive(time.monotonic() + 5)
        whole.receive(time.monotonic() + 3)

        assert page.joins == 2, "the page re-read the snapshot once, at the gap"
        assert whole.joins == 1 and whole.applied == list(range(start + 1, whole.rev + 1))
        assert page.rev == whole.rev
        # what the page holds is what the server holds now
        ack = witness.call("join_round", {"round": ROUND}, timeout=ACK_TIMEOUT)
        truth = ack["snapshot"]
        assert truth["rev"] == page.rev
        assert {g: shown(r) for g, r in page.rows.items()} == {
            r["group"]: shown(r) for r in truth["groups"]
        }
        assert page.alerts == {a["key"] for a in truth["alerts"]}
        assert any(k.startswith("out_of_position:2:") for k in page.alerts), page.alerts
    finally:
        for c in (phone, tablet, witness):
            c.disconnect()


def test_a_tap_sends_no_row_of_the_groups_it_did_not_change(server):
    phone = connect(server, "marshal")
    tablet = connect(server, "referee")
    try:
        marshal = MarshalDriver(phone, skewed_clock(server_offset(phone)))
        page = Page(tablet)
        marshal.tap("4", 1, "08:35")  # 4 has left hole 1
        page.receive(time.monotonic() + 3)  # what that tap sent, applied
        before = dict(page.rows)
        marshal.tap("5", 1, "08:45")
        rows: list[str] = []
        deadline = time.monotonic() + 3
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = tablet.receive(timeout=min(left, 0.5))
            except SocketTimeout:
                break
            if event[0] == "group_updated":
                rows.append(event[1]["group"]["group"])
        assert "5" in rows
        # a group that still plays hole 1 may change with the completion (its standing on the
        # hole); one that left hole 1 and one further on (the previous test's) does not
        left = {g for g, r in before.items() if "1" in r["holes"]}
        assert left and not set(rows) & left, (rows, left)
        assert page.joins == 1
    finally:
        phone.disconnect()
        tablet.disconnect()

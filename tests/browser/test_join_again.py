"""A page told to join again reads what it shows again, in Chromium (issue 37, part 4).

With several workers, a worker that missed another's Socket.IO messages (its link to Redis
was cut, or Redis restarted) says ``join_again`` to its pages (docs/protocol.md, "Deltas").
Here one real ``pace serve`` shares a real Redis (``server.message_queue``); the test plays
the other worker: it holds the round's tick lease (so this worker announces nothing the log
implies), stores a tap in the log whose announcement never reaches the pages, then publishes
two of its beats whose numbers skip. The dashboard and the board, which
show nothing of the tap until then, join again and show it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import redis
from livesupport import LiveServer, clocked, live_server
from playwright.sync_api import expect

from pace.rules.events import Event
from pace.store import open_store

pytestmark = pytest.mark.browser

OTHER = "another-worker"
DEPLOYMENT = "t37"


@pytest.fixture
def server(tmp_path, fresh_round, redis_url) -> Iterator[LiveServer]:
    """A real ``pace serve`` with round R1 for today (its clock at noon) on a message queue."""
    db = fresh_round(tmp_path)
    with open_store(db) as store:
        store.secret("cluster_id", make=lambda: DEPLOYMENT)
    # the other worker ticks the round: it announces what the log implies, this one does not
    client = redis.Redis.from_url(redis_url)
    client.set(f"pace:{DEPLOYMENT}:tick:R1", f"{OTHER}:1:abcdef", px=600_000)
    client.close()
    args = [*clocked("12:00", tick=0.2), "--message-queue", redis_url]
    with live_server(tmp_path, db=db, extra_args=args) as s:
        s.queue = redis_url  # type: ignore[attr-defined]
        yield s


def store_unannounced_tap(server: LiveServer, group: str, hole: int, at: datetime) -> None:
    """Store a tap as another worker would, whose announcement is lost."""
    with open_store(server.db) as store:
        store.append(
            Event(id=str(uuid.uuid4()), type="hole_completed", round="R1", at=at,
                  payload={"group": group, "hole": hole}, by={"role": "marshal", "device": OTHER}),
            recorded_at=datetime.now(UTC),
        )  # fmt: skip


def beat(server: LiveServer, number: int) -> None:
    """Publish the other worker's beat: "I have published up to ``number``"."""
    client = redis.Redis.from_url(server.queue)  # type: ignore[attr-defined]
    try:
        channel = f"pace:{DEPLOYMENT}:socketio"
        message = {"method": "pace_beat", "pace_n": [OTHER, number], "host_id": OTHER}
        assert client.publish(channel, json.dumps(message)) == 1  # the worker listens
    finally:
        client.close()


def test_the_dashboard_and_the_board_read_again_when_their_worker_missed_messages(
    server, context, today_at
):
    joins: list[str] = []
    dashboard, board = context.new_page(), context.new_page()
    for page in (dashboard, board):
        page.on("websocket", lambda ws: ws.on(
            "framesent", lambda f: isinstance(f, str) and '"join_' in f and joins.append(f)
        ))  # fmt: skip
    dashboard.goto(server.url + "/rounds/R1/dashboard")
    board.goto(server.url + "/rounds/R1/board")
    expect(dashboard.locator("tr.group-row")).to_have_count(6)
    expect(board.locator("tr.board-row")).to_have_count(6)
    beat(server, 1)  # the other worker is heard: its numbers start at 1

    store_unannounced_tap(server, "2", 1, today_at(8, 24))
    dashboard.wait_for_timeout(600)
    cell = dashboard.locator("td.hole[data-group='2'][data-hole='1']")
    expect(cell).not_to_have_text("08:24")  # nothing announced it: the page cannot know
    assert len(joins) == 2, joins

    beat(server, 3)  # 2 and 3 never came: the worker tells its pages to join again
    expect(cell).to_have_text("08:24")
    expect(board.locator("td.b-hole[data-group='2'][data-hole='1'] .b-done")).to_have_text("08:24")
    assert len(joins) == 4, joins  # each page joined again, once

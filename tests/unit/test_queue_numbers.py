"""The numbers of Socket.IO's messages between the workers (pace/cluster/queue.py): a worker
tells its pages to join again exactly when another worker's numbers skip."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("redis")

from pace.cluster.queue import BEAT, JOIN_AGAIN, NUMBER, NumberedQueue  # noqa: E402


class Server:
    """What the queue's listener emits to this worker's sockets."""

    def __init__(self) -> None:
        self.emitted: list[tuple[str, Any, dict[str, Any]]] = []

    def emit(self, event: str, data: Any, **kwargs: Any) -> None:
        self.emitted.append((event, data, kwargs))


def queue() -> tuple[NumberedQueue, Server]:
    q = NumberedQueue("redis://127.0.0.1:1/0", "pace:t:socketio")
    server = Server()
    q.server = server
    return q, server


def message(sender: str, n: int) -> dict[str, Any]:
    return {"method": "emit", "event": "group_updated", NUMBER: [sender, n], "host_id": sender}


def beat(sender: str, n: int) -> dict[str, Any]:
    return {"method": BEAT, NUMBER: [sender, n], "host_id": sender}


def told(server: Server) -> list[int]:
    return [data["missed"] for event, data, kwargs in server.emitted if event == JOIN_AGAIN]


def test_messages_in_order_and_beats_that_repeat_the_last_number_tell_nobody():
    q, server = queue()
    for m in (message("a", 7), message("a", 8), beat("a", 8), beat("a", 8), message("a", 9),
              beat("b", 3), message("b", 4)):  # fmt: skip
        q.follow(m)
    assert told(server) == []


def test_a_number_that_skips_tells_this_workers_pages_once():
    q, server = queue()
    q.follow(message("a", 1))
    q.follow(message("a", 4))  # 2 and 3 lost
    q.follow(message("a", 5))
    assert told(server) == [2]
    assert server.emitted[0][2] == {"namespace": "/", "ignore_queue": True}  # this worker only


def test_a_beat_past_the_last_message_heard_means_messages_were_lost():
    q, server = queue()
    q.follow(message("a", 1))
    q.follow(beat("a", 2))  # it published 2, never heard: one message lost, and nothing since
    q.follow(beat("a", 2))
    assert told(server) == [1]


def test_this_workers_own_numbers_and_unnumbered_messages_are_not_followed():
    q, server = queue()
    q.follow(message(q.host_id, 1))
    q.follow(message(q.host_id, 9))
    q.follow({"method": "emit", "event": "x"})
    q.follow({"method": "emit", NUMBER: "garbage"})
    assert told(server) == []


def test_a_restarted_worker_is_a_new_sender_whose_numbers_start_afresh():
    q, server = queue()
    q.follow(message("a", 500))
    q.follow(message("a-restarted", 1))
    q.follow(message("a-restarted", 2))
    assert told(server) == []

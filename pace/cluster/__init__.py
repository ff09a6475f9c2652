"""Several workers, one deployment: what they share in Redis besides Socket.IO's messages.

A deployment is one database (its id is kept there, ``app_secrets.cluster_id``) served by N
``pace serve`` workers that share a Redis (``server.message_queue``). The log in the database
is the truth; every worker's round cache catches up from it by sequence number before it
answers. Redis carries three things: Socket.IO's emits (Flask-SocketIO's message queue, so a
tap on one worker reaches the pages on all; numbered per worker, so that a worker that missed
some tells its pages to join again: ``queue.py``), the tick leases (``leases.RoundLeases``: one
worker ticks each round), and nudges: a worker that stored a command's event tells the round's
ticking worker, which announces what the log now implies (group rows, penalties, cards) at
once, from the one memory of what the pages were told. Each worker listens on a channel of its
own, so a nudge that nobody heard (Redis counts the listeners) means the ticking worker died:
the worker that stored the event announces the changes itself until another one ticks.

Imported only when ``server.message_queue`` is set: one worker needs no Redis.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable
from typing import Any

from pace.cluster.leases import RoundLeases

log = logging.getLogger(__name__)

#: how long the nudge listener waits before it reconnects to a Redis that went away
RECONNECT_SECONDS = 1.0


class Cluster:
    """This worker's place among the workers of one deployment."""

    def __init__(self, url: str, deployment: str, *, lease_seconds: float) -> None:
        try:
            import redis
        except ImportError:
            from pace.config import ConfigError

            raise ConfigError(
                "server.message_queue needs the redis package: pip install 'pace[redis]'",
                field="server.message_queue",
            ) from None

        self.url = url
        self.deployment = deployment
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.prefix = f"pace:{deployment}:"
        self.redis: Any = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        # the subscription waits for messages as long as none comes: no read timeout there,
        # but a ping every half minute finds a connection that died silently
        self._listener: Any = redis.Redis.from_url(
            url, socket_connect_timeout=5, health_check_interval=30
        )
        self.leases = RoundLeases(self.redis, self.worker, lease_seconds, self.prefix)
        self._stopped = threading.Event()
        self._pubsub: Any = None
        self._queue: Any = None

    @property
    def socketio_channel(self) -> str:
        """Return the channel Flask-SocketIO's message queue uses for this deployment."""
        return f"{self.prefix}socketio"

    def socketio_queue(self) -> Any:
        """Return the Socket.IO message queue of this worker: Redis, its messages numbered so
        that a worker that missed some tells its pages to join again (``queue.py``)."""
        from pace.cluster.queue import NumberedQueue

        self._queue = NumberedQueue(self.url, self.socketio_channel)
        return self._queue

    def nudge_channel(self, worker: str) -> str:
        """Return the channel of ``worker``'s nudges ("round R has new events")."""
        return f"{self.prefix}nudge:{worker}"

    def announces(self, round: str) -> bool:
        """Return whether this worker announces what ``round``'s log implies: it ticks the
        round, or nobody does (no scheduler holds it: then every worker announces its own)."""
        holder = self.leases.holder(round)
        return holder is None or holder == self.worker

    def nudge(self, round: str) -> bool:
        """Tell the worker ticking ``round`` that its log grew (it announces what changed);
        return whether it heard (``False``: dead, or Redis away: announce here)."""
        holder = self.leases.holder(round)
        if holder is None or holder == self.worker:
            return False
        try:
            heard = int(self.redis.publish(self.nudge_channel(holder), round))
        except Exception as e:  # noqa: BLE001 - announced here instead
            log.warning("cannot nudge the worker ticking round %r: %s", round, e)
            return False
        if not heard:
            self.leases.forget(round)  # ask Redis again next time: the lease may have moved
        return heard > 0

    def listen(self, heard: Callable[[str], None], sleep: Callable[[float], Any]) -> None:
        """Call ``heard(round)`` for every nudge until ``close()``; blocks (run it in a
        background task). A Redis that goes away is reconnected to after ``sleep``."""
        while not self._stopped.is_set():
            try:
                self._pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
                self._pubsub.subscribe(self.nudge_channel(self.worker))
                for message in self._pubsub.listen():
                    if self._stopped.is_set():
                        return
                    data = message.get("data")
                    if isinstance(data, bytes):
                        heard(data.decode("utf-8", "replace"))
            except Exception as e:  # noqa: BLE001 - reconnect below
                if self._stopped.is_set():
                    return
                log.warning("nudges from the other workers interrupted: %s", e)
                sleep(RECONNECT_SECONDS)

    def close(self) -> None:
        """Release this worker's leases (the others take its rounds at once) and stop."""
        self._stopped.set()
        if self._queue is not None:
            self._queue.close()
        self.leases.release()
        if self._pubsub is not None:
            try:
                self._pubsub.close()
            except Exception:  # noqa: BLE001 - closing anyway
                log.debug("closing the nudge subscription failed", exc_info=True)
        self.redis.close()
        self._listener.close()

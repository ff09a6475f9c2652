"""Socket.IO's message queue between the workers, numbered so that a lost message is noticed.

Flask-SocketIO's Redis queue (python-socketio's ``RedisManager``) sends every emit to the
sockets of this worker at once and publishes it for the others. What it cannot publish (Redis
away, or this worker cut off from it) is dropped with a line in the log; what the others
publish while this worker's subscription is down is never heard. A page of the feed with
several workers applies deltas as they come (no ``rev``: docs/protocol.md, "Deltas"), so it
would not know.

:class:`NumberedQueue` numbers every message a worker publishes (one counter per worker
process, kept even when a publish fails) and publishes a **beat** every ``BEAT_SECONDS`` with
the last number used. Each worker follows the numbers of every other: a number that skips
means it missed a message (its subscription was down, or the sender could not publish), and
it tells every socket of its own to join again (``join_again``, to this worker's sockets only):
each page reads the snapshot, the stored log, again. The beat makes a missed message known
within a beat of the link coming back, even when nothing else is published, and it keeps the
subscription busy, so a subscription that hears nothing for ``SILENT_SECONDS`` (not even its
own beat) is a dead link, dropped and made again. A publish that Redis does not answer within
``PUBLISH_SECONDS`` (twice) marks the link down: the messages after it are dropped at once,
their numbers used up, until a beat goes through again, so that no command waits on a link
that drops packets.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import socketio

log = logging.getLogger(__name__)

#: the key of a published message that holds ``[sender, number]``
NUMBER = "pace_n"
#: the method of a beat ("I have published up to number N"); Socket.IO's listener ignores it
BEAT = "pace_beat"
#: the event that asks a page to join its round again (docs/protocol.md, "Deltas")
JOIN_AGAIN = "join_again"
#: how often a worker says which number it is at
BEAT_SECONDS = 1.0
#: a subscription that heard nothing this long (not even this worker's beat) is dropped
SILENT_SECONDS = 5.0
#: how long a publish may wait for Redis (it answers in a millisecond or so): past that, and
#: a second try, the link is down and messages are dropped at once until a beat goes through
PUBLISH_SECONDS = 1.0
#: how long the subscription waits before it is made again after a failure (the library's
#: own doubles its wait up to a minute: pages would stay behind that long after the link is
#: back)
RESUBSCRIBE_SECONDS = 1.0


class NumberedQueue(socketio.RedisManager):  # type: ignore[misc]
    """python-socketio's Redis manager whose messages are numbered per sender, with beats:
    this worker's sockets are told to join again when another worker's numbers skip."""

    def __init__(self, url: str, channel: str, *, beat_seconds: float = BEAT_SECONDS,
                 silent_seconds: float = SILENT_SECONDS) -> None:  # fmt: skip
        super().__init__(
            url,
            channel=channel,
            redis_options={"socket_timeout": PUBLISH_SECONDS,
                           "socket_connect_timeout": PUBLISH_SECONDS},
        )  # fmt: skip
        self.beat_seconds = beat_seconds
        self.silent_seconds = silent_seconds
        self._sent = 0
        # a publish failed: the next ones are dropped at once (their numbers used up) until a
        # beat goes through, rather than each waiting for a Redis that does not answer
        self._down = False
        # numbers leave in their order: assigning one and publishing it is one step
        self._order = threading.Lock()
        self._heard: dict[str, int] = {}  # sender -> the last number heard from it
        self._stopped = threading.Event()

    def initialize(self) -> None:
        """Start the listener (the library's) and the beat."""
        super().initialize()
        if not self.write_only:
            self.server.start_background_task(self._beat)

    def close(self) -> None:
        """Stop the beat (the listener ends with the process)."""
        self._stopped.set()

    # -- sending --------------------------------------------------------------------------

    def _publish(self, data: Any) -> Any:
        """Publish ``data`` with the next number; a failure still uses the number up, so the
        other workers see it skip once this one is heard again."""
        with self._order:
            self._sent += 1
            if self._down:
                return None
            # the library tries twice, and logs a message it cannot publish
            sent = super()._publish({**data, NUMBER: [self.host_id, self._sent]})
            if sent is None:
                self._down = True
                log.warning("Redis is away: this worker's messages are dropped until it is "
                            "back, then the other workers' pages join again")  # fmt: skip
            return sent

    def _beat(self) -> None:
        while not self._stopped.wait(self.beat_seconds):
            with self._order:
                # every message numbered up to here was published, or failed
                beat = {"method": BEAT, NUMBER: [self.host_id, self._sent], "host_id": self.host_id}
            try:
                self._publish_once(beat)
            except Exception as e:  # noqa: BLE001 - the other workers' pages are told once back
                log.debug("beat not published: %s", e)
                continue
            if self._down:
                log.warning("Redis is back: this worker publishes again")
            self._down = False

    def _publish_once(self, data: dict[str, Any]) -> Any:
        """Publish ``data`` once (no retry, no log line: a beat)."""
        if not self.connected or self.redis is None:
            self._redis_connect()
        try:
            return self.redis.publish(self.channel, self.json.dumps(data))
        except Exception:
            self.connected = False
            raise

    # -- listening ------------------------------------------------------------------------

    def _listen(self) -> Iterator[Any]:
        """Yield each message of the channel, decoded, after following its sender's number."""
        channel = self.channel.encode("utf-8")
        for message in self._subscription():
            if message.get("channel") != channel or message.get("type") != "message":
                continue
            try:
                data = self.json.loads(message["data"])
            except Exception:  # noqa: BLE001 - as the library: a message it cannot read is dropped
                continue
            if isinstance(data, dict):
                self.follow(data)
            yield data

    def follow(self, data: dict[str, Any]) -> None:
        """Note the number of a message heard; tell this worker's pages to join again when
        another worker's numbers skipped (a message, or a beat past what was heard)."""
        number = data.get(NUMBER)
        if not (isinstance(number, list) and len(number) == 2):
            return
        sender, n = number
        if sender == self.host_id or not isinstance(n, int):
            return
        last = self._heard.get(sender)
        expected = last if data.get("method") == BEAT else (last or 0) + 1
        if last is None or n <= expected:
            self._heard[sender] = max(n, last or 0)
            return
        self._heard[sender] = n
        missed = n - expected
        log.warning("missed %d Socket.IO message(s) of another worker: this worker's pages "
                    "join again", missed)  # fmt: skip
        self.server.emit(JOIN_AGAIN, {"missed": missed}, namespace="/", ignore_queue=True)

    def _subscription(self) -> Iterator[dict[str, Any]]:
        """Yield the messages of the channel, subscribing again a second after a failure (a
        link that went silent included)."""
        module = self._get_redis_module()
        while not self._stopped.is_set():
            client = pubsub = None
            try:
                options = {**self.redis_options, "socket_timeout": self.silent_seconds}
                client = module.Redis.from_url(self.redis_url, **options)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel)
                yield from pubsub.listen()
            except Exception as e:  # noqa: BLE001 - subscribe again below
                log.warning("Socket.IO's subscription to Redis interrupted: %s", e)
            finally:
                for part in (pubsub, client):
                    if part is not None:
                        try:
                            part.close()
                        except Exception:  # noqa: BLE001 - made again anyway
                            log.debug("closing the subscription failed", exc_info=True)
            time.sleep(RESUBSCRIBE_SECONDS)

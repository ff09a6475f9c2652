"""The demo's simulated people: real Socket.IO clients, each a phone or a laptop of its role.

Each one signs in with an access code of its role (``POST /api/session``, as a script does:
docs/access.md), connects with the session's token, joins the round as its page does (the
marshal page, the shot clock, the scorer's page, the dashboard) and sends its commands when
the demo's clock reaches their instants, each waiting for its ack, as a page's outbox does.
Commands whose instant has passed are sent at once, one after the other (a phone draining its
offline queue); one that gets no ack stays queued and is sent again with the same id, which
the server counts once. What each one sends is planned beforehand (``pace.demo.cast``).
"""

from __future__ import annotations

import json
import logging
import threading
import urllib.request
from collections.abc import Iterable, Mapping
from typing import Any
from zoneinfo import ZoneInfo

from pace.clock import AcceleratedClock
from pace.demo.cast import Command

log = logging.getLogger(__name__)

#: How long (real seconds) a referee waits to see the alert or prompt an act answers before
#: acting anyway: the plan is the plan, the alert only comes first on a normal day.
WATCH_SECONDS = 5.0


class Actor:
    """A simulated person: signs in, joins the round as its page does, sends its commands.

    ``join`` is the Socket.IO event and payload its page joins with; ``watch`` keys of the
    commands (alert keys, ``prompt:<group>``) are looked for among the alerts the connection
    hears, in the snapshot and as they are raised.
    """

    def __init__(
        self,
        role: str,
        number: int,
        name: str,
        commands: Iterable[Command],
        *,
        code: str,
        join: tuple[str, Mapping[str, object]],
        round: str,
        url: str,
        clock: AcceleratedClock,
        tz: ZoneInfo,
        stop: threading.Event,
        device: str | None = None,
    ):
        self.role = role
        self.number = number
        self.name = name
        self.queue = sorted(commands, key=lambda c: c.at)
        self.planned = len(self.queue)
        self.code = code
        self.join = join
        self.round = round
        self.url = url
        self.clock = clock
        self.tz = tz
        self.stop = stop
        self.sent = 0
        self.refused = 0
        self.drained = threading.Event()  # the commands of the past are all sent
        self.finished = threading.Event()
        self.device = device or f"demo-{role}-{number}"
        self.seen: set[str] = set()
        self._heard = threading.Condition()
        self.thread = threading.Thread(target=self._run, name=self.device, daemon=True)

    def _device_time(self) -> str:
        return self.clock.now().astimezone(self.tz).isoformat()

    def sign_in(self) -> str:
        """Return a session token for the actor's access code (``POST /api/session``)."""
        body = json.dumps({"code": self.code, "name": self.name}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/session", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 (our server)
            return str(json.load(answer)["token"])

    def _run(self) -> None:
        import socketio

        client = socketio.Client(reconnection_delay=0.2, reconnection_delay_max=1)
        client.on("clock_probe", lambda data=None: {"device_time": self._device_time()})
        joined = threading.Event()  # cleared at each (re)connection: rooms are per connection
        client.on("connect", joined.clear)
        client.on("alert_raised", lambda m: self._hear([m.get("alert", {}).get("key")]))
        client.on("stop_timing_prompted", lambda m: self._hear([f"prompt:{m.get('group')}"]))
        try:
            auth = {"token": self.sign_in(), "device": self.device, "name": self.name}
            client.connect(self.url, auth=auth, transports=["websocket"], wait_timeout=10)
            while self.queue and not self.stop.is_set():
                if not joined.is_set() and self._join(client):
                    joined.set()
                command = self.queue[0]
                wait = self.clock.to_real_seconds(command.at - self.clock.now())
                if wait > 0:
                    self.drained.set()
                    self.stop.wait(wait)
                    continue
                if command.watch:
                    self._watch(command.watch)
                command, taken = self._due(command)
                if self._send(client, command):
                    del self.queue[:taken]
        except Exception:
            log.exception("demo %s %s stopped", self.role, self.number)
        finally:
            try:
                client.disconnect()
            finally:
                self.drained.set()
                self.finished.set()

    def _due(self, command: Command) -> tuple[Command, int]:
        """Return the command to send now (the first of the queue, due) and how many of the
        queue it stands for."""
        return command, 1

    def _hear(self, keys: Iterable[object]) -> None:
        with self._heard:
            self.seen.update(str(k) for k in keys if k)
            self._heard.notify_all()

    def _watch(self, key: str) -> None:
        """Wait (bounded) until the alert or prompt ``key`` was heard, as a referee would."""
        with self._heard:
            if not self._heard.wait_for(lambda: key in self.seen or self.stop.is_set(),
                                        WATCH_SECONDS):  # fmt: skip
                log.warning("demo %s %s: acting without having seen %s", self.role,
                            self.number, key)  # fmt: skip

    def _join(self, client: Any) -> bool:
        """Follow the round as the actor's page does."""
        import socketio

        event, payload = self.join
        try:
            reply = client.call(event, {"round": self.round, **payload}, timeout=5)
        except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError):
            return False  # not connected right now: joined again after reconnecting
        if not self._ack(reply, event):
            return False
        snapshot = reply.get("snapshot") or {}
        alerts = [*snapshot.get("alerts", ()), *snapshot.get("resolved_alerts", ())]
        self._hear(a.get("key") for a in alerts)
        return True

    def _send(self, client: Any, command: Command) -> bool:
        import socketio

        payload = {**command.payload, "round": self.round, "device_time": self._device_time()}
        try:
            reply = client.call(command.event, payload, timeout=5)
        except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError):
            self.stop.wait(0.2)  # not acknowledged: stays queued, sent again with its id
            return False
        if self._ack(reply, command.event):
            self.sent += 1
            self._acked(command, reply)
        else:
            self.refused += 1
        return True

    def _acked(self, command: Command, reply: Mapping[str, Any]) -> None:
        """Take note of what an accepted command's ack says (nothing, but for a phone)."""

    def _ack(self, reply: Any, event: str) -> bool:
        if isinstance(reply, dict) and reply.get("ok"):
            return True
        log.warning("demo %s %s: %s refused: %r", self.role, self.number, event, reply)
        return False


class PhoneActor(Actor):
    """A group's phone sharing its position (issue 48): a scorer's session, which agrees to
    share the group's position, sends its fixes in batches and stops at the end.

    Batches whose instant has passed (the queue of before the demo's clock started, or a fast
    clock the phone cannot keep up with) go together, up to ``batch`` fixes a message, as a
    page's offline queue drains. It counts the fixes the server kept and discarded.
    """

    def __init__(self, *args: Any, batch: int = 40, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.batch = batch
        self.fixes = 0
        self.discarded = 0

    def _due(self, command: Command) -> tuple[Command, int]:
        if command.event != "send_positions":
            return command, 1
        now = self.clock.now()
        fixes = list(command.payload["fixes"])  # type: ignore[call-overload]
        taken = 1
        for later in self.queue[1:]:
            more = later.payload.get("fixes")
            if (later.event != command.event or later.at > now or not isinstance(more, list)
                    or later.payload.get("consent_id") != command.payload.get("consent_id")
                    or len(fixes) + len(more) > self.batch):  # fmt: skip
                break
            fixes += more
            taken += 1
        if taken == 1:
            return command, 1
        return Command(command.at, command.event, {**command.payload, "fixes": fixes}), taken

    def _acked(self, command: Command, reply: Mapping[str, Any]) -> None:
        if command.event == "send_positions":
            self.fixes += int(reply.get("kept", 0))
            self.discarded += sum(int(n) for n in (reply.get("discarded") or {}).values())

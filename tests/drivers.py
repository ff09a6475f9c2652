"""Drivers that speak the live protocol (docs/protocol.md) for tests and the bench.

``MarshalDriver(client, clock).tap("1", 1, "08:40")`` sends ``hole_completed`` and returns
the ack, asserting ``ok`` unless an ``error`` code is expected, in which case it asserts
the shared error shape and that code. A driver works over Flask-SocketIO's test client
and over real python-socketio clients (``Client`` or ``SimpleClient``) alike; its clock is
the device's clock (``at`` and ``device_time`` are read on it).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from socketio.exceptions import TimeoutError as SocketTimeout

DATA = Path(__file__).parent / "data" / "formats"
COURSE = DATA / "course_louiseville.toml"
DRAW = DATA / "draw.csv"
TIMES = DATA / "times.csv"
ROUND = "R1"
TIMEZONE = "Europe/Brussels"
TZ = ZoneInfo(TIMEZONE)
DAY = date(2026, 6, 14)

#: How long a real client waits for an ack before the test fails.
ACK_TIMEOUT = 5.0


def local(hhmm: str, day: date = DAY) -> datetime:
    """Return ``HH:MM[:SS]`` local (Europe/Brussels) on ``day`` as an aware instant."""
    parts = [int(p) for p in hhmm.split(":")]
    return datetime(day.year, day.month, day.day, *parts, tzinfo=TZ)


def new_id() -> str:
    """Return a new event id, as a device makes one."""
    return str(uuid.uuid4())


_ANY_FIELD = object()


def assert_error(answer: Any, code: str, field: object = _ANY_FIELD) -> None:
    """Assert ``answer`` is the shared error shape with ``code`` (and ``field`` when given)."""
    assert isinstance(answer, dict), answer
    assert answer.get("ok") is False, answer
    error = answer.get("error")
    assert isinstance(error, dict) and set(error) == {"code", "message", "field"}, answer
    assert error["code"] == code, answer
    assert isinstance(error["message"], str) and error["message"].strip(), answer
    if field is not _ANY_FIELD:
        assert error["field"] == field, answer


def _check(answer: Any, error: str | None) -> dict[str, Any]:
    if error is None:
        assert isinstance(answer, dict) and answer.get("ok") is True, answer
    else:
        assert_error(answer, error)
    return answer


class Device:
    """A device's connection: sends an event and returns its ack, whatever the client."""

    def __init__(self, client: Any, clock: Callable[[], datetime]):
        self.client = client
        self.clock = clock

    def send(self, event: str, payload: Any) -> Any:
        """Emit ``event`` with ``payload`` and return the server's ack."""
        if hasattr(self.client, "get_received"):  # Flask-SocketIO's test client
            return self.client.emit(event, payload, callback=True)
        return self.client.call(event, payload, timeout=ACK_TIMEOUT)

    def instant(self, at: str | datetime) -> str:
        """Return ``at`` (``HH:MM[:SS]`` local on the device's day, or a datetime) as ISO 8601."""
        if isinstance(at, datetime):
            return at.isoformat()
        day = self.clock().astimezone(TZ).date()
        return local(at, day).isoformat()

    def now(self) -> str:
        """Return the device's clock now, as sent in ``device_time``."""
        return self.clock().astimezone(TZ).isoformat()

    def join(
        self, round: str = ROUND, holes: tuple[int, ...] = (), *, facts: bool = False, error=None
    ) -> dict:
        """Follow ``round`` (and ``holes``; ``facts``: the stored facts too, as a tool does);
        return the ack with the round's snapshot."""
        payload: dict[str, Any] = {"round": round}
        if holes:
            payload["holes"] = list(holes)
        if facts:
            payload["facts"] = True
        return _check(self.send("join_round", payload), error)

    def clock_sync(self) -> dict:
        """Ask the server's time and this connection's estimated offset."""
        return _check(self.send("clock_sync", {}), None)


class MarshalDriver(Device):
    """A marshal's phone: taps, corrections and voids."""

    def __init__(self, client: Any, clock: Callable[[], datetime], round: str = ROUND):
        super().__init__(client, clock)
        self.round = round

    def tap(
        self,
        group: str,
        hole: int,
        at: str | datetime,
        *,
        id: str | None = None,
        error: str | None = None,
        **fields: Any,
    ) -> dict:
        """Log that ``group`` completed ``hole`` at ``at``; return the ack."""
        payload = {
            "id": id or new_id(),
            "round": self.round,
            "group": group,
            "hole": hole,
            "at": self.instant(at),
            "device_time": self.now(),
            **fields,
        }
        return _check(self.send("hole_completed", payload), error)

    def correct(
        self, target: str, at: str | datetime, reason: str = "late tap", *, error=None
    ) -> dict:
        """Correct the instant of the completion ``target``; return the ack."""
        payload = {
            "id": new_id(),
            "round": self.round,
            "target": target,
            "at": self.instant(at),
            "device_time": self.now(),
            "reason": reason,
        }
        return _check(self.send("correct_hole_time", payload), error)

    def void(self, target: str, reason: str = "wrong group", *, error=None) -> dict:
        """Undo the fact ``target``; return the ack."""
        payload = {"id": new_id(), "round": self.round, "target": target, "reason": reason}
        return _check(self.send("void_event", payload), error)


class RefereeDriver(MarshalDriver):
    """A referee's or committee's device: sirens, alerts, timing and the shot clock (and taps)."""

    def siren(self, kind: str, at: str | datetime, *, error=None) -> dict:
        """Record a siren of ``kind`` sounded at ``at``; return the ack."""
        payload = {
            "id": new_id(),
            "round": self.round,
            "kind": kind,
            "at": self.instant(at),
            "device_time": self.now(),
        }
        return _check(self.send("record_siren", payload), error)

    def acknowledge(self, alert: str, note: str = "", *, error=None) -> dict:
        """Acknowledge the alert whose key is ``alert``; return the ack."""
        payload = {"id": new_id(), "round": self.round, "alert": alert}
        if note:
            payload["note"] = note
        return _check(self.send("acknowledge_alert", payload), error)

    # -- timing and the shot clock (issue 5) ---------------------------------------------

    def _command(self, event: str, error: str | None, id: str | None, **fields: Any) -> dict:
        payload = {"id": id or new_id(), "round": self.round}
        payload.update({k: v for k, v in fields.items() if v is not None})
        return _check(self.send(event, payload), error)

    def decide(
        self,
        group: str,
        decision: str = "time",
        reason: str | None = None,
        note: str | None = None,
        *,
        at: str | datetime | None = None,
        id: str | None = None,
        error: str | None = None,
    ) -> dict:
        """Decide to time ``group`` (or not, with a mitigating ``reason``); return the ack.

        ``at`` is the device's instant of the decision (a phone's outbox sending it late).
        """
        when = {} if at is None else {"at": self.instant(at), "device_time": self.now()}
        return self._command(
            "decide_timing", error, id, group=group, decision=decision, reason=reason, note=note,
            **when,
        )  # fmt: skip

    def tell(self, group: str, player: str, *, error: str | None = None) -> dict:
        """Record that ``player`` was told his group is being timed; return the ack."""
        return self._command("tell_player_timed", error, None, group=group, player=player)

    def stroke(
        self,
        group: str,
        player: str,
        hole: int,
        started: str | datetime,
        stopped: str | datetime,
        kind: str = "other",
        first_to_play: bool = False,
        *,
        between_holes: bool | None = None,
        id: str | None = None,
        error: str | None = None,
    ) -> dict:
        """Time one stroke from its start and stop taps (read on the device); return the ack."""
        return self._command(
            "record_stroke",
            error,
            id,
            group=group,
            player=player,
            hole=hole,
            kind=kind,
            first_to_play=first_to_play,
            started=self.instant(started),
            stopped=self.instant(stopped),
            device_time=self.now(),
            between_holes=between_holes,
        )

    def timed_stroke(
        self, group: str, player: str, hole: int, seconds: float, **fields: Any
    ) -> dict:
        """Time a stroke of ``seconds`` that ended 5 s ago on the device's clock."""
        stopped = self.clock() - timedelta(seconds=5)
        return self.stroke(
            group, player, hole, stopped - timedelta(seconds=seconds), stopped, **fields
        )

    def notify(self, group: str, player: str, fault: str, *, error: str | None = None) -> dict:
        """Record that ``player`` was told of his fault ``fault``; return the ack."""
        return self._command("notify_player", error, None, group=group, player=player, fault=fault)

    def credit(
        self, group: str, minutes: float, reason: str = "ruling", *, error: str | None = None
    ) -> dict:
        """Grant ``group`` a time credit of ``minutes``; return the ack."""
        return self._command(
            "grant_time_credit", error, None, group=group, minutes=minutes, reason=reason
        )

    def stop_timing(
        self, group: str, reason: str | None = None, *, error: str | None = None
    ) -> dict:
        """Stop timing ``group``; return the ack."""
        return self._command("stop_timing", error, None, group=group, reason=reason)


class ScorerDriver(Device):
    """A scorer's device: scores recorded, corrected and voided, the cards followed."""

    def __init__(self, client: Any, clock: Callable[[], datetime], round: str = ROUND):
        super().__init__(client, clock)
        self.round = round

    def join_scores(self, *, error: str | None = None) -> dict:
        """Follow the round's cards; return the ack with the scorer's snapshot."""
        return _check(self.send("join_scores", {"round": self.round}), error)

    def join_leaderboard(self, *, error: str | None = None) -> dict:
        """Follow the round's leaderboard; return the ack with it."""
        return _check(self.send("join_leaderboard", {"round": self.round}), error)

    def score(
        self,
        group: str,
        player: str,
        hole: int,
        strokes: int | None,
        *,
        conceded: bool | None = None,
        id: str | None = None,
        error: str | None = None,
    ) -> dict:
        """Record ``player``'s score on ``hole`` (``None``: no score); return the ack."""
        payload: dict[str, Any] = {"id": id or new_id(), "round": self.round, "group": group,
                                   "player": player, "hole": hole, "strokes": strokes}  # fmt: skip
        if conceded is not None:
            payload["conceded"] = conceded
        return _check(self.send("record_score", payload), error)

    def card(self, group: str, player: str, strokes: Any, *, start: int = 1) -> list[dict]:
        """Record a run of holes from ``start`` (``strokes``: one per hole); return the acks."""
        return [self.score(group, player, start + i, s) for i, s in enumerate(strokes)]

    def correct(
        self, target: str, strokes: int | None, reason: str = "misread", *, error=None
    ) -> dict:
        """Correct the score ``target``; return the ack."""
        payload = {"id": new_id(), "round": self.round, "target": target, "strokes": strokes,
                   "reason": reason}  # fmt: skip
        return _check(self.send("correct_score", payload), error)

    def void(self, target: str, reason: str = "wrong player", *, error=None) -> dict:
        """Take the score (or correction) ``target`` back; return the ack."""
        payload = {"id": new_id(), "round": self.round, "target": target, "reason": reason}
        return _check(self.send("void_event", payload), error)


# -- the test client's side of a clock_probe -------------------------------------------


def answer_clock_probes(sio: Any, device_now: datetime) -> int:
    """Answer the server's pending ``clock_probe`` requests of a socket test client.

    The test client cannot answer a server's callback itself; this sends the ACK packet a
    device would send, with ``device_time`` = ``device_now``. Returns how many it answered.
    """
    from socketio import packet

    server = sio.socketio.server
    sid = server.manager.sid_from_eio_sid(sio.eio_sid, "/")
    pending = [k for k in server.manager.callbacks.get(sid, {}) if k != 0]
    for ack_id in pending:
        pkt = packet.Packet(
            packet.ACK, data=[{"device_time": device_now.isoformat()}], namespace="/", id=ack_id
        )
        server._handle_eio_message(sio.eio_sid, pkt.encode())
    return len(pending)


# -- real clients ------------------------------------------------------------------------


def server_offset(client: Any, samples: int = 5) -> timedelta:
    """Return the server's clock minus this machine's, from ``clock_sync`` exchanges.

    The exchange with the shortest round trip wins (its error is at most half of it).
    """
    best: tuple[float, timedelta] | None = None
    for _ in range(samples):
        t0 = time.monotonic()
        w0 = datetime.now(UTC)
        answer = client.call("clock_sync", {}, timeout=ACK_TIMEOUT)
        rtt = time.monotonic() - t0
        server = datetime.fromisoformat(answer["server_time"])
        offset = server - (w0 + timedelta(seconds=rtt / 2))
        if best is None or rtt < best[0]:
            best = (rtt, offset)
    assert best is not None
    return best[1]


def skewed_clock(offset: timedelta) -> Callable[[], datetime]:
    """Return a clock that reads this machine's time plus ``offset``."""
    return lambda: datetime.now(UTC) + offset


def receive_until(
    client: Any, name: str, match: Callable[[Any], bool] = lambda data: True, timeout: float = 5
) -> Any:
    """Return the first ``name`` event a ``SimpleClient`` receives that ``match``es.

    Other events are skipped. Fails after ``timeout`` seconds: a bounded wait.
    """
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no matching {name!r} within {timeout} s; received {seen}")
        try:
            event = client.receive(timeout=left)
        except SocketTimeout:
            raise AssertionError(
                f"no matching {name!r} within {timeout} s; received {seen}"
            ) from None
        seen.append(event[0])
        if event[0] == name and match(event[1] if len(event) > 1 else None):
            return event[1] if len(event) > 1 else None

"""Socket.IO handlers: parse, call the live service, broadcast, ack. No golf here."""

from __future__ import annotations

import logging
from typing import Any

from flask import request, session
from flask_socketio import Namespace, join_room, leave_room, rooms

from pace.services import commands as cmd
from pace.services.access import AccessService, Session
from pace.services.taps import LiveService, Outcome
from pace.web import access, payloads
from pace.web.broadcast import Broadcaster, board_room, board_view, hole_room, round_room
from pace.web.referee import RefereeHandlers
from pace.web.timesync import ClockOffsets, sample

log = logging.getLogger(__name__)

#: events of the connection itself, never refused (``connect`` notes the session)
CONNECTION_EVENTS = ("connect", "disconnect")


class PaceNamespace(RefereeHandlers, Namespace):
    """The live endpoint on namespace ``/`` (see docs/protocol.md)."""

    def __init__(
        self,
        live: LiveService,
        broadcaster: Broadcaster,
        offsets: ClockOffsets,
        access_service: AccessService,
    ):
        super().__init__("/")
        self.live = live
        self.broadcaster = broadcaster
        self.offsets = offsets
        self.access = access_service
        self._authors: dict[str, cmd.Author] = {}
        self._tokens: dict[str, str | None] = {}

    def session_of(self) -> Session | None:
        """Return the live session of this connection (checked again at every event)."""
        return self.access.resolve(self._tokens.get(request.sid))  # type: ignore[attr-defined]

    def author_of(self) -> cmd.Author:
        """Return who is recording on this connection: the session's role, the device's id."""
        sid = request.sid  # type: ignore[attr-defined]
        device = self._authors.get(sid) or cmd.Author("viewer", f"sid:{sid[:12]}")
        s = self.session_of()
        name = device.name or (s.name if s else None)
        return cmd.Author(s.role if s else "viewer", device.device, name)

    def trigger_event(self, event: str, *args: Any) -> Any:
        """Check every event against the session's role (pace/web/access.py), then handle it.

        The check runs inside Flask-SocketIO's handling, so a refusal is acked with the
        shared error shape like any other error.
        """
        if event in CONNECTION_EVENTS:
            return super().trigger_event(event, *args)
        handler = getattr(self, f"on_{event or ''}", None)
        if handler is None:
            return None  # an event nobody handles is ignored, as Flask-SocketIO does

        def guarded(*payload: Any) -> Any:
            access.check_event(event, self.session_of(), payload[0] if payload else None)
            return handler(*payload)

        return self.socketio._handle_event(guarded, event, self.namespace, *args)

    # -- connection ------------------------------------------------------------------

    def on_connect(self, auth: Any = None) -> None:
        """Accept the connection, note its session and device, measure the device's clock.

        The session is the ``token`` of ``auth`` (python clients) or the session cookie
        sent with the handshake (browsers). A connection without a valid one is accepted
        all the same: each of its events is answered ``unauthorized`` (docs/access.md).
        """
        sid = request.sid  # type: ignore[attr-defined]
        token = auth.get("token") if isinstance(auth, dict) else None
        cookie = session.get("token")
        self._tokens[sid] = token if isinstance(token, str) else cookie
        self._authors[sid] = payloads.author(auth, sid)
        self.probe_clock(sid)

    def on_disconnect(self, *args: Any) -> None:
        """Forget the connection's clock samples."""
        sid = request.sid  # type: ignore[attr-defined]
        self.offsets.forget(sid)
        self._authors.pop(sid, None)
        self._tokens.pop(sid, None)

    def probe_clock(self, sid: str) -> None:
        """Send a ``clock_probe``; the device's answer adds one offset sample."""
        s0 = self.live.clock.now()

        def answered(*reply: Any) -> None:
            s1 = self.live.clock.now()
            try:
                device = payloads.clock_reply(reply[0] if reply else None)
            except payloads.PayloadError as e:
                log.info("ignored clock reply from %s: %s", sid, e.message)
                return
            self.offsets.add(sid, sample(s0, s1, device))

        self.socketio.emit(
            "clock_probe", {"server_time": s0.isoformat()}, to=sid, callback=answered
        )

    def probe_clocks(self) -> None:
        """Probe every open connection, answered or not so far (the periodic exchange)."""
        for sid in list(self._authors):
            self.probe_clock(sid)

    def on_clock_sync(self, payload: Any = None) -> dict[str, Any]:
        """Answer the server's time, for pages that show due times on the server's clock."""
        offset = self.offsets.offset(request.sid)  # type: ignore[attr-defined]
        return {
            "ok": True,
            "server_time": self.live.clock.now().isoformat(),
            "offset_ms": None if offset is None else offset.total_seconds() * 1000,
        }

    def on_join_round(self, payload: Any = None) -> dict[str, Any]:
        """Follow a round (and, for a marshal, some holes); answer its snapshot."""
        c = payloads.join_round(payload)
        snapshot = self.live.snapshot(c.round)  # unknown round: refused before joining
        for room in rooms():
            if room.startswith(("round:", "hole:", "board:")):
                leave_room(room)
        s = self.session_of()
        if s is not None and s.role == "viewer":
            # viewers follow the facts-only board: statuses and alerts never reach them
            join_room(board_room(c.round))
            return {"ok": True, "snapshot": board_view(snapshot)}
        join_room(round_room(c.round))
        for hole in c.holes:
            join_room(hole_room(c.round, hole))
        return {"ok": True, "snapshot": snapshot}

    # -- commands --------------------------------------------------------------------

    def _timed(self) -> tuple[cmd.Author, Any, Any]:
        sid = request.sid  # type: ignore[attr-defined]
        return self.author_of(), self.live.clock.now(), self.offsets.offset(sid)

    def _done(self, outcome: Outcome) -> dict[str, Any]:
        self.broadcaster.outcome(outcome, self.live.changed_rows)
        e = outcome.event
        return {
            "ok": True,
            "id": e.id,
            "seq": e.seq,
            "at": e.at.isoformat(),
            "duplicate": not outcome.created,
        }

    def on_hole_completed(self, payload: Any = None) -> dict[str, Any]:
        """A marshal's tap: a group completed a hole."""
        by, received, offset = self._timed()
        c = payloads.hole_completed(payload, by, received, offset)
        return self._done(self.live.log_hole_completed(c))

    def on_correct_hole_time(self, payload: Any = None) -> dict[str, Any]:
        """Correct the instant of a logged completion."""
        by, received, offset = self._timed()
        c = payloads.correct_hole_time(payload, by, received, offset)
        return self._done(self.live.correct_hole_time(c))

    def on_void_event(self, payload: Any = None) -> dict[str, Any]:
        """Undo a logged fact, with a reason."""
        c = payloads.void_event(payload, self.author_of())
        return self._done(self.live.void_event(c))

    def on_record_siren(self, payload: Any = None) -> dict[str, Any]:
        """The committee records a siren."""
        by, received, offset = self._timed()
        c = payloads.record_siren(payload, by, received, offset)
        return self._done(self.live.record_siren(c))

    def on_acknowledge_alert(self, payload: Any = None) -> dict[str, Any]:
        """A referee acknowledges an alert."""
        c = payloads.acknowledge_alert(payload, self.author_of())
        return self._done(self.live.acknowledge_alert(c))

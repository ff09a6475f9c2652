"""Socket.IO: every event goes through the edge pipeline (pace/web/edge.py). No golf here.

``ROUTES`` are the edge's commands, the features' joins (``join_scores``...) and the events of
a connection's own (``join_round``, ``join_board``, ``clock_sync``).
``PaceNamespace.trigger_event`` hands each event with its one payload to ``edge.handle``
(who → shape → parse → scope → run) inside Flask-SocketIO's handling, so every refusal is
acked with the shared error shape. ``WirePacket`` keeps a packet that cannot be decoded (JSON
nested deeper than the parser goes, broken text) from becoming a traceback: the event is
answered ``invalid_payload`` instead.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import request, session
from flask_socketio import Namespace, join_room, leave_room, rooms
from socketio import exceptions, packet

from pace import clock as clockmod
from pace.services import commands as cmd
from pace.services.access import AccessService, Session
from pace.services.live import LiveService
from pace.web import edge, errors, payloads
from pace.web.broadcast import (
    Broadcaster,
    board_room,
    facts_room,
    hole_room,
    marshal_room,
    round_room,
)
from pace.web.parts import AppParts, parts
from pace.web.routing import Route, Sender, unsigned
from pace.web.timesync import ClockOffsets, sample

log = logging.getLogger(__name__)

#: events of the connection itself, never refused (``connect`` notes the session)
CONNECTION_EVENTS = ("connect", "disconnect")

#: the event name a packet that could not be decoded is handed on as (never a real event)
UNREADABLE = "\x00unreadable"


class WirePacket(packet.Packet):
    """A Socket.IO packet whose undecodable JSON is refused with an answer, not a traceback.

    Pace sends JSON only (never bytes): its packets skip python-socketio's walk through every
    sent payload looking for bytes (``uses_binary_events``): about 5 % of the server's CPU in
    a profile of the latency bench, the rows being nested (docs/performance.md). A client's
    binary event is still read as before (its attachments are the server's business, not
    this flag's), and refused as any payload that is not JSON's."""

    uses_binary_events = False

    def decode(self, encoded_packet: Any) -> int:
        """Decode the packet; JSON that cannot be read becomes an ``UNREADABLE`` event."""
        try:
            return int(super().decode(encoded_packet))
        except (ValueError, RecursionError, TypeError):
            reason = "the message is not JSON pace can read (nested too deeply, or broken)"
            if self.packet_type == packet.EVENT:
                self.data = [UNREADABLE, reason]  # answered invalid_payload, with its ack id
            elif self.packet_type == packet.CONNECT:
                self.data = {UNREADABLE: reason}  # the connection is refused
            elif self.packet_type == packet.ACK:
                self.data = []  # an unreadable answer to a clock probe: no sample
            else:
                raise
            return 0


#: the roles that follow a round's facts-only board: no statuses or alerts reach them
BOARD_ROLES = ("viewer", "scorer")
#: the role whose pages follow the marshals' room: the rows and the ends of alerts
MARSHAL_ROLE = "marshal"


def join_round(command: cmd.JoinRound, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Follow a round (and, for a marshal, some holes); answer its snapshot.

    A marshal's session joins the marshals' room, which hears only what the marshal page uses
    (``pace.web.broadcast.TO_MARSHALS``); the other roles join the round's room, the whole feed.
    Every session joins the rooms of its ``holes`` (the marshal page's).
    A session asking for the stored facts (``facts``) joins their room too, whatever its role.

    The rooms are joined before the snapshot is taken: a delta made meanwhile reaches the page,
    which applies those numbered after the snapshot's ``rev`` (docs/protocol.md, "Deltas").
    """
    if sender.session is not None and sender.session.role in BOARD_ROLES:
        # viewers follow the facts-only board: statuses and alerts never reach them
        return join_board(command, sender, app_parts)
    _leave_rounds(app_parts, command.round)
    marshal = sender.session is not None and sender.session.role == MARSHAL_ROLE
    join_room((marshal_room if marshal else round_room)(command.round))
    # another role's session on the marshal page (the committee's, a referee's) joins the
    # holes' rooms too, for their checks and missed taps: it hears a row or the end of a check
    # again there, after the round's room (``Broadcaster.feed_stages``), which the marshal
    # page applies again to the same effect
    for hole in command.holes:
        join_room(hole_room(command.round, hole))
    if command.facts:
        join_room(facts_room(command.round))
    return {"ok": True, "snapshot": app_parts.live.snapshot(command.round)}


def join_board(command: cmd.JoinRound, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Follow a round's facts-only board (the board page, whoever opens it): join its room,
    which hears the board's own feed only, and answer the board with the number it holds."""
    _leave_rounds(app_parts, command.round)
    join_room(board_room(command.round))
    return {"ok": True, "snapshot": app_parts.board_feed.snapshot(command.round)}


def _leave_rounds(app_parts: AppParts, round: str) -> None:
    """Leave the rooms of any round followed before (``unknown_round`` first: none left)."""
    app_parts.live.service.round_view(round)
    for room in rooms():
        if room.startswith(("round:", "marshals:", "hole:", "board:", "facts:")):
            leave_room(room)


def clock_sync(command: None, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Answer the server's time and its rate, for pages that work on the server's clock."""
    offset = sender.ping_offset
    return {
        "ok": True,
        "server_time": sender.received.isoformat(),
        "offset_ms": None if offset is None else offset.total_seconds() * 1000,
        "rate": clockmod.rate(app_parts.live.clock),
    }


#: every client → server event: the connection's own events, the features' joins and the
#: edge's commands
ROUTES: dict[str, Route] = {
    "clock_sync": Route(lambda payload, s: None, clock_sync),
    "join_round": Route(unsigned(payloads.join_round), join_round),
    "join_board": Route(unsigned(payloads.join_board), join_board),
    **edge.JOINS,
    **edge.ROUTES,
}


class PaceNamespace(Namespace):
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
        #: the session each connection had when it connected (to close it when it ends)
        self._sessions: dict[str, str] = {}
        #: the role each connection counts under in the metrics ("none": no session)
        self._roles: dict[str, str] = {}

    def session_of(self) -> Session | None:
        """Return the live session of this connection (checked again at every event)."""
        return self.access.resolve(self._tokens.get(request.sid))  # type: ignore[attr-defined]

    def sender(self) -> Sender:
        """Return who sends this connection's event, and when (for the edge pipeline)."""
        sid = request.sid  # type: ignore[attr-defined]
        s = self.session_of()
        device = self._authors.get(sid) or cmd.Author("viewer", f"sid:{sid[:12]}")
        name = device.name or (s.name if s else None)
        by = cmd.Author(s.role if s else "viewer", device.device, name)
        return Sender(s, by, self.live.clock.now(), self.offsets.offset(sid), sid)

    def trigger_event(self, event: str, *args: Any) -> Any:
        """Run every event through the edge pipeline, inside Flask-SocketIO's handling.

        ``args`` is the connection's sid and what the client sent: one payload (or none);
        a second argument is ``invalid_payload``; an event nobody handles is answered
        ``unknown_command``, as ``POST /api/commands/<name>`` is (a client that misspells an
        event learns it at once instead of waiting for an ack that never comes).
        """
        if event in CONNECTION_EVENTS:
            return super().trigger_event(event, *args)

        def guarded(*sent: Any) -> Any:
            if event == UNREADABLE:
                raise payloads.PayloadError(str(sent[0]) if sent else "unreadable message")
            if event not in ROUTES:
                raise payloads.PayloadError(
                    f"unknown event {str(event)[:40]!r}; expected one of "
                    + ", ".join(sorted(ROUTES)),
                    code="unknown_command",
                )
            if len(sent) > 1:
                raise payloads.PayloadError(
                    f"{event} carries one payload (a JSON object), not {len(sent)} arguments"
                )
            return edge.handle(event, sent[0] if sent else None, self.sender(), parts(), ROUTES)

        return self.socketio._handle_event(guarded, event, self.namespace, *args)

    # -- connection ------------------------------------------------------------------

    def on_connect(self, auth: Any = None) -> None:
        """Accept the connection, note its session and device, measure the device's clock.

        The session is the ``token`` of ``auth`` (python clients) or the session cookie
        sent with the handshake (browsers). A connection without a valid one is accepted
        all the same: each of its events is answered ``unauthorized`` (docs/access.md). An
        ``auth`` whose device or name is not valid text is refused (``connect_error`` with
        the shared error shape): nothing of it is ever stored.
        """
        sid = request.sid  # type: ignore[attr-defined]
        try:
            if isinstance(auth, dict) and UNREADABLE in auth:
                raise payloads.PayloadError(str(auth[UNREADABLE]), field="auth")
            device = payloads.author(auth, sid)
        except payloads.PayloadError as e:
            body = errors.error_body(e.code, e.message, e.field)
            raise exceptions.ConnectionRefusedError(e.message, body) from None
        token = auth.get("token") if isinstance(auth, dict) else None
        cookie = session.get("token")
        self._tokens[sid] = token if isinstance(token, str) else cookie
        self._authors[sid] = device
        live = self.access.resolve(self._tokens[sid])
        if live is not None:
            self._sessions[sid] = live.token_hash
        self._roles[sid] = live.role if live is not None else "none"
        counted = parts().metrics
        if counted is not None:
            counted.connected(self._roles[sid])
        self.probe_clock(sid)

    def on_disconnect(self, *args: Any) -> None:
        """Forget the connection's clock samples and session."""
        sid = request.sid  # type: ignore[attr-defined]
        self.offsets.forget(sid)
        self._authors.pop(sid, None)
        self._tokens.pop(sid, None)
        self._sessions.pop(sid, None)
        role = self._roles.pop(sid, None)
        counted = parts().metrics
        if counted is not None and role is not None:
            counted.disconnected(role)

    def close_sessions(self, ended: set[str]) -> None:
        """Disconnect every connection of the sessions ``ended`` (token hashes): logout, revoke."""
        for sid, hashed in list(self._sessions.items()):
            if hashed in ended:
                self._sessions.pop(sid, None)
                self.socketio.server.disconnect(sid, namespace=self.namespace)

    def sweep(self) -> None:
        """Disconnect the connections whose session has ended since they connected.

        A code revoked from the command line, or a session run out at midnight, ends there;
        the periodic clock probe calls this, so such a socket stops hearing the round soon.
        """
        ended = {
            hashed
            for sid, hashed in list(self._sessions.items())
            if self.access.resolve(self._tokens.get(sid)) is None
        }
        if ended:
            self.close_sessions(ended)

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
            "clock_probe",
            {"server_time": s0.isoformat(), "rate": clockmod.rate(self.live.clock)},
            to=sid,
            callback=answered,
        )

    def probe_clocks(self) -> None:
        """Probe every open connection, answered or not so far (the periodic exchange);
        close those whose session ended."""
        self.sweep()
        for sid in list(self._authors):
            self.probe_clock(sid)

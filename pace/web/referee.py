"""The referees' web adapter: Socket.IO handlers, their broadcasts and HTTP routes.

Handlers stay thin: parse (``referee_payloads``) → ``RefereeService`` → broadcast → ack.
``RefereeHandlers`` is mixed into ``PaceNamespace``; ``bp`` serves the referees' pages
and the round's penalties. Event names and shapes are in docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template

from pace.services import commands as cmd
from pace.services.referees import RefereeOutcome, RefereeService
from pace.rules import facts as factsmod
from pace.rules import refereeing as rr
from pace.web import referee_payloads as rp
from pace.web.broadcast import Broadcaster, event_view, round_room
from pace.web.i18n import page_context

#: The referees' commands: the parser of each payload and the use case it calls.
COMMANDS: dict[str, tuple[Callable[..., Any], Callable[..., RefereeOutcome]]] = {
    "decide_timing": (rp.decide_timing, RefereeService.decide_timing),
    "tell_player_timed": (rp.tell_player_timed, RefereeService.tell_player_timed),
    "record_stroke": (rp.record_stroke, RefereeService.record_stroke),
    "notify_player": (rp.notify_player, RefereeService.notify_player),
    "grant_time_credit": (rp.grant_time_credit, RefereeService.grant_time_credit),
    "stop_timing": (rp.stop_timing, RefereeService.stop_timing),
}

PenaltyChanges = Callable[[str], Sequence[tuple[str, Sequence[dict[str, Any]]]]]


class RefereeBroadcaster:
    """Emits the referees' events to a round's room (see docs/protocol.md)."""

    def __init__(self, socketio: Any, broadcaster: Broadcaster):
        self.socketio = socketio
        self.broadcaster = broadcaster

    def outcome(
        self,
        o: RefereeOutcome,
        changed_rows: Callable[[str], Sequence[dict[str, Any]]],
        changed_penalties: PenaltyChanges,
    ) -> None:
        """Announce what a command changed (a resend: nothing)."""
        if not o.created:
            return
        e = o.event
        room = round_room(e.round)
        if o.timing is not None:
            self.socketio.emit(
                "timing_changed", {"round": e.round, "group": o.group, "timing": o.timing}, to=room
            )
            self.broadcaster.board(e.round)
        if e.type == rr.STROKE_TIMED:
            self.socketio.emit(
                "stroke_recorded",
                {
                    "round": e.round,
                    "event": event_view(e),
                    "verdict": o.verdict,
                    "outcome": o.outcome,
                },
                to=room,
            )
        if e.type == factsmod.TIME_CREDIT_GRANTED:
            self.socketio.emit("time_credit_granted", event_view(e), to=room)
            self.socketio.sleep(0)
            self.broadcaster.groups(e.round, changed_rows(e.round))
        self.penalties(e.round, changed_penalties(e.round))

    def penalties(
        self, round: str, changes: Sequence[tuple[str, Sequence[dict[str, Any]]]]
    ) -> None:
        """Announce the penalty rows of each group whose faults or penalties changed."""
        for group, rows in changes:
            self.socketio.emit(
                "penalties_changed",
                {"round": round, "group": group, "players": list(rows)},
                to=round_room(round),
            )

    def after_tick(
        self, round: str, alerts: Sequence[dict[str, Any]], changed_penalties: PenaltyChanges
    ) -> None:
        """Prompt the referees to stop timing groups back in position; announce penalties."""
        for a in alerts:
            if a.get("kind") == rr.STOP_TIMING:
                self.socketio.emit(
                    "stop_timing_prompted",
                    {"round": round, "group": a["group"], "at": a["at"], "alert": a["key"]},
                    to=round_room(round),
                )
        self.penalties(round, changed_penalties(round))


def ack(o: RefereeOutcome) -> dict[str, Any]:
    """Return a referee command's ack: the shared fields, then what the command judged."""
    e = o.event
    answer: dict[str, Any] = {
        "ok": True,
        "id": e.id,
        "seq": e.seq,
        "at": e.at.isoformat(),
        "duplicate": not o.created,
    }
    if o.timing is not None:
        answer["timing"] = o.timing
    if e.type == rr.STROKE_TIMED:
        answer["verdict"] = o.verdict
        answer["outcome"] = o.outcome
    return answer


def run_command(
    name: str,
    payload: object,
    by: cmd.Author,
    received: Any,
    ping_offset: Any,
    service: RefereeService,
    broadcaster: RefereeBroadcaster,
) -> dict[str, Any]:
    """Parse, run, broadcast and acknowledge the referees' command ``name``."""
    parse, use_case = COMMANDS[name]
    outcome = use_case(service, parse(payload, by, received, ping_offset))
    broadcaster.outcome(outcome, service.live.changed_rows, service.changed_penalties)
    return ack(outcome)


class RefereeHandlers:
    """The referees' Socket.IO handlers, mixed into ``PaceNamespace``.

    ``attach_referee`` gives them their service and broadcaster (``create_app`` does it).
    """

    referee: RefereeService
    referee_broadcaster: RefereeBroadcaster

    def attach_referee(self, service: RefereeService, broadcaster: RefereeBroadcaster) -> None:
        """Give the handlers the referees' service and broadcaster."""
        self.referee = service
        self.referee_broadcaster = broadcaster

    def _referee(self, name: str, payload: Any) -> dict[str, Any]:
        by, received, offset = self._timed()  # type: ignore[attr-defined]
        return run_command(
            name, payload, by, received, offset, self.referee, self.referee_broadcaster
        )

    def on_decide_timing(self, payload: Any = None) -> dict[str, Any]:
        """A referee decides to time an out-of-position group, or not to (with a reason)."""
        return self._referee("decide_timing", payload)

    def on_tell_player_timed(self, payload: Any = None) -> dict[str, Any]:
        """A referee told a player that his group is being timed."""
        return self._referee("tell_player_timed", payload)

    def on_record_stroke(self, payload: Any = None) -> dict[str, Any]:
        """The shot clock: one stroke timed from its start and stop taps."""
        return self._referee("record_stroke", payload)

    def on_notify_player(self, payload: Any = None) -> dict[str, Any]:
        """A referee told a player of a bad time or a penalty."""
        return self._referee("notify_player", payload)

    def on_grant_time_credit(self, payload: Any = None) -> dict[str, Any]:
        """A referee grants a group a time credit."""
        return self._referee("grant_time_credit", payload)

    def on_stop_timing(self, payload: Any = None) -> dict[str, Any]:
        """A referee stops timing a group back in position."""
        return self._referee("stop_timing", payload)


# -- HTTP ------------------------------------------------------------------------------------

bp = Blueprint("referee", __name__)


def _ext() -> Any:
    return current_app.extensions["pace"]


@bp.get("/api/rounds/<round>/penalties")
def api_penalties(round: str) -> Any:
    """The round's faults and penalties, one row per player with any fault."""
    return jsonify({"ok": True, "penalties": _ext().referee.penalties(round)})


@bp.get("/rounds/<round>/shotclock")
def shotclock_page(round: str) -> str:
    """The referee's shot clock (phone first)."""
    _ext().live.service.round_view(round)
    return render_template("shotclock.html", round=round, **page_context())


@bp.get("/rounds/<round>/board")
def board_page(round: str) -> str:
    """The facts-only pace board for players and the public."""
    _ext().live.service.round_view(round)
    return render_template("board.html", round=round, **page_context())

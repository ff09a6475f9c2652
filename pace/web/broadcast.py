"""Every server-to-client event goes out through here, so names and shapes live in one place.

Rooms: ``round:<round>`` (every page of a round) and ``hole:<round>:<hole>`` (the
marshals covering that hole).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pace.rules.events import Event
from pace.services.taps import Outcome

#: The event a stored fact is announced as, by its type.
ANNOUNCED_AS = {
    "hole_completed": "hole_logged",
    "hole_time_corrected": "hole_time_corrected",
    "event_voided": "event_voided",
    "siren": "siren_recorded",
    "alert_acknowledged": "alert_acknowledged",
    "alert_resolved": "alert_resolved",
}


def board_room(round: str) -> str:
    """Return the room of the facts-only boards of ``round`` (viewers): no statuses there."""
    return f"board:{round}"


def round_room(round: str) -> str:
    """Return the room of every page following ``round``."""
    return f"round:{round}"


def hole_room(round: str, hole: int) -> str:
    """Return the room of the marshals covering ``hole`` of ``round``."""
    return f"hole:{round}:{hole}"


def event_view(e: Event) -> dict[str, Any]:
    """Return a stored event as clients see it."""
    return {
        "id": e.id,
        "type": e.type,
        "round": e.round,
        "at": e.at.isoformat(),
        "recorded_at": e.recorded_at.isoformat() if e.recorded_at else None,
        "seq": e.seq,
        "by": dict(e.by),
        "payload": dict(e.payload),
    }


#: the fields of a group row the facts-only pace board shows
BOARD_ROW = ("group", "order", "players", "tee", "start", "due")


def board_view(snapshot: dict[str, Any]) -> dict[str, Any]:
    """Return the part of a snapshot the facts-only board shows (what viewers get).

    No statuses, minutes over, alerts, penalties or policy: the times planned and done,
    whether a group is being timed, and who is disqualified (a result the committee
    publishes anyway: the board marks the player DQ, issue 14).
    """
    groups = []
    for row in snapshot["groups"]:
        board = {k: row.get(k) for k in BOARD_ROW}
        board["holes"] = {h: {"at": v.get("at")} for h, v in (row.get("holes") or {}).items()}
        groups.append(board)
    timing = snapshot.get("timing") or {}
    return {
        "round": snapshot["round"],
        "at": snapshot["at"],
        "day": snapshot["day"],
        "timezone": snapshot["timezone"],
        "course": snapshot["course"],
        "groups": groups,
        "suspended": snapshot["suspended"],
        "timing": {g: {"timed": bool((t or {}).get("timed"))} for g, t in timing.items()},
        "disqualified": [
            {"group": p["group"], "player": p["player"]}
            for p in snapshot.get("penalties") or []
            if p.get("disqualified")
        ],
    }


class Broadcaster:
    """Emits the live events on a Flask-SocketIO server (or a message-queue emitter)."""

    def __init__(self, socketio: Any):
        self.socketio = socketio

    def outcome(
        self, outcome: Outcome, changed_rows: Callable[[str], Sequence[dict[str, Any]]]
    ) -> None:
        """Announce a command's new event, then the group rows it changed (a resend: nothing).

        The event goes out first, and the emitting greenlet yields so that every page gets
        it before the field is re-evaluated by ``changed_rows(round)``, which costs more
        than the sends (issue 4: tap-to-dashboard latency).
        """
        if not outcome.created:
            return
        e = outcome.event
        room = round_room(e.round)
        name = ANNOUNCED_AS.get(e.type, e.type)
        self.socketio.emit(name, event_view(e), to=room)
        self.board(e.round)
        self.socketio.sleep(0)
        self.groups(e.round, changed_rows(e.round))

    def groups(self, round: str, rows: Sequence[dict[str, Any]]) -> None:
        """Announce group rows whose status or numbers changed."""
        for row in rows:
            self.socketio.emit(
                "group_updated", {"round": round, "group": row}, to=round_room(round)
            )

    def board(self, round: str) -> None:
        """Tell the facts-only boards that what they show may have changed (they re-read it)."""
        self.socketio.emit("board_changed", {"round": round}, to=board_room(round))

    def resolved(self, round: str, events: Sequence[Event]) -> None:
        """Announce alerts whose situation ended: the pages move them out of the open list."""
        for e in events:
            self.socketio.emit("alert_resolved", event_view(e), to=round_room(round))

    def alerts(self, round: str, alerts: tuple[dict[str, Any], ...]) -> None:
        """Announce new alerts; an overdue one also asks nearby marshals to check the group."""
        for a in alerts:
            self.socketio.emit("alert_raised", {"round": round, "alert": a}, to=round_room(round))
            if a["kind"] == "overdue" and a.get("hole"):
                hole = int(a["hole"])
                for h in a.get("check_holes") or [hole]:
                    self.socketio.emit(
                        "check_requested",
                        {"round": round, "group": a["group"], "hole": hole, "alert": a["key"]},
                        to=hole_room(round, h),
                    )

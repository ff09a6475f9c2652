"""Parse the referees' payloads (docs/protocol.md) into typed commands.

Every parser has the same signature, ``(payload, by, received, ping_offset)``, so the
Socket.IO handlers and the HTTP mirror call them alike: a device instant (a stroke's start
and stop, the optional ``at`` of the other commands) is corrected like a tap's. Refusals
are ``PayloadError``s naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from pace.rules import refereeing, timing
from pace.services import commands as cmd
from pace.web import payloads
from pace.web.payloads import PayloadError

DECISIONS = ("time", "not_time")
STROKE_KINDS = tuple(k.value for k in timing.StrokeKind)
MAX_CREDIT_MIN = 60
MAX_FAULT_ID = 100


def _choice(p: Mapping[str, Any], name: str, choices: tuple[str, ...], required=True) -> str:
    value = payloads.text(p, name, limit=40, required=required)
    if value and value not in choices:
        raise PayloadError(f"{name} {value!r} must be one of {', '.join(choices)}", field=name)
    return value


def _checked(p: Mapping[str, Any]) -> Mapping[str, Any]:
    """Return ``p`` once its optional ``device_time`` is of the documented form."""
    if p.get("device_time") is not None:
        payloads.instant(p, "device_time")
    return p


def _at(
    p: Mapping[str, Any], received: datetime, ping_offset: timedelta | None
) -> cmd.DeviceTime | None:
    """Return the optional ``at`` (the act's device instant), corrected like a tap's."""
    if p.get("at") is None:
        return None
    return payloads.device_time(p, "at", received, ping_offset)


def _flag(p: Mapping[str, Any], name: str, *, required: bool) -> bool:
    if not required and p.get(name) is None:
        return False
    value = payloads.required_value(p, name)
    if not isinstance(value, bool):
        raise PayloadError(f"{name} must be true or false", field=name)
    return value


def decide_timing(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.DecideTiming:
    """Parse ``decide_timing``: id, round, group, decision, reason (required for not_time), note."""
    p = _checked(
        payloads.mapping(
            payload, ("id", "round", "group", "decision", "reason", "note", "at", "device_time")
        )
    )
    decision = _choice(p, "decision", DECISIONS)
    reason = _choice(p, "reason", refereeing.MITIGATING_REASONS, required=decision == "not_time")
    return cmd.DecideTiming(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        group=payloads.text(p, "group", limit=50),
        decision=decision,
        reason=reason,
        note=payloads.text(p, "note", limit=payloads.MAX_REASON, required=False, prose=True),
        by=by,
        at=_at(p, received, ping_offset),
    )


def tell_player_timed(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.TellPlayerTimed:
    """Parse ``tell_player_timed``: id, round, group, player (his name as in the draw)."""
    p = _checked(payloads.mapping(payload, ("id", "round", "group", "player", "at", "device_time")))
    return cmd.TellPlayerTimed(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        group=payloads.text(p, "group", limit=50),
        player=payloads.text(p, "player"),
        by=by,
        at=_at(p, received, ping_offset),
    )


def record_stroke(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.RecordStroke:
    """Parse ``record_stroke``: the shot clock's start and stop taps, read on the device."""
    p = payloads.mapping(
        payload,
        (
            "id",
            "round",
            "group",
            "player",
            "hole",
            "kind",
            "first_to_play",
            "started",
            "stopped",
            "device_time",
            "between_holes",
        ),
    )
    return cmd.RecordStroke(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        group=payloads.text(p, "group", limit=50),
        player=payloads.text(p, "player"),
        hole=payloads.integer(p, "hole", 1, 99),
        kind=_choice(p, "kind", STROKE_KINDS),
        first_to_play=_flag(p, "first_to_play", required=True),
        started=payloads.device_time(p, "started", received, ping_offset),
        stopped=payloads.device_time(p, "stopped", received, ping_offset),
        between_holes=_flag(p, "between_holes", required=False),
        by=by,
    )


def notify_player(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.NotifyPlayer:
    """Parse ``notify_player``: id, round, group, player, fault (the fault's id)."""
    p = _checked(
        payloads.mapping(payload, ("id", "round", "group", "player", "fault", "at", "device_time"))
    )
    return cmd.NotifyPlayer(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        group=payloads.text(p, "group", limit=50),
        player=payloads.text(p, "player"),
        fault=payloads.text(p, "fault", limit=MAX_FAULT_ID),
        by=by,
        at=_at(p, received, ping_offset),
    )


def grant_time_credit(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.GrantTimeCredit:
    """Parse ``grant_time_credit``: id, round, group, minutes (0 < m ≤ 60), reason."""
    p = _checked(
        payloads.mapping(
            payload, ("id", "round", "group", "minutes", "reason", "at", "device_time")
        )
    )
    minutes = payloads.required_value(p, "minutes")
    if isinstance(minutes, bool) or not isinstance(minutes, int | float):
        raise PayloadError("minutes must be a number such as 6 or 2.5", field="minutes")
    if not 0 < minutes <= MAX_CREDIT_MIN:
        raise PayloadError(
            f"minutes {minutes} is out of range: more than 0, at most {MAX_CREDIT_MIN}",
            field="minutes",
        )
    return cmd.GrantTimeCredit(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        group=payloads.text(p, "group", limit=50),
        minutes=float(minutes),
        reason=payloads.text(p, "reason", limit=payloads.MAX_REASON, prose=True),
        by=by,
        at=_at(p, received, ping_offset),
    )


def stop_timing(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.StopTiming:
    """Parse ``stop_timing``: id, round, group, optional reason."""
    p = _checked(payloads.mapping(payload, ("id", "round", "group", "reason", "at", "device_time")))
    return cmd.StopTiming(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        group=payloads.text(p, "group", limit=50),
        reason=payloads.text(p, "reason", limit=payloads.MAX_REASON, required=False, prose=True),
        by=by,
        at=_at(p, received, ping_offset),
    )

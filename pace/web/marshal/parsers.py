"""Parse the marshals' payloads (``hole_completed``, ``correct_hole_time``, ``void_event``)
into commands, on the payload primitives (pace/web/payloads.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from pace.services import commands as cmd
from pace.web import payloads

_TAP = ("id", "round", "group", "hole", "at", "device_time")


def hole_completed(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.LogHoleCompleted:
    """Parse ``hole_completed``: id, round, group, hole, at, device_time."""
    p = payloads.mapping(payload, _TAP)
    return cmd.LogHoleCompleted(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        group=payloads.text(p, "group", limit=50),
        hole=payloads.integer(p, "hole", 1, 99),
        at=payloads.device_time(p, "at", received, ping_offset),
        by=by,
    )


def correct_hole_time(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.CorrectHoleTime:
    """Parse ``correct_hole_time``: id, round, target, at, device_time, reason."""
    p = payloads.mapping(payload, ("id", "round", "target", "at", "device_time", "reason"))
    return cmd.CorrectHoleTime(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        target=payloads.event_id(p, "target"),
        at=payloads.device_time(p, "at", received, ping_offset),
        reason=payloads.text(p, "reason", limit=payloads.MAX_REASON, prose=True),
        by=by,
    )


def void_event(payload: object, by: cmd.Author) -> cmd.VoidEvent:
    """Parse ``void_event``: id, round, target, reason."""
    p = payloads.mapping(payload, ("id", "round", "target", "reason", "device_time"))
    payloads.optional_instant(p, "device_time")
    return cmd.VoidEvent(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        target=payloads.event_id(p, "target"),
        reason=payloads.text(p, "reason", limit=payloads.MAX_REASON, prose=True),
        by=by,
    )

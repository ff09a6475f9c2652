"""Parse the dashboard's payloads (``record_siren``, ``acknowledge_alert``) into commands, on
the payload primitives (pace/web/payloads.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from pace.services import commands as cmd
from pace.web import payloads
from pace.web.payloads import PayloadError

SIREN_KINDS = ("interruption", "suspension", "resume")


def record_siren(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.RecordSiren:
    """Parse ``record_siren``: id, round, kind, at, device_time."""
    p = payloads.mapping(payload, ("id", "round", "kind", "at", "device_time"))
    kind = payloads.text(p, "kind")
    if kind not in SIREN_KINDS:
        raise PayloadError(
            f"kind {kind[:40]!r} must be one of {', '.join(SIREN_KINDS)}", field="kind"
        )
    return cmd.RecordSiren(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        kind=kind,
        at=payloads.device_time(p, "at", received, ping_offset),
        by=by,
    )


def acknowledge_alert(payload: object, by: cmd.Author) -> cmd.AcknowledgeAlert:
    """Parse ``acknowledge_alert``: id, round, alert (its key), optional note."""
    p = payloads.mapping(payload, ("id", "round", "alert", "note", "device_time"))
    payloads.optional_instant(p, "device_time")
    return cmd.AcknowledgeAlert(
        id=payloads.event_id(p),
        round=payloads.text(p, "round"),
        alert=payloads.text(p, "alert", limit=300),
        note=payloads.text(p, "note", limit=payloads.MAX_REASON, required=False, prose=True),
        by=by,
    )

"""The status document of docs/formats.md §4 (``pace status --json``,
``GET /api/rounds/<r>/status``)."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from pace.documents.status import group_document
from pace.documents.values import minutes
from pace.rules.position import FieldStatus


def status_document(field: FieldStatus, tz: tzinfo) -> dict[str, Any]:
    """Return the status document: ``at`` in local ``HH:MM:SS`` and the groups in draw order."""
    return {
        "at": field.at.astimezone(tz).strftime("%H:%M:%S"),
        "groups": [group_document(s) for s in field.groups],
    }


def _clock(instant: datetime | None, tz: tzinfo) -> str:
    return "" if instant is None else instant.astimezone(tz).strftime("%H:%M")


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:+.1f}"


def status_table(field: FieldStatus, tz: tzinfo) -> str:
    """Return the status document as a readable fixed-width table."""
    head = ("group", "status", "holes", "lead", "over", "gap", "interval", "hole", "finish")
    rows = [head]
    for s in field.groups:
        rows.append(
            (
                s.group,
                s.status.value,
                str(s.holes_completed),
                "yes" if s.lead else "",
                _num(minutes(s.over)),
                "" if s.gap is None else f"{minutes(s.gap):.1f}",
                "" if s.interval is None else f"{minutes(s.interval):.1f}",
                "" if s.hole is None else str(s.hole),
                _clock(s.projected_finish, tz),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    at = field.at.astimezone(tz).strftime("%H:%M:%S")
    return f"status at {at}\n" + "\n".join(lines)

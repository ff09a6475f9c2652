"""The audit of a round: its event log for the committee and referees, as a page and as CSV.

Who (role, name, device), what, when (local time of the round), and for corrections and
voids their target and reason. Everything is text put in the page by Jinja's escaping, and
CSV cells that a spreadsheet would read as a formula are prefixed with ``'``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask import Blueprint, Response, current_app, render_template, request

from pace.rules.events import Event
from pace.web.i18n import page_context

bp = Blueprint("audit", __name__)

COLUMNS = (
    "seq", "at", "recorded_at", "type", "group", "hole", "role", "name", "device",
    "target", "reason", "details",
)  # fmt: skip

#: payload fields shown in their own column, not among the details
_OWN = ("group", "hole", "target", "reason", "device_at", "offset_s", "offset_source")


def _ext() -> Any:
    return current_app.extensions["pace"]


def _local(instant: datetime | None, tz: ZoneInfo) -> str:
    return instant.astimezone(tz).strftime("%H:%M:%S") if instant else ""


def _details(payload: Mapping[str, Any]) -> str:
    return "; ".join(
        f"{k}={v}" for k, v in payload.items() if k not in _OWN and v not in (None, "", [], {})
    )


def rows(events: Iterable[Event], tz: ZoneInfo) -> list[dict[str, str]]:
    """Return the audit rows of ``events``: one per event, every cell text."""
    out = []
    for e in events:
        p = dict(e.payload)
        by = dict(e.by)
        out.append(
            {
                "seq": str(e.seq or ""),
                "at": _local(e.at, tz),
                "recorded_at": _local(e.recorded_at, tz),
                "type": e.type,
                "group": str(p.get("group") or ""),
                "hole": str(p.get("hole") or ""),
                "role": str(by.get("role") or ""),
                "name": str(by.get("name") or ""),
                "device": str(by.get("device") or ""),
                "target": str(p.get("target") or ""),
                "reason": str(p.get("reason") or p.get("note") or ""),
                "details": _details(p),
            }
        )
    return out


def _selected(round: str) -> tuple[list[dict[str, str]], list[str], list[str]]:
    """Return the round's rows filtered by ``?type=`` and ``?group=``, and the choices."""
    ext = _ext()
    view = ext.live.service.round_view(round)
    all_rows = rows(ext.live.events(round), view.tz)
    types = sorted({r["type"] for r in all_rows})
    groups = [g.id for g in view.record.groups]
    wanted_type = request.args.get("type") or ""
    wanted_group = request.args.get("group") or ""
    chosen = [
        r
        for r in all_rows
        if (not wanted_type or r["type"] == wanted_type)
        and (not wanted_group or r["group"] == wanted_group)
    ]
    return chosen, types, groups


@bp.get("/rounds/<round>/audit")
def audit_page(round: str) -> str:
    """The round's event log: who did what and when, corrections and voids with reasons."""
    chosen, types, groups = _selected(round)
    return render_template(
        "audit.html",
        round=round,
        rows=chosen,
        columns=COLUMNS,
        types=types,
        groups=groups,
        type=request.args.get("type") or "",
        group=request.args.get("group") or "",
        **page_context(),
    )


def _cell(value: str) -> str:
    """Keep a spreadsheet from reading a name or reason as a formula."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


@bp.get("/rounds/<round>/audit.csv")
def audit_csv(round: str) -> Response:
    """The same log (and filters) as CSV, UTF-8."""
    chosen, _, _ = _selected(round)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for r in chosen:
        writer.writerow([_cell(r[c]) for c in COLUMNS])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="audit-{_safe(round)}.csv"'
    return response


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)[:60] or "round"

"""The audit of a round: its event log for the committee and referees, as a page and as CSV.

Who (role, name, device), what, when (local time of the round), and for corrections and
voids their target and reason. The page says each event in words ("Hole 4 completed by group
6 — marshal Paul, phone clock +2 s"), the raw columns on demand (``?raw=1``); the CSV has both,
``?excel=1`` with ``;`` and a byte order mark for French spreadsheets (issue 14). Everything
is text put in the page by Jinja's escaping, and CSV cells that a spreadsheet would read as a
formula are prefixed with ``'``.
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
from pace.web.i18n import current_language, page_context, translate

bp = Blueprint("audit", __name__)

COLUMNS = (
    "seq", "at", "recorded_at", "type", "group", "hole", "role", "name", "device",
    "target", "reason", "details", "what", "who",
)  # fmt: skip
#: the columns of the readable page (the others with ``?raw=1``)
READABLE = ("seq", "at", "what", "who", "reason")

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


def rows(events: Iterable[Event], tz: ZoneInfo, lang: str = "en") -> list[dict[str, str]]:
    """Return the audit rows of ``events``: one per event, every cell text."""
    listed = list(events)
    by_id = {e.id: e for e in listed}
    out = []
    for e in listed:
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
                "what": describe(e, by_id, tz, lang),
                "who": author(e, lang),
            }
        )
    return out


def _t(key: str, lang: str, **values: object) -> str:
    text = translate(key, lang)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _target(e: Event | None, lang: str) -> str:
    if e is not None and e.type == "hole_completed":
        p = e.payload
        return _t("audit.target.hole", lang, hole=p.get("hole"), group=p.get("group"))
    return _t("audit.target.other", lang, seq=e.seq if e is not None else "?")


def _alert(payload: Mapping[str, Any], raised: Event | None, lang: str) -> str:
    alert = dict(raised.payload) if raised is not None else dict(payload)
    kind = str(alert.get("kind") or "")
    key = f"dash.alert.{kind}" if kind in _ALERT_KINDS else "dash.alert.other"
    if kind == "stop_timing" and alert.get("reason") == "in_position":
        key = "dash.alert.stop_timing_in_position"
    hole = alert.get("hole") if alert.get("hole") is not None else ""
    return _t(key, lang, group=alert.get("group", ""), hole=hole, kind=kind)


_ALERT_KINDS = ("out_of_position", "overdue", "back_in_position", "stop_timing")


def describe(e: Event, by_id: Mapping[str, Event], tz: ZoneInfo, lang: str = "en") -> str:
    """Return what an event says, in words: "Hole 4 completed by group 6"."""
    p = e.payload
    group, hole = p.get("group", ""), p.get("hole", "")
    if e.type in ("hole_completed", "player_told_timed", "player_notified", "timing_stopped",
                  "group_withdrawn"):  # fmt: skip
        return _t(f"audit.what.{e.type}", lang, group=group, hole=hole, player=p.get("player"))
    if e.type == "hole_time_corrected":
        at = datetime.fromisoformat(str(p["at"])) if p.get("at") else None
        return _t(
            "audit.what.hole_time_corrected",
            lang,
            target=_target(by_id.get(str(p.get("target"))), lang),
            time=_local(at, tz),
        )
    if e.type == "event_voided":
        target = _target(by_id.get(str(p.get("target"))), lang)
        return _t("audit.what.event_voided", lang, target=target[:1].upper() + target[1:])
    if e.type == "siren":
        kind = _t(f"audit.what.siren.{p.get('kind')}", lang)
        return _t("audit.what.siren", lang, kind=kind)
    if e.type in ("alert_raised", "alert_acknowledged", "alert_resolved"):
        key = str(p.get("key") or p.get("alert") or "")
        raised = next(
            (x for x in by_id.values() if x.type == "alert_raised" and x.payload.get("key") == key),
            None,
        )
        return _t(f"audit.what.{e.type}", lang, alert=_alert(p, raised, lang))
    if e.type == "timing_decided":
        decision = "time" if p.get("decision") == "time" else "not_time"
        reason = _t(f"timing.reason.{p.get('reason')}", lang) if p.get("reason") else ""
        return _t(f"audit.what.timing_decided.{decision}", lang, group=group, reason=reason)
    if e.type == "stroke_timed":
        start, stop = p.get("started"), p.get("stopped")
        seconds = ""
        if start and stop:
            span = datetime.fromisoformat(str(stop)) - datetime.fromisoformat(str(start))
            seconds = f"{span.total_seconds():.1f}"
            seconds = seconds.replace(".", ",") if lang == "fr" else seconds
        return _t(
            "audit.what.stroke_timed",
            lang,
            player=p.get("player"),
            group=group,
            hole=hole,
            seconds=seconds,
        )
    if e.type == "time_credit_granted":
        return _t("audit.what.time_credit_granted", lang, group=group, minutes=p.get("minutes"))
    if e.type in ("round_finished", "results_finalised", "results_reopened"):  # issue 28
        return _t(f"audit.what.{e.type}", lang, reason=p.get("reason") or "")
    return _t("audit.what.other", lang, type=e.type.replace("_", " "))


def author(e: Event, lang: str = "en") -> str:
    """Return who recorded an event, in words: "marshal Paul, phone clock +2 s"."""
    by = e.by
    role = str(by.get("role") or "")
    if role == "system":
        return _t("audit.system", lang)
    if by.get("device") == "import":
        return _t("audit.import", lang, name=by.get("name") or "")
    who = _t("audit.who", lang, role=_t(f"audit.role.{role}", lang), name=by.get("name") or "")
    offset = e.payload.get("clock_offset_ms")
    if isinstance(offset, int | float):
        seconds = round(offset / 1000)
        signed = f"+{seconds}" if seconds > 0 else ("0" if seconds == 0 else f"−{-seconds}")
        who = f"{who.strip()}, {_t('audit.clock', lang, offset=signed)}"
    return who.strip()


def _selected(round: str) -> tuple[list[dict[str, str]], list[str], list[str]]:
    """Return the round's rows filtered by ``?type=`` and ``?group=``, and the choices."""
    ext = _ext()
    view = ext.live.service.round_view(round)
    all_rows = rows(ext.live.events(round), view.tz, current_language())
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
    raw = request.args.get("raw") == "1"
    return render_template(
        "audit.html",
        round=round,
        rows=chosen,
        columns=COLUMNS[:12] if raw else READABLE,
        raw=raw,
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
    """The same log (and filters) as CSV, UTF-8; ``?excel=1``: ``;`` and a byte order mark,
    as a French spreadsheet opens it (pace's imports accept both)."""
    chosen, _, _ = _selected(round)
    excel = request.args.get("excel") == "1"
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if excel else ",")
    writer.writerow(COLUMNS)
    for r in chosen:
        writer.writerow([_cell(r[c]) for c in COLUMNS])
    text = ("\ufeff" if excel else "") + out.getvalue()
    response = Response(text, mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="audit-{_safe(round)}.csv"'
    return response


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)[:60] or "round"

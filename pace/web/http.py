"""HTTP: the pages and a JSON mirror of the Socket.IO commands. Routes stay thin."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request

from pace import formats
from pace.reports.status import status_document
from pace.web import payloads
from pace.web.broadcast import event_view
from pace.web.i18n import page_context

bp = Blueprint("pace", __name__)


def _ext() -> Any:
    return current_app.extensions["pace"]


@bp.get("/")
def home() -> str:
    """List the rounds in the database, with links to their pages."""
    return render_template("home.html", rounds=_ext().live.service.list_rounds(), **page_context())


@bp.get("/rounds/<round>/marshal")
def marshal_page(round: str) -> str:
    """The marshal's page: taps when groups complete the holes covered."""
    _ext().live.service.round_view(round)
    return render_template("marshal.html", round=round, **page_context())


@bp.get("/rounds/<round>/dashboard")
def dashboard_page(round: str) -> str:
    """The referees' dashboard: the field, the alerts, the sirens."""
    _ext().live.service.round_view(round)
    return render_template("dashboard.html", round=round, **page_context())


@bp.get("/api/rounds")
def api_rounds() -> Any:
    """List the rounds as JSON."""
    rounds = _ext().live.service.list_rounds()
    return jsonify(
        {
            "ok": True,
            "rounds": [
                {
                    "name": r.name,
                    "course": r.course,
                    "day": r.day.isoformat(),
                    "groups": r.groups,
                    "events": r.events,
                }
                for r in rounds
            ],
        }
    )


def _instant(round: str, text: str | None) -> datetime | None:
    """Return ``?at=`` as an instant: ``HH:MM[:SS]`` local on the round's day, or ISO 8601."""
    if not text:
        return None
    view = _ext().live.service.round_view(round)
    try:
        clock = formats.parse_clock(text)
    except ValueError:
        return payloads.instant({"at": text}, "at")
    return datetime.combine(view.record.day, clock, tzinfo=view.tz)


@bp.get("/api/rounds/<round>/status")
def api_status(round: str) -> Any:
    """The status document of ``pace status --json``, at the server's now or ``?at=``."""
    live = _ext().live
    field = live.field(round, _instant(round, request.args.get("at")))
    return jsonify(status_document(field, live.service.round_view(round).tz))


@bp.get("/api/rounds/<round>/snapshot")
def api_snapshot(round: str) -> Any:
    """Everything a dashboard shows of the round (as ``join_round`` answers)."""
    return jsonify({"ok": True, "snapshot": _ext().live.snapshot(round)})


@bp.get("/api/rounds/<round>/events")
def api_events(round: str) -> Any:
    """The round's event log, in order."""
    return jsonify({"ok": True, "events": [event_view(e) for e in _ext().live.events(round)]})


_COMMANDS = {
    "hole_completed": ("log_hole_completed", True),
    "correct_hole_time": ("correct_hole_time", True),
    "record_siren": ("record_siren", True),
    "void_event": ("void_event", False),
    "acknowledge_alert": ("acknowledge_alert", False),
}


@bp.post("/api/commands/<name>")
def api_command(name: str) -> Any:
    """Run a command with the same payload and answer as its Socket.IO event."""
    if name not in _COMMANDS:
        raise payloads.PayloadError(
            f"unknown command {name[:40]!r}; expected one of {', '.join(_COMMANDS)}",
            code="unknown_command",
        )
    ext = _ext()
    body = request.get_json(silent=True)
    if body is None:
        raise payloads.PayloadError("the body must be a JSON object", code="invalid_json")
    by = payloads.author(
        {
            "role": request.headers.get("X-Pace-Role"),
            "device": request.headers.get("X-Pace-Device"),
            "name": request.headers.get("X-Pace-Name"),
        },
        "http",
    )
    method, timed = _COMMANDS[name]
    parse = getattr(payloads, name)
    command = parse(body, by, ext.live.clock.now(), None) if timed else parse(body, by)
    outcome = getattr(ext.live, method)(command)
    ext.broadcaster.outcome(outcome, ext.live.changed_rows)
    e = outcome.event
    return jsonify(
        {
            "ok": True,
            "id": e.id,
            "seq": e.seq,
            "at": e.at.isoformat(),
            "duplicate": not outcome.created,
        }
    )

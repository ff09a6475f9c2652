"""HTTP: the home page, the live round's JSON reads (its rounds, status, snapshot, an alert's
details, board and log, which the marshal page and the dashboard share), a JSON mirror of the
Socket.IO commands (the edge pipeline's), the service worker, and what every answer gets.
Routes stay thin; each feature serves its own pages (pace/web/<feature>/pages.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from pace import formats
from pace.reports.status import status_document
from pace.services import commands as cmd
from pace.services import strip
from pace.services.geometry import round_geometry
from pace.store.records import RoundSummary
from pace.web import access, edge, payloads
from pace.web.assets import current_assets, revalidated
from pace.web.broadcast import event_view
from pace.web.i18n import page_context
from pace.web.parts import parts
from pace.web.routing import Sender

bp = Blueprint("pace", __name__)


@bp.get("/")
def home() -> str:
    """List the rounds with the pages the session's role may open; to a visitor, today's
    rounds with their public pages (the board, the leaderboard, the results once final) and
    the ways to sign in."""
    s = access.current_session()
    rounds = _session_rounds(s)
    today = _rounds_today() if s is None else []
    return render_template("home.html", rounds=rounds, today=today, **page_context())


def _session_rounds(s: access.Session | None) -> list[RoundSummary]:
    """The rounds the session may open: its club's (a round's code: its round alone); an
    administrator's session and a visitor's, none (issue 50)."""
    if s is None or s.club is None:
        return []
    return [r for r in parts().live.service.list_rounds(s.club) if s.covers(r.name)]


def _rounds_today() -> list[tuple[RoundSummary, bool]]:
    """Return the rounds played today in their own time zone, each with whether its results
    are final (their sheet is then public)."""
    live = parts().live
    service = live.service
    now = service.clock.now()
    out = []
    for r in service.list_rounds():
        if abs((r.day - now.date()).days) > 1:
            continue
        tz = ZoneInfo(service.store.get_round(r.name).timezone)
        if r.day == now.astimezone(tz).date():
            out.append((r, live.life(r.name).is_final))
    return out


@bp.get("/api/rounds")
def api_rounds() -> Any:
    """List the rounds the session may open as JSON (a round's code: its round alone)."""
    s = access.current_session()
    rounds = _session_rounds(s)
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
    view = parts().live.service.round_view(round)
    try:
        clock = formats.parse_clock(text)
    except ValueError:
        return payloads.instant({"at": text}, "at")
    return datetime.combine(view.record.day, clock, tzinfo=view.tz)


@bp.get("/api/rounds/<round>/status")
def api_status(round: str) -> Any:
    """The status document of ``pace status --json``, at the server's now or ``?at=``."""
    live = parts().live
    field = live.field(round, _instant(round, request.args.get("at")))
    return jsonify(status_document(field, live.service.round_view(round).tz))


@bp.get("/api/rounds/<round>/strip")
def api_strip(round: str) -> Any:
    """The field at ``?at=`` for the course strip's rewind: the groups' rows and who held the
    field up, in the reading ``?reading=known`` (the log as it stood then, the default) or
    ``corrected`` (as ``status?at=``: later corrections count); docs/status.md."""
    live = parts().live
    reading = request.args.get("reading") or strip.KNOWN
    if reading not in (strip.KNOWN, strip.CORRECTED):
        raise payloads.PayloadError(
            f"reading must be {strip.KNOWN!r} or {strip.CORRECTED!r}", field="reading"
        )
    at = _instant(round, request.args.get("at")) or live.clock.now()
    return jsonify({"ok": True, **strip.field_at(live, round, at, reading)})


@bp.get("/api/rounds/<round>/geometry")
def api_geometry(round: str) -> Any:
    """The map of the round's course (``{ok, geometry}``, null when it has none): the holes'
    lines, tees and greens the strip's map draws (docs/formats.md, "Course geometry")."""
    return jsonify({"ok": True, "geometry": round_geometry(parts().live.service, round)})


@bp.get("/api/rounds/<round>/snapshot")
def api_snapshot(round: str) -> Any:
    """Everything a dashboard shows of the round (as ``join_round`` answers)."""
    return jsonify({"ok": True, "snapshot": parts().live.snapshot(round)})


@bp.get("/api/rounds/<round>/alerts/<path:key>")
def api_alert(round: str, key: str) -> Any:
    """A raised alert whole: its explanation ("Why") and, once resolved, when (the snapshot
    lists alerts without them; docs/protocol.md, "An alert's details")."""
    return jsonify({"ok": True, "alert": parts().live.alert(round, key)})


@bp.get("/api/rounds/<round>/board")
def api_board(round: str) -> Any:
    """What the facts-only pace board shows of the round (viewers may read only this)."""
    body = parts().board_cache.body(round)
    return current_app.response_class(body + "\n", mimetype="application/json")


@bp.get("/api/rounds/<round>/events")
def api_events(round: str) -> Any:
    """The round's event log, in order."""
    return jsonify({"ok": True, "events": [event_view(e) for e in parts().live.events(round)]})


#: every command the mirror accepts: the edge pipeline's (pace/web/edge.py)
COMMANDS = tuple(edge.ROUTES)


def _sender() -> Sender:
    """Return who sends an HTTP command: the session; the device from the headers.

    Over HTTP there is no ping exchange: instants are corrected with ``device_time``.
    """
    s = access.current_session()
    device = payloads.author(
        {
            "device": request.headers.get("X-Pace-Device"),
            "name": request.headers.get("X-Pace-Name"),
        },
        "http",
    )
    name = device.name or (s.name if s else None)
    by = cmd.Author(s.role if s else "viewer", device.device, name)
    return Sender(s, by, parts().live.clock.now())


@bp.post("/api/commands/<name>")
def api_command(name: str) -> Any:
    """Run a command with the same payload and answer as its Socket.IO event."""
    if name not in edge.ROUTES:
        raise payloads.PayloadError(
            f"unknown command {name[:40]!r}; expected one of {', '.join(COMMANDS)}",
            code="unknown_command",
        )
    return jsonify(edge.handle(name, payloads.json_body(), _sender(), parts()))


# -- the offline marshal page (docs/offline.md) ---------------------------------------------


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so its scope covers the marshal pages; never cached.

    Its precache names the static files' versioned URLs (pace/web/assets.py)."""
    response = Response(current_assets().worker_script(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return revalidated(response)  # the browser's check at every visit: 304 when unchanged


# -- every answer --------------------------------------------------------------------------------


def html_safe_json(text: str) -> str:
    """Return JSON text with ``<``, ``>`` and ``&`` as ``\\u`` escapes: the same data, never markup.

    In JSON text these characters only occur inside strings, where the escape means the same
    character (Jinja's ``tojson`` does the same).
    """
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@bp.after_app_request
def harden(response: Response) -> Response:
    """Names people typed are data: JSON answers carry no markup, and none is sniffed as HTML."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    passthrough = response.direct_passthrough or response.is_streamed
    if response.mimetype == "application/json" and not passthrough:
        response.set_data(html_safe_json(response.get_data(as_text=True)))
    return response

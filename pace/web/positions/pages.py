"""Where the groups stand on their holes (issue 48; docs/positions.md, "The picture"): the
committee's and the referees' dashboard reads it here, never the public board, a report or an
export. No coordinate leaves the server: a group's hole, phase, metres to the green and share
of the hole's line walked."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from pace.web.parts import parts

bp = Blueprint("positions", __name__)


@bp.get("/api/rounds/<round>/places")
def api_places(round: str) -> Any:
    """Where each group whose phone shares stands on its hole now (``{ok, at, places}``, by
    group); empty when the round takes no positions or none were sent."""
    app = parts()
    app.live.service.round_view(round)  # unknown_round
    now = app.live.clock.now()
    return jsonify({"ok": True, "at": now.isoformat(), "places": app.positions.places(round, now)})

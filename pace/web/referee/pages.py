"""The referees' pages: the shot clock, the facts-only pace board, the round's penalties."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template

from pace.web.i18n import page_context
from pace.web.parts import parts

bp = Blueprint("referee", __name__)


@bp.get("/api/rounds/<round>/penalties")
def api_penalties(round: str) -> Any:
    """The round's faults and penalties, one row per player with any fault."""
    return jsonify({"ok": True, "penalties": parts().referee_feed.penalties(round)})


@bp.get("/api/rounds/<round>/penalties/<group>")
def api_group_penalties(round: str, group: str) -> Any:
    """A group's faults and penalties, every fault whole (the snapshot counts those that did
    not count): fetched when the dashboard opens the group's detail."""
    rows = parts().referee_feed.penalties(round, group=group)
    return jsonify({"ok": True, "group": group, "penalties": rows})


@bp.get("/rounds/<round>/shotclock")
def shotclock_page(round: str) -> str:
    """The referee's shot clock (phone first)."""
    parts().live.service.round_view(round)
    return render_template("shotclock.html", round=round, **page_context())


@bp.get("/rounds/<round>/board")
def board_page(round: str) -> str:
    """The facts-only pace board for players and the public."""
    parts().live.service.round_view(round)
    return render_template("board.html", round=round, **page_context())

"""The marshal's page (phone first, offline: docs/offline.md)."""

from __future__ import annotations

from flask import Blueprint, render_template

from pace.web.i18n import page_context
from pace.web.parts import parts

bp = Blueprint("marshal", __name__)


@bp.get("/rounds/<round>/marshal")
def marshal_page(round: str) -> str:
    """The marshal's page: taps when groups complete the holes covered."""
    parts().live.service.round_view(round)
    return render_template("marshal.html", round=round, **page_context())

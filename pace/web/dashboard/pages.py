"""The referees' and the committee's dashboard."""

from __future__ import annotations

from flask import Blueprint, render_template

from pace.web.i18n import page_context
from pace.web.parts import parts

bp = Blueprint("dashboard", __name__)


@bp.get("/rounds/<round>/dashboard")
def dashboard_page(round: str) -> str:
    """The referees' dashboard: the field, the alerts, the sirens."""
    parts().live.service.round_view(round)
    return render_template("dashboard.html", round=round, **page_context())

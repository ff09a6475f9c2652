"""The referees' and the committee's dashboard."""

from __future__ import annotations

from flask import Blueprint, render_template

from pace.reports.words import TEXTS, text
from pace.web.i18n import page_context
from pace.web.parts import parts

bp = Blueprint("dashboard", __name__)


@bp.get("/rounds/<round>/dashboard")
def dashboard_page(round: str) -> str:
    """The referees' dashboard: the field, the alerts, the sirens."""
    parts().live.service.round_view(round)
    context = page_context()
    context["messages"] = {**context["messages"], **explanation_words(context["lang"])}
    return render_template("dashboard.html", round=round, **context)


def explanation_words(lang: str) -> dict[str, str]:
    """Return the report's words an alert's "Why" says (``static/dashboard/why.js``), as
    ``words.<key>``: the explanation reads the same on the dashboard and in the report."""
    wanted = ("explain.", "status.", "reason.other")
    return {f"words.{key}": text(key, lang) for key in TEXTS if key.startswith(wanted)}

"""The referees' and the committee's dashboard."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template

from pace import i18n
from pace.reports.words import CONTEXT, TEXTS
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


@bp.get("/api/rounds/<round>/held_up/<group>/why")
def held_up_why(round: str, group: str) -> Any:
    """Why ``group`` is named as holding the field up (referees and the committee): fetched
    when the dashboard's hold-up panel opens its "Why", never part of the snapshot."""
    app = parts()
    return jsonify({"ok": True, **app.holdups.why(round, group, app.live.clock.now())})


def explanation_words(lang: str) -> dict[str, str | dict[str, str]]:
    """Return the report's words an alert's "Why" says (``static/dashboard/why.js``), as
    ``words.<key>``: the explanation reads the same on the dashboard and in the report."""
    wanted = ("explain.", "status.", "reason.other")
    return {
        f"words.{key}": i18n.forms(CONTEXT + key, source, lang)
        for key, source in TEXTS.items()
        if key.startswith(wanted)
    }

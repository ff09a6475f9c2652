"""The scorers' pages: the scorer's card, the public leaderboard, a group's card and the
round's results as JSON, and the committee's scoring setting. No golf here."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, redirect, render_template, request, url_for

from pace.reports.results import results_document
from pace.services.life import RoundLifeService
from pace.web import access, payloads
from pace.web.i18n import page_context
from pace.web.parts import parts

bp = Blueprint("scoring", __name__)


@bp.get("/rounds/<round>/scorecard")
def scorecard_page(round: str) -> str:
    """The scorer's page (phone first): one group's card at a time, offline queue."""
    scoring = parts().scores.scoring(round)
    return render_template("scorecard.html", round=round, scoring=scoring, **page_context())


@bp.get("/rounds/<round>/leaderboard")
def leaderboard_page(round: str) -> str:
    """The public leaderboard: no sign-in."""
    parts().live.service.round_view(round)
    return render_template("leaderboard.html", round=round, **page_context())


@bp.get("/api/rounds/<round>/leaderboard")
def api_leaderboard(round: str) -> Any:
    """The leaderboard as the page shows it."""
    return jsonify({"ok": True, "leaderboard": parts().scores.leaderboard(round)})


@bp.get("/api/rounds/<round>/cards/<group>")
def api_card(round: str, group: str) -> Any:
    """One group's card: its scores with their ids, its standing, its penalties."""
    group = payloads.text({"group": group}, "group", limit=50)
    return jsonify({"ok": True, "card": parts().scores.card(round, group)})


@bp.get("/api/rounds/<round>/results")
def api_results(round: str) -> Any:
    """The round's results as ``pace results --json`` prints them (docs/formats.md §8), with
    the round's life (final or not, when and by whom)."""
    app_parts = parts()
    results = app_parts.scores.results(round)
    life = RoundLifeService(app_parts.live).document(round)
    return jsonify(results_document(results, {k: v for k, v in life.items() if k != "round"}))


@bp.post("/rounds/<round>/scoring")
def scoring_setting(round: str) -> Any:
    """The committee sets how the round is scored: scoring, net or gross, allowance."""
    access.check_csrf()
    form = request.form
    scoring = payloads.text(form, "scoring", limit=20)
    allowance_text = payloads.text(form, "allowance", limit=20, required=False)
    try:
        allowance = (
            tuple(float(v.replace(",", ".")) for v in allowance_text.split("/"))
            if allowance_text
            else None
        )
    except ValueError:
        raise payloads.PayloadError(
            f"allowance {allowance_text!r} is not a percentage such as 85 (greensome: 60/40)",
            field="allowance",
        ) from None
    app_parts = parts()
    app_parts.live.service.set_scoring(
        round, scoring=scoring, net=form.get("net") == "yes", allowance=allowance
    )
    app_parts.derived.cards(round)
    return redirect(url_for("scoring.scorecard_page", round=round))

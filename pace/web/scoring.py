"""The scorers' web adapter: their commands' routes, the card and leaderboard broadcasts, the
scorer page, the public leaderboard and the round's results. No golf here.

Commands go through the edge pipeline (pace/web/edge.py merges ``ROUTES``): parse with
``scoring_payloads`` → permission → ``ScoreService`` → broadcast → ack. Rooms:
``scores:<round>`` (scorer pages: ``card_changed``) and ``leaderboard:<round>`` (anybody, no
session: ``leaderboard_changed`` only, so no status, alert or penalty row ever reaches it).
Event names and shapes are in docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from flask_socketio import join_room, leave_room, rooms

from pace.reports.results import results_document
from pace.rules.errors import PaceError
from pace.services.commands import Outcome
from pace.services.scores import ScoreService
from pace.web import payloads
from pace.web import scoring_payloads as sp
from pace.web.i18n import page_context


def scores_room(round: str) -> str:
    """Return the room of the scorer pages of ``round``."""
    return f"scores:{round}"


def leaderboard_room(round: str) -> str:
    """Return the room of the public leaderboards of ``round``."""
    return f"leaderboard:{round}"


class ScoreBroadcaster:
    """Tells scorer pages which cards changed, and leaderboards that theirs did."""

    def __init__(self, socketio: Any, scores: ScoreService):
        self.socketio = socketio
        self.scores = scores

    def changed(self, round: str) -> None:
        """Announce the cards that changed since the last announcement (scores, or penalties
        counted or taken back), and then the leaderboard once; nothing when none did."""
        try:
            groups = self.scores.changes(round)
        except PaceError:  # a round the scoring cannot score (its setup): nothing to announce
            return
        for group in groups:
            self.socketio.emit(
                "card_changed", {"round": round, "group": group}, to=scores_room(round)
            )
        if groups:
            self.socketio.emit("leaderboard_changed", {"round": round}, to=leaderboard_room(round))


def ack(outcome: Outcome) -> dict[str, Any]:
    """Return a scorer command's ack: the stored event and whether it was a resend."""
    e = outcome.event
    return {
        "ok": True,
        "id": e.id,
        "seq": e.seq,
        "at": e.at.isoformat(),
        "duplicate": not outcome.created,
    }


def _run(method: str) -> Callable[[Any, Any, Any], dict[str, Any]]:
    def run(command: Any, sender: Any, ext: Any) -> dict[str, Any]:
        outcome = getattr(ext.scores, method)(command)
        if outcome.created:
            ext.derived.cards(outcome.event.round)
        return ack(outcome)

    return run


def join_scores(command: Any, sender: Any, ext: Any) -> dict[str, Any]:
    """Follow a round's cards (scorer pages): answer the scorer's snapshot."""
    snapshot = ext.scores.snapshot(command.round)
    _leave(("scores:", "leaderboard:"))
    join_room(scores_room(command.round))
    join_room(leaderboard_room(command.round))
    return {"ok": True, "snapshot": snapshot}


def join_leaderboard(command: Any, sender: Any, ext: Any) -> dict[str, Any]:
    """Follow a round's leaderboard (anybody): answer it."""
    board = ext.scores.leaderboard(command.round)
    _leave(("leaderboard:",))
    join_room(leaderboard_room(command.round))
    return {"ok": True, "leaderboard": board}


def _leave(prefixes: tuple[str, ...]) -> None:
    for room in rooms():
        if room.startswith(prefixes):
            leave_room(room)


#: the scorers' commands, as (parser of ``(payload, sender)``, handler): edge.ROUTES takes them
COMMANDS: dict[str, tuple[Any, Any]] = {
    "record_score": (lambda payload, s: sp.record_score(payload, s.by), _run("record_score")),
    "correct_score": (lambda payload, s: sp.correct_score(payload, s.by), _run("correct_score")),
}

#: the Socket.IO-only events of the scoring pages (sockets.ROUTES takes them)
JOINS: dict[str, tuple[Any, Any]] = {
    "join_scores": (lambda payload, s: sp.join_scores(payload), join_scores),
    "join_leaderboard": (lambda payload, s: sp.join_leaderboard(payload), join_leaderboard),
}


# -- HTTP ------------------------------------------------------------------------------------

bp = Blueprint("scoring", __name__)


def _ext() -> Any:
    return current_app.extensions["pace"]


@bp.get("/rounds/<round>/scorecard")
def scorecard_page(round: str) -> str:
    """The scorer's page (phone first): one group's card at a time, offline queue."""
    scoring = _ext().scores.scoring(round)
    return render_template("scorecard.html", round=round, scoring=scoring, **page_context())


@bp.get("/rounds/<round>/leaderboard")
def leaderboard_page(round: str) -> str:
    """The public leaderboard: no sign-in."""
    _ext().live.service.round_view(round)
    return render_template("leaderboard.html", round=round, **page_context())


@bp.get("/api/rounds/<round>/leaderboard")
def api_leaderboard(round: str) -> Any:
    """The leaderboard as the page shows it."""
    return jsonify({"ok": True, "leaderboard": _ext().scores.leaderboard(round)})


@bp.get("/api/rounds/<round>/cards/<group>")
def api_card(round: str, group: str) -> Any:
    """One group's card: its scores with their ids, its standing, its penalties."""
    group = payloads.text({"group": group}, "group", limit=50)
    return jsonify({"ok": True, "card": _ext().scores.card(round, group)})


@bp.get("/api/rounds/<round>/results")
def api_results(round: str) -> Any:
    """The round's results as ``pace results --json`` prints them (docs/formats.md §8)."""
    return jsonify(results_document(_ext().scores.results(round)))


@bp.post("/rounds/<round>/scoring")
def scoring_setting(round: str) -> Any:
    """The committee sets how the round is scored: scoring, net or gross, allowance."""
    from pace.web.access import check_csrf

    check_csrf()
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
    ext = _ext()
    ext.live.service.set_scoring(
        round, scoring=scoring, net=form.get("net") == "yes", allowance=allowance
    )
    ext.derived.cards(round)
    return redirect(url_for("scoring.scorecard_page", round=round))

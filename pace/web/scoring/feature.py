"""The scorers' commands on ``ScoreService``, and the Socket.IO events that follow the scoring
rooms (the scorer's cards, the public leaderboard)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_socketio import join_room, leave_room, rooms

from pace.services import commands as cmd
from pace.services.commands import Outcome
from pace.services.scores import ScoreService
from pace.services.taps import TapService
from pace.web import routing
from pace.web.parts import AppParts
from pace.web.routing import Feature, Route, Sender, authored, live, timed, unsigned
from pace.web.scoring import pages, parsers
from pace.web.scoring.announce import leaderboard_room, scores_room


def scorers(use_case: Callable[[ScoreService, Any], Outcome]) -> routing.Handler:
    """Return the handler running a ``ScoreService`` use case; the cards follow at once."""

    def run(command: Any, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
        outcome = use_case(app_parts.scores, command)
        if outcome.created:
            app_parts.derived.cards(outcome.event.round)
        return routing.ack(outcome)

    return run


def join_scores(command: cmd.JoinRound, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Follow a round's cards (scorer pages): answer the scorer's snapshot."""
    snapshot = app_parts.scores.snapshot(command.round)
    leave_rooms(("scores:", "leaderboard:"))
    join_room(scores_room(command.round))
    join_room(leaderboard_room(command.round))
    return {"ok": True, "snapshot": snapshot}


def join_leaderboard(command: cmd.JoinRound, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Follow a round's leaderboard (anybody): answer it."""
    board = app_parts.scores.leaderboard(command.round)
    leave_rooms(("leaderboard:",))
    join_room(leaderboard_room(command.round))
    return {"ok": True, "leaderboard": board}


def leave_rooms(prefixes: tuple[str, ...]) -> None:
    """Leave this connection's rooms whose names start with one of ``prefixes``."""
    for room in rooms():
        if room.startswith(prefixes):
            leave_room(room)


FEATURE = Feature(
    "scoring",
    commands={
        "record_score": Route(authored(parsers.record_score), scorers(ScoreService.record_score)),
        "correct_score": Route(
            authored(parsers.correct_score), scorers(ScoreService.correct_score)
        ),
        # a group's own report that it holed out: a completion, announced as a tap is
        "group_completed": Route(
            timed(parsers.group_completed),
            live(TapService.report_hole_completed, cards_at_once=False),
        ),
    },
    joins={
        "join_scores": Route(unsigned(parsers.join_scores), join_scores),
        "join_leaderboard": Route(unsigned(parsers.join_leaderboard), join_leaderboard),
    },
    pages=pages.bp,
)

"""The scoring rooms, and the announcement of the cards and leaderboards that changed."""

from __future__ import annotations

from typing import Any

from pace.rules.errors import PaceError
from pace.services.scores import ScoreService


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

    def life_changed(self, round: str) -> None:
        """Tell the round's leaderboards that its life changed (finished, results final or
        reopened): the page reads it again and shows "final", when and by whom."""
        self.socketio.emit("leaderboard_changed", {"round": round}, to=leaderboard_room(round))

"""The scoring rooms, and the announcement of the cards and leaderboards that changed."""

from __future__ import annotations

from typing import Any

from pace.rules import life as lifemod
from pace.rules.errors import PaceError
from pace.services.life import RoundLifeService
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
        #: per round, the log position and the life the leaderboards were last told of
        self._life: dict[str, tuple[int, tuple[Any, ...]]] = {}

    def changed(self, round: str) -> None:
        """Announce the cards that changed since the last announcement (scores, or penalties
        counted or taken back), and then the leaderboard once; nothing when none did. The
        leaderboard is told too when the round's life moved without an act of the committee
        (its first tee time came, its last group's last hole was logged)."""
        try:
            groups = self.scores.changes(round)
        except PaceError:  # a round the scoring cannot score (its setup): nothing to announce
            return
        for group in groups:
            self.socketio.emit(
                "card_changed", {"round": round, "group": group}, to=scores_room(round)
            )
        if self._life_moved(round) or groups:
            self.socketio.emit("leaderboard_changed", {"round": round}, to=leaderboard_room(round))

    def life_changed(self, round: str) -> None:
        """Tell the round's leaderboards that its life changed (finished, results final or
        reopened): the page reads it again and shows "final", when and by whom."""
        self._life.pop(round, None)  # told now: the next announcement notes it afresh
        self.socketio.emit("leaderboard_changed", {"round": round}, to=leaderboard_room(round))

    def _life_moved(self, round: str) -> bool:
        """Return whether the round's stage (or its implied finish) changed since last asked.

        It moves with the log (the last hole of the last group finishes the round), and with
        the clock only while the round is planned: it is read again only then. The first
        ask notes it (the pages read it when they joined)."""
        live = self.scores.live
        with live.lock:
            seq = live.live(round).last_seq
            told = self._life.get(round)
            if told is not None and told[0] == seq and told[1][0] != lifemod.PLANNED:
                return False
            doc = RoundLifeService(live).document(round)
            now = (doc["stage"], doc["finished"])
            self._life[round] = (seq, now)
            return told is not None and told[1] != now

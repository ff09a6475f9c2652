"""The referees' broadcasts: a timed stroke or a time credit, then the deltas it made."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pace.rules import facts, refereeing
from pace.services.referees import RefereeOutcome
from pace.services.state import Delta
from pace.web.broadcast import Broadcaster, event_view, facts_room


class RefereeBroadcaster:
    """Emits the referees' events to a round's room (see docs/protocol.md)."""

    def __init__(
        self,
        socketio: Any,
        broadcaster: Broadcaster,
        cards: Callable[[str], None] | None = None,
    ):
        self.socketio = socketio
        self.broadcaster = broadcaster
        #: announces the cards a referee's act changed (``ScoreBroadcaster.changed``)
        self.cards = cards

    def outcome(
        self, o: RefereeOutcome, stages: Callable[[str], Iterable[Sequence[Delta]]]
    ) -> None:
        """Announce what a command changed (a resend: nothing).

        The stored stroke or credit goes out as it is; the timing, penalties and rows it
        changed follow as the round's deltas, stage by stage (``timing_changed``,
        ``penalties_changed``, ``group_updated``).
        """
        if not o.created:
            return
        e = o.event
        room = facts_room(e.round)
        if e.type == refereeing.STROKE_TIMED:
            self.socketio.emit(
                "stroke_recorded",
                {
                    "round": e.round,
                    "event": event_view(e),
                    "verdict": o.verdict,
                    "outcome": o.outcome,
                },
                to=room,
            )
        if e.type == facts.TIME_CREDIT_GRANTED:
            self.socketio.emit("time_credit_granted", event_view(e), to=room)
        self.socketio.sleep(0)
        self.broadcaster.feed_stages(e.round, lambda: stages(e.round))

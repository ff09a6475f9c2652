"""The referees' web adapter: their broadcasts, their acks and HTTP routes.

Their commands go through the edge pipeline (pace/web/edge.py: parse with
``referee_payloads`` → permission → ``RefereeService`` → ``run``: broadcast → ack);
``bp`` serves the referees' pages and the round's penalties. Event names and shapes are in
docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template

from pace.rules import facts as factsmod
from pace.rules import refereeing as rr
from pace.services.referees import RefereeOutcome, RefereeService
from pace.services.state import Delta
from pace.web.broadcast import Broadcaster, event_view, round_room
from pace.web.derived import Derived
from pace.web.i18n import page_context


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
        room = round_room(e.round)
        if e.type == rr.STROKE_TIMED:
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
        if e.type == factsmod.TIME_CREDIT_GRANTED:
            self.socketio.emit("time_credit_granted", event_view(e), to=room)
        self.socketio.sleep(0)
        self.broadcaster.feed_stages(e.round, lambda: stages(e.round))


def ack(o: RefereeOutcome) -> dict[str, Any]:
    """Return a referee command's ack: the shared fields, then what the command judged."""
    e = o.event
    answer: dict[str, Any] = {
        "ok": True,
        "id": e.id,
        "seq": e.seq,
        "at": e.at.isoformat(),
        "duplicate": not o.created,
    }
    if o.timing is not None:
        answer["timing"] = o.timing
    if e.type == rr.STROKE_TIMED:
        answer["verdict"] = o.verdict
        answer["outcome"] = o.outcome
    return answer


def run(
    use_case: Callable[..., RefereeOutcome],
    command: Any,
    service: RefereeService,
    broadcaster: RefereeBroadcaster,
    derived: Derived,
) -> dict[str, Any]:
    """Run a parsed referee command (``use_case(service, command)``), announce it, ack it."""
    outcome = use_case(service, command)
    broadcaster.outcome(outcome, derived.stages)
    if outcome.created and broadcaster.cards is not None:
        broadcaster.cards(outcome.event.round)  # a fault counted or re-judged: the cards
    return ack(outcome)


# -- HTTP ------------------------------------------------------------------------------------

bp = Blueprint("referee", __name__)


def _ext() -> Any:
    return current_app.extensions["pace"]


@bp.get("/api/rounds/<round>/penalties")
def api_penalties(round: str) -> Any:
    """The round's faults and penalties, one row per player with any fault."""
    return jsonify({"ok": True, "penalties": _ext().referee_feed.penalties(round)})


@bp.get("/rounds/<round>/shotclock")
def shotclock_page(round: str) -> str:
    """The referee's shot clock (phone first)."""
    _ext().live.service.round_view(round)
    return render_template("shotclock.html", round=round, **page_context())


@bp.get("/rounds/<round>/board")
def board_page(round: str) -> str:
    """The facts-only pace board for players and the public."""
    _ext().live.service.round_view(round)
    return render_template("board.html", round=round, **page_context())

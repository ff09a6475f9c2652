"""The referees' commands: each parsed (``parsers``), run on ``RefereeService``, announced
(``announce``) and acked with what it judged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pace.rules import refereeing
from pace.services.referees import RefereeOutcome, RefereeService
from pace.web import routing
from pace.web.parts import AppParts
from pace.web.referee import pages, parsers
from pace.web.routing import Feature, Route, Sender, timed


def ack(o: RefereeOutcome) -> dict[str, Any]:
    """Return a referee command's ack: the shared fields, then what the command judged."""
    answer = routing.ack(o)
    if o.timing is not None:
        answer["timing"] = o.timing
    if o.event.type == refereeing.STROKE_TIMED:
        answer["verdict"] = o.verdict
        answer["outcome"] = o.outcome
    return answer


def referees(use_case: Callable[..., RefereeOutcome]) -> routing.Handler:
    """Return the handler running a ``RefereeService`` use case: announce it, then the cards
    it changed (a fault counted or re-judged), and ack it."""

    def run(command: Any, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
        outcome = use_case(app_parts.referee, command)
        broadcaster = app_parts.referee_broadcaster
        broadcaster.outcome(outcome, app_parts.derived.stages)
        if outcome.created and broadcaster.cards is not None:
            broadcaster.cards(outcome.event.round)
        return ack(outcome)

    return run


FEATURE = Feature(
    "referee",
    commands={
        "decide_timing": Route(
            timed(parsers.decide_timing), referees(RefereeService.decide_timing)
        ),
        "tell_player_timed": Route(
            timed(parsers.tell_player_timed), referees(RefereeService.tell_player_timed)
        ),
        "record_stroke": Route(
            timed(parsers.record_stroke), referees(RefereeService.record_stroke)
        ),
        "notify_player": Route(
            timed(parsers.notify_player), referees(RefereeService.notify_player)
        ),
        "grant_time_credit": Route(
            timed(parsers.grant_time_credit), referees(RefereeService.grant_time_credit)
        ),
        "stop_timing": Route(timed(parsers.stop_timing), referees(RefereeService.stop_timing)),
    },
    pages=pages.bp,
)

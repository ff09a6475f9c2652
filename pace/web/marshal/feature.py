"""The marshals' commands: taps and their corrections on ``TapService``, and the void of a fact."""

from __future__ import annotations

from pace.services.taps import TapService
from pace.web.marshal import pages, parsers
from pace.web.routing import Feature, Route, authored, live, timed

FEATURE = Feature(
    "marshal",
    commands={
        # a tap's effect on a card (a checkpoint breach) waits for the next tick
        "hole_completed": Route(
            timed(parsers.hole_completed),
            live(TapService.log_hole_completed, cards_at_once=False),
        ),
        "correct_hole_time": Route(
            timed(parsers.correct_hole_time),
            live(TapService.correct_hole_time, cards_at_once=False),
        ),
        # a void may take back a score or a timed stroke: the cards follow at once
        "void_event": Route(
            authored(parsers.void_event), live(TapService.void_event, cards_at_once=True)
        ),
    },
    pages=pages.bp,
)

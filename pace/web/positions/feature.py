"""The groups' phones' positions (issue 48): consent and fixes, on ``PositionService``."""

from __future__ import annotations

from typing import Any

from pace.services.positions import PositionService, SendPositions, ShareConsent
from pace.web.parts import AppParts
from pace.web.positions import pages, parsers
from pace.web.routing import Feature, Route, Sender, ack, authored, timed


def send_positions(command: SendPositions, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Take a phone's fixes; announce each completion they confirm as a tap's is."""
    taken = PositionService.send(app_parts.positions, command)
    for outcome in taken.outcomes:
        app_parts.broadcaster.outcome(outcome, app_parts.derived.stages)
    return taken.ack()


def share_positions(command: ShareConsent, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
    """Record that a group's phone starts or stops sharing its position."""
    outcome = PositionService.share(app_parts.positions, command)
    app_parts.broadcaster.outcome(outcome, app_parts.derived.stages)
    return ack(outcome)


FEATURE = Feature(
    "positions",
    commands={
        "send_positions": Route(timed(parsers.send_positions), send_positions),
        "share_positions": Route(authored(parsers.share_positions), share_positions),
    },
    pages=pages.bp,
)

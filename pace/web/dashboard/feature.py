"""The dashboard's commands: a siren recorded (the committee), an alert acknowledged (a
referee); both announce the cards at once."""

from __future__ import annotations

from pace.services.alerts import AlertDesk
from pace.services.taps import TapService
from pace.web.dashboard import pages, parsers
from pace.web.routing import Feature, Route, authored, live, timed

FEATURE = Feature(
    "dashboard",
    commands={
        "record_siren": Route(
            timed(parsers.record_siren), live(TapService.record_siren, cards_at_once=True)
        ),
        "acknowledge_alert": Route(
            authored(parsers.acknowledge_alert),
            live(AlertDesk.acknowledge_alert, on="alerts", cards_at_once=True),
        ),
    },
    pages=pages.bp,
)

"""The app's parts, as the web adapter reaches them: one typed accessor, ``parts()``.

``create_app`` (pace/app.py) builds an ``AppParts`` once and leaves it at
``app.extensions["pace"]``; a page, a handler or a check reads it with ``parts()`` inside a
request (or a Socket.IO event), typed, instead of each module reaching into the extensions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from flask import Flask, current_app
from flask_socketio import SocketIO

from pace import config
from pace.services.access import AccessService
from pace.services.accounts import Accounts
from pace.services.alerts import AlertDesk
from pace.services.board import BoardFeed
from pace.services.live import LiveService
from pace.services.positions import PositionService
from pace.services.referee_feed import RefereeFeed
from pace.services.referees import RefereeService
from pace.services.reports import HoldUpPanel, ReportService
from pace.services.scores import ScoreService
from pace.services.taps import TapService
from pace.store import Store
from pace.web.board_cache import BoardCache
from pace.web.broadcast import Broadcaster
from pace.web.derived import Derived
from pace.web.referee.announce import RefereeBroadcaster
from pace.web.reports.jobs import ReportJobs
from pace.web.scoring.announce import ScoreBroadcaster

#: where the parts are kept in ``app.extensions``
EXTENSION = "pace"
#: where the running scheduler is kept in ``app.extensions`` (none until
#: ``pace.app.start_scheduler``; the readiness check reads it)
SCHEDULER = "pace.scheduler"


class Connections(Protocol):
    """The live connections, as the rest of the app needs them (``sockets.PaceNamespace``)."""

    def close_sessions(self, ended: set[str]) -> None:
        """Disconnect every connection of the sessions ``ended`` (token hashes)."""

    def probe_clocks(self) -> None:
        """Probe every open connection's clock; close those whose session ended."""


@dataclass(frozen=True)
class AppParts:
    """What the app is made of, built once by ``create_app``."""

    settings: config.Settings
    store: Store
    socketio: SocketIO
    #: the open connections of the live endpoint (pace/web/sockets.py)
    namespace: Connections
    access: AccessService
    live: LiveService
    #: the marshals' commands (taps, corrections, voids, sirens)
    taps: TapService
    #: the alerts raised, resolved and acknowledged (``live.alerts``)
    alerts: AlertDesk
    #: the referees' commands, and what their pages are shown (timing, penalty rows)
    referee: RefereeService
    referee_feed: RefereeFeed
    scores: ScoreService
    #: the facts-only board's snapshot and its own numbered feed (pace/services/board.py)
    board_feed: BoardFeed
    #: who holds the field up, on the dashboard (read by the scheduler before its tick)
    holdups: HoldUpPanel
    #: the report service of the pages, with its cache of the last reports and charts
    reports: ReportService
    broadcaster: Broadcaster
    referee_broadcaster: RefereeBroadcaster
    score_broadcaster: ScoreBroadcaster
    #: what a round's log implies (rows, penalties, cards): announced here or by the round's
    #: ticking worker (pace/web/derived.py)
    derived: Derived
    #: the facts-only board, made once per log position for all its viewers
    board_cache: BoardCache
    report_jobs: ReportJobs
    #: this worker among the others of its deployment (``server.message_queue``), or None
    cluster: Any = None
    #: the Prometheus metrics (``server.metrics``; pace/web/metrics.py), or None when off
    metrics: Any = None
    #: the groups' phones' positions, held in memory only (issue 48; docs/positions.md)
    positions: PositionService = None  # type: ignore[assignment]
    #: clubs and people's accounts (issue 50; docs/federation.md)
    accounts: Accounts = None  # type: ignore[assignment]


def parts_of(app: Flask) -> AppParts:
    """Return the parts of ``app`` (outside a request: serving it, closing it)."""
    found: AppParts = app.extensions[EXTENSION]
    return found


def parts() -> AppParts:
    """Return the parts of the app handling this request or event."""
    return parts_of(current_app)  # type: ignore[arg-type]

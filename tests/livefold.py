"""The live service in-process over a real store, and a fresh process beside it (issue 37).

``Process`` is what ``pace serve`` assembles for the live loop: the round service, the live
service and the companions that raise alerts (the referees' feed), over one store, with a
dashboard page that holds what it was told (the snapshot it joined with, then every delta).
``fresh_look`` is the reading of docs/protocol.md, "What a fresh process holds": a new process
folds the whole stored log, then makes one full look (a tick) at the same instant.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pace import config
from pace.clock import FakeClock
from pace.rules.alerts import ALERT_RAISED, ALERT_RESOLVED
from pace.rules.events import Event
from pace.services.alerts import AlertDesk
from pace.services.live import LiveService
from pace.services.referee_feed import RefereeFeed
from pace.services.rounds import RoundService
from pace.services.state import ACKNOWLEDGED, ALERT, RESOLVED, ROW, Delta
from pace.store import Store

SETTINGS = config.Settings()


class Page:
    """A dashboard's view of one round: the snapshot it joined with, then the deltas heard."""

    def __init__(self, snapshot: dict[str, Any]) -> None:
        self.rows = {r["group"]: r for r in snapshot["groups"]}
        self.alerts = {a["key"]: a for a in snapshot["alerts"]}
        #: each alert's announcements (its id), to see none heard twice
        self.heard: list[str] = []

    def hear(self, deltas: Iterable[Delta]) -> None:
        """Apply what the feed told, as the dashboard's script does."""
        for d in deltas:
            if d.kind == ROW:
                self.rows[d.data["group"]] = dict(d.data)
            elif d.kind == ALERT:
                self.heard.append(str(d.data["id"]))
                self.alerts[str(d.data["key"])] = dict(d.data)
            elif d.kind in (RESOLVED, ACKNOWLEDGED):
                self.alerts.pop(str(d.data["event"].payload["alert"]), None)


class Process:
    """One serving process's live loop over ``store`` (the companions that raise alerts
    included), on a fake clock."""

    def __init__(self, store: Store, clock: FakeClock, round: str) -> None:
        self.store, self.clock, self.round = store, clock, round
        self.service = RoundService(store, SETTINGS, clock)
        self.live = LiveService(self.service)
        self.referees = RefereeFeed(self.live)
        self.page = Page(self.live.snapshot(round, clock.now()))

    def command(self, event: Event) -> tuple[Delta, ...]:
        """Store ``event`` as a command does (the live service's append), then tell the feed."""
        self.live.append(event)
        return self.feed()

    def feed(self, *, tick: bool = False) -> tuple[Delta, ...]:
        """Return what the round's pages are told now (a command's look, or the tick's)."""
        deltas = self.live.changes(self.round, self.clock.now(), tick=tick)
        self.page.hear(deltas)
        return deltas

    def open_alerts(self) -> set[tuple[str, str, str]]:
        """Return the open alerts' (key, kind, group) as the process holds them."""
        return alert_keys(self.live.open_alerts(self.round))


def alert_keys(alerts: Iterable[dict[str, Any]]) -> set[tuple[str, str, str]]:
    """Return the (key, kind, group) of ``alerts``."""
    return {(str(a["key"]), str(a["kind"]), str(a["group"])) for a in alerts}


class DryDesk(AlertDesk):
    """An alert desk that folds the events it would store into its own state and keeps them
    (``written``), storing nothing: a fresh process that looks without changing the log the
    process under test reads."""

    def __init__(self, rounds: Any) -> None:
        super().__init__(rounds)
        self.written: list[Event] = []

    def append_implied(self, events: list[Event], now: datetime) -> list[tuple[Event, bool]]:
        """Fold ``events`` into the round's state, as if stored."""
        for e in events:
            live = self.rounds.held(e.round)
            assert live is not None
            live.apply(e, now)
            self.written.append(e)
        return [(e, True) for e in events]


class FactsOnly:
    """A store read without its alerts' raises and resolutions: the facts (and the referees'
    acknowledgements) alone, as a process that never raised an alert would read them."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def events(self, round: str, *args: Any, **kwargs: Any) -> list[Event]:
        """Return the round's stored events but the alerts' raises and resolutions."""
        return [e for e in self._store.events(round, *args, **kwargs) if e.type not in RAISES]


RAISES = (ALERT_RAISED, ALERT_RESOLVED)


def fresh_look(
    store: Store, clock: FakeClock, round: str, *, dry: bool = True, facts_only: bool = False
) -> Process:
    """Return a fresh process over ``store`` after its one full look at the clock's instant
    (docs/protocol.md, "What a fresh process holds"); ``dry``: what the look would store is
    kept in its own state only (``DryDesk``), so the store stays the process under test's;
    ``facts_only``: the process reads no alert's raise or resolution (:class:`FactsOnly`)."""
    process = Process(FactsOnly(store) if facts_only else store, clock, round)  # type: ignore[arg-type]
    if dry:
        process.live.alerts = DryDesk(process.live.rounds)
    process.feed(tick=True)
    return process


def instant(value: datetime) -> str:
    """Return ``value`` as the wire writes instants."""
    return value.isoformat()

"""Prometheus metrics at ``GET /metrics`` (``prometheus-client``): off unless
``server.metrics = true``, and then readable only from ``server.metrics_from`` addresses; any
other asker gets the same 404 as a page that does not exist (docs/deploy.md, "Health and
metrics").

What is counted, where it passes once: each command by name and outcome (``edge.handle``),
the commit of each event a command stores (``LiveRounds.append``), each scheduler tick (its
seconds, and from its due instant to its end), the
Socket.IO connections by role (connect and disconnect), each report job queued and how it
ended, with its seconds (``ReportJobs``), each store error by its kind (a command, a page or a
Socket.IO event refused with ``storage_unavailable``: the app's error handlers; the readiness
probe's write; a scheduled backup), and, read
when scraped, the alerts open in the rounds folded in memory. Each app has a registry of its
own: several apps in one process (the tests) never mix their numbers.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from flask import Blueprint, Response, abort, request
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from pace.web.parts import parts

bp = Blueprint("metrics", __name__)

#: a commit waits for the disk (an fsync): from a fraction of a millisecond to a stalled disk
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: a tick folds and judges a round: milliseconds on a small field, more on a long day
TICK_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: a report's PDF: a second or two warm, a builder's start more, a long day's letters a minute
JOB_BUCKETS = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0)


class Metrics:
    """The app's metrics, in a registry of its own."""

    def __init__(self, open_alerts: Callable[[], Mapping[str, int]]) -> None:
        self.registry = CollectorRegistry()
        self.commands = Counter(
            "pace_commands",
            "Commands handled, by command and outcome (ok, duplicate, or the error code)",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.commits = Histogram(
            "pace_commit_seconds",
            "Seconds to store (commit) one event of a command",
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        self.ticks = Histogram(
            "pace_tick_seconds",
            "Seconds one scheduler tick of a round took",
            buckets=TICK_BUCKETS,
            registry=self.registry,
        )
        self.ticks_due = Histogram(
            "pace_tick_due_seconds",
            "Seconds from a scheduled tick's due instant to its end (a tick over its period "
            "ran into the next one's time)",
            buckets=TICK_BUCKETS,
            registry=self.registry,
        )
        self.sockets = Gauge(
            "pace_sockets",
            "Socket.IO connections open on this worker, by the role of their session",
            ["role"],
            registry=self.registry,
        )
        self.report_jobs = Counter(
            "pace_report_jobs",
            "Report jobs (PDFs) by kind and state: queued when asked for, then done or failed",
            ["kind", "state"],
            registry=self.registry,
        )
        self.report_job_seconds = Histogram(
            "pace_report_job_seconds",
            "Seconds from a report job's start to its end, by kind",
            ["kind"],
            buckets=JOB_BUCKETS,
            registry=self.registry,
        )
        self.store_errors = Counter(
            "pace_store_errors",
            "Store errors (nothing stored), by kind: SQLite's error name (SQLITE_BUSY, "
            "SQLITE_FULL...), PostgreSQL's SQLSTATE class (pg_08...), no_connection, closed",
            ["kind"],
            registry=self.registry,
        )
        self.registry.register(OpenAlerts(open_alerts))

    def command(self, name: str, outcome: str) -> None:
        """Count one command ``name`` answered with ``outcome``."""
        self.commands.labels(command=name, outcome=outcome).inc()

    def report_job(self, kind: str, state: str, seconds: float | None = None) -> None:
        """Count a report job of ``kind`` reaching ``state`` (queued, done, failed); an
        ended one's ``seconds`` go in the histogram."""
        self.report_jobs.labels(kind=kind, state=state).inc()
        if seconds is not None:
            self.report_job_seconds.labels(kind=kind).observe(seconds)

    def store_failed(self, error: BaseException | None) -> None:
        """Count one store error (a ``StorageError``) by its kind (``store_error_kind``)."""
        self.store_errors.labels(kind=store_error_kind(error)).inc()

    def connected(self, role: str) -> None:
        """Count a connection of ``role`` opened."""
        self.sockets.labels(role=role).inc()

    def disconnected(self, role: str) -> None:
        """Count a connection of ``role`` closed."""
        self.sockets.labels(role=role).dec()

    def scrape(self) -> bytes:
        """Return the registry in Prometheus's text format."""
        return generate_latest(self.registry)


class OpenAlerts:
    """``pace_alerts_open{round}``: read from the folded rounds at each scrape, never kept
    twice."""

    def __init__(self, open_alerts: Callable[[], Mapping[str, int]]) -> None:
        self.open_alerts = open_alerts

    def describe(self) -> Iterable[Any]:
        help = "Alerts open (raised, neither acknowledged nor resolved), by round"
        return [GaugeMetricFamily("pace_alerts_open", help, labels=["round"])]

    def collect(self) -> Iterator[Any]:
        family = self.describe()[0]  # type: ignore[index]
        for round, n in sorted(self.open_alerts().items()):
            family.add_metric([round], n)
        yield family


def outcome(ack: Mapping[str, Any]) -> str:
    """Return what a command's ack says of it: ``ok``, ``duplicate`` (a resend, nothing
    stored) or its error's code."""
    if ack.get("ok") is False:
        error = ack.get("error")
        return str(error.get("code", "error")) if isinstance(error, Mapping) else "error"
    return "duplicate" if ack.get("duplicate") else "ok"


def store_error_kind(error: BaseException | None) -> str:
    """Return the kind of a store error, from the database's error it was raised from: its
    SQLite name, or ``pg_`` and its SQLSTATE's class, ``no_connection`` (no free connection
    in time), ``closed`` (the store was closed), else ``other``. Read by name: the web adapter
    imports no database driver."""
    cause = error.__cause__ if error is not None else None
    if cause is None:
        return "closed" if error is not None and "closed" in str(error) else "other"
    name = getattr(cause, "sqlite_errorname", None)
    if name:
        return str(name)
    state = getattr(cause, "sqlstate", None)
    if state:
        return f"pg_{str(state)[:2]}"
    if type(cause).__name__ == "PoolTimeout":
        return "no_connection"
    return "other"


def allowed(remote: str | None, sources: Iterable[str]) -> bool:
    """Return whether ``remote`` is one of ``sources`` (addresses or networks)."""
    if not remote:
        return False
    try:
        address = ipaddress.ip_address(remote)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in ipaddress.ip_network(s, strict=False) for s in sources)


@bp.get("/metrics")
def metrics() -> Any:
    """The metrics in Prometheus's text format, to the allowed addresses only (404 else)."""
    app_parts = parts()
    server = app_parts.settings.server
    if app_parts.metrics is None or not allowed(request.remote_addr, server.metrics_from):
        abort(404)  # the same answer as no page at all: nothing tells the page is here
    return Response(app_parts.metrics.scrape(), content_type=CONTENT_TYPE_LATEST)

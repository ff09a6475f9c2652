"""The operator's probes: ``GET /healthz`` (the process answers) and ``GET /readyz`` (it can
serve: the store takes a write within a second, Redis answers when configured, the scheduler
ticked within two periods when it runs). No session needed (a load balancer or systemd asks);
the answers name the checks and whether each passed, nothing else: no path, no version, no
exception text (docs/deploy.md, "Health and metrics").
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, current_app, jsonify

from pace.store import StorageError
from pace.web.parts import SCHEDULER, AppParts, parts

log = logging.getLogger(__name__)

bp = Blueprint("health", __name__)

#: how long the store may take to commit the probe's write before the process is not ready
STORE_SECONDS = 1.0
#: how many of its periods the scheduler may stay silent before the process is not ready
SCHEDULER_PERIODS = 2.0
#: where the app keeps the store probe still running (``app.extensions``)
PROBE = "pace.health.probe"


@bp.get("/healthz")
def healthz() -> Any:
    """Liveness: the process answers requests."""
    return jsonify({"ok": True})


@bp.get("/readyz")
def readyz() -> Any:
    """Readiness: every check's ``ok``; 503 when one fails."""
    app_parts = parts()
    checks = {"store": {"ok": store_ready(app_parts)}}
    if app_parts.cluster is not None:
        checks["redis"] = {"ok": redis_ready(app_parts.cluster)}
    scheduler = current_app.extensions.get(SCHEDULER)
    if scheduler is not None:
        checks["scheduler"] = {"ok": scheduler.ticked_within(SCHEDULER_PERIODS)}
    ok = all(c["ok"] for c in checks.values())
    return jsonify({"ok": ok, "checks": checks}), 200 if ok else 503


def store_ready(app_parts: AppParts) -> bool:
    """Return whether the store commits a small write within ``STORE_SECONDS``.

    The write runs in a thread of its own so the answer never waits longer than that (a
    backup holding the file's lock makes a write wait for the store's busy timeout); while
    one probe is still waiting, the next check does not start another: it is not ready.
    """
    extensions = current_app.extensions
    running = extensions.get(PROBE)
    if running is not None and running.is_alive():
        return False
    outcome: list[bool] = []

    def probe() -> None:
        try:
            app_parts.store.probe_write(datetime.now(UTC).isoformat())
            outcome.append(True)
        except Exception as e:  # the store's own log line says why; the answer says only "no"
            log.warning("readiness: the store refused the probe's write", exc_info=True)
            if app_parts.metrics is not None and isinstance(e, StorageError):
                app_parts.metrics.store_failed(e)

    thread = threading.Thread(target=probe, name="readyz-store", daemon=True)
    extensions[PROBE] = thread
    thread.start()
    thread.join(STORE_SECONDS)
    return bool(outcome) and not thread.is_alive()


def redis_ready(cluster: Any) -> bool:
    """Return whether the deployment's Redis answers a PING."""
    try:
        return bool(cluster.redis.ping())
    except Exception:
        log.warning("readiness: Redis did not answer", exc_info=True)
        return False

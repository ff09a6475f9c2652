"""The operator's probes through Flask's test client: ``/healthz`` and ``/readyz`` (issue 29).

A failing store is the real file locked by another connection, as a backup tool holds it; a
silent scheduler is a real ``PaceScheduler`` ticked by hand on a clock of its own.
"""

from __future__ import annotations

import sqlite3

import engines
import pytest
from drivers import ROUND

from pace.app import close_app, create_app
from pace.scheduler import SUPERVISOR_SECONDS, PaceScheduler
from pace.store.records import PROBE
from pace.web.parts import SCHEDULER


def test_healthz_and_readyz_answer_without_a_session(app, login):
    anybody = login(None)
    live = anybody.get("/healthz")
    assert live.status_code == 200 and live.get_json() == {"ok": True}
    ready = anybody.get("/readyz")
    assert ready.status_code == 200, ready.get_json()
    assert ready.get_json() == {"ok": True, "checks": {"store": {"ok": True}}}
    # the probe's write really reached the store
    assert app.extensions["pace"].store.secret(PROBE) is not None


def test_readyz_is_503_while_the_store_cannot_take_a_write(app, settings, login):
    anybody = login(None)
    backup = sqlite3.connect(settings.database.path, isolation_level=None, timeout=0)
    try:
        backup.execute("BEGIN IMMEDIATE")  # the write lock, held as a backup would
        answer = anybody.get("/readyz")
        assert answer.status_code == 503
        assert answer.get_json() == {"ok": False, "checks": {"store": {"ok": False}}}
        # nothing an attacker can use: no path, no engine, no exception text
        text = answer.get_data(as_text=True)
        for secret in (settings.database.path, "sqlite", "SQLITE", "locked", "Error"):
            assert secret not in text
    finally:
        backup.execute("ROLLBACK")
        backup.close()
    app.extensions["pace.health.probe"].join(10)  # the refused probe's write ends
    assert anybody.get("/readyz").status_code == 200


def test_readyz_is_503_once_the_scheduler_missed_two_periods(app, login):
    ext = app.extensions["pace"]
    now = [1000.0]
    scheduler = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5, monotonic=lambda: now[0])
    app.extensions[SCHEDULER] = scheduler  # as start_scheduler keeps it (close_app stops it)
    anybody = login(None)
    never = anybody.get("/readyz")
    assert never.status_code == 503 and never.get_json()["checks"]["scheduler"] == {"ok": False}
    scheduler.tick(ROUND)
    assert anybody.get("/readyz").get_json()["checks"]["scheduler"] == {"ok": True}
    now[0] += 2 * SUPERVISOR_SECONDS  # two periods: still ready
    assert anybody.get("/readyz").status_code == 200
    now[0] += 1  # more than two periods without a tick
    stale = anybody.get("/readyz")
    assert stale.status_code == 503
    assert stale.get_json() == {
        "ok": False,
        "checks": {"store": {"ok": True}, "scheduler": {"ok": False}},
    }
    scheduler.tick(ROUND)
    assert anybody.get("/readyz").status_code == 200


def test_readyz_checks_the_deployments_redis(settings, clock, tmp_path):
    try:
        server = engines.start_redis()
    except engines.EngineUnavailable as e:
        pytest.skip(f"Redis cannot start here: {e}")
    shared = settings.replace(
        server={"message_queue": server.url}, database={"path": str(tmp_path / "w.db")}
    )
    app = create_app(shared, clock=clock, testing=True)
    try:
        probe = app.test_client()
        ready = probe.get("/readyz")
        assert ready.status_code == 200, ready.get_json()
        assert ready.get_json()["checks"]["redis"] == {"ok": True}
        server.stop()  # Redis goes away
        gone = probe.get("/readyz")
        assert gone.status_code == 503
        assert gone.get_json()["checks"] == {"store": {"ok": True}, "redis": {"ok": False}}
        assert server.url not in gone.get_data(as_text=True)
    finally:
        close_app(app)
        server.stop()

"""Fixtures of the in-process integration tests: a marshal, the committee's dashboard and a
referee on round R1, over Flask-SocketIO's test client."""

from __future__ import annotations

import pytest
from drivers import MarshalDriver, RefereeDriver

from pace.app import tick_announcer
from pace.scheduler import PaceScheduler


@pytest.fixture
def marshal(sio, clock) -> MarshalDriver:
    return MarshalDriver(sio, clock.now)


@pytest.fixture
def dashboard(connect):
    """The committee's dashboard (it records sirens) on round R1; its join broadcasts drained."""
    sio = connect("committee", "dashboard-tablet")
    sio.get_received()
    return sio


@pytest.fixture
def referee(dashboard, clock) -> RefereeDriver:
    driver = RefereeDriver(dashboard, clock.now)
    driver.join(facts=True)  # the tests read the stored facts as they are announced
    dashboard.get_received()
    return driver


@pytest.fixture
def scheduler(app) -> PaceScheduler:
    """The serving process's scheduler of R1's app, ticked by hand (``scheduler.tick(ROUND)``):
    the slow parts read again, the tick's deltas sent, then the cards announced."""
    ext = app.extensions["pace"]
    return PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5, after_tick=tick_announcer(ext))

"""How long a group's positions are held (issue 48, item 6; docs/privacy.md).

"They are held only while the round is in play and deleted when it is finished (a setting may
shorten, never lengthen, beyond 24 h)." ``[positions] keep_hours`` bounds how long a fix is
held in memory by the server's clock: older ones are dropped at each ``send_positions`` and at
each run of the scheduler's supervisor (``PositionService.sweep``), whether or not a phone
sends; a fix already that old when sent is discarded (``expired``). The app on a FakeClock
over a real SQLite file, as tests/integration/test_positions_service.py: nothing sleeps.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest
from drivers import ROUND, local
from flask import Flask
from positioned import positions_app

from pace.app import close_app, start_scheduler
from pace.clock import FakeClock
from pace.demo.phones import Phones, samples, walk
from pace.rules.positions import CourseShape
from pace.scheduler import PaceScheduler
from pace.services import commands as cmd
from pace.services import positions as pos
from pace.services.geometry import round_geometry
from pace.services.life import RoundLifeService

TRUE = {1: "08:14", 2: "08:31", 3: "08:42"}


def make_app(tmp_path, keep_hours: float = 24.0) -> Flask:
    return positions_app(tmp_path, FakeClock(local("08:10")), positions={"keep_hours": keep_hours})


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = make_app(tmp_path, keep_hours=1)
    try:
        yield app
    finally:
        close_app(app)


def clock(app: Flask) -> FakeClock:
    return app.extensions["pace"].live.clock


def positions(app: Flask) -> pos.PositionService:
    return app.extensions["pace"].positions


def fixes(app: Flask, start: str = "07:58", until: str = "08:10") -> list[pos.Fix]:
    """Group 1's phone walking its first hole (fixes on the server's clock)."""
    shape = CourseShape.of(round_geometry(app.extensions["pace"].live.service, ROUND))
    rng = random.Random(7)
    path = walk(shape, list(range(1, 19)), local("08:00"),
                {h: local(t) for h, t in TRUE.items()}, rng)  # fmt: skip
    model = Phones(gaps=0, long_gap_groups=0, wild_share=0.0, accuracy=(5.0, 12.0))
    got = samples(shape, path, rng, model, local(start), local(until))
    return [pos.Fix(cmd.DeviceTime(s.at), s.lon, s.lat, s.accuracy) for s in got]


def share(service: pos.PositionService, group: str = "1") -> None:
    author = cmd.Author("scorer", f"phone-{group}")
    service.share(pos.ShareConsent(str(uuid.uuid4()), ROUND, group, True, author))


def send(service: pos.PositionService, batch: list[pos.Fix], group: str = "1") -> pos.Taken:
    author = cmd.Author("scorer", f"phone-{group}")
    return service.send(pos.SendPositions(ROUND, group, tuple(batch), author))


def test_the_app_holds_positions_as_long_as_config_toml_says(tmp_path):
    for hours in (24, 6, 0.5):
        app = make_app(tmp_path / str(hours), keep_hours=hours)
        try:
            assert positions(app).keep == timedelta(hours=hours)
        finally:
            close_app(app)


def test_a_send_drops_the_fixes_held_longer_than_the_setting(app):
    service = positions(app)
    share(service, "1")
    share(service, "2")
    sent = fixes(app)  # 07:58 to 08:10, the clock at 08:10: all within the hour
    assert send(service, sent[:40]).kept == len(sent[:40])
    held = service.held(ROUND)
    assert held > 0
    # 55 minutes later another group's phone sends: group 1's fixes before 08:05 go
    now = clock(app).advance(minutes=55)
    cutoff = now - timedelta(hours=1)
    assert service.held(ROUND, before=cutoff) > 0
    tee = sent[0]
    send(service, [pos.Fix(cmd.DeviceTime(now), tee.lon, tee.lat, 8.0)], group="2")
    assert service.held(ROUND, before=cutoff) == 0
    assert 0 < service.held(ROUND) < held + 1  # those since 08:05 (and group 2's) are held


def test_the_supervisor_drops_old_fixes_while_no_phone_sends(app):
    service = positions(app)
    share(service)
    send(service, fixes(app)[:40])
    assert service.held(ROUND) > 0
    clock(app).advance(minutes=30)
    parts = app.extensions["pace"]
    scheduler = PaceScheduler(parts.live, parts.broadcaster, tick_seconds=5, sweep=service.sweep)
    scheduler.supervise()
    assert service.held(ROUND) > 0  # 08:40: none older than an hour yet
    clock(app).advance(minutes=31)  # 09:11: every fix sent (up to 08:10) is over an hour old
    scheduler.supervise()
    assert service.held(ROUND) == 0


def test_the_served_apps_supervisor_sweeps_the_positions(app, monkeypatch):
    """``start_scheduler`` hands the sweep to the scheduler (its jobs not started here)."""
    monkeypatch.setattr(PaceScheduler, "start", lambda self: None)
    service = positions(app)
    share(service)
    send(service, fixes(app)[:40])
    scheduler = start_scheduler(app)
    clock(app).advance(hours=2)
    assert service.held(ROUND) > 0
    scheduler.supervise()
    assert service.held(ROUND) == 0


def test_a_fix_sent_older_than_the_setting_is_discarded_as_expired(app):
    service = positions(app)
    share(service)
    clock(app).set(local("09:05"))
    old = fixes(app, "07:58", "08:04")[:40]
    # every fix is from before 08:05: none is taken, each is counted
    taken = send(service, old)
    assert taken.kept == 0
    assert taken.discarded == {"expired": len(old)}
    assert service.held(ROUND) == 0
    # those of the last hour are taken as ever
    recent = fixes(app, "08:06", "08:10")
    assert send(service, recent).kept == len(recent)


def test_dropping_old_fixes_does_not_lose_a_completion_still_in_reach(tmp_path):
    """With the default (24 h), a round's fixes are all kept: the completion is inferred."""
    app = make_app(tmp_path, keep_hours=24)
    try:
        clock(app).set(local("08:40"))
        service = positions(app)
        share(service)
        sent = fixes(app, "07:58", "08:39")
        inferred = [o.event.payload["hole"] for k in range(0, len(sent), 40)
                    for o in send(service, sent[k : k + 40]).outcomes]  # fmt: skip
        assert inferred == [1, 2]
    finally:
        close_app(app)


def test_a_sweep_forgets_a_finished_round_without_a_send(app):
    service = positions(app)
    share(service)
    send(service, fixes(app)[:40])
    assert service.held(ROUND) > 0
    RoundLifeService(app.extensions["pace"].live).finish(ROUND, cmd.Author("committee", "desk"))
    assert service.held(ROUND) > 0  # nothing sent since: the sweep is what forgets them
    assert service.sweep() > 0
    assert service.held(ROUND) == 0


def test_a_sweep_forgets_a_round_whose_positions_were_turned_off(app):
    service = positions(app)
    share(service)
    send(service, fixes(app)[:40])
    app.extensions["pace"].live.service.set_positions(ROUND, False)
    service.sweep()
    assert service.held(ROUND) == 0


def test_the_service_refuses_to_hold_positions_longer_than_24_hours(app):
    live = app.extensions["pace"].live
    with pytest.raises(ValueError, match="at most 24 h"):
        pos.PositionService(live, keep=timedelta(hours=25))
    with pytest.raises(ValueError, match="more than 0"):
        pos.PositionService(live, keep=timedelta(0))

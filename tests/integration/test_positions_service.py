"""The positions' service on the live loop (issue 48; docs/positions.md "On the wire").

The app on a FakeClock over a real SQLite file, round R1 on Louiseville with the demo's map,
positions allowed. A group's tracker starts after the holes an official logged; two phones of
one group feed one tracker; a phone's rate bound frees up after its window; turning positions
off, stopping, or finishing the round forgets every fix held.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator

import pytest
from drivers import COURSE, DAY, DRAW, ROUND, TIMEZONE, local
from flask import Flask
from positioned import positions_app

from pace.app import close_app
from pace.clock import FakeClock
from pace.demo.phones import Phones, samples, walk
from pace.rules.positions import CourseShape
from pace.services import commands as cmd
from pace.services import positions as pos
from pace.services.commands import CommandError
from pace.services.geometry import round_geometry
from pace.services.life import RoundLifeService

TRUE = {1: "08:14", 2: "08:31", 3: "08:42"}


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = positions_app(tmp_path, FakeClock(local("09:00")))
    try:
        yield app
    finally:
        close_app(app)


def phone(n: int) -> cmd.Author:
    return cmd.Author("scorer", f"phone-{n}")


def fixes(app: Flask, until: str = "08:39") -> list[pos.Fix]:
    """Group 1's phone walking holes 1 and 2 (fixes on the server's clock)."""
    shape = CourseShape.of(round_geometry(app.extensions["pace"].live.service, ROUND))
    rng = random.Random(7)
    path = walk(shape, list(range(1, 19)), local("08:00"),
                {h: local(t) for h, t in TRUE.items()}, rng)  # fmt: skip
    model = Phones(gaps=0, long_gap_groups=0, wild_share=0.0, accuracy=(5.0, 12.0))
    got = samples(shape, path, rng, model, local("07:58"), local(until))
    return [pos.Fix(cmd.DeviceTime(s.at), s.lon, s.lat, s.accuracy) for s in got]


def share(service: pos.PositionService, n: int, on: bool = True, group: str = "1") -> str:
    c = pos.ShareConsent(str(uuid.uuid4()), ROUND, group, on, phone(n))
    return service.share(c).event.id


def send(service, n: int, batch: list[pos.Fix], group: str = "1") -> pos.Taken:
    return service.send(pos.SendPositions(ROUND, group, tuple(batch), phone(n)))


def completions(app: Flask) -> list[tuple[int, str]]:
    events = app.extensions["pace"].live.events(ROUND)
    return [(int(e.payload["hole"]), str(e.payload.get("source", "official")))
            for e in events if e.type == "hole_completed"]  # fmt: skip


def test_the_tracker_starts_after_the_holes_an_official_logged(app):
    parts = app.extensions["pace"]
    parts.taps.log_hole_completed(cmd.LogHoleCompleted(
        "11111111-1111-4111-8111-111111111111", ROUND, "1", 1, cmd.DeviceTime(local("08:14")),
        cmd.Author("marshal", "m1")))  # fmt: skip
    service = pos.PositionService(parts.live)
    share(service, 1)
    inferred = [i.event.payload["hole"] for k in range(0, 200, 40)
                for i in send(service, 1, fixes(app)[k : k + 40]).outcomes]  # fmt: skip
    assert inferred == [2]
    assert completions(app) == [(1, "official"), (2, "position")]


def test_two_phones_of_one_group_feed_one_tracker(app):
    service = pos.PositionService(app.extensions["pace"].live)
    share(service, 1)
    share(service, 2)
    walked = fixes(app)
    one, two = walked[0::2], walked[1::2]
    for k in range(0, len(one), 20):
        send(service, 1, one[k : k + 20])
        send(service, 2, two[k : k + 20])
    assert completions(app) == [(1, "position"), (2, "position")]


def test_a_phones_bound_frees_up_after_its_window(app):
    now = [0.0]
    service = pos.PositionService(app.extensions["pace"].live, rate_fixes=50,
                                  monotonic=lambda: now[0])  # fmt: skip
    share(service, 1)
    batch = fixes(app)[:40]
    send(service, 1, batch)
    with pytest.raises(CommandError) as refused:
        send(service, 1, batch[:11])
    assert refused.value.code == "too_many_fixes"
    now[0] += 61
    assert send(service, 1, batch[:11]).kept >= 0


def test_stopping_turning_off_and_finishing_forget_the_fixes(app):
    parts = app.extensions["pace"]
    service = pos.PositionService(parts.live)
    share(service, 1)
    send(service, 1, fixes(app, "08:10")[:30])
    assert service.held(ROUND) > 0
    share(service, 1, on=False)
    assert service.held(ROUND) == 0
    with pytest.raises(CommandError) as refused:
        send(service, 1, fixes(app, "08:10")[:5])
    assert refused.value.code == "no_consent"

    share(service, 2, group="2")
    send(service, 2, fixes(app, "08:10")[:30], group="2")
    assert service.held(ROUND) > 0
    parts.live.service.set_positions(ROUND, False)
    with pytest.raises(CommandError) as refused:
        send(service, 2, fixes(app, "08:10")[:5], group="2")
    assert refused.value.code == "positions_off"
    assert service.held(ROUND) == 0

    parts.live.service.set_positions(ROUND, True)
    send(service, 2, fixes(app, "08:10")[:30], group="2")
    assert service.held(ROUND) > 0
    RoundLifeService(parts.live).finish(ROUND, cmd.Author("committee", "desk"))
    with pytest.raises(CommandError) as refused:
        send(service, 2, fixes(app, "08:10")[:5], group="2")
    assert refused.value.code == "round_finished"
    assert service.held(ROUND) == 0


def test_a_batch_sent_again_with_its_id_is_taken_once(app):
    # the scorer's page resends a batch whose answer it did not get, with the same id
    # (static/queue.js): its fixes must not weigh twice in the group's evidence
    service = pos.PositionService(app.extensions["pace"].live)
    share(service, 1)
    batch = tuple(fixes(app, "08:10")[:20])
    batch_id = str(uuid.uuid4())
    first = service.send(pos.SendPositions(ROUND, "1", batch, phone(1), id=batch_id))
    held = service.held(ROUND)
    assert first.kept == 20 and not first.duplicate and held > 0
    again = service.send(pos.SendPositions(ROUND, "1", batch, phone(1), id=batch_id))
    assert again.duplicate and again.kept == first.kept and again.ack()["duplicate"] is True
    assert service.held(ROUND) == held
    # another phone's batch under the same id is its own
    share(service, 2)
    other = service.send(pos.SendPositions(ROUND, "1", batch[:5], phone(2), id=batch_id))
    assert not other.duplicate


def test_the_scorers_snapshot_says_whether_the_page_may_ask_for_positions(app, tmp_path):
    parts = app.extensions["pace"]
    assert parts.scores.snapshot(ROUND)["positions"] is True
    parts.live.service.set_positions(ROUND, False)
    assert parts.scores.snapshot(ROUND)["positions"] is False
    parts.live.service.set_positions(ROUND, True)
    RoundLifeService(parts.live).finish(ROUND, cmd.Author("committee", "desk"))
    assert parts.scores.snapshot(ROUND)["positions"] is False


def test_a_round_on_a_course_with_no_map_does_not_ask_for_positions(app):
    service = app.extensions["pace"].live.service
    text = COURSE.read_text(encoding="utf-8").replace(
        'name = "Golf de Louiseville"', 'name = "Golf sans carte"')  # fmt: skip
    service.import_course(text, "bare.toml")
    service.import_draw(DRAW.read_text(encoding="utf-8"), "draw.csv", round="R3", day=DAY,
                        timezone=TIMEZONE, course="Golf sans carte")  # fmt: skip
    service.set_positions("R3", True)
    assert app.extensions["pace"].scores.snapshot("R3")["positions"] is False

"""The demo's phones (issue 48, ``pace demo --actors phones``): who shares, what each phone
sends and when, and how a phone's queue drains when its instants have passed."""

from __future__ import annotations

import random
import threading
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from pace import formats
from pace.clock import AcceleratedClock
from pace.demo import cast as castmod
from pace.demo import data as demo_data
from pace.demo import geography
from pace.demo.actors import PhoneActor
from pace.demo.cast import Command
from pace.demo.play import plan_incidents, play_round
from pace.formats.geometry import parse_geometry
from pace.rules.model import RoundSetup
from pace.rules.position import plan_field
from pace.rules.positions import CourseShape

TZ = ZoneInfo("Europe/Brussels")
DAY = date(2026, 6, 14)


def phones(groups: int = 6, seed: int = 3) -> tuple[RoundSetup, list, tuple[castmod.Phone, ...]]:
    """The demo round's setup, its true completions and its phones, as ``pace demo --actors
    phones`` plans them."""
    rng = random.Random(seed)
    course = formats.parse_course(demo_data.course_toml(), "demo-course.toml")
    draw = formats.parse_draw(demo_data.draw_csv(groups, rng), "d.csv", day=DAY, tz=TZ,
                              course=course)  # fmt: skip
    setup = RoundSetup(course, tuple(draw))
    plan = plan_field(setup)
    pars = {h.number: h.par for h in course.holes}
    taps = play_round(plan, pars, rng, plan_incidents(plan, rng))
    shape = CourseShape.of(parse_geometry(geography.osm_xml(course).encode(), "d.osm", course))
    return setup, taps, castmod.plan_phones(shape, plan, taps, random.Random(f"{seed}/phones"))


def test_every_group_but_one_carries_a_phone_walking_its_whole_round():
    setup, taps, planned = phones()
    groups = {g.id for g in setup.groups}
    sharing = {p.group for p in planned}
    assert len(sharing) == len(groups) - 1 and sharing < groups
    assert len(planned) > len(sharing)  # a second phone in some group
    for p in planned:
        ats = [s.at for s in p.fixes]
        assert ats == sorted(ats) and len(ats) > 300, (p.group, len(ats))
        done = [t.at for t in taps if t.group == p.group]
        start = next(g.start for g in setup.groups if g.id == p.group)
        assert start - timedelta(minutes=2) <= ats[0] and ats[-1] >= max(done)


def test_a_phone_agrees_then_sends_every_fix_once_in_batches_then_stops():
    _, _, planned = phones()
    phone = planned[0]
    commands = castmod.phone_commands(phone, 3, TZ)
    first, *batches, last = commands
    assert first.event == "share_positions" and first.payload["share"] is True
    assert first.payload["group"] == phone.group and first.at == phone.fixes[0].at
    assert last.event == "share_positions" and last.payload["share"] is False
    assert last.payload["id"] != first.payload["id"] and last.at > batches[-1].at
    assert {c.event for c in batches} == {"send_positions"}
    assert {c.payload["consent_id"] for c in batches} == {first.payload["id"]}
    sent = [f for c in batches for f in c.payload["fixes"]]
    assert [datetime.fromisoformat(f["at"]) for f in sent] == [s.at for s in phone.fixes]
    assert all(set(f) == {"at", "lon", "lat", "accuracy"} for f in sent)
    for c in batches:
        ats = [datetime.fromisoformat(f["at"]) for f in c.payload["fixes"]]
        assert 1 <= len(ats) <= castmod.PHONE_BATCH
        # sent once the minute they were taken in is over, never before a fix was taken
        assert max(ats) <= c.at and c.at - min(ats) <= castmod.PHONE_SENDS_EVERY
    # the same seed, the same ids; another, others
    again = castmod.phone_commands(phone, 3, TZ)
    assert again == commands
    assert castmod.phone_commands(phone, 4, TZ)[0].payload["id"] != first.payload["id"]


def actor(commands: list[Command], clock: AcceleratedClock) -> PhoneActor:
    return PhoneActor("scorer", 1, "phone 1 of group 1", commands, code="X", round="demo",
                      join=("join_scores", {}), url="http://127.0.0.1:1", clock=clock, tz=TZ,
                      stop=threading.Event(), device="demo-phone-1")  # fmt: skip


def batch(at: datetime, n: int, consent: str = "c1") -> Command:
    fixes = [{"at": (at - timedelta(seconds=15 * k)).isoformat(), "lon": 4.61, "lat": 50.69,
              "accuracy": 8.0} for k in range(n)]  # fmt: skip
    return Command(at, "send_positions", {"group": "1", "consent_id": consent, "fixes": fixes})


def test_a_phone_behind_its_clock_drains_its_queue_in_messages_of_forty_fixes_at_most():
    now = datetime(2026, 6, 14, 10, 0, tzinfo=TZ)
    clock = AcceleratedClock(now, 1, monotonic=lambda: 0.0)
    minute = timedelta(minutes=1)
    queue = [batch(now - minute * (12 - k), 4) for k in range(12)]  # 48 fixes due
    queue += [batch(now + minute, 4)]  # not yet
    a = actor(queue, clock)
    command, taken = a._due(a.queue[0])
    assert taken == 10 and len(command.payload["fixes"]) == 40
    assert command.payload["fixes"] == [f for c in queue[:10] for f in c.payload["fixes"]]
    del a.queue[:taken]
    command, taken = a._due(a.queue[0])
    assert taken == 2 and len(command.payload["fixes"]) == 8  # the one to come waits
    # a consent, or another consent's batch, is never merged into a batch
    a = actor([batch(now - minute, 4), batch(now - minute, 4, consent="c2")], clock)
    assert a._due(a.queue[0])[1] == 1
    share = Command(now - minute, "share_positions", {"id": "c1", "group": "1", "share": True})
    a = actor([share, batch(now - minute, 4)], clock)
    assert a._due(a.queue[0]) == (share, 1)


def test_the_phone_counts_what_the_server_kept_and_discarded():
    now = datetime(2026, 6, 14, 10, 0, tzinfo=TZ)
    a = actor([], AcceleratedClock(now, 1, monotonic=lambda: 0.0))
    a._acked(batch(now, 5), {"ok": True, "kept": 4, "discarded": {"too_fast": 1},
                             "inferred": []})  # fmt: skip
    a._acked(batch(now, 3), {"ok": True, "kept": 1, "discarded": {"outside": 1, "off_time": 1},
                             "inferred": []})  # fmt: skip
    assert (a.fixes, a.discarded) == (5, 3)

"""The tick's leases in a real Redis (issue 15): one worker ticks a round, another takes over.

A lease that runs out is what Redis does with the key of a worker that stopped renewing it:
the tests delete the key (the expiry's effect) instead of waiting for it. The scheduler tests
run on the app of the shared fixtures (SQLite, FakeClock at 09:10 local) with two "workers"
in one process: two ``RoundLeases`` with their own ids on one Redis.
"""

from __future__ import annotations

import pytest
import redis
from drivers import ROUND, MarshalDriver, RefereeDriver, local, new_id

from pace.app import tick_announcer
from pace.cluster.leases import RoundLeases
from pace.rules.alerts import ALERT_RAISED
from pace.scheduler import PaceScheduler
from pace.services import commands as cmd

PREFIX = "pace:test:"


class Clock:
    """A worker's monotonic clock, moved by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def client(redis_url):
    c = redis.Redis.from_url(redis_url)
    yield c
    c.close()


def leases(client, worker: str, clock=None) -> RoundLeases:
    return RoundLeases(client, worker, 3.0, PREFIX, **({"clock": clock} if clock else {}))


def test_one_worker_holds_a_round_and_another_takes_it_when_the_lease_ends(client):
    a, b = leases(client, "worker-a"), leases(client, "worker-b")
    assert a.claim(["R1", "R2"]) == {"R1", "R2"}
    assert b.claim(["R1", "R2"]) == set()
    assert b.holder("R1") == "worker-a" and a.holder("R1") == "worker-a"
    assert a.claim(["R1", "R2"]) == {"R1", "R2"}  # renewed
    assert 0 < client.pttl(a.key("R1")) <= 3000

    client.delete(a.key("R1"))  # worker a stopped renewing: its lease ran out
    assert b.claim(["R1", "R2"]) == {"R1"}
    assert a.claim(["R1", "R2"]) == {"R2"} and not a.owns("R1")
    a.forget("R1")
    assert a.holder("R1") == "worker-b"


def test_a_clean_shutdown_hands_the_rounds_over_at_once(client):
    a, b = leases(client, "worker-a"), leases(client, "worker-b")
    a.claim(["R1"])
    a.release()
    assert client.get(a.key("R1")) is None
    assert b.claim(["R1"]) == {"R1"}
    a.release(["R1"])  # not its lease any more: left alone
    assert client.get(b.key("R1")) == b"worker-b"


def test_a_worker_that_cannot_renew_stops_counting_on_its_lease_when_it_would_expire(client):
    clock = Clock()
    a = leases(client, "worker-a", clock)
    assert a.claim(["R1"]) == {"R1"}
    clock.t += 2.9
    assert a.owns("R1")
    clock.t += 0.2  # past the lease: another worker may be ticking by now
    assert not a.owns("R1") and a.owned() == set()


def test_the_announced_mark_only_rises(client):
    a = leases(client, "worker-a")
    assert a.announced("R1") is None
    a.mark_announced("R1", 12)
    a.mark_announced("R1", 7)  # a late mark of an older position
    assert a.announced("R1") == 12
    a.mark_announced("R1", 30)
    assert a.announced("R1") == 30


def alert_keys(dashboard) -> list[str]:
    return [e["args"][0]["alert"]["key"] for e in dashboard.get_received()
            if e["name"] == "alert_raised"]  # fmt: skip


def test_the_worker_taking_a_round_over_announces_what_its_dead_holder_stored(
    app, client, connect, clock
):
    ext = app.extensions["pace"]
    dashboard = connect("committee", "dashboard-tablet")
    referee = RefereeDriver(dashboard, clock.now)
    referee.join()
    marshal = MarshalDriver(connect("marshal", "marshal-phone"), clock.now)
    a, b = leases(client, "worker-a"), leases(client, "worker-b")

    def scheduler(held: RoundLeases) -> PaceScheduler:
        s = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5, leases=held,
                          after_tick=tick_announcer(ext))  # fmt: skip
        s.in_play = [ROUND]
        return s

    first = scheduler(a)
    first.claim()
    dashboard.get_received()
    marshal.tap("1", 1, "08:40")  # its alerts are raised and announced with it (issue 13)
    first.tick(ROUND)  # the holder's tick: marked
    announced = alert_keys(dashboard)
    assert announced and a.announced(ROUND) == ext.store.last_seq(ROUND)

    clock.advance(minutes=40)  # 09:50: groups 2 and 3 tap late, each out of position
    for group, at in (("2", "09:15"), ("3", "09:45")):  # on worker a, which stores them and
        ext.taps.log_hole_completed(  # their alerts, and is killed before it announces them
            cmd.LogHoleCompleted(
                new_id(),
                ROUND,
                group,
                1,
                cmd.DeviceTime(local(at)),
                cmd.Author("marshal", "phone-on-a"),
            )  # fmt: skip
        )
    stored = [d.data for d in ext.live.tick(ROUND) if d.kind == "alert"]
    assert len(stored) >= 2
    referee.acknowledge(stored[-1]["key"])  # on another worker, which announces the ack
    dashboard.get_received()
    client.delete(a.key(ROUND))  # its lease runs out

    second = scheduler(b)
    second.claim()
    second.tick(ROUND)
    heard = alert_keys(dashboard)
    assert sorted(heard) == sorted(x["key"] for x in stored[:-1])  # the acknowledged one: no
    assert not set(heard) & set(announced)
    assert b.announced(ROUND) == ext.store.last_seq(ROUND)
    second.tick(ROUND)
    assert alert_keys(dashboard) == []
    raised = ext.store.events(ROUND, types=[ALERT_RAISED])
    assert len({e.payload["key"] for e in raised}) == len(raised)  # nothing raised twice


def test_a_worker_announcing_for_a_dead_holder_leaves_the_mark_to_the_one_taking_over(
    app, client, connect, clock, redis_url
):
    """Worker a ticks the round, stores a tick's alerts and dies before announcing them; a
    tap on worker b finds nobody to nudge and announces its own alerts. b must not move the
    announced mark past a's: the worker that takes the round over announces them, and not
    b's again."""
    from pace.cluster import Cluster
    from pace.web.derived import Derived

    ext = app.extensions["pace"]
    dashboard = connect("committee", "dashboard-tablet")
    RefereeDriver(dashboard, clock.now).join()
    marshal = MarshalDriver(connect("marshal", "marshal-phone"), clock.now)
    a = leases(client, "worker-a")
    worker_b = Cluster(redis_url, "test", lease_seconds=3.0)
    assert worker_b.prefix == PREFIX
    try:
        b = worker_b.leases

        def scheduler(held: RoundLeases) -> PaceScheduler:
            s = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5, leases=held,
                              after_tick=tick_announcer(ext))  # fmt: skip
            s.in_play = [ROUND]
            return s

        def late_tap(group: str, at: str, phone: str) -> None:
            author = cmd.Author("marshal", phone)
            at_ = cmd.DeviceTime(local(at))
            ext.taps.log_hole_completed(
                cmd.LogHoleCompleted(new_id(), ROUND, group, 1, at_, author)
            )

        first = scheduler(a)
        first.claim()
        marshal.tap("1", 1, "08:40")
        first.tick(ROUND)
        mark = a.announced(ROUND)
        assert mark == ext.store.last_seq(ROUND)

        clock.advance(minutes=40)  # 09:50: group 2 taps late on worker a, which stores
        late_tap("2", "09:15", "phone-on-a")  # its alerts and is killed before it announces them
        unheard = [d.data["key"] for d in ext.live.tick(ROUND) if d.kind == "alert"]
        assert unheard

        on_b = Derived(ext.live, lambda round: None, worker_b)
        # a still holds the lease but hears no nudge: b announces for itself
        assert worker_b.leases.holder(ROUND) == "worker-a" and on_b.here(ROUND)
        late_tap("3", "09:45", "phone-on-b")  # group 3 taps late on worker b
        own = [d.data["key"] for stage in on_b.stages(ROUND) for d in stage if d.kind == "alert"]
        assert own and not set(own) & set(unheard)  # b announced its own alerts, not a's
        assert b.announced(ROUND) == mark  # and left the mark where the holder put it

        dashboard.get_received()
        client.delete(a.key(ROUND))  # a's lease runs out: b takes the round over
        second = scheduler(b)
        second.claim()
        second.tick(ROUND)
        heard = alert_keys(dashboard)
        assert set(unheard) <= set(heard)  # what a stored and never announced reaches the pages
        assert not set(own) & set(heard)  # what b announced itself is not announced twice
        assert b.announced(ROUND) == ext.store.last_seq(ROUND)
    finally:
        worker_b.close()

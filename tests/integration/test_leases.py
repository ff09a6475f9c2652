"""The tick's leases in a real Redis (issue 15): one worker ticks a round, another takes over.

A lease that runs out is what Redis does with the key of a worker that stopped renewing it:
the tests delete the key (the expiry's effect) instead of waiting for it. The scheduler tests
run on the app of the shared fixtures (SQLite, FakeClock at 09:10 local) with two "workers"
in one process: two ``RoundLeases`` with their own ids on one Redis.
"""

from __future__ import annotations

from collections import Counter

import pytest
import redis
from drivers import ROUND, MarshalDriver, RefereeDriver, local, new_id

from pace.app import tick_announcer
from pace.cluster.leases import RoundLeases, assign
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


def stopped(client, worker: RoundLeases, *rounds: str) -> None:
    """``worker`` stopped beating and renewing: its beat and its leases of ``rounds`` ran out
    (what Redis's expiry does, without the wait)."""
    client.zrem(f"{PREFIX}workers", worker.worker)
    for round in rounds:
        client.delete(worker.key(round))


def test_one_worker_holds_a_round_and_another_takes_it_when_the_lease_ends(client):
    a, b = leases(client, "worker-a"), leases(client, "worker-b")
    assert a.claim(["R1", "R2"]) == {"R1", "R2"}
    assert b.claim(["R1", "R2"]) == set()
    assert b.holder("R1") == "worker-a" and a.holder("R1") == "worker-a"
    assert a.claim(["R1", "R2"]) == {"R1", "R2"}  # renewed
    assert 0 < client.pttl(a.key("R1")) <= 3000

    stopped(client, a, "R1")  # worker a stopped renewing: its beat and lease ran out
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
    stopped(client, a, ROUND)  # its lease runs out

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
        stopped(client, a, ROUND)  # a's lease runs out: b takes the round over
        second = scheduler(b)
        second.claim()
        second.tick(ROUND)
        heard = alert_keys(dashboard)
        assert set(unheard) <= set(heard)  # what a stored and never announced reaches the pages
        assert not set(own) & set(heard)  # what b announced itself is not announced twice
        assert b.announced(ROUND) == ext.store.last_seq(ROUND)
    finally:
        worker_b.close()


# -- the rounds shared out among the workers (issue 50) -----------------------------------------

ROUNDS = [f"club{c}-round{r}" for c in range(30) for r in (1, 2)]


def test_the_rounds_are_shared_out_among_the_workers_each_ticking_its_preferred_ones(client):
    clock = Clock()
    workers = [leases(client, f"worker-{n}", clock) for n in "abc"]
    for w in workers:
        w.beat()  # all three alive before any claims
    held = [w.claim(ROUNDS) for w in workers]
    chosen = assign(ROUNDS, [x.worker for x in workers])
    for w, mine in zip(workers, held, strict=True):
        assert mine == {r for r in ROUNDS if chosen[r] == w.worker}
        assert len(mine) == 20, [len(h) for h in held]  # its share: no more, so no less
    assert set().union(*held) == set(ROUNDS)
    assert sum(len(h) for h in held) == len(ROUNDS)  # none held twice
    for w, mine in zip(workers, held, strict=True):  # renewed, and nothing moves
        assert w.claim(ROUNDS) == mine
    assert {r: client.get(workers[0].key(r)).decode() for r in ROUNDS} == {
        r: w.worker for w, mine in zip(workers, held, strict=True) for r in mine
    }


def test_a_dead_workers_rounds_go_to_the_living_and_come_back_when_one_joins(client):
    clock = Clock()
    a, b, c = (leases(client, f"worker-{n}", clock) for n in "abc")
    for w in (a, b, c):
        w.beat()
    for w in (a, b, c):
        w.claim(ROUNDS)
    dead = c.owned()
    stopped(client, c, *dead)  # c is killed: its beat and its leases run out
    clock.t += 1
    after = a.claim(ROUNDS) | b.claim(ROUNDS)
    assert after == set(ROUNDS) and not a.owned() & b.owned()
    assert dead <= after

    d = leases(client, "worker-d", clock)  # c started again: a new worker
    assert d.claim(ROUNDS) == set()  # everything is held: it waits for its share
    alive = ["worker-a", "worker-b", "worker-d"]
    share = {r for r in ROUNDS if assign(ROUNDS, alive)[r] == "worker-d"}
    assert share
    a.claim(ROUNDS), b.claim(ROUNDS)
    assert a.owned() | b.owned() == set(ROUNDS)  # d is new: not handed over yet
    clock.t += 3.0  # d has beaten for a lease
    chosen = assign(ROUNDS, alive)
    for _ in range(3):  # each hands over what it holds over its share; d takes its own
        for w in (d, a, b):
            before = set(w.held)
            taken = w.claim(ROUNDS) - before
            assert all(chosen[r] == w.worker for r in taken)  # a worker takes only its own
    assert {r: w.worker for w in (a, b, d) for r in w.owned()} == chosen  # each its share
    assert sum(len(w.owned()) for w in (a, b, d)) == len(ROUNDS)
    for w in (a, b, d):  # and then nothing moves
        before = w.owned()
        assert w.claim(ROUNDS) == before


def test_a_worker_holding_no_more_than_its_share_keeps_its_rounds(client):
    clock = Clock()
    a = leases(client, "worker-a", clock)
    assert a.claim(["R1"]) == {"R1"}  # alone: it takes the round
    b = leases(client, "worker-b", clock)
    b.claim(["R1"])
    clock.t += 3.0
    b.claim(["R1"])
    assert a.claim(["R1"]) == {"R1"}  # one round, two workers: its share is one
    assert b.claim(["R1"]) == set()


def test_a_free_round_whose_preferred_worker_does_not_take_it_is_taken_after_a_lease(client):
    clock = Clock()
    a = leases(client, "worker-a", clock)
    stuck = leases(client, "worker-stuck", clock)
    stuck.beat()  # alive, but its scheduler never claims
    chosen = assign(ROUNDS, ["worker-a", "worker-stuck"])
    theirs = [r for r in ROUNDS if chosen[r] == stuck.worker]
    assert theirs
    assert a.claim(ROUNDS) == set(ROUNDS) - set(theirs)
    clock.t += 1.0
    stuck.beat()
    assert a.claim(ROUNDS) == set(ROUNDS) - set(theirs)  # free for a second only
    clock.t += 2.0
    stuck.beat()
    assert a.claim(ROUNDS) == set(ROUNDS)  # free for a lease: a takes them


def test_the_assignment_is_balanced_and_moves_little_when_a_worker_joins():
    three = assign(ROUNDS, ["w1", "w2", "w3"])
    assert sorted(Counter(three.values()).values()) == [20, 20, 20]
    assert assign(reversed(ROUNDS), ["w3", "w1", "w2"]) == three  # the lists' order: no matter
    two = assign(ROUNDS[:2], ["w1", "w2", "w3"])
    assert len(set(two.values())) == 2  # two rounds, three workers: two workers tick
    four = assign(ROUNDS, ["w1", "w2", "w3", "w4"])
    moved = [r for r in ROUNDS if four[r] != three[r]]
    assert sorted(Counter(four.values()).values()) == [15, 15, 15, 15]
    assert len(moved) < 30  # a quarter must move to w4; not every round


def test_a_clean_shutdown_says_the_worker_is_gone(client):
    a, b = leases(client, "worker-a"), leases(client, "worker-b")
    assert set(a.beat()) == {"worker-a"}
    assert set(b.beat()) == {"worker-a", "worker-b"}
    a.release()
    assert set(b.beat()) == {"worker-b"}


def test_a_worker_that_stops_beating_is_noted_as_vanished_once(client):
    a, b = leases(client, "worker-a"), leases(client, "worker-b")
    b.beat()
    a.beat()
    assert a.vanished == set()
    stopped(client, b)  # b dies: its beat runs out (before its leases, by half a renewal)
    a.beat()
    assert a.vanished == {"worker-b"}
    a.beat()
    assert a.vanished == set()  # noted once

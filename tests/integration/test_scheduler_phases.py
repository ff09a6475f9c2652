"""Each round ticks at its own phase, and the leases' renewal never waits behind the ticks
(issue 50): a worker ticking 33 rounds spreads them over the period instead of starting them
all at once, and says how late each tick ended (``pace_tick_due_seconds``)."""

from __future__ import annotations

import threading
import time
from collections import Counter

import redis

from pace.cluster.leases import RoundLeases
from pace.scheduler import PaceScheduler, due_after, due_before, phase

NAMES = [f"club{c}-saturday-{r}" for c in range(50) for r in (1, 2)]


def test_the_rounds_phases_spread_over_the_period():
    bins = Counter(int(phase(name, 5.0)) for name in NAMES)  # 100 rounds, 5 one-second bins
    assert sorted(bins) == [0, 1, 2, 3, 4]
    assert max(bins.values()) <= 35 and min(bins.values()) >= 8, bins
    assert phase("R1", 5.0) == phase("R1", 5.0)  # the same on every worker


def test_a_rounds_due_instants_are_its_phase_every_period():
    for name in NAMES[:10]:
        for now in (1_000_000.0, 1_000_003.7, 1_765_000_000.25):
            after, before = due_after(name, 5.0, now), due_before(name, 5.0, now)
            assert before <= now < after and after - before == 5.0
            periods = (after - phase(name, 5.0)) / 5.0  # a whole number of periods past its phase
            assert abs(periods - round(periods)) < 1e-9
    at = due_after("R1", 5.0, 1000.0)
    assert due_before("R1", 5.0, at) == at  # due now: it is the last due instant


def test_each_rounds_tick_job_starts_at_its_phase_and_ticks_once_at_once(app):
    ext = app.extensions["pace"]
    ticked, ended = threading.Event(), []
    now = time.time() + 60  # the scheduler's wall clock: none of the jobs comes due in the test
    job = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5,
                        ticked=lambda s: ticked.set(), due=ended.append,
                        wall=lambda: now)  # fmt: skip
    try:
        job.start()
        assert ticked.wait(timeout=30), "a round newly scheduled ticks at once"
        ticks = [j for j in job.scheduler.get_jobs() if j.id.startswith("tick:")]
        assert ticks, "the demo's round is in play"
        for j in ticks:
            name = j.id.removeprefix("tick:")
            assert abs(j.next_run_time.timestamp() - due_after(name, 5, now)) < 1e-5
            assert j.executor == "default" and j.misfire_grace_time == 5
        assert job.scheduler.get_job("supervisor").executor == "supervisor"
        name = ticks[0].id.removeprefix("tick:")
        job.tick_due(name)  # a scheduled tick: how long after its due instant it ended
        assert ended == [now - due_before(name, 5, now)] and 0 <= ended[0] < 5
    finally:
        job.shutdown()


def test_the_leases_are_renewed_in_an_executor_of_their_own(app, redis_url):
    ext = app.extensions["pace"]
    client = redis.Redis.from_url(redis_url)
    leases = RoundLeases(client, "worker-a", 3.0, "pace:test:")
    job = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5, leases=leases)
    try:
        job.start()
        renewal = job.scheduler.get_job("leases")
        assert renewal.executor == "leases" and renewal.misfire_grace_time == 1
    finally:
        job.shutdown()
        client.close()


def test_a_scheduled_tick_asked_while_the_last_one_runs_is_measured_when_it_ends(app):
    """The round's last tick still runs when its scheduled one comes: the running call ticks
    once more after it, and that tick's end is the one measured from the due instant."""
    ext = app.extensions["pace"]
    wall = [1_800_000_000.0]
    ended: list[float] = []
    job = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5, due=ended.append,
                        wall=lambda: wall[0])  # fmt: skip
    name = "R1"
    inside, go_on = threading.Event(), threading.Event()
    evaluate = job._evaluate

    def slow(round: str) -> None:
        if not inside.is_set():
            inside.set()
            go_on.wait(timeout=30)
        evaluate(round)

    job._evaluate = slow  # type: ignore[method-assign]
    first = threading.Thread(target=job.tick, args=(name,))
    first.start()
    assert inside.wait(timeout=30)
    job.tick_due(name)  # returns at once: the running call ticks it after its own
    assert ended == []
    wall[0] += 2.0  # the running tick takes two more seconds
    go_on.set()
    first.join(timeout=30)
    due = due_before(name, 5, 1_800_000_000.0)
    assert ended == [wall[0] - due]  # measured at the end of the tick it asked for


def test_a_worker_vanishing_makes_the_scheduler_claim_again_as_its_leases_run_out(
    app, redis_url
):
    ext = app.extensions["pace"]
    client = redis.Redis.from_url(redis_url)
    leases = RoundLeases(client, "worker-a", 3.0, "pace:test:")
    other = RoundLeases(client, "worker-b", 3.0, "pace:test:")
    job = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5, leases=leases)
    try:
        job.start()
        other.beat()
        job.claim()
        assert job.scheduler.get_job("leases-again") is None  # nobody vanished
        client.zrem("pace:test:workers", "worker-b")  # b's beat ran out: b is dead
        before = time.time()
        job.claim()
        again = job.scheduler.get_job("leases-again")
        assert again is not None and again.executor == "leases"
        # half a renewal (0.5 s) and a margin after: when b's leases have run out
        assert 0.5 <= again.next_run_time.timestamp() - before <= 0.7
    finally:
        job.shutdown()
        client.close()

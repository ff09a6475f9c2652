"""Stopping the scheduler while its supervisor runs never hangs the process.

APScheduler 3's ``shutdown(wait=True)`` holds its job stores' lock while it waits for the
running jobs; a supervision that then asks for the job list (to add or remove a round's tick)
would wait for that lock for ever, and the process would never stop. The test holds a
supervision inside its work until the shutdown has begun, then lets it go on.
"""

from __future__ import annotations

import threading

from apscheduler.schedulers.base import STATE_STOPPED

from pace.scheduler import PaceScheduler


def test_a_shutdown_during_a_supervision_ends(app):
    ext = app.extensions["pace"]
    job = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5)
    inside, go_on = threading.Event(), threading.Event()
    rounds_in_play = job.rounds_in_play

    def held() -> list[str]:
        found = rounds_in_play()
        assert found, "the round is in play: its tick job is added after this"
        inside.set()
        go_on.wait(timeout=30)
        return found

    job.rounds_in_play = held  # type: ignore[method-assign]
    job.start()
    assert inside.wait(timeout=30), "the supervisor runs at the start"
    stopper = threading.Thread(target=job.shutdown, daemon=True)
    stopper.start()
    # shutdown has begun once APScheduler says stopped (it then waits for the running jobs)
    for _ in range(3000):
        if job.scheduler.state == STATE_STOPPED:
            break
        stopper.join(timeout=0.01)
    assert job.scheduler.state == STATE_STOPPED
    go_on.set()
    stopper.join(timeout=30)
    assert not stopper.is_alive(), "the shutdown waited for ever on the supervision"
    # the supervision that went on after the shutdown began added no round's tick
    assert not any(j.id.startswith("tick:") for j in job.scheduler.get_jobs())

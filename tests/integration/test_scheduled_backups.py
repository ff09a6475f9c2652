"""Scheduled backups (issue 29, §4): ``backup.every_minutes`` writes a ``pace export round``
snapshot of each round in play to ``backup.folder``, its last ``backup.keep`` kept; ``pace
import round`` restores one, which judges the same; a writer killed with SIGKILL in the middle
of a snapshot leaves the previous one whole and no half file taken for a snapshot.

Round R1 (conftest) is played through the marshal's Socket.IO test client; the scheduler's
backup job runs as the scheduler runs it (``PaceScheduler.back_up``), over the real SQLite file
and a real folder.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from drivers import ROUND

from pace import config
from pace.app import close_app, create_app, snapshots
from pace.clock import FakeClock
from pace.scheduler import PaceScheduler
from pace.services import backup

CHILD = """
import os, signal, sys
from datetime import datetime, UTC
from pathlib import Path
from pace.services import backup

# a disk that stalls: the snapshot's first chunk is written, the next write never returns;
# the parent kills us once it sees the first chunk on disk
backup.CHUNK = 256
write = os.write
written = []
def stalled(fd, data):
    if written:
        signal.pause()
    written.append(len(data))
    return write(fd, data)
os.write = stalled
folder, round, source = sys.argv[1:4]
text = Path(source).read_text(encoding="utf-8")
backup.write_snapshot(Path(folder), round, text, at=datetime.now(UTC), keep=5)
"""


def pace(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pace", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)  # fmt: skip


def report_json(db: Path, cwd: Path) -> str:
    done = pace("report", "--round", ROUND, "--format", "json", "--progress", "none",
                "--db", str(db), cwd=cwd)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def job(app, tmp_path) -> PaceScheduler:
    """The serving process's scheduler with backups every minute to ``tmp_path/backups``,
    keeping 2 per round (not started: the test runs its job)."""
    ext = app.extensions["pace"]
    settings = ext.settings.replace(backup={"every_minutes": 1, "folder": str(tmp_path / "b"),
                                            "keep": 2})  # fmt: skip
    made = snapshots(dataclasses.replace(ext, settings=settings))
    return PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5, snapshots=made,
                         backup_minutes=settings.backup.every_minutes)  # fmt: skip


def test_each_round_in_play_is_snapshot_and_the_last_n_are_kept(app, job, marshal, tmp_path):
    folder = tmp_path / "b"
    ext = app.extensions["pace"]
    written = []
    for group, at in (("1", "08:13"), ("2", "08:24"), ("3", "08:33")):
        marshal.tap(group, 1, at)
        [path] = job.back_up()
        written.append(path)
    assert job.back_up() == []  # nothing happened since: not written again
    kept = backup.snapshots(folder, ROUND)
    assert kept == written[-2:]  # the last 2, oldest first; the first one removed
    assert not written[0].exists()
    assert kept[-1].read_text(encoding="utf-8") == backup.export_round(ext.live.service, ROUND)
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in kept)  # no temp
    assert oct(kept[-1].stat().st_mode & 0o777) == "0o600"  # the club's log: its owner's only


def test_a_restored_snapshot_judges_the_same(app, job, marshal, referee, tmp_path):
    for group, at in (("1", "08:13"), ("2", "08:24"), ("1", "08:29")):
        marshal.tap(group, 1 if at != "08:29" else 2, at)
    referee.decide("1", at="09:00")
    referee.stroke("1", "Marie Lavoie", 2, "09:01:00", "09:01:58")
    [snapshot] = job.back_up()
    restored = tmp_path / "restored.db"
    done = pace("import", "round", str(snapshot), "--db", str(restored), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"round {ROUND!r} restored:" in done.stdout
    original = Path(app.extensions["pace"].store.location)
    judged = report_json(original, tmp_path)
    assert '"faults"' in judged
    assert report_json(restored, tmp_path) == judged
    again = pace("export", "round", ROUND, "--db", str(restored), cwd=tmp_path).stdout
    assert again == snapshot.read_text(encoding="utf-8")


def test_a_writer_killed_mid_snapshot_leaves_the_previous_one_whole(app, job, marshal, tmp_path):
    folder = tmp_path / "b"
    ext = app.extensions["pace"]
    marshal.tap("1", 1, "08:13")
    [previous] = job.back_up()
    before = previous.read_bytes()
    for group, at in (("2", "08:24"), ("3", "08:33"), ("4", "08:43")):
        marshal.tap(group, 1, at)
    source = tmp_path / "now.pace.jsonl"
    source.write_text(backup.export_round(ext.live.service, ROUND), encoding="utf-8")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder), ROUND, str(source)])
    temporary = None
    deadline = time.monotonic() + 60
    while temporary is None and time.monotonic() < deadline and child.poll() is None:
        begun = [p for p in folder.glob(".*.tmp") if p.stat().st_size > 0]
        if begun:
            temporary = begun[0]
        else:
            try:
                child.wait(timeout=0.005)
            except subprocess.TimeoutExpired:
                pass
    assert temporary is not None, "the writer began its snapshot"
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    assert 0 < temporary.stat().st_size < source.stat().st_size  # killed half way

    # the previous snapshot is the only one, whole, and restores
    assert backup.snapshots(folder, ROUND) == [previous]
    assert previous.read_bytes() == before
    done = pace("import", "round", str(previous), "--db", str(tmp_path / "r.db"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # the next snapshot is whole, and clears what a killed writer left once it is stale
    old = time.time() - backup.STALE_SECONDS - 1
    os.utime(temporary, (old, old))
    [latest] = job.back_up()
    assert latest.read_bytes() == source.read_bytes()
    assert not temporary.exists()
    assert backup.snapshots(folder, ROUND) == [previous, latest]


def test_the_scheduler_runs_the_backup_job_only_when_configured(settings, clock, tmp_path):
    on = settings.replace(backup={"every_minutes": 5, "folder": str(tmp_path / "b")},
                          scheduler={"enabled": True})  # fmt: skip
    # the day after the round's: the scheduler starts with no round to tick, only its jobs
    app = create_app(on, clock=FakeClock(clock.now() + timedelta(days=1)), testing=True)
    try:
        ext = app.extensions["pace"]
        readings: list[float] = []
        supervised = threading.Event()

        def monotonic() -> float:  # read at the start, then at the end of each supervision
            readings.append(time.monotonic())
            if len(readings) > 1:
                supervised.set()
            return readings[-1]

        job = PaceScheduler(
            ext.live, ext.broadcaster, tick_seconds=5, snapshots=snapshots(ext),
            backup_minutes=on.backup.every_minutes, monotonic=monotonic,
        )  # fmt: skip
        job.start()
        try:
            # (APScheduler's shutdown holds its job stores' lock while it waits for the running
            # jobs: a supervision still reading the jobs then would never end)
            assert supervised.wait(timeout=30), "the supervisor ran at the start"
            backups = job.scheduler.get_job("backup")
            assert backups is not None and backups.trigger.interval.total_seconds() == 300
        finally:
            job.shutdown()
    finally:
        close_app(app)
    assert snapshots(ext) is not None
    off = dataclasses.replace(ext, settings=config.Settings())  # every_minutes = 0
    assert snapshots(off) is None

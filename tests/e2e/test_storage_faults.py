"""A database that cannot be written (a backup's lock, a full disk) refuses, and recovers.

Issue 9.

A real ``pace serve``; the test's own SQLite connection takes the file's write lock, as a
backup tool does. A tap sent meanwhile is refused with ``storage_unavailable`` (after the
store's busy timeout), never acked, while reads still answer; once the lock is released the
phone's resend of the same id lands, once.
"""

from __future__ import annotations

import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import socketio
from livesupport import TIMEZONE, live_server, setup_round

pytestmark = pytest.mark.e2e


def test_a_tap_while_a_backup_holds_the_lock_is_refused_then_lands_once(tmp_path):
    noon = datetime.now(ZoneInfo(TIMEZONE)).replace(hour=12, minute=0, second=0, microsecond=0)
    with live_server(tmp_path, extra_args=["--clock-origin", noon.isoformat()]) as server:
        client = socketio.SimpleClient()
        client.connect(server.url, auth={"token": server.token("marshal"), "device": "phone"},
                       transports=["websocket"])  # fmt: skip
        tap = {"id": str(uuid.uuid4()), "round": server.round, "group": "2", "hole": 1,
               "at": noon.replace(hour=8, minute=30).isoformat(),
               "device_time": noon.isoformat()}  # fmt: skip
        server.token("committee")  # (its code is made now: the CLI would wait for the lock)
        backup = sqlite3.connect(server.db, isolation_level=None, timeout=0)
        try:
            backup.execute("BEGIN IMMEDIATE")  # the write lock, held as a backup would
            answer = client.call("hole_completed", tap, timeout=30)
            assert answer["ok"] is False, answer
            assert answer["error"]["code"] == "storage_unavailable", answer
            events = server.get_json(f"/api/rounds/{server.round}/events")
            assert events["ok"] and tap["id"] not in {e["id"] for e in events["events"]}
        finally:
            backup.execute("ROLLBACK")
            backup.close()
        landed = client.call("hole_completed", tap, timeout=30)
        assert landed["ok"] is True and landed["duplicate"] is False, landed
        assert client.call("hole_completed", tap, timeout=30)["duplicate"] is True
        events = server.get_json(f"/api/rounds/{server.round}/events")["events"]
        assert [e["id"] for e in events].count(tap["id"]) == 1
        client.disconnect()
        log = server.log.read_text()
        assert "Traceback" not in log and "cannot be written now (SQLITE_BUSY" in log


@contextmanager
def small_filesystem(folder: Path, size: str) -> Iterator[Path]:
    """Mount a real filesystem of ``size`` (tmpfs) at ``folder``; skip where mounting is denied."""
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_tap_on_a_full_disk_is_refused_then_lands_once_space_is_freed(tmp_path):
    noon = datetime.now(ZoneInfo(TIMEZONE)).replace(hour=12, minute=0, second=0, microsecond=0)
    with small_filesystem(tmp_path / "disk", "4m") as disk:
        db = setup_round(disk)
        clock = ["--clock-origin", noon.isoformat()]
        with live_server(tmp_path, db=db, extra_args=clock) as server:
            client = socketio.SimpleClient()
            client.connect(server.url, auth={"token": server.token("marshal"), "device": "phone"},
                           transports=["websocket"])  # fmt: skip
            server.token("committee")  # codes are made now, while the disk can be written

            def tap(group: str) -> dict:
                return {"id": str(uuid.uuid4()), "round": server.round, "group": group,
                        "hole": 1, "at": noon.replace(hour=8, minute=30).isoformat(),
                        "device_time": noon.isoformat()}  # fmt: skip

            def stored() -> list[str]:
                events = server.get_json(f"/api/rounds/{server.round}/events")
                assert events["ok"], events  # reads are still served
                return [e["id"] for e in events["events"]]

            # the disk fills up (another program's file): refused, not acked, nothing stored
            full, ballast = tap("2"), disk / "ballast"
            with ballast.open("wb") as out:
                try:
                    while True:
                        out.write(b"\0" * 65536)
                        out.flush()
                except OSError:
                    pass
            answer = client.call("hole_completed", full, timeout=30)
            assert answer["ok"] is False, answer
            assert answer["error"]["code"] == "storage_unavailable", answer
            assert full["id"] not in stored()
            ballast.unlink()
            landed = client.call("hole_completed", full, timeout=30)
            assert landed["ok"] is True and landed["duplicate"] is False, landed

            assert client.call("hole_completed", full, timeout=30)["duplicate"] is True
            assert stored().count(full["id"]) == 1
            client.disconnect()
            assert "Traceback" not in server.log.read_text()

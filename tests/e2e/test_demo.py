"""``pace demo`` end to end: the real command, its server and its simulated marshals (issue 4)."""

from __future__ import annotations

import subprocess
import time

import pytest
from livesupport import start_demo

ROUND = "demo"


@pytest.mark.e2e
def test_demo_groups_move_fall_out_of_position_and_raise_alerts(tmp_path):
    demo = start_demo(
        tmp_path, "--duration", "40", "--speed", "120", "--tick", "0.3", "--actors", "marshals"
    )
    group_counts: list[int] = []
    taps: list[int] = []
    out_of_position: set[str] = set()
    alerts: list[dict] = []
    marshals: set[str] = set()
    try:
        deadline = time.monotonic() + 45
        while time.monotonic() < deadline and demo.process.poll() is None:
            status = demo.get_json(f"/api/rounds/{ROUND}/status")
            events = demo.get_json(f"/api/rounds/{ROUND}/events")["events"]
            group_counts.append(len(status["groups"]))
            out_of_position |= {
                g["group"] for g in status["groups"] if g["status"] == "out_of_position"
            }
            completed = [e for e in events if e["type"] == "hole_completed"]
            taps.append(len(completed))
            marshals |= {e["by"]["device"] for e in completed}
            alerts = [e for e in events if e["type"] == "alert_raised"]
            if out_of_position and alerts and len(set(taps)) >= 3:
                break
            try:  # a bounded poll: the demo's clock runs on its own; stop if it exits
                demo.process.wait(timeout=0.3)
            except subprocess.TimeoutExpired:
                pass
        running = demo.process.poll() is None
    finally:
        demo.process.terminate()
        try:
            code = demo.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            demo.process.kill()
            code = demo.process.wait(timeout=10)
    log = demo.log.read_text()

    assert running, f"the demo stopped before the checks were met:\n{log}"
    assert code == 0, log
    assert "Traceback" not in log, log
    assert "/rounds/demo/dashboard" in log
    assert min(group_counts) >= 30
    assert len(set(taps)) >= 3 and taps == sorted(taps), f"no completions arriving: {taps}"
    assert len(marshals) >= 2, marshals
    assert out_of_position, "no group was ever out of position"
    assert {a["payload"]["kind"] for a in alerts} & {"out_of_position", "overdue"}, alerts

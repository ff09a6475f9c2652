"""``pace demo --actors groups``: a round with no marshal, its scorers reporting (issue 39).

Six groups at 900× speed: each group's scorer reports its holes 0–3 minutes after holing out,
a fifth of the groups in batches of two or three. No marshal taps anything, yet the third
group, slow on the holes just after the demo's clock starts (a lost ball), is found out of
position on its scorer's reports, and its alert says it rests on the group's own report.
"""

from __future__ import annotations

import subprocess
import time

import pytest
from livesupport import start_demo

pytestmark = pytest.mark.e2e

ROUND = "demo"
ARGS = ("--actors", "groups", "--groups", "6", "--seed", "3", "--speed", "900",
        "--tick", "0.3", "--duration", "80")  # fmt: skip


def test_the_scorers_alone_find_the_slow_group(tmp_path):
    demo = start_demo(tmp_path, *ARGS, name="groups")
    try:
        deadline = time.monotonic() + 75
        while "the round is over" not in demo.log.read_text():
            assert demo.process.poll() is None, demo.log.read_text()
            assert time.monotonic() < deadline, demo.log.read_text()
            try:  # a bounded poll: the demo plays on its own clock
                demo.process.wait(timeout=0.3)
            except subprocess.TimeoutExpired:
                pass
        events = demo.get_json(f"/api/rounds/{ROUND}/events")["events"]
    finally:
        demo.process.terminate()
        demo.process.wait(timeout=15)
    log = demo.log.read_text()
    assert "Traceback" not in log and "refused" not in log, log
    completions = [e for e in events if e["type"] == "hole_completed"]
    assert len(completions) == 6 * 18
    assert {e["payload"].get("source") for e in completions} == {"group"}
    assert {e["by"]["role"] for e in completions} == {"scorer"}
    alerts = [e["payload"] for e in events if e["type"] == "alert_raised"]
    slow = [a for a in alerts if a["kind"] == "out_of_position" and a["group"] == "3"]
    assert slow, [(a["kind"], a["group"]) for a in alerts]
    assert all(a.get("reported_by_group") for a in slow), slow
    assert "groups' reports" in log

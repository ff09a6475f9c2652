"""``bench/bench_latency.py --positions N`` (issue 48): the groups' phones load pace during the
measured run, switched on and off, and the bench prints the tap's row p99 with and without them.

A tiny run (4 groups at ×1200, 12 phones switched every 2 s) checks the bench does what it
says: both bins hold taps, every phone's message is acked and its fix kept (the walks are on
the course's map, on pace's clock), nothing refused, and the verdict against the target is
printed. The figure itself is the bench's to measure, run alone (docs/positions.md).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "bench_latency.py"


def test_the_bench_measures_the_taps_with_and_without_the_phones_sending(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--groups", "4", "--speed", "1200", "--positions", "12",
         "--spell", "2", "--marshals", "2", "--dashboards", "2", "--warmup", "4"],
        cwd=tmp_path, capture_output=True, text=True, timeout=240,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "connected 12 phones (each agreed to share its group's position)" in out, out
    measured = re.search(r"switched on and off every 2 s: (\d+) taps measured with them, (\d+) "
                         r"without", out)  # fmt: skip
    assert measured, out
    with_phones, without = map(int, measured.groups())
    assert with_phones > 0 and without > 0 and with_phones + without == 4 * 18 - 4, out
    assert re.search(r"row: tap → every dashboard, p99 +\d+\.\d+ +\d+\.\d+ +\d+\.\d+", out), out
    assert re.search(r"target ≤ 10 % added to the row's p99: (MET|MISSED) \(", out), out
    phones = re.search(
        r"phones: (\d+) messages sent, (\d+) acked .* fixes kept (\d+), discarded (\S+), "
        r"completions inferred \d+, refused (\S+)",
        out,
    )
    assert phones, out
    sent, acked, kept, discarded, refused = phones.groups()
    assert int(sent) > 0 and sent == acked == kept, out
    assert discarded == "0" and refused == "0", out

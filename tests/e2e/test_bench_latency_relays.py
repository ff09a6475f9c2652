"""``bench/bench_latency.py`` against both relays (issue 50): the bare relay, the floor (a tap
acked and re-emitted to the dashboards, nothing to the marshals), beside the forwarding one.

A tiny run (4 groups at ×1200, 2 marshals and 2 dashboards per server) checks the bench does
what it says: three servers measured, every tap shown on every dashboard of each, pace's row
and alert p99 printed with its ratio to each relay, the verdicts against issue 50's target
(≤ 1.5× the bare relay) and issue 37's, and the bare relay's marshals hearing nothing. The
figures themselves are the bench's to measure, run alone (docs/performance.md).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "bench_latency.py"
NUMBER = r"(\d+\.\d+)"


def run_bench(tmp_path: Path, *extra: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--groups", "4", "--speed", "1200", "--marshals", "2",
         "--dashboards", "2", "--warmup", "4", "--json", *extra],
        cwd=tmp_path, capture_output=True, text=True, timeout=240,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    return out


def test_the_bench_measures_pace_against_the_bare_and_the_forwarding_relay(tmp_path):
    out = run_bench(tmp_path)
    assert "connected 12 clients" in out, out
    assert re.search(r"\(ms\) +pace +forward +bare +÷forward +÷bare", out), out
    for what in ("row", "alert"):
        line = re.search(rf"{what}: tap → every dashboard, p99" + rf" +{NUMBER}" * 5, out)
        assert line, out
        pace, forward, bare, to_forward, to_bare = map(float, line.groups())
        assert pace > 0 and forward > 0 and bare > 0, out
        assert to_bare == pytest.approx(pace / bare, rel=0.02), out
        assert to_forward == pytest.approx(pace / forward, rel=0.02), out
        verdict = (rf"{what} p99 ≤ 1\.5× bare relay \(issue 50\): (MET|MISSED) \(pace {NUMBER}"
                   rf" ms, {NUMBER}× bare relay's {NUMBER} ms\)")  # fmt: skip
        assert re.search(verdict, out), out
    assert re.search(r"issue 50's target \(row and alert p99 ≤ 1\.5× the bare relay\): "
                     r"(MET|MISSED)", out), out  # fmt: skip
    assert re.search(r"target row p99 ≤ 1\.5× forward relay and p50 ≤ 2× \(issue 37\): "
                     r"(MET|MISSED)", out), out  # fmt: skip
    # every tap of the round, measured once each, is an alert of each relay
    assert "forward relay 72, bare relay 72" in out, out
    # the floor sends the marshals nothing; the forwarding relay a row per tap to each
    assert "bare: snapshot reads per dashboard after joining 0.0; events per marshal {}" in out
    assert "forward: snapshot reads per dashboard after joining 0.0; events per marshal" \
        " {'group_updated': 72}" in out, out  # fmt: skip
    figures = json.loads(out.strip().splitlines()[-1])
    assert set(figures["row: tap → every dashboard, p99"]) == {"pace_ms", "forward_ms", "bare_ms"}
    # the first dashboard holds a tap's row no later than the last one
    for q in ("p50", "p99"):
        first = figures[f"row: tap → first dashboard, {q}"]
        every = figures[f"row: tap → every dashboard, {q}"]
        assert all(0 < first[s] <= every[s] for s in every), (first, every)


def test_the_bench_measures_pace_against_the_bare_relay_alone(tmp_path):
    out = run_bench(tmp_path, "--relay", "bare")
    assert "connected 8 clients" in out, out
    assert re.search(r"\(ms\) +pace +bare +÷bare\n", out), out
    assert re.search(r"issue 50's target .*: (MET|MISSED)", out), out
    assert "issue 37" not in out, out

"""``bench/bench_latency.py`` against both relays (issue 50): the bare relay, the floor (a tap
acked and re-emitted to the dashboards, nothing to the marshals), beside the forwarding one.

A tiny run (4 groups at ×1200, 2 marshals and 2 dashboards per server) checks the bench does
what it says: three servers measured, every tap shown on every dashboard of each, pace's row
and alert p99 printed with its ratio to each relay, the verdicts against issue 50's target
(≤ 1.5× the bare relay) and issue 37's, and the bare relay's marshals hearing nothing; the
durable relay committing every tap once before it shows it; with ``--spans``, pace's steps
timed in the served process and each tap's share of them printed, and every server's rows split
at its writes (with ``--pin``, the servers and the clients on cores of their own). The figures
themselves are the bench's to measure, run alone (docs/performance.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def bench_module(name: str) -> Any:
    """Return the module ``bench/<name>.py``."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", SCRIPT.with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


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


def test_the_durable_relay_keeps_each_tap_before_it_shows_it(tmp_path):
    out = run_bench(tmp_path, "--relay", "bare,durable")
    assert "connected 12 clients" in out, out
    assert re.search(r"\(ms\) +pace +bare +durable +÷bare +÷durable\n", out), out
    # every tap of the round committed once to the relay's file, and shown on every dashboard
    assert "the durable relay committed 72 taps (72 sent to it)" in out, out
    assert "bare relay 72, durable relay 72" in out, out
    ratios = re.search(rf"pace against it: row p99 {NUMBER}×, alert p99 {NUMBER}×, row p50"
                       rf" {NUMBER}×", out)  # fmt: skip
    assert ratios and all(float(x) > 0 for x in ratios.groups()), out
    line = re.search(r"row: tap → every dashboard, p99" + rf" +{NUMBER}" * 5, out)
    assert line, out
    pace, _, durable, _, to_durable = map(float, line.groups())
    assert to_durable == pytest.approx(pace / durable, rel=0.02), out
    # the issue-50 verdicts stay the bare relay's
    assert re.search(r"issue 50's target .*: (MET|MISSED)", out), out
    assert "durable: snapshot reads per dashboard after joining 0.0; events per marshal {}" in out


def test_the_relays_are_named_once_each(monkeypatch):
    # the bench sets PYTHONPATH for its children when imported: put it back after the test
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    bench = bench_module("bench_latency")
    assert bench.relay_kinds("both") == ["forward", "bare"]
    assert bench.relay_kinds("bare, durable") == ["bare", "durable"]
    for wrong in ("bare,bare", "echo", "", "bare,"):
        with pytest.raises(argparse.ArgumentTypeError):
            bench.relay_kinds(wrong)


def test_the_bench_says_where_paces_time_goes_in_each_tap(tmp_path):
    kept = tmp_path / "spans.json"
    pinned = ("--pin",) if len(os.sched_getaffinity(0)) >= 2 else ()
    out = run_bench(tmp_path, "--relay", "bare", "--spans", str(kept), *pinned)
    calls = json.loads(kept.read_text(encoding="utf-8"))
    spans = bench_module("spans")
    # pace ran under the launcher: every step of a tap was timed, once per tap at least
    # (72 taps of the round; the sessions and the joins add their own events)
    for label in ("session look-up", "tap checked, stored, folded", "tapped row judged",
                  "a stage sent (the first)", "the whole event, to its ack"):  # fmt: skip
        assert len(calls[label]) >= 72, (label, len(calls[label]))
        assert all(0 <= d < 5 for _, d in calls[label]), label
    assert len(calls["  of which stored (commit, fsync)"]) >= 72
    table = out[out.index("where pace's time goes") :]
    figures = {}
    for label in ("row: tap → every dashboard", "tap checked, stored, folded",
                  "  of which stored (commit, fsync)", "before the first stage's send",
                  "first stage sent → every dashboard"):  # fmt: skip
        line = re.search(re.escape(label) + rf" +{NUMBER}" * 4, table)
        assert line, (label, table)
        figures[label] = [float(x) for x in line.groups()]
    row = figures["row: tap → every dashboard"][0]
    checked = figures["tap checked, stored, folded"][0]
    stored = figures["  of which stored (commit, fsync)"][0]
    # the parts lie inside the whole: the commit inside the tap's checking, both before the
    # first stage's send, which comes before every dashboard holds the row
    assert 0 < stored <= checked <= figures["before the first stage's send"][0] < row, table
    assert figures["first stage sent → every dashboard"][0] > 0, table
    assert re.search(r"during a scheduler tick: \d+ of 68 ", table), table
    assert re.search(r"still ran an earlier event: \d+ of 68 ", table), table
    assert spans.STEPS[0][0] == "session look-up"
    # the servers' frames: each tap's row in three parts, for pace and the relay alike
    way = out[out.index("the row's way, server and clients") :]
    assert re.search(r"pace p50 +pace p99 +bare p50 +bare p99", way), way
    parts = {}
    for label in ("tap → the server's first write of its row",
                  "first write → last dashboard's write",
                  "last write → every dashboard holds it"):  # fmt: skip
        line = re.search(re.escape(label) + rf" +{NUMBER}" * 4, way)
        assert line, (label, way)
        parts[label] = [float(x) for x in line.groups()]
        assert all(x >= 0 for x in parts[label]), way
    # pace writes a tap's row after its work on it: after the relay, before its row is held
    assert 0 < parts["tap → the server's first write of its row"][0] < row, way
    assert "taps whose row's writes were found: pace 68 of 68, bare 68 of 68" in way, way
    assert (tmp_path / "spans.json.frames").exists()
    if pinned:
        cores = re.search(r"--pin: the servers on cores \[([\d, ]+)\], the clients on"
                          r" \[([\d, ]+)\]", out)  # fmt: skip
        assert cores, out
        servers, clients = ({int(c) for c in g.split(",")} for g in cores.groups())
        assert servers and clients and not servers & clients, out


def test_a_taps_row_is_split_at_the_servers_writes_of_the_frame_that_carries_it():
    spans = bench_module("spans")
    a, b = "1b4e28ba-2fa1-11d2-883f-0016d3cca427", "6fa459ea-ee8a-3ca4-894e-db77e160355e"
    texts = [
        f'42["group_updated",{{"holes":{{"1":{{"id":"{a}"}}}}}}]',
        f'42["alert_raised",{{"alert":{{"id":"{b}"}}}}]',
        f'42["group_updated",{{"holes":{{"1":{{"id":"{a}"}},"2":{{"id":"{b}"}}}}}}]',
    ]
    ids = [spans.carried(t) for t in texts]
    assert ids == [[a], [], [a, b]]  # an alert's ids are not taps shown
    frames = {
        "sends": [
            [10.004, 10.0041, 0],
            [10.0045, 10.0046, 0],
            [10.005, 10.0052, 0],  # a's row x3
            [20.001, 20.0011, 1],  # an alert, written first
            [20.002, 20.0021, 2],
            [20.003, 20.0032, 2],
        ],
        "ids": ids,
    }
    # two dashboards: the third write of a's row is a marshal's, after the dashboards'
    got = spans.fan_out(frames, [(a, 10.0, 0.008), (b, 20.0, 0.006)], 2)
    assert got["before"] == pytest.approx([0.004, 0.002])
    assert got["server"] == pytest.approx([0.0006, 0.0012])
    assert got["clients"] == pytest.approx([0.0034, 0.0028])
    # the parts of each tap add up to its row's latency
    for i, row in enumerate((0.008, 0.006)):
        assert sum(got[k][i] for k in got) == pytest.approx(row)
    # a frame written to fewer dashboards than there are, while the row was on its way: none
    assert spans.fan_out(frames, [(a, 10.0, 0.0046)], 2)["before"] == pytest.approx([0.004])
    assert spans.fan_out(frames, [(a, 10.0, 0.0044)], 2)["before"] == []


def test_the_spans_of_a_tap_are_the_calls_made_while_its_row_was_on_its_way():
    spans = bench_module("spans")
    calls = {
        "session look-up": [[10.001, 0.0002], [20.001, 0.0003], [30.5, 0.1]],
        "log read and folded (every look)": [[10.002, 0.0001], [10.004, 0.0002]],
        "a stage sent (the first)": [[10.005, 0.003], [10.009, 0.002], [20.004, 0.002]],
        "scheduler tick": [[19.99, 0.0115]],
        # an event that began before the second tap and was still running when it was sent
        "the whole event, to its ack": [[9.0, 0.5], [19.995, 0.02]],
    }
    taps = [(10.0, 0.010), (20.0, 0.008)]
    got = spans.attribute(calls, taps)
    assert got["behind an earlier event"] == [0.0, 1.0]
    assert got["session look-up"] == pytest.approx([0.0002, 0.0003])
    # every call of a step in the tap's window is added up...
    assert got["log read and folded (every look)"] == pytest.approx([0.0003, 0.0])
    # ...but the first stage's send is the first one only
    assert got["a stage sent (the first)"] == pytest.approx([0.003, 0.002])
    assert got["before the first stage's send"] == pytest.approx([0.005, 0.004])
    assert got["first stage sent → every dashboard"] == pytest.approx([0.005, 0.004])
    # the second tap was on its way while the scheduler ticked (19.99 to 20.0015)
    assert got["during a tick"] == [0.0, 1.0]
    assert got["tap checked, stored, folded"] == [0.0, 0.0]  # no call: nothing

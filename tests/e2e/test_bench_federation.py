"""A federation's Saturday, tiny (issue 50, item 5): ``bench/bench_federation.py`` at 2 clubs.

Runs the bench at 2 clubs of 1 round of 6-8 three-balls on three ``pace serve`` workers, one
PostgreSQL and one Redis (the bench starts its own: ``tests/engines.py``), for 15 s of taps on
a clock 40 times real time, with a 2 s lease (as ``test_cluster.py``), and reads its figures
back: every tap acked and stored exactly once and nothing else, every score stored, no alert
raised twice, the killed worker (the one holding the most rounds' leases) had rounds and a
living worker held every one of them again within 5 s, and no worker logged a traceback.

Its speed figures (the rows' latencies, the CPU per tap, the ticks over their budget) are the
bench's to measure on a machine of its own (docs/performance.md, "A federation's Saturday"):
here the three workers, PostgreSQL and Redis share two cores with the other test worker.

The rounds' ticks are spread over the workers (``pace/cluster/leases.py``, ``assign``: two
rounds, three workers, so two workers tick one each before the kill).

The test is skipped, saying why, only when PostgreSQL or Redis cannot start here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import engines
import pytest

pytestmark = pytest.mark.e2e

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "bench_federation.py"


@pytest.fixture(scope="module")
def saturday() -> dict[str, Any]:
    for start in (engines.start_postgres, engines.start_redis):
        try:
            start().stop()
        except engines.EngineUnavailable as e:
            pytest.skip(f"the engines cannot start here: {e}")
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--clubs",
            "2",
            "--rounds-per-club",
            "1",
            "--groups",
            "6-8",
            "--seconds",
            "15",
            "--speed",
            "40",
            "--lease",
            "2",
            "--score-every",
            "3",
            "--no-baseline",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode in (0, 1), result.stderr[-3000:]
    runs = json.loads(result.stdout.strip().splitlines()[-1])["runs"]
    assert len(runs) == 1, runs
    print("federation bench:", json.dumps(runs[0]))
    return runs[0]


def test_nothing_lost_or_doubled(saturday: dict[str, Any]) -> None:
    f = saturday
    assert f["problems"] == []
    assert f["rounds"] == 2 and f["clubs"] == 2
    assert f["taps"] > 0
    assert f["taps_acked"] == f["stored"] == f["taps"]
    assert f["lost"] == 0 and f["stored_twice"] == 0 and f["not_acked"] == 0
    assert f["stored_before"] == f["taps_before"]  # and no other hole_completed event
    assert f["scores"] > 0 and f["scores_stored"] == f["scores_acked"] == f["scores"]
    assert f["alerts_raised"] > 0
    assert f["alerts_raised_twice"] == 0 and f["alert_ids_not_derived"] == 0


def test_the_killed_workers_rounds_are_ticked_elsewhere_within_5_s(
    saturday: dict[str, Any],
) -> None:
    f = saturday
    assert f["killed_rounds"] > 0  # the worker killed held rounds' leases
    assert f["leases_before_kill"][f["killed"]] == f["killed_rounds"]
    assert f["takeover_all"], f
    assert f["takeover_s"] <= 5.0
    after = f["leases_after_takeover"]
    assert after[f["killed"]] == 0 and sum(after.values()) == f["rounds"]
    # the leases moved: more than one worker held them over the morning
    holders = {w for spread in (f["leases_before_kill"], after) for w, n in spread.items() if n}
    assert len(holders) > 1


def test_the_rounds_ticks_are_spread_over_the_workers(saturday: dict[str, Any]) -> None:
    before = saturday["leases_before_kill"]
    assert sum(before.values()) == 2 and max(before.values()) == 1, before  # a share each

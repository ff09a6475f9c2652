"""Measure the results of a full field: 156 players, 18 holes, with pace penalties.

Scores the field with ``pace.rules.scoring.score_round`` in each way of scoring (stroke
play net, Stableford net, bogey net, four-ball stroke play net, match play net) and prints
the median time per call in ms, wall clock and CPU, against the issue's target (≤ 50 ms):
MET or MISSED is judged on the wall-clock median (what a leaderboard waits for); the CPU
median is printed beside it, since on a machine shared with other work the wall clock also
counts the time spent waiting for a core. About one player in ten carries counted slow-play penalties (a
warning, strokes, one in four of them a disqualification).

    python bench/bench_results.py --runs 30
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pace.rules.model import Course, Group, Hole, Player  # noqa: E402
from pace.rules.penalties import Fault, FaultOutcome, Penalty, Reason  # noqa: E402
from pace.rules.scoring import Score, score_round  # noqa: E402

TARGET_MS = 50.0
PARS = (4, 4, 3, 5, 4, 4, 3, 5, 4, 4, 4, 3, 5, 4, 4, 3, 5, 4)
SI = (7, 11, 17, 1, 9, 15, 13, 3, 5, 8, 12, 18, 2, 10, 16, 14, 4, 6)
T0 = datetime(2025, 6, 14, 8, tzinfo=UTC)


def build_field(players: int, seed: int = 7):
    """Return a course, a draw of groups of four (two sides, two matches each) and scores."""
    rng = random.Random(seed)
    holes = tuple(
        Hole(n, p, stroke_index=s) for n, (p, s) in enumerate(zip(PARS, SI, strict=True), 1)
    )
    course = Course("bench", holes, slope=128, rating=70.4)
    groups, scores, outcomes = [], [], []
    for g in range(players // 4):
        gid = str(g + 1)
        tee = 1 if g % 2 == 0 else 10
        members = tuple(
            Player(f"P{g}-{i}", round(rng.uniform(-2, 36), 1), side=f"s{i // 2}",
                   match=f"m{g}-{i % 2}")  # singles: players 1 and 3, 2 and 4
            for i in range(4)
        )  # fmt: skip
        groups.append(Group(gid, T0 + timedelta(minutes=10 * (g // 2)), tee, members))
        for p in members:
            for n, par in enumerate(PARS, 1):
                strokes = (
                    None
                    if rng.random() < 0.02
                    else max(1, par + rng.choice((-1, 0, 0, 1, 1, 2, 3)))
                )
                scores.append(Score(gid, p.name, n, strokes))
            if rng.random() < 0.1:
                for rank, (kind, amount) in enumerate(
                    (("warning", 0), ("strokes", 1), ("strokes", 2), ("disqualification", 0))[
                        : rng.choice((1, 2, 3, 3, 4))
                    ], start=1
                ):  # fmt: skip
                    hole = rng.randint(1, 18)
                    fault = Fault(f"{p.name}-{rank}", gid, p.name, T0, hole)
                    outcomes.append(
                        FaultOutcome(fault, True, Reason.COUNTED, rank, Penalty(kind, amount, hole))
                    )
    return course, groups, scores, outcomes


def median_ms(fn, runs: int) -> tuple[float, float, float]:
    """Return the median wall time, its 90th percentile and the median CPU time, in ms."""
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - t) * 1000)
    wall.sort()
    return statistics.median(wall), wall[int(0.9 * (len(wall) - 1))], statistics.median(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="calls per way of scoring")
    parser.add_argument("--players", type=int, default=156, help="players in the field")
    args = parser.parse_args()
    course, groups, scores, outcomes = build_field(args.players)
    print(
        f"score_round: {args.players} players, {len(groups)} groups, 18 holes, "
        f"{len(scores)} scores, {len(outcomes)} counted penalties; median of {args.runs} runs"
    )
    ok = True
    for label, kw in (
        ("stroke net", {"scoring": "stroke"}),
        ("stableford net", {"scoring": "stableford"}),
        ("bogey net", {"scoring": "bogey"}),
        ("four-ball net", {"scoring": "stroke", "format_name": "four_ball"}),
        ("match net", {"scoring": "match"}),
    ):
        med, p90, cpu = median_ms(
            lambda kw=kw: score_round(course, groups, scores, net=True, outcomes=outcomes, **kw),
            args.runs,
        )
        verdict = "MET" if med <= TARGET_MS else "MISSED"
        ok = ok and med <= TARGET_MS
        print(
            f"  {label:<15} wall {med:7.2f} ms [p90 {p90:.2f}]   cpu {cpu:7.2f} ms"
            f"   target <= {TARGET_MS:g} ms: {verdict}"
        )
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"  load average {load} on {os.cpu_count()} cores")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

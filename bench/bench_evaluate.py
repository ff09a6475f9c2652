"""Measure the evaluation of a whole field: ``pace.rules.evaluate_field`` (issue 3).

Builds, in memory, a field of 52 groups (156 players: 3 a group) and one of 500 groups on an
18-hole par-72 course, every group with all 18 holes logged, and times one evaluation at an
instant after the last completion, both with a plan kept between ticks (``plan_field`` done
once, as the live service does) and without (the plan rebuilt at each call, as ``pace
status`` does). Prints the median over ``--runs`` runs and the 500/52 ratio: the cost should
grow linearly with the number of groups (500 / 52 = 9.6). Targets: 2 ms for 52 groups and
20 ms for 500 (median, with the plan).

    python bench/bench_evaluate.py --runs 200
    python bench/bench_evaluate.py --profile     # the hotspots of the 500-group evaluation
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pace.rules import (  # noqa: E402
    Course,
    Group,
    Hole,
    HoleCompletion,
    PaceSettings,
    Player,
    RoundFacts,
    RoundSetup,
    evaluate_field,
    plan_field,
)

PARS = (4, 4, 3, 5, 4, 4, 3, 5, 4, 4, 4, 3, 5, 4, 4, 3, 5, 4)
FIRST_START = datetime(2025, 6, 14, 6, 0, tzinfo=UTC)
TARGET_MS = {52: 2.0, 500: 20.0}


def build_field(n_groups: int, players: int = 3) -> tuple[RoundSetup, RoundFacts, datetime]:
    """Return a field of ``n_groups`` groups, all 18 holes logged, and an instant after it.

    Groups start from tees 1 and 10 in turn (a crossover draw), every 8 or 9 minutes on
    each tee; each plays each hole in its allotment give or take a minute, so the field
    mixes on pace, behind and out of position.
    """
    course = Course("bench", tuple(Hole(n, p, stroke_index=n) for n, p in enumerate(PARS, 1)))
    groups = []
    for i in range(n_groups):
        tee = 1 if i % 2 == 0 else 10
        slot = i // 2
        start = FIRST_START + timedelta(minutes=slot * 8 + slot // 3)  # 8/8/9 alternation
        members = tuple(Player(f"p{i}-{j}") for j in range(players))
        groups.append(Group(f"G{i + 1}", start, tee, members))
    setup = RoundSetup(course, tuple(groups), PaceSettings())
    plan = plan_field(setup)
    completions = []
    last = FIRST_START
    for i, p in enumerate(plan.groups):
        for k, hole in enumerate(p.order, 1):
            wobble = timedelta(seconds=((i * 37 + k * 53) % 181) - 75)  # -75 s .. +105 s
            at = p.group.start + p.cumulative[k] + wobble
            completions.append(HoleCompletion(p.group.id, hole, at))
            last = max(last, at)
    completions.sort(key=lambda c: c.at)  # the log's order
    return setup, RoundFacts(completions=tuple(completions)), last + timedelta(minutes=1)


def median_ms(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Return the median and the 90th percentile of ``fn``'s duration, in milliseconds."""
    fn()  # warm up
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.9 * (len(samples) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed runs per figure")
    parser.add_argument("--profile", action="store_true", help="profile the 500-group field")
    args = parser.parse_args()

    results: dict[tuple[int, str], float] = {}
    print(f"evaluate_field, median of {args.runs} runs (p90 in brackets)")
    for n in (52, 500):
        setup, facts, now = build_field(n)
        plan = plan_field(setup)
        field = evaluate_field(setup, facts, now, plan)
        counts: dict[str, int] = {}
        for s in field.groups:
            counts[s.status.value] = counts.get(s.status.value, 0) + 1
        players = sum(g.size for g in setup.groups)
        print(
            f"  {n:>3} groups, {players} players, {len(facts.completions)} completions"
            f" ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))})"
        )
        for label, fn in (
            ("with plan", lambda s=setup, f=facts, t=now, p=plan: evaluate_field(s, f, t, p)),
            ("without plan", lambda s=setup, f=facts, t=now: evaluate_field(s, f, t)),
        ):
            med, p90 = median_ms(fn, args.runs)
            results[(n, label)] = med
            target = f"  (target <= {TARGET_MS[n]:g} ms)" if label == "with plan" else ""
            print(f"      {label:<13} {med:8.3f} ms  [{p90:.3f}]{target}")
        med, _ = median_ms(lambda s=setup: plan_field(s), max(10, args.runs // 4))
        print(f"      plan_field    {med:8.3f} ms")

    ok = True
    for label in ("with plan", "without plan"):
        ratio = results[(500, label)] / results[(52, label)]
        print(f"  ratio 500/52 {label:<13} {ratio:5.2f}  (linear: {500 / 52:.2f})")
    for n, target in TARGET_MS.items():
        if results[(n, "with plan")] > target:
            ok = False
            print(f"  MISSED: {n} groups take {results[(n, 'with plan')]:.3f} ms > {target} ms")
    if ok:
        print("  targets met")

    if args.profile:
        setup, facts, now = build_field(500)
        plan = plan_field(setup)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(50):
            evaluate_field(setup, facts, now, plan)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

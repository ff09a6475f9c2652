"""Measure durable appends: events per second, one event per transaction, on each engine.

Runs ``Store.append`` on a temporary SQLite file at the chosen ``PRAGMA synchronous`` level
and at NORMAL for comparison, then (``--engine both``, the default) on a PostgreSQL cluster
started for the run with its durable defaults (``fsync=on``, ``synchronous_commit=on`` for
FULL: each commit waits for its WAL flush), in the same temporary folder's file system; first
from one thread, then from 4 threads at once (SQLite: the shared connection behind its lock;
PostgreSQL: the pool's connections). Each run stops after ``--n`` events or
``--max-seconds``, whichever comes first. Each run prints its events per second and the
time one append took (p50, p99: a marshal's tap waits that long for its commit before its
ack); the rates are printed side by side at the end.

    python bench/bench_append.py --n 5000 --synchronous FULL
    python bench/bench_append.py --engine sqlite
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pace.rules.events import Event  # noqa: E402
from pace.rules.model import Course, Hole  # noqa: E402
from pace.store import SYNCHRONOUS_LEVELS, open_store  # noqa: E402

T0 = datetime(2025, 6, 1, 8, 0, tzinfo=UTC)


def _event(n: int) -> Event:
    return Event(
        id=str(uuid.uuid4()),
        type="hole_completed",
        round="bench",
        at=T0 + timedelta(seconds=n),
        payload={"group": f"g{n % 40}", "hole": n % 18 + 1},
        by={"role": "marshal", "device": "bench"},
    )


def run(
    target: str, level: str, n: int, threads: int, max_seconds: float
) -> tuple[int, float, list[float]]:
    """Append up to ``n`` events from ``threads`` threads on ``target`` (a SQLite file or a
    PostgreSQL URL); return (count, seconds, each append's seconds)."""
    with open_store(target, synchronous=level) as store:
        store.save_course(Course("bench", (Hole(1, 4),)))
        store.create_round("bench", course="bench", day=date(2025, 6, 1), timezone="UTC")
        per_thread = n // threads
        events = [[_event(t * per_thread + i) for i in range(per_thread)] for t in range(threads)]
        counts = [0] * threads
        took: list[list[float]] = [[] for _ in range(threads)]
        deadline = time.perf_counter() + max_seconds
        barrier = threading.Barrier(threads + 1)

        def work(t: int) -> None:
            barrier.wait()
            for event in events[t]:
                started = time.perf_counter()
                store.append(event, recorded_at=T0)
                took[t].append(time.perf_counter() - started)
                counts[t] += 1
                if time.perf_counter() > deadline:
                    return

        workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
        for worker in workers:
            worker.start()
        barrier.wait()
        start = time.perf_counter()
        for worker in workers:
            worker.join()
        elapsed = time.perf_counter() - start
        assert store.count_events() == sum(counts)
    return sum(counts), elapsed, [s for each in took for s in each]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000, help="events per run (default 5000)")
    parser.add_argument(
        "--synchronous",
        default="FULL",
        type=str.upper,
        choices=SYNCHRONOUS_LEVELS,
        help="database.synchronous level to measure (default FULL)",
    )
    parser.add_argument("--engine", choices=("both", "sqlite", "postgresql"), default="both")
    parser.add_argument(
        "--max-seconds", type=float, default=6.0, help="time cap per run (default 6 s)"
    )
    args = parser.parse_args(argv)
    levels = [args.synchronous] + (["NORMAL"] if args.synchronous != "NORMAL" else [])
    print(f"one event per transaction, up to {args.n} events per run")
    results: list[tuple[str, str, int, float]] = []
    with tempfile.TemporaryDirectory(prefix="pace-bench-") as tmp:
        if args.engine in ("both", "sqlite"):
            for level in levels:
                for threads in (1, 4):
                    target = str(Path(tmp) / f"bench-{level}-{threads}.db")
                    count, seconds, took = run(target, level, args.n, threads, args.max_seconds)
                    results.append(("SQLite WAL", level, threads, count / seconds))
                    show(*results[-1], count, seconds, took)
        if args.engine in ("both", "postgresql"):
            import engines

            try:
                server = engines.start_postgres(durable=True)
            except engines.EngineUnavailable as e:
                print(f"PostgreSQL: not measured ({e})")
            else:
                try:
                    for level in levels:
                        for threads in (1, 4):
                            target = server.database("bench")
                            count, seconds, took = run(
                                target, level, args.n, threads, args.max_seconds
                            )
                            results.append(("PostgreSQL", level, threads, count / seconds))
                            show(*results[-1], count, seconds, took)
                            server.drop(target)
                finally:
                    server.stop()
    engines_run = sorted({r[0] for r in results})
    if len(engines_run) == 2:
        print("side by side (events/s, one per commit):")
        print(f"  {'level':<8} {'threads':>7} {'SQLite WAL':>12} {'PostgreSQL':>12}")
        for level in levels:
            for threads in (1, 4):
                rates = {r[0]: r[3] for r in results if r[1] == level and r[2] == threads}
                print(
                    f"  {level:<8} {threads:>7} {rates['SQLite WAL']:>12,.0f}"
                    f" {rates['PostgreSQL']:>12,.0f}"
                )


def show(
    engine: str, level: str, threads: int, rate: float, count: int, seconds: float,
    took: list[float],
) -> None:
    print(
        f"{engine:<10} synchronous={level:<6} threads={threads}: {count:>6} events in"
        f" {seconds:5.2f} s = {rate:>8,.0f} events/s; an append p50"
        f" {quantile(took, 0.5) * 1000:.2f} ms, p99 {quantile(took, 0.99) * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()

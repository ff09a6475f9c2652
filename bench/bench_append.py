"""Measure durable appends: events per second, one event per transaction.

Runs ``Store.append`` on a temporary file at the chosen ``PRAGMA synchronous`` level
and at NORMAL for comparison, first from one thread, then from 4 threads at once
(the shared connection behind its lock). Each run stops after ``--n`` events or
``--max-seconds``, whichever comes first, so the whole script stays under 30 s.

    python bench/bench_append.py --n 5000 --synchronous FULL
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

from pace.rules.events import Event  # noqa: E402
from pace.rules.model import Course, Hole  # noqa: E402
from pace.store import SYNCHRONOUS_LEVELS, Store  # noqa: E402

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


def run(folder: Path, level: str, n: int, threads: int, max_seconds: float) -> tuple[int, float]:
    """Append up to ``n`` events from ``threads`` threads; return (count, seconds)."""
    path = folder / f"bench-{level}-{threads}.db"
    with Store.open(path, synchronous=level) as store:
        store.save_course(Course("bench", (Hole(1, 4),)))
        store.create_round("bench", course="bench", day=date(2025, 6, 1), timezone="UTC")
        per_thread = n // threads
        events = [[_event(t * per_thread + i) for i in range(per_thread)] for t in range(threads)]
        counts = [0] * threads
        deadline = time.perf_counter() + max_seconds
        barrier = threading.Barrier(threads + 1)

        def work(t: int) -> None:
            barrier.wait()
            for event in events[t]:
                store.append(event, recorded_at=T0)
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
    return sum(counts), elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000, help="events per run (default 5000)")
    parser.add_argument(
        "--synchronous",
        default="FULL",
        type=str.upper,
        choices=SYNCHRONOUS_LEVELS,
        help="PRAGMA synchronous level to measure (default FULL)",
    )
    parser.add_argument(
        "--max-seconds", type=float, default=6.0, help="time cap per run (default 6 s)"
    )
    args = parser.parse_args(argv)
    levels = [args.synchronous] + (["NORMAL"] if args.synchronous != "NORMAL" else [])
    print(f"SQLite WAL, one event per transaction, up to {args.n} events per run")
    with tempfile.TemporaryDirectory(prefix="pace-bench-") as tmp:
        for level in levels:
            for threads in (1, 4):
                count, seconds = run(Path(tmp), level, args.n, threads, args.max_seconds)
                print(
                    f"synchronous={level:<6} threads={threads}: {count:>6} events in"
                    f" {seconds:5.2f} s = {count / seconds:>8,.0f} events/s"
                )


if __name__ == "__main__":
    main()

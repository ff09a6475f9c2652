"""Measure the post-round report of a round of 52 groups: data, HTML, PDF, CSV, JSON (issue 12).

Builds, in a temporary SQLite file, the demo round of ``--groups`` groups played to the end
(every hole logged, a 25-minute suspension, referees timing the groups that fell out of
position: ``tests/reportsupport.py``), then times each export from the database, as
``pace report`` builds it: the report's data (a pure fold of the log), the HTML page with
its 55 SVG charts, the PDF (WeasyPrint; by default with a chart for the groups that have
something to report, and with ``--all-charts`` for every group), the CSV and the JSON.
Prints the median and the CPU time over ``--runs`` runs (the machine may be shared: CPU time
says what the work itself costs) and MET/MISSED against the targets: 1 s for the HTML, 3 s
for the PDF, on the median wall time. Loading WeasyPrint and Pygal is timed apart (a server
pays it once).

    python bench/bench_report.py --runs 3
    python bench/bench_report.py --profile pdf     # the hotspots of one PDF
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

TARGETS_S = {"html": 1.0, "pdf": 3.0}


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Return the median wall time and the median CPU time of ``fn`` over ``runs`` runs."""
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=52)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="fr", choices=("fr", "en"))
    parser.add_argument("--profile", choices=("html", "pdf"), default=None)
    args = parser.parse_args()

    t = time.perf_counter()
    import pygal  # noqa: F401
    import weasyprint  # noqa: F401

    loading = time.perf_counter() - t

    from reportsupport import ROUND, report_database

    from pace import config
    from pace.reports import cli as reportcli
    from pace.services.rounds import PaceService
    from pace.store import Store

    with tempfile.TemporaryDirectory() as folder:
        db = report_database(Path(folder), groups=args.groups)
        store = Store.open(db)
        service = PaceService(store, config.Settings())
        try:
            view = reportcli._report(service, ROUND, None)
            r = view.report
            print(
                f"round of {len(r.groups)} groups, {sum(len(g.episodes) for g in r.groups)} "
                f"episodes, {sum(len(p.strokes) for g in r.groups for p in g.players)} timed "
                f"strokes; loading WeasyPrint and Pygal: {loading:.2f} s (once per process)"
            )

            def build(fmt: str, **kw: object) -> Callable[[], object]:
                return lambda: reportcli.build(service, ROUND, fmt, lang=args.lang, **kw)

            jobs = {
                "data": lambda: reportcli._report(service, ROUND, None),
                "html": build("html"),
                "pdf": build("pdf"),
                "pdf --all-charts": build("pdf", all_charts=True),
                "csv": build("csv"),
                "json": build("json"),
                "letters pdf": build("pdf", letters_per="player"),
            }
            if args.profile:
                profiler = cProfile.Profile()
                profiler.runcall(jobs[args.profile])
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
                return 0
            build("pdf")()  # warm: fonts and the style sheet parsed once
            for name, fn in jobs.items():
                wall, cpu = timed(fn, args.runs)
                target = TARGETS_S.get(name)
                verdict = ""
                if target is not None:
                    verdict = f"  target {target:.0f} s: {'MET' if wall <= target else 'MISSED'}"
                print(f"{name:18s} median {wall:6.2f} s  cpu {cpu:6.2f} s{verdict}")
        finally:
            store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

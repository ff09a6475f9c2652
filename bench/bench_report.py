"""Measure the post-round report of a round of 52 groups: data, HTML, PDF, CSV, JSON (issue 12).

Builds, in a temporary SQLite file, the demo round of ``--groups`` groups played to the end
(every hole logged, a 25-minute suspension, referees timing the groups that fell out of
position: ``tests/reportsupport.py``), then times what the user gets, from the database:

- ``html file``: ``pace report --format html`` built in this process, one self-contained
  file with its 55 charts (target 1 s);
- ``html page``: ``GET /rounds/<round>/report`` on the app (Flask's test client, the report
  cache emptied first), then the same with every group chart the page links fetched, as a
  browser scrolling down the page does (target 1 s for both);
- ``pdf``: ``pace report --format pdf`` built in this process (target 3 s); the page's PDF
  job (``POST report/jobs`` until its file is there), which the server's warm PDF builder
  lays out (``pace.reports.worker``, started when the report page is opened): what the
  page's PDF button waits for (target 3 s); and the whole ``pace report`` process,
  start-up and imports included, as from a terminal;
- ``pdf --full-charts``, CSV, JSON and the letters' PDF, for the record.

Every figure is the median over ``--runs`` runs: wall time, and CPU time of this process and
of the children it forked (the PDF and the charts use both cores). MET/MISSED is on the
median wall time. The machine may be shared: its load is printed before and after; under
load the wall times grow, the CPU times much less.

    python bench/bench_report.py --runs 3
    python bench/bench_report.py --profile pdf     # the hotspots of one PDF (this process)
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

TARGETS_S = {
    "html file": 1.0,
    "html page": 1.0,
    "html page + charts": 1.0,
    "pdf": 3.0,
    "pdf (page's job)": 3.0,
    "pdf (pace process)": 3.0,
}


def cpu_now() -> float:
    """Return the CPU time of this process and of its waited-for children so far."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def process_cpu(pids: list[int]) -> float:
    """Return the CPU time of running processes ``pids`` and of their waited-for children."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def timed(
    fn: Callable[[], object], runs: int, others: Callable[[], float] = lambda: 0.0
) -> tuple[float, float]:
    """Return the median wall time and the median CPU time of ``fn`` over ``runs`` runs
    (this process's, its children's, and ``others()``: processes it does not wait for)."""
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), cpu_now() + others()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(cpu_now() + others() - c)
    return statistics.median(wall), statistics.median(cpu)


def load() -> str:
    """Return the machine's load averages (1, 5, 15 minutes) and its cores."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


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
    from pace.app import close_app, create_app
    from pace.reports import forked
    from pace.reports.build import build as build_report
    from pace.services.reports import ReportCache, ReportService
    from pace.services.rounds import RoundService
    from pace.store import open_store

    print(f"machine: {load()}")
    with tempfile.TemporaryDirectory() as folder:
        db = report_database(Path(folder), groups=args.groups)
        store = open_store(db)
        service = RoundService(store, config.Settings())
        settings = config.Settings().replace(
            server={"async_mode": "threading"}, database={"path": str(db)},
            scheduler={"enabled": False},
        )  # fmt: skip
        app = create_app(settings, testing=True)
        ext = app.extensions["pace"]
        client = app.test_client()
        with client.session_transaction() as s:
            s["token"] = ext.access.grant("committee", None).token
        print(f"forking a second process: {'yes' if forked.can_fork() else 'NO (threads)'}")
        try:
            view = ReportService(service).round_report(ROUND)
            r = view.report
            print(
                f"round of {len(r.groups)} groups, {sum(len(g.episodes) for g in r.groups)} "
                f"episodes, {sum(len(p.strokes) for g in r.groups for p in g.players)} timed "
                f"strokes; loading WeasyPrint and Pygal: {loading:.2f} s (once per process)"
            )

            def build(fmt: str, **kw: object) -> Callable[[], object]:
                return lambda: build_report(service, ROUND, fmt, lang=args.lang, **kw)

            page_url = f"/rounds/{ROUND}/report?lang={args.lang}"

            def page() -> str:
                ext.reports.cache = ReportCache()  # cold: as the first visit after an event
                answer = client.get(page_url)
                assert answer.status_code == 200, answer.status_code
                return answer.get_data(as_text=True)

            def page_and_charts() -> None:
                text = page()
                srcs = re.findall(r'loading="lazy" [^>]*src="([^"]+)"', text)
                assert len(srcs) == len(r.groups), len(srcs)
                for src in srcs:
                    answer = client.get(src.replace("&amp;", "&"))
                    assert answer.mimetype == "image/svg+xml", answer.status_code

            def page_job() -> None:
                with client.session_transaction() as s:
                    csrf = s["csrf"]  # the report page made it
                answer = client.post(
                    f"/rounds/{ROUND}/report/jobs?lang={args.lang}",
                    data={"kind": "report", "csrf": csrf},
                )
                assert answer.status_code == 200, answer.get_json()
                job = ext.report_jobs.get(ROUND, answer.get_json()["job"]["id"])
                job.task.join()
                assert job.state == "done", job.error

            def pace_process() -> None:
                out = Path(folder) / "report.pdf"
                subprocess.run(
                    [sys.executable, "-m", "pace", "report", "--round", ROUND, "--db", str(db),
                     "--format", "pdf", "--lang", args.lang, "-o", str(out), "--progress",
                     "none"],
                    check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                )  # fmt: skip

            jobs = {
                "data": lambda: ReportService(service).round_report(ROUND),
                "html file": build("html"),
                "html page": page,
                "html page + charts": page_and_charts,
                "pdf": build("pdf"),
                "pdf (page's job)": page_job,
                "pdf (pace process)": pace_process,
                "pdf --full-charts": build("pdf", full_charts=True),
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
            page()
            page_job()  # the page's warm PDF builder started (the report page starts it)
            for name, fn in jobs.items():
                builders = ext.report_jobs.builders if name == "pdf (page's job)" else list
                wall, cpu = timed(fn, args.runs, lambda b=builders: process_cpu(b()))
                target = TARGETS_S.get(name)
                verdict = ""
                if target is not None:
                    verdict = f"  target {target:.0f} s: {'MET' if wall <= target else 'MISSED'}"
                print(f"{name:20s} median {wall:6.2f} s  cpu {cpu:6.2f} s{verdict}", flush=True)
        finally:
            close_app(app)
            store.close()
    print(f"machine: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

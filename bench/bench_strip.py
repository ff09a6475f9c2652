"""Measure the course strip's rewind (issue 40): the slider's picture at an instant, 40 groups.

Builds a round of 40 groups of three (10 minutes apart, two tees' worth of field off tee 1,
18 holes) and logs its whole day into a SQLite file through the store: every group completes
every hole near its allotment, each tap recorded a minute after it happened, and one tap in
ten corrected later. Serves it with ``pace serve`` (its clock in the evening, the round over),
opens the referees' dashboard in headless Chromium and moves the slider to instants across the
day, as a drag does (an ``input`` event): for each, the time from the slider's move to the
picture drawn (the strip's ``data-drawn`` set, the lanes in the page), read in the page with
``performance.now()``. Each instant is asked first unread (the server folds the log for it),
then again (the page's cache).

The baseline is what the page would otherwise ask for the same instant: ``GET
.../status?at=`` (the status document), timed from Python. Target: every picture, unread,
within 100 ms. Prints the figures and MET/MISSED.

    python bench/bench_strip.py
    python bench/bench_strip.py --instants 30 --reading corrected
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from datetime import date, datetime, timedelta
from http.cookiejar import CookieJar
from pathlib import Path
from zoneinfo import ZoneInfo

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from livesupport import free_port, wait_until_ready  # noqa: E402

from pace.rules.events import Event  # noqa: E402
from pace.store import open_store  # noqa: E402

TZ = "Europe/Brussels"
GROUPS = 40
TARGET_MS = 100.0
CHROMIUM = "/usr/bin/chromium"
COURSE = HERE.parent / "tests" / "data" / "formats" / "course_louiseville.toml"
ROUND = "strip"


def pace(*args: str, cwd: Path) -> str:
    return subprocess.run(
        [sys.executable, "-m", "pace", *args], cwd=cwd, text=True, capture_output=True, check=True
    ).stdout


def build(folder: Path, day: date) -> Path:
    """Return a database with the 40-group round and its whole day logged."""
    db = folder / "strip.db"
    draw = folder / "draw.csv"
    lines = ["group,start,tee,player,handicap,club,notes"]
    first = datetime.combine(day, datetime.min.time()).replace(hour=7)
    for g in range(1, GROUPS + 1):
        start = first + timedelta(minutes=10 * (g - 1))
        for p in range(3):
            lines.append(f"{g},{start:%H:%M},1,Player {g}-{p},10.0,Club,")
    draw.write_text("\n".join(lines) + "\n")
    pace("import", "course", str(COURSE), "--db", str(db), cwd=folder)
    pace("import", "draw", str(draw), "--round", ROUND, "--date", day.isoformat(),
         "--timezone", TZ, "--db", str(db), cwd=folder)  # fmt: skip
    tz = ZoneInfo(TZ)
    with open_store(str(db)) as store:
        events = []
        for g in range(1, GROUPS + 1):
            at = (first + timedelta(minutes=10 * (g - 1))).replace(tzinfo=tz)
            for hole in range(1, 19):
                # 13–16 min a hole, the later groups a little slower
                at += timedelta(minutes=13 + (hole * 7 + g * 3) % 4 + (g // 20))
                payload = {"group": str(g), "hole": hole}
                by = {"role": "marshal", "device": "b"}
                tap = Event(str(uuid.uuid4()), "hole_completed", ROUND, at, payload, by)
                store.append(tap, recorded_at=at + timedelta(minutes=1))
                if (g + hole) % 10 == 0:  # corrected an hour later
                    earlier = (at - timedelta(minutes=2)).isoformat()
                    payload = {"target": tap.id, "at": earlier, "reason": "late tap"}
                    by = {"role": "referee", "device": "b"}
                    fix = Event(str(uuid.uuid4()), "hole_time_corrected", ROUND, at, payload, by)
                    events.append((fix, at + timedelta(hours=1)))
        for fix, when in events:
            store.append(fix, recorded_at=when)
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instants", type=int, default=20)
    parser.add_argument("--reading", choices=("known", "corrected"), default="known")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    day = datetime.now(ZoneInfo(TZ)).date()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = build(folder, day)
        origin = datetime.combine(day, datetime.min.time()).replace(hour=21, tzinfo=ZoneInfo(TZ))
        port = free_port()
        log = folder / "serve.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "pace", "serve", "--db", str(db), "--host", "127.0.0.1",
                 "--port", str(port), "--clock-origin", origin.isoformat(), "--tick", "5"],
                cwd=folder, stdout=out, stderr=subprocess.STDOUT, text=True,
            )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_ready(url, server, log)
            line = pace("access", "code", "--round", ROUND, "--role", "referee", "--db", str(db),
                        cwd=folder)  # fmt: skip
            code = line.split("\t")[2].strip()
            jar = CookieJar()
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            opener.open(f"{url}/join?code={code}", timeout=10).read()
            start = origin.replace(hour=7, minute=30)
            step = (origin.replace(hour=17) - start) / args.instants
            instants = [start + step * i for i in range(args.instants)]
            baseline = []
            for at in instants:
                t0 = time.perf_counter()
                opener.open(f"{url}/api/rounds/{ROUND}/status?at={at:%H:%M}", timeout=10).read()
                baseline.append((time.perf_counter() - t0) * 1000)
            with sync_playwright() as p:
                flags = ["--headless", "--no-sandbox", "--disable-gpu"]
                browser = p.chromium.launch(executable_path=CHROMIUM, args=flags)
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(f"{url}/join?code={code}")
                page.goto(f"{url}/rounds/{ROUND}/dashboard")
                page.wait_for_selector("#strip-lanes li.strip-group")
                if args.reading == "corrected":
                    page.locator("#strip-corrected").check()
                measure = """(minute) => new Promise((done) => {
                    const strip = document.getElementById('strip');
                    const want = new Date(minute * 60000).toISOString();
                    const t0 = performance.now();
                    const over = () => { seen.disconnect(); done(performance.now() - t0); };
                    const seen = new MutationObserver(() => strip.dataset.drawn === want && over());
                    seen.observe(strip, {attributes: true, attributeFilter: ['data-drawn']});
                    const s = document.getElementById('strip-at');
                    s.value = String(minute);
                    s.dispatchEvent(new Event('input', {bubbles: true}));
                    if (strip.dataset.drawn === want) over();
                })"""
                unread, cached = [], []
                for at in instants:
                    minute = int(at.timestamp() // 60)
                    unread.append(page.evaluate(measure, minute))
                    drawn = page.locator("#strip-lanes li.strip-group").count()
                    assert drawn == GROUPS, drawn
                for at in instants:
                    cached.append(page.evaluate(measure, int(at.timestamp() // 60)))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)

    def line_of(name: str, xs: list[float]) -> str:
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
        return (f"{name:<34} median {statistics.median(xs):7.1f} ms   p95 {p95:7.1f} ms"
                f"   max {xs[-1]:7.1f} ms")  # fmt: skip

    print(f"course strip, {GROUPS} groups, 18 holes, a whole day logged; reading {args.reading};"
          f" {args.instants} instants 07:30–17:00")  # fmt: skip
    print(line_of("baseline: GET status?at= (Python)", baseline))
    print(line_of("slider to picture, unread", unread))
    print(line_of("slider to picture, cached", cached))
    worst = max(unread)
    verdict = "MET" if worst <= TARGET_MS else "MISSED"
    print(f"{verdict}: the slowest picture {worst:.1f} ms (target {TARGET_MS:.0f} ms)")


if __name__ == "__main__":
    main()

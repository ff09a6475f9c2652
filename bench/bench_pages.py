"""Weight and speed of the pages on a weak phone, measured by Lighthouse (issue 29, part 2).

Plays a demo round for a little while (``pace demo``, stopped once the round has content),
serves its database with ``pace serve`` (no simulated people: the machine's cores go to the
page under test), signs in as the committee (who may open every page) and runs Lighthouse
12.2.3 on the marshal page, the shot clock, the scorecard, the leaderboard and the board:
headless Chromium, Lighthouse's default mobile emulation and its simulated slow 4G (150 ms
RTT, 1.6 Mbps down, CPU slowed 4×). The session cookie goes in ``--extra-headers``.

The marshal page's reload is measured apart, in Playwright: the page is opened, the service
worker keeps it and its assets (``data-offline="ready"``), the page is reloaded, and the bytes
that crossed the network during the reload are summed (headers and encoded bodies of every
request not answered by the service worker, the service worker's own fetches included).

Prints per page the performance and accessibility scores and the bytes transferred, with
MET/MISSED against issue 29's targets: performance ≥ 90, accessibility ≥ 95, the marshal page
≤ 150 KB on first load and ≤ 5 KB on a reload with the service worker. A bench, not a test:
it takes a few minutes and is kept out of the test command.

    npm i -E --prefix bench/.lighthouse lighthouse@12.2.3     # once (bench/.lighthouse is ignored)
    python bench/bench_pages.py
    python bench/bench_pages.py --json figures.json --pages marshal,board
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from livesupport import free_port, wait_until_ready  # noqa: E402

PINNED = "lighthouse@12.2.3"
LIGHTHOUSE = HERE / ".lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
PAGES = {
    "marshal": "/rounds/demo/marshal",
    "shot clock": "/rounds/demo/shotclock",
    "scorecard": "/rounds/demo/scorecard",
    "leaderboard": "/rounds/demo/leaderboard",
    "board": "/rounds/demo/board",
}
PERFORMANCE, ACCESSIBILITY = 90, 95
MARSHAL_FIRST_KB, MARSHAL_RELOAD_KB = 150, 5
#: real seconds the demo plays before it is stopped (×600: about 2 h of play)
DEMO_SECONDS = 25


def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, text=True, capture_output=True, check=True, **kwargs)


def prepare_round(folder: Path) -> tuple[Path, str]:
    """Play ``pace demo`` for ``DEMO_SECONDS`` and stop it; return its database and the
    instant of its last stored event (the clock to serve it again with)."""
    db = folder / "demo.db"
    log = folder / "demo.log"
    with log.open("w") as out:
        demo = subprocess.Popen(
            [sys.executable, "-m", "pace", "demo", "--db", str(db), "--port", str(free_port()),
             "--host", "127.0.0.1", "--speed", "600"],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    try:
        demo.wait(timeout=DEMO_SECONDS)
    except subprocess.TimeoutExpired:
        demo.send_signal(signal.SIGINT)
        demo.wait(timeout=60)
    with sqlite3.connect(db) as conn:
        (last,) = conn.execute("SELECT max(recorded_at) FROM events").fetchone()
    if not last:
        raise SystemExit(f"the demo stored nothing:\n{log.read_text()[-2000:]}")
    return db, last  # its clock where it stopped: the round as the demo left it


def serve(folder: Path, db: Path, origin: str) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    log = folder / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pace", "serve", "--db", str(db), "--host", "127.0.0.1",
             "--port", str(port), "--clock-origin", origin, "--tick", "5"],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    wait_until_ready(url, process, log)
    return process, url


def committee_cookie(folder: Path, db: Path, url: str) -> tuple[str, str]:
    """Sign in through ``/join?code=...`` as people do; return the session cookie."""
    out = run(
        [sys.executable, "-m", "pace", "access", "code", "--round", "demo", "--role",
         "committee", "--db", str(db)],
        cwd=folder,
    )  # fmt: skip
    code = out.stdout.split("\t")[2].strip()
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{url}/join?code={code}", timeout=10).read()
    for cookie in jar:
        return cookie.name, cookie.value or ""
    raise SystemExit("signing in gave no cookie")


def lighthouse(url: str, cookie: tuple[str, str], out: Path) -> dict[str, Any]:
    """Run Lighthouse on ``url``; return its scores (0–100) and the bytes transferred."""
    run(
        ["node", str(LIGHTHOUSE), url, "--output=json", f"--output-path={out}", "--quiet",
         "--only-categories=performance,accessibility", f"--chrome-flags={CHROME_FLAGS}",
         f"--extra-headers={json.dumps({'Cookie': f'{cookie[0]}={cookie[1]}'})}"],
        env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=300,
    )  # fmt: skip
    report = json.loads(out.read_text())
    categories, audits = report["categories"], report["audits"]
    items = audits["network-requests"]["details"]["items"]
    return {
        "performance": round(100 * (categories["performance"]["score"] or 0)),
        "accessibility": round(100 * (categories["accessibility"]["score"] or 0)),
        "bytes": int(audits["total-byte-weight"]["numericValue"]),
        "requests": len(items),
        "fcp_ms": int(audits["first-contentful-paint"]["numericValue"]),
        "lcp_ms": int(audits["largest-contentful-paint"]["numericValue"]),
        "si_ms": int(audits["speed-index"]["numericValue"]),
        "tbt_ms": int(audits["total-blocking-time"]["numericValue"]),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "heaviest": [
            (i["url"].split("?")[0].split(":", 2)[-1].split("/", 1)[-1], i.get("transferSize", 0))
            for i in sorted(items, key=lambda i: -i.get("transferSize", 0))[:3]
        ],
    }


def marshal_reload(url: str, cookie: tuple[str, str]) -> dict[str, int]:
    """Open the marshal page, let its service worker keep it, reload it; return the bytes the
    reload moved over the network (and how many requests did)."""
    # Chromium reports the service worker's own requests to the context (Playwright ≥ 1.24)
    os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context()
        context.add_cookies([{"name": cookie[0], "value": cookie[1], "url": url}])
        page = context.new_page()
        page.goto(url + PAGES["marshal"])
        page.wait_for_selector("#app[data-offline='ready']", timeout=30_000)
        page.wait_for_load_state("networkidle")
        moved: list[int] = []

        def count(response: Any) -> None:
            if response.from_service_worker:
                return  # answered by the worker's cache (or its own fetch, counted there)
            try:
                sizes = response.request.sizes()
            except Exception:  # a request the browser gave up on
                return
            moved.append(sizes["responseHeadersSize"] + max(sizes["responseBodySize"], 0))

        context.on("response", count)
        page.reload()
        page.wait_for_selector("#app[data-offline='ready']", timeout=30_000)
        page.wait_for_load_state("networkidle")
        context.remove_listener("response", count)
        browser.close()
    return {"bytes": sum(moved), "requests": len(moved)}


#: Lighthouse's default mobile screen (a Moto G Power), for the layout-shift probe
PHONE = {"width": 412, "height": 823}

# Records every layout shift from the start of the page, with the elements that moved (their
# tag, id and classes, and the boxes before and after), as Chromium reports them.
SHIFT_OBSERVER = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__shifts.push({
      at: Math.round(e.startTime),
      value: e.value,
      sources: (e.sources || []).map((s) => {
        const n = s.node;
        const name = !n ? "?" : n.nodeType === 3 ? "#text in " + n.parentElement.tagName
          : n.tagName.toLowerCase() + (n.id ? "#" + n.id : "")
            + (n.classList && n.classList.length ? "." + [...n.classList].join(".") : "");
        const box = (r) => [Math.round(r.y), Math.round(r.height)];
        return { node: name, before: box(s.previousRect), after: box(s.currentRect) };
      }),
    });
  }
}).observe({ type: "layout-shift", buffered: true });
"""


def layout_shifts(url: str, cookie: tuple[str, str], names: list[str]) -> dict[str, Any]:
    """Open each page at a phone's size and list its layout shifts and what moved: Lighthouse
    12.2.3 cannot name them with Debian's Chromium (its layout-shifts audit fails in its trace
    engine), so the bench asks Chromium itself, through a PerformanceObserver."""
    from playwright.sync_api import sync_playwright

    found: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        for name in names:
            context = browser.new_context(
                viewport=PHONE, device_scale_factor=1.75, is_mobile=True, has_touch=True
            )
            context.add_cookies([{"name": cookie[0], "value": cookie[1], "url": url}])
            context.add_init_script(SHIFT_OBSERVER)
            page = context.new_page()
            # slowed as Lighthouse simulates it, but for real: the page is painted before its
            # data arrives, as on a phone, so every shift the data causes shows
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send(
                "Network.emulateNetworkConditions",
                {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8,
                 "uploadThroughput": 0.75e6 / 8},
            )  # fmt: skip
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            page.goto(url + PAGES[name])
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(3000)  # the round's data, come through the socket
            found[name] = page.evaluate("window.__shifts")
            context.close()
        browser.close()
    return found


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=",".join(PAGES), help="comma-separated page names")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--shifts",
        action="store_true",
        help="only list each page's layout shifts at a phone's size (no Lighthouse)",
    )
    parser.add_argument(
        "--reports", type=Path, help="keep each page's Lighthouse JSON report in this folder"
    )
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        raise SystemExit(
            "Lighthouse is missing: npm i -E --prefix bench/.lighthouse lighthouse@12.2.3"
        )
    names = [n.strip() for n in args.pages.split(",") if n.strip()]
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="pace-bench-pages-") as tmp:
        folder = Path(tmp)
        started = time.monotonic()
        db, origin = prepare_round(folder)
        process, url = serve(folder, db, origin)
        try:
            cookie = committee_cookie(folder, db, url)
            if args.shifts:
                for name, shifts in layout_shifts(url, cookie, names).items():
                    total = sum(s["value"] for s in shifts)
                    print(f"{name}: CLS {total:.3f} in {len(shifts)} shifts")
                    for shift in shifts:
                        print(f"  at {shift['at']} ms: {shift['value']:.3f}")
                        for source in shift["sources"]:
                            print(f"    {source['node']}: y, height {source['before']}"
                                  f" -> {source['after']}")  # fmt: skip
                return 0
            for name in names:
                report = folder / "lh.json"
                if args.reports:
                    args.reports.mkdir(parents=True, exist_ok=True)
                    report = args.reports / f"{name.replace(' ', '-')}.json"
                figures[name] = lighthouse(url + PAGES[name], cookie, report)
            if "marshal" in names:
                figures["marshal"]["reload"] = marshal_reload(url, cookie)
        finally:
            process.terminate()
            process.wait(timeout=20)
        seconds = time.monotonic() - started
    print(f"Lighthouse 12.2.3, mobile, simulated slow 4G; {seconds:.0f} s (times in ms)")
    print(
        f"{'page':<12} {'perf':>5} {'a11y':>5} {'KB':>7} {'req':>4}"
        f" {'FCP':>6} {'LCP':>6} {'SI':>6} {'TBT':>5} {'CLS':>6}  verdict"
    )
    for name, f in figures.items():
        ok = f["performance"] >= PERFORMANCE and f["accessibility"] >= ACCESSIBILITY
        line = (
            f"{name:<12} {f['performance']:>5} {f['accessibility']:>5} {f['bytes'] / 1024:>7.1f}"
            f" {f['requests']:>4} {f['fcp_ms']:>6} {f['lcp_ms']:>6} {f['si_ms']:>6}"
            f" {f['tbt_ms']:>5} {f['cls']:>6}  perf ≥ {PERFORMANCE}, a11y ≥ {ACCESSIBILITY}:"
            f" {verdict(ok)}"
        )
        if name == "marshal":
            light = f["bytes"] <= MARSHAL_FIRST_KB * 1024
            line += f"; first load ≤ {MARSHAL_FIRST_KB} KB: {verdict(light)}"
        print(line)
    if "reload" in figures.get("marshal", {}):
        r = figures["marshal"]["reload"]
        print(
            f"marshal reload with the service worker: {r['bytes'] / 1024:.1f} KB in"
            f" {r['requests']} requests; ≤ {MARSHAL_RELOAD_KB} KB:"
            f" {verdict(r['bytes'] <= MARSHAL_RELOAD_KB * 1024)}"
        )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

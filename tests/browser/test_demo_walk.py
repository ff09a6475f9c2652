"""Issue 14, "Done when": the demo walked in Chromium as a committee member (desktop), a
referee and a marshal (phones), each signing in with the link the demo prints; screenshots go
to the test's temporary folder; no page logs an error to the console, none gets a 404."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from livesupport import LiveServer, free_port, wait_until_ready
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def demo(tmp_path) -> Iterator[tuple[LiveServer, dict[str, str]]]:
    """``pace demo`` on a free port, ×30, and the links its banner prints, by page."""
    port = free_port()
    log = tmp_path / "demo.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pace", "demo", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(tmp_path / "demo.db"), "--speed", "30", "--tick", "0.5",
             "--duration", "300"],
            cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, process, log)
        deadline = time.monotonic() + 30
        while "Ctrl-C stops" not in log.read_text():
            assert time.monotonic() < deadline and process.poll() is None, log.read_text()
        links = dict(re.findall(r"^  ([a-z ]+?)\s+(http://\S+/join\?\S+)$", log.read_text(), re.M))
        yield LiveServer(url, port, tmp_path / "demo.db", process, log, round="demo"), links
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


class Watch:
    """What went wrong on the pages of a context: console errors, page errors, 404s."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def page(self, context) -> Page:
        page = context.new_page()
        page.on(
            "console",
            lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"),
        )
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on(
            "response",
            lambda r: r.status == 404 and self.problems.append(f"404: {r.url}"),
        )
        return page


def shoot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / name), full_page=True)
    assert (folder / name).stat().st_size > 5000


#: The names of the leaderboard whose text the browser split inside a word: for each word of
#: each name, the line boxes of its characters (Range.getClientRects) must share one line.
SPLIT_NAMES = """() => {
  const split = [];
  for (const name of document.querySelectorAll(".lb-name")) {
    const node = name.firstChild;
    let start = 0;
    for (const word of node.textContent.split(" ")) {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + word.length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (lines.size > 1) split.push(node.textContent);
      start += word.length + 1;
    }
  }
  return split;
}"""


def test_the_demo_walked_as_a_committee_member_a_referee_and_a_marshal(demo, browser, tmp_path):
    server, links = demo
    assert {"dashboard", "shot clock", "marshal", "board", "audit", "access"} <= set(links)
    assert {"scorecard", "report", "results"} <= set(links)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    watch = Watch()

    # the committee, at the clubhouse laptop: the dashboard, then every page it links to
    committee = browser.new_context(viewport=DESKTOP)
    page = watch.page(committee)
    page.goto(links["dashboard"])
    expect(page).to_have_url(f"{server.url}/rounds/demo/dashboard")
    expect(page.locator("tr.group-row")).to_have_count(32)
    expect(page.locator("#alerts li.alert").first).to_be_visible(timeout=30000)
    shoot(page, shots, "committee-dashboard.png")
    for name, check in (("Audit", "h1"), ("Access codes", "h1"), ("Report", "h1")):
        page.locator("nav.page-links").get_by_role("link", name=name).click()
        expect(page.locator(check)).to_be_visible()
        shoot(page, shots, f"committee-{name.lower().replace(' ', '-')}.png")
        page.goto(f"{server.url}/rounds/demo/dashboard")
    # the banner's "results" link opens the printable results sheet, not raw JSON (issue 38)
    page.goto(links["results"])
    expect(page).to_have_url(f"{server.url}/rounds/demo/results")
    expect(page.locator("h1")).to_have_text("Results · demo")
    expect(page.locator("#sheet-pdf")).to_be_visible()
    shoot(page, shots, "committee-results-sheet.png")
    page.goto(f"{server.url}/rounds/demo/board")
    expect(page.locator("tr.board-row")).to_have_count(32)
    expect(page.locator(".board-key")).to_be_visible()
    shoot(page, shots, "committee-board.png")
    page.goto(f"{server.url}/rounds/demo/dashboard?lang=fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("nav.page-links").get_by_role("link", name="Journal")).to_be_visible()
    shoot(page, shots, "committee-dashboard-fr.png")

    # a referee, on a phone: the shot clock, a group out of position or overdue first
    referee = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = watch.page(referee)
    page.goto(links["shot clock"])
    expect(page).to_have_url(f"{server.url}/rounds/demo/shotclock")
    first = page.locator("button.group-choice").first
    expect(first).to_be_visible()
    first.click()
    # the simulated referees may be timing it already: then the page offers to stop
    decide = page.get_by_role("button", name=re.compile("^(Time this group|Stop timing)$"))
    expect(decide.first).to_be_visible()
    shoot(page, shots, "referee-shotclock.png")

    # a marshal, on a phone: the holes watched, a tap, confirmed
    marshal = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = watch.page(marshal)
    page.goto(links["marshal"])
    expect(page).to_have_url(f"{server.url}/rounds/demo/marshal")
    for hole in (16, 17, 18):
        page.locator(f"label[for='hole-{hole}']").click()
    tap = page.locator("button.tap").first
    expect(tap).to_be_visible(timeout=30000)
    tap.click()
    expect(page.locator("li.entry[data-kind='hole_completed']").first).to_have_attribute(
        "data-state", re.compile("confirmed|refused")
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, shots, "marshal.png")

    # a scorer, on a phone: a group's card, with the scores the simulated scorers entered
    scorer = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = watch.page(scorer)
    page.goto(links["scorecard"])
    expect(page).to_have_url(f"{server.url}/rounds/demo/scorecard")
    expect(page.locator("#group option")).to_have_count(33)
    page.locator("#group").select_option("1")
    expect(page.locator("#card td.score").filter(has_text=re.compile(r"\d")).first).to_be_visible(
        timeout=30000
    )
    shoot(page, shots, "scorer-scorecard.png")

    # the public, on a phone, no sign-in: the leaderboard fills; no name is cut inside a word
    public = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = watch.page(public)
    page.goto(f"{server.url}/rounds/demo/leaderboard")
    expect(page.locator("tr.lb-row.st-ranked").first).to_be_visible(timeout=30000)
    board = server.get_json("/api/rounds/demo/leaderboard", token="")["leaderboard"]
    players = len(board["entries"])
    expect(page.locator("tr.lb-row")).to_have_count(players)
    assert players > 100
    assert page.evaluate(SPLIT_NAMES) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, shots, "public-leaderboard.png")

    for context in (committee, referee, marshal, scorer, public):
        context.close()
    assert watch.problems == []
    assert len(list(shots.glob("*.png"))) == 11

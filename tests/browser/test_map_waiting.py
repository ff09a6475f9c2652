"""The dashboard's map keeps its first tees clear (issue 47): the groups not started yet are
listed beside the map, in start order with their start times, not stacked over tees 1 and 10
(where they hid holes 1, 10 and 11); each is reached by the keyboard and opens its detail as a
group on the map does.

A round from tees 1 and 10: four groups on the course (the server's clock at 08:15), four
still to start (08:40 and 08:50 from each tee), drawn on the demo's map of Louiseville.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.conftest import local_today, sign_in
from browser.test_course_strip import serious
from livesupport import COURSE, DATA, TIMEZONE, LiveServer, clocked, live_server, pace
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/map-waiting")

# the draw's order is not the start order: 7 and 8 (08:40) are listed before 5 and 6 (08:50)
DRAW = """group,start,tee,player,handicap
1,08:00,1,Ann Peeters,12.0
2,08:00,10,Bart Maes,14.0
3,08:10,1,Carla Wouters,9.0
4,08:10,10,Dirk Claes,20.0
7,08:40,1,Griet Jacobs,15.0
8,08:40,10,Hans Mertens,7.0
5,08:50,1,Els Willems,11.0
6,08:50,10,Frank Goossens,18.0
"""
ON_COURSE = ["1", "2", "3", "4"]
WAITING = ["7", "8", "5", "6"]  # in start order: 08:40 from tee 1, then tee 10, then 08:50


@pytest.fixture
def two_tees(tmp_path) -> Iterator[LiveServer]:
    """A real ``pace serve`` at 08:15 on a round from tees 1 and 10, with the course's map."""
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW, encoding="utf-8")
    db = tmp_path / "pace.db"
    day = local_today(0).date().isoformat()
    pace("import", "course", str(COURSE), "--db", str(db), cwd=tmp_path)
    pace("import", "draw", str(draw), "--round", "R1", "--date", day, "--timezone", TIMEZONE,
         "--db", str(db), cwd=tmp_path)  # fmt: skip
    pace("import", "geometry", str(DATA / "course_louiseville.osm"), "--course",
         "Golf de Louiseville", "--db", str(db), cwd=tmp_path)  # fmt: skip
    with live_server(tmp_path, db=db, extra_args=clocked("08:15", tick=0.2)) as server:
        yield server


def overlaps(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def open_dashboard(page: Page, server: LiveServer, lang: str = "en") -> None:
    page.goto(f"{server.url}/rounds/R1/dashboard?lang={lang}")
    expect(page.locator("#strip-lanes section.strip-map svg g.map-hole")).to_have_count(18)


def check_tees_clear(page: Page) -> None:
    """No marker of a group not started lies over tee 1's or tee 10's tee or number."""
    lanes = page.locator("#strip-lanes")
    waiting = lanes.locator("li.strip-group[data-status='not_started']")
    expect(waiting).to_have_count(len(WAITING))
    for hole in (1, 10):
        drawn = lanes.locator(f"svg g.map-hole[data-hole='{hole}']")
        for part in ("rect", "text"):
            tee = drawn.locator(part).bounding_box()
            assert tee is not None
            for i in range(waiting.count()):
                box = waiting.nth(i).bounding_box()
                assert box is not None
                group = waiting.nth(i).get_attribute("data-group")
                assert not overlaps(box, tee), f"group {group} drawn over tee {hole}'s {part}"


def test_the_groups_not_started_wait_beside_the_map_in_start_order(two_tees, browser):
    server = two_tees
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    sign_in(context, server)
    page = context.new_page()
    open_dashboard(page, server)
    check_tees_clear(page)
    lanes = page.locator("#strip-lanes")
    on_map = lanes.locator(".map-wrap li.strip-group")
    expect(on_map).to_have_count(len(ON_COURSE))
    assert sorted(on_map.evaluate_all("(xs) => xs.map((x) => x.dataset.group)")) == ON_COURSE

    # the box beside the map: its title, the groups in start order with their start times
    box = lanes.locator("section.map-waiting")
    expect(box.locator("h4")).to_have_text("Not started yet")
    items = box.locator("li.strip-group")
    expect(items).to_have_count(len(WAITING))
    assert items.evaluate_all("(xs) => xs.map((x) => x.dataset.group)") == WAITING
    expect(items.locator(".start")).to_have_text(["08:40", "08:40", "08:50", "08:50"])
    label = items.first.locator("button").get_attribute("aria-label") or ""
    assert label.startswith("Group 7, Not started, ") and "starts at 08:40 on hole 1" in label
    # beside the map at a desk, not over it
    wrap = lanes.locator(".map-wrap").bounding_box()
    side = box.bounding_box()
    assert wrap and side and side["x"] >= wrap["x"] + wrap["width"], (wrap, side)
    assert serious(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "desk.png"), full_page=True)

    # a group on the map and a group in the box open their detail alike
    lanes.locator(".map-wrap li.strip-group[data-group='1'] button").click()
    expect(page.locator("#detail")).to_be_visible()
    expect(page.locator("#detail-title")).to_have_text("Group 1")
    page.keyboard.press("Escape")
    expect(page.locator("#detail")).to_be_hidden()
    items.nth(2).locator("button").click()
    expect(page.locator("#detail")).to_be_visible()
    expect(page.locator("#detail-title")).to_have_text("Group 5")
    page.keyboard.press("Escape")
    expect(page.locator("#detail")).to_be_hidden()

    # and by the keyboard: Tab from the last group on the map reaches the first one waiting
    last = on_map.last.locator("button")
    last.focus()
    page.keyboard.press("Tab")
    expect(items.first.locator("button")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#detail-title")).to_have_text("Group 7")

    # the public board draws its map the same way: the first tees clear, the waiting listed
    page.goto(f"{server.url}/rounds/R1/board?pause=0")
    board = page.locator("#strip-lanes section.strip-map")
    expect(board.locator("svg g.map-hole")).to_have_count(18)
    expect(board.locator(".map-wrap li.strip-group")).to_have_count(len(ON_COURSE))
    waiting = board.locator("section.map-waiting li.strip-group")
    assert waiting.evaluate_all("(xs) => xs.map((x) => x.dataset.group)") == WAITING
    label = waiting.first.locator("button").get_attribute("aria-label")
    assert label == "Group 7, starts at 08:40 on hole 1", label
    check_tees_clear(page)
    context.close()


@pytest.mark.parametrize("lang, title", [("nl", "Nog niet gestart"), ("fr", "Pas encore partis")])
def test_a_phone_sees_the_waiting_groups_under_the_map_in_its_language(
    two_tees, browser, lang, title
):
    server = two_tees
    context = browser.new_context(viewport={"width": 360, "height": 780})
    sign_in(context, server)
    page = context.new_page()
    open_dashboard(page, server, lang)
    check_tees_clear(page)
    box = page.locator("#strip-lanes section.map-waiting")
    expect(box.locator("h4")).to_have_text(title)
    expect(box.locator("li.strip-group")).to_have_count(len(WAITING))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    wrap = page.locator("#strip-lanes .map-wrap").bounding_box()
    side = box.bounding_box()
    assert wrap and side and side["y"] >= wrap["y"] + wrap["height"], (wrap, side)
    assert serious(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#strip").screenshot(path=str(SHOTS / f"phone-{lang}.png"))
    context.close()

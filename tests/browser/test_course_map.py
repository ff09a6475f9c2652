"""A course's own map (issue 40): the committee uploads an OpenStreetMap export on the course's
page and sees its holes drawn; a file with a hole at fault is refused with that hole's problem
and stores nothing; hostile files sent over HTTP by the committee (entity expansion, a huge
file, wrong refs) are refused with a clear message; the dashboard then draws the field on the
map, at a phone held sideways and at a desk, reached by keyboard, axe finding nothing serious.

The sample export is the project's own (tests/data/formats/course_louiseville.osm, the demo's
layout for the Louiseville course).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.test_course_strip import serious
from livesupport import LiveServer, pace
from playwright.sync_api import Page, expect

from pace import formats
from pace.demo import geography

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
SAMPLE = (DATA / "course_louiseville.osm").read_bytes()
COURSE = formats.load_course(str(DATA / "course_louiseville.toml"))
COURSE_PAGE = "/courses/edit?name=Golf+de+Louiseville"
SHOTS = Path("/tmp/shots/strip")


def secret(server: LiveServer) -> str:
    return server.db.with_name(server.db.name + ".committee-secret").read_text().strip()


@pytest.fixture
def console(server, browser) -> Iterator[Page]:
    """A page signed in with the committee secret (the courses are the console's)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "/login")
    page.locator("input[name=code]").fill(secret(server))
    page.locator("form.code-form button[type=submit]").click()
    expect(page.locator("#console-link")).to_be_visible()
    yield page
    context.close()


def send(page: Page, name: str, text: str | None = None, size: int = 0) -> dict:
    """POST a map file as the course page does (the committee's session and form token)."""
    return page.evaluate(
        """async ([name, text, size]) => {
            const data = new FormData();
            data.set('csrf', document.getElementById('app').dataset.csrf);
            data.set('course', 'Golf de Louiseville');
            const body = text !== null ? text : '<osm>' + ' '.repeat(size) + '</osm>';
            data.set('file', new Blob([body]), name);
            const r = await fetch('/api/courses/geometry', {method: 'POST', body: data});
            return {status: r.status, body: await r.json()};
        }""",
        [name, text, size],
    )


def test_the_committee_uploads_a_map_and_a_hole_at_fault_is_refused(server, console):
    page = console
    page.goto(server.url + COURSE_PAGE)
    expect(page.locator("#map-status")).to_have_text("This course has no map yet.")

    # one hole at fault (hole 3 tagged par 4, the course's par 3): refused, by that hole
    bad = geography.osm_xml(COURSE, wrong_par=[3]).encode()
    page.locator("#map-file").set_input_files(
        {"name": "louiseville.osm", "mimeType": "application/xml", "buffer": bad}
    )
    result = page.locator("#map-result")
    expect(result.locator("ul.problems li")).to_have_text(
        ["hole 3: par 4 in the file, par 3 in the course"]
    )
    expect(page.locator("#map-preview")).to_be_hidden()
    expect(page.locator("#map-status")).to_have_text("This course has no map yet.")

    # the sample export: previewed (its 18 holes, nothing stored), then stored and drawn
    page.locator("#map-file").set_input_files(
        {"name": "course_louiseville.osm", "mimeType": "application/xml", "buffer": SAMPLE}
    )
    expect(page.locator("#map-preview-title")).to_have_text(
        "Preview of course_louiseville.osm: 18 holes matched; nothing stored yet."
    )
    expect(page.locator("#map-holes tbody tr")).to_have_count(18)
    expect(page.locator("#map-choice")).to_be_hidden()  # one course: nothing to choose
    expect(page.locator("#map-status")).to_have_text("This course has no map yet.")
    page.locator("#map-store").click()
    expect(result).to_have_text("Map stored: 18 holes.")
    expect(page.locator("#map-status")).to_have_text(
        "Map of 18 holes, from course_louiseville.osm."
    )
    expect(page.locator("#map-view svg g.map-hole")).to_have_count(18)
    assert serious(page) == []

    # hostile files over HTTP from the committee: refused, clearly, and nothing changes
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE osm [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>'
        "<osm>&c;</osm>"
    )
    answer = send(page, "laughs.osm", laughs)
    assert answer["status"] == 400 and answer["body"]["error"]["code"] == "invalid_file"
    assert "declares a document type or entities" in answer["body"]["problems"][0]["text"]
    huge = send(page, "huge.osm", None, 6 * 1024 * 1024)
    assert huge["status"] == 413, huge
    assert huge["body"]["error"]["message"].startswith(
        "the file is 6.0 MB: more than the 5 MB a course's map may take"
    )
    wrong = geography.osm_xml(COURSE).replace('k="ref" v="18"', 'k="ref" v="81"')
    refs = send(page, "refs.osm", wrong)
    texts = [p["text"] for p in refs["body"]["problems"]]
    assert refs["status"] == 400
    assert any("hole '81'" in t and "the course has no such hole" in t for t in texts), texts
    assert any("hole 18: not in the file" in t for t in texts), texts
    stored = page.evaluate(
        "fetch('/api/courses/Golf%20de%20Louiseville/geometry').then((r) => r.json())"
    )
    assert stored["geometry"]["source"] == "course_louiseville.osm"
    assert len(stored["geometry"]["holes"]) == 18


def test_the_dashboard_draws_the_field_on_the_courses_map(server, console, today_at):
    page = console
    page.goto(server.url + COURSE_PAGE)
    page.locator("#map-file").set_input_files(
        {"name": "course_louiseville.osm", "mimeType": "application/xml", "buffer": SAMPLE}
    )
    page.locator("#map-store").click()
    expect(page.locator("#map-view svg g.map-hole")).to_have_count(18)
    server.tap("1", 1, today_at(8, 14))
    server.tap("1", 2, today_at(8, 30))
    for viewport, name in (({"width": 844, "height": 390}, "phone"),
                           ({"width": 1280, "height": 800}, "desk")):  # fmt: skip
        page.set_viewport_size(viewport)
        page.goto(server.url + "/rounds/R1/dashboard")
        lanes = page.locator("#strip-lanes")
        expect(lanes.locator("section.strip-map svg g.map-hole")).to_have_count(18)
        markers = lanes.locator("section.strip-map li.strip-group")
        expect(markers).to_have_count(6)
        one = lanes.locator("li.strip-group[data-group='1']")
        expect(one).to_have_attribute("data-hole", "3")
        # placed on hole 3's line, not at the map's corner
        box = one.bounding_box()
        frame = lanes.locator("section.strip-map .map-wrap").bounding_box()
        assert box and frame and box["x"] > frame["x"] + 5 and box["y"] > frame["y"] + 5
        label = one.locator("button").get_attribute("aria-label") or ""
        assert label.startswith("Group 1, ") and "on hole 3" in label, label
        assert serious(page) == []
        page.screenshot(path=str(SHOTS / f"map-{name}.png"), full_page=True)
    # the keyboard reaches the groups on the map; the strip is one click away
    one.locator("button").focus()
    expect(one.locator("button")).to_be_focused()
    page.locator("#strip-map").uncheck()
    expect(lanes.locator("section.strip-lane")).to_have_count(1)
    expect(lanes.locator("li.strip-group")).to_have_count(6)
    expect(lanes.locator("section.strip-map")).to_have_count(0)
    # the public board draws its facts-only strip on the map too
    page.goto(server.url + "/rounds/R1/board?pause=0")
    board = page.locator("#strip-lanes section.strip-map")
    expect(board.locator("svg g.map-hole")).to_have_count(18)
    expect(board.locator("li.strip-group")).to_have_count(6)
    label = board.locator("li.strip-group[data-group='1'] button").get_attribute("aria-label")
    assert label == "Group 1, on hole 3", label
    assert serious(page) == []
    page.screenshot(path=str(SHOTS / "map-board.png"), full_page=True)


MAPS = DATA / "maps"


def test_a_site_of_two_courses_is_chosen_previewed_and_stored_on_a_phone(server, browser):
    """Issue 46: Royal Melbourne's way (two courses in one file): the page asks which one
    this course is, previews its holes, and stores the one chosen; at 360 px."""
    pace("import", "course", str(MAPS / "course_nine.toml"), "--db", str(server.db),
         cwd=server.db.parent)  # fmt: skip
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.goto(server.url + "/login")
    page.locator("input[name=code]").fill(secret(server))
    page.locator("form.code-form button[type=submit]").click()
    expect(page.locator("#console-link")).to_be_visible()
    page.goto(server.url + "/courses/edit?name=Nine+of+the+West")
    site = (MAPS / "melbourne.osm").read_bytes()
    page.locator("#map-file").set_input_files(
        {"name": "melbourne.osm", "mimeType": "application/xml", "buffer": site}
    )
    result, select = page.locator("#map-result"), page.locator("#map-course")
    expect(result).to_have_text(
        "The file holds several courses: choose the one that is this course."
    )
    expect(select.locator("option")).to_have_text(
        ["Choose…", "West Course: 9 holes (1W–9W)", "East Course: 9 holes (1E–9E)"]
    )
    expect(page.locator("#map-preview")).to_be_hidden()

    # the East course: its hole 2 is a par 3, the course's a par 4
    select.select_option(label="East Course: 9 holes (1E–9E)")
    expect(result.locator("ul.problems li")).to_have_text(
        ["hole 2: par 3 in the file, par 4 in the course"]
    )
    expect(page.locator("#map-preview")).to_be_hidden()

    # the West course: its holes previewed, nothing stored yet
    select.select_option(label="West Course: 9 holes (1W–9W)")
    expect(page.locator("#map-preview-title")).to_have_text(
        "Preview of melbourne.osm: 9 holes matched; nothing stored yet."
    )
    rows = page.locator("#map-holes tbody tr")
    expect(rows).to_have_count(9)
    expect(rows.first.locator("td")).to_have_text(["1", "1W", "4", "310 m", "Tea Tree"])
    expect(rows.nth(1).locator("td")).to_have_text(["2", "2W", "4", "320 m", "—"])
    expect(page.locator("#map-status")).to_have_text("This course has no map yet.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#map-box").screenshot(path=str(SHOTS / "course-map-choice-360.png"))

    page.locator("#map-store").click()
    expect(result).to_have_text("Map stored: 9 holes.")
    expect(page.locator("#map-status")).to_have_text("Map of 9 holes, from melbourne.osm.")
    expect(page.locator("#map-view svg g.map-hole")).to_have_count(9)
    stored = page.evaluate(
        "fetch('/api/courses/Nine%20of%20the%20West/geometry').then((r) => r.json())"
    )
    assert stored["geometry"]["holes"][0]["line"][0] == [145.03, -37.972]  # West's first tee
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(SHOTS / "course-map-stored-360.png"), full_page=True)
    context.close()

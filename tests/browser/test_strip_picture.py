"""The field's picture (issue 46): the dashboard's strip, its map and the public board show what
the log says at every instant asked.

- a fast drag of the rewind slider: the answers for the instants passed on the way come back
  late, after the slider stopped; none of them is drawn over the instant it shows;
- a correction (or a void) of a tap: the strip rewound "with later corrections" moves the group
  as ``GET status?at=`` does, and never draws its cached picture of the instant again.

Round R1 (tests/browser/conftest.py), the server's clock at noon.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from browser.test_course_strip import markers, serious, slide_to
from livesupport import (
    COURSE,
    DATA,
    TIMEZONE,
    LiveServer,
    command,
    live_server,
    pace,
    wait_for,
)
from playwright.sync_api import Page, Route, expect

pytestmark = pytest.mark.browser

DASHBOARD = "/rounds/R1/dashboard"
DESK = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 780}
SHOTS = Path("/tmp/shots/picture")
MAP = DATA / "course_louiseville.osm"


def open_dashboard(server, browser, viewport=DESK) -> tuple:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('referee')}")
    page.goto(server.url + DASHBOARD)
    expect(page.locator("#strip-lanes li.strip-group")).to_have_count(6)
    return context, page


def slider_instant(page: Page) -> str:
    """Return the instant the slider shows, as the page writes it (``data-drawn``)."""
    minute = int(page.locator("#strip-at").input_value())
    return datetime.fromtimestamp(minute * 60, UTC).isoformat().replace("+00:00", ".000Z")


def answers(page: Page) -> int:
    """Return how many answers of GET .../strip the page has read."""
    return int(page.locator("#strip").get_attribute("data-answers") or 0)


class Held:
    """Hold the page's GET .../strip requests while ``holding``, and let them go on ``release``:
    their answers then come after everything the page did meanwhile."""

    def __init__(self, page: Page) -> None:
        self.holding = False
        self.routes: list[Route] = []
        self.asked = 0  # every request seen, held or not: the page reads an answer to each
        page.route("**/api/rounds/R1/strip?*", self.handle)

    def handle(self, route: Route) -> None:
        self.asked += 1
        if self.holding:
            self.routes.append(route)
        else:
            route.continue_()

    def release(self) -> int:
        """Let every held request go on, in the order asked; return how many."""
        self.holding = False
        held, self.routes = self.routes, []
        for route in held:
            route.continue_()
        return len(held)


def test_a_fast_drag_draws_the_instant_the_slider_shows_never_a_late_answer(
    server, browser, today_at
):
    """Issue 46: two fast drags, each passing instants the server answers late; the first ends
    on an instant already read (drawn from the cache), the second ahead of now (projected).
    Before the fix, the last late answer was drawn over the slider's instant both times."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for group, hole, at in (("1", 1, (8, 14)), ("1", 2, (8, 30)), ("1", 3, (8, 45)),
                            ("2", 1, (8, 26)), ("2", 2, (8, 44)), ("3", 1, (8, 40))):  # fmt: skip
        server.tap(group, hole, today_at(*at))
    context, page = open_dashboard(server, browser)
    held = Held(page)
    page.locator("#strip-corrected").check()
    strip = page.locator("#strip")
    box = page.locator("#strip-at").bounding_box()
    assert box
    y = box["y"] + box["height"] / 2
    x0 = box["x"] + box["width"] * 0.25  # mid-morning: an instant read from the server

    # the slider's instant, read once: in the cache
    page.mouse.click(x0, y)
    expect(strip).to_have_attribute("data-mode", "rewound")
    first = slider_instant(page)
    expect(strip).to_have_attribute("data-drawn", first)

    # drag 1: back over the morning and return; the instants passed are answered late
    held.holding = True
    page.mouse.move(x0, y)
    page.mouse.down()
    page.mouse.move(x0 - 120, y, steps=8)
    page.mouse.move(x0, y, steps=8)
    page.mouse.up()
    assert slider_instant(page) == first
    expect(strip).to_have_attribute("data-drawn", first)
    late = held.release()
    assert late >= 3, late  # the drag asked for several instants on the way
    # every answer read, the late ones last
    assert wait_for(lambda: answers(page) == held.asked, timeout=10), (answers(page), held.asked)
    expect(strip).to_have_attribute("data-drawn", first)
    status = server.get_json(f"/api/rounds/R1/status?at={local_hhmm(first)}")
    drawn = markers(page)
    for g in status["groups"]:
        assert drawn[g["group"]]["status"] == g["status"], (g, drawn[g["group"]])
        assert int(drawn[g["group"]]["holes_completed"]) == g["holes_completed"], g

    # drag 2: back over the morning again, then on past now to the slider's end (ahead)
    held.holding = True
    page.mouse.move(x0, y)
    page.mouse.down()
    page.mouse.move(x0 - 60, y, steps=6)
    page.mouse.move(box["x"] + box["width"] + 20, y, steps=6)
    page.mouse.up()
    expect(strip).to_have_attribute("data-mode", "ahead")
    end = slider_instant(page)
    expect(strip).to_have_attribute("data-drawn", end)
    late = held.release()
    assert late >= 3, late
    # every answer read, the late ones last
    assert wait_for(lambda: answers(page) == held.asked, timeout=10), (answers(page), held.asked)
    expect(strip).to_have_attribute("data-mode", "ahead")
    expect(strip).to_have_attribute("data-drawn", end)
    expect(page.locator("#strip-lanes li.strip-group.projected")).to_have_count(6)
    context.close()


def local_hhmm(iso: str) -> str:
    """Return ``iso`` (UTC) as the round's local ``HH:MM`` (what ``status?at=`` takes)."""
    at = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return at.astimezone(ZoneInfo(TIMEZONE)).strftime("%H:%M")


def correct(server, target: str, at: datetime) -> dict:
    """Correct the time of the tap ``target`` to ``at`` as a referee's page does (the
    ``correct_hole_time`` command, through its HTTP mirror); assert ok."""
    now = server.get_json("/api/rounds/R1/snapshot")["snapshot"]["at"]
    body = {"id": str(uuid.uuid4()), "round": "R1", "target": target, "at": at.isoformat(),
            "device_time": now, "reason": "the marshal tapped late"}  # fmt: skip
    answer = server.post_json("/api/commands/correct_hole_time", body)
    assert answer["ok"], answer
    return answer


def void(server, target: str) -> dict:
    """Void the tap ``target`` (the ``void_event`` command, through its HTTP mirror)."""
    body = {"id": str(uuid.uuid4()), "round": "R1", "target": target, "reason": "wrong group"}
    answer = server.post_json("/api/commands/void_event", body)
    assert answer["ok"], answer
    return answer


def agrees_with_status(page: Page, server, hhmm: str) -> None:
    """Check that the strip draws what GET status?at=``hhmm`` says of every group."""
    status = server.get_json(f"/api/rounds/R1/status?at={hhmm}")
    drawn = markers(page)
    assert set(drawn) == {g["group"] for g in status["groups"]}
    for g in status["groups"]:
        shown = drawn[g["group"]]
        assert shown["status"] == g["status"], (hhmm, g, shown)
        assert int(shown["holes_completed"]) == g["holes_completed"], (hhmm, g, shown)


def test_a_correction_moves_the_rewound_strip_as_status_at_says(server, browser, today_at):
    """Issue 46: rewound "with later corrections", the strip follows a correction and a void
    of a tap, at the instant shown and at an instant it had read before them."""
    server.tap("1", 1, today_at(8, 14))
    second = server.tap("1", 2, today_at(8, 30))["id"]
    third = server.tap("1", 3, today_at(9, 0))["id"]
    context, page = open_dashboard(server, browser)
    one = page.locator("#strip-lanes li.strip-group[data-group='1']")
    page.locator("#strip-corrected").check()
    # 09:12 read once (in the page's cache), then 09:10 shown: group 1 after three holes
    slide_to(page, today_at(9, 12))
    expect(page.locator("#strip-when")).to_have_text("09:12")
    expect(one).to_have_attribute("data-holes-completed", "3")
    slide_to(page, today_at(9, 10))
    expect(page.locator("#strip-when")).to_have_text("09:10")
    expect(one).to_have_attribute("data-holes-completed", "3")
    expect(one).to_have_attribute("data-hole", "4")

    # the referee corrects hole 3 to 09:15: at 09:10 group 1 is back on hole 3, at once
    correct(server, third, today_at(9, 15))
    expect(one).to_have_attribute("data-holes-completed", "2")
    expect(one).to_have_attribute("data-hole", "3")
    agrees_with_status(page, server, "09:10")
    # the instant read before the correction is read again, not drawn from the cache
    slide_to(page, today_at(9, 12))
    expect(page.locator("#strip-when")).to_have_text("09:12")
    expect(one).to_have_attribute("data-holes-completed", "2")
    agrees_with_status(page, server, "09:12")

    # a void: hole 2's tap was another group's; at 09:12 group 1 has completed hole 1 only
    void(server, second)
    expect(one).to_have_attribute("data-holes-completed", "1")
    agrees_with_status(page, server, "09:12")
    page.set_viewport_size(PHONE)
    slide_to(page, today_at(9, 12))  # drawn again at a phone's width (its markers stacked so)
    expect(one).to_have_attribute("data-holes-completed", "1")
    page.screenshot(path=str(SHOTS / "dashboard-360-rewound.png"), full_page=True)
    context.close()


def board_strip(page: Page) -> dict[str, str]:
    """Return each group the board's strip (or map) draws, with its label."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#strip-lanes li.strip-group')]
            .map((li) => [li.dataset.group,
                          li.querySelector('button').getAttribute('aria-label')]))"""
    )


def test_the_board_shows_a_withdrawn_group_as_withdrawn_never_on_the_course(
    server, browser, today_at
):
    """Issue 46: the public board drew a group that had withdrawn on the hole after its last
    ("Group 14, on hole 18"). Withdrawn through the console's command (its last player
    retiring), it leaves the board's strip and its map, and its row says it withdrew."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for hole, at in ((1, (8, 14)), (2, (8, 28)), (3, (8, 42))):
        server.tap("1", hole, today_at(*at))
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('viewer')}")
    page.goto(server.url + "/rounds/R1/board?pause=0")
    row = page.locator("tr.board-row[data-group='1']")
    expect(page.locator("#strip-lanes li.strip-group")).to_have_count(6)
    assert board_strip(page)["1"] == "Group 1, on hole 4"
    expect(row.locator("td.b-hole[data-hole='4'] .b-due")).not_to_have_text("")

    # the committee records the group's three players as retired at 09:00: the group withdraws
    for player in ("Marie Lavoie", "Julie Gagnon", "Sophie Tremblay"):
        command(server, "change_withdraw", player=player, reason="retired", at="09:00",
                note="lightning, went in")  # fmt: skip
    expect(page.locator("#strip-lanes li.strip-group")).to_have_count(5)
    assert "1" not in board_strip(page)
    expect(row).to_have_class(re.compile(r"\bwithdrawn\b"))
    expect(row.locator(".b-withdrawn")).to_have_text("Withdrawn")
    # the holes it played stay, the others are due no more
    expect(row.locator("td.b-hole[data-hole='3'] .b-done")).to_have_text("08:42")
    expect(row.locator("td.b-hole[data-hole='4']")).to_have_text("")
    assert "on hole 4" not in page.locator("#app").inner_text()
    assert serious(page) == []
    page.screenshot(path=str(SHOTS / "board-360-withdrawn.png"), full_page=True)

    # on the course's map, the same: five groups drawn, group 1 not among them
    pace("import", "geometry", str(MAP), "--course", "Golf de Louiseville",
         "--db", str(server.db), cwd=server.db.parent)  # fmt: skip
    page.reload()
    expect(page.locator("#strip-lanes section.strip-map svg g.map-hole")).to_have_count(18)
    expect(page.locator("#strip-lanes section.strip-map li.strip-group")).to_have_count(5)
    assert "1" not in board_strip(page)
    expect(row.locator(".b-withdrawn")).to_have_text("Withdrawn")
    page.screenshot(path=str(SHOTS / "board-360-withdrawn-map.png"), full_page=True)
    context.close()


def interleaved_draw(folder: Path) -> Path:
    """Eight three-balls off tees 1 and 10 in turn, two every 10 minutes from 08:00: the draw
    lists them by start, so its order (1, 2, 3 …) alternates between the strip's two lanes."""
    lines = ["group,start,tee,player"]
    for i in range(8):
        start = datetime(2026, 1, 1, 8, 0) + timedelta(minutes=10 * (i // 2))
        tee = 1 if i % 2 == 0 else 10
        lines += [f"{i + 1},{start:%H:%M},{tee},Player {i + 1}-{p + 1}" for p in range(3)]
    path = folder / "interleaved.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def crossover(tmp_path, today_at) -> Iterator[LiveServer]:
    """A real ``pace serve`` with the interleaved crossover draw for today, its clock at noon."""
    db = tmp_path / "pace.db"
    day = today_at(12).date().isoformat()
    pace("import", "course", str(COURSE), "--db", str(db), cwd=tmp_path)
    pace("import", "draw", str(interleaved_draw(tmp_path)), "--round", "R1", "--date", day,
         "--timezone", TIMEZONE, "--db", str(db), cwd=tmp_path)  # fmt: skip
    origin = today_at(12).isoformat()
    with live_server(tmp_path, db=db, extra_args=["--clock-origin", origin, "--tick", "0.2"]) as s:
        yield s


#: each group's tee in the interleaved draw
TEES = {str(i + 1): "1" if i % 2 == 0 else "10" for i in range(8)}


def placed_in_their_lanes(page: Page) -> list[str]:
    """Return what is wrong with where the strip draws its groups: each must be inside the
    lane of its tee (:data:`TEES`), over the hole it is on (its ``data-hole``)."""
    return page.evaluate(
        """(tees) => {
            const wrong = [];
            const lane = {};
            for (const s of document.querySelectorAll('#strip-lanes section.strip-lane'))
                lane[s.dataset.tee] = s;
            for (const li of document.querySelectorAll('#strip-lanes li.strip-group')) {
                const r = li.getBoundingClientRect();
                const x = r.left + r.width / 2, y = r.top + r.height / 2;
                const tee = tees[li.dataset.group];
                const box = lane[tee].getBoundingClientRect();
                if (y < box.top || y > box.bottom)
                    wrong.push(`${li.dataset.group}: not in lane ${tee}`);
                const hole = lane[tee].querySelector(`.strip-hole[data-hole="${li.dataset.hole}"]`)
                    .getBoundingClientRect();
                if (x < hole.left - 1 || x > hole.right + 1)
                    wrong.push(`${li.dataset.group}: ${x} not over hole ${li.dataset.hole}`);
            }
            return wrong;
        }""",
        TEES,
    )


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone-360"])
def test_the_keyboard_meets_the_strips_groups_in_draw_order_across_lanes(
    crossover, browser, today_at, viewport
):
    """Issue 46: docs/status.md says the keyboard meets the strip's groups in draw order; Tab
    went lane by lane (1, 3, 5, 7, then 2, 4, 6, 8 in a crossover listed by start). Each group
    stays drawn in its own lane, over its hole."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = crossover
    server.tap("1", 1, today_at(8, 14))
    server.tap("1", 2, today_at(8, 30))
    server.tap("2", 10, today_at(8, 15))
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('referee')}")
    page.goto(server.url + DASHBOARD)
    groups = page.locator("#strip-lanes li.strip-group")
    expect(groups).to_have_count(8)
    expect(page.locator("#strip-lanes section.strip-lane")).to_have_count(2)
    expect(page.locator("#strip-lanes li.strip-group[data-group='1']")).to_have_attribute(
        "data-hole", "3"
    )
    expect(page.locator("#strip-lanes li.strip-group[data-group='2']")).to_have_attribute(
        "data-hole", "11"
    )
    page.locator("#strip-corrected").focus()
    seen = []
    for _ in range(8):
        page.keyboard.press("Tab")
        seen.append(
            page.evaluate("document.activeElement.closest('li.strip-group')?.dataset.group")
        )
    assert seen == ["1", "2", "3", "4", "5", "6", "7", "8"], seen
    assert placed_in_their_lanes(page) == []
    assert serious(page) == []
    page.screenshot(path=str(SHOTS / f"crossover-{viewport['width']}.png"), full_page=True)
    # the board's facts-only strip: the same lanes, the same order
    page.goto(server.url + "/rounds/R1/board?pause=0")
    expect(groups).to_have_count(8)
    buttons = page.locator("#strip-lanes li.strip-group button")
    assert [b.get_attribute("aria-label") for b in buttons.all()][:2] == [
        "Group 1, on hole 3",
        "Group 2, on hole 11",
    ]
    assert placed_in_their_lanes(page) == []
    page.screenshot(path=str(SHOTS / f"crossover-board-{viewport['width']}.png"), full_page=True)
    context.close()


def chain_ends(page: Page, section: str) -> dict:
    """Return, in px on the page, the ends of group 1's chain line in ``section`` and the
    centres of the markers of the groups it joins (on the map, a marker's spot is its centre
    when it is the first drawn there)."""
    return page.evaluate(
        """(section) => {
            const root = document.querySelector(section);
            const svg = root.querySelector('svg.map-chain-lines');
            const box = svg.getBoundingClientRect();
            const line = svg.querySelectorAll('g.map-chain-line[data-chain="1"] polyline')[1];
            const points = line.getAttribute('points').trim().split(' ').map((xy) => {
                const [x, y] = xy.split(',').map(Number);
                return [box.left + (x / 100) * box.width, box.top + (y / 100) * box.height];
            });
            const centre = (g) => {
                const r = root.querySelector(`li.strip-group[data-group="${g}"] button`)
                    .getBoundingClientRect();
                return [r.left + r.width / 2, r.top + r.height / 2];
            };
            return {points, one: centre('1'), two: centre('2')};
        }""",
        section,
    )


def test_the_map_joins_a_hold_up_chain_as_the_lanes_do(server, browser, today_at):
    """Issue 46: on the course's map the group holding the field up was ringed, but nothing
    joined it to the groups it held, as the lanes' bar does. Group 1 (out of position on hole
    1, 16 min over, course open ahead) holds group 2 up there; group 1 has moved on to hole 3,
    group 2 is on hole 2."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    server.tap("1", 1, today_at(8, 30))
    server.tap("1", 2, today_at(8, 50))
    server.tap("2", 1, today_at(8, 36))
    held = server.get_json("/api/rounds/R1/snapshot")["snapshot"]["held_up"]
    assert [(h["group"], [b["group"] for b in h["behind"]], h["ongoing"]) for h in held] == [
        ("1", ["2"], True)
    ], held
    pace("import", "geometry", str(MAP), "--course", "Golf de Louiseville",
         "--db", str(server.db), cwd=server.db.parent)  # fmt: skip
    for viewport, name in ((DESK, "desk"), (PHONE, "360")):
        context, page = open_dashboard(server, browser, viewport)
        on_map = page.locator("#strip-lanes section.strip-map")
        expect(on_map.locator("svg g.map-hole")).to_have_count(18)
        expect(on_map.locator("li.strip-group[data-group='1']")).to_have_class(
            re.compile(r"\bholding\b")
        )
        expect(on_map.locator(".strip-chain[data-group='1']")).to_have_text("Group 1 holding up 2")
        ends = chain_ends(page, "#strip-lanes section.strip-map")
        # the line runs from group 1's spot (the end of hole 3) to group 2's (hole 2's)
        assert len(ends["points"]) == 2, ends
        for (x, y), (cx, cy) in zip(ends["points"], (ends["one"], ends["two"]), strict=True):
            assert abs(x - cx) < 2 and abs(y - cy) < 2, ends
        assert serious(page) == []
        # rewound to 08:40 with the later corrections: both groups along hole 2, the chain
        # joining them there (group 1 a little over halfway, group 2 near its tee)
        page.locator("#strip-corrected").check()
        slide_to(page, today_at(8, 40))
        expect(on_map.locator("li.strip-group[data-group='1']")).to_have_attribute("data-hole", "2")
        expect(on_map.locator("li.strip-group[data-group='2']")).to_have_attribute("data-hole", "2")
        expect(on_map.locator(".strip-chain[data-group='1']")).to_have_text("Group 1 holding up 2")
        ends = chain_ends(page, "#strip-lanes section.strip-map")
        for (x, y), (cx, cy) in zip(ends["points"], (ends["one"], ends["two"]), strict=True):
            assert abs(x - cx) < 2 and abs(y - cy) < 2, ends
        apart = abs(ends["one"][0] - ends["two"][0]) + abs(ends["one"][1] - ends["two"][1])
        assert apart > 30, ends
        page.screenshot(path=str(SHOTS / f"map-chain-{name}.png"), full_page=True)
        # the lanes draw the same chain as their bar, in the same words
        page.locator("#strip-map").uncheck()
        lane = page.locator("#strip-lanes section.strip-lane")
        expect(lane.locator(".strip-chain[data-group='1']")).to_have_text("Group 1 holding up 2")
        context.close()

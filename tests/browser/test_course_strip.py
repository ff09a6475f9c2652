"""The course strip on the referees' dashboard (issue 40): every group drawn on the hole it is
playing, live from the feed's rows; rewound with the slider to the field as the log stood at an
instant (or with the corrections logged since); projected ahead of now; at a phone's width held
sideways and a desk's; reached by keyboard and screen reader; axe finds nothing serious.

Round R1, the server's clock at noon: every tap is *recorded* at noon or after, so an instant of
the morning in the default reading ("as known then") shows none of them, and the reading "with
later corrections" shows those dated before it — the same judgement as GET status?at=.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

DASHBOARD = "/rounds/R1/dashboard"
PHONE_SIDEWAYS = {"width": 844, "height": 390}
DESK = {"width": 1280, "height": 800}
SHOTS = Path("/tmp/shots/strip")
AXE = Axe()


def serious(page: Page) -> list[str]:
    """Return axe-core's serious and critical violations on ``page`` as it is."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    found = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def markers(page: Page) -> dict[str, dict[str, str]]:
    """Return what the strip draws of each group: status, hole, holes completed, estimate."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#strip-lanes li.strip-group')]
            .map((li) => [li.dataset.group, {status: li.dataset.status, hole: li.dataset.hole,
                holes_completed: li.dataset.holesCompleted, estimate: li.dataset.estimate,
                label: li.querySelector('button').getAttribute('aria-label')}]))"""
    )


def slide_to(page: Page, when) -> None:
    """Move the slider to ``when`` the way a keyboard or a drag does (an ``input`` event)."""
    minute = int(when.timestamp() // 60)
    page.evaluate(
        """(m) => { const s = document.getElementById('strip-at'); s.value = String(m);
            s.dispatchEvent(new Event('input', {bubbles: true})); }""",
        minute,
    )


def open_dashboard(server, browser, viewport) -> tuple:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('referee')}")
    page.goto(server.url + DASHBOARD)
    expect(page.locator("#strip-lanes li.strip-group")).to_have_count(6)
    return context, page


def test_the_strip_at_10_30_is_status_at_10_30_and_rewinding_hides_later_taps(
    server, browser, today_at
):
    for group, hole, at in (("1", 1, (8, 14)), ("1", 2, (8, 30)), ("2", 1, (8, 26)),
                            ("3", 1, (8, 40)), ("1", 3, (10, 40))):  # fmt: skip
        server.tap(group, hole, today_at(*at))
    context, page = open_dashboard(server, browser, DESK)
    # live: group 1 is on hole 4 after three holes, from the feed's rows
    live = page.locator("#strip-lanes li.strip-group[data-group='1']")
    expect(live).to_have_attribute("data-hole", "4")
    expect(live).to_have_attribute("data-holes-completed", "3")
    expect(page.locator("#strip")).to_have_attribute("data-mode", "live")

    # a tap sent now moves its group on the live strip, from the delta alone
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    server.tap("2", 2, today_at(8, 45))
    expect(page.locator("#strip-lanes li.strip-group[data-group='2']")).to_have_attribute(
        "data-hole", "3"
    )
    assert not [u for u in asked if "/strip" in u or "/snapshot" in u], asked

    # rewound to 10:30 with the later corrections: exactly GET status?at=10:30
    page.locator("#strip-corrected").check()
    slide_to(page, today_at(10, 30))
    expect(page.locator("#strip")).to_have_attribute("data-mode", "rewound")
    expect(page.locator("#strip-when")).to_have_text("10:30")
    expect(page.locator("#strip-lanes li.strip-group[data-group='1']")).to_have_attribute(
        "data-hole", "3"
    )  # the tap at 10:40 is not yet
    status = server.get_json("/api/rounds/R1/status?at=10:30")
    snapshot = server.get_json("/api/rounds/R1/snapshot")["snapshot"]
    orders = {r["group"]: r["order"] for r in snapshot["groups"]}
    drawn = markers(page)
    assert set(drawn) == {g["group"] for g in status["groups"]}
    for g in status["groups"]:
        shown = drawn[g["group"]]
        assert shown["status"] == g["status"], (g, shown)
        assert int(shown["holes_completed"]) == g["holes_completed"], (g, shown)
        if g["status"] not in ("finished", "withdrawn"):
            order = orders[g["group"]]
            assert shown["hole"] == str(order[g["holes_completed"]]), (g, shown)
        if g["gap_min"] is not None:
            assert f"{g['gap_min']:.1f} min behind" in shown["label"], (g, shown)
    page.screenshot(path=str(SHOTS / "desk-rewound-corrected.png"))

    # as known at 10:30 (the default): every tap was logged at noon, after it: none is drawn
    page.locator("#strip-corrected").uncheck()
    one = page.locator("#strip-lanes li.strip-group[data-group='1']")
    expect(one).to_have_attribute("data-holes-completed", "0")
    expect(one).to_have_attribute("data-hole", "1")
    assert serious(page) == []

    # a reading the endpoint does not know is refused, by name
    wrong = server.get_json("/api/rounds/R1/strip?at=10:30&reading=later")
    assert wrong["ok"] is False and wrong["error"]["field"] == "reading", wrong

    # back to now: live again, the taps drawn
    page.locator("#strip-now").click()
    expect(page.locator("#strip")).to_have_attribute("data-mode", "live")
    expect(one).to_have_attribute("data-hole", "4")
    context.close()


def test_the_strip_at_a_phone_held_sideways_by_keyboard_and_ahead_of_now(server, browser, today_at):
    SHOTS.mkdir(parents=True, exist_ok=True)
    server.tap("1", 1, today_at(8, 14))
    server.tap("1", 2, today_at(8, 50))
    server.tap("2", 1, today_at(8, 40))
    context, page = open_dashboard(server, browser, PHONE_SIDEWAYS)
    assert serious(page) == []
    page.screenshot(path=str(SHOTS / "phone-live.png"), full_page=True)
    # every group is a button with its place in words; the keyboard reaches each
    buttons = page.locator("#strip-lanes li.strip-group button")
    expect(buttons).to_have_count(6)
    label = buttons.nth(0).get_attribute("aria-label") or ""
    assert label.startswith("Group ") and "hole" in label, label
    page.locator("#strip-corrected").focus()
    seen = []
    for _ in range(6):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.closest('li')?.dataset.group"))
    assert sorted(g for g in seen if g) == ["1", "2", "3", "4", "5", "6"], seen
    # a group's button opens its detail
    page.locator("#strip-lanes li.strip-group[data-group='1'] button").click()
    expect(page.locator("#detail")).to_be_visible()
    page.keyboard.press("Escape")

    # ahead of now: the groups projected on, faded; a group out of time is still drawn on
    slide_to(page, today_at(13, 30))
    expect(page.locator("#strip")).to_have_attribute("data-mode", "ahead")
    expect(page.locator("#strip-lanes li.strip-group.projected").first).to_be_visible()
    assert serious(page) == []
    page.screenshot(path=str(SHOTS / "phone-ahead.png"), full_page=True)

    # play: the slider moves on by itself, and pauses
    slide_to(page, today_at(9, 0))
    before = page.locator("#strip-when").text_content()
    page.locator("#strip-play").click()
    expect(page.locator("#strip-play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#strip-when")).not_to_have_text(before or "")
    page.locator("#strip-play").click()
    expect(page.locator("#strip-play")).to_have_attribute("aria-pressed", "false")
    context.close()


def test_the_board_draws_the_facts_only_strip_live(server, browser, today_at):
    server.tap("1", 1, today_at(8, 14))
    context = browser.new_context(viewport=PHONE_SIDEWAYS)
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('viewer')}")
    page.goto(server.url + "/rounds/R1/board?pause=0")
    groups = page.locator("#strip-lanes li.strip-group")
    expect(groups).to_have_count(6)
    one = page.locator("#strip-lanes li.strip-group[data-group='1']")
    expect(one).to_have_attribute("data-hole", "2")
    label = one.locator("button").get_attribute("aria-label") or ""
    # facts only: where the group is, never its status, its time over or its gap
    assert label == "Group 1, on hole 2", label
    text = page.locator("#strip").inner_text()
    for judged in ("Out of position", "Overdue", "Behind", "behind the group ahead", "%"):
        assert judged not in text and judged not in label, (judged, text)
    # a tap moves it on, from the board's own feed
    server.tap("1", 2, today_at(8, 30))
    expect(one).to_have_attribute("data-hole", "3")
    assert serious(page) == []
    page.screenshot(path=str(SHOTS / "board-phone.png"), full_page=True)
    context.close()


def test_a_missed_taps_estimate_is_drawn_as_an_estimate(server, browser, today_at):
    server.tap("1", 1, today_at(8, 14))
    server.tap("2", 1, today_at(8, 26))
    server.tap("2", 2, today_at(8, 45))  # group 1 was missed on hole 2: estimated
    context, page = open_dashboard(server, browser, DESK)
    one = page.locator("#strip-lanes li.strip-group[data-group='1']")
    expect(one).to_have_attribute("data-estimate", "yes")
    expect(one).to_have_attribute("data-hole", "3")  # past the hole estimated completed
    expect(one).to_have_class(re.compile(r"\bestimated\b"))
    label = one.locator("button").get_attribute("aria-label") or ""
    assert label.endswith("estimated position (a missed tap)"), label
    expect(one.locator(".shape")).to_have_text(re.compile("^≈"))
    two = page.locator("#strip-lanes li.strip-group[data-group='2']")
    expect(two).to_have_attribute("data-estimate", "")
    # the marshal logs the real tap: the estimate goes, from the delta alone
    server.tap("1", 2, today_at(8, 40))
    expect(one).to_have_attribute("data-estimate", "")
    expect(one).to_have_attribute("data-hole", "3")
    context.close()


def test_the_report_page_draws_the_field_at_the_instant_chosen(server, browser, today_at):
    for group, hole, at in (("1", 1, (8, 14)), ("1", 2, (8, 30)), ("2", 1, (8, 26))):
        server.tap(group, hole, today_at(*at))
    context, page = open_dashboard(server, browser, DESK)
    page.goto(server.url + "/rounds/R1/report")
    expect(page.locator("figure.course-strip")).to_have_count(0)
    page.locator("#strip-at-time").fill("10:30")
    page.locator("#strip-reading").select_option("corrected")
    page.locator("#strip-form button[type=submit]").click()
    svg = page.locator("figure.course-strip svg")
    expect(svg).to_have_attribute("data-at", "10:30")
    expect(svg.locator("g.strip-group")).to_have_count(6)
    status = server.get_json("/api/rounds/R1/status?at=10:30")
    for g in status["groups"]:
        drawn = svg.locator(f"g.strip-group[data-group='{g['group']}']")
        expect(drawn).to_have_attribute("data-status", g["status"])
        expect(drawn).to_have_attribute("data-holes-completed", str(g["holes_completed"]))
    # the JSON of the same instant carries the same view
    url = page.url.replace("/report?", "/report.json?")
    body = page.evaluate("(u) => fetch(u).then((r) => r.json())", url)
    assert body["strip"]["at"] == "10:30"
    by = {g["group"]: g for g in body["strip"]["groups"]}
    assert by["1"]["hole"] == 3 and by["2"]["hole"] == 2
    expect(svg.locator("g.strip-group[data-group='1']")).to_have_attribute("data-hole", "3")
    assert serious(page) == []
    context.close()


def test_the_strip_writes_its_minutes_with_a_comma_in_dutch(server, browser, today_at):
    # issue 47: "7.5′" on a Dutch page is "7,5′", in the marker and in its label
    server.tap("1", 1, today_at(8, 14))
    server.tap("2", 1, today_at(8, 26) + timedelta(seconds=30))
    context = browser.new_context(viewport=DESK, locale="nl-BE")
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('referee')}")
    page.goto(server.url + DASHBOARD)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    gap = page.locator("#strip-lanes li.strip-group[data-group='2'] .gap")
    expect(gap).to_have_text("12,5′")
    label = page.locator("#strip-lanes li.strip-group[data-group='2'] button")
    expect(label).to_have_attribute("aria-label", re.compile(r"12,5"))
    context.close()

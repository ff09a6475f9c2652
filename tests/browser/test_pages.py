"""The marshal page and the referee dashboard in headless Chromium (issue 4, "Done when")."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from livesupport import TIMEZONE
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

MARSHAL = "/rounds/R1/marshal"
DASHBOARD = "/rounds/R1/dashboard"


def test_a_tap_on_the_marshal_page_appears_on_the_dashboard(server, context, today_at):
    dashboard = context.new_page()
    dashboard.goto(server.url + DASHBOARD)
    cell = dashboard.locator("td.hole[data-group='1'][data-hole='1']")
    expect(cell).to_have_text("")  # the dashboard has joined the round; nothing logged yet

    marshal = context.new_page()
    marshal.goto(server.url + MARSHAL)
    marshal.locator("label[for='hole-1']").click()
    marshal.get_by_role("button", name="Group 1 holed out on 1").click()

    tap = marshal.locator("li.entry[data-kind='hole_completed']")
    expect(tap).to_have_attribute("data-state", "confirmed")
    expect(marshal.locator("#pending")).to_have_attribute("data-count", "0")
    expect(marshal.get_by_role("button", name="Group 1 holed out on 1")).to_have_count(0)
    expect(cell).to_have_text(re.compile(r"^\d\d:\d\d$"))

    # the dashboard shows the server's instant of the tap: the device clock was corrected
    events = server.get_json("/api/rounds/R1/events")["events"]
    (logged,) = [e for e in events if e["type"] == "hole_completed"]
    at = datetime.fromisoformat(logged["at"]).astimezone(ZoneInfo(TIMEZONE))
    expect(cell).to_have_text(at.strftime("%H:%M"))
    assert abs((at - today_at(12)).total_seconds()) < 600


def test_the_marshal_page_is_usable_375_px_wide(server, new_context):
    page = new_context(viewport={"width": 375, "height": 740}).new_page()
    page.goto(server.url + MARSHAL)
    page.locator("label[for='hole-1']").click()

    buttons = page.locator("button.tap")
    expect(buttons).to_have_count(6)
    for i in range(6):
        button = buttons.nth(i)
        button.scroll_into_view_if_needed()
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 375

    # the pending count stays in view at the top while scrolling
    page.mouse.wheel(0, 2000)
    expect(page.locator("#pending")).to_be_in_viewport()
    expect(page.locator("#pending")).to_have_text("All taps sent")


def test_acknowledging_an_alert_removes_it_from_every_dashboard(server, context, today_at):
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(server.url + DASHBOARD)
        expect(page.locator("tr.group-row")).to_have_count(6)

    # group 1 (the lead group, off at 08:00) completing hole 1 at 08:40 is out of position
    server.tap("1", 1, today_at(8, 40))

    selector = "li.alert[data-kind='out_of_position'][data-group='1']"
    expect(first.locator(selector)).to_have_count(1)
    expect(second.locator(selector)).to_have_count(1)
    expect(first.locator("td.hole[data-group='1'][data-hole='1']")).to_have_text("08:40")
    key = first.locator(selector).get_attribute("data-key")

    first.locator(selector).get_by_role("button", name="Acknowledge").click()
    expect(first.locator(selector)).to_have_count(0)
    expect(second.locator(selector)).to_have_count(0)
    open_alerts = server.get_json("/api/rounds/R1/snapshot")["snapshot"]["alerts"]
    assert key not in [a["key"] for a in open_alerts]


def test_the_marshal_page_speaks_french_to_a_french_browser(server, new_context):
    page = new_context(locale="fr-FR").new_page()
    page.goto(server.url + MARSHAL)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#pending")).to_have_text("Toutes les saisies sont envoyées")
    page.locator("label[for='hole-1']").click()
    expect(page.get_by_role("button", name="Partie 1 a fini le 1")).to_be_visible()

    # the language link switches, and the choice sticks without ?lang=
    page.get_by_role("link", name="English").click()
    expect(page.locator("#pending")).to_have_text("All taps sent")
    page.goto(server.url + MARSHAL)
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_a_tap_made_offline_waits_on_the_phone_and_is_sent_once_back_online(server, context):
    marshal = context.new_page()
    marshal.goto(server.url + MARSHAL)
    marshal.locator("label[for='hole-1']").click()
    expect(marshal.locator("#conn")).to_have_text("Online")

    context.set_offline(True)
    expect(marshal.locator("#conn")).to_have_text("Offline")
    marshal.get_by_role("button", name="Group 2 holed out on 1").click()
    tap = marshal.locator("li.entry[data-kind='hole_completed']")
    expect(tap).to_have_attribute("data-state", "queued")
    expect(marshal.locator("#pending")).to_have_attribute("data-count", "1")
    expect(marshal.locator("#pending")).to_contain_text("1 waiting to be sent")
    marshal.close()  # the queue outlives the page

    context.set_offline(False)
    again = context.new_page()
    again.goto(server.url + MARSHAL)
    expect(again.locator("li.entry[data-kind='hole_completed']")).to_have_attribute(
        "data-state", "confirmed"
    )
    expect(again.locator("#pending")).to_have_attribute("data-count", "0")
    events = server.get_json("/api/rounds/R1/events")["events"]
    taps = [e for e in events if e["type"] == "hole_completed"]
    assert [(e["payload"]["group"], e["payload"]["hole"]) for e in taps] == [("2", 1)]


def test_marshals_near_an_overdue_group_are_asked_to_check_it(server, page):
    # at noon the lead group (off at 08:00) has not completed hole 1: it is overdue there
    page.goto(server.url + MARSHAL)
    page.locator("label[for='hole-2']").click()
    check = page.locator(".check[data-group='1'][data-hole='1']")
    expect(check).to_contain_text("Please check group 1 near hole 1")
    check.get_by_role("button", name="Seen").click()
    expect(check).to_have_count(0)
    page.reload()
    expect(page.locator("button.tap").first).to_be_visible()
    expect(check).to_have_count(0)  # dismissed on this phone for good


def test_a_marshal_corrects_then_undoes_a_tap_and_the_dashboard_follows(server, context):
    dashboard = context.new_page()
    dashboard.goto(server.url + DASHBOARD)
    cell = dashboard.locator("td.hole[data-group='3'][data-hole='1']")
    expect(cell).to_have_text("")

    marshal = context.new_page()
    marshal.goto(server.url + MARSHAL)
    marshal.locator("label[for='hole-1']").click()
    marshal.get_by_role("button", name="Group 3 holed out on 1").click()
    tap = marshal.locator("li.entry[data-kind='hole_completed']")
    expect(tap).to_have_attribute("data-state", "confirmed")

    tap.get_by_role("button", name="Correct the time").click()
    marshal.locator("input.new-time").fill("11:47:30")
    marshal.get_by_role("button", name="Save the new time").click()
    correction = marshal.locator("li.entry[data-kind='correct_hole_time']")
    expect(correction).to_have_attribute("data-state", "confirmed")
    expect(cell).to_have_text("11:47")

    tap.get_by_role("button", name="Undo").click()
    marshal.get_by_role("button", name="Undo this tap").click()
    expect(marshal.locator("li.entry[data-kind='void_event']")).to_have_attribute(
        "data-state", "confirmed"
    )
    expect(cell).to_have_text("")
    expect(marshal.get_by_role("button", name="Group 3 holed out on 1")).to_be_visible()
    kinds = [e["type"] for e in server.get_json("/api/rounds/R1/events")["events"]]
    assert [k for k in kinds if not k.startswith("alert_")] == [
        "hole_completed",
        "hole_time_corrected",
        "event_voided",
    ]


def test_a_tap_the_server_cannot_store_stays_queued_and_lands_once_the_fault_clears(
    server, context
):
    """Issue 9.10: storage_unavailable is never an ack; the phone keeps the tap and resends it."""
    marshal = context.new_page()
    marshal.goto(server.url + MARSHAL)
    marshal.locator("label[for='hole-1']").click()
    expect(marshal.locator("#conn")).to_have_text("Online")
    assert server.get_json("/api/rounds/R1/events")["ok"]  # (signs the test in before the lock)
    backup = sqlite3.connect(server.db, isolation_level=None, timeout=0)
    try:
        backup.execute("BEGIN IMMEDIATE")  # the write lock, held as a backup tool does
        marshal.get_by_role("button", name="Group 2 holed out on 1").click()
        # refused with storage_unavailable (after the store's busy timeout): back in the queue,
        # with the server's reason shown, never "refused" or "confirmed"
        tap = marshal.locator("li.entry[data-kind='hole_completed']")
        expect(tap.locator("p.error")).to_contain_text("database", timeout=30_000)
        expect(tap).to_have_attribute("data-state", re.compile("queued|sent"))
        expect(marshal.locator("#pending")).to_have_attribute("data-count", "1")
        assert "cannot be written now" in server.log.read_text()
        assert server.get_json("/api/rounds/R1/events")["ok"]  # reads are still served
    finally:
        backup.execute("ROLLBACK")
        backup.close()
    expect(tap).to_have_attribute("data-state", "confirmed", timeout=30_000)
    expect(marshal.locator("#pending")).to_have_attribute("data-count", "0")
    events = server.get_json("/api/rounds/R1/events")["events"]
    taps = [e for e in events if e["type"] == "hole_completed"]
    assert [(e["payload"]["group"], e["payload"]["hole"]) for e in taps] == [("2", 1)]

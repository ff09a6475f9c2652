"""The marshal of a hole is asked to confirm a missed tap's estimate (issue 30, part 1;
docs/estimates.md): the card shows the estimate's bounds, the marshal types the time the group
holed out, and the late real tap goes to the server with that instant."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from livesupport import TIMEZONE
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

MARSHAL = "/rounds/R1/marshal"


def test_the_marshal_of_the_hole_confirms_a_missed_tap_at_the_time_typed(server, page, today_at):
    page.goto(server.url + MARSHAL)
    page.locator("label[for='hole-2']").click()
    expect(page.locator("button.tap").first).to_be_visible()
    server.tap("1", 1, today_at(8, 14))
    server.tap("2", 1, today_at(8, 26))
    server.tap("2", 2, today_at(8, 45))  # group 1 was missed on hole 2

    card = page.locator(".check.missing[data-group='1'][data-hole='2']")
    expect(card).to_contain_text("Missed tap? Group 1 on hole 2, between 08:14 and 08:45")
    card.locator("input").fill("08:43")
    card.get_by_role("button", name="Log this time").click()
    expect(card).to_have_count(0)
    expect(page.locator("#pending")).to_have_attribute("data-count", "0")

    events = server.get_json("/api/rounds/R1/events")["events"]
    [late] = [
        e
        for e in events
        if e["type"] == "hole_completed"
        and (e["payload"]["group"], e["payload"]["hole"]) == ("1", 2)
    ]
    at = datetime.fromisoformat(late["at"]).astimezone(ZoneInfo(TIMEZONE))
    # the time typed is on the server's clock; the page sends it on the device's, which the
    # server corrects by the offset it measured (within the probes' spread of the page's)
    assert abs((at - today_at(8, 43)).total_seconds()) < 5, at
    kinds = [(e["type"], e["payload"].get("alert")) for e in events]
    assert ("alert_resolved", "missing_tap:1:2") in kinds

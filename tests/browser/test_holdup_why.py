"""The hold-up panel's "Why" (issue 37): a referee opens it on the dashboard and reads why a
group is named as holding the field up, fetched when asked (never in the snapshot).

Round R1 at noon: group 1 (3 players, 14 min for hole 1) completes hole 1 at 08:30, 16 min over
with open course ahead; group 2 (4 players, off at 08:10) completes it at 08:36, over its time and
6 minutes behind group 1: held up there.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DASHBOARD = "/rounds/R1/dashboard"


@pytest.mark.parametrize("role", ["referee", "committee"])
def test_a_referee_asks_why_a_group_holds_the_field_up(server, browser, today_at, role):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code(role)}")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/why") else None)
    page.goto(server.url + DASHBOARD)
    expect(page.locator("tr.group-row")).to_have_count(6)
    server.tap("1", 1, today_at(8, 30))
    server.tap("2", 1, today_at(8, 36))

    row = page.locator("#held-up li.held[data-group='1']")
    expect(row).to_contain_text("Group 1: 1 held at hole 1")
    why = row.locator("details.why")
    expect(why).not_to_have_attribute("open", "")
    assert asked == []  # nothing fetched before the referee asks
    snapshot = server.get_json("/api/rounds/R1/snapshot")["snapshot"]
    assert "explanation" not in snapshot["held_up"][0]

    why.locator("summary").click()
    body = why.locator(".why-body")
    expect(body).to_contain_text("Group 1 held the field up at hole(s) 1.")
    expect(body).to_contain_text("On completing hole 1 at 08:30, group 1 (3 players) had played 30")
    expect(body).to_contain_text("16 min over")
    expect(body).to_contain_text("Hence: out of position.")
    expect(body).to_contain_text("group 2, ")
    expect(body).to_contain_text("6 min behind the group ahead")
    timeline = body.locator("ol.timeline li")
    expect(timeline.first).to_contain_text("group 1 starts")
    expect(body).to_contain_text("group 1 completes hole 1")
    assert len(asked) == 1 and asked[0].endswith("/api/rounds/R1/held_up/1/why"), asked
    context.close()


def test_the_why_writes_its_minutes_with_a_comma_in_dutch(server, browser, today_at):
    # issue 47: the "Why" wrote "16.5" on a Dutch dashboard
    context = browser.new_context(locale="nl-BE")
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code('referee')}")
    page.goto(server.url + DASHBOARD)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    server.tap("1", 1, today_at(8, 30) + timedelta(seconds=30))
    server.tap("2", 1, today_at(8, 36))
    why = page.locator("#held-up li.held[data-group='1'] details.why")
    why.locator("summary").click()
    body = why.locator(".why-body")
    expect(body).to_contain_text("16,5")
    expect(body).not_to_contain_text("16.5")
    context.close()

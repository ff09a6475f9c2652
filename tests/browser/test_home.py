"""The home page of a server with a round today, as a visitor on a phone opens it (issue 47):
today's rounds with their public pages (the board, the leaderboard, the results sheet once the
results are final) and the ways to sign in; nothing wider than the screen."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def command(server, name: str, role: str) -> None:
    now = server.get_json("/api/rounds/R1/snapshot")["snapshot"]["at"]
    answer = server.post_json(
        f"/api/commands/{name}",
        {"id": str(uuid.uuid4()), "round": "R1", "device_time": now},
        token=server.token(role),
    )
    assert answer["ok"], answer


def test_a_visitor_finds_todays_round_and_its_public_pages(server, browser):
    context = browser.new_context(locale="nl-BE", viewport=PHONE)  # nobody signed in
    page = context.new_page()
    page.goto(server.url + "/")
    today = page.locator("ul.today li.round[data-round='R1']")
    expect(page.get_by_role("heading", name="Ronden van vandaag")).to_be_visible()
    expect(today.get_by_role("link")).to_have_count(2)  # no results before they are final
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path="/tmp/shots/home-360.png", full_page=True)
    today.get_by_role("link", name="Tempobord").click()
    expect(page).to_have_url(re.compile(r"/rounds/R1/board$"))
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    page.go_back()
    today.get_by_role("link", name=re.compile("Klassement|Leaderboard", re.I)).click()
    expect(page).to_have_url(re.compile(r"/rounds/R1/leaderboard$"))

    # the results made final: their sheet is everybody's, and the home page links it
    command(server, "round_finish", "committee")
    command(server, "round_final", "committee")
    page.goto(server.url + "/")
    sheet = page.locator("ul.today li.round[data-round='R1'] a").nth(2)
    expect(sheet).to_have_attribute("href", re.compile(r"/rounds/R1/results$"))
    sheet.click()
    expect(page).to_have_url(re.compile(r"/rounds/R1/results$"))  # not sent to sign in
    # the ways in stay: an access code, a person's own account (issue 50), the committee
    page.goto(server.url + "/")
    expect(page.locator("p.login-prompt a")).to_have_count(3)
    expect(page.locator("p.login-prompt a").nth(1)).to_have_attribute("href", "/signin")
    context.close()

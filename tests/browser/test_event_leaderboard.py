"""A round's public leaderboard shows its competition in headless Chromium (issue 28): the
golden two-round event (tests/golden/events/a_two_rounds_cut) served by ``pace serve``; R2's
leaderboard shows the event's standings round by round, the cut and who made it, as
``GET /api/rounds/R2/leaderboard`` says (its days are over: both rounds count).
"""

from __future__ import annotations

import json
import tomllib

import pytest
from livesupport import live_server
from playwright.sync_api import expect

from tests.golden.test_event_golden import HERE, build

pytestmark = pytest.mark.browser
FOLDER = HERE / "a_two_rounds_cut"


def test_the_leaderboard_shows_the_event_round_by_round_and_the_cut(tmp_path, browser):
    expected = tomllib.loads((FOLDER / "expected.toml").read_text(encoding="utf-8"))
    db = tmp_path / "club.db"
    build(FOLDER, expected, db)
    with live_server(tmp_path, db=db) as server:
        context = browser.new_context()
        page = context.new_page()
        answer = page.request.get(server.url + "/api/rounds/R2/leaderboard")
        (view,) = json.loads(answer.text())["leaderboard"]["events"]
        page.goto(server.url + "/rounds/R2/leaderboard?lang=en")
        section = page.locator("section.event[data-event='Club championship']")
        expect(section).to_be_visible()
        expect(section.locator("h2")).to_have_text("Club championship: round 2 of 2")
        expect(section.locator(".event-cut-rule")).to_contain_text(view["cut"]["rule"])
        rows = section.locator("tr.event-entry")
        expect(rows).to_have_count(len(view["entries"]))
        for i, e in enumerate(view["entries"]):
            cells = rows.nth(i).locator("td")
            assert cells.nth(1).inner_text() == e["entry"]
            figures = [cells.nth(2 + r).inner_text() for r in range(2)]
            assert figures == ["–" if f is None else str(f) for f in e["rounds"]]
            cut = {True: "made the cut", False: "missed the cut", None: ""}[e["made_cut"]]
            total = e["result"] or "" if e["total"] is None else str(e["total"])
            assert (cells.nth(4).inner_text(), cells.nth(5).inner_text()) == (total, cut)
        assert any(e["made_cut"] is False for e in view["entries"])
        expect(section.locator("tr.missed-cut")).to_have_count(
            sum(e["made_cut"] is False for e in view["entries"])
        )
        context.close()

"""The projection's 80 % ranges on the dashboard (issue 30 part 3), in headless Chromium: with
the course's finished rounds in the database, each group's projected finish shows its range
beneath it, and a group's detail the range of the hole it is first over time at."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from browser.conftest import local_today, sign_in
from livesupport import live_server, setup_round
from playwright.sync_api import expect

from pace.demo import history as gh
from pace.store import open_store

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path):
    """``pace serve`` over round R1 for today, with ten finished rounds of the same course
    played weeks before (the history the ranges come from), its clock at noon."""
    db = setup_round(tmp_path)
    with open_store(db) as store:
        course = store.get_course(store.get_round("R1").course.name)
        first = local_today(8) - timedelta(days=7 * 11)
        truth = gh.default_truth()
        gh.store_rounds(
            store, gh.generate(truth, 10, 5, course=course, first_day=first, prefix="H")
        )
    origin = local_today(12).isoformat()
    with live_server(tmp_path, db=db, extra_args=["--clock-origin", origin, "--tick", "0.2"]) as s:
        yield s


def test_the_dashboard_shows_the_ranges_beside_the_projection(server, context):
    sign_in(context, server)
    page = context.new_page()
    page.goto(server.url + "/rounds/R1/dashboard")
    finish = page.locator("tr.group-row[data-group='1'] td.c-finish")
    expect(finish.locator("small.range")).to_have_text(re.compile(r"^80 %: \d\d:\d\d–\d\d:\d\d$"))
    # each group in play shows one, under its projected finish
    rows = page.locator("tr.group-row")
    expect(page.locator("td.c-finish small.range")).to_have_count(rows.count())
    page.locator("tr.group-row[data-group='1'] button.link").click()
    detail = page.locator("#detail")
    expect(detail.locator("dd small.range")).to_have_text(re.compile(r"^80 %: "))
    expect(detail.locator("dd.range")).to_have_text(re.compile(r"^hole \d+"))

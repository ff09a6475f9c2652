"""The report page in headless Chromium, on a finished demo round (issue 12, "Done when")."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
from livesupport import LiveServer, live_server
from playwright.sync_api import expect
from reportsupport import ROUND, report_database

from tests.browser.conftest import local_today, sign_in

pytestmark = pytest.mark.browser

GROUPS = 12


@pytest.fixture
def report_server(tmp_path) -> Iterator[LiveServer]:
    """A real ``pace serve`` over the demo round played today, its clock at 23:00 (round over).

    Access codes hold until the end of their round's day, so the round is today's.
    """
    db = report_database(tmp_path, groups=GROUPS, day=local_today(0).date())
    origin = local_today(23).isoformat()
    with live_server(tmp_path, db=db, extra_args=["--clock-origin", origin]) as s:
        s.round = ROUND
        yield s


@pytest.fixture
def page(report_server, browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    sign_in(context, report_server)
    yield context.new_page()
    context.close()


def test_the_report_page_shows_the_chart_and_the_tables_for_the_demo_round(report_server, page):
    page.goto(f"{report_server.url}/rounds/{ROUND}/report?lang=en")
    chart = page.locator("#field-chart img")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] > 600 and box["height"] > 250
    assert chart.evaluate("img => img.complete && img.naturalWidth > 0")  # the SVG decoded
    svg = base64.b64decode(chart.get_attribute("src").split(",", 1)[1]).decode()
    # one line per group, and its allotted pace beside it
    assert svg.count('class="line reactive') >= 2 * GROUPS
    expect(page.locator("table.round-times tbody tr")).to_have_count(GROUPS)
    expect(page.locator("section.group")).to_have_count(GROUPS)
    expect(page.locator("section.group table.holes").first).to_be_visible()
    expect(page.locator("section.group figure.group-chart img").first).to_be_visible()
    # the group charts are fetched as they near the screen: the last one decodes once shown
    last = page.locator("section.group figure.group-chart img").last
    assert last.get_attribute("loading") == "lazy"
    last.scroll_into_view_if_needed()
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=last.element_handle(), timeout=20_000
    )
    expect(page.locator("table.hole-stats tbody tr")).to_have_count(18)
    expect(page.locator("table.stoppages")).to_contain_text("suspension")
    expect(page.locator("tr.stroke.bad").first).to_contain_text("47.3 s")


def test_the_report_reads_on_a_phone(report_server, browser):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    sign_in(context, report_server)
    phone = context.new_page()
    phone.goto(f"{report_server.url}/rounds/{ROUND}/report?lang=fr")
    chart = phone.locator("#field-chart img")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    # wide tables scroll inside their box: the page itself does not
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    context.close()


def test_the_pdf_button_shows_progress_then_hands_the_pdf_over(report_server, page):
    page.goto(f"{report_server.url}/rounds/{ROUND}/report?lang=en")
    with page.expect_download(timeout=120_000) as download:
        page.locator("button.job[data-kind='report']").click()
        expect(page.locator("#job-progress")).to_be_visible()
    expect(page.locator("#job-status")).to_have_attribute("data-state", "done")
    path = download.value.path()
    assert path is not None and open(path, "rb").read(4) == b"%PDF"

"""On a fast clock (``pace demo``), taps and sirens from a browser land at the server's instant
(issue 14, point 7): the pages carry the server's rate, not only its offset."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from livesupport import LiveServer, live_server, server_now
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SPEED = 30
#: a browser's instant may be off by its round trip times the speed: a few seconds at most
TOLERANCE = timedelta(seconds=10)


@pytest.fixture
def server(tmp_path, today_at) -> Iterator[LiveServer]:
    origin = today_at(12).isoformat()
    args = ["--clock-origin", origin, "--clock-speed", str(SPEED), "--tick", "0.2"]
    with live_server(tmp_path, extra_args=args) as s:
        yield s


def wait_for_server_clock(server: LiveServer, past: datetime, ahead: timedelta) -> None:
    """Wait (bounded) until the server's fast clock is ``ahead`` beyond ``past``."""
    deadline = time.monotonic() + 30
    while server_now(server) < past + ahead:
        assert time.monotonic() < deadline, "the server's clock does not move"


def stored(server: LiveServer, type: str) -> list[datetime]:
    events = server.get_json("/api/rounds/R1/events")["events"]
    return [datetime.fromisoformat(e["at"]) for e in events if e["type"] == type]


def test_a_tap_from_the_marshal_page_lands_at_the_servers_accelerated_instant(server, context):
    page = context.new_page()
    page.goto(server.url + "/rounds/R1/marshal")
    page.locator("label[for='hole-1']").click()
    button = page.get_by_role("button", name="Group 1 holed out on 1")
    expect(button).to_be_visible()
    # let the fast clock run well past the page's first clock exchange (2 real seconds)
    wait_for_server_clock(server, server_now(server), timedelta(minutes=1))

    before = server_now(server)
    button.click()
    expect(page.locator("li.entry[data-kind='hole_completed']")).to_have_attribute(
        "data-state", "confirmed"
    )
    after = server_now(server)
    [at] = stored(server, "hole_completed")
    assert before - TOLERANCE <= at <= after + TOLERANCE, (before, at, after)


def test_sirens_from_the_dashboard_land_at_the_servers_accelerated_instants(server, context):
    page = context.new_page()
    page.goto(server.url + "/rounds/R1/dashboard")
    expect(page.locator("tr.group-row")).to_have_count(6)
    wait_for_server_clock(server, server_now(server), timedelta(minutes=1))

    presses = []
    for kind in ("suspension", "resume"):
        before = server_now(server)
        page.locator(f"button.siren[data-kind='{kind}']").click()
        after = server_now(server)
        page.locator("#siren-confirm button.confirm").click()
        expect(page.locator("#siren-result")).to_have_class("ok")
        presses.append((before, after))
        wait_for_server_clock(server, after, timedelta(minutes=2))
    ats = stored(server, "siren")
    assert len(ats) == 2
    for at, (before, after) in zip(ats, presses, strict=True):
        assert before - TOLERANCE <= at <= after + TOLERANCE, (before, at, after)

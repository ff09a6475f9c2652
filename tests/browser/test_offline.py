"""The marshal page with no signal, in headless Chromium (issue 6, "Done when": offline test).

The page is opened once online (the service worker keeps it and its assets), goes offline
(Playwright's offline mode), records 20 taps, is reloaded while offline (the service worker
serves it, the groups come from the snapshot kept on the phone), and comes back online: the
20 events arrive once each, with the device times of the taps, in the order tapped.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

MARSHAL = "/rounds/R1/marshal"
QUEUE = "pace.queue.R1"
TAPS = 20
#: Back online, socket.io reconnects by itself; the page hurries it on the "online" event.
RECONNECT_MS = 20_000


def queued(page) -> list[dict]:
    """Return the marshal's outbox as stored on the phone (localStorage)."""
    return page.evaluate(f"JSON.parse(localStorage.getItem('{QUEUE}') || '[]')")


def worker_fetch(page, path: str) -> str:
    """Fetch a static file the worker has not kept: it goes to the network from the worker."""
    return page.evaluate(f"fetch('{path}').then(r => 'ok ' + r.status, () => 'failed')")


def taps(server) -> list[dict]:
    events = server.get_json("/api/rounds/R1/events")["events"]
    return [e for e in events if e["type"] == "hole_completed"]


def test_twenty_taps_made_offline_survive_a_reload_and_arrive_once_in_order(server, context):
    page = context.new_page()
    page.goto(server.url + MARSHAL)
    for hole in (1, 2, 3, 4):  # 4 holes × 6 groups: 24 taps to choose from
        page.locator(f"label[for='hole-{hole}']").click()
    expect(page.locator("#conn")).to_have_text("Online")
    # the service worker keeps the page, its assets and (in localStorage) the round's snapshot
    expect(page.locator("#app")).to_have_attribute("data-offline", "ready")

    context.set_offline(True)
    expect(page.locator("#conn")).to_have_text("Offline")
    tapped = []
    for i in range(TAPS):
        button = page.locator("button.tap").first
        tapped.append((button.get_attribute("data-group"), int(button.get_attribute("data-hole"))))
        button.click()
        expect(page.locator("#pending")).to_have_attribute("data-count", str(i + 1))
    assert len(set(tapped)) == TAPS
    expect(page.locator("#pending")).to_contain_text(f"{TAPS} waiting to be sent")
    outbox = queued(page)
    assert [(e["payload"]["group"], e["payload"]["hole"]) for e in outbox] == tapped
    assert {e["state"] for e in outbox} == {"queued"}

    # reloaded with no signal: the service worker answers from its cache (and its own
    # requests are offline too, so nothing can come from the server)
    assert worker_fetch(page, "/static/dashboard.js") == "failed"
    response = page.reload()
    assert response is not None and response.ok and response.from_service_worker
    expect(page.locator("#conn")).to_have_text("Offline")
    expect(page.locator("#pending")).to_have_attribute("data-count", str(TAPS))
    expect(page.locator("li.entry[data-state='queued']")).to_have_count(TAPS)
    expect(page.locator("button.tap")).to_have_count(24 - TAPS)  # the groups still due
    assert server.get_json("/api/rounds/R1/events")["ok"] and taps(server) == []

    context.set_offline(False)
    expect(page.locator("#pending")).to_have_attribute("data-count", "0", timeout=RECONNECT_MS)
    expect(page.locator("li.entry[data-state='confirmed']")).to_have_count(TAPS)

    stored = taps(server)
    assert [e["id"] for e in stored] == [e["id"] for e in outbox]  # each once, in tap order
    assert [e["seq"] for e in stored] == sorted(e["seq"] for e in stored)
    assert [(e["payload"]["group"], e["payload"]["hole"]) for e in stored] == tapped
    for event, entry in zip(stored, outbox, strict=True):
        device_at = datetime.fromisoformat(event["payload"]["device_at"])
        assert device_at == datetime.fromisoformat(entry["payload"]["at"])


def test_the_page_opens_with_no_signal_in_two_tabs_that_share_one_queue(server, context):
    first = context.new_page()
    first.goto(server.url + MARSHAL)
    first.locator("label[for='hole-5']").click()
    expect(first.locator("#app")).to_have_attribute("data-offline", "ready")
    first.close()

    context.set_offline(True)
    page = context.new_page()
    response = page.goto(server.url + MARSHAL)
    assert response is not None and response.from_service_worker
    expect(page.locator("#conn")).to_have_text("Offline")
    expect(page.locator("button.tap")).to_have_count(6)  # the groups, from the kept snapshot
    page.get_by_role("button", name="Group 1 holed out on 5").click()
    page.get_by_role("button", name="Group 2 holed out on 5").click()

    other = context.new_page()  # the same link opened again: one queue on the phone
    other.goto(server.url + MARSHAL)
    expect(other.locator("#pending")).to_have_attribute("data-count", "2")
    other.get_by_role("button", name="Group 3 holed out on 5").click()
    expect(page.locator("#pending")).to_have_attribute("data-count", "3")
    expect(other.locator("#pending")).to_have_attribute("data-count", "3")

    context.set_offline(False)
    for tab in (page, other):
        expect(tab.locator("#pending")).to_have_attribute("data-count", "0", timeout=RECONNECT_MS)
    stored = [(e["payload"]["group"], e["payload"]["hole"]) for e in taps(server)]
    assert stored == [("1", 5), ("2", 5), ("3", 5)]

"""The dashboard's bad times and penalties (issue 37): the snapshot lists each player's
counted faults and counts the others; the group's detail fetches every fault, with its
reason, when the referee opens it, and again when the group's penalties change while open;
the shot clock shows the same count.

Round R1 at noon (frbg: warning, one stroke, two strokes, disqualification; the notification
gate). Group 1 holes out on the 1st at 08:40, out of position, and is timed from ten minutes
back: Marie Lavoie plays three bad times told of none (the first counts, a warning; the next
two do not: she was not told), is told of the first, and plays a fourth (one stroke).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from livesupport import command, server_now
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DASHBOARD = "/rounds/R1/dashboard"
MARIE = "Marie Lavoie"
GATE = "not counted: the previous fault was not yet told to the player"


def bad_time(server, decided, minute: int, hole: int) -> dict:
    """Marie's stroke of 55 s (40 allowed) stopped ``minute`` minutes after the decision."""
    stopped = decided + timedelta(minutes=minute)
    return command(
        server, "record_stroke", group="1", player=MARIE, hole=hole, kind="other",
        first_to_play=False, started=(stopped - timedelta(seconds=55)).isoformat(),
        stopped=stopped.isoformat(),
    )  # fmt: skip


def test_the_group_detail_fetches_every_fault_with_its_reason_when_opened(
    server, context, today_at
):
    server.tap("1", 1, today_at(8, 40))
    decided = server_now(server) - timedelta(minutes=10)
    command(server, "decide_timing", group="1", decision="time", at=decided.isoformat())
    first = bad_time(server, decided, 1, 2)
    bad_time(server, decided, 2, 2)
    bad_time(server, decided, 3, 3)
    told = (decided + timedelta(minutes=4)).isoformat()
    command(server, "notify_player", group="1", player=MARIE, fault=first["id"], at=told)
    counted = bad_time(server, decided, 5, 4)
    assert counted["outcome"]["penalty"]["kind"] == "strokes", counted

    page = context.new_page()
    asked: list[str] = []
    api = "/api/rounds/R1/penalties"
    page.on("request", lambda r: asked.append(r.url) if api in r.url else None)
    page.goto(server.url + DASHBOARD)
    expect(page.locator("tr.group-row")).to_have_count(6)

    # the panel: her counted faults, her total, and how many did not count
    row = page.locator(f"#penalties li.pen-row[data-player='{MARIE}']")
    expect(row.locator(".strokes")).to_have_text("+1 stroke")
    expect(row.locator("li.fault.counted")).to_have_count(2)
    expect(row.locator("li.fault.uncounted")).to_have_count(0)
    expect(row).to_have_class("pen-row awaiting")  # the one stroke is still to tell her
    expect(row.locator("button.unlisted")).to_have_text("2 faults not counted")
    assert asked == []  # nothing fetched before the referee asks
    snapshot = server.get_json("/api/rounds/R1/snapshot")["snapshot"]
    [glance] = snapshot["penalties"]
    assert (len(glance["faults"]), glance["uncounted"]) == (2, 2)

    # the count opens the group's detail, which lists every fault as before
    row.locator("button.unlisted").click()
    detail = page.locator("dialog#detail")
    expect(detail).to_be_visible()
    marie = detail.locator(f".pen-players li[data-player='{MARIE}']")
    uncounted = marie.locator("li.fault.uncounted")
    expect(uncounted).to_have_count(2)
    for i in range(2):
        expect(uncounted.nth(i).locator(".f-what")).to_have_text(GATE)
        expect(uncounted.nth(i).locator(".f-times")).to_have_text("55 s for 40 s")
    expect(uncounted.first.locator(".f-hole")).to_have_text("hole 2")
    expect(uncounted.nth(1).locator(".f-hole")).to_have_text("hole 3")
    faults = marie.locator("li.fault")
    expect(faults).to_have_count(4)  # in log order: counted, two not counted, counted
    expect(faults.first).to_have_class("fault counted")
    expect(faults.first.locator(".f-what")).to_have_text("1st bad time: warning")
    expect(faults.nth(3).locator(".f-what")).to_have_text(
        "2nd bad time: one-stroke penalty on hole 4"
    )
    expect(faults.nth(3).locator(".f-awaiting")).to_have_text("to tell the player")
    expect(marie).to_contain_text("2 counted · last: one-stroke penalty on hole 4")
    expect(marie.locator(".unlisted")).to_have_count(0)  # listed, not counted
    assert [u for u in asked if u.endswith("/api/rounds/R1/penalties/1")] == asked, asked
    assert len(asked) == 1, asked

    # a bad time while the detail is open: not counted (she was not told of the stroke); the
    # delta counts it, the detail fetches it
    bad_time(server, decided, 6, 4)
    expect(uncounted).to_have_count(3)
    expect(uncounted.nth(2).locator(".f-hole")).to_have_text("hole 4")
    expect(uncounted.nth(2).locator(".f-what")).to_have_text(GATE)
    assert len(asked) == 2, asked
    detail.locator("button.close").click()
    expect(row.locator("button.unlisted")).to_have_text("3 faults not counted")
    expect(row.locator(".strokes")).to_have_text("+1 stroke")

    # the shot clock shows the same glance: her counted faults, the others counted
    clock = context.new_page()
    clock.goto(server.url + "/rounds/R1/shotclock")
    clock.locator("button.group-choice[data-group='1']").click()
    player = clock.locator(f"li.player[data-player='{MARIE}']")
    expect(player.locator("li.fault.counted")).to_have_count(2)
    expect(player.locator("li.fault.uncounted")).to_have_count(0)
    expect(player.locator(".unlisted")).to_have_text("3 faults not counted")
    expect(player.locator("button.notify")).to_have_count(1)  # the stroke still to tell her

    # the group's faults over the wire: the roles of the round's penalties, clear refusals
    url = "/api/rounds/R1/penalties/1"
    assert len(server.get_json(url, token=server.token("marshal"))["penalties"]) == 1
    for role in ("scorer", "viewer"):
        answer = server.get_json(url, token=server.token(role))
        assert answer["error"]["code"] == "forbidden" and "penalties" not in answer, answer
    assert server.get_json(url, token="")["error"]["code"] == "unauthorized"
    answer = server.get_json("/api/rounds/R1/penalties/99")
    assert answer["error"]["code"] == "unknown_group", answer

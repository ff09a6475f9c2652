"""The pages live on deltas in Chromium (issue 13, point 2).

The dashboard applies the round's numbered deltas (docs/protocol.md, "Deltas"): taps reach it
as rows and alerts without the page reading the snapshot again; the page's own feed logic and
minute projection (static/live.js) run in the browser against made-up messages. The
facts-only board lives on its own feed ("The board's feed"), and the shot clock on its
commands' acks and the round's deltas: neither reads the snapshot again after a change.
"""

from __future__ import annotations

import re

import pytest
from livesupport import command, disqualify
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DASHBOARD = "/rounds/R1/dashboard"
BOARD = "/rounds/R1/board"
SHOTCLOCK = "/rounds/R1/shotclock"


def test_the_dashboard_shows_taps_and_alerts_from_deltas_without_reading_the_snapshot(
    server, context, today_at
):
    page = context.new_page()
    snapshots: list[str] = []
    joins: list[str] = []
    page.on("request", lambda r: "/snapshot" in r.url and snapshots.append(r.url))
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent", lambda f: isinstance(f, str) and "join_round" in f and joins.append(f)
        ),
    )
    page.goto(server.url + DASHBOARD)
    expect(page.locator("tr.group-row")).to_have_count(6)

    server.tap("1", 1, today_at(8, 40))  # out of position
    server.tap("2", 1, today_at(8, 24))
    server.tap("1", 2, today_at(8, 58))

    expect(page.locator("td.hole[data-group='1'][data-hole='1']")).to_have_text("08:40")
    expect(page.locator("td.hole[data-group='2'][data-hole='1']")).to_have_text("08:24")
    expect(page.locator("td.hole[data-group='1'][data-hole='2']")).to_have_text("08:58")
    alert = page.locator("li.alert[data-kind='out_of_position'][data-group='1']")
    expect(alert).to_have_count(1)
    assert len(joins) == 1, joins  # one join, at load: every change came as a delta
    assert snapshots == []


def test_the_feed_applies_the_next_delta_and_reads_again_once_on_a_gap(server, context):
    page = context.new_page()
    page.goto(server.url + DASHBOARD)
    result = page.evaluate(
        """async () => {
          const { deltaFeed } = await import("/static/live.js");
          const seen = [];
          let rejoins = 0;
          const feed = deltaFeed(() => { rejoins += 1; });
          const h = feed.wrap({ group_updated: (m) => seen.push(m.rev) });
          feed.start({ rev: 3 });
          h.group_updated({ rev: 3 });         // in the snapshot: ignored
          h.group_updated({ rev: 4 });         // next: applied
          h.alert_raised({ rev: 5 });          // a delta the page shows nothing of: counted
          h.group_updated({ rev: 7 });         // 6 missed: read again, once
          h.group_updated({ rev: 8 });         // waits for the snapshot
          const waiting = rejoins;
          feed.start({ rev: 7 });              // the snapshot holds 7: 8 follows it
          return { seen, rejoins, waiting, rev: feed.rev };
        }"""
    )
    assert result == {"seen": [4, 8], "rejoins": 1, "waiting": 1, "rev": 8}


def test_the_page_projects_a_late_groups_minutes_from_its_row(server, context):
    page = context.new_page()
    page.goto(server.url + DASHBOARD)
    grown = page.evaluate(
        """async () => {
          const { projected } = await import("/static/live.js");
          const row = { at: "2026-06-14T10:00:00+00:00", over_min: 3.5, gap_min: 9,
                        projected_finish: "2026-06-14T13:00:00+00:00",
                        moving: ["over_min", "projected_finish"] };
          const later = Date.parse("2026-06-14T10:02:30+00:00");
          const p = projected(row, later);
          const still = projected({ ...row, moving: [] }, later);
          return [p.over_min, p.gap_min, p.projected_finish, still.over_min];
        }"""
    )
    assert grown == [6.0, 9, "2026-06-14T13:02:30.000Z", 3.5]


def counting(page) -> tuple[list[str], list[str]]:
    """Count the page's reads of a snapshot or a board over HTTP, and its joins."""
    reads: list[str] = []
    joins: list[str] = []
    page.on(
        "request",
        lambda r: ("/snapshot" in r.url or "/api/rounds/R1/board" in r.url) and reads.append(r.url),
    )
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda f: (
                isinstance(f, str) and re.search(r'"join_(round|board)"', f) and joins.append(f)
            ),
        ),
    )
    return reads, joins


def test_the_board_shows_taps_timing_and_a_disqualification_from_its_deltas(
    server, new_context, today_at
):
    # a spectator's screen: a viewer session; the board joined once, then only board_changed
    context = new_context()
    context.clear_cookies()
    context.new_page().goto(f"{server.url}/join?code={server.code('viewer')}")
    page = context.new_page()
    reads, joins = counting(page)
    page.goto(server.url + BOARD)
    expect(page.locator("tr.board-row")).to_have_count(6)

    server.tap("2", 1, today_at(8, 24))
    server.tap("2", 2, today_at(8, 41))
    done = page.locator("td.b-hole.done[data-group='2']")
    expect(done).to_have_count(2)
    expect(page.locator("td.b-hole[data-group='2'][data-hole='2'] .b-done")).to_have_text("08:41")

    disqualify(server, "3", "Jean Gauthier")  # the spell starts too: group 3 is on the clock
    expect(page.locator("tr.board-row[data-group='3'] .on-clock")).to_be_visible()
    marked = page.locator("tr.board-row[data-group='3'] .b-player[data-player='Jean Gauthier']")
    expect(marked.locator(".dq-mark")).to_have_text("DQ")
    command(server, "stop_timing", group="3", reason="back in position")
    expect(page.locator("tr.board-row[data-group='3'] .on-clock")).to_have_count(0)
    command(server, "record_siren", kind="suspension", at=today_at(12).isoformat())
    expect(page.locator("#suspended")).to_be_visible()

    board = server.get_json("/api/rounds/R1/board", server.token("viewer"))["snapshot"]
    assert board["disqualified"] == [{"group": "3", "player": "Jean Gauthier"}]
    assert page.evaluate("document.querySelectorAll('.dq-mark').length") == 1
    assert len(joins) == 1, joins  # the join, at load: every change came as a delta
    assert reads == []
    shown = page.locator("main").inner_text()
    assert "Out of position" not in shown and "Overdue" not in shown


def test_the_shot_clock_lives_on_its_acks_and_the_deltas_without_reading_the_snapshot(
    server, new_context, today_at
):
    # group 1 is out of position (08:40 for hole 1), timed by another referee since 11:50
    server.tap("1", 1, today_at(8, 40))
    command(server, "decide_timing", group="1", decision="time", at=today_at(11, 50).isoformat())
    page = new_context(viewport={"width": 375, "height": 800}).new_page()
    reads, joins = counting(page)
    page.clock.install()  # the page's Date is Playwright's: a 45 s stroke without waiting
    page.goto(server.url + SHOTCLOCK)
    expect(page.locator("#conn")).to_have_text("Online")

    # the page's own decision, and a player told: their acks and deltas, no re-read
    page.locator("button.group-choice[data-group='2']").click()
    page.get_by_role("button", name="Time this group").click()
    expect(page.locator("#timing-state .on-clock")).to_be_visible()
    expect(page.locator("button.group-choice[data-group='2'] .on-clock")).to_have_count(1)
    told = page.locator("li.player[data-player='Luc Côté']")
    told.locator("button.tell-timed").click()
    expect(told.locator(".told-tick")).to_be_visible()
    expect(page.locator("#timing-state")).to_contain_text("1 of 4")

    # a stroke of 45 s: started 45 s back on the device's clock (no timer fires, so the socket
    # stays up and its clock offset stands), stopped now
    page.locator("#groups-box summary").click()
    page.locator("button.group-choice[data-group='1']").click()
    expect(page.locator("#timing-state .on-clock")).to_be_visible()
    marie = page.locator("li.player[data-player='Marie Lavoie']")
    marie.locator("button.player-pick").click()
    page.locator("button.kind[data-kind='other']").click()
    now = page.evaluate("Date.now()") / 1000  # seconds, as Playwright's clock takes them
    page.clock.set_system_time(now - 45)
    page.locator("#startstop").click()
    page.clock.set_system_time(now)
    page.locator("#startstop").click()
    result = page.locator("#result")
    expect(result).to_have_attribute("data-state", "confirmed")
    expect(result).to_have_attribute("data-bad", "true")
    expect(result.locator(".outcome")).to_have_text("1st bad time: warning")
    fault = marie.locator("li.fault.counted")
    expect(fault).to_have_count(1)
    expect(fault.locator("button.notify")).to_be_visible()

    # the notification: the penalty row follows as a delta
    result.get_by_role("button", name="Player told").click()
    expect(marie.locator(".f-told")).to_be_visible()
    expect(marie.locator("button.notify")).to_have_count(0)
    (row,) = [
        r for r in server.get_json("/api/rounds/R1/penalties")["penalties"]
        if r["player"] == "Marie Lavoie"
    ]  # fmt: skip
    assert row["faults"][0]["notified"] and not row["faults"][0]["awaiting_notification"]

    # another referee stops timing group 1: the page hears it
    command(server, "stop_timing", group="1", reason="back in position")
    expect(page.locator("#timing-state .not-timed")).to_have_text("Not being timed")
    assert len(joins) == 1, joins  # the join, at load
    assert reads == []

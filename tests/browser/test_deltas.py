"""The dashboard lives on the round's deltas in Chromium (issue 13, point 2).

The page applies the numbered deltas (docs/protocol.md, "Deltas"): taps reach it as rows and
alerts without the page reading the snapshot again; the page's own feed logic and minute
projection (static/live.js) run in the browser against made-up messages.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DASHBOARD = "/rounds/R1/dashboard"


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

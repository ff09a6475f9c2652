"""Tees on the scorer's page and the leaderboard, in headless Chromium (issue 38).

A mixed Stableford: a man from the yellow tees and a woman from the red, where hole 5 is a
par 5 from the red and a par 4 from the yellow (the course of the golden scenario
``b_mixed_tees_stableford``). The scorer's page names each ball's tees and starts each
stepper at the ball's own par; the public leaderboard names each player's tees.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.conftest import local_today, sign_in
from livesupport import LiveServer, live_server, setup_round
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).parents[1] / "golden" / "results"
COURSE = GOLDEN / "b_mixed_tees_stableford" / "course.toml"
DRAW = """group,start,tee,player,handicap,gender,tees
1,08:00,1,Alain Caron,12.4,M,Yellow
1,08:00,1,Claire Ouellet,18.0,F,Red
"""


@pytest.fixture
def mixed(tmp_path) -> Iterator[LiveServer]:
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW, encoding="utf-8")
    db = setup_round(tmp_path, day=local_today(0).date().isoformat(), course=COURSE, draw=draw)
    from livesupport import pace

    pace("import", "draw", str(draw), "--round", "R1", "--scoring", "stableford", "--net",
         "--db", str(db), cwd=tmp_path)  # fmt: skip
    args = ["--clock-origin", local_today(12).isoformat(), "--tick", "0.2"]
    with live_server(tmp_path, db=Path(db), extra_args=args) as s:
        yield s


def test_the_scorer_page_and_the_leaderboard_name_each_players_tees(browser, mixed):
    context = browser.new_context(viewport={"width": 375, "height": 812})
    sign_in(context, mixed, "scorer")
    phone = context.new_page()
    phone.goto(mixed.url + "/rounds/R1/scorecard")
    phone.locator("#group").select_option("1")
    alain = phone.locator(".ball[data-ball='Alain Caron']")
    claire = phone.locator(".ball[data-ball='Claire Ouellet']")
    expect(alain.locator(".ball-tees")).to_have_text(" (Yellow)")
    expect(claire.locator(".ball-tees")).to_have_text(" (Red)")
    for hole in range(1, 5):
        expect(phone.locator("#hole-title")).to_contain_text(f"Hole {hole} ·")
        phone.get_by_role("button", name=f"Record hole {hole}").click()
    # hole 5: par 4 from the yellow, par 5 from the red; each stepper starts at its own par
    expect(phone.locator("#hole-title")).to_contain_text("Hole 5 · par 4")
    expect(claire.locator(".ball-tees")).to_have_text(" (Red · Par 5)")
    expect(claire.locator("output")).to_have_text("5")
    expect(alain.locator("output")).to_have_text("4")
    phone.get_by_role("button", name="Record hole 5").click()
    expect(phone.locator("#hole-title")).to_contain_text("Hole 6 ·")

    public = browser.new_context().new_page()
    public.goto(mixed.url + "/rounds/R1/leaderboard")
    row = public.locator("tr.lb-row[data-entry='Claire Ouellet']")
    expect(row.locator(".lb-tees")).to_have_text("Red")
    expect(public.locator("tr.lb-row[data-entry='Alain Caron'] .lb-tees")).to_have_text("Yellow")
    # each hole in the ball's own par: Claire (playing 18) receives a stroke on each, 3
    # points a hole, her par 5 included: 15; Alain (playing 11) none on hole 3 (SI 15): 14
    expect(row.locator(".lb-points")).to_contain_text("15")
    expect(public.locator("tr.lb-row[data-entry='Alain Caron'] .lb-points")).to_contain_text("14")
    context.close()

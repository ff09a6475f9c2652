"""The facts-only board on a wall screen (issue 14, point 14): a key to planned and actual times,
a DQ marker on the player, every group of a 40-group crossover start shown in turn, a favicon."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from livesupport import COURSE, TIMEZONE, LiveServer, disqualify, live_server, pace
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROUND = "R1"
WALL = {"width": 1920, "height": 1080}


def crossover_draw(folder: Path) -> Path:
    """40 four-balls: 20 off tee 1 and 20 off tee 10, every 10 minutes from 08:00."""
    lines = ["group,start,tee,player"]
    for i in range(40):
        tee, slot = (1, i) if i < 20 else (10, i - 20)
        start = datetime(2026, 1, 1, 8, 0) + timedelta(minutes=10 * slot)
        for p in range(4):
            lines.append(f"{i + 1},{start:%H:%M},{tee},Player {i + 1}-{p + 1}")
    path = folder / "crossover.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def server(tmp_path, today_at) -> Iterator[LiveServer]:
    db = tmp_path / "pace.db"
    day = today_at(12).date().isoformat()
    pace("import", "course", str(COURSE), "--db", str(db), cwd=tmp_path)
    pace("import", "draw", str(crossover_draw(tmp_path)), "--round", ROUND, "--date", day,
         "--timezone", TIMEZONE, "--db", str(db), cwd=tmp_path)  # fmt: skip
    origin = today_at(12).isoformat()
    with live_server(tmp_path, db=db, extra_args=["--clock-origin", origin, "--tick", "0.2"]) as s:
        yield s


def test_a_wall_screen_shows_the_key_a_dq_and_every_group_in_turn(server, new_context):
    page = new_context(viewport=WALL).new_page()
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(f"{server.url}/rounds/{ROUND}/board?pause=1")
    expect(page.locator("tr.board-row")).to_have_count(40)

    # the key: planned (expected) above, actual (done) below
    key = page.locator(".board-key")
    expect(key).to_be_visible()
    expect(key).to_contain_text("planned: expected to finish by")
    expect(key).to_contain_text("actual: finished at")
    expect(page.locator("tr.tee-line[data-tee='10']")).to_have_text("From tee 10")

    # the tee-10 half comes into view by itself, then the top again
    last = page.locator("tr.board-row[data-group='40']")
    expect(last).not_to_be_in_viewport()
    expect(last).to_be_in_viewport(timeout=15000)
    expect(page.locator("tr.board-row[data-group='1']")).to_be_in_viewport(timeout=15000)

    # a disqualified player is marked DQ on the board
    disqualify(server, "3", "Player 3-2")
    board = server.get_json(f"/api/rounds/{ROUND}/board")["snapshot"]
    assert board["disqualified"] == [{"group": "3", "player": "Player 3-2"}], server.get_json(
        f"/api/rounds/{ROUND}/penalties"
    )
    marked = page.locator("tr.board-row[data-group='3'] .b-player[data-player='Player 3-2']")
    expect(marked.locator(".dq-mark")).to_have_text("DQ")
    expect(page.locator(".dq-mark")).to_have_count(1)

    # a favicon, and nothing asked for that is not there
    icon = page.locator("link[rel='icon']").get_attribute("href")
    assert icon and page.request.get(server.url + icon).status == 200
    assert missing == []

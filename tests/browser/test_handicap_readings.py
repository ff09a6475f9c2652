"""The committee sets a round's handicap readings on its page, and the results follow (issue 47).

A real ``pace serve`` on a net stroke round of Louiseville rated as docs/scoring.md's worked
example (slope 129, rating 71.3, par 72; allowance 95 %), its cards in: Ann Peeters, index
9.0, pars every hole. Under the WHS reading her playing handicap is 9 and her net 63; the
committee, on the round's page in Dutch, chooses the older reading: the results sheet says so
in its footer, and shows 10 and 62, as its CSV does. A form tampered with is refused in Dutch
and changes nothing. The sheet is looked at on a phone (360 px), where players read it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.conftest import local_today, sign_in
from browser.test_course_strip import serious
from livesupport import COURSE, TIMEZONE, LiveServer, clocked, live_server, pace
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/handicap")
ANN = "Ann Peeters"
DRAW = f"group,start,tee,player,handicap\n1,08:00,1,{ANN},9.0\n1,08:00,1,Bart Maes,20.0\n"
PARS = [4, 5, 3, 4, 4, 3, 5, 4, 4, 4, 3, 5, 4, 4, 5, 3, 4, 4]  # Louiseville, par 72


@pytest.fixture
def rated(tmp_path) -> Iterator[LiveServer]:
    """``pace serve`` at noon on round R1: net stroke play, its cards imported (every hole par)."""
    course = tmp_path / "course.toml"
    course.write_text(
        COURSE.read_text(encoding="utf-8").replace(
            'name = "Golf de Louiseville"\n',
            'name = "Golf de Louiseville"\nslope = 129\nrating = 71.3\n',
        ),
        encoding="utf-8",
    )
    (tmp_path / "draw.csv").write_text(DRAW, encoding="utf-8")
    rows = [f"1,{p},{h},{par}" for p in (ANN, "Bart Maes") for h, par in enumerate(PARS, 1)]
    (tmp_path / "scores.csv").write_text("group,player,hole,strokes\n" + "\n".join(rows) + "\n")
    db = tmp_path / "pace.db"
    day = local_today(0).date().isoformat()
    pace("import", "course", str(course), "--db", str(db), cwd=tmp_path)
    pace("import", "draw", str(tmp_path / "draw.csv"), "--round", "R1", "--date", day,
         "--timezone", TIMEZONE, "--scoring", "stroke", "--net", "--db", str(db),
         cwd=tmp_path)  # fmt: skip
    pace("import", "scores", str(tmp_path / "scores.csv"), "--round", "R1", "--db", str(db),
         cwd=tmp_path)  # fmt: skip
    with live_server(tmp_path, db=db, extra_args=clocked("12:00", tick=0.2)) as server:
        yield server


def ann_on_the_sheet(page: Page, server: LiveServer) -> list[str]:
    """Open the results sheet; return Ann's figures: playing handicap, gross, net."""
    page.goto(f"{server.url}/rounds/R1/results")
    row = page.locator("section.standings tbody tr", has=page.locator(f"th:text('{ANN}')"))
    expect(row).to_have_count(1)
    return row.locator("td.num").all_inner_texts()


def csv_of_ann(page: Page, server: LiveServer) -> dict[str, str]:
    lines = page.request.get(f"{server.url}/rounds/R1/results.csv").text().splitlines()
    head = lines[0].split(",")
    (line,) = [row.split(",") for row in lines if ANN in row]
    return dict(zip(head, line, strict=False))


def test_the_committee_chooses_the_older_reading_and_the_results_follow(rated, browser):
    server = rated
    context = browser.new_context(locale="nl-BE", viewport={"width": 1280, "height": 900})
    sign_in(context, server)
    page = context.new_page()

    # the WHS reading, the configuration's when the round was created: 9, net 63
    figures = ann_on_the_sheet(page, server)
    assert figures == ["9", "72", "63"], figures  # handicap, gross, net
    foot = page.locator("footer.sheet-foot .handicap-reading")
    expect(foot).to_contain_text("één keer afgerond")
    assert csv_of_ann(page, server)["playing_handicap"] == "9"

    # the round's page: the readings as the round has them, the older one chosen and sent
    page.goto(f"{server.url}/rounds/R1/changes")
    box = page.locator("#handicap-box")
    expect(box.locator("h2")).to_have_text("Handicapberekening")
    rounding = box.locator("select[name=rounding]")
    expect(rounding).to_have_value("whs")
    expect(box.locator("select[name=gross_par_adjustment]")).to_have_value("yes")
    rounding.select_option(label="Oudere lezing: twee keer afgerond")
    box.locator("button[type=submit]").click()
    expect(page.locator("#handicap-saved")).to_be_visible()
    expect(page.locator("#handicap-box select[name=rounding]")).to_have_value("course_then_playing")
    assert serious(page) == []

    # the sheet: its footer and Ann's figures, and the CSV, follow: 10, net 62
    figures = ann_on_the_sheet(page, server)
    assert figures == ["10", "72", "62"], figures
    expect(foot).to_contain_text("oudere lezing")
    expect(foot).not_to_contain_text("één keer afgerond")
    assert csv_of_ann(page, server)["playing_handicap"] == "10"
    assert csv_of_ann(page, server)["net"] == "62"

    # a form tampered with (a reading pace does not know): refused in Dutch, nothing changed
    page.goto(f"{server.url}/rounds/R1/changes")
    page.locator("#handicap-box select[name=rounding] option").first.evaluate(
        "(o) => { o.value = 'half'; o.selected = true; }"
    )
    page.locator("#handicap-box button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Formulier onvolledig")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    assert ann_on_the_sheet(page, server) == ["10", "72", "62"]

    # the sheet as a player reads it, on a phone
    phone = context.new_page()
    phone.set_viewport_size({"width": 360, "height": 800})
    assert ann_on_the_sheet(phone, server) == ["10", "72", "62"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "sheet-360.png"), full_page=True)
    phone.goto(f"{server.url}/rounds/R1/changes")
    phone.locator("#handicap-box").screenshot(path=str(SHOTS / "changes-360.png"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()

"""The results sheet from the leaderboard, in headless Chromium (issue 38, item 4).

A real ``pace serve`` (round R1 for today, stroke play gross, its clock at noon): group 1's
cards are scored through the HTTP mirror (Julie Gagnon and Marie Lavoie both 74 in class AA,
Marie first on the last nine), then the committee opens the leaderboard, clicks its
"Results sheet" button, reads the sheet and downloads its PDF. The public sees no button while
the results are provisional and may not open the sheet; once the committee makes the results
final, the public leaderboard says so (and when), no longer "Live", and opens the sheet.
A phone-width screenshot of the sheet is kept for a person to look at.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import uuid

import pytest
from livesupport import LiveServer
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LEADERBOARD = "/rounds/R1/leaderboard"
SHEET = "/rounds/R1/results"
PARS = [4, 5, 3, 4, 4, 3, 5, 4, 4, 4, 3, 5, 4, 4, 5, 3, 4, 4]
PHONE = {"width": 390, "height": 844}


def command(server: LiveServer, name: str, body: dict, role: str) -> dict:
    now = server.get_json("/api/rounds/R1/snapshot")["snapshot"]["at"]
    answer = server.post_json(
        f"/api/commands/{name}",
        {"id": str(uuid.uuid4()), "round": "R1", **body, "device_time": now},
        token=server.token(role),
    )
    assert answer["ok"], answer
    return answer


def score_group_1(server: LiveServer) -> None:
    """Marie bogeys holes 1 and 2, Julie 17 and 18 (both 74, class AA), Sophie pars every
    hole (72, class A)."""
    extra = {"Marie Lavoie": (1, 2), "Julie Gagnon": (17, 18), "Sophie Tremblay": ()}
    for player, bogeys in extra.items():
        for hole, par in enumerate(PARS, start=1):
            strokes = par + (1 if hole in bogeys else 0)
            command(server, "record_score", {"group": "1", "player": player, "hole": hole,
                                             "strokes": strokes}, "scorer")  # fmt: skip


def pdf_text(path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         check=True, text=True)  # fmt: skip
    return " ".join(out.stdout.split())


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils missing")
def test_the_committee_prints_the_sheet_and_the_public_gets_it_once_final(
    server, browser, new_context, tmp_path
):
    score_group_1(server)
    committee = new_context(viewport={"width": 1200, "height": 900})
    board = committee.new_page()
    board.goto(server.url + LEADERBOARD + "?lang=en")
    expect(board.locator("#mode")).to_have_text("Live: cards in play rank on their score so far")
    button = board.locator("#sheet-link")
    expect(button).to_be_visible()
    button.click()
    expect(board).to_have_url(re.compile(r"/rounds/R1/results"))
    expect(board.locator("h1")).to_have_text("Results · R1")
    expect(board.locator("#stamp")).to_contain_text("Results not final yet")
    aa = board.locator("section.standings[data-title='Class AA']")
    rows = aa.locator("tbody tr")
    expect(rows.nth(0).locator("td.pos")).to_have_text("1")
    expect(rows.nth(0)).to_contain_text("Marie Lavoie")
    expect(rows.nth(0).locator("td.countback")).to_have_text("last 9: 36")
    expect(rows.nth(1).locator("td.pos")).to_have_text("2")
    expect(rows.nth(1)).to_contain_text("Julie Gagnon")
    expect(rows.nth(1).locator("td.countback")).to_have_text("last 9: 38")
    a = board.locator("section.standings[data-title='Class A'] tbody tr").first
    expect(a).to_contain_text("Sophie Tremblay")
    with board.expect_download() as download:
        board.locator("#sheet-pdf").click()
    assert download.value.suggested_filename == "results-R1.pdf"
    path = download.value.path()
    assert path is not None and open(path, "rb").read(4) == b"%PDF"
    text = pdf_text(path)
    assert "Results · R1" in text and "Class AA" in text
    assert "1 Marie Lavoie 74 last 9: 36" in text and "2 Julie Gagnon 74 last 9: 38" in text

    # the public: no button, and the sheet asks for a code while the results are provisional
    public = browser.new_context()
    page = public.new_page()
    page.goto(server.url + LEADERBOARD + "?lang=en")
    expect(page.locator("#app")).to_have_attribute("data-life", re.compile(r"\w"))
    expect(page.locator("#sheet")).to_be_hidden()
    page.goto(server.url + SHEET)
    expect(page).to_have_url(re.compile(r"/join\?next="))

    # made final: the board says so and when, the sheet is everybody's
    command(server, "round_finish", {}, "committee")
    command(server, "round_final", {}, "committee")
    page.goto(server.url + LEADERBOARD + "?lang=en")
    mode = page.locator("#mode")
    expect(mode).to_have_text(
        re.compile(r"^Results final since \d\d:\d\d, by .+: scores and penalties are locked$")
    )
    assert "Live" not in page.locator("body").inner_text()
    # and ranks as the results do: Marie ahead of Julie on the countback, not level
    for name, place in (("Sophie Tremblay", "1"), ("Marie Lavoie", "2"), ("Julie Gagnon", "3")):
        expect(page.locator(f"tr.lb-row[data-entry='{name}'] .lb-pos")).to_have_text(place)
    page.locator("#sheet-link").click()
    expect(page.locator("#stamp")).to_contain_text("Results final since")
    page.goto(server.url + LEADERBOARD + "?lang=fr")
    expect(page.locator("#mode")).to_contain_text("Résultats définitifs depuis")
    public.close()


def test_the_sheet_reads_on_a_phone(server, new_context, tmp_path):
    score_group_1(server)
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.goto(server.url + SHEET + "?lang=fr")
    expect(page.locator("h1")).to_have_text("Résultats · R1")
    expect(page.locator("section.standings").first).to_be_visible()
    # nothing wider than the screen but a table's own sideways scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#sheet-pdf").bounding_box()
    assert box is not None and box["height"] >= 40, box
    page.screenshot(path=str(tmp_path / "results-sheet-phone.png"), full_page=True)

"""The committee's console in headless Chromium (issue 28): from an empty database and the
committee secret, with no terminal command after ``pace serve``, the committee creates a course
by hand, a round from a draw CSV (three errors shown, nothing stored; fixed, previewed,
confirmed), then withdraws and swaps players on the changes page while the dashboard follows,
makes and downloads the access cards (A4 PDF) whose marshal card's link opens the marshal page
on a phone, where a tap on the first hole is stored and reaches the dashboard; then finishes the
round and makes its results final, which the leaderboard stamps.
"""

from __future__ import annotations

import io
import json
import re
import sqlite3
import subprocess
from datetime import datetime
from urllib.parse import quote
from zoneinfo import ZoneInfo

import pytest
from browser.conftest import local_today
from livesupport import TIMEZONE, live_server
from playwright.sync_api import expect
from pypdf import PdfReader

pytestmark = pytest.mark.browser

#: a mixed field: the women from the red tees, the men from the yellow (issue 38)
GOOD = """group,start,tee,player,handicap,gender,tees
1,09:00,1,Ann Ash,10.2,F,Red
1,09:00,1,Ben Birch,12,M,Yellow
1,09:00,1,Cat Cedar,18.5,F,red
2,09:10,1,Dan Dogwood,8,M,Yellow
2,09:10,1,Eve Elm,20,F,Red
"""
#: four problems: a start that is no time (line 3), tees the course does not have (line 4), a
#: tee not on a 9-hole course (line 5), a handicap that is no number (line 6)
BAD = """group,start,tee,player,handicap,gender,tees
1,09:00,1,Ann Ash,10.2,F,Red
1,nine,1,Ben Birch,12,M,Yellow
1,09:00,1,Cat Cedar,18.5,F,Green
2,09:10,12,Dan Dogwood,8,M,Yellow
2,09:10,1,Eve Elm,twenty,F,Red
"""


#: a phone, as the marshals hold them
PHONE = {"width": 390, "height": 800}


@pytest.fixture
def empty_server(tmp_path):
    """``pace serve`` on a database that does not exist yet: it makes the committee secret.

    Its clock starts at noon on the round's day (Europe/Brussels, the form's default zone), so
    the draw's groups (09:00, 09:10) have teed off whatever the hour the test runs: the round
    is in play and a marshal's tap on the first hole is accepted.
    """
    origin = local_today(12).isoformat()
    args = ["--clock-origin", origin, "--tick", "0.2"]
    with live_server(tmp_path, db=tmp_path / "club.db", extra_args=args) as s:
        yield s


def rounds(page) -> list[dict]:
    """The stored rounds, read with the page's own session (no terminal)."""
    origin = re.match(r"https?://[^/]+", page.url)
    assert origin is not None
    return json.loads(page.request.get(origin[0] + "/api/rounds").text())["rounds"]


def draw_file(text: str) -> dict:
    return {"name": "draw.csv", "mimeType": "text/csv", "buffer": text.encode()}


def printed_links(pdf: bytes, tmp_path) -> list[str]:
    """Return the ``/join`` links printed on the cards of ``pdf``, as ``pdftotext`` reads them.

    A card prints its link in small type, broken across lines where the card's width ends
    (``word-break: break-all``): a link runs on until the blank line after it.
    """
    path = tmp_path / "cards.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return [m.replace("\n", "") for m in re.findall(r"https?://\S+(?:\n\S+)*", text)]


def cards_to_a_marshals_tap(page, dashboard, browser, server, tmp_path) -> None:
    """On the round's changes page: the access cards for 2 marshals, a referee and a scorer,
    downloaded as the A4 PDF; a marshal card's printed link opened on a phone (a context of its
    own, no session) lands on the marshal page signed in as a marshal; a tap on the first hole
    is confirmed, stored as the marshal's and shown on the committee's dashboard."""
    cards = page.locator("form#cards")
    cards.locator("input[name=marshal]").fill("2")
    cards.locator("input[name=referee]").fill("1")
    cards.locator("input[name=scorer]").fill("1")
    expect(cards.locator("input[name=url]")).to_have_value(server.url)
    with page.expect_download() as download:
        cards.locator("button[type=submit]").click()
    assert download.value.suggested_filename.endswith(".pdf")
    pdf = download.value.path().read_bytes()
    sheet = PdfReader(io.BytesIO(pdf))
    (a4,) = sheet.pages  # four cards: one sheet of 2 × 4
    assert (round(float(a4.mediabox.width)), round(float(a4.mediabox.height))) == (595, 842)
    links = printed_links(pdf, tmp_path)
    # ``next`` is a query value: the round's path, quoted again (``%20`` → ``%2520``)
    round_path = quote(quote("/rounds/Spring cup/", safe="/"), safe="/")
    join = re.compile(
        re.escape(server.url) + r"/join\?code=([A-Z0-9]{4}-[A-Z0-9]{4})&next="
        + re.escape(round_path) + r"(marshal|dashboard|scorecard)"
    )  # fmt: skip
    assert len(links) == 4 and all(join.fullmatch(link) for link in links), links
    landing = [join.fullmatch(link)[2] for link in links]  # type: ignore[index]
    assert sorted(landing) == ["dashboard", "marshal", "marshal", "scorecard"], landing
    # the codes are on the cards only: four different ones, each its own card
    assert len({join.fullmatch(link)[1] for link in links}) == 4  # type: ignore[index]
    marshal_link = links[landing.index("marshal")]

    # a marshal's phone: no session of its own before the link
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        marshal = phone.new_page()
        marshal.goto(marshal_link)
        expect(marshal).to_have_url(server.url + "/rounds/Spring%20cup/marshal")
        expect(marshal.locator("#app")).to_have_attribute("data-round", "Spring cup")
        expect(marshal.locator("#conn")).to_have_text("Online")
        marshal.locator("label[for='hole-1']").click()
        marshal.get_by_role("button", name="Group 1 holed out on 1").click()
        tap = marshal.locator("li.entry[data-kind='hole_completed']")
        expect(tap).to_have_attribute("data-state", "confirmed")
        expect(marshal.locator("#pending")).to_have_attribute("data-count", "0")
    finally:
        phone.close()

    # stored, as the marshal's, and on the committee's dashboard at its stored instant
    answer = page.request.get(server.url + "/api/rounds/Spring%20cup/events")
    events = json.loads(answer.text())["events"]
    (logged,) = [e for e in events if e["type"] == "hole_completed"]
    assert (logged["payload"]["group"], logged["payload"]["hole"]) == ("1", 1), logged
    assert logged["by"]["role"] == "marshal", logged
    at = datetime.fromisoformat(logged["at"]).astimezone(ZoneInfo(TIMEZONE))
    cell = dashboard.locator("td.hole[data-group='1'][data-hole='1']")
    expect(cell).to_have_text(at.strftime("%H:%M"))


def test_the_console_from_an_empty_database_to_the_changes_on_the_day(
    empty_server, browser, tmp_path
):
    secret = (empty_server.db.parent / "club.db.committee-secret").read_text().strip()
    context = browser.new_context()
    page = context.new_page()
    page.goto(empty_server.url + "/login")
    page.locator("input[name=code]").fill(secret)
    page.locator("form.code-form button[type=submit]").click()
    page.locator("#console-link").click()
    expect(page).to_have_url(re.compile(r"/committee$"))

    # a course by hand: 9 holes, par 4, stroke indexes 1-9, two tee sets (issue 38): yellow
    # for the men, red for men and women with hole 9 a par 5 and its own stroke indexes
    page.locator("#link-courses").click()
    page.locator("#new-course").click()
    page.locator("#f-name").fill("Test Links")
    page.locator("#f-hole-count").select_option("9")
    for i in range(9):
        page.locator(f"[name='holes.{i}.par']").fill("4")
        page.locator(f"[name='holes.{i}.stroke_index']").fill(str(i + 1))
    page.locator("[name='holes.3.par']").fill("9")  # a slip: shown beside the field
    page.locator("#add-tees").click()
    page.locator("#add-tees").click()
    page.locator("[name='tees.0.name']").fill("Yellow")
    page.locator("[name='tees.0.colour']").fill("yellow")
    page.locator("[name='tees.0.slope']").fill("121")
    page.locator("[name='tees.0.rating']").fill("35.1")
    page.locator("[name='tees.1.name']").fill("Red")
    page.locator("[name='tees.1.slope']").fill("110")
    page.locator("[name='tees.1.rating']").fill("33,5")
    page.locator("[name='tees.1.women_slope']").fill("118")
    page.locator("[name='tees.1.women_rating']").fill("36.2")
    page.locator("[name='tees.1.par']").fill("9=5")
    page.locator("[name='tees.1.stroke_index']").fill("1=2")  # a slip: index 2 twice
    page.locator("#save").click()
    expect(page.locator(".field-error[data-for='holes.3.par']")).to_contain_text(
        "hole 4: par 9 is not allowed"
    )
    expect(page.locator(".field-error[data-for='tees.1.stroke_index']")).to_contain_text(
        "stroke_index 2 is given to hole 1 and hole 2 from these tees"
    )
    page.locator("[name='holes.3.par']").fill("3")
    page.locator("[name='tees.1.stroke_index']").fill("1=2, 2=1")
    page.locator("#save").click()
    expect(page.locator("tr.course[data-course='Test Links']")).to_be_visible()
    toml = page.request.get(empty_server.url + "/courses/Test%20Links.toml").text()
    assert toml.count("[[tees]]") == 2 and "par = { 9 = 5 }" in toml
    assert "women_slope = 118" in toml and "stroke_index = { 1 = 2, 2 = 1 }" in toml

    # a round from a draw with three errors: each shown, nothing stored
    page.goto(empty_server.url + "/committee")
    page.locator("#link-round-new").click()
    page.locator("#r-round").fill("Spring cup")
    page.locator("#r-scoring").select_option("stableford")
    # no marshal at this club: the groups' scorecards report their holes (issue 39)
    expect(page.locator("#r-completions")).to_have_value("officials")
    page.locator("#r-completions").select_option("groups")
    page.locator("#r-draw").set_input_files(draw_file(BAD))
    page.locator("#preview").click()
    problems = page.locator("#problem-rows tr.problem")
    expect(problems).to_have_count(4)
    expect(problems.nth(0)).to_contain_text("start 'nine' is not a time")
    expect(problems.nth(1)).to_contain_text("tees 'Green' are not a tee set of course")
    expect(problems.nth(2)).to_contain_text("tee 12 does not exist on this course")
    expect(problems.nth(3)).to_contain_text("handicap 'twenty' is not a handicap index")
    cells = [problems.nth(i).locator("td") for i in range(4)]
    assert [c.nth(0).inner_text() for c in cells] == ["3", "4", "5", "6"]
    assert cells[1].nth(1).inner_text() == "tees"
    assert rounds(page) == []
    # the file fixed (dropped anew), a preview, then the confirmation
    page.locator("#r-draw").set_input_files(draw_file(GOOD))
    # the committee's language for the round's documents (issue 41), kept with the round
    expect(page.locator("#r-language")).to_have_value("fr")  # config's [reports] language
    page.locator("#r-language").select_option("nl")
    # the round's readings of the handicap rules (issue 47): config.toml's offered, one changed
    expect(page.locator("#r-rounding")).to_have_value("whs")
    expect(page.locator("#r-gross")).to_have_value("yes")
    page.locator("#r-rounding").select_option("course_then_playing")
    page.locator("#preview").click()
    expect(page.locator("#preview-rows tr.preview-group")).to_have_count(2)
    # each player's tees beside his name, as the course names them
    expect(page.locator("#preview-rows tr.preview-group[data-group='1']")).to_contain_text(
        "Ann Ash (Red), Ben Birch (Yellow), Cat Cedar (Red)"
    )
    expect(page.locator("#problems")).to_be_hidden()
    assert rounds(page) == []
    page.locator("#confirm").click()
    page.locator("#open-changes").click()
    assert [r["name"] for r in rounds(page)] == ["Spring cup"]
    from pace.store import open_store

    with open_store(empty_server.db) as store:
        assert store.get_round("Spring cup").completions == "groups"
        spring = store.get_round("Spring cup")
        assert (spring.rounding, spring.gross_par_adjustment) == ("course_then_playing", True)
    with sqlite3.connect(f"file:{empty_server.db}?mode=ro", uri=True) as db:
        assert db.execute("SELECT language FROM rounds").fetchall() == [("nl",)]
    # the changes page changes it: the form sent, stored, shown selected
    language = page.locator("#round-language select[name=language]")
    expect(language).to_have_value("nl")
    language.select_option("en")
    page.locator("#round-language button[type=submit]").click()
    expect(page.locator("#language-saved")).to_be_visible()
    expect(page.locator("#round-language select[name=language]")).to_have_value("en")
    with sqlite3.connect(f"file:{empty_server.db}?mode=ro", uri=True) as db:
        assert db.execute("SELECT language FROM rounds").fetchall() == [("en",)]

    # the dashboard follows the changes made on the changes page
    dashboard = context.new_page()
    dashboard.goto(empty_server.url + "/rounds/Spring%20cup/dashboard")
    group1 = dashboard.locator("tr.group-row[data-group='1'] button.link")
    expect(group1).to_have_attribute("title", "Ann Ash, Ben Birch, Cat Cedar")

    page.locator("#form-withdraw summary").click()
    form = page.locator("#form-withdraw form")
    form.locator("select[name=player]").select_option("Ben Birch")
    form.locator("select[name=kind]").select_option("no_show")
    form.locator("input[name=reason]").fill("called in sick")
    form.locator("button[type=submit]").click()
    expect(page.locator("tr.change[data-type='player_withdrawn']")).to_have_count(1)
    expect(group1).to_have_attribute("title", "Ann Ash, Cat Cedar")

    page.locator("#form-swap summary").click()
    form = page.locator("#form-swap form")
    form.locator("select[name=player]").select_option("Ann Ash")
    form.locator("select[name=other]").select_option("Eve Elm")
    form.locator("input[name=reason]").fill("car sharing")
    form.locator("button[type=submit]").click()
    expect(page.locator("tr.change[data-type='players_swapped']")).to_have_count(1)
    expect(group1).to_have_attribute("title", "Eve Elm, Cat Cedar")
    expect(page.locator("tr.draw-group[data-group='2']")).to_contain_text("Ann Ash")

    # a refusal shows the service's sentence beside its form (the form stays open)
    form.locator("select[name=player]").select_option("Cat Cedar")
    form.locator("select[name=other]").select_option("Eve Elm")
    form.locator("input[name=reason]").fill("")
    form.locator("button[type=submit]").click()
    expect(form.locator("p.error")).to_contain_text("reason")

    # the access cards, printed; a marshal's phone opens its card's link and taps hole 1
    cards_to_a_marshals_tap(page, dashboard, browser, empty_server, tmp_path)

    # the round's life from the page: Finish, then Make results final; the leaderboard follows
    leaderboard = context.new_page()
    leaderboard.goto(empty_server.url + "/rounds/Spring%20cup/leaderboard")
    expect(leaderboard.locator("#app")).to_have_attribute("data-life", re.compile(r"\w"))
    life = page.locator("#life")
    page.locator("#life-final").click()  # not finished yet: the service's sentence
    expect(page.locator("#life-error")).to_contain_text("finish it first")
    # in play: its groups teed off at 09:00 and 09:10 (the server's clock is at noon)
    expect(life).to_have_attribute("data-stage", "in_play")
    page.locator("#life-finish").click()
    expect(life).to_have_attribute("data-stage", "finished")
    page.locator("#life-final").click()
    expect(life).to_have_attribute("data-stage", "final")
    expect(life).to_contain_text("Results final")
    expect(page.locator("#life-final")).to_be_disabled()
    expect(page.locator("#life-reopen")).to_be_visible()
    # the leaderboard no longer says "Live": the results are final, since when and by whom
    mode = leaderboard.locator("#mode")
    expect(mode).to_have_text(
        re.compile(r"^Results final since \d\d:\d\d, by .+: scores and penalties are locked$")
    )
    expect(mode).not_to_contain_text("Live")
    expect(leaderboard.locator("#life")).to_be_hidden()
    expect(leaderboard.locator("#app")).to_have_attribute("data-life", "final")
    expect(leaderboard.locator("#sheet-link")).to_be_visible()
    context.close()

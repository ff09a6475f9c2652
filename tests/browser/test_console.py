"""The committee's console in headless Chromium (issue 28): from an empty database and the
committee secret, with no terminal command after ``pace serve``, the committee creates a course
by hand, a round from a draw CSV (three errors shown, nothing stored; fixed, previewed,
confirmed), then withdraws and swaps players on the changes page while the dashboard follows,
and finishes the round and makes its results final, which the leaderboard stamps.
"""

from __future__ import annotations

import json
import re

import pytest
from livesupport import live_server
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

GOOD = """group,start,tee,player,handicap
1,09:00,1,Ann Ash,10.2
1,09:00,1,Ben Birch,12
1,09:00,1,Cat Cedar,18.5
2,09:10,1,Dan Dogwood,8
2,09:10,1,Eve Elm,20
"""
#: three problems: a start that is no time (line 3), a tee not on a 9-hole course (line 5),
#: a handicap that is no number (line 6)
BAD = """group,start,tee,player,handicap
1,09:00,1,Ann Ash,10.2
1,nine,1,Ben Birch,12
1,09:00,1,Cat Cedar,18.5
2,09:10,12,Dan Dogwood,8
2,09:10,1,Eve Elm,twenty
"""


@pytest.fixture
def empty_server(tmp_path):
    """``pace serve`` on a database that does not exist yet: it makes the committee secret."""
    with live_server(tmp_path, db=tmp_path / "club.db", extra_args=["--tick", "0.2"]) as s:
        yield s


def rounds(page) -> list[dict]:
    """The stored rounds, read with the page's own session (no terminal)."""
    origin = re.match(r"https?://[^/]+", page.url)
    assert origin is not None
    return json.loads(page.request.get(origin[0] + "/api/rounds").text())["rounds"]


def draw_file(text: str) -> dict:
    return {"name": "draw.csv", "mimeType": "text/csv", "buffer": text.encode()}


def test_the_console_from_an_empty_database_to_the_changes_on_the_day(empty_server, browser):
    secret = (empty_server.db.parent / "club.db.committee-secret").read_text().strip()
    context = browser.new_context()
    page = context.new_page()
    page.goto(empty_server.url + "/login")
    page.locator("input[name=code]").fill(secret)
    page.locator("form.code-form button[type=submit]").click()
    page.locator("#console-link").click()
    expect(page).to_have_url(re.compile(r"/committee$"))

    # a course by hand: 9 holes, par 4, stroke indexes 1-9
    page.locator("#link-courses").click()
    page.locator("#new-course").click()
    page.locator("#f-name").fill("Test Links")
    page.locator("#f-hole-count").select_option("9")
    page.locator("#f-slope").fill("121")
    for i in range(9):
        page.locator(f"[name='holes.{i}.par']").fill("4")
        page.locator(f"[name='holes.{i}.stroke_index']").fill(str(i + 1))
    page.locator("[name='holes.3.par']").fill("9")  # a slip: shown beside the field
    page.locator("#save").click()
    expect(page.locator(".field-error[data-for='holes.3.par']")).to_contain_text(
        "hole 4: par 9 is not allowed"
    )
    page.locator("[name='holes.3.par']").fill("3")
    page.locator("#save").click()
    expect(page.locator("tr.course[data-course='Test Links']")).to_be_visible()

    # a round from a draw with three errors: each shown, nothing stored
    page.goto(empty_server.url + "/committee")
    page.locator("#link-round-new").click()
    page.locator("#r-round").fill("Spring cup")
    page.locator("#r-scoring").select_option("stableford")
    page.locator("#r-draw").set_input_files(draw_file(BAD))
    page.locator("#preview").click()
    problems = page.locator("#problem-rows tr.problem")
    expect(problems).to_have_count(3)
    expect(problems.nth(0)).to_contain_text("start 'nine' is not a time")
    expect(problems.nth(1)).to_contain_text("tee 12 does not exist on this course")
    expect(problems.nth(2)).to_contain_text("handicap 'twenty' is not a handicap index")
    assert [problems.nth(i).locator("td").nth(0).inner_text() for i in range(3)] == ["3", "5", "6"]
    assert rounds(page) == []
    # the file fixed (dropped anew), a preview, then the confirmation
    page.locator("#r-draw").set_input_files(draw_file(GOOD))
    page.locator("#preview").click()
    expect(page.locator("#preview-rows tr.preview-group")).to_have_count(2)
    expect(page.locator("#problems")).to_be_hidden()
    assert rounds(page) == []
    page.locator("#confirm").click()
    page.locator("#open-changes").click()
    assert [r["name"] for r in rounds(page)] == ["Spring cup"]

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

    # the round's life from the page: Finish, then Make results final; the leaderboard follows
    leaderboard = context.new_page()
    leaderboard.goto(empty_server.url + "/rounds/Spring%20cup/leaderboard")
    expect(leaderboard.locator("#app")).to_have_attribute("data-life", re.compile(r"\w"))
    life = page.locator("#life")
    page.locator("#life-final").click()  # not finished yet: the service's sentence
    expect(page.locator("#life-error")).to_contain_text("finish it first")
    if life.get_attribute("data-stage") == "planned":
        # before the first tee time (the round is today's, its groups from 09:00): a round
        # not played is not finished, and the page says why
        page.locator("#life-finish").click()
        expect(page.locator("#life-error")).to_contain_text("has not started")
    else:
        page.locator("#life-finish").click()
        expect(life).to_have_attribute("data-stage", "finished")
        page.locator("#life-final").click()
        expect(life).to_have_attribute("data-stage", "final")
        expect(life).to_contain_text("Results final")
        expect(page.locator("#life-final")).to_be_disabled()
        expect(page.locator("#life-reopen")).to_be_visible()
        expect(leaderboard.locator("#life")).to_contain_text("Results final")
        expect(leaderboard.locator("#app")).to_have_attribute("data-life", "final")
    context.close()

"""Every form and button of the committee's console, sent from Chromium with its effect seen
(issue 37): what tests/browser/test_console.py's walk from an empty database does not use.

The changes page's eight forms run in one table (each form filled, sent, its change listed and
the draw as it is now showing it: ``change_start`` and ``change_tee`` were refused ``unknown
command`` before, the page sending ``change_change_start``), then a change voided, the round
finished, made final and reopened; the access page makes codes and revokes one; the courses
page takes a course file, whose form is then edited and saved; the time-pars page shows a
course's history; the scorecard page's scoring setting and the dashboard's sirens (the
committee's buttons outside the console) are sent too. Signed in with the committee secret,
as the console's owner.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from livesupport import ROUND, LiveServer
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

COURSE = Path(__file__).parents[1] / "data" / "formats" / "course_louiseville.toml"


def secret(server: LiveServer) -> str:
    """Return the committee secret ``pace serve`` wrote beside the database."""
    return server.db.with_name(server.db.name + ".committee-secret").read_text().strip()


@pytest.fixture
def console(server, browser) -> Iterator[Page]:
    """A page signed in with the committee secret at /login (no round code)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url + "/login")
    page.locator("input[name=code]").fill(secret(server))
    page.locator("form.code-form button[type=submit]").click()
    expect(page.locator("#console-link")).to_be_visible()
    yield page
    context.close()


@dataclass(frozen=True)
class Change:
    """One form of the changes page: what to fill, the change it lists, where the draw shows it."""

    form: str
    fields: dict[str, str]
    listed: str  # the change's type, as the list's row names it
    group: str  # the draw's group row that shows it
    shows: str | None = None  # text that row then shows
    gone: str | None = None  # text that row then no longer shows
    selects: tuple[str, ...] = field(default=())  # which of ``fields`` are <select>s


#: Every form of the changes page, in an order the draw allows (the group added is removed).
CHANGES = [
    Change("withdraw", {"player": "Marie Lavoie", "kind": "no_show", "reason": "sick"},
           "player_withdrawn", "1", gone="Marie Lavoie", selects=("player", "kind")),
    Change("swap", {"player": "Julie Gagnon", "other": "Luc Côté", "reason": "car sharing"},
           "players_swapped", "1", shows="Luc Côté", gone="Julie Gagnon",
           selects=("player", "other")),
    Change("move_player", {"player": "Lise Dion", "to": "6", "reason": "a fourth for 6"},
           "player_moved", "6", shows="Lise Dion", selects=("player", "to")),
    Change("add_player", {"group": "3", "name": "Anne Ash", "handicap": "10.4",
                          "reason": "late entry"},
           "player_added", "3", shows="Anne Ash", selects=("group",)),
    Change("change_start", {"group": "6", "start": "12:40", "reason": "a late car"},
           "group_start_changed", "6", shows="12:40", gone="08:50", selects=("group",)),
    Change("change_tee", {"group": "5", "tee": "10", "reason": "two tees"},
           "group_tee_changed", "5", shows="Tee 10", selects=("group", "tee")),
    Change("add_group", {"group": "7", "start": "13:00", "tee": "1",
                         "players": "Zoé Roy\nYan Lee", "reason": "two more"},
           "group_added", "7", shows="Zoé Roy", selects=("tee",)),
    Change("remove_group", {"group": "7", "reason": "they went home"},
           "group_removed", "6", selects=("group",)),
]  # fmt: skip


def changes_data(page: Page, server: LiveServer) -> dict:
    """The changes page's data as the server has it now, read with the page's session."""
    answer = page.request.get(f"{server.url}/api/rounds/{ROUND}/changes")
    return json.loads(answer.text())


def group_row(page: Page, group: str):
    return page.locator(f"tr.draw-group[data-group='{group}']")


def send(page: Page, change: Change) -> None:
    page.locator(f"#form-{change.form} summary").click()
    form = page.locator(f"#form-{change.form} form")
    for name, value in change.fields.items():
        control = form.locator(f"[name='{name}']")
        if name in change.selects:
            control.select_option(value)
        else:
            control.fill(value)
    form.locator("button[type=submit]").click()
    expect(form.locator("p.error")).to_be_hidden()


def test_every_form_of_the_changes_page_is_sent_and_seen(server, console):
    page = console
    page.goto(f"{server.url}/rounds/{ROUND}/changes")
    expect(group_row(page, "6")).to_contain_text("08:50")
    for change in CHANGES:
        send(page, change)
        expect(page.locator(f"tr.change[data-type='{change.listed}']")).to_have_count(1)
        row = group_row(page, change.group)
        if change.shows:
            expect(row).to_contain_text(change.shows)
        if change.gone:
            expect(row).not_to_contain_text(change.gone)
    expect(group_row(page, "7")).to_have_count(0)
    # the server holds the same draw: group 6 starts at 12:40, group 5 on tee 10
    groups = {g["group"]: g for g in changes_data(page, server)["groups"]}
    assert (groups["6"]["start"], groups["5"]["tee"]) == ("12:40", 10), groups
    assert "7" not in groups

    # the void button of a change (its reason asked in a prompt): group 6 starts at 08:50 again
    page.once("dialog", lambda dialog: dialog.accept("typed the wrong group"))
    page.locator("tr.change[data-type='group_start_changed'] button.void").click()
    expect(page.locator("tr.change.voided[data-type='group_start_changed']")).to_have_count(1)
    expect(group_row(page, "6")).to_contain_text("08:50")
    # a void without a reason (the prompt dismissed) sends nothing
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("tr.change[data-type='group_tee_changed'] button.void").click()
    expect(page.locator("tr.change.voided")).to_have_count(1)


def test_the_rounds_life_finish_final_and_reopen(server, console):
    page = console
    page.goto(f"{server.url}/rounds/{ROUND}/changes")
    life = page.locator("#life")
    expect(life).to_have_attribute("data-stage", "in_play")
    page.locator("#life-finish").click()
    expect(life).to_have_attribute("data-stage", "finished")
    expect(page.locator("#life-finish")).to_be_disabled()
    page.locator("#life-final").click()
    expect(life).to_have_attribute("data-stage", "final")
    reopen = page.locator("#life-reopen")
    reopen.locator("input[name=reason]").fill("a card was added up wrong")
    reopen.locator("button[type=submit]").click()
    expect(life).not_to_have_attribute("data-stage", "final")
    expect(life).to_contain_text("a card was added up wrong")
    expect(reopen).to_be_hidden()
    assert changes_data(page, server)["life"]["final"] is False


def test_the_access_page_makes_codes_and_revokes_one(server, console):
    page = console
    page.goto(f"{server.url}/rounds/{ROUND}/access")
    make = page.locator("form:has(input[name='label'])")
    make.locator("input[name=role][value=referee]").check()
    make.locator("input[name=label]").fill("hole 7")
    make.locator("button[type=submit]").click()
    cards = page.locator(".access-card")
    expect(cards).to_have_count(2)
    assert sorted(cards.nth(i).get_attribute("data-role") for i in range(2)) == [
        "marshal", "referee",
    ]  # fmt: skip
    codes = [cards.nth(i).locator("p.code code").inner_text() for i in range(2)]
    rows = page.locator("table.codes tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("hole 7")

    rows.first.locator("button[data-revoke]").click()
    expect(page.locator("table.codes tbody tr").filter(has_text="Revoked")).to_have_count(1)
    expect(page.locator("table.codes button[data-revoke]")).to_have_count(1)
    # the code is refused at sign-in once revoked, the other still opens a session
    answers = [server.post_json("/api/session", {"code": c}, token="") for c in codes]
    assert sorted(bool(a.get("ok")) for a in answers) == [False, True], answers


def test_a_course_file_uploaded_then_edited_and_its_time_pars(server, console, tmp_path):
    page = console
    text = COURSE.read_text(encoding="utf-8").replace(
        'name = "Golf de Louiseville"', 'name = "Louiseville Nine"'
    )
    page.goto(server.url + "/courses")
    page.locator("#course-file").set_input_files(
        {"name": "nine.toml", "mimeType": "text/plain", "buffer": text.encode()}
    )
    row = page.locator("tr.course[data-course='Louiseville Nine']")
    expect(row).to_be_visible()  # the page reloads with it listed

    # its form, from its row: the slope changed and saved
    row.get_by_role("link", name=re.compile("Edit", re.I)).click()
    expect(page.locator("#f-name")).to_have_value("Louiseville Nine")
    page.locator("#f-slope").fill("127")
    page.locator("#save").click()
    expect(page).to_have_url(re.compile(r"/courses$"))
    slope = page.locator("tr.course[data-course='Louiseville Nine'] td").nth(3)
    expect(slope).to_have_text(re.compile(r"^127(\.0)?$"))

    # the time pars from its history: the form shows the course asked (no round played yet)
    page.locator("tr.course[data-course='Louiseville Nine']").get_by_role(
        "link", name=re.compile("time pars", re.I)
    ).click()
    page.locator("#calibrate select[name=size]").select_option("3")
    page.locator("#calibrate button[type=submit]").click()
    expect(page.locator("#cal-rounds")).to_be_visible()
    expect(page.locator("h1 .course-name")).to_have_text("Louiseville Nine")
    assert "size=3" in page.url and "Louiseville" in page.url


def test_the_committees_scoring_setting_on_the_scorecard_page(server, console):
    """The scorecard page's one committee form: how the round is scored."""
    page = console
    page.goto(f"{server.url}/rounds/{ROUND}/scorecard")
    page.locator("details.setting summary").click()
    form = page.locator("form.setting-form")
    form.locator("select[name=scoring]").select_option("stableford")
    form.locator("input[name=net]").check()
    form.locator("input[name=allowance]").fill("95")
    form.locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/rounds/{ROUND}/scorecard$"))
    expect(page.locator("form.setting-form select[name=scoring]")).to_have_value("stableford")
    expect(page.locator("form.setting-form input[name=net]")).to_be_checked()
    answer = page.request.get(f"{server.url}/api/rounds/{ROUND}/leaderboard")
    board = json.loads(answer.text())["leaderboard"]
    assert (board["scoring"], board["net"]) == ("stableford", True), str(board)[:300]


def test_the_committees_sirens_on_the_dashboard(server, console):
    """The dashboard's committee buttons: a siren pressed, cancelled or confirmed."""
    page = console
    page.goto(f"{server.url}/rounds/{ROUND}/dashboard")
    expect(page.locator("tr.group-row")).to_have_count(6)
    suspended = page.locator("#suspended")
    expect(suspended).to_be_hidden()
    page.locator("button.siren.k-suspension").click()
    page.locator("#siren-confirm button.cancel").click()  # cancelled: nothing recorded
    expect(page.locator("#siren-confirm")).to_be_hidden()
    page.locator("button.siren.k-suspension").click()
    page.locator("#siren-confirm button.confirm").click()
    expect(page.locator("#siren-result")).to_have_class("ok")
    expect(suspended).to_be_visible()
    page.locator("button.siren.k-resume").click()
    page.locator("#siren-confirm button.confirm").click()
    expect(suspended).to_be_hidden()
    events = json.loads(page.request.get(f"{server.url}/api/rounds/{ROUND}/events").text())
    sirens = [e["payload"]["kind"] for e in events["events"] if e["type"] == "siren"]
    assert sirens == ["suspension", "resume"], sirens


@pytest.mark.parametrize(
    "path, button, script",
    [
        ("/courses/edit?name=Golf+de+Louiseville", "#save", "committee/course.js"),
        ("/rounds/new", "#preview", "committee/round.js"),
        (f"/rounds/{ROUND}/changes", "#life-reopen button[type=submit]", "committee/changes.js"),
    ],
)
def test_a_form_only_its_script_sends_waits_for_that_script(server, console, path, button, script):
    """A click before the page's script has run would submit the form natively (a GET to the
    page itself, what was typed lost): its button is disabled until the script is wired."""
    page = console
    page.route(f"**/static/{script}*", lambda route: route.abort())
    page.goto(server.url + path)
    expect(page.locator(button)).to_be_disabled()  # its script never came: nothing to send
    page.unroute(f"**/static/{script}*")
    page.goto(server.url + path)
    expect(page.locator(button)).to_be_enabled()

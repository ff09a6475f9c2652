"""A Flemish club's start list through the console's new-round form in headless Chromium
(issue 47): the page in Dutch shows a Dutch example of the default tees, refuses tees the
course lacks in Dutch beside the field, then reads the Dutch headers, the M/V genders and the
defaults ``heren=Geel, dames=Rood``, and the round is stored with each player's tees."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.conftest import local_today
from livesupport import LiveServer, live_server, setup_round
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).parents[1] / "golden" / "results"
#: "Golf des Trois Tees": Yellow and Red rated for women, Blue for men only
COURSE = GOLDEN / "b_mixed_tees_stableford" / "course.toml"
STARTLIJST = (
    "\ufeffFlight;Starttijd;Afslag;Voornaam;Naam;Geslacht;Exact HCP;Lidnummer;Club;Afslagkleur\n"
    "1;09:00;1;Jan;Peeters;M;12,4;1234567;Royal Waterloo GC;\n"
    "1;09:00;1;Els;Maes;V;20,1;1234568;Keerbergen GC;\n"
    "2;09:10;1;Pieter;Janssens;man;30;1234570;Rigenée;Blauw\n"
)


@pytest.fixture
def server(tmp_path) -> Iterator[LiveServer]:
    """``pace serve`` over a database with the three-tee course (and a round R1 on it)."""
    draw = tmp_path / "draw.csv"
    draw.write_text("group,start,tee,player\n1,08:00,1,Ann Lee\n", encoding="utf-8")
    db = setup_round(tmp_path, day=local_today(0).date().isoformat(), course=COURSE, draw=draw)
    with live_server(tmp_path, db=Path(db)) as s:
        yield s


def test_a_flemish_start_list_with_dutch_default_tees_makes_the_round(server, browser):
    context = browser.new_context(locale="nl-BE")
    page = context.new_page()
    # the console's owner: the committee secret ``pace serve`` wrote beside the database
    page.goto(server.url + "/login")
    secret = server.db.with_name(server.db.name + ".committee-secret").read_text().strip()
    page.locator("input[name=code]").fill(secret)
    page.locator("form.code-form button[type=submit]").click()
    expect(page.locator("#console-link")).to_be_visible()
    page.goto(server.url + "/rounds/new")
    tees = page.locator("#r-tees")
    expect(tees).to_have_attribute("placeholder", "heren=Geel, dames=Rood")
    page.locator("#r-round").fill("Clubkampioenschap")
    page.locator("#r-course").select_option("Golf des Trois Tees")
    page.locator("#r-draw").set_input_files(
        {"name": "startlijst.csv", "mimeType": "text/csv", "buffer": STARTLIJST.encode()}
    )
    # tees the course does not have: refused in Dutch, beside the field, nothing stored
    tees.fill("heren=Geel, dames=Wit")
    page.locator("#preview").click()
    expect(page.locator(".field-error[data-for='tees']")).to_contain_text(
        "standaardafslagplaats voor 'dames': afslagplaats 'Wit' is geen afslagplaats van baan"
    )
    tees.fill("heren=Geel, dames=Rood")
    page.locator("#preview").click()
    expect(page.locator("#preview-rows tr.preview-group")).to_have_count(2)
    expect(page.locator("#preview-rows tr.preview-group[data-group='1']")).to_contain_text(
        "Jan Peeters (Yellow), Els Maes (Red)"
    )
    expect(page.locator("#preview-rows tr.preview-group[data-group='2']")).to_contain_text(
        "Pieter Janssens (Blue)"
    )
    expect(page.locator("#notes li")).to_have_count(0)  # every column known
    page.locator("#confirm").click()
    expect(page.locator("#open-changes")).to_be_visible()
    from pace.store import open_store

    with open_store(server.db) as store:
        groups = store.get_round("Clubkampioenschap").groups
    assert [(p.name, p.gender, p.tees, p.handicap) for g in groups for p in g.players] == [
        ("Jan Peeters", "men", "Yellow", 12.4),
        ("Els Maes", "women", "Red", 20.1),
        ("Pieter Janssens", "men", "Blue", 30.0),
    ]
    context.close()

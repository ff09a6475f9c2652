"""The console's refusals in the page's language (issue 47): a Flemish or a French committee
sends the changes page's forms, the new round's form and a course file with bad values, and
reads why in its own language, beside the form it sent; nothing is stored.

The services say each refusal as a sentence of the catalogue (``pace.rules.errors.said``); a
refusal asked for in French or Dutch carries it translated (``translation``), and the pages
show it; a problems table names each field by its label (``taal``, ``heure de départ``), the
column's own name kept as the cell's title. A real ``pace serve`` with round R1
(tests/browser/conftest.py); the Dutch pages are the browser's language (``nl-BE``), the French
ones chosen with ``?lang=fr`` (the device's cookie then carries it to the pages' requests).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from browser.conftest import local_today
from livesupport import ROUND, LiveServer
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

CHANGES = f"/rounds/{ROUND}/changes"


def secret(server: LiveServer) -> str:
    """Return the committee secret ``pace serve`` wrote beside the database."""
    return server.db.with_name(server.db.name + ".committee-secret").read_text().strip()


@pytest.fixture
def desk(server, browser) -> Iterator[callable]:
    """Return a function opening a committee's page (signed in with the committee secret) in
    a browser of ``locale``."""
    contexts = []

    def open_page(locale: str) -> Page:
        context = browser.new_context(locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.goto(server.url + "/login")
        page.locator("input[name=code]").fill(secret(server))
        page.locator("form.code-form button[type=submit]").click()
        expect(page.locator("#console-link")).to_be_visible()
        return page

    yield open_page
    for context in contexts:
        context.close()


def changes(page: Page, server: LiveServer) -> dict:
    """The draw and the changes as the server has them, read with the page's session."""
    return json.loads(page.request.get(f"{server.url}/api/rounds/{ROUND}/changes").text())


def send(page: Page, kind: str, fields: dict[str, str], selects: tuple[str, ...] = ()):
    """Fill and send the changes page's form ``kind``; return its error line."""
    details = page.locator(f"#form-{kind}")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    form = details.locator("form")
    for name, value in fields.items():
        control = form.locator(f"[name='{name}']")
        if name in selects:
            control.select_option(value)
        else:
            control.fill(value)
    form.locator("button[type=submit]").click()
    return form.locator("p.error")


def test_a_flemish_committee_reads_the_changes_pages_refusals_in_dutch(server, desk):
    # group 1 completed hole 1 at 08:12: a late entry cannot join it any more
    server.tap("1", 1, local_today(8, 12))
    page = desk("nl-BE")
    page.goto(server.url + CHANGES)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    before = changes(page, server)

    error = send(page, "change_start", {"group": "6", "start": "25:99", "reason": "file"},
                 selects=("group",))  # fmt: skip
    expect(error).to_have_text("starttijd '25:99' is geen tijdstip zoals 08:40")
    error = send(page, "add_player", {"group": "1", "name": "Anne Ash", "reason": ""},
                 selects=("group",))  # fmt: skip
    expect(error).to_have_text("reden: dit veld mag niet leeg zijn")
    error = send(page, "add_player", {"group": "1", "name": "Anne Ash", "reason": "laat"},
                 selects=("group",))  # fmt: skip
    expect(error).to_have_text(re.compile(
        r"flight 1 heeft hole 1 uitgespeeld om 08:12:00: een speler die nu wordt toegevoegd, "
        r"zou geen score hebben voor de gespeelde holes; voeg de speler toe aan een flight die "
        r"nog niet gespeeld heeft, of voeg een flight toe \(add-group\)"))  # fmt: skip
    error = send(page, "add_player", {"group": "2", "name": "marie lavoie", "reason": "dubbel"},
                 selects=("group",))  # fmt: skip
    expect(error).to_have_text(
        "marie lavoie zit al in flight 1; verplaats de speler in de plaats (move-player)"
    )
    # refused: nothing changed, the draw as it was
    assert changes(page, server)["changes"] == [] == before["changes"]
    assert changes(page, server)["groups"] == before["groups"]
    expect(page.locator("tr.draw-group[data-group='6']")).to_contain_text("08:50")


def test_a_french_committee_reads_the_changes_pages_refusals_in_french(server, desk):
    page = desk("en-GB")
    page.goto(server.url + CHANGES + "?lang=fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    error = send(page, "change_start", {"group": "6", "start": "25:99", "reason": "panne"},
                 selects=("group",))  # fmt: skip
    expect(error).to_have_text("heure de départ '25:99' n'est pas une heure comme 08:40")
    error = send(page, "swap", {"player": "Marie Lavoie", "other": "Marie Lavoie",
                                "reason": "erreur"}, selects=("player", "other"))  # fmt: skip
    expect(error).to_have_text(
        "Marie Lavoie ne peut pas être échangé avec Marie Lavoie : nommez deux joueurs"
    )
    error = send(page, "add_group", {"group": "1", "start": "13:00", "players": "Zoé Roy",
                                     "reason": "deux de plus"})  # fmt: skip
    expect(error).to_have_text(
        "la partie 1 est déjà dans le tableau des départs ; donnez un autre identifiant à la "
        "nouvelle partie"
    )
    assert changes(page, server)["changes"] == []
    # the same page in English says the service's own sentence, as before
    page.goto(server.url + CHANGES + "?lang=en")
    error = send(page, "change_start", {"group": "6", "start": "25:99", "reason": "flat tyre"},
                 selects=("group",))  # fmt: skip
    expect(error).to_have_text("start '25:99' is not a time of day such as 08:40")


#: a start list whose language column holds a language pace does not speak (line 3) and a
#: start that is no time (line 2)
BAD_DRAW = "group,start,tee,player,language\n1,negen,1,Ann Ash,nl\n1,09:00,1,Ben Birch,de\n"
GOOD_DRAW = "group,start,tee,player\n1,09:00,1,Ann Ash\n1,09:00,1,Ben Birch\n"


def draw_file(text: str) -> dict:
    return {"name": "startlijst.csv", "mimeType": "text/csv", "buffer": text.encode()}


def stored_rounds(page: Page, server: LiveServer) -> list[str]:
    return [r["name"] for r in json.loads(page.request.get(server.url + "/api/rounds").text())
            ["rounds"]]  # fmt: skip


@pytest.mark.parametrize(
    ("locale", "query", "said"),
    [
        ("nl-BE", "", {
            "exists": "ronde 'R1' bestaat al; kies een andere naam (haar startlijst wijzig je op "
                      "de dag zelf op haar pagina met wijzigingen)",
            "allowance": "handicapverrekening 'veel' is geen percentage zoals 85 (greensome: "
                         "60/40)",
            "play": "telling 'match' is matchplay; spelvorm 'stroke_play' spreekt dat tegen "
                    "(laat --play weg)",
            "fields": ["starttijd", "taal"],
            "problem": "taal 'de' is geen taal van pace",
        }),
        ("en-GB", "?lang=fr", {
            "exists": "le tour 'R1' existe déjà ; choisissez un autre nom (son tableau des "
                      "départs se change le jour même sur sa page des changements)",
            "allowance": "pourcentage de handicap 'veel' n'est pas un pourcentage comme 85 "
                         "(greensome : 60/40)",
            "play": "le décompte 'match' se joue en match play ; la forme de jeu 'stroke_play' "
                    "le contredit (laissez --play de côté)",
            "fields": ["heure de départ", "langue"],
            "problem": "la langue 'de' n'est pas une langue de pace",
        }),
    ],
    ids=["nl", "fr"],
)  # fmt: skip
def test_the_new_round_forms_refusals_are_in_the_pages_language(server, desk, locale, query,
                                                                said):  # fmt: skip
    page = desk(locale)
    page.goto(server.url + "/rounds/new" + query)
    before = stored_rounds(page, server)
    form = page.locator("#round-form")
    # a round under the name of a stored one
    page.locator("#r-round").fill("R1")
    page.locator("#r-draw").set_input_files(draw_file(GOOD_DRAW))
    page.locator("#preview").click()
    expect(form.locator(".field-error[data-for='round']")).to_have_text(said["exists"])
    # an allowance that is no percentage
    page.locator("#r-round").fill("Voorjaarsbeker")
    page.locator("#r-allowance").fill("veel")
    page.locator("#preview").click()
    expect(form.locator(".field-error[data-for='round']")).to_have_text("")
    expect(form.locator(".field-error[data-for='allowance']")).to_have_text(said["allowance"])
    # a scoring the form of play contradicts
    page.locator("#r-allowance").fill("")
    page.locator("#r-play").select_option("stroke_play")
    page.locator("#r-scoring").select_option("match")
    page.locator("#preview").click()
    expect(form.locator(".field-error[data-for='play']")).to_have_text(said["play"])
    # a start list with problems: each field by its label in the page's language
    page.locator("#r-scoring").select_option("")
    page.locator("#r-draw").set_input_files(draw_file(BAD_DRAW))
    page.locator("#preview").click()
    rows = page.locator("#problem-rows tr.problem")
    expect(rows).to_have_count(2)
    fields = [rows.nth(i).locator("td").nth(1) for i in range(2)]
    assert [f.inner_text() for f in fields] == said["fields"]
    assert [f.get_attribute("title") for f in fields] == ["start", "language"]
    expect(rows.nth(1).locator("td").nth(2)).to_contain_text(said["problem"])
    # nothing was stored
    assert stored_rounds(page, server) == before == [ROUND]


#: a course of 18 holes whose first [[holes]] table has no number (line 2)
COURSE = 'name = "Heide"\n' + "".join(
    f"[[holes]]\n{'' if n == 1 else f'number = {n}'}\npar = 4\n" for n in range(1, 19)
)


@pytest.mark.parametrize(
    ("locale", "query", "heading", "line"),
    [
        ("nl-BE", "", "Het bestand werd geweigerd; er is niets bewaard. Alle problemen:",
         "Regel 2, nummer: [[holes]]-tabel 1 heeft geen nummer; verwacht number = 1 tot 18"),
        ("en-GB", "?lang=fr", "Le fichier a été refusé ; rien n'est enregistré. Tous les "
         "problèmes :", "Ligne 2, numéro : table [[holes]] 1 n'a pas de numéro ; attendu : "
         "number = 1 à 18"),
    ],
    ids=["nl", "fr"],
)  # fmt: skip
def test_a_refused_course_files_problems_are_in_the_pages_language(server, desk, locale, query,
                                                                   heading, line):  # fmt: skip
    page = desk(locale)
    page.goto(server.url + "/courses" + query)
    page.locator("#course-file").set_input_files(
        {"name": "heide.toml", "mimeType": "text/plain", "buffer": COURSE.encode()}
    )
    result = page.locator("#result")
    expect(result.locator("p.error")).to_have_text(heading)
    expect(result.locator("ul.problems li").first).to_have_text(line)
    # the CLI's English line (course file, line 2, field 'number') is not what the page shows
    expect(result).not_to_contain_text("field 'number'")
    expect(page.locator("tr.course[data-course='Heide']")).to_have_count(0)

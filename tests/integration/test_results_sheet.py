"""The printable results sheet for the notice board (issue 38, item 4).

The sheet is laid out from the results document of docs/formats.md §8; its PDF goes through
the reports' WeasyPrint path and is read back with pdftotext (poppler): a page per class, the
places, the names, the countback that decided and each player's tees, in French and English.
``pace results --format pdf|html`` prints it from files and for a stored round; the page
``/rounds/<round>/results`` (and its PDF and CSV) is the committee's until the results are
final, then anybody's; the leaderboard offers it to the committee.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from drivers import ROUND

from pace.cli import cli
from pace.reports.results_sheet import countback_words, results_sheet_html, results_sheet_pdf
from pace.services.commands import Author
from pace.services.life import RoundLifeService

DATA = Path(__file__).resolve().parents[1] / "data" / "results"
FILES = ["--course", DATA / "course.toml", "--draw", DATA / "draw.csv",
         "--scores", DATA / "scores.csv"]  # fmt: skip
JANE = Author("committee", "desk", "Jane Roe")
pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils missing")
FINAL = {
    "stage": "final", "final": True, "first_play": None, "finished": None,
    "finalised": {"at": "2026-06-14T17:42:00+02:00", "by": "Jane Roe"}, "reopened": [],
}  # fmt: skip


def golden(scoring: str) -> dict:
    return json.loads((DATA / f"{scoring}_net.json").read_text(encoding="utf-8"))


def one_class() -> dict:
    """The golden Stableford with Luc Nadeau in class A: level with Julie Gagné on 18 points
    in the class, the countback (last 3: 7 against 6) decided; the tees of a mixed field."""
    doc = copy.deepcopy(golden("stableford"))
    tees = {"Luc Nadeau": ("Yellow", "#f2c500"), "Julie Gagné": ("Red", "red"),
            "Marc Roy": ("Yellow", "#f2c500"), "Anne Côté": ("Blue", "blue")}  # fmt: skip
    for e in doc["entries"]:
        e["tees"], e["tee_colour"] = tees[e["entry"]]
        if e["entry"] == "Luc Nadeau":
            e["class"] = "A"
    places = {"Luc Nadeau": 1, "Julie Gagné": 2, "Anne Côté": 3}  # class A after countback
    for e in doc["entries"]:
        e["class_position"] = places.get(e["entry"], e["class_position"])
    return doc


def pdf_pages(pdf: bytes) -> list[str]:
    """Return the text of each page of a PDF (pdftotext, its layout kept)."""
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                         check=True)  # fmt: skip
    return out.stdout.decode("utf-8").split("\f")[:-1]


def lines(pdf: bytes) -> list[list[str]]:
    return [[" ".join(line.split()) for line in page.splitlines() if line.strip()]
            for page in pdf_pages(pdf)]  # fmt: skip


def test_countback_words_in_both_languages():
    assert countback_words("last 9: 35.5", "fr") == "9 derniers : 35,5"
    assert countback_words("last 3: 7", "en") == "last 3: 7"
    assert countback_words("equal", "fr") == "toujours à égalité"


def test_the_pdf_is_a_page_per_class_with_places_names_and_the_countback():
    pages = lines(results_sheet_pdf(golden("stableford"), "en", round="R1",
                                    course="Neuf trous de Louiseville"))  # fmt: skip
    # classes in the rules' order, one a page; a class alone on its figure needs no countback
    assert [next(x for x in p if x.startswith("Class ")) for p in pages] == [
        "Class AA", "Class A", "Class B"
    ]  # fmt: skip
    assert "Results · R1" in pages[0] and "Stableford net, individual" in pages[0]
    assert "1 Luc Nadeau -1 18" in pages[0]
    assert "1 Julie Gagné 4 18" in pages[1] and "2 Anne Côté 5 16" in pages[1]
    assert "1 Marc Roy 8 17" in pages[2]
    assert not any("last 3" in x for p in pages for x in p)
    assert "Tees" not in " ".join(pages[0])  # no tees in the results: no column


def test_a_class_tied_on_points_shows_the_countback_and_each_players_tees():
    doc = one_class()
    doc["life"] = FINAL
    pages = lines(results_sheet_pdf(doc, "en", round="R1"))
    assert len(pages) == 2
    a = pages[0]
    assert "Pos. Player Tees Hcp Points Countback" in a
    assert "1 Luc Nadeau Yellow -1 18 last 3: 7" in a
    assert "2 Julie Gagné Red 4 18 last 3: 6" in a
    assert "3 Anne Côté Blue 5 16" in a
    stamp = "Results final since 2026-06-14 17:42, by Jane Roe: scores and penalties are locked."
    assert stamp in a
    assert "1 Marc Roy Yellow 8 17" in pages[1]
    french = lines(results_sheet_pdf(doc, "fr", round="R1"))
    fa = french[0]
    assert "Pl. Joueur Départs Hcp Points Départage" in fa
    assert "1 Luc Nadeau Yellow -1 18 3 derniers : 7" in fa
    stamp = "Résultats définitifs depuis le 14/06/2026 17:42, par Jane Roe"
    assert any(x.startswith(stamp) for x in fa)
    assert "Série A" in fa and "Série B" in french[1]


def test_net_stroke_play_level_on_net_shows_the_countback_whatever_the_gross():
    doc = copy.deepcopy(golden("stroke"))
    for e in doc["entries"]:  # Luc (net 36, gross 35) joins Julie (net 36, gross 40) in A
        if e["entry"] == "Luc Nadeau":
            e["class"], e["class_position"] = "A", 2
    a = lines(results_sheet_pdf(doc, "en"))[0]
    assert "1 Julie Gagné 4 40 36 last 6: 24.33" in a
    assert "2 Luc Nadeau -1 35 36 last 6: 24.67" in a


def test_stroke_play_with_a_no_return_and_a_match_sheet():
    pages = lines(results_sheet_pdf(golden("stroke"), "en"))
    a = next(p for p in pages if "Class A" in p)
    assert "Pos. Player Hcp Gross Net Countback" in a
    assert "1 Julie Gagné 4 40 36" in a and "Anne Côté 5 NR" in a
    assert "No return: a hole without score" in a
    bogey = lines(results_sheet_pdf(golden("bogey"), "en"))
    assert "1 Julie Gagné 4 7 up" in next(p for p in bogey if "Class A" in p)
    matches = " ".join(lines(results_sheet_pdf(golden("match"), "fr"))[0])
    assert "Matchs" in matches and "Julie Gagné contre Luc Nadeau" in matches
    assert "Match Adversaires Résultat Vainqueur" in matches


def test_the_html_escapes_names_and_draws_only_a_safe_tee_colour():
    doc = one_class()
    doc["entries"][0]["entry"] = "<script>alert(1)</script>"
    doc["entries"][0]["tee_colour"] = 'red"/><script>x</script>'
    page = results_sheet_html(doc, "en", round="<b>R1</b>")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;R1&lt;/b&gt;" in page
    assert page.count('<svg class="swatch"') == 3  # Julie's, Marc's and Anne's: not the hostile one
    assert 'fill="#f2c500"' in page and 'fill="red"' in page
    plain = results_sheet_html(golden("stableford"), "en")
    assert 'class="tees"' not in plain


# -- the command line -----------------------------------------------------------------------


@pytest.fixture
def _cli_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args, code=0) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


@pytest.mark.usefixtures("_cli_dir")
def test_pace_results_format_pdf_and_html_from_files(tmp_path):
    out = run("results", *FILES, "--scoring", "stableford", "--net", "--format", "pdf",
              "-o", tmp_path / "r.pdf", "--lang", "en")  # fmt: skip
    assert "results sheet written to" in out
    pages = lines((tmp_path / "r.pdf").read_bytes())
    assert len(pages) == 3 and "Course: Neuf trous de Louiseville" in pages[0]
    assert "1 Julie Gagné 4 18" in pages[1]
    page = run("results", *FILES, "--scoring", "stroke", "--net", "--format", "html",
               "--lang", "fr")  # fmt: skip
    assert page.startswith("<!DOCTYPE html>") and "Série A" in page and "Julie Gagné" in page
    teams = run("results", "--course", DATA / "course.toml", "--draw", DATA / "draw_teams.csv",
                "--scores", DATA / "scores_teams.csv", "--net", "--format", "four_ball",
                "--format", "html", "--lang", "en")  # fmt: skip
    assert "four-ball" in teams
    assert "-o results.pdf" in run("results", *FILES, "--format", "pdf", code=2)
    assert "at most one" in run("results", *FILES, "--format", "pdf", "--format", "html",
                                "-o", "x", code=2)  # fmt: skip
    assert "leave out --json" in run("results", *FILES, "--format", "html", "--csv", code=2)


@pytest.mark.usefixtures("_cli_dir")
def test_pace_results_format_pdf_of_a_stored_round_says_it_is_final(tmp_path):
    db = tmp_path / "pace.db"
    run("import", "course", DATA / "course.toml", "--db", db)
    run("import", "draw", DATA / "draw.csv", "--round", "Spring cup", "--date", "2026-06-14",
        "--timezone", "Europe/Brussels", "--scoring", "stableford", "--net",
        "--db", db)  # fmt: skip
    run("import", "scores", DATA / "scores.csv", "--round", "Spring cup", "--db", db)
    run("results", "--round", "Spring cup", "--db", db, "--format", "pdf", "-o", "a.pdf",
        "--lang", "en")  # fmt: skip
    before = lines((tmp_path / "a.pdf").read_bytes())
    assert "Results · Spring cup" in before[0] and "2026-06-14" in before[0]
    assert "Results not final yet: scores and penalties may still change." in before[0]
    run("round", "finish", "--round", "Spring cup", "--by", "J. Martin", "--db", db)
    run("round", "final", "--round", "Spring cup", "--by", "J. Martin", "--db", db)
    run("results", "--round", "Spring cup", "--db", db, "--format", "pdf", "-o", "b.pdf",
        "--lang", "en")  # fmt: skip
    after = " ".join(lines((tmp_path / "b.pdf").read_bytes())[0])
    assert "Results final since" in after and "by J. Martin" in after


# -- the page, its PDF and CSV, and who may open them ---------------------------------------


def test_the_sheet_is_the_committees_until_final_then_everybodys(app, login, clock):
    paths = [f"/rounds/{ROUND}/results", f"/rounds/{ROUND}/results.pdf?lang=en",
             f"/rounds/{ROUND}/results.csv"]  # fmt: skip
    committee = login("committee")
    page = committee.get(paths[0] + "?lang=en")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Results not final yet" in text and "Marie Lavoie" in text
    # provisional: a card not started is said so, not a no return
    assert "not started" in text and "No return" not in text
    assert 'id="sheet-pdf"' in text and "/static/results-sheet.css" in text
    for role in ("referee", "scorer", "marshal", "viewer", None):
        for path in paths:
            r = login(role).get(path)
            assert r.status_code in ((302, 401) if role is None else (403,)), (role, path)
            assert not r.data.startswith(b"%PDF")
    life = RoundLifeService(app.extensions["pace"].live)
    clock.advance(hours=6)
    life.finish(ROUND, JANE)
    life.finalise(ROUND, JANE)
    anybody = login(None)
    text = anybody.get(paths[0] + "?lang=en").get_data(as_text=True)
    assert "Results final since" in text and "by Jane Roe" in text
    pdf = anybody.get(paths[1])
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert "Marie Lavoie" in " ".join(" ".join(p) for p in lines(pdf.data))
    assert 'filename="results-R1.pdf"' in pdf.headers["Content-Disposition"]
    # laid out by the report jobs' warm builder, out of the server's process
    assert app.extensions["pace"].report_jobs.builders()
    csv_text = anybody.get(paths[2]).get_data(as_text=True)
    assert csv_text.startswith("position,") and ",final," in csv_text
    life.reopen(ROUND, JANE, "a card mis-added")  # provisional again: the committee's alone
    assert anybody.get(paths[1]).status_code == 302
    assert login("viewer").get(paths[2]).status_code == 403
    assert committee.get(paths[1]).status_code == 200


def test_the_leaderboard_offers_the_sheet_to_the_committee_of_the_round(login):
    committee = login("committee").get(f"/rounds/{ROUND}/leaderboard").get_data(as_text=True)
    assert 'data-committee="yes"' in committee and 'id="sheet-link"' in committee
    viewer = login("viewer").get(f"/rounds/{ROUND}/leaderboard").get_data(as_text=True)
    assert 'data-committee="no" hidden' in viewer


@pytest.mark.parametrize(
    ("lang", "whs", "older"),
    [
        ("en", "the unrounded course handicap", "the course handicap rounded, then"),
        ("fr", "le handicap de parcours non arrondi", "ancienne lecture"),
        ("nl", "de niet-afgeronde baanhandicap", "oudere lezing"),
    ],
)
def test_the_footer_says_which_reading_of_the_playing_handicap(lang, whs, older):
    # issue 47: the WHS reading by default, the committee's older one when chosen
    doc = golden("stroke")
    assert doc["handicap"] == {"rounding": "whs", "gross_par_adjustment": True}
    html = results_sheet_html(doc, lang)
    foot = html[html.index('<footer class="sheet-foot">') :]
    assert whs in foot and older not in foot
    doc = dict(doc, handicap={"rounding": "course_then_playing", "gross_par_adjustment": True})
    foot = results_sheet_html(doc, lang).split('<footer class="sheet-foot">')[1]
    assert older in foot and whs not in foot


def test_the_footer_of_a_gross_stroke_sheet_says_whether_par_strokes_came_off():
    doc = dict(golden("stroke"), net=False)
    foot = results_sheet_html(doc, "en").split('<footer class="sheet-foot">')[1]
    assert "the difference in par taken off" in foot
    doc["handicap"] = {"rounding": "whs", "gross_par_adjustment": False}
    foot = results_sheet_html(doc, "en").split('<footer class="sheet-foot">')[1]
    assert "Gross scores as played" in foot


def test_pace_results_prints_the_reading_under_its_table():
    out = CliRunner().invoke(cli, ["results", *map(str, FILES), "--net"]).output
    assert out.rstrip().endswith("the unrounded course handicap times the allowance, rounded once.")
    out = (
        CliRunner()
        .invoke(cli, ["results", *map(str, FILES), "--net", "--rounding", "course_then_playing"])
        .output
    )
    assert "the course handicap rounded, then the allowance, rounded again." in out


def test_the_footer_of_a_gross_match_sheet_says_whether_par_strokes_came_off():
    doc = dict(golden("match"), net=False)
    foot = results_sheet_html(doc, "en").split('<footer class="sheet-foot">')[1]
    assert "the difference in par taken off" in foot

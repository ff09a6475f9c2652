"""Rendering the report: words, the penalty's effect, escaping, charts, CSV cells (issue 12)."""

from __future__ import annotations

import doctest
import re
from datetime import date, timedelta

import pytest

from pace.documents.report import ReportMeta
from pace.reports import charts, document, html, letters, tables, words
from pace.rules import policies, report
from pace.rules.penalties import Penalty
from tests.builders import at, make_course, make_facts, make_group, make_setup

HOSTILE = '<img src=x onerror="alert(1)">'


@pytest.mark.parametrize("module", [words, document, letters], ids=lambda m: m.__name__)
def test_the_doctests_of_the_renderers_hold(module):
    failures, _ = doctest.testmod(module)
    assert failures == 0


@pytest.mark.parametrize(
    "penalty, lang, expected",
    [
        (Penalty("warning", 0, 3), "en", "warning (no effect on the score)"),
        (Penalty("final_warning", 0, 3), "fr", "dernier avertissement (sans effet sur le score)"),
        (Penalty("strokes", 1, 14), "en", "1 penalty stroke on hole 14"),
        (Penalty("strokes", 2, 14), "fr", "2 coups de pénalité au trou 14"),
        (Penalty("points", 1, 5), "en", "1 penalty point on hole 5"),
        (Penalty("loss_of_hole", 0, 14), "en", "loss of hole 14"),
        (Penalty("disqualification", 0, 9), "fr", "DQ (disqualification)"),
        (Penalty("strokes", 1, 4, "side"), "en", "1 penalty stroke on hole 4, borne by the side"),
        (None, "en", ""),
    ],
    ids=lambda v: getattr(v, "kind", v),
)
def test_the_effect_on_the_card_is_stated_in_words(penalty, lang, expected):
    assert words.effect(penalty, lang) == expected


def hostile_report():
    setup = make_setup(
        make_course(pars=[4, 4]), [make_group(HOSTILE, "08:00"), make_group("=2+3", "08:10")]
    )
    facts = make_facts({HOSTILE: {1: "08:20", 2: "08:40"}, "=2+3": {1: "08:26"}})
    r = report.build_report(setup, facts, (), policies.FRBG, at("09:00"))
    meta = ReportMeta(HOSTILE, HOSTILE, date(2025, 6, 14), "UTC", "frbg", "stroke_play",
                               "individual")  # fmt: skip
    return meta, r


def test_names_people_typed_never_reach_the_page_as_markup():
    meta, r = hostile_report()
    for page in (html.report_html(meta, r, "en"), html.letters_html(meta, r, "en")):
        assert "<img src=x" not in page and "&lt;img src=x" in page


def test_a_chart_carries_no_script_and_escapes_its_labels():
    meta, r = hostile_report()
    svg = charts.field_chart(r, meta.tz, "en") + charts.group_chart(r.groups[0], "en")
    assert "<script" not in svg and "<img src=x" not in svg
    assert svg.count("<svg") == 2


def test_csv_cells_a_spreadsheet_would_run_are_quoted():
    meta, r = hostile_report()
    text = tables.to_csv(meta, r, "en")
    assert "\nhole,'=2+3," in text.replace("\r\n", "\n") and ",=2+3," not in text


def test_the_pdf_charts_are_images_and_the_grids_aligned_text():
    meta, r = hostile_report()
    page = html.report_html(meta, r, "en", for_pdf=True, full_charts=True)
    assert '<pre class="grid">' in page and "<svg" not in page
    kinds = re.findall(r'<img class="(\w+)" alt="" src="data:image/svg\+xml;base64,', page)
    assert kinds == ["field", "bands", "holes", "group", "group"]
    assert '<table class="holes"' not in page and '<table class="hole-stats"' not in page


def test_every_group_of_the_pdf_has_its_bars_over_its_hole_grid():
    meta, r = hostile_report()
    page = html.report_html(meta, r, "en", for_pdf=True)
    grids = re.findall(r'<pre class="grid">(.*?)</pre>', page, re.S)
    assert len(grids) == 2  # one per group, each led by its chart
    for grid, g in zip(grids, r.groups, strict=True):
        first, *rows = grid.split("\n")
        # the bars start after the labels' column and span one column per hole
        assert first.startswith(" " * (len("logged") + 1) + '<img style="width: ')
        assert f"width: {6 * len(g.holes)}ch" in first and 'class="strip"' in first
        assert rows[0].split()[0] == "Hole"


def test_the_pdf_bars_are_pygal_bars_without_text_or_style_sheet():
    meta, r = hostile_report()
    strip = charts.strip_chart(r.groups[0], "en")
    assert strip.startswith("<svg") and "<rect" in strip
    assert "<text" not in strip and "<style" not in strip and "<script" not in strip
    # the labelled chart keeps its axes and its own small style sheet
    full = charts.group_chart(r.groups[0], "en")
    assert "<text" in full and "<style" in full and "<desc" not in full


@pytest.mark.parametrize(
    "low, high, label", [(-10, 0, "−10…0"), (0, 10, "0…+10"), (10, 20, "+10…+20")]
)
def test_a_band_reads_as_its_minutes(low, high, label):
    m = timedelta(minutes=1)
    assert charts.band_label(report.Band(low * m, high * m, ())) == label


def test_the_report_counts_the_missed_taps_who_confirmed_them_and_marks_those_still_estimated():
    """docs/estimates.md: a prompt (``missing_tap``) answered by a late real tap is counted with
    who logged it; a tap still missing is shown ≈ in the group's holes, its bounds in the title."""
    from pace.rules.events import Event

    setup = make_setup(
        make_course(pars=[4, 4, 4]),
        [make_group("A", "08:00"), make_group("B", "08:10"), make_group("C", "08:20")],
    )
    log = {"A": {1: "08:15", 2: "08:31", 3: "08:45"}, "B": {1: "08:27", 3: "09:00"},
           "C": {1: "08:37", 2: "08:52"}}  # fmt: skip
    facts = make_facts(log)
    prompt = Event("p1", "alert_raised", "R", at("08:30"), {
        "key": "missing_tap:A:2", "kind": "missing_tap", "group": "A", "hole": 2,
        "reason": "passed", "earliest": at("08:15").isoformat(),
        "latest": at("08:40").isoformat()})  # fmt: skip
    late = Event("t1", "hole_completed", "R", at("08:31"), {"group": "A", "hole": 2},
                 by={"role": "marshal", "name": "Hélène"})  # fmt: skip
    r = report.build_report(setup, facts, (prompt, late), policies.FRBG, at("09:05"))
    assert r.missed is not None and r.missed.asked == 1
    [c] = r.missed.confirmed
    assert (c.group, c.hole, c.by, c.within) == ("A", 2, "Hélène", True)
    [standing] = r.missed.standing  # B's hole 2: skipped between 08:27 and 09:00
    assert (standing.group, standing.hole, standing.reason) == ("B", 2, "skipped")
    meta = ReportMeta("R", "R", date(2025, 6, 14), "UTC", "frbg", "stroke_play", "individual")
    page = html.report_html(meta, r, "en")
    assert "1 missed taps asked about, 1 confirmed by a real tap; 1 still estimated" in page
    assert "Hélène" in page
    cell = re.search(r'<td class="estimated" title="([^"]*)">≈([0-9:]+)</td>', page)
    assert cell is not None and cell.group(2) == "08:43"
    assert "between 08:27 and 09:00" in cell.group(1)
    assert "Passages manqués" in html.report_html(meta, r, "fr")


def test_the_reports_players_name_their_tees_on_a_course_with_tee_sets():
    """Issue 38: the report's players carry the tee set they played (only where the course has
    tee sets: a report of a course without them is as it was)."""
    from dataclasses import replace

    from pace.rules.model import Player, TeeSet

    course = replace(make_course(pars=[4, 4]), tees=(TeeSet("Yellow"), TeeSet("Red")))
    group = replace(make_group("1", "08:00"), players=(Player("Ann", tees="Red"), Player("Bob")))
    setup = make_setup(course, [group])
    r = report.build_report(setup, make_facts({"1": {1: "08:20"}}), (), policies.FRBG, at("09:00"))
    meta = ReportMeta("R", "c", date(2025, 6, 14), "UTC", "frbg", "stroke_play", "individual")
    (g,) = document.report_document(meta, r)["groups"]
    assert [(p["player"], p.get("tees")) for p in g["players"]] == [("Ann", "Red"), ("Bob", None)]

"""Why a group was named, in the report's group page and the letters, French and English.

The paper round of test_reports.py, worked by hand (three par 4s, 12 minutes a hole for a
two-ball, 10-minute interval): B completes hole 1 at 08:26, 16 minutes after its 08:10 start
against 12 allotted, 4 over, 14 minutes after A (08:12): out of position. It is back in
position at hole 3 (08:45: 35 minutes against 36). It held the field up at hole 2: 08:41, 31
minutes against 24, 7 over, 17 after A; C completed it at 08:49, 5 over and 8 behind it
(waiting). C is out of position at hole 3: 08:59, 39 against 36, 14 after B.
"""

from __future__ import annotations

import re

from pace.reports import html
from tests.integration.test_reports import _clean_environment, paper_db, report_of, run

__all__ = ["_clean_environment", "paper_db"]


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&#39;", "'")


def test_the_report_explains_each_group_named_with_its_figures_and_facts(paper_db):
    view = report_of(paper_db)
    page = text_of(html.report_html(view.meta, view.report, "en"))
    assert "Out of position at 08:26 (hole 1)" in page
    assert ("On completing hole 1 at 08:26, group B (2 players) had played 16 min against 12 "
            "min allotted up to that hole: 4 min over.") in page  # fmt: skip
    assert ("Group A had completed hole 1 at 08:12: a gap of 14 min, against the starting "
            "interval of 10 min. Hence: out of position.") in page  # fmt: skip
    assert "Back in position at 08:45 (hole 3)" in page
    assert "had played 35 min against 36 min allotted up to that hole: −1 min over" in page
    assert "Held the field up at hole 2 (08:41)" in page
    assert "close to the group ahead): group C, 5 min over" in page
    assert "Out of position at 08:59 (hole 3)" in page
    # the facts, each with who logged it and its event's id
    b2 = next(x for x in view.report.group("B").explanations if x.subject == "held_up")
    tap = next(ln.fact for ln in b2.timeline if ln.kind == "tap" and ln.group == "B")
    assert tap is not None
    assert f"08:41 group B completes hole 2 — import, event {tap.id[:8]}" in page


def test_the_french_report_says_the_same(paper_db):
    view = report_of(paper_db)
    page = text_of(html.report_html(view.meta, view.report, "fr"))
    assert "Hors position à 08:26 (trou 1)" in page
    assert ("En terminant le trou 1 à 08:26, la partie B (2 joueurs) avait joué 16 min pour 12 "
            "min allouées jusqu’à ce trou : 4 min de dépassement.") in page  # fmt: skip
    assert "un écart de 14 min, pour un intervalle de départ de 10 min" in page
    assert "A retenu le terrain au trou 2 (08:41)" in page
    assert "partie C, 5 min de dépassement" in page


def test_the_letters_explain_why_in_both_languages(paper_db):
    english = text_of(run("letters", "--round", "P1", "--db", paper_db, "--per", "group",
                          "--lang", "en").output)  # fmt: skip
    assert "Out of position at 08:26 (hole 1). On completing hole 1 at 08:26" in english
    assert "The facts: 08:10 group B starts (the draw's time); 08:12 group A, ahead" in english
    assert "Out of position at 08:59 (hole 3)" in english  # C's letter
    french = text_of(run("letters", "--round", "P1", "--db", paper_db, "--per", "group",
                         "--lang", "fr").output)  # fmt: skip
    assert "Hors position à 08:26 (trou 1). En terminant le trou 1 à 08:26" in french
    assert (
        "Les faits : 08:10 départ de la partie B (heure du tableau) ; 08:12 la partie A" in french
    )

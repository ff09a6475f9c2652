"""The console's time-pars page (issue 30 part 2) through the real app: the table, the chart and
the suggestion's download from a generated history on a real SQLite file; nothing applied."""

from __future__ import annotations

import re

import pytest

from pace import formats
from pace.demo import history as gh

TRUTH = gh.default_truth()


@pytest.fixture
def history(app):
    store = app.extensions["pace"].store
    gh.store_rounds(
        store, gh.generate(TRUTH, 5, 31, mess=gh.Mess(missed=0.02, siren=0.5), prefix="H")
    )
    return store


def test_the_page_shows_each_size_with_its_table_and_chart(client, history):
    page = client.get("/committee/time-pars?course=Generated&target=4:10&size=4")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "5 finished rounds" in html
    assert re.findall(r'class="cal-column" data-size="(\d)"', html) == ["2", "3", "4"]
    assert html.count('class="calibration-chart"') == 3
    assert html.count("<tr data-hole=") == 3 * 18
    assert "data:image/svg+xml;base64," in html
    assert 'id="download"' in html


def test_the_download_is_the_suggestion_and_the_stored_course_is_untouched(client, history):
    before = history.get_course("Generated")
    answer = client.get("/committee/time-pars.toml?course=Generated&target=4:10&size=4")
    assert answer.status_code == 200
    assert (
        answer.headers["Content-Disposition"] == 'attachment; filename="time-pars-Generated.toml"'
    )
    course = formats.parse_course(answer.get_data(as_text=True), "s.toml")
    assert course.name.startswith("Generated (calibrated ")
    four = sum((h.allotted[4] for h in course.holes), start=before.holes[0].walk * 0)
    walks = sum((h.walk for h in course.holes[1:]), start=before.holes[0].walk * 0)
    assert (four + walks).total_seconds() == 250 * 60
    assert history.get_course("Generated") == before


def test_the_page_speaks_french(client, history):
    html = client.get("/committee/time-pars?course=Generated&lang=fr").get_data(as_text=True)
    assert "Parties de 4" in html and "80e centile" in html


def test_the_courses_page_links_each_course_to_its_time_pars(client, history):
    html = client.get("/courses").get_data(as_text=True)
    assert "/committee/time-pars?course=Generated" in html


def test_without_a_course_the_page_is_the_form(client, history):
    html = client.get("/committee/time-pars").get_data(as_text=True)
    assert 'id="calibrate"' in html and "cal-column" not in html

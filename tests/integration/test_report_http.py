"""The report's pages and exports over HTTP, with the roles that may open them (issue 12).

Round R1 (conftest): group 1 (lead, 08:00) completes hole 1 at 08:30, far over its allotment;
group 2 (08:10) completes it six minutes later, over time and close behind: group 1 held
it up. Then group 3 at 08:44, 8 minutes behind group 2 and over time too.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import signal
import subprocess
from pathlib import Path
from urllib.parse import urlencode

import jsonschema
import pytest
from drivers import ROUND

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))

SHEET = "group,hole,completed\n1,1,08:30\n2,1,08:36\n3,1,08:44\n"


@pytest.fixture(autouse=True)
def sheet(app):
    app.extensions["pace"].live.service.import_times(SHEET, "sheet.csv", round=ROUND, by="sheet")


@pytest.mark.parametrize("role", ["committee", "referee"])
def test_the_committee_and_referees_open_the_report_with_its_charts_and_tables(login, role):
    page = login(role).get(f"/rounds/{ROUND}/report?lang=en")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'class="round-times"' in text and 'class="holes"' in text
    assert "Group 1 held up 2 groups at hole 1" in text
    # the field's charts are SVG images in the page (the CSP allows no inline style)
    charts = re.findall(r'<img class="(\w+)" alt="" src="data:image/svg\+xml;base64,([^"]+)"', text)
    # nobody has finished (no bands yet)
    assert [kind for kind, _ in charts] == ["field", "holes"]
    field = base64.b64decode(charts[0][1]).decode()
    assert field.startswith("<svg") and "<script" not in field
    assert "style-src 'self'" in page.headers["Content-Security-Policy"]
    # the three groups that logged a hole have a chart, fetched by the browser when shown
    lazy = re.findall(r'<img class="group" alt="" loading="lazy" [^>]*src="([^"]+)"', text)
    assert len(lazy) == 3
    for src in lazy:
        chart = login(role).get(html.unescape(src))
        assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
        svg = chart.get_data(as_text=True)
        assert svg.startswith("<svg") and "<script" not in svg and "<text" in svg
        # opened on its own, the image is a document the app's policy runs no script in
        assert "script-src 'self'" in chart.headers["Content-Security-Policy"]


def chart_path(group: str = "1", **query: str) -> str:
    return f"/rounds/{ROUND}/report/chart.svg?" + urlencode({"group": group, **query})


def test_a_group_chart_is_drawn_once_per_report_and_again_after_a_new_event(app, client):
    service = app.extensions["pace"].reports
    first = client.get(chart_path()).get_data(as_text=True)
    drawn = service.round_report(ROUND)
    assert client.get(chart_path()).get_data(as_text=True) == first  # kept, not redrawn
    assert service.round_report(ROUND) is drawn
    # group 1 completes hole 2: the log moves on, the report and its charts are built again
    app.extensions["pace"].live.service.import_times(
        "group,hole,completed\n1,2,08:50\n", "late.csv", round=ROUND, by="sheet"
    )
    again = service.round_report(ROUND)
    assert again is not drawn
    [g1] = [g for g in again.report.groups if g.id == "1"]
    assert g1.holes[1].logged is not None
    second = client.get(chart_path()).get_data(as_text=True)
    assert second != first and second.count("<rect") > first.count("<rect")


def test_a_group_chart_names_what_is_wrong_with_its_query(client):
    missing = client.get(chart_path("nobody"))
    assert missing.status_code == 404 and missing.json["error"]["field"] == "group"
    bad = client.get(chart_path(at="yesterday"))
    assert bad.status_code == 400 and bad.json["error"]["field"] == "at"
    naive = client.get(chart_path(at="2026-06-14T08:30:00"))
    assert naive.status_code == 400 and naive.json["error"]["field"] == "at"


@pytest.mark.parametrize(
    "path",
    ["report", "report.csv", "report.json", "letters", "report/chart.svg?group=1"],
    ids=lambda p: p,
)
def test_marshals_and_viewers_may_not_open_the_report(login, path):
    for role in ("marshal", "viewer"):
        answer = login(role).get(f"/rounds/{ROUND}/{path}")
        assert answer.status_code == 403, (role, path)


def test_the_json_export_validates_and_names_who_held_the_field_up(client):
    answer = client.get(f"/rounds/{ROUND}/report.json")
    assert answer.status_code == 200 and "attachment" in answer.headers["Content-Disposition"]
    doc = json.loads(answer.get_data(as_text=True))
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    [held] = doc["summary"]["held_up"]
    assert (held["group"], held["groups"], held["hole"]) == ("1", 2, 1)
    assert [b["group"] for b in held["behind"]] == ["2", "3"]


def test_the_csv_export_is_excel_ready_on_request(client):
    plain = client.get(f"/rounds/{ROUND}/report.csv").get_data(as_text=True)
    excel = client.get(f"/rounds/{ROUND}/report.csv?excel=1").data
    assert plain.startswith("record,group") and excel.startswith("\ufeffrecord;group".encode())


def test_the_letters_page_writes_to_the_players_concerned(client):
    text = client.get(f"/rounds/{ROUND}/letters?lang=fr").get_data(as_text=True)
    assert text.count('<article class="letter"') == 3  # the three players of group 1
    assert "À Marie Lavoie (partie 1)" in text


def test_a_report_of_an_unknown_round_is_not_found(client):
    answer = client.get("/rounds/nope/report")
    assert answer.status_code == 404


def csrf(client) -> str:
    client.get(f"/rounds/{ROUND}/report")  # makes the browser's form token
    with client.session_transaction() as s:
        return s["csrf"]


def test_the_pdf_is_built_by_a_job_that_reports_progress(client):
    token = csrf(client)
    answer = client.post(f"/rounds/{ROUND}/report/jobs", data={"kind": "report", "csrf": token})
    assert answer.status_code == 200, answer.json
    job = answer.json["job"]
    assert job["state"] == "running"
    jobs = client.application.extensions["pace"].report_jobs
    jobs.get(ROUND, job["id"]).task.join(timeout=120)
    status = client.get(f"/rounds/{ROUND}/report/jobs/{job['id']}").json["job"]
    assert status["state"] == "done", status
    assert status["done"] == status["total"] > 5
    pdf = client.get(status["file"])
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True).stdout
    assert "Group 1" in text.decode() or "Partie 1" in text.decode()


def pdf_job(client, token: str, kind: str = "report") -> dict:
    """Start a PDF job from the page's form, wait for it, return its final state."""
    answer = client.post(f"/rounds/{ROUND}/report/jobs", data={"kind": kind, "csrf": token})
    assert answer.status_code == 200, answer.json
    job_id = answer.json["job"]["id"]
    client.application.extensions["pace"].report_jobs.get(ROUND, job_id).task.join(timeout=120)
    return client.get(f"/rounds/{ROUND}/report/jobs/{job_id}").json["job"]


def pdf_text(client, status: dict) -> str:
    data = client.get(status["file"]).data
    return subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True).stdout.decode()


def test_pdfs_are_built_by_one_warm_builder_from_the_log_as_it_is_at_each_job(client):
    jobs = client.application.extensions["pace"].report_jobs
    token = csrf(client)
    first = pdf_job(client, token)
    assert first["state"] == "done", first
    [builder] = jobs.builders()
    assert "09:13" not in pdf_text(client, first)
    # group 1 completes hole 2 between the two PDFs: the second one says so
    client.application.extensions["pace"].live.service.import_times(
        "group,hole,completed\n1,2,09:13\n", "late.csv", round=ROUND, by="sheet"
    )
    second = pdf_job(client, token, kind="letters")
    assert second["state"] == "done", second
    assert jobs.builders() == [builder]  # the same process: no start-up paid again
    assert "09:13" in pdf_text(client, pdf_job(client, token))


def test_a_builder_that_died_is_replaced_and_one_failed_pdf_does_not_stop_it(client):
    jobs = client.application.extensions["pace"].report_jobs
    token = csrf(client)
    jobs.prewarm()
    [builder] = jobs.builders()
    jobs.prewarm()  # one is there already: no second one
    assert jobs.builders() == [builder]
    os.kill(builder, signal.SIGKILL)
    done = pdf_job(client, token)
    assert done["state"] == "done", done
    [replaced] = jobs.builders()
    assert replaced != builder
    # a round the database does not have (the route refuses it first; a job may still meet
    # a round removed meanwhile): the job fails with the reason, the builder carries on
    failed = jobs.start("no such round", "report", "en")
    failed.task.join(timeout=120)
    assert failed.state == "failed" and "no such round" in (failed.error or ""), failed.error
    assert pdf_job(client, token)["state"] == "done"
    assert jobs.builders() == [replaced]
    jobs.close()
    assert jobs.builders() == []
    with pytest.raises(ProcessLookupError):  # stopped and reaped, not left behind
        os.kill(replaced, 0)


def test_a_job_needs_the_form_token_and_a_known_kind(client):
    token = csrf(client)
    assert client.post(f"/rounds/{ROUND}/report/jobs", data={"kind": "report"}).status_code == 403
    bad = client.post(f"/rounds/{ROUND}/report/jobs", data={"kind": "x", "csrf": token})
    assert bad.status_code == 400 and bad.json["error"]["field"] == "kind"
    assert client.get(f"/rounds/{ROUND}/report/jobs/nope").status_code == 404


def test_the_offenders_page_is_the_committees(login):
    page = login("committee", None).get("/offenders?days=3650&lang=en")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Marie Lavoie" in text and f"/rounds/{ROUND}/report" in text
    assert login("referee").get("/offenders").status_code == 403


def test_the_dashboard_snapshot_says_who_is_holding_the_field_up(client):
    snapshot = client.get(f"/api/rounds/{ROUND}/snapshot").json["snapshot"]
    [held] = snapshot["held_up"]
    assert (held["group"], held["groups"], held["ongoing"]) == ("1", 2, True)
    board = client.get(f"/api/rounds/{ROUND}/board").json["snapshot"]
    assert "held_up" not in board  # viewers see facts only

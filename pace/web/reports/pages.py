"""The report's pages and exports: the round's report, its letters, repeat offenders.

Routes stay thin: the report service builds the data, ``pace.reports`` renders it, exactly
as ``pace report`` does. The PDFs are built by report jobs (``jobs``) whose progress
the page shows. The page comes with the field's charts; each group's chart is an image the
browser fetches from ``report/chart.svg`` as it scrolls to it, drawn from the same report
(kept by the app's report service for the page's instant and log position).
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from pace import formats
from pace.documents.report import ReportMeta
from pace.reports import charts, document, html, tables
from pace.reports import offenders as offenders_render
from pace.rules.errors import PaceError
from pace.services import strip as stripmod
from pace.services.reports import ReportService, RoundReportView
from pace.web import access
from pace.web.downloads import attachment
from pace.web.i18n import catalogue, chosen_language, language_links, page_context, translate
from pace.web.parts import parts
from pace.web.payloads import PayloadError
from pace.web.reports.jobs import KINDS, ReportJobError

bp = Blueprint("reports", __name__)


def _service() -> ReportService:
    return parts().reports


def _field_charts(view: RoundReportView, lang: str) -> dict[str, str]:
    return {name: draw(view.report, view.meta.tz, lang) for name, draw in html.FIELD_CHARTS}


def _lang() -> str:
    lang: str = page_context()["lang"]
    return lang


@bp.get("/rounds/<round>/report")
def report_page(round: str) -> Response:
    """The round's report: field summary, charts, and every group's facts."""
    service = _service()
    at = service.instant(round)
    view = service.round_report(round, at)
    lang = _lang()
    if not current_app.testing:  # its PDF button is likely next: a builder gets ready
        parts().report_jobs.prewarm()
    field = service.drawn(round, ("field", lang), lambda v: _field_charts(v, lang), at)
    seq = service.service.store.last_seq(round)
    links = {
        "csv": url_for("reports.report_csv", round=round),
        "excel": url_for("reports.report_csv", round=round, excel=1),
        "json": url_for("reports.report_json", round=round),
        "letters": url_for("reports.letters_page", round=round),
        "jobs": url_for("reports.start_job", round=round),
        "page": url_for("reports.report_page", round=round),
    }
    page = html.report_html(
        _with_strip(round, view),
        view.report,
        lang,
        links=links,
        css_href=url_for("static", filename="report.css"),
        screen_css_href=url_for("static", filename="report-screen.css"),
        script_src=url_for("static", filename="report.js"),
        sun_src=url_for("static", filename="sun.js"),
        messages={
            **{k: v for k, v in catalogue(lang).items() if k.startswith(("report.", "sun."))},
            "csrf": access.csrf_token(),
            "jobs": links["jobs"],
        },
        field_charts=field,
        **_language_menu(lang),
        chart_src=lambda group: url_for(
            "reports.report_chart", round=round, group=group, at=at.isoformat(), v=seq,
            lang=chosen_language(),
        ),
    )
    return Response(page, mimetype="text/html")


@bp.get("/rounds/<round>/report/chart.svg")
def report_chart(round: str) -> Response:
    """One group's chart of the report (``?group=``), as the report stood at ``?at=`` (the
    page's instant, never later than now): an SVG image, without script. ``?v=`` (the log's
    position when the page was made) only tells the browser's cache one log from another."""
    service = _service()
    group = request.args.get("group", "")
    raw = request.args.get("at")
    try:
        at = datetime.fromisoformat(raw) if raw else None
    except ValueError:
        raise PaceError(f"at {raw[:40]!r}: expected an ISO 8601 instant", code="invalid_payload",
                        field="at") from None  # fmt: skip
    if at is not None and at.tzinfo is None:
        raise PaceError("at: the instant needs its UTC offset", code="invalid_payload", field="at")
    now = service.service.clock.now()
    at = min(at or now, now)
    lang = _lang()

    def draw(view: RoundReportView) -> str:
        found = [g for g in view.report.groups if g.id == group]
        if not found:
            raise PaceError(f"no group {group[:40]!r} in round {round[:40]!r}",
                            code="not_found", field="group")  # fmt: skip
        return charts.group_chart(found[0], lang)

    svg = service.drawn(round, ("group", group, lang), draw, at)
    response = Response(svg, mimetype="image/svg+xml")
    # an image of the report at a past instant and log position: it does not change
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


@bp.get("/rounds/<round>/report.csv")
def report_csv(round: str) -> Response:
    """The report as CSV: a row per group and hole, per timed stroke, per fault."""
    view = _service().round_report(round)
    excel = request.args.get("excel") in ("1", "yes", "true")
    text = tables.to_csv(view.meta, view.report, _lang(), excel=excel)
    return attachment(Response(text.encode("utf-8"), mimetype="text/csv"), round, "report", "csv")


@bp.get("/rounds/<round>/report.json")
def report_json(round: str) -> Response:
    """The report's JSON document (docs/reports.md)."""
    view = _service().round_report(round)
    meta = _with_strip(round, view)
    body = json.dumps(document.report_document(meta, view.report), ensure_ascii=False)
    return attachment(Response(body, mimetype="application/json"), round, "report", "json")


def _with_strip(round: str, view: RoundReportView) -> ReportMeta:
    """Return the report's meta with the course strip at ``?strip_at=HH:MM`` in
    ``?strip_reading=`` (``corrected``, the default, or ``known``): docs/reports.md."""
    text = request.args.get("strip_at")
    if not text:
        return view.meta
    try:
        clock = formats.parse_clock(text)
    except ValueError:
        message = f"strip_at: {text[:20]!r} is not a time HH:MM"
        raise PayloadError(message, field="strip_at") from None
    reading = request.args.get("strip_reading") or stripmod.CORRECTED
    if reading not in (stripmod.KNOWN, stripmod.CORRECTED):
        raise PayloadError("strip_reading must be 'corrected' or 'known'", field="strip_reading")
    at = datetime.combine(view.meta.day, clock, tzinfo=view.meta.tz)
    field = stripmod.report_field(_service().service, round, at, reading)
    return replace(view.meta, strip=stripmod.strip_document(field, view.meta.tz))


@bp.get("/rounds/<round>/letters")
def letters_page(round: str) -> Response:
    """The round's facts-only letters, one per page (``?per=group`` for one per group)."""
    view = _service().round_report(round)
    per = "group" if request.args.get("per") == "group" else "player"
    lang = _lang()
    page = html.letters_html(
        view.meta, view.report, lang, per, css_href=url_for("static", filename="report.css"),
        screen_css_href=url_for("static", filename="report-screen.css"), **_language_menu(lang),
    )  # fmt: skip
    return Response(page, mimetype="text/html")


def _language_menu(lang: str) -> dict[str, Any]:
    """Return the language menu of a document's page, as the other pages have it (issue 47):
    each link keeps the page's other query parameters."""
    return {"language_links": language_links(), "language_label": translate("lang.menu", lang)}


@bp.post("/rounds/<round>/report/jobs")
def start_job(round: str) -> Any:
    """Start building the PDF of the report (``kind=report``) or of the letters."""
    access.check_csrf()
    parts().live.service.round_view(round)  # unknown_round before anything starts
    kind = request.form.get("kind", "report")
    if kind not in KINDS:
        raise ReportJobError(f"kind {kind[:20]!r}: expected one of {', '.join(KINDS)}",
                             code="invalid_payload", field="kind")  # fmt: skip
    per = "group" if request.form.get("per") == "group" else "player"
    job = parts().report_jobs.start(round, kind, _lang(), per)
    return jsonify({"ok": True, "job": _job_view(round, job)})


def _job_view(round: str, job: Any) -> dict[str, Any]:
    view: dict[str, Any] = job.view()
    view["file"] = (
        url_for("reports.job_file", round=round, job=job.id) if job.state == "done" else None
    )
    return view


@bp.get("/rounds/<round>/report/jobs/<job>")
def job_status(round: str, job: str) -> Any:
    """How far a PDF is: ``{state, done, total, file}``."""
    return jsonify({"ok": True, "job": _job_view(round, parts().report_jobs.get(round, job))})


@bp.get("/rounds/<round>/report/jobs/<job>/file")
def job_file(round: str, job: str) -> Response:
    """The PDF a finished job built."""
    found = parts().report_jobs.get(round, job)
    if found.state != "done" or found.path is None:
        raise ReportJobError(f"report job {job[:40]!r} has no PDF yet ({found.state})")
    pdf = Response(found.path.read_bytes(), mimetype="application/pdf")
    return attachment(pdf, round, found.kind, "pdf")


@bp.get("/offenders")
def offenders_page() -> str:
    """Repeat offenders over the last ``?days=`` days (default: the configuration's)."""
    raw = request.args.get("days", "")
    days = int(raw) if raw.isdigit() and 1 <= int(raw) <= 3660 else None
    found = _service().offenders(days, club=access.session_club() or "")
    return render_template(
        "offenders.html",
        offenders=found,
        document=offenders_render.offenders_document(found),
        **page_context(),
    )

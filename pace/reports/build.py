"""A round's report, or its letters, in one format: HTML (a page to print), PDF (A4), CSV or
JSON. What ``pace report`` and ``pace letters`` write (``pace.cli.reports``) and the warm PDF
builder builds for the web page (``pace.reports.worker``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

FORMATS = ("html", "pdf", "csv", "json")


def build(
    service: Any,
    round_name: str,
    fmt: str,
    *,
    lang: str,
    now: datetime | None = None,
    excel: bool = False,
    full_charts: bool = False,
    letters_per: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    strip_at: datetime | None = None,
    strip_reading: str = "corrected",
) -> str | bytes:
    """Return the round's report (or letters) in ``fmt``: text, or the PDF's bytes.

    ``now``: the facts up to that instant (default: the whole log); ``progress(done, total,
    what)`` hears how far the work is. ``strip_at``: the report carries the course strip at
    that instant in ``strip_reading`` (docs/reports.md, "The course strip").
    """
    from pace.reports import document, html, pdf, tables
    from pace.services.reports import ReportService

    tell = progress or (lambda done, total, what: None)
    view = ReportService(service).round_report(round_name, now)
    meta, report = view.meta, view.report
    if strip_at is not None and letters_per is None:
        from dataclasses import replace

        from pace.services import strip as stripmod

        field = stripmod.report_field(service, round_name, strip_at, strip_reading)
        meta = replace(meta, strip=stripmod.strip_document(field, meta.tz))
    steps = len(report.groups) + 3
    tell(1, steps, "data")

    def charts_progress(done: int, total: int, what: str) -> None:
        tell(1 + done, steps, what)

    if letters_per is not None:
        page = html.letters_html(meta, report, lang, letters_per)
        tell(steps - 1, steps, "letters")
        if fmt == "pdf":
            out: str | bytes = pdf.html_to_pdf(page)
        else:
            out = page
        tell(steps, steps, "done")
        return out
    if fmt == "json":
        out = json.dumps(document.report_document(meta, report), ensure_ascii=False, indent=1)
    elif fmt == "csv":
        out = tables.to_csv(meta, report, lang, excel=excel)
    elif fmt == "html":
        out = html.report_html(meta, report, lang, progress=charts_progress)
    else:
        out = pdf.report_pdf(meta, report, lang, progress=charts_progress, full_charts=full_charts)
    tell(steps, steps, "done")
    return out

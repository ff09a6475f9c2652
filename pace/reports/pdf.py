"""PDF through WeasyPrint: the report's or the letters' HTML laid out on A4 (docs/reports.md).

The style sheet's ``@page`` rules give the page size, the margins, the round's name at the
top and ``page N / M`` at the bottom; the charts are SVG images, drawn by WeasyPrint itself.

A long report is laid out in two parts at once (``parts_to_pdf``): the header, the field's
summary and the first groups here, the other groups in a forked child (``forked``), each
part starting on a new page as a group does. The parts' pages are then put together with
pypdf and numbered ``page N / M`` by a third, blank document laid over them (neither part
knows the other's page count): the same pages, numbers and texts as one document, in about
half the time on two cores (docs/reports.md, "Speed").
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from pace.documents.report import ReportMeta
from pace.reports import forked
from pace.reports.html import ROOT, Progress, css, draw_charts, no_progress, report_html
from pace.rules import report as rp

#: Laid into a part's ``<head>``: its pages get their numbers afterwards (``_numbers``).
_UNNUMBERED = "<style>@page { @bottom-center { content: none; } }</style>"


def html_to_pdf(html: str) -> bytes:
    """Return the PDF of an HTML document of the reports (its style inlined)."""
    import weasyprint  # imported when needed: it takes most of a second to load

    pdf: bytes = weasyprint.HTML(string=html, base_url=str(ROOT / "static")).write_pdf()
    return pdf


def parts_to_pdf(parts: Sequence[Callable[[], str]], lang: str = "en") -> bytes:
    """Return one PDF of a document made of two parts (each a function returning its HTML),
    laid out side by side when forking is safe, its pages numbered ``page N / M``."""
    if len(parts) == 1:
        return html_to_pdf(parts[0]())
    first, second = parts

    def unnumbered(part: Callable[[], str]) -> Callable[[], bytes]:
        return lambda: html_to_pdf(part().replace("</head>", _UNNUMBERED + "</head>", 1))

    laid = forked.in_parallel(unnumbered(first), unnumbered(second))
    return _joined(laid, lang)


def _numbers(pages: int, lang: str = "en") -> bytes:
    """Return ``pages`` blank pages of the report's page style with their numbers alone."""
    breaks = '<p style="break-before: page"></p>' * (pages - 1)
    page = f'<html><head><style>{css(lang)}</style></head><body class="report"><p></p>{breaks}'
    return html_to_pdf(page + "</body></html>")


def _joined(parts: Sequence[bytes], lang: str = "en") -> bytes:
    import pypdf

    writer = pypdf.PdfWriter()
    readers = [pypdf.PdfReader(io.BytesIO(data)) for data in parts]
    for reader in readers:
        writer.append(reader)
    if readers[0].metadata:
        writer.add_metadata(dict(readers[0].metadata))
    numbers = pypdf.PdfReader(io.BytesIO(_numbers(len(writer.pages), lang)))
    for page, number in zip(writer.pages, numbers.pages, strict=True):
        page.merge_page(number)
        page.compress_content_streams()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


#: A report of at least this many groups is laid out in two parts (fewer: one document).
SPLIT_MIN = 16
#: The first part's share of the groups: it has the field's summary too.
FIRST_SHARE = 0.45


def report_pdf(
    meta: ReportMeta,
    r: rp.RoundReport,
    lang: str,
    *,
    progress: Progress = no_progress,
    full_charts: bool = False,
) -> bytes:
    """Return the report's PDF: its charts drawn once, then laid out in two parts at once
    (``parts_to_pdf``) when it has ``SPLIT_MIN`` groups or more."""
    drawn = draw_charts(r, meta, lang, progress, for_pdf=True, full_charts=full_charts)

    def part(first: int, last: int, with_summary: bool) -> Callable[[], str]:
        return lambda: report_html(
            meta, r, lang, for_pdf=True, drawn=drawn, groups=(first, last),
            with_summary=with_summary,
        )  # fmt: skip

    n = len(r.groups)
    if n < SPLIT_MIN or not forked.can_fork():
        return html_to_pdf(part(0, n, True)())
    k = round(n * FIRST_SHARE)
    return parts_to_pdf([part(0, k, True), part(k, n, False)], lang)

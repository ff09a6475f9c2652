"""PDF through WeasyPrint (TECH-NOTES.md): the report's or the letters' HTML laid out on A4.

The style sheet's ``@page`` rules give the page size, the margins, the round's name at the
top and ``page N / M`` at the bottom; the charts are inline SVG, drawn by WeasyPrint itself.
"""

from __future__ import annotations

from pace.reports.html import ROOT


def html_to_pdf(html: str) -> bytes:
    """Return the PDF of an HTML document of the reports (its style inlined)."""
    import weasyprint  # imported when needed: it takes most of a second to load

    pdf: bytes = weasyprint.HTML(string=html, base_url=str(ROOT / "static")).write_pdf()
    return pdf

"""Access cards on A4 (issue 28, part 4): one card per access code, cut from a printed sheet.

Each card says its role and round, carries the QR code of its ``/join`` link (which signs in
with the code and opens the role's page: ``pace.services.access.join_link``) and the code in
large type for whoever types it. The sheet is HTML laid out by WeasyPrint, the reports' PDF
path (:func:`pace.reports.pdf.html_to_pdf`); cards sit 2×4 or 3×3 on a page, in a table whose
dashed borders are the cut lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from pace.reports.html import environment
from pace.reports.words import text
from pace.services.cards import AccessCard

#: the layouts of a sheet: columns × rows of cards on an A4 page
LAYOUTS = {"2x4": (2, 4), "3x3": (3, 3)}


def qr_data_uri(link: str) -> str:
    """Return the QR code of ``link`` as an SVG ``data:`` URI (segno; WeasyPrint draws it)."""
    import segno  # type: ignore[import-not-found]  # only the cards and the access page need it

    uri: str = segno.make(link, error="m").svg_data_uri(scale=4, border=2)
    return uri


def cards_html(cards: Sequence[AccessCard], lang: str = "fr", layout: str = "2x4") -> str:
    """Return the sheets of cards as one HTML document, a page per ``columns × rows`` cards."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout {layout!r}: expected one of {', '.join(LAYOUTS)}")
    columns, rows = LAYOUTS[layout]
    per_page = columns * rows
    pages = [cards[i : i + per_page] for i in range(0, len(cards), per_page)]
    sheets = [[list(page[r : r + columns]) for r in range(0, len(page), columns)] for page in pages]
    return (
        environment()
        .get_template("reports/cards.html")
        .render(
            sheets=sheets,
            columns=columns,
            layout=layout,
            lang=lang,
            rounds=sorted({c.round for c in cards}),
            qr=qr_data_uri,
            t=lambda key, **kw: text(key, lang, **kw),
        )
    )


def cards_pdf(cards: Sequence[AccessCard], lang: str = "fr", layout: str = "2x4") -> bytes:
    """Return the A4 PDF of the cards (:func:`cards_html` through WeasyPrint)."""
    from pace.reports.pdf import html_to_pdf

    return html_to_pdf(cards_html(cards, lang, layout))

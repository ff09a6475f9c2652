"""CSV for spreadsheets: a cell a spreadsheet would run as a formula is written as text.

Excel, LibreOffice and Google Sheets read a cell that begins with ``=``, ``+``, ``-`` or ``@``
(and, in some of them, a tab or a carriage return) as a formula: a player entered as
``=HYPERLINK("http://…")`` would become a link on the committee's computer, ``+SUM(1+1)`` a 2.
The names, clubs, reasons and notes pace writes come from people (a draw may be made of the
players' own online entries), so every CSV export of pace writes its cells through
:func:`guard` (:func:`writer` does it for each row): such a cell gets a leading ``'``, which a
spreadsheet shows as text and hides.

A figure stays a figure: a cell that is a number as written (``-3`` to par, ``+2``, ``-1,5``
with a French decimal comma) is left as it is, and so is a lone ``-`` (a hole without score);
neither is a formula. docs/formats.md, "CSV exports and spreadsheets".
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, TextIO

#: the first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV
#: injection")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

#: a number as pace writes one: a sign, digits, a decimal point or comma
_NUMBER = re.compile(r"[+-]?(?:\d+(?:[.,]\d+)?|[.,]\d+)")


def guard(value: object) -> str:
    """Return a CSV cell's text, with a ``'`` before it when a spreadsheet would run it.

    >>> guard('=HYPERLINK("http://x")'), guard("+SUM(1+1)"), guard("@A1"), guard("-Club")
    ('\\'=HYPERLINK("http://x")', "'+SUM(1+1)", "'@A1", "'-Club")
    >>> guard(-3), guard("-3"), guard("+2"), guard("-1,5"), guard("-"), guard(None)
    ('-3', '-3', '+2', '-1,5', '-', '')
    >>> guard("-1+2"), guard("\\tx"), guard("Ann Smith")
    ("'-1+2", "'\\tx", 'Ann Smith')
    """
    text = "" if value is None else str(value)
    if text[:1] in FORMULA_START and text != "-" and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


class GuardedWriter:
    """A ``csv.writer`` whose every cell goes through :func:`guard`."""

    def __init__(self, out: TextIO, **options: Any):
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[object]) -> None:
        """Write one row, each cell guarded."""
        self._writer.writerow([guard(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        """Write rows, each cell guarded."""
        for row in rows:
            self.writerow(row)


def writer(out: TextIO, **options: Any) -> GuardedWriter:
    """Return a CSV writer on ``out`` (``csv.writer``'s options) that guards every cell."""
    return GuardedWriter(out, **options)

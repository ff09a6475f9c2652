"""Reading committee files: UTF-8 text and CSV tables with named columns.

The CSV reader finds the separator from the header line, matches header names to
canonical column names (case, accents, spaces and punctuation ignored; French and Dutch
aliases allowed, a header cell several columns may mean told apart by the cells under it),
skips blank rows and keeps the physical line number of every row, so each
problem can name the line a committee sees in a text editor.
"""

from __future__ import annotations

import csv
import io
import os
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pace.rules import errors

BOM = "\ufeff"


@dataclass(frozen=True)
class Column:
    """A column a format knows: its canonical name, accepted aliases, and whether it is required.

    ``instead`` names the columns that make a required one optional when the header has one
    of them. ``accepts`` tells whether a cell may be this column's, for a header cell that is
    an alias of several columns (a Flemish ``afslag``: the starting hole, or the tee set
    played): the cells under it choose (:func:`_match_header`).
    """

    name: str
    aliases: tuple[str, ...] = ()
    required: bool = False
    accepts: Callable[[str], bool] | None = None
    #: the columns that stand in for a required column the header lacks (a start list's
    #: last name for the player's whole name)
    instead: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    """One data row: its first physical line and its stripped cells by canonical column name."""

    line: int
    cells: Mapping[str, str]

    def get(self, name: str) -> str:
        """Return the stripped cell of column ``name``, or ``""`` when absent or empty."""
        return self.cells.get(name, "")


@dataclass(frozen=True)
class Table:
    """The data rows of a CSV file, with the header's line, the columns it has and the header
    cells it ignored (columns the format does not know)."""

    rows: tuple[Row, ...]
    header_line: int
    present: frozenset[str]
    ignored: tuple[str, ...] = ()

    def ignored_note(self, filename: str, known: Sequence[Column]) -> str | None:
        """Return a note naming the columns ignored, or None when every column is known."""
        if not self.ignored:
            return None
        names = ", ".join(repr(c) for c in self.ignored)
        columns = ", ".join(c.name for c in known)
        plural = "s" if len(self.ignored) > 1 else ""
        return (
            f"{filename}, line {self.header_line}: column{plural} {names} ignored"
            f" (not a column of this file; its columns are {columns})"
        )


def read_text(path: str | os.PathLike[str]) -> str:
    """Return the text of a UTF-8 file, with or without a byte order mark."""
    with open(path, "rb") as f:
        return decode(f.read(), str(path))


def decode(data: bytes, filename: str) -> str:
    """Return the text of a UTF-8 file's bytes (an upload's too), with or without a byte
    order mark; UTF-16 or bytes that are not UTF-8 are a ``FileFormatError`` saying so."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise errors.FileFormatError(
            [
                errors.Problem(
                    filename,
                    None,
                    None,
                    "the file is UTF-16, not UTF-8; save it again as UTF-8 "
                    "(in a spreadsheet: 'CSV UTF-8')",
                )
            ]
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise errors.FileFormatError(
            [
                errors.Problem(
                    filename,
                    line,
                    None,
                    f"the file is not valid UTF-8 (byte 0x{data[e.start]:02x} on line {line}); "
                    "save it again as UTF-8 (in a spreadsheet: 'CSV UTF-8')",
                )
            ]
        ) from None


def normalize_header(text: str) -> str:
    """Return a header cell folded for matching: no accents, no case, single spaces.

    >>> normalize_header("  Heure de  DÉPART ")
    'heure de depart'
    """
    decomposed = unicodedata.normalize("NFKD", text.replace(BOM, ""))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def header_key(text: str) -> str:
    """Return how a header cell matches a column's name or alias: :func:`normalize_header`,
    without spaces or punctuation (``Hcp-index``, ``HCP index`` and ``hcpindex`` match).

    >>> header_key(" Start tijd "), header_key("N° lid"), header_key("M/V")
    ('starttijd', 'nlid', 'mv')
    """
    return "".join(c for c in normalize_header(text) if c.isalnum())


def detect_separator(header: str) -> str:
    """Return the separator of a CSV file from its header line.

    ``;`` if the header has more semicolons than commas (French-locale spreadsheets),
    a tab if it has tabs and neither, else ``,``.

    >>> detect_separator("groupe;départ;tee;joueur")
    ';'
    >>> detect_separator("group,start,tee,player")
    ','
    """
    semicolons, commas = header.count(";"), header.count(",")
    if semicolons > commas:
        return ";"
    if "\t" in header and not semicolons and not commas:
        return "\t"
    return ","


def read_table(
    text: str, filename: str, columns: Sequence[Column]
) -> tuple[Table, list[errors.Problem]]:
    """Return a CSV text's rows keyed by canonical column, and the problems found.

    Header problems (a required column missing, a column given twice) leave the table
    without rows: its rows cannot be read reliably.
    """
    text = text.removeprefix(BOM)
    problems: list[errors.Problem] = []
    wanted = ", ".join(c.name for c in columns if c.required)
    header_text, header_line = _first_nonblank_line(text)
    if header_text is None:
        problems.append(
            errors.Problem(
                filename, 1, None, f"the file is empty; expected a header line with {wanted}"
            )
        )
        return Table((), 1, frozenset()), problems

    reader = csv.reader(io.StringIO(text, newline=""), delimiter=detect_separator(header_text))
    records: list[tuple[int, list[str]]] = []
    previous = 0
    try:
        for record in reader:
            records.append((previous + 1, record))
            previous = reader.line_num
    except csv.Error as e:
        problems.append(
            errors.Problem(filename, reader.line_num, None, f"the file is not valid CSV: {e}")
        )
        return Table((), header_line, frozenset()), problems
    records = [(line, cells) for line, cells in records if any(c.strip() for c in cells)]
    if not records:  # only quotes and separators
        problems.append(
            errors.Problem(
                filename, 1, None, f"the file is empty; expected a header line with {wanted}"
            )
        )
        return Table((), 1, frozenset()), problems
    (header_line, header), data = records[0], records[1:]

    ignored: list[str] = []
    positions = _match_header(header, header_line, filename, columns, problems, ignored, data)
    unsettled = {p.field for p in problems}  # a column a header cell may be, not settled
    for column in columns:
        if (
            column.required
            and column.name not in positions
            and column.name not in unsettled
            and not any(name in positions for name in column.instead)
        ):
            found = ", ".join(repr(c.strip()) for c in header if c.strip()) or "nothing"
            aliases = f" (or {column.aliases[0]!r})" if column.aliases else ""
            problems.append(
                errors.Problem(
                    filename,
                    header_line,
                    column.name,
                    f"missing column {column.name!r}{aliases}; the header has {found}",
                )
            )
    if problems:
        return Table((), header_line, frozenset(positions), tuple(ignored)), problems

    width = len(header)
    rows = []
    for line, cells in data:
        extra = [c.strip() for c in cells[width:] if c.strip()]
        if extra:
            problems.append(
                errors.Problem(
                    filename,
                    line,
                    None,
                    f"the row has {len(cells)} cells but the header has {width} columns "
                    f"(extra {extra[0]!r}); check the separator and quote cells that contain it",
                )
            )
            continue
        # one spelling per name: NFC, so a name typed on any keyboard matches the draw's
        values = {
            name: unicodedata.normalize("NFC", cells[i].strip()) if i < len(cells) else ""
            for name, i in positions.items()
        }
        rows.append(Row(line, values))
    return Table(tuple(rows), header_line, frozenset(positions), tuple(ignored)), problems


def _first_nonblank_line(text: str) -> tuple[str | None, int]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip(" \t;,\"'"):
            return line, number
    return None, 1


def _match_header(
    header: list[str],
    line: int,
    filename: str,
    columns: Sequence[Column],
    problems: list[errors.Problem],
    ignored: list[str],
    data: Sequence[tuple[int, Sequence[str]]] = (),
) -> dict[str, int]:
    """Return the position of each column found in ``header``.

    A name that is an alias of several columns (the French ``départ``: the start, or the tee
    as a board says it; the Flemish ``afslag``: the starting hole, or the tee set) goes, after
    every unambiguous cell is placed, to the one of them the header has no other cell for;
    when several are free, to the one whose ``accepts`` takes every cell under it (``08:30``
    is a start, ``1`` a tee, ``Geel`` tees), else to the first of them. ``Heure;Départ``
    reads as start and tee, ``Départ;Trou de départ`` as start and tee too. A cell whose
    column no cell under it can settle (hole numbers and colours mixed) is a problem naming
    its column. Cells no column knows are listed in ``ignored``.
    """
    by_alias: dict[str, list[Column]] = {}
    for column in columns:
        for alias in (column.name, *column.aliases):
            named = by_alias.setdefault(header_key(alias), [])
            if column not in named:
                named.append(column)
    positions: dict[str, int] = {}
    later: list[tuple[int, str, list[Column]]] = []

    def place(i: int, cell: str, name: str) -> None:
        if name in positions:
            first = header[positions[name]].strip()
            problems.append(
                errors.Problem(
                    filename,
                    line,
                    name,
                    f"column {cell.strip()!r} (column {i + 1}) repeats column {first!r} "
                    f"(column {positions[name] + 1}); keep one of them",
                )
            )
        else:
            positions[name] = i

    for i, cell in enumerate(header):
        found = by_alias.get(header_key(cell))
        if found is None:
            if cell.strip():
                ignored.append(cell.strip())  # extra columns are allowed, and named
            continue
        if len(found) > 1:
            later.append((i, cell, found))
            continue
        place(i, cell, found[0].name)
    for i, cell, found in later:
        free = [c for c in found if c.name not in positions]
        if len(free) > 1:
            values = [(n, r[i].strip()) for n, r in data if i < len(r) and r[i].strip()]
            fits = [c for c in free if c.accepts is None or all(c.accepts(v) for _, v in values)]
            if fits:
                free = fits
            elif values:
                first, second = (
                    next((n, v) for n, v in values if c.accepts and not c.accepts(v))
                    for c in free[:2]
                )
                problems.append(
                    errors.Problem(
                        filename,
                        line,
                        free[0].name,
                        f"column {cell.strip()!r} (column {i + 1}) may be {free[0].name!r} or "
                        f"{free[1].name!r}, and its cells fit neither: {first[1]!r} on line "
                        f"{first[0]} is not a {free[0].name} cell, {second[1]!r} on line "
                        f"{second[0]} not a {free[1].name} cell; name the column "
                        f"{free[0].name!r} or {free[1].name!r}, or correct the cells",
                    )
                )
                continue
        place(i, cell, (free or found)[0].name)
    return positions

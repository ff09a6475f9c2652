"""A club's export: everything a club owns, as the rows it is stored in (``pace club export``,
``pace club import``; docs/federation.md, "A club's data").

JSON Lines, every line canonical JSON (sorted keys, no spaces, ASCII), like a round's backup
(``pace.formats.backup``):

- line 1, the header: ``{"pace": "club", "version": 1, "club": {"id", "name", "created_at"},
  "exported_at": …}``;
- then one line per row: ``{"table": SECTION, "row": {column: value, …}}``, the sections in
  ``SECTIONS``' order (a row refers only to rows above it): courses, course_geometry (a
  course's map), rounds, groups and players (the draw), competitions and competition_rounds,
  events (the whole log, in ``seq`` order), people (e-mail, name, role; never a password hash
  or a setup link) and access_log;
- the last line: ``{"end": {"counts": {SECTION: rows, …}, "sha256": …}}``, the SHA-256 of
  every byte above it.

A row is the stored row, column by column: the columns that hold JSON text (a course's holes,
a map, an allowance, an event's ``by`` and ``payload``) are carried as that text, a JSON
string, so an event's ``by`` and ``payload`` are the stored bytes, not a re-serialisation.
Instants are the stored fixed-width UTC text. ``seq`` is carried (the log's order as it was)
and never imported: the instance that imports numbers its own.

Parsing checks the whole file before anything is used and names every problem with its line
and field (``FileFormatError``): each row's columns and their kinds, that each row's
references are rows of the file (a round's course, an event's round, a player's group…), that
no key is given twice, that the log is in ``seq`` order, and that the last line's counts and
SHA-256 match the lines above: a truncated or edited file is refused. The digest is not a
signature (whoever can write the file can compute it again): it catches a file cut short or
changed by accident; the checks of every row, and the database's own in the one transaction
of the import, catch the rest.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pace.rules.errors import FileFormatError, Problem
from pace.rules.events import canonical_json

KIND = "club"
VERSION = 1

#: the kinds of value a column holds: text, a whole number, a number, JSON text, a stored
#: instant (fixed-width ISO 8601 UTC text), a day (YYYY-MM-DD); ``?``: or null
TEXT, INT, REAL, JSON, INSTANT, DAY = "text", "int", "real", "json", "instant", "day"

#: every section of the file, its columns and their kinds, in the file's order
SECTIONS: dict[str, dict[str, str]] = {
    "courses": {"name": TEXT, "data": JSON, "imported_at": TEXT, "slope": REAL + "?",
                "rating": REAL + "?"},
    "course_geometry": {"course": TEXT, "data": JSON, "imported_at": TEXT},
    "rounds": {"name": TEXT, "course": TEXT, "day": DAY, "timezone": TEXT, "policy": TEXT,
               "standard_interval_s": REAL + "?", "created_at": TEXT, "play": TEXT,
               "format": TEXT, "scoring": TEXT + "?", "net": INT, "allowance": JSON + "?",
               "completions": TEXT, "language": TEXT + "?", "rounding": TEXT + "?",
               "gross_par_adjustment": INT + "?", "positions": INT},
    "groups": {"round": TEXT, "id": TEXT, "position": INT, "start": INSTANT, "tee": INT},
    "players": {"round": TEXT, "group_id": TEXT, "position": INT, "name": TEXT,
                "handicap": REAL + "?", "side": TEXT + "?", "club": TEXT + "?",
                "class": TEXT + "?", "match": TEXT + "?", "tees": TEXT + "?",
                "gender": TEXT + "?", "language": TEXT + "?"},
    "competitions": {"name": TEXT, "scoring": TEXT, "cut_after": INT + "?", "cut_top": INT + "?",
                     "cut_within": INT + "?", "created_at": INSTANT},
    "competition_rounds": {"competition": TEXT, "position": INT, "round": TEXT},
    "events": {"seq": INT, "id": TEXT, "type": TEXT, "round": TEXT, "at": INSTANT,
               "recorded_at": INSTANT, "by": JSON, "payload": JSON},
    "people": {"email": TEXT, "name": TEXT, "role": TEXT, "created_at": INSTANT,
               "disabled_at": TEXT + "?"},
    "access_log": {"at": INSTANT, "account": TEXT + "?", "who": TEXT, "kind": TEXT,
                   "detail": TEXT, "remote": TEXT},
}  # fmt: skip

#: each section's key (no two rows share it) and its references: column(s) → section(key)
KEYS: dict[str, tuple[str, ...]] = {
    "courses": ("name",), "course_geometry": ("course",), "rounds": ("name",),
    "groups": ("round", "id"), "players": ("round", "group_id", "position"),
    "competitions": ("name",), "competition_rounds": ("competition", "position"),
    "events": ("id",), "people": ("email",), "access_log": (),
}  # fmt: skip
REFERENCES: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "course_geometry": ((("course",), "courses"),),
    "rounds": ((("course",), "courses"),),
    "groups": ((("round",), "rounds"),),
    "players": ((("round", "group_id"), "groups"),),
    "competition_rounds": ((("competition",), "competitions"), (("round",), "rounds")),
    "events": ((("round",), "rounds"),),
}

_INSTANT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00")
_DAY = re.compile(r"\d{4}-\d\d-\d\d")
#: a JSON text column's value is at most this long (a map is the largest: 5 MB)
MAX_JSON = 8 << 20


@dataclass(frozen=True)
class ClubFile:
    """A parsed export: the club as exported (id, name, created_at), when, and its rows."""

    club: dict[str, str]
    exported_at: str
    rows: dict[str, list[dict[str, Any]]]


def dump(club: Mapping[str, str], rows: Mapping[str, Sequence[Mapping[str, Any]]],
         *, exported_at: str) -> str:  # fmt: skip
    """Return a club's export as text."""
    header = {"pace": KIND, "version": VERSION, "exported_at": exported_at,
              "club": {k: club[k] for k in ("id", "name", "created_at")}}  # fmt: skip
    lines = [canonical_json(header)]
    counts = {}
    for section, columns in SECTIONS.items():
        given = rows.get(section, ())
        counts[section] = len(given)
        for row in given:
            lines.append(canonical_json({"table": section,
                                         "row": {c: row[c] for c in columns}}))  # fmt: skip
    body = "".join(line + "\n" for line in lines)
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return body + canonical_json({"end": {"counts": counts, "sha256": digest}}) + "\n"


def _kind_ok(kind: str, value: Any) -> str | None:
    """Return what is wrong with ``value`` as a ``kind`` column, or None."""
    nullable = kind.endswith("?")
    kind = kind.rstrip("?")
    if value is None:
        return None if nullable else "is missing (null)"
    if isinstance(value, bool):
        return f"expected {kind}, not {value!r}"
    if kind == INT:
        return None if isinstance(value, int) else f"expected a whole number, not {value!r}"
    if kind == REAL:
        return None if isinstance(value, int | float) else f"expected a number, not {value!r}"
    if not isinstance(value, str):
        return f"expected text, not {value!r}"[:200]
    if kind == INSTANT and not _INSTANT.fullmatch(value):
        return f"expected a stored instant (2026-06-14T08:00:00.000000+00:00), not {value!r}"
    if kind == DAY and not _DAY.fullmatch(value):
        return f"expected a day YYYY-MM-DD, not {value!r}"
    if kind == JSON:
        if len(value) > MAX_JSON:
            return f"JSON text of {len(value)} characters: longer than any pace stores"
        try:
            json.loads(value)
        except ValueError as e:
            return f"expected JSON text: {e}"
    return None


def parse(text: str, filename: str) -> ClubFile:
    """Parse a club's export; raise ``FileFormatError`` naming every problem (line, field)."""
    problems: list[Problem] = []

    def fail(line: int | None, field: str | None, message: str) -> None:
        if len(problems) < 200:  # a broken file of a million lines says enough in 200
            problems.append(Problem(filename, line, field, message))

    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    else:
        fail(len(lines), None, "the file does not end with a new line: cut short?")
    if not lines or not lines[0].strip():
        raise FileFormatError([Problem(filename, 1, None, "empty file: not a pace club export")])
    try:
        header = json.loads(lines[0])
    except ValueError as e:
        raise FileFormatError([Problem(filename, 1, None, f"not JSON: {e}")]) from None
    if not isinstance(header, dict) or header.get("pace") != KIND:
        raise FileFormatError([Problem(filename, 1, "pace", "not a pace club export")])
    if header.get("version") != VERSION:
        raise FileFormatError([Problem(filename, 1, "version", f"version"
                                       f" {header.get('version')!r} is not {VERSION}: made by"
                                       " another version of pace")])  # fmt: skip
    club = header.get("club")
    if not isinstance(club, dict) or any(not isinstance(club.get(k), str)
                                         for k in ("id", "name", "created_at")):  # fmt: skip
        fail(1, "club", "expected the club's id, name and created_at as text")
        club = {}
    exported_at = header.get("exported_at")
    if not isinstance(exported_at, str):
        fail(1, "exported_at", "expected the instant of the export")

    # the end: the last line, its counts and the digest of every byte above it
    end: Any = None
    try:
        end = json.loads(lines[-1]) if len(lines) > 1 else None
    except ValueError:
        end = None
    if not isinstance(end, dict) or not isinstance(end.get("end"), dict):
        fail(len(lines), "end", "the last line is not the export's end: the file was cut short")
        end = {"end": {}}
        body_lines = lines[1:]
    else:
        body_lines = lines[1:-1]
        body = "".join(line + "\n" for line in lines[:-1])
        digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
        if end["end"].get("sha256") != digest:
            fail(len(lines), "end.sha256", "the SHA-256 of the lines above does not match the"
                 " export's: the file was changed or cut short")  # fmt: skip

    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in SECTIONS}
    keys: dict[str, dict[tuple[Any, ...], int]] = {s: {} for s in SECTIONS}
    order = list(SECTIONS)
    current = 0
    last_seq: int | None = None
    for number, line in enumerate(body_lines, start=2):
        try:
            data = json.loads(line)
        except ValueError as e:
            fail(number, None, f"not JSON: {e}")
            continue
        section = data.get("table") if isinstance(data, dict) else None
        row = data.get("row") if isinstance(data, dict) else None
        if not isinstance(data, dict) or set(data) != {"table", "row"} or section not in SECTIONS:
            fail(number, "table", f"expected a row of one of {', '.join(SECTIONS)}")
            continue
        if order.index(section) < current:
            fail(number, "table", f"a row of {section} after the rows of {order[current]}")
        current = max(current, order.index(section))
        columns = SECTIONS[section]
        if not isinstance(row, dict):
            fail(number, "row", "expected an object of the row's columns")
            continue
        bad = False
        for name in sorted(set(row) - set(columns)):
            fail(number, f"row.{name}"[:80], f"{section} has no column {name!r}"[:200])
            bad = True
        for name, kind in columns.items():
            if name not in row:
                fail(number, f"row.{name}", "is missing")
                bad = True
                continue
            wrong = _kind_ok(kind, row[name])
            if wrong:
                fail(number, f"row.{name}", wrong)
                bad = True
        if bad:
            continue
        if section == "events":
            if last_seq is not None and row["seq"] <= last_seq:
                fail(number, "row.seq", f"seq {row['seq']} after {last_seq}: the log is"
                     " exported in seq order")  # fmt: skip
            last_seq = row["seq"]
        key = tuple(row[c] for c in KEYS[section])
        if key and key in keys[section]:
            fail(number, "row", f"{section} {key!r} is already on line {keys[section][key]}")
            continue
        for columns_of, target in REFERENCES.get(section, ()):
            ref = tuple(row[c] for c in columns_of)
            if ref not in keys[target]:
                fail(number, f"row.{columns_of[-1]}",
                     f"{target[:-1] if target.endswith('s') else target} {ref[-1]!r} is not in"
                     " the file")  # fmt: skip
                bad = True
        if bad:
            continue
        if key:
            keys[section][key] = number
        rows[section].append(row)

    counts = end["end"].get("counts")
    if isinstance(counts, dict) and not problems:
        for section in SECTIONS:
            if counts.get(section) != len(rows[section]):
                fail(len(lines), f"end.counts.{section}", f"{counts.get(section)!r} {section}"
                     f" announced, {len(rows[section])} in the file")  # fmt: skip
    elif not problems:
        fail(len(lines), "end.counts", "expected the number of rows of each section")
    if problems:
        raise FileFormatError(problems)
    return ClubFile(dict(club), str(exported_at), rows)

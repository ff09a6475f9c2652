"""Course TOML: the course's name and one ``[[holes]]`` table per hole.

Format: docs/formats.md §1: ``name``, optional ``slope`` and ``rating`` (course
handicaps), and per hole ``number``, ``par``, ``stroke_index``, ``length_m``, ``walk_min``,
``bogey`` and ``allotted``. Every key of a hole table is checked, so a typo such as
``walkmin`` is reported instead of silently ignored. Semantic problems point at the line
of the hole's ``[[holes]]`` header when the holes are written that way.

:func:`course_toml` is the parser's inverse: a stored course written back as this format.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import TypeGuard

from pace.formats import csvfile
from pace.rules import errors, model, names

TOP_KEYS = ("name", "slope", "rating", "hole_count", "holes", "tees")
TEE_KEYS = (
    "name", "colour", "slope", "rating", "women_slope", "women_rating", "par", "stroke_index",
    "length_m",
)  # fmt: skip
#: the most tee sets a course may have, and the longest tee set name or colour
MAX_TEES = 12
MAX_TEE_NAME = 40
HOLE_KEYS = ("number", "par", "stroke_index", "length_m", "walk_min", "bogey", "allotted")
#: World Handicap System slope ratings run from 55 to 155 (113: standard difficulty).
SLOPES = (55, 155)
#: the pars a hole may have; outside USUAL_PARS the course is read with a note (issue 14)
PARS = range(2, 7)
USUAL_PARS = range(3, 6)
#: a round is played on 9 or 18 holes (docs/formats.md §1)
HOLE_COUNTS = (9, 18)
GROUP_SIZES = range(1, 7)
#: the longest course name
MAX_NAME = 200

_HOLES_HEADER = re.compile(r"\s*\[\[\s*holes\s*\]\]")
_TEES_HEADER = re.compile(r"\s*\[\[\s*tees\s*\]\]")
_TOML_POSITION = re.compile(r"\s*\(at (?:line (\d+), column \d+|end of document)\)$")

_Report = Callable[[int | None, str | None, str], None]


def parse_course(text: str, filename: str, notes: list[str] | None = None) -> model.Course:
    """Return the course described by a course TOML text; raise ``FileFormatError`` if invalid.

    A course has 9 or 18 holes. A par of 2 or 6 is read, with a note in ``notes`` (when
    given): most such pars are typing slips.
    """
    text = text.removeprefix(csvfile.BOM)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise errors.FileFormatError([_syntax_problem(e, text, filename)]) from None
    except RecursionError:  # arrays or tables nested thousands deep: no course, a bomb
        raise errors.FileFormatError(
            [errors.Problem(filename, None, None, "not a course TOML: values nested too deeply")]
        ) from None

    problems: list[errors.Problem] = []

    def report(line: int | None, field: str | None, message: str) -> None:
        problems.append(errors.Problem(filename, line, field, message))

    for key in data:
        if key not in TOP_KEYS:
            report(
                _top_key_line(text, key),
                key,
                f"unknown key {key!r}{_did_you_mean(key, TOP_KEYS)}; "
                "expected name, slope, rating, hole_count, [[holes]] and [[tees]] tables",
            )

    name = data.get("name")
    if name is None:
        report(None, "name", 'the course has no name; expected name = "..." at the top')
    elif not isinstance(name, str) or not name.strip():
        report(
            _top_key_line(text, "name"),
            "name",
            f"name {name!r} is not a course name; expected a non-empty text in quotes",
        )
    else:
        try:  # the one spelling rounds and pages compare with: no control character
            name = names.canonical(name)
        except names.SpellingError as e:
            report(_top_key_line(text, "name"), "name", f"name {name[:60]!r} {e.reason}")
        else:
            if len(name) > MAX_NAME:
                report(_top_key_line(text, "name"), "name",
                       f"name is longer than {MAX_NAME} characters")  # fmt: skip

    slope = data.get("slope")
    if slope is not None and not (_is_number(slope) and SLOPES[0] <= slope <= SLOPES[1]):
        report(
            _top_key_line(text, "slope"),
            "slope",
            f"slope {slope!r} is not a slope rating; expected a number from {SLOPES[0]} to "
            f"{SLOPES[1]} (113 for a course of standard difficulty), or no slope",
        )
        slope = None
    rating = data.get("rating")
    if rating is not None and not (_is_number(rating) and 0 < rating < 100):
        report(
            _top_key_line(text, "rating"),
            "rating",
            f"rating {rating!r} is not a course rating; expected strokes such as 70.4 "
            "(the course's par when there is no rating)",
        )
        rating = None

    tables = data.get("holes")
    holes: list[model.Hole] = []
    if tables is None:
        report(None, "holes", "the course has no holes; expected 9 or 18 [[holes]] tables")
    elif not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        report(
            _top_key_line(text, "holes"),
            "holes",
            "holes must be [[holes]] tables, one per hole",
        )
    elif not tables:
        report(None, "holes", "the course has no holes; expected 9 or 18 [[holes]] tables")
    else:
        lines = _hole_lines(text, len(tables))
        read = [
            _read_hole(table, i, lines[i], len(tables), report) for i, table in enumerate(tables)
        ]
        _check_numbering(tables, lines, report)
        _check_stroke_indexes(tables, lines, report)
        holes = [hole for hole in read if hole is not None]
        declared = data.get("hole_count")
        if declared is not None and declared != len(tables):
            report(
                _top_key_line(text, "hole_count"),
                "hole_count",
                f"hole_count = {declared!r} but the course has {len(tables)} [[holes]] tables",
            )
        elif declared is None and len(tables) not in HOLE_COUNTS:
            report(
                None,
                "holes",
                f"the course has {len(tables)} [[holes]] tables; expected 9 or 18 (is a hole "
                f"missing or given twice?); a course that really has {len(tables)} holes says "
                f"so with hole_count = {len(tables)} at the top",
            )
        for i, hole in enumerate(read):
            if hole is not None and hole.par not in USUAL_PARS and notes is not None:
                where = f"line {lines[i]}" if lines[i] else f"hole {hole.number}"
                notes.append(
                    f"{filename}, {where}: hole {hole.number} has par {hole.par}; pars are "
                    "usually 3, 4 or 5: check it"
                )

    tee_sets: list[model.TeeSet] = []
    if "tees" in data:
        for key in ("slope", "rating"):
            if data.get(key) is not None:
                report(
                    _top_key_line(text, key),
                    key,
                    f"{key} is given at the top and the course has [[tees]] tables; a course "
                    f"with tee sets gives its {key} in each [[tees]] table",
                )
        hole_total = len(tables) if isinstance(tables, list) else 0
        tee_sets = _read_tee_sets(data["tees"], text, holes, hole_total, report)

    if problems:
        # top to bottom as in the file; problems of the whole course (no line) last
        problems.sort(key=lambda p: (p.line is None, p.line or 0))
        raise errors.FileFormatError(problems)
    assert isinstance(name, str)
    return model.Course(
        name.strip(),
        tuple(sorted(holes, key=lambda h: h.number)),
        slope=float(slope) if _is_number(slope) else None,
        rating=float(rating) if _is_number(rating) else None,
        tees=tuple(tee_sets),
    )


def _read_tee_sets(
    tables: object, text: str, holes: list[model.Hole], count: int, report: _Report
) -> list[model.TeeSet]:
    """Return the course's ``[[tees]]`` tables as tee sets, reporting their problems."""
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        report(_top_key_line(text, "tees"), "tees", "tees must be [[tees]] tables, one per set")
        return []
    if not tables:
        report(None, "tees", "tees is empty; expected one [[tees]] table per tee set, or none")
        return []
    lines = _table_lines(text, _TEES_HEADER, len(tables))
    if len(tables) > MAX_TEES:
        report(lines[MAX_TEES], "tees", f"a course has at most {MAX_TEES} tee sets")
        return []
    by_number = {h.number: h for h in holes}
    out: list[model.TeeSet] = []
    first: dict[str, int] = {}
    for i, table in enumerate(tables):
        tee = _read_tee_set(table, i, lines[i], by_number, count, report)
        if tee is None:
            continue
        key = model.tee_key(tee.name)
        if key in first:
            report(
                lines[i],
                "name",
                f"tees {tee.name!r} are given twice; first "
                + (f"on line {lines[first[key]]}" if lines[first[key]]
                   else f"in [[tees]] table {first[key] + 1}"),
            )
            continue
        first[key] = i
        out.append(tee)
    return out


def _read_tee_set(
    table: Mapping[str, object],
    index: int,
    line: int | None,
    holes: Mapping[int, model.Hole],
    count: int,
    report: _Report,
) -> model.TeeSet | None:
    """Return one ``[[tees]]`` table as a tee set, or None after reporting its problems."""
    counted = _Counter(report)
    name = table.get("name")
    label = f"[[tees]] table {index + 1}"
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_TEE_NAME:
        counted(
            line,
            "name",
            f"{label}: name {name!r} is not a tee set name; expected a text of 1 to "
            f"{MAX_TEE_NAME} characters in quotes, such as \"Yellow\"",
        )
        name = None
    else:
        try:
            name = names.canonical(name).strip()
        except names.SpellingError as e:
            counted(line, "name", f"{label}: name {name[:40]!r} {e.reason}")
            name = None
        else:
            label = f"tees {name!r}"
    for key in table:
        if key not in TEE_KEYS:
            counted(
                line,
                key,
                f"{label}: unknown key {key!r}{_did_you_mean(key, TEE_KEYS)}; "
                f"expected {', '.join(TEE_KEYS)}",
            )
    colour = table.get("colour")
    if colour is not None:
        if not isinstance(colour, str) or not colour.strip() or len(colour) > MAX_TEE_NAME:
            counted(
                line,
                "colour",
                f"{label}: colour {colour!r} is not a colour; expected a text of 1 to "
                f"{MAX_TEE_NAME} characters such as \"yellow\", or none",
            )
            colour = None
        else:
            try:
                colour = names.canonical(colour).strip()
            except names.SpellingError as e:
                counted(line, "colour", f"{label}: colour {colour[:40]!r} {e.reason}")
                colour = None
    ratings: dict[str, float | None] = {}
    for key in ("slope", "women_slope"):
        value = table.get(key)
        if value is not None and not (_is_number(value) and SLOPES[0] <= value <= SLOPES[1]):
            counted(line, key, f"{label}: {key} {value!r} is not a slope rating; expected a "
                    f"number from {SLOPES[0]} to {SLOPES[1]}, or none")  # fmt: skip
            value = None
        ratings[key] = float(value) if _is_number(value) else None
    for key in ("rating", "women_rating"):
        value = table.get(key)
        if value is not None and not (_is_number(value) and 0 < value < 100):
            counted(line, key, f"{label}: {key} {value!r} is not a course rating; expected "
                    "strokes such as 70.4, or none")  # fmt: skip
            value = None
        ratings[key] = float(value) if _is_number(value) else None
    where = (label, line, count, counted)
    pars = _per_hole(
        table.get("par"), "par", *where, lambda v: _is_int(v) and v in PARS,
        "a par of 3, 4 or 5 (2–6 read)",
    )  # fmt: skip
    indexes = _per_hole(
        table.get("stroke_index"), "stroke_index", *where,
        lambda v: _is_int(v) and 1 <= v <= count, f"a whole number 1–{count}",
    )  # fmt: skip
    lengths = _per_hole(
        table.get("length_m"), "length_m", *where, lambda v: _is_number(v) and v >= 0,
        "metres, 0 or more",
    )  # fmt: skip
    if indexes and holes:
        seen: dict[float, int] = {}
        for number in sorted(holes):
            si: float | None = indexes.get(number, holes[number].stroke_index)
            if si is None:
                continue
            if si in seen:
                counted(
                    line,
                    "stroke_index",
                    f"{label}: stroke_index {si} is given to hole {seen[si]} and hole {number} "
                    "from these tees; each index is used once",
                )
                break
            seen[si] = number
    if counted.count or name is None:
        return None
    par = {n: int(v) for n, v in pars.items() if n not in holes or holes[n].par != v}
    stroke_index = {
        n: int(v) for n, v in indexes.items() if n not in holes or holes[n].stroke_index != v
    }
    return model.TeeSet(
        name,
        colour if isinstance(colour, str) else None,
        ratings["slope"],
        ratings["rating"],
        ratings["women_slope"],
        ratings["women_rating"],
        par=par,
        stroke_index=stroke_index,
        length_m={n: float(v) for n, v in lengths.items()},
    )


def _per_hole(
    value: object,
    key: str,
    label: str,
    line: int | None,
    count: int,
    report: _Report,
    valid: Callable[[object], bool],
    expected: str,
) -> dict[int, float]:
    """Return a tee set's figures by hole number: a list of one per hole, or a table of the
    holes that differ ``{ 7 = 5 }``; report what is not."""
    if value is None:
        return {}
    shape = (f"expected one value per hole in a list of {count}, or a table of the holes "
             f"that differ such as {{ 7 = 5 }}")  # fmt: skip
    items: list[tuple[object, object]]
    if isinstance(value, list):
        if len(value) != count:
            report(line, key, f"{label}: {key} has {len(value)} values for {count} holes; {shape}")
            return {}
        items = [(str(i + 1), v) for i, v in enumerate(value)]
    elif isinstance(value, dict):
        items = list(value.items())
    else:
        report(line, key, f"{label}: {key} {value!r} is not a list or a table; {shape}")
        return {}
    out: dict[int, float] = {}
    for hole, v in items:
        if not (isinstance(hole, str) and hole.isascii() and hole.isdigit()) or not (
            1 <= int(hole) <= count
        ):
            report(line, key, f"{label}: {key} names hole {str(hole)[:20]!r}; expected a hole "
                   f"number 1–{count}")  # fmt: skip
            return {}
        if not valid(v):
            report(line, key, f"{label}: {key} {v!r} of hole {int(hole)} is not allowed; "
                   f"expected {expected}")  # fmt: skip
            return {}
        out[int(hole)] = v  # type: ignore[assignment]
    return out


def load_course(path: str | os.PathLike[str], notes: list[str] | None = None) -> model.Course:
    """Return the course of the course TOML file at ``path``."""
    return parse_course(csvfile.read_text(path), str(path), notes)


def course_toml(course: model.Course, filename: str | None = None) -> str:
    """Return ``course`` as course TOML text that :func:`parse_course` reads back to it.

    Written by hand: the format is one table per hole of numbers and one inline table, which
    needs no TOML writer (and no new dependency). The text is read back by the parser before it
    is returned, so a course the format cannot hold (a hole the parser would refuse) raises its
    ``FileFormatError`` here rather than leaving a file the import refuses; one validation.
    """
    lines = [f"name = {_toml_string(course.name)}"]
    if len(course.holes) not in HOLE_COUNTS:
        lines.append(f"hole_count = {len(course.holes)}")
    if course.slope is not None:
        lines.append(f"slope = {_toml_number(course.slope)}")
    if course.rating is not None:
        lines.append(f"rating = {_toml_number(course.rating)}")
    for t in course.tees:
        lines += ["", "[[tees]]", f"name = {_toml_string(t.name)}"]
        if t.colour is not None:
            lines.append(f"colour = {_toml_string(t.colour)}")
        for key in ("slope", "rating", "women_slope", "women_rating"):
            value = getattr(t, key)
            if value is not None:
                lines.append(f"{key} = {_toml_number(value)}")
        for key, figures in (("par", t.par), ("stroke_index", t.stroke_index),
                             ("length_m", t.length_m)):  # fmt: skip
            if figures:
                pairs = ", ".join(f"{n} = {_toml_number(v)}" for n, v in sorted(figures.items()))
                lines.append(f"{key} = {{ {pairs} }}")
    for h in course.holes:
        lines += ["", "[[holes]]", f"number = {h.number}", f"par = {h.par}"]
        if h.stroke_index is not None:
            lines.append(f"stroke_index = {h.stroke_index}")
        if h.length_m is not None:
            lines.append(f"length_m = {_toml_number(h.length_m)}")
        if h.walk:
            lines.append(f"walk_min = {_toml_minutes(h.walk)}")
        if h.bogey is not None:
            lines.append(f"bogey = {h.bogey}")
        if h.allotted:
            sizes = ", ".join(f"{k} = {_toml_minutes(v)}" for k, v in sorted(h.allotted.items()))
            lines.append(f"allotted = {{ {sizes} }}")
    text = "\n".join(lines) + "\n"
    parse_course(text, filename or f"{course.name}.toml")
    return text


def _toml_string(text: str) -> str:
    """Return ``text`` as a TOML basic string: JSON's escapes are TOML's, but for DEL."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_number(value: float) -> str:
    """Return a number as TOML: whole numbers without a decimal point, others exactly."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _toml_minutes(d: timedelta) -> str:
    """Return a duration in minutes as the parser reads it (to the second)."""
    return _toml_number(d.total_seconds() / 60)


def _read_hole(
    table: Mapping[str, object], index: int, line: int | None, count: int, report: _Report
) -> model.Hole | None:
    """Return one hole table as a ``Hole``, or None after reporting its problems."""
    counted = _Counter(report)
    number = table.get("number")
    label = _label(table, index, count)
    if number is None:
        counted(line, "number", f"{label} has no number; expected number = 1 to {count}")
    elif _valid(number, count) is None:
        counted(
            line,
            "number",
            f"{label}: number {number!r} is not a hole number; with {count} holes "
            f"the numbers are 1–{count}",
        )

    for key in table:
        if key not in HOLE_KEYS:
            counted(
                line,
                key,
                f"{label}: unknown key {key!r}{_did_you_mean(key, HOLE_KEYS)}; "
                f"expected {', '.join(HOLE_KEYS)}",
            )

    par = table.get("par")
    if par is None:
        counted(line, "par", f"{label} has no par; expected par = 3, 4 or 5")
    elif not _is_int(par) or par not in PARS:
        counted(line, "par", f"{label}: par {par!r} is not allowed; expected 3, 4 or 5 (2–6 read)")

    stroke_index = table.get("stroke_index")
    if stroke_index is not None and (not _is_int(stroke_index) or not 1 <= stroke_index <= count):
        counted(
            line,
            "stroke_index",
            f"{label}: stroke_index {stroke_index!r} is not allowed; "
            f"expected a whole number 1–{count}, each once",
        )

    length = table.get("length_m")
    if length is not None and not (_is_number(length) and length >= 0):
        counted(
            line,
            "length_m",
            f"{label}: length_m {length!r} is not a length; expected metres, 0 or more",
        )

    walk = table.get("walk_min")
    if walk is not None and not (_is_number(walk) and walk >= 0):
        counted(
            line,
            "walk_min",
            f"{label}: walk_min {walk!r} is not a number of minutes; expected 0 or more",
        )

    bogey = table.get("bogey")
    if bogey is not None and not (
        _is_int(bogey) and _is_int(par) and par in PARS and par <= bogey <= par + 2
    ):
        counted(
            line,
            "bogey",
            f"{label}: bogey {bogey!r} is not allowed; expected a whole number from the par "
            "to par + 2 (default par + 1)",
        )

    allotted = _read_allotted(table.get("allotted"), label, line, counted)

    if counted.count:
        return None
    assert _is_int(number) and _is_int(par)
    return model.Hole(
        number=number,
        par=par,
        stroke_index=stroke_index if _is_int(stroke_index) else None,
        length_m=float(length) if _is_number(length) else None,
        walk=_from_minutes(walk) if _is_number(walk) else timedelta(0),
        allotted=allotted,
        bogey=bogey if _is_int(bogey) else None,
    )


def _read_allotted(
    value: object, label: str, line: int | None, report: _Report
) -> dict[int, timedelta]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        report(
            line,
            "allotted",
            f"{label}: allotted {value!r} is not a table; "
            "expected minutes per group size, such as { 2 = 12, 3 = 14, 4 = 15 }",
        )
        return {}
    allotted: dict[int, timedelta] = {}
    for key, minutes in value.items():
        if not (key.isascii() and key.isdigit()) or int(key) not in GROUP_SIZES:
            report(
                line,
                "allotted",
                f"{label}: allotted key {key!r} is not a group size; "
                f"expected 2, 3 or 4 (1 to {GROUP_SIZES[-1]})",
            )
        elif not (_is_number(minutes) and minutes > 0):
            report(
                line,
                "allotted",
                f"{label}: allotted minutes {minutes!r} for groups of {key} is not allowed; "
                "expected a number of minutes above 0",
            )
        else:
            allotted[int(key)] = _from_minutes(minutes)
    return dict(sorted(allotted.items()))


def _check_numbering(
    tables: list[dict[str, object]], lines: list[int | None], report: _Report
) -> None:
    """Report hole numbers given twice and numbers of 1..N that no hole has."""
    first_index: dict[int, int] = {}
    for i, number in enumerate(_valid(t.get("number"), len(tables)) for t in tables):
        if number is None:
            continue  # already reported by _read_hole
        if number in first_index:
            report(
                lines[i],
                "number",
                f"hole {number} is given twice; first {_where(first_index[number], lines)}",
            )
        else:
            first_index[number] = i
    missing = [n for n in range(1, len(tables) + 1) if n not in first_index]
    if missing:
        report(
            None,
            "number",
            f"hole numbers must be 1–{len(tables)} each once; missing "
            + ", ".join(str(n) for n in missing),
        )


def _check_stroke_indexes(
    tables: list[dict[str, object]], lines: list[int | None], report: _Report
) -> None:
    """Report a stroke index given to more than one hole."""
    first_index: dict[int, int] = {}
    for i, table in enumerate(tables):
        stroke_index = _valid(table.get("stroke_index"), len(tables))
        if stroke_index is None:
            continue
        other = first_index.setdefault(stroke_index, i)
        if other != i:
            report(
                lines[i],
                "stroke_index",
                f"{_label(table, i, len(tables))}: stroke_index {stroke_index} is also given to "
                f"{_label(tables[other], other, len(tables))} ({_where(other, lines)}); "
                "each index is used once",
            )


def _valid(value: object, count: int) -> int | None:
    """Return ``value`` if it is a whole number 1..count, else None."""
    return value if _is_int(value) and 1 <= value <= count else None


def _label(table: Mapping[str, object], index: int, count: int) -> str:
    """Return how a message names a hole table: ``hole 7``, or its position if unnumbered."""
    number = _valid(table.get("number"), count)
    return f"hole {number}" if number is not None else f"[[holes]] table {index + 1}"


class _Counter:
    """A report function that counts the problems it passes on."""

    def __init__(self, report: _Report) -> None:
        self.report = report
        self.count = 0

    def __call__(self, line: int | None, field: str | None, message: str) -> None:
        self.count += 1
        self.report(line, field, message)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[float]:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _from_minutes(value: float) -> timedelta:
    return timedelta(seconds=round(value * 60))


def _where(index: int, lines: list[int | None]) -> str:
    line = lines[index]
    return f"on line {line}" if line is not None else f"in [[holes]] table {index + 1}"


def _did_you_mean(key: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _hole_lines(text: str, count: int) -> list[int | None]:
    """Return the line of each ``[[holes]]`` header, or Nones if they cannot be matched."""
    return _table_lines(text, _HOLES_HEADER, count)


def _table_lines(text: str, header: re.Pattern[str], count: int) -> list[int | None]:
    """Return the line of each table header, or Nones if they cannot be matched."""
    lines = [
        number for number, line in enumerate(text.splitlines(), start=1) if header.match(line)
    ]
    return list(lines) if len(lines) == count else [None] * count


def _top_key_line(text: str, key: str) -> int | None:
    """Return the line of a top-level ``key = ...``, before the first table header."""
    pattern = re.compile(rf"\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("["):
            return None
        if pattern.match(line):
            return number
    return None


def _syntax_problem(error: tomllib.TOMLDecodeError, text: str, filename: str) -> errors.Problem:
    message = str(error)
    match = _TOML_POSITION.search(message)
    line = None
    if match is not None:
        message = message[: match.start()]
        line = int(match[1]) if match[1] else max(1, len(text.splitlines()))
    message = message[:1].lower() + message[1:]
    return errors.Problem(filename, line, None, f"not valid TOML: {message}")

"""The course form as the course TOML ``pace import course`` reads: one validation, not two.

The form's fields are written as the TOML text of docs/formats.md §1 (one ``[[holes]]`` table
per hole, each key on its own line) and parsed by ``pace.formats.parse_course``: its problems,
which name a line and a field, are put back beside the form's field at fault (``holes.3.par``)
with the parser's own message. A value typed in a number field that is not a number is written
as a TOML string, so the parser's sentence about it ("par 'x' is not allowed") is the one shown.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pace.rules import errors, model
from pace.rules.errors import Label, said
from pace.web.committee import problems
from pace.web.i18n import field_label

#: the hole counts the form offers (a course of 6 or 12 holes says so with ``hole_count``)
HOLE_COUNTS = (6, 9, 12, 18)
#: the keys of a hole the form edits (``number`` is the row's; ``allotted`` stays the file's)
HOLE_FIELDS = ("par", "stroke_index", "length_m", "bogey", "walk_min")
TOP_FIELDS = ("name", "slope", "rating")
#: the fields of a tee set the form edits (``par``, ``stroke_index``, ``length_m``: the holes
#: that differ, written ``5=5, 7=4``; lengths also one per hole, ``350, 380, …``)
TEE_FIELDS = ("name", "colour", "slope", "rating", "women_slope", "women_rating")
TEE_HOLE_FIELDS = ("par", "stroke_index", "length_m")
#: the most tee sets the form takes (the parser's limit)
MAX_TEE_SETS = 12
#: the longest value of a field of the form (a course name, a number as typed)
MAX_VALUE = 200
FORM = "course form"

_NUMBER = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)?")


class FormError(errors.PaceError, ValueError):
    """The course form's payload is not a form at all (not its problems: those are kept)."""

    code = "invalid_payload"


def _longer(field: str, n: int) -> errors.Sentence:
    return said("refusal.course_form.long", "{field}: at most {n} characters", field=Label(field),
                n=n)  # fmt: skip


@dataclass(frozen=True)
class CourseForm:
    """The course form as TOML text, and which line is which field."""

    text: str
    #: line → the form's field of a top key (``name``), or the index of a hole's table
    top_lines: dict[int, str]
    hole_lines: dict[int, int]
    #: line → the index of a tee set's table
    tee_lines: dict[int, int] = field(default_factory=dict)


def _value(raw: object, field: str) -> str | None:
    """Return a form value as a TOML value (None: left empty, the key is not written)."""
    if raw is None or isinstance(raw, bool):
        if isinstance(raw, bool):
            raise FormError(said("refusal.course_form.boolean", "{field}: expected a number or a "
                                 "text, not true/false", field=Label(field)),
                            field=field)  # fmt: skip
        return None
    if isinstance(raw, int | float):
        if isinstance(raw, float) and not math.isfinite(raw):
            raise FormError(said("refusal.course_form.finite", "{field}: expected a finite "
                                 "number", field=Label(field)), field=field)  # fmt: skip
        return json.dumps(raw)
    if not isinstance(raw, str):
        raise FormError(said("refusal.course_form.value", "{field}: expected a number or a text",
                             field=Label(field)), field=field)  # fmt: skip
    text = raw.strip()
    if len(text) > MAX_VALUE:
        raise FormError(_longer(field, MAX_VALUE), field=field)
    if not text:
        return None
    if _NUMBER.fullmatch(text):
        return text.replace(",", ".").lstrip("+")
    # not a number: a TOML string, so the parser names it in its own sentence
    return json.dumps(text)


def to_toml(form: object) -> CourseForm:
    """Return the course form ``{name, slope, rating, hole_count, holes: [{par, …}]}`` as
    course TOML text; ``FormError`` if it is not shaped as the form at all."""
    if not isinstance(form, Mapping):
        raise FormError("expected the course form as a JSON object")
    unknown = [k for k in form if k not in (*TOP_FIELDS, "hole_count", "holes", "tees")]
    if unknown:
        raise FormError(f"unknown field {str(unknown[0])[:40]!r}", field=str(unknown[0])[:40])
    count = form.get("hole_count")
    if isinstance(count, str) and count.strip().isdigit():
        count = int(count.strip())
    if count not in HOLE_COUNTS or isinstance(count, bool):
        raise FormError("hole_count: expected 6, 9, 12 or 18 holes", field="hole_count")
    holes = form.get("holes")
    if not isinstance(holes, list) or len(holes) != count:
        raise FormError(f"holes: expected {count} holes, one per row", field="holes")
    lines: list[str] = []
    top_lines: dict[int, str] = {}
    name = form.get("name")
    if name is not None and not isinstance(name, str):
        raise FormError("name: expected a text", field="name")
    if isinstance(name, str) and len(name) > MAX_VALUE:
        raise FormError(_longer("name", MAX_VALUE), field="name")
    if name is not None and name.strip():
        lines.append(f"name = {json.dumps(name.strip())}")
        top_lines[len(lines)] = "name"
    for key in ("slope", "rating"):
        value = _value(form.get(key), key)
        if value is not None:
            lines.append(f"{key} = {value}")
            top_lines[len(lines)] = key
    lines.append(f"hole_count = {count}")
    top_lines[len(lines)] = "hole_count"
    tee_lines = _tee_tables(form.get("tees"), lines)
    hole_lines: dict[int, int] = {}
    for i, hole in enumerate(holes):
        if not isinstance(hole, Mapping):
            raise FormError(f"holes: row {i + 1} is not a hole", field=f"holes.{i}")
        extra = [k for k in hole if k not in HOLE_FIELDS]
        if extra:
            raise FormError(f"holes: unknown field {str(extra[0])[:40]!r}", field=f"holes.{i}")
        lines.append("")
        lines.append("[[holes]]")
        hole_lines[len(lines)] = i
        lines.append(f"number = {i + 1}")
        for key in HOLE_FIELDS:
            value = _value(hole.get(key), f"holes.{i}.{key}")
            if value is not None:
                lines.append(f"{key} = {value}")
    return CourseForm("\n".join(lines) + "\n", top_lines, hole_lines, tee_lines)


#: a hole's figure as the form writes it: ``5=5`` (hole 5, par 5)
_PAIR = re.compile(r"\s*([0-9]{1,2})\s*[=:]\s*([0-9]+(?:[.,][0-9]+)?)\s*")


def _by_hole(raw: object, field: str) -> str | None:
    """Return a tee set's per-hole field (``5=5, 7=4``, or one value per hole ``350, 380``)
    as a TOML table or list; a text that is neither goes as a TOML string, for the parser's
    sentence."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if not isinstance(raw, str):
        raise FormError(said("refusal.course_form.pairs", "{field}: expected a text such as "
                             "5=5, 7=4", field=Label(field)), field=field)  # fmt: skip
    if len(raw) > 4 * MAX_VALUE:
        raise FormError(_longer(field, 4 * MAX_VALUE), field=field)
    parts = [p for p in raw.replace(";", ",").split(",")]
    pairs = [_PAIR.fullmatch(p) for p in parts]
    if all(pairs):
        return "{ " + ", ".join(f"{m[1]} = {m[2].replace(',', '.')}" for m in pairs if m) + " }"
    if all(_NUMBER.fullmatch(p.strip()) for p in parts):
        return "[" + ", ".join(p.strip().lstrip("+") for p in parts) + "]"
    return json.dumps(raw.strip())


def _tee_tables(tees: object, lines: list[str]) -> dict[int, int]:
    """Write the form's tee sets as ``[[tees]]`` tables in ``lines``; return each table's
    header line → the tee set's index in the form."""
    if tees is None:
        return {}
    if not isinstance(tees, list) or len(tees) > MAX_TEE_SETS:
        raise FormError(f"tees: expected a list of at most {MAX_TEE_SETS} tee sets", field="tees")
    tee_lines: dict[int, int] = {}
    for i, tee in enumerate(tees):
        if not isinstance(tee, Mapping):
            raise FormError(f"tees: row {i + 1} is not a tee set", field=f"tees.{i}")
        extra = [k for k in tee if k not in (*TEE_FIELDS, *TEE_HOLE_FIELDS)]
        if extra:
            raise FormError(f"tees: unknown field {str(extra[0])[:40]!r}", field=f"tees.{i}")
        lines.append("")
        lines.append("[[tees]]")
        tee_lines[len(lines)] = i
        for key in TEE_FIELDS:
            raw = tee.get(key)
            if key in ("name", "colour"):
                if raw is not None and not isinstance(raw, str):
                    raise FormError(f"tees.{i}.{key}: expected a text", field=f"tees.{i}.{key}")
                if isinstance(raw, str) and len(raw) > MAX_VALUE:
                    raise FormError(_longer(f"tees.{i}.{key}", MAX_VALUE),
                                    field=f"tees.{i}.{key}")  # fmt: skip
                value = json.dumps(raw.strip()) if isinstance(raw, str) and raw.strip() else None
            else:
                value = _value(raw, f"tees.{i}.{key}")
            if value is not None:
                lines.append(f"{key} = {value}")
        for key in TEE_HOLE_FIELDS:
            value = _by_hole(tee.get(key), f"tees.{i}.{key}")
            if value is not None:
                lines.append(f"{key} = {value}")
    return tee_lines


def field_of(problem: errors.Problem, form: CourseForm) -> str:
    """Return the form's field a problem of the parser is about: ``name``, ``holes.3.par``,
    or ``holes`` (the course as a whole)."""
    if problem.line is not None and problem.line in form.hole_lines:
        index = form.hole_lines[problem.line]
        return f"holes.{index}.{problem.field}" if problem.field else f"holes.{index}"
    if problem.line is not None and problem.line in form.tee_lines:
        index = form.tee_lines[problem.line]
        return f"tees.{index}.{problem.field}" if problem.field else f"tees.{index}"
    if problem.line is not None and problem.line in form.top_lines:
        return form.top_lines[problem.line]
    return problem.field or "holes"


#: a place the parser names by the line of the TOML text the form was written as
_ON_LINE = re.compile(r"(\s\()?(on line|à la ligne) (\d+)(\))?")


def form_words(message: str, form: CourseForm) -> str:
    """Return a message of the parser in the form's words: a line of the TOML text the form
    was written as (which a form user never sees) becomes the hole or field it holds.

    >>> form = CourseForm("", {2: "slope"}, {6: 0, 10: 1})
    >>> form_words("hole 2: stroke_index 1 is also given to hole 1 (on line 6); ...", form)
    'hole 2: stroke_index 1 is also given to hole 1; ...'
    >>> form_words("hole 2 is given twice; first on line 10", form)
    'hole 2 is given twice; first in the row of hole 2'
    >>> form_words("trou 2 : premier à la ligne 2", form)
    'trou 2 : premier dans le champ slope'
    """
    french = "à la ligne" in message

    def place(m: re.Match[str]) -> str:
        line = int(m[3])
        if line in form.hole_lines:
            if m[1] and m[4]:  # "(on line 6)" after the hole it names: the hole says it
                return ""
            row = form.hole_lines[line] + 1
            return f"dans la ligne du trou {row}" if french else f"in the row of hole {row}"
        if line in form.top_lines:
            name = form.top_lines[line]
            where = f"dans le champ {name}" if french else f"in the {name} field"
            return f" ({where})" if m[1] and m[4] else where
        return m[0]

    return _ON_LINE.sub(place, message)


def problems_of(
    e: errors.FileFormatError, form: CourseForm | None = None, lang: str = "en"
) -> list[dict[str, Any]]:
    """Return a refused file's problems as the page shows them: where (line, field, its
    label in the page's language ``lang`` (issue 47), and the form's field when it came from
    the form), the parser's message in ``lang``
    (:func:`pace.web.committee.problems.translate`), and the CLI's line (English, as
    ``pace import`` prints it). From the form, a place the parser names by a line of the
    TOML text is said as the form's hole or field (:func:`form_words`)."""
    return [
        {
            "line": p.line,
            "field": p.field,
            "field_label": field_label(p.field, lang) if p.field else None,
            "form_field": field_of(p, form) if form is not None else None,
            "message": (
                form_words(problems.translate(p.message, lang), form)
                if form is not None
                else problems.translate(p.message, lang)
            ),
            "text": str(p),
        }
        for p in e.problems
    ]


def to_form(course: model.Course) -> dict[str, Any]:
    """Return a stored course as the form's values (to edit it)."""
    return {
        "name": course.name,
        "slope": course.slope,
        "rating": course.rating,
        "hole_count": len(course.holes),
        "tees": [
            {
                "name": t.name,
                "colour": t.colour,
                "slope": t.slope,
                "rating": t.rating,
                "women_slope": t.women_slope,
                "women_rating": t.women_rating,
                "par": _pairs(t.par),
                "stroke_index": _pairs(t.stroke_index),
                "length_m": _pairs(t.length_m),
            }
            for t in course.tees
        ],
        "holes": [
            {
                "par": h.par,
                "stroke_index": h.stroke_index,
                "length_m": h.length_m,
                "bogey": h.bogey,
                "walk_min": h.walk.total_seconds() / 60 if h.walk else None,
            }
            for h in course.holes
        ],
    }


def _pairs(figures: Mapping[int, float]) -> str:
    """Return a tee set's per-hole figures as the form writes them: ``5=5, 7=4``."""
    return ", ".join(f"{n}={_number(v)}" for n, v in sorted(figures.items()))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)

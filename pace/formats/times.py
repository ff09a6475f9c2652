"""Hole times CSV (paper timing sheets): one row per hole a group was seen to complete.

Format: docs/formats.md §3. Columns ``group``, ``hole``, ``completed`` (French
headers ``groupe``/``partie``, ``trou``, ``fin``/``heure``/``terminé`` are accepted).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, tzinfo

from pace.formats import csvfile
from pace.rules import errors, model
from pace.rules.allotted import playing_order

COLUMNS = (
    csvfile.Column("group", ("groupe", "partie"), required=True),
    csvfile.Column("hole", ("trou",), required=True),
    csvfile.Column("completed", ("fin", "heure", "terminé", "time"), required=True),
)

_CLOCK = re.compile(r"([0-9]{1,2})(?::([0-9]{2})(?::([0-9]{2}))?|[hH]([0-9]{2})?)")


def parse_clock(text: str) -> time:
    """Return the wall-clock time written as ``HH:MM``, ``HH:MM:SS``, ``H:MM`` or ``10h42``.

    >>> parse_clock("08:10")
    datetime.time(8, 10)
    >>> parse_clock("9:05:30")
    datetime.time(9, 5, 30)
    >>> parse_clock("10h42")
    datetime.time(10, 42)
    >>> parse_clock("25:10")
    Traceback (most recent call last):
    ...
    ValueError: '25:10' is not a time; hours are 0–23, minutes and seconds 0–59
    """
    match = _CLOCK.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a time; expected HH:MM or HH:MM:SS")
    hour, minute, second, french_minute = match.groups()
    try:
        return time(int(hour), int(minute or french_minute or 0), int(second or 0))
    except ValueError:
        raise ValueError(
            f"{text!r} is not a time; hours are 0–23, minutes and seconds 0–59"
        ) from None


def to_utc(day: date, clock: time, tz: tzinfo) -> datetime:
    """Return the UTC instant of wall-clock time ``clock`` on ``day`` in time zone ``tz``."""
    return datetime.combine(day, clock, tzinfo=tz).astimezone(UTC)


def hole_range(course: model.Course) -> str:
    """Return the course's hole numbers for a message, such as ``1–18``."""
    numbers = course.hole_numbers
    if not numbers:
        return "none"
    if list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]}"
    return ", ".join(str(n) for n in numbers)


def parse_hole_number(text: str) -> int:
    """Return a hole number (a whole number from 1); raise ``ValueError`` otherwise."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError(text)
    return int(text)


def parse_times(
    text: str,
    filename: str,
    *,
    day: date,
    tz: tzinfo,
    course: model.Course | None = None,
    groups: Sequence[model.Group] | None = None,
) -> tuple[model.HoleCompletion, ...]:
    """Return a hole times CSV's completions in file order; raise ``FileFormatError`` if invalid.

    With ``course``, every hole must be on it; with ``groups`` (the draw), every group
    must be in it and no hole may be completed before the group's scheduled start. With
    both, a group's holes must come in its playing order: a hole completed before one the
    group plays earlier is refused, naming both lines (issue 14).
    """
    table, problems = csvfile.read_table(text, filename, COLUMNS)
    draw = {g.id: g for g in groups} if groups is not None else None
    seen: dict[tuple[str, int], int] = {}
    completions: list[model.HoleCompletion] = []
    lines: dict[tuple[str, int], tuple[int, str]] = {}  # (group, hole) -> (line, as written)

    def problem(line: int, field: str, message: str) -> None:
        problems.append(errors.Problem(filename, line, field, message))

    for row in table.rows:
        group_id, hole_text, clock_text = row.get("group"), row.get("hole"), row.get("completed")
        group = None
        if not group_id:
            problem(row.line, "group", "group is empty; expected the group id as in the draw")
        elif draw is not None:
            group = draw.get(group_id)
            if group is None:
                problem(row.line, "group", f"group {group_id!r} is not in the draw")

        hole = None
        if not hole_text:
            problem(row.line, "hole", "hole is empty; expected the number of the hole completed")
        else:
            try:
                hole = parse_hole_number(hole_text)
            except ValueError:
                expected = hole_range(course) if course is not None else "a whole number from 1"
                problem(
                    row.line,
                    "hole",
                    f"hole {hole_text!r} is not a hole number; expected {expected}",
                )
            else:
                if course is not None and not course.has_hole(hole):
                    problem(
                        row.line,
                        "hole",
                        f"hole {hole} does not exist on this course; "
                        f"holes are {hole_range(course)}",
                    )
                    hole = None

        at = None
        if not clock_text:
            problem(row.line, "completed", "completed is empty; expected HH:MM or HH:MM:SS")
        else:
            try:
                at = to_utc(day, parse_clock(clock_text), tz)
            except ValueError:
                problem(
                    row.line,
                    "completed",
                    f"completed {clock_text!r} is not a time; expected HH:MM or HH:MM:SS",
                )
            else:
                if group is not None and at < group.start:
                    start = group.start.astimezone(tz).strftime("%H:%M")
                    problem(
                        row.line,
                        "completed",
                        f"completed {clock_text!r} is before the scheduled start of "
                        f"group {group_id!r} ({start})",
                    )
                    at = None  # refused already: not also out of order

        if group_id and hole is not None:
            first = seen.setdefault((group_id, hole), row.line)
            if first != row.line:
                problem(
                    row.line,
                    "hole",
                    f"group {group_id!r} hole {hole} is already timed on line {first}; "
                    "keep one time per hole",
                )
            elif at is not None:
                completions.append(model.HoleCompletion(group_id, hole, at))
                lines[(group_id, hole)] = (row.line, clock_text)

    if course is not None and draw is not None:
        problems.extend(out_of_order(completions, course, draw, filename, lines))
    if problems:
        raise errors.FileFormatError(problems)
    return tuple(completions)


def out_of_order(
    completions: Sequence[model.HoleCompletion],
    course: model.Course,
    draw: dict[str, model.Group],
    filename: str,
    lines: dict[tuple[str, int], tuple[int, str]],
    logged: Sequence[model.HoleCompletion] = (),
    tz: tzinfo | None = None,
) -> list[errors.Problem]:
    """Return a problem for each completion earlier than one its group plays before it.

    A group plays its holes in order from its tee, so hole 4 completed at 09:02 and hole 3
    at 09:10 cannot both be right. ``logged`` are completions already stored (a re-import
    of another sheet): they count, named by their time instead of a line.
    """
    problems = []
    by_group: dict[str, list[tuple[int, model.HoleCompletion, bool]]] = {}
    for c in completions:
        group = draw.get(c.group)
        if group is None or not course.has_hole(c.hole):
            continue
        order = playing_order(course, group.tee)
        by_group.setdefault(c.group, []).append((order.index(c.hole), c, True))
    for c in logged:
        if c.group in by_group and course.has_hole(c.hole):
            if (c.group, c.hole) in lines:
                continue
            order = playing_order(course, draw[c.group].tee)
            by_group[c.group].append((order.index(c.hole), c, False))
    for group_id, items in by_group.items():
        items.sort(key=lambda x: x[0])
        for i, (_, c, mine) in enumerate(items):
            earlier = [x for x in items[:i] if x[1].at > c.at]
            if not earlier or not mine:
                continue
            _, first, first_mine = max(earlier, key=lambda x: x[1].at)
            line, text = lines[(group_id, c.hole)]
            if first_mine:
                where = f"hole {first.hole} on line {lines[(group_id, first.hole)][0]} at "
                where += repr(lines[(group_id, first.hole)][1])
            else:
                shown = first.at.astimezone(tz).strftime("%H:%M:%S") if tz else first.at
                where = f"hole {first.hole} already logged at {shown}"
            problems.append(
                errors.Problem(
                    filename,
                    line,
                    "completed",
                    f"group {group_id!r} completed hole {c.hole} at {text!r}, before {where}, "
                    f"which it plays earlier (from tee {draw[group_id].tee}); check both times",
                )
            )
    return problems


def load_times(
    path: str | os.PathLike[str],
    *,
    day: date,
    tz: tzinfo,
    course: model.Course | None = None,
    groups: Sequence[model.Group] | None = None,
) -> tuple[model.HoleCompletion, ...]:
    """Return the completions of the hole times CSV file at ``path``."""
    return parse_times(
        csvfile.read_text(path), str(path), day=day, tz=tz, course=course, groups=groups
    )

from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from pace import formats
from pace.rules import errors, model

DATA = Path(__file__).parents[2] / "data" / "formats"
DAY = date(2025, 6, 14)
TZ = ZoneInfo("America/Toronto")  # UTC-4 in June
HEADER = "group,hole,completed\n"
COURSE = model.Course("Louiseville", tuple(model.Hole(n, 4) for n in range(1, 19)))
GROUPS = (
    model.Group("1", datetime(2025, 6, 14, 12, 0, tzinfo=UTC), 1),
    model.Group("2", datetime(2025, 6, 14, 12, 10, tzinfo=UTC), 1),
)


def utc(hour: int, minute: int, second: int = 0) -> datetime:
    return datetime(2025, 6, 14, hour, minute, second, tzinfo=UTC)


def problems_of(text: str, **kwargs: object) -> list[errors.Problem]:
    with pytest.raises(errors.FileFormatError) as info:
        formats.parse_times(text, "times.csv", day=DAY, tz=TZ, **kwargs)
    assert all(p.file == "times.csv" for p in info.value.problems)
    return list(info.value.problems)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("08:10", time(8, 10)),
        ("8:05", time(8, 5)),
        ("13:42:07", time(13, 42, 7)),
        (" 09:00 ", time(9, 0)),
        ("10h42", time(10, 42)),
        ("10H05", time(10, 5)),
        ("10h", time(10, 0)),
        ("0:00", time(0, 0)),
        ("23:59:59", time(23, 59, 59)),
    ],
    ids=[
        "hh-mm",
        "h-mm",
        "hh-mm-ss",
        "spaces",
        "french",
        "french-capital",
        "french-hour",
        "midnight",
        "last-second",
    ],
)
def test_parse_clock_accepts_the_usual_ways_to_write_a_time(text, expected):
    assert formats.parse_clock(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "8", "08:1", "24:00", "12:60", "12:00:60", "8.30", "08:00 AM", "123:00", "٠٨:٠٠"],
    ids=[
        "empty",
        "hour-only",
        "one-minute-digit",
        "24h",
        "minute-60",
        "second-60",
        "dot",
        "am",
        "three-digit-hour",
        "arabic-digits",
    ],
)
def test_parse_clock_refuses_what_is_not_a_time_of_day(text):
    with pytest.raises(ValueError, match=r"is not a time"):
        formats.parse_clock(text)


def test_times_file_rows_come_back_in_file_order_as_utc_instants():
    completions = formats.load_times(
        DATA / "times.csv",
        day=DAY,
        tz=TZ,
        course=COURSE,
        groups=GROUPS
        + (
            model.Group("3", utc(12, 20), 1),
            model.Group("4", utc(12, 30), 1),
        ),
    )

    assert len(completions) == 10
    assert completions[0] == model.HoleCompletion("1", 1, utc(12, 13))
    assert completions[1] == model.HoleCompletion("1", 2, utc(12, 29, 40))
    assert [(c.group, c.hole) for c in completions[3:6]] == [("2", 1), ("1", 4), ("2", 2)]
    assert all(c.at.tzinfo is UTC for c in completions)


def test_times_are_read_without_course_or_draw():
    completions = formats.parse_times(HEADER + "99,40,23:00\n", "times.csv", day=DAY, tz=TZ)

    assert completions == (model.HoleCompletion("99", 40, utc(23, 0) + timedelta(hours=4)),)


def test_french_headers_and_semicolons_are_accepted():
    text = "\ufeffPartie;Trou;Terminé\r\n1;1;8h13\r\n"

    (completion,) = formats.parse_times(text, "times.csv", day=DAY, tz=TZ)

    assert completion == model.HoleCompletion("1", 1, utc(12, 13))


def test_header_only_file_has_no_completions():
    assert formats.parse_times(HEADER, "times.csv", day=DAY, tz=TZ) == ()


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        ("1,19,08:30", "hole", "hole 19 does not exist on this course; holes are 1–18"),
        ("1,first,08:30", "hole", "hole 'first' is not a hole number; expected 1–18"),
        ("1,,08:30", "hole", "hole is empty"),
        ("1,2,8h61", "completed", "completed '8h61' is not a time; expected HH:MM or HH:MM:SS"),
        ("1,2,", "completed", "completed is empty"),
        ("7,2,08:30", "group", "group '7' is not in the draw"),
        (",2,08:30", "group", "group is empty"),
        (
            "2,1,08:05",
            "completed",
            "completed '08:05' is before the scheduled start of group '2' (08:10)",
        ),
    ],
    ids=[
        "hole-off-course",
        "hole-not-a-number",
        "hole-empty",
        "bad-time",
        "time-empty",
        "unknown-group",
        "group-empty",
        "before-start",
    ],
)
def test_bad_row_is_reported_with_line_and_field(row, field, message):
    text = HEADER + "1,1,08:13\n" + row + "\n"

    (problem,) = problems_of(text, course=COURSE, groups=GROUPS)

    assert (problem.line, problem.field) == (3, field)
    assert problem.message.startswith(message)


def test_same_group_and_hole_twice_names_both_lines():
    text = HEADER + "1,1,08:13\n2,1,08:24\n\n1,1,08:14\n"

    (problem,) = problems_of(text)

    assert (problem.line, problem.field) == (5, "hole")
    assert problem.message == "group '1' hole 1 is already timed on line 2; keep one time per hole"


def test_missing_column_is_reported_on_the_header_line():
    (problem,) = problems_of("groupe,trou\n1,1\n")

    assert (problem.line, problem.field) == (1, "completed")


def test_all_problems_are_collected_and_nothing_is_returned():
    text = HEADER + "1,1,08:13\n1,19,08:30\n3,2,08:40\n1,3,7:00\n"

    problems = problems_of(text, course=COURSE, groups=GROUPS)

    assert [(p.line, p.field) for p in problems] == [(3, "hole"), (4, "group"), (5, "completed")]


def test_non_utf8_times_file_is_refused(tmp_path):
    path = tmp_path / "times.csv"
    path.write_bytes(b"group,hole,completed\n1,1,08:13\xa0\n")

    with pytest.raises(errors.FileFormatError) as info:
        formats.load_times(path, day=DAY, tz=TZ)

    (problem,) = info.value.problems
    assert (problem.file, problem.line) == (str(path), 2)

from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from pace import formats
from pace.rules import errors, model

DATA = Path(__file__).parents[2] / "data" / "formats"
DAY = date(2025, 6, 14)
TZ = ZoneInfo("America/Toronto")  # UTC-4 in June
HEADER = "group,start,tee,player,handicap\n"


def parse(text: str, **kwargs: object) -> tuple[model.Group, ...]:
    return formats.parse_draw(text, "draw.csv", day=DAY, tz=TZ, **kwargs)


def problems_of(text: str, **kwargs: object) -> list[errors.Problem]:
    with pytest.raises(errors.FileFormatError) as info:
        parse(text, **kwargs)
    assert all(p.file == "draw.csv" for p in info.value.problems)
    return list(info.value.problems)


def where(problems: list[errors.Problem]) -> list[tuple[int | None, str | None]]:
    return [(p.line, p.field) for p in problems]


def test_comma_draw_gives_groups_in_draw_order_with_utc_starts():
    groups = formats.load_draw(DATA / "draw.csv", day=DAY, tz=TZ)

    assert [g.id for g in groups] == ["1", "2", "3", "4", "5", "6"]
    assert [g.size for g in groups] == [3, 4, 3, 4, 3, 4]
    assert groups[0].start == datetime(2025, 6, 14, 12, 0, tzinfo=UTC)
    assert groups[5].start == datetime(2025, 6, 14, 12, 50, tzinfo=UTC)
    assert groups[0].start.tzinfo is UTC
    assert {g.tee for g in groups} == {1}
    assert groups[0].players[0] == model.Player("Marie Lavoie", 4.2, None, "Louiseville")
    assert groups[0].players[1].handicap == -1.3  # "+1.3" is a plus handicap
    assert groups[1].players[2].name == 'Pierre "Pete" Roy'
    assert groups[2].players[1] == model.Player("Claude Fortin", None, None, "Louiseville")


def test_french_spreadsheet_export_with_bom_semicolons_and_decimal_commas():
    groups = formats.load_draw(DATA / "draw_fr.csv", day=DAY, tz=TZ)

    assert [(g.id, g.tee, g.size) for g in groups] == [
        ("A", 1, 4),
        ("B", 10, 3),
        ("C", 1, 3),
        ("D", 10, 3),
    ]
    assert groups[0].start == groups[1].start == datetime(2025, 6, 14, 12, 0, tzinfo=UTC)
    assert groups[2].start == groups[3].start == datetime(2025, 6, 14, 12, 10, tzinfo=UTC)
    assert groups[0].players[1] == model.Player("Julie Gagnon", -1.3, "1", "Trois-Rivières")
    assert groups[0].players[3].side == "2"
    assert groups[2].players[0].side is None
    assert groups[3].players[1].handicap is None


def test_tab_separated_draw_is_read():
    groups = parse("group\tstart\ttee\tplayer\n1\t08:00\t1\tAnna\n1\t08:00\t1\tBea\n")

    assert [p.name for p in groups[0].players] == ["Anna", "Bea"]


def test_headers_are_matched_ignoring_case_spaces_and_extra_columns():
    text = " Partie ;DÉPART; TEE ;Nom;HCP;Remarque\n7;9:05;1;Anna;12,5;ok\n"

    (group,) = parse(text)

    assert (group.id, group.tee) == ("7", 1)
    assert group.players == (model.Player("Anna", 12.5),)


def test_groups_need_not_be_contiguous_rows():
    text = HEADER + "1,08:00,1,Anna,\n2,08:10,1,Bea,\n1,08:00,1,Cleo,\n"

    groups = parse(text)

    assert [(g.id, [p.name for p in g.players]) for g in groups] == [
        ("1", ["Anna", "Cleo"]),
        ("2", ["Bea"]),
    ]


def test_line_numbers_count_blank_lines_and_multiline_cells():
    text = HEADER + '1,08:00,1,"Anna\nSmith",\n\n1,8:00,1,Bea,x\n'

    assert where(problems_of(text)) == [(5, "handicap")]


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        ("1,25:10,1,Anna,", "start", "start '25:10' is not a time; expected HH:MM"),
        ("1,,1,Anna,", "start", "start is empty; expected the scheduled start as HH:MM"),
        ("1,08:00,one,Anna,", "tee", "tee 'one' is not a hole number"),
        ("1,08:00,0,Anna,", "tee", "tee '0' is not a hole number"),
        ("1,08:00,1,,", "player", "player is empty; expected the player's name"),
        (",08:00,1,Anna,", "group", "group is empty"),
        ("1,08:00,1,Anna,12.4.1", "handicap", "handicap '12.4.1' is not a handicap index"),
        ("1,08:00,1,Anna,nan", "handicap", "handicap 'nan' is not a handicap index"),
    ],
    ids=[
        "hour-out-of-range",
        "start-empty",
        "tee-not-a-number",
        "tee-zero",
        "player-empty",
        "group-empty",
        "handicap-two-points",
        "handicap-nan",
    ],
)
def test_bad_cell_is_reported_with_line_and_field(row, field, message):
    (problem,) = problems_of(HEADER + "1,08:00,1,Zoe,\n" + row + "\n")

    assert (problem.line, problem.field) == (3, field)
    assert problem.message.startswith(message)


def test_group_row_with_a_different_start_names_both_values_and_the_first_line():
    text = HEADER + "1,08:00,1,Anna,\n1,08:00,1,Bea,\n1,08:10,1,Cleo,\n"

    (problem,) = problems_of(text)

    assert (problem.line, problem.field) == (4, "start")
    assert problem.message == (
        "group '1' starts at '08:10' here but at '08:00' on line 2; "
        "all rows of a group share start and tee"
    )


def test_same_start_written_differently_is_the_same_start():
    groups = parse(HEADER + "1,08:00,1,Anna,\n1,8:00,1,Bea,\n1,8h00,1,Cleo,\n")

    assert groups[0].size == 3


def test_group_row_with_a_different_tee_is_reported():
    text = HEADER + "1,08:00,1,Anna,\n1,08:00,10,Bea,\n"

    (problem,) = problems_of(text)

    assert (problem.line, problem.field) == (3, "tee")
    assert "tee '10' here but on tee '1' on line 2" in problem.message


def test_same_player_twice_in_a_group_is_reported():
    text = HEADER + "1,08:00,1,Anna Roy,\n1,08:00,1,Bea,\n1,08:00,1,anna  roy,\n"

    (problem,) = problems_of(text)

    assert (problem.line, problem.field) == (4, "player")
    assert problem.message == "player 'anna  roy' is already in group '1' on line 2"


def test_missing_required_column_is_reported_on_the_header_line():
    problems = problems_of("group,start,player\n1,08:00,Anna\n")

    assert where(problems) == [(1, "tee")]
    assert "missing column 'tee'" in problems[0].message
    assert "'group', 'start', 'player'" in problems[0].message


def test_a_column_given_twice_is_reported():
    problems = problems_of("group,start,tee,player,joueur\n1,08:00,1,Anna,Anna\n")

    assert where(problems) == [(1, "player")]


def test_draw_without_players_is_refused():
    problems = problems_of(HEADER + "\n,,,,\n")

    assert where(problems) == [(1, None)]
    assert "no players" in problems[0].message


def test_empty_file_is_refused():
    assert where(problems_of("")) == [(1, None)]


def test_row_with_more_cells_than_the_header_is_reported():
    # decimal commas in a comma-separated file shift the cells
    problems = problems_of(HEADER + "1,08:00,1,Anna,12,5\n")

    assert where(problems) == [(2, None)]
    assert "check the separator" in problems[0].message


def test_all_problems_are_collected_before_raising():
    text = HEADER + "1,08:00,1,Anna,\n1,08:00,x,Bea,\n2,7:61,1,Cleo,\n2,07:50,1,,abc\n"

    assert where(problems_of(text)) == [(3, "tee"), (4, "start"), (5, "player"), (5, "handicap")]


def test_tee_must_be_a_hole_of_the_course_when_one_is_given():
    course = model.Course("Nine", tuple(model.Hole(n, 4) for n in range(1, 10)))

    (problem,) = problems_of(HEADER + "1,08:00,10,Anna,\n", course=course)

    assert (problem.line, problem.field) == (2, "tee")
    assert problem.message == "tee 10 does not exist on this course; holes are 1–9"


def test_start_is_converted_from_local_time_across_a_dst_change():
    (group,) = formats.parse_draw(
        HEADER + "1,08:00,1,Anna,\n", "draw.csv", day=date(2025, 1, 14), tz=TZ
    )

    assert group.start == datetime(2025, 1, 14, 13, 0, tzinfo=UTC)


def test_non_utf8_draw_is_refused_naming_the_file_and_line(tmp_path):
    path = tmp_path / "draw.csv"
    path.write_bytes((HEADER + "1,08:00,1,Zoé,\n").encode("cp1252"))

    with pytest.raises(errors.FileFormatError) as info:
        formats.load_draw(path, day=DAY, tz=TZ)

    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.field) == (str(path), 2, None)
    assert "not valid UTF-8" in problem.message


def test_utf16_export_is_refused_with_a_hint(tmp_path):
    path = tmp_path / "draw.csv"
    path.write_bytes((HEADER + "1,08:00,1,Zoé,\n").encode("utf-16"))

    with pytest.raises(errors.FileFormatError, match="UTF-16"):
        formats.load_draw(path, day=DAY, tz=TZ)

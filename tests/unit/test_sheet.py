"""The referees' timing sheet: by when each group must complete each hole (issue 3).

Due time of a hole = scheduled start + cumulative allotment up to and including that hole in
the group's own playing order (docs/rules.md §1, §9). Every number below is worked by hand.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pace.reports import sheet
from pace.rules.model import Group, Player
from tests.builders import at, make_course, make_group, make_setup, minutes

#: 18 holes, all par 4 (4-ball 15 min a hole), 3 min of walk before hole 1 and 5 before 10.
CROSSOVER_COURSE = make_course(pars=[4] * 18, walk={1: 3, 10: 5})


def due_minutes(row: sheet.SheetRow) -> dict[int, float]:
    return {hole: (when - row.start) / minutes(1) for hole, when in row.due.items()}


def test_due_time_is_the_start_plus_the_cumulative_allotment():
    # pars 4, 3, 5 for a 4-ball: 15, 12, 18 -> due 08:15, 08:27, 08:45
    setup = make_setup(make_course(pars=[4, 3, 5]), [make_group("A", "08:00")])
    (row,) = sheet.timing_sheet(setup).rows
    assert row.due == {1: at("08:15"), 2: at("08:27"), 3: at("08:45")}


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (1, [12, 21, 36]),  # a group of 1 uses the 2-ball column: 12, 9, 15
        (2, [12, 21, 36]),
        (3, [14, 25, 42]),  # 14, 11, 17
        (4, [15, 27, 45]),  # 15, 12, 18
        (5, [15, 27, 45]),  # more than 4: the 4-ball column
    ],
)
def test_due_times_use_the_column_of_the_group_size(size, expected):
    setup = make_setup(make_course(pars=[4, 3, 5]), [make_group("A", "08:00", size=size)])
    (row,) = sheet.timing_sheet(setup).rows
    assert list(due_minutes(row).values()) == expected


def test_committee_allotment_wins_over_the_split_by_par():
    course = make_course(pars=[4, 3, 5], allotted={2: 13.5})  # 4-ball hole 2: 13.5 not 12
    setup = make_setup(course, [make_group("A", "08:00")])
    (row,) = sheet.timing_sheet(setup).rows
    assert due_minutes(row) == {1: 15, 2: 28.5, 3: 46.5}


def test_crossover_tee_1_group_includes_the_walk_before_hole_10():
    setup = make_setup(CROSSOVER_COURSE, [make_group("T1", "08:00", tee=1)])
    (row,) = sheet.timing_sheet(setup).rows
    due = due_minutes(row)
    assert due[1] == 15  # the starting hole: its walk is not added
    assert due[9] == 135
    assert due[10] == 135 + 15 + 5
    assert due[18] == 18 * 15 + 5


def test_crossover_tee_10_group_plays_10_to_18_then_1_to_9():
    setup = make_setup(CROSSOVER_COURSE, [make_group("T10", "08:00", tee=10)])
    (row,) = sheet.timing_sheet(setup).rows
    due = due_minutes(row)
    assert due[10] == 15  # its starting hole: hole 10's walk is not added
    assert due[11] == 30
    assert due[18] == 135
    assert due[1] == 135 + 15 + 3  # hole 1 carries its walk for a group coming from 18
    assert due[9] == 18 * 15 + 3
    assert row.due[1] == at("10:33")


def test_shotgun_group_plays_from_its_own_hole():
    course = make_course(pars=[4] * 9)
    setup = make_setup(course, [make_group("S4", "08:00", tee=4, size=2)])
    (row,) = sheet.timing_sheet(setup).rows
    order = sorted(row.due, key=row.due.__getitem__)
    assert order == [4, 5, 6, 7, 8, 9, 1, 2, 3]
    assert due_minutes(row)[3] == 9 * 12


def test_rows_follow_the_draw_with_tee_start_players_and_lead():
    groups = [make_group("B", "08:10"), make_group("A", "08:00"), make_group("C", "08:20")]
    data = sheet.timing_sheet(make_setup(make_course(pars=[4] * 9), groups))
    assert [r.group for r in data.rows] == ["B", "A", "C"]
    assert [r.lead for r in data.rows] == [False, True, False]
    assert data.rows[0].players == ("B1", "B2", "B3", "B4")
    assert data.holes == tuple(range(1, 10))
    assert data.pars == (4,) * 9


@given(
    tee=st.integers(1, 18),
    size=st.integers(1, 6),
    start=st.integers(6 * 60, 14 * 60),
)
def test_due_times_increase_along_the_playing_order_and_end_at_the_round_allotment(
    tee, size, start
):
    group = make_group("G", f"{start // 60:02d}:{start % 60:02d}", tee=tee, size=size)
    (row,) = sheet.timing_sheet(make_setup(CROSSOVER_COURSE, [group])).rows
    in_order = sorted(row.due.values())
    assert len(set(in_order)) == 18
    assert min(row.due, key=row.due.__getitem__) == tee
    per_hole = {1: 12, 2: 12, 3: 14, 4: 15, 5: 15, 6: 15}[size]
    walks = 3 + 5 - {1: 3, 10: 5}.get(tee, 0)  # every walk but the starting hole's
    assert in_order[-1] - group.start == minutes(18 * per_hole + walks)


# --------------------------------------------------------------------------- rendering

BRUSSELS = ZoneInfo("Europe/Brussels")


def crossover_sheet() -> sheet.TimingSheet:
    groups = [
        Group("1 & <2>", at("06:00"), 1, (Player("Ann <b>Lee</b>"), Player('Bo "Jr" & Co'))),
        Group("10A", at("06:00"), 10, (Player("Cy"), Player("Di"))),
    ]
    return sheet.timing_sheet(make_setup(CROSSOVER_COURSE, groups))


def test_csv_shows_local_times_one_line_per_group():
    rows = list(csv.reader(io.StringIO(sheet.to_csv(crossover_sheet(), BRUSSELS))))
    assert rows[0] == ["group", "tee", "start", "players", *(f"hole_{h}" for h in range(1, 19))]
    first, second = rows[1], rows[2]
    # 06:00 UTC is 08:00 in Brussels in June (UTC+2); 2-balls: 12 min a hole
    assert first[:6] == ["1 & <2>", "1", "08:00", 'Ann <b>Lee</b> / Bo "Jr" & Co', "08:12", "08:24"]
    assert first[4 + 9] == "10:05"  # hole 10: 9 x 12 + 12 + 5 walk = 125 min
    assert second[:4] == ["10A", "10", "08:00", "Cy / Di"]
    assert second[4 + 9] == "08:12"  # its starting hole 10
    assert second[4 + 0] == "10:03"  # hole 1: 9 x 12 + 12 + 3 walk = 123 min
    assert len(rows) == 3


def test_csv_in_utc():
    text = sheet.to_csv(crossover_sheet(), UTC)
    assert "\n1 & <2>,1,06:00," in text


def _rows(html: str) -> list[str]:
    return re.findall(r"<tr><td class='group'>.*?</tr>", html)


def test_html_is_a4_landscape_and_highlights_each_groups_starting_hole():
    html = sheet.to_html(crossover_sheet(), BRUSSELS)
    assert "@page { size: A4 landscape" in html
    first, second = _rows(html)
    for row, tee, due in ((first, 1, "08:12"), (second, 10, "08:12")):
        cells = re.findall(r"<td( class='[^']*')?>(.*?)</td>", row)
        hole_cells = cells[4:]
        assert len(hole_cells) == 18
        highlighted = [i + 1 for i, (cls, _) in enumerate(hole_cells) if "start-hole" in cls]
        assert highlighted == [tee]
        assert hole_cells[tee - 1][1] == due
    assert "<td class='tee'>10</td>" in second


def test_html_escapes_names():
    html = sheet.to_html(crossover_sheet(), BRUSSELS)
    assert "<b>Lee</b>" not in html
    assert "Ann &lt;b&gt;Lee&lt;/b&gt;" in html
    assert "Bo &quot;Jr&quot; &amp; Co" in html
    assert "<td class='group'>1 &amp; &lt;2&gt;</td>" in html


def test_html_escapes_the_course_name():
    course = make_course(pars=[4] * 9, name="Golf <Royal> & Co")
    data = sheet.timing_sheet(make_setup(course, [make_group("A", "08:00")]))
    html = sheet.to_html(data, UTC)
    assert "Golf &lt;Royal&gt; &amp; Co" in html
    assert "<Royal>" not in html


def test_html_shows_pars_in_the_header_and_local_due_times():
    course = make_course(pars=[4, 3, 5])
    data = sheet.timing_sheet(make_setup(course, [make_group("A", "06:00")]))
    html = sheet.to_html(data, BRUSSELS)
    assert "<th>2<br><span class='par'>par 3</span></th>" in html
    (row,) = _rows(html)
    assert "<td class='start'>08:00</td>" in row  # start, local
    assert "<td class='start-hole'>08:15</td>" in row
    assert "<td>08:45</td>" in row


def test_due_time_is_an_instant_not_a_wall_clock_duration():
    setup = make_setup(make_course(pars=[4]), [make_group("A", "08:00")])
    (row,) = sheet.timing_sheet(setup).rows
    assert row.due[1] - row.start == timedelta(minutes=15)
    assert row.due[1].tzinfo is not None


# -- issue 14, point 13: one line per player, 40 groups on three pages ------------------------

LONG_NAMES = (
    "Marie-Hélène Vaillancourt-Desrosiers",
    "Jean-Christophe Beauchemin",
    "Anne Lavoie",
    "Pierre-Alexandre Montpetit-Laliberté",
)


def forty_four_balls() -> sheet.TimingSheet:
    """A crossover start of 40 four-balls with long names: 20 off tee 1, 20 off tee 10.

    Before issue 14 the names wrapped over four or five lines and this took ten pages."""
    groups = [
        Group(
            str(i + 1),
            at("08:00") + timedelta(minutes=10 * (i % 20)),
            1 if i < 20 else 10,
            tuple(Player(name) for name in LONG_NAMES),
        )
        for i in range(40)
    ]
    return sheet.timing_sheet(make_setup(make_course(pars=[4, 4, 3, 5, 4, 4, 3, 5, 4] * 2), groups))


def test_each_player_is_one_line_initials_and_surname_when_long():
    html = sheet.to_html(forty_four_balls(), BRUSSELS)
    (first, *_) = _rows(html)
    players = re.findall(r"<div title='([^']*)'>([^<]*)</div>", first)
    assert [shown for _, shown in players] == [
        "M.-H. Vaillancourt-Desrosiers", "J.-C. Beauchemin", "Anne Lavoie",
        "P.-A. Montpetit-Laliberté",
    ]  # fmt: skip
    assert players[0][0] == "Marie-Hélène Vaillancourt-Desrosiers"  # the whole name kept
    assert "td.players div { white-space: nowrap;" in html


def test_forty_groups_print_on_at_most_three_a4_landscape_pages():
    weasyprint = pytest.importorskip("weasyprint")
    document = weasyprint.HTML(string=sheet.to_html(forty_four_balls(), BRUSSELS)).render()
    assert len(document.pages) <= 3
    width, height = document.pages[0].width, document.pages[0].height
    assert width > height  # landscape


def test_the_sheet_names_each_players_tees_where_the_course_has_tee_sets():
    """Issue 38: a marshal sees who plays from which tees; the due times are unchanged."""
    from dataclasses import replace

    from pace.rules.model import TeeSet

    course = replace(make_course(pars=[4] * 9), tees=(TeeSet("Yellow"), TeeSet("Red")))
    group = Group("1", at("06:00"), 1, (Player("Ann", tees="Red"), Player("Bob")))
    without = replace(group, players=(Player("Ann"), Player("Bob")))
    plain = sheet.timing_sheet(make_setup(make_course(pars=[4] * 9), [without]))
    mixed = sheet.timing_sheet(make_setup(course, [group]))
    assert mixed.rows[0].due == plain.rows[0].due
    rows = list(csv.reader(io.StringIO(sheet.to_csv(mixed, UTC))))
    assert rows[1][3] == "Ann (Red) / Bob"
    assert "Ann</div>" not in sheet.to_html(mixed, UTC)
    assert "<span class='tees'>Red</span>" in sheet.to_html(mixed, UTC)

"""Out of position, behind, overdue: docs/rules.md §3, with starts (§9), stops (§8), credits (§5).

Unless a test says otherwise the course is 9 holes, all par 4, so a 4-ball is allotted
15 min a hole and ``k × 15`` min after ``k`` holes; the draw is A 08:00, B 08:10, C 08:20 from
tee 1 (standard interval 10 min: A leads, B and C follow with an interval of 10).
"""

from __future__ import annotations

from unittest.mock import ANY

import pytest

from pace.rules import position
from pace.rules.model import Status
from tests.builders import (
    at,
    credit,
    make_course,
    make_facts,
    make_group,
    make_setup,
    minutes,
    suspension,
)

ON_PACE = Status.ON_PACE
BEHIND = Status.BEHIND
OVERDUE = Status.OVERDUE
OOP = Status.OUT_OF_POSITION

NINE_PAR_4 = make_course(pars=[4] * 9)
EIGHTEEN_PAR_4 = make_course(pars=[4] * 18)


def field_abc(**settings):
    groups = (make_group("A", "08:00"), make_group("B", "08:10"), make_group("C", "08:20"))
    return make_setup(NINE_PAR_4, groups, **settings)


def status_of(setup, group, now, log=None, **facts):
    field = position.evaluate_field(setup, make_facts(log, **facts), at(now))
    return field.group(group)


def _clock(minutes_after_8):
    return f"{8 + minutes_after_8 // 60:02d}:{minutes_after_8 % 60:02d}"


def in_min(value):
    return None if value is None else value / minutes(1)


# --------------------------------------------------------------------------- confirmed status


# fmt: off
CONFIRMED = [
    # (log, group, now, status, over min, gap min)
    pytest.param(
        # A lead: hole 1 at 08:16 -> elapsed 16 > allotted 15
        {"A": {1: "08:16"}}, "A", "08:16", OOP, 1, None,
        id="lead group over time is out of position",
    ),
    pytest.param(
        # elapsed 15 = allotted 15: not over (strict comparison)
        {"A": {1: "08:15"}}, "A", "08:15", ON_PACE, 0, None,
        id="lead group exactly on its allotment is on pace",
    ),
    pytest.param(
        {"A": {2: "08:28"}}, "A", "08:28", ON_PACE, -2, None,
        id="lead group under time is on pace",
    ),
    pytest.param(
        # B: hole 2 at 08:41 -> elapsed 31 > 30; gap 08:41 − 08:32 = 9 <= interval 10
        {"A": {2: "08:32"}, "B": {2: "08:41"}}, "B", "08:41", BEHIND, 1, 9,
        id="following group over time within its interval is behind",
    ),
    pytest.param(
        # B: elapsed 32 > 30; gap 08:42 − 08:32 = 10 = interval: not greater
        {"A": {2: "08:32"}, "B": {2: "08:42"}}, "B", "08:42", BEHIND, 2, 10,
        id="following group gap exactly its interval is behind not out of position",
    ),
    pytest.param(
        # B: elapsed 33 > 30; gap 08:43 − 08:32 = 11 > 10
        {"A": {2: "08:32"}, "B": {2: "08:43"}}, "B", "08:43", OOP, 3, 11,
        id="following group over time with gap over its interval is out of position",
    ),
    pytest.param(
        # B: elapsed 28 <= 30, gap 18 > 10 does not matter when under time
        {"A": {2: "08:20"}, "B": {2: "08:38"}}, "B", "08:38", ON_PACE, -2, 18,
        id="following group under time with a large gap is on pace",
    ),
    pytest.param(
        {"A": {2: "08:20"}, "B": {2: "08:40"}}, "B", "08:40", ON_PACE, 0, 20,
        id="following group exactly on its allotment with a large gap is on pace",
    ),
    pytest.param(
        # A logged hole 3 but nobody was seen completing hole 2 before B: judged like a lead
        {"A": {3: "08:40"}, "B": {2: "08:41"}}, "B", "08:41", OOP, 1, None,
        id="following group nobody was seen ahead of at that hole is judged like a lead",
    ),
    pytest.param(
        # C: start 08:20, hole 2 at 08:51 -> elapsed 31 > 30. B completed hole 2 only at
        # 08:55 (after C), so the latest other completion before C is A's 08:32: gap 19
        {"A": {2: "08:32"}, "B": {2: "08:55"}, "C": {2: "08:51"}}, "C", "08:55", OOP, 1, 19,
        id="gap is to the latest completion before it not to the group ahead in the draw",
    ),
    pytest.param(
        # C: elapsed 31; latest other completion before 08:51 is B's 08:41: gap 10
        {"A": {2: "08:32"}, "B": {2: "08:41"}, "C": {2: "08:51"}}, "C", "08:51", BEHIND, 1, 10,
        id="gap is to the latest of the other groups completions of that hole",
    ),
    pytest.param(
        # A completed hole 2 after C: it is not ahead of C at hole 2. Nobody before C -> lead-like
        {"A": {2: "08:58"}, "C": {2: "08:51"}}, "C", "08:58", OOP, 1, None,
        id="a completion after its own does not count as the group ahead",
    ),
]
# fmt: on


@pytest.mark.parametrize(("log", "group", "now", "status", "over", "gap"), CONFIRMED)
def test_confirmed_status_at_the_last_completion(log, group, now, status, over, gap):
    s = status_of(field_abc(), group, now, log)
    assert s.status is status
    assert s.confirmed is status
    assert in_min(s.over) == over
    assert in_min(s.gap) == gap
    assert s.interval == (None if group == "A" else minutes(10))
    assert s.lead is (group == "A")


def test_committee_margin_is_added_to_the_interval_in_the_gap_comparison():
    # B: elapsed 33 > 30, gap 11; interval 10 + margin 3 = 13 -> 11 is not greater
    log = {"A": {2: "08:32"}, "B": {2: "08:43"}}
    assert status_of(field_abc(), "B", "08:43", log).status is OOP
    assert status_of(field_abc(gap_margin=minutes(3)), "B", "08:43", log).status is BEHIND
    # gap 11 = interval 10 + margin 1: not greater
    assert status_of(field_abc(gap_margin=minutes(1)), "B", "08:43", log).status is BEHIND


def test_status_carries_its_numbers():
    s = status_of(field_abc(), "B", "08:43", {"A": {2: "08:32"}, "B": {1: "08:24", 2: "08:43"}})
    assert (s.group, s.holes_completed, s.last_hole, s.hole) == ("B", 2, 2, 2)
    assert (in_min(s.over), in_min(s.gap), in_min(s.interval)) == (3, 11, 10)
    assert in_min(s.elapsed) == 33


# --------------------------------------------------------------------------- projection


# fmt: off
PROJECTED = [
    # (log, group, now, status, over min on the hole in play, gap min, hole in play)
    pytest.param(
        # A in play on hole 1 at 08:16: elapsed 16 > 15
        {}, "A", "08:16", OVERDUE, 1, None, 1,
        id="lead group over time on the hole in play is overdue",
    ),
    pytest.param(
        {}, "A", "08:15", ON_PACE, 0, None, 1,
        id="lead group exactly on the allotment of the hole in play is on pace",
    ),
    pytest.param(
        # A: hole 1 at 08:14; at 08:31 elapsed 31 > 30 on hole 2
        {"A": {1: "08:14"}}, "A", "08:31", OVERDUE, 1, None, 2,
        id="lead group overdue on the hole after its last completion",
    ),
    pytest.param(
        # B: elapsed 16 > 15 on hole 1 and nobody has completed hole 1: still occupied
        {}, "B", "08:26", BEHIND, 1, None, 1,
        id="following group over time while the hole ahead is still occupied is behind",
    ),
    pytest.param(
        # B: elapsed 16; A cleared hole 1 at 08:17, 9 min before now <= 10
        {"A": {1: "08:17"}}, "B", "08:26", BEHIND, 1, 9, 1,
        id="following group over time when the hole was cleared within its interval is behind",
    ),
    pytest.param(
        # cleared 10 min before now = interval: not more than it
        {"A": {1: "08:16"}}, "B", "08:26", BEHIND, 1, 10, 1,
        id="following group hole cleared exactly its interval ago is behind",
    ),
    pytest.param(
        # cleared 11 min before now > 10
        {"A": {1: "08:15"}}, "B", "08:26", OVERDUE, 1, 11, 1,
        id="following group over time when the hole was cleared longer ago is overdue",
    ),
    pytest.param(
        # elapsed 15 = 15: not over, whatever the gap
        {"A": {1: "08:12"}}, "B", "08:25", ON_PACE, 0, ANY, 1,
        id="following group on its allotment with the hole cleared long ago is on pace",
    ),
    pytest.param(
        # B: holes 1, 2 at 08:24, 08:38 (14, 28: on pace). At 08:56 elapsed 46 > 45 on hole 3;
        # A cleared hole 3 at 08:41, 15 min before now > 10
        {"A": {1: "08:13", 2: "08:27", 3: "08:41"}, "B": {1: "08:24", 2: "08:38"}},
        "B", "08:56", OVERDUE, 1, 15, 3,
        id="following group overdue on the hole after its last completion",
    ),
    pytest.param(
        # B at 08:30: elapsed 20 > 15 (over 5); A cleared hole 1 at 08:12, 18 min ago > 10
        {"A": {1: "08:12"}}, "B", "08:30", OVERDUE, 5, 18, 1,
        id="following group overdue long after the hole ahead was cleared",
    ),
]
# fmt: on


@pytest.mark.parametrize(("log", "group", "now", "status", "over", "gap", "hole"), PROJECTED)
def test_projection_of_the_hole_in_play(log, group, now, status, over, gap, hole):
    s = status_of(field_abc(), group, now, log)
    assert s.projected is status
    assert s.status is status
    assert in_min(s.over) == over
    assert in_min(s.gap) == gap
    assert s.hole == hole


def test_projection_uses_the_margin_too():
    # cleared 11 min ago; interval 10 + margin 1 = 11: not more than it
    log = {"A": {1: "08:15"}}
    assert status_of(field_abc(gap_margin=minutes(1)), "B", "08:26", log).status is BEHIND


def test_projection_looks_at_the_latest_completion_of_the_hole_in_play_by_any_group():
    # C at 08:36 on hole 1: elapsed 16 > 15. A cleared hole 1 at 08:14, B at 08:27:
    # latest is B, 9 min ago <= 10 -> behind
    log = {"A": {1: "08:14"}, "B": {1: "08:27"}}
    s = status_of(field_abc(), "C", "08:36", log)
    assert (s.status, in_min(s.gap)) == (BEHIND, 9)


# --------------------------------------------------------------------------- worse of the two


# fmt: off
WORSE = [
    # (log, group, now, confirmed, projected, status)
    pytest.param(
        # B confirmed at hole 2: elapsed 31, gap 9 -> behind. At 09:00 elapsed 50 > 45 on
        # hole 3, A cleared it at 08:45 (15 > 10 min ago) -> overdue
        {"A": {2: "08:32", 3: "08:45"}, "B": {2: "08:41"}}, "B", "09:00", BEHIND, OVERDUE,
        OVERDUE, id="behind confirmed and overdue projected is overdue",
    ),
    pytest.param(
        # A confirmed out at hole 1 (16 > 15); at 08:20 elapsed 20 <= 30: projection on pace
        {"A": {1: "08:16"}}, "A", "08:20", OOP, ON_PACE, OOP,
        id="out of position confirmed stays out of position while the projection is on pace",
    ),
    pytest.param(
        # A confirmed out at hole 1; at 08:31 elapsed 31 > 30: overdue, the confirmed is worse
        {"A": {1: "08:16"}}, "A", "08:31", OOP, OVERDUE, OOP,
        id="out of position is worse than overdue",
    ),
    pytest.param(
        # B confirmed on pace at hole 1 (14); at 08:41 elapsed 31 > 30 on hole 2, which
        # nobody has cleared -> behind
        {"A": {1: "08:13"}, "B": {1: "08:24"}}, "B", "08:41", ON_PACE, BEHIND, BEHIND,
        id="on pace confirmed and behind projected is behind",
    ),
    pytest.param(
        # B confirmed behind at hole 2; at 08:44 elapsed 34 <= 45 on hole 3 -> behind
        {"A": {2: "08:32"}, "B": {2: "08:41"}}, "B", "08:44", BEHIND, ON_PACE, BEHIND,
        id="behind confirmed stays behind while the projection is on pace",
    ),
]
# fmt: on


@pytest.mark.parametrize(("log", "group", "now", "confirmed", "projected", "status"), WORSE)
def test_status_is_the_worse_of_confirmed_and_projected(
    log, group, now, confirmed, projected, status
):
    s = status_of(field_abc(), group, now, log)
    assert (s.confirmed, s.projected, s.status) == (confirmed, projected, status)


def test_severity_order():
    ranked = sorted([OOP, ON_PACE, OVERDUE, BEHIND], key=lambda s: s.severity)
    assert ranked == [ON_PACE, BEHIND, OVERDUE, OOP]


# --------------------------------------------------------------------------- other statuses


@pytest.mark.parametrize(
    ("now", "status"),
    [("08:05", Status.NOT_STARTED), ("08:09:59", Status.NOT_STARTED), ("08:10", ON_PACE)],
    ids=["before its start", "one second before", "clock starts at its scheduled start"],
)
def test_group_is_not_started_before_its_scheduled_start(now, status):
    assert status_of(field_abc(), "B", now).status is status


@pytest.mark.parametrize(
    "log",
    [
        # A on pace for 8 holes (08:15, 08:30, ... 10:00), hole 9 at 10:20: 140 > 135 over
        # time at the end, but every hole is logged
        {"A": {n: _clock(15 * n) for n in range(1, 9)} | {9: "10:20"}},
        {"A": {9: "10:10"}},
    ],
    ids=["all holes logged", "only the last hole logged"],
)
def test_group_is_finished_when_its_last_hole_is_logged(log):
    s = status_of(field_abc(), "A", "10:30", log)
    assert s.status is Status.FINISHED
    assert s.holes_completed == 9


def test_withdrawn_group():
    withdrawn = {"A": "08:30"}
    assert status_of(field_abc(), "A", "08:40", withdrawn=withdrawn).status is Status.WITHDRAWN
    assert status_of(field_abc(), "A", "08:12", withdrawn=withdrawn).status is ON_PACE


def test_projected_finish_of_a_group_on_pace_at_its_start():
    # 9 × 15 = 135 min after 08:00
    assert status_of(field_abc(), "A", "08:00").projected_finish == at("10:15")


# --------------------------------------------------------------------------- holes not observed


def test_logged_hole_implies_the_holes_before_it():
    # A logged holes 1 and 4 only: 4 holes completed; hole 4 at 09:01, elapsed 61 > 60
    s = status_of(field_abc(), "A", "09:01", {"A": {1: "08:14", 4: "09:01"}})
    assert (s.holes_completed, s.last_hole, s.status, in_min(s.over)) == (4, 4, OOP, 1)


@pytest.mark.parametrize(
    ("log", "now", "k", "last_hole", "status", "over"),
    [
        # tee 10: hole 12 is its 3rd, hole 2 its 11th: 11 × 15 = 165; 10:44 -> 164
        ({12: "08:44", 2: "10:44"}, "10:44", 11, 2, ON_PACE, -1),
        # hole 18 is its 9th, hole 1 its 10th (furthest in its order though lowest number)
        ({18: "10:14", 1: "10:31"}, "10:31", 10, 1, OOP, 1),
        # hole 1 logged (10th) and hole 18 logged (9th) with a later time: still 10
        # (which of the two "last logged completion" means is left open: status not checked)
        ({1: "10:29", 18: "10:40"}, "10:40", 10, 1, ANY, ANY),
    ],
    ids=["tee 10 logs 12 and 2", "tee 10 logs 18 and 1", "furthest in order not latest"],
)
def test_holes_completed_is_position_of_the_furthest_hole_in_its_order(
    log, now, k, last_hole, status, over
):
    setup = make_setup(EIGHTEEN_PAR_4, [make_group("X", "08:00", tee=10)])
    s = status_of(setup, "X", now, {"X": log})
    assert (s.holes_completed, s.last_hole) == (k, last_hole)
    assert s.confirmed == status
    assert over == in_min(s.over)


# --------------------------------------------------------------------------- starts (§3, §9)


def _starts(*hhmm, tee=1):
    return [make_group(f"G{i}", t, tee=tee) for i, t in enumerate(hhmm, 1)]


@pytest.mark.parametrize(
    ("groups", "settings", "expected"),
    [
        (_starts("08:00", "08:10", "08:20", "08:30"), {}, 10),
        # 8, 8, 9, 8, 8, 9: 8 is the most common
        (_starts("08:00", "08:08", "08:16", "08:25", "08:33", "08:41", "08:50"), {}, 8),
        # 8, 9, 8, 9: tie -> the smallest
        (_starts("08:00", "08:08", "08:17", "08:25", "08:34"), {}, 8),
        # 9, 8, 9 with 9 most common
        (_starts("08:00", "08:09", "08:17", "08:26"), {}, 9),
        # 10, 10, 20, 10: the starter's gap does not make the standard
        (_starts("08:00", "08:10", "08:20", "08:40", "08:50"), {}, 10),
        # crossover: tees 1 and 10 off together; only consecutive starts from one tee count
        (
            _starts("08:00", "08:10", "08:20")
            + [make_group(f"T{i}", t, tee=10) for i, t in enumerate(["08:00", "08:10"])],
            {},
            10,
        ),
        # the committee's value wins
        (_starts("08:00", "08:10", "08:20"), {"standard_interval": minutes(8)}, 8),
        # waves: 10, 10, 10, 3h40, 10
        (_starts("08:00", "08:10", "08:20", "08:30", "12:10", "12:20"), {}, 10),
    ],
    ids=[
        "every 10 min",
        "8/8/9 alternation",
        "8/9 tie takes the smallest",
        "9/8/9 most common",
        "starter's gap ignored",
        "crossover counts per tee",
        "committee value",
        "two waves",
    ],
)
def test_standard_interval(groups, settings, expected):
    setup = make_setup(EIGHTEEN_PAR_4, groups, **settings)
    assert position.standard_interval(setup.groups, setup.settings) == minutes(expected)
    assert position.plan_field(setup).standard_interval == minutes(expected)


@pytest.mark.parametrize(
    ("starts", "leads", "intervals"),
    [
        # standard 10; 08:20 -> 08:40 is 20 >= 15: starter's gap (an empty slot)
        (
            ("08:00", "08:10", "08:20", "08:40", "08:50"),
            [True, False, False, True, False],
            [None, 10, 10, 20, 10],
        ),
        # 15 = 1.5 × 10 exactly: at least -> lead
        (
            ("08:00", "08:10", "08:20", "08:35", "08:45"),
            [True, False, False, True, False],
            [None, 10, 10, 15, 10],
        ),
        # 14 < 15: following
        (
            ("08:00", "08:10", "08:20", "08:34", "08:44"),
            [True, False, False, False, False],
            [None, 10, 10, 14, 10],
        ),
        # 8/8/9 alternation: standard 8, 9 < 12 -> no gap
        (
            ("08:00", "08:08", "08:16", "08:25", "08:33", "08:41", "08:50"),
            [True, False, False, False, False, False, False],
            [None, 8, 8, 9, 8, 8, 9],
        ),
        # waves: 3h40 between 08:20 and 12:00 -> the afternoon's first is a lead group
        (
            ("08:00", "08:10", "08:20", "12:00", "12:10"),
            [True, False, False, True, False],
            [None, 10, 10, 220, 10],
        ),
    ],
    ids=["empty slot", "exactly 1.5 standard", "just under 1.5", "8/8/9 alternation", "waves"],
)
def test_lead_groups_are_first_off_and_after_a_starters_gap(starts, leads, intervals):
    plan = position.plan_field(make_setup(NINE_PAR_4, _starts(*starts)))
    assert [p.lead for p in plan.groups] == leads
    assert [in_min(p.interval) for p in plan.groups] == intervals


@pytest.mark.parametrize(
    ("standard", "leads"),
    [
        # draw every 10 min; committee standard 8: 10 < 12 -> following
        (8, [True, False, False]),
        # committee standard 6: 10 >= 9 -> every group follows a starter's gap
        (6, [True, True, True]),
    ],
    ids=["10 under 1.5 x 8", "10 at least 1.5 x 6"],
)
def test_starters_gap_is_judged_against_the_committees_standard_interval(standard, leads):
    setup = make_setup(
        NINE_PAR_4, _starts("08:00", "08:10", "08:20"), standard_interval=minutes(standard)
    )
    assert [p.lead for p in position.plan_field(setup).groups] == leads


def test_group_after_a_starters_gap_is_judged_as_a_lead():
    # draw 08:00, 08:10, 08:30 (20 >= 15): G3 lead. G3 hole 1 at 08:46: elapsed 16 > 15;
    # G2 cleared hole 1 at 08:40 (gap 6 <= 20) but a lead group has no gap excuse
    setup = make_setup(NINE_PAR_4, _starts("08:00", "08:10", "08:30"))
    s = status_of(setup, "G3", "08:46", {"G2": {1: "08:40"}, "G3": {1: "08:46"}})
    assert (s.lead, s.status, s.gap) == (True, OOP, None)


def test_alternating_draw_compares_each_gap_with_its_own_starting_interval():
    # draw 08:00, 08:08, 08:16, 08:25: G3 interval 8, G4 interval 9.
    # G3 hole 1 at 08:32 (16 > 15), G2 cleared at 08:23: gap 9 > 8 -> out of position
    # G4 hole 1 at 08:41 (16 > 15), G3 cleared at 08:32: gap 9 <= 9 -> behind
    setup = make_setup(NINE_PAR_4, _starts("08:00", "08:08", "08:16", "08:25"))
    log = {"G2": {1: "08:23"}, "G3": {1: "08:32"}, "G4": {1: "08:41"}}
    field = position.evaluate_field(setup, make_facts(log), at("08:41"))
    assert field.group("G3").status is OOP
    assert field.group("G4").status is BEHIND


# --------------------------------------------------------------------------- crossover


def crossover(**settings):
    # 18 holes all par 4 (15 min); walk 5 min before hole 10 (halfway) and 3 before hole 1
    course = make_course(pars=[4] * 18, walk={10: 5, 1: 3})
    groups = [
        make_group("T1a", "08:00", tee=1),
        make_group("T10a", "08:00", tee=10),
        make_group("T1b", "08:10", tee=1),
        make_group("T10b", "08:10", tee=10),
    ]
    return make_setup(course, groups, **settings)


def test_crossover_each_tee_has_its_own_lead_group():
    plan = position.plan_field(crossover())
    assert {p.id: p.lead for p in plan.groups} == {
        "T1a": True,
        "T10a": True,
        "T1b": False,
        "T10b": False,
    }
    assert plan.by_id["T10b"].interval == minutes(10)
    assert plan.by_id["T10a"].order[:2] == (10, 11)
    assert plan.by_id["T10a"].order[9] == 1


@pytest.mark.parametrize(
    ("group", "hole", "when", "status", "over"),
    [
        # tee-10 group's first hole is 10: its walk is not added -> 15; 08:16 is over
        ("T10a", 10, "08:16", OOP, 1),
        ("T10a", 10, "08:15", ON_PACE, 0),
        # its 10th hole is 1: 9 × 15 + 15 + 3 (walk) = 153 -> 10:33 is exactly on
        ("T10a", 1, "10:33", ON_PACE, 0),
        ("T10a", 1, "10:34", OOP, 1),
        # tee-1 group's 10th hole is 10: 9 × 15 + 15 + 5 = 155 -> 10:35 exactly on
        ("T1a", 10, "10:35", ON_PACE, 0),
        ("T1a", 10, "10:36", OOP, 1),
        # tee-1 group's first hole: hole 1's walk is not added -> 15
        ("T1a", 1, "08:16", OOP, 1),
    ],
    ids=[
        "tee 10 first hole no walk over",
        "tee 10 first hole no walk on",
        "tee 10 tenth hole is 1 with walk on",
        "tee 10 tenth hole is 1 with walk over",
        "tee 1 tenth hole is 10 with walk on",
        "tee 1 tenth hole is 10 with walk over",
        "tee 1 first hole no walk",
    ],
)
def test_crossover_allotment_in_each_groups_playing_order(group, hole, when, status, over):
    s = status_of(crossover(), group, when, {group: {hole: when}})
    assert (s.confirmed, in_min(s.over)) == (status, over)


@pytest.mark.parametrize(
    ("log", "status", "gap"),
    [
        # T10b (start 08:10) logs hole 1, its 10th, at 10:50: elapsed 160 > 153 (over 7).
        # T10a cleared hole 1 at 10:45: gap 5 <= 10 -> behind
        (
            {"T1a": {1: "08:14"}, "T1b": {1: "08:24"}, "T10a": {1: "10:45"}, "T10b": {1: "10:50"}},
            BEHIND,
            5,
        ),
        # nobody of its own tee seen at hole 1: the latest other completion is the tee-1
        # wave's T1b at 08:24 -> gap 146 > 10 -> out of position
        ({"T1a": {1: "08:14"}, "T1b": {1: "08:24"}, "T10b": {1: "10:50"}}, OOP, 146),
    ],
    ids=["held up by its own tee's group", "gap to the other tee's group"],
)
def test_crossover_gap_is_to_any_other_group_seen_at_that_hole(log, status, gap):
    s = status_of(crossover(), "T10b", "10:50", log)
    assert (s.status, in_min(s.over), in_min(s.gap)) == (status, 7, gap)


# --------------------------------------------------------------------------- shotgun


def shotgun():
    groups = [make_group(f"S{t}", "08:00", tee=t) for t in range(1, 7)]
    groups.insert(1, make_group("S1b", "08:00", tee=1))  # two groups on hole 1
    return make_setup(EIGHTEEN_PAR_4, groups)


def test_shotgun_every_group_is_a_lead_group():
    plan = position.plan_field(shotgun())
    assert all(p.lead for p in plan.groups)
    assert plan.standard_interval is None


def test_double_shotgun_every_group_is_a_lead_group():
    groups = [make_group(f"AM{t}", "08:00", tee=t) for t in range(1, 7)]
    groups += [make_group(f"PM{t}", "13:00", tee=t) for t in range(1, 7)]
    plan = position.plan_field(make_setup(EIGHTEEN_PAR_4, groups))
    assert [p.id for p in plan.groups if not p.lead] == []


def test_shotgun_groups_over_time_are_out_of_position_whatever_is_ahead():
    # every group completes its first hole at 08:16 (16 > 15); S1b completes hole 1 at
    # 08:17, one minute after S1 cleared it: a lead group has no gap excuse
    log = {f"S{t}": {t: "08:16"} for t in range(1, 7)}
    log["S1b"] = {1: "08:17"}
    field = position.evaluate_field(shotgun(), make_facts(log), at("08:17"))
    for s in field.groups:
        assert (s.lead, s.status, s.gap) == (True, OOP, None), s.group


def test_shotgun_group_overdue_on_its_first_hole():
    field = position.evaluate_field(shotgun(), make_facts(), at("08:16"))
    assert {s.status for s in field.groups} == {OVERDUE}
    assert field.group("S5").hole == 5


# --------------------------------------------------------------------------- suspensions (§8)


@pytest.mark.parametrize(
    ("log", "group", "now", "sirens", "status", "over"),
    [
        # A hole 1 at 08:44, stop 08:10–08:40 (30): elapsed 14 <= 15
        ({"A": {1: "08:44"}}, "A", "08:44", [suspension("08:10", "08:40")], ON_PACE, -1),
        # without the stop: 44 > 15
        ({"A": {1: "08:44"}}, "A", "08:44", [], OOP, 29),
        # overlapping 08:10–08:30 and 08:20–08:40 count once (30, not 40): over −1
        (
            {"A": {1: "08:44"}},
            "A",
            "08:44",
            [suspension("08:10", "08:30"), suspension("08:20", "08:40")],
            ON_PACE,
            -1,
        ),
        # still suspended at 09:00 since 08:10: A's clock frozen at 10 -> not overdue
        ({}, "A", "09:00", [suspension("08:10")], ON_PACE, -5),
        # resumption stamped 09:30, after now: still running at 09:00
        ({}, "A", "09:00", [suspension("08:10", "09:30")], ON_PACE, -5),
        # every group's clock stops: B (08:10) frozen at 2 min since 08:12
        ({}, "B", "09:00", [suspension("08:12")], ON_PACE, -13),
        # interruption (one long siren) the same: 08:10–08:40, hole 1 at 08:44 -> 14
        (
            {"A": {1: "08:44"}},
            "A",
            "08:44",
            [suspension("08:10", "08:40", "interruption")],
            ON_PACE,
            -1,
        ),
        # a completion during a suspension (group finishing its hole) stops at the siren:
        # stop 08:14 still running, hole 1 logged at 08:20 -> elapsed 14
        ({"A": {1: "08:20"}}, "A", "08:30", [suspension("08:14")], ON_PACE, -1),
    ],
    ids=[
        "stop takes the time off",
        "no stop: out of position",
        "overlapping stops counted once",
        "still running at now",
        "resumption after now",
        "following group clock stops too",
        "interruption",
        "hole finished during a suspension",
    ],
)
def test_suspension_stops_every_clock(log, group, now, sirens, status, over):
    s = status_of(field_abc(), group, now, log, suspensions=sirens)
    assert (s.status, in_min(s.over)) == (status, over)


def test_suspension_and_no_resumption_freezes_overdue_checks():
    # A on hole 1 at 08:16 would be overdue; stopped since 08:14 it stays at 14 for an hour
    sirens = [suspension("08:14")]
    for now in ("08:16", "08:40", "09:14"):
        assert status_of(field_abc(), "A", now, suspensions=sirens).status is ON_PACE


# --------------------------------------------------------------------------- time credits (§5)


@pytest.mark.parametrize(
    ("credits", "now", "status", "over"),
    [
        # A hole 2 at 08:36: elapsed 36 > 30 -> out of position, over 6
        ([], "08:40", OOP, 6),
        # a 6-min credit granted at 08:40, after the completion: counts from 08:40 on
        ([credit("A", "08:40", 6)], "08:39", OOP, 6),
        ([credit("A", "08:40", 6)], "08:40", ON_PACE, 0),
        ([credit("A", "08:40", 6)], "08:44", ON_PACE, 0),
        # 5 min is not enough: 31 > 30
        ([credit("A", "08:40", 5)], "08:44", OOP, 1),
        # granted before the completion: 36 − 6 = 30
        ([credit("A", "08:20", 6)], "08:40", ON_PACE, 0),
        # a credit to another group does not help A
        ([credit("B", "08:38", 6)], "08:40", OOP, 6),
        # credits add up: 4 + 2
        ([credit("A", "08:38", 4), credit("A", "08:40", 2)], "08:40", ON_PACE, 0),
    ],
    ids=[
        "no credit",
        "before the grant",
        "at the grant",
        "after the grant",
        "credit too small",
        "granted before the completion",
        "credit to another group",
        "credits add up",
    ],
)
def test_time_credit_is_added_to_the_allotted_time_from_that_instant_on(credits, now, status, over):
    s = status_of(field_abc(), "A", now, {"A": {2: "08:36"}}, credits=credits)
    assert (s.status, in_min(s.over)) == (status, over)


def test_time_credit_lifts_the_projection():
    # A hole 2 at 08:30 (on). At 08:50 elapsed 50 > 45 on hole 3: overdue.
    # 6-min credit at 08:48: 50 − 6 = 44 <= 45
    log = {"A": {2: "08:30"}}
    assert status_of(field_abc(), "A", "08:50", log).status is OVERDUE
    credits = [credit("A", "08:48", 6)]
    assert status_of(field_abc(), "A", "08:50", log, credits=credits).status is ON_PACE
    assert status_of(field_abc(), "A", "08:47", log, credits=credits).status is OVERDUE


# --------------------------------------------------------------------------- evaluating the past


@pytest.mark.parametrize(
    ("now", "status", "k"),
    [
        ("08:15", ON_PACE, 0),  # in play on hole 1: elapsed 15 = 15
        ("08:15:30", OVERDUE, 0),  # 15.5 > 15; the 08:16 completion is not known yet
        ("08:20", OOP, 1),  # hole 1 at 08:16 (16 > 15); hole 2's 08:29 not known yet
        ("08:30", ON_PACE, 2),  # hole 2 at 08:29: 29 <= 30
    ],
    ids=["before any completion", "overdue before hole 1 logged", "after hole 1", "after hole 2"],
)
def test_evaluating_at_an_earlier_instant_ignores_completions_logged_later(now, status, k):
    s = status_of(field_abc(), "A", now, {"A": {1: "08:16", 2: "08:29"}})
    assert (s.status, s.holes_completed) == (status, k)


def test_evaluating_earlier_ignores_a_later_completion_of_the_hole_ahead():
    # at 08:26 B is 16 min on hole 1; A's completion of hole 1 is stamped 08:30: not
    # known at 08:26, so the hole ahead is still occupied -> behind, not overdue
    log = {"A": {1: "08:12"}}
    assert status_of(field_abc(), "B", "08:26", log).status is OVERDUE
    s = status_of(field_abc(), "B", "08:26", {"A": {1: "08:30"}})
    assert (s.status, s.gap) == (BEHIND, None)

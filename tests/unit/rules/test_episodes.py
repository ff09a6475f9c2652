"""Out-of-position episodes, from out of position to back in position (docs/rules.md §3, end).

Course: 9 holes, all par 4 (15 min a hole for a 4-ball, ``k × 15`` after ``k`` holes).
Draw: A 08:00 (lead), B 08:10 and C 08:20 (following, interval 10) from tee 1.
"""

from __future__ import annotations

import pytest

from pace.rules import position
from pace.rules.position import Episode
from tests.builders import at, credit, make_course, make_facts, make_group, make_setup, suspension

NINE_PAR_4 = make_course(pars=[4] * 9)


def field_abc():
    groups = (make_group("A", "08:00"), make_group("B", "08:10"), make_group("C", "08:20"))
    return make_setup(NINE_PAR_4, groups)


def episodes_of(now, log, **facts):
    return position.episodes(field_abc(), make_facts(log, **facts), at(now))


def closed(group, start, start_hole, end, end_hole, ended_by="back_in_position"):
    return Episode(group, at(start), start_hole, at(end), end_hole, ended_by)


def still_open(group, start, start_hole):
    return Episode(group, at(start), start_hole)


# A: hole 1 at 08:16 (16 > 15: out), hole 2 at 08:29 (29 <= 30: back in position),
#    hole 3 at 08:47 (47 > 45: out again)
A_TWICE_OUT = {"A": {1: "08:16", 2: "08:29", 3: "08:47"}}


@pytest.mark.parametrize(
    ("now", "log", "facts", "expected"),
    [
        pytest.param(
            "08:50",
            A_TWICE_OUT,
            {},
            [closed("A", "08:16", 1, "08:29", 2), still_open("A", "08:47", 3)],
            id="lead group out, back in position, out again",
        ),
        pytest.param(
            # at 08:20 only hole 1 is known: one episode, still open
            "08:20",
            A_TWICE_OUT,
            {},
            [still_open("A", "08:16", 1)],
            id="evaluated earlier the later completions are ignored",
        ),
        pytest.param(
            # at 08:29 exactly hole 2 is known: the episode is closed at 08:29
            "08:29",
            A_TWICE_OUT,
            {},
            [closed("A", "08:16", 1, "08:29", 2)],
            id="episode closes at the completion that finds it in position",
        ),
        pytest.param(
            # B: hole 1 at 08:26 (16 > 15), A cleared it at 08:14: gap 12 > 10 -> out.
            # B: hole 2 at 08:41 (31 > 30), A cleared it at 08:32: gap 9 <= 10 -> behind,
            # which is in position. (A itself is out at hole 2: 32 > 30.)
            "08:45",
            {"A": {1: "08:14", 2: "08:32"}, "B": {1: "08:26", 2: "08:41"}},
            {},
            [still_open("A", "08:32", 2), closed("B", "08:26", 1, "08:41", 2)],
            id="following group out then behind is back in position",
        ),
        pytest.param(
            # A: hole 2 at 08:36 (36 > 30, over 6); a 6-min credit at 08:40 brings it to 30
            "08:45",
            {"A": {2: "08:36"}},
            {"credits": [credit("A", "08:40", 6)]},
            [closed("A", "08:36", 2, "08:40", 2)],
            id="a time credit puts the group back in position at the grant",
        ),
        pytest.param(
            "08:45",
            {"A": {2: "08:36"}},
            {"credits": [credit("A", "08:40", 5)]},
            [still_open("A", "08:36", 2)],
            id="a credit too small leaves it out of position",
        ),
        pytest.param(
            # A: hole 1 at 08:44 with a stop 08:10–08:40: elapsed 14 -> never out
            "09:00",
            {"A": {1: "08:44"}},
            {"suspensions": [suspension("08:10", "08:40")]},
            [],
            id="a suspension keeps the group in position",
        ),
        pytest.param(
            # A: hole 1 at 08:14 (on pace); at 09:00 overdue on hole 2: not out of position
            "09:00",
            {"A": {1: "08:14"}},
            {},
            [],
            id="overdue is not an episode",
        ),
        pytest.param(
            # B behind at hole 2 (31 > 30, gap 9) is in position: only A's (32 > 30) episode
            "08:45",
            {"A": {2: "08:32"}, "B": {2: "08:41"}},
            {},
            [still_open("A", "08:32", 2)],
            id="behind is not an episode",
        ),
    ],
)
def test_out_of_position_episodes(now, log, facts, expected):
    assert list(episodes_of(now, log, **facts)) == expected


def test_episodes_are_listed_by_group_then_time():
    # A out at hole 1 (08:16) and back at hole 2 (08:29);
    # B: hole 1 at 08:27 (17 > 15), A cleared it at 08:16: gap 11 > 10 -> out, still open
    log = {"A": {1: "08:16", 2: "08:29"}, "B": {1: "08:27"}}
    assert list(episodes_of("08:30", log)) == [
        closed("A", "08:16", 1, "08:29", 2),
        still_open("B", "08:27", 1),
    ]


def test_finishing_the_round_closes_the_episode():
    # A out at hole 1 (08:16) and still over at hole 9 (10:20: 140 > 135) when it finishes
    episodes = episodes_of("10:30", {"A": {1: "08:16", 9: "10:20"}})
    assert len(episodes) == 1
    (e,) = episodes
    assert (e.group, e.start, e.start_hole, e.end) == ("A", at("08:16"), 1, at("10:20"))


def test_withdrawing_closes_the_episode():
    episodes = episodes_of("08:40", {"A": {1: "08:16"}}, withdrawn={"A": "08:30"})
    assert [(e.start, e.end, e.ended_by) for e in episodes] == [
        (at("08:16"), at("08:30"), "withdrawn")
    ]

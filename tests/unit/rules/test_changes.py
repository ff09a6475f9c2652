"""Changes on the day (issue 28): the draw as changed at each instant, and the refusals.

A three-ball that loses a player mid-round is judged as a two-ball from that instant on,
not retroactively: the hole in play keeps its three-ball column, the holes after it take the
two-ball one (docs/status.md, "Changes on the day", the worked example).
"""

from __future__ import annotations

import uuid

import pytest

from pace.rules import changes, position
from pace.rules.errors import UnknownGroupError
from pace.rules.events import Event
from pace.rules.model import RoundFacts, Status
from tests.builders import at, completions, make_course, make_group, make_setup, minutes

FLAT = make_course(pars=[4] * 18)  # 14 min a hole for three players, 12 for two, 15 for four


def change(kind: str, when: str, **payload) -> Event:
    return Event(str(uuid.uuid4()), kind, "R", at(when), payload, by={"role": "committee"})


def void(target: Event, when: str = "12:00") -> Event:
    return change("event_voided", when, target=target.id, reason="slip")


def hhmm(t) -> str:
    return t.strftime("%H:%M")


def judged(setup, log, now: str):
    facts = RoundFacts(completions=completions(log))
    plan = position.plan_field(setup)
    return position.evaluations(setup, facts, at(now), plan), position.evaluate_field(
        setup, facts, at(now), plan
    )


# -- a three-ball losing a player mid-round ------------------------------------------------

THREE = make_setup(FLAT, [make_group("A", "08:00", size=3)])
# on pace as a three-ball: 14 minutes a hole
PLAYED = {"A": {1: "08:14", 2: "08:28", 3: "08:42", 4: "08:56"}}


def test_a_three_ball_losing_a_player_mid_round_is_a_two_ball_from_that_instant_on():
    retired = change("player_withdrawn", "08:30", group="A", player="A3", reason="retired")
    setup = changes.apply(THREE, [retired])
    assert setup.groups[0].size_at(at("08:29")) == 3
    assert setup.groups[0].size_at(at("08:30")) == 2
    evaluated, field = judged(setup, PLAYED, "08:57")
    by_hole = {e.status.last_hole: e.status for e in evaluated["A"]}
    # holes 1-2 and hole 3 (begun at 08:28, before the retirement) keep the three-ball column
    assert [by_hole[h].confirmed for h in (1, 2, 3)] == [Status.ON_PACE] * 3
    assert by_hole[3].over == minutes(0)
    # hole 4 is the first begun as a two-ball: 42 + 12 = 54 minutes allotted, 56 taken
    assert by_hole[4].over == minutes(2)
    assert by_hole[4].confirmed is Status.OUT_OF_POSITION  # a lead group over time
    # the projection of hole 5 counts 12 minutes too: due at 09:06, not 09:10
    assert field.group("A").projected_finish == at("08:56") + minutes(14 * 12)


def test_the_same_three_ball_without_the_change_is_on_pace_throughout():
    evaluated, _ = judged(THREE, PLAYED, "08:57")
    assert [e.status.confirmed for e in evaluated["A"]] == [Status.ON_PACE] * 4


def test_a_fresh_two_ball_is_judged_as_one_from_its_start():
    two = make_setup(FLAT, [make_group("A", "08:00", size=2)])
    evaluated, _ = judged(two, PLAYED, "08:57")
    assert [e.status.over for e in evaluated["A"]] == [minutes(2), minutes(4), minutes(6),
                                                       minutes(8)]  # fmt: skip


def test_a_no_show_makes_the_group_a_two_ball_from_its_start():
    no_show = change("player_withdrawn", "07:50", group="A", player="A3", reason="no_show")
    setup = changes.apply(THREE, [no_show])
    assert [p.name for p in setup.groups[0].players] == ["A1", "A2"]
    evaluated, _ = judged(setup, PLAYED, "08:57")
    assert evaluated["A"][0].status.over == minutes(2)


def test_a_retirement_before_the_start_counts_from_the_start_and_a_void_undoes_it():
    retired = change("player_withdrawn", "07:55", group="A", player="A3", reason="retired")
    setup = changes.apply(THREE, [retired])
    assert position.plan_field(setup).by_id["A"].cumulative_at({}, at("08:00"))[1] == minutes(12)
    assert changes.apply(THREE, [retired, void(retired)]) == THREE


# -- a start time moved before play re-plans the field -------------------------------------

STARTS = {"1": "08:00", "2": "08:10", "3": "08:20", "4": "08:30"}
FOUR = make_setup(FLAT, [make_group(g, t, size=3) for g, t in STARTS.items()])


def test_a_start_moved_before_play_plans_the_field_again():
    moved = change("group_start_changed", "07:40", group="2", start=at("08:40").isoformat(),
                   reason="waiting for a player")  # fmt: skip
    plan = position.plan_field(changes.apply(FOUR, [moved]))
    roles = {p.id: (p.lead, p.interval) for p in plan.groups}
    assert plan.standard_interval == minutes(10)
    assert roles["3"] == (True, minutes(20))  # 20 min after group 1: a starter's gap
    assert roles["4"] == (False, minutes(10))
    assert roles["2"] == (False, minutes(10))  # now behind group 4
    before = position.plan_field(FOUR).by_id["3"]
    assert (before.lead, before.interval) == (False, minutes(10))


def test_a_tee_change_plays_the_course_from_the_new_tee():
    moved = change("group_tee_changed", "07:40", group="4", tee=10, reason="tee 1 is full")
    plan = position.plan_field(changes.apply(FOUR, [moved]))
    assert plan.by_id["4"].order[:2] == (10, 11)
    assert plan.by_id["4"].lead  # the first group off tee 10


# -- moves, swaps, entries, groups ---------------------------------------------------------


def test_moves_swaps_entries_and_groups_change_the_draw_in_log_order():
    log = [change("player_moved", "07:30", player="11", **{"from": "1", "to": "2"}, reason="r")]
    setup = make_setup(FLAT, [
        make_group("1", "08:00", size=2), make_group("2", "08:10", size=2),
    ])  # fmt: skip
    moved = changes.apply(setup, log[:1])
    assert [[p.name for p in g.players] for g in moved.groups] == [["12"], ["21", "22", "11"]]
    swap = change("players_swapped", "07:32", group="1", player="12", other_group="2",
                  other="21", reason="car sharing")  # fmt: skip
    added = change("player_added", "07:33", group="1", player={"name": "Late", "handicap": 12.4},
                   reason="late entry")  # fmt: skip
    new = change("group_added", "07:34", group="9", start=at("08:50").isoformat(), tee=1,
                 players=[{"name": "N1"}, {"name": "N2"}], reason="late entries")  # fmt: skip
    removed = change("group_removed", "07:35", group="2", reason="all withdrew")
    out = changes.apply(setup, [log[0], swap, added, new])
    assert [[p.name for p in g.players] for g in out.groups] == [
        ["21", "Late"], ["12", "22", "11"], ["N1", "N2"],
    ]  # fmt: skip
    assert out.groups[0].players[1].handicap == 12.4
    assert [g.id for g in changes.apply(setup, [new, removed]).groups] == ["1", "9"]
    # a change that no longer applies once an earlier one is voided is skipped
    late = change("player_moved", "07:36", player="Late", **{"from": "1", "to": "2"}, reason="r")
    assert changes.apply(setup, [added, late]).groups[1].players[-1].name == "Late"
    assert changes.apply(setup, [added, void(added), late]).groups == setup.groups


# -- the refusals --------------------------------------------------------------------------

DRAW = make_setup(FLAT, [make_group("1", "08:00", size=3), make_group("2", "08:10", size=3),
                         make_group("3", "08:20", size=3)])  # fmt: skip
FACTS = RoundFacts(completions=completions({"1": {1: "08:14", 2: "08:29"}}))
LATER = at("08:12").isoformat()


@pytest.mark.parametrize(
    ("kind", "payload", "code", "words"),
    [
        ("player_moved", {"player": "11", "from": "1", "to": "3"}, "group_has_played",
         "as retired instead"),
        ("player_moved", {"player": "31", "from": "3", "to": "1"}, "group_has_played",
         "move the player to a group that has not played"),
        ("players_swapped", {"group": "1", "player": "11", "other_group": "2", "other": "21"},
         "group_has_played", "before either group plays"),
        ("group_start_changed", {"group": "1", "start": LATER}, "group_has_played",
         "grant it a time credit"),
        ("group_tee_changed", {"group": "1", "tee": 10}, "group_has_played", "void its"),
        ("group_removed", {"group": "1"}, "group_has_played", "withdraw it instead"),
        ("player_added", {"group": "1", "player": {"name": "Late"}}, "group_has_played",
         "or add a group"),
        ("player_withdrawn", {"group": "1", "player": "11", "reason": "no_show"},
         "group_has_played", "as retired (counted from now on)"),
        ("players_swapped", {"group": "2", "player": "21", "other_group": "2", "other": "21"},
         "same_player", "name two players"),
        ("player_moved", {"player": "21", "from": "2", "to": "2"}, "same_group", "already"),
        ("player_added", {"group": "2", "player": {"name": "31"}}, "player_exists",
         "already in group 3"),
        ("group_added", {"group": "2", "start": LATER, "tee": 1, "players": [{"name": "N"}]},
         "group_exists", "another id"),
        ("group_tee_changed", {"group": "2", "tee": 19}, "unknown_hole", "not a hole"),
        ("player_moved", {"player": "Nobody", "from": "2", "to": "3"}, "unknown_player",
         "its players are 21, 22, 23"),
    ],
)  # fmt: skip
def test_a_change_that_would_rewrite_what_happened_is_refused_saying_what_to_do(
    kind, payload, code, words
):
    e = change(kind, "08:30", **{"reason": "r", **payload})
    with pytest.raises(changes.PaceError) as refused:
        changes.check(DRAW, FACTS, e, hhmm)
    assert refused.value.code == code
    assert words in refused.value.message


def test_an_unknown_group_is_refused():
    with pytest.raises(UnknownGroupError, match="its groups are 1, 2, 3"):
        changes.check(DRAW, FACTS, change("group_removed", "08:30", group="9", reason="r"), hhmm)


def test_a_retirement_before_a_later_completion_is_refused_and_after_it_allowed():
    early = change("player_withdrawn", "08:20", group="1", player="11", reason="retired")
    with pytest.raises(changes.ChangeRefused, match="give an instant after 08:29"):
        changes.check(DRAW, FACTS, early, hhmm)
    late = change("player_withdrawn", "08:35", group="1", player="11", reason="retired")
    changes.check(DRAW, FACTS, late, hhmm)  # allowed: from 08:35 on


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("group_start_changed", {"group": "2", "start": at("08:40").isoformat()}),
        ("group_tee_changed", {"group": "3", "tee": 10}),
        ("player_moved", {"player": "21", "from": "2", "to": "3"}),
        ("players_swapped", {"group": "2", "player": "21", "other_group": "3", "other": "33"}),
        ("player_added", {"group": "2", "player": {"name": "Late"}}),
        ("player_withdrawn", {"group": "2", "player": "21", "reason": "no_show"}),
        ("group_removed", {"group": "3"}),
    ],
)
def test_the_same_changes_are_allowed_before_the_groups_play(kind, payload):
    changes.check(DRAW, FACTS, change(kind, "08:30", **{"reason": "r", **payload}), hhmm)


def test_a_void_that_would_change_a_group_that_played_is_refused():
    moved = change("player_moved", "07:30", player="11", **{"from": "1", "to": "2"}, reason="r")
    retired = change("player_withdrawn", "08:40", group="2", player="21", reason="retired")
    played = RoundFacts(completions=completions({"2": {1: "08:24"}}))
    with pytest.raises(changes.ChangeRefused, match="group 1 completed hole|group 2 completed"):
        changes.check_void(DRAW, [moved], void(moved), played, hhmm)
    changes.check_void(DRAW, [moved, retired], void(retired), played, hhmm)  # allowed


def test_the_report_reads_each_hole_as_its_allotment_stood_at_its_completion():
    from pace.rules import report

    retired = change("player_withdrawn", "08:30", group="A", player="A3", reason="retired")
    setup = changes.apply(THREE, [retired])
    facts = RoundFacts(completions=completions(PLAYED))
    built = report.build_report(setup, facts, [retired], None, at("12:00"))
    [group] = built.groups
    rows = {r.hole: r for r in group.holes}
    assert [rows[h].allotted for h in (1, 2, 3, 4, 5)] == [minutes(14)] * 3 + [minutes(12)] * 2
    assert rows[3].over == minutes(0) and rows[4].over == minutes(2)
    assert rows[4].status is Status.OUT_OF_POSITION


def test_a_player_moves_to_other_tees_of_the_course_before_his_group_plays():
    """Issue 38: the player's tees change; tees the course lacks, or not rated for women, or a
    course without tee sets, are refused; so is a change once his group completed a hole."""
    from dataclasses import replace

    from pace.rules.model import Player, TeeSet

    course = replace(FLAT, tees=(TeeSet("Yellow"), TeeSet("Red", "red", women_slope=120)))
    group = replace(make_group("1", "08:00"), players=(Player("Ann", gender="women", tees="Red"),
                                                       Player("Bob", tees="Yellow")))  # fmt: skip
    setup = make_setup(course, [group])
    moved = changes.apply(setup, [change("player_tees_changed", "07:30", group="1",
                                         player="Bob", tees="red", reason="r")])  # fmt: skip
    assert [p.tees for p in moved.groups[0].players] == ["Red", "Red"]
    for who, tees, words in (("Bob", "Pink", "its tees are Yellow, Red"),
                             ("Ann", "Yellow", "no women's slope or rating"),
                             ("Bob", "Yellow", "already plays from the Yellow tees")):  # fmt: skip
        e = change("player_tees_changed", "07:30", group="1", player=who, tees=tees, reason="r")
        with pytest.raises(changes.ChangeRefused, match=words):
            changes.check(setup, RoundFacts(), e, hhmm)
    plain = make_setup(FLAT, [group])
    e = change("player_tees_changed", "07:30", group="1", player="Bob", tees="Red", reason="r")
    with pytest.raises(changes.ChangeRefused, match="has no tee sets") as refused:
        changes.check(plain, RoundFacts(), e, hhmm)
    assert refused.value.code == "unknown_tees"
    played = RoundFacts(completions=completions({"1": {1: "08:15"}}))
    with pytest.raises(changes.ChangeRefused, match="tees change only before") as refused:
        changes.check(setup, played, replace(e, at=at("08:30")), hhmm)
    assert refused.value.code == "player_has_scores"

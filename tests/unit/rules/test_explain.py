"""Why a group was named (issue 30): explanations worked by hand from docs/rules.md §2, §3, §5, §8.

The course: six par 4s, so 15 minutes a hole for a four-ball, 14 for a three-ball and 12 for a
two-ball (docs/rules.md §1). Each case is read twice, from the live fold and from the whole log
(the report's reading): both must give the same explanation.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from pace.rules import explain as ex
from pace.rules import facts as factsmod
from pace.rules import position
from pace.rules.changes import PLAYER_WITHDRAWN
from pace.rules.events import Event
from pace.rules.fieldfold import fold_all
from pace.rules.model import Status
from pace.rules.report import build_report
from tests.builders import at, make_course, make_group, make_setup, minutes

MARSHAL = {"role": "marshal", "name": "Marie"}
REFEREE = {"role": "referee", "name": "Anne"}
COMMITTEE = {"role": "committee", "device": "console"}
COURSE = make_course(pars=[4] * 6)


def tap(id: str, group: str, hole: int, when: str, by=MARSHAL) -> Event:
    return Event(id, factsmod.HOLE_COMPLETED, "R", at(when), {"group": group, "hole": hole}, by)


def siren(id: str, kind: str, when: str) -> Event:
    return Event(id, factsmod.SIREN, "R", at(when), {"kind": kind}, COMMITTEE)


def credit(id: str, group: str, amount: float, when: str, reason: str) -> Event:
    payload = {"group": group, "minutes": amount, "reason": reason}
    return Event(id, factsmod.TIME_CREDIT_GRANTED, "R", at(when), payload, REFEREE)


def readings(setup, events, now: datetime):
    """Return the live fold's reading and the whole log's, and the log's sources."""
    plan = position.plan_field(setup)
    live = fold_all(setup, plan, events, now)
    whole = ex.LogReading(setup, factsmod.fold(events), now, plan)
    return live, whole, ex.Sources(events)


def both(setup, events, now, subject, group, when):
    live, whole, sources = readings(setup, events, now)
    x = ex.explain(live, sources, subject, group, when)
    assert x is not None
    assert ex.explain(whole, sources, subject, group, when) == x  # one reading, two folds
    return x


# Group A (four-ball) leads off at 08:00; B (three-ball) follows at 08:10, C (two-ball) at 08:18
# (interval 8; the standard interval is the committee's 10). A siren stops play 08:30–08:36.
GROUPS = [make_group("A", "08:00", size=4), make_group("B", "08:10", size=3),
          make_group("C", "08:18", size=2)]  # fmt: skip
LOG = [
    tap("a1", "A", 1, "08:14"),
    tap("b1", "B", 1, "08:24"),
    tap("a2", "A", 2, "08:29"),
    siren("s1", "suspension", "08:30"),
    tap("c1", "C", 1, "08:31", by={"role": "marshal", "device": "phone-1"}),
    siren("s2", "resume", "08:36"),
    tap("a3", "A", 3, "08:45"),
    tap("b2", "B", 2, "08:50"),
    credit("k1", "B", 4, "08:55", "ruling"),
    tap("b3", "B", 3, "09:02"),
]


def setup_abc():
    return make_setup(COURSE, GROUPS, standard_interval=minutes(10))


def test_a_following_group_out_of_position_is_explained_by_its_clock_its_gap_and_the_siren():
    # B completes hole 2 at 08:50: 40 minutes since its start, 6 of them stopped by the siren,
    # so 34 played against 2 × 14 = 28 allotted to a three-ball: 6 over; A completed hole 2 at
    # 08:29, a gap of 21 minutes against B's interval of 10: out of position (§3).
    x = both(setup_abc(), LOG, at("09:30"), ex.OUT_OF_POSITION, "B", at("08:50"))
    assert (x.status, x.basis, x.hole, x.holes_completed, x.size) == (
        Status.OUT_OF_POSITION, ex.COMPLETION, 2, 2, 3)  # fmt: skip
    assert (x.clock, x.stopped, x.credited, x.elapsed, x.allotted, x.over) == (
        minutes(40), minutes(6), minutes(0), minutes(34), minutes(28), minutes(6))  # fmt: skip
    assert (x.gap, x.ahead, x.ahead_at, x.interval, x.limit) == (
        minutes(21), "A", at("08:29"), minutes(10), minutes(10))  # fmt: skip
    assert x.verdict() is Status.OUT_OF_POSITION
    # C, behind it, is playing hole 2 at 08:50: 32 minutes less 6 stopped = 26 against 24
    # allotted to a two-ball, 2 over, and B has just left the hole: waiting (behind)
    assert x.behind == (ex.Waiting("C", Status.BEHIND, 2, minutes(2), minutes(0)),)
    assert [(ln.at, ln.kind, ln.group, ln.fact and ln.fact.id, ln.detail) for ln in x.timeline] == [
        (at("08:10"), ex.START, "B", None, None),
        (at("08:29"), ex.AHEAD, "A", "a2", None),
        (at("08:30"), ex.SIREN, None, "s1", "suspension"),
        (at("08:36"), ex.SIREN, None, "s2", "resume"),
        (at("08:50"), ex.TAP, "B", "b2", None),
        (at("08:50"), ex.VERDICT, "B", None, "out_of_position"),
        (at("08:50"), ex.WAITING, "C", None, "behind"),
    ]
    assert x.timeline[1].fact is not None and x.timeline[1].fact.by == MARSHAL


def test_a_credit_that_puts_a_group_back_in_position_shows_in_its_explanation():
    # B completes hole 3 at 09:02: 52 minutes, 6 stopped, 4 credited by Anne at 08:55 (§5):
    # 42 played against 3 × 14 = 42 allotted, not over time: back in position
    x = both(setup_abc(), LOG, at("09:30"), ex.BACK_IN_POSITION, "B", at("09:02"))
    assert (x.status, x.hole, x.clock, x.stopped, x.credited, x.elapsed, x.allotted, x.over) == (
        Status.ON_PACE, 3, minutes(52), minutes(6), minutes(4), minutes(42), minutes(42),
        minutes(0))  # fmt: skip
    assert x.verdict() is Status.ON_PACE
    credit_line = next(ln for ln in x.timeline if ln.kind == ex.CREDIT)
    assert (credit_line.at, credit_line.amount, credit_line.detail) == (
        at("08:55"), minutes(4), "ruling")  # fmt: skip
    assert credit_line.fact is not None and (credit_line.fact.id, credit_line.fact.by) == (
        "k1", REFEREE)  # fmt: skip


def test_a_corrected_tap_names_its_correction():
    fix = Event("f1", factsmod.HOLE_TIME_CORRECTED, "R", at("08:52"),
                {"target": "b2", "at": at("08:49").isoformat()}, REFEREE)  # fmt: skip
    x = both(setup_abc(), [*LOG, fix], at("09:30"), ex.OUT_OF_POSITION, "B", at("08:49"))
    own = next(ln for ln in x.timeline if ln.kind == ex.TAP)
    assert own.fact == ex.Fact("b2", at("08:49"), MARSHAL, ("f1",))
    assert (x.clock, x.over, x.gap) == (minutes(39), minutes(5), minutes(20))


def test_a_three_ball_become_a_two_ball_is_allotted_as_a_two_ball_from_its_next_hole():
    # L, a three-ball, leads off at 08:00; L3 retires at 08:20, during hole 2 (begun at 08:14
    # as a three-ball: it keeps 14 minutes); hole 3, begun at 08:40 by two, gets 12. At 09:00
    # L is playing hole 3: 60 minutes against 14 + 14 + 12 = 40, 20 over, and a lead group
    # over time on the clock is overdue (§3).
    group = replace(make_group("L", "08:00", size=3), retired=(("L3", at("08:20")),))
    retire = Event("w1", PLAYER_WITHDRAWN, "R", at("08:20"),
                   {"group": "L", "player": "L3", "reason": "retired"}, COMMITTEE)  # fmt: skip
    log = [tap("l1", "L", 1, "08:14"), retire, tap("l2", "L", 2, "08:40")]
    x = both(make_setup(COURSE, [group]), log, at("09:00"), ex.OVERDUE, "L", at("09:00"))
    assert (x.status, x.basis, x.hole, x.holes_completed, x.size, x.lead) == (
        Status.OVERDUE, ex.PROJECTION, 3, 2, 2, True)  # fmt: skip
    assert (x.clock, x.elapsed, x.allotted, x.over, x.gap) == (
        minutes(60), minutes(60), minutes(40), minutes(20), None)  # fmt: skip
    assert x.verdict() is Status.OVERDUE
    retired = next(ln for ln in x.timeline if ln.kind == ex.RETIRED)
    assert (retired.at, retired.detail, retired.fact and retired.fact.id) == (
        at("08:20"), "L3", "w1")  # fmt: skip
    # the same clock before the retirement would allot the third hole 14 minutes
    whole = make_setup(COURSE, [make_group("L", "08:00", size=3)])
    y = both(whole, [log[0], log[2]], at("09:00"), ex.OVERDUE, "L", at("09:00"))
    assert (y.size, y.allotted, y.over) == (3, minutes(42), minutes(18))


def test_who_held_the_field_up_is_explained_by_the_chain_of_groups_waiting_behind():
    # A (lead, four-ball) completes hole 1 at 08:25: 10 over its 15 minutes, open course
    # ahead: out of position. B completes it at 08:30 (20 minutes, 5 over, 5 behind A: within
    # its 10) and C at 08:36 (16 minutes, 1 over, 6 behind B): both waiting (docs/reports.md).
    groups = [make_group(g, t, size=4) for g, t in (("A", "08:00"), ("B", "08:10"),
                                                     ("C", "08:20"))]  # fmt: skip
    setup = make_setup(COURSE, groups)
    log = [tap("a1", "A", 1, "08:25"), tap("b1", "B", 1, "08:30"), tap("c1", "C", 1, "08:36")]
    now = at("09:00")
    facts = factsmod.fold(log)
    report = build_report(setup, facts, log, None, now)
    (u,) = report.field.held_up
    held = [x for x in report.group("A").explanations if x.subject == ex.HELD_UP]
    assert len(held) == 1
    x = held[0]
    assert (x.hole, x.at, x.over, x.lead, x.gap, x.status) == (
        1, at("08:25"), minutes(10), True, None, Status.OUT_OF_POSITION)  # fmt: skip
    assert [(w.group, w.status, w.over, w.gap, w.at) for w in x.behind] == [
        ("B", Status.BEHIND, minutes(5), minutes(5), at("08:30")),
        ("C", Status.BEHIND, minutes(1), minutes(6), at("08:36")),
    ]
    assert [(g, o) for g, o in u.worst.behind] == [(w.group, w.over) for w in x.behind]
    assert [ln.fact.id for ln in x.timeline if ln.kind == ex.TAP and ln.fact] == ["a1", "b1", "c1"]
    # the same reading from the live fold
    live, _, sources = readings(setup, log, now)
    assert ex.explain_hold(live, sources, "A", 1, ["B", "C"]) == x


def test_the_report_explains_every_episode_start_and_end():
    report = build_report(setup_abc(), factsmod.fold(LOG), LOG, None, at("09:30"))
    got = [(x.subject, x.at, x.status) for x in report.group("B").explanations]
    assert got == [
        (ex.OUT_OF_POSITION, at("08:50"), Status.OUT_OF_POSITION),
        (ex.BACK_IN_POSITION, at("09:02"), Status.ON_PACE),
    ]


def test_an_explanation_reads_as_json_with_who_recorded_each_fact():
    x = both(setup_abc(), LOG, at("09:30"), ex.OUT_OF_POSITION, "B", at("08:50"))
    doc = ex.as_document(x, lambda by: str(by.get("name") or by.get("role")))
    assert (doc["over_min"], doc["gap_min"], doc["limit_min"], doc["allotted_min"]) == (
        6.0, 21.0, 10.0, 28.0)  # fmt: skip
    assert doc["timeline"][1]["fact"] == {
        "id": "a2", "at": at("08:29").isoformat(), "by": "Marie", "corrected": []}  # fmt: skip
    assert doc["behind"] == [
        {"group": "C", "status": "behind", "hole": 2, "over_min": 2.0, "gap_min": 0.0}
    ]

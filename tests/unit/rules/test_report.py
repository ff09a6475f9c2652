"""The post-round report as pure data, on hand-worked rounds (issue 12).

Course: three holes, all par 4, so a 4-ball has 15 minutes a hole (docs/rules.md §1) and the
cumulative allotments are 15, 30 and 45 minutes. Every number below is worked by hand.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pace.rules import policies, report
from pace.rules.events import Event
from pace.rules.model import Status
from pace.rules.position import plan_field
from pace.rules.report.holes import due_instant
from tests.builders import at, credit, make_course, make_facts, make_group, make_setup, suspension

M = timedelta(minutes=1)
THREE_PAR_4 = make_course(pars=[4, 4, 4])

# -- a round where group 2 holds up the five groups behind it ------------------------------
#
# Starts every 10 minutes from 08:00 (groups 1..7). Group 1 plays to the allotment. Group 2
# takes 20 minutes a hole: out of position from hole 1 (over time, 15, 20, 25 minutes behind
# group 1). Groups 3..7 each hole out 8 minutes after the group ahead (close: within their
# 10-minute interval). At hole 3 (45 minutes allotted) they are 13, 11, 9, 7 and 5 minutes
# over: `behind`, held up by group 2. At hole 2 group 7 is exactly on its allotment (30 min),
# so the chain there stops after group 6; at hole 1 groups 5..7 are still under.

HOLDUP_SETUP = make_setup(
    THREE_PAR_4,
    [make_group(str(i + 1), f"08:{i * 10:02d}" if i < 6 else "09:00") for i in range(7)],
)
HOLDUP_SETUP_PLAN = plan_field(HOLDUP_SETUP)
_G2 = ("08:30", "08:50", "09:10")


def _plus(hhmm: str, minutes: int) -> str:
    t = at(hhmm) + minutes * M
    return t.strftime("%H:%M")


HOLDUP_LOG = {
    "1": {1: "08:15", 2: "08:30", 3: "08:45"},
    "2": dict(zip((1, 2, 3), _G2, strict=True)),
    **{str(k): {h: _plus(_G2[h - 1], 8 * (k - 2)) for h in (1, 2, 3)} for k in range(3, 8)},
}


def holdup_report(**kw):
    facts = make_facts(HOLDUP_LOG)
    return report.build_report(HOLDUP_SETUP, facts, (), policies.FRBG, at("12:00"), **kw)


def test_the_group_with_open_course_ahead_is_named_as_holding_up_the_five_behind_it():
    r = holdup_report()
    [culprit] = r.field.held_up
    assert culprit.group == "2"
    assert culprit.groups == 5
    assert culprit.worst.hole == 3 and culprit.worst.at == at("09:10")
    assert [g for g, _ in culprit.worst.behind] == ["3", "4", "5", "6", "7"]
    assert [o // M for _, o in culprit.worst.behind] == [13, 11, 9, 7, 5]
    assert culprit.minutes == 45 * M
    # hole by hole: the chain stops at the first group on pace
    assert [(h.hole, len(h.behind)) for h in culprit.holes] == [(1, 2), (2, 4), (3, 5)]
    assert culprit.held == ("3", "4", "5", "6", "7")


def test_each_hole_has_its_logged_and_due_time_minutes_over_and_the_gap_ahead():
    g3 = holdup_report().group("3")
    rows = [(r.hole, r.logged, r.due, r.over // M, r.gap // M, r.ahead, r.status) for r in g3.holes]
    assert rows == [
        (1, at("08:38"), at("08:35"), 3, 8, "2", Status.BEHIND),
        (2, at("08:58"), at("08:50"), 8, 8, "2", Status.BEHIND),
        (3, at("09:18"), at("09:05"), 13, 8, "2", Status.BEHIND),
    ]
    assert [r.hole_time // M for r in g3.holes] == [18, 20, 20]


def test_the_culprit_is_out_of_position_for_one_episode_over_every_hole():
    g2 = holdup_report().group("2")
    [e] = g2.episodes
    assert e.episode.start == at("08:30") and e.episode.start_hole == 1
    assert e.episode.ended_by == "finished" and e.holes == (1, 2, 3)
    assert (e.worst_gap // M, e.worst_over // M, e.worst_hole) == (25, 15, 3)
    assert g2.round_time == 60 * M and g2.over == 15 * M


def test_the_field_summary_bands_the_finishing_times_and_names_the_bottlenecks():
    f = holdup_report().field
    assert f.finished == 7 and f.not_finished == ()
    assert [(b.low // M, b.high // M, b.groups) for b in f.bands] == [
        (-10, 0, ("1",)),
        (0, 10, ("5", "6", "7")),
        (10, 20, ("2", "3", "4")),
    ]
    # hole 1: 0 + 5 + 3 + 1 - 1 - 3 - 5 = 0 on average; holes 2 and 3: 6 groups 5 over, 30/7
    by_hole = {s.hole: s for s in f.holes}
    assert by_hole[1].hole_over == timedelta(0)
    assert by_hole[2].hole_over == by_hole[3].hole_over == 30 * M / 7
    assert f.bottlenecks == (2, 3)
    assert f.stoppages == () and f.stopped == timedelta(0)


def test_live_holdups_say_whether_the_group_is_still_holding_the_field_up():
    facts = make_facts(HOLDUP_LOG)
    [(u, going)] = report.field_holdups(HOLDUP_SETUP, facts, at("12:00"))
    assert u.group == "2" and going is False  # finished: it holds nobody up any more
    early = {g: {h: t for h, t in holes.items() if h <= 2} for g, holes in HOLDUP_LOG.items()}
    [(u, going)] = report.field_holdups(HOLDUP_SETUP, make_facts(early), at("09:40"))
    assert (u.group, u.groups, going) == ("2", 4, True)


def test_a_lead_group_that_slows_everyone_holds_the_field_up_too():
    setup = make_setup(THREE_PAR_4, [make_group("A", "08:00"), make_group("B", "08:10")])
    # A (lead) 5 over at hole 1; B holes out 6 minutes later, 1 over: waiting on A
    facts = make_facts({"A": {1: "08:20"}, "B": {1: "08:26"}})
    [u] = report.build_report(setup, facts, (), None, at("08:30")).field.held_up
    assert (u.group, u.groups, u.minutes) == ("A", 1, 1 * M)


def test_nobody_held_the_field_up_when_the_slow_groups_are_far_apart():
    setup = make_setup(THREE_PAR_4, [make_group("A", "08:00"), make_group("B", "08:10")])
    # B is over time but 14 minutes behind A, more than its interval: out of position itself
    facts = make_facts({"A": {1: "08:20"}, "B": {1: "08:34"}})
    assert report.build_report(setup, facts, (), None, at("08:40")).field.held_up == ()


# -- a round with a suspension ----------------------------------------------------------------
#
# A starts 08:00, B 08:10. Three sirens at 08:20, two at 08:50: 30 minutes of stopped play.
# A: hole 1 at 08:14 (14 min: 1 under), hole 2 at 08:59 (59 - 30 stopped = 29: 1 under),
# hole 3 at 09:16 (76 - 30 = 46: 1 over). Hole 2 was due at 08:00 + 30 + 30 = 09:00.

SIREN_SETUP = make_setup(THREE_PAR_4, [make_group("A", "08:00"), make_group("B", "08:10")])
SIREN_FACTS = make_facts(
    {"A": {1: "08:14", 2: "08:59", 3: "09:16"}, "B": {1: "08:24", 2: "09:09", 3: "09:25"}},
    suspensions=[suspension("08:20", "08:50")],
)


def test_a_suspension_moves_the_due_times_and_is_not_counted_as_time_over():
    a = report.build_report(SIREN_SETUP, SIREN_FACTS, (), None, at("12:00")).group("A")
    assert [(r.due, r.over // M) for r in a.holes] == [
        (at("08:15"), -1),
        (at("09:00"), -1),
        (at("09:15"), 1),
    ]
    hole_2 = a.holes[1]
    assert (hole_2.stopped // M, hole_2.hole_time // M, hole_2.hole_over // M) == (30, 15, 0)
    assert a.round_time == 76 * M and a.stopped == 30 * M and a.over == 1 * M
    assert a.episodes[0].episode.start == at("09:16")  # out of position only at the last hole


def test_the_time_lost_to_sirens_counts_the_stop_once_and_each_group_on_the_course():
    f = report.build_report(SIREN_SETUP, SIREN_FACTS, (), None, at("12:00")).field
    [stop] = f.stoppages
    assert (stop.kind, stop.start, stop.end, stop.duration) == (
        "suspension",
        at("08:20"),
        at("08:50"),
        30 * M,
    )
    assert stop.groups == ("A", "B")
    assert f.stopped == 30 * M and f.group_stopped == 60 * M


def test_a_stop_still_running_leaves_the_next_due_time_unknown():
    facts = make_facts({"A": {1: "08:14"}}, suspensions=[suspension("08:20")])
    a = report.build_report(SIREN_SETUP, facts, (), None, at("08:40")).group("A")
    assert a.holes[0].due == at("08:15") and a.holes[1].due is None
    assert a.stopped == 20 * M


@pytest.mark.parametrize(
    "credits, due",
    [
        ([], "08:30"),
        ([("08:10", 6)], "08:36"),  # granted before the due instant: it moves it
        ([("08:40", 6)], "08:30"),  # granted after: the hole was already due
    ],
    ids=["none", "before", "after"],
)
def test_a_time_credit_granted_before_the_due_instant_moves_it(credits, due):
    cs = [credit("A", t, m) for t, m in credits]
    assert due_instant(at("08:00"), 30 * M, (), cs) == at(due)


def test_minutes_over_count_the_credits_granted_up_to_that_completion():
    facts = make_facts(
        {"A": {1: "08:20", 2: "08:36"}}, credits=[credit("A", "08:25", 6, "lost ball")]
    )
    a = report.build_report(SIREN_SETUP, facts, (), None, at("09:00")).group("A")
    assert [r.over // M for r in a.holes[:2]] == [5, 0]  # 36 - 6 credited = 30
    assert a.holes[1].credited == 6 * M and a.credited == 6 * M


# -- the referees' side ------------------------------------------------------------------------


def ev(id: str, type: str, hhmm: str, by: str = "Anne", **payload) -> Event:
    return Event(id, type, "r", at(hhmm), payload, by={"role": "referee", "name": by})


def stroke(id: str, hhmm: str, seconds: int, hole: int, player: str = "A1") -> Event:
    stopped = at(hhmm)
    started = stopped - timedelta(seconds=seconds)
    return ev(
        id, "stroke_timed", hhmm, group="A", player=player, hole=hole, kind="other",
        first_to_play=False, between_holes=False,
        started=started.isoformat(), stopped=stopped.isoformat(),
    )  # fmt: skip


REFEREE_LOG = [
    ev("d0", "timing_decided", "08:18", group="A", decision="not_time", reason="lost_ball"),
    ev("d1", "timing_decided", "08:22", group="A", decision="time", by="Bruno"),
    ev("t1", "player_told_timed", "08:23", group="A", player="A1"),
    stroke("s1", "08:25", 46, 2),
    stroke("s2", "08:27", 38, 2),
    ev("n1", "player_notified", "08:28", group="A", player="A1", fault="s1", by="Chloé"),
    stroke("s3", "08:31", 52, 2),
    ev("x", "timing_stopped", "08:40", group="A"),
]


def test_decisions_spells_tells_strokes_and_penalties_are_reported_with_who_and_when():
    facts = make_facts({"A": {1: "08:20", 2: "08:38"}})
    r = report.build_report(SIREN_SETUP, facts, REFEREE_LOG, policies.FRBG, at("09:00"))
    a = r.group("A")
    assert [(d.decision, d.reason, d.by) for d in a.acts.decisions] == [
        ("not_time", "lost_ball", "Anne"),
        ("time", None, "Bruno"),
    ]
    [spell] = a.acts.spells
    assert (spell.start, spell.by, spell.end) == (at("08:22"), "Bruno", at("08:40"))
    a1 = a.players[0]
    assert [(t.at, t.by) for t in a1.told] == [(at("08:23"), "Anne")]
    assert [(s.verdict.stroke.id, s.verdict.is_bad_time) for s in a1.strokes] == [
        ("s1", True),
        ("s2", False),
        ("s3", True),
    ]
    assert a1.bad_times == 2
    first, second = a1.faults
    assert first.outcome.penalty.kind == "warning"
    assert (first.notified.at, first.notified.by) == (at("08:28"), "Chloé")
    assert (second.outcome.penalty.kind, second.outcome.penalty.hole) == ("strokes", 2)
    assert second.notified is None and second.stroke.over == timedelta(seconds=12)
    assert [p.kind for p in a1.penalties] == ["warning", "strokes"]


def test_a_voided_stroke_is_not_reported():
    log = [*REFEREE_LOG, ev("v", "event_voided", "08:45", target="s3", reason="wrong player")]
    facts = make_facts({"A": {1: "08:20", 2: "08:38"}})
    r = report.build_report(SIREN_SETUP, facts, log, policies.FRBG, at("09:00"))
    assert [s.verdict.stroke.id for s in r.group("A").players[0].strokes] == ["s1", "s2"]


def test_under_a_checkpoint_policy_the_breach_is_reported_with_its_stretch():
    six = make_course(pars=[4] * 6)
    setup = make_setup(six, [make_group("A", "08:00")])
    facts = make_facts({"A": {6: "09:35"}})  # 95 minutes for holes 1-6: 5 over the 90
    r = report.build_report(setup, facts, (), policies.MAURICIE, at("10:00"))
    fault = r.group("A").players[0].faults[0]
    assert fault.breach is not None and fault.breach.taken == 95 * M
    assert fault.outcome.penalty.kind == "warning"


# -- the live panel's reading, kept from one tick to the next -------------------------------

@settings(max_examples=150, deadline=None)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["tap", "move", "void", "credit", "stop", "resume"]),
            st.integers(0, 6),  # a group (its index)
            st.integers(1, 3),  # a hole
            st.integers(0, 150),  # minutes after 08:00
        ),
        min_size=1,
        max_size=25,
    )
)
def test_a_reading_kept_from_the_last_one_equals_a_reading_anew(steps):
    # the live hold-up panel reads the field again at each tick once the log grew, keeping
    # each group's holes while what they read is unchanged (issue 37): whatever the log did
    # in between (taps, corrections, voids, credits, stops of play), the reading is a new one's
    log: dict[str, dict[int, str]] = {}
    credits, sirens = [], []
    kept: report.KeptRows = {}
    for n, (kind, g, hole, minute) in enumerate(steps):
        group, when = str(g + 1), _plus("08:00", minute)
        if kind in ("tap", "move"):
            log.setdefault(group, {})[hole] = when
        elif kind == "void":
            log.get(group, {}).pop(hole, None)
        elif kind == "credit":
            credits.append(credit(group, when, 2 + g % 3))
        elif kind == "stop" and not (sirens and sirens[-1][1] is None):
            sirens.append((when, None))
        elif kind == "resume" and sirens and sirens[-1][1] is None and sirens[-1][0] < when:
            sirens[-1] = (sirens[-1][0], when)
        facts = make_facts(log, [suspension(s, e) for s, e in sirens], credits)
        now = at("08:00") + (60 + 10 * n) * M
        plan = HOLDUP_SETUP_PLAN
        again = report.run_steps(report.field_holdups_steps(HOLDUP_SETUP, facts, now, plan, kept))
        assert again == report.field_holdups(HOLDUP_SETUP, facts, now, plan)
        fresh = report.build_report(HOLDUP_SETUP, facts, (), None, now, plan=plan)
        assert {g: rows for g, (_, _, rows) in kept.items()} == {
            g.id: g.holes for g in fresh.groups
        }

"""A correction or a void re-judges only what it changes (issue 13).

Six two-balls off tee 1 ten minutes apart play five holes; C is slow on hole 3 and timed, E
is timed too. Once the log is folded (every group evaluated and judged, as the live service
leaves it), each later event must touch only the groups whose evaluations or referee acts it changes
(their judgement's key moves), judge again only those of them whose judgement reads the change
(counted by the calls of ``refereefold.judge_group``: the spells read the instants a group is
found back in position, a stroke with no hole written the completions up to its end), and the
judgement must still equal the whole log's (``refereeing.judge_round``).
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from pace.rules import facts as factsmod
from pace.rules import policies, position, refereefold
from pace.rules import refereeing as rr
from pace.rules.events import Event
from pace.rules.fieldfold import FAR, FieldFold
from pace.rules.model import Status
from pace.rules.refereefold import RefereeFold
from tests.builders import at, make_course, make_group, make_setup

GROUPS = [make_group(g, f"08:{10 * i:02d}", size=2) for i, g in enumerate("ABCDEF")]
SETUP = make_setup(make_course(pars=[4] * 9), GROUPS)


def event(type: str, instant, payload: dict) -> Event:
    return Event(str(uuid.uuid4()), type, "R", instant, payload)


def played() -> tuple[list[Event], dict[tuple[str, int], Event], dict[str, Event]]:
    """Return the log, its taps by (group, hole), and a timed stroke of C and of E."""
    log: list[Event] = []
    taps = {}
    for i, g in enumerate(GROUPS):
        t = g.start
        for hole in range(1, 6):
            t += timedelta(minutes=12 + (9 if g.id == "C" and hole == 3 else 0))
            t = max(t, g.start + timedelta(minutes=12 * hole))
            if i and (GROUPS[i - 1].id, hole) in taps:  # never before the group ahead
                t = max(t, taps[(GROUPS[i - 1].id, hole)].at + timedelta(minutes=1))
            taps[(g.id, hole)] = event(factsmod.HOLE_COMPLETED, t, {"group": g.id, "hole": hole})
            log.append(taps[(g.id, hole)])
    strokes = {}
    for g, when in (("C", "09:00"), ("E", "09:20")):
        log.append(event(rr.TIMING_DECIDED, at(when), {"group": g, "decision": "time",
                                                       "reason": None, "note": ""}))  # fmt: skip
        started = at(when) + timedelta(minutes=3)
        strokes[g] = event(rr.STROKE_TIMED, started + timedelta(seconds=55), {
            "group": g, "player": f"{g}1", "hole": 4, "kind": "other", "first_to_play": False,
            "between_holes": False, "started": started.isoformat(),
            "stopped": (started + timedelta(seconds=55)).isoformat()})  # fmt: skip
        log.append(strokes[g])
    return sorted(log, key=lambda e: e.at), taps, strokes


@pytest.fixture
def judged(monkeypatch):
    """Return (fold, referees, log, taps, strokes, calls): the played round folded and judged;
    ``calls`` lists the groups judged since (``judge_group``'s calls)."""
    log, taps, strokes = played()
    plan = position.plan_field(SETUP)
    fold = FieldFold(SETUP, plan)
    referees = RefereeFold(fold, policies.FRBG)
    for e in log:
        fold.apply(e, e.at)
        referees.apply(e)
    referees.judgement()
    calls: list[str] = []
    real = refereefold.judge_group

    def counted(p, *args, **kwargs):
        calls.append(p.id)
        return real(p, *args, **kwargs)

    monkeypatch.setattr(refereefold, "judge_group", counted)
    return fold, referees, log, taps, strokes, calls


def apply(judged, e: Event) -> tuple[set[str], set[str]]:
    """Fold ``e`` (at the end of the round), judge the round; return the groups it touched
    (their judgement's key moved) and those judged again, after checking the judgement is the
    whole log's."""
    fold, referees, log, _, _, calls = judged
    keys = {p.id: referees.key(p.id) for p in fold.plan.groups}
    log.append(e)
    fold.apply(e, at("12:00"))
    referees.apply(e)
    got = referees.judgement()
    facts = factsmod.fold(log)
    plan = position.plan_field(SETUP)
    assert got == rr.judge_round(SETUP, facts, rr.fold(log), policies.FRBG, FAR, plan=plan)
    for p in plan.groups:
        assert fold.evaluations(p.id) == position.evaluations(SETUP, facts, FAR, plan)[p.id]
    touched = {g for g, k in keys.items() if referees.key(g) != k}
    out = set(calls)
    calls.clear()
    assert out <= touched
    return touched, out


def test_the_round_is_out_of_position_where_it_should_be(judged):
    fold, referees, *_ = judged
    out = {p.id for p in fold.plan.groups if any(e.status.status == Status.OUT_OF_POSITION
                                                 for e in fold.evaluations(p.id))}  # fmt: skip
    assert "C" in out  # the scenario has something to judge
    assert referees.judgement().outcomes  # and the timed strokes are faults


def test_a_corrected_tap_re_judges_its_group_and_the_one_whose_gap_it_sets(judged):
    _, _, _, taps, _, _ = judged
    target = taps[("A", 2)]
    new = (target.at + timedelta(seconds=30)).isoformat()
    e = event(factsmod.HOLE_TIME_CORRECTED, at("11:00"), {"target": target.id, "at": new})
    # B's gap on hole 2 is measured to A's completion; C's to B's, which did not move; neither
    # A nor B was timed: nothing of theirs to judge again
    assert apply(judged, e) == ({"A", "B"}, set())


def test_a_voided_tap_re_judges_its_group_and_the_one_behind_on_that_hole(judged):
    _, _, _, taps, _, _ = judged
    e = event(factsmod.EVENT_VOIDED, at("11:00"), {"target": taps[("D", 4)].id, "reason": "x"})
    # E's spell (09:20, back in position 09:28) reads nothing of D's hole 4 (09:58)
    assert apply(judged, e) == ({"D", "E"}, set())


def test_a_voided_stroke_re_judges_its_group_alone(judged):
    _, _, _, _, strokes, _ = judged
    e = event(factsmod.EVENT_VOIDED, at("11:00"), {"target": strokes["E"].id, "reason": "x"})
    assert apply(judged, e) == ({"E"}, {"E"})


def test_a_new_tap_at_the_end_of_the_round_re_judges_its_group_alone(judged):
    e = event(factsmod.HOLE_COMPLETED, at("10:30"), {"group": "F", "hole": 6})
    assert apply(judged, e) == ({"F"}, set())


def test_a_siren_re_judges_every_group(judged):
    e = event(factsmod.SIREN, at("09:30"), {"kind": "suspension"})
    # the spells (C's running since 09:00, E's 09:20–09:28) read nothing after 09:30
    assert apply(judged, e) == (set("ABCDEF"), set())


def test_a_tap_that_ends_a_running_spell_judges_its_group_again(judged):
    # C, timed from 09:00 and out of position since, holes out 6 at 09:30 (a minute after
    # its 5th) and is found back in position: its spell ends there
    _, referees, _, _, _, _ = judged
    assert referees.spells_of("C")[0].end is None
    e = event(factsmod.HOLE_COMPLETED, at("09:30"), {"group": "C", "hole": 6})
    assert apply(judged, e) == ({"C"}, {"C"})
    spell = referees.spells_of("C")[0]
    assert (spell.end, spell.ended_by) == (at("09:30"), "back_in_position")


def test_a_change_before_a_timed_group_s_latest_act_judges_it_again(judged):
    # C's hole 3 corrected to 12 minutes: its evaluations before its decision (09:00) move
    _, _, _, taps, _, _ = judged
    new = (taps[("C", 2)].at + timedelta(minutes=12)).isoformat()
    e = event(factsmod.HOLE_TIME_CORRECTED, at("11:00"), {"target": taps[("C", 3)].id, "at": new})
    assert "C" in apply(judged, e)[1]


def test_a_stroke_with_no_hole_is_judged_again_only_by_the_completions_before_its_end(judged):
    # the hole a penalty goes to is read from the completions up to the stroke's end (§6)
    _, _, _, taps, _, _ = judged
    started = at("09:36")
    stroke = event(rr.STROKE_TIMED, started + timedelta(seconds=70), {
        "group": "E", "player": "E2", "hole": None, "kind": "other", "first_to_play": False,
        "between_holes": True, "started": started.isoformat(),
        "stopped": (started + timedelta(seconds=70)).isoformat()})  # fmt: skip
    assert apply(judged, stroke) == ({"E"}, {"E"})
    later = event(factsmod.HOLE_COMPLETED, at("10:40"), {"group": "E", "hole": 6})
    assert apply(judged, later) == ({"E"}, set())  # after the stroke: read by nothing
    before = taps[("E", 2)]  # at 09:04, before the stroke's end
    moved = (before.at + timedelta(minutes=40)).isoformat()  # now after it
    e = event(factsmod.HOLE_TIME_CORRECTED, at("11:00"), {"target": before.id, "at": moved})
    assert apply(judged, e)[1] == {"E"}


def test_a_first_hole_tap_leaves_the_groups_not_yet_off_untouched():
    # issue 13: every tap on a first hole used to bump the whole field (7 % of a round's taps
    # evaluated every group); a group not off yet is not_started whatever the others did
    plan = position.plan_field(SETUP)
    fold = FieldFold(SETUP, plan)
    now = at("08:15")  # A and B are off (08:00, 08:10); C–F tee off from 08:20
    before = dict(fold.version)
    e = event(factsmod.HOLE_COMPLETED, at("08:12"), {"group": "A", "hole": 1})
    fold.apply(e, now)
    assert {g for g in before if fold.version[g] != before[g]} == {"A", "B"}
    # C's tee time wakes it: its status then is the whole log's
    c = fold.status("C", now)
    assert c.status == Status.NOT_STARTED and fold.wake("C", c, now) <= at("08:20")
    later = at("08:31")
    whole = position.evaluate_field(SETUP, factsmod.fold([e]), later, plan)
    assert [fold.status(p.id, later) for p in plan.groups] == list(whole.groups)

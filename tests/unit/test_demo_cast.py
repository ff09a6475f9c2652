"""The demo's cast, planned from the seed (issue 32): the referees' acts judged exactly as the
server will judge them, the cards, the sirens; the same seed, the same plan."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from pace import formats
from pace.demo import cast as castmod
from pace.demo import data as demo_data
from pace.demo.play import plan_incidents, play_round
from pace.rules import spells
from pace.rules.model import HoleCompletion, RoundSetup
from pace.rules.policies import FRBG
from pace.rules.position import plan_field
from pace.services import offline

TZ = ZoneInfo("Europe/Brussels")
DAY = date(2026, 6, 14)
CASES = [(6, 1), (6, 3), (6, 4), (32, 1), (32, 2)]


def planned(groups: int, seed: int):
    """Return the demo round's setup and its cast, as ``pace demo`` plans them."""
    rng = random.Random(seed)
    course = formats.parse_course(demo_data.course_toml(), "demo-course.toml")
    draw = formats.parse_draw(
        demo_data.draw_csv(groups, rng), "d.csv", day=DAY, tz=TZ, course=course
    )
    setup = RoundSetup(course, tuple(draw))
    plan = plan_field(setup)
    pars = {h.number: h.par for h in course.holes}
    incidents = plan_incidents(plan, rng)
    state = rng.getstate()

    def play(stops):
        rng.setstate(state)
        return play_round(plan, pars, rng, incidents, stops)

    origin = min(g.start for g in draw) + timedelta(minutes=75)
    cast = castmod.plan_cast(setup, plan, incidents, play, seed=seed, origin=origin, policy=FRBG)
    return setup, cast, play


def judged(setup, cast):
    completions = [HoleCompletion(t.group, t.hole, t.at) for t in cast.taps]
    end = datetime.combine(DAY, time.max, tzinfo=TZ)
    return offline.judge(setup, completions, cast.referee_log(), FRBG, end).judgement


@pytest.mark.parametrize(("groups", "seed"), CASES, ids=[f"{g}-groups-seed-{s}" for g, s in CASES])
def test_the_referees_plan_gives_a_warning_and_a_penalty_stroke_judged_as_live(groups, seed):
    setup, cast, _ = planned(groups, seed)
    judgement = judged(setup, cast)
    counted = [o for o in judgement.outcomes if o.counted]
    penalised_group, penalised = cast.referees.penalised
    warned_group, warned = cast.referees.warned
    mine = [o.penalty.kind for o in counted if o.fault.player == penalised]
    assert mine == ["warning", "strokes"]
    assert [o.penalty.kind for o in counted if o.fault.player == warned] == ["warning"]
    assert {o.penalty.kind for o in counted} <= {"warning", "strokes"}
    assert sum(o.penalty.amount for o in counted) == 1  # one penalty stroke in the round
    # every stroke was timed inside a spell, most within the allowance
    assert all(s.placement == spells.TIMED for s in judgement.strokes)
    bad = [s for s in judgement.strokes if s.verdict.over > timedelta(0)]
    assert 3 <= len(bad) < len(judgement.strokes) / 3
    # the timed groups' spells ended by themselves, and the referees told the players after
    ended = [s for g in judgement.group_spells.values() for s in g]
    assert ended and all(
        s.ended_by == spells.BACK_IN_POSITION and s.stopped is not None and s.stopped > s.end
        for s in ended
    )


@pytest.mark.parametrize(("groups", "seed"), CASES, ids=[f"{g}-groups-seed-{s}" for g, s in CASES])
def test_one_group_is_not_timed_for_a_ruling_and_credited_its_minutes(groups, seed):
    _, cast, _ = planned(groups, seed)
    acts = [p.act for p in cast.referees.acts]
    not_timed = [a for a in acts if a.act == "decide" and a.decision == "not_time"]
    assert not_timed[0].reason == "ruling"
    (credit,) = [a for a in acts if a.act == "credit"]
    assert credit.group == not_timed[0].group and credit.reason.startswith("ruling")
    assert 0 < (credit.at - not_timed[0].at).total_seconds() < 120
    decided = [p for p in cast.referees.acts if p.act.act == "decide"]
    assert all(p.watch and p.watch.startswith(f"out_of_position:{p.act.group}:h") for p in decided)


def test_the_sirens_stop_play_and_the_groups_finish_their_holes_later():
    setup, cast, play = planned(6, 1)
    (stop,) = cast.stops
    assert [a.siren for a in cast.sirens] == ["interruption", "resume"]
    assert [a.at for a in cast.sirens] == [stop.start, stop.end]
    unstopped = play(())
    assert [t for t in cast.taps if t.at < stop.start] == [
        t for t in unstopped if t.at < stop.start
    ]
    assert not [t for t in cast.taps if stop.start <= t.at < stop.end]
    assert cast.taps[-1].at > unstopped[-1].at


def test_every_card_is_entered_hole_by_hole_after_the_hole_with_one_correction():
    setup, cast, _ = planned(6, 3)
    completed = {(t.group, t.hole): t.at for t in cast.taps}
    recorded = [s for s in cast.scores if s.corrects is None]
    players = sum(len(g.players) for g in setup.groups)
    assert len(recorded) == players * 18
    assert all(
        timedelta(minutes=1) <= s.at - completed[(s.group, s.hole)] <= timedelta(minutes=3)
        for s in recorded
    )
    (fix,) = [s for s in cast.scores if s.corrects is not None]
    (wrong,) = [s for s in recorded if s.key == fix.corrects]
    assert wrong.strokes == fix.strokes + 1 and fix.at > wrong.at
    # the penalised player's twin scores as he does: the penalty alone puts them apart
    group, player = cast.referees.penalised
    cards = Counter()
    for s in recorded:
        if s.group == group:
            cards[(s.player, s.hole, s.strokes)] += 1
    twins = [p.name for p in next(g for g in setup.groups if g.id == group).players]
    by_player = {name: sorted((h, n) for (p, h, n) in cards if p == name) for name in twins}
    assert sum(by_player[player] == card for card in by_player.values()) == 2


def test_the_same_seed_plans_the_same_cast_and_commands_and_another_seed_does_not():
    _, cast, _ = planned(6, 3)
    _, again, _ = planned(6, 3)
    _, other, _ = planned(6, 4)
    assert cast == again and cast != other

    def commands(c):
        return [
            *(castmod.tap_command(t, 3, TZ) for t in c.taps),
            *(castmod.referee_command(p, 3, TZ) for p in c.referees.acts),
            *(castmod.score_command(s, 3) for s in c.scores),
        ]

    sent = commands(cast)
    assert sent == commands(again)
    ids = [c.payload["id"] for c in sent]
    assert len(set(ids)) == len(ids)
    by_id = {c.payload["id"]: c for c in sent}
    notified = [c for c in sent if c.event == "notify_player"]
    assert notified and all(by_id[c.payload["fault"]].event == "record_stroke" for c in notified)
    corrected = [c for c in sent if c.event == "correct_score"]
    assert [by_id[c.payload["target"]].event for c in corrected] == ["record_score"]

"""Team formats and pace penalties on the card, hand-worked (docs/rules.md §6, §7, §10, §10.1).

Each counted slow-play penalty converts per scoring: stroke play, strokes on the penalty hole
(a swin point is one stroke); Stableford, 2 points off the total; bogey/par, one hole off;
match play, the penalty hole lost; disqualification, DQ with the reason and no position.
Nothing about a penalty is written into the scores: the same scores without the judgement
give the card back as played.
"""

from __future__ import annotations

import pytest

from pace.rules.model import Player
from pace.rules.scoring import score_round
from tests.builders import PAR_72, card, counted, draw_group, scoring_course

COURSE = scoring_course()
PARS = list(PAR_72)


def one(scoring, outcomes, **kw):
    group = draw_group("1", Player("Ann"), Player("Bob"))
    scores = card("1", "Ann", PARS) + card("1", "Bob", [p + 1 for p in PARS])
    results = score_round(COURSE, [group], scores, scoring=scoring, outcomes=outcomes, **kw)
    return {e.entry: e for e in results.entries}


CONVERSIONS = [
    # (scoring, penalty kind, amount, what Ann's entry shows)
    ("stroke", "strokes", 1, {"gross": 73, "result": "73", "penalty_strokes": 1}),
    ("stroke", "strokes", 2, {"gross": 74, "result": "74", "penalty_strokes": 2}),
    ("stroke", "points", 1, {"gross": 73, "result": "73", "penalty_strokes": 1}),  # swin point
    ("stableford", "strokes", 1, {"points": 36, "penalty_points": 2, "result": "34 points"}),
    ("stableford", "strokes", 2, {"points": 36, "penalty_points": 2, "result": "34 points"}),
    ("bogey", "strokes", 1, {"balance": 17, "penalty_holes": 1, "result": "17 up"}),
    ("par", "strokes", 2, {"balance": -1, "penalty_holes": 1, "result": "1 down"}),
]


@pytest.mark.parametrize(("scoring", "kind", "amount", "shows"), CONVERSIONS)
def test_each_conversion(scoring, kind, amount, shows):
    entry = one(scoring, [counted("L1", "1", "Ann", 5, kind, amount)])["Ann"]
    for key, value in shows.items():
        assert getattr(entry, key) == value, key
    assert entry.holes[4].strokes == 4  # the card's strokes stay as played
    (line,) = entry.penalties
    assert (line.fault, line.hole, line.kind) == ("L1", 5, kind)


def test_stroke_penalty_lands_on_the_penalty_hole_and_counts_in_countback():
    # Ann 72 + 1 on hole 15 = 73; Cy 73 with a bogey on hole 2. Last 9: Ann 36 + 1 = 37,
    # Cy 36: the penalty stroke on hole 15 is on the countback holes, so Cy is first.
    group = draw_group("1", Player("Ann"), Player("Cy"))
    cy = list(PARS)
    cy[1] += 1
    scores = card("1", "Ann", PARS) + card("1", "Cy", cy)
    slow = [counted("L1", "1", "Ann", 15, "strokes", 1)]
    results = score_round(COURSE, [group], scores, outcomes=slow)
    assert [(e.entry, e.gross, e.countback) for e in results.entries] == [
        ("Cy", 73, "last 9: 36"),
        ("Ann", 73, "last 9: 37"),
    ]
    ann = results.entries[1]
    assert (ann.holes[14].strokes, ann.holes[14].penalty_strokes) == (4, 1)


def test_swin_point_under_stableford_is_a_stroke_on_its_hole():
    # hole 3, par 3: 3 strokes + 1 swin point = 4: 1 point instead of 2; nothing off the total
    entry = one("stableford", [counted("L1", "1", "Ann", 3, "points", 1)])["Ann"]
    assert (entry.points, entry.penalty_points, entry.result) == (35, 0, "35 points")
    assert (entry.holes[2].strokes, entry.holes[2].penalty_strokes, entry.holes[2].points) == (
        3,
        1,
        1,
    )


def test_warnings_change_nothing():
    entry = one("stroke", [counted("L1", "1", "Ann", 5, "warning", rank=1)])["Ann"]
    assert (entry.gross, entry.penalty_strokes, entry.penalties[0].effect) == (72, 0, "none")


@pytest.mark.parametrize("scoring", ["stroke", "stableford", "bogey", "par"])
def test_disqualification_is_dq_with_its_reason_and_no_position(scoring):
    entries = one(scoring, [counted("L9", "1", "Ann", 12, "disqualification", rank=4)])
    ann, bob = entries["Ann"], entries["Bob"]
    assert (ann.status, ann.result, ann.position) == ("dq", "DQ", None)
    assert ann.reason == "slow play: 4th bad time, hole 12 (Ann)"
    assert bob.position == 1


def test_uncounted_and_voided_faults_leave_the_card_as_played():
    from dataclasses import replace

    fault = counted("L1", "1", "Ann", 5, "strokes", 1)
    not_counted = replace(fault, counted=False, penalty=None)
    assert one("stroke", [not_counted])["Ann"].gross == 72
    assert one("stroke", [])["Ann"].gross == 72  # the fault voided: gone from the judgement


# --------------------------------------------------------------------------- formats


def test_foursome_one_ball_any_partner_names_the_side_and_the_side_bears_penalties():
    # CH 10 and 15: 50 % of 25 = 12.5 → 13. The card comes under both names.
    group = draw_group("1", Player("Ann", 10.0, side="x"), Player("Bob", 15.0, side="x"))
    scores = card("1", "Ann", PARS[:9]) + card("1", "Bob", PARS[9:], first=10)
    slow = [counted("L1", "1", "Bob", 3, "strokes", 1, bearer="side")]
    results = score_round(COURSE, [group], scores, format_name="foursome", net=True, outcomes=slow)
    (e,) = results.entries
    assert (e.entry, e.players, e.playing_handicap) == ("Ann / Bob", ("Ann", "Bob"), 13)
    assert (e.gross, e.net, e.penalty_strokes) == (73, 60, 1)
    assert e.holes[2].penalty_strokes == 1
    assert e.handicap_index is None and e.class_name == "A"  # the class of the lower index


def test_greensome_allowance():
    # CH 10 and 15: 60 % of 10 + 40 % of 15 = 6 + 6 = 12. Par everywhere: net 60.
    group = draw_group("1", Player("Ann", 10.0, side="x"), Player("Bob", 15.0, side="x"))
    (e,) = score_round(COURSE, [group], card("1", "Ann", PARS), format_name="greensome",
                       net=True).entries  # fmt: skip
    assert (e.playing_handicap, e.gross, e.net) == (12, 72, 60)


def test_four_ball_stroke_play_better_ball_with_a_partner_without_score():
    # Ann and Bob gross: Ann picks up on 1 and 2 (no score), Bob plays par; on 3 Ann makes 2,
    # Bob 4; everywhere else both par. The side: Bob's 4 and 4, Ann's 2, then pars: 71.
    group = draw_group("1", Player("Ann", side="x"), Player("Bob", side="x"))
    ann = [None, None, 2] + PARS[3:]
    results = score_round(COURSE, [group], card("1", "Ann", ann) + card("1", "Bob", PARS),
                          format_name="four_ball")  # fmt: skip
    (e,) = results.entries
    assert (e.gross, e.result, e.status) == (71, "71", "ok")
    assert [(h.counted, h.strokes) for h in e.holes[:3]] == [("Bob", 4), ("Bob", 4), ("Ann", 2)]
    assert e.holes[0].scores == {"Ann": None, "Bob": 4}
    assert e.holes[3].counted == "Ann"  # equal: the first partner's ball


def test_four_ball_both_partners_without_score_is_no_return():
    group = draw_group("1", Player("Ann", side="x"), Player("Bob", side="x"))
    scores = card("1", "Ann", [None] + PARS[1:]) + card("1", "Bob", [None] + PARS[1:])
    (e,) = score_round(COURSE, [group], scores, format_name="four_ball").entries
    assert (e.status, e.gross, e.position) == ("nr", None, None)


def test_four_ball_net_each_partner_with_his_own_strokes_received():
    # Ann index 0 (PH 0), Bob index 20.0: 20 × 85 % = 17 → one stroke on all but SI 18.
    # Hole 1 (par 4): Ann 4 (net 4), Bob 5 (net 4): equal, Ann's ball counts (first).
    # Hole 2: Ann 5, Bob 5 (net 4): Bob's. Hole 12 (par 3, SI 18, no stroke): Ann 3, Bob 4:
    # Ann's.
    group = draw_group("1", Player("Ann", 0.0, side="x"), Player("Bob", 20.0, side="x"))
    ann = list(PARS)
    ann[1] = 5
    bob = [p + 1 for p in PARS]
    bob[11] = 4
    (e,) = score_round(COURSE, [group], card("1", "Ann", ann) + card("1", "Bob", bob),
                       format_name="four_ball", net=True).entries  # fmt: skip
    assert dict(e.playing_handicaps) == {"Ann": 0, "Bob": 17}
    assert e.playing_handicap is None
    assert [(h.counted, h.strokes, h.received) for h in (e.holes[0], e.holes[1], e.holes[11])] == [
        ("Ann", 4, 0), ("Bob", 5, 1), ("Ann", 3, 0),
    ]  # fmt: skip
    assert e.holes[1].received_by == {"Ann": 0, "Bob": 1}
    # every hole at net par (Ann's par, or Bob's net par): net 72, gross 72 + 1 (hole 2)
    assert (e.net, e.gross) == (72, 73)


def test_four_ball_penalty_strokes_go_on_the_partners_own_score():
    # Bob's stroke on hole 5: his 4 becomes 5; Ann's 4 counts, the side is not hurt. On hole 6
    # only Bob has a score: his stroke counts.
    group = draw_group("1", Player("Ann", side="x"), Player("Bob", side="x"))
    ann = PARS[:5] + [None] + PARS[6:]
    slow = [counted("L1", "1", "Bob", 5, "strokes", 1), counted("L2", "1", "Bob", 6, "strokes", 2)]
    (e,) = score_round(COURSE, [group], card("1", "Ann", ann) + card("1", "Bob", PARS),
                       format_name="four_ball", outcomes=slow).entries  # fmt: skip
    assert (e.holes[4].counted, e.holes[4].penalty_by) == ("Ann", {"Ann": 0, "Bob": 1})
    assert (e.holes[5].counted, e.holes[5].strokes, e.holes[5].penalty_strokes) == ("Bob", 4, 2)
    assert e.gross == 74


def test_four_ball_disqualification_hits_the_side():
    group = draw_group("1", Player("Ann", side="x"), Player("Bob", side="x"))
    scores = card("1", "Ann", PARS) + card("1", "Bob", PARS)
    slow = [counted("L1", "1", "Bob", 9, "disqualification", bearer="side", rank=4)]
    (e,) = score_round(COURSE, [group], scores, format_name="four_ball", outcomes=slow).entries
    assert (e.status, e.result, e.position) == ("dq", "DQ", None)


def test_four_ball_stableford_best_points():
    group = draw_group("1", Player("Ann", side="x"), Player("Bob", side="x"))
    ann = [3] + [None] * 17  # birdie on 1, picks up everywhere else
    results = score_round(COURSE, [group], card("1", "Ann", ann) + card("1", "Bob", PARS),
                          scoring="stableford", format_name="four_ball")  # fmt: skip
    (e,) = results.entries
    assert (e.points, e.holes[0].counted, e.holes[1].counted) == (37, "Ann", "Bob")


def test_sides_too_big_for_the_format_are_refused():
    from pace.rules.errors import SetupError

    group = draw_group("1", *(Player(n, side="x") for n in ("A", "B", "C")))
    with pytest.raises(SetupError, match="at most 2"):
        score_round(COURSE, [group], [], format_name="foursome")


def test_a_one_ball_side_bears_a_groups_checkpoint_breach_once():
    # mauricie: a checkpoint breach is a fault of each competitor of the group (same fault
    # id); a foursome side is one competitor and takes its two strokes once. Two bad times
    # of the two partners (two faults) cost the side twice.
    group = draw_group("1", Player("Ann", side="x"), Player("Bob", side="x"))
    breach = [
        counted("checkpoint:1:2", "1", "Ann", 13, "strokes", 2, bearer="side"),
        counted("checkpoint:1:2", "1", "Bob", 13, "strokes", 2, bearer="side"),
    ]
    (e,) = score_round(COURSE, [group], card("1", "Ann", PARS), format_name="foursome",
                       outcomes=breach).entries  # fmt: skip
    assert (e.gross, len(e.penalties)) == (74, 1)
    bad_times = [
        counted("L1", "1", "Ann", 13, "strokes", 1, bearer="side"),
        counted("L2", "1", "Bob", 14, "strokes", 1, bearer="side"),
    ]
    (e,) = score_round(COURSE, [group], card("1", "Ann", PARS), format_name="foursome",
                       outcomes=bad_times).entries  # fmt: skip
    assert (e.gross, len(e.penalties)) == (74, 2)

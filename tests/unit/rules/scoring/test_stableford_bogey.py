"""Stableford, bogey and par on hand-worked cards (docs/rules.md §7, §10, §10.1; Rule 32-1).

Course: par 72 with ``builders.SI_18`` (hole 12 is stroke index 18, hole 3 is 17), no slope
nor rating.
"""

from __future__ import annotations

import pytest

from pace.rules.model import Hole, Player
from pace.rules.scoring import Bogey, Par, Stableford, score_round
from tests.builders import PAR_72, card, draw_group, scoring_course, with_holes

COURSE = scoring_course()
PARS = list(PAR_72)


@pytest.mark.parametrize(
    ("par", "received", "strokes", "points"),
    [
        (4, 0, 7, 0), (4, 0, 6, 0), (4, 0, 5, 1), (4, 0, 4, 2), (4, 0, 3, 3), (4, 0, 2, 4),
        (4, 0, 1, 5), (5, 0, 1, 6), (4, 0, None, 0),
        (4, 1, 5, 2), (4, 2, 8, 0), (4, 2, 7, 1),
        (5, 2, 1, 8),  # fixed 7, six under: the scale goes on past 6
        (3, -1, 3, 1),  # a plus handicap's hole: fixed 2
    ],
)  # fmt: skip
def test_stableford_points_per_hole(par, received, strokes, points):
    assert Stableford().hole_value(strokes, Hole(1, par), received, True) == points


def test_stableford_net_card():
    # index 18.0 → 18 × 95 % = 17.1 → 17: one stroke on every hole but stroke index 18
    # (hole 12). A bogey everywhere: 17 holes at net par (2 points) + hole 12 (1 point) = 35.
    group = draw_group("1", Player("Ann", 18.0))
    results = score_round(COURSE, [group], card("1", "Ann", [p + 1 for p in PARS]),
                          scoring="stableford", net=True)  # fmt: skip
    (e,) = results.entries
    assert (e.playing_handicap, e.points, e.penalty_points, e.result) == (17, 35, 0, "35 points")
    assert (e.gross, e.net) == (90, 73)
    assert e.holes[11].points == 1 and e.holes[0].points == 2


def test_stableford_hole_without_score_is_zero_points_not_no_return():
    group = draw_group("1", Player("Ann"))
    scores = card("1", "Ann", PARS[:4] + [None] + PARS[5:])
    (e,) = score_round(COURSE, [group], scores, scoring="stableford").entries
    assert (e.status, e.points, e.gross, e.position, e.result) == ("ok", 34, None, 1, "34 points")
    assert e.holes[4].points == 0


def test_stableford_countback_compares_points_without_round_deductions():
    # A 36 points with one counted slow-play penalty (−2: 34); B 34 points, nothing off.
    # Level on 34: holes 10-18 A 18 points (pars), B 17 (a bogey on 15): A first.
    from tests.builders import counted

    group = draw_group("1", Player("A"), Player("B"))
    scores = card("1", "A", PARS) + card("1", "B", with_holes(PARS, {1: +1, 15: +1}))
    slow = [counted("L1", "1", "A", 5, "strokes", 1)]
    results = score_round(COURSE, [group], scores, scoring="stableford", outcomes=slow)
    assert [
        (e.entry, e.points, e.penalty_points, e.result, e.countback) for e in results.entries
    ] == [
        ("A", 36, 2, "34 points", "last 9: 18"),
        ("B", 34, 0, "34 points", "last 9: 17"),
    ]


@pytest.mark.parametrize(
    ("scoring", "strokes", "bogey", "outcome"),
    [
        (Bogey(), 4, None, 1),  # par 4, bogey 5: 4 wins
        (Bogey(), 5, None, 0),
        (Bogey(), 6, None, -1),
        (Bogey(), None, None, -1),  # no score: lost
        (Bogey(), 4, 4, 0),  # the course's bogey for the hole: 4
        (Par(), 3, None, 1),
        (Par(), 4, None, 0),
        (Par(), 5, 5, -1),  # par competitions ignore the bogey column
    ],
)
def test_bogey_and_par_holes(scoring, strokes, bogey, outcome):
    assert scoring.hole_value(strokes, Hole(1, 4, bogey=bogey), 0, False) == outcome


def test_par_competition_net_card():
    # index 5.0 → 4.75 → 5 strokes on stroke indexes 1-5: holes 4, 13, 8, 17, 9.
    # Card: par everywhere but a bogey on 4, 13 and 8 (net par: halved), birdie on 1 (won),
    # double bogey on 2 (lost), pars on 17 and 9 (net birdie: won), no score on 18 (lost).
    group = draw_group("1", Player("Ann", 5.0))
    strokes = with_holes(PARS, {4: +1, 13: +1, 8: +1, 1: -1, 2: +2})
    strokes[17] = None
    (e,) = score_round(COURSE, [group], card("1", "Ann", strokes), scoring="par", net=True).entries
    assert (e.holes_won, e.holes_lost, e.holes_halved) == (3, 2, 13)
    assert (e.balance, e.result) == (1, "1 up")
    assert [(h.hole, h.outcome) for h in e.holes if h.outcome != "halved"] == [
        (1, "won"), (2, "lost"), (9, "won"), (17, "won"), (18, "lost"),
    ]  # fmt: skip


def test_bogey_gross_results_read_up_down_all_square():
    group = draw_group("1", Player("A"), Player("B"), Player("C"))
    scores = (
        card("1", "A", with_holes(PARS, {1: -1, 2: -1}))  # bogey = par + 1: 18 won … every par
        + card("1", "B", [p + 1 for p in PARS])  # every hole at bogey: all square
        + card("1", "C", [p + 1 for p in PARS[:17]] + [6])  # one over bogey on 18: 1 down
    )
    results = score_round(COURSE, [group], scores, scoring="bogey")
    assert [(e.entry, e.result, e.position) for e in results.entries] == [
        ("A", "18 up", 1),
        ("B", "all square", 2),
        ("C", "1 down", 3),
    ]

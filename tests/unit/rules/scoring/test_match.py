"""Match play on hand-worked matches (docs/rules.md §10 match play details, §10.1).

Course: par 72 with ``builders.SI_18`` (stroke index 1 on hole 4, 2 on 13, 3 on 8, 4 on 17,
5 on 9, 6 on 18). A hole's strokes are written as (A's, B's).
"""

from __future__ import annotations

from pace.rules.model import Player
from pace.rules.scoring import Score, score_round
from tests.builders import PAR_72, card, counted, draw_group, scoring_course

COURSE = scoring_course()
PARS = list(PAR_72)


def match(groups, scores, **kw):
    (m,) = score_round(COURSE, groups, scores, scoring="match", **kw).matches
    return m


def singles(a_strokes, b_strokes, *, a=None, b=None, tee=1, extra=()):
    group = draw_group("1", Player("A", a), Player("B", b), tee=tee)
    return [group], card("1", "A", a_strokes) + card("1", "B", b_strokes) + list(extra)


def test_won_3_and_2_through_dormie():
    # A wins 1, 2, 3 (3 up), holes 4-15 halved: after 15, 3 up with 3 to play = dormie 3;
    # 16 halved: 3 up with 2 to play, the match is over, "3 & 2". B wins 17 and 18 on the
    # card: ignored.
    a = [p - 1 if n <= 3 else p for n, p in enumerate(PARS, 1)]
    b = [p - 1 if n >= 17 else p for n, p in enumerate(PARS, 1)]
    m = match(*singles(a, b))
    assert (m.result, m.winner, m.status, m.finished, m.thru) == ("3 & 2", "A", "ok", True, 16)
    states = [h.state for h in m.holes]
    assert states[:4] == ["1 up", "2 up", "3 up", "3 up"]
    assert states[14] == "dormie 3" and states[15] == "3 up"
    assert [h.hole for h in m.holes][-1] == 16
    assert {h.leader for h in m.holes} == {"A"}


def test_one_up_and_halved_match():
    a = [p - 1 if n == 18 else p for n, p in enumerate(PARS, 1)]
    m = match(*singles(a, PARS))
    assert (m.result, m.winner) == ("1 up", "A")
    assert m.holes[16].state == "all square" and m.holes[17].state == "1 up"
    halved = match(*singles(PARS, PARS))
    assert (halved.result, halved.winner, halved.finished) == ("all square", None, True)
    assert {h.how for h in halved.holes} == {"halved"}


def test_conceded_hole_goes_to_the_side_named_whatever_the_strokes():
    # B writes 3 on hole 5 against A's 6 but concedes the hole to A.
    a = list(PARS)
    a[4] = 6
    group = draw_group("1", Player("A"), Player("B"))
    scores = card("1", "A", a) + [s for s in card("1", "B", PARS) if s.hole != 5]
    scores.append(Score("1", "B", 5, 3, conceded=True))
    m = match([group], scores)
    assert (m.holes[4].winner, m.holes[4].how, m.holes[4].state) == ("A", "conceded", "1 up")
    assert m.result == "1 up"


def test_no_score_loses_the_hole_and_both_without_score_halve_it():
    a, b = list(PARS), list(PARS)
    a[0] = None  # A picks up on 1: B wins it
    a[1] = b[1] = None  # nobody holes out on 2: halved
    m = match(*singles(a, b))
    assert [(h.winner, h.how) for h in m.holes[:2]] == [("B", "won"), (None, "halved")]
    assert m.result == "1 up" and m.winner == "B"


def test_net_match_the_lower_handicap_plays_off_zero():
    # A index 4.0 → 4, B 10.0 → 10 (100 %): B receives 6 on stroke indexes 1-6 (holes 4,
    # 13, 8, 17, 9, 18). Both play par everywhere but B makes bogey on those six: all halved.
    b = [p + 1 if n in (4, 13, 8, 17, 9, 18) else p for n, p in enumerate(PARS, 1)]
    m = match(*singles(PARS, b, a=4.0, b=10.0), net=True)
    sides = [(s.entry, s.allowance_handicap, s.playing_handicap, s.received) for s in m.sides]
    assert sides == [("A", 4, 0, 0), ("B", 10, 6, 6)]
    assert m.result == "all square"
    assert m.holes[3].received == {"A": 0, "B": 1} and m.holes[3].strokes == {"A": 5, "B": 5}


def test_match_from_tee_10_plays_10_to_18_then_1_to_9():
    # A wins 10-14 (5 up), then halves: after hole 4 (13 played) 5 up with 5 left, dormie 5;
    # hole 5 halved: 5 up with 4 to play, "5 & 4".
    a = [p - 1 if 10 <= n <= 14 else p for n, p in enumerate(PARS, 1)]
    m = match(*singles(a, PARS, tee=10))
    assert [h.hole for h in m.holes] == [10, 11, 12, 13, 14, 15, 16, 17, 18, 1, 2, 3, 4, 5]
    assert m.holes[12].state == "dormie 5"
    assert (m.result, m.winner, m.thru) == ("5 & 4", "A", 14)


def test_match_in_progress_stops_at_the_last_hole_recorded():
    a = [p - 1 if n in (2, 3) else p for n, p in enumerate(PARS, 1)][:6]
    m = match(*singles(a, PARS[:6]))
    assert (m.finished, m.thru, m.winner, m.result) == (False, 6, None, "2 up thru 6")


def test_slow_play_loss_of_hole_and_final_warning():
    # A would win hole 7 (2 against 3) but loses it to a slow-play loss of hole; A's final
    # warning on hole 9 changes nothing.
    a = list(PARS)
    a[6] = 2
    slow = [
        counted("L1", "1", "A", 7, "loss_of_hole"),
        counted("L2", "1", "A", 9, "final_warning", rank=3),
    ]
    m = match(*singles(a, PARS), outcomes=slow)
    assert (m.holes[6].winner, m.holes[6].how, m.holes[6].state) == ("B", "penalty", "1 up")
    assert m.holes[8].how == "halved"
    assert (m.result, m.winner) == ("1 up", "B")
    assert [(p.fault, p.effect) for p in m.penalties] == [("L1", "loss_of_hole"), ("L2", "none")]
    # the card itself is untouched: the hole still shows A's 2
    assert m.holes[6].strokes == {"A": 2, "B": 3}


def test_a_disqualified_side_loses_the_match():
    slow = [counted("L4", "1", "B", 12, "disqualification", rank=4)]
    m = match(*singles(PARS, PARS), outcomes=slow)
    assert (m.result, m.status, m.winner) == ("DQ", "dq", "A")
    assert m.reason == "B: slow play: 4th bad time, hole 12 (B)"


def test_four_ball_match_better_ball_and_a_partners_loss_of_hole():
    # (A1, A2) against (B1, B2), gross. Hole 1: A1 3, A2 5, B1 4, B2 4 → A wins (3 < 4).
    # Hole 2: A1 has a loss of hole; A1 3, A2 5, B1 4 → A's counting ball is A2's 5: B wins.
    group = draw_group(
        "1",
        Player("A1", side="a"), Player("A2", side="a"),
        Player("B1", side="b"), Player("B2", side="b"),
    )  # fmt: skip
    scores = []
    for name, first_two in (("A1", [3, 3]), ("A2", [5, 5]), ("B1", [4, 4]), ("B2", [4, 5])):
        scores += card("1", name, first_two + PARS[2:])
    slow = [counted("L1", "1", "A1", 2, "loss_of_hole")]
    m = match([group], scores, format_name="four_ball", outcomes=slow)
    assert [s.entry for s in m.sides] == ["A1 / A2", "B1 / B2"]
    assert [(h.winner, h.how) for h in m.holes[:2]] == [("A1 / A2", "won"), ("B1 / B2", "won")]
    assert m.holes[1].scores == {"A1": 3, "A2": 5, "B1": 4, "B2": 5}
    assert m.holes[1].strokes == {"A1 / A2": 5, "B1 / B2": 4}
    assert m.result == "all square"


def test_four_ball_match_the_lowest_of_four_plays_off_zero():
    # course handicaps 4, 12 against 8, 20; 90 %: 3.6 → 4, 10.8 → 11, 7.2 → 7, 18 → 18.
    # The lowest (4) plays off zero: the others receive 7, 3 and 14.
    group = draw_group(
        "1",
        Player("A1", 4.0, side="a"), Player("A2", 12.0, side="a"),
        Player("B1", 8.0, side="b"), Player("B2", 20.0, side="b"),
    )  # fmt: skip
    scores = [s for n in ("A1", "A2", "B1", "B2") for s in card("1", n, PARS)]
    m = match([group], scores, format_name="four_ball", net=True)
    assert [dict(s.allowance_handicaps) for s in m.sides] == [
        {"A1": 4, "A2": 11},
        {"B1": 7, "B2": 18},
    ]
    assert [dict(s.playing_handicaps) for s in m.sides] == [
        {"A1": 0, "A2": 7},
        {"B1": 3, "B2": 14},
    ]
    assert [dict(s.received_by) for s in m.sides] == [{"A1": 0, "A2": 7}, {"B1": 3, "B2": 14}]


def test_matches_come_from_the_draws_match_column():
    g1 = draw_group("1", Player("A", match="m1"), Player("C", match="m2"))
    g2 = draw_group("2", Player("B", match="m1"), Player("D", match="m2"))
    scores = [
        s for g, n in (("1", "A"), ("1", "C"), ("2", "B"), ("2", "D")) for s in card(g, n, PARS)
    ]
    results = score_round(COURSE, [g1, g2], scores, scoring="match")
    assert [(m.match, [s.entry for s in m.sides]) for m in results.matches] == [
        ("m1", ["A", "B"]),
        ("m2", ["C", "D"]),
    ]

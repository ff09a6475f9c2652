"""Competitions of several rounds, hand-worked (issue 28; docs/scoring.md, "Competitions of
several rounds"): the cut (top N and ties, within X strokes or points of the lead), players
missing a round as each scoring has it, countback on the last round first, shared positions.

Every round is scored by the real ``score_round`` from cards, as a stored round is; the
competition adds those results up.
"""

from __future__ import annotations

import pytest

from pace.rules.errors import SetupError
from pace.rules.model import Player
from pace.rules.scoring import score_round
from pace.rules.scoring.competition import (
    Cut,
    PlayedRound,
    check_competition,
    check_scoring,
    made_cut,
    score_competition,
)
from tests.builders import card, counted, draw_group, scoring_course

NINE = scoring_course((4,) * 9)  # par 36, stroke indexes 1–9 on holes 1–9
PAR = [4] * 9


def played(name, cards, *, scoring="stroke", net=False, handicaps=None, outcomes=()):
    """Return a round scored from ``cards`` (player -> strokes per hole, one group each;
    None: drawn, and no hole recorded at all)."""
    handicaps = handicaps or {}
    groups = [draw_group(str(n), Player(p, handicaps.get(p))) for n, p in enumerate(cards, start=1)]
    scores = [
        s for n, (p, c) in enumerate(cards.items(), start=1) for s in card(str(n), p, c or [])
    ]
    results = score_round(NINE, groups, scores, scoring=scoring, net=net, outcomes=outcomes,
                          allowances=None)  # fmt: skip
    return PlayedRound(name, NINE, results)


def strokes(total_over_par, last=4):
    """Return a card of par holes, ``total_over_par`` strokes over on hole 1, ``last`` on 9."""
    c = list(PAR)
    c[0] += total_over_par - (last - 4)
    c[8] = last
    return c


def table(results):
    return [
        (e.entry, e.position, e.tied, e.total, e.status, e.made_cut,
         tuple(None if f is None else f.figure for f in e.rounds))
        for e in results.entries
    ]  # fmt: skip


# -- the cut rules ---------------------------------------------------------------------------

CUTS = [
    # (totals after the cut's round, cut, higher is better, who makes it)
    ([70, 72, 72, 75, None], Cut(1, top=2), False, [True, True, True, False, False]),
    ([70, 72, 72, 75], Cut(1, top=3), False, [True, True, True, False]),
    ([70, 70, 70, 75], Cut(1, top=1), False, [True, True, True, False]),  # ties at the top
    ([70, 72], Cut(1, top=10), False, [True, True]),
    ([70, 78, 79], Cut(1, within=8), False, [True, True, False]),  # 8 strokes of 70
    ([70, 70, 71], Cut(1, within=0), False, [True, True, False]),
    ([40, 32, 31], Cut(1, within=8), True, [True, True, False]),  # Stableford: 8 points of 40
    ([30, 36, 36, 31], Cut(1, top=2), True, [False, True, True, False]),  # most points best
    ([None, None], Cut(1, top=1), False, [False, False]),
]


@pytest.mark.parametrize(("totals", "cut", "higher", "made"), CUTS)
def test_the_cut_rules(totals, cut, higher, made):
    assert made_cut(totals, cut, higher) == made


BAD_SETUPS = [
    (["R1"], None, "2 to 4 rounds"),
    (["R1", "R2", "R3", "R4", "R5"], None, "2 to 4 rounds"),
    (["R1", "R2", "R1"], None, "'R1' is given twice"),
    (["R1", "R2"], Cut(2, top=5), "before the last round (after round 1 at most)"),
    (["R1", "R2", "R3"], Cut(0, top=5), "numbered from 1"),
    (["R1", "R2"], Cut(1, top=-1), "at least 1 player"),
    (["R1", "R2"], Cut(1, within=-2), "0 or more"),
    (["R1", "R2"], Cut(1, top=3, within=2), "not both"),
    (["R1", "R2"], Cut(1), "needs its rule"),
]


@pytest.mark.parametrize(("rounds", "cut", "words"), BAD_SETUPS)
def test_a_competition_it_cannot_be_is_refused_with_the_reason(rounds, cut, words):
    with pytest.raises(SetupError, match=words.replace("(", r"\(").replace(")", r"\)")):
        check_competition("Open", rounds, cut)


def test_the_competitions_scoring_is_its_rounds_own():
    net = [("R1", "stroke", True), ("R2", "stroke", True)]
    assert check_scoring(None, net) == "net"
    assert check_scoring("net", net) == "net"
    assert check_scoring(None, [("R1", "stableford", True), ("R2", "stableford", True)]) == (
        "points"
    )
    with pytest.raises(SetupError, match="'gross' adds up stroke gross rounds; the rounds are"):
        check_scoring("gross", net)
    with pytest.raises(SetupError, match="round 'R2' is scored stroke gross but round 'R1'"):
        check_scoring(None, [("R1", "stroke", True), ("R2", "stroke", False)])
    with pytest.raises(SetupError, match="scored match: a competition adds up stroke play"):
        check_scoring(None, [("R1", "match", False), ("R2", "match", False)])
    with pytest.raises(SetupError, match="expected one of gross, net, points"):
        check_scoring("medal", net)


# -- results ---------------------------------------------------------------------------------


def test_a_cut_top_n_and_ties_then_positions_on_the_total():
    # R1: Ann 36, Bob 37, Cy 37, Dan 40. Top 2 and ties: Ann, Bob, Cy (Cy ties 2nd). R2:
    # Ann 38, Bob 36, Cy 36; Dan missed the cut, his R2 card is not counted.
    r1 = played("R1", {"Ann": strokes(0), "Bob": strokes(1), "Cy": strokes(1), "Dan": strokes(4)})
    r2 = played("R2", {"Ann": strokes(2), "Bob": strokes(0), "Cy": strokes(0), "Dan": strokes(0)})
    results = score_competition("Open", "gross", [r1, r2], Cut(1, top=2))
    assert table(results) == [
        ("Bob", 1, True, 73, "ok", True, (37, 36)),
        ("Cy", 1, True, 73, "ok", True, (37, 36)),
        ("Ann", 3, False, 74, "ok", True, (36, 38)),
        ("Dan", None, False, 40, "mc", False, (40, None)),
    ]
    assert (results.cut_line.line, results.cut_line.made) == (37, 3)
    assert results.entries[0].countback == "equal"  # equal on every step: shared 1st
    assert results.entries[3].reason == "missed the cut after round 1"


def test_a_cut_within_x_strokes_and_the_missed_cut_listed_by_their_place_at_the_cut():
    # R1: Ann 36, Bob 44 (8 over the lead: in), Cy 46, Dan 45; within 8 of 36 is 44.
    r1 = played("R1", {"Ann": strokes(0), "Cy": strokes(10), "Dan": strokes(9), "Bob": strokes(8)})
    r2 = played("R2", {"Ann": strokes(0), "Bob": strokes(0)})
    results = score_competition("Open", "gross", [r1, r2], Cut(1, within=8))
    assert [(e.entry, e.status, e.total) for e in results.entries] == [
        ("Ann", "ok", 72), ("Bob", "ok", 80), ("Dan", "mc", 45), ("Cy", "mc", 46),
    ]  # fmt: skip
    assert results.cut_line.line == 44


def test_stableford_points_add_up_after_deductions_and_the_cut_counts_points():
    # R1 net off 0: par is 2 points a hole. Ann 18 points less 2 for a counted slow-play
    # penalty = 16; Bob 18; Cy 9 (a 9 on five holes... here: no score on 5 holes, 0 each,
    # and 4 holes at par: 8 points + one birdie 3 = 9). Within 8 points of 18: 10 or more.
    slow = [counted("L1", "1", "Ann", 3, "strokes", 1)]
    cy = [3, 4, 4, 4, None, None, None, None, None]
    r1 = played("R1", {"Ann": PAR, "Bob": PAR, "Cy": cy}, scoring="stableford", net=True,
                outcomes=slow)  # fmt: skip
    r2 = played("R2", {"Ann": PAR, "Bob": [5] + PAR[1:], "Cy": PAR}, scoring="stableford",
                net=True)  # fmt: skip
    results = score_competition("Points", "points", [r1, r2], Cut(1, within=8))
    assert table(results) == [
        ("Bob", 1, False, 35, "ok", True, (18, 17)),
        ("Ann", 2, False, 34, "ok", True, (16, 18)),
        ("Cy", None, False, 9, "mc", False, (9, None)),
    ]
    ann = results.entries[1].rounds[0]
    assert (ann.points, ann.penalty_points, [p.kind for p in ann.penalties]) == (
        18, 2, ["strokes"],
    )  # fmt: skip
    assert results.entries[0].result == "35 points"


def test_a_player_missing_a_round_as_each_scoring_has_it():
    # Stroke play: a hole without a score is a no return in that round, so no total; a
    # player not drawn in R2 has no total either. DQ: out, listed last with the round's reason.
    dq = [counted("L9", "4", "Dan", 5, "disqualification")]
    r1 = played("R1", {"Ann": PAR, "Bob": PAR, "Cy": PAR, "Dan": PAR}, outcomes=dq)
    r2 = played("R2", {"Ann": PAR, "Bob": PAR[:8] + [None], "Dan": PAR})
    results = score_competition("Open", "gross", [r1, r2])
    assert [(e.entry, e.position, e.status, e.reason) for e in results.entries] == [
        ("Ann", 1, "ok", None),
        ("Bob", None, "nr", "no return in R2"),
        ("Cy", None, "nr", "not in the draw of round 2"),
        ("Dan", None, "dq", f"R1: {results.entries[3].rounds[0].reason}"),
    ]
    assert results.entries[3].rounds[0].reason.startswith("slow play")
    # Stableford: a card with holes missing still counts (0 points there); no card at all
    # (no hole scored) is no return.
    s1 = played("S1", {"Ann": PAR, "Bob": PAR[:4] + [None] * 5}, scoring="stableford")
    s2 = played("S2", {"Ann": None, "Bob": PAR}, scoring="stableford")
    points = score_competition("Points", "points", [s1, s2])
    assert [(e.entry, e.total, e.status, e.reason) for e in points.entries] == [
        ("Bob", 26, "ok", None), ("Ann", None, "nr", "no card in S2"),
    ]  # fmt: skip


def test_countback_goes_to_the_last_round_first():
    # Ann and Bob 72 each. R1 favours Ann (last 6: 23 against 24: her birdie on the 9th);
    # R2 is the other way round (her bogey on the 9th): the last round decides, on its last 6.
    r1 = played("R1", {"Ann": [5] + [4] * 7 + [3], "Bob": PAR})
    r2 = played("R2", {"Ann": [3] + [4] * 7 + [5], "Bob": PAR})
    results = score_competition("Open", "gross", [r1, r2])
    assert [(e.entry, e.position, e.countback) for e in results.entries] == [
        ("Bob", 1, "R2 last 6: 24"),
        ("Ann", 2, "R2 last 6: 25"),
    ]
    # equal in the last round: the round before decides, on its own countback
    c1 = played("R1", {"Ann": [4] * 8 + [3], "Bob": [3] + [4] * 8})
    c2 = played("R2", {"Ann": PAR, "Bob": PAR})
    results = score_competition("Open", "gross", [c1, c2])
    assert [(e.entry, e.position, e.countback) for e in results.entries] == [
        ("Ann", 1, "R1 last 6: 23"), ("Bob", 2, "R1 last 6: 24"),
    ]  # fmt: skip


def test_positions_are_shared_when_still_equal_and_the_next_skips():
    cards = {"Ann": PAR, "Bob": PAR, "Cy": strokes(1), "Dan": PAR}
    cards["Dan"] = strokes(-1, last=3)
    r1, r2 = played("R1", cards), played("R2", {**cards, "Dan": PAR})
    results = score_competition("Open", "gross", [r1, r2])
    assert [(e.entry, e.position, e.tied) for e in results.entries] == [
        ("Dan", 1, False), ("Ann", 2, True), ("Bob", 2, True), ("Cy", 4, False),
    ]  # fmt: skip


def test_net_adds_each_rounds_net_and_players_match_by_name_whatever_the_case():
    # index 8.0 on nine holes: course handicap 4, 95 % = 3.8 → 4 (R1); index 10.0: 5,
    # 4.75 → 5 (R2). R1 38 − 4 = 34, R2 38 − 5 = 33: 67 net.
    r1 = played("R1", {"Julie  Gagné": strokes(2)}, net=True, handicaps={"Julie  Gagné": 8.0})
    r2 = played("R2", {"julie gagné": strokes(2)}, net=True, handicaps={"julie gagné": 10.0})
    (entry,) = score_competition("Net", "net", [r1, r2]).entries
    assert [(f.gross, f.net, f.figure) for f in entry.rounds] == [(38, 34, 34), (38, 33, 33)]
    assert (entry.total, entry.entry, entry.position) == (67, "julie gagné", 1)


def test_rounds_not_played_yet_count_nothing_and_the_cut_waits_for_its_round():
    r1 = played("R1", {"Ann": PAR, "Bob": strokes(3)})
    r2 = played("R2", {"Ann": None, "Bob": None})
    r3 = played("R3", {"Ann": None, "Bob": None})
    results = score_competition("Open", "gross", [r1, r2, r3], Cut(2, top=1))
    assert results.played == 1 and results.cut_line is None
    assert table(results) == [
        ("Ann", 1, False, 36, "ok", None, (36, None, None)),
        ("Bob", 2, False, 39, "ok", None, (39, None, None)),
    ]


def test_rounds_scored_otherwise_than_the_competition_are_refused():
    r1 = played("R1", {"Ann": PAR})
    r2 = played("R2", {"Ann": PAR}, scoring="stableford")
    with pytest.raises(SetupError, match="round 'R2' is scored stableford gross, not as"):
        score_competition("Open", "gross", [r1, r2])

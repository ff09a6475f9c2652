"""Scores in the log and the live board, pure (issue 11 part 2).

The fold of ``score_recorded``, ``score_corrected`` and ``event_voided`` into scores, and how
cards still being played rank (docs/scoring.md, "Live"). The course is par 72 with the stroke
indexes of ``builders.SI_18``; hole 2 is a par 4, hole 3 a par 3.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pace.rules.events import Event
from pace.rules.model import Player
from pace.rules.scoring import live, records, score_round
from tests.builders import PAR_72, card, counted, draw_group, scoring_course

COURSE = scoring_course()
PARS = list(PAR_72)
T = datetime(2026, 6, 14, 10, tzinfo=UTC)


def recorded(id: str, player: str, hole: int, strokes: int | None, group: str = "1") -> Event:
    return Event(id, records.SCORE_RECORDED, "R1", T, {"group": group, "player": player,
                 "hole": hole, "strokes": strokes, "conceded": False})  # fmt: skip


def corrected(id: str, target: str, strokes: int | None) -> Event:
    return Event(id, records.SCORE_CORRECTED, "R1", T, {"target": target, "strokes": strokes,
                 "conceded": False, "reason": "misread"})  # fmt: skip


def voided(id: str, target: str) -> Event:
    return Event(id, "event_voided", "R1", T, {"target": target, "reason": "wrong player"})


# -- the fold --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "log, expected",
    [
        ([recorded("a", "Ann", 1, 5)], [("Ann", 1, 5)]),
        ([recorded("a", "Ann", 1, None)], [("Ann", 1, None)]),
        ([recorded("a", "Ann", 1, 5), corrected("b", "a", 4)], [("Ann", 1, 4)]),
        ([recorded("a", "Ann", 1, 5), corrected("b", "a", 4), corrected("c", "a", 6)],
         [("Ann", 1, 6)]),
        ([recorded("a", "Ann", 1, 5), corrected("b", "a", 4), corrected("c", "a", 6),
          voided("d", "c")], [("Ann", 1, 4)]),
        ([recorded("a", "Ann", 1, 5), corrected("b", "a", None)], [("Ann", 1, None)]),
        ([recorded("a", "Ann", 1, 5), voided("b", "a")], []),
        ([recorded("a", "Ann", 1, 5), voided("b", "a"), corrected("c", "a", 3)], []),
        ([corrected("c", "zz", 3), voided("d", "yy")], []),
        ([recorded("a", "Ann", 1, 5), recorded("b", "Bob", 1, 6), voided("c", "a")],
         [("Bob", 1, 6)]),
    ],
    ids=["recorded", "no score", "corrected", "corrected twice", "a correction voided",
         "corrected to no score", "voided", "a voided score is not corrected",
         "unknown targets", "one of two voided"],
)  # fmt: skip
def test_the_fold_applies_corrections_and_voids_in_log_order(log, expected):
    assert [(s.player, s.hole, s.strokes) for s in records.fold(log).scores()] == expected


def test_a_record_keeps_what_was_first_written_and_its_corrections():
    log = records.fold([recorded("a", "Ann", 1, 5), corrected("b", "a", 4)])
    (r,) = log.records
    assert (r.original, r.strokes, [c.id for c in r.corrections]) == (5, 4, ["b"])
    assert log.record("a") is r and log.record("b") is None


# -- the live board --------------------------------------------------------------------------


def board_of(groups, scores, scoring="stroke", **kw):
    results = score_round(COURSE, groups, scores, scoring=scoring, **kw)
    return live.board(
        results, COURSE, live.recorded_holes(scores, live.roster(groups, "individual"))
    )


def field(*names: str):
    return [draw_group(str(i), Player(n, 10.0)) for i, n in enumerate(names, 1)]


def test_stroke_play_ranks_cards_in_play_on_their_score_to_par_thru_the_holes_scored():
    groups = field("Ann", "Bob", "Cy", "Dee")
    scores = [
        *card("1", "Ann", [3, 4, 3]),  # −1 thru 3
        *card("2", "Bob", [4, 4]),  # E thru 2
        *card("3", "Cy", [4, 3]),  # −1 thru 2: tied with Ann
    ]
    b = board_of(groups, scores)
    got = [(ln.entry.entry, ln.state, ln.position, ln.tied, ln.to_par, ln.thru) for ln in b.lines]
    assert got == [
        ("Ann", "ranked", 1, True, -1, 3),
        ("Cy", "ranked", 1, True, -1, 2),
        ("Bob", "ranked", 3, False, 0, 2),
        ("Dee", "not_started", None, False, None, 0),
    ]
    assert b.final is False and all(ln.countback is None for ln in b.lines)


def test_a_hole_without_score_is_a_no_return_at_once_and_goes_below_the_others():
    groups = field("Ann", "Bob")
    b = board_of(groups, [*card("1", "Ann", [4, None]), *card("2", "Bob", [5])])
    assert [(ln.entry.entry, ln.state, ln.position) for ln in b.lines] == [
        ("Bob", "ranked", 1),
        ("Ann", "nr", None),
    ]


def test_a_penalty_stroke_counts_to_par_on_its_hole():
    groups = field("Ann", "Bob")
    scores = [*card("1", "Ann", [4, 4]), *card("2", "Bob", [4, 5])]
    outcomes = [counted("f1", "1", "Ann", 2, "strokes", 2)]
    b = board_of(groups, scores, outcomes=outcomes)
    ann = next(ln for ln in b.lines if ln.entry.entry == "Ann")
    assert (ann.to_par, ann.so_far, ann.position, ann.tied) == (2, 10, 2, False)


def test_when_every_card_is_in_the_board_is_final_with_the_cores_countback():
    groups = field("Ann", "Bob", "Cy")
    ann = list(PARS)
    bob = [p + (1 if n == 17 else -1 if n == 18 else 0) for n, p in enumerate(PARS, 1)]
    scores = [*card("1", "Ann", ann), *card("2", "Bob", bob), *card("3", "Cy", [4, None])]
    b = board_of(groups, scores)
    assert b.final is True
    got = [(ln.entry.entry, ln.state, ln.position, ln.countback) for ln in b.lines]
    # both level par: Bob's last hole (one under) wins the countback
    assert got == [("Bob", "ranked", 1, "last hole: 3"), ("Ann", "ranked", 2, "last hole: 4"),
                   ("Cy", "nr", None, None)]  # fmt: skip


def test_results_made_final_close_the_board_whatever_is_missing():
    """The committee made the results final (issue 38) with Cy still out after one hole and
    Dee never started: the board is final, placed by the core (countback included), and the
    cards that cannot change any more are no returns."""
    groups = field("Ann", "Bob", "Cy", "Dee")
    ann = list(PARS)
    bob = [p + (1 if n == 17 else -1 if n == 18 else 0) for n, p in enumerate(PARS, 1)]
    scores = [*card("1", "Ann", ann), *card("2", "Bob", bob), *card("3", "Cy", [4])]
    results = score_round(COURSE, groups, scores)
    recorded = live.recorded_holes(scores, live.roster(groups, "individual"))
    open_board = live.board(results, COURSE, recorded)
    assert open_board.final is False
    assert [ln.position for ln in open_board.lines[:2]] == [1, 1]  # live: level, shared
    b = live.board(results, COURSE, recorded, closed=True)
    assert b.final is True
    got = [(ln.entry.entry, ln.state, ln.position, ln.countback) for ln in b.lines]
    assert got == [("Bob", "ranked", 1, "last hole: 3"), ("Ann", "ranked", 2, "last hole: 4"),
                   ("Cy", "nr", None, None), ("Dee", "nr", None, None)]  # fmt: skip


def test_disqualified_entries_stay_at_the_bottom_with_their_reason():
    groups = field("Ann", "Bob")
    scores = [*card("1", "Ann", [4]), *card("2", "Bob", [6])]
    dq = counted("f4", "1", "Ann", 1, "disqualification", rank=4)
    b = board_of(groups, scores, outcomes=[dq])
    assert [(ln.entry.entry, ln.state) for ln in b.lines] == [("Bob", "ranked"), ("Ann", "dq")]
    assert b.lines[-1].entry.reason == "slow play: 4th bad time, hole 1 (Ann)"


def test_stableford_ranks_on_points_so_far_after_the_deductions():
    groups = field("Ann", "Bob")
    scores = [*card("1", "Ann", [4, 4, 3]), *card("2", "Bob", [5, 4])]
    b = board_of(groups, scores, scoring="stableford", outcomes=[
        counted("f1", "1", "Ann", 2, "strokes", 1)])  # fmt: skip
    got = [(ln.entry.entry, ln.value, ln.position) for ln in b.lines]
    assert got == [("Ann", 4, 1), ("Bob", 3, 2)]  # Ann 6 − 2; Bob 1 + 2


def test_bogey_counts_only_the_holes_scored_so_far():
    groups = field("Ann", "Bob")
    # gross bogey: par + 1 is halved; Ann wins the 1st (a par) and halves the 2nd
    scores = [*card("1", "Ann", [4, 5]), *card("2", "Bob", [6])]
    b = board_of(groups, scores, scoring="bogey")
    assert [(ln.entry.entry, ln.value, ln.position) for ln in b.lines] == [
        ("Ann", 1, 1),
        ("Bob", -1, 2),
    ]


def test_class_positions_follow_the_live_ranking():
    groups = [
        draw_group("1", Player("Ann", 3.0)),
        draw_group("2", Player("Bob", 4.0)),
        draw_group("3", Player("Cy", 12.0)),
    ]
    scores = [*card("1", "Ann", [5]), *card("2", "Bob", [3]), *card("3", "Cy", [4])]
    b = board_of(groups, scores)
    got = [(ln.entry.entry, ln.entry.class_name, ln.position, ln.class_position) for ln in b.lines]
    assert got == [("Bob", "AA", 1, 1), ("Cy", "BB", 2, 1), ("Ann", "AA", 3, 2)]

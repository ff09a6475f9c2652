"""Stroke play, gross and net, and countback, on hand-worked cards (docs/rules.md §10, §10.1).

The course is par 72 (out 36, in 36) with the stroke indexes of ``builders.SI_18``: hole 4
is stroke index 1, hole 13 is 2, hole 8 is 3, hole 17 is 4, hole 9 is 5, …, hole 3 is 17 and
hole 12 is 18. No slope nor rating: a course handicap is the rounded index.
"""

from __future__ import annotations

import pytest

from pace.rules.model import Player
from pace.rules.scoring import score_round
from tests.builders import PAR_72, card, draw_group, scoring_course, with_holes

COURSE = scoring_course()
PARS = list(PAR_72)


def stroke(groups, scores, **kw):
    return score_round(COURSE, groups, scores, scoring="stroke", **kw)


def by_name(results):
    return {e.entry: e for e in results.entries}


def test_net_with_more_than_18_strokes_received():
    # index 24.0: course handicap 24; 95 % = 22.8 → playing handicap 23 = 18 + 5: one
    # stroke on every hole, two on stroke indexes 1-5 (holes 4, 13, 8, 17, 9).
    # A bogey on every hole: gross 72 + 18 = 90; net 90 − 23 = 67.
    group = draw_group("1", Player("Ann", 24.0))
    (e,) = stroke([group], card("1", "Ann", [p + 1 for p in PARS]), net=True).entries
    assert (e.playing_handicap, e.gross, e.net, e.result) == (23, 90, 67, "67")
    received = {line.hole: line.received for line in e.holes}
    assert received[4] == received[13] == received[8] == received[17] == received[9] == 2
    assert received[1] == received[12] == 1
    assert sum(received.values()) == 23
    assert (e.status, e.position, e.tied, e.countback) == ("ok", 1, False, None)


def test_plus_handicap_gives_strokes_back():
    # "+2,0" in the draw is −2.0: course handicap −2; 95 % = −1.9 → −2. Strokes go back on
    # stroke indexes 18 (hole 12) and 17 (hole 3). Par everywhere: gross 72, net 72 + 2 = 74.
    group = draw_group("1", Player("Bob", -2.0))
    (e,) = stroke([group], card("1", "Bob", PARS), net=True).entries
    assert (e.playing_handicap, e.gross, e.net, e.class_name) == (-2, 72, 74, "AA")
    assert {line.hole: line.received for line in e.holes if line.received} == {12: -1, 3: -1}


def test_gross_ignores_handicaps():
    group = draw_group("1", Player("Ann", 24.0))
    (e,) = stroke([group], card("1", "Ann", [p + 1 for p in PARS])).entries
    assert (e.gross, e.net, e.result) == (90, None, "90")
    assert all(line.received == 0 for line in e.holes)


def test_a_hole_without_score_is_no_return_and_has_no_position():
    group = draw_group("1", Player("Ann", 10.0), Player("Bob", 12.0), Player("Cy", 5.0))
    ann = card("1", "Ann", PARS[:6] + [None] + PARS[7:])  # picked up on hole 7
    bob = card("1", "Bob", [p + 1 for p in PARS])
    cy = card("1", "Cy", PARS[:17])  # no row at all for hole 18
    results = stroke([group], ann + bob + cy, net=True)
    assert [(e.entry, e.position, e.status, e.result) for e in results.entries] == [
        ("Bob", 1, "ok", "79"),  # 90 − 11 (12.0 × 95 % = 11.4 → 11)
        ("Ann", None, "nr", "NR"),
        ("Cy", None, "nr", "NR"),
    ]
    ann_entry = by_name(results)["Ann"]
    assert (ann_entry.gross, ann_entry.net) == (None, None)
    assert ann_entry.holes[6].strokes is None


# --------------------------------------------------------------------------- countback

# Every pair below is level on 72 gross; A moves one stroke between two holes.
CASES = [
    # A: +1 on hole 1, −1 on hole 10 → holes 10-18: A 35, B 36
    ("last 9", {1: +1, 10: -1}, "last 9: 35", "last 9: 36"),
    # A: +1 on 10, −1 on 13 → last 9 both 36; holes 13-18 (par 25): A 24, B 25
    ("last 6", {10: +1, 13: -1}, "last 6: 24", "last 6: 25"),
    # A: +1 on 13, −1 on 16 → last 9 and 6 equal; holes 16-18 (par 12): A 11, B 12
    ("last 3", {13: +1, 16: -1}, "last 3: 11", "last 3: 12"),
    # A: +1 on 16, −1 on 18 → last 3 equal (12); hole 18 (par 4): A 3, B 4
    ("last hole", {16: +1, 18: -1}, "last hole: 3", "last hole: 4"),
]


@pytest.mark.parametrize(("step", "changes", "a_says", "b_says"), CASES, ids=[c[0] for c in CASES])
def test_countback_decides_on_each_step(step, changes, a_says, b_says):
    group = draw_group("1", Player("A"), Player("B"))
    scores = card("1", "A", with_holes(PARS, changes)) + card("1", "B", PARS)
    results = stroke([group], scores)
    assert [(e.entry, e.gross, e.position, e.tied, e.countback) for e in results.entries] == [
        ("A", 72, 1, False, a_says),
        ("B", 72, 2, False, b_says),
    ]


def test_entries_still_equal_share_the_position_and_the_next_skips():
    group = draw_group("1", Player("A"), Player("B"), Player("C"), Player("D"))
    scores = (
        card("1", "A", with_holes(PARS, {5: -1}))  # 71
        + card("1", "B", PARS)  # 72, the same card as C
        + card("1", "C", PARS)
        + card("1", "D", with_holes(PARS, {5: +1}))  # 73
    )
    results = stroke([group], scores)
    assert [(e.entry, e.position, e.tied, e.countback) for e in results.entries] == [
        ("A", 1, False, None),
        ("B", 2, True, "equal"),
        ("C", 2, True, "equal"),
        ("D", 4, False, None),
    ]


def test_countback_breaks_every_tie_not_only_the_first():
    group = draw_group("1", *(Player(n) for n in "ABCDE"))
    scores = (
        card("1", "A", with_holes(PARS, {1: -1}))  # 71: alone
        + card("1", "B", with_holes(PARS, {1: +1, 10: -1}))  # 72, last 9: 35
        + card("1", "C", with_holes(PARS, {10: +1, 13: -1}))  # 72, last 9 36, last 6 24
        + card("1", "D", PARS)  # 72, last 9 36, last 6 25
        + card("1", "E", with_holes(PARS, {1: +2}))  # 74
    )
    results = stroke([group], scores)
    assert [(e.entry, e.position, e.countback) for e in results.entries] == [
        ("A", 1, None),
        ("B", 2, "last 9: 35"),
        ("C", 3, "last 6: 24"),
        ("D", 4, "last 6: 25"),
        ("E", 5, None),
    ]


def test_net_countback_takes_exact_handicap_fractions():
    # A: index 10.0 × 95 % = 9.5 → 10; B: index 11.6 × 95 % = 11.02 → 11.
    # A gross 82 (net 72), B gross 83 (net 72). Last 9: A 41 − 10/2 = 36, B 42 − 11/2 = 36.5.
    group = draw_group("1", Player("A", 10.0), Player("B", 11.6))
    a = with_holes(PARS, {n: +1 for n in (1, 2, 3, 4, 5, 10, 11, 12, 13, 14)})
    b = with_holes(PARS, {n: +1 for n in (1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15)})
    results = stroke([group], card("1", "A", a) + card("1", "B", b), net=True)
    assert [
        (e.entry, e.playing_handicap, e.gross, e.net, e.countback) for e in results.entries
    ] == [
        ("A", 10, 82, 72, "last 9: 36"),
        ("B", 11, 83, 72, "last 9: 36.5"),
    ]


def test_net_countback_fraction_shown_with_two_decimals():
    # A index 8.0 → 7.6 → 8; B index 9.0 → 8.55 → 9. A gross 80, B gross 81: both net 72.
    # Last 9: A 40 − 8/2 = 36, B 40 − 9/2 = 35.5 → B first.
    group = draw_group("1", Player("A", 8.0), Player("B", 9.0))
    a = with_holes(PARS, {n: +1 for n in (1, 2, 3, 4, 10, 11, 12, 13)})
    b = with_holes(PARS, {n: +1 for n in (1, 2, 3, 4, 5, 10, 11, 12, 13)})
    results = stroke([group], card("1", "A", a) + card("1", "B", b), net=True)
    assert [(e.entry, e.net, e.countback) for e in results.entries] == [
        ("B", 72, "last 9: 35.5"),
        ("A", 72, "last 9: 36"),
    ]
    group = draw_group("1", Player("A", 6.0), Player("C", 7.0))
    a = with_holes(PARS, {1: +1, 2: +1, 3: +1, 4: +1, 5: +1, 6: +1, 16: -1, 10: +1})
    c = with_holes(PARS, {1: +1, 2: +1, 3: +1, 4: +1, 5: +1, 6: +1, 7: +1})
    # A: index 6.0 → 5.7 → 6, gross 78, net 72, last 9 = 36 − 6/2 = 33; C: index 7.0 →
    # 6.65 → 7, gross 79, net 72, last 9 = 36 − 7/2 = 32.5 → C first
    results = stroke([group], card("1", "A", a) + card("1", "C", c), net=True)
    assert [(e.entry, e.countback) for e in results.entries] == [
        ("C", "last 9: 32.5"),
        ("A", "last 9: 33"),
    ]
    # Thirds shown with two decimals: D and E both index 8.0 (PH 8), gross 80, net 72, last 9
    # 36 − 4 = 32 each; last 6: D 24 − 8/3 = 21.33…, E 25 − 8/3 = 22.33…
    group = draw_group("1", Player("D", 8.0), Player("E", 8.0))
    d = with_holes(PARS, {1: +4, 2: +4, 10: +1, 13: -1})
    e = with_holes(PARS, {1: +4, 2: +4})
    results = stroke([group], card("1", "D", d) + card("1", "E", e), net=True)
    assert [(x.entry, x.countback) for x in results.entries] == [
        ("D", "last 6: 21.33"),
        ("E", "last 6: 22.33"),
    ]


def test_countback_of_a_group_from_tee_10_uses_the_course_holes():
    # A starts on tee 1, B on tee 10; both 72. A: −1 on hole 10, +1 on hole 1 → course holes
    # 10-18: 35. B: +1 on hole 12, −1 on hole 5 → holes 10-18: 37. Countback on the course's
    # holes 10-18 puts A first; B's *last nine played* (holes 1-9, 35) would have tied them.
    a_group = draw_group("1", Player("A"))
    b_group = draw_group("2", Player("B"), tee=10, start="08:00")
    scores = card("1", "A", with_holes(PARS, {10: -1, 1: +1})) + card(
        "2", "B", with_holes(PARS, {12: +1, 5: -1})
    )
    results = stroke([a_group, b_group], scores)
    assert [(e.entry, e.position, e.countback) for e in results.entries] == [
        ("A", 1, "last 9: 35"),
        ("B", 2, "last 9: 37"),
    ]


def test_classes_and_class_positions():
    group = draw_group(
        "1",
        Player("Ann", 4.2),  # AA
        Player("Bob", 8.0),  # A
        Player("Cy", 12.0, class_name="A"),  # the draw's class wins over the index (BB)
        Player("Di", 20.0),  # B
    )
    scores = (
        card("1", "Ann", with_holes(PARS, {1: +3}))  # 75
        + card("1", "Bob", with_holes(PARS, {1: +2}))  # 74
        + card("1", "Cy", with_holes(PARS, {1: +1}))  # 73
        + card("1", "Di", with_holes(PARS, {1: +4}))  # 76
    )
    results = stroke([group], scores)
    assert [(e.entry, e.class_name, e.position, e.class_position) for e in results.entries] == [
        ("Cy", "A", 1, 1),
        ("Bob", "A", 2, 2),
        ("Ann", "AA", 3, 1),
        ("Di", "B", 4, 1),
    ]

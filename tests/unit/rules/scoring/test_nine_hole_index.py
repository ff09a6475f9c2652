"""Every place a nine-hole course's handicaps come from the rounded nine-hole index (issue 31).

docs/rules.md §10.1: on a nine-hole course the course handicap takes the nine-hole index, half
the handicap index **rounded to one decimal** (.05 up, towards plus infinity as every .5 of
§10.1), and only then the nine's slope, rating and par. Each row below goes through
``score_round`` on a nine of slope 113 rated at its par, where the course handicap is the
nine-hole index rounded to a whole number, so the arithmetic stays readable:

    index   half     nine-hole index   course handicap   (unrounded half → course handicap)
    8.9     4.45     4.5               5                 4.45 → 4
    10.9    5.45     5.5               6                 5.45 → 5
    16.9    8.45     8.5               9                 8.45 → 8
    4.9     2.45     2.5               3                 2.45 → 2
    2.2     1.1      1.1               1                 1.1  → 1   (not a tie: unchanged)
    +1,1    −0.55    −0.5              0                 −0.55 → −1 (plus index: towards +inf)
    0.0     0        0                 0                 0

Each row gives what pace shows with the rounded index and, worked by hand too, what the
unrounded half would have given; the two differ in every row, so every row fails if its
path multiplies the unrounded half again.

The rows' allowances are worked with the course handicap rounded first (the committee's older
reading, ``rounding = "course_then_playing"``, issue 47): there the rounded index moves the
rounded course handicap, which every row reads. The WHS reading (the default) takes the
allowance of the unrounded course handicap; ``test_the_whs_reading_takes_the_rounded_index_too``
checks the nine-hole index under it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from pace.rules.model import Player
from pace.rules.scoring import Allowances, Results, score_round
from pace.rules.scoring.handicaps import COURSE_THEN_PLAYING, CourseFactors, course_handicap
from tests.builders import card, draw_group, scoring_course

NINE = (4, 4, 3, 5, 4, 4, 3, 5, 4)  # par 36
NINE_SI = (5, 1, 9, 2, 3, 4, 8, 6, 7)
COURSE = scoring_course(NINE, NINE_SI, slope=113, rating=36.0)

ANN, BOB, CY, DAN, EVE = 8.9, 2.2, -1.1, 16.9, 10.9


def entries(results: Results, what: str) -> dict[str, Any]:
    return {e.entry: getattr(e, what) for e in results.entries}


def playing(results: Results) -> dict[str, Any]:
    """Each entry's playing handicap (four-ball: per partner)."""
    return {
        e.entry: dict(e.playing_handicaps) if e.playing_handicaps else e.playing_handicap
        for e in results.entries
    }


def received(results: Results) -> dict[str, Any]:
    """Each entry's strokes received, hole by hole."""
    return {e.entry: [h.received for h in e.holes] for e in results.entries}


def in_match(results: Results) -> dict[str, Any]:
    """Each match side's (allowance handicap, what it plays off in the match, strokes received)."""
    out: dict[str, Any] = {}
    for m in results.matches:
        for s in m.sides:
            if s.playing_handicaps:  # four-ball: per partner
                out[s.entry] = {
                    p: (s.allowance_handicaps[p], s.playing_handicaps[p], s.received_by[p])
                    for p in s.playing_handicaps
                }
            else:
                out[s.entry] = (s.allowance_handicap, s.playing_handicap, s.received)
    return out


def countback(results: Results) -> dict[str, Any]:
    return {e.entry: (e.position, e.net, e.countback) for e in results.entries}


Reader = Callable[[Results], dict[str, Any]]

# (id, format, scoring, allowances, players (name, index, side, match), reader,
#  shown with the rounded nine-hole index, what the unrounded half would show)
ROWS: list[tuple[str, str, str, Allowances, tuple[Player, ...], Reader, Any, Any]] = [
    # At 100 % the playing handicap is the course handicap itself.
    ("course handicap", "individual", "stroke", Allowances(stroke_play=100),
     (Player("Ann", ANN), Player("Cy", CY)), playing,
     {"Ann": 5, "Cy": 0}, {"Ann": 4, "Cy": -1}),
    # 95 %: course handicap 6 → 5.7 → 6 (unrounded: 5 → 4.75 → 5)
    ("stroke play 95 %", "individual", "stroke", Allowances(),
     (Player("Eve", EVE),), playing, {"Eve": 6}, {"Eve": 5}),
    # 95 %: 5 → 4.75 → 5 (4 → 3.8 → 4)
    ("Stableford 95 %", "individual", "stableford", Allowances(),
     (Player("Ann", ANN),), playing, {"Ann": 5}, {"Ann": 4}),
    # Stableford strokes received: 5 on stroke indexes 1–5 (holes 1, 2, 4, 5, 6); with 4,
    # none on hole 1 (stroke index 5)
    ("Stableford strokes received", "individual", "stableford", Allowances(),
     (Player("Ann", ANN),), received,
     {"Ann": [1, 1, 0, 1, 1, 1, 0, 0, 0]}, {"Ann": [0, 1, 0, 1, 1, 1, 0, 0, 0]}),
    # 95 %: 3 → 2.85 → 3 (2 → 1.9 → 2)
    ("bogey 95 %", "individual", "bogey", Allowances(),
     (Player("Dan", 4.9),), playing, {"Dan": 3}, {"Dan": 2}),
    # Match play 100 %, the lower off zero: Ann 5 against Bob 1: Ann plays off 4 (unrounded
    # 4 − 1 = 3) and receives 4 strokes (3).
    ("match play difference", "individual", "match", Allowances(),
     (Player("Ann", ANN, match="m"), Player("Bob", BOB, match="m")), in_match,
     {"Ann": (5, 4, 4), "Bob": (1, 0, 0)}, {"Ann": (4, 3, 3), "Bob": (1, 0, 0)}),
    # A plus index: Cy +1,1 is 0 (unrounded −1); Dan 6.2 (3.1 → 3) plays off 3 (unrounded 4).
    ("match play difference, plus index", "individual", "match", Allowances(),
     (Player("Cy", CY, match="m"), Player("Dan", 6.2, match="m")), in_match,
     {"Cy": (0, 0, 0), "Dan": (3, 3, 3)}, {"Cy": (-1, 0, 0), "Dan": (3, 4, 4)}),
    # Four-ball stroke play 85 %: Ann 5 × 0.85 = 4.25 → 4 (4 → 3.4 → 3); Dan 9 → 7.65 → 8
    # (8 → 6.8 → 7).
    ("four-ball stroke play 85 %", "four_ball", "stroke", Allowances(),
     (Player("Ann", ANN, side="a"), Player("Dan", DAN, side="a")), playing,
     {"Ann / Dan": {"Ann": 4, "Dan": 8}}, {"Ann / Dan": {"Ann": 3, "Dan": 7}}),
    # Best-ball 85 %, a side of four: Ann 4 (3), Bob 1 × 0.85 → 1 (1), Cy 0 (−0.85 → −1),
    # Eve 6 → 5.1 → 5 (5 → 4.25 → 4).
    ("best-ball 85 %", "best_ball", "stroke", Allowances(),
     (Player("Ann", ANN, side="a"), Player("Bob", BOB, side="a"),
      Player("Cy", CY, side="a"), Player("Eve", EVE, side="a")), playing,
     {"Ann / Bob / Cy / Eve": {"Ann": 4, "Bob": 1, "Cy": 0, "Eve": 5}},
     {"Ann / Bob / Cy / Eve": {"Ann": 3, "Bob": 1, "Cy": -1, "Eve": 4}}),
    # Four-ball match play 90 %, the lowest of the four off zero: Ann 5 → 4.5 → 5 (3.6 → 4),
    # Bob 0.9 → 1 (1), Cy 0 (−0.9 → −1), Dan 9 → 8.1 → 8 (7.2 → 7). Cy, the lowest, plays
    # off 0: Ann 5, Bob 1, Dan 8; unrounded Cy −1 is the lowest: Ann 5, Bob 2, Dan 8.
    ("four-ball match play 90 %, lowest off zero", "four_ball", "match", Allowances(),
     (Player("Ann", ANN, side="a", match="m"), Player("Bob", BOB, side="a", match="m"),
      Player("Cy", CY, side="b", match="m"), Player("Dan", DAN, side="b", match="m")),
     in_match,
     {"Ann / Bob": {"Ann": (5, 5, 5), "Bob": (1, 1, 1)},
      "Cy / Dan": {"Cy": (0, 0, 0), "Dan": (8, 8, 8)}},
     {"Ann / Bob": {"Ann": (4, 5, 5), "Bob": (1, 2, 2)},
      "Cy / Dan": {"Cy": (-1, 0, 0), "Dan": (7, 8, 8)}}),
    # Foursome 50 % of the combined: (5 + 9) / 2 = 7 (unrounded (4 + 8) / 2 = 6).
    ("foursome 50 % combined", "foursome", "stroke", Allowances(),
     (Player("Ann", ANN, side="a"), Player("Dan", DAN, side="a")), playing,
     {"Ann / Dan": 7}, {"Ann / Dan": 6}),
    # Threesome match: the side of two at 50 % of the combined, 7 (6), against Bob alone at
    # his individual 100 %, 1: the side plays off 6 (5).
    ("threesome match", "threesome", "match", Allowances(),
     (Player("Ann", ANN, side="a", match="m"), Player("Dan", DAN, side="a", match="m"),
      Player("Bob", BOB, side="b", match="m")), in_match,
     {"Ann / Dan": (7, 6, 6), "Bob": (1, 0, 0)}, {"Ann / Dan": (6, 5, 5), "Bob": (1, 0, 0)}),
    # Greensome 60 % of the lower + 40 % of the higher: 3 + 3.6 = 6.6 → 7 (2.4 + 3.2 = 5.6 → 6).
    ("greensome 60/40", "greensome", "stableford", Allowances(),
     (Player("Ann", ANN, side="a"), Player("Dan", DAN, side="a")), playing,
     {"Ann / Dan": 7}, {"Ann / Dan": 6}),
    # Greensome match, side against side: Ann / Dan 7 (6); Bob / Cy 0.6 × 0 + 0.4 × 1 = 0.4 → 0
    # (0.6 × −1 + 0.4 × 1 = −0.2 → 0): Ann / Dan play off 7 (6).
    ("greensome match difference", "greensome", "match", Allowances(),
     (Player("Ann", ANN, side="a", match="m"), Player("Dan", DAN, side="a", match="m"),
      Player("Bob", BOB, side="b", match="m"), Player("Cy", CY, side="b", match="m")),
     in_match,
     {"Ann / Dan": (7, 7, 7), "Bob / Cy": (0, 0, 0)},
     {"Ann / Dan": (6, 6, 6), "Bob / Cy": (0, 0, 0)}),
    # Net stroke play countback on a nine (last 6 with 6/9 of the playing handicap, the
    # fraction itself unchanged): Ann 95 % of 5 = 5; Zoé scratch. Ann 41 − 5 = 36, Zoé 36:
    # tied; last 6 (holes 4–9) Ann 27 − 5 × 6/9 = 23.67 against Zoé's par 25 → Ann 1st. With the
    # unrounded half Ann plays off 4: 37, second outright, no countback.
    ("net stroke play countback", "individual", "stroke", Allowances(),
     (Player("Ann", ANN), Player("Zoé", 0.0)), countback,
     {"Ann": (1, 36, "last 6: 23.67"), "Zoé": (2, 36, "last 6: 25")},
     {"Zoé": (1, 36, None), "Ann": (2, 37, None)}),
]  # fmt: skip

# Ann's card for the countback row: 41, holes 4–9 = 27; the others play par (36).
CARDS = {"Ann": (5, 5, 4, 5, 5, 4, 4, 5, 4)}


def play(
    format_name: str,
    scoring: str,
    allowances: Allowances,
    players: tuple[Player, ...],
    older: bool = True,
):
    group = draw_group("1", *players)
    one_ball = format_name in ("foursome", "threesome", "greensome")
    scores = []
    seen_sides: set[str] = set()
    for p in players:
        if one_ball and p.side in seen_sides:
            continue  # one card per side: the first partner's
        seen_sides.add(p.side or p.name)
        scores += card("1", p.name, CARDS.get(p.name, NINE))
    return score_round(
        COURSE, [group], scores, scoring=scoring, format_name=format_name, net=True,
        allowances=replace(allowances, rounding=COURSE_THEN_PLAYING) if older else allowances,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("format_name", "scoring", "allowances", "players", "reader", "rounded", "unrounded"),
    [pytest.param(*row[1:], id=row[0]) for row in ROWS],
)
def test_each_place_takes_the_rounded_nine_hole_index(
    format_name, scoring, allowances, players, reader, rounded, unrounded
):
    assert rounded != unrounded, "the row must tell the rounded index from the unrounded half"
    results = play(format_name, scoring, allowances, players)
    assert reader(results) == rounded


def test_the_course_handicaps_of_the_table():
    # The table's first column, one by one, through the public function and the field's path
    # (the factors computed once per field).
    want = {8.9: 5, 10.9: 6, 16.9: 9, 4.9: 3, 2.2: 1, -1.1: 0, 0.0: 0, None: 0, 6.2: 3}
    factors = CourseFactors.of(COURSE)
    for index, ch in want.items():
        assert course_handicap(index, COURSE) == ch, index
        assert factors.course_handicap(index) == ch, index


def test_eighteen_holes_take_the_whole_index_unrounded():
    # 8.9 on an eighteen of slope 113, rating = par: 8.9 → 9; the nine-hole rounding is
    # not applied (8.9 is not halved), nor any rounding to one decimal of a computed index.
    eighteen = scoring_course(slope=113, rating=72.0)
    assert course_handicap(8.9, eighteen) == 9
    assert course_handicap(8.45, eighteen) == 8  # an index given to two decimals stays exact
    # A course of another number of holes (hole_count = 12, a practice loop) is no nine: it
    # takes the whole index, as an eighteen (docs/scoring.md).
    twelve = scoring_course((4,) * 12, slope=113, rating=48.0)
    assert course_handicap(8.9, twelve) == 9


def test_the_whs_reading_takes_the_rounded_index_too():
    # Index 8.9 at 100 %: the nine-hole index 4.5 (not 4.45) is the unrounded course handicap
    # on this nine, 4.5 → 5 (4.45 would give 4). At 95 %: 4.5 × 0.95 = 4.275 → 4, where the
    # older reading gives 5 × 0.95 = 4.75 → 5.
    full = play("individual", "stroke", Allowances(stroke_play=100), (Player("Ann", ANN),), False)
    assert playing(full) == {"Ann": 5}
    whs = play("individual", "stroke", Allowances(), (Player("Ann", ANN),), False)
    assert playing(whs) == {"Ann": 4}
    assert playing(play("individual", "stroke", Allowances(), (Player("Ann", ANN),))) == {"Ann": 5}

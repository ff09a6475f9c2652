"""Mixed fields from several tee sets against an independent computation (issue 38).

Random courses of 9 or 18 holes with two or three tee sets (their own pars, stroke indexes and
men's and women's ratings), random fields (gender, tees, index) and random cards: the results of
``score_round`` must be what the rules say, worked here the plain way, apart from the code:

- course handicap = index (nine holes: half of it, rounded to one decimal, .05 up) × slope / 113
  + (rating − par of the tees played), rounded .5 up, from the player's own tees and gender;
- playing handicap = the unrounded course handicap × allowance, rounded .5 up once (the WHS
  reading, issue 47), plus in stroke and match play
  the par of the player's tees less the lowest par in play (WHS Rule 6.2b);
- strokes received by the stroke indexes of the player's own tees; Stableford points against
  the pars of his own tees; net = gross − playing handicap.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pace.rules.model import Course, Group, Hole, Player, TeeSet
from pace.rules.scoring import Score, score_round
from tests.builders import at

FAST = settings(max_examples=120, deadline=None, database=None)


def half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def course_handicap(index: float, slope: float | None, rating: float | None, par: int,
                    nine: bool) -> int:  # fmt: skip
    return half_up(unrounded(index, slope, rating, par, nine))


def unrounded(index: float, slope: float | None, rating: float | None, par: int,
              nine: bool) -> Fraction:  # fmt: skip
    i = Fraction(Decimal(repr(index)))
    if nine:  # half, to one decimal, .05 towards plus infinity
        i = Fraction(math.floor(i * 5 + Fraction(1, 2)), 10)
    s = Fraction(Decimal(repr(slope))) if slope is not None else Fraction(113)
    r = Fraction(Decimal(repr(rating))) if rating is not None else Fraction(par)
    return i * s / 113 + (r - par)


def received(ph: int, indexes: list[int]) -> list[int]:
    n = len(indexes)
    sign = 1 if ph >= 0 else -1
    each, extra = divmod(abs(ph), n)
    out = []
    for si in indexes:
        k = si if sign > 0 else n + 1 - si
        out.append(sign * (each + (1 if k <= extra else 0)))
    return out


@st.composite
def fields(draw):
    n = draw(st.sampled_from([9, 18]))
    base_pars = draw(st.lists(st.integers(3, 5), min_size=n, max_size=n))
    base_si = draw(st.permutations(range(1, n + 1)))
    tees = []
    for k, name in enumerate(draw(st.sampled_from([("Yellow", "Red"), ("White", "Yellow",
                                                                          "Red")]))):  # fmt: skip
        par = {}
        if k:  # another par on a few holes
            for h in draw(st.lists(st.integers(1, n), max_size=2, unique=True)):
                par[h] = draw(st.integers(3, 5))
        si = {}
        if k and draw(st.booleans()):
            perm = draw(st.permutations(range(1, n + 1)))
            si = {h + 1: perm[h] for h in range(n)}
        rating_base = sum(base_pars) - (2 if n == 18 else 1)
        tees.append(TeeSet(
            name, None,
            draw(st.one_of(st.none(), st.integers(95, 145))),
            draw(st.one_of(st.none(), st.integers(rating_base * 10 - 40,
                                                  rating_base * 10 + 40).map(lambda x: x / 10))),
            draw(st.integers(100, 150)),
            draw(st.integers(rating_base * 10, rating_base * 10 + 60).map(lambda x: x / 10)),
            par=par, stroke_index=si,
        ))  # fmt: skip
    holes = tuple(Hole(h + 1, base_pars[h], base_si[h]) for h in range(n))
    course = Course("c", holes, tees=tuple(tees))
    count = draw(st.integers(2, 6))
    players = []
    for p in range(count):
        players.append(Player(
            f"P{p}", draw(st.integers(-30, 540).map(lambda x: x / 10)),
            tees=draw(st.sampled_from([t.name for t in tees])),
            gender=draw(st.sampled_from([None, "men", "women"])),
        ))  # fmt: skip
    cards = {p.name: draw(st.lists(st.integers(1, 10), min_size=n, max_size=n)) for p in players}
    return course, players, cards


def played(course: Course, p: Player) -> tuple[list[int], list[int], float | None,
                                                float | None]:  # fmt: skip
    t = next(t for t in course.tees if t.name == p.tees)
    pars = [t.par.get(h.number, h.par) for h in course.holes]
    si = [t.stroke_index.get(h.number, h.stroke_index) for h in course.holes]
    women = p.gender == "women"
    return pars, si, (t.women_slope if women else t.slope), (t.women_rating if women else t.rating)


def run(course, players, cards, scoring):
    group = Group("1", at("08:00"), 1, tuple(players))
    scores = [
        Score("1", name, h + 1, s) for name, card in cards.items() for h, s in enumerate(card)
    ]
    return score_round(course, [group], scores, scoring=scoring, net=True)


@FAST
@given(fields(), st.sampled_from(["stableford", "stroke"]))
def test_individual_results_are_the_independent_computation(field, scoring):
    course, players, cards = field
    n = len(course.holes)
    lowest = min(sum(played(course, p)[0]) for p in players)
    by_name = {e.entry: e for e in run(course, players, cards, scoring).entries}
    for p in players:
        pars, si, slope, rating = played(course, p)
        ch = course_handicap(p.handicap, slope, rating, sum(pars), n == 9)
        ph = half_up(unrounded(p.handicap, slope, rating, sum(pars), n == 9) * Fraction(95, 100))
        if scoring == "stroke":
            ph += sum(pars) - lowest
        rec = received(ph, si)
        e = by_name[p.name]
        assert (e.course_handicap, e.playing_handicap) == (ch, ph), p
        assert [ln.received for ln in e.holes] == rec
        gross = sum(cards[p.name])
        if scoring == "stableford":
            points = sum(max(0, 2 + par + r - s)
                         for par, r, s in zip(pars, rec, cards[p.name], strict=True))  # fmt: skip
            assert e.points == points
        else:
            assert (e.gross, e.net) == (gross, gross - ph)
        assert e.tees == p.tees


@FAST
@given(fields())
def test_singles_match_handicaps_are_the_independent_computation(field):
    course, players, cards = field
    a, b = players[:2]
    n = len(course.holes)
    lowest = min(sum(played(course, p)[0]) for p in (a, b))
    phs = []
    for p in (a, b):
        pars, si, slope, rating = played(course, p)
        ch = course_handicap(p.handicap, slope, rating, sum(pars), n == 9)
        phs.append(ch + sum(pars) - lowest)  # match play: 100 %, then the par strokes
    low = min(phs)
    result = run(course, [a, b], {a.name: cards[a.name], b.name: cards[b.name]}, "match")
    (match,) = result.matches
    assert [s.allowance_handicap for s in match.sides] == phs
    assert [s.playing_handicap for s in match.sides] == [ph - low for ph in phs]
    for side, p, ph in zip(match.sides, (a, b), phs, strict=True):
        assert side.received == sum(received(ph - low, played(course, p)[1]))

"""Handicaps for net scoring (docs/rules.md §10.1, World Handicap System defaults).

Arithmetic is exact: indexes, slopes, ratings and allowances become ``Fraction``s from
their decimal text, so a course handicap that lands on .5 rounds the way the rule says
(towards plus infinity) and never the way a binary float happens to fall.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from pace.rules.errors import SetupError
from pace.rules.model import Course

#: The slope of a course of standard difficulty (World Handicap System).
STANDARD_SLOPE = 113

Number = int | float | Fraction


def exact(value: Number) -> Fraction:
    """Return ``value`` as the fraction its decimal text says (0.1 is 1/10, not a float's).

    >>> exact(8.4), exact(0.95), exact(Fraction(1, 3))
    (Fraction(42, 5), Fraction(19, 20), Fraction(1, 3))
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(float(value)))


def round_half_up(value: Fraction) -> int:
    """Return ``value`` rounded to the nearest whole number, .5 towards plus infinity.

    >>> [round_half_up(Fraction(n, 10)) for n in (25, -25, -26)]
    [3, -2, -3]
    """
    return math.floor(value + Fraction(1, 2))


def course_handicap(index: Number | None, course: Course) -> int:
    """Return a player's course handicap on ``course`` (docs/rules.md §10.1).

    index × slope / 113 + (course rating − par), rounded half up; a course without slope
    or rating uses 113 and its par. A nine-hole course uses the nine-hole index
    (:func:`nine_hole_index`: half the index, rounded to one decimal first). A player
    without an index plays off 0 (scratch).

    >>> from pace.rules.model import Hole
    >>> course = Course("c", tuple(Hole(n, 4) for n in range(1, 19)), slope=128, rating=70.4)
    >>> course_handicap(8.4, course), course_handicap(-1.2, course), course_handicap(None, course)
    (8, -3, -2)
    >>> course_handicap(12.5, Course("c", tuple(Hole(n, 4) for n in range(1, 19))))
    13
    >>> course_handicap(12.0, Course("c", tuple(Hole(n, 4) for n in range(1, 10))))
    6

    The two worked examples of docs/rules.md §10.1 (the USGA's Rules of Handicapping): index
    8.7 on a nine rated 35.3, slope 121, par 36: 4.35 → 4.4; 4.4 × 121 / 113 − 0.7 =
    4.011… → 4. Index 8.9 on a nine of slope 113, rating = par: 4.45 → 4.5 → 5, where
    the unrounded half (4.45 → 4) would give one stroke less.

    >>> nine = tuple(Hole(n, p) for n, p in enumerate((4, 4, 3, 5, 4, 4, 3, 5, 4), 1))
    >>> course_handicap(8.7, Course("front nine", nine, slope=121, rating=35.3))
    4
    >>> course_handicap(8.9, Course("front nine", nine, slope=113, rating=36))
    5

    From tee sets (issue 38), each player's handicap comes from the course as he plays it
    (``Course.played_from``): the ratings of his tees and gender. The white tees of the
    Rules of Handicapping's Rule 6.1 interpretation, rated 73.1 / 132 for men and 75.5 / 138
    for women over 18 holes of par 72, and 36.1 / 132 and 37.3 / 135 over the front nine
    (par 36): index 10.0 gives 10 × 132/113 + 1.1 = 12.78 → 13 for a man, 10 × 138/113 + 3.5
    = 15.71 → 16 for a woman; on the nine, the nine-hole index 5.0 gives 5 × 132/113 + 0.1 =
    5.94 → 6 and 5 × 135/113 + 1.3 = 7.27 → 7.

    >>> from pace.rules.model import TeeSet
    >>> white = TeeSet("White", "white", 132, 73.1, 138, 75.5)
    >>> eighteen = Course("c", tuple(Hole(n, 4) for n in range(1, 19)), tees=(white,))
    >>> [course_handicap(10.0, eighteen.played_from("White", g)) for g in (None, "women")]
    [13, 16]
    >>> front = TeeSet("White", "white", 132, 36.1, 135, 37.3)
    >>> nine = Course("front nine", tuple(Hole(n, 4) for n in range(1, 10)), tees=(front,))
    >>> [course_handicap(10.0, nine.played_from("white", g)) for g in (None, "women")]
    [6, 7]
    """
    return CourseFactors.of(course).course_handicap(index)


def nine_hole_index(index: Number) -> Fraction:
    """Return the nine-hole handicap index: half ``index``, rounded to one decimal, .05 up.

    Rounded in whole tenths of exact fractions, never a float's rounding: 8.7 / 2 is
    4.34999… as a float, which ``round(…, 1)`` takes to 4.3, and ``round(6.25, 1)`` is 6.2
    (half to even). ".05 up" is towards plus infinity, as the course handicap's .5
    (docs/rules.md §10.1: −2.5 → −2), so a plus index rounds towards scratch on a tie: +0.9
    (−0.9) gives −0.45 → −0.4, and +0.1 gives −0.05 → 0.

    >>> [float(nine_hole_index(i)) for i in (8.7, 8.9, 12.0, 8.4, 17.0)]
    [4.4, 4.5, 6.0, 4.2, 8.5]
    >>> [float(nine_hole_index(i)) for i in (-0.9, -0.1, -1.3, -1.2)]
    [-0.4, 0.0, -0.6, -0.6]
    """
    return Fraction(round_half_up(exact(index) * 5), 10)


@dataclass(frozen=True)
class CourseFactors:
    """A course's part of the course handicap formula, computed once for a field."""

    nine_holes: bool  # the course handicap takes the nine-hole index
    slope: Fraction  # slope / 113
    offset: Fraction  # course rating − par

    @classmethod
    def of(cls, course: Course) -> CourseFactors:
        """Return the factors of ``course``.

        Only a course of exactly nine holes takes the nine-hole index; one of another
        number of holes (``hole_count`` in the course file: a practice loop of 6 or 12)
        takes the whole index, as an eighteen does (docs/scoring.md, readings).
        """
        slope = exact(course.slope) if course.slope is not None else Fraction(STANDARD_SLOPE)
        rating = exact(course.rating) if course.rating is not None else Fraction(course.par)
        return cls(len(course.holes) == 9, slope / STANDARD_SLOPE, rating - course.par)

    def formula_index(self, index: Number | None) -> Fraction:
        """Return the index the formula takes: the nine-hole index on nine holes, else
        ``index``; no index is scratch (0)."""
        if index is None:
            return Fraction(0)
        return nine_hole_index(index) if self.nine_holes else exact(index)

    def unrounded(self, index: Number | None) -> Fraction:
        """Return the course handicap of ``index`` before it is rounded (the WHS playing
        handicap starts from it: docs/rules.md §10.1)."""
        return self.formula_index(index) * self.slope + self.offset

    def course_handicap(self, index: Number | None) -> int:
        """Return the course handicap of a player of handicap index ``index``."""
        return round_half_up(self.unrounded(index))


def percent(value: Number) -> Fraction:
    """Return a percentage as a fraction: 95 is 19/20.

    >>> percent(95), percent(87.5)
    (Fraction(19, 20), Fraction(7, 8))
    """
    return exact(value) / 100


def with_allowance(course_handicap: int | Fraction, allowance: Fraction) -> int:
    """Return a playing handicap: the course handicap times the allowance, rounded half up.

    The WHS reading (docs/rules.md §10.1) gives it the unrounded course handicap, so that it
    is rounded once: index 9.0, slope 129, rating 71.3, par 72 is 9.574… × 95 % = 9.10 → 9;
    the older reading rounds the course handicap first: 10 × 95 % = 9.5 → 10.

    >>> with_allowance(9, Fraction(95, 100)), with_allowance(-2, Fraction(95, 100))
    (9, -2)
    >>> ch = Fraction(9) * 129 / 113 + Fraction(-7, 10)
    >>> with_allowance(ch, Fraction(95, 100)), with_allowance(round_half_up(ch), Fraction(95, 100))
    (9, 10)
    """
    return round_half_up(course_handicap * allowance)


def combined(course_handicaps: tuple[int | Fraction, ...], allowance: Fraction) -> int:
    """Return a foursome side's playing handicap: the allowance of the combined handicaps.

    >>> combined((9, 14), Fraction(1, 2))
    12
    """
    return round_half_up(sum(course_handicaps) * allowance)


def greensome(
    course_handicaps: tuple[int | Fraction, ...], lower: Fraction, higher: Fraction
) -> int:
    """Return a greensome side's playing handicap: a share of the lower plus one of the higher.

    >>> greensome((9, 14), Fraction(60, 100), Fraction(40, 100))
    11
    """
    low, high = min(course_handicaps), max(course_handicaps)
    return round_half_up(low * lower + high * higher)


def strokes_received(playing_handicap: int, course: Course) -> dict[int, int]:
    """Return the strokes received on each hole, by stroke index (docs/rules.md §10.1).

    The handicap ÷ the number of holes on every hole, plus one on the holes whose stroke
    index is at most the remainder. A plus handicap gives strokes back, from the highest
    stroke index down.

    >>> from pace.rules.model import Hole
    >>> course = Course("c", tuple(Hole(n, 4, stroke_index=n) for n in range(1, 19)))
    >>> r = strokes_received(20, course)
    >>> r[1], r[2], r[3], sum(r.values())
    (2, 2, 1, 20)
    >>> r = strokes_received(-2, course)
    >>> r[16], r[17], r[18], sum(r.values())
    (0, -1, -1, -2)
    """
    n = len(course.holes)
    if playing_handicap == 0:
        return {h.number: 0 for h in course.holes}
    missing = [h.number for h in course.holes if h.stroke_index is None]
    if missing:
        raise SetupError(
            f"course {course.name!r}: net scoring needs a stroke_index on every hole; "
            f"hole {missing[0]} has none",
            field="stroke_index",
        )
    sign = 1 if playing_handicap > 0 else -1
    each, extra = divmod(abs(playing_handicap), n)
    out = {}
    for h in course.holes:
        assert h.stroke_index is not None
        si = h.stroke_index if sign > 0 else n + 1 - h.stroke_index
        out[h.number] = sign * (each + (1 if si <= extra else 0))
    return out


#: The playing handicap from the unrounded course handicap, rounded once (the WHS texts).
WHS = "whs"
#: The older reading: the course handicap rounded, then the allowance, rounded again.
COURSE_THEN_PLAYING = "course_then_playing"
#: The readings of the playing handicap's rounding (config ``[handicap] rounding``).
ROUNDINGS = (WHS, COURSE_THEN_PLAYING)


@dataclass(frozen=True)
class Allowances:
    """Handicap allowances by format, in percent (docs/rules.md §10.1; config ``[handicap]``),
    and the committee's two readings of the handicap rules.

    Four-ball and best-ball Stableford and bogey/par take the four-ball stroke-play
    allowance; foursome and threesome sides take ``foursome`` of their combined course
    handicaps; greensome sides ``greensome_lower`` of the lower plus ``greensome_higher``
    of the higher.

    ``rounding``: ``"whs"`` (default) takes the allowance of the unrounded course handicap
    and rounds once; ``"course_then_playing"`` the allowance of the rounded course handicap,
    rounded again. ``gross_par_adjustment``: in gross stroke play from tees of different par,
    the difference in par comes off the gross of the players from the higher par (WHS Rule
    6.2b (i), the default); false leaves gross scores as played.
    """

    stroke_play: float = 95
    stableford: float = 95
    bogey_par: float = 95
    match_play: float = 100
    four_ball_stroke_play: float = 85
    four_ball_match_play: float = 90
    foursome: float = 50
    greensome_lower: float = 60
    greensome_higher: float = 40
    rounding: str = WHS
    gross_par_adjustment: bool = True

    def __post_init__(self) -> None:
        for name, value in self.as_dict().items():
            if not 0 <= value <= 100:
                raise SetupError(
                    f"handicap allowance {name} = {value!r}: expected a percentage from 0 to 100",
                    field=name,
                )
        if self.rounding not in ROUNDINGS:
            raise SetupError(
                f"handicap rounding {self.rounding!r}: expected "
                + " or ".join(map(repr, ROUNDINGS)),
                field="rounding",
            )

    def as_dict(self) -> Mapping[str, float]:
        """Return the allowances (the percentages) by name."""
        return {
            name: getattr(self, name) for name in self.__dataclass_fields__ if name not in READINGS
        }


#: The fields of :class:`Allowances` that are readings, not percentages.
READINGS = ("rounding", "gross_par_adjustment")

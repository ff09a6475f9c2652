"""The draw's formats: who forms a side, how many balls it plays, and its handicap.

One class per format, the variant pattern of the scorings (``name``, ``aliases``, a
registry, :func:`find_format`): individual; foursome and threesome (Rule 29: partners
alternate one ball); greensome (both tee off, then one ball, alternately); four-ball and
best-ball (Rules 30-3 and 31: each partner plays his own ball, the better one counts).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, ClassVar

from pace.rules.errors import SetupError, said
from pace.rules.scoring import handicaps
from pace.rules.scoring.handicaps import Allowances

#: The families of scoring an allowance depends on.
STROKE, STABLEFORD, BOGEY_PAR, MATCH = "stroke", "stableford", "bogey_par", "match"

_INDIVIDUAL_ALLOWANCE = {
    STROKE: "stroke_play",
    STABLEFORD: "stableford",
    BOGEY_PAR: "bogey_par",
    MATCH: "match_play",
}


class TeamFormat:
    """A format of the draw: sides of one player, one ball per side, or own balls."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    #: partners play one ball: the side has one card and bears every penalty (docs/rules.md §10)
    one_ball: ClassVar[bool] = False
    #: partners play their own balls: the better ball counts on each hole
    own_balls: ClassVar[bool] = False
    #: the most players a side may have
    max_side: ClassVar[int] = 1

    def allowance_keys(self, family: str) -> tuple[str, ...]:
        """Return the ``Allowances`` fields this format uses under a family of scoring."""
        return (_INDIVIDUAL_ALLOWANCE[family],)

    def playing_handicaps(
        self, course_handicaps: tuple[int | Fraction, ...], family: str, allowances: Allowances
    ) -> tuple[int, ...]:
        """Return the playing handicap of each ball of a side, from its players' course handicaps.

        >>> Individual().playing_handicaps((9,), STROKE, Allowances())
        (9,)
        """
        allowance = handicaps.percent(getattr(allowances, _INDIVIDUAL_ALLOWANCE[family]))
        return (handicaps.with_allowance(course_handicaps[0], allowance),)

    def override(
        self, allowances: Allowances, family: str, values: tuple[float, ...]
    ) -> Allowances:
        """Return ``allowances`` with this format's allowance for ``family`` set to ``values``.

        >>> Greensome().override(Allowances(), MATCH, (50, 50)).greensome_higher
        50
        """
        keys = self.allowance_keys(family)
        if len(values) != len(keys):
            raise SetupError(
                said("refusal.setup.allowances", "format {format} takes {n} allowance(s) "
                     "({keys}), not {given}", format=repr(self.name), n=len(keys),
                     keys=", ".join(keys), given=len(values)),
                field="allowance",
            )  # fmt: skip
        changes: dict[str, Any] = dict(zip(keys, values, strict=True))
        return replace(allowances, **changes)


class Individual(TeamFormat):
    """Each player is his own side (stroke play, Stableford, bogey/par, singles match play)."""

    name = "individual"
    aliases = ("single", "singles", "simple")


class Foursome(TeamFormat):
    """Two partners alternate strokes on one ball (Rule 29); allowance of the combined handicaps.

    >>> Foursome().playing_handicaps((9, 14), STROKE, Allowances())
    (12,)
    """

    name = "foursome"
    aliases = ("foursomes",)
    one_ball = True
    max_side = 2

    def allowance_keys(self, family: str) -> tuple[str, ...]:
        return ("foursome",)

    def playing_handicaps(
        self, course_handicaps: tuple[int | Fraction, ...], family: str, allowances: Allowances
    ) -> tuple[int, ...]:
        if len(course_handicaps) == 1:  # a side of one plays off his individual allowance
            return super().playing_handicaps(course_handicaps, family, allowances)
        return (handicaps.combined(course_handicaps, handicaps.percent(allowances.foursome)),)


class Threesome(Foursome):
    """One player against a side of two who alternate one ball (Rule 29); as foursome."""

    name = "threesome"
    aliases = ("threesomes",)


class Greensome(TeamFormat):
    """Both partners tee off, the side chooses one ball, then alternate (swin nax).

    >>> Greensome().playing_handicaps((9, 14), STROKE, Allowances())
    (11,)
    """

    name = "greensome"
    aliases = ("greensomes",)
    one_ball = True
    max_side = 2

    def allowance_keys(self, family: str) -> tuple[str, ...]:
        return ("greensome_lower", "greensome_higher")

    def playing_handicaps(
        self, course_handicaps: tuple[int | Fraction, ...], family: str, allowances: Allowances
    ) -> tuple[int, ...]:
        if len(course_handicaps) == 1:
            return super().playing_handicaps(course_handicaps, family, allowances)
        lower = handicaps.percent(allowances.greensome_lower)
        higher = handicaps.percent(allowances.greensome_higher)
        return (handicaps.greensome(course_handicaps, lower, higher),)


class FourBall(TeamFormat):
    """Partners play their own balls; the better ball counts (Rules 30-3, 31).

    >>> FourBall().playing_handicaps((9, 14), STROKE, Allowances())
    (8, 12)
    >>> FourBall().playing_handicaps((9, 14), MATCH, Allowances())
    (8, 13)
    """

    name = "four_ball"
    aliases = ("fourball", "four-ball", "quatre_balles")
    own_balls = True
    max_side = 2

    def allowance_keys(self, family: str) -> tuple[str, ...]:
        return ("four_ball_match_play",) if family == MATCH else ("four_ball_stroke_play",)

    def playing_handicaps(
        self, course_handicaps: tuple[int | Fraction, ...], family: str, allowances: Allowances
    ) -> tuple[int, ...]:
        allowance = handicaps.percent(getattr(allowances, self.allowance_keys(family)[0]))
        return tuple(handicaps.with_allowance(ch, allowance) for ch in course_handicaps)


class BestBall(FourBall):
    """As four-ball, with sides of up to four players (the best ball counts)."""

    name = "best_ball"
    aliases = ("bestball", "best-ball", "meilleure_balle")
    max_side = 4


FORMATS: tuple[TeamFormat, ...] = (
    Individual(),
    Foursome(),
    Threesome(),
    Greensome(),
    FourBall(),
    BestBall(),
)


def find_format(name: str) -> TeamFormat:
    """Return the format called ``name`` or one of its aliases.

    >>> find_format("fourball").name
    'four_ball'
    """
    for f in FORMATS:
        if name == f.name or name in f.aliases:
            return f
    raise SetupError(
        said("refusal.setup.format", "unknown format {value}; formats are {names}",
             value=repr(name), names=", ".join(f.name for f in FORMATS)),
        field="format",
    )  # fmt: skip

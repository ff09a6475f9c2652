"""Scoring: cards, handicaps, formats, pace penalties on the card, ties (docs/rules.md §7, §10).

Pure like the rest of the rules. One class per way of scoring (``SCORINGS``,
:func:`find_scoring`: stroke play, Stableford, match play, bogey, par) and one per format
of the draw (``FORMATS``, :func:`find_format`: individual, foursome, threesome, greensome,
four-ball, best-ball); :func:`score_round` combines them.

The card is a fold of the scores plus the penalty judgement: the round's judged faults
come in as ``penalties.FaultOutcome``s and each scoring converts the counted ones
(``slowplay``); nothing about a penalty is ever written into the scores.

>>> from pace.rules.model import Course, Group, Hole, Player
>>> from datetime import UTC, datetime
>>> course = Course("c", tuple(Hole(n, 4, stroke_index=n) for n in range(1, 10)))
>>> group = Group("1", datetime(2025, 6, 14, 8, tzinfo=UTC), 1, (Player("Ann", 3.0),))
>>> scores = [Score("1", "Ann", n, 4 if n != 2 else 6) for n in range(1, 10)]
>>> entry, = score_round(course, [group], scores, scoring="stableford", net=True).entries
>>> entry.points, entry.playing_handicap, entry.result  # index 3.0: 1.5 on nine holes
(17, 1, '17 points')

(Course handicap 1.5 → 2; the playing handicap takes the unrounded 1.5: × 95 % = 1.425 → 1,
the World Handicap System's reading, docs/rules.md §10.1; the older reading's 2 × 95 % = 1.9
→ 2 gave 18 points.)

Mixed tees (WHS Rule 6.2b, docs/scoring.md "Tees"): a man from the yellow tees (par 36, slope
113, rating 36) and a woman from the red (hole 4 a par 5 there: par 37, women's slope 113,
rating 37), both of index 8.0 (nine-hole index 4.0, course handicap 4 each, 95 %: 3.8 → 4).
In net stroke play she adds the par difference (1): 5; in Stableford she does not, her
points being against her own par 5 (4 points there).

>>> from pace.rules.model import TeeSet
>>> mixed = Course("c", course.holes, tees=(TeeSet("Yellow"), TeeSet("Red", women_slope=113,
...     women_rating=37, par={4: 5})))
>>> groups = [Group("1", datetime(2025, 6, 14, 8, tzinfo=UTC), 1, (Player("Luc", 8.0,
...     tees="Yellow"), Player("Eve", 8.0, tees="Red", gender="women")))]
>>> cards = [Score("1", p, n, 4) for p in ("Luc", "Eve") for n in range(1, 10)]
>>> [(e.entry, e.playing_handicap, e.net) for e in score_round(
...     mixed, groups, cards, scoring="stroke", net=True).entries]
[('Eve', 5, 31), ('Luc', 4, 32)]
>>> [(e.entry, e.playing_handicap, e.points) for e in score_round(
...     mixed, groups, cards, scoring="stableford", net=True).entries]
[('Eve', 4, 23), ('Luc', 4, 22)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from pace.rules.errors import SetupError, said
from pace.rules.model import Course, Group
from pace.rules.penalties import FaultOutcome
from pace.rules.scoring import slowplay
from pace.rules.scoring.base import CardScoring, Field, Scoring
from pace.rules.scoring.bogey import Bogey, Par
from pace.rules.scoring.handicaps import Allowances
from pace.rules.scoring.match import MatchPlay
from pace.rules.scoring.results import Entry, HoleLine, Match, MatchHole, MatchSide, Results
from pace.rules.scoring.sides import Roster, Score, build_sides, fold_cards
from pace.rules.scoring.stableford import Stableford
from pace.rules.scoring.stroke import StrokePlay
from pace.rules.scoring.teams import FORMATS, TeamFormat, find_format

SCORINGS: tuple[Scoring, ...] = (StrokePlay(), Stableford(), MatchPlay(), Bogey(), Par())


def find_scoring(name: str) -> Scoring:
    """Return the scoring called ``name`` or one of its aliases.

    >>> find_scoring("medal").name, find_scoring("match_play").play
    ('stroke', 'match_play')
    """
    for s in SCORINGS:
        if name == s.name or name in s.aliases:
            return s
    raise SetupError(
        said("refusal.setup.scoring", "unknown scoring {value}; scorings are {names}",
             value=repr(name), names=", ".join(s.name for s in SCORINGS)),
        field="scoring",
    )  # fmt: skip


def score_round(
    course: Course,
    groups: Sequence[Group],
    scores: Iterable[Score],
    *,
    scoring: str | Scoring = "stroke",
    format_name: str | TeamFormat = "individual",
    net: bool = False,
    outcomes: Iterable[FaultOutcome] = (),
    allowances: Allowances | None = None,
) -> Results:
    """Return the round's results: ranked entries, or matches (docs/rules.md §7, §10, §10.1).

    ``scores`` are the recorded scores (a later one for the same ball and hole wins);
    ``outcomes`` the round's judged faults, judged on the ladder of ``scoring.play``;
    ``allowances`` the round's handicap allowances (default: docs/rules.md §10.1's).
    """
    scorer = scoring if isinstance(scoring, Scoring) else find_scoring(scoring)
    team_format = format_name if isinstance(format_name, TeamFormat) else find_format(format_name)
    sides = build_sides(groups, team_format)
    roster = Roster(sides)
    field = Field(
        course=course,
        sides=sides,
        cards=fold_cards(scores, roster, course),
        effects=slowplay.side_effects(outcomes, roster, scorer),
        team_format=team_format,
        net=net,
        allowances=allowances or Allowances(),
        tees={g.id: g.tee for g in groups},
    )
    return replace(
        scorer.score(field),
        rounding=field.allowances.rounding,
        gross_par_adjustment=field.allowances.gross_par_adjustment,
    )


__all__ = [
    "FORMATS",
    "SCORINGS",
    "Allowances",
    "Bogey",
    "CardScoring",
    "Entry",
    "HoleLine",
    "Match",
    "MatchHole",
    "MatchPlay",
    "MatchSide",
    "Par",
    "Results",
    "Score",
    "Scoring",
    "Stableford",
    "StrokePlay",
    "TeamFormat",
    "find_format",
    "find_scoring",
    "score_round",
]

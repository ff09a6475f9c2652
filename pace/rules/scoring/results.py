"""What a scoring returns: entries with their cards and places, or matches hole by hole.

Every field maps to the ``pace results`` document of docs/formats.md §8 (``pace.reports.results``
writes it); a field that does not apply to a scoring is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, TypedDict

from pace.rules.scoring.slowplay import PenaltyLine

OK, NR, DQ = "ok", "nr", "dq"


class HoleLine(NamedTuple):
    """One hole of an entry's card (a named tuple: a field has thousands of them).

    ``strokes``, ``received`` and ``penalty_strokes`` are the counted ball's (the side's one
    ball, or in four-ball the partner whose ball counted, ``counted``). ``value`` is what the
    hole is worth to the scoring: strokes (net when net), Stableford points, or +1/0/−1 for a
    bogey/par hole won, halved or lost. Four-ball lines keep every partner's ``scores``,
    ``received_by`` and ``penalty_by``.
    """

    hole: int
    strokes: int | None
    received: int
    penalty_strokes: int
    value: int | None
    points: int | None = None
    outcome: str | None = None
    counted: str | None = None
    scores: Mapping[str, int | None] | None = None
    received_by: Mapping[str, int] | None = None
    penalty_by: Mapping[str, int] | None = None


class Totals(TypedDict, total=False):
    """What a card scoring adds up from an entry's holes (the fields of :class:`Entry`)."""

    status: str
    result: str
    gross: int | None
    net: int | None
    points: int
    penalty_points: int
    holes_won: int
    holes_halved: int
    holes_lost: int
    penalty_holes: int
    balance: int


@dataclass(frozen=True)
class Entry:
    """One entry of a stroke-play, Stableford or bogey/par result: a player or a side.

    ``thru`` counts the holes with a recorded score (a live card is not complete yet).
    ``gross`` and ``net`` are None for a card with a hole without score; ``points`` and
    ``penalty_points`` are Stableford's, ``holes_won`` … ``penalty_holes`` bogey/par's.
    ``playing_handicap`` is the side's (None in four-ball, where ``playing_handicaps``
    gives each partner's). ``tees`` and ``tee_colour`` name the tee set played (partners'
    joined with " / " where they differ; None on a course without tee sets);
    ``course_handicap`` is a single player's, from his tees.
    """

    key: str
    entry: str
    group: str
    players: tuple[str, ...]
    class_name: str | None
    handicap_index: float | None
    playing_handicap: int | None
    playing_handicaps: Mapping[str, int]
    holes: tuple[HoleLine, ...]
    thru: int
    gross: int | None
    net: int | None
    penalty_strokes: int
    result: str
    status: str
    reason: str | None = None
    points: int | None = None
    penalty_points: int | None = None
    holes_won: int | None = None
    holes_halved: int | None = None
    holes_lost: int | None = None
    penalty_holes: int | None = None
    balance: int | None = None
    position: int | None = None
    tied: bool = False
    class_position: int | None = None
    countback: str | None = None
    penalties: tuple[PenaltyLine, ...] = ()
    tees: str | None = None
    tee_colour: str | None = None
    course_handicap: int | None = None


@dataclass(frozen=True)
class MatchHole:
    """One hole of a match: who won it and how, and the state after it.

    ``how`` is ``won``, ``halved``, ``conceded`` or ``penalty`` (a slow-play loss of hole);
    ``strokes`` is each side's score for the hole (net when net), ``scores`` each player's
    strokes in four-ball.
    """

    hole: int
    winner: str | None
    how: str
    state: str
    leader: str | None
    strokes: Mapping[str, int | None] = field(default_factory=dict)
    received: Mapping[str, int] = field(default_factory=dict)
    scores: Mapping[str, int | None] | None = None


@dataclass(frozen=True)
class MatchSide:
    """A side of a match with its handicap and the strokes it receives in the match.

    ``playing_handicap`` is what the side plays off in the match: 0 for the lower, the full
    difference for the other (docs/rules.md §10.1); ``allowance_handicap`` is its playing
    handicap with the format's allowance, before the lower one is taken off. ``received`` is
    the strokes it receives over the round (gross: only the par strokes of Rule 6.2b).
    Four-ball sides give these per partner (``playing_handicaps``, ``received_by``,
    ``allowance_handicaps``).
    """

    key: str
    entry: str
    players: tuple[str, ...]
    playing_handicap: int | None
    received: int | None
    allowance_handicap: int | None = None
    playing_handicaps: Mapping[str, int] = field(default_factory=dict)
    received_by: Mapping[str, int] = field(default_factory=dict)
    allowance_handicaps: Mapping[str, int] = field(default_factory=dict)
    tees: str | None = None
    tee_colour: str | None = None


@dataclass(frozen=True)
class Match:
    """A match's result: ``"3 & 2"``, ``"1 up"``, ``"all square"`` or ``"DQ"``.

    ``finished`` is false while holes remain to be played and nothing is decided; ``thru``
    counts the holes played (up to the one that decided the match).
    """

    match: str
    sides: tuple[MatchSide, MatchSide]
    holes: tuple[MatchHole, ...]
    result: str
    winner: str | None
    status: str
    finished: bool
    thru: int
    reason: str | None = None
    penalties: tuple[PenaltyLine, ...] = ()


@dataclass(frozen=True)
class Results:
    """The results of a round under one scoring: entries (ranked) or matches.

    ``rounding`` and ``gross_par_adjustment`` are the committee's readings of the handicap
    rules the figures follow (``Allowances``; docs/rules.md §10.1): the results say which.
    """

    scoring: str
    format: str
    net: bool
    entries: tuple[Entry, ...] = ()
    matches: tuple[Match, ...] = ()
    rounding: str = "whs"
    gross_par_adjustment: bool = True

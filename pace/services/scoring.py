"""Scoring use cases: how a round is scored, and its results from the committee's files.

A round stores its scoring, net or gross, an allowance of its own and its readings of the
handicap rules (``RoundRecord``); :func:`round_scoring` reads them with the configuration's
allowances and readings (those of a round stored before it had readings of its own).
``pace results`` (:func:`offline_results`) parses the scores with the draw and the course and
scores them by the same pure function the live leaderboard calls (``pace.services.scores``),
:func:`pace.rules.scoring.score_round`, with the round's judged faults (``outcomes``) when
the referees' judgement is at hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from pace import formats
from pace.config import Settings
from pace.rules.errors import SetupError, said
from pace.rules.model import RoundSetup
from pace.rules.penalties import MATCH_PLAY, STROKE_PLAY, FaultOutcome
from pace.rules.scoring import (
    Allowances,
    Results,
    Scoring,
    TeamFormat,
    find_format,
    find_scoring,
    score_round,
)
from pace.store import RoundRecord


@dataclass(frozen=True)
class RoundScoring:
    """How a round is scored: its scoring, format, net or gross and its allowances.

    ``stored`` says whether the committee stored the scoring, or it is the one the round's
    form of play implies (stroke play: ``stroke``; match play: ``match``).
    """

    scoring: Scoring
    team_format: TeamFormat
    net: bool
    allowances: Allowances
    stored: bool
    allowance: tuple[float, ...] | None = None


def implied_scoring(play: str) -> str:
    """Return the scoring a form of play implies when none is stored.

    >>> implied_scoring("match_play"), implied_scoring("stroke_play")
    ('match', 'stroke')
    """
    return "match" if play == MATCH_PLAY else "stroke"


def round_scoring(record: RoundRecord, settings: Settings) -> RoundScoring:
    """Return how ``record`` is scored: its own allowance and readings of the handicap rules
    (``rounding``, ``gross_par_adjustment``), else the configuration's."""
    scorer = find_scoring(record.scoring or implied_scoring(record.play))
    team_format = find_format(record.format)
    allowances = with_readings(settings.allowances(), record.rounding,
                               record.gross_par_adjustment)  # fmt: skip
    if record.allowance:
        allowances = team_format.override(allowances, scorer.family, record.allowance)
    return RoundScoring(
        scorer, team_format, record.net, allowances, record.scoring is not None, record.allowance
    )


def with_readings(
    allowances: Allowances, rounding: str | None, gross_par_adjustment: bool | None
) -> Allowances:
    """Return ``allowances`` with the readings given (None keeps the one they have).

    >>> a = with_readings(Allowances(), "course_then_playing", None)
    >>> a.rounding, a.gross_par_adjustment
    ('course_then_playing', True)
    """
    if rounding is not None:
        allowances = replace(allowances, rounding=rounding)
    if gross_par_adjustment is not None:
        allowances = replace(allowances, gross_par_adjustment=gross_par_adjustment)
    return allowances


def check_setup(
    scoring: str | None,
    play: str | None,
    format_name: str,
    allowance: Sequence[float] | None,
    settings: Settings,
) -> tuple[str | None, str | None]:
    """Check a round's scoring setup; return (scoring's name, form of play) to store.

    A scoring implies its form of play (match play for ``match``, stroke play for the
    others): a ``play`` that contradicts it is refused, and one not given is set from it.
    An allowance must have as many percentages as the format takes (greensome: two).
    """
    name = None
    if scoring is not None:
        scorer = find_scoring(scoring)
        name = scorer.name
        if play is not None and play != scorer.play:
            raise SetupError(
                said("refusal.setup.play", "scoring {scoring} is {play}; play {value} contradicts "
                     "it (leave --play out)", scoring=repr(name), value=repr(play),
                     play=said("refusal.setup.match_play", "match play")
                     if scorer.play == "match_play" else
                     said("refusal.setup.stroke_play", "stroke play")),
                field="play",
            )  # fmt: skip
        play = scorer.play
    if allowance is not None:
        family = find_scoring(name or implied_scoring(play or STROKE_PLAY)).family
        find_format(format_name).override(settings.allowances(), family, tuple(allowance))
    return name, play


def offline_results(
    setup: RoundSetup,
    scores_text: str,
    scores_file: str,
    *,
    scoring: Scoring,
    team_format: TeamFormat,
    net: bool,
    allowances: Allowances,
    outcomes: Iterable[FaultOutcome] = (),
) -> Results:
    """Return a round's results from its scores CSV (docs/formats.md §7), no server, no database.

    Raises ``FileFormatError`` naming the file, line and field of every problem of the
    scores, and ``SetupError`` when the draw cannot be scored so (a side too big for the
    format, a match without two sides, net scoring without stroke indexes).
    """
    scores = formats.parse_scores(
        scores_text,
        scores_file,
        course=setup.course,
        groups=setup.groups,
        format_name=team_format.name,
    )
    return score_round(
        setup.course,
        setup.groups,
        scores,
        scoring=scoring,
        format_name=team_format,
        net=net,
        outcomes=outcomes,
        allowances=allowances,
    )

"""Scoring use cases: a round's results from the committee's files (``pace results``).

The scores are parsed with the draw and the course, and scored by the same pure function
the live leaderboard will call, :func:`pace.rules.scoring.score_round`, with the round's
judged faults (``outcomes``) when the referees' judgement is at hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from pace import formats
from pace.rules.model import RoundSetup
from pace.rules.penalties import FaultOutcome
from pace.rules.scoring import Allowances, Results, Scoring, TeamFormat, score_round


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
    """Return the results of a round from its scores CSV (FORMATS.md), no server, no database.

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

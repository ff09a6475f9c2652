"""Competitions of several rounds (issue 28): set one up, and its results.

A competition groups 2–4 stored rounds in order. Setting one up checks its rounds exist and
are scored alike, and takes its scoring from them (``gross``, ``net`` or ``points``; a
scoring asked for must be theirs). Its results are each round's results exactly as
``pace results --round`` and the leaderboard have them (:meth:`ScoreService.judged_results`:
the round's scores and its own pace penalties on its own card), added up by the pure
:func:`pace.rules.scoring.competition.score_competition`; nothing about them is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from pace.rules.scoring.competition import (
    CompetitionResults,
    Cut,
    PlayedRound,
    check_competition,
    check_scoring,
    score_competition,
)
from pace.services.rounds import RoundService, RoundView
from pace.services.scores import ScoreService
from pace.services.scoring import round_scoring
from pace.store import RoundRecord
from pace.store.competitions import CompetitionRecord
from pace.store.records import unknown_round


@dataclass(frozen=True)
class CompetitionOutcome:
    """A competition's results with its setup, its rounds' setups and, per round whose pace
    penalties could not be judged, why (its cards then carry none)."""

    record: CompetitionRecord
    results: CompetitionResults
    rounds: tuple[RoundRecord, ...]
    warnings: tuple[str, ...] = ()


def create_competition(
    service: RoundService,
    name: str,
    rounds: Sequence[str],
    *,
    scoring: str | None = None,
    cut: Cut | None = None,
) -> CompetitionRecord:
    """Store a competition of stored rounds; refuse (``SetupError``, ``UnknownRoundError``,
    ``CompetitionExistsError``) and store nothing when it cannot be scored as asked."""
    check_competition(name, rounds, cut)
    scored = []
    for r in rounds:
        if not service.store.has_round(r):
            raise unknown_round(r, field="rounds")
        rs = round_scoring(service.store.get_round(r), service.settings)
        scored.append((r, rs.scoring.name, rs.net))
    found = check_scoring(scoring, scored)
    # a competition is its rounds' club's; rounds of two clubs are refused by the store
    club = service.store.round_club(rounds[0]) or "default"
    return service.store.create_competition(
        name, rounds=list(rounds), scoring=found, cut=cut, created_at=service.clock.now(),
        club=club,
    )


def competition_results(
    scores: ScoreService,
    name: str,
    at: Callable[[RoundView], datetime | None] = lambda view: None,
) -> CompetitionOutcome:
    """Return the competition's results, each round judged at ``at(view)`` (None: now)."""
    service = scores.live.service
    record = service.store.get_competition(name)
    played: list[PlayedRound] = []
    setups: list[RoundRecord] = []
    warnings: list[str] = []
    for r in record.rounds:
        view = service.round_view(r)
        results, error = scores.judged_results(r, at(view))
        if error:
            warnings.append(f"round {r!r}: no pace penalty on the cards: {error}")
        played.append(PlayedRound(r, view.record.course, results))
        setups.append(view.record)
    outcome = score_competition(record.name, record.scoring, played, record.cut)
    return CompetitionOutcome(record, outcome, tuple(setups), tuple(warnings))

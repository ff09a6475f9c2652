"""Scores in the round's log: what scorers recorded, corrected and voided, folded into cards.

A scorer records one ``score_recorded`` event per player (or one-ball side) and hole; a
mistake is put right by a later ``score_corrected`` naming the score it changes, or an
``event_voided`` taking it (or a correction) back. Facts are never changed in the log:
the fold applies corrections and voids in log order, so the round's scores at any point
are a pure function of its events. Nothing about a pace penalty is ever in these events:
the card is this fold plus the referees' judgement of the same log (``score_round``'s
``outcomes``).

>>> from datetime import UTC, datetime
>>> t = datetime(2026, 6, 14, 10, tzinfo=UTC)
>>> log = [
...     Event("a", SCORE_RECORDED, "R1", t, {"group": "1", "player": "Ann", "hole": 1,
...           "strokes": 5, "conceded": False}),
...     Event("b", SCORE_CORRECTED, "R1", t, {"target": "a", "strokes": 4,
...           "conceded": False, "reason": "misread"}),
... ]
>>> [(s.player, s.hole, s.strokes) for s in fold(log).scores()]
[('Ann', 1, 4)]
>>> void = Event("c", "event_voided", "R1", t, {"target": "b", "reason": "it was 5"})
>>> [s.strokes for s in fold([*log, void]).scores()]
[5]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property

from pace.rules.events import Event
from pace.rules.scoring.sides import Score

SCORE_RECORDED = "score_recorded"
SCORE_CORRECTED = "score_corrected"
EVENT_VOIDED = "event_voided"

#: the score events a void may take back
SCORE_TYPES = (SCORE_RECORDED, SCORE_CORRECTED)

#: the fewest and the most strokes a hole's score may say (docs/formats.md §7)
MIN_STROKES, MAX_STROKES = 1, 20


@dataclass(frozen=True)
class Correction:
    """A correction of a recorded score: the new strokes and concession, who and why."""

    id: str
    strokes: int | None
    conceded: bool
    reason: str
    at: datetime
    by: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Record:
    """One recorded score as it stands: the score event, its live corrections applied.

    ``strokes`` and ``conceded`` are the latest correction's, else the record's own;
    ``original`` keeps what was first written.
    """

    id: str
    group: str
    player: str
    hole: int
    original: int | None
    original_conceded: bool
    at: datetime
    by: Mapping[str, object]
    seq: int | None
    corrections: tuple[Correction, ...] = ()

    @property
    def strokes(self) -> int | None:
        """Return the strokes the score says now."""
        return self.corrections[-1].strokes if self.corrections else self.original

    @property
    def conceded(self) -> bool:
        """Return whether the score concedes the hole now (match play)."""
        return self.corrections[-1].conceded if self.corrections else self.original_conceded

    @cached_property
    def score(self) -> Score:
        """Return the score as the scoring reads it."""
        return Score(self.group, self.player, self.hole, self.strokes, self.conceded)


@dataclass(frozen=True)
class ScoreLog:
    """The round's recorded scores, in log order, corrections and voids applied."""

    records: tuple[Record, ...] = ()

    @cached_property
    def _scores(self) -> tuple[Score, ...]:
        return tuple(r.score for r in self.records)

    def scores(self) -> tuple[Score, ...]:
        """Return the scores for ``score_round`` (a later one of a ball and hole wins)."""
        return self._scores

    def of_group(self, group: str) -> tuple[Record, ...]:
        """Return the records of one group, in log order."""
        return tuple(r for r in self.records if r.group == group)

    def record(self, id: str) -> Record | None:
        """Return the live record of the score event ``id`` (None if voided or unknown)."""
        return next((r for r in self.records if r.id == id), None)


def _strokes(value: object) -> int | None:
    return None if value is None else int(str(value))


class Folder:
    """Folds score events as they come: the live service keeps one per round and hands it
    each new event once (a log of thousands of scores is not folded again at every score).

    A void of a correction takes that correction back (the score says what it said before
    it); a correction of a voided score, or of an unknown one, changes nothing.
    """

    def __init__(self) -> None:
        self._records: dict[str, Record] = {}
        self._target_of: dict[str, str] = {}  # correction id -> the score it corrects
        self._log: ScoreLog | None = ScoreLog()
        #: how many events of the log were handed over so far
        self.count = 0
        #: the last event that is not a score's (the referees' judgement depends on those
        #: only): its ``seq`` and its instant
        self.other_seq: int | None = None
        self.other_at: datetime | None = None

    def apply(self, events: Iterable[Event]) -> None:
        """Fold ``events`` (the log's next ones, in order) into the scores."""
        for e in events:
            self.count += 1
            if e.type not in SCORE_TYPES:
                self.other_seq, self.other_at = e.seq, e.at
            if e.type not in (SCORE_RECORDED, SCORE_CORRECTED, EVENT_VOIDED):
                continue
            self._log = None
            p = e.payload
            if e.type == SCORE_RECORDED:
                self._records[e.id] = Record(
                    e.id, str(p["group"]), str(p["player"]), int(str(p["hole"])),
                    _strokes(p.get("strokes")), bool(p.get("conceded", False)), e.at,
                    dict(e.by), e.seq,
                )  # fmt: skip
            elif e.type == SCORE_CORRECTED:
                target = str(p["target"])
                r = self._records.get(target)
                if r is not None:
                    self._target_of[e.id] = target
                    fix = Correction(
                        e.id, _strokes(p.get("strokes")), bool(p.get("conceded", False)),
                        str(p.get("reason", "")), e.at, dict(e.by),
                    )  # fmt: skip
                    self._records[target] = replace(r, corrections=(*r.corrections, fix))
            else:
                target = str(p["target"])
                if target in self._records:
                    del self._records[target]
                elif target in self._target_of and self._target_of[target] in self._records:
                    r = self._records[self._target_of[target]]
                    kept = tuple(c for c in r.corrections if c.id != target)
                    self._records[r.id] = replace(r, corrections=kept)

    def log(self) -> ScoreLog:
        """Return the scores folded so far."""
        if self._log is None:
            self._log = ScoreLog(tuple(self._records.values()))
        return self._log


def fold(events: Iterable[Event]) -> ScoreLog:
    """Return the recorded scores of a log: voided scores left out, corrections applied."""
    folder = Folder()
    folder.apply(events)
    return folder.log()


def check_strokes(strokes: object) -> str | None:
    """Return why ``strokes`` is not a hole's score (an integer 1–20, or None: no score).

    >>> [check_strokes(s) for s in (4, None, 20)]
    [None, None, None]
    >>> check_strokes(0)
    'strokes 0 is out of range 1–20 (send null for no score: ball picked up)'
    >>> check_strokes(4.5)
    'strokes must be a whole number of strokes 1–20, or null for no score'
    """
    if strokes is None:
        return None
    if isinstance(strokes, bool) or not isinstance(strokes, int):
        return "strokes must be a whole number of strokes 1–20, or null for no score"
    if not MIN_STROKES <= strokes <= MAX_STROKES:
        return (
            f"strokes {strokes} is out of range {MIN_STROKES}–{MAX_STROKES}"
            " (send null for no score: ball picked up)"
        )
    return None

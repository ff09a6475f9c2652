"""A round's life: planned, in play, finished, results final (issue 28, docs/status.md).

Two stages are read from the log and the clock: a round is **planned** until its first tee
time or its first fact of play (a completion, a score), then **in play**. The other two are
the committee's acts, kept in the log as facts with who and when: ``round_finished`` (or
implied once every group has finished or withdrawn) and ``results_finalised``, which locks
the facts the cards and the pace penalties are judged from until a ``results_reopened``
(with a reason). This module folds those acts; it does not read the clock nor the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from pace.rules import facts as factsmod
from pace.rules import refereeing
from pace.rules.events import Event
from pace.rules.scoring import records

ROUND_FINISHED = "round_finished"
RESULTS_FINALISED = "results_finalised"
RESULTS_REOPENED = "results_reopened"

#: the committee's acts on a round's life, in the order a round goes through them
ACTS = (ROUND_FINISHED, RESULTS_FINALISED, RESULTS_REOPENED)

PLANNED, IN_PLAY, FINISHED, FINAL = "planned", "in_play", "finished", "final"
STAGES = (PLANNED, IN_PLAY, FINISHED, FINAL)

#: The facts the cards and the pace penalties are judged from: once the results are final,
#: none of them (nor a void of one) may be added until the committee reopens them. The
#: completions and sirens are in: the checkpoint policy judges faults from them.
LOCKED = frozenset(
    {
        factsmod.HOLE_COMPLETED,
        factsmod.HOLE_TIME_CORRECTED,
        factsmod.SIREN,
        factsmod.TIME_CREDIT_GRANTED,
        factsmod.GROUP_WITHDRAWN,
        refereeing.TIMING_DECIDED,
        refereeing.PLAYER_TOLD_TIMED,
        refereeing.STROKE_TIMED,
        refereeing.PLAYER_NOTIFIED,
        refereeing.TIMING_STOPPED,
        records.SCORE_RECORDED,
        records.SCORE_CORRECTED,
    }
)

#: the facts that say play has begun, whatever the clock says (a paper round's scores)
PLAY = frozenset({factsmod.HOLE_COMPLETED, records.SCORE_RECORDED})


@dataclass(frozen=True)
class Act:
    """One of the committee's acts: its event id, instant, author and reason (a reopening's)."""

    id: str
    at: datetime
    by: Mapping[str, object]
    reason: str | None = None

    @property
    def who(self) -> str:
        """Return the author as a person reads it: the name, else the role."""
        return str(self.by.get("name") or self.by.get("role") or "?")

    @classmethod
    def from_event(cls, e: Event) -> Act:
        """Return the act an event of :data:`ACTS` records."""
        reason = e.payload.get("reason")
        return cls(e.id, e.at, e.by, str(reason) if reason else None)


@dataclass(frozen=True)
class Life:
    """The committee's acts on a round, folded from its log.

    ``finished`` is the act that finished the round (None: not finished by the committee),
    ``final`` the act that made the results final, None when they are not (never made
    final, or reopened since), ``reopened`` every reopening in log order, ``first_play``
    the instant of the first completion or score logged.
    """

    finished: Act | None = None
    final: Act | None = None
    reopened: tuple[Act, ...] = ()
    first_play: datetime | None = None

    @property
    def is_final(self) -> bool:
        """Return whether the results are final now (made final and not reopened since)."""
        return self.final is not None


def fold(events: Iterable[Event], start: Life | None = None) -> Life:
    """Return the round's life as its log says it (the clock is :func:`stage`'s); ``start``:
    the life of the log before ``events`` (a live round folds each new event once)."""
    start = start or Life()
    finished, final = start.finished, start.final
    reopened = list(start.reopened)
    first_play = start.first_play
    for e in events:
        if e.type in PLAY and (first_play is None or e.at < first_play):
            first_play = e.at
        elif e.type == ROUND_FINISHED and finished is None:
            finished = Act.from_event(e)
        elif e.type == RESULTS_FINALISED:
            final = Act.from_event(e)
        elif e.type == RESULTS_REOPENED:
            final = None
            reopened.append(Act.from_event(e))
    return Life(finished, final, tuple(reopened), first_play)


def stage(life: Life, now: datetime, first_start: datetime | None, all_done: bool) -> str:
    """Return the round's stage at ``now``.

    ``first_start`` is the draw's first tee time; ``all_done`` whether every group of the
    draw has finished or withdrawn (the last group's last hole is logged): that finishes the
    round without the committee's act.
    """
    if life.is_final:
        return FINAL
    if life.finished is not None or all_done:
        return FINISHED
    if life.first_play is not None or (first_start is not None and now >= first_start):
        return IN_PLAY
    return PLANNED


def is_locked(life: Life, event: Event, target: Event | None = None) -> bool:
    """Return whether ``event`` would change final results: a fact of :data:`LOCKED`, or a
    void of one (``target``, the voided event), while the results are final."""
    if not life.is_final:
        return False
    if event.type in LOCKED:
        return True
    return event.type == factsmod.EVENT_VOIDED and target is not None and target.type in LOCKED

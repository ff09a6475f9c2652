"""Fold a round's event log into the facts the rules evaluate (docs/rules.md §2, §5, §8).

Facts are never updated in the log: a correction (``hole_time_corrected``) or a void
(``event_voided``) is a later event that names its target. The fold applies them in log
order, so the state at any point is a pure function of the events up to that point.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta

from pace.rules.events import Event
from pace.rules.model import HoleCompletion, RoundFacts, Suspension, TimeCredit
from pace.rules.reported import completion_of, one_per_hole_sourced

HOLE_COMPLETED = "hole_completed"
HOLE_TIME_CORRECTED = "hole_time_corrected"
EVENT_VOIDED = "event_voided"
SIREN = "siren"
TIME_CREDIT_GRANTED = "time_credit_granted"
GROUP_WITHDRAWN = "group_withdrawn"

#: Siren kinds: one long siren stops play at once, three sirens suspend it (groups may
#: finish the hole), two sirens resume it (golf-mauricie 13.10, docs/rules.md §8).
STOP_KINDS = ("interruption", "suspension")
RESUME = "resume"


def fold(events: Iterable[Event]) -> RoundFacts:
    """Return the round's facts from its events, corrections and voids applied.

    >>> from datetime import UTC
    >>> t = datetime(2026, 6, 1, 8, 15, tzinfo=UTC)
    >>> log = [Event("a", "hole_completed", "r", t, {"group": "1", "hole": 1}),
    ...        Event("b", "hole_time_corrected", "r", t, {"target": "a",
    ...              "at": "2026-06-01T08:14:00+00:00", "reason": "late tap"})]
    >>> fold(log).completions[0].at.strftime("%H:%M")
    '08:14'
    """
    completions: dict[str, HoleCompletion] = {}
    credits: dict[str, TimeCredit] = {}
    withdrawn: dict[str, tuple[str, datetime]] = {}
    sirens: dict[str, tuple[str, datetime]] = {}
    for e in events:
        p = e.payload
        if e.type == HOLE_COMPLETED:
            completions[e.id] = completion_of(e)
        elif e.type == HOLE_TIME_CORRECTED:
            target = completions.get(str(p["target"]))
            if target is not None:
                new_at = datetime.fromisoformat(str(p["at"]))
                completions[str(p["target"])] = replace(target, at=new_at)
        elif e.type == EVENT_VOIDED:
            target_id = str(p["target"])
            for table in (completions, credits, withdrawn, sirens):
                table.pop(target_id, None)
        elif e.type == TIME_CREDIT_GRANTED:
            amount = timedelta(minutes=float(str(p["minutes"])))
            credits[e.id] = TimeCredit(str(p["group"]), e.at, amount, str(p.get("reason", "")))
        elif e.type == GROUP_WITHDRAWN:
            withdrawn[e.id] = (str(p["group"]), e.at)
        elif e.type == SIREN:
            sirens[e.id] = (str(p["kind"]), e.at)
    return RoundFacts(
        completions=one_per_hole_sourced(list(completions.items())),
        suspensions=suspensions_from_sirens(sirens.values()),
        credits=tuple(credits.values()),
        withdrawn={group: at for group, at in withdrawn.values()},
    )


def one_per_hole(completions: Iterable[HoleCompletion]) -> tuple[HoleCompletion, ...]:
    """Return one completion per group and hole, in time order: the earliest, if several.

    The service refuses a second completion of the same hole by the same group; should one
    reach the log anyway (two offline phones), the earliest instant counts (on a tie, the
    first in the log).
    """
    best: dict[tuple[str, int], HoleCompletion] = {}
    for c in completions:
        key = (c.group, c.hole)
        if key not in best or c.at < best[key].at:
            best[key] = c
    return tuple(sorted(best.values(), key=lambda c: c.at))


def suspensions_from_sirens(sirens: Iterable[tuple[str, datetime]]) -> tuple[Suspension, ...]:
    """Pair each stop of play with the next resumption (docs/rules.md §8).

    A stop while play is already stopped keeps the first stop; a resumption while play
    runs is ignored. A stop with no resumption yet gives an open suspension.
    """
    out: list[Suspension] = []
    open_stop: tuple[str, datetime] | None = None
    for kind, at in sorted(sirens, key=lambda s: s[1]):
        if kind in STOP_KINDS:
            if open_stop is None:
                open_stop = (kind, at)
        elif kind == RESUME and open_stop is not None:
            out.append(Suspension(open_stop[1], at, open_stop[0]))
            open_stop = None
    if open_stop is not None:
        out.append(Suspension(open_stop[1], None, open_stop[0]))
    return tuple(out)

"""How a group's own report of a completed hole is read (docs/status.md "Groups' reports").

A scorer's page reports that its group holed out the moment the last score of a hole is
entered, or when the group presses "We've finished hole N". Such a report is a completion
whose ``source`` is ``"group"``; an official's tap (a marshal, a referee, the committee) has
``source`` ``"official"``. The readings, each a pure function of the facts:

- an official's tap of a hole wins over the group's report of it (:func:`counted`);
- a report is an upper bound: the group holed out at or before it;
- several holes reported by a group within :data:`BATCH_WINDOW` prove only the last at that
  instant: the others are not facts (:func:`batched`), so the missed-tap estimates fill them
  in between the neighbouring facts (docs/estimates.md) and they are never judged on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from pace.rules.events import Event
from pace.rules.model import HoleCompletion

OFFICIAL = "official"
GROUP = "group"
#: a completion inferred from the positions of the group's phone (issue 48, docs/positions.md)
POSITION = "position"
SOURCES = (OFFICIAL, GROUP, POSITION)
#: which completion of a hole counts: an official's tap, then a position's, then a report
_RANK = {OFFICIAL: 0, POSITION: 1, GROUP: 2}

#: reports of several holes closer together than this prove only the last one
BATCH_WINDOW = timedelta(minutes=1)

#: the round settings of where completions come from (``rounds.completions``)
OFFICIALS = "officials"
OFFICIALS_AND_GROUPS = "officials_and_groups"
GROUPS = "groups"
COMPLETIONS = (OFFICIALS, OFFICIALS_AND_GROUPS, GROUPS)


def source_of(payload: Mapping[str, Any]) -> str:
    """Return the source of a ``hole_completed`` payload (none stored: an official's tap)."""
    source = payload.get("source")
    return source if source in (GROUP, POSITION) else OFFICIAL


def spread_of(payload: Mapping[str, Any]) -> timedelta:
    """Return half the interval of a completion inferred from positions (its payload's
    ``earliest`` and ``latest``), zero for any other completion or an interval unreadable."""
    if payload.get("source") != POSITION:
        return timedelta(0)
    try:
        earliest = datetime.fromisoformat(str(payload["earliest"]))
        latest = datetime.fromisoformat(str(payload["latest"]))
    except (KeyError, ValueError):
        return timedelta(0)
    return max(timedelta(0), (latest - earliest) / 2)


def completion_of(e: Event) -> HoleCompletion:
    """Return the completion a ``hole_completed`` event logs (its source and spread read)."""
    p = e.payload
    return HoleCompletion(str(p["group"]), int(str(p["hole"])), e.at, source_of(p), spread_of(p))


def groups_report(setting: str | None) -> bool:
    """Return whether a round with completions setting ``setting`` takes groups' reports."""
    return setting in (OFFICIALS_AND_GROUPS, GROUPS)


def counted(
    candidates: Iterable[tuple[str, HoleCompletion]],
) -> tuple[str, HoleCompletion] | None:
    """Return the completion that counts for one group's hole among ``candidates`` (id,
    completion, in log order): the earliest official tap if there is one, else the earliest
    group report; on a tie the first in the log.

    >>> from datetime import UTC, datetime
    >>> t = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    >>> counted([("r", HoleCompletion("1", 3, t, GROUP)),
    ...          ("m", HoleCompletion("1", 3, t + timedelta(minutes=2)))])[0]
    'm'
    """
    best: tuple[str, HoleCompletion] | None = None
    for id, c in candidates:
        if best is None:
            best = (id, c)
            continue
        rank, best_rank = _RANK.get(c.source, 0), _RANK.get(best[1].source, 0)
        if rank < best_rank or (rank == best_rank and c.at < best[1].at):
            best = (id, c)
    return best


def batched(
    reports: Sequence[tuple[str, HoleCompletion]], window: timedelta = BATCH_WINDOW
) -> frozenset[str]:
    """Return the ids of one group's reports that a later report within ``window`` makes a
    batch: only the batch's last report proves its instant.

    ``reports`` are (id, completion) of the group's live reports in log order. A report is
    batched when another report of another hole is at the same instant or up to ``window``
    after it (at the same instant, the one later in the log is the last).
    """
    out: set[str] = set()
    for i, (id, c) in enumerate(reports):
        for j, (_, d) in enumerate(reports):
            if j == i or d.hole == c.hole:
                continue
            if c.at < d.at <= c.at + window or (d.at == c.at and j > i):
                out.add(id)
                break
    return frozenset(out)


def one_per_hole_sourced(
    completions: Sequence[tuple[str, HoleCompletion]], window: timedelta = BATCH_WINDOW
) -> tuple[HoleCompletion, ...]:
    """Return one completion per group and hole, in time order, the readings applied:
    batched reports dropped, then an official's tap over a report, the earliest of a kind."""
    reports: dict[str, list[tuple[str, HoleCompletion]]] = {}
    for id, c in completions:
        if c.source == GROUP:
            reports.setdefault(c.group, []).append((id, c))
    dropped: set[str] = set()
    for group_reports in reports.values():
        dropped |= batched(group_reports, window)
    by_hole: dict[tuple[str, int], list[tuple[str, HoleCompletion]]] = {}
    for id, c in completions:
        if id not in dropped:
            by_hole.setdefault((c.group, c.hole), []).append((id, c))
    best = [b[1] for b in (counted(v) for v in by_hole.values()) if b is not None]
    return tuple(sorted(best, key=lambda c: c.at))


@dataclass(frozen=True)
class Sources:
    """Who saw a round's holes (the report's "Where the hole times came from", issue 39).

    ``official`` and ``group``: the counted completions by source (an official's tap over a
    report, a batch's earlier holes left out); ``compared``: for each hole both an official
    and the group saw, the group's report minus the official's tap (positive: the report came
    later), in log order of the reports.
    """

    official: int
    group: int
    compared: tuple[tuple[str, int, timedelta], ...]

    @property
    def group_share(self) -> float:
        """Return the share of the counted holes reported by the groups (0 when none)."""
        total = self.official + self.group
        return self.group / total if total else 0.0


def live_completions(events: Iterable[Event], now: datetime) -> dict[str, HoleCompletion]:
    """Return every completion of a log logged by ``now`` (taps and reports alike, batched or
    not), by event id, corrections and voids applied."""
    live: dict[str, HoleCompletion] = {}
    for e in events:
        p = e.payload
        if e.type == "hole_completed" and e.at <= now:
            live[e.id] = completion_of(e)
        elif e.type == "hole_time_corrected" and str(p["target"]) in live:
            old = live[str(p["target"])]
            at = datetime.fromisoformat(str(p["at"]))
            live[str(p["target"])] = replace(old, at=at)
        elif e.type == "event_voided":
            live.pop(str(p["target"]), None)
    return live


def sources(events: Iterable[Event], now: datetime) -> Sources:
    """Return who saw the holes of a log up to ``now`` (corrections and voids applied)."""
    live = live_completions(events, now)
    counted = one_per_hole_sourced(list(live.items()))
    tapped: dict[tuple[str, int], datetime] = {}
    for c in live.values():
        key = (c.group, c.hole)
        if c.source == OFFICIAL and (key not in tapped or c.at < tapped[key]):
            tapped[key] = c.at
    compared = tuple(
        (c.group, c.hole, c.at - tapped[(c.group, c.hole)])
        for c in live.values()
        if c.source == GROUP and (c.group, c.hole) in tapped
    )
    return Sources(
        sum(1 for c in counted if c.source == OFFICIAL),
        sum(1 for c in counted if c.source == GROUP),
        compared,
    )

"""The groups' reports that prove nothing on their own: a batch's earlier holes (issue 46).

A group that enters several holes within a minute proves only the last at that instant
(:func:`pace.rules.reported.batched`, docs/status.md "Groups' reports"): the others are left
out of the facts, so nobody is judged on them. The letters and the explanations still say
that such a report exists: "no group was seen completing hole 2 before it" is not true when
the group ahead entered hole 2 together with hole 3; the truth is that its time there is not
known.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from pace.rules import reported
from pace.rules.events import Event
from pace.rules.model import HoleCompletion


def batched_reports(events: Iterable[Event], now: datetime) -> tuple[HoleCompletion, ...]:
    """Return the groups' live reports known at ``now`` that a later report of the same group
    made the earlier holes of a batch (:func:`pace.rules.reported.batched`), at their reported
    instants, in time order; a hole whose completion counts all the same (an official's tap,
    another report of it) is left out: it is a fact.

    >>> from datetime import UTC, timedelta
    >>> t = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    >>> def report(id, hole, minute):
    ...     return Event(id, "hole_completed", "R", t + timedelta(minutes=minute),
    ...                  {"group": "6", "hole": hole, "source": "group"})
    >>> [(c.group, c.hole) for c in batched_reports(
    ...     [report("a", 1, 0), report("b", 2, 20), report("c", 3, 20.5)], t + timedelta(hours=1))]
    [('6', 2)]
    """
    live = reported.live_completions(events, now)
    by_group: dict[str, list[tuple[str, HoleCompletion]]] = {}
    for id, c in live.items():
        if c.source == reported.GROUP:
            by_group.setdefault(c.group, []).append((id, c))
    left_out: set[str] = set()
    for group_reports in by_group.values():
        left_out |= reported.batched(group_reports)
    counted = {(c.group, c.hole) for c in reported.one_per_hole_sourced(list(live.items()))}
    out = [c for id, c in live.items() if id in left_out and (c.group, c.hole) not in counted]
    return tuple(sorted(out, key=lambda c: c.at))

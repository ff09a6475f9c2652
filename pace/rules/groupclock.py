"""The clock of a group: elapsed time net of stops of play and time credits.

docs/rules.md §2, §5, §8.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from pace.rules.model import Suspension, TimeCredit

ZERO = timedelta(0)


def merge_suspensions(
    suspensions: Iterable[Suspension], now: datetime
) -> tuple[tuple[datetime, datetime | None], ...]:
    """Return the stops of play known at ``now`` as sorted, non-overlapping intervals.

    A suspension that starts after ``now`` is not known yet and is left out; one whose
    resumption comes after ``now`` is still running (end ``None``).
    """
    spans: list[tuple[datetime, datetime | None]] = []
    for s in sorted(suspensions, key=lambda s: s.start):
        if s.start > now:
            continue
        end = s.end if s.end is not None and s.end <= now else None
        if spans:
            last_start, last_end = spans[-1]
            if last_end is None or s.start <= last_end:
                if last_end is None or end is None:
                    spans[-1] = (last_start, None)
                else:
                    spans[-1] = (last_start, max(last_end, end))
                continue
        spans.append((s.start, end))
    return tuple(spans)


def stopped_between(
    spans: Sequence[tuple[datetime, datetime | None]], start: datetime, t: datetime
) -> timedelta:
    """Return how long play was stopped between ``start`` and ``t``."""
    total = ZERO
    for s, e in spans:
        if s >= t:
            break
        lo = max(s, start)
        hi = t if e is None else min(e, t)
        if hi > lo:
            total += hi - lo
    return total


def credit_until(credits: Iterable[TimeCredit], t: datetime) -> timedelta:
    """Return the total time credit a group had been granted at instant ``t``."""
    return sum((c.amount for c in credits if c.at <= t), ZERO)


def elapsed(
    start: datetime,
    t: datetime,
    spans: Sequence[tuple[datetime, datetime | None]] = (),
    credits: Iterable[TimeCredit] = (),
    *,
    credits_at: datetime | None = None,
) -> timedelta:
    """Return a group's elapsed time at ``t``: t − start − stops − credits (docs/rules.md §2).

    Credits count when granted at or before ``credits_at`` (default ``t``): a credit is added
    to the group's allowance from the instant it is granted on (docs/rules.md §5).
    """
    return (
        t
        - start
        - stopped_between(spans, start, t)
        - credit_until(credits, t if credits_at is None else credits_at)
    )

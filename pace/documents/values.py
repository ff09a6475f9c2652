"""Durations and instants as the documents write them: minutes rounded to the hundredth, local
ISO 8601 instants with their offset."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo


def minutes(delta: timedelta | None) -> float | None:
    """Return a duration in minutes rounded to the hundredth, or None.

    >>> minutes(timedelta(minutes=3, seconds=30)), minutes(None)
    (3.5, None)
    """
    return None if delta is None else round(delta.total_seconds() / 60, 2)


def seconds(d: timedelta | None) -> float | None:
    """Return a duration in seconds rounded to the tenth, or None.

    >>> seconds(timedelta(seconds=40, milliseconds=260)), seconds(None)
    (40.3, None)
    """
    return None if d is None else round(d.total_seconds(), 1)


def instant(t: datetime | None, tz: tzinfo) -> str | None:
    """Return an instant as local ISO 8601 with its offset, to the second, or None."""
    return None if t is None else t.astimezone(tz).isoformat(timespec="seconds")

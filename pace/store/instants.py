"""Instants as the store writes them: fixed-width ISO 8601 UTC text (text order is time order)."""

from __future__ import annotations

from datetime import UTC, datetime

from pace.rules.events import as_utc


def iso(value: datetime, name: str) -> str:
    """Return ``value`` as fixed-width ISO 8601 UTC text (microseconds, ``+00:00``)."""
    return as_utc(value, name=name).isoformat(timespec="microseconds")


def from_iso(text: str) -> datetime:
    """Return a stored instant as an aware UTC datetime."""
    return datetime.fromisoformat(text).astimezone(UTC)

"""The event record: one immutable fact of the round's log.

Every fact a person records (a hole completed, a shot timed, a siren, a correction)
is an ``Event``. The log of a round is the source of truth; state is a fold of it.
Nothing here reads a clock or touches storage.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pace.rules.errors import PaceError


def _empty() -> Mapping[str, object]:
    return {}


def canonical_json(value: object) -> str:
    """Return ``value`` as canonical JSON: sorted keys, no spaces, no NaN.

    Two payloads describe the same fact exactly when their canonical JSON is equal.

    >>> canonical_json({"b": 1, "a": [True, None]})
    '{"a":[true,null],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def as_utc(value: datetime, *, name: str = "instant") -> datetime:
    """Return the aware ``value`` converted to UTC; refuse a naive datetime.

    >>> from datetime import timedelta, timezone
    >>> as_utc(datetime(2025, 6, 1, 10, 0, tzinfo=timezone(timedelta(hours=2)))).isoformat()
    '2025-06-01T08:00:00+00:00'
    """
    if not isinstance(value, datetime):
        raise TypeError(f"{name} must be a datetime, not {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} {value.isoformat()!r} has no time zone; pass an aware datetime")
    return value.astimezone(UTC)


@dataclass(frozen=True)
class Event:
    """One fact of a round's log.

    ``id`` is made by the device that recorded the fact (a UUID), so a resend is
    recognised. ``at`` is when it happened in the world; ``recorded_at`` and ``seq``
    are set by the store (server time of storage, position in the log) and are
    ``None`` on an event not stored yet. ``by`` says who recorded it (role, device).
    Instants are normalised to UTC.
    """

    id: str
    type: str
    round: str
    at: datetime
    payload: Mapping[str, object]
    by: Mapping[str, object] = field(default_factory=_empty)
    recorded_at: datetime | None = None
    seq: int | None = None

    def __post_init__(self) -> None:
        for name in ("id", "type", "round"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"event {name} must be a non-empty string, not {value!r}")
        object.__setattr__(self, "at", as_utc(self.at, name=f"event {self.id!r} at"))
        if self.recorded_at is not None:
            recorded = as_utc(self.recorded_at, name=f"event {self.id!r} recorded_at")
            object.__setattr__(self, "recorded_at", recorded)

    def is_same_fact(self, other: Event) -> bool:
        """Return whether ``other`` records the same fact: same id, type, round, at, payload.

        ``by``, ``recorded_at`` and ``seq`` are not compared: a phone resending its
        queue over a new connection may carry a new device or arrive later.
        """
        return (
            self.id == other.id
            and self.type == other.type
            and self.round == other.round
            and self.at == other.at
            and canonical_json(self.payload) == canonical_json(other.payload)
        )


class EventConflictError(PaceError, ValueError):
    """An event id already stored with a different fact (type, round, at or payload)."""

    code = "event_conflict"


#: Payload fields the server derives from the device's clock: corrected instants and the
#: offset used. A resend over another connection may be corrected differently, so they are
#: not part of the fact; the device's own readings (``device_at``, ``device_started``...) are.
CORRECTED_FIELDS = frozenset({"at", "started", "stopped", "clock_offset_ms", "clock_source"})


def fact_of(event: Event) -> str:
    """Return what makes ``event`` its fact: type, round and payload (corrections left out).

    >>> e = Event("i", "siren", "R1", datetime(2026, 6, 14, tzinfo=UTC),
    ...           {"kind": "resume", "device_at": "x", "clock_source": "ping"})
    >>> fact_of(e)
    '["siren","R1",{"device_at":"x","kind":"resume"}]'
    """
    payload = {k: v for k, v in event.payload.items() if k not in CORRECTED_FIELDS}
    return canonical_json([event.type, event.round, payload])


def check_resend(stored: Event, candidate: Event) -> None:
    """Accept ``candidate`` as a resend of ``stored`` (same id) only if it is the same fact.

    The one rule for every event kind: every payload field counts except the server's clock
    corrections (``CORRECTED_FIELDS``); ``by``, ``at`` and ``recorded_at`` do not. The same id
    with another fact raises ``EventConflictError`` (field ``id``): the device must make a
    new id.
    """
    if stored.id != candidate.id or fact_of(stored) != fact_of(candidate):
        raise EventConflictError(
            f"event id {stored.id!r} is already stored with another fact (a {stored.type}); "
            "make a new id",
            field="id",
        )

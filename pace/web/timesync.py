"""Each connection's clock offset, estimated from ping exchanges (docs/protocol.md).

The server sends ``clock_probe`` with its time; the device answers with its own clock.
With the server's send and receive instants ``s0`` and ``s1`` and the device's answer
``d``, the offset is ``d − (s0 + s1) / 2``; of the recent samples, the one with the
shortest round trip is the best estimate (its error is at most half that round trip). Of the
offsets that sample allows, the one nearest zero is used: a phone whose clock agrees with the
server's within the measurement's own uncertainty is not corrected at all, so a slow answer
(a busy server, a phone waking its radio) never pushes a right clock's taps into the future.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta

SAMPLES = 8


@dataclass(frozen=True)
class Sample:
    """One ping exchange: the device's offset and the round trip it was measured over."""

    offset: timedelta
    round_trip: timedelta


def sample(s0: datetime, s1: datetime, device: datetime) -> Sample:
    """Return the offset (device minus server) and round trip of one exchange.

    >>> from datetime import UTC
    >>> t = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
    >>> s = sample(t, t + timedelta(milliseconds=40), t + timedelta(minutes=10, milliseconds=20))
    >>> s.offset, s.round_trip
    (datetime.timedelta(seconds=600), datetime.timedelta(microseconds=40000))
    """
    return Sample(device - (s0 + (s1 - s0) / 2), s1 - s0)


def nearest_zero(s: Sample) -> timedelta:
    """Return the offset nearest zero that ``s`` allows: its offset moved toward zero by half
    its round trip (the most the measurement can be wrong by), zero if within that.

    >>> ms = lambda n: timedelta(milliseconds=n)
    >>> nearest_zero(Sample(ms(600_000), ms(40))), nearest_zero(Sample(ms(-45_000), ms(90_000)))
    (datetime.timedelta(seconds=599, microseconds=980000), datetime.timedelta(0))
    >>> nearest_zero(Sample(ms(-60_000), ms(40_000)))
    datetime.timedelta(days=-1, seconds=86360)
    """
    slack = s.round_trip / 2
    if s.offset > slack:
        return s.offset - slack
    if s.offset < -slack:
        return s.offset + slack
    return timedelta(0)


class ClockOffsets:
    """Offsets per connection id; safe across threads."""

    def __init__(self) -> None:
        self._samples: dict[str, deque[Sample]] = {}
        self._lock = threading.Lock()

    def add(self, sid: str, s: Sample) -> None:
        """Record one exchange of connection ``sid``."""
        with self._lock:
            self._samples.setdefault(sid, deque(maxlen=SAMPLES)).append(s)

    def offset(self, sid: str) -> timedelta | None:
        """Return the best estimate for ``sid``, or None before any exchange."""
        with self._lock:
            samples = self._samples.get(sid)
            if not samples:
                return None
            return nearest_zero(min(samples, key=lambda s: s.round_trip))

    def forget(self, sid: str) -> None:
        """Drop a closed connection's samples."""
        with self._lock:
            self._samples.pop(sid, None)

    def sids(self) -> list[str]:
        """Return the connections with at least one exchange."""
        with self._lock:
            return list(self._samples)

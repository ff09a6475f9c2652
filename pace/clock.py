"""Server time: the real clock, an accelerated one (the demo) and a fake one (tests).

The rules never read a clock; the service asks its injected :class:`Clock` for ``now``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Something that tells the current instant as an aware UTC datetime."""

    def now(self) -> datetime:
        """Return the current instant."""
        ...


def rate(clock: object) -> float:
    """Return how many seconds ``clock`` advances per real second (1 for a real clock).

    Pages are told it with the server's time, so a demo's browser taps at the accelerated
    instant (issue 14). A fake clock, which moves only when a test says so, counts as 1.

    >>> rate(SystemClock()), rate(object())
    (1.0, 1.0)
    """
    value = getattr(clock, "speed", 1.0)
    return float(value) if isinstance(value, int | float) and value > 0 else 1.0


class SystemClock:
    """The machine's clock."""

    def now(self) -> datetime:
        """Return the current instant."""
        return datetime.now(UTC)


class AcceleratedClock:
    """A clock that starts at ``origin`` and runs ``speed`` times faster than real time."""

    def __init__(
        self, origin: datetime, speed: float, *, monotonic: Callable[[], float] = time.monotonic
    ):
        if speed <= 0:
            raise ValueError(f"speed must be positive, not {speed!r}")
        self.origin = origin
        self.speed = speed
        self._monotonic = monotonic
        self._t0 = monotonic()

    def now(self) -> datetime:
        """Return the accelerated instant."""
        return self.origin + timedelta(seconds=(self._monotonic() - self._t0) * self.speed)

    def to_real_seconds(self, delta: timedelta) -> float:
        """Return how many real seconds pass while this clock advances by ``delta``."""
        return delta.total_seconds() / self.speed


class FakeClock:
    """A clock that moves only when told to; for tests."""

    def __init__(self, start: datetime):
        self._now = start
        self._lock = threading.Lock()

    def now(self) -> datetime:
        """Return the fake current instant."""
        with self._lock:
            return self._now

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move the clock forward by ``delta`` or ``timedelta(**kwargs)``; return the new now."""
        with self._lock:
            self._now += delta if delta is not None else timedelta(**kwargs)
            return self._now

    def set(self, instant: datetime) -> None:
        """Put the clock at ``instant``."""
        with self._lock:
            self._now = instant

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
        self._base = (origin, self._t0, speed)  # read whole: a change of speed is atomic

    def now(self) -> datetime:
        """Return the accelerated instant."""
        origin, t0, speed = self._base
        return origin + timedelta(seconds=(self._monotonic() - t0) * speed)

    def change_speed(self, speed: float) -> None:
        """Run at ``speed`` from now on, without a jump (the demo's round is over: real time).

        >>> ticks = iter([0.0, 10.0, 10.0, 20.0])
        >>> start = datetime(2026, 6, 1, 9, tzinfo=UTC)
        >>> clock = AcceleratedClock(start, 60, monotonic=lambda: next(ticks))
        >>> clock.now().time()
        datetime.time(9, 10)
        >>> clock.change_speed(1)
        >>> clock.now().time()
        datetime.time(9, 10, 10)
        """
        if speed <= 0:
            raise ValueError(f"speed must be positive, not {speed!r}")
        t0 = self._monotonic()
        origin, then, old = self._base
        self._base = (origin + timedelta(seconds=(t0 - then) * old), t0, speed)
        self.speed = speed

    def to_real_seconds(self, delta: timedelta) -> float:
        """Return how many real seconds pass while this clock advances by ``delta``."""
        return delta.total_seconds() / self._base[2]


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

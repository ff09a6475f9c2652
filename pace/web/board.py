"""The facts-only board as its viewers re-read it: made once per log position, not per viewer.

Every viewer's board page re-reads ``GET /api/rounds/<round>/board`` after each
``board_changed``, so one tap followed by a big event's public board costs as many reads as
there are phones within a second. What the board shows is a fold of the log (the times done,
who is timed, who is disqualified) and the planned times, so the answer is made once for the
round's log position (``Store.last_seq``, asked of the database: a tap stored by another
worker changes it at once) and served to every reader until the log grows or ``max_age``
seconds pass (its ``at`` and planned times follow the clock within that). Readers who come
while it is being made wait for it instead of making it again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from pace.services.live import LiveService
from pace.web.broadcast import board_view

#: how long one made board serves a round whose log did not grow (its clock fields' lag)
MAX_AGE_SECONDS = 1.0


class BoardCache:
    """The JSON answer of each round's board, kept for its log position."""

    def __init__(
        self,
        live: LiveService,
        dumps: Callable[[Any], str],
        *,
        max_age: float = MAX_AGE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.live = live
        self.dumps = dumps
        self.max_age = max_age
        self.clock = clock
        self._lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._made: dict[str, tuple[int, float, str]] = {}

    def body(self, round: str) -> str:
        """Return the JSON of ``{"ok": true, "snapshot": <the board>}`` for ``round``."""
        seq = self.live.service.store.last_seq(round)
        with self._lock:
            making = self._locks.setdefault(round, threading.Lock())
        with making:
            known = self._made.get(round)
            now = self.clock()
            if known is not None and known[0] == seq and now - known[1] < self.max_age:
                return known[2]
            text = self.dumps({"ok": True, "snapshot": board_view(self.live.snapshot(round))})
            self._made[round] = (seq, now, text)
            return text

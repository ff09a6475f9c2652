"""The facts-only board as its viewers read it: made once per log position, not per viewer.

A viewer's board page reads ``GET /api/rounds/<round>/board`` when it missed one of the board's
deltas (and a script may poll it), so after a burst a big event's public board may be read by
many phones within a second. What the board shows is a fold of the log (the times done, who is
timed, who is disqualified) and the planned times, so the answer is made once for the round's
log position (``Store.last_seq``, asked of the database: a tap stored by another worker changes
it at once) and the number of the board's last delta (``BoardFeed.rev``: a tick may change the
board without a new event), and served to every reader until either moves or ``max_age``
seconds pass (its ``at`` follows the clock within that). Readers who come while it is being
made wait for it instead of making it again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from pace.services.board import BoardFeed

#: how long one made board serves a round whose log did not grow (its clock fields' lag)
MAX_AGE_SECONDS = 1.0


class BoardCache:
    """The JSON answer of each round's board, kept for its log position and feed number."""

    def __init__(
        self,
        board_feed: BoardFeed,
        dumps: Callable[[Any], str],
        *,
        max_age: float = MAX_AGE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.board_feed = board_feed
        self.dumps = dumps
        self.max_age = max_age
        self.clock = clock
        self._lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._made: dict[str, tuple[int, int | None, float, str]] = {}

    def body(self, round: str) -> str:
        """Return the JSON of ``{"ok": true, "snapshot": <the board>}`` for ``round``."""
        seq = self.board_feed.live.service.store.last_seq(round)
        with self._lock:
            making = self._locks.setdefault(round, threading.Lock())
        with making:
            known = self._made.get(round)
            now = self.clock()
            rev = self.board_feed.rev(round)
            if known is not None and known[:2] == (seq, rev) and now - known[2] < self.max_age:
                return known[3]
            board = self.board_feed.snapshot(round)
            text = self.dumps({"ok": True, "snapshot": board})
            self._made[round] = (seq, board["rev"], now, text)
            return text

"""Who announces what a round's log implies: its group rows, penalty rows and cards.

A command's own event (``hole_logged``, ``stroke_recorded``…) and its ack go out from the
worker that stored it. What the whole log then implies is announced by comparing it with what
the pages were last told (the round's deltas, ``LiveService.changes``, and
``ScoreBroadcaster.changed``), and that memory must be one, or a worker would stay silent
about a change another worker's pages never heard of. So with several workers the worker
ticking the round announces those changes, for every worker's commands: another worker nudges
it instead (``pace.cluster.Cluster.nudge``), and it ticks the round at once. A round nobody
ticks (no scheduler holds it), or whose ticking worker did not hear (it died; until its lease
runs out), is announced by whichever worker stored the event; such a worker does not move
the round's announced mark but notes the alerts it announced (``pace.cluster.leases``): the
alerts the dead holder stored and never announced are announced by the worker that takes the
round over, and those this worker announced are not announced again. With one worker (no
message queue) this worker announces everything, as it always did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pace.services.live import LiveService
from pace.services.state import ALERT, RESOLVED, Delta


class Derived:
    """The announcements of what a round's log implies, made here or asked of the round's
    ticking worker."""

    def __init__(
        self,
        live: LiveService,
        cards: Callable[[str], None],
        cluster: Any = None,
    ) -> None:
        self.live = live
        self._cards = cards
        self.cluster = cluster

    def here(self, round: str) -> bool:
        """Return whether this worker announces ``round``'s changes; nudge the one that does."""
        if self.cluster is None or self.cluster.announces(round):
            return True
        return not self.cluster.nudge(round)

    def stages(self, round: str) -> Iterator[Sequence[Delta]]:
        """Yield the round's deltas to announce now (rows, alerts, penalties, timing…) in
        ``LiveService.stages``' stages, the rows first; none when another worker announces
        them. Run it to the end."""
        if not self.here(round):
            return
        for out in self.live.stages(round):
            if self.cluster is not None and any(d.kind in (ALERT, RESOLVED) for d in out):
                self._note_announced(round, out)
            yield out

    def _note_announced(self, round: str, out: Sequence[Delta]) -> None:
        # a command's alerts go out with it: the worker that takes the round over must not
        # announce them again (pace.cluster.leases). The round's holder moves the announced
        # mark; a worker announcing because the holder did not hear announces its own alerts,
        # not those the holder stored and never announced (a mark would hide them from the
        # worker taking over), so it notes the ones it announced instead
        leases = self.cluster.leases
        if leases.owns(round):
            leases.mark_announced(round, self.live.service.store.last_seq(round))
        else:
            leases.note_told(round, [d.data["id"] if d.kind == ALERT else d.data["event"].id
                                     for d in out if d.kind in (ALERT, RESOLVED)])  # fmt: skip

    def cards(self, round: str) -> None:
        """Announce the cards (and the leaderboard) that changed, or have them announced."""
        if self.here(round):
            self._cards(round)

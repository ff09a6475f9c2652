"""One folded round state, shared by the live services (issue 13).

Every live use case reads the same :class:`LiveRound`: the round's setup, its log in order,
the field folded incrementally (:class:`pace.rules.fieldfold.FieldFold`), the referees' acts and
each group's judgement (:class:`pace.rules.refereefold.RefereeFold`) and the alerts raised and
acknowledged (:class:`pace.rules.alerts.AlertBook`). :class:`LiveRounds` keeps one per round
and applies the events the store holds beyond the last one it read (another process may
append: a CLI import), so nothing is folded twice and a quiet tick folds nothing; it stores a
command's event and folds it (``append``), with the one resend rule (``resent``).

A round's pages live on deltas: each row, alert, penalty or part of the snapshot that changed
goes out as a :class:`Delta` numbered by the round's ``rev`` (one counter per round and process;
the snapshot says which number it includes). A page that sees a number skip reads the
snapshot once (docs/protocol.md, "Deltas").
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from pace.rules import changes as changesmod
from pace.rules import explain as explainmod
from pace.rules import facts as factsmod
from pace.rules import policies
from pace.rules.alerts import AlertBook
from pace.rules.errors import SetupError
from pace.rules.events import Event, check_resend
from pace.rules.fieldfold import FieldFold
from pace.rules.position import GroupStatus
from pace.rules.refereefold import RefereeFold
from pace.services.rounds import RoundService, RoundView

#: the kinds of delta (docs/protocol.md: the event each goes out as)
ROW, ALERT, ACKNOWLEDGED, RESOLVED, PENALTIES, TIMING, PARTS = (
    "row", "alert", "acknowledged", "resolved", "penalties", "timing", "parts"
)  # fmt: skip


@dataclass(frozen=True)
class Delta:
    """A change of what a round's snapshot holds, numbered ``rev`` in the round's feed.

    ``kind`` is one of ``ROW`` (``data``: a group row), ``ALERT`` (an alert raised),
    ``ACKNOWLEDGED`` and ``RESOLVED`` (``{"event": ...}``: the ``alert_acknowledged`` or
    ``alert_resolved`` event), ``PENALTIES`` (``{group, players}``), ``TIMING``
    (``{group, timing}``) and ``PARTS`` (snapshot fields replaced whole:
    ``{"suspended": ..., "held_up": ...}``, and any part a companion adds).
    """

    kind: str
    rev: int
    data: Mapping[str, Any]


#: how many of the latest events' groups a round keeps to send their rows first
NAMED_KEPT = 16
#: the facts whose group's row goes out first (an alert or a referee's act names a group too,
#: but changes no row)
ROW_FACTS = frozenset({factsmod.HOLE_COMPLETED, factsmod.HOLE_TIME_CORRECTED,
                       factsmod.EVENT_VOIDED, factsmod.TIME_CREDIT_GRANTED,
                       factsmod.GROUP_WITHDRAWN})  # fmt: skip


@dataclass
class LiveRound:
    """A round as the live services share it: its setup, its log, and the log folded."""

    view: RoundView
    field: FieldFold
    referees: RefereeFold
    policy: policies.Policy | None
    policy_error: str | None
    alerts: AlertBook = field(default_factory=AlertBook)
    #: who recorded each fact and when, kept one event at a time (an alert's explanation
    #: names them: docs/explanations.md)
    sources: explainmod.Sources = field(default_factory=explainmod.Sources)
    events: list[Event] = field(default_factory=list)
    by_id: dict[str, Event] = field(default_factory=dict)
    voided: set[str] = field(default_factory=set)
    last_seq: int = 0
    #: the number of the last delta made (docs/protocol.md, "Deltas")
    rev: int = 0
    #: the number of the last delta of each other feed of the round (the public board's, by
    #: name): a feed whose rooms must not hear the round's deltas numbers its own
    feeds: dict[str, int] = field(default_factory=dict)
    #: what each part of the feed last told the pages (by the part's name)
    told: dict[str, Any] = field(default_factory=dict)
    #: each group's ``field.version`` once the stored log was first folded (a command after a
    #: restart answers for the groups its own events touched, not for the whole field)
    base: dict[str, int] = field(default_factory=dict)
    #: the same for each group's judgement (``referees.key``)
    base_judged: dict[str, Any] = field(default_factory=dict)
    #: values derived from the log alone, dropped when it grows (see :meth:`memo`)
    derived: dict[str, Any] = field(default_factory=dict)
    derived_seq: int = -1
    #: the groups the latest events name (a tap's, the tap a correction or a void targets),
    #: in log order: their rows go out before the rows the events changed around them
    named: deque[str] = field(default_factory=lambda: deque(maxlen=NAMED_KEPT))
    #: the log was folded again under a draw changed on the day: the next feed tells the
    #: pages every row at once (``LiveService.stages``)
    redrawn: bool = False

    @property
    def name(self) -> str:
        """Return the round's name."""
        return self.view.record.name

    def apply(self, e: Event, now: datetime) -> None:
        """Fold one stored event into every part of the state."""
        self.events.append(e)
        self.by_id[e.id] = e
        if e.seq is not None:
            self.last_seq = max(self.last_seq, e.seq)
        if e.type == factsmod.EVENT_VOIDED:
            self.voided.add(str(e.payload["target"]))
        if e.type in ROW_FACTS:
            named = e.payload.get("group")
            if e.type in (factsmod.HOLE_TIME_CORRECTED, factsmod.EVENT_VOIDED):
                target = self.by_id.get(str(e.payload["target"]))
                # a voided stroke or score names a group, but changes no row
                known = target is not None and target.type in ROW_FACTS
                named = target.payload.get("group") if known else None
            if isinstance(named, str):
                self.named.append(named)
        self.field.apply(e, now)
        self.sources.apply(e)
        self.referees.apply(e)
        self.alerts.apply(e)

    def memo(self, name: str, compute: Callable[[], Any]) -> Any:
        """Return ``compute()`` for the log as it is, computing it again only once it grew."""
        if self.derived_seq != self.last_seq:
            self.derived = {}
            self.derived_seq = self.last_seq
        if name not in self.derived:
            self.derived[name] = compute()
        return self.derived[name]

    def delta(self, kind: str, data: Mapping[str, Any]) -> Delta:
        """Return the next delta of the round's feed."""
        self.rev += 1
        return Delta(kind, self.rev, data)

    def feed_delta(self, feed: str, kind: str, data: Mapping[str, Any]) -> Delta:
        """Return the next delta of the round's other feed ``feed`` (numbered on its own)."""
        self.feeds[feed] = self.feeds.get(feed, 0) + 1
        return Delta(kind, self.feeds[feed], data)


def suspended(live: LiveRound, now: datetime) -> bool:
    """Return whether play is stopped at ``now`` by a siren not yet followed by a resumption."""
    return any(s.end is None and s.start <= now for s in live.field.suspensions)


class Companion(Protocol):
    """A service that adds to every round's snapshot, tick and feed (the referees', the panels).

    ``deltas`` is asked after each command and tick with the groups whose status was evaluated
    again (``statuses``); it returns (kind, data) pairs, numbered by the feed, the alerts it
    calls for (raised by the live service, once each) and the groups it looked at for them:
    an open alert of one of its ``alert_kinds`` in those groups that it no longer calls for
    is resolved.
    """

    alert_kinds: tuple[str, ...]

    def snapshot_parts(self, live: LiveRound, now: datetime) -> Mapping[str, Any]:
        """Return the fields this service adds to the round's snapshot."""
        ...

    def deltas(
        self, live: LiveRound, statuses: Mapping[str, GroupStatus], now: datetime, tick: bool
    ) -> tuple[Iterable[tuple[str, Mapping[str, Any]]], Iterable[Any], Iterable[str]]:
        """Return what changed for the pages since last asked, the alerts now due (current
        or not) and the groups they were looked for in."""
        ...


class LiveRounds:
    """Each round's :class:`LiveRound`, kept in step with the store; one lock for all of them.

    ``seeders`` are called with a round's state once its stored log is first folded (at
    start, or after a new setup): a feed notes there what every snapshot already holds, so
    it tells its pages only what changes after.
    """

    def __init__(self, service: RoundService):
        self.service = service
        self.lock = threading.RLock()
        self.seeders: list[Callable[[LiveRound, datetime], None]] = []
        self._rounds: dict[str, LiveRound] = {}
        #: told each commit's seconds (the operator's metrics; None: nobody listens)
        self.committed: Callable[[float], None] | None = None

    def open_alerts(self) -> dict[str, int]:
        """Return how many alerts are open in each round folded so far (nothing read)."""
        with self.lock:
            return {name: len(live.alerts.open()) for name, live in self._rounds.items()}

    def held(self, round: str) -> LiveRound | None:
        """Return ``round``'s state as folded so far (nothing read from the store), if any."""
        with self.lock:
            return self._rounds.get(round)

    def get(self, round: str, now: datetime, held: list[Event] | None = None) -> LiveRound:
        """Return ``round``'s state with every stored event folded (``UnknownRoundError``).

        A changed setup (a draw imported again, another policy) folds the log again; its
        feed's numbers go on from the old one's, one skipped (pages read the snapshot again).
        ``held``: the stored events, in order, that the state folded before a change of the
        draw was read (folded again from memory; only what follows them is read).
        """
        with self.lock:
            view = self.service.round_view(round)
            live = self._rounds.get(round)
            fresh = live is None or live.view is not view
            if fresh:
                old = live
                live = self._build(view)
                if old is not None:
                    # the feed goes on numbering, one number skipped: a page holding the old
                    # setup sees a gap at the next delta and reads the snapshot again
                    live.rev = old.rev + 1
                    live.feeds = {name: n + 1 for name, n in old.feeds.items()}
                self._rounds[round] = live
                for e in held or ():
                    if e.seq is None or e.seq > view.seq:
                        break  # (not the case: held events were read before the view was)
                    live.apply(e, now)
            assert live is not None
            for e in self.service.store.events(round, after_seq=live.last_seq):
                stale = not fresh or (e.seq or 0) > view.seq
                if stale and changesmod.is_change(e, live.by_id):
                    # a change of the draw (rare): the round is folded again from its log under
                    # the changed draw, rather than each fold learning to change its plan; the
                    # events already read are folded again from memory, not read again
                    self.service.draw_changed(round)
                    again = self.get(round, now, held=live.events)
                    again.redrawn = True
                    return again
                live.apply(e, now)
            if fresh:
                live.base = dict(live.field.version)
                live.base_judged = {p.id: live.referees.key(p.id) for p in view.plan.groups}
                # what the stored log already held is in every snapshot: the feed starts after it
                live.told["acknowledged"] = len(live.alerts.acknowledgements)
                live.told["resolved"] = len(live.alerts.resolutions)
                live.told["suspended"] = suspended(live, now)
                for seed in self.seeders:
                    seed(live, now)
            return live

    def resent(self, event: Event) -> Event | None:
        """Return the stored event if ``event``'s id is stored already (a resend), else None.

        The same id with another fact is refused (``event_conflict``): one rule for every
        event kind, ``pace.rules.events.check_resend``.
        """
        stored = self.service.store.event(event.id)
        if stored is not None:
            check_resend(stored, event)
        return stored

    def append(self, event: Event) -> tuple[Event, bool]:
        """Store ``event`` (committed on return) and fold it into the round's state."""
        started = time.perf_counter()
        stored, created = self.service.store.append(event, recorded_at=self.service.clock.now())
        if self.committed is not None:
            self.committed(time.perf_counter() - started)
        self.get(event.round, self.service.clock.now())
        return stored, created

    def _build(self, view: RoundView) -> LiveRound:
        policy, error = None, None
        try:
            policy = self.service.settings.policy(view.record.policy)
        except SetupError as e:
            error = e.message
        field = FieldFold(view.setup, view.plan)
        referees = RefereeFold(field, policy, play=view.record.play, format_name=view.record.format)
        return LiveRound(view, field, referees, policy, error)

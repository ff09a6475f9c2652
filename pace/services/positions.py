"""Positions from the phones the groups carry (issue 48; docs/positions.md "On the wire").

A scorer's page (the group's phone) consents to share its group's position
(``positions_consented``, a fact of the log: which device, which group, when; never a
coordinate), sends batches of fixes (``send_positions``) and may stop at any time
(``positions_stopped``). Each fix is screened (:func:`pace.rules.positions.screen`: outside the
course's box, inaccurate, faster than a buggy), the kept ones feed the group's one
:class:`~pace.rules.positions.Tracker` (two phones of one group feed the same one), and each
completion it confirms is appended through the live loop as a ``hole_completed`` whose source
is ``position``, with its interval, so rows and alerts follow as for a tap.

**Privacy, by construction.** The fixes are held in this process's memory only: the trackers'
pending samples and each group's last kept fix. They never enter the event log or any table;
they are forgotten when the round is finished, when positions are turned off, when the group's
phones stop sharing, and when the process stops; and none is held longer than ``keep``
(``[positions] keep_hours``, 24 hours at most) by the server's clock: older ones are dropped at
each ``send_positions`` and at each :meth:`PositionService.sweep` (the scheduler's supervisor
runs it every 15 s), and a fix sent already that old is discarded (``expired``).
docs/privacy.md says this to the members.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from threading import Lock
from typing import Any

from pace.rules import facts as factsmod
from pace.rules import life as lifemod
from pace.rules import places as placesmod
from pace.rules import positions as posmod
from pace.rules import reported
from pace.rules.errors import PaceError
from pace.rules.events import Event
from pace.services import commands as cmd
from pace.services.commands import CommandError, Outcome
from pace.services.geometry import round_geometry
from pace.services.live import LiveService
from pace.services.validation import group_of

POSITIONS_CONSENTED = "positions_consented"
POSITIONS_STOPPED = "positions_stopped"
#: the author of an inferred completion (``by.role``), beside the device that sent the fixes
ROLE = "positions"

#: the most fixes one ``send_positions`` carries (10 minutes at one fix every 15 s)
MAX_FIXES = 40
#: the fixes one device may send in :data:`RATE_WINDOW_S` (a phone sends about 4 a minute; a
#: queue replayed after a long gap sends its backlog in a few messages)
RATE_FIXES = 400
RATE_WINDOW_S = 60.0
#: how far ahead of the server's clock a fix's corrected instant may be
FUTURE = timedelta(seconds=30)
#: how long a fix is held at most (``[positions] keep_hours``: it may shorten this, never
#: lengthen it; docs/privacy.md)
KEEP = timedelta(hours=24)

log = logging.getLogger(__name__)
#: the batches' ids a round remembers, so that a batch sent again is taken once (a phone's
#: queue resends a batch whose answer it did not get: four hours of one every 30 s for 60
#: groups fit)
BATCHES = 30000


@dataclass(frozen=True)
class Fix:
    """One position as a phone sent it: its instant (clock-corrected), longitude, latitude
    and accuracy (metres)."""

    at: cmd.DeviceTime
    lon: float
    lat: float
    accuracy: float


@dataclass(frozen=True)
class SendPositions:
    """A group's phone sends fixes of where the group is (``consent_id``: the consent it
    shares under, if it names one)."""

    round: str
    group: str
    fixes: tuple[Fix, ...]
    by: cmd.Author
    consent_id: str | None = None
    #: the batch's id (the scorer's page gives each batch one): sent again, it is taken once
    id: str | None = None


@dataclass(frozen=True)
class ShareConsent:
    """A group's phone starts (``share``) or stops sharing its group's position."""

    id: str
    round: str
    group: str
    share: bool
    by: cmd.Author


@dataclass(frozen=True)
class Taken:
    """What a ``send_positions`` did: the fixes kept, those discarded by reason, and the
    completions it confirmed (each stored as a ``hole_completed``)."""

    kept: int
    discarded: Mapping[str, int]
    outcomes: tuple[Outcome, ...]
    #: the batch was taken already (the same id sent again): these are its first answer's
    duplicate: bool = False

    def ack(self) -> dict[str, Any]:
        """Return the command's ack: the counts and the holes inferred."""
        return {
            "ok": True,
            "duplicate": self.duplicate,
            "kept": self.kept,
            "discarded": dict(self.discarded),
            "inferred": [
                {"id": o.event.id, "hole": o.event.payload["hole"], "at": o.event.at.isoformat()}
                for o in self.outcomes
            ],
        }


@dataclass
class _Group:
    """One group's positions in memory: its tracker and its last kept fix."""

    tracker: posmod.Tracker
    last: posmod.Sample | None = None
    #: the hole in play and the latest instant a fix showed the group clearly on it (no
    #: coordinate: "still on hole 7 at 10:42", docs/positions.md "Still on the hole")
    seen: tuple[int, datetime] | None = None


@dataclass
class _Round:
    """One round's positions in memory, and its consents folded from the log."""

    shape: posmod.CourseShape
    geometry: Mapping[str, Any]
    groups: dict[str, _Group] = field(default_factory=dict)
    #: (group, device) → the id of the consent in force
    consents: dict[tuple[str, str], str] = field(default_factory=dict)
    folded: int = 0
    #: (device, batch id) → what the batch did, the latest :data:`BATCHES`
    batches: OrderedDict[tuple[str, str], Taken] = field(default_factory=OrderedDict)


class PositionService:
    """The groups' positions over a :class:`LiveService` (thread-safe: its lock)."""

    def __init__(
        self,
        live: LiveService,
        *,
        max_fixes: int = MAX_FIXES,
        rate_fixes: int = RATE_FIXES,
        rate_window_s: float = RATE_WINDOW_S,
        monotonic: Callable[[], float] = time.monotonic,
        keep: timedelta = KEEP,
    ) -> None:
        if not timedelta(0) < keep <= KEEP:
            raise ValueError(f"positions are held more than 0 and at most 24 h, not {keep}")
        self.live = live
        #: how long a fix is held at most, by the server's clock
        self.keep = keep
        self.max_fixes = max_fixes
        self.rate_fixes = rate_fixes
        self.rate_window_s = rate_window_s
        self.monotonic = monotonic
        self._rounds: dict[str, _Round] = {}
        #: each device's fixes taken recently: (instant, how many), oldest first
        self._sent: dict[str, list[tuple[float, int]]] = {}
        self._rate_lock = Lock()
        # the live loop reads where the phones showed the groups still on their holes
        live.seen_on_hole = self.seen_on_hole

    # -- consent ---------------------------------------------------------------------------

    def share(self, c: ShareConsent) -> Outcome:
        """Record that a group's phone starts or stops sharing its group's position: a
        ``positions_consented`` or ``positions_stopped`` fact (the device, the group, when; no
        coordinate). Stopping forgets what the group's phones sent."""
        with self.live.lock:
            live = self.live.live(c.round)
            event = Event(
                id=c.id,
                type=POSITIONS_CONSENTED if c.share else POSITIONS_STOPPED,
                round=c.round,
                at=self.live.clock.now(),
                payload={"group": c.group},
                by=c.by.as_dict(),
            )
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            if c.share:
                self._check_allowed(c.round)
            group_of(live.view, c.group)
            outcome = Outcome(*self.live.append(event))
            kept = self._rounds.get(c.round)
            if not c.share and kept is not None:
                self._fold_consents(kept, self.live.live(c.round).events)
                if not any(group == c.group for group, _ in kept.consents):
                    kept.groups.pop(c.group, None)  # no phone of the group shares any more
            return outcome

    # -- fixes -----------------------------------------------------------------------------

    def send(self, c: SendPositions) -> Taken:
        """Screen a phone's fixes, feed the kept ones to its group's tracker and append the
        completions it confirms. Refused, nothing taken: ``positions_off``,
        ``no_course_map``, ``round_finished``, ``unknown_group``, ``no_consent``,
        ``too_many_fixes`` (more than :attr:`max_fixes`, or the device's rate bound)."""
        if len(c.fixes) > self.max_fixes:
            raise CommandError(
                f"a message carries at most {self.max_fixes} fixes, not {len(c.fixes)}; send "
                "the rest in another",
                field="fixes",
                code="too_many_fixes",
            )
        device = c.by.device or "?"
        with self.live.lock:
            live = self.live.live(c.round)
            view = live.view
            self._check_allowed(c.round)
            if finished(self.live.life(c.round)):
                self._rounds.pop(c.round, None)
                raise CommandError(
                    f"round {c.round!r} is finished: positions are no longer taken",
                    field="round",
                    code="round_finished",
                )
            kept_round = self._round(c.round)
            taken = kept_round.batches.get((device, c.id)) if c.id is not None else None
            if taken is not None:  # sent again (its answer was lost): taken once
                return replace(
                    taken,
                    duplicate=True,
                    outcomes=tuple(Outcome(o.event, False) for o in taken.outcomes),
                )
            group = group_of(view, c.group)
            self._fold_consents(kept_round, live.events)
            consent = kept_round.consents.get((c.group, device))
            if consent is None or (c.consent_id is not None and c.consent_id != consent):
                raise CommandError(
                    f"this phone has not agreed to share group {c.group!r}'s position (or has "
                    "stopped): ask its players first (positions_consented)",
                    field="consent_id" if c.consent_id else "group",
                    code="no_consent",
                )
            self._take_rate(device, len(c.fixes))
            now = self.live.clock.now()
            self._expire(now - self.keep)
            g = self._group(kept_round, live, c.group)
            day_start = datetime.combine(view.record.day, datetime.min.time(), view.tz)
            discarded: dict[str, int] = {}
            samples: list[posmod.Sample] = []
            for f in c.fixes:
                at = f.at.corrected
                reason = None
                if at > now + FUTURE or not day_start <= at < day_start + timedelta(days=1):
                    reason = "off_time"
                elif at < now - self.keep:
                    reason = "expired"  # older than a fix is held: never taken
                else:
                    s = posmod.Sample(at, f.lon, f.lat, f.accuracy)
                    reason = posmod.screen(kept_round.shape, s, g.last)
                    if reason is None:
                        samples.append(s)
                        if g.last is None or s.at >= g.last.at:
                            g.last = s
                if reason is not None:
                    discarded[reason] = discarded.get(reason, 0) + 1
            outcomes = []
            for inferred in g.tracker.feed(samples):
                outcome = self._complete(live, c, group.start, inferred, device)
                if outcome is not None:
                    outcomes.append(outcome)
            self._note_seen(g, samples)
            taken = Taken(len(samples), discarded, tuple(outcomes))
            if c.id is not None:
                kept_round.batches[(device, c.id)] = taken
                while len(kept_round.batches) > BATCHES:
                    kept_round.batches.popitem(last=False)
            return taken

    @staticmethod
    def _note_seen(g: _Group, samples: Sequence[posmod.Sample]) -> None:
        """Note the latest of ``samples`` that shows the group clearly on its hole in play
        (``Tracker.on_hole``), as (hole, instant)."""
        t = g.tracker
        if t.k >= len(t.order):
            g.seen = None
            return
        hole = t.order[t.k]
        if g.seen is not None and g.seen[0] != hole:
            g.seen = None  # a hole completed since: what was seen of the one before is done
        for s in samples:
            if (g.seen is None or s.at > g.seen[1]) and t.on_hole(s):
                g.seen = (hole, s.at)

    def seen_on_hole(self, round: str) -> dict[str, tuple[int, datetime]]:
        """Return, by group, the hole in play and the latest instant a fix of its phone
        showed it clearly on it (the live loop's "still on the hole", issue 48): only while
        the round allows positions and the group's fixes are held."""
        with self.live.lock:
            kept = self._rounds.get(round)
            if kept is None:
                return {}
            return {group: g.seen for group, g in kept.groups.items() if g.seen is not None}

    def _complete(
        self, live: Any, c: SendPositions, start: datetime, inferred: posmod.Inferred,
        device: str,
    ) -> Outcome | None:  # fmt: skip
        """Append an inferred completion, unless an official's tap or a position already
        counts for the hole (the tap wins; docs/status.md) or it lies before the start."""
        counts = live.field.source(c.group, inferred.hole)
        if counts in (reported.OFFICIAL, reported.POSITION) or inferred.at < start:
            return None
        event = Event(
            id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"pace:position:{c.round}:{c.group}:"
                                                  f"{inferred.hole}")),
            type=factsmod.HOLE_COMPLETED,
            round=c.round,
            at=inferred.at,
            payload={
                "group": c.group,
                "hole": inferred.hole,
                "source": reported.POSITION,
                "earliest": inferred.earliest.isoformat(),
                "latest": inferred.latest.isoformat(),
            },
            by={"role": ROLE, "device": device},
        )  # fmt: skip
        if (stored := self.live.resent(event)) is not None:
            return Outcome(stored, False)
        return Outcome(*self.live.append(event))

    # -- the picture (committee and referees; the group's own page) -------------------------

    def places(self, round: str, now: datetime | None = None) -> dict[str, dict[str, Any]]:
        """Return where each group with a kept fix stands on its hole at ``now``, by group
        (:func:`place`'s fields; docs/positions.md, "The picture"): never a coordinate, and
        nothing once the round is finished, positions are off or the group's phones stopped
        sharing (the fixes are forgotten then)."""
        with self.live.lock:
            now = now or self.live.clock.now()
            kept = self._rounds.get(round)
            if kept is None:
                return {}
            if not self.live.service.store.get_round(round).positions or finished(
                self.live.life(round)
            ):
                self._rounds.pop(round, None)
                return {}
            live = self.live.live(round)
            plan = live.view.plan
            placed: dict[str, placesmod.Place] = {}
            for group, g in kept.groups.items():
                if g.last is None or group not in plan.by_id:
                    continue
                order = plan.by_id[group].order
                k = max(g.tracker.k, _in_play(order, live.field.done(group)))
                p = placesmod.place_of(kept.shape, order, k, g.last)
                if p is not None:
                    placed[group] = p
            withdrawn = {p.id for p in plan.groups if live.field.withdrawn_at(p.id) is not None}
            out = {}
            for group, p in placed.items():
                ahead = placesmod.group_ahead(plan.groups, group, withdrawn)
                behind = None
                if ahead is not None and ahead in placed:
                    behind = placesmod.distance_behind(
                        kept.shape, plan.by_id[group].order, p, placed[ahead], now
                    )
                out[group] = shown_place(p, now, ahead if behind is not None else None, behind)
            return out

    def place(self, round: str, group: str, now: datetime | None = None) -> dict[str, Any] | None:
        """Return where ``group`` stands on its hole (:meth:`places`), or None."""
        return self.places(round, now).get(group)

    def shares(self, round: str, group: str, device: str | None) -> bool:
        """Return whether ``device`` agreed to share ``group``'s position in ``round`` and has
        not stopped (its consent is in force): the phone that may be told the group's place."""
        if not device:
            return False
        with self.live.lock:
            kept = self._rounds.get(round)
            if kept is None:
                return False
            self._fold_consents(kept, self.live.live(round).events)
            return (group, device) in kept.consents

    def forget(self, round: str) -> None:
        """Forget every fix held of ``round`` (it is finished)."""
        with self.live.lock:
            self._rounds.pop(round, None)

    def sweep(self, now: datetime | None = None) -> int:
        """Drop every fix held longer than :attr:`keep` at ``now`` (default: the server's
        clock), and every fix of a round that is finished, no longer allows positions or is
        gone; return how many fixes were dropped. The scheduler's supervisor runs it (every
        15 s), so the bound holds while no phone sends (docs/privacy.md)."""
        with self.live.lock:
            now = now or self.live.clock.now()
            dropped = 0
            for name in list(self._rounds):
                try:
                    ended = (
                        finished(self.live.life(name))
                        or not self.live.service.store.get_round(name).positions
                    )
                except PaceError:  # the round is gone
                    ended = True
                if ended:
                    dropped += self._held(name)
                    self._rounds.pop(name, None)
            dropped += self._expire(now - self.keep)
        if dropped:
            log.info("positions: %d fixes dropped (held past their time, or round over)", dropped)
        return dropped

    def _expire(self, cutoff: datetime) -> int:
        """Drop the fixes held of every round older than ``cutoff``; return how many."""
        dropped = 0
        for kept in self._rounds.values():
            for g in kept.groups.values():
                dropped += g.tracker.forget_before(cutoff)
                if g.last is not None and g.last.at < cutoff:
                    g.last = None
                    dropped += 1
                if g.seen is not None and g.seen[1] < cutoff:
                    g.seen = None  # kept no longer than the fixes that showed it
        return dropped

    def held(self, round: str, before: datetime | None = None) -> int:
        """Return how many fixes of ``round`` are held in memory, of those older than
        ``before`` if given (the privacy tests)."""
        with self.live.lock:
            return self._held(round, before)

    def _held(self, round: str, before: datetime | None = None) -> int:
        kept = self._rounds.get(round)
        if kept is None:
            return 0
        return sum(
            sum(1 for at, _, _ in g.tracker.pending if before is None or at < before)
            + (g.last is not None and (before is None or g.last.at < before))
            for g in kept.groups.values()
        )

    # -- the parts -------------------------------------------------------------------------

    def _check_allowed(self, round: str) -> None:
        """Refuse a round that does not allow positions (``positions_off``), read from the
        store: ``pace round positions`` may change it while the server runs."""
        if not self.live.service.store.get_round(round).positions:
            self._rounds.pop(round, None)
            raise CommandError(
                f"round {round!r} does not take positions from the groups' phones; the "
                "committee may allow them (pace round positions on)",
                field="round",
                code="positions_off",
            )

    def _round(self, round: str) -> _Round:
        """Return the round's positions, its course's map read once (``no_course_map``)."""
        kept = self._rounds.get(round)
        if kept is None:
            geometry = round_geometry(self.live.service, round)
            if not geometry or not geometry.get("holes"):
                raise CommandError(
                    f"the course of round {round!r} has no map: positions cannot be placed "
                    "(pace import geometry)",
                    field="round",
                    code="no_course_map",
                )
            kept = _Round(posmod.CourseShape.of(geometry), geometry)
            self._rounds[round] = kept
        return kept

    def _group(self, kept: _Round, live: Any, group: str) -> _Group:
        """Return the group's tracker, on the hole after those it has completed already (an
        official's tap ahead of the tracker moves it on)."""
        order = tuple(live.view.plan.by_id[group].order)
        done = live.field.done(group)
        k = _in_play(order, done)
        g = kept.groups.get(group)
        if g is None:
            g = _Group(posmod.Tracker(kept.shape, order, k))
            kept.groups[group] = g
        elif k > g.tracker.k:
            last = done[order[k - 1]]
            g.tracker = posmod.Tracker(kept.shape, order, k, since=last)
        return g

    def _fold_consents(self, kept: _Round, events: list[Event]) -> None:
        """Fold the log's consents and stops not folded yet (the log only grows)."""
        for e in events[kept.folded :]:
            if e.type not in (POSITIONS_CONSENTED, POSITIONS_STOPPED):
                continue
            key = (str(e.payload.get("group")), str(e.by.get("device") or "?"))
            if e.type == POSITIONS_CONSENTED:
                kept.consents[key] = e.id
            else:
                kept.consents.pop(key, None)
        kept.folded = len(events)

    def _take_rate(self, device: str, n: int) -> None:
        """Count ``n`` fixes against the device's bound, or refuse them all
        (``too_many_fixes``)."""
        with self._rate_lock:
            now = self.monotonic()
            sent = [(t, k) for t, k in self._sent.get(device, []) if now - t < self.rate_window_s]
            if sum(k for _, k in sent) + n > self.rate_fixes:
                self._sent[device] = sent
                raise CommandError(
                    f"this phone sent more than {self.rate_fixes} fixes in "
                    f"{self.rate_window_s:g} s; the rest are refused: send one every 15 s",
                    field="fixes",
                    code="too_many_fixes",
                )
            sent.append((now, n))
            self._sent[device] = sent


def _in_play(order: tuple[int, ...], done: Mapping[int, Any]) -> int:
    """Return the index in ``order`` of the hole after those ``done`` (in order)."""
    k = 0
    while k < len(order) and order[k] in done:
        k += 1
    return k


def shown_place(
    p: placesmod.Place, now: datetime, ahead: str | None = None, behind: int | None = None
) -> dict[str, Any]:
    """Return a place as the committee's and the referees' pages are told it: the hole, the
    phase, the metres left to its green (rounded to 10), the share of the hole's line walked,
    the fix's instant and age, whether it is stale, and the metres behind the group ahead
    (with its name) when known. No coordinate: the map draws the point on the hole's own line
    by its share."""
    return {
        "hole": p.hole,
        "phase": p.phase,
        "to_green_m": p.to_green,
        "fraction": round(p.fraction, 3),
        "at": p.at.isoformat(),
        "age_s": int(p.age(now).total_seconds()),
        "stale": p.is_stale(now),
        "ahead": ahead,
        "behind_m": behind,
    }


def finished(life: lifemod.Life) -> bool:
    """Return whether a round's life no longer takes positions (finished or final)."""
    return life.finished is not None or life.is_final

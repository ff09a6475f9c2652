"""Every server-to-client event goes out through here, so names and shapes live in one place.

Rooms: ``round:<round>`` (every page of a round), ``hole:<round>:<hole>`` (the marshals
covering that hole) and ``board:<round>`` (the facts-only boards: their own feed only); the
scorer pages' ``scores:<round>`` hears ``report_asked`` from here (a round with no marshal
asks a group's scorer about a missed report, issue 46).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pace.rules.events import Event
from pace.services.board import BoardFeed
from pace.services.commands import Outcome
from pace.services.state import ACKNOWLEDGED, ALERT, PENALTIES, RESOLVED, ROW, TIMING, Delta
from pace.store.errors import StorageError
from pace.web.scoring.announce import scores_room

log = logging.getLogger(__name__)

#: The event a stored fact is announced as, by its type (an acknowledgement is a delta).
ANNOUNCED_AS = {
    "hole_completed": "hole_logged",
    "hole_time_corrected": "hole_time_corrected",
    "event_voided": "event_voided",
    "siren": "siren_recorded",
}


#: how long a command's feed steps aside after each stage's fan-out before it works out the
#: next one (seconds): a reader of the sockets on this machine (a reverse proxy, the bench's
#: clients) reads the whole fan-out while this process's CPU is free; other greenlets (a tap
#: coming in) run meanwhile (docs/performance.md, "Fourth pass")
STAGE_PAUSE = 0.001


def give_cpu() -> None:
    """Let the other runnable processes of this CPU run for a moment (``sched_yield``; a
    no-op where the system has none, as on Windows)."""
    yield_cpu = getattr(os, "sched_yield", None)
    if yield_cpu is not None:
        yield_cpu()


def board_room(round: str) -> str:
    """Return the room of the facts-only boards of ``round`` (viewers): no statuses there."""
    return f"board:{round}"


def marshal_room(round: str) -> str:
    """Return the room of the marshals following ``round``: only what the marshal page uses
    reaches it (:data:`TO_MARSHALS`)."""
    return f"marshals:{round}"


def round_room(round: str) -> str:
    """Return the room of the referees' and the committee's pages following ``round``: the
    whole feed."""
    return f"round:{round}"


def facts_room(round: str) -> str:
    """Return the room of the clients that asked for the round's stored facts as they are
    committed (``join_round`` with ``facts``: tools and integrations; no page renders them)."""
    return f"facts:{round}"


#: the deltas the marshals' room hears besides the referees' (the marshal page shows the
#: groups due at its holes and drops a check once its alert is acknowledged or resolved):
#: neither the stored facts, nor the raised alerts, the penalties or the timing reach a
#: marshal's phone, often on a weak signal (docs/protocol.md, ``join_round``)
TO_MARSHALS = frozenset({ROW, ACKNOWLEDGED, RESOLVED})
#: the alerts whose resolution the marshal page uses (it drops the check or the missed tap's
#: card it shows for them); the others' resolutions stay in the referees' room
MARSHAL_ALERTS = frozenset({"overdue", "missing_tap"})


def marshal_key(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """Return what of a group row the marshal page shows (the groups due at its holes: their
    players, status, holes logged and due instants): a row that changes nothing of it does
    not go to the marshals' room (issue 37: a tap's rows reach dozens of phones)."""
    holes = row.get("holes") or {}
    return (
        row.get("status"),
        tuple(row.get("players") or ()),
        tuple(row.get("order") or ()),
        tuple(sorted((str(h), (v or {}).get("id"), (v or {}).get("source"))
                     for h, v in holes.items())),  # fmt: skip
        tuple(row.get("due") or ()),
    )


def marshal_holes(key: tuple[Any, ...]) -> frozenset[int]:
    """Return the holes at which the marshal page shows the group of the row whose
    :func:`marshal_key` is ``key``: those of its order no official logged yet (a hole only
    the group reported stays due: issue 39), none once it withdrew."""
    status, _, order, holes, _ = key
    if status == "withdrawn":
        return frozenset()
    logged = {h for h, _, source in holes if source != "group"}
    return frozenset(h for h in order if str(h) not in logged)


def hole_room(round: str, hole: int) -> str:
    """Return the room of the marshals covering ``hole`` of ``round``."""
    return f"hole:{round}:{hole}"


def event_view(e: Event) -> dict[str, Any]:
    """Return a stored event as clients see it."""
    return {
        "id": e.id,
        "type": e.type,
        "round": e.round,
        "at": e.at.isoformat(),
        "recorded_at": e.recorded_at.isoformat() if e.recorded_at else None,
        "seq": e.seq,
        "by": dict(e.by),
        "payload": dict(e.payload),
    }


class Broadcaster:
    """Emits the live events on a Flask-SocketIO server (or a message-queue emitter).

    A command's stored event goes out as it is (``hole_logged``, ``siren_recorded``...); what
    it changed for the pages goes out as deltas, each carrying the round's ``rev`` (see
    docs/protocol.md, "Deltas"), in the order the service numbered them; what they changed of
    the facts-only board goes to the board's room as one ``board_changed``, numbered in the
    board's own feed (``board_feed``; docs/protocol.md, "The board's feed").
    """

    def __init__(self, socketio: Any, board_feed: BoardFeed | None = None):
        self.socketio = socketio
        self.board_feed = board_feed
        #: what of each group's row the marshals' room was last sent (:func:`marshal_key`), by
        #: round; ``None``: every row goes to the marshals (several workers, whose sends one
        #: worker cannot follow)
        self.marshal_rows: dict[str, dict[str, tuple[Any, ...]]] | None = {}
        #: the holes' rooms whose marshals were asked about an alert (``check_requested``,
        #: ``tap_missing``), by round and alert key: its end goes there
        self.asked: dict[str, dict[str, list[str]]] = {}
        # deltas leave in the order they are numbered: working them out and sending them is
        # one step (two greenlets could otherwise send 7 before 6, and every page re-read)
        self._feed = threading.RLock()
        #: the sends to the marshals' rooms held while a feed runs (:meth:`feed_stages`): each
        #: (event, data, rooms), sent in their order once its last stage went to the referees
        self._held: list[tuple[str, Any, list[str]]] | None = None

    def feed(self, round: str, changes: Callable[[], Iterable[Delta]]) -> None:
        """Work out the round's deltas (``changes()``) and send them, in their numbers' order:
        no other command's or tick's deltas are numbered or sent in between; then the board's
        delta they make, if any."""
        self.feed_stages(round, lambda: (changes(),))

    def feed_stages(self, round: str, stages: Callable[[], Iterable[Iterable[Delta]]]) -> None:
        """:meth:`feed`, sending each stage of the deltas (``stages()``) as soon as it is
        worked out: a command's rows leave before its alerts are stored and sent.

        The referees' room hears each stage as soon as it is worked out; what the marshals'
        rooms hear of them (rows, the ends of checks, ``check_requested``, ``tap_missing``)
        is held and sent once the last stage went to the referees, in its order, so a
        referee's dashboard never waits for sixty phones' writers before an alert (issue 50).
        Each page still hears its deltas in their numbers' order: a marshal's page hears only
        the marshals' rooms, and they hear every held send in order.
        """
        with self._feed:
            outer = self._held is None
            if outer:
                self._held = []
            try:
                if self.board_feed is None:
                    for stage in stages():
                        self.send(round, stage)
                    return
                board = self.board_feed.stream(round, stages, lambda stage: self.send(round, stage))
            finally:
                if outer:
                    self._flush()
            if board is not None:
                self.board(round, board)

    def _flush(self) -> None:
        """Send the marshals' rooms what was held for them (:meth:`feed_stages`), in order."""
        held, self._held = self._held or [], None
        for event, data, rooms in held:
            self.socketio.emit(event, data, to=rooms)

    def _to_both(self, event: str, data: Any, round: str, d: Delta) -> None:
        """Send delta ``d`` as ``event`` to the referees' room now, and to the marshals' rooms
        that show it (:meth:`_to_marshals`) once the feed is sent."""
        self.socketio.emit(event, data, to=round_room(round))
        self._to_marshal_rooms(event, data, self._to_marshals(round, d))

    def _to_marshal_rooms(self, event: str, data: Any, rooms: list[str]) -> None:
        """Send ``data`` to marshals' rooms, or hold it while a feed's stages are sent."""
        if not rooms:
            return
        if self._held is not None:
            self._held.append((event, data, rooms))
        else:
            self.socketio.emit(event, data, to=rooms)

    def send(self, round: str, stage: Iterable[Delta]) -> None:
        """Send a stage of the round's deltas, and yield so that every page gets it before
        the next stage is worked out (the writers run now, not once the command is done).

        Then the process gives the CPU away for a moment (``sched_yield``): a reader of those
        sockets on the same machine (a reverse proxy in front of pace, the bench's clients)
        was woken on this CPU by the first write, and the kernel delivers the following
        loopback writes only as it schedules. Without it the reader waits for the next stage's
        judgement (measured: the twentieth dashboard 4 ms after the first, docs/performance.md,
        "Third pass"); with nothing else to run the call returns at once. The yield alone lets
        that reader run only while it waits for this CPU; the process then steps aside for
        :data:`STAGE_PAUSE`, sleeping, before the next stage is worked out, so the reader
        does not share the CPU with that work (the fan-out's p99 fell by about 1.5 ms at 52
        groups: "Fourth pass")."""
        self.deltas(round, stage)
        self.socketio.sleep(0)
        give_cpu()
        self.socketio.sleep(STAGE_PAUSE)

    def outcome(self, outcome: Outcome, stages: Callable[[str], Iterable[Sequence[Delta]]]) -> None:
        """Announce a command's new event, then what it changed (a resend: nothing).

        The event is queued first, then the changes are worked out and sent stage by stage
        (``stages(round)``, as ``Derived.stages``: the rows are sent before the alerts are
        stored). Nothing yields in between: no page renders the event, so each page's writer
        sends it with the first stage's rows instead of the rows waiting for every page to
        be sent the event (docs/architecture.md, "The row goes out first").
        """
        if not outcome.created:
            return
        e = outcome.event
        name = ANNOUNCED_AS.get(e.type)
        if name is not None:
            self.socketio.emit(name, event_view(e), to=facts_room(e.round))
        try:
            self.feed_stages(e.round, lambda: stages(e.round))
        except StorageError as error:
            # the command's event is stored: its ack must say so (a phone told
            # storage_unavailable would believe nothing was kept). What it implies (alerts,
            # resolutions) is implied by the stored log, its ids derived from their keys: the
            # next tick stores and announces it once the store takes writes again.
            log.warning("%s stored; what it implies waits for the next tick: %s", e.type, error)

    def deltas(self, round: str, deltas: Iterable[Delta]) -> None:
        """Send each delta to the round's room, as its event (docs/protocol.md, "Deltas"), and
        those the marshal page uses (:data:`TO_MARSHALS`) to the marshals who show it.

        An ``overdue`` alert also asks the marshals near its hole to check the group, and a
        ``stop_timing`` alert prompts the referees (``stop_timing_prompted``).
        """
        room = round_room(round)
        for d in deltas:
            if d.kind == ROW:
                self._to_both("group_updated", {"round": round, "rev": d.rev, "group": d.data},
                              round, d)  # fmt: skip
            elif d.kind == ACKNOWLEDGED:
                self._to_both("alert_acknowledged", {**event_view(d.data["event"]),
                                                     "rev": d.rev}, round, d)  # fmt: skip
            elif d.kind == RESOLVED:
                self._to_both("alert_resolved", {**event_view(d.data["event"]), "rev": d.rev},
                              round, d)  # fmt: skip
            elif d.kind == ALERT:
                self._alert(round, d.rev, dict(d.data))
            elif d.kind == PENALTIES:
                self.socketio.emit("penalties_changed", {"round": round, "rev": d.rev,
                                                         **d.data}, to=room)  # fmt: skip
            elif d.kind == TIMING:
                self.socketio.emit("timing_changed", {"round": round, "rev": d.rev, **d.data},
                                   to=room)  # fmt: skip
            else:
                self.socketio.emit("round_changed", {"round": round, "rev": d.rev,
                                                     "parts": dict(d.data)}, to=room)  # fmt: skip

    def _to_marshals(self, round: str, d: Delta) -> list[str]:
        """Return the marshals' rooms ``d`` goes to besides the round's (docs/protocol.md,
        ``join_round``).

        A row goes to the marshals of the holes at which their page shows the group, before or
        after it (:func:`marshal_holes`), and only when something the page shows of it changed
        (:func:`marshal_key`); the end of an ``overdue`` or ``missing_tap`` alert (acknowledged
        or resolved) goes to the holes whose marshals were asked about it, and no other's.
        With several workers (``marshal_rows`` is ``None``), whose sends one worker cannot
        follow, both go to every marshal.
        """
        if d.kind not in TO_MARSHALS:
            return []
        key = None if d.kind == ROW else str(d.data["event"].payload.get("alert"))
        # an alert's key starts with its kind (``overdue:4:7``)
        if key is not None and key.split(":", 1)[0] not in MARSHAL_ALERTS:
            return []
        if self.marshal_rows is None:
            return [marshal_room(round)]
        if key is not None:
            asked = self.asked.get(round, {})
            rooms = asked.pop(key, None) if d.kind == RESOLVED else asked.get(key)
            # asked before this process started: the page took the check from its snapshot
            return [marshal_room(round)] if rooms is None else rooms
        told = self.marshal_rows.setdefault(round, {})
        group = str(d.data.get("group"))
        key = marshal_key(d.data)
        before = told.get(group)
        if before == key:
            return []  # nothing the marshal page shows changed
        told[group] = key
        if before is None:
            return [marshal_room(round)]  # the first row this process sends of the group
        holes = marshal_holes(before) | marshal_holes(key)
        return [hole_room(round, h) for h in sorted(holes)]

    def _alert(self, round: str, rev: int, a: dict[str, Any]) -> None:
        room = round_room(round)
        self.socketio.emit("alert_raised", {"round": round, "rev": rev, "alert": a}, to=room)
        if a["kind"] == "overdue" and a.get("hole"):
            hole = int(a["hole"])
            rooms = [hole_room(round, h) for h in a.get("check_holes") or [hole]]
            self.asked.setdefault(round, {})[a["key"]] = rooms
            self._to_marshal_rooms(
                "check_requested",
                {"round": round, "group": a["group"], "hole": hole, "alert": a["key"]},
                rooms,
            )
        elif a["kind"] == "missing_tap" and a.get("hole") and a.get("check_holes"):
            rooms = [hole_room(round, int(h)) for h in a["check_holes"]]
            self.asked.setdefault(round, {})[a["key"]] = rooms
            # the marshal of that hole is asked to confirm or correct the estimate: the real
            # tap, late, with its instant (docs/estimates.md)
            self._to_marshal_rooms(
                "tap_missing",
                {
                    "round": round,
                    "group": a["group"],
                    "hole": int(a["hole"]),
                    "at": a["at"],
                    "earliest": a.get("earliest"),
                    "latest": a.get("latest"),
                    "reason": a.get("reason"),
                    "alert": a["key"],
                },  # fmt: skip
                rooms,
            )
        elif a["kind"] == "missing_tap" and a.get("hole"):
            # no marshal in a round timed by the groups' reports (issue 46): nobody's hole
            # room is asked; the group's scorer page is (it reads its own pace again, which
            # carries the prompt)
            self.asked.setdefault(round, {})[a["key"]] = []
            self.socketio.emit(
                "report_asked",
                {"round": round, "group": a["group"], "hole": int(a["hole"]), "alert": a["key"]},
                to=scores_room(round),
            )
        elif a["kind"] == "stop_timing":
            self.socketio.emit(
                "stop_timing_prompted",
                {
                    "round": round,
                    "group": a["group"],
                    "at": a["at"],
                    "alert": a["key"],
                    "reason": a.get("reason"),
                },  # fmt: skip
                to=room,
            )

    def board(self, round: str, d: Delta) -> None:
        """Send the board's delta ``d`` to the facts-only boards of ``round`` (nothing else
        ever goes to their room)."""
        self.socketio.emit("board_changed", {"round": round, "rev": d.rev, **d.data},
                           to=board_room(round))  # fmt: skip

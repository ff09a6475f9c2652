"""Alerts for the referees, derived from the evaluation (docs/rules.md §3; docs/architecture.md).

An alert has a stable ``key``: the same situation always gives the same key, so raising
is idempotent and a restart re-derives exactly the alerts already raised. An episode's
alerts are keyed by the hole where the episode began, not by an instant, so correcting a
tap's time never raises the same edge twice (issue 14). Each alert also says whether its
situation still holds (``current``): an open alert that no longer holds is resolved (an
event; the service's job), one that holds stays until a referee acknowledges it.

An alert lives in the log as events (raised, acknowledged, resolved); :class:`AlertBook` folds
them into the round's open and resolved alerts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pace.rules.events import Event
from pace.rules.model import Status
from pace.rules.position import Episode, FieldStatus, GroupStatus

OUT_OF_POSITION = "out_of_position"
OVERDUE = "overdue"
BACK_IN_POSITION = "back_in_position"
#: an ``out_of_position`` alert's reason when the group's phone showed it still on its hole
#: in play past the instant it was overdue there (issue 48): raised before it leaves
SEEN_ON_HOLE = "seen_on_hole"

#: the events an alert's life is made of
ALERT_RAISED = "alert_raised"
ALERT_ACKNOWLEDGED = "alert_acknowledged"
ALERT_RESOLVED = "alert_resolved"


@dataclass(frozen=True)
class Alert:
    """Something a referee must see: a group out of position, overdue, or back in position.

    ``hole`` is the hole concerned (for ``overdue``, the hole in play that a marshal
    should check); ``at`` is the instant of the situation.
    """

    key: str
    kind: str
    group: str
    hole: int | None
    at: datetime
    over: timedelta | None = None
    gap: timedelta | None = None
    check_holes: tuple[int, ...] = ()
    #: the situation still holds at the evaluation's instant (else an open alert is resolved)
    current: bool = True
    #: why a prompt is raised (``stop_timing``: ``back_in_position`` or ``in_position``;
    #: ``missing_tap``: how the missed tap was found, docs/estimates.md)
    reason: str | None = None
    #: an estimate's bounds (``missing_tap``): earliest, latest (None: up to now)
    bounds: tuple[datetime, datetime | None] | None = None


def episode_keys(episodes: Iterable[Episode]) -> list[str]:
    """Return each episode's stable name: its group and the hole where it began.

    A second episode of a group that began at the same hole (after a time credit, say)
    gets ``#2``. Correcting a tap's time moves the episode's instants, never its name.

    >>> from datetime import UTC
    >>> t = datetime(2026, 6, 14, 9, 0, tzinfo=UTC)
    >>> episode_keys([Episode("6", t, 3), Episode("6", t, 3), Episode("7", t, None)])
    ['6:h3', '6:h3#2', '7:h-']
    """
    seen: dict[str, int] = {}
    out: list[str] = []
    for e in episodes:
        base = f"{e.group}:h{e.start_hole if e.start_hole is not None else '-'}"
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return out


def arrange(alerts: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Return alerts newest first, those of one group together (issue 14).

    Groups come in the order of their newest alert; within a group, newest first. ``at`` is
    an ISO 8601 instant (the alerts as the pages get them).

    >>> a = [{"group": "1", "at": "2026-06-14T08:14:00+00:00"},
    ...      {"group": "2", "at": "2026-06-14T09:13:00+00:00"},
    ...      {"group": "1", "at": "2026-06-14T09:04:00+00:00"}]
    >>> [(x["group"], x["at"][11:16]) for x in arrange(a)]
    [('2', '09:13'), ('1', '09:04'), ('1', '08:14')]
    """
    items = list(alerts)

    def instant(a: Mapping[str, Any]) -> datetime:
        return datetime.fromisoformat(str(a["at"]))

    newest: dict[str, datetime] = {}
    for a in items:
        g = str(a["group"])
        newest[g] = max(newest.get(g, instant(a)), instant(a))
    return sorted(items, key=lambda a: (newest[str(a["group"])], instant(a)), reverse=True)


def nearby_holes(hole: int, hole_numbers: Sequence[int], radius: int = 1) -> tuple[int, ...]:
    """Return ``hole`` and the holes within ``radius`` of it around the course.

    The marshals there are asked to look for an overdue group; the course is a loop, so
    hole 1's neighbours include the last hole.

    >>> nearby_holes(1, range(1, 19)), nearby_holes(10, range(1, 19))
    ((18, 1, 2), (9, 10, 11))
    """
    numbers = list(hole_numbers)
    if hole not in numbers:
        return (hole,)
    i, n = numbers.index(hole), len(numbers)
    picked = [numbers[(i + d) % n] for d in range(-radius, radius + 1)]
    return tuple(dict.fromkeys(picked))


def due_alerts(
    field: FieldStatus, episodes: Iterable[Episode], hole_numbers: Sequence[int] = ()
) -> tuple[Alert, ...]:
    """Return every alert the round's state calls for at ``field.at``, current or not.

    One ``out_of_position`` alert per episode (current while the episode is open), one
    ``back_in_position`` per episode that ended that way (current while no later episode
    of the group began), and one ``overdue`` per group and hole while the projection finds
    the group overdue on that hole (with the holes whose marshals should look for it, given
    the course's ``hole_numbers``). An episode that began and ended between two ticks is
    still raised, and resolved at once.
    """
    by_group = {s.group: s for s in field.groups}
    listed = list(episodes)
    by_episodes: dict[str, list[Episode]] = {}
    for e in listed:  # episodes come by group, then time
        by_episodes.setdefault(e.group, []).append(e)
    out = [a for g, es in by_episodes.items() for a in episode_alerts(es, by_group.get(g))]
    for s in field.groups:
        out.extend(overdue_alerts(s, field.at, hole_numbers))
    return tuple(out)


def episode_alerts(episodes: Sequence[Episode], s: GroupStatus | None) -> tuple[Alert, ...]:
    """Return the alerts of one group's episodes (in time order), current or not.

    One ``out_of_position`` per episode (current while it is open, showing the time over and
    gap of ``s``, the group's status now), and one ``back_in_position`` per episode that ended
    that way (current while no later episode of the group began).
    """
    names = episode_keys(episodes)
    out: list[Alert] = []
    for i, (e, name) in enumerate(zip(episodes, names, strict=True)):
        running = s is not None and e.end is None
        out.append(
            Alert(
                f"{OUT_OF_POSITION}:{name}",
                OUT_OF_POSITION,
                e.group,
                e.start_hole,
                e.start,
                s.over if running and s is not None else None,
                s.gap if running and s is not None else None,
                current=e.end is None,
            )
        )
        if e.end is not None and e.ended_by == BACK_IN_POSITION:
            out.append(
                Alert(
                    f"{BACK_IN_POSITION}:{name}",
                    BACK_IN_POSITION,
                    e.group,
                    e.end_hole,
                    e.end,
                    current=i == len(episodes) - 1,
                )
            )
    return tuple(out)


def overdue_alerts(
    s: GroupStatus, at: datetime, hole_numbers: Sequence[int] = ()
) -> tuple[Alert, ...]:
    """Return the ``overdue`` alert of a group the projection finds overdue at ``at``, if any."""
    if s.status is not Status.OVERDUE or s.hole is None:
        return ()
    return (
        Alert(
            f"{OVERDUE}:{s.group}:{s.hole}",
            OVERDUE,
            s.group,
            s.hole,
            at,
            s.over,
            check_holes=nearby_holes(s.hole, hole_numbers or (s.hole,)),
        ),
    )


def view(e: Event) -> dict[str, Any]:
    """Return a raised alert (its ``alert_raised`` event) as the pages get it."""
    return {**e.payload, "at": e.at.isoformat(), "id": e.id}


def generation(e: Event) -> int:
    """Return which raise of its key an alert's event belongs to: 1 for the first raise, n for
    the (n-1)th re-opening (``generation`` in the payload, absent on the first)."""
    value = e.payload.get("generation", 1)
    return value if isinstance(value, int) and value > 0 else 1


class AlertBook:
    """The alerts of a round's log, folded one event at a time: raised (by key, in log order),
    acknowledged, resolved; and the acknowledgements and resolutions in log order (the feed
    announces the new ones).

    A key resolved and raised again (a re-opening: the corrected history calls for it again,
    docs/protocol.md) is open again, its latest raise's view standing for it; a resolution
    applies to the raise it names (``generation``), so a late one of an earlier raise ends
    nothing.

    >>> from datetime import UTC
    >>> t = datetime(2026, 6, 14, 9, 0, tzinfo=UTC)
    >>> book = AlertBook()
    >>> for n, key in enumerate(["overdue:1:4", "overdue:2:6", "overdue:3:8"]):
    ...     book.apply(Event(f"r{n}", ALERT_RAISED, "R", t, {"key": key, "group": str(n + 1)}))
    >>> book.apply(Event("a", ALERT_ACKNOWLEDGED, "R", t, {"alert": "overdue:1:4"}))
    >>> book.apply(Event("s", ALERT_RESOLVED, "R", t, {"alert": "overdue:2:6"}))
    >>> [a["key"] for a in book.open()], [a["key"] for a in book.closed(10)]
    (['overdue:3:8'], ['overdue:2:6'])
    >>> book.apply(Event("s2", ALERT_RAISED, "R", t, {"key": "overdue:2:6", "generation": 2}))
    >>> [a["key"] for a in book.open()], book.generation["overdue:2:6"]
    (['overdue:3:8', 'overdue:2:6'], 2)
    """

    def __init__(self) -> None:
        self.raised: dict[str, dict[str, Any]] = {}
        self.acked: set[str] = set()
        self.resolved: dict[str, datetime] = {}
        #: how many times each key was raised (2: re-opened once)
        self.generation: dict[str, int] = {}
        self.acknowledgements: list[Event] = []
        self.resolutions: list[Event] = []

    def apply(self, e: Event) -> None:
        """Fold one event (an alert's raise, acknowledgement or resolution; others: nothing)."""
        if e.type == ALERT_RAISED:
            key, n = str(e.payload["key"]), generation(e)
            if n < self.generation.get(key, 0):
                return  # an earlier raise stored after a later one: the later one stands
            self.generation[key] = n
            self.resolved.pop(key, None)  # a re-opening: open again, last in log order
            self.raised.pop(key, None)
            self.raised[key] = view(e)
        elif e.type == ALERT_ACKNOWLEDGED:
            self.acked.add(str(e.payload["alert"]))
            self.acknowledgements.append(e)
        elif e.type == ALERT_RESOLVED:
            key = str(e.payload["alert"])
            if key in self.resolved or generation(e) != self.generation.get(key, 1):
                return  # a resolution of an earlier raise (or twice): it ends nothing now
            self.resolved[key] = e.at
            self.resolutions.append(e)

    def open(self) -> list[dict[str, Any]]:
        """Return the alerts raised and neither acknowledged nor resolved, in log order."""
        return [a for k, a in self.raised.items() if k not in self.acked and k not in self.resolved]

    def closed(self, shown: int) -> list[dict[str, Any]]:
        """Return the ``shown`` latest alerts resolved and not acknowledged, newest first, with
        ``resolved_at``."""
        closed = [
            {**a, "resolved_at": self.resolved[k].isoformat()}
            for k, a in self.raised.items()
            if k in self.resolved and k not in self.acked
        ]
        closed.sort(key=lambda a: a["resolved_at"], reverse=True)
        return closed[:shown]

"""Timing spells: when a group is being timed, and which spell a stroke belongs to.

A spell runs from a referee's decision to time the group until the earliest of a referee's
stop and the instant the evaluation puts the group back in position: the logged completion
or the time credit that does it (docs/rules.md §4.1, §4.6). A stroke belongs to the spell that
holds its own start instant, whenever it reaches the server (§4.7). Everything is a pure
function of the referees' acts and the group's evaluations; nothing reads a clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

#: How a spell ended: a referee pressed stop, or the group got back in position.
STOPPED = "stopped"
BACK_IN_POSITION = "back_in_position"

#: Where a stroke's start lies: inside a spell (it is judged), after a spell that ended by
#: the group being back in position (not counted), or outside every spell (not timed).
TIMED = "timed"
GROUP_IN_POSITION = "group_in_position"
NOT_TIMED = "not_timed"

#: The referees' acts that open and close spells.
START = "start"
STOP = "stop"


@dataclass(frozen=True)
class SpellAct:
    """A decision to time a group (``START``) or a referee's stop (``STOP``), at ``at``."""

    group: str
    kind: str
    at: datetime


@dataclass(frozen=True)
class Tell:
    """A referee told ``player`` at ``at`` that his group is being timed (docs/rules.md §4.2)."""

    group: str
    player: str
    at: datetime


@dataclass(frozen=True)
class Spell:
    """One spell of timing of a group.

    ``end`` is None while it runs; ``ended_by`` says how it ended (``STOPPED`` or
    ``BACK_IN_POSITION``, then ``end_hole`` is the hole whose completion did it; for a
    credit, the group's last hole completed then, None before its first). ``stopped`` is the
    referee's stop of this spell, also when it came after the spell had ended by itself (the
    referee confirming the players were told: no stroke is timed from it on).
    """

    group: str
    start: datetime
    end: datetime | None = None
    ended_by: str | None = None
    end_hole: int | None = None
    stopped: datetime | None = None
    told: frozenset[str] = field(default_factory=frozenset)

    def holds(self, instant: datetime) -> bool:
        """Return whether ``instant`` lies inside the spell: from its start, before its end.

        >>> from datetime import UTC, timedelta
        >>> t = datetime(2025, 6, 14, 10, 0, tzinfo=UTC)
        >>> s = Spell("7", t, t + timedelta(minutes=9))
        >>> s.holds(t), s.holds(t + timedelta(minutes=9)), s.holds(t - timedelta(seconds=1))
        (True, False, False)
        """
        return self.start <= instant and (self.end is None or instant < self.end)


def group_spells(
    group: str,
    acts: Iterable[SpellAct],
    back: Sequence[tuple[datetime, int | None]],
    tells: Iterable[Tell] = (),
    now: datetime | None = None,
) -> tuple[Spell, ...]:
    """Return a group's spells in time order (docs/rules.md §4.1, §4.6).

    ``acts`` are the group's decisions to time and stops, in log order; ``back`` the instants
    (and holes) at which an evaluation finds the group in position, in time order. A decision
    while a spell runs, and a stop while none runs, change nothing (a stop after the spell
    ended by itself is recorded as its ``stopped``). Only acts up to ``now`` count.

    >>> from datetime import UTC
    >>> t = lambda m: datetime(2025, 6, 14, 10, m, tzinfo=UTC)
    >>> acts = [SpellAct("7", START, t(0)), SpellAct("7", STOP, t(30))]
    >>> [(s.end.minute, s.ended_by, s.end_hole) for s in group_spells("7", acts, [(t(12), 6)])]
    [(12, 'back_in_position', 6)]
    """
    ordered = sorted(
        (a for a in acts if a.group == group and (now is None or a.at <= now)),
        key=lambda a: a.at,
    )
    spells: list[Spell] = []
    current: Spell | None = None

    def ended_by_itself(spell: Spell, until: datetime | None) -> Spell:
        for instant, hole in back:
            if instant <= spell.start:
                continue
            if until is not None and instant > until:
                break
            return replace(spell, end=instant, ended_by=BACK_IN_POSITION, end_hole=hole)
        return spell

    for act in ordered:
        if current is not None and current.end is None:
            current = ended_by_itself(current, act.at)
        running = current is not None and current.end is None
        if act.kind == START and not running:
            if current is not None:
                spells.append(current)
            current = Spell(group, act.at)
        elif act.kind == STOP and current is not None:
            if running:
                current = replace(current, end=act.at, ended_by=STOPPED, stopped=act.at)
            elif current.ended_by == BACK_IN_POSITION and current.stopped is None:
                current = replace(current, stopped=act.at)
    if current is not None:
        if current.end is None:
            current = ended_by_itself(current, now)
        spells.append(current)
    told = [t for t in tells if t.group == group and (now is None or t.at <= now)]
    return tuple(
        replace(s, told=frozenset(t.player for t in told if s.holds(t.at))) for s in spells
    )


def placement(spells: Sequence[Spell], instant: datetime) -> str:
    """Return where a stroke started at ``instant`` lies among its group's spells (§4.6, §4.7).

    ``TIMED`` inside a spell; ``GROUP_IN_POSITION`` after a spell that ended by the group
    being back in position, before any later spell and before a referee's stop confirmed
    that end; ``NOT_TIMED`` otherwise (before the first decision, or after a referee's stop,
    whether it ended the spell or came after it had ended by itself: once a referee has
    stopped and told the players, nobody is timed until a new decision).

    >>> from datetime import UTC
    >>> t = lambda m: datetime(2025, 6, 14, 10, m, tzinfo=UTC)
    >>> spells = [Spell("7", t(10), t(20), BACK_IN_POSITION, stopped=t(30))]
    >>> [placement(spells, t(m)) for m in (5, 15, 25, 35)]
    ['not_timed', 'timed', 'group_in_position', 'not_timed']
    """
    latest: Spell | None = None
    for s in spells:
        if s.start <= instant:
            latest = s
    if latest is None:
        return NOT_TIMED
    if latest.holds(instant):
        return TIMED
    told = latest.stopped is not None and latest.stopped <= instant
    return GROUP_IN_POSITION if latest.ended_by == BACK_IN_POSITION and not told else NOT_TIMED


def running(spells: Sequence[Spell], instant: datetime) -> Spell | None:
    """Return the spell that holds ``instant``, if any."""
    return next((s for s in spells if s.holds(instant)), None)


def all_spells(
    groups: Iterable[str],
    acts: Sequence[SpellAct],
    back: Mapping[str, Sequence[tuple[datetime, int | None]]],
    tells: Sequence[Tell] = (),
    now: datetime | None = None,
) -> dict[str, tuple[Spell, ...]]:
    """Return the spells of every group that has any (see :func:`group_spells`)."""
    out = {}
    with_acts = {a.group for a in acts}
    for g in groups:
        if g in with_acts:
            out[g] = group_spells(g, acts, back.get(g, ()), tells, now)
    return out

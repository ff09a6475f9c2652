"""The referees' acts as a report tells them: who decided, told, timed and notified, and when.

A fold of the round's log like :func:`pace.rules.refereeing.fold`, keeping who recorded each
act (``by``), which the live view does not need. Voided acts are left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from pace.rules import facts as factsmod
from pace.rules import refereeing as rr
from pace.rules import spells
from pace.rules.events import Event


def author(by: Mapping[str, object]) -> str:
    """Return who recorded an act: the person's name, else the role (and device).

    >>> author({"role": "referee", "name": "Anne"}), author({"role": "referee", "device": "t2"})
    ('Anne', 'referee (t2)')
    """
    name = by.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    role = str(by.get("role") or "?")
    device = by.get("device")
    return f"{role} ({device})" if isinstance(device, str) and device else role


@dataclass(frozen=True)
class Act:
    """One referee act on a group: what, when, by whom, and its details."""

    kind: str  # a refereeing event type, or time_credit_granted
    at: datetime
    by: str
    player: str | None = None
    decision: str | None = None
    reason: str | None = None
    note: str = ""
    fault: str | None = None
    minutes: float | None = None


@dataclass(frozen=True)
class Spell:
    """A timing spell of a group: from the decision to time it to its end.

    A spell ends at a referee's stop, or by itself at the instant the group is back in
    position (docs/rules.md §4.6; ``ended_by`` is then ``"back_in_position"`` and ``stopped_by``
    None; a referee's later stop is its ``stop``). ``end`` is ``None`` while it runs at the end
    of the log.
    """

    start: datetime
    by: str
    end: datetime | None = None
    stopped_by: str | None = None
    ended_by: str | None = None
    #: the referee's stop of this spell (who, when, its ``reason`` as stored: a code of
    #: ``refereeing.STOP_REASONS`` or a referee's words), also when it came after the spell
    #: had ended by itself: the referee confirming the players were told
    stop: Act | None = None


@dataclass(frozen=True)
class GroupActs:
    """Everything the referees recorded about one group, in log order."""

    decisions: tuple[Act, ...] = ()
    spells: tuple[Spell, ...] = ()
    told: tuple[Act, ...] = ()
    notified: tuple[Act, ...] = ()
    credits: tuple[Act, ...] = ()
    strokes_by: Mapping[str, str] = field(default_factory=dict)
    stops: tuple[Act, ...] = ()  # the referees' stops, with their reasons

    def told_at(self, player: str) -> tuple[Act, ...]:
        """Return when (and by whom) ``player`` was told his group is being timed."""
        return tuple(a for a in self.told if a.player == player)

    def notification(self, player: str, fault: str) -> Act | None:
        """Return the first notification of ``fault`` to ``player``, or ``None``."""
        return next((a for a in self.notified if a.player == player and a.fault == fault), None)


def group_acts(events: Iterable[Event], now: datetime) -> dict[str, GroupActs]:
    """Return each group's referee acts recorded at or before ``now``, voids applied."""
    events = list(events)
    voided = {str(e.payload.get("target")) for e in events if e.type == factsmod.EVENT_VOIDED}
    acts: dict[str, dict[str, list[Act]]] = defaultdict(lambda: defaultdict(list))
    spells: dict[str, list[Spell]] = defaultdict(list)
    strokes_by: dict[str, dict[str, str]] = defaultdict(dict)
    for e in events:
        if e.id in voided or e.at > now:
            continue
        p = e.payload
        group = p.get("group")
        if not isinstance(group, str):
            continue
        by = author(e.by)
        if e.type == rr.TIMING_DECIDED:
            decision = str(p.get("decision"))
            reason = p.get("reason")
            acts[group]["decisions"].append(
                Act(e.type, e.at, by, decision=decision,
                    reason=None if reason is None else str(reason), note=str(p.get("note") or ""))
            )  # fmt: skip
            running = spells[group] and spells[group][-1].end is None
            if decision == "time" and not running:
                spells[group].append(Spell(e.at, by))
            elif decision != "time" and running:  # not to time: ends the spell, as a stop
                spells[group][-1] = Spell(spells[group][-1].start, spells[group][-1].by, e.at, by)
        elif e.type == rr.TIMING_STOPPED:
            reason = p.get("reason")
            acts[group]["stops"].append(
                Act(e.type, e.at, by, reason=reason if isinstance(reason, str) and reason else None)
            )
            if spells[group] and spells[group][-1].end is None:
                spells[group][-1] = Spell(spells[group][-1].start, spells[group][-1].by, e.at, by)
        elif e.type == rr.PLAYER_TOLD_TIMED:
            acts[group]["told"].append(Act(e.type, e.at, by, player=str(p.get("player"))))
        elif e.type == rr.PLAYER_NOTIFIED:
            acts[group]["notified"].append(
                Act(e.type, e.at, by, player=str(p.get("player")), fault=str(p.get("fault")))
            )
        elif e.type == factsmod.TIME_CREDIT_GRANTED:
            acts[group]["credits"].append(
                Act(e.type, e.at, by, reason=str(p.get("reason") or ""),
                    minutes=float(str(p.get("minutes"))))
            )  # fmt: skip
        elif e.type == rr.STROKE_TIMED:
            strokes_by[group][e.id] = by
    out = {}
    for group in set(acts) | set(spells) | set(strokes_by):
        a = acts.get(group, {})
        out[group] = GroupActs(
            decisions=tuple(a.get("decisions", ())),
            spells=tuple(spells.get(group, ())),
            told=tuple(a.get("told", ())),
            notified=tuple(a.get("notified", ())),
            credits=tuple(a.get("credits", ())),
            strokes_by=dict(strokes_by.get(group, {})),
            stops=tuple(a.get("stops", ())),
        )
    return out


def credited(acts: GroupActs) -> timedelta:
    """Return the time credits granted to the group, added up."""
    return sum((timedelta(minutes=a.minutes or 0) for a in acts.credits), timedelta(0))


def with_judged_spells(acts: GroupActs, judged: Sequence[spells.Spell]) -> GroupActs:
    """Return ``acts`` with the spells the rules judged (their ends, §4.6), and who acted.

    The referees' own fold knows who decided and who stopped; the judgement knows when a
    spell really ended (a stop, or the group back in position before any stop).
    """
    if not judged and not acts.spells:
        return acts
    deciders = {s.start: s for s in acts.spells}
    out = []
    for j in judged:
        mine = deciders.get(j.start)
        stopped = j.ended_by == spells.STOPPED
        stop = next((a for a in acts.stops if a.at == j.stopped), None)
        out.append(
            Spell(
                j.start,
                mine.by if mine else "?",
                j.end,
                mine.stopped_by if mine and stopped else None,
                j.ended_by,
                stop if j.stopped is not None else None,
            )
        )
    return replace(acts, spells=tuple(out))

"""The referees' side of the log: timing spells, timed strokes, faults and penalties.

A fold of the round's events (docs/rules.md §4–§6), pure like the rest of the rules: every
decision, timing, notification and credit is an event with who and when. One function,
:func:`judge_round`, judges a round from its setup, its facts and the referees' acts under
a policy, a form of play and a format: the live service and the offline ``pace penalties``
both call it, so a round judged live and the same acts judged from a paper log agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

from pace.rules import alerts, penalties, spells, timing
from pace.rules.events import Event
from pace.rules.model import RoundFacts, RoundSetup, Status
from pace.rules.policies import CHECKPOINTS, Policy
from pace.rules.position import (
    Evaluation,
    FieldPlan,
    FieldStatus,
    GroupStatus,
    evaluations,
    plan_field,
)

#: a stroke's place in the log, whatever a caller counts it by
K = TypeVar("K")

TIMING_DECIDED = "timing_decided"
PLAYER_TOLD_TIMED = "player_told_timed"
STROKE_TIMED = "stroke_timed"
PLAYER_NOTIFIED = "player_notified"
TIMING_STOPPED = "timing_stopped"

#: The alert that asks a referee to stop timing a group back in position, and to tell the
#: players that timing stopped (docs/rules.md §4.6).
STOP_TIMING = "stop_timing"

#: Mitigating circumstances a referee may give for not timing a group (docs/rules.md §4.1).
MITIGATING_REASONS = ("ruling", "lost_ball", "unplayable_ball", "other")

#: What a referee's stop records when it is not the referee's own words (``stop_timing``'s
#: ``reason``, docs/protocol.md): ``players_told``, the stop that tells the players their
#: timing ended by itself, the group back in position (§4.6; the shot clock's button). Any
#: other reason is a referee's own words, shown as typed.
PLAYERS_TOLD = "players_told"
STOP_REASONS = (PLAYERS_TOLD,)
#: the English the shot clock sent before the code (issue 47): still in older logs, and from
#: a phone whose page was not reloaded since; read as its code
LEGACY_STOP_REASONS = {"back in position: players told": PLAYERS_TOLD}


def stop_reason_code(reason: object) -> str | None:
    """Return the code of a stop's ``reason`` (one of :data:`STOP_REASONS`, the English an
    older shot clock sent included), None for a referee's own words or no reason.

    >>> stop_reason_code("players_told"), stop_reason_code("Back in position: players told ")
    ('players_told', 'players_told')
    >>> stop_reason_code("waited for the group ahead") is None, stop_reason_code(None) is None
    (True, True)
    """
    if not isinstance(reason, str):
        return None
    said = " ".join(reason.split()).casefold()
    return said if said in STOP_REASONS else LEGACY_STOP_REASONS.get(said)


@dataclass(frozen=True)
class Decision:
    """A referee decided to time a group (``time``) or not (``not_time``, with a reason)."""

    id: str
    group: str
    at: datetime
    decision: str
    reason: str | None = None
    note: str = ""
    by: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class RefereeState:
    """Everything the referees recorded, folded, voids applied, each list in log order."""

    decisions: tuple[Decision, ...] = ()
    spell_acts: tuple[spells.SpellAct, ...] = ()  # decisions to time and stops
    tells: tuple[spells.Tell, ...] = ()
    strokes: tuple[timing.TimedStroke, ...] = ()
    notifications: tuple[penalties.Notification, ...] = ()

    def decisions_of(self, group: str) -> tuple[Decision, ...]:
        """Return the group's decisions, in log order."""
        return tuple(d for d in self.decisions if d.group == group)


def fold(events: Iterable[Event]) -> RefereeState:
    """Return the referees' state from the round's events, voids applied."""
    events = list(events)
    voided = {str(e.payload["target"]) for e in events if e.type == "event_voided"}
    decisions: list[Decision] = []
    acts: list[spells.SpellAct] = []
    tells: list[spells.Tell] = []
    strokes: list[timing.TimedStroke] = []
    notes: list[penalties.Notification] = []
    for e in events:
        if e.id in voided:
            continue
        p = e.payload
        if e.type == TIMING_DECIDED:
            acts.append(spells.SpellAct(str(p["group"]), spell_kind(p.get("decision")), e.at))
            decisions.append(decision_of(e))
        elif e.type == TIMING_STOPPED:
            acts.append(spells.SpellAct(str(p["group"]), spells.STOP, e.at))
        elif e.type == PLAYER_TOLD_TIMED:
            tells.append(spells.Tell(str(p["group"]), str(p["player"]), e.at))
        elif e.type == STROKE_TIMED:
            strokes.append(stroke_of(e))
        elif e.type == PLAYER_NOTIFIED:
            notes.append(
                penalties.Notification(str(p["group"]), str(p["player"]), str(p["fault"]), e.at)
            )
    return RefereeState(tuple(decisions), tuple(acts), tuple(tells), tuple(strokes), tuple(notes))


def spell_kind(decision: object) -> str:
    """Return what a timing decision does to the group's spells (docs/penalties.md).

    A decision to time opens a spell (``START``); a decision not to time ends the one that
    runs, like a referee's stop (``STOP``): the latest decision stands.
    """
    return spells.START if decision == "time" else spells.STOP


def decision_of(e: Event) -> Decision:
    """Return the decision a ``timing_decided`` event records."""
    p = e.payload
    return Decision(
        e.id,
        str(p["group"]),
        e.at,
        str(p.get("decision")),
        None if p.get("reason") is None else str(p.get("reason")),
        str(p.get("note") or ""),
        dict(e.by),
    )


def stroke_of(e: Event) -> timing.TimedStroke:
    """Return the stroke a ``stroke_timed`` event records (its corrected instants)."""
    p = e.payload
    hole = p.get("hole")
    return timing.TimedStroke(
        id=e.id,
        group=str(p["group"]),
        player=str(p["player"]),
        hole=None if hole is None else int(str(hole)),
        started=datetime.fromisoformat(str(p["started"])),
        stopped=datetime.fromisoformat(str(p["stopped"])),
        kind=timing.StrokeKind(str(p.get("kind", "other"))),
        first_to_play=bool(p.get("first_to_play", False)),
        between_holes=bool(p.get("between_holes", False)),
    )


def back_in_position(
    evaluated: Mapping[str, Sequence[Evaluation]],
) -> dict[str, tuple[tuple[datetime, int | None], ...]]:
    """Return, per group, the instants (and holes) at which an evaluation finds it in position.

    The evaluations are the group's completions and time credits (docs/rules.md §3, §4.6: "the
    logged hole completion or the credit that puts it back"). A credit is judged like a
    completion: the group's confirmed status at the credit's instant, the credit applied.
    Before its first completion a group has none and is never out of position (§3), so a
    credit then finds it in position too: a group timed then ends its spell at the credit
    (issue 26).
    """
    return {
        group: tuple((e.at, e.status.last_hole) for e in evals if not e.out_of_position)
        for group, evals in evaluated.items()
    }


def round_spells(
    setup: RoundSetup,
    state: RefereeState,
    evaluated: Mapping[str, Sequence[Evaluation]],
    now: datetime,
) -> dict[str, tuple[spells.Spell, ...]]:
    """Return every group's timing spells up to ``now`` (docs/rules.md §4.1, §4.6)."""
    return spells.all_spells(
        (g.id for g in setup.groups),
        state.spell_acts,
        back_in_position(evaluated),
        state.tells,
        now,
    )


@dataclass(frozen=True)
class StrokeJudgement:
    """A timed stroke judged: its verdict, where its start lies among the spells, its hole.

    ``placement`` is ``spells.TIMED``, ``spells.GROUP_IN_POSITION`` or ``spells.NOT_TIMED``
    (see :func:`pace.rules.spells.placement`); ``hole`` is the hole a penalty for it would go
    to (docs/rules.md §6).
    """

    verdict: timing.StrokeVerdict
    placement: str
    hole: int

    @property
    def stroke(self) -> timing.TimedStroke:
        """Return the stroke."""
        return self.verdict.stroke


@dataclass(frozen=True)
class Judgement:
    """A round's referees' side judged: spells, strokes, checkpoint breaches and faults.

    ``outcomes`` holds every fault in log order (time, then the order of the log): the bad
    times or the checkpoint breaches, counted or not, with their reasons and penalties.
    """

    policy: Policy
    group_spells: Mapping[str, tuple[spells.Spell, ...]]
    strokes: tuple[StrokeJudgement, ...]
    breaches: Mapping[str, penalties.CheckpointBreach]
    outcomes: tuple[penalties.FaultOutcome, ...]

    def stroke(self, stroke_id: str) -> StrokeJudgement | None:
        """Return the judgement of the stroke ``stroke_id``, if it was timed."""
        return next((s for s in self.strokes if s.stroke.id == stroke_id), None)

    def outcome(self, fault_id: str) -> penalties.FaultOutcome | None:
        """Return the first outcome of fault ``fault_id`` (a stroke id: its only one)."""
        return next((o for o in self.outcomes if o.fault.id == fault_id), None)

    def for_player(self, group: str, player: str) -> tuple[penalties.FaultOutcome, ...]:
        """Return one player's judged faults, in log order."""
        return tuple(
            o for o in self.outcomes if o.fault.group == group and o.fault.player == player
        )

    def spells_of(self, group: str) -> tuple[spells.Spell, ...]:
        """Return the group's spells, in time order."""
        return self.group_spells.get(group, ())


def stroke_hole(
    stroke: timing.TimedStroke, order: Sequence[int], done: Mapping[int, datetime]
) -> int:
    """Return the hole a penalty for ``stroke`` goes to (docs/rules.md §6).

    The hole being played; between holes, the next hole of the group's order after the
    stroke's hole, or, when the hole was not written, after the furthest hole the group
    had completed when the stroke was played (``done``: its completions).
    """
    if stroke.hole is not None:
        return penalties.penalty_hole(stroke.hole, stroke.between_holes, order)
    k = max(
        (i + 1 for i, h in enumerate(order) if h in done and done[h] <= stroke.stopped), default=0
    )
    return order[min(k, len(order) - 1)]


def judge_round(
    setup: RoundSetup,
    facts: RoundFacts,
    state: RefereeState,
    policy: Policy,
    now: datetime,
    *,
    play: str = penalties.STROKE_PLAY,
    format_name: str = "individual",
    plan: FieldPlan | None = None,
    evaluated: Mapping[str, Sequence[Evaluation]] | None = None,
) -> Judgement:
    """Return the round's spells, strokes and faults up to ``now``, judged (docs/rules.md §4–§6).

    A stroke is judged by its own instants: against its allowance (the hole's par decides
    the par-3 tee shot's extra time, §4.3), and by the spell that holds its start (§4.7): a
    bad time inside a spell goes up the ladder; one started after the spell ended by the
    group being back in position is shown and not counted (``group_in_position``, §4.6);
    one outside every spell neither (``not_timed``). Under a checkpoint policy (mauricie) the
    faults are the groups' checkpoint breaches instead. ``plan`` and ``evaluated``
    (:func:`pace.rules.position.evaluations`) may be passed when the caller keeps them.
    """
    plan = plan or plan_field(setup)
    if evaluated is None:
        evaluated = evaluations(setup, facts, now, plan)
    timed = round_spells(setup, state, evaluated, now)
    done: dict[str, dict[int, datetime]] = {}
    for c in facts.completions:
        if c.at <= now:
            done.setdefault(c.group, {})[c.hole] = c.at
    strokes = []
    for s in state.strokes:
        p = plan.by_id.get(s.group)
        if p is None or s.stopped > now:
            continue
        hole = stroke_hole(s, p.order, done.get(s.group, {}))
        played_on = s.hole if s.hole is not None and not s.between_holes else hole
        par = setup.course.hole(played_on).par if setup.course.has_hole(played_on) else None
        verdict = timing.judge(s, policy, par)
        strokes.append(
            StrokeJudgement(verdict, spells.placement(timed.get(s.group, ()), s.started), hole)
        )
    breaches: dict[str, penalties.CheckpointBreach] = {}
    notes = [n for n in state.notifications if n.at <= now]
    if policy.faults_from == CHECKPOINTS:
        found = penalties.checkpoint_breaches(setup, facts, now, policy, plan)
        faults = penalties.checkpoint_faults(found, setup)
        numbers: dict[str, int] = {}
        for b in found:
            numbers[b.group] = numbers.get(b.group, 0) + 1
            breaches[penalties.checkpoint_fault_id(b.group, numbers[b.group])] = b
        outcomes = penalties.escalate(faults, notes, policy, play=play, format_name=format_name)
    else:
        outcomes = _bad_times(strokes, notes, policy, play, format_name)
    return Judgement(policy, timed, tuple(strokes), breaches, outcomes)


def _bad_times(
    strokes: Sequence[StrokeJudgement],
    notes: Sequence[penalties.Notification],
    policy: Policy,
    play: str,
    format_name: str,
) -> tuple[penalties.FaultOutcome, ...]:
    """Return every bad time judged, in log order: inside a spell on the ladder, else aside."""
    merged = placed_bad_times(list(enumerate(strokes)), notes, policy, play, format_name)
    merged.sort(key=lambda x: (x[1].fault.at, x[0]))
    return tuple(o for _, o in merged)


def placed_bad_times(
    strokes: Sequence[tuple[K, StrokeJudgement]],
    notes: Sequence[penalties.Notification],
    policy: Policy,
    play: str,
    format_name: str,
) -> list[tuple[K, penalties.FaultOutcome]]:
    """Return the bad times of ``strokes`` (each with its place ``K`` in the log) judged:
    inside a spell on the ladder, else aside; each with its stroke's place, unsorted."""
    ladder: list[penalties.Fault] = []
    aside: list[tuple[K, penalties.FaultOutcome]] = []
    place_of: dict[str, K] = {}
    for place, j in strokes:
        if not j.verdict.is_bad_time:
            continue
        s = j.stroke
        fault = penalties.Fault(s.id, s.group, s.player, s.stopped, j.hole)
        place_of[s.id] = place
        if j.placement == spells.TIMED:
            ladder.append(fault)
        else:
            reason = penalties.Reason(j.placement)
            aside.append((place, penalties.FaultOutcome(fault, False, reason)))
    judged = penalties.escalate(ladder, notes, policy, play=play, format_name=format_name)
    return [(place_of[o.fault.id], o) for o in judged] + aside


def stop_timing_alerts(judgement: Judgement, field: FieldStatus) -> tuple[alerts.Alert, ...]:
    """Return a ``stop_timing`` prompt per group whose latest spell calls for one now (§4.6).

    The prompt follows the group's current state (issue 14): a spell that ended by itself
    (the group back in position) and that no referee stopped yet prompts the referees to
    tell the players, from the instant it ended (``reason`` ``back_in_position``); a spell
    still running while the group is in position (``on_pace``, ``behind``: timed while in
    position) prompts them to stop (``in_position``). A group out of position or overdue is
    not prompted: it is where timing belongs, or about to be. Only the prompts that hold at
    ``field.at`` are returned, so one raised earlier is resolved once its state has passed.
    Once per spell and reason: the key names the spell's start.
    """
    out: list[alerts.Alert] = []
    for s in field.groups:
        out.extend(stop_timing_alert(judgement.spells_of(s.group), s, field.at))
    return tuple(out)


def stop_timing_alert(
    group_spells: Sequence[spells.Spell], s: GroupStatus, now: datetime
) -> tuple[alerts.Alert, ...]:
    """Return the ``stop_timing`` prompt one group's latest spell calls for at ``now``, if any
    (``stop_timing_alerts`` for one group, its status ``s`` at ``now``)."""
    if not group_spells:
        return ()
    last = group_spells[-1]
    if last.start > now:
        return ()
    key = f"{STOP_TIMING}:{s.group}:{last.start.isoformat()}"
    if last.end is None:
        if s.status in (Status.OUT_OF_POSITION, Status.OVERDUE):
            return ()
        at, hole, reason = last.start, s.last_hole, "in_position"
        key += ":in_position"
    elif last.ended_by == spells.BACK_IN_POSITION and last.stopped is None:
        at, hole, reason = last.end, last.end_hole, spells.BACK_IN_POSITION
    else:
        return ()
    return (
        alerts.Alert(
            key,
            STOP_TIMING,
            s.group,
            hole if hole is not None else s.last_hole,
            at,
            s.over,
            s.gap,
            reason=reason,
        ),
    )

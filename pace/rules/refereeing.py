"""The referees' side of the log: who is being timed, timed strokes, faults and penalties.

A fold of the round's events (RULES.md §4–§6), pure like the rest of the rules: every
decision, timing, notification and credit is an event with who and when.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from pace.rules import alerts, penalties, timing
from pace.rules.events import Event
from pace.rules.model import RoundFacts, RoundSetup, Status
from pace.rules.policies import CHECKPOINTS, Policy
from pace.rules.position import Episode, FieldPlan, FieldStatus, plan_field

TIMING_DECIDED = "timing_decided"
PLAYER_TOLD_TIMED = "player_told_timed"
STROKE_TIMED = "stroke_timed"
PLAYER_NOTIFIED = "player_notified"
TIMING_STOPPED = "timing_stopped"

#: The alert that asks a referee to stop timing a group back in position (RULES.md §4.6).
STOP_TIMING = "stop_timing"

#: Mitigating circumstances a referee may give for not timing a group (RULES.md §4.1).
MITIGATING_REASONS = ("ruling", "lost_ball", "unplayable_ball", "other")


@dataclass(frozen=True)
class GroupTiming:
    """Whether a group is being timed, since when, and which players were told."""

    group: str
    timed: bool = False
    since: datetime | None = None
    decisions: tuple[Mapping[str, object], ...] = ()
    told: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RefereeState:
    """Everything the referees recorded, folded: timing per group, strokes, notifications."""

    groups: Mapping[str, GroupTiming] = field(default_factory=dict)
    strokes: tuple[timing.TimedStroke, ...] = ()
    notifications: tuple[penalties.Notification, ...] = ()

    def timing(self, group: str) -> GroupTiming:
        """Return the group's timing state (not timed when nothing was recorded)."""
        return self.groups.get(group, GroupTiming(group))


def fold(events: Iterable[Event]) -> RefereeState:
    """Return the referees' state from the round's events, voids applied."""
    events = list(events)
    voided = {str(e.payload["target"]) for e in events if e.type == "event_voided"}
    groups: dict[str, GroupTiming] = {}
    strokes: list[timing.TimedStroke] = []
    notes: list[penalties.Notification] = []
    for e in events:
        if e.id in voided:
            continue
        p = e.payload
        if e.type == TIMING_DECIDED:
            g = str(p["group"])
            cur = groups.get(g, GroupTiming(g))
            timed = p.get("decision") == "time"
            decision = {
                "decision": p.get("decision"),
                "reason": p.get("reason"),
                "note": p.get("note") or "",
                "at": e.at,
                "by": dict(e.by),
            }
            groups[g] = GroupTiming(
                g,
                timed or cur.timed,
                (cur.since or e.at) if timed else cur.since,
                cur.decisions + (decision,),
                cur.told,
            )
        elif e.type == TIMING_STOPPED:
            g = str(p["group"])
            cur = groups.get(g, GroupTiming(g))
            # a new episode starts afresh: players are told again when timing resumes
            groups[g] = GroupTiming(g, False, None, cur.decisions, frozenset())
        elif e.type == PLAYER_TOLD_TIMED:
            g = str(p["group"])
            cur = groups.get(g, GroupTiming(g))
            groups[g] = GroupTiming(
                g, cur.timed, cur.since, cur.decisions, cur.told | {str(p["player"])}
            )
        elif e.type == STROKE_TIMED:
            strokes.append(
                timing.TimedStroke(
                    id=e.id,
                    group=str(p["group"]),
                    player=str(p["player"]),
                    hole=int(str(p["hole"])),
                    started=datetime.fromisoformat(str(p["started"])),
                    stopped=datetime.fromisoformat(str(p["stopped"])),
                    kind=timing.StrokeKind(str(p.get("kind", "other"))),
                    first_to_play=bool(p.get("first_to_play", False)),
                    between_holes=bool(p.get("between_holes", False)),
                )
            )
        elif e.type == PLAYER_NOTIFIED:
            notes.append(
                penalties.Notification(str(p["group"]), str(p["player"]), str(p["fault"]), e.at)
            )
    return RefereeState(groups, tuple(strokes), tuple(notes))


@dataclass(frozen=True)
class RoundPenalties:
    """The round's faults judged on the policy's ladder, and the strokes behind them."""

    verdicts: tuple[timing.StrokeVerdict, ...]
    outcomes: tuple[penalties.FaultOutcome, ...]

    def for_player(self, group: str, player: str) -> tuple[penalties.FaultOutcome, ...]:
        """Return one player's judged faults, in time order."""
        return tuple(
            o for o in self.outcomes if o.fault.group == group and o.fault.player == player
        )


def round_penalties(
    setup: RoundSetup,
    facts: RoundFacts,
    state: RefereeState,
    policy: Policy,
    now: datetime,
    *,
    play: str = penalties.STROKE_PLAY,
    format_name: str = "individual",
    plan: FieldPlan | None = None,
) -> RoundPenalties:
    """Return every fault of the round up to ``now`` and what it costs (RULES.md §6).

    Under a checkpoint policy (mauricie) the faults are the groups' checkpoint breaches;
    otherwise they are the timed strokes over their allowance (bad times).
    """
    plan = plan or plan_field(setup)
    verdicts = tuple(timing.judge(s, policy) for s in state.strokes if s.stopped <= now)
    if policy.faults_from == CHECKPOINTS:
        breaches = penalties.checkpoint_breaches(setup, facts, now, policy, plan)
        faults = penalties.checkpoint_faults(breaches, setup)
    else:
        faults = [
            penalties.Fault(
                v.stroke.id,
                v.stroke.group,
                v.stroke.player,
                v.stroke.stopped,
                penalties.penalty_hole(
                    v.stroke.hole, v.stroke.between_holes, plan.by_id[v.stroke.group].order
                ),
            )
            for v in verdicts
            if v.is_bad_time and v.stroke.group in plan.by_id
        ]
    notes = [n for n in state.notifications if n.at <= now]
    outcomes = penalties.escalate(faults, notes, policy, play=play, format_name=format_name)
    return RoundPenalties(verdicts, outcomes)


def stop_timing_alerts(
    state: RefereeState, field: FieldStatus, episodes: Iterable[Episode] = ()
) -> tuple[alerts.Alert, ...]:
    """Return a ``stop_timing`` alert for each timed group no longer out of position.

    Timing stops when the group is back in position, and the players are told (RULES.md
    §4.6): the referee is prompted once per timing spell, so the key names the spell's
    start. The alert's instant is when the group got back in position (the end of its last
    episode), or the spell's start if that came earlier.
    """
    back: dict[str, tuple[datetime, int | None]] = {}
    for e in episodes:
        if e.end is not None and (e.group not in back or e.end > back[e.group][0]):
            back[e.group] = (e.end, e.end_hole)
    out = []
    for s in field.groups:
        t = state.groups.get(s.group)
        if t is None or not t.timed or t.since is None or t.since > field.at:
            continue
        if s.status is Status.OUT_OF_POSITION:
            continue
        end, hole = back.get(s.group, (t.since, None))
        if end < t.since:  # an earlier spell's episode
            end, hole = t.since, None
        out.append(
            alerts.Alert(
                f"{STOP_TIMING}:{s.group}:{t.since.isoformat()}",
                STOP_TIMING,
                s.group,
                hole if hole is not None else s.last_hole,
                end,
                s.over,
                s.gap,
            )
        )
    return tuple(out)

"""The referees' acts folded one event at a time, and each group's judgement kept (issue 13).

:func:`pace.rules.refereeing.fold` and :func:`~pace.rules.refereeing.judge_round` fold and
judge a whole log. A round's judgement falls apart by group: a group's spells come from its
own acts and evaluations, its strokes are judged against its spells, its checkpoints against
its completions, and the ladder counts each player's faults on their own (docs/rules.md §4–§6).
:class:`RefereeFold` keeps the referees' acts by group and judges again only the groups an
event names (their acts, or their evaluations in the :class:`~pace.rules.fieldfold.FieldFold`
it reads); :meth:`RefereeFold.judgement` puts the groups' judgements together in the order
``judge_round`` gives, so the two are equal after every event (tests/unit/rules/
test_fieldfold.py). The live judgement is the whole log's (every accepted instant is at most a
few seconds ahead of the server's clock).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pace.rules import penalties, spells, timing
from pace.rules import refereeing as rr
from pace.rules.events import Event
from pace.rules.fieldfold import FAR, FieldFold
from pace.rules.model import RoundSetup
from pace.rules.policies import CHECKPOINTS, Policy
from pace.rules.position import Evaluation, GroupPlan

#: the referees' events (the void of one of them is folded too)
KINDS = frozenset(
    {rr.TIMING_DECIDED, rr.TIMING_STOPPED, rr.PLAYER_TOLD_TIMED, rr.STROKE_TIMED,
     rr.PLAYER_NOTIFIED}
)  # fmt: skip


@dataclass
class _Acts:
    """One group's (or the round's) referee acts, each table in log order by event id."""

    decisions: dict[str, rr.Decision] = field(default_factory=dict)
    spell_acts: dict[str, spells.SpellAct] = field(default_factory=dict)
    tells: dict[str, spells.Tell] = field(default_factory=dict)
    strokes: dict[str, tuple[int, timing.TimedStroke]] = field(default_factory=dict)
    notifications: dict[str, penalties.Notification] = field(default_factory=dict)

    def tables(self) -> tuple[dict[str, Any], ...]:
        return (self.decisions, self.spell_acts, self.tells, self.strokes, self.notifications)


@dataclass(frozen=True)
class GroupJudgement:
    """One group's part of a round's :class:`~pace.rules.refereeing.Judgement`.

    ``strokes`` and ``outcomes`` carry the key that orders them in the round's (log order for
    strokes and bad times; time, draw order, stretch and player for checkpoint faults).
    """

    group: str
    has_acts: bool
    spells: tuple[spells.Spell, ...]
    strokes: tuple[tuple[int, rr.StrokeJudgement], ...]
    breaches: tuple[tuple[str, penalties.CheckpointBreach], ...]
    outcomes: tuple[tuple[Any, penalties.FaultOutcome], ...]

    def for_player(self, player: str) -> tuple[penalties.FaultOutcome, ...]:
        """Return one player's judged faults, in log order."""
        return tuple(o for _, o in self.outcomes if o.fault.player == player)


def judge_group(
    p: GroupPlan,
    rank: int,
    setup: RoundSetup,
    policy: Policy | None,
    evaluated: Sequence[Evaluation],
    acts: Sequence[spells.SpellAct],
    tells: Sequence[spells.Tell],
    strokes: Sequence[tuple[int, timing.TimedStroke]],
    notes: Sequence[penalties.Notification],
    done: Mapping[int, datetime],
    spans: Sequence[tuple[datetime, datetime | None]],
    credits: Sequence[Any],
    *,
    play: str = penalties.STROKE_PLAY,
    format_name: str = "individual",
    reported: Collection[int] = (),
) -> GroupJudgement:
    """Return one group's spells, strokes and faults judged, as ``judge_round`` judges them.

    ``rank`` is the group's place in the draw; ``strokes`` carry their place in the log.
    Without a policy (the round's is not configured) only the spells are judged.
    """
    back = rr.back_in_position({p.id: evaluated})[p.id]
    timed = spells.group_spells(p.id, acts, back, tells, FAR) if acts else ()
    if policy is None:
        return GroupJudgement(p.id, bool(acts), timed, (), (), ())
    judged = []
    for order, s in strokes:
        hole = rr.stroke_hole(s, p.order, done)
        played_on = s.hole if s.hole is not None and not s.between_holes else hole
        par = setup.course.hole(played_on).par if setup.course.has_hole(played_on) else None
        verdict = timing.judge(s, policy, par)
        judged.append(
            (order, rr.StrokeJudgement(verdict, spells.placement(timed, s.started), hole))
        )
    breaches: list[tuple[str, penalties.CheckpointBreach]] = []
    outcomes: list[tuple[Any, penalties.FaultOutcome]] = []
    if policy.faults_from == CHECKPOINTS:
        found = penalties.group_checkpoint_breaches(
            p, done, spans, credits, policy, reported=reported
        )
        found.sort(key=lambda b: b.at)
        keys: dict[int, Any] = {}
        faults: list[penalties.Fault] = []
        for k, b in enumerate(found, start=1):
            breaches.append((penalties.checkpoint_fault_id(p.id, k), b))
            for i, player in enumerate(p.group.players):
                keys[len(faults)] = (rank, k, i)
                faults.append(
                    penalties.Fault(
                        penalties.checkpoint_fault_id(p.id, k), p.id, player.name, b.at,
                        b.penalty_hole, "checkpoint",
                    )
                )  # fmt: skip
        judged_faults = penalties.escalate(
            faults, notes, policy, play=play, format_name=format_name
        )
        # escalate judges the very Fault objects it is given: each finds its key by identity
        index = {id(f): i for i, f in enumerate(faults)}
        outcomes = [(keys[index[id(o.fault)]], o) for o in judged_faults]
    else:
        outcomes = _bad_times(judged, notes, policy, play, format_name)
    return GroupJudgement(p.id, bool(acts), timed, tuple(judged), tuple(breaches), tuple(outcomes))


def _bad_times(
    strokes: Sequence[tuple[int, rr.StrokeJudgement]],
    notes: Sequence[penalties.Notification],
    policy: Policy,
    play: str,
    format_name: str,
) -> list[tuple[Any, penalties.FaultOutcome]]:
    """Return the group's bad times judged, with their log order."""
    return rr.placed_bad_times(strokes, notes, policy, play, format_name)


def assemble(policy: Policy, parts: Sequence[GroupJudgement]) -> rr.Judgement:
    """Return the round's judgement from its groups' parts, in ``judge_round``'s order."""
    group_spells = {j.group: j.spells for j in parts if j.has_acts}
    strokes = sorted((s for j in parts for s in j.strokes), key=lambda x: x[0])
    breaches = {fid: b for j in parts for fid, b in j.breaches}
    outcomes = sorted((o for j in parts for o in j.outcomes), key=lambda x: (x[1].fault.at, x[0]))
    return rr.Judgement(
        policy,
        group_spells,
        tuple(s for _, s in strokes),
        breaches,
        tuple(o for _, o in outcomes),
    )


def _read_back(
    back: Sequence[tuple[datetime, int | None]], latest: datetime | None
) -> tuple[tuple[datetime, int | None], ...]:
    """Return what ``spells.group_spells`` reads of ``back`` for acts up to ``latest``: the
    instants up to the latest act, and the first one after it (it may end the last spell);
    nothing without acts."""
    if latest is None:
        return ()
    out = []
    for instant, hole in back:
        out.append((instant, hole))
        if instant > latest:
            break
    return tuple(out)


class RefereeFold:
    """The referees' acts of a round by group, and each group's judgement, kept up to date.

    ``version`` bumps for a group when one of its acts changes; the judgement of a group is
    made again when its acts or its evaluations (``FieldFold.evals_version``) change.
    """

    def __init__(
        self,
        fold: FieldFold,
        policy: Policy | None,
        *,
        play: str = penalties.STROKE_PLAY,
        format_name: str = "individual",
    ):
        self.fold = fold
        self.setup = fold.setup
        self.plan = fold.plan
        self.policy = policy
        self.play = play
        self.format_name = format_name
        self._all = _Acts()
        self._groups: dict[str, _Acts] = {}
        self._voided: set[str] = set()
        self._where: dict[str, str] = {}
        self._order = 0
        self.version: dict[str, int] = {p.id: 0 for p in fold.plan.groups}
        self._rank = {p.id: i for i, p in enumerate(fold.plan.groups)}
        self._judged: dict[str, tuple[tuple[int, int], GroupJudgement, tuple[Any, ...] | None]] = {}
        self._round: tuple[tuple[Any, ...], rr.Judgement] | None = None

    # -- folding -------------------------------------------------------------------------------

    def apply(self, e: Event) -> None:
        """Fold one event as :func:`pace.rules.refereeing.fold` would (voids wherever they are)."""
        if e.type == "event_voided":
            target = str(e.payload["target"])
            self._voided.add(target)
            group = self._where.pop(target, None)
            if group is not None:
                for table in self._all.tables():
                    table.pop(target, None)
                for table in self._groups[group].tables():
                    table.pop(target, None)
                self._bump(group)
            return
        if e.type not in KINDS or e.id in self._voided:
            return
        p = e.payload
        group = str(p["group"])
        acts = self._groups.setdefault(group, _Acts())
        self._where[e.id] = group
        if e.type == rr.TIMING_DECIDED:
            act = spells.SpellAct(group, rr.spell_kind(p.get("decision")), e.at)
            self._all.spell_acts[e.id] = acts.spell_acts[e.id] = act
            self._all.decisions[e.id] = acts.decisions[e.id] = rr.decision_of(e)
        elif e.type == rr.TIMING_STOPPED:
            act = spells.SpellAct(group, spells.STOP, e.at)
            self._all.spell_acts[e.id] = acts.spell_acts[e.id] = act
        elif e.type == rr.PLAYER_TOLD_TIMED:
            tell = spells.Tell(group, str(p["player"]), e.at)
            self._all.tells[e.id] = acts.tells[e.id] = tell
        elif e.type == rr.STROKE_TIMED:
            self._order += 1
            self._all.strokes[e.id] = acts.strokes[e.id] = (self._order, rr.stroke_of(e))
        elif e.type == rr.PLAYER_NOTIFIED:
            note = penalties.Notification(group, str(p["player"]), str(p["fault"]), e.at)
            self._all.notifications[e.id] = acts.notifications[e.id] = note
        self._bump(group)

    def _bump(self, group: str) -> None:
        if group in self.version:
            self.version[group] += 1

    # -- what the rules make of it ---------------------------------------------------------------

    def state(self) -> rr.RefereeState:
        """Return the referees' state: exactly :func:`pace.rules.refereeing.fold` of the log."""
        a = self._all
        return rr.RefereeState(
            tuple(a.decisions.values()),
            tuple(a.spell_acts.values()),
            tuple(a.tells.values()),
            tuple(s for _, s in a.strokes.values()),
            tuple(a.notifications.values()),
        )

    def decisions(self, group: str) -> tuple[rr.Decision, ...]:
        """Return the group's decisions to time it or not, in log order."""
        acts = self._groups.get(group)
        return () if acts is None else tuple(acts.decisions.values())

    def notified(self, group: str) -> set[tuple[str, str, str]]:
        """Return the (group, player, fault) a referee told of, for ``group``."""
        acts = self._groups.get(group)
        if acts is None:
            return set()
        return {(n.group, n.player, n.fault) for n in acts.notifications.values()}

    def key(self, group: str) -> tuple[int, int]:
        """Return what the group's judgement depends on: its acts' and evaluations' versions."""
        return (self.version[group], self.fold.evals_version[group])

    def group(self, group: str) -> GroupJudgement:
        """Return ``group``'s judgement (made again only after its acts or evaluations change)."""
        key = self.key(group)
        known = self._judged.get(group)
        if known is not None and known[0] == key:
            return known[1]
        p = self.plan.by_id[group]
        acts = self._groups.get(group) or _Acts()
        evaluated = self.fold.evaluations(group)
        done = self.fold.done(group)
        strokes = tuple(acts.strokes.values())
        basis = self._basis(group, evaluated, done, strokes)
        if known is not None and basis is not None and known[2] == basis:
            self._judged[group] = (key, known[1], basis)
            return known[1]  # what the judgement reads of the new evaluations is as it was
        judged = judge_group(
            p,
            self._rank[group],
            self.setup,
            self.policy,
            evaluated,
            tuple(acts.spell_acts.values()),
            tuple(acts.tells.values()),
            strokes,
            tuple(acts.notifications.values()),
            done,
            self.fold.spans,
            self.fold.credits(group),
            play=self.play,
            format_name=self.format_name,
            reported=frozenset(h for h in done if self.fold.source(group, h) == "group"),
        )
        self._judged[group] = (key, judged, basis)
        return judged

    def _basis(
        self,
        group: str,
        evaluated: Sequence[Evaluation],
        done: Mapping[int, datetime],
        strokes: Sequence[tuple[int, timing.TimedStroke]],
    ) -> tuple[Any, ...] | None:
        """Return all that ``judge_group`` reads of ``group``'s evaluations and completions
        (with its acts' version), or ``None`` when that is everything (checkpoints judge the
        completions themselves).

        A tap changes a group's evaluations; most often the judgement reads nothing of the
        change: the spells read only the instants the group was found back in position, and a
        stroke with no hole written reads only the completions up to its end (docs/rules.md §6).
        Judging again a group with a long referee history costs tens of ms.
        """
        if self.policy is not None and self.policy.faults_from == CHECKPOINTS:
            return None
        back = _read_back(
            rr.back_in_position({group: evaluated})[group],
            max((a.at for a in self._groups[group].spell_acts.values()), default=None)
            if group in self._groups
            else None,
        )
        if self.policy is None:
            return (self.version[group], back)
        latest = max((s.stopped for _, s in strokes if s.hole is None), default=None)
        seen = () if latest is None else tuple(sorted(
            (h, at) for h, at in done.items() if at <= latest
        ))  # fmt: skip
        return (self.version[group], back, seen)

    def spells_of(self, group: str) -> tuple[spells.Spell, ...]:
        """Return ``group``'s timing spells, in time order."""
        return self.group(group).spells

    def all_spells(self) -> dict[str, tuple[spells.Spell, ...]]:
        """Return the spells of every group with any act (as ``refereeing.round_spells``)."""
        return {p.id: j.spells for p in self.plan.groups if (j := self.group(p.id)).has_acts}

    def judgement(self) -> rr.Judgement:
        """Return the round's judgement (the policy's), equal to ``judge_round`` of the log."""
        assert self.policy is not None, "the round's policy is not configured"
        key = tuple(self.key(p.id) for p in self.plan.groups)
        if self._round is None or self._round[0] != key:
            parts = [self.group(p.id) for p in self.plan.groups]
            self._round = (key, assemble(self.policy, parts))
        return self._round[1]

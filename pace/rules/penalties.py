"""The penalty ladder for slow play (docs/rules.md §6, frbg 7.a(c)(d); presets in ``policies``).

Faults (bad times, or checkpoint breaches under a checkpoint policy) are counted per
player per round, across every out-of-position episode. The notification gate: a fault
recorded while the player has an earlier counted fault he was not yet told of is kept and
shown, but not counted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from pace.rules import groupclock
from pace.rules.model import RoundFacts, RoundSetup, TimeCredit
from pace.rules.policies import Policy, parse_step
from pace.rules.position import FieldPlan, GroupPlan, plan_field
from pace.rules.reported import OFFICIAL as OFFICIAL_SOURCE

STROKE_PLAY = "stroke_play"
MATCH_PLAY = "match_play"

#: Formats in which partners play one ball: the side bears every penalty.
ONE_BALL_FORMATS = frozenset({"foursome", "threesome", "greensome"})
#: Formats in which partners play their own balls: strokes and loss of hole stay with the
#: partner (his score stays identifiable and his partner plays on for the side, Rules
#: 30-3f and 31-8); disqualification for slow play hits the side (Rules 30-3e, 31-7).
OWN_BALL_FORMATS = frozenset({"four_ball", "best_ball", "fourball"})


class Reason(StrEnum):
    """Why a fault counts or not."""

    COUNTED = "counted"
    PREVIOUS_NOT_NOTIFIED = "previous_not_notified"
    AFTER_DISQUALIFICATION = "after_disqualification"
    BEYOND_LADDER = "beyond_ladder"
    #: the stroke started outside every timing spell of its group (docs/rules.md §4.7)
    NOT_TIMED = "not_timed"
    #: the stroke started after the spell ended by the group being back in position (§4.6)
    GROUP_IN_POSITION = "group_in_position"


@dataclass(frozen=True)
class Fault:
    """A fault of one player: a bad time, or his group's checkpoint breach.

    ``hole`` is the hole the penalty applies to: the hole during which it happened, or the
    next hole when it happened between holes (see :func:`penalty_hole`).
    """

    id: str
    group: str
    player: str
    at: datetime
    hole: int
    source: str = "bad_time"


@dataclass(frozen=True)
class Notification:
    """A referee told the player of fault ``fault`` (its id) at ``at``."""

    group: str
    player: str
    fault: str
    at: datetime


@dataclass(frozen=True)
class Penalty:
    """What a counted fault costs: a warning, strokes, points, the hole, or the round.

    ``bearer`` is ``"player"`` or ``"side"`` (team formats, docs/rules.md §6).
    """

    kind: str
    amount: int
    hole: int
    bearer: str = "player"


@dataclass(frozen=True)
class FaultOutcome:
    """One fault judged: counted or not (and why), its rank on the ladder and its penalty.

    ``awaiting_notification`` is true for a counted fault the player has not been told of
    yet: his next fault will not count until he is.
    """

    fault: Fault
    counted: bool
    reason: Reason
    rank: int | None = None
    penalty: Penalty | None = None
    awaiting_notification: bool = False


def penalty_hole(hole: int, between_holes: bool, order: Sequence[int]) -> int:
    """Return the hole a penalty applies to: ``hole``, or the next one played when between holes.

    >>> penalty_hole(5, False, range(1, 19)), penalty_hole(5, True, range(1, 19))
    (5, 6)
    >>> penalty_hole(18, True, [10, 11, 12, 13, 14, 15, 16, 17, 18, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    1
    """
    if not between_holes:
        return hole
    order = list(order)
    i = order.index(hole)
    return order[i + 1] if i + 1 < len(order) else hole


def bearer(kind: str, format_name: str = "individual") -> str:
    """Return who bears a penalty of ``kind`` in a scoring format: the player or his side.

    >>> bearer("strokes", "foursome"), bearer("strokes", "four_ball")
    ('side', 'player')
    >>> bearer("loss_of_hole", "four_ball"), bearer("disqualification", "four_ball")
    ('player', 'side')
    """
    if format_name in ONE_BALL_FORMATS:
        return "side"
    if format_name in OWN_BALL_FORMATS and kind == "disqualification":
        return "side"
    return "player"


def escalate(
    faults: Iterable[Fault],
    notifications: Iterable[Notification],
    policy: Policy,
    *,
    play: str = STROKE_PLAY,
    format_name: str = "individual",
) -> tuple[FaultOutcome, ...]:
    """Return every fault judged on the policy's ladder, in time order (docs/rules.md §6).

    Faults at the same instant keep the order they are given in (the log's). Faults are
    counted per player per round. With the notification gate, a fault that
    comes while the player's previous counted fault was not yet notified to him (no
    notification at or before the new fault's instant) is stored, shown and not counted.

    >>> from datetime import UTC
    >>> from pace.rules.policies import FRBG
    >>> t = lambda m: datetime(2025, 6, 14, 10, m, tzinfo=UTC)
    >>> faults = [Fault("a", "7", "Ann", t(0), 3), Fault("b", "7", "Ann", t(5), 4),
    ...           Fault("c", "7", "Ann", t(9), 5)]
    >>> told = [Notification("7", "Ann", "a", t(2))]
    >>> for o in escalate(faults, told, FRBG):
    ...     print(o.fault.id, o.reason.value, o.penalty and o.penalty.kind)
    a counted warning
    b counted strokes
    c previous_not_notified None
    """
    if play not in (STROKE_PLAY, MATCH_PLAY):
        raise ValueError(f"play must be {STROKE_PLAY!r} or {MATCH_PLAY!r}, not {play!r}")
    ladder = policy.stroke_ladder if play == STROKE_PLAY else policy.match_ladder
    told: dict[tuple[str, str, str], datetime] = {}
    for n in notifications:
        key = (n.group, n.player, n.fault)
        if key not in told or n.at < told[key]:
            told[key] = n.at
    by_player: dict[tuple[str, str], list[tuple[int, Fault]]] = defaultdict(list)
    for i, f in enumerate(faults):
        by_player[(f.group, f.player)].append((i, f))
    out: list[tuple[int, FaultOutcome]] = []
    for (group, player), player_faults in by_player.items():
        count = 0
        last: Fault | None = None
        disqualified = False
        for i, f in sorted(player_faults, key=lambda x: (x[1].at, x[0])):
            if disqualified:
                out.append((i, FaultOutcome(f, False, Reason.AFTER_DISQUALIFICATION)))
                continue
            if policy.notification_gate and last is not None:
                at = told.get((group, player, last.id))
                if at is None or at > f.at:
                    out.append((i, FaultOutcome(f, False, Reason.PREVIOUS_NOT_NOTIFIED)))
                    continue
            if count >= len(ladder) and not policy.repeat_last:
                out.append((i, FaultOutcome(f, False, Reason.BEYOND_LADDER)))
                continue
            count += 1
            kind, amount = parse_step(ladder[min(count, len(ladder)) - 1], policy=policy.name)
            penalty = Penalty(kind, amount, f.hole, bearer(kind, format_name))
            out.append((i, FaultOutcome(f, True, Reason.COUNTED, count, penalty)))
            last = f
            disqualified = kind == "disqualification"
    out.sort(key=lambda x: (x[1].fault.at, x[0]))
    return tuple(_mark_awaiting(o, told) for _, o in out)


def _mark_awaiting(o: FaultOutcome, told: dict[tuple[str, str, str], datetime]) -> FaultOutcome:
    if not o.counted or (o.fault.group, o.fault.player, o.fault.id) in told:
        return o
    return FaultOutcome(o.fault, o.counted, o.reason, o.rank, o.penalty, True)


@dataclass(frozen=True)
class CheckpointBreach:
    """A group took longer than the policy allows over a stretch of holes (mauricie 13.4)."""

    group: str
    checkpoint: int  # 1 after the first six holes, 2 after twelve, 3 after eighteen
    after_hole: int
    at: datetime
    taken: timedelta
    limit: timedelta
    penalty_hole: int


def checkpoint_breaches(
    setup: RoundSetup,
    facts: RoundFacts,
    now: datetime,
    policy: Policy,
    plan: FieldPlan | None = None,
) -> tuple[CheckpointBreach, ...]:
    """Return the checkpoint breaches logged up to ``now`` (golf-mauricie 13.4).

    Each stretch of ``checkpoint_holes`` holes in the group's playing order must take at
    most ``checkpoint_limit``, from the start (or the previous checkpoint's completion) to
    the completion of the checkpoint hole, play stoppages and time credits removed. A
    checkpoint hole that was not logged cannot be judged, nor one whose completion rests on
    the group's own report or its positions (issues 39, 48: nothing is penalised on a report
    or positions alone; an official's tap of the hole, a referee's included, confirms it). The
    penalty goes to the next hole played (it is assessed between holes), or the last hole after
    the last stretch.
    """
    plan = plan or plan_field(setup)
    spans = groupclock.merge_suspensions(facts.suspensions, now)
    done: dict[str, dict[int, datetime]] = defaultdict(dict)
    reported: dict[str, set[int]] = defaultdict(set)
    for c in facts.completions:
        if c.at <= now:
            done[c.group][c.hole] = c.at
            if c.source != OFFICIAL_SOURCE:  # a report, or positions (issue 48)
                reported[c.group].add(c.hole)
    out = []
    rank = {p.id: i for i, p in enumerate(plan.groups)}
    for p in plan.groups:
        credits = [c for c in facts.credits if c.group == p.id and c.at <= now]
        out.extend(
            group_checkpoint_breaches(
                p, done.get(p.id, {}), spans, credits, policy, reported=reported.get(p.id, ())
            )
        )
    return tuple(sorted(out, key=lambda b: (b.at, rank[b.group])))


def group_checkpoint_breaches(
    p: GroupPlan,
    logged: Mapping[int, datetime],
    spans: Sequence[tuple[datetime, datetime | None]],
    credits: Sequence[TimeCredit],
    policy: Policy,
    *,
    reported: Collection[int] = (),
) -> list[CheckpointBreach]:
    """Return one group's checkpoint breaches, in the order of its stretches (mauricie 13.4).

    ``logged`` maps the holes it completed to their instants; ``credits`` are its time
    credits (see :func:`checkpoint_breaches`); ``reported`` the holes whose completion rests
    on the group's own report: a stretch ending or beginning there is not judged.
    """
    out = []
    n = policy.checkpoint_holes
    begin: datetime | None = p.group.start
    for k, pos in enumerate(range(n, len(p.order) + 1, n), start=1):
        hole = p.order[pos - 1]
        end = logged.get(hole)
        if end is None or begin is None or hole in reported:
            begin = None if hole in reported else end
            continue
        # a credit counts in the stretch it was granted in; one granted at or before the
        # start counts in the first stretch
        credit = sum(
            (c.amount for c in credits if (k == 1 or begin < c.at) and c.at <= end),
            timedelta(0),
        )
        taken = end - begin - groupclock.stopped_between(spans, begin, end) - credit
        if taken > policy.checkpoint_limit:
            out.append(
                CheckpointBreach(
                    p.id,
                    k,
                    hole,
                    end,
                    taken,
                    policy.checkpoint_limit,
                    penalty_hole(hole, True, p.order),
                )  # fmt: skip
            )
        begin = end
    return out


def checkpoint_fault_id(group: str, number: int) -> str:
    """Return the id of a group's ``number``-th checkpoint breach (1, 2, …), in time order.

    A paper log names it ``cp:<number>`` (docs/formats.md §5).

    >>> checkpoint_fault_id("7", 2)
    'checkpoint:7:2'
    """
    return f"checkpoint:{group}:{number}"


def checkpoint_faults(breaches: Iterable[CheckpointBreach], setup: RoundSetup) -> list[Fault]:
    """Return one fault per competitor of each group that broke a checkpoint, in draw order.

    The fault of a group's N-th breach (in time order) has the id
    :func:`checkpoint_fault_id` ``(group, N)``.
    """
    groups = {g.id: g for g in setup.groups}
    out = []
    numbers: dict[str, int] = defaultdict(int)
    for b in sorted(breaches, key=lambda b: b.at):
        numbers[b.group] += 1
        for player in groups[b.group].players:
            out.append(
                Fault(
                    checkpoint_fault_id(b.group, numbers[b.group]),
                    b.group,
                    player.name,
                    b.at,
                    b.penalty_hole,
                    "checkpoint",
                )  # fmt: skip
            )
    return out

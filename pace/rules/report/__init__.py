"""The post-round report as pure data: a fold of the round's log judged by the rules.

``build_report(setup, facts, events, policy, now)`` returns, for every group, its holes
(logged and due instants, minutes over, gap, status at each completion), its out-of-position
episodes, the referees' decisions, spells and notifications, each player's timed strokes,
faults and penalties; and for the field the finishing-time bands, the bottleneck holes, the
stops of play and who held the field up. Nothing here reads a clock or a file: ``now`` is the
end of the report (the end of the round, or any instant during it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from pace.rules import estimates, groupclock, penalties, policies, reported, timing
from pace.rules import explain as explainmod
from pace.rules import refereeing as rr
from pace.rules.events import Event
from pace.rules.model import HoleCompletion, RoundFacts, RoundSetup, Status, TimeCredit
from pace.rules.position import (
    Episode,
    FieldPlan,
    GroupPlan,
    GroupStatus,
    episodes,
    evaluate_field,
    plan_field,
)
from pace.rules.report import field as fieldmod
from pace.rules.report.batches import batched_reports
from pace.rules.report.field import Band, HoleStat, Stoppage
from pace.rules.report.holdup import HeldAtHole, HoldUp, held_up, ongoing
from pace.rules.report.holes import HoleOrder, HoleRow, due_instant, group_holes, holes_key
from pace.rules.report.referees import (
    Act,
    GroupActs,
    Spell,
    author,
    group_acts,
    with_judged_spells,
)

T = TypeVar("T")

__all__ = [
    "Act",
    "Band",
    "EpisodeReport",
    "FaultReport",
    "FieldReport",
    "GroupActs",
    "GroupReport",
    "HeldAtHole",
    "HoleRow",
    "HoleStat",
    "HoldUp",
    "KeptRows",
    "PlayerReport",
    "RoundReport",
    "Spell",
    "Stoppage",
    "StrokeReport",
    "author",
    "build_report",
    "due_instant",
    "field_holdups",
    "field_holdups_steps",
    "run_steps",
]

ZERO = timedelta(0)
Spans = tuple[tuple[datetime, datetime | None], ...]


@dataclass(frozen=True)
class EpisodeReport:
    """An out-of-position episode (docs/rules.md §3): the holes it covered, its worst numbers.

    ``holes`` runs from the hole whose completion put the group out of position to the one
    that ended the episode (or the last logged); ``worst_gap`` and ``worst_over`` are the
    largest gap to the group ahead and time over at the completions judged out of position
    (``worst_gap`` is ``None`` for a lead group or when no group was seen ahead).

    ``judged``: the holes of those completions, in playing order. ``seen_by_official``: the
    episode rests on at least one official's observation (issue 46, docs/reports.md
    "Letters"): one of the ``judged`` completions is an official's tap, not the group's own
    report; with none judged (an episode begun by something other than a completion), the
    completion of its start hole is.
    """

    episode: Episode
    holes: tuple[int, ...]
    worst_gap: timedelta | None
    worst_over: timedelta | None
    worst_hole: int | None
    judged: tuple[int, ...] = ()
    seen_by_official: bool = True


@dataclass(frozen=True)
class StrokeReport:
    """A timed stroke judged against its allowance, and the referee who timed it."""

    verdict: timing.StrokeVerdict
    by: str


@dataclass(frozen=True)
class FaultReport:
    """A fault judged on the ladder, what it was (a stroke or a breach) and when it was told."""

    outcome: penalties.FaultOutcome
    stroke: timing.StrokeVerdict | None
    breach: penalties.CheckpointBreach | None
    notified: Act | None


@dataclass(frozen=True)
class PlayerReport:
    """One player's timed strokes, faults and penalties, and when he was told he was timed."""

    name: str
    strokes: tuple[StrokeReport, ...]
    faults: tuple[FaultReport, ...]
    told: tuple[Act, ...]

    @property
    def penalties(self) -> tuple[penalties.Penalty, ...]:
        """Return the penalties of the faults that counted, in time order."""
        return tuple(
            f.outcome.penalty for f in self.faults if f.outcome.counted and f.outcome.penalty
        )

    @property
    def bad_times(self) -> int:
        """Return how many timed strokes were over their allowance."""
        return sum(1 for s in self.strokes if s.verdict.is_bad_time)


@dataclass(frozen=True)
class GroupReport:
    """One group after the round: its plan, its final status, holes, episodes and referees."""

    plan: GroupPlan
    status: GroupStatus
    holes: tuple[HoleRow, ...]
    episodes: tuple[EpisodeReport, ...]
    acts: GroupActs
    players: tuple[PlayerReport, ...]
    finish: datetime | None
    stopped: timedelta
    credited: timedelta
    #: why it was named: each episode's start and end, and where it held the field up
    #: (docs/explanations.md)
    explanations: tuple[explainmod.Explanation, ...] = ()

    @property
    def id(self) -> str:
        """Return the group's id."""
        return self.plan.id

    @property
    def allotted(self) -> timedelta:
        """Return the allotted time for the whole round (walks included)."""
        return self.plan.cumulative[-1]

    @property
    def round_time(self) -> timedelta | None:
        """Return the clock time from the start to the last hole, or ``None`` if not finished."""
        return None if self.finish is None else self.finish - self.plan.group.start

    @property
    def over(self) -> timedelta | None:
        """Return the time over the allotment at the last hole (stops and credits removed)."""
        return self.holes[-1].over if self.finish is not None and self.holes else None


@dataclass(frozen=True)
class FieldReport:
    """The field's summary (see :mod:`pace.rules.report.field` and ``holdup``)."""

    finished: int
    bands: tuple[Band, ...]
    not_finished: tuple[str, ...]
    holes: tuple[HoleStat, ...]
    bottlenecks: tuple[int, ...]
    stoppages: tuple[Stoppage, ...]
    stopped: timedelta
    group_stopped: timedelta
    held_up: tuple[HoldUp, ...]


@dataclass(frozen=True)
class RoundReport:
    """The whole report as of ``at``: every group in draw order and the field's summary."""

    at: datetime
    standard_interval: timedelta | None
    policy: policies.Policy | None
    play: str
    format_name: str
    groups: tuple[GroupReport, ...]
    field: FieldReport
    #: the missed taps: asked about, confirmed by whom, still estimated (docs/estimates.md)
    missed: estimates.MissedTaps | None = None
    #: who saw the holes: officials or the groups' own reports (issue 39)
    sources: reported.Sources | None = None
    #: the groups' reports left out as the earlier holes of a batch: not facts, at their
    #: reported instants (:func:`pace.rules.report.batches.batched_reports`; issue 46)
    batched: tuple[HoleCompletion, ...] = ()

    def group(self, group_id: str) -> GroupReport:
        """Return the group's report; raise ``KeyError`` if it is not in the draw."""
        for g in self.groups:
            if g.id == group_id:
                return g
        raise KeyError(group_id)


def _credits(credits: Iterable[TimeCredit], now: datetime) -> dict[str, tuple[TimeCredit, ...]]:
    out: dict[str, list[TimeCredit]] = defaultdict(list)
    for c in credits:
        if c.at <= now:
            out[c.group].append(c)
    return {g: tuple(v) for g, v in out.items()}


def _episode_report(e: Episode, rows: Sequence[HoleRow]) -> EpisodeReport:
    by_hole = {r.hole: r for r in rows}
    first = by_hole[e.start_hole].position if e.start_hole in by_hole else 1
    last_logged = max((r.position for r in rows if r.logged is not None), default=first)
    last = by_hole[e.end_hole].position if e.end_hole in by_hole else last_logged
    covered = [r for r in rows if first <= r.position <= last]
    out = [
        r
        for r in covered
        if r.status is Status.OUT_OF_POSITION
        and r.logged is not None
        and e.start <= r.logged
        and (e.end is None or r.logged <= e.end)
    ]
    gaps = [r for r in out if r.gap is not None]
    worst = max(out, key=lambda r: r.over or ZERO, default=None)
    start = by_hole.get(e.start_hole) if e.start_hole is not None else None
    if out:
        official = any(r.source == reported.OFFICIAL for r in out)
    else:
        official = start is None or start.source == reported.OFFICIAL
    return EpisodeReport(
        e,
        tuple(r.hole for r in covered),
        max((r.gap for r in gaps if r.gap is not None), default=None),
        None if worst is None else worst.over,
        None if worst is None else worst.hole,
        tuple(r.hole for r in out),
        official,
    )


def _players(
    p: GroupPlan, judged: rr.Judgement | None, acts: GroupActs
) -> tuple[PlayerReport, ...]:
    out = []
    verdicts = {s.stroke.id: s.verdict for s in judged.strokes} if judged else {}
    for player in p.group.players:
        strokes = tuple(
            StrokeReport(v, acts.strokes_by.get(v.stroke.id, "?"))
            for v in verdicts.values()
            if v.stroke.group == p.id and v.stroke.player == player.name
        )
        faults = []
        for o in judged.for_player(p.id, player.name) if judged else ():
            breach = judged.breaches.get(o.fault.id) if judged else None
            faults.append(
                FaultReport(
                    o, verdicts.get(o.fault.id), breach, acts.notification(player.name, o.fault.id)
                )
            )
        out.append(PlayerReport(player.name, strokes, tuple(faults), acts.told_at(player.name)))
    return tuple(out)


GroupRows = tuple[
    HoleOrder, dict[str, tuple[HoleRow, ...]], Spans, dict[str, tuple[TimeCredit, ...]]
]


def _group_rows(setup: RoundSetup, facts: RoundFacts, now: datetime, plan: FieldPlan) -> GroupRows:
    return run_steps(_group_rows_steps(setup, facts, now, plan))


#: each group's holes as last read, by group: (its plan, :func:`holes_key`, the holes)
KeptRows = dict[str, tuple[GroupPlan, tuple[object, ...], tuple[HoleRow, ...]]]


def _group_rows_steps(
    setup: RoundSetup,
    facts: RoundFacts,
    now: datetime,
    plan: FieldPlan,
    kept: KeptRows | None = None,
) -> Generator[None, None, GroupRows]:
    """Read every group's holes, yielding after each group (:func:`run_steps`); with
    ``kept``, a group whose inputs did not change since (:func:`holes_key`) keeps its holes
    read then, and ``kept`` is brought up to date."""
    order = HoleOrder(plan, facts.completions, now)
    spans = groupclock.merge_suspensions(facts.suspensions, now)
    credits = _credits(facts.credits, now)
    rows = {}
    for p in plan.groups:
        mine = credits.get(p.id, ())
        if kept is None:
            rows[p.id] = group_holes(setup, p, order, spans, mine)
            yield
            continue
        key = holes_key(p, order, spans, mine)
        known = kept.get(p.id)
        if known is not None and known[0] is p and known[1] == key:
            rows[p.id] = known[2]
            continue
        rows[p.id] = group_holes(setup, p, order, spans, mine)
        kept[p.id] = (p, key, rows[p.id])
        yield
    return order, rows, spans, credits


def field_holdups(
    setup: RoundSetup, facts: RoundFacts, now: datetime, plan: FieldPlan | None = None
) -> tuple[tuple[HoldUp, bool], ...]:
    """Return who held the field up so far, each with whether it is still going on (live)."""
    return run_steps(field_holdups_steps(setup, facts, now, plan))


def run_steps(steps: Generator[None, None, T], between: Callable[[], None] | None = None) -> T:
    """Run ``steps`` to the end and return what it returns; ``between`` runs between two
    steps (whoever runs a long reading lets other work in there)."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: T = done.value
            return value
        if between is not None:
            between()


def field_holdups_steps(
    setup: RoundSetup,
    facts: RoundFacts,
    now: datetime,
    plan: FieldPlan | None = None,
    kept: KeptRows | None = None,
) -> Generator[None, None, tuple[tuple[HoldUp, bool], ...]]:
    """:func:`field_holdups`, a group at a time: yields after each group's holes are read and
    returns the reading, so that whoever runs it may let other work in between (the reading
    of 52 groups costs tens of ms: pace.services.reports.HoldUpPanel). ``kept``: the groups'
    holes of the last reading, read again only for the groups whose inputs changed (the
    live panel's, read at every tick once the log grew)."""
    plan = plan or plan_field(setup)
    order, rows, _, _ = yield from _group_rows_steps(setup, facts, now, plan, kept)
    statuses = {s.group: s for s in evaluate_field(setup, facts, now, plan).groups}
    yield
    return tuple(
        (
            u,
            ongoing(
                u, statuses[u.group].holes_completed, statuses[u.group].status is Status.FINISHED
            ),
        )
        for u in held_up(plan, order, rows)
    )


def _explanations(
    reading: explainmod.LogReading,
    sources: explainmod.Sources,
    eps: dict[str, list[Episode]],
    held: Sequence[HoldUp],
) -> dict[str, tuple[explainmod.Explanation, ...]]:
    """Return each group's explanations: its episodes' starts and ends back in position, in
    time order, then its worst hole holding the field up."""
    out: dict[str, list[explainmod.Explanation | None]] = defaultdict(list)
    for group, group_eps in eps.items():
        for e in group_eps:
            out[group].append(explainmod.explain(reading, sources, OOP, group, e.start))
            if e.end is not None and e.ended_by == explainmod.BACK_IN_POSITION:
                out[group].append(
                    explainmod.explain(reading, sources, explainmod.BACK_IN_POSITION, group, e.end)
                )
    for u in held:
        followers = [g for g, _ in u.worst.behind]
        out[u.group].append(explainmod.explain_hold(reading, sources, u.group, u.worst.hole,
                                                    followers))  # fmt: skip
    return {g: tuple(x for x in xs if x is not None) for g, xs in out.items()}


OOP = explainmod.OUT_OF_POSITION


def build_report(
    setup: RoundSetup,
    facts: RoundFacts,
    events: Sequence[Event],
    policy: policies.Policy | None,
    now: datetime,
    *,
    play: str = penalties.STROKE_PLAY,
    format_name: str = "individual",
    plan: FieldPlan | None = None,
) -> RoundReport:
    """Return the round's report as of ``now`` (docs/rules.md §1–§8).

    ``policy`` judges the faults and penalties (``None``: the round's policy is unknown, and
    the report has no faults).
    """
    plan = plan or plan_field(setup)
    order, rows, spans, credits = _group_rows(setup, facts, now, plan)
    statuses = {s.group: s for s in evaluate_field(setup, facts, now, plan).groups}
    reading = explainmod.LogReading(setup, facts, now, plan)
    eps: dict[str, list[Episode]] = defaultdict(list)
    for e in episodes(setup, facts, now, plan, reading.evaluated):
        eps[e.group].append(e)
    held = held_up(plan, order, rows)
    why = _explanations(reading, explainmod.Sources(events), eps, held)
    state = rr.fold(e for e in events if e.at <= now)
    judged = None
    if policy is not None:
        judged = rr.judge_round(
            setup, facts, state, policy, now, play=play, format_name=format_name, plan=plan
        )
    acts = group_acts(events, now)
    groups = []
    on_course: dict[str, tuple[datetime, datetime | None]] = {}
    overs: dict[str, timedelta] = {}
    not_finished = []
    for p in plan.groups:
        group_rows = rows[p.id]
        status = statuses[p.id]
        finish = group_rows[-1].logged if status.status is Status.FINISHED else None
        withdrawn = facts.withdrawn.get(p.id)
        end = finish or (withdrawn if withdrawn is not None and withdrawn <= now else None)
        on_course[p.id] = (p.group.start, end)
        g_acts = acts.get(p.id, GroupActs())
        if judged is not None:
            g_acts = with_judged_spells(g_acts, judged.spells_of(p.id))
        report = GroupReport(
            plan=p,
            status=status,
            holes=group_rows,
            episodes=tuple(_episode_report(e, group_rows) for e in eps.get(p.id, ())),
            acts=g_acts,
            players=_players(p, judged, g_acts),
            finish=finish,
            stopped=fieldmod.stopped_in(spans, p.group.start, end or now),
            credited=sum((c.amount for c in credits.get(p.id, ())), ZERO),
            explanations=why.get(p.id, ()),
        )
        groups.append(report)
        if report.over is not None:
            overs[p.id] = report.over
        else:
            not_finished.append(p.id)
    stats = fieldmod.hole_stats(setup.course, rows)
    summary = FieldReport(
        finished=len(overs),
        bands=fieldmod.bands(overs),
        not_finished=tuple(not_finished),
        holes=stats,
        bottlenecks=fieldmod.bottlenecks(stats),
        stoppages=fieldmod.stoppages(facts.suspensions, now, on_course),
        stopped=fieldmod.stopped_total(spans, now),
        group_stopped=sum((g.stopped for g in groups), ZERO),
        held_up=held,
    )
    missed = estimates.missed_taps(plan, facts, events, now, author=author)
    return RoundReport(
        now, plan.standard_interval, policy, play, format_name, tuple(groups), summary, missed,
        reported.sources(events, now), batched_reports(events, now),
    )  # fmt: skip

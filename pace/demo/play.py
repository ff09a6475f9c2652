"""How the demo's round is played: every group's completions, seeded, with its incidents.

Pure: no server, no clock. ``pace.demo.runner`` sends these taps live;
``pace.demo.data.played_files`` writes them as the hole-times file a committee would import.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pace.rules.model import Suspension
from pace.rules.position import FieldPlan, GroupPlan

HOLES_PER_MARSHAL = 3
ZERO = timedelta(0)


@dataclass(frozen=True)
class Tap:
    """A group completed a hole at a simulated instant: what a marshal will log."""

    group: str
    hole: int
    at: datetime


@dataclass(frozen=True)
class Incident:
    """Something that makes a group slow: a lost ball on one hole, or a slow stretch."""

    kind: str  # "lost_ball" or "slow_stretch"
    positions: tuple[int, ...]  # 0-based positions in the group's playing order
    extra: timedelta = timedelta(0)  # lost ball: minutes added to the hole
    factor: float = 1.0  # slow stretch: multiplier of the allotted time


#: When the group ahead is still on the hole, the earliest a group can complete it after
#: that group, by par: on a par 3 the tee shot waits for the green to clear.
HELD_GAP = {3: timedelta(minutes=7), 4: timedelta(minutes=5), 5: timedelta(minutes=5)}


def plan_incidents(plan: FieldPlan, rng: random.Random) -> dict[str, Incident]:
    """Return which groups get into trouble, and where.

    The third and sixth groups are slow on the holes played just after the demo's clock
    starts, so a newcomer sees them fall out of position and recover within a minute;
    then one group in six, at a random hole.
    """
    ordered = sorted(plan.groups, key=lambda p: p.rank)
    chosen: dict[int, Incident] = {}
    if len(ordered) > 2:
        chosen[2] = Incident("lost_ball", (rng.choice((3, 4)),), timedelta(minutes=11))
    if len(ordered) > 5:
        first = rng.choice((1, 2))
        chosen[5] = Incident("slow_stretch", (first, first + 1, first + 2), factor=1.3)
    for i in range(10, len(ordered), 6):
        first = rng.randint(2, 13)
        if rng.random() < 0.5:
            minutes = rng.randint(9, 13)
            chosen[i] = Incident("lost_ball", (first,), timedelta(minutes=minutes))
        else:
            chosen[i] = Incident(
                "slow_stretch", (first, first + 1, first + 2), factor=rng.uniform(1.25, 1.35)
            )
    return {ordered[i].id: incident for i, incident in chosen.items()}


def play_round(
    plan: FieldPlan,
    pars: dict[int, int],
    rng: random.Random,
    incidents: dict[str, Incident],
    stops: Sequence[Suspension] = (),
) -> list[Tap]:
    """Return every completion of the round, in time order.

    Each group plays each hole in about its allotted time (a group's own pace, plus
    noise per hole). A group that is over its allotted time hurries until it is back
    under; a group in trouble (``incidents``) loses time first. Nobody plays through:
    a group completes a hole at the earliest ``HELD_GAP`` after the group ahead of it.
    Play stops during ``stops`` (sirens, docs/rules.md §8): a hole under way then takes that
    much longer, and the time stopped is not time over. Without stops, the same draws
    of ``rng`` give the same round as before sirens were played.
    """
    done: dict[str, dict[int, datetime]] = {}
    last_on_tee: dict[int, GroupPlan] = {}
    taps = []
    for p in sorted(plan.groups, key=lambda p: p.rank):
        ahead = last_on_tee.get(p.group.tee)
        last_on_tee[p.group.tee] = p
        incident = incidents.get(p.id)
        own_pace = rng.uniform(0.88, 0.97)
        t = p.group.start
        done[p.id] = {}
        for i, hole in enumerate(p.order):
            allotted = p.cumulative[i + 1] - p.cumulative[i]
            factor = own_pace * min(1.15, max(0.85, rng.gauss(1.0, 0.05)))
            over = _played(p.group.start, t, stops) - p.cumulative[i]
            playing = allotted * factor
            if incident is not None and i in incident.positions:
                playing = allotted * incident.factor + incident.extra
            elif over > -timedelta(minutes=2):
                playing = allotted * min(factor, rng.uniform(0.72, 0.8))
            finish = _resumed(t, playing, stops)
            if ahead is not None:
                held = HELD_GAP.get(pars[hole], HELD_GAP[4]) * rng.uniform(0.9, 1.2)
                finish = max(finish, done[ahead.id][hole] + held)
            t = finish.replace(microsecond=0)
            done[p.id][hole] = t
            taps.append(Tap(p.id, hole, t))
    taps.sort(key=lambda tap: tap.at)
    return taps


def _played(start: datetime, t: datetime, stops: Sequence[Suspension]) -> timedelta:
    """Return the time from ``start`` to ``t`` that play was not stopped (docs/rules.md §2)."""
    stopped = sum(
        (max(timedelta(0), min(t, s.end or t) - max(start, s.start)) for s in stops),
        timedelta(0),
    )
    return t - start - stopped


def _resumed(t: datetime, playing: timedelta, stops: Sequence[Suspension]) -> datetime:
    """Return when ``playing`` of play begun at ``t`` is over, play stopping during ``stops``.

    >>> from datetime import UTC
    >>> t = datetime(2026, 6, 14, 10, 0, tzinfo=UTC)
    >>> stop = Suspension(t + timedelta(minutes=5), t + timedelta(minutes=25), "interruption")
    >>> _resumed(t, timedelta(minutes=12), [stop]).time()
    datetime.time(10, 32)
    >>> _resumed(t, timedelta(minutes=4), [stop]).time()
    datetime.time(10, 4)
    """
    end = t + playing
    for s in sorted(stops, key=lambda s: s.start):
        if s.end is None or s.end <= t or s.start >= end:
            continue
        end += s.end - max(s.start, t)
    return end


def marshal_holes(
    holes: Sequence[int], per_marshal: int = HOLES_PER_MARSHAL
) -> list[tuple[int, ...]]:
    """Return the holes each marshal covers: consecutive runs of ``per_marshal`` holes."""
    return [tuple(holes[i : i + per_marshal]) for i in range(0, len(holes), per_marshal)]


@dataclass(frozen=True)
class Report:
    """A group's own report of a hole (issue 39): the hole was completed at ``done``, and its
    scorer's phone reported it at ``at`` (the last score entered, a few minutes later)."""

    group: str
    hole: int
    done: datetime
    at: datetime


#: the longest a scorer takes to enter a hole's scores after holing out
REPORT_LAG = timedelta(minutes=3)
#: the share of the groups that enter their scores in batches of two or three holes
BATCH_SHARE = 0.2
#: seconds between two holes' reports of one batch (the scorer types on)
BATCH_STEP = timedelta(seconds=20)


def group_reports(
    taps: Sequence[Tap],
    rng: random.Random,
    *,
    lag: timedelta = REPORT_LAG,
    batch_share: float = BATCH_SHARE,
) -> list[Report]:
    """Return the groups' own reports of ``taps`` (their true completions), in time order.

    Each group's scorer enters a hole's scores 0 to ``lag`` after holing out; a share
    ``batch_share`` of the groups enter two or three holes at a time, on the tee after the
    batch's last hole, the holes of a batch a few seconds apart.
    """
    by_group: dict[str, list[Tap]] = {}
    for t in sorted(taps, key=lambda t: t.at):
        by_group.setdefault(t.group, []).append(t)
    out: list[Report] = []
    for group in sorted(by_group):
        holes = by_group[group]
        batches = rng.random() < batch_share
        i = 0
        while i < len(holes):
            size = rng.choice((2, 3)) if batches else 1
            batch = holes[i : i + size]
            entered = batch[-1].at + timedelta(seconds=rng.uniform(0, lag.total_seconds()))
            for k, t in enumerate(batch):
                out.append(Report(t.group, t.hole, t.at, entered + k * BATCH_STEP))
            i += size
    return sorted(out, key=lambda r: r.at)


@dataclass(frozen=True)
class Scorers:
    """How a club's scorers report their holes (issue 46): the delay model of a round with no
    marshal, as the committee's trials found it.

    Most holes are entered ``lag`` (low, high) after holing out, a share ``late_share`` up to
    ``late`` after; a share ``batch_share`` of the groups enter two or three holes at a time;
    any scorer now and then enters two holes at once (``pair_share`` of the holes) or forgets a
    hole altogether (``forgotten_share``); ``silent`` groups never report; one phone's clock is
    ``slow_clock`` behind (the server corrects it to within ``clock_residual``, docs/protocol.md
    "Device clocks"); ``offline`` phones lose the signal for ``offline_for`` once in the round,
    their reports kept on the phone and sent, with their own instants, when it comes back.
    """

    lag: tuple[float, float] = (0.3, 3.0)
    late_share: float = 0.08
    late: float = 6.0
    batch_share: float = 0.2
    pair_share: float = 0.04
    forgotten_share: float = 0.02
    silent: int = 1
    slow_clock: timedelta = timedelta(minutes=3)
    clock_residual: timedelta = timedelta(seconds=5)
    offline: int = 2
    offline_for: timedelta = timedelta(minutes=40)


@dataclass(frozen=True)
class Sent:
    """A scorer's report as the server gets it: ``report`` (its instant, clock-corrected) and
    when it reaches the server (``arrives``: later than its instant when the phone was
    offline)."""

    report: Report
    arrives: datetime


def scorer_reports(
    taps: Sequence[Tap], rng: random.Random, model: Scorers = Scorers()
) -> list[Sent]:
    """Return what the scorers of ``taps`` (the true completions) report, as ``model`` says,
    in the order the server receives them."""
    by_group: dict[str, list[Tap]] = {}
    for t in sorted(taps, key=lambda t: t.at):
        by_group.setdefault(t.group, []).append(t)
    groups = sorted(by_group)
    others = list(groups)
    rng.shuffle(others)
    silent = set(others[: model.silent])
    slow = others[model.silent] if len(others) > model.silent else None
    offline = set(others[model.silent + 1 : model.silent + 1 + model.offline])
    out: list[Sent] = []
    for group in groups:
        if group in silent:
            continue
        holes = by_group[group]
        batches = rng.random() < model.batch_share
        residual = model.clock_residual.total_seconds()
        skew = timedelta(seconds=rng.uniform(-residual, residual)) if group == slow else ZERO
        cut_from = cut_to = None
        if group in offline:
            first, last = holes[0].at, holes[-1].at
            cut_from = first + (last - first) * rng.uniform(0.2, 0.6)
            cut_to = cut_from + model.offline_for
        i = 0
        while i < len(holes):
            if batches:
                size = rng.choice((2, 3))
            else:
                size = 2 if rng.random() < model.pair_share else 1
            batch = holes[i : i + size]
            i += size
            high = model.late if rng.random() < model.late_share else model.lag[1]
            entered = batch[-1].at + timedelta(minutes=rng.uniform(model.lag[0], high))
            for k, t in enumerate(batch):
                if len(batch) == 1 and rng.random() < model.forgotten_share:
                    continue
                at = entered + k * BATCH_STEP + skew
                arrives = at
                if cut_from is not None and cut_to is not None and cut_from <= at < cut_to:
                    arrives = cut_to + timedelta(seconds=rng.uniform(5, 60))
                out.append(Sent(Report(t.group, t.hole, t.at, at), arrives))
    return sorted(out, key=lambda s: (s.arrives, s.report.at))

"""A course's history generated from a known truth (issue 30): the test bed of the calibration.

Each hole is given its own speed (its true play time for a 4-ball, a 3-ball and a 2-ball
taking ``size_factor`` of it) and its own noise; each group its own pace (a factor on every
hole it plays). The rounds are played with a starter's interval, optionally with a stop of
play, time credits, missed taps and taps logged out of order, so a test can check that the
calibration recovers the truth's shares through the noise the log really has. Pure and
seeded: the same arguments give the same history.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from pace.rules import allotted
from pace.rules.events import Event
from pace.rules.model import (
    Course,
    Group,
    Hole,
    HoleCompletion,
    Player,
    RoundFacts,
    RoundSetup,
    Suspension,
    TimeCredit,
)
from pace.store import Store

#: a par-72 card: four par 3s and four par 5s
PARS = (4, 4, 3, 5, 4, 4, 3, 5, 4, 4, 5, 3, 4, 4, 5, 4, 3, 4)


@dataclass(frozen=True)
class Truth:
    """The course's true speeds: ``minutes[hole]`` is a 4-ball's median play time on it,
    ``noise[hole]`` the spread of a group's time there (the sigma of its logarithm), ``walk``
    the minutes of walk before each hole (timed with it), ``size_factor`` what a group of 2
    or 3 takes of a 4-ball's time, ``group_noise`` the sigma of a group's own pace."""

    minutes: Mapping[int, float]
    noise: Mapping[int, float]
    walk: Mapping[int, float] = field(default_factory=dict)
    size_factor: Mapping[int, float] = field(default_factory=lambda: {2: 0.8, 3: 0.9, 4: 1.0})
    group_noise: float = 0.06

    def play(self, hole: int, size: int) -> timedelta:
        """Return the true median play time of ``hole`` for a group of ``size``."""
        return timedelta(minutes=self.minutes[hole] * self.size_factor[size])

    def shares(self, size: int) -> dict[int, float]:
        """Return each hole's true share of the round's play time for a group of ``size``."""
        total = sum(self.minutes.values())
        return {h: m / total for h, m in self.minutes.items()}


def default_truth(seed: int = 7) -> Truth:
    """Return a truth on the par-72 card: par 3s quick, par 5s slow, every hole its own."""
    rng = random.Random(seed)
    base = {3: 11.0, 4: 14.5, 5: 17.5}
    minutes = {n: base[p] + rng.uniform(-2.0, 2.0) for n, p in enumerate(PARS, 1)}
    noise = {n: rng.uniform(0.08, 0.2) for n in minutes}
    walk = {n: (3.0 if n == 10 else 0.0) for n in minutes}
    return Truth(minutes, noise, walk)


def course_for(truth: Truth, name: str = "Generated") -> Course:
    """Return the course the truth is played on (the default allotments: the split by par)."""
    walk = {n: timedelta(minutes=truth.walk.get(n, 0.0)) for n in truth.minutes}
    return Course(
        name, tuple(Hole(n, PARS[(n - 1) % len(PARS)], walk=walk[n]) for n in sorted(walk))
    )


@dataclass(frozen=True)
class Mess:
    """What the log gets wrong, as probabilities per tap (``missed``, ``swapped``) and per round
    (``siren``: a stop of play; ``credit``: a group granted time after a long ruling)."""

    missed: float = 0.0
    swapped: float = 0.0
    siren: float = 0.0
    credit: float = 0.0


def play_round(
    truth: Truth,
    course: Course,
    day: datetime,
    rng: random.Random,
    *,
    sizes: Sequence[int] = (2, 3, 4),
    groups: int = 15,
    interval: timedelta = timedelta(minutes=10),
    mess: Mess = Mess(),
) -> tuple[RoundSetup, RoundFacts]:
    """Return one round played from tee 1 by ``groups`` groups, each of a size drawn from
    ``sizes``, and its log as facts (with the mess asked for)."""
    stops: list[Suspension] = []
    if rng.random() < mess.siren:
        at = day + timedelta(minutes=rng.uniform(60, 180))
        stops.append(Suspension(at, at + timedelta(minutes=rng.uniform(20, 45)), "suspension"))
    out_groups: list[Group] = []
    completions: list[HoleCompletion] = []
    credits: list[TimeCredit] = []
    for i in range(groups):
        size = sizes[rng.randrange(len(sizes))]
        start = day + i * interval
        g = Group(f"{i + 1}", start, 1, tuple(Player(f"P{i + 1}.{j}") for j in range(size)))
        out_groups.append(g)
        pace = math.exp(rng.gauss(0.0, truth.group_noise))
        t = start
        order = allotted.playing_order(course, 1)
        credited = rng.random() < mess.credit
        ruling = rng.randrange(1, len(order)) if credited else -1
        for k, hole in enumerate(order):
            taken = truth.play(hole, size) * pace * math.exp(rng.gauss(0.0, truth.noise[hole]))
            if k:
                taken += timedelta(minutes=truth.walk.get(hole, 0.0))
            if k == ruling:
                # a long ruling: the referees give the time back (docs/rules.md §5)
                lost = timedelta(minutes=rng.uniform(8, 15))
                taken += lost
                credits.append(TimeCredit(g.id, t + taken / 2, lost, "ruling"))
            end = t + taken
            for s in stops:
                if t <= s.start < end and s.end is not None:
                    end += s.end - s.start
            t = _second(end)
            completions.append(HoleCompletion(g.id, hole, t))
    completions = _mess_taps(completions, rng, mess)
    setup = RoundSetup(course, tuple(out_groups))
    return setup, RoundFacts(
        tuple(sorted(completions, key=lambda c: c.at)), tuple(stops), tuple(credits)
    )


def _second(t: datetime) -> datetime:
    return t.replace(microsecond=0)


def _mess_taps(taps: list[HoleCompletion], rng: random.Random, mess: Mess) -> list[HoleCompletion]:
    out: list[HoleCompletion] = []
    for c in taps:
        if rng.random() < mess.missed:
            continue
        if out and out[-1].group == c.group and rng.random() < mess.swapped:
            # the marshal's phone logged the later hole a little before the earlier one
            prev = out[-1]
            out[-1] = HoleCompletion(prev.group, prev.hole, c.at)
            out.append(HoleCompletion(c.group, c.hole, prev.at))
            continue
        out.append(c)
    return out


def generate(
    truth: Truth,
    rounds: int,
    seed: int,
    *,
    course: Course | None = None,
    groups: int = 15,
    sizes: Sequence[int] = (2, 3, 4),
    mess: Mess = Mess(),
    first_day: datetime = datetime(2026, 5, 2, 7, 30, tzinfo=UTC),
    prefix: str = "R",
) -> list[tuple[str, RoundSetup, RoundFacts]]:
    """Return ``rounds`` rounds on the truth's course, one a week, named ``R1``, ``R2`` …
    (``prefix`` and the number)."""
    course = course or course_for(truth)
    rng = random.Random(seed)
    out = []
    for r in range(rounds):
        day = first_day + timedelta(days=7 * r)
        setup, facts = play_round(truth, course, day, rng, sizes=sizes, groups=groups, mess=mess)
        out.append((f"{prefix}{r + 1}", setup, facts))
    return out


def events_of(name: str, facts: RoundFacts) -> list[Event]:
    """Return the round's log as the live commands would have stored it: taps, sirens, credits."""
    by = {"role": "marshal", "device": "history"}
    out: list[Event] = []
    for i, c in enumerate(facts.completions):
        out.append(
            Event(
                f"{name}-t{i}", "hole_completed", name, c.at, {"group": c.group, "hole": c.hole}, by
            )
        )
    for i, s in enumerate(facts.suspensions):
        out.append(Event(f"{name}-s{i}", "siren", name, s.start, {"kind": s.kind}, by))
        if s.end is not None:
            out.append(Event(f"{name}-r{i}", "siren", name, s.end, {"kind": "resume"}, by))
    for i, cr in enumerate(facts.credits):
        payload = {
            "group": cr.group,
            "minutes": cr.amount / timedelta(minutes=1),
            "reason": cr.reason,
        }
        out.append(Event(f"{name}-c{i}", "time_credit_granted", name, cr.at, payload, by))
    return sorted(out, key=lambda e: e.at)


def store_rounds(
    store: Store, rounds: Sequence[tuple[str, RoundSetup, RoundFacts]], timezone: str = "UTC"
) -> None:
    """Store the generated ``rounds`` (their course saved first): draws, then their logs."""
    store.save_course(rounds[0][1].course)
    for name, setup, facts in rounds:
        day = setup.groups[0].start.date()
        store.create_round(name, course=setup.course.name, day=day, timezone=timezone)
        store.save_draw(name, setup.groups)
        last = max(c.at for c in facts.completions)
        done = Event(f"{name}-end", "round_finished", name, last, {}, {"role": "committee"})
        store.append_many([*events_of(name, facts), done], recorded_at=last)

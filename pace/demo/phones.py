"""Phones walking a generated round (issue 48): where each group is at every instant of its
true round, and what its phone sends, with the noise of real phones.

From the true completions of :func:`pace.demo.play.play_round` and the course's map, a group
walks from the previous green to the tee, waits, plays along the hole's line (a little off it,
as balls go), stays on the green until it holes out (the true completion: the flag goes back
in) and walks off to the next tee. Its phone samples that walk as :class:`Phones` says:
about every 15 s while moving, every 30 s while standing (every 15 s once the hole in play is
due, when the caller says when its holes are: the page reads it from the group's own pace),
each fix off by the phone's accuracy
(5-25 m) and now and then a wild one; gaps when the screen locks; a player walking back to the
green for a club; a second phone in some groups; one group that does not share.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pace.demo.play import Tap
from pace.rules.position import FieldPlan
from pace.rules.positions import XY, CourseShape, Sample

#: a golfer's walking pace (m/s)
WALK = 1.3


@dataclass(frozen=True)
class Phones:
    """How the groups' phones sample their walk."""

    moving: float = 15.0  # seconds between fixes while moving
    standing: float = 30.0  # while standing (the page's adaptive sampling)...
    due: float = 15.0  # ...and once the hole in play is due (static/positions.js, CADENCE)
    accuracy: tuple[float, float] = (5.0, 25.0)
    wild_share: float = 0.02
    gaps: int = 2  # screen-locked spells a group, each 1-6 minutes
    long_gap_groups: int = 1  # groups with one 20-minute gap
    walk_back_share: float = 0.06  # holes after which a player walks back for a club
    second_phone_share: float = 0.2
    not_sharing: int = 1


@dataclass(frozen=True)
class Walk:
    """One group's true path: pieces (from, to, start xy, end xy, moving)."""

    pieces: tuple[tuple[datetime, datetime, XY, XY, bool], ...]

    def at(self, t: datetime) -> tuple[XY, bool]:
        """Return where the group is at ``t`` and whether it is moving."""
        for a, b, p, q, moving in self.pieces:
            if a <= t <= b:
                span = (b - a).total_seconds()
                f = 0.0 if span <= 0 else (t - a).total_seconds() / span
                return (p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1])), moving
        last = self.pieces[-1]
        return last[3], False


def _towards(p: XY, q: XY, metres: float) -> XY:
    d = math.hypot(q[0] - p[0], q[1] - p[1])
    if d == 0:
        return p
    f = min(1.0, metres / d)
    return (p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1]))


def _point(line: Sequence[XY], cum: Sequence[float], f: float, off: float) -> XY:
    """Return the point a share ``f`` along ``line`` (``cum``: metres to each vertex), ``off``
    metres to its left."""
    s = f * (cum[-1] or 1.0)
    for i in range(len(line) - 1):
        if cum[i + 1] >= s or i == len(line) - 2:
            a, b = line[i], line[i + 1]
            seg = (cum[i + 1] - cum[i]) or 1.0
            g = (s - cum[i]) / seg
            x, y = a[0] + g * (b[0] - a[0]), a[1] + g * (b[1] - a[1])
            nx, ny = -(b[1] - a[1]) / seg, (b[0] - a[0]) / seg
            return (x + off * nx, y + off * ny)
    return line[-1]


def walk(
    shape: CourseShape,
    order: Sequence[int],
    start: datetime,
    done: Mapping[int, datetime],
    rng: random.Random,
    walk_back: float = 0.0,
) -> Walk:
    """Return the true path of a group that started at ``start`` and completed each hole of
    ``order`` at ``done[hole]``."""
    pieces: list[tuple[datetime, datetime, XY, XY, bool]] = []
    first = shape.holes[order[0]]
    here = (first.tee[0] - 40, first.tee[1] - 30)  # from the clubhouse side
    t = start - timedelta(minutes=2)
    for k, n in enumerate(order):
        h = shape.holes[n]
        end = done.get(n)
        if end is None:
            break
        span = (end - t).total_seconds()
        # the walk to the tee
        w = min(math.hypot(h.tee[0] - here[0], h.tee[1] - here[1]) / WALK, 0.3 * span)
        t1 = t + timedelta(seconds=w)
        pieces.append((t, t1, here, h.tee, True))
        # on the tee until it plays
        green_time = min(rng.uniform(150, 300), 0.35 * span)
        tee_time = min(rng.uniform(30, 120), 0.15 * span)
        t2 = t1 + timedelta(seconds=tee_time)
        pieces.append((t1, t2, h.tee, h.tee, False))
        # along the hole to the green's edge, a little off the line, stopping at each shot
        t3 = end - timedelta(seconds=green_time)
        front = _towards(h.green, h.tee, h.green_r * 0.7)
        line = [*h.line[:-1], front]
        legs = max(2, round(h.length / 130))
        cum = [0.0]
        for a, b in zip(line, line[1:], strict=False):
            cum.append(cum[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))

        prev = h.tee
        leg_t = (t3 - t2) / legs
        for i in range(1, legs + 1):
            off = 0.0 if i == legs else rng.uniform(-18, 18)
            q = _point(line, cum, i / legs, off)
            a = t2 + leg_t * (i - 1)
            b = a + leg_t * 0.6
            pieces.append((a, b, prev, q, True))
            pieces.append((b, a + leg_t, q, q, False))
            prev = q
        # on the green until the flag goes back in
        spot = (h.green[0] + rng.uniform(-0.5, 0.5) * h.green_r,
                h.green[1] + rng.uniform(-0.5, 0.5) * h.green_r)  # fmt: skip
        pieces.append((t3, t3 + timedelta(seconds=20), prev, spot, True))
        pieces.append((t3 + timedelta(seconds=20), end, spot, spot, False))
        here, t = spot, end
        if k + 1 < len(order) and rng.random() < walk_back:
            # walked to the next tee, then back to the green for a club, and again
            nxt = shape.holes[order[k + 1]].tee
            d = math.hypot(nxt[0] - here[0], nxt[1] - here[1]) / WALK
            a = t + timedelta(seconds=d)
            b = a + timedelta(seconds=d)
            pieces.append((t, a, here, nxt, True))
            pieces.append((a, b, nxt, here, True))
            t = b + timedelta(seconds=15)
            pieces.append((b, t, here, here, False))
    # after the last hole: off to the clubhouse
    home = (here[0] + 150, here[1] + 120)
    pieces.append((t, t + timedelta(minutes=4), here, home, True))
    return Walk(tuple(pieces))


def samples(
    shape: CourseShape,
    path: Walk,
    rng: random.Random,
    model: Phones,
    start: datetime,
    end: datetime,
    long_gap: bool = False,
    due_at: Callable[[datetime], datetime | None] | None = None,
) -> list[Sample]:
    """Return what one phone sends of ``path`` from ``start`` to ``end``; ``due_at(t)``: when
    the group's hole in play at ``t`` is due (its own pace tells the page: a fix every
    ``model.due`` seconds once it is, standing too; the page looks every second, so a phone
    standing when the instant passes keeps its next fix ``model.due`` after its last)."""
    gaps: list[tuple[datetime, datetime]] = []
    span = (end - start).total_seconds()
    for _ in range(model.gaps):
        a = start + timedelta(seconds=rng.uniform(0, span))
        gaps.append((a, a + timedelta(minutes=rng.uniform(1, 6))))
    if long_gap:
        a = start + timedelta(seconds=rng.uniform(0.2, 0.7) * span)
        gaps.append((a, a + timedelta(minutes=20)))
    base = rng.uniform(*model.accuracy)
    out: list[Sample] = []
    t = start + timedelta(seconds=rng.uniform(0, model.moving))
    while t <= end:
        p, moving = path.at(t)
        if not any(a <= t < b for a, b in gaps):
            acc = max(3.0, min(model.accuracy[1], base * rng.uniform(0.7, 1.3)))
            sd = acc / 1.5
            if rng.random() < model.wild_share:
                sd *= 5
            x, y = p[0] + rng.gauss(0, sd), p[1] + rng.gauss(0, sd)
            lon, lat = shape.frame.lonlat(x, y)
            out.append(Sample(t, lon, lat, round(acc, 1)))
        every = model.moving if moving else model.standing
        due = due_at(t) if due_at is not None else None
        if due is not None and every > model.due:
            # faster once due: ``model.due`` after this fix, or at the due instant
            every = min(every, max(model.due, (due - t).total_seconds()))
        t += timedelta(seconds=every * rng.uniform(0.9, 1.1))
    return out


def phone_traces(
    shape: CourseShape,
    orders: Mapping[str, Sequence[int]],
    starts: Mapping[str, datetime],
    taps: Sequence[Tap],
    rng: random.Random,
    model: Phones = Phones(),
    dues: Mapping[str, Mapping[int, datetime]] | None = None,
) -> dict[str, list[list[Sample]]]:
    """Return what each phone of each sharing group sends (one list a phone, each in time
    order; a second phone in some groups); groups that do not share are left out. ``dues``:
    when each group's holes are due (its start and allotted times); its phones sample faster
    while the hole in play is past it (an empty mapping: never, each phone on its own
    generator all the same, to compare)."""
    done: dict[str, dict[int, datetime]] = {}
    for t in taps:
        done.setdefault(t.group, {})[t.hole] = t.at
    groups = sorted(done)
    shuffled = list(groups)
    rng.shuffle(shuffled)
    silent = set(shuffled[: model.not_sharing])
    long_gaps = set(shuffled[model.not_sharing : model.not_sharing + model.long_gap_groups])
    out: dict[str, list[list[Sample]]] = {}
    for g in groups:
        path = walk(shape, orders[g], starts[g], done[g], rng, model.walk_back_share)
        if g in silent:
            continue
        end = max(done[g].values()) + timedelta(minutes=4)
        late = _due_at(done[g], dues.get(g, {})) if dues is not None else None
        # with ``dues``, each phone draws from a generator of its own: a phone that samples
        # faster once due does not reshuffle every other group's walk and phones
        first = rng if dues is None else random.Random(rng.random())
        phones = [samples(shape, path, first, model, starts[g] - timedelta(minutes=2), end,
                          g in long_gaps, late)]  # fmt: skip
        if rng.random() < model.second_phone_share:
            second = rng if dues is None else random.Random(rng.random())
            phones.append(samples(shape, path, second, model, starts[g] - timedelta(minutes=2),
                                  end, due_at=late))  # fmt: skip
        out[g] = phones
    return out


def dues_of(plan: FieldPlan) -> dict[str, dict[int, datetime]]:
    """Return when each group's holes are due (its start and the allotted times summed)."""
    return {p.id: {h: p.group.start + p.cumulative[p.position[h]] for h in p.order}
            for p in plan.groups}  # fmt: skip


def _due_at(
    done: Mapping[int, datetime], due: Mapping[int, datetime]
) -> Callable[[datetime], datetime | None]:
    """Return when, at an instant, the hole the group is playing (the first it completes after
    it) is due; None when it is not known."""
    played = sorted((at, due.get(h)) for h, at in done.items())
    ends = [at for at, _ in played]

    def at(t: datetime) -> datetime | None:
        i = bisect.bisect_right(ends, t)
        return played[i][1] if i < len(played) else None

    return at


def group_traces(
    shape: CourseShape,
    orders: Mapping[str, Sequence[int]],
    starts: Mapping[str, datetime],
    taps: Sequence[Tap],
    rng: random.Random,
    model: Phones = Phones(),
    dues: Mapping[str, Mapping[int, datetime]] | None = None,
) -> dict[str, list[Sample]]:
    """Return each sharing group's samples (its phones' together, in time order); groups
    that do not share are left out."""
    traces = phone_traces(shape, orders, starts, taps, rng, model, dues)
    return {g: sorted((s for phone in phones for s in phone), key=lambda s: s.at)
            for g, phones in traces.items()}  # fmt: skip


def course_shape(geometry: Mapping[str, Any]) -> CourseShape:
    """Return the shape of a stored geometry (a convenience for the bench and the demo)."""
    return CourseShape.of(geometry)

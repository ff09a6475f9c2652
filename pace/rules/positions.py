"""Where a group is, from the positions its phone sends (issue 48; docs/positions.md).

Pure functions of the course's map and a group's samples: no store, no clock. A sample is
matched to the group's **hole in play**, never to the nearest line: the hole comes from the
group's own sequence (its order of holes from its starting tee), so a double green shared by
two holes, a parallel hole 47 m away going the other way or another hole's tee beside the
green cannot take the group elsewhere.

**The model.** The map is projected on a local plane in metres (:class:`Frame`). For the hole
in play ``h`` the places where the group still plays it (**on**: a corridor of
:data:`FAIRWAY_M` either side of its line of play, from its tee to :data:`GREEN_END_M` short of
its green, and the green, a disc of the green's own radius) are set against the places it goes
once it has left the green (**off**: the walk to the next tee and the corridors of the next
:data:`LOOKAHEAD` holes; after the last hole of its order, anywhere more than
:data:`CLEAR_M` from the last green). Each sample gives a log-likelihood ratio of off against
on: a Gaussian of the distance to each region with the sample's own accuracy, mixed with an
outlier share :data:`OUTLIER` so that one wild fix weighs at most ``ln(1/OUTLIER)``. A CUSUM
over the hole's samples confirms the **completion** (the group left the green for the next
tee) once the evidence reaches :data:`THRESHOLD`: the group was on the hole at the last sample
that leaned on before the change (**earliest**) and had left by the first one that leaned off
after it (**latest**). The completion is that interval; its instant is the interval's middle.

A gap (a locked phone) is never read as a group standing still: the samples after it carry
the evidence, and a group found two holes on completes both holes in between with the gap as
their interval. A player walking back to the green for a club, once the completion is
confirmed, changes nothing: the tracker only moves forward.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

EARTH_M = 6371000.0
#: half the width of a hole's corridor (fairway and rough) either side of its line of play
FAIRWAY_M = 30.0
#: the corridor stops this far short of the green's centre (the green's own disc takes over)
GREEN_END_M = 35.0
#: a green's radius when the map gives no area (a regulation green is 500-600 m²)
GREEN_R_M = 14.0
#: a tee's radius
TEE_R_M = 8.0
#: the walk from a green to the next tee: a corridor this wide either side
WALK_M = 12.0
#: how many holes after the one in play count as "off" it (a gap may skip a hole or two)
LOOKAHEAD = 3
#: after the group's last hole, "off" is anywhere this far from its green
CLEAR_M = 45.0
#: the model's own error (the map's, a group standing beside its line), added to the fix's
MODEL_M = 6.0
#: a fix's accuracy over the standard deviation of its error along each axis, for the evidence
#: that confirms a completion: the accuracy read as the 2-D root-mean-square error (iOS), so
#: each axis' error is accuracy/sqrt(2). Android's accuracy is a 68 % radius (accuracy/1.51 an
#: axis) and the W3C's a 95 % one (accuracy/2.45): both narrower, so this is the widest reading
ACCURACY_SIGMA = math.sqrt(2)
#: the same for the fixes' lean, which sets the interval's ends: the accuracy as the error of
#: each axis (wider still), so that a fix on the green a little off does not end the interval
#: before the group left (issue 48: the sharper reading alone cost the intervals 1-2 points)
LEAN_SIGMA = 1.0
#: the share of fixes that are wild (a reflection, a cold start): one weighs at most ln(1/OUTLIER)
OUTLIER = 0.05
#: the evidence (a log-likelihood ratio) that confirms a completion: two clear fixes, or three
#: or four on a tee 20 m from the green (bench_positions: 4 took 0.5 min longer, 2.5 gained
#: nothing on the alerts)
THRESHOLD = 3.0
#: a fix leans off the hole when its ratio is above this
LEAN = 0.5
#: each fix's ratio is lowered by this before it is added up (CUSUM's reference value): a wild
#: fix alone fades away after a few fixes on the green
DRIFT = 0.5
#: the flag goes back in this long, at most, before the group walks off the green
WALK_OFF = timedelta(seconds=30)
#: a golfer walking off a green (m/s), and how many times a fix's accuracy he may have walked
#: unseen
WALK_SPEED = 1.3
NOISE_K = 3.0


@dataclass(frozen=True)
class Sample:
    """One position of a group's phone: its instant (clock-corrected), where (longitude,
    latitude) and the phone's accuracy in metres (the radius it gives)."""

    at: datetime
    lon: float
    lat: float
    accuracy: float


@dataclass(frozen=True)
class Inferred:
    """A hole completion inferred from positions: the group left the green of ``hole``
    between ``earliest`` and ``latest``; ``confirmed`` is the sample's instant that settled
    it (when the fact became known)."""

    hole: int
    earliest: datetime
    latest: datetime
    confirmed: datetime

    @property
    def at(self) -> datetime:
        """The completion's instant: the middle of its interval."""
        return self.earliest + (self.latest - self.earliest) / 2


class Frame:
    """A local plane in metres around ``origin`` (longitude, latitude): x east, y north."""

    def __init__(self, origin: tuple[float, float]) -> None:
        self.lon0, self.lat0 = origin
        self.kx = math.radians(1) * EARTH_M * math.cos(math.radians(self.lat0))
        self.ky = math.radians(1) * EARTH_M

    def xy(self, lon: float, lat: float) -> tuple[float, float]:
        """Return the point's metres east and north of the origin."""
        return ((lon - self.lon0) * self.kx, (lat - self.lat0) * self.ky)

    def lonlat(self, x: float, y: float) -> tuple[float, float]:
        """Return the longitude and latitude of a point of the plane."""
        return (self.lon0 + x / self.kx, self.lat0 + y / self.ky)


XY = tuple[float, float]


def _seg(p: XY, a: XY, b: XY) -> tuple[float, float]:
    """Return the distance from ``p`` to segment ``ab`` and how far along it (metres from a)
    its nearest point lies."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    qx, qy = a[0] + t * dx, a[1] + t * dy
    return math.hypot(p[0] - qx, p[1] - qy), t * math.sqrt(n)


def _polyline(p: XY, line: Sequence[XY]) -> tuple[float, float]:
    """Return the distance from ``p`` to ``line`` and how far along it its nearest point is."""
    best, along, done = math.inf, 0.0, 0.0
    for a, b in zip(line, line[1:], strict=False):
        d, s = _seg(p, a, b)
        if d < best:
            best, along = d, done + s
        done += math.hypot(b[0] - a[0], b[1] - a[1])
    return best, along


def _length(line: Sequence[XY]) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(line, line[1:], strict=False))


def _cut(line: Sequence[XY], keep: float) -> list[XY]:
    """Return the first ``keep`` metres of ``line`` (at least its first point)."""
    out = [line[0]]
    done = 0.0
    for a, b in zip(line, line[1:], strict=False):
        d = math.hypot(b[0] - a[0], b[1] - a[1])
        if done + d >= keep:
            t = 0.0 if d == 0 else (keep - done) / d
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
            return out
        out.append(b)
        done += d
    return out


@dataclass(frozen=True)
class HoleShape:
    """One hole on the plane: its line of play (tee to green centre), its tee, its green's
    centre and radius, and its length along the line."""

    number: int
    line: tuple[XY, ...]
    tee: XY
    green: XY
    green_r: float
    length: float
    fairway: tuple[XY, ...]

    def to_green(self, p: XY) -> float:
        """Return the metres left to the green along the line of play from ``p``."""
        _, along = _polyline(p, self.line)
        return max(0.0, self.length - along)


@dataclass(frozen=True)
class CourseShape:
    """A course's holes on a local plane (:meth:`of` a stored geometry), and its box."""

    frame: Frame
    holes: Mapping[int, HoleShape]
    box: tuple[float, float, float, float]  # min x, min y, max x, max y (metres)

    @classmethod
    def of(cls, geometry: Mapping[str, Any]) -> CourseShape:
        """Return the shape of a stored geometry (``{holes: [{number, line, tee, green,
        green_area}]}``, points as [lon, lat])."""
        raw = list(geometry["holes"])
        pts = [p for h in raw for p in h["line"]]
        origin = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        frame = Frame(origin)
        holes: dict[int, HoleShape] = {}
        for h in raw:
            line = [frame.xy(*p) for p in h["line"]]
            green = frame.xy(*(h.get("green") or h["line"][-1]))
            tee = frame.xy(*(h.get("tee") or h["line"][0]))
            line = [tee, *line[1:-1], green] if len(line) >= 2 else [tee, green]
            area = h.get("green_area")
            r = GREEN_R_M
            if area:
                ring = [frame.xy(*p) for p in area]
                r = max(8.0, min(30.0, sum(math.hypot(x - green[0], y - green[1])
                                           for x, y in ring) / len(ring)))  # fmt: skip
            length = _length(line)
            fairway = tuple(_cut(line, max(0.0, length - GREEN_END_M)))
            holes[int(h["number"])] = HoleShape(
                int(h["number"]), tuple(line), tee, green, r, length, fairway
            )
        xs = [x for s in holes.values() for x, _ in s.line]
        ys = [y for s in holes.values() for _, y in s.line]
        return cls(frame, holes, (min(xs), min(ys), max(xs), max(ys)))

    def inside(self, lon: float, lat: float, margin: float) -> bool:
        """Return whether a position lies within the course's box and ``margin`` metres."""
        x, y = self.frame.xy(lon, lat)
        x0, y0, x1, y1 = self.box
        return x0 - margin <= x <= x1 + margin and y0 - margin <= y <= y1 + margin


def _log_like(d: float, sigma: float) -> float:
    """Return the log-likelihood of a fix ``d`` metres outside a region, an outlier share
    mixed in (the region itself: 0 metres, likelihood 1)."""
    return math.log((1 - OUTLIER) * math.exp(-(d * d) / (2 * sigma * sigma)) + OUTLIER)


class _Hole:
    """The regions of one hole in play of a group's order: on it, and off it."""

    def __init__(self, shape: CourseShape, order: Sequence[int], k: int) -> None:
        h = shape.holes[order[k]]
        self.shape = h
        self.last = k + 1 >= len(order)
        after = [shape.holes[n] for n in order[k + 1 : k + 1 + LOOKAHEAD] if n in shape.holes]
        self.walks: list[tuple[XY, XY]] = []
        self.next: list[HoleShape] = after
        prev = h
        for n in after:
            # the walk starts at the green's edge towards the tee: the green itself is no
            # evidence of having left it
            d = math.hypot(n.tee[0] - prev.green[0], n.tee[1] - prev.green[1])
            f = 0.0 if d == 0 else min(1.0, prev.green_r / d)
            edge = (prev.green[0] + f * (n.tee[0] - prev.green[0]),
                    prev.green[1] + f * (n.tee[1] - prev.green[1]))  # fmt: skip
            self.walks.append((edge, n.tee))
            prev = n

    def green_side(self, p: XY) -> bool:
        """Return whether a fix at ``p`` lies nearer the green than the next tee (after the
        last hole: within half of :data:`CLEAR_M` of the green's edge)."""
        h = self.shape
        d = math.hypot(p[0] - h.green[0], p[1] - h.green[1]) - h.green_r
        if self.last or not self.next:
            return d < CLEAR_M / 2
        t = self.next[0].tee
        return d < math.hypot(p[0] - t[0], p[1] - t[1]) - TEE_R_M

    def near_green(self, p: XY, accuracy: float) -> bool:
        """Return whether a fix at ``p`` may have been taken on the green."""
        h = self.shape
        return math.hypot(p[0] - h.green[0], p[1] - h.green[1]) <= h.green_r + max(accuracy, 3.0)

    def ratio(
        self, p: XY, accuracy: float, reached: bool = False, per: float = ACCURACY_SIGMA
    ) -> float:
        """Return the log-likelihood ratio of off the hole against on it for a fix at ``p``,
        its error along each axis ``accuracy / per`` (and the model's)."""
        sigma = math.hypot(max(accuracy, 3.0) / per, MODEL_M)
        h = self.shape
        d_green = max(0.0, math.hypot(p[0] - h.green[0], p[1] - h.green[1]) - h.green_r)
        d_fair = max(0.0, _polyline(p, h.fairway)[0] - FAIRWAY_M) if len(h.fairway) > 1 else d_green
        on = _log_like(min(d_green, d_fair), sigma)
        if self.last:
            # off: clear of the green (the car park, the clubhouse); until the group has been
            # seen near the green, clear of the hole's corridor too (a ball off the fairway)
            d_off = max(0.0, CLEAR_M - math.hypot(p[0] - h.green[0], p[1] - h.green[1]))
            if not reached:
                d_off = max(d_off, FAIRWAY_M + WALK_M - _polyline(p, h.line)[0])
        else:
            d_off = math.inf
            for a, b in self.walks[:1]:
                # the walk starts at the green's edge: on the green itself it is no evidence
                d_off = min(d_off, max(0.0, _seg(p, a, b)[0] - WALK_M))
            for n in self.next:
                d_off = min(d_off, max(0.0, _polyline(p, n.line)[0] - FAIRWAY_M))
        return _log_like(d_off, sigma) - on


@dataclass
class Tracker:
    """One group's completions inferred from its samples, hole after hole of its ``order``.

    :meth:`feed` takes samples (any order; those older than the last completion inferred are
    left out) and returns the completions they confirm. ``k`` is the index in ``order`` of the
    hole in play. Fixes arriving in time order cost one ratio each (the evidence is carried
    from one feed to the next); one arriving out of order (a phone's queue replayed) has the
    hole's evidence added up again."""

    shape: CourseShape
    order: tuple[int, ...]
    k: int = 0
    #: the samples since the last completion confirmed, in time order: (instant, xy, accuracy)
    pending: list[tuple[datetime, XY, float]] = field(default_factory=list)
    #: the instant of the last fix on the hole before the last completion (older: left out)
    since: datetime | None = None
    _holes: dict[int, _Hole] = field(default_factory=dict)
    # the evidence on the hole in play, added up to ``_scanned`` pending samples
    _ratios: list[float] = field(default_factory=list)
    # the same fixes' ratios read with LEAN_SIGMA: which of them lean off (the interval's ends)
    _leans: list[float] = field(default_factory=list)
    _sum: float = 0.0
    _zero: int = -1
    _reached: bool = False

    def on_hole(self, s: Sample) -> bool:
        """Return whether fix ``s`` is clearly on the hole in play (its evidence leans on
        it, read as the interval's ends are: ``LEAN_SIGMA``): the group was still playing
        the hole at ``s.at``, so it completes it later (issue 48, docs/positions.md "Still
        on the hole")."""
        if self.k >= len(self.order) or (self.since is not None and s.at <= self.since):
            return False  # all played, or older than the last completion: another hole's
        p = self.shape.frame.xy(s.lon, s.lat)
        return self._hole(self.k).ratio(p, s.accuracy, True, LEAN_SIGMA) < 0

    def _hole(self, k: int) -> _Hole:
        if k not in self._holes:
            self._holes[k] = _Hole(self.shape, self.order, k)
        return self._holes[k]

    def _restart(self) -> None:
        self._ratios, self._leans = [], []
        self._sum, self._zero, self._reached = 0.0, -1, False

    def feed(self, samples: Sequence[Sample]) -> list[Inferred]:
        """Add ``samples``; return the completions they confirm, in order."""
        added = False
        for s in samples:
            if self.since is not None and s.at <= self.since:
                continue  # older than the last completion: it changes nothing
            entry = (s.at, self.shape.frame.xy(s.lon, s.lat), s.accuracy)
            if self.pending and s.at < self.pending[-1][0]:
                self.pending.append(entry)
                self.pending.sort(key=lambda x: x[0])
                self._restart()
            else:
                self.pending.append(entry)
            added = True
        out: list[Inferred] = []
        while added and self.k < len(self.order):
            found = self._detect()
            if found is None:
                break
            out.append(found)
        return out

    def _detect(self) -> Inferred | None:
        """Return the completion of the hole in play the pending samples confirm, if any, and
        move on to the next hole with the samples after it (a CUSUM of the fixes' ratios,
        each lowered by :data:`DRIFT`)."""
        hole = self._hole(self.k)
        ratios = self._ratios
        for i in range(len(ratios), len(self.pending)):
            _, p, acc = self.pending[i]
            self._reached = self._reached or hole.near_green(p, acc)
            r = hole.ratio(p, acc, self._reached, ACCURACY_SIGMA)
            ratios.append(r)
            if LEAN_SIGMA == ACCURACY_SIGMA:
                self._leans.append(r)
            else:
                self._leans.append(hole.ratio(p, acc, self._reached, LEAN_SIGMA))
            self._sum = max(0.0, self._sum + r - DRIFT)
            if self._sum == 0.0:
                self._zero = i
            if self._sum >= THRESHOLD:
                return self._confirm(self._zero, i, self._leans)
        return None

    def _confirm(self, zero: int, at: int, ratios: list[float]) -> Inferred:
        """The hole in play is complete: the change lies after sample ``zero`` (the last with
        no evidence of it) and is confirmed at sample ``at``; ``ratios`` are the samples'
        leans (read with :data:`LEAN_SIGMA`)."""
        pending = self.pending
        # the group had left the green by the first fix leaning off after the evidence last
        # stood at nothing...
        off = next((i for i in range(zero + 1, at + 1) if ratios[i] >= LEAN), at)
        # ...and was still on the green at the last fix on the green's side (nearer it than
        # the next tee) before it first walked off it: a player who walks back to the green
        # for a club once the group has left does not move the instant it left
        hole = self._hole(self.k)
        first_off = off
        seen_green = False
        for i in range(off + 1):
            _, p, acc = pending[i]
            seen_green = seen_green or hole.near_green(p, acc)
            if seen_green and ratios[i] >= LEAN:
                first_off = i
                break
        on = next((i for i in range(first_off - 1, -1, -1) if hole.green_side(pending[i][1])),
                  None)  # fmt: skip
        if on is not None:
            # that fix may be off by its accuracy, NOISE_K times: the group may have walked
            # that far from the green already, and the flag went in WALK_OFF before it left
            earliest = (
                pending[on][0]
                - WALK_OFF
                - timedelta(seconds=NOISE_K * max(pending[on][2], 3.0) / WALK_SPEED)
            )
        else:
            earliest = self.since if self.since is not None else pending[0][0] - WALK_OFF
        latest = pending[off][0]
        done = Inferred(self.order[self.k], min(earliest, latest), latest, pending[at][0])
        self.k += 1
        # the next hole's evidence starts at the first fix off this one
        self.pending = pending[off:]
        if on is not None:
            self.since = pending[on][0]
        self._restart()
        return done

    def forget_before(self, cutoff: datetime) -> int:
        """Drop the pending samples older than ``cutoff`` (the bound on how long a position
        is held: docs/privacy.md) and return how many; the hole's evidence is added up again
        from those left."""
        n = 0
        while n < len(self.pending) and self.pending[n][0] < cutoff:
            n += 1
        if n:
            self.pending = self.pending[n:]
            self._restart()
        return n


def tracker(geometry: Mapping[str, Any], order: Sequence[int], done: int = 0) -> Tracker:
    """Return a tracker of a group playing ``order`` on the course of ``geometry``, ``done``
    holes of it already completed."""
    return Tracker(CourseShape.of(geometry), tuple(order), done)


#: fixes less accurate than this are discarded (a phone indoors, a cold start)
MAX_ACCURACY_M = 50.0
#: faster than a buggy between two fixes is no walk on a course (m/s)
MAX_SPEED = 12.0
#: the course's box and this margin: the first tee and the clubhouse often lie at its edge
BOX_MARGIN_M = 300.0


def screen(shape: CourseShape, s: Sample, before: Sample | None) -> str | None:
    """Return why a sample is discarded (``outside``, ``inaccurate``, ``too_fast``), or None
    when it is kept. ``before`` is the group's last kept sample."""
    if not (math.isfinite(s.lon) and math.isfinite(s.lat) and math.isfinite(s.accuracy)):
        return "outside"
    if not shape.inside(s.lon, s.lat, BOX_MARGIN_M):
        return "outside"
    if s.accuracy > MAX_ACCURACY_M or s.accuracy < 0:
        return "inaccurate"
    if before is not None:
        dt = (s.at - before.at).total_seconds()
        a, b = shape.frame.xy(s.lon, s.lat), shape.frame.xy(before.lon, before.lat)
        moved = math.hypot(a[0] - b[0], a[1] - b[1]) - s.accuracy - before.accuracy
        if dt > 0 and moved > MAX_SPEED * dt:
            return "too_fast"
    return None


__all__ = [
    "CourseShape", "Frame", "HoleShape", "Inferred", "Sample", "Tracker", "screen", "tracker",
]  # fmt: skip

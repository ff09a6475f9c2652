"""Measure how the live loop's costs grow with the round's log (issue 13).

Builds a round of 52 three-balls (tee 1 every 8 minutes from 08:00, course Louiseville) in a
real SQLite file (``synchronous=FULL``, as ``pace serve``), fills its log to 500, 5,000 and
20,000 events, and times, in this process, what the server does:

- **tap**: a marshal's ``hole_completed`` as the web handler runs it (validate, append and
  commit, then what the pages are sent: the rows, alerts and penalties that changed);
- **quiet tick**: the scheduler's tick a few seconds after the last one, nothing new logged
  (the referees' announcements included);
- **busy tick**: the tick three minutes later, groups' statuses moving with the clock;
- **snapshot**: what ``join_round`` answers (and its size).

The log is what a long round leaves: every completion up to 12:30 (a few slow groups), the
alerts the ticks raised, and, to reach the larger sizes, the referees' work on the slow groups
(decisions, players told, thousands of timed strokes, notifications), a few corrections, voids,
time credits and a siren's stop and resumption. Separately, a field of 500 groups (tees 1 and
10) mid-round is evaluated at once (every group's status), as a busy tick must.

Targets (issue 13): a quiet tick ≤ 1 ms and a tap ≤ 5 ms whatever the log size (median);
500 groups evaluated ≤ 20 ms. Each figure is the median of ``--runs`` samples (p90 in
brackets); the machine's load is printed with them.

    python bench/bench_growth.py
    python bench/bench_growth.py --sizes 500 5000 --runs 30
    python bench/bench_growth.py --profile tap --sizes 20000   # cProfile one measure
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pace import config  # noqa: E402
from pace.clock import FakeClock  # noqa: E402
from pace.rules.events import Event  # noqa: E402
from pace.services import commands as cmd  # noqa: E402
from pace.services.live import LiveService  # noqa: E402
from pace.services.referee_feed import RefereeFeed  # noqa: E402
from pace.services.reports import HoldUpPanel  # noqa: E402
from pace.services.rounds import RoundService  # noqa: E402
from pace.services.taps import TapService  # noqa: E402
from pace.store import Store, open_store  # noqa: E402

ROUND = "GROWTH"
TZ = ZoneInfo("Europe/Brussels")
DAY = date(2026, 6, 14)
COURSE = ROOT / "tests" / "data" / "formats" / "course_louiseville.toml"
#: what a three-ball takes per hole here (pace's default split by par: 11, 14, 17 min)
ALLOT = {3: 11, 4: 14, 5: 17}
NOW = datetime.combine(DAY, clock_time(12, 30), tzinfo=TZ).astimezone(UTC)
TARGETS_MS = {"tap": 5.0, "quiet tick": 1.0}
FIELD_TARGET_MS = 20.0
BY = {"role": "marshal", "device": "bench"}


def local(hh: int, mm: int) -> datetime:
    return datetime.combine(DAY, clock_time(hh, mm), tzinfo=TZ).astimezone(UTC)


def write_draw(path: Path, groups: int, tees: tuple[int, ...] = (1,), step: int = 8) -> None:
    """Write a draw of ``groups`` three-balls, tees in turn, every ``step`` minutes from 08:00."""
    lines = ["group,start,tee,player"]
    for g in range(groups):
        tee = tees[g % len(tees)]
        slot = g // len(tees)
        start = datetime(2000, 1, 1, 8, 0) + timedelta(minutes=step * slot)
        for p in range(3):
            lines.append(f"{g + 1},{start:%H:%M},{tee},Player {g + 1}-{p + 1}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@dataclass
class Live:
    """The live services as ``create_app`` wires them, over one store and a fake clock."""

    store: Store
    service: RoundService
    live: LiveService
    taps: TapService
    clock: FakeClock

    @classmethod
    def open(cls, folder: Path, groups: int, tees: tuple[int, ...] = (1,)) -> Live:
        settings = config.Settings().replace(database={"path": str(folder / "pace.db")})
        store = open_store(folder / "pace.db", synchronous="FULL")
        clock = FakeClock(NOW)
        service = RoundService(store, settings, clock)
        service.import_course(COURSE.read_text(encoding="utf-8"), str(COURSE))
        draw = folder / "draw.csv"
        write_draw(draw, groups, tees)
        service.import_draw(
            draw.read_text(encoding="utf-8"), str(draw), round=ROUND, day=DAY,
            timezone="Europe/Brussels",
        )  # fmt: skip
        live = LiveService(service)
        RefereeFeed(live)
        HoldUpPanel(live)
        return cls(store, service, live, TapService(live), clock)

    # -- what the web layer and the scheduler call ---------------------------------------

    def tap(self, group: str, hole: int, at: datetime) -> None:
        """A marshal's tap as the handler runs it: the command, then what the pages get."""
        command = cmd.LogHoleCompleted(
            str(uuid.uuid4()), ROUND, group, hole, cmd.DeviceTime(at), cmd.Author("marshal", "b")
        )
        outcome = self.taps.log_hole_completed(command)
        assert outcome.created
        self.live.changes(ROUND)  # the round's feed (issue 13): rows, alerts, penalties

    def tick(self) -> None:
        """The scheduler's job: the slow parts read again, then the tick (the field at now,
        new alerts, then the penalties changed)."""
        self.live.refresh(ROUND)
        self.live.tick(ROUND)

    def snapshot(self) -> dict:
        return self.live.snapshot(ROUND)

    def field(self) -> object:
        return self.live.field(ROUND)


# -- the log -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Completion:
    group: str
    hole: int
    at: datetime


def plan_completions(live: Live, seed: int) -> list[Completion]:
    """Return every group's completions, a few groups slow, in time order (the whole round)."""
    rng = random.Random(seed)
    view = live.service.round_view(ROUND)
    course = view.record.course
    out = []
    for p in view.plan.groups:
        slow = int(p.id) % 7 == 3
        at = p.group.start
        for hole in p.order:
            minutes = ALLOT[course.hole(hole).par] + (rng.choice((1, 2, 3)) if slow else 0)
            at += timedelta(minutes=minutes, seconds=rng.randint(-40, 40))
            out.append(Completion(p.id, hole, at))
    return sorted(out, key=lambda c: c.at)


def event(type: str, at: datetime, payload: dict, by: dict = BY) -> Event:
    return Event(str(uuid.uuid4()), type, ROUND, at, payload, by)


def fill(live: Live, size: int, seed: int = 7) -> tuple[list[Completion], int]:
    """Fill the round's log up to ``size`` events as a long round would; return what is left.

    The completions up to ``NOW``, ticked every 5 minutes (the alerts they raise are logged),
    then the referees' work on the slow groups until the log holds ``size`` events.
    """
    rng = random.Random(seed)
    planned = plan_completions(live, seed)
    done = [c for c in planned if c.at <= NOW - timedelta(minutes=2)]
    later = [c for c in planned if c.at > NOW - timedelta(minutes=2)]
    events: list[Event] = []
    taps: dict[tuple[str, int], Event] = {}
    for c in done:
        e = event("hole_completed", c.at, {"group": c.group, "hole": c.hole})
        taps[(c.group, c.hole)] = e
        events.append(e)
    live.store.append_many(events, recorded_at=NOW)
    # the scheduler's ticks over the morning raise the alerts
    t = local(8, 0)
    while t < NOW and live.store.count_events(ROUND) < size:
        live.clock.set(t)
        live.live.tick(ROUND)
        t += timedelta(minutes=5)
    live.clock.set(NOW)
    view = live.service.round_view(ROUND)
    # the slow groups out long enough for a spell of timing to lie wholly before now
    slow = [
        p for p in view.plan.groups
        if int(p.id) % 7 == 3 and p.group.start < NOW - timedelta(minutes=80)
    ]  # fmt: skip
    extra: list[Event] = []
    referee = {"role": "referee", "device": "bench-referee"}
    # a few corrections, voids, credits and a stop of play, as a round has
    for e in list(taps.values())[:: max(1, len(taps) // 6)]:
        extra.append(event("hole_time_corrected", NOW, {
            "target": e.id, "at": (e.at - timedelta(seconds=20)).isoformat(),
            "reason": "late tap"}))  # fmt: skip
    stop = local(10, 40)
    extra.append(event("siren", stop, {"kind": "suspension"}))
    extra.append(event("siren", stop + timedelta(minutes=12), {"kind": "resume"}))
    for p in slow[:3]:
        extra.append(event("time_credit_granted", local(11, 0), {
            "group": p.id, "minutes": 4, "reason": "ruling"}, referee))  # fmt: skip
    i = 0
    while live.store.count_events(ROUND) + len(extra) < size and slow:
        p = slow[i % len(slow)]
        players = [pl.name for pl in p.group.players]
        since = p.group.start + timedelta(minutes=40 + i % 7)
        extra.append(event("timing_decided", since, {
            "group": p.id, "decision": "time", "reason": None, "note": ""}, referee))  # fmt: skip
        for name in players:
            extra.append(event("player_told_timed", since + timedelta(minutes=1), {
                "group": p.id, "player": name}, referee))  # fmt: skip
        for k in range(40):
            name = players[k % len(players)]
            started = since + timedelta(minutes=2, seconds=37 * k)
            duration = rng.choice((25, 32, 38, 44, 47, 55))
            stroke = event("stroke_timed", started + timedelta(seconds=duration), {
                "group": p.id, "player": name, "hole": p.order[min(17, 3 + k // 10)],
                "kind": "other", "first_to_play": False, "between_holes": False,
                "started": started.isoformat(),
                "stopped": (started + timedelta(seconds=duration)).isoformat()},
                referee)  # fmt: skip
            extra.append(stroke)
            if duration > 40:
                extra.append(event("player_notified", stroke.at + timedelta(seconds=30), {
                    "group": p.id, "player": name, "fault": stroke.id}, referee))  # fmt: skip
            if k % 13 == 5:
                extra.append(event("event_voided", NOW, {
                    "target": stroke.id, "reason": "wrong player"}, referee))  # fmt: skip
        extra.append(event("timing_stopped", since + timedelta(minutes=30), {
            "group": p.id, "reason": "back in position"}, referee))  # fmt: skip
        i += 1
    room = size - live.store.count_events(ROUND)
    live.store.append_many(extra[: max(0, room)], recorded_at=NOW)
    return later, live.store.count_events(ROUND)


# -- measuring -----------------------------------------------------------------------------------


def sample(fn: Callable[[], object], runs: int, before: Callable[[], object] = lambda: None):
    """Return the median and p90 of ``fn``'s duration over ``runs`` samples (ms)."""
    times = []
    for _ in range(runs):
        before()
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))]


def measure_size(size: int, runs: int, profile: str | None) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="pace-growth-") as tmp:
        live = Live.open(Path(tmp), 52)
        later, count = fill(live, size)
        live.snapshot()  # the server's first fold of the log (a restart)
        live.tick()
        out: dict[str, object] = {"events": count}
        profiler = cProfile.Profile() if profile else None

        def timed(name: str, fn: Callable[[], object], before: Callable[[], object]) -> None:
            if profiler is not None and profile == name:
                profiler.enable()
            out[name] = sample(fn, runs, before)
            if profiler is not None and profile == name:
                profiler.disable()

        pending = iter(later)

        def next_tap() -> None:
            live.clock.advance(seconds=2)

        def tap() -> None:
            c = next(pending)
            live.tap(c.group, c.hole, min(c.at, live.clock.now()))

        timed("tap", tap, next_tap)
        live.tick()
        timed("quiet tick", live.tick, lambda: live.clock.advance(seconds=1))
        timed("busy tick", live.tick, lambda: live.clock.advance(minutes=3))
        timed("snapshot", live.snapshot, lambda: None)
        out["snapshot_kb"] = len(json.dumps(live.snapshot())) / 1024
        live.store.close()
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return out


def measure_field(runs: int) -> tuple[float, float]:
    """Return the time to evaluate a 500-group field mid-round (median, p90; ms)."""
    with tempfile.TemporaryDirectory(prefix="pace-growth-") as tmp:
        live = Live.open(Path(tmp), 500, tees=(1, 10))
        planned = plan_completions(live, 3)
        noon = local(13, 0)
        live.store.append_many(
            [event("hole_completed", c.at, {"group": c.group, "hole": c.hole})
             for c in planned if c.at <= noon],
            recorded_at=noon,
        )  # fmt: skip
        live.clock.set(noon)
        live.field()
        result = sample(live.field, runs, lambda: live.clock.advance(seconds=5))
        live.store.close()
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 5000, 20000])
    parser.add_argument("--runs", type=int, default=25, help="samples per figure")
    parser.add_argument("--profile", default=None, help="cProfile one measure (e.g. tap)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()

    load = os.getloadavg()
    print(f"52 three-balls, log filled to each size; median of {args.runs} samples, p90 in"
          f" brackets (ms); load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f},"
          f" {os.cpu_count()} cores")  # fmt: skip
    results = {size: measure_size(size, args.runs, args.profile) for size in args.sizes}
    names = ("tap", "quiet tick", "busy tick", "snapshot")
    print(f"{'events':>8} " + " ".join(f"{n:>18}" for n in names) + f" {'snapshot KB':>12}")
    for r in results.values():
        cells = " ".join(f"{r[n][0]:8.2f} [{r[n][1]:7.2f}]" for n in names)
        print(f"{r['events']:>8} {cells} {r['snapshot_kb']:12.1f}")
    field = measure_field(args.runs)
    print(f"500 groups evaluated: {field[0]:.2f} ms [{field[1]:.2f}]")
    ok = True
    for name, target in TARGETS_MS.items():
        worst = max(r[name][0] for r in results.values())
        met = worst <= target
        ok &= met
        print(f"target {name} ≤ {target:g} ms at every size: {'MET' if met else 'MISSED'}"
              f" (worst median {worst:.2f} ms)")  # fmt: skip
    met = field[0] <= FIELD_TARGET_MS
    ok &= met
    print(f"target 500 groups evaluated ≤ {FIELD_TARGET_MS:g} ms: {'MET' if met else 'MISSED'}"
          f" ({field[0]:.2f} ms)")  # fmt: skip
    if args.json:
        print(json.dumps({"sizes": {str(k): v for k, v in results.items()}, "field_500": field}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

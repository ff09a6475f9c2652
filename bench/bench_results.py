"""Measure the results of a full field: 156 players, 18 holes, with pace penalties.

Scores the field with ``pace.rules.scoring.score_round`` in each way of scoring (stroke
play net, Stableford net, bogey net, four-ball stroke play net, match play net) and prints
the median time per call in ms, wall clock and CPU, against the issue's target (≤ 50 ms):
MET or MISSED is judged on the wall-clock median (what a leaderboard waits for); the CPU
median is printed beside it, since on a machine shared with other work the wall clock also
counts the time spent waiting for a core. About one player in ten carries counted slow-play
penalties (a warning, strokes, one in four of them a disqualification).

The live path (``--live``, on by default) runs what the leaderboard does after a score: the
same field stored in a SQLite file under a temporary folder, its cards as ``score_recorded``
events and its penalties as the referees' real events (groups timed, bad times and
notifications, judged by the referees' service), then for each run one new correction of a
score and ``ScoreService.leaderboard``: store → fold of the score events → judgement → results
→ the leaderboard document. The warm figure is a read of the same log (kept).

    python bench/bench_results.py --runs 30
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pace.rules.model import Course, Group, Hole, Player  # noqa: E402
from pace.rules.penalties import Fault, FaultOutcome, Penalty, Reason  # noqa: E402
from pace.rules.scoring import Score, score_round  # noqa: E402

TARGET_MS = 50.0
PARS = (4, 4, 3, 5, 4, 4, 3, 5, 4, 4, 4, 3, 5, 4, 4, 3, 5, 4)
SI = (7, 11, 17, 1, 9, 15, 13, 3, 5, 8, 12, 18, 2, 10, 16, 14, 4, 6)
T0 = datetime(2025, 6, 14, 8, tzinfo=UTC)


def build_field(players: int, seed: int = 7):
    """Return a course, a draw of groups of four (two sides, two matches each) and scores."""
    rng = random.Random(seed)
    holes = tuple(
        Hole(n, p, stroke_index=s) for n, (p, s) in enumerate(zip(PARS, SI, strict=True), 1)
    )
    course = Course("bench", holes, slope=128, rating=70.4)
    groups, scores, outcomes = [], [], []
    for g in range(players // 4):
        gid = str(g + 1)
        tee = 1 if g % 2 == 0 else 10
        members = tuple(
            Player(f"P{g}-{i}", round(rng.uniform(-2, 36), 1), side=f"s{i // 2}",
                   match=f"m{g}-{i % 2}")  # singles: players 1 and 3, 2 and 4
            for i in range(4)
        )  # fmt: skip
        groups.append(Group(gid, T0 + timedelta(minutes=10 * (g // 2)), tee, members))
        for p in members:
            for n, par in enumerate(PARS, 1):
                strokes = (
                    None
                    if rng.random() < 0.02
                    else max(1, par + rng.choice((-1, 0, 0, 1, 1, 2, 3)))
                )
                scores.append(Score(gid, p.name, n, strokes))
            if rng.random() < 0.1:
                for rank, (kind, amount) in enumerate(
                    (("warning", 0), ("strokes", 1), ("strokes", 2), ("disqualification", 0))[
                        : rng.choice((1, 2, 3, 3, 4))
                    ], start=1
                ):  # fmt: skip
                    hole = rng.randint(1, 18)
                    fault = Fault(f"{p.name}-{rank}", gid, p.name, T0, hole)
                    outcomes.append(
                        FaultOutcome(fault, True, Reason.COUNTED, rank, Penalty(kind, amount, hole))
                    )
    return course, groups, scores, outcomes


def median_ms(fn, runs: int) -> tuple[float, float, float]:
    """Return the median wall time, its 90th percentile and the median CPU time, in ms."""
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - t) * 1000)
    wall.sort()
    return statistics.median(wall), wall[int(0.9 * (len(wall) - 1))], statistics.median(cpu)


def live_path(players: int, runs: int) -> tuple[bool, list[str]]:
    """Time the live service path on a stored field; return (target met, lines to print)."""
    import tempfile
    import uuid

    from pace import config
    from pace.clock import FakeClock
    from pace.rules.scoring import records
    from pace.services import commands as cmd
    from pace.services.live import LiveService
    from pace.services.referee_feed import RefereeFeed
    from pace.services.referees import RefereeService
    from pace.services.rounds import RoundService
    from pace.services.scores import ScoreService
    from pace.store import open_store

    course, groups, scores, _ = build_field(players)
    folder = tempfile.mkdtemp(prefix="pace-bench-")
    store = open_store(Path(folder) / "bench.db")
    noon = T0 + timedelta(hours=4)
    clock = FakeClock(noon)
    settings = config.Settings().replace(database={"path": str(Path(folder) / "bench.db")})
    service = RoundService(store, settings, clock)
    store.save_course(course, imported_at=noon)
    store.create_round("B1", course=course.name, day=T0.date(), timezone="UTC",
                       created_at=noon, scoring="stroke", net=True)  # fmt: skip
    store.save_draw("B1", groups)
    by = {"role": "scorer", "device": "bench"}
    events = [
        records_event(records.SCORE_RECORDED, {"group": s.group, "player": s.player,
                      "hole": s.hole, "strokes": s.strokes, "conceded": False}, by, noon)
        for s in scores
    ]  # fmt: skip
    store.append_many(events, recorded_at=noon)
    live = LiveService(service)
    referees = RefereeService(live)
    board = ScoreService(live, RefereeFeed(live))
    rng = random.Random(3)
    author = cmd.Author("referee", "bench")
    faults = 0
    for group in groups[:: max(1, len(groups) // 8)]:  # about one group in eight timed
        decided = clock.now() - timedelta(minutes=30)
        referees.decide_timing(cmd.DecideTiming(str(uuid.uuid4()), "B1", group.id, "time",
                               author, at=cmd.DeviceTime(decided)))  # fmt: skip
        for k, p in enumerate(group.players):
            for n in range(rng.choice((1, 2, 3))):
                stop = decided + timedelta(minutes=2 + 8 * n + k)
                stroke = referees.record_stroke(cmd.RecordStroke(
                    str(uuid.uuid4()), "B1", group.id, p.name, rng.randint(1, 18), "other",
                    False, cmd.DeviceTime(stop - timedelta(seconds=47)), cmd.DeviceTime(stop),
                    author,
                ))  # fmt: skip
                faults += 1
                referees.notify_player(cmd.NotifyPlayer(str(uuid.uuid4()), "B1", group.id,
                                       p.name, stroke.event.id, author,
                                       at=cmd.DeviceTime(stop + timedelta(minutes=1))))  # fmt: skip
    first = board.score_log("B1").records[0]
    counted = [o for o in board.referees.outcomes("B1") if o.counted and o.penalty is not None]

    def after_a_score() -> None:
        board.correct_score(
            cmd.CorrectScore(
                str(uuid.uuid4()),
                "B1",
                first.id,
                rng.choice((4, 5, 6)),
                "bench",
                cmd.Author("scorer", "bench"),
            )
        )
        board.leaderboard("B1")  # fmt: skip

    cold, cold90, cold_cpu = median_ms(after_a_score, runs)
    warm, warm90, warm_cpu = median_ms(lambda: board.leaderboard("B1"), runs)
    store.close()
    ok = cold <= TARGET_MS
    lines = [
        f"live path: {players} players in SQLite, {len(scores)} score events, {faults} timed "
        f"bad times, {len(counted)} counted ladder steps; median of {runs} runs",
        f"  a score, then the leaderboard   wall {cold:7.2f} ms [p90 {cold90:.2f}]   "
        f"cpu {cold_cpu:7.2f} ms   target <= {TARGET_MS:g} ms: {'MET' if ok else 'MISSED'}",
        f"  the leaderboard read again      wall {warm:7.2f} ms [p90 {warm90:.2f}]   "
        f"cpu {warm_cpu:7.2f} ms",
    ]
    return ok, lines


def records_event(type: str, payload: dict, by: dict, at: datetime):
    """Return a score event as the scorers' service stores it."""
    import uuid

    from pace.rules.events import Event

    return Event(str(uuid.uuid4()), type, "B1", at, payload, by)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="calls per way of scoring")
    parser.add_argument("--players", type=int, default=156, help="players in the field")
    parser.add_argument("--no-live", dest="live", action="store_false",
                        help="leave out the live service path")  # fmt: skip
    args = parser.parse_args()
    course, groups, scores, outcomes = build_field(args.players)
    print(
        f"score_round: {args.players} players, {len(groups)} groups, 18 holes, "
        f"{len(scores)} scores, {len(outcomes)} counted penalties; median of {args.runs} runs"
    )
    ok = True
    for label, kw in (
        ("stroke net", {"scoring": "stroke"}),
        ("stableford net", {"scoring": "stableford"}),
        ("bogey net", {"scoring": "bogey"}),
        ("four-ball net", {"scoring": "stroke", "format_name": "four_ball"}),
        ("match net", {"scoring": "match"}),
    ):
        med, p90, cpu = median_ms(
            lambda kw=kw: score_round(course, groups, scores, net=True, outcomes=outcomes, **kw),
            args.runs,
        )
        verdict = "MET" if med <= TARGET_MS else "MISSED"
        ok = ok and med <= TARGET_MS
        print(
            f"  {label:<15} wall {med:7.2f} ms [p90 {p90:.2f}]   cpu {cpu:7.2f} ms"
            f"   target <= {TARGET_MS:g} ms: {verdict}"
        )
    if args.live:
        met, lines = live_path(args.players, args.runs)
        ok = ok and met
        print("\n".join(lines))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"  load average {load} on {os.cpu_count()} cores")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

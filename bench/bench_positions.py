"""How true pace is with no marshal when the groups' phones send their positions (issue 48),
beside the scorers' reports alone and both together.

Generated club medals (``pace.demo.play``) are played on the demo course's map. Each group's
phone walks its true round (``pace.demo.phones``: the walk to the tee, the wait, the hole's
line a little off it, the green until the flag goes back in, a player walking back for a club,
fixes 5-25 m off and now and then a wild one, the screen locked for a few minutes twice a round
and once for 20 minutes in one group, a second phone in a fifth of the groups, one group that
does not share). The server's tracker (``pace.rules.positions``) infers each completion with
an interval, sent to the live loop when the fix that confirms it arrives; and the live loop is
told, as ``PositionService.seen_on_hole`` tells it, the latest fix of each group clearly on its
hole in play (``Tracker.on_hole``), at its instant: a group seen there past its limits is out of
position before it leaves (docs/positions.md, "Still on the hole"; ``--no-still-on`` replays
without it).

Printed, for the inferred completions: how often the interval holds the true instant (how
often it does not), its width, how long after the true instant it was known, the holes never
inferred. Then four live replays of each round through pace's own live loop (a real SQLite
file, a fake clock, a tick every 30 s), judged against the officials' taps as
``bench_group_reports.py`` judges them: officials (the truth), reports alone, positions
alone, reports and positions together: the alerts with no true episode behind them (per
round), the true episodes found and missed, the first alert's delay after the officials'.
Then the cost of a position: the server time to screen a fix and feed it to its tracker.

Targets (issue 48), positions alone: recall ≥ 95 % over the groups that share (the one that does
not sends nothing; the recall over every group is printed beside it), median delay ≤ 1 min,
≤ 1 alert per round with no true episode, intervals holding the true instant ≥ 95 %; a fix
≤ 0.2 ms.

    python bench/bench_positions.py
    python bench/bench_positions.py --rounds 4 --groups 24 --seed 1
"""

from __future__ import annotations

import argparse
import bisect
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_group_reports as reports_bench  # noqa: E402

from pace.demo import geography  # noqa: E402
from pace.demo.phones import Phones, dues_of, group_traces  # noqa: E402
from pace.demo.play import Scorers  # noqa: E402
from pace.formats.geometry import parse_geometry  # noqa: E402
from pace.rules.events import Event  # noqa: E402
from pace.rules.position import plan_field  # noqa: E402
from pace.rules.positions import CourseShape, Inferred, Tracker, screen  # noqa: E402

ROUND = reports_bench.ROUND
PHONE = {"role": "positions", "device": "bench-tracker"}
COVERAGE = 0.95
RECALL = 0.95
DELAY_MIN = 1.0
FALSE_PER_ROUND = 1.0
SAMPLE_MS = 0.2


def position_event(group: str, inf: Inferred) -> Event:
    """The completion a tracker infers, as the live loop stores it."""
    return Event(str(uuid.uuid4()), "hole_completed", ROUND, inf.at,
                 {"group": group, "hole": inf.hole, "source": "position",
                  "earliest": inf.earliest.isoformat(), "latest": inf.latest.isoformat()},
                 PHONE)  # fmt: skip


#: by group, each fix that showed it clearly on its hole in play: (instant, hole)
Seen = dict[str, list[tuple[datetime, int]]]


def infer(shape: CourseShape, orders, traces) -> tuple[dict[str, list[Inferred]], float, Seen]:
    """Feed every group's fixes to its tracker one at a time, as they arrive; return the
    completions inferred, the mean server time per fix (ms) and the fixes that showed each
    group still on its hole in play (``Tracker.on_hole``, as ``PositionService`` notes them)."""
    out: dict[str, list[Inferred]] = {}
    seen: Seen = {}
    spent, count = 0.0, 0
    for g, fixes in traces.items():
        tracker = Tracker(shape, tuple(orders[g]))
        got: list[Inferred] = []
        on: list[tuple[datetime, int]] = []
        before = None
        for s in fixes:
            t0 = time.perf_counter()
            if screen(shape, s, before) is None:
                before = s
                got.extend(tracker.feed([s]))
                if tracker.on_hole(s):
                    on.append((s.at, tracker.order[tracker.k]))
            spent += time.perf_counter() - t0
            count += 1
        out[g] = got
        seen[g] = on
    return out, 1000 * spent / max(count, 1), seen


def seen_at(seen: Seen):
    """Return ``PositionService.seen_on_hole`` at an instant, from the fixes of ``seen``."""

    def at(now: datetime) -> dict[str, tuple[int, datetime]]:
        out = {}
        for g, on in seen.items():
            i = bisect.bisect_right(on, (now, 99)) - 1
            if i >= 0:
                out[g] = (on[i][1], on[i][0])
        return out

    return at


def explain_episodes(r, truth, officials, positions, found, truth_at, traces):
    """Return one line per true episode of a round: when the officials' first alert came,
    when the positions' did, and what the tracker had of the completion that started it (why
    the delay; ``--episodes``)."""
    out = []
    for g, episodes in truth.items():
        for i, e in enumerate(episodes):
            line = f"round {r + 1} group {g} hole {e.start_hole}: "
            o = officials.get((g, i))
            line += f"officials {o:%H:%M:%S}" if o else "officials -"
            p = positions.get((g, i))
            if g not in traces:
                line += "; positions: none (the group does not share)"
            elif p is None:
                line += "; positions: MISSED"
            else:
                line += f"; positions {p:%H:%M:%S}"
                if o:
                    line += f" ({(p - o).total_seconds() / 60:+.1f} min)"
            inf = next((x for x in found.get(g, []) if x.hole == e.start_hole), None)
            t = truth_at.get((g, e.start_hole))
            if inf is not None and t is not None:
                line += (f"; inferred {(inf.earliest - t).total_seconds():+.0f} s to "
                         f"{(inf.latest - t).total_seconds():+.0f} s of the true instant, known "
                         f"{(inf.confirmed - t).total_seconds():+.0f} s after it")  # fmt: skip
            out.append(line)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--groups", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tick", type=float, default=30.0)
    parser.add_argument(
        "--episodes", action="store_true",
        help="print each true episode: the officials' first alert, the positions' first alert, "
             "and what the tracker had of the completion that started it",
    )  # fmt: skip
    parser.add_argument(
        "--position-allowance", type=float, default=None,
        help="the positions' allowance in minutes (default: config.toml's)",
    )  # fmt: skip
    parser.add_argument(
        "--no-due", action="store_true",
        help="phones that keep a fix every 30 s standing whether or not the hole is due (the "
             "page before issue 48's due cadence)",
    )  # fmt: skip
    parser.add_argument(
        "--no-still-on", action="store_true",
        help="leave out the fixes still on the hole (the live loop as before issue 48's last "
             "change: only the completions inferred)",
    )  # fmt: skip
    args = parser.parse_args()
    scorers, phones = Scorers(), Phones()
    tick = timedelta(seconds=args.tick)
    names = ("officials", "reports", "positions", "both")
    tallies = {n: reports_bench.Tally() for n in names}
    held = widths = 0
    width_s: list[float] = []
    known_s: list[float] = []
    inferred = expected = 0
    costs: list[float] = []
    episode_lines: list[str] = []
    sharing_true = sharing_found = 0
    for r in range(args.rounds):
        rng = random.Random(args.seed * 1000 + r)
        generated = reports_bench.generate(rng, args.groups, scorers)
        course_text, draw_text, setup, taps, sent = generated
        geometry = parse_geometry(geography.osm_xml(setup.course).encode(), "demo.osm",
                                  setup.course)  # fmt: skip
        shape = CourseShape.of(geometry)
        plan = plan_field(setup)
        orders = {p.id: p.order for p in plan.groups}
        starts = {p.id: p.group.start for p in plan.groups}
        dues = dues_of(plan)
        traces = group_traces(shape, orders, starts, taps, random.Random(args.seed * 7919 + r),
                              phones, {} if args.no_due else dues)  # fmt: skip
        found, cost, on_hole = infer(shape, orders, traces)
        costs.append(cost)
        truth_at = {(t.group, t.hole): t.at for t in taps}
        for g in traces:
            expected += sum(1 for h in orders[g] if (g, h) in truth_at)
            for inf in found[g]:
                t = truth_at.get((g, inf.hole))
                if t is None:
                    continue
                inferred += 1
                held += inf.earliest <= t <= inf.latest
                widths += 1
                width_s.append((inf.latest - inf.earliest).total_seconds())
                known_s.append((inf.confirmed - t).total_seconds())
        start = min(g.start for g in setup.groups)
        end = max(t.at for t in taps) + timedelta(minutes=30)
        official = [reports_bench.completion(t.group, t.hole, t.at, None) for t in taps]
        truth = reports_bench.truth_episodes(setup, official, start + reports_bench.END_OF_DAY)
        everyone = {p.group.id for p in plan.groups}
        silent = everyone - {s.report.group for s in sent}
        not_sharing = everyone - set(traces)
        #: the groups nothing of a run can see ("of which … belong to a group that never
        #: reports" in the print: never reports, never shares, or neither)
        unseen = {"officials": silent, "reports": silent, "positions": not_sharing,
                  "both": silent & not_sharing}  # fmt: skip
        by_report = [(s.arrives, reports_bench.completion(s.report.group, s.report.hole,
                                                          s.report.at, "group"))
                     for s in sent]  # fmt: skip
        by_position: list[tuple[datetime, Event]] = [
            (inf.confirmed, position_event(g, inf)) for g, infs in found.items() for inf in infs
        ]
        runs = {
            "officials": ([(e.at, e) for e in official], "officials"),
            "reports": (by_report, "groups"),
            "positions": (by_position, "groups"),
            "both": (by_report + by_position, "groups"),
        }
        first = None
        for name in names:
            arrivals, setting = runs[name]
            phones_seen = None
            if name in ("positions", "both") and not args.no_still_on:
                phones_seen = seen_at(on_hole)
            with tempfile.TemporaryDirectory() as folder:
                run = reports_bench.replay(Path(folder), course_text, draw_text, arrivals, setting,
                                           start, end, tick,
                                           position_allowance=args.position_allowance,
                                           seen_on_hole=phones_seen)  # fmt: skip
            got = reports_bench.judge(tallies[name], run, truth, first, None, unseen[name])
            if name == "officials":
                first = got
            elif name == "positions":
                for g, episodes in truth.items():
                    if g in traces:
                        sharing_true += len(episodes)
                        sharing_found += sum(1 for i in range(len(episodes)) if (g, i) in got)
                episode_lines += explain_episodes(r, truth, first or {}, got, found, truth_at,
                                                  traces)  # fmt: skip
        print(f"round {r + 1} of {args.rounds} played", flush=True)
    print()
    print(f"{args.rounds} generated medals of {args.groups} groups (seed {args.seed}) on the demo "
          f"course's map; phones: {phones}")  # fmt: skip
    coverage = held / widths if widths else 0.0
    print(f"inferred completions: {inferred} of {expected} holes of the sharing groups "
          f"({expected - inferred} never inferred)")  # fmt: skip
    print(f"  the interval holds the true instant: {held} of {widths} ({coverage:.1%}); it does "
          f"not: {widths - held} ({1 - coverage:.1%})")  # fmt: skip
    if width_s:
        ws, ks = sorted(width_s), sorted(known_s)
        print(f"  width: median {statistics.median(ws):.0f} s, 90th percentile "
              f"{ws[int(0.9 * len(ws))]:.0f} s; known after the true instant: median "
              f"{statistics.median(ks) / 60:.1f} min, 90th percentile "
              f"{ks[int(0.9 * len(ks))] / 60:.1f} min")  # fmt: skip
    for name in names:
        reports_bench.print_tally(name, tallies[name])
    if args.episodes:
        print(
            "each true episode (officials' first alert; positions' first alert, after it; the "
            "completion that started it: its interval around the true instant, when known):"
        )
        for line in episode_lines:
            print("  " + line)
    p = tallies["positions"]
    recall = p.found / p.true_n if p.true_n else 1.0
    shared = sharing_found / sharing_true if sharing_true else 1.0
    print(f"positions alone, the true episodes of the groups that share: {sharing_found} of "
          f"{sharing_true} ({shared:.0%}); of the group that does not: {p.true_n - sharing_true} "
          f"(positions alone cannot find them: that group sends none)")  # fmt: skip
    per_round = p.false / max(p.rounds, 1)
    delay = statistics.median(p.delays) if p.delays else 0.0
    cost = statistics.mean(costs) if costs else 0.0
    # the recall target is read over the groups whose phones share (docs/positions.md, "How
    # well it works"): the one that does not sends nothing positions alone could find
    print(f"positions alone, every group (the one that does not share included): recall "
          f"{recall:.0%}")  # fmt: skip
    checks = [
        (f"positions alone, groups that share: recall ≥ {RECALL:.0%}", f"{shared:.0%}",
         shared >= RECALL),
        (f"positions alone: median delay ≤ {DELAY_MIN:g} min", f"{delay:.1f} min",
         delay <= DELAY_MIN),
        (f"positions alone: ≤ {FALSE_PER_ROUND:g} alert per round with no true episode",
         f"{per_round:.2f}", per_round <= FALSE_PER_ROUND),
        (f"intervals holding the true instant ≥ {COVERAGE:.0%}", f"{coverage:.1%}",
         coverage >= COVERAGE),
        (f"server time per fix ≤ {SAMPLE_MS} ms", f"{cost:.3f} ms", cost <= SAMPLE_MS),
    ]  # fmt: skip
    for what, value, met in checks:
        print(f"target: {what}: {value} {'MET' if met else 'MISSED'}")
    return 0 if all(m for *_, m in checks) else 1


if __name__ == "__main__":
    sys.exit(main())

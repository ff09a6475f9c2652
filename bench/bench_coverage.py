"""Measure the 80 % ranges of the projections on held-out history (issue 30 part 3).

The ranges come from a course's finished rounds (``pace.rules.ranges.spread``): the
projected finish and the hole a group first goes over time get an 80 % range. This bench
takes a history, learns the spread from its first rounds, and on the rounds it held out asks,
at every completion of every group (and at its start), for both ranges; then says how often
the truth (the group's real finish, the hole it really went over time first) fell inside.

- ``generated``: rounds played from a known truth (``pace.demo.history``: holes with their own
  speeds and noise, groups of 2, 3 and 4, each group its own pace); the learning rounds have
  the log's mess (missed taps, taps out of order, sirens, credits), the held-out ones are
  clean so their truth is known to the second;
- ``demo``: the demo's rounds (``pace.demo.play``: a crossover draw, groups that hurry when
  over time and wait on the group ahead), seeded one per round.

The target is the finish's coverage: between 75 % and 85 %, MET or MISSED per history. The
hole's range is printed beside it: a hole is a whole number, so its range (both ends in)
holds the truth more often than the 80 % its ends are drawn from.

    python bench/bench_coverage.py
    python bench/bench_coverage.py --learn 12 --held-out 8 --seed 3
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from pace.demo import history as gh
from pace.rules import allotted, ranges
from pace.rules import calibration as cal
from pace.rules.model import Course, PaceSettings, RoundFacts, RoundSetup

LOW, HIGH = 0.75, 0.85

Rounds = list[tuple[str, RoundSetup, RoundFacts]]


def coverage(course: Course, learn: Rounds, held: Rounds) -> tuple[int, int, int, int]:
    """Return (finishes inside, asked, over-holes inside, asked) over the held-out rounds."""
    settings = PaceSettings()
    s = ranges.spread(course, cal.history(learn), settings)
    f_in = f_n = h_in = h_n = 0
    for _, setup, facts in held:
        for g in setup.groups:
            order = allotted.playing_order(course, g.tee)
            at = {c.hole: c.at for c in facts.completions if c.group == g.id}
            if len(at) != len(order):
                continue
            instants = [g.start] + [at[h] for h in order]
            cumulative = allotted.cumulative_allotments(course, g.tee, g.size, settings)
            truth_over = next(
                (j for j in range(1, len(order) + 1) if instants[j] - g.start > cumulative[j]),
                None,
            )
            for k in range(len(order)):
                anchor = instants[k]
                r = ranges.finish_range(s, course, order, g.size, k, anchor, anchor)
                if r is not None:
                    f_n += 1
                    f_in += r[0] <= instants[-1] <= r[1]
                if truth_over is not None and truth_over <= k:
                    continue  # already over: nothing left to project
                holes = ranges.over_hole_range(
                    s, course, order, g.size, k, anchor - g.start, cumulative
                )
                if holes is not None:
                    h_n += 1
                    h_in += _inside(order, holes, truth_over)
    return f_in, f_n, h_in, h_n


def _inside(order: Sequence[int], holes: tuple[int | None, int | None], truth: int | None) -> bool:
    # positions, "never over" counted as one past the last hole
    never = len(order) + 1
    early = never if holes[0] is None else order.index(holes[0]) + 1
    late = never if holes[1] is None else order.index(holes[1]) + 1
    return early <= (never if truth is None else truth) <= late


def demo_rounds(count: int, seed: int, groups: int = 24) -> tuple[Course, Rounds]:
    """Return the demo's course and ``count`` demo rounds, one seed each."""
    from zoneinfo import ZoneInfo

    from pace import formats
    from pace.demo import data
    from pace.demo.play import plan_incidents, play_round
    from pace.rules.model import HoleCompletion
    from pace.rules.position import plan_field

    tz = ZoneInfo("Europe/Brussels")
    course = formats.parse_course(data.course_toml(), "demo-course.toml")
    out: Rounds = []
    for r in range(count):
        rng = random.Random(seed * 1000 + r)
        day = date(2026, 5, 2) + timedelta(days=7 * r)
        draw = formats.parse_draw(
            data.draw_csv(groups, rng), "d.csv", day=day, tz=tz, course=course
        )
        setup = RoundSetup(course, tuple(draw))
        plan = plan_field(setup)
        pars = {h.number: h.par for h in course.holes}
        taps = play_round(plan, pars, rng, plan_incidents(plan, rng))
        facts = RoundFacts(tuple(HoleCompletion(t.group, t.hole, t.at) for t in taps))
        out.append((f"D{r + 1}", setup, facts))
    return course, out


def report(name: str, counts: tuple[int, int, int, int]) -> bool:
    f_in, f_n, h_in, h_n = counts
    share = f_in / f_n if f_n else 0.0
    met = LOW <= share <= HIGH
    print(f"{name}: projected finish inside its 80 % range {f_in}/{f_n} = {share:.1%}")
    if h_n:
        print(f"{name}: hole first over time inside its range {h_in}/{h_n} = {h_in / h_n:.1%}")
    print(f"target {LOW:.0%}–{HIGH:.0%} ({name}): {'MET' if met else 'MISSED'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learn", type=int, default=10, help="rounds the spread is learnt from")
    parser.add_argument("--held-out", type=int, default=6, help="rounds the ranges are tested on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-demo", action="store_true", help="skip the demo's rounds")
    args = parser.parse_args()

    truth = gh.default_truth()
    course = gh.course_for(truth)
    mess = gh.Mess(missed=0.03, swapped=0.02, siren=0.4, credit=0.2)
    first = datetime(2026, 5, 2, 7, 30, tzinfo=UTC)
    learn = gh.generate(truth, args.learn, args.seed, mess=mess, first_day=first)
    later = first + timedelta(days=7 * args.learn)
    held = gh.generate(truth, args.held_out, args.seed + 10_000, first_day=later)
    ok = report("generated", coverage(course, learn, held))
    if not args.no_demo:
        demo_course, rounds = demo_rounds(args.learn + args.held_out, args.seed)
        ok &= report("demo", coverage(demo_course, rounds[: args.learn], rounds[args.learn :]))
    print(f"overall: {'MET' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()

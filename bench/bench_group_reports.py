"""How well the groups' own reports find slow groups with no marshal (issue 39).

Generated rounds (the demo's: ``pace.demo.play``, a crossover draw, groups that lose balls or
play slow stretches, hurry when over time and wait on the group ahead) are judged twice:

- **officials**: every hole tapped by an official the moment the flag goes back in (the
  truth, as a marshal on every hole would give it);
- **groups**: every hole reported by the group's scorer 0–3 minutes after holing out, a fifth
  of the groups in batches of two or three holes (``pace.demo.play.group_reports``), read as
  the rules read reports (a batch proves only its last hole; docs/status.md, "Groups'
  reports").

An out-of-position episode the officials' taps show is **found** by the reports when the same
group has an episode from the reports that starts no earlier than 10 minutes before it and
before it ends (or within 30 minutes of its start, for one still open). Printed: the share
found, the delay of each found episode's start against the officials' (median, 90th
percentile, worst), and the episodes the reports raise that the officials' taps do not.

    python bench/bench_group_reports.py
    python bench/bench_group_reports.py --rounds 20 --groups 30 --seed 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import uuid
from datetime import date, datetime, timedelta

from pace.demo.play import Tap, group_reports, plan_incidents, play_round
from pace.rules.events import Event
from pace.rules.fieldfold import FieldFold
from pace.rules.model import RoundSetup
from pace.rules.position import Episode, plan_field

BEFORE = timedelta(minutes=10)
OPEN_WINDOW = timedelta(minutes=30)
END_OF_DAY = timedelta(hours=14)


def episodes(setup: RoundSetup, events: list[Event], now: datetime) -> dict[str, list[Episode]]:
    """Return every group's out-of-position episodes from a log of completions."""
    plan = plan_field(setup)
    fold = FieldFold(setup, plan)
    for e in sorted(events, key=lambda e: e.at):
        fold.apply(e, now)
    return {p.id: list(fold.episodes(p.id, now)) for p in plan.groups}


def completion(group: str, hole: int, at: datetime, source: str | None) -> Event:
    payload: dict[str, object] = {"group": group, "hole": hole}
    if source:
        payload["source"] = source
    return Event(str(uuid.uuid4()), "hole_completed", "B", at, payload)


def one_round(rng: random.Random, groups: int, day: date):
    """Return (setup, officials' log, groups' log, now) of one generated round."""
    from zoneinfo import ZoneInfo

    from pace import formats
    from pace.demo import data

    tz = ZoneInfo("Europe/Brussels")
    course = formats.parse_course(data.course_toml(), "demo-course.toml")
    draw = formats.parse_draw(data.draw_csv(groups, rng), "d.csv", day=day, tz=tz, course=course)
    setup = RoundSetup(course, tuple(draw))
    plan = plan_field(setup)
    pars = {h.number: h.par for h in course.holes}
    taps: list[Tap] = play_round(plan, pars, rng, plan_incidents(plan, rng))
    officials = [completion(t.group, t.hole, t.at, None) for t in taps]
    reports = [completion(r.group, r.hole, r.at, "group") for r in group_reports(taps, rng)]
    now = min(g.start for g in draw) + END_OF_DAY
    return setup, officials, reports, now


def matches(truth: Episode, found: list[Episode]) -> Episode | None:
    """Return the reports' episode that finds ``truth``, if any."""
    until = truth.end if truth.end is not None else truth.start + OPEN_WINDOW
    for e in found:
        if truth.start - BEFORE <= e.start <= max(until, truth.start + OPEN_WINDOW):
            return e
    return None


def main() -> None:
    """Generate the rounds, judge them both ways and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--groups", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    true_n = found_n = extra_n = 0
    delays: list[float] = []
    for r in range(args.rounds):
        rng = random.Random(args.seed * 1000 + r)
        setup, officials, reports, now = one_round(rng, args.groups, date(2026, 5, 2))
        truth = episodes(setup, officials, now)
        seen = episodes(setup, reports, now)
        for group, true_episodes in truth.items():
            used: set[int] = set()
            for t in true_episodes:
                true_n += 1
                m = matches(t, seen[group])
                if m is not None:
                    found_n += 1
                    used.add(id(m))
                    delays.append((m.start - t.start).total_seconds() / 60)
            extra_n += sum(
                1
                for e in seen[group]
                if id(e) not in used and not any(matches(t, [e]) for t in true_episodes)
            )
    print(
        f"{args.rounds} rounds of {args.groups} groups (seed {args.seed}): scorers report each "
        "hole 0-3 min after holing out, a fifth of the groups in batches of 2-3 holes"
    )
    print(f"out-of-position episodes on the officials' taps: {true_n}")
    share = found_n / true_n if true_n else 1.0
    print(f"found on the groups' reports: {found_n} ({share:.0%})")
    if delays:
        ordered = sorted(delays)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        print(
            f"delay against the officials' taps, min: median {statistics.median(ordered):.1f},"
            f" 90th percentile {p90:.1f}, worst {ordered[-1]:.1f}, best {ordered[0]:.1f}"
        )
    print(f"episodes on the reports alone (none on the officials' taps): {extra_n}")


if __name__ == "__main__":
    main()

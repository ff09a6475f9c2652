"""How true the alerts are on a round with no marshal: the scorers' reports against the officials'
taps (issues 39 and 46).

Generated club medals (``pace.demo.play``: a crossover draw, groups that lose balls or play slow
stretches, hurry when over time and wait on the group ahead) are played **live** twice through
pace's own live loop (``LiveService`` over a real SQLite file, a fake clock, the scheduler's tick
every ``--tick`` seconds):

- **officials**: every hole tapped by an official the moment the flag goes back in: the truth, as
  a marshal on every hole would give it. Its out-of-position episodes (the whole log judged at the
  end of the day) are the **true episodes**;
- **reports**: every hole reported by the group's scorer as the scorers' delay model says
  (``pace.demo.play.Scorers``): most 0.3-3 min after holing out, a few up to 6 min, a fifth of
  the groups in batches of two or three holes, now and then two holes at once or a hole
  forgotten, one group silent all day, one phone 3 min slow (corrected by the server to a few
  seconds), two phones offline for 40 minutes (their reports replayed when the signal comes
  back). The round's completions setting is ``groups``.

Every out-of-position alert raised live is matched to the true episodes of its group: it has a
true episode behind it when its instant lies from 10 minutes before a true episode's start to
its end (at least 30 minutes after its start). A true episode is **found** when an alert of its
group matches it. Printed for both runs: the alerts raised, those with no true episode behind
them (how often the alerts are wrong, per round and as a share, with where they were raised),
the true episodes found (recall), the delay of the first alert against the officials', the
``overdue`` prompts raised, and the whole-log episodes the letters would rest on. For the reports
it prints the recall's ceiling too (``provable``): the true episodes the reports could prove at
all, so a recall below the target says whether the reading or the reports fall short.

Targets (issue 46), reports alone: at most 1 alert per round with no true episode behind it,
recall at least 90 %.

    python bench/bench_group_reports.py
    python bench/bench_group_reports.py --rounds 6 --groups 24 --seed 2 --tick 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pace import config, formats  # noqa: E402
from pace.clock import FakeClock  # noqa: E402
from pace.demo import data  # noqa: E402
from pace.demo.play import Scorers, Sent, Tap, plan_incidents, play_round, scorer_reports  # noqa: E402
from pace.rules.events import Event  # noqa: E402
from pace.rules.fieldfold import FieldFold  # noqa: E402
from pace.rules.model import RoundSetup  # noqa: E402
from pace.rules.position import Episode, plan_field  # noqa: E402
from pace.rules.reported import BATCH_WINDOW  # noqa: E402
from pace.services.live import LiveService  # noqa: E402
from pace.services.rounds import RoundService  # noqa: E402
from pace.services.state import ALERT, RESOLVED  # noqa: E402
from pace.store import open_store  # noqa: E402

ZERO = timedelta(0)
BEFORE = timedelta(minutes=10)
OPEN_WINDOW = timedelta(minutes=30)
END_OF_DAY = timedelta(hours=14)
TZ = ZoneInfo("Europe/Brussels")
DAY = date(2026, 5, 2)
ROUND = "MEDAL"
OFFICIAL = {"role": "marshal", "device": "bench-marshal"}
SCORER = {"role": "scorer", "device": "bench-scorer"}
#: targets of issue 46 for the reports alone
FALSE_PER_ROUND = 1.0
RECALL = 0.90


@dataclass(frozen=True)
class Raised:
    """An alert raised live: its kind, group, hole, situation instant and when it was raised."""

    key: str
    kind: str
    group: str
    hole: int | None
    at: datetime
    raised: datetime
    resting: bool


@dataclass
class Run:
    """What one live replay of a round raised, and its whole-log episodes at the end."""

    alerts: list[Raised] = field(default_factory=list)
    resolved: dict[str, datetime] = field(default_factory=dict)
    episodes: dict[str, list[Episode]] = field(default_factory=dict)


def completion(group: str, hole: int, at: datetime, source: str | None) -> Event:
    payload: dict[str, object] = {"group": group, "hole": hole}
    if source:
        payload["source"] = source
    return Event(str(uuid.uuid4()), "hole_completed", ROUND, at, payload,
                 SCORER if source else OFFICIAL)  # fmt: skip


def generate(rng: random.Random, groups: int, model: Scorers):
    """Return (course text, draw text, setup, true taps, scorers' reports) of one medal."""
    course_text = data.course_toml()
    draw_text = data.draw_csv(groups, rng)
    course = formats.parse_course(course_text, "demo-course.toml")
    draw = formats.parse_draw(draw_text, "d.csv", day=DAY, tz=TZ, course=course)
    setup = RoundSetup(course, tuple(draw))
    plan = plan_field(setup)
    pars = {h.number: h.par for h in course.holes}
    taps: list[Tap] = play_round(plan, pars, rng, plan_incidents(plan, rng))
    sent = scorer_reports(taps, rng, model)
    return course_text, draw_text, setup, taps, sent


def replay(
    folder: Path,
    course_text: str,
    draw_text: str,
    arrivals: list[tuple[datetime, Event]],
    completions: str,
    start: datetime,
    end: datetime,
    tick: timedelta,
    allowance: float | None = None,
    position_allowance: float | None = None,
    seen_on_hole: Callable[[datetime], dict[str, tuple[int, datetime]]] | None = None,
) -> Run:
    """Play ``arrivals`` (each event at the instant it reaches the server) through pace's live
    loop, ticking every ``tick`` from ``start`` to ``end``; return what it raised.
    ``seen_on_hole``: where the phones showed the groups still on their holes at an instant
    (``PositionService.seen_on_hole``'s answer then), for the positions' runs."""
    settings = config.Settings().replace(database={"path": str(folder / "pace.db")})
    if allowance is not None:
        settings = settings.replace(allotment={"report_allowance_min": allowance})
    if position_allowance is not None:
        settings = settings.replace(allotment={"position_allowance_min": position_allowance})
    store = open_store(folder / "pace.db", synchronous="OFF")
    clock = FakeClock(start - timedelta(hours=1))
    service = RoundService(store, settings, clock)
    service.import_course(course_text, "demo-course.toml")
    service.import_draw(
        draw_text, "draw.csv", round=ROUND, day=DAY, timezone=str(TZ), completions=completions
    )
    live = LiveService(service)
    if seen_on_hole is not None:
        live.seen_on_hole = lambda round: seen_on_hole(clock.now())
    run = Run()

    def heard(deltas, now: datetime) -> None:
        for d in deltas:
            if d.kind == ALERT:
                a = d.data
                run.alerts.append(
                    Raised(
                        str(a["key"]), str(a["kind"]), str(a["group"]),
                        a.get("hole") if isinstance(a.get("hole"), int) else None,
                        datetime.fromisoformat(str(a["at"])), now,
                        bool(a.get("reported_by_group")),
                    )
                )  # fmt: skip
            elif d.kind == RESOLVED:
                run.resolved.setdefault(str(d.data["event"].payload["alert"]), now)

    live.snapshot(ROUND, clock.now())
    pending = sorted(arrivals, key=lambda x: x[0])
    i = 0
    t = start
    while t <= end:
        while i < len(pending) and pending[i][0] <= t:
            at, e = pending[i]
            clock.set(at)
            live.append(e)
            heard(live.changes(ROUND, at), at)
            i += 1
        clock.set(t)
        heard(live.tick(ROUND, t), t)
        t += tick
    plan = live.live(ROUND).view.plan
    fold = live.live(ROUND).field
    run.episodes = {p.id: list(fold.episodes(p.id, end)) for p in plan.groups}
    store.close()
    return run


def truth_episodes(
    setup: RoundSetup, events: list[Event], now: datetime
) -> dict[str, list[Episode]]:
    """Return every group's out-of-position episodes from the officials' whole log."""
    fold = truth_fold(setup, events, now)
    return {p.id: list(fold.episodes(p.id, now)) for p in fold.plan.groups}


def truth_fold(setup: RoundSetup, events: list[Event], now: datetime) -> FieldFold:
    """Return the fold of the officials' whole log, read at ``now``."""
    fold = FieldFold(setup, plan_field(setup))
    for e in sorted(events, key=lambda e: e.at):
        fold.apply(e, now)
    return fold


def provable(
    setup: RoundSetup,
    events: list[Event],
    now: datetime,
    sent: list[Sent],
    allowance: timedelta,
) -> set[tuple[str, int]]:
    """Return the true episodes (group, index) that some reading of the reports could prove
    at all, read generously: a completion of the episode out of position in the officials' log,
    reported by its group on its own (not a batch's earlier hole, not forgotten), whose time over
    and gap stay past their limits once the report's lateness is counted and the report's
    allowance taken off, the group ahead's report taken as on time. Every other episode can be
    found only by an alert that reports do not prove: this is the ceiling of the recall."""
    fold = truth_fold(setup, events, now)
    plan = fold.plan
    by_group: dict[str, list[Sent]] = {}
    for x in sent:
        by_group.setdefault(x.report.group, []).append(x)
    alone: dict[tuple[str, int], timedelta] = {}  # the lateness of each report on its own
    for group, xs in by_group.items():
        xs.sort(key=lambda x: x.report.at)
        for x, after in zip(xs, [*xs[1:], None], strict=True):
            if after is None or after.report.at - x.report.at > BATCH_WINDOW:
                alone[(group, x.report.hole)] = x.report.at - x.report.done
    out: set[tuple[str, int]] = set()
    for p in plan.groups:
        evaluations = fold.evaluations(p.id, now)
        for i, ep in enumerate(fold.episodes(p.id, now)):
            for ev in evaluations:
                if ev.at < ep.start or (ep.end is not None and ev.at >= ep.end):
                    continue
                s = ev.status
                late = alone.get((p.id, s.last_hole)) if s.last_hole is not None else None
                if not ev.out_of_position or late is None or s.over is None:
                    continue
                if s.over + late - allowance <= ZERO:
                    continue
                if s.lead or s.gap is None or s.interval is None \
                        or s.gap + late - allowance > s.interval + fold.margin:  # fmt: skip
                    out.add((p.id, i))
                    break
    return out


def behind(truth: Episode, at: datetime) -> bool:
    """Return whether an alert (or an episode) at ``at`` has the true episode ``truth`` behind
    it."""
    until = truth.end if truth.end is not None else truth.start + OPEN_WINDOW
    return truth.start - BEFORE <= at <= max(until, truth.start + OPEN_WINDOW)


@dataclass
class Tally:
    """The figures of one way of timing over every round."""

    rounds: int = 0
    raised: int = 0
    false: int = 0
    why_false: Counter[str] = field(default_factory=Counter)
    true_n: int = 0
    #: the true episodes of the groups that never report (nothing of theirs can find them)
    silent: int = 0
    found: int = 0
    found_silent: int = 0
    #: the true episodes the reports could prove at all (``provable``), and those found
    provable: int = 0
    found_provable: int = 0
    delays: list[float] = field(default_factory=list)
    overdue: int = 0
    flipped: int = 0
    episodes: int = 0
    episodes_false: int = 0


def judge(
    tally: Tally,
    run: Run,
    truth: dict[str, list[Episode]],
    first_alert: dict[tuple[str, int], datetime] | None,
    sent_by: dict[tuple[str, int], Sent] | None,
    silent: set[str],
    proof: set[tuple[str, int]] | None = None,
) -> dict[tuple[str, int], datetime]:
    """Add one round's figures to ``tally``; return each true episode's first alert instant."""
    tally.rounds += 1
    firsts: dict[tuple[str, int], datetime] = {}
    for a in run.alerts:
        if a.kind == "overdue":
            tally.overdue += 1
        if a.kind != "out_of_position":
            continue
        tally.raised += 1
        matched = [i for i, t in enumerate(truth.get(a.group, [])) if behind(t, a.at)]
        if not matched:
            tally.false += 1
            tally.why_false[_why(a, run, sent_by)] += 1
        for i in matched:
            key = (a.group, i)
            firsts[key] = min(firsts.get(key, a.raised), a.raised)
        resolved = run.resolved.get(a.key)
        if resolved is not None and resolved - a.raised <= timedelta(minutes=2):
            tally.flipped += 1
    for group, episodes in truth.items():
        for i in range(len(episodes)):
            tally.true_n += 1
            if group in silent:
                tally.silent += 1
            if proof is not None and (group, i) in proof:
                tally.provable += 1
                tally.found_provable += (group, i) in firsts
            if (group, i) in firsts:
                tally.found += 1
                tally.found_silent += group in silent
                if first_alert is not None and (group, i) in first_alert:
                    tally.delays.append(
                        (firsts[(group, i)] - first_alert[(group, i)]).total_seconds() / 60
                    )
    for group, episodes in run.episodes.items():
        for e in episodes:
            tally.episodes += 1
            if not any(behind(t, e.start) for t in truth.get(group, [])):
                tally.episodes_false += 1
    return firsts


def _why(a: Raised, run: Run, sent_by) -> str:
    """Return where an alert with no true episode behind it was raised (for the print)."""
    if sent_by is None:
        return "official"
    hole = a.hole
    s = sent_by.get((a.group, hole)) if hole is not None else None
    resolved = run.resolved.get(a.key)
    if resolved is not None and resolved - a.raised <= timedelta(minutes=2):
        return "resolved within 2 min"
    if s is not None and s.report.at - s.report.done > timedelta(minutes=3):
        return "a late report (over 3 min)"
    return "other"


def print_tally(name: str, t: Tally) -> None:
    rounds = max(t.rounds, 1)
    share = t.false / t.raised if t.raised else 0.0
    recall = t.found / t.true_n if t.true_n else 1.0
    print(f"{name}:")
    print(
        f"  out-of-position alerts raised: {t.raised}; with no true episode behind them: "
        f"{t.false} ({share:.0%} of the alerts, {t.false / rounds:.2f} per round)"
    )
    if t.why_false:
        print("    where: " + ", ".join(f"{k} {v}" for k, v in t.why_false.most_common()))
    print(f"  resolved within 2 minutes of their raise: {t.flipped}")
    print(
        f"  true episodes found: {t.found} of {t.true_n} ({recall:.0%}); missed: "
        f"{t.true_n - t.found} ({1 - recall:.0%})"
    )
    if t.silent:
        reportable = t.true_n - t.silent
        print(
            f"    of which {t.silent} belong to a group nothing of this run sees (it never "
            f"reports, or never shares its positions); of the others: "
            f"{t.found - t.found_silent} of {reportable} "
            f"({(t.found - t.found_silent) / reportable if reportable else 1.0:.0%})"
        )
    if t.provable:
        print(
            f"    the reports could prove at all (a hole of the episode reported on its own, "
            f"past both limits by the report's allowance once its lateness is counted): at most "
            f"{t.provable} of {t.true_n} ({t.provable / t.true_n:.0%}, the recall's ceiling); "
            f"found: {t.found_provable} of them"
        )
    if t.delays:
        d = sorted(t.delays)
        p90 = d[min(len(d) - 1, int(0.9 * len(d)))]
        print(
            f"  first alert after the officials' first, min: median {statistics.median(d):.1f}, "
            f"90th percentile {p90:.1f}, worst {d[-1]:.1f}"
        )
    print(f"  overdue prompts raised: {t.overdue} ({t.overdue / rounds:.1f} per round)")
    print(
        f"  whole-log episodes at the end of the day: {t.episodes}, with no true episode "
        f"behind them: {t.episodes_false}"
    )


def main() -> int:
    """Generate the rounds, replay them both ways, print the comparison; 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--groups", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tick", type=float, default=30.0, help="seconds between ticks")
    parser.add_argument(
        "--allowance", type=float, default=None,
        help="the report's allowance in minutes (default: config.toml's)",
    )  # fmt: skip
    args = parser.parse_args()
    model = Scorers()
    officials, reports = Tally(), Tally()
    tick = timedelta(seconds=args.tick)
    for r in range(args.rounds):
        rng = random.Random(args.seed * 1000 + r)
        course_text, draw_text, setup, taps, sent = generate(rng, args.groups, model)
        start = min(g.start for g in setup.groups)
        end = max(t.at for t in taps) + timedelta(minutes=30)
        official_events = [completion(t.group, t.hole, t.at, None) for t in taps]
        truth = truth_episodes(setup, official_events, start + END_OF_DAY)
        reported = {s.report.group for s in sent}
        silent = {p.group.id for p in plan_field(setup).groups} - reported
        with tempfile.TemporaryDirectory() as folder:
            run = replay(
                Path(folder), course_text, draw_text, [(e.at, e) for e in official_events],
                "officials", start, end, tick,
            )  # fmt: skip
        first = judge(officials, run, truth, None, None, silent)
        arrivals = [
            (s.arrives, completion(s.report.group, s.report.hole, s.report.at, "group"))
            for s in sent
        ]
        with tempfile.TemporaryDirectory() as folder:
            run = replay(Path(folder), course_text, draw_text, arrivals, "groups", start, end, tick,
                         args.allowance)  # fmt: skip
        sent_by = {(s.report.group, s.report.hole): s for s in sent}
        proof = provable(setup, official_events, start + END_OF_DAY, sent, timedelta(minutes=
                         config.Settings().allotment.report_allowance_min if args.allowance
                         is None else args.allowance))  # fmt: skip
        judge(reports, run, truth, first, sent_by, silent, proof)
        print(f"round {r + 1}: officials {officials.raised} alerts so far, reports "
              f"{reports.raised} ({reports.false} with no true episode)", flush=True)  # fmt: skip
    print()
    print(
        f"{args.rounds} generated medals of {args.groups} groups (seed {args.seed}), ticked every "
        f"{args.tick:g} s; scorers: {model}"
    )
    print_tally("officials' taps (every hole, as the flag goes back in)", officials)
    print_tally("scorers' reports alone (completions: groups)", reports)
    per_round = reports.false / max(reports.rounds, 1)
    recall = reports.found / reports.true_n if reports.true_n else 1.0
    met_false = per_round <= FALSE_PER_ROUND
    met_recall = recall >= RECALL
    print(
        f"target: at most {FALSE_PER_ROUND:g} alert per round with no true episode: "
        f"{per_round:.2f} {'MET' if met_false else 'MISSED'}"
    )
    print(f"target: recall at least {RECALL:.0%}: {recall:.0%} {'MET' if met_recall else 'MISSED'}")
    return 0 if met_false and met_recall else 1


if __name__ == "__main__":
    sys.exit(main())

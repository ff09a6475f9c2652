"""The course's time pars from its finished rounds (issue 30 part 2, docs/calibration.md).

Reads the store's finished rounds on a course, folds each one's log, and hands them to the
pure :mod:`pace.rules.calibration`; writes the suggestion as a course TOML the committee may
import (never applied here). Also keeps, per course, the spread of the remaining holes' time
that gives the live projections their range.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any

from pace import formats
from pace.rules import allotted, groupclock, ranges
from pace.rules import calibration as cal
from pace.rules import facts as factsmod
from pace.rules import life as lifemod
from pace.rules.errors import SetupError
from pace.rules.events import Event
from pace.rules.model import Course, RoundFacts, RoundSetup, Status, TimeCredit
from pace.rules.position import GroupPlan, GroupStatus
from pace.services.rounds import RoundService

#: the events a round's history is folded from: its facts and the committee's acts on its life
READ = (
    factsmod.HOLE_COMPLETED,
    factsmod.HOLE_TIME_CORRECTED,
    factsmod.EVENT_VOIDED,
    factsmod.SIREN,
    factsmod.TIME_CREDIT_GRANTED,
    factsmod.GROUP_WITHDRAWN,
    *lifemod.ACTS,
)

#: how long a course's spread is kept before the finished rounds are read again
SPREAD_AGE = timedelta(hours=1)
#: the same while the course has no history yet (a history imported on the day shows soon)
SPREAD_RETRY = timedelta(minutes=5)


def parse_target(text: str) -> timedelta:
    """Return a round's target time written ``H:MM`` (``4:10``) or in minutes (``250``).

    >>> parse_target("4:10"), parse_target("250")
    (datetime.timedelta(seconds=15000), datetime.timedelta(seconds=15000))
    """
    raw = text.strip()
    hm = re.fullmatch(r"([0-9]{1,2}):([0-5][0-9])", raw)
    if hm:
        value = timedelta(hours=int(hm[1]), minutes=int(hm[2]))
    elif re.fullmatch(r"[0-9]{1,3}", raw):
        value = timedelta(minutes=int(raw))
    else:
        raise SetupError(
            f"target {text[:20]!r}: expected a round time as H:MM, such as 4:10", field="target"
        )
    if not timedelta(hours=1) <= value <= timedelta(hours=12):
        raise SetupError(
            f"target {text[:20]!r}: expected a round between 1:00 and 12:00", field="target"
        )
    return value


def is_finished(setup: RoundSetup, facts: RoundFacts, life: lifemod.Life) -> bool:
    """Return whether a round is over: finished by the committee, or every group of its draw
    has its last hole logged or has withdrawn (docs/status.md, a round's life)."""
    if life.finished is not None or life.is_final:
        return True
    if not setup.groups:
        return False
    last = {g.id: allotted.playing_order(setup.course, g.tee)[-1] for g in setup.groups}
    logged = {(c.group, c.hole) for c in facts.completions}
    return all((g, h) in logged or g in facts.withdrawn for g, h in last.items())


@dataclass(frozen=True)
class Request:
    """What ``pace calibrate`` and the console page ask."""

    course: str
    since: date | None = None
    target: timedelta | None = None
    size: int | None = None


class CalibrationService:
    """The calibration of a stored course from its finished rounds, over a round service."""

    def __init__(self, rounds: RoundService) -> None:
        self.rounds = rounds
        self._spreads: dict[str, tuple[datetime, int, ranges.Spread]] = {}
        #: each round read: its number of events then, the events of :data:`READ` read so far,
        #: and its history if it was finished
        self._rounds: dict[
            str, tuple[int, list[Event], tuple[str, RoundSetup, RoundFacts] | None]
        ] = {}
        self._lock = threading.Lock()

    def finished_rounds(
        self, course: str, since: date | None = None
    ) -> list[tuple[str, RoundSetup, RoundFacts]]:
        """Return the finished rounds on ``course`` (from ``since`` on), oldest first, each with
        its setup (the draw with the day's changes) and its facts."""
        out = []
        summaries = sorted(self.rounds.list_rounds(), key=lambda s: (s.day, s.name))
        for s in summaries:
            if s.course != course or (since is not None and s.day < since):
                continue
            with self._lock:
                kept = self._rounds.get(s.name)
            if kept is None or kept[0] != s.events:
                # read again only a round whose log grew since (a finished round seldom does;
                # a round in play grows at every tap): only what was stored since is read
                # (a log that shrank is a round deleted and made again: read it whole)
                grew = kept is not None and kept[0] < s.events
                events = list(kept[1]) if grew and kept is not None else []
                after = (events[-1].seq or 0) if events else 0
                events.extend(self.rounds.store.events(s.name, types=READ, after_seq=after))
                view = self.rounds.round_view(s.name)
                facts = factsmod.fold(events)
                done = is_finished(view.setup, facts, lifemod.fold(events))
                kept = (s.events, events, (s.name, view.setup, facts) if done else None)
                with self._lock:
                    self._rounds[s.name] = kept
            if kept[2] is not None:
                out.append(kept[2])
        return out

    def calibrate(self, request: Request) -> cal.Calibration:
        """Return the course's calibration (raises ``UnknownCourseError`` for no such course)."""
        course = self.rounds.store.get_course(request.course)
        rounds = self.finished_rounds(course.name, request.since)
        history = cal.history(rounds)
        return cal.calibrate(
            course,
            history,
            self.rounds.settings.pace_settings(None),
            rounds=[name for name, _, _ in rounds],
            target=request.target,
            size=request.size,
        )

    def spread(self, course: Course, now: datetime) -> ranges.Spread:
        """Return the course's spread of the remaining holes' time, read again at most every
        :data:`SPREAD_AGE` (a round finishing adds to it; the live ranges need not follow at
        once), every :data:`SPREAD_RETRY` while it is empty."""
        with self._lock:
            kept = self._spreads.get(course.name)
            if kept is not None and kept[0] <= now:
                age = SPREAD_AGE if kept[2].ratios else SPREAD_RETRY
                if now - kept[0] < age:
                    return kept[2]
        return self._read(course, now)

    def kept(self, course: Course, now: datetime) -> ranges.Spread:
        """Return the course's spread as last read, without reading the finished rounds again
        (the live rows' ranges, under the live lock): only the first ask reads them; then
        :meth:`refresh` (the scheduler's, off the lock) keeps it up to date."""
        with self._lock:
            kept = self._spreads.get(course.name)
        if kept is not None:
            return kept[2]
        return self._read(course, now)

    def refresh(self, course: Course, now: datetime) -> None:
        """Read the course's finished rounds again once its spread is due (:meth:`spread`):
        the scheduler's job, off the live lock."""
        self.spread(course, now)

    def forget(self, course: str | None = None) -> None:
        """Drop the spread kept of ``course`` (every course: None), read again at its next ask
        (a history imported, a round finished on the course)."""
        with self._lock:
            if course is None:
                self._spreads.clear()
            else:
                self._spreads.pop(course, None)

    def _read(self, course: Course, now: datetime) -> ranges.Spread:
        rounds = self.finished_rounds(course.name)
        s = ranges.spread(course, cal.history(rounds), self.rounds.settings.pace_settings(None))
        with self._lock:
            self._spreads[course.name] = (now, len(rounds), s)
        return s


def suggestion_name(course: Course, on: date) -> str:
    """Return the name the suggested course is written under: the stored course's holes may
    not change once a round has events (docs/formats.md §1), so the file is a new course."""
    return f"{course.name} (calibrated {on.isoformat()})"


def suggestion_toml(c: cal.Calibration, name: str) -> str:
    """Return the suggestion as a course TOML (``pace import course`` reads it)."""
    return formats.course_toml(replace(c.suggested_course(), name=name))


def minutes(t: timedelta | None) -> float | None:
    """Return a duration in minutes to the tenth, for the table and the JSON."""
    return None if t is None else round(t / timedelta(minutes=1), 1)


def document(c: cal.Calibration) -> dict[str, Any]:
    """Return the calibration as the JSON ``pace calibrate --json`` prints and the page reads."""
    return {
        "course": c.course.name,
        "rounds": list(c.rounds),
        "counted": c.counted,
        "skipped": dict(c.skipped),
        "columns": [
            {
                "size": col.column,
                "whole_rounds": col.rounds,
                "observed_round_min": minutes(col.observed_round),
                "allotted_round_min": minutes(col.allotted_round),
                "target_min": minutes(col.target),
                "no_suggestion": col.reason,
                "holes": [
                    {
                        "hole": h.hole,
                        "count": h.count,
                        "median_min": minutes(h.median),
                        "p80_min": minutes(h.p80),
                        "allotted_min": minutes(h.allotted),
                        "suggested_min": minutes(h.suggested),
                    }
                    for h in col.holes
                ],
            }
            for col in c.columns
        ],
    }


def table(c: cal.Calibration) -> list[str]:
    """Return the calibration as the plain-text table ``pace calibrate`` prints."""
    left_out = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in c.skipped.items() if n)
    lines = [
        f"course {c.course.name!r}: {len(c.rounds)} finished rounds, {c.counted} hole times"
        f" counted; left out: {left_out or 'nothing'}"
    ]
    if not c.rounds:
        lines.append("no finished round on this course yet: nothing to calibrate from")
    for col in c.columns:
        lines.append("")
        lines.append(
            f"groups of {col.column}: median round {hours(col.observed_round)} over"
            f" {col.rounds} whole rounds; allotted {hours(col.allotted_round)};"
            f" suggestion sums to {hours(col.target)}"
        )
        lines.append(
            f"{'hole':>4} {'n':>4} {'median':>7} {'p80':>7} {'allotted':>9} {'suggested':>10}"
        )
        for h in col.holes:
            lines.append(
                f"{h.hole:>4} {h.count:>4} {clock_minutes(h.median):>7} {clock_minutes(h.p80):>7}"
                f" {clock_minutes(h.allotted):>9} {clock_minutes(h.suggested):>10}"
            )
        if col.reason:
            lines.append(f"no suggestion for groups of {col.column}: {col.reason}")
    return lines


def clock_minutes(t: timedelta | None) -> str:
    """Return a duration as minutes and seconds, ``12:30`` (``-``: none)."""
    if t is None:
        return "-"
    seconds = round(t.total_seconds())
    return f"{seconds // 60}:{seconds % 60:02d}"


def hours(t: timedelta | None) -> str:
    """Return a duration as hours and minutes, ``4:10`` (``-``: none)."""
    if t is None:
        return "-"
    minutes_ = round(t / timedelta(minutes=1))
    return f"{minutes_ // 60}:{minutes_ % 60:02d}"


def projection_ranges(
    spread: ranges.Spread,
    course: Course,
    plan: GroupPlan,
    s: GroupStatus,
    done: Mapping[int, datetime],
    spans: Sequence[tuple[datetime, datetime | None]],
    credits: Sequence[TimeCredit],
    now: datetime,
) -> dict[str, Any]:
    """Return the 80 % ranges a group's row shows beside its projection (docs/calibration.md).

    ``finish_range``: the projected finish's, as two instants (None once the group finished,
    withdrew or before the history allows); ``over_hole_range``: the hole it is first over
    time at, earliest and latest (None at an end: not over by the last hole at that end),
    only while it is in play and not over time at its last completion. ``spans`` are the
    stops of play, ``credits`` the group's time credits.
    """
    out: dict[str, Any] = {"finish_range": None, "over_hole_range": None}
    g = plan.group
    # the range runs from the group's last real completion: its status may count a missed
    # tap's estimate (docs/estimates.md), which has no instant in ``done``
    k = max((i + 1 for i, hole in enumerate(plan.order) if hole in done), default=0)
    if s.status in (Status.FINISHED, Status.WITHDRAWN, Status.NOT_STARTED) or k >= len(plan.order):
        return out
    anchor = done[plan.order[k - 1]] if k else g.start
    size = g.size_at(now)
    r = ranges.finish_range(spread, course, plan.order, size, k, anchor, now)
    if r is not None:
        out["finish_range"] = [r[0].isoformat(), r[1].isoformat()]
    if s.confirmed in (None, Status.ON_PACE):
        elapsed = groupclock.elapsed(g.start, anchor, spans, credits, credits_at=now)
        cumulative = plan.cumulative_at(done, now)
        holes = ranges.over_hole_range(spread, course, plan.order, size, k, elapsed, cumulative)
        if holes is not None:
            out["over_hole_range"] = list(holes)
    return out

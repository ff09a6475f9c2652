"""Offline use cases: judge a round from the committee's files alone, no server, no database.

The referee log's acts become the events the live commands record
(:func:`pace.formats.referee_log.to_events`); the hole times, the log's sirens and credits
are folded into facts as the live log is; and the round is judged by the same pure
function as the live service, :func:`pace.rules.refereeing.judge_round`. ``pace penalties``,
``pace status --referee`` and ``pace results --referee`` all start here.

A round's export (``pace export round``: its course, imported draw and whole log) is judged as
the stored round is, with no database: the draw as changed on the day, the log's facts
(:func:`backup_status`, ``pace status --backup``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo
from pathlib import Path

from pace import formats
from pace.formats.backup import Backup
from pace.formats.referee_log import LogEvents, RefereeAct, to_events
from pace.rules import changes as changesmod
from pace.rules import facts as factsmod
from pace.rules import penalties
from pace.rules import refereeing as rr
from pace.rules.model import HoleCompletion, PaceSettings, RoundFacts, RoundSetup
from pace.rules.policies import Policy
from pace.rules.position import FieldStatus, evaluate_field

#: The round's name given to the events of a paper log judged offline.
OFFLINE_ROUND = "offline"


@dataclass(frozen=True)
class OfflineJudgement:
    """A round judged from files: its setup, facts, the log's events, and the judgement.

    ``act_ids`` maps each event id to the log's id of its act (``L12``), so a report names
    faults as the referee wrote them.
    """

    setup: RoundSetup
    facts: RoundFacts
    log: LogEvents
    judgement: rr.Judgement

    @property
    def outcomes(self) -> tuple[penalties.FaultOutcome, ...]:
        """Return every fault of the round judged, in log order (docs/rules.md §6)."""
        return self.judgement.outcomes

    def act_id(self, fault: penalties.Fault) -> str:
        """Return the log's name of a fault: the stroke's act id, or ``cp:N``."""
        if fault.source == "checkpoint":
            return "cp:" + fault.id.rsplit(":", 1)[1]
        return self.log.act_ids.get(fault.id, fault.id)


def end_of_day(day: date, tz: tzinfo) -> datetime:
    """Return the last instant of the round's day: an offline judgement covers the whole day."""
    return datetime.combine(day, time.max, tzinfo=tz)


def offline_facts(
    completions: Sequence[HoleCompletion], log: LogEvents | None = None
) -> RoundFacts:
    """Return the facts of a paper round: the hole times, and the log's sirens and credits."""
    folded = factsmod.fold(log.events if log is not None else ())
    return RoundFacts(
        completions=tuple(sorted(completions, key=lambda c: c.at)),
        suspensions=folded.suspensions,
        credits=folded.credits,
    )


def backup_status(backup: Backup, pace: PaceSettings, now: datetime) -> FieldStatus:
    """Return the statuses at ``now`` of the round a backup holds, as the live service and
    ``pace round status`` judge the stored round (docs/status.md, "Changes on the day").

    The draw is the imported one with every standing change of the log applied in log order
    (a retirement from its instant, the others from the group's start); the facts are the
    whole log's (taps, corrections, voids, sirens, credits, groups withdrawn). ``pace`` holds
    the rules' numbers with the round's own standard interval.
    """
    drawn = RoundSetup(backup.course, backup.groups, pace)
    setup = changesmod.apply(drawn, backup.events)
    return evaluate_field(setup, factsmod.fold(backup.events), now)


def judge(
    setup: RoundSetup,
    completions: Sequence[HoleCompletion],
    acts: Sequence[RefereeAct],
    policy: Policy,
    now: datetime,
    *,
    play: str = penalties.STROKE_PLAY,
    format_name: str = "individual",
) -> OfflineJudgement:
    """Return a paper round judged exactly as the live service judges the same acts."""
    log = to_events(acts, OFFLINE_ROUND)
    facts = offline_facts(completions, log)
    state = rr.fold(log.events)
    judgement = rr.judge_round(setup, facts, state, policy, now, play=play, format_name=format_name)
    return OfflineJudgement(setup, facts, log, judgement)


def judge_files(
    course: str | Path,
    draw: str | Path,
    times: str | Path,
    referee: str | Path,
    *,
    policy: Policy,
    day: date,
    tz: tzinfo,
    play: str = penalties.STROKE_PLAY,
    format_name: str = "individual",
    setup: RoundSetup | None = None,
) -> OfflineJudgement:
    """Return the round of these files judged (docs/formats.md §1–§3, §5).

    ``setup`` may be given when the caller built it (its settings: the standard interval);
    otherwise the course and the draw are read with the default settings. Raises
    ``FileFormatError`` naming the file, line and field of every problem.
    """
    if setup is None:
        parsed = formats.parse_course(formats.read_text(course), str(course))
        groups = formats.parse_draw(
            formats.read_text(draw), str(draw), day=day, tz=tz, course=parsed
        )
        setup = RoundSetup(parsed, groups)
    completions = formats.parse_times(
        formats.read_text(times), str(times), day=day, tz=tz,
        course=setup.course, groups=setup.groups,
    )  # fmt: skip
    acts = formats.parse_referee_log(
        formats.read_text(referee), str(referee), day=day, tz=tz,
        course=setup.course, groups=setup.groups,
    )  # fmt: skip
    return judge(
        setup, completions, acts, policy, end_of_day(day, tz), play=play, format_name=format_name
    )

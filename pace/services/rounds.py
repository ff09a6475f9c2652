"""Use cases: turn commands into events, and events into statuses.

The service is the only caller of both the rules and the store. It gets ``now`` from
an injected clock; web handlers, the scheduler and the CLI all go through it.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from pace import formats
from pace.clock import Clock, SystemClock
from pace.config import Settings
from pace.rules import changes as changesmod
from pace.rules import facts as factsmod
from pace.rules import life as lifemod
from pace.rules import names
from pace.rules.errors import FileFormatError, Problem, SetupError, said
from pace.rules.events import Event
from pace.rules.model import Course, Group, HoleCompletion, RoundFacts, RoundSetup
from pace.rules.position import FieldPlan, FieldStatus, plan_field
from pace.rules.position import evaluate_field as _evaluate
from pace.services import finality
from pace.services import scoring as scoringmod
from pace.services.commands import CommandError
from pace.store import (
    UNSET,
    RoundRecord,
    RoundSummary,
    Store,
    UnknownCourseError,
    UnknownRoundError,
    open_store,
)
from pace.store.records import check_completions

log = logging.getLogger(__name__)

#: Namespace of the ids of imported events: re-importing the same file adds nothing.
IMPORT_NAMESPACE = uuid.UUID("6f1d3c52-5c2a-4f0e-9d0b-3a1c2b7d9e10")


@dataclass(frozen=True)
class RoundView:
    """A round's stored setup together with the rules' view of it.

    ``record`` and ``setup`` hold the draw as the log's changes on the day left it
    (:func:`pace.rules.changes.apply`); ``drawn`` is the draw as imported.
    """

    record: RoundRecord
    setup: RoundSetup
    plan: FieldPlan
    drawn: RoundSetup | None = None
    #: the log's last sequence number when the view was made: a change stored after it
    #: makes the view stale (``LiveRounds.get`` folds the round again)
    seq: int = 0

    @property
    def imported(self) -> RoundSetup:
        """Return the setup with the draw as imported (before any change on the day)."""
        return self.drawn or self.setup

    @property
    def tz(self) -> ZoneInfo:
        """Return the round's time zone."""
        return ZoneInfo(self.record.timezone)


@dataclass(frozen=True)
class PreparedDraw:
    """A round's setup and draw, checked and parsed, not stored yet (``prepare_draw``)."""

    round: str
    new: bool
    course: Course
    day: date
    timezone: str
    groups: tuple[Group, ...]
    policy: str | None
    play: str | None
    format: str | None
    scoring: str | None
    net: bool | None
    allowance: Sequence[float] | None
    #: where the round's completions come from (None: a new round takes the configuration's)
    completions: str | None = None
    #: the round's readings of the handicap rules (issue 47; None: a new round takes the
    #: configuration's, an existing one keeps its own)
    rounding: str | None = None
    gross_par_adjustment: bool | None = None
    #: the club a new round belongs to (issue 50)
    club: str = "default"


class RoundService:
    """The use cases of pace over one store, one configuration and one clock."""

    def __init__(self, store: Store, settings: Settings, clock: Clock | None = None):
        self.store = store
        self.settings = settings
        self.clock = clock or SystemClock()
        self._views: dict[str, RoundView] = {}
        self._lock = threading.RLock()

    # -- setup ------------------------------------------------------------------------

    def import_course(
        self, text: str, filename: str, notes: list[str] | None = None, *, club: str = "default"
    ) -> Course:
        """Parse a course TOML and store it under its name (replacing one of that name, of
        ``club``); what is read but unusual (a par of 6) is added to ``notes``."""
        course = formats.parse_course(text, filename, notes)
        self.store.save_course(course, imported_at=self.clock.now(), club=club)
        self._forget()
        return course

    def course(self, name: str, club: str | None = None) -> Course:
        """Return the stored course ``name`` (of ``club``, when given: another club's course
        is ``unknown_course``, as though it were not stored)."""
        course = self.store.get_course(name)
        if club is not None and self.store.course_club(name) != club:
            raise UnknownCourseError(said("refusal.course.unknown", "course {course} does not "
                                          "exist; import it first", course=repr(name)))  # fmt: skip
        return course

    def export_course(self, name: str, club: str | None = None) -> str:
        """Return the stored course ``name`` as course TOML that re-imports to the same course
        (``unknown_course``): ``pace export course``, and the courses' download."""
        return formats.course_toml(self.course(name, club), f"{name}.toml")

    def import_draw(
        self,
        text: str,
        filename: str,
        *,
        round: str,
        notes: list[str] | None = None,
        **setup: Any,
    ) -> RoundRecord:
        """Parse a draw CSV into round ``round``, creating the round if it is new.

        A new round needs its course (default: the only stored course) and its day
        (default: today in the round's time zone). An existing round keeps its course,
        day and time zone; its draw is replaced while it has no events. ``policy`` (a
        preset or a custom policy of the configuration), ``play``, ``format``, ``scoring``
        (which implies ``play``), ``net`` and ``allowance`` are set on a new round, and
        changed on an existing one when given (the keywords of :meth:`prepare_draw`).
        Columns the draw does not know are named in ``notes``.
        """
        return self.store_draw(self.prepare_draw(text, filename, round=round, notes=notes, **setup))

    def prepare_draw(
        self,
        text: str,
        filename: str,
        *,
        round: str,
        course: str | None = None,
        day: date | None = None,
        timezone: str | None = None,
        policy: str | None = None,
        play: str | None = None,
        format: str | None = None,
        scoring: str | None = None,
        net: bool | None = None,
        allowance: Sequence[float] | None = None,
        notes: list[str] | None = None,
        new: bool = False,
        tees: Mapping[str, str] | None = None,
        completions: str | None = None,
        rounding: str | None = None,
        gross_par_adjustment: bool | None = None,
        club: str | None = None,
    ) -> PreparedDraw:
        """Check a round's setup and parse its draw CSV, storing nothing: what
        :meth:`store_draw` stores (the console's preview, then its confirmation, parse the
        same way). ``new``: refuse a round that exists (``round_exists``). ``tees``: the
        round's default tees by gender or class for players the draw gives none
        (``{"men": "Yellow", "women": "Red"}``). ``completions``: where the round's
        completions come from (``officials``, ``officials_and_groups``, ``groups``).
        ``rounding`` and ``gross_par_adjustment``: the round's readings of the handicap rules
        (None: a new round takes config.toml's ``[handicap]``)."""
        if completions is not None:
            check_completions(completions)
        scoringmod.with_readings(self.settings.allowances(), rounding, gross_par_adjustment)
        if policy is not None:
            self.settings.policy(policy)  # SetupError naming the known policies
        try:  # the one spelling pages and payloads will compare with (pace.rules.names)
            round = names.canonical(round)
        except names.SpellingError as e:
            raise SetupError(said("refusal.round.name_spelling", "round name {value} {reason}",
                                  value=repr(round), reason=e.sentence or e.reason),
                             field="round") from None  # fmt: skip
        if not round:
            raise SetupError(said("refusal.round.no_name", "a round needs a name"), field="round")
        existing = self._existing_round(round)
        if club is not None and existing is not None and existing.club != club:
            if not new:  # another club's round is not this club's to change
                raise UnknownRoundError(said("refusal.round.none", "no round {round}; rounds are "
                                             "created with pace import draw",
                                             round=repr(round[:40])), field="round")  # fmt: skip
        if new and existing is not None:
            raise SetupError(
                said("refusal.round.exists", "round {round} exists already; choose another name "
                     "(its draw changes on the day on its changes page)", round=repr(round)),
                field="round",
                code="round_exists",
            )  # fmt: skip
        if scoring is None and play and existing is not None and existing.scoring:
            scoring = existing.scoring  # a play that contradicts the stored scoring is refused
        scoring, play = scoringmod.check_setup(
            scoring,
            play,
            format or (existing.format if existing else "individual"),
            allowance,
            self.settings,
        )
        if existing is None:
            course_obj = self._course_for_new_round(course, club)
            tzname = timezone or self.settings.round.timezone
            tz = ZoneInfo(tzname)
            day = day or self.clock.now().astimezone(tz).date()
        else:
            course_obj, tz, day = existing.course, ZoneInfo(existing.timezone), existing.day
            tzname = existing.timezone
        defaults = formats.check_tee_defaults(tees, course_obj) if tees else None
        groups = formats.parse_draw(
            text, filename, day=day, tz=tz, course=course_obj, notes=notes, tee_defaults=defaults
        )
        return PreparedDraw(round, existing is None, course_obj, day, tzname, groups, policy,
                            play, format, scoring, net, allowance, completions, rounding,
                            gross_par_adjustment, club or "default")  # fmt: skip

    def store_draw(self, p: PreparedDraw) -> RoundRecord:
        """Store a prepared draw: create its round, or replace the draw of one without events."""
        if p.new:
            self.store.create_round(
                p.round,
                course=p.course.name,
                day=p.day,
                timezone=p.timezone,
                policy=p.policy or self.settings.round.policy,
                created_at=self.clock.now(),
                play=p.play or "stroke_play",
                format=p.format or "individual",
                scoring=p.scoring,
                net=bool(p.net),
                allowance=p.allowance,
                club=p.club,
            )
            # the readings of the handicap rules the round is created with are its own: a later
            # change of config.toml leaves its results as they are (issue 47)
            readings = self.settings.handicap
            self.store.update_round(
                p.round,
                completions=p.completions or self.settings.round.completions,
                positions=self.settings.round.positions,
                rounding=p.rounding or readings.rounding,
                gross_par_adjustment=readings.gross_par_adjustment
                if p.gross_par_adjustment is None
                else p.gross_par_adjustment,
            )
        elif (
            p.policy
            or p.play
            or p.format
            or p.scoring
            or p.net is not None
            or p.allowance is not None
            or p.completions is not None
            or p.rounding is not None
            or p.gross_par_adjustment is not None
        ):
            self.store.update_round(
                p.round,
                policy=p.policy or UNSET,
                play=p.play or UNSET,
                format=p.format or UNSET,
                scoring=p.scoring or UNSET,
                net=UNSET if p.net is None else p.net,
                allowance=UNSET if p.allowance is None else p.allowance,
                completions=p.completions or UNSET,
                rounding=p.rounding or UNSET,
                gross_par_adjustment=UNSET
                if p.gross_par_adjustment is None
                else p.gross_par_adjustment,
            )
        record = self.store.save_draw(p.round, p.groups)
        self._forget(p.round)
        return record

    def set_scoring(
        self,
        round: str,
        *,
        scoring: str,
        net: bool,
        allowance: Sequence[float] | None,
    ) -> RoundRecord:
        """Store how a round is scored (a committee setting): its scoring, net or gross, and
        its own allowance (None: the configuration's). The scoring sets the form of play."""
        record = self.store.get_round(round)
        name, play = scoringmod.check_setup(scoring, None, record.format, allowance, self.settings)
        updated = self.store.update_round(
            round, scoring=name, play=play or UNSET, net=net, allowance=allowance
        )
        self._forget(round)
        return updated

    def set_handicap_readings(
        self, round: str, *, rounding: str, gross_par_adjustment: bool
    ) -> RoundRecord:
        """Store the round's readings of the handicap rules (a committee setting, issue 47):
        the playing handicap's ``rounding`` (``whs`` or ``course_then_playing``) and whether
        gross stroke and match play from tees of different par take the
        ``gross_par_adjustment``; its results, leaderboard and sheets follow them.

        Refused (``results_final``) while the round's results are final: the readings change
        them; the committee reopens them first, with a reason."""
        scoringmod.with_readings(self.settings.allowances(), rounding, gross_par_adjustment)
        record = self.store.get_round(round)
        life = lifemod.fold(self.store.events(record.name))
        if life.is_final:
            act = life.final
            assert act is not None
            when = act.at.astimezone(ZoneInfo(record.timezone)).strftime("%Y-%m-%d %H:%M")
            raise CommandError(
                f"the results of round {record.name!r} are final since {when} ({act.who}): "
                "their handicap readings cannot change; the committee reopens them first, with "
                "a reason (pace round reopen)",
                code="results_final",
                field="rounding",
            )
        updated = self.store.update_round(
            record.name, rounding=rounding, gross_par_adjustment=gross_par_adjustment
        )
        self._forget(record.name)
        return updated

    def set_completions(self, round: str, completions: str) -> RoundRecord:
        """Store where a round's completions come from (``officials``,
        ``officials_and_groups``, ``groups``; docs/status.md "Groups' reports")."""
        updated = self.store.update_round(round, completions=check_completions(completions))
        self._forget(round)
        return updated

    def set_positions(self, round: str, allowed: bool) -> RoundRecord:
        """Store whether a round allows positions from the groups' phones (issue 48,
        docs/positions.md); off by default."""
        updated = self.store.update_round(round, positions=bool(allowed))
        self._forget(round)
        return updated

    def import_times(self, text: str, filename: str, *, round: str, by: str) -> tuple[int, int]:
        """Parse a hole-times CSV into ``hole_completed`` events; return (new, already stored).

        All or nothing: a row that clashes with a completion already logged (another
        time for the same group and hole), or that the logged times put out of the group's
        playing order, refuses the whole file. Re-importing the same file adds nothing (the
        event ids derive from the rows).
        """
        view = self.round_view(round)
        rec = view.record
        completions = formats.parse_times(
            text, filename, day=rec.day, tz=view.tz, course=rec.course, groups=rec.groups
        )
        stored_now = self.facts(round).completions
        logged = {(c.group, c.hole): c.at for c in stored_now}
        clashes = [c for c in completions if logged.get((c.group, c.hole), c.at) != c.at]
        lines = _times_lines(text, filename)
        problems = [
            Problem(
                filename,
                lines.get((c.group, c.hole), (None, ""))[0],
                "completed",
                f"group {c.group!r} hole {c.hole} is already logged at "
                f"{logged[(c.group, c.hole)].astimezone(view.tz):%H:%M:%S}; "
                "correct that time instead of importing another one",
            )
            for c in clashes
        ]
        if not problems:
            problems = formats.times.out_of_order(
                completions,
                rec.course,
                {g.id: g for g in rec.groups},
                filename,
                lines,
                logged=stored_now,
                tz=view.tz,
            )
        if problems:
            raise FileFormatError(problems)
        events = [self._imported_completion(round, c, by) for c in completions]
        self._check_open(view, events)
        stored = self.store.append_many(events, recorded_at=self.clock.now())
        created = sum(1 for _, new in stored if new)
        return created, len(stored) - created

    def import_referee_log(
        self, text: str, filename: str, *, round: str, by: str
    ) -> tuple[int, int]:
        """Parse a referee log CSV into the live commands' events; return (new, already stored).

        All or nothing: every problem of the file is reported (file, line, field) and nothing
        is stored. The events' ids derive from the acts' content, so re-importing the same
        log stores nothing new (docs/formats.md §5).
        """
        view = self.round_view(round)
        rec = view.record
        acts = formats.parse_referee_log(
            text, filename, day=rec.day, tz=view.tz, course=rec.course, groups=rec.groups
        )
        log = formats.referee_log.to_events(acts, round, by=by)
        self._check_open(view, list(log.events))
        stored = self.store.append_many(log.events, recorded_at=self.clock.now())
        created = sum(1 for _, new in stored if new)
        return created, len(stored) - created

    def _check_open(self, view: RoundView, events: list[Event]) -> None:
        """Refuse a file's new facts while the round's results are final (``results_final``)."""
        finality.check_open_import(
            view.record.name, view.tz, self.store.events(view.record.name), events
        )

    def _imported_completion(self, round: str, c: HoleCompletion, by: str) -> Event:
        key = f"{round}/{c.group}/{c.hole}/{c.at.isoformat()}"
        return Event(
            id=str(uuid.uuid5(IMPORT_NAMESPACE, key)),
            type=factsmod.HOLE_COMPLETED,
            round=round,
            at=c.at,
            payload={"group": c.group, "hole": c.hole},
            by={"name": by, "role": "committee", "device": "import"},
        )

    def _existing_round(self, name: str) -> RoundRecord | None:
        try:
            return self.store.get_round(name)
        except UnknownRoundError:
            return None

    def _course_for_new_round(self, name: str | None, club: str | None = None) -> Course:
        if name is not None:
            return self.course(name, club)
        courses = self.store.list_courses(club=club)
        if len(courses) == 1:
            return courses[0]
        names = ", ".join(repr(c.name) for c in courses)
        raise UnknownRoundError(
            said("refusal.round.course", "which course does the new round use? pass --course; "
                 "stored courses: {names}", names=names)
            if names else
            said("refusal.round.no_course", "which course does the new round use? pass "
                 "--course; stored courses: none yet: import one first"),
            field="course",
            code="course_required",
        )  # fmt: skip

    def list_rounds(self, club: str | None = None) -> list[RoundSummary]:
        """Return every round of the database (of ``club``, when given)."""
        return self.store.list_rounds(club=club)

    # -- evaluation -------------------------------------------------------------------

    def set_language(self, round: str, language: str | None) -> RoundRecord:
        """Store the language of the round's documents (None: the configuration's)."""
        updated = self.store.update_round(round, language=language)
        self._forget(round)
        return updated

    def document_language(self, round: str, asked: str | None = None) -> str:
        """Return the language of a document of the round: the one asked for, else the
        committee's for the round (stored with it), else ``[reports] language``."""
        return asked or self.store.get_round(round).language or self.settings.reports.language

    def round_view(self, round: str) -> RoundView:
        """Return the round's setup and plan (kept between ticks until the setup changes).

        The draw is the imported one with the log's changes on the day applied (one fold,
        :func:`pace.rules.changes.apply`, for the live state, the report and the results);
        a change forgets the view (:meth:`draw_changed`).
        """
        with self._lock:
            view = self._views.get(round)
            if view is None:
                record = self.store.get_round(round)
                seq = self.store.last_seq(round)
                drawn = RoundSetup(
                    record.course,
                    record.groups,
                    self.settings.pace_settings(record.standard_interval),
                )
                kinds = (*changesmod.KINDS, factsmod.EVENT_VOIDED)
                changes = self.store.events(round, types=kinds)
                setup = changesmod.apply(drawn, changes)
                if setup is drawn:
                    view = RoundView(record, setup, plan_field(setup), seq=seq)
                else:
                    record = replace(record, groups=setup.groups)
                    view = RoundView(record, setup, plan_field(setup), drawn, seq)
                self._views[round] = view
            return view

    def draw_changed(self, round: str) -> None:
        """Forget ``round``'s view: a change on the day (or its void) was stored."""
        self._forget(round)

    def facts(self, round: str, events: Sequence[Event] | None = None) -> RoundFacts:
        """Return the round's facts folded from its log."""
        return factsmod.fold(self.store.events(round) if events is None else events)

    def status(self, round: str, now: datetime | None = None) -> FieldStatus:
        """Return the field's statuses at ``now`` (default: the clock's now)."""
        view = self.round_view(round)
        now = now or self.clock.now()
        return _evaluate(view.setup, self.facts(round), now, view.plan)

    def _forget(self, round: str | None = None) -> None:
        with self._lock:
            if round is None:
                self._views.clear()
            else:
                self._views.pop(round, None)


def _times_lines(text: str, filename: str) -> dict[tuple[str, int], tuple[int, str]]:
    """Return the line and the time as written of each (group, hole) row of a hole-times CSV
    already parsed once."""
    table, _ = formats.csvfile.read_table(text, filename, formats.times.COLUMNS)
    lines: dict[tuple[str, int], tuple[int, str]] = {}
    for row in table.rows:
        try:
            hole = formats.times.parse_hole_number(row.get("hole"))
        except ValueError:
            continue
        lines.setdefault((row.get("group"), hole), (row.line, row.get("completed")))
    return lines


def offline_status(
    setup: RoundSetup, completions: Sequence[HoleCompletion], now: datetime
) -> FieldStatus:
    """Evaluate a field from files alone, exactly as the live scheduler does."""
    return _evaluate(setup, RoundFacts(completions=tuple(completions)), now)


def open_service(settings: Settings, target: str | None = None) -> RoundService:
    """Open the database ``target`` (default: the settings' ``database.path``) as a service."""
    path = target or settings.database.path
    return RoundService(open_store(path, synchronous=settings.database.synchronous), settings)

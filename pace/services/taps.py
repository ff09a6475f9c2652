"""The marshals' use cases: holes completed, their times corrected, facts voided, sirens.

Each command is validated against the round's folded state (:mod:`pace.services.state`,
through :class:`pace.services.live.LiveService`; field-level errors), appended to the log
(committed before returning) and answered with the stored event; a resend of the same id is
answered with what was stored and changes nothing. What the pages must then be told is the
live service's feed (``LiveService.changes``).
"""

from __future__ import annotations

from pace.rules import facts as factsmod
from pace.rules import refereeing, reported
from pace.rules.events import Event
from pace.rules.scoring import records
from pace.services import commands as cmd
from pace.services.commands import CommandError, Outcome
from pace.services.live import LiveService
from pace.services.validation import check_hole, group_of, live_target, local

__all__ = ["VOIDABLE", "TapService"]


class TapService:
    """The marshals' commands (and the voids of any role) over a :class:`LiveService`."""

    def __init__(self, live: LiveService) -> None:
        self.live = live

    def log_hole_completed(self, c: cmd.LogHoleCompleted) -> Outcome:
        """Record that a group completed a hole; a resend of the same id changes nothing.

        A hole the group itself reported is still taken: an official's tap wins over the
        group's report (docs/status.md "Groups' reports")."""
        return self._completion(c, reported.OFFICIAL)

    def report_hole_completed(self, c: cmd.ReportHoleCompleted) -> Outcome:
        """Record a group's own report that it holed out (its scorer's page): a completion
        whose source is the group; a resend of the same id changes nothing.

        Refused when the round takes the officials' taps only (``groups_not_reporting``) and
        when the group reported that hole already (``already_reported``); a hole an official
        logged is still taken (the official's tap counts; the report is kept to compare)."""
        return self._completion(c, reported.GROUP)

    def _completion(
        self, c: cmd.LogHoleCompleted | cmd.ReportHoleCompleted, source: str
    ) -> Outcome:
        with self.live.lock:
            live = self.live.live(c.round)
            view = live.view
            at = c.at.corrected
            payload: dict[str, object] = {
                "group": c.group,
                "hole": c.hole,
                "device_at": c.at.raw.isoformat(),
                "clock_offset_ms": round(c.at.offset.total_seconds() * 1000, 1),
                "clock_source": c.at.source,
            }
            if source == reported.GROUP:
                payload["source"] = reported.GROUP
            event = Event(
                id=c.id,
                type=factsmod.HOLE_COMPLETED,
                round=c.round,
                at=at,
                payload=payload,
                by=c.by.as_dict(),
            )
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            if source == reported.GROUP:
                # read from the store: `pace round completions` may have changed it while the
                # server runs (the round's view is kept until its setup changes here)
                setting = self.live.service.store.get_round(c.round).completions
                if not reported.groups_report(setting):
                    raise CommandError(
                        f"round {c.round!r} takes hole times from officials only; the "
                        "committee may let groups report theirs (completions: "
                        "officials_and_groups or groups)",
                        field="round",
                        code="groups_not_reporting",
                    )
            group = group_of(view, c.group)
            check_hole(view, c.hole)
            self.live.check_instant(view, at, "at")
            if at < group.start:
                raise CommandError(
                    f"group {c.group!r} starts at {local(view, group.start)}; a completion at "
                    f"{local(view, at)} is before its start",
                    field="at",
                    code="before_start",
                )
            if source == reported.GROUP:
                if live.field.report_of(c.group, c.hole) is not None:
                    raise CommandError(
                        f"group {c.group!r} reported hole {c.hole} already",
                        field="hole",
                        code="already_reported",
                    )
            else:
                # an official's tap counts over the group's report and over its positions
                # (docs/status.md, docs/positions.md): only another official's is refused
                logged = live.field.done(c.group).get(c.hole)
                if logged is not None and live.field.source(c.group, c.hole) == reported.OFFICIAL:
                    raise CommandError(
                        f"group {c.group!r} hole {c.hole} is already logged at "
                        f"{local(view, logged)}; correct that time instead",
                        field="hole",
                        code="already_logged",
                    )
            return Outcome(*self.live.append(event))

    def correct_hole_time(self, c: cmd.CorrectHoleTime) -> Outcome:
        """Replace a logged completion's instant; the original stays in the log."""
        with self.live.lock:
            live = self.live.live(c.round)
            view = live.view
            at = c.at.corrected
            event = Event(
                id=c.id,
                type=factsmod.HOLE_TIME_CORRECTED,
                round=c.round,
                at=self.live.clock.now(),
                payload={
                    "target": c.target,
                    "at": at.isoformat(),
                    "device_at": c.at.raw.isoformat(),
                    "reason": c.reason,
                },
                by=c.by.as_dict(),
            )
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            target = live_target(live, c.target, (factsmod.HOLE_COMPLETED,))
            self.live.check_instant(view, at, "at")
            group = group_of(view, str(target.payload["group"]))
            if at < group.start:
                raise CommandError(
                    f"group {group.id!r} starts at {local(view, group.start)}; "
                    f"{local(view, at)} is before its start",
                    field="at",
                    code="before_start",
                )
            return Outcome(*self.live.append(event))

    def void_event(self, c: cmd.VoidEvent) -> Outcome:
        """Cancel a logged fact with a reason; the original stays in the log."""
        with self.live.lock:
            live = self.live.live(c.round)
            event = Event(
                id=c.id,
                type=factsmod.EVENT_VOIDED,
                round=c.round,
                at=self.live.clock.now(),
                payload={"target": c.target, "reason": c.reason},
                by=c.by.as_dict(),
            )
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            live_target(live, c.target, VOIDABLE)
            return Outcome(*self.live.append(event))

    def record_siren(self, c: cmd.RecordSiren) -> Outcome:
        """Record a siren: play stops (interruption, suspension) or resumes (docs/rules.md §8)."""
        with self.live.lock:
            view = self.live.live(c.round).view
            at = c.at.corrected
            event = Event(
                id=c.id,
                type=factsmod.SIREN,
                round=c.round,
                at=at,
                payload={"kind": c.kind, "device_at": c.at.raw.isoformat()},
                by=c.by.as_dict(),
            )
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            self.live.check_instant(view, at, "at")
            return Outcome(*self.live.append(event))


VOIDABLE = (
    factsmod.HOLE_COMPLETED,
    factsmod.HOLE_TIME_CORRECTED,
    factsmod.SIREN,
    factsmod.TIME_CREDIT_GRANTED,
    factsmod.GROUP_WITHDRAWN,
    # a referee's slip on the shot clock: a stroke timed for the wrong player, a wrong tap
    refereeing.STROKE_TIMED,
    refereeing.PLAYER_NOTIFIED,
    refereeing.PLAYER_TOLD_TIMED,
    # a scorer's slip: a score on the wrong player or hole, a correction taken back
    records.SCORE_RECORDED,
    records.SCORE_CORRECTED,
)

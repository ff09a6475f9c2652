"""The committee's acts on a round's life: finish it, make its results final, reopen them.

``planned → in play → finished → results final`` (:mod:`pace.rules.life`). Each act is an
event of the round's log, with who and when, appended through the live service (so a
running server's pages and the CLI read the same log); the lock it puts on the results is
checked where every fact is appended (:func:`pace.services.finality.check_open`).
:func:`life_document` is what the leaderboard, ``pace results`` and the report say of it.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime, tzinfo
from typing import Any

from pace.rules import life as lifemod
from pace.rules.errors import said
from pace.rules.events import Event
from pace.rules.model import Status
from pace.services.commands import Author, CommandError, Outcome
from pace.services.live import LiveService
from pace.services.rounds import RoundView

#: a group that will play no more: its last hole is logged, or it withdrew
DONE = (Status.FINISHED, Status.WITHDRAWN)


def _iso(at: datetime | None, tz: tzinfo) -> str | None:
    return None if at is None else at.astimezone(tz).isoformat(timespec="seconds")


def _act(act: lifemod.Act | None, tz: tzinfo) -> dict[str, Any] | None:
    if act is None:
        return None
    doc: dict[str, Any] = {"at": _iso(act.at, tz), "by": act.who}
    if act.reason is not None:
        doc["reason"] = act.reason
    return doc


def life_document(
    view: RoundView, life: lifemod.Life, now: datetime, done_at: datetime | None
) -> dict[str, Any]:
    """Return what is said of a round's life (docs/status.md, "A round's life"), folded from
    its log (``pace.rules.life.fold``).

    ``done_at`` is when the last group finished (its last hole logged), None while a group
    still plays: the round is then finished without the committee's act (``implied``).
    """
    tz = view.tz
    starts = [g.start for g in view.record.groups]
    stage = lifemod.stage(life, now, min(starts, default=None), done_at is not None)
    finished = _act(life.finished, tz)
    if finished is not None:
        finished["implied"] = False
    elif done_at is not None:
        finished = {"at": _iso(done_at, tz), "by": None, "implied": True}
    return {
        "stage": stage,
        "final": life.is_final,
        "first_play": _iso(life.first_play, tz),
        "finished": finished,
        "finalised": _act(life.final, tz),
        "reopened": [_act(a, tz) for a in life.reopened],
    }


class RoundLifeService:
    """The committee's acts on a round's life over a :class:`LiveService` (its lock, log)."""

    def __init__(self, live: LiveService) -> None:
        self.live = live

    def done_at(self, round: str, now: datetime) -> datetime | None:
        """Return when the draw's last group finished (or None while one still plays)."""
        live = self.live.live(round, now)
        groups = live.view.plan.groups
        if not groups or any(live.field.status(p.id, now).status not in DONE for p in groups):
            return None
        instants = [at for p in groups for at in live.field.done(p.id).values()]
        return max(instants, default=now)

    def document(self, round: str, now: datetime | None = None) -> dict[str, Any]:
        """Return the round's life at ``now`` (:func:`life_document`), with its round."""
        with self.live.lock:
            now = now or self.live.clock.now()
            live = self.live.live(round, now)
            life = self.live.life(round)
            doc = life_document(live.view, life, now, self.done_at(round, now))
            return {"round": live.view.record.name, **doc}

    def finish(self, round: str, by: Author) -> Outcome:
        """Record that the committee finished the round (its groups may still be out)."""
        with self.live.lock:
            doc = self.document(round)
            if doc["finished"] is not None and not doc["finished"]["implied"]:
                raise _already("finished", round, doc["finished"])
            if doc["stage"] == lifemod.PLANNED:
                raise CommandError(
                    said("refusal.life.not_started", "round {round} has not started: no group "
                         "has teed off nor completed a hole; a round is finished once it was "
                         "played", round=repr(round)),
                    code="not_started",
                )  # fmt: skip
            return self._append(round, lifemod.ROUND_FINISHED, by, {})

    def finalise(self, round: str, by: Author) -> Outcome:
        """Make the round's results final: scores and penalties are locked from now on."""
        with self.live.lock:
            doc = self.document(round)
            if doc["final"]:
                raise _already("final", round, doc["finalised"])
            if doc["finished"] is None:
                raise CommandError(
                    said("refusal.life.not_finished", "round {round} is {stage}: finish it first "
                         "(pace round finish), then make its results final", round=repr(round),
                         stage=_STAGES.get(doc["stage"], doc["stage"].replace("_", " "))),
                    code="not_finished",
                )  # fmt: skip
            return self._append(round, lifemod.RESULTS_FINALISED, by, {})

    def reopen(self, round: str, by: Author, reason: str) -> Outcome:
        """Reopen final results, with the reason (audited): scores and penalties may change."""
        reason = (reason or "").strip()
        with self.live.lock:
            doc = self.document(round)
            if not reason:
                raise CommandError(
                    said("refusal.life.reason", "say why the results are reopened (--reason): "
                         "the audit keeps it"),
                    field="reason",
                    code="missing_field",
                )  # fmt: skip
            if not doc["final"]:
                raise CommandError(
                    said("refusal.life.not_final", "the results of round {round} are not final; "
                         "there is nothing to reopen", round=repr(round)),
                    code="not_final",
                )  # fmt: skip
            return self._append(round, lifemod.RESULTS_REOPENED, by, {"reason": reason})

    def _append(self, round: str, type: str, by: Author, payload: Mapping[str, Any]) -> Outcome:
        name = self.live.live(round).view.record.name
        now = self.live.clock.now()
        event = Event(str(uuid.uuid4()), type, name, now, dict(payload), by.as_dict())
        return Outcome(*self.live.append(event))


#: the stages a round may be in when its results cannot be made final yet, in words
_STAGES = {
    lifemod.PLANNED: said("refusal.life.stage.planned", "planned"),
    lifemod.IN_PLAY: said("refusal.life.stage.in_play", "in play"),
}


def _already(what: str, round: str, act: Mapping[str, Any] | None) -> CommandError:
    if what == "finished":
        if act is None:
            return CommandError(said("refusal.life.finished", "round {round} is already finished",
                                     round=repr(round)), code="already_done")  # fmt: skip
        return CommandError(said("refusal.life.finished_by", "round {round} is already finished "
                                 "(since {at}, by {by})", round=repr(round), at=act["at"],
                                 by=act["by"]), code="already_done")  # fmt: skip
    if act is None:
        return CommandError(said("refusal.life.final", "the results of round {round} are already "
                                 "final", round=repr(round)), code="already_done")  # fmt: skip
    return CommandError(said("refusal.life.final_by", "the results of round {round} are already "
                             "final (since {at}, by {by})", round=repr(round), at=act["at"],
                             by=act["by"]), code="already_done")  # fmt: skip

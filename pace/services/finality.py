"""Final results locked (issue 28, docs/status.md "A round's life"): the one check that
refuses a fact that would change them, for the live commands (``LiveService.append``) and
the files imported on the command line (``RoundService``, ``pace import scores``).

Below the round service and the live state (it needs neither), so both can call it.
"""

from __future__ import annotations

from datetime import tzinfo

from pace.rules import life as lifemod
from pace.rules.errors import said
from pace.rules.events import Event
from pace.services.commands import CommandError


def check_open(
    round: str, tz: tzinfo, life: lifemod.Life, event: Event, target: Event | None = None
) -> None:
    """Refuse a fact that would change final results (``results_final``): a score, a
    correction, a referee's act, a completion, a siren, or a void of one, while the round's
    results are final. One check for every way in: the live commands (through
    ``LiveService.append``) and the files imported on the command line."""
    if not lifemod.is_locked(life, event, target):
        return
    act = life.final
    assert act is not None  # is_locked: the results are final
    what: object = _FACTS.get(event.type, event.type)
    if target is not None:
        what = said("refusal.final.void", "a void of {fact}",
                    fact=_FACTS.get(target.type, target.type))  # fmt: skip
    raise CommandError(
        said("refusal.final", "the results of round {round} are final since {when} ({who}): "
             "{what} cannot be added; the committee reopens them first, with a reason (pace "
             "round reopen)", round=repr(round), when=act.at.astimezone(tz), who=act.who,
             what=what),
        code="results_final",
    )  # fmt: skip


#: the locked facts as a sentence names them (the pages say them in their language)
_FACTS = {
    "hole_completed": said("refusal.final.hole_completed", "a completed hole"),
    "hole_time_corrected": said("refusal.final.hole_time_corrected", "a corrected hole time"),
    "siren": said("refusal.final.siren", "a siren"),
    "time_credit_granted": said("refusal.final.time_credit_granted", "a time credit"),
    "group_withdrawn": said("refusal.final.group_withdrawn", "a withdrawal"),
    "timing_decided": said("refusal.final.timing_decided", "a timing decision"),
    "player_told_timed": said("refusal.final.player_told_timed", "a player told of timing"),
    "stroke_timed": said("refusal.final.stroke_timed", "a timed stroke"),
    "player_notified": said("refusal.final.player_notified", "a notification"),
    "timing_stopped": said("refusal.final.timing_stopped", "a stop of timing"),
    "score_recorded": said("refusal.final.score_recorded", "a score"),
    "score_corrected": said("refusal.final.score_corrected", "a score correction"),
}


def check_open_import(round: str, tz: tzinfo, stored: list[Event], new: list[Event]) -> None:
    """Refuse a file's facts the log does not hold yet while the results are final (the
    same check as the live commands': :func:`check_open`); re-importing adds nothing, so it
    is let through."""
    life = lifemod.fold(stored)
    if not life.is_final:
        return
    by_id = {e.id: e for e in stored}
    for e in new:
        if e.id not in by_id:
            target = by_id.get(str(e.payload.get("target"))) if "target" in e.payload else None
            check_open(round, tz, life, e, target)

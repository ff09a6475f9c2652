"""The checks every live command makes before anything is stored, one wording for each.

A group of the draw, a player of that group, an instant that is not in the future nor off
the round's day, a target event that exists, is of the right kind and was not voided: the
taps, the referees' and the scorers' commands refuse the same things with the same messages
(field-level ``PaceError``\\ s), and show instants in the round's local time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pace.rules import life as lifemod
from pace.rules.errors import UnknownGroupError, UnknownHoleError
from pace.rules.events import Event
from pace.rules.model import Group
from pace.services.commands import CommandError
from pace.services.rounds import RoundView
from pace.services.state import LiveRound

#: How far in the future (server clock) a corrected instant may be: taps are in the past.
FUTURE_TOLERANCE = timedelta(seconds=30)


def local(view: RoundView, instant: datetime | None) -> str:
    """Return ``instant`` as the round's local time of day (``?`` when unknown)."""
    return "?" if instant is None else instant.astimezone(view.tz).strftime("%H:%M:%S")


def group_of(view: RoundView, group_id: str) -> Group:
    """Return the group ``group_id`` of the round's draw (``unknown_group``)."""
    try:
        return view.plan.by_id[group_id].group
    except KeyError:
        raise UnknownGroupError(
            f"group {group_id!r} is not in the draw of round {view.record.name!r}", field="group"
        ) from None


def check_player(view: RoundView, group_id: str, name: str) -> None:
    """Refuse a player who is not in the group (``unknown_player``)."""
    group = group_of(view, group_id)
    names = [p.name for p in group.players]
    if name not in names:
        raise CommandError(
            f"{name!r} is not in group {group_id!r}; its players are "
            + ", ".join(repr(n) for n in names),
            field="player",
            code="unknown_player",
        )


def check_hole(view: RoundView, hole: int) -> None:
    """Refuse a hole the round's course does not have (``unknown_hole``)."""
    course = view.record.course
    if not course.has_hole(hole):
        numbers = course.hole_numbers
        raise UnknownHoleError(
            f"hole {hole} does not exist on this course; holes are {numbers[0]}–{numbers[-1]}",
            field="hole",
        )


def check_instant(
    view: RoundView,
    at: datetime,
    field_name: str,
    now: datetime,
    tolerance: timedelta = FUTURE_TOLERANCE,
) -> None:
    """Refuse an instant beyond ``tolerance`` ahead of the server's ``now``, or off the day."""
    if at > now + tolerance:
        raise CommandError(
            f"{local(view, at)} is in the future (server time {local(view, now)}); "
            "check the phone's clock",
            field=field_name,
            code="time_in_future",
        )
    day = at.astimezone(view.tz).date()
    if day != view.record.day:
        raise CommandError(
            f"{at.astimezone(view.tz):%Y-%m-%d %H:%M} is not on the round's day "
            f"({view.record.day})",
            field=field_name,
            code="wrong_day",
        )


def check_open(
    view: RoundView, life: lifemod.Life, event: Event, target: Event | None = None
) -> None:
    """Refuse a fact that would change final results (``results_final``): a score, a
    correction, a referee's act, a completion, a siren, or a void of one, while the round's
    results are final. One check for every way in: the live commands (through
    ``LiveService.append``) and the files imported on the command line."""
    if not lifemod.is_locked(life, event, target):
        return
    act = life.final
    assert act is not None  # is_locked: the results are final
    when = act.at.astimezone(view.tz).strftime("%Y-%m-%d %H:%M")
    what = _FACTS.get(event.type, event.type)
    if target is not None:
        what = f"a void of {_FACTS.get(target.type, target.type)}"
    raise CommandError(
        f"the results of round {view.record.name!r} are final since {when} ({act.who}): "
        f"{what} cannot be added; the committee reopens them first, with a reason "
        "(pace round reopen)",
        code="results_final",
    )


#: the locked facts as a sentence names them
_FACTS = {
    "hole_completed": "a completed hole",
    "hole_time_corrected": "a corrected hole time",
    "siren": "a siren",
    "time_credit_granted": "a time credit",
    "group_withdrawn": "a withdrawal",
    "timing_decided": "a timing decision",
    "player_told_timed": "a player told of timing",
    "stroke_timed": "a timed stroke",
    "player_notified": "a notification",
    "timing_stopped": "a stop of timing",
    "score_recorded": "a score",
    "score_corrected": "a score correction",
}


def check_open_import(view: RoundView, stored: list[Event], new: list[Event]) -> None:
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
            check_open(view, life, e, target)


def live_target(live: LiveRound, target: str, types: tuple[str, ...]) -> Event:
    """Return the stored event a correction or void names, if it may be changed that way."""
    e = live.by_id.get(target)
    if e is None:
        raise CommandError(
            f"no event {target!r} in this round", field="target", code="unknown_target"
        )
    if e.type not in types:
        raise CommandError(
            f"event {target!r} is a {e.type}, which cannot be changed this way",
            field="target",
            code="wrong_target",
        )
    if target in live.voided:
        raise CommandError(
            f"event {target!r} was already voided", field="target", code="already_done"
        )
    return e

"""The checks every live command makes before anything is stored, one wording for each.

A group of the draw, a player of that group, an instant that is not in the future nor off
the round's day, a target event that exists, is of the right kind and was not voided: the
taps, the referees' and the scorers' commands refuse the same things with the same messages
(field-level ``PaceError``\\ s), and show instants in the round's local time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

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

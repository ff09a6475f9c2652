"""The checks every live command makes before anything is stored, one wording for each.

A group of the draw, a player of that group, an instant that is not in the future nor off
the round's day, a target event that exists, is of the right kind and was not voided: the
taps, the referees' and the scorers' commands refuse the same things with the same messages
(field-level ``PaceError``\\ s), and show instants in the round's local time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pace.rules.errors import UnknownGroupError, UnknownHoleError, said
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
            said("refusal.group.unknown", "group {group} is not in the draw of round {round}",
                 group=repr(group_id), round=repr(view.record.name)),
            field="group",
        ) from None  # fmt: skip


def check_player(view: RoundView, group_id: str, name: str) -> None:
    """Refuse a player who is not in the group (``unknown_player``)."""
    group = group_of(view, group_id)
    names = [p.name for p in group.players]
    if name not in names:
        raise CommandError(
            said("refusal.player.unknown", "{name} is not in group {group}; its players are "
                 "{players}", name=repr(name), group=repr(group_id),
                 players=", ".join(repr(n) for n in names)),
            field="player",
            code="unknown_player",
        )  # fmt: skip


def check_hole(view: RoundView, hole: int) -> None:
    """Refuse a hole the round's course does not have (``unknown_hole``)."""
    course = view.record.course
    if not course.has_hole(hole):
        numbers = course.hole_numbers
        raise UnknownHoleError(
            said("refusal.hole.unknown", "hole {hole} does not exist on this course; holes are "
                 "{first}–{last}", hole=hole, first=numbers[0], last=numbers[-1]),
            field="hole",
        )  # fmt: skip


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
            said("refusal.time.future", "{at} is in the future (server time {now}); check the "
                 "phone's clock", at=local(view, at), now=local(view, now)),
            field=field_name,
            code="time_in_future",
        )  # fmt: skip
    day = at.astimezone(view.tz).date()
    if day != view.record.day:
        raise CommandError(
            said("refusal.time.wrong_day", "{at} is not on the round's day ({day})",
                 at=at.astimezone(view.tz), day=view.record.day),
            field=field_name,
            code="wrong_day",
        )  # fmt: skip


def live_target(live: LiveRound, target: str, types: tuple[str, ...]) -> Event:
    """Return the stored event a correction or void names, if it may be changed that way."""
    e = live.by_id.get(target)
    if e is None:
        raise CommandError(
            said("refusal.target.unknown", "no event {target} in this round",
                 target=repr(target)),
            field="target",
            code="unknown_target",
        )  # fmt: skip
    if e.type not in types:
        raise CommandError(
            said("refusal.target.wrong", "event {target} is a {type}, which cannot be changed "
                 "this way", target=repr(target), type=e.type),
            field="target",
            code="wrong_target",
        )  # fmt: skip
    if target in live.voided:
        raise CommandError(
            said("refusal.target.voided", "event {target} was already voided",
                 target=repr(target)),
            field="target",
            code="already_done",
        )  # fmt: skip
    return e

"""``pace round change …``, ``pace round changes`` and ``pace round status``: the committee's
changes on the day, and a stored round judged from its log (the draw as changed).

Each command appends the same event, through the same service
(:class:`pace.services.changes.ChangeService`), as the committee's console: checked against
the draw and the facts as they stand, refused with a sentence that says what to do instead,
nothing stored on a refusal (docs/status.md, "Changes on the day").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, time
from typing import Any

import click

from pace.cli.common import InputError, db_option, fail, open_service
from pace.rules import changes as changesmod
from pace.rules.errors import PaceError
from pace.rules.model import Player

#: what a change's row says it did, by kind (``pace round changes``)
SAID = {
    changesmod.PLAYER_WITHDRAWN: "{player} withdrawn from group {group} ({reason})",
    changesmod.PLAYER_ADDED: "{name} added to group {group}",
    changesmod.PLAYER_MOVED: "{player} moved from group {from} to group {to}",
    changesmod.PLAYERS_SWAPPED: "{player} (group {group}) swapped with {other} "
    "(group {other_group})",
    changesmod.GROUP_START_CHANGED: "group {group} starts at {start}",
    changesmod.GROUP_TEE_CHANGED: "group {group} starts on tee {tee}",
    changesmod.GROUP_ADDED: "group {group} added: {start} on tee {tee}, {players}",
    changesmod.GROUP_REMOVED: "group {group} removed from the draw",
    changesmod.PLAYER_TEES_CHANGED: "{player} (group {group}) plays from the {tees} tees",
}

round_opt = click.option("--round", "round_name", required=True, help="The round to change.")
reason_opt = click.option("--reason", required=True, help="Why (kept with the change).")
by_opt = click.option("--by", default="committee", show_default=True,
                      help="Who makes the change (kept with it).")  # fmt: skip


@click.group("round")
def round_group() -> None:
    """Work on a stored round: its changes on the day, its status at an instant, and its life
    (finish, results final, reopen).

    Example: pace round changes --round R1
    """


@round_group.group("change")
def change_group() -> None:
    """Change a round's draw on the day (withdrawals, late entries, moves, start times…).

    Each change is a fact of the round's log, with who (--by) and why (--reason); a change
    that would rewrite what a group already played is refused with what to do instead.
    List them with `pace round changes --round R`.

    Example: pace round change withdraw --round R1 --player "Ana Lopez" --reason no_show
    """


class _Session:
    """An open service and the round's view, with the instant parser of its day."""

    def __init__(self, db: str | None, round_name: str):
        from pace.services.changes import ChangeService
        from pace.services.live import LiveService

        self.service = open_service(db)
        self.round = round_name
        self.live = LiveService(self.service)
        self.changes = ChangeService(self.live)

    def view(self) -> Any:
        return self.service.round_view(self.round)

    def instant(self, text: str | None, option: str) -> datetime | None:
        """Return ``HH:MM[:SS]`` on the round's day in its time zone (None: not given)."""
        if text is None:
            return None
        m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*", text)
        if not m or int(m[1]) > 23 or int(m[2]) > 59 or int(m[3] or 0) > 59:
            raise InputError(f"{option} {text!r}: expected a time of day such as 08:40")
        view = self.view()
        clock = time(int(m[1]), int(m[2]), int(m[3] or 0))
        return datetime.combine(view.record.day, clock, tzinfo=view.tz)

    def local(self, iso: str) -> str:
        return datetime.fromisoformat(iso).astimezone(self.view().tz).strftime("%H:%M")


@contextmanager
def _session(db: str | None, round_name: str) -> Iterator[_Session]:
    s = _Session(db, round_name)
    try:
        yield s
    except PaceError as e:
        raise fail(e) from None
    finally:
        s.service.store.close()


def _author(by: str) -> Any:
    from pace.services.commands import Author

    return Author(role="committee", device="cli", name=by)


def _done(s: _Session, outcome: Any) -> None:
    e = outcome.event
    if not outcome.created:
        click.echo(f"already stored: {describe(e.type, e.payload, s.local)}")
        return
    click.echo(f"{describe(e.type, e.payload, s.local)} (change {e.id})")


def describe(kind: str, payload: Any, local: Callable[[str], str]) -> str:
    """Return one line saying what a change did."""
    p = dict(payload)
    if "start" in p:
        p["start"] = local(str(p["start"]))
    if kind == changesmod.PLAYER_ADDED:
        p["name"] = p["player"]["name"]
    if kind == changesmod.GROUP_ADDED:
        p["players"] = ", ".join(str(x["name"]) for x in p["players"])
    return SAID[kind].format(**p)


@change_group.command("withdraw")
@round_opt
@click.option("--player", required=True, help="The player, as in the draw.")
@click.option(
    "--reason",
    required=True,
    type=click.Choice(changesmod.WITHDRAWALS),
    help="no_show: he never started (his group is judged without him from its start); "
    "retired: he stopped during play (from --at on).",
)
@click.option("--note", default="", help="Why, in words (kept with the change).")
@click.option("--at", default=None, help="When he stopped (HH:MM, default: now).")
@by_opt
@db_option
def withdraw(round_name, player, reason, note, at, by, db) -> None:
    """Withdraw a player, before play (no_show) or during it (retired).

    Example: pace round change withdraw --round R1 --player "Ana Lopez" --reason retired
    --note "back injury on the 7th" --at 10:42
    """
    with _session(db, round_name) as s:
        when = s.instant(at, "--at")
        _done(s, s.changes.withdraw(round_name, player, reason, _author(by), note=note, at=when))


@change_group.command("add-player")
@round_opt
@click.option("--group", required=True, help="The group he joins (before it plays a hole).")
@click.option("--player", required=True, help="The late entry's name.")
@click.option("--handicap", type=float, default=None, help="His handicap index.")
@click.option("--club", default=None, help="His club.")
@reason_opt
@by_opt
@db_option
def add_player(round_name, group, player, handicap, club, reason, by, db) -> None:
    """Add a late entry to a group that has not completed a hole yet.

    Example: pace round change add-player --round R1 --group 4 --player "Tom Ruiz"
    --handicap 12.4 --reason "late entry, paid at the desk"
    """
    with _session(db, round_name) as s:
        p = Player(player.strip(), handicap=handicap, club=club)
        _done(s, s.changes.add_player(round_name, group, p, reason, _author(by)))


@change_group.command("move-player")
@round_opt
@click.option("--player", required=True, help="The player, as in the draw.")
@click.option("--to", "to", required=True, help="The group he moves to.")
@reason_opt
@by_opt
@db_option
def move_player(round_name, player, to, reason, by, db) -> None:
    """Move a player to another group (neither group has completed a hole).

    Example: pace round change move-player --round R1 --player "Ana Lopez" --to 6
    --reason "plays with her club's team"
    """
    with _session(db, round_name) as s:
        _done(s, s.changes.move_player(round_name, player, to, reason, _author(by)))


@change_group.command("swap")
@round_opt
@click.option("--player", required=True, help="One player, as in the draw.")
@click.option("--with", "other", required=True, help="The player of another group.")
@reason_opt
@by_opt
@db_option
def swap(round_name, player, other, reason, by, db) -> None:
    """Swap two players of two groups (neither group has completed a hole).

    Example: pace round change swap --round R1 --player "Ana Lopez" --with "Tom Ruiz"
    --reason "car sharing"
    """
    with _session(db, round_name) as s:
        _done(s, s.changes.swap(round_name, player, other, reason, _author(by)))


@change_group.command("start")
@round_opt
@click.option("--group", required=True, help="The group.")
@click.option("--start", required=True, help="Its new start time (HH:MM, the round's day).")
@reason_opt
@by_opt
@db_option
def start(round_name, group, start, reason, by, db) -> None:
    """Change a group's start time, before it completes a hole (the field is planned again).

    Example: pace round change start --round R1 --group 3 --start 09:20
    --reason "waiting for a player stuck in traffic"
    """
    with _session(db, round_name) as s:
        when = s.instant(start, "--start")
        _done(s, s.changes.change_start(round_name, group, when, reason, _author(by)))


@change_group.command("tee")
@round_opt
@click.option("--group", required=True, help="The group.")
@click.option("--tee", type=int, required=True, help="The hole it starts on.")
@reason_opt
@by_opt
@db_option
def tee(round_name, group, tee, reason, by, db) -> None:
    """Change a group's starting tee, before it completes a hole.

    Example: pace round change tee --round R1 --group 3 --tee 10 --reason "tee 1 is full"
    """
    with _session(db, round_name) as s:
        _done(s, s.changes.change_tee(round_name, group, tee, reason, _author(by)))


@change_group.command("tees")
@round_opt
@click.option("--player", required=True, help="The player, as in the draw.")
@click.option("--tees", required=True, help="The tee set he plays from now (name or colour).")
@reason_opt
@by_opt
@db_option
def tees(round_name, player, tees, reason, by, db) -> None:
    """Move a player to other tees of the course, before he has a score (issue 38).

    Example: pace round change tees --round R1 --player "Anne Morin" --tees Red --reason "draw"
    """
    with _session(db, round_name) as s:
        _done(s, s.changes.change_tees(round_name, player, tees, reason, _author(by)))


@change_group.command("add-group")
@round_opt
@click.option("--group", required=True, help="The new group's id.")
@click.option("--start", required=True, help="Its start time (HH:MM, the round's day).")
@click.option("--tee", type=int, default=1, show_default=True, help="The hole it starts on.")
@click.option("--player", "players", multiple=True, required=True,
              help="A player (repeat for each).")  # fmt: skip
@click.option("--handicap", "handicaps", type=float, multiple=True,
              help="The players' handicaps, in the order of --player.")  # fmt: skip
@reason_opt
@by_opt
@db_option
def add_group(round_name, group, start, tee, players, handicaps, reason, by, db) -> None:
    """Add a group to the draw.

    Example: pace round change add-group --round R1 --group 19 --start 10:30 --tee 1
    --player "Tom Ruiz" --handicap 12.4 --player "Lea Martin" --handicap 20 --reason "late
    entries"
    """
    if len(handicaps) > len(players):
        raise InputError("--handicap: more handicaps than players")
    with _session(db, round_name) as s:
        when = s.instant(start, "--start")
        people = [Player(name.strip(), handicap=handicaps[i] if i < len(handicaps) else None)
                  for i, name in enumerate(players)]  # fmt: skip
        _done(s, s.changes.add_group(round_name, group, when, tee, people, reason, _author(by)))


@change_group.command("remove-group")
@round_opt
@click.option("--group", required=True, help="The group (it has not logged a hole).")
@reason_opt
@by_opt
@db_option
def remove_group(round_name, group, reason, by, db) -> None:
    """Take a group out of the draw, before it logs a hole (after: withdraw-group).

    Example: pace round change remove-group --round R1 --group 12 --reason "all withdrew"
    """
    with _session(db, round_name) as s:
        _done(s, s.changes.remove_group(round_name, group, reason, _author(by)))


@change_group.command("withdraw-group")
@round_opt
@click.option("--group", required=True, help="The group.")
@click.option("--at", default=None, help="When it stopped (HH:MM, default: now).")
@reason_opt
@by_opt
@db_option
def withdraw_group(round_name, group, at, reason, by, db) -> None:
    """Withdraw a whole group from now on (what it played stays).

    Example: pace round change withdraw-group --round R1 --group 7 --reason "storm, left"
    """
    with _session(db, round_name) as s:
        when = s.instant(at, "--at")
        outcome = s.changes.withdraw_group(round_name, group, reason, _author(by), at=when)
        click.echo(f"group {group} withdrawn (event {outcome.event.id})")


@change_group.command("void")
@round_opt
@click.option("--change", "target", required=True, help="The change's id (pace round changes).")
@reason_opt
@by_opt
@db_option
def void(round_name, target, reason, by, db) -> None:
    """Void a change (not one that would rewrite what a group played).

    Example: pace round change void --round R1 --change 3f2a… --reason "wrong player"
    """
    with _session(db, round_name) as s:
        outcome = s.changes.void(round_name, target, reason, _author(by))
        click.echo(f"change {target} voided (event {outcome.event.id})")


@round_group.command("changes")
@round_opt
@db_option
def list_changes(round_name, db) -> None:
    """List a round's changes on the day: when, what, who, why; voided ones marked.

    Example: pace round changes --round R1
    """
    with _session(db, round_name) as s:
        rows = s.changes.listing(round_name)
        if not rows:
            click.echo(f"round {round_name!r} has no changes")
        for r in rows:
            p: dict[str, Any] = dict(r["payload"])  # type: ignore[call-overload]
            by: dict[str, Any] = dict(r["by"])  # type: ignore[call-overload]
            why = p.get("note") or "" if r["type"] == changesmod.PLAYER_WITHDRAWN else p["reason"]
            line = (f"{s.local(str(r['at']))}  {describe(str(r['type']), p, s.local)}"
                    f" — by {by.get('name') or by.get('role')}")  # fmt: skip
            if why:
                line += f": {why}"
            if r["voided"]:
                line += "  [voided]"
            click.echo(f"{line}  ({r['id']})")


@round_group.command("status")
@round_opt
@click.option("--at", "at_text", default=None, help="Instant to judge, HH:MM[:SS] (default: now).")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the JSON document of docs/formats.md §4."
)
@db_option
def round_status(round_name, at_text, as_json, db) -> None:
    """Evaluate a stored round from its log at an instant: the draw as changed on the day, the
    taps, sirens and credits, judged as the live scheduler does (`pace status` judges files).

    Example: pace round status --round R1 --at 10:42 --json
    """
    import json

    from pace.reports.status import status_document, status_table

    with _session(db, round_name) as s:
        now = s.instant(at_text, "--at")
        field = s.service.status(round_name, now)
        tz = s.view().tz
        if as_json:
            click.echo(json.dumps(status_document(field, tz), ensure_ascii=False))
        else:
            click.echo(status_table(field, tz))

"""Back up and restore a round: its setup and its whole log (``pace export round``,
``pace import round``; the file is ``pace.formats.backup``'s).

A restore writes the same course, round, draw and events (ids, instants, authors, payloads,
in log order, each with its own ``recorded_at``) into another database, of either engine, so
every judgement made from the restored round (statuses, penalties, cards, results, reports)
is the same, byte for byte, and its export is the same file. It is all or nothing: the whole
file is checked, and checked against the database, before anything is written. Restoring the
same file again adds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from pace.formats import backup as backupfmt
from pace.rules.errors import SetupError
from pace.services.rounds import RoundService
from pace.store import UnknownRoundError


@dataclass(frozen=True)
class Restored:
    """What a restore did: the round, and how many of its events were new or already there."""

    round: str
    created: int
    already: int
    new_round: bool


def export_round(service: RoundService, round: str) -> str:
    """Return the backup of ``round``: its course, setup, draw and log (text)."""
    store = service.store
    record = store.get_round(round)
    setup = backupfmt.RoundSetup(
        record.name, record.day, record.timezone, record.policy, record.standard_interval,
        record.play, record.format, record.scoring, record.net, record.allowance,
    )  # fmt: skip
    return backupfmt.dump(record.course, setup, record.groups, store.events(round))


def restore_round(service: RoundService, text: str, filename: str) -> Restored:
    """Restore a round from its backup into the service's database; return what was done.

    Refused with nothing written when the file has a problem (``FileFormatError``), when the
    database holds a round of that name with another setup or draw, a course of that name
    with other holes in play, or an event id with another fact (``SetupError``,
    ``EventConflictError``).
    """
    store = service.store
    b = backupfmt.parse(text, filename)
    name = b.round.name
    try:
        existing = store.get_round(name)
    except UnknownRoundError:
        existing = None
    if existing is not None:
        differs = [
            what
            for what, same in (
                ("course", existing.course == b.course),
                ("day", existing.day == b.round.day),
                ("timezone", existing.timezone == b.round.timezone),
                ("draw", existing.groups == b.groups),
            )
            if not same
        ]
        if differs:
            raise SetupError(
                f"round {name!r} is already stored with another {' and '.join(differs)};"
                " restore it into another database",
                field="round",
                code="round_exists",
            )
    for event in b.events:  # the whole log is checked before anything is written
        stored = store.event(event.id)
        if stored is not None and (stored.round != name or not stored.is_same_fact(event)):
            from pace.rules.events import EventConflictError

            raise EventConflictError(
                f"{filename}: event {event.id!r} is already stored with another fact (round"
                f" {stored.round!r}); nothing was restored",
                field="id",
            )
    if existing is None:
        try:
            course = store.get_course(b.course.name)
        except LookupError:
            course = None
        if course is not None and course != b.course:
            raise SetupError(
                f"a course {b.course.name!r} with other holes or ratings is stored already;"
                " restore the round into another database",
                field="course",
            )
        if course is None:
            store.save_course(b.course, imported_at=service.clock.now())
        store.create_round(
            name,
            course=b.course.name,
            day=b.round.day,
            timezone=b.round.timezone,
            policy=b.round.policy,
            standard_interval=b.round.standard_interval,
            created_at=service.clock.now(),
            play=b.round.play,
            format=b.round.format,
            scoring=b.round.scoring,
            net=b.round.net,
            allowance=b.round.allowance,
        )
        store.save_draw(name, b.groups)
    results = store.append_many(b.events, recorded_at=service.clock.now(), keep_recorded_at=True)
    created = sum(1 for _, new in results if new)
    return Restored(name, created, len(results) - created, existing is None)

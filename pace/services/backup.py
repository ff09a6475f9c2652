"""Back up and restore a round: its setup and its whole log (``pace export round``,
``pace import round``; the file is ``pace.formats.backup``'s).

A restore writes the same course, round, draw and events (ids, instants, authors, payloads,
in log order, each with its own ``recorded_at``) into another database, of either engine, so
every judgement made from the restored round (statuses, penalties, cards, results, reports)
is the same, byte for byte, and its export is the same file. It is all or nothing: the whole
file is checked, and checked against the database, before anything is written. Restoring the
same file again adds nothing.

``Snapshots`` are the scheduled backups (``backup.every_minutes``): each round in play
exported to ``backup.folder`` atomically (a temporary file, flushed, renamed), its last
``backup.keep`` kept; ``pace import round`` restores any of them.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from pace.formats import backup as backupfmt
from pace.rules.errors import PaceError, SetupError
from pace.services.rounds import RoundService
from pace.store import StorageError, UnknownRoundError

log = logging.getLogger(__name__)


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
        record.completions, record.language, record.rounding, record.gross_par_adjustment,
        record.positions,
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
        store.update_round(name, completions=b.round.completions)
        if b.round.language is not None:
            store.update_round(name, language=b.round.language)
        # the round's handicap readings as backed up (none: the configuration's, as before)
        store.update_round(
            name, rounding=b.round.rounding, gross_par_adjustment=b.round.gross_par_adjustment
        )
        if b.round.positions:
            store.update_round(name, positions=True)  # (issue 48)
        store.save_draw(name, b.groups)
    results = store.append_many(b.events, recorded_at=service.clock.now(), keep_recorded_at=True)
    created = sum(1 for _, new in results if new)
    return Restored(name, created, len(results) - created, existing is None)


# -- scheduled snapshots (backup.every_minutes; docs/deploy.md, "Scheduled backups") --------

#: a snapshot's file name: the round's name quoted, the UTC instant it was taken (to the
#: microsecond, so two never share a name and the names sort as the instants do)
_SNAPSHOT = r"\.(\d{8}T\d{12}Z)\.pace\.jsonl"
#: bytes written at a time: a snapshot of a long day is megabytes, and a kill between two
#: writes must find only the temporary file begun
CHUNK = 1 << 20
#: a temporary file older than this is what a killed writer left: removed by the next snapshot
STALE_SECONDS = 600.0


def snapshot_slug(round: str) -> str:
    """Return the part of a file name that stands for ``round`` (every character outside
    letters, digits, ``.``, ``-`` and ``_`` quoted: no ``/`` reaches the file system)."""
    return quote(round, safe="")


def snapshots(folder: Path, round: str) -> list[Path]:
    """Return the snapshots of ``round`` in ``folder``, oldest first (never a temporary
    file: those start with a dot and end in ``.tmp``)."""
    pattern = re.compile(re.escape(snapshot_slug(round)) + _SNAPSHOT)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if pattern.fullmatch(p.name))


def write_snapshot(folder: Path, round: str, text: str, *, at: datetime, keep: int) -> Path | None:
    """Write ``text`` (``round``'s backup) as its snapshot taken ``at`` in ``folder``; keep
    its last ``keep`` snapshots; return the new file, or None when the newest snapshot holds
    the same text already (a round nothing happened in is not written again).

    Atomic: the text goes to a temporary file of the same folder, is flushed to the disk
    (``fsync``), then renamed to its name, and the folder flushed too; a process killed at
    any point leaves the previous snapshots as they were and at most a temporary file, which
    is never taken for a snapshot and is removed by a later snapshot of the round.
    """
    folder.mkdir(parents=True, exist_ok=True)
    slug = snapshot_slug(round)
    data = text.encode("utf-8")
    kept = snapshots(folder, round)
    if kept and kept[-1].read_bytes() == data:
        return None
    stamp = at.astimezone(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    final = folder / f"{slug}.{stamp}.pace.jsonl"
    temporary = folder / f".{slug}.{stamp}.{os.getpid()}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            view = memoryview(data)
            for start in range(0, len(view), CHUNK):
                chunk = view[start : start + CHUNK]
                while chunk:
                    chunk = chunk[os.write(fd, chunk) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, final)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_folder(folder)
    for old in snapshots(folder, round)[:-keep]:
        old.unlink(missing_ok=True)
    _remove_stale(folder, slug)
    return final


def _sync_folder(folder: Path) -> None:
    """Flush the folder's entries (the rename) to the disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove_stale(folder: Path, slug: str) -> None:
    limit = time.time() - STALE_SECONDS
    for left in folder.glob(f".{glob.escape(slug)}.*.tmp"):
        with contextlib.suppress(FileNotFoundError):  # another worker's snapshot removed it
            if left.stat().st_mtime < limit:
                left.unlink()


class Snapshots:
    """The scheduled backups: each round in play written to ``folder`` every so often, its
    last ``keep`` snapshots kept (pace/scheduler.py runs ``take``)."""

    def __init__(
        self,
        service: RoundService,
        folder: str | Path,
        keep: int,
        *,
        store_failed: Callable[[BaseException], None] | None = None,
    ) -> None:
        self.service = service
        self.folder = Path(folder)
        self.keep = keep
        #: told each store error met while exporting (the operator's metrics)
        self.store_failed = store_failed

    def take(self, rounds: Iterable[str], *, at: datetime) -> list[Path]:
        """Write a snapshot of each of ``rounds`` taken ``at``; return the files written.

        A round that cannot be exported or written now is logged and left for the next
        time; the others are written all the same.
        """
        written = []
        for round in rounds:
            started = time.perf_counter()
            try:
                path = write_snapshot(
                    self.folder, round, export_round(self.service, round), at=at, keep=self.keep
                )
            except PaceError as e:
                if self.store_failed is not None and e.code == StorageError.code:
                    self.store_failed(e)
                log.warning("backup of round %r not written: %s", round, e.message,
                            extra={"round": round, "outcome": e.code})  # fmt: skip
                continue
            except OSError as e:
                log.warning("backup of round %r not written to %s: %s", round, self.folder, e,
                            extra={"round": round, "outcome": "os_error"})  # fmt: skip
                continue
            ms = float(f"{(time.perf_counter() - started) * 1000:.1f}")
            outcome = "unchanged" if path is None else "ok"
            log.info("backup of round %r: %s", round, path.name if path else "unchanged",
                     extra={"round": round, "outcome": outcome, "duration_ms": ms})  # fmt: skip
            if path is not None:
                written.append(path)
        return written

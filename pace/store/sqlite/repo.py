"""The store: the event log and the setup tables, read and written as ``rules`` types.

This is the only module that knows table names (with ``migrations``, which creates
them). Every method takes the shared connection's lock; every write is one
transaction committed (with the file's ``synchronous`` durability) before it returns.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.db import NotFoundError

from pace.rules.errors import SetupError, said
from pace.rules.events import Event, EventConflictError, canonical_json
from pace.rules.model import Course, Group, Player
from pace.store.base import DEFAULT_SYNCHRONOUS, SYNCHRONOUS_LEVELS, Store
from pace.store.errors import RoundExistsError, UnknownCourseError
from pace.store.instants import from_iso as _from_iso
from pace.store.instants import iso as _iso
from pace.store.records import EVENT_COLUMNS as _EVENT_COLUMNS
from pace.store.records import (
    UNSET,
    RoundRecord,
    RoundSummary,
    check_completions,
    check_language,
    check_readings,
    checked_new_round,
)
from pace.store.records import Unset as _Unset
from pace.store.records import allowance_json as _allowance_json
from pace.store.records import check_play as _check_play
from pace.store.records import check_policy as _check_policy
from pace.store.records import check_scoring as _check_scoring
from pace.store.records import course_from_row as _course_from_row
from pace.store.records import course_json as _course_json
from pace.store.records import differences as _differences
from pace.store.records import draw_rows as _draw_rows
from pace.store.records import event_from_row as _event_from_row
from pace.store.records import event_json as _event_json
from pace.store.records import interval_seconds as _interval_seconds
from pace.store.records import unknown_round as _unknown_round
from pace.store.sqlite import db as dbmod
from pace.store.sqlite import migrations
from pace.store.sqlite.access import AccessTables
from pace.store.sqlite.competitions import CompetitionTables


class SqliteStore(AccessTables, CompetitionTables, Store):
    """The pace database in one SQLite file: ``SqliteStore.open(path)`` (or ``open_store``)."""

    engine = "sqlite"

    def __init__(self, shared: dbmod.SharedDatabase) -> None:
        self._db = shared

    @classmethod
    def open(cls, path: str | Path, *, synchronous: str = DEFAULT_SYNCHRONOUS) -> SqliteStore:
        """Open the database at ``path``, creating it if missing, and apply pending migrations."""
        shared = dbmod.open_db(path, synchronous=synchronous)
        try:
            migrations.apply(shared)
        except BaseException:
            shared.close()
            raise
        return cls(shared)

    # -- lifecycle ---------------------------------------------------------------------

    def offload_commits(self, offload: Callable[[Callable[[], object]], object]) -> None:
        """Run every commit through ``offload`` (it returns once the commit is done), such as
        gevent's thread pool, so the waiting on the disk leaves the other greenlets running."""
        self._db.offload = offload

    def close(self) -> None:
        self._db.close()

    @property
    def closed(self) -> bool:
        return self._db.closed

    def __enter__(self) -> SqliteStore:
        return self

    @property
    def path(self) -> Path:
        """Return the database file's path."""
        return self._db.path

    @property
    def location(self) -> str:
        return str(self._db.path)

    @property
    def synchronous(self) -> str:
        """Return the connection's ``PRAGMA synchronous`` level (``"FULL"`` ...)."""
        value = self._db.pragma("synchronous")
        return SYNCHRONOUS_LEVELS[int(str(value))]

    @property
    def journal_mode(self) -> str:
        """Return the file's journal mode (``"wal"``)."""
        return str(self._db.pragma("journal_mode"))

    def applied_migrations(self) -> list[str]:
        return migrations.applied(self._db)

    # -- events ------------------------------------------------------------------------

    def append(self, event: Event, *, recorded_at: datetime) -> tuple[Event, bool]:
        recorded = _iso(recorded_at, "recorded_at")
        with self._db.write() as db:
            return _append_one(db, event, recorded)

    def append_many(
        self, events: Iterable[Event], *, recorded_at: datetime, keep_recorded_at: bool = False
    ) -> list[tuple[Event, bool]]:
        recorded = _iso(recorded_at, "recorded_at")
        with self._db.write() as db:
            return [
                _append_one(
                    db,
                    event,
                    _iso(event.recorded_at, "recorded_at")
                    if keep_recorded_at and event.recorded_at is not None
                    else recorded,
                )
                for event in events
            ]

    def events(
        self, round: str, *, types: Iterable[str] | None = None, after_seq: int = 0
    ) -> list[Event]:
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE round = ? AND seq > ?"
        params: list[object] = [round, after_seq]
        if types is not None:
            wanted = sorted(set(types))
            if not wanted:
                return []
            sql += f" AND type IN ({', '.join('?' for _ in wanted)})"
            params.extend(wanted)
        sql += " ORDER BY seq"
        with self._db.read(snapshot=False) as db:
            return [_event_from_row(row) for row in db.execute(sql, params)]

    def event(self, id: str) -> Event | None:
        with self._db.read(snapshot=False) as db:
            return _find_event(db, id)

    def last_seq(self, round: str) -> int:
        with self._db.read(snapshot=False) as db:
            row = db.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE round = ?", [round]
            ).fetchone()
            return int(row[0])

    def count_events(self, round: str | None = None) -> int:
        with self._db.read(snapshot=False) as db:
            if round is None:
                row = db.execute("SELECT count(*) FROM events").fetchone()
            else:
                row = db.execute("SELECT count(*) FROM events WHERE round = ?", [round]).fetchone()
            return int(row[0])

    # -- courses -----------------------------------------------------------------------

    def save_course(self, course: Course, *, imported_at: datetime | None = None) -> None:
        if not isinstance(course.name, str) or not course.name.strip():
            raise SetupError(f"a course needs a name, not {course.name!r}", field="name")
        data = canonical_json(_course_json(course))
        when = _iso(imported_at or datetime.now(UTC), "imported_at")
        with self._db.write() as db:
            row = db.execute("SELECT data FROM courses WHERE name = ?", [course.name]).fetchone()
            if row is not None and row[0] != data:
                used = db.execute(
                    "SELECT r.name, count(e.seq) FROM rounds r JOIN events e ON e.round = r.name"
                    " WHERE r.course = ? GROUP BY r.name ORDER BY r.name",
                    [course.name],
                ).fetchall()
                if used:
                    names = ", ".join(repr(r[0]) for r in used)
                    raise SetupError(
                        f"course {course.name!r} is in use by round(s) {names} that already"
                        " have events; its holes can no longer change (import it under"
                        " a new name instead)",
                        field="holes",
                        code="round_has_events",
                    )
            db.execute(
                "INSERT INTO courses (name, data, imported_at, slope, rating)"
                " VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(name) DO UPDATE SET data = excluded.data,"
                " imported_at = excluded.imported_at, slope = excluded.slope,"
                " rating = excluded.rating",
                [course.name, data, when, course.slope, course.rating],
            )

    def get_course(self, name: str) -> Course:
        with self._db.read(snapshot=False) as db:
            return _get_course(db, name)

    def list_courses(self) -> list[Course]:
        with self._db.read(snapshot=False) as db:
            rows = db.execute(
                "SELECT name, data, slope, rating FROM courses ORDER BY name"
            ).fetchall()
        return [_course_from_row(*row) for row in rows]

    def save_geometry(
        self, course: str, data: Mapping[str, Any], *, imported_at: datetime
    ) -> None:
        text = canonical_json(dict(data))
        when = _iso(imported_at, "imported_at")
        with self._db.write() as db:
            _get_course(db, course, field="course")
            db.execute(
                "INSERT INTO course_geometry (course, data, imported_at) VALUES (?, ?, ?)"
                " ON CONFLICT(course) DO UPDATE SET data = excluded.data,"
                " imported_at = excluded.imported_at",
                [course, text, when],
            )

    def get_geometry(self, course: str) -> dict[str, Any] | None:
        with self._db.read(snapshot=False) as db:
            row = db.execute(
                "SELECT data FROM course_geometry WHERE course = ?", [course]
            ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    # -- rounds and draws --------------------------------------------------------------

    def create_round(
        self,
        name: str,
        *,
        course: str,
        day: date,
        timezone: str,
        policy: str = "frbg",
        standard_interval: timedelta | None = None,
        created_at: datetime | None = None,
        play: str = "stroke_play",
        format: str = "individual",
        scoring: str | None = None,
        net: bool = False,
        allowance: Sequence[float] | None = None,
    ) -> RoundRecord:
        new = checked_new_round(name, day, timezone, policy, play, format, scoring, net,
                                allowance, standard_interval, created_at)  # fmt: skip
        with self._db.write() as db:
            _get_course(db, course, field="course")
            if _round_exists(db, name):
                raise RoundExistsError(f"round {name!r} already exists", field="name")
            db.execute(
                "INSERT INTO rounds (name, course, day, timezone, policy,"
                " standard_interval_s, created_at, play, format, scoring, net, allowance)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    name,
                    course,
                    day.isoformat(),
                    timezone,
                    policy,
                    new.interval_s,
                    new.created_at,
                    play,
                    format,
                    scoring,
                    int(net),
                    new.allowance,
                ],  # fmt: skip
            )
            return _get_round(db, name)

    def update_round(
        self,
        name: str,
        *,
        policy: str | _Unset = UNSET,
        standard_interval: timedelta | None | _Unset = UNSET,
        play: str | _Unset = UNSET,
        format: str | _Unset = UNSET,
        scoring: str | None | _Unset = UNSET,
        net: bool | _Unset = UNSET,
        allowance: Sequence[float] | None | _Unset = UNSET,
        completions: str | _Unset = UNSET,
        language: str | None | _Unset = UNSET,
        rounding: str | None | _Unset = UNSET,
        gross_par_adjustment: bool | None | _Unset = UNSET,
        positions: bool | _Unset = UNSET,
    ) -> RoundRecord:
        changes: dict[str, object] = {}
        if not isinstance(language, _Unset):
            check_language(language)
            changes["language"] = language
        if not isinstance(rounding, _Unset):
            check_readings(rounding, None)
            changes["rounding"] = rounding
        if not isinstance(gross_par_adjustment, _Unset):
            check_readings(None, gross_par_adjustment)
            changes["gross_par_adjustment"] = (
                None if gross_par_adjustment is None else int(gross_par_adjustment)
            )
        if not isinstance(policy, _Unset):
            _check_policy(policy)
            changes["policy"] = policy
        if not isinstance(standard_interval, _Unset):
            changes["standard_interval_s"] = _interval_seconds(standard_interval)
        if not isinstance(play, _Unset):
            _check_play(play, "individual")
            changes["play"] = play
        if not isinstance(format, _Unset):
            _check_play("stroke_play", format)
            changes["format"] = format
        if not isinstance(scoring, _Unset):
            _check_scoring(scoring, False)
            changes["scoring"] = scoring
        if not isinstance(net, _Unset):
            _check_scoring(None, net)
            changes["net"] = int(net)
        if not isinstance(allowance, _Unset):
            changes["allowance"] = _allowance_json(allowance)
        if not isinstance(completions, _Unset):
            changes["completions"] = check_completions(completions)
        if not isinstance(positions, _Unset):
            if not isinstance(positions, bool):
                raise SetupError(f"positions {positions!r} must be true or false",
                                 field="positions")  # fmt: skip
            changes["positions"] = int(positions)
        with self._db.write() as db:
            if not _round_exists(db, name):
                raise _unknown_round(name)
            if changes:
                assignments = ", ".join(f"{column} = ?" for column in changes)
                db.execute(
                    f"UPDATE rounds SET {assignments} WHERE name = ?", [*changes.values(), name]
                )
            return _get_round(db, name)

    def save_draw(self, round: str, groups: Sequence[Group]) -> RoundRecord:
        group_rows, player_rows = _draw_rows(round, groups)
        with self._db.write() as db:
            if not _round_exists(db, round):
                raise _unknown_round(round, field="round")
            count = db.execute("SELECT count(*) FROM events WHERE round = ?", [round]).fetchone()
            if count[0]:
                raise SetupError(
                    f"round {round!r} already has {count[0]} event(s); its draw can no"
                    " longer be replaced",
                    field="groups",
                    code="round_has_events",
                )
            db.execute("DELETE FROM players WHERE round = ?", [round])
            db.execute("DELETE FROM groups WHERE round = ?", [round])
            if group_rows:
                db.table("groups").insert_all(group_rows)
            if player_rows:
                db.table("players").insert_all(player_rows)
            return _get_round(db, round)

    def get_round(self, name: str) -> RoundRecord:
        with self._db.read() as db:
            return _get_round(db, name)

    def has_round(self, name: str) -> bool:
        with self._db.read(snapshot=False) as db:
            return _round_exists(db, name)

    def list_rounds(self) -> list[RoundSummary]:
        sql = """
            SELECT r.name, r.course, r.day,
                   (SELECT count(*) FROM groups g WHERE g.round = r.name),
                   (SELECT count(*) FROM events e WHERE e.round = r.name)
            FROM rounds r ORDER BY r.day, r.name
        """
        with self._db.read(snapshot=False) as db:
            rows = db.execute(sql).fetchall()
        return [
            RoundSummary(name, course, date.fromisoformat(day), int(groups), int(events))
            for name, course, day, groups, events in rows
        ]


def _append_one(db: sqlite_utils.Database, event: Event, recorded: str) -> tuple[Event, bool]:
    # Inside the write transaction (BEGIN IMMEDIATE holds the file's write lock), so
    # nothing can store this id between the look-up and the insert, even from another
    # process; the UNIQUE constraint stays as a backstop.
    stored = _find_event(db, event.id)
    if stored is not None:
        if stored.is_same_fact(event):
            return stored, False
        raise EventConflictError(
            f"event {event.id!r} is already stored with a different"
            f" {_differences(stored, event)}; a correction must be a new event with its own id",
            field="id",
        )
    payload = _event_json(event, "payload", event.payload)
    by = _event_json(event, "by", event.by)
    try:
        cursor = db.execute(
            "INSERT INTO events (id, type, round, at, recorded_at, by, payload)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [event.id, event.type, event.round, _iso(event.at, "at"), recorded, by, payload],
        )
    except sqlite3.IntegrityError as exc:
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_CONSTRAINT_FOREIGNKEY":
            raise _unknown_round(event.round, field="round") from None
        raise
    return (
        Event(
            id=event.id,
            type=event.type,
            round=event.round,
            at=event.at,
            payload=json.loads(payload),
            by=json.loads(by),
            recorded_at=_from_iso(recorded),
            seq=cursor.lastrowid,
        ),
        True,
    )


def _find_event(db: sqlite_utils.Database, id: str) -> Event | None:
    row = db.execute(f"SELECT {_EVENT_COLUMNS} FROM events WHERE id = ?", [id]).fetchone()
    return None if row is None else _event_from_row(row)


# -- setup: rows and rules -----------------------------------------------------------


def _round_exists(db: sqlite_utils.Database, name: str) -> bool:
    # one SELECT: sqlite-utils' table.get reads the table's schema first (every command asks)
    return db.execute("SELECT 1 FROM rounds WHERE name = ?", [name]).fetchone() is not None


def _round_row(db: sqlite_utils.Database, name: str) -> dict[str, Any] | None:
    try:
        return db.table("rounds").get(name)
    except NotFoundError:
        return None


def _get_round(db: sqlite_utils.Database, name: str) -> RoundRecord:
    row = _round_row(db, name)
    if row is None:
        raise _unknown_round(name)
    players: dict[str, list[Player]] = {}
    for (group_id, pname, handicap, side, club, class_name, match, tees, gender,
         language) in db.execute(
        "SELECT group_id, name, handicap, side, club, class, match, tees, gender, language"
        " FROM players WHERE round = ? ORDER BY group_id, position",
        [name],
    ):  # fmt: skip
        players.setdefault(group_id, []).append(
            Player(pname, handicap, side, club, class_name, match, tees, gender, language)
        )
    groups = tuple(
        Group(gid, _from_iso(start), tee, tuple(players.get(gid, ())))
        for gid, start, tee in db.execute(
            "SELECT id, start, tee FROM groups WHERE round = ? ORDER BY position", [name]
        )
    )
    interval = row["standard_interval_s"]
    return RoundRecord(
        name=row["name"],
        course=_get_course(db, row["course"]),
        day=date.fromisoformat(row["day"]),
        timezone=row["timezone"],
        policy=row["policy"],
        standard_interval=None if interval is None else timedelta(seconds=interval),
        groups=groups,
        play=row["play"],
        format=row["format"],
        scoring=row["scoring"],
        net=bool(row["net"]),
        allowance=None if row["allowance"] is None else tuple(json.loads(row["allowance"])),
        completions=row["completions"],
        language=row["language"],
        rounding=row["rounding"],
        gross_par_adjustment=(
            None if row["gross_par_adjustment"] is None else bool(row["gross_par_adjustment"])
        ),
        positions=bool(row["positions"]),
    )


def _get_course(db: sqlite_utils.Database, name: str, *, field: str | None = None) -> Course:
    row = db.execute(
        "SELECT name, data, slope, rating FROM courses WHERE name = ?", [name]
    ).fetchone()
    if row is None:
        raise UnknownCourseError(said("refusal.course.unknown", "course {course} does not "
                                      "exist; import it first", course=repr(name)),
                                 field=field)  # fmt: skip
    return _course_from_row(*row)

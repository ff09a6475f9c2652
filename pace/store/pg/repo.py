"""The store on PostgreSQL: the same event log and setup tables as the SQLite file's.

Several workers share one database. What SQLite gets from its single writer, this store gets
from transaction-level advisory locks: the appends and setup writes of a round are serialised
across workers (``PgDatabase.write(round)``), so within a round ``seq`` order is commit order,
the look-up of an id and its insert see the same log, and a draw is never replaced under a
tap. Rows hold the same text as on SQLite (``pace.store.records``), so a round exported from
one engine imports into the other unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

import psycopg
from psycopg import errors as pgerrors

from pace.rules.errors import SetupError, said
from pace.rules.events import Event, EventConflictError, canonical_json
from pace.rules.model import Course, Group, Player
from pace.store.base import Store
from pace.store.errors import RoundExistsError, UnknownCourseError
from pace.store.instants import from_iso, iso
from pace.store.pg import migrations
from pace.store.pg.access import PgAccessTables
from pace.store.pg.competitions import PgCompetitionTables
from pace.store.pg.db import WAIT_SECONDS, PgDatabase
from pace.store.records import (
    EVENT_COLUMNS,
    UNSET,
    RoundRecord,
    RoundSummary,
    Unset,
    allowance_json,
    check_completions,
    check_language,
    check_play,
    check_policy,
    check_readings,
    check_scoring,
    checked_new_round,
    course_from_row,
    course_json,
    differences,
    draw_rows,
    event_from_row,
    event_json,
    interval_seconds,
    unknown_round,
)

Cursor = psycopg.Cursor[Any]

_ROUND_COLUMNS = (
    "name, course, day, timezone, policy, standard_interval_s, play, format, scoring, net,"
    " allowance, completions, language, rounding, gross_par_adjustment, positions"
)


class PostgresStore(PgAccessTables, PgCompetitionTables, Store):
    """The pace database on PostgreSQL: ``PostgresStore.open(url)`` (or ``open_store``)."""

    engine = "postgresql"

    def __init__(self, db: PgDatabase) -> None:
        self._pg = db

    @classmethod
    def open(
        cls, url: str, *, synchronous: str = "FULL", wait_seconds: float = WAIT_SECONDS
    ) -> PostgresStore:
        """Connect to the database at ``url`` and apply the pending migrations.

        ``wait_seconds``: how long a write waits for a lock or a connection before it fails
        with ``storage_unavailable``.
        """
        db = PgDatabase(url, synchronous=synchronous, wait_seconds=wait_seconds)
        db.open()
        try:
            migrations.apply(db)
        except BaseException:
            db.close()
            raise
        return cls(db)

    # -- lifecycle ---------------------------------------------------------------------

    def close(self) -> None:
        self._pg.close()

    @property
    def closed(self) -> bool:
        return self._pg.closed

    @property
    def location(self) -> str:
        return self._pg.location

    @property
    def synchronous(self) -> str:
        """Return the ``database.synchronous`` level the connections commit with."""
        return self._pg.synchronous

    def __enter__(self) -> PostgresStore:
        return self

    def applied_migrations(self) -> list[str]:
        return migrations.applied(self._pg)

    # -- events ------------------------------------------------------------------------

    def append(self, event: Event, *, recorded_at: datetime) -> tuple[Event, bool]:
        recorded = iso(recorded_at, "recorded_at")
        row = _event_row(event, recorded)
        with self._pg.write(event.round) as cur:
            return _append_one(cur, event, row)

    def append_many(
        self, events: Iterable[Event], *, recorded_at: datetime, keep_recorded_at: bool = False
    ) -> list[tuple[Event, bool]]:
        recorded = iso(recorded_at, "recorded_at")
        batch = [
            (
                e,
                _event_row(
                    e,
                    iso(e.recorded_at, "recorded_at")
                    if keep_recorded_at and e.recorded_at is not None
                    else recorded,
                ),
            )
            for e in events
        ]
        with self._pg.write(*{e.round for e, _ in batch}) as cur:
            return [_append_one(cur, e, row) for e, row in batch]

    def events(
        self, round: str, *, types: Iterable[str] | None = None, after_seq: int = 0
    ) -> list[Event]:
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE round = %s AND seq > %s"
        params: list[object] = [round, after_seq]
        if types is not None:
            wanted = sorted(set(types))
            if not wanted:
                return []
            sql += " AND type = ANY(%s)"
            params.append(wanted)
        sql += " ORDER BY seq"
        with self._pg.read(snapshot=False) as cur:
            return [event_from_row(row) for row in cur.execute(sql, params)]

    def event(self, id: str) -> Event | None:
        with self._pg.read(snapshot=False) as cur:
            return _find_event(cur, id)

    def last_seq(self, round: str) -> int:
        with self._pg.read(snapshot=False) as cur:
            row = cur.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE round = %s", [round]
            ).fetchone()
            return int(row[0]) if row else 0

    def count_events(self, round: str | None = None) -> int:
        with self._pg.read(snapshot=False) as cur:
            if round is None:
                row = cur.execute("SELECT count(*) FROM events").fetchone()
            else:
                row = cur.execute(
                    "SELECT count(*) FROM events WHERE round = %s", [round]
                ).fetchone()
            return int(row[0]) if row else 0

    # -- courses -----------------------------------------------------------------------

    def save_course(self, course: Course, *, imported_at: datetime | None = None) -> None:
        if not isinstance(course.name, str) or not course.name.strip():
            raise SetupError(f"a course needs a name, not {course.name!r}", field="name")
        data = canonical_json(course_json(course))
        when = iso(imported_at or datetime.now(UTC), "imported_at")
        with self._pg.read(snapshot=False) as cur:
            users = [
                str(r[0])
                for r in cur.execute("SELECT name FROM rounds WHERE course = %s", [course.name])
            ]
        # the rounds on the course are locked as their appends are: no tap lands in between
        with self._pg.write(*users) as cur:
            row = cur.execute(
                "SELECT data FROM courses WHERE name = %s FOR UPDATE", [course.name]
            ).fetchone()
            if row is not None and row[0] != data:
                used = cur.execute(
                    "SELECT r.name, count(e.seq) FROM rounds r JOIN events e ON e.round = r.name"
                    " WHERE r.course = %s GROUP BY r.name ORDER BY r.name",
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
            cur.execute(
                "INSERT INTO courses (name, data, imported_at, slope, rating)"
                " VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (name) DO UPDATE SET data = excluded.data,"
                " imported_at = excluded.imported_at, slope = excluded.slope,"
                " rating = excluded.rating",
                [course.name, data, when, course.slope, course.rating],
            )

    def get_course(self, name: str) -> Course:
        with self._pg.read(snapshot=False) as cur:
            return _get_course(cur, name)

    def list_courses(self) -> list[Course]:
        with self._pg.read(snapshot=False) as cur:
            rows = cur.execute(
                'SELECT name, data, slope, rating FROM courses ORDER BY name COLLATE "C"'
            ).fetchall()
        return [course_from_row(*row) for row in rows]

    def save_geometry(
        self, course: str, data: Mapping[str, Any], *, imported_at: datetime
    ) -> None:
        text = canonical_json(dict(data))
        when = iso(imported_at, "imported_at")
        with self._pg.write() as cur:
            _get_course(cur, course, field="course")
            cur.execute(
                "INSERT INTO course_geometry (course, data, imported_at) VALUES (%s, %s, %s)"
                " ON CONFLICT (course) DO UPDATE SET data = excluded.data,"
                " imported_at = excluded.imported_at",
                [course, text, when],
            )

    def get_geometry(self, course: str) -> dict[str, Any] | None:
        with self._pg.read(snapshot=False) as cur:
            row = cur.execute(
                "SELECT data FROM course_geometry WHERE course = %s", [course]
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
        with self._pg.write(name) as cur:
            _get_course(cur, course, field="course")
            try:
                cur.execute(
                    "INSERT INTO rounds (name, course, day, timezone, policy,"
                    " standard_interval_s, created_at, play, format, scoring, net, allowance)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (name) DO NOTHING RETURNING name",
                    [name, course, day.isoformat(), timezone, policy, new.interval_s,
                     new.created_at, play, format, scoring, int(net), new.allowance],
                )  # fmt: skip
            except pgerrors.ForeignKeyViolation:
                raise UnknownCourseError(
                    f"course {course!r} does not exist; import it first", field="course"
                ) from None
            if cur.fetchone() is None:
                raise RoundExistsError(f"round {name!r} already exists", field="name")
            return _get_round(cur, name)

    def update_round(
        self,
        name: str,
        *,
        policy: str | Unset = UNSET,
        standard_interval: timedelta | None | Unset = UNSET,
        play: str | Unset = UNSET,
        format: str | Unset = UNSET,
        scoring: str | None | Unset = UNSET,
        net: bool | Unset = UNSET,
        allowance: Sequence[float] | None | Unset = UNSET,
        completions: str | Unset = UNSET,
        language: str | None | Unset = UNSET,
        rounding: str | None | Unset = UNSET,
        gross_par_adjustment: bool | None | Unset = UNSET,
        positions: bool | Unset = UNSET,
    ) -> RoundRecord:
        changes: dict[str, object] = {}
        if not isinstance(language, Unset):
            check_language(language)
            changes["language"] = language
        if not isinstance(rounding, Unset):
            check_readings(rounding, None)
            changes["rounding"] = rounding
        if not isinstance(gross_par_adjustment, Unset):
            check_readings(None, gross_par_adjustment)
            changes["gross_par_adjustment"] = (
                None if gross_par_adjustment is None else int(gross_par_adjustment)
            )
        if not isinstance(policy, Unset):
            check_policy(policy)
            changes["policy"] = policy
        if not isinstance(standard_interval, Unset):
            changes["standard_interval_s"] = interval_seconds(standard_interval)
        if not isinstance(play, Unset):
            check_play(play, "individual")
            changes["play"] = play
        if not isinstance(format, Unset):
            check_play("stroke_play", format)
            changes["format"] = format
        if not isinstance(scoring, Unset):
            check_scoring(scoring, False)
            changes["scoring"] = scoring
        if not isinstance(net, Unset):
            check_scoring(None, net)
            changes["net"] = int(net)
        if not isinstance(allowance, Unset):
            changes["allowance"] = allowance_json(allowance)
        if not isinstance(completions, Unset):
            changes["completions"] = check_completions(completions)
        if not isinstance(positions, Unset):
            if not isinstance(positions, bool):
                raise SetupError(f"positions {positions!r} must be true or false",
                                 field="positions")  # fmt: skip
            changes["positions"] = int(positions)
        with self._pg.write(name) as cur:
            if not _round_exists(cur, name):
                raise unknown_round(name)
            if changes:
                # the column names are this method's own constants, never the caller's
                assignments = ", ".join(f"{column} = %s" for column in changes)
                cur.execute(
                    f"UPDATE rounds SET {assignments} WHERE name = %s", [*changes.values(), name]
                )
            return _get_round(cur, name)

    def save_draw(self, round: str, groups: Sequence[Group]) -> RoundRecord:
        group_rows, player_rows = draw_rows(round, groups)
        with self._pg.write(round) as cur:
            if not _round_exists(cur, round):
                raise unknown_round(round, field="round")
            count = cur.execute("SELECT count(*) FROM events WHERE round = %s", [round]).fetchone()
            if count and count[0]:
                raise SetupError(
                    f"round {round!r} already has {count[0]} event(s); its draw can no"
                    " longer be replaced",
                    field="groups",
                    code="round_has_events",
                )
            cur.execute("DELETE FROM players WHERE round = %s", [round])
            cur.execute("DELETE FROM groups WHERE round = %s", [round])
            if group_rows:
                cur.executemany(
                    "INSERT INTO groups (round, id, position, start, tee)"
                    " VALUES (%(round)s, %(id)s, %(position)s, %(start)s, %(tee)s)",
                    group_rows,
                )
            if player_rows:
                cur.executemany(
                    "INSERT INTO players (round, group_id, position, name, handicap, side, club,"
                    " class, match, tees, gender, language) VALUES (%(round)s, %(group_id)s,"
                    " %(position)s, %(name)s, %(handicap)s, %(side)s, %(club)s, %(class)s,"
                    " %(match)s, %(tees)s, %(gender)s, %(language)s)",
                    player_rows,
                )
            return _get_round(cur, round)

    def get_round(self, name: str) -> RoundRecord:
        with self._pg.read() as cur:
            return _get_round(cur, name)

    def has_round(self, name: str) -> bool:
        with self._pg.read(snapshot=False) as cur:
            return _round_exists(cur, name)

    def list_rounds(self) -> list[RoundSummary]:
        sql = """
            SELECT r.name, r.course, r.day,
                   (SELECT count(*) FROM groups g WHERE g.round = r.name),
                   (SELECT count(*) FROM events e WHERE e.round = r.name)
            FROM rounds r ORDER BY r.day, r.name COLLATE "C"
        """
        with self._pg.read(snapshot=False) as cur:
            rows = cur.execute(sql).fetchall()
        return [
            RoundSummary(name, course, date.fromisoformat(day), int(groups), int(events))
            for name, course, day, groups, events in rows
        ]


# -- events ----------------------------------------------------------------------------


def _event_row(event: Event, recorded: str) -> list[object]:
    return [
        event.id,
        event.type,
        event.round,
        iso(event.at, "at"),
        recorded,
        event_json(event, "by", event.by),
        event_json(event, "payload", event.payload),
    ]


def _append_one(cur: Cursor, event: Event, row: list[object]) -> tuple[Event, bool]:
    # The round's advisory lock is held: no append of this round can interleave. An id can
    # still be stored meanwhile under another round's lock; ON CONFLICT catches that case,
    # and the stored event then decides, as for any resend.
    stored = _find_event(cur, event.id)
    if stored is None:
        try:
            inserted = cur.execute(
                "INSERT INTO events (id, type, round, at, recorded_at, by, payload)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING RETURNING seq",
                row,
            ).fetchone()
        except pgerrors.ForeignKeyViolation:
            raise unknown_round(event.round, field="round") from None
        if inserted is not None:
            _, _, _, _, recorded, by, payload = row
            return (
                Event(
                    id=event.id,
                    type=event.type,
                    round=event.round,
                    at=event.at,
                    payload=json.loads(str(payload)),
                    by=json.loads(str(by)),
                    recorded_at=from_iso(str(recorded)),
                    seq=int(inserted[0]),
                ),
                True,
            )
        stored = _find_event(cur, event.id)
        assert stored is not None  # the conflict that stopped the insert is committed
    if stored.is_same_fact(event):
        return stored, False
    raise EventConflictError(
        f"event {event.id!r} is already stored with a different"
        f" {differences(stored, event)}; a correction must be a new event with its own id",
        field="id",
    )


def _find_event(cur: Cursor, id: str) -> Event | None:
    row = cur.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE id = %s", [id]).fetchone()
    return None if row is None else event_from_row(row)


# -- setup -----------------------------------------------------------------------------


def _round_exists(cur: Cursor, name: str) -> bool:
    return cur.execute("SELECT 1 FROM rounds WHERE name = %s", [name]).fetchone() is not None


def _get_round(cur: Cursor, name: str) -> RoundRecord:
    row = cur.execute(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE name = %s", [name]).fetchone()
    if row is None:
        raise unknown_round(name)
    (rname, course, day, timezone, policy, interval, play, format_, scoring, net,
     allowance, completions, round_language, rounding, gross, positions) = row  # fmt: skip
    players: dict[str, list[Player]] = {}
    for (group_id, pname, handicap, side, club, class_name, match, tees, gender,
         language) in cur.execute(
        "SELECT group_id, name, handicap, side, club, class, match, tees, gender, language"
        ' FROM players WHERE round = %s ORDER BY group_id COLLATE "C", position',
        [name],
    ):  # fmt: skip
        players.setdefault(group_id, []).append(
            Player(pname, handicap, side, club, class_name, match, tees, gender, language)
        )
    groups = tuple(
        Group(gid, from_iso(start), tee, tuple(players.get(gid, ())))
        for gid, start, tee in cur.execute(
            "SELECT id, start, tee FROM groups WHERE round = %s ORDER BY position", [name]
        )
    )
    return RoundRecord(
        name=rname,
        course=_get_course(cur, course),
        day=date.fromisoformat(day),
        timezone=timezone,
        policy=policy,
        standard_interval=None if interval is None else timedelta(seconds=interval),
        groups=groups,
        play=play,
        format=format_,
        scoring=scoring,
        net=bool(net),
        allowance=None if allowance is None else tuple(json.loads(allowance)),
        completions=completions,
        language=round_language,
        rounding=rounding,
        gross_par_adjustment=None if gross is None else bool(gross),
        positions=bool(positions),
    )


def _get_course(cur: Cursor, name: str, *, field: str | None = None) -> Course:
    row = cur.execute(
        "SELECT name, data, slope, rating FROM courses WHERE name = %s", [name]
    ).fetchone()
    if row is None:
        raise UnknownCourseError(said("refusal.course.unknown", "course {course} does not "
                                      "exist; import it first", course=repr(name)),
                                 field=field)  # fmt: skip
    return course_from_row(*row)

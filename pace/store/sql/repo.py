"""The store: the event log and the setup tables, read and written as ``rules`` types, on
either engine.

This module, with ``access``, ``competitions`` and ``schema`` beside it, is where the table
names are. Every write is one transaction committed (with the engine's durability) before the
method returns; the engine's database (``self._db``) says how: SQLite's one shared connection
behind a lock and ``BEGIN IMMEDIATE``, PostgreSQL's pool and the round's advisory lock, so on
both within a round ``seq`` order is commit order and an id's look-up and its insert see the
same log.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from pace.rules.errors import SetupError, said
from pace.rules.events import Event, EventConflictError, canonical_json
from pace.rules.model import Course, Group, Player
from pace.store.base import Store
from pace.store.competitions import CompetitionTables
from pace.store.errors import RoundExistsError, UnknownClubError, UnknownCourseError
from pace.store.instants import from_iso, iso
from pace.store.records import (
    DEFAULT_CLUB,
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
from pace.store.sql.access import AccessTables
from pace.store.sql.clubdata import ClubData
from pace.store.sql.clubs import ClubTables
from pace.store.sql.dialect import Database, Dialect, Transaction

_ROUND_COLUMNS = (
    "name, course, day, timezone, policy, standard_interval_s, play, format, scoring, net,"
    " allowance, completions, language, rounding, gross_par_adjustment, positions, club"
)
_GROUP_COLUMNS = ("round", "id", "position", "start", "tee")
_PLAYER_COLUMNS = ("round", "group_id", "position", "name", "handicap", "side", "club", "class",
                   "match", "tees", "gender", "language")  # fmt: skip


def _insert(table: str, columns: Sequence[str]) -> str:
    marks = ", ".join("?" for _ in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"


class SqlStore(AccessTables, ClubTables, ClubData, CompetitionTables, Store):
    """The store on one engine: ``db`` its database, ``dialect`` what its SQL differs in."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        self._db = db
        self.dialect = dialect
        self.engine = dialect.name

    # -- lifecycle ---------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    @property
    def closed(self) -> bool:
        return self._db.closed

    @property
    def location(self) -> str:
        return self._db.location

    # -- events ------------------------------------------------------------------------

    def append(self, event: Event, *, recorded_at: datetime) -> tuple[Event, bool]:
        recorded = iso(recorded_at, "recorded_at")
        with self._db.write(event.round) as tx:
            return self._append_one(tx, event, recorded)

    def append_many(
        self,
        events: Iterable[Event],
        *,
        recorded_at: datetime,
        keep_recorded_at: bool = False,
        implied: bool = False,
    ) -> list[tuple[Event, bool]]:
        recorded = iso(recorded_at, "recorded_at")
        batch = [
            (e, iso(e.recorded_at, "recorded_at")
                if keep_recorded_at and e.recorded_at is not None else recorded)
            for e in events
        ]  # fmt: skip
        with self._db.write(*{e.round for e, _ in batch}, implied=implied) as tx:
            return [self._append_one(tx, e, when) for e, when in batch]

    def _append_one(self, tx: Transaction, event: Event, recorded: str) -> tuple[Event, bool]:
        # The write holds what keeps the round's appends apart (SQLite's file lock, PostgreSQL's
        # advisory lock of the round): nothing of this round interleaves between the look-up and
        # the insert. On PostgreSQL an id can still be stored meanwhile under another round's
        # lock; ON CONFLICT catches that case, and the stored event then decides, as for any
        # resend. The UNIQUE index stays the backstop.
        stored = _find_event(tx, event.id)
        if stored is None:
            row = _event_row(event, recorded)
            try:
                inserted = tx.execute(
                    "INSERT INTO events (id, type, round, at, recorded_at, by, payload)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING seq",
                    row,
                ).fetchall()  # every row: SQLite finishes the statement only then
            except Exception as exc:
                if self.dialect.is_foreign_key_violation(exc):
                    raise unknown_round(event.round, field="round") from None
                raise
            if inserted:
                _, _, _, _, _, by, payload = row
                return (
                    Event(
                        id=event.id,
                        type=event.type,
                        round=event.round,
                        at=event.at,
                        payload=json.loads(str(payload)),
                        by=json.loads(str(by)),
                        recorded_at=from_iso(str(recorded)),
                        seq=int(inserted[0][0]),
                    ),
                    True,
                )
            stored = _find_event(tx, event.id)
            assert stored is not None  # the conflict that stopped the insert is committed
        if stored.is_same_fact(event):
            return stored, False
        raise EventConflictError(
            f"event {event.id!r} is already stored with a different"
            f" {differences(stored, event)}; a correction must be a new event with its own id",
            field="id",
        )

    def events(
        self, round: str, *, types: Iterable[str] | None = None, after_seq: int = 0
    ) -> list[Event]:
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE round = ? AND seq > ?"
        params: list[object] = [round, after_seq]
        if types is not None:
            wanted = sorted(set(types))
            if not wanted:
                return []
            sql += f" AND type IN ({', '.join('?' for _ in wanted)})"
            params.extend(wanted)
        sql += " ORDER BY seq"
        with self._db.read(snapshot=False) as tx:
            return [event_from_row(row) for row in tx.execute(sql, params)]

    def event(self, id: str) -> Event | None:
        with self._db.read(snapshot=False) as tx:
            return _find_event(tx, id)

    def last_seq(self, round: str) -> int:
        with self._db.read(snapshot=False) as tx:
            row = tx.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE round = ?", [round]
            ).fetchone()
            return int(row[0]) if row else 0

    def count_events(self, round: str | None = None) -> int:
        with self._db.read(snapshot=False) as tx:
            if round is None:
                row = tx.execute("SELECT count(*) FROM events").fetchone()
            else:
                row = tx.execute("SELECT count(*) FROM events WHERE round = ?", [round]).fetchone()
            return int(row[0]) if row else 0

    # -- courses -----------------------------------------------------------------------

    def save_course(
        self, course: Course, *, imported_at: datetime | None = None, club: str = DEFAULT_CLUB
    ) -> None:
        if not isinstance(course.name, str) or not course.name.strip():
            raise SetupError(f"a course needs a name, not {course.name!r}", field="name")
        data = canonical_json(course_json(course))
        when = iso(imported_at or datetime.now(UTC), "imported_at")
        with self._db.read(snapshot=False) as tx:
            users = [str(r[0]) for r in tx.execute(
                "SELECT name FROM rounds WHERE course = ?", [course.name])]  # fmt: skip
        # the rounds on the course are locked as their appends are: no tap lands in between
        with self._db.write(*users) as tx:
            row = tx.execute(
                f"SELECT data, club FROM courses WHERE name = ?{self.dialect.for_update}",
                [course.name],
            ).fetchone()
            if row is not None and row[1] != club:
                # the name is the instance's (docs/federation.md): nothing of the other
                # club's course is told, not even which club holds it
                raise SetupError(
                    said("refusal.course.taken", "the course name {course} is taken on this "
                         "instance; import it under another name", course=repr(course.name)),
                    field="name", code="course_exists",
                )  # fmt: skip
            _check_club(tx, club)
            if row is not None and row[0] != data:
                used = tx.execute(
                    "SELECT r.name, count(e.seq) FROM rounds r JOIN events e ON e.round = r.name"
                    f" WHERE r.course = ? GROUP BY r.name ORDER BY r.name{self.dialect.binary}",
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
            tx.execute(
                "INSERT INTO courses (name, data, imported_at, slope, rating, club)"
                " VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET data = excluded.data,"
                " imported_at = excluded.imported_at, slope = excluded.slope,"
                " rating = excluded.rating",
                [course.name, data, when, course.slope, course.rating, club],
            )

    def get_course(self, name: str) -> Course:
        with self._db.read(snapshot=False) as tx:
            return _get_course(tx, name)

    def list_courses(self, *, club: str | None = None) -> list[Course]:
        where = "" if club is None else " WHERE club = ?"
        with self._db.read(snapshot=False) as tx:
            rows = tx.execute(
                f"SELECT name, data, slope, rating FROM courses{where}"
                f" ORDER BY name{self.dialect.binary}",
                [] if club is None else [club],
            ).fetchall()
        return [course_from_row(*row) for row in rows]

    def save_geometry(
        self, course: str, data: Mapping[str, Any], *, imported_at: datetime
    ) -> None:
        text = canonical_json(dict(data))
        when = iso(imported_at, "imported_at")
        with self._db.write() as tx:
            _get_course(tx, course, field="course")
            tx.execute(
                "INSERT INTO course_geometry (course, data, imported_at) VALUES (?, ?, ?)"
                " ON CONFLICT (course) DO UPDATE SET data = excluded.data,"
                " imported_at = excluded.imported_at",
                [course, text, when],
            )

    def get_geometry(self, course: str) -> dict[str, Any] | None:
        with self._db.read(snapshot=False) as tx:
            row = tx.execute(
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
        club: str = DEFAULT_CLUB,
    ) -> RoundRecord:
        new = checked_new_round(name, day, timezone, policy, play, format, scoring, net,
                                allowance, standard_interval, created_at)  # fmt: skip
        with self._db.write(name) as tx:
            _check_club(tx, club)
            _get_course(tx, course, field="course", club=club)
            made = tx.execute(
                "INSERT INTO rounds (name, course, day, timezone, policy,"
                " standard_interval_s, created_at, play, format, scoring, net, allowance, club)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (name) DO NOTHING RETURNING name",
                [name, course, day.isoformat(), timezone, policy, new.interval_s,
                 new.created_at, play, format, scoring, int(net), new.allowance, club],
            ).fetchall()  # fmt: skip
            if not made:
                raise RoundExistsError(f"round {name!r} already exists", field="name")
            return _get_round(tx, name, self.dialect)

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
        with self._db.write(name) as tx:
            if not _round_exists(tx, name):
                raise unknown_round(name)
            if changes:
                # the column names are this method's own constants, never the caller's
                assignments = ", ".join(f"{column} = ?" for column in changes)
                tx.execute(
                    f"UPDATE rounds SET {assignments} WHERE name = ?", [*changes.values(), name]
                )
            return _get_round(tx, name, self.dialect)

    def save_draw(self, round: str, groups: Sequence[Group]) -> RoundRecord:
        group_rows, player_rows = draw_rows(round, groups)
        with self._db.write(round) as tx:
            if not _round_exists(tx, round):
                raise unknown_round(round, field="round")
            count = tx.execute("SELECT count(*) FROM events WHERE round = ?", [round]).fetchone()
            if count and count[0]:
                raise SetupError(
                    f"round {round!r} already has {count[0]} event(s); its draw can no"
                    " longer be replaced",
                    field="groups",
                    code="round_has_events",
                )
            tx.execute("DELETE FROM players WHERE round = ?", [round])
            tx.execute("DELETE FROM groups WHERE round = ?", [round])
            for table, columns, rows in (("groups", _GROUP_COLUMNS, group_rows),
                                         ("players", _PLAYER_COLUMNS, player_rows)):  # fmt: skip
                if rows:
                    tx.executemany(_insert(table, columns), [[r[c] for c in columns] for r in rows])
            return _get_round(tx, round, self.dialect)

    def get_round(self, name: str) -> RoundRecord:
        with self._db.read() as tx:
            return _get_round(tx, name, self.dialect)

    def has_round(self, name: str) -> bool:
        with self._db.read(snapshot=False) as tx:
            return _round_exists(tx, name)

    def list_rounds(self, *, club: str | None = None) -> list[RoundSummary]:
        where = "" if club is None else "WHERE r.club = ?"
        sql = f"""
            SELECT r.name, r.course, r.day,
                   (SELECT count(*) FROM groups g WHERE g.round = r.name),
                   (SELECT count(*) FROM events e WHERE e.round = r.name), r.club
            FROM rounds r {where} ORDER BY r.day, r.name{self.dialect.binary}
        """
        with self._db.read(snapshot=False) as tx:
            rows = tx.execute(sql, [] if club is None else [club]).fetchall()
        return [
            RoundSummary(name, course, date.fromisoformat(day), int(groups), int(events), c)
            for name, course, day, groups, events, c in rows
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


def _find_event(tx: Transaction, id: str) -> Event | None:
    row = tx.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ?", [id]).fetchone()
    return None if row is None else event_from_row(row)


# -- setup -----------------------------------------------------------------------------


def _round_exists(tx: Transaction, name: str) -> bool:
    return tx.execute("SELECT 1 FROM rounds WHERE name = ?", [name]).fetchone() is not None


def _get_round(tx: Transaction, name: str, dialect: Dialect) -> RoundRecord:
    row = tx.execute(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE name = ?", [name]).fetchone()
    if row is None:
        raise unknown_round(name)
    (rname, course, day, timezone, policy, interval, play, format_, scoring, net,
     allowance, completions, round_language, rounding, gross, positions,
     round_club) = row  # fmt: skip
    players: dict[str, list[Player]] = {}
    for (group_id, pname, handicap, side, club, class_name, match, tees, gender,
         language) in tx.execute(
        "SELECT group_id, name, handicap, side, club, class, match, tees, gender, language"
        f" FROM players WHERE round = ? ORDER BY group_id{dialect.binary}, position",
        [name],
    ):  # fmt: skip
        players.setdefault(group_id, []).append(
            Player(pname, handicap, side, club, class_name, match, tees, gender, language)
        )
    groups = tuple(
        Group(gid, from_iso(start), tee, tuple(players.get(gid, ())))
        for gid, start, tee in tx.execute(
            "SELECT id, start, tee FROM groups WHERE round = ? ORDER BY position", [name]
        )
    )
    return RoundRecord(
        name=rname,
        course=_get_course(tx, course),
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
        club=round_club,
    )


def _check_club(tx: Transaction, club: str) -> None:
    if tx.execute("SELECT 1 FROM clubs WHERE id = ?", [club]).fetchone() is None:
        raise UnknownClubError(f"no club {club[:40]!r} on this instance", field="club")


def _get_course(
    tx: Transaction, name: str, *, field: str | None = None, club: str | None = None
) -> Course:
    row = tx.execute(
        "SELECT name, data, slope, rating, club FROM courses WHERE name = ?", [name]
    ).fetchone()
    if row is not None and club is not None and row[4] != club:
        row = None  # another club's course is not there for this club
    if row is None:
        raise UnknownCourseError(said("refusal.course.unknown", "course {course} does not "
                                      "exist; import it first", course=repr(name)),
                                 field=field)  # fmt: skip
    return course_from_row(*row[:4])

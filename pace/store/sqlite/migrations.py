"""The schema, as versioned migrations applied at startup.

Each migration runs once, inside a transaction together with its record in
sqlite-utils' ``_sqlite_migrations`` table (set ``"pace"``). Never edit a migration
that has shipped: add a new one below it.
"""

from __future__ import annotations

import sqlite_utils

from pace.store.records import (
    FORMATS,
    M003_ROLES,
    M005_ROLES,
    M012_ROUNDINGS,
    PLAYS,
    SCORINGS,
    competition_tables,
)
from pace.store.sqlite.db import SharedDatabase

MIGRATIONS = sqlite_utils.Migrations("pace")

# Instants are stored as fixed-width ISO 8601 UTC text, so text order is time order
# and report queries can compare them as strings.
_INSTANT = "'____-__-__T__:__:__.______+00:00'"


@MIGRATIONS()
def m001_initial(db: sqlite_utils.Database) -> None:
    """Create the setup tables and the append-only event log."""
    statements = [
        """
        CREATE TABLE courses (
            name TEXT PRIMARY KEY NOT NULL,
            data TEXT NOT NULL CHECK (json_valid(data)),
            imported_at TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE rounds (
            name TEXT PRIMARY KEY NOT NULL,
            course TEXT NOT NULL REFERENCES courses(name),
            day TEXT NOT NULL CHECK (day LIKE '____-__-__'),
            timezone TEXT NOT NULL,
            policy TEXT NOT NULL,
            standard_interval_s REAL CHECK (standard_interval_s > 0),
            created_at TEXT NOT NULL
        )
        """,
        "CREATE INDEX rounds_course ON rounds(course)",
        f"""
        CREATE TABLE groups (
            round TEXT NOT NULL REFERENCES rounds(name) ON DELETE CASCADE,
            id TEXT NOT NULL,
            position INTEGER NOT NULL,
            start TEXT NOT NULL CHECK (start LIKE {_INSTANT}),
            tee INTEGER NOT NULL,
            PRIMARY KEY (round, id),
            UNIQUE (round, position)
        )
        """,
        """
        CREATE TABLE players (
            round TEXT NOT NULL,
            group_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            handicap REAL,
            side TEXT,
            club TEXT,
            PRIMARY KEY (round, group_id, position),
            FOREIGN KEY (round, group_id) REFERENCES groups(round, id) ON DELETE CASCADE
        )
        """,
        f"""
        CREATE TABLE events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            round TEXT NOT NULL REFERENCES rounds(name),
            at TEXT NOT NULL CHECK (at LIKE {_INSTANT}),
            recorded_at TEXT NOT NULL CHECK (recorded_at LIKE {_INSTANT}),
            by TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(by)),
            payload TEXT NOT NULL CHECK (json_valid(payload))
        )
        """,
        "CREATE INDEX events_round_seq ON events(round, seq)",
        # Defence in depth: facts are never changed or removed, whatever the caller.
        """
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN
            SELECT RAISE(ABORT, 'events are append-only: UPDATE refused');
        END
        """,
        """
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN
            SELECT RAISE(ABORT, 'events are append-only: DELETE refused');
        END
        """,
    ]
    for sql in statements:
        db.execute(sql)


@MIGRATIONS()
def m002_round_play_and_format(db: sqlite_utils.Database) -> None:
    """Give each round its form of play and its scoring format (penalties depend on both)."""
    plays = ", ".join(f"'{p}'" for p in PLAYS)
    formats = ", ".join(f"'{f}'" for f in FORMATS)
    db.execute(
        "ALTER TABLE rounds ADD COLUMN play TEXT NOT NULL DEFAULT 'stroke_play'"
        f" CHECK (play IN ({plays}))"
    )
    db.execute(
        "ALTER TABLE rounds ADD COLUMN format TEXT NOT NULL DEFAULT 'individual'"
        f" CHECK (format IN ({formats}))"
    )


@MIGRATIONS()
def m003_access(db: sqlite_utils.Database) -> None:
    """Access: the app's secrets, hashed access codes per round and role, and sessions.

    Codes and session tokens are stored only as hashes (docs/access.md). A code whose
    ``round`` is NULL opens every round: the committee account made on an empty database.
    """
    roles = ", ".join(f"'{r}'" for r in M003_ROLES)
    statements = [
        """
        CREATE TABLE app_secrets (
            name TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        )
        """,
        f"""
        CREATE TABLE access_codes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            round TEXT,
            role TEXT NOT NULL CHECK (role IN ({roles})),
            prefix TEXT NOT NULL,
            hash TEXT NOT NULL,
            label TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT}),
            revoked_at TEXT
        )
        """,
        "CREATE INDEX access_codes_prefix ON access_codes(prefix)",
        f"""
        CREATE TABLE sessions (
            token_hash TEXT PRIMARY KEY NOT NULL,
            role TEXT NOT NULL CHECK (role IN ({roles})),
            round TEXT,
            code INTEGER REFERENCES access_codes(id),
            name TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT}),
            expires_at TEXT NOT NULL CHECK (expires_at LIKE {_INSTANT}),
            revoked_at TEXT
        )
        """,
    ]
    for sql in statements:
        db.execute(sql)


@MIGRATIONS()
def m004_scoring_setup(db: sqlite_utils.Database) -> None:
    """Keep what scoring needs from the course and the draw (issue 11).

    Courses get their ``slope`` and ``rating`` (course handicaps); players their draw
    ``class`` and their ``match`` id. A hole's ``bogey`` lives in the course's holes JSON.
    """
    db.execute("ALTER TABLE courses ADD COLUMN slope REAL")
    db.execute("ALTER TABLE courses ADD COLUMN rating REAL")
    db.execute("ALTER TABLE players ADD COLUMN class TEXT")
    db.execute("ALTER TABLE players ADD COLUMN match TEXT")


@MIGRATIONS()
def m005_scorer_role(db: sqlite_utils.Database) -> None:
    """Add the ``scorer`` role to access codes and sessions (issue 11).

    SQLite cannot change a CHECK constraint in place: both tables are rebuilt with the
    new list and their rows copied, ids kept. ``sessions`` is rebuilt first so that no
    row refers to the old ``access_codes`` when it is dropped; renaming the new tables
    rewrites the foreign key to the new name.
    """
    roles = ", ".join(f"'{r}'" for r in M005_ROLES)
    statements = [
        f"""
        CREATE TABLE access_codes_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            round TEXT,
            role TEXT NOT NULL CHECK (role IN ({roles})),
            prefix TEXT NOT NULL,
            hash TEXT NOT NULL,
            label TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT}),
            revoked_at TEXT
        )
        """,
        "INSERT INTO access_codes_new SELECT id, round, role, prefix, hash, label,"
        " created_at, revoked_at FROM access_codes",
        f"""
        CREATE TABLE sessions_new (
            token_hash TEXT PRIMARY KEY NOT NULL,
            role TEXT NOT NULL CHECK (role IN ({roles})),
            round TEXT,
            code INTEGER REFERENCES access_codes_new(id),
            name TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT}),
            expires_at TEXT NOT NULL CHECK (expires_at LIKE {_INSTANT}),
            revoked_at TEXT
        )
        """,
        "INSERT INTO sessions_new SELECT token_hash, role, round, code, name, created_at,"
        " expires_at, revoked_at FROM sessions",
        "DROP TABLE sessions",
        "DROP TABLE access_codes",
        "ALTER TABLE access_codes_new RENAME TO access_codes",
        "ALTER TABLE sessions_new RENAME TO sessions",
        "CREATE INDEX access_codes_prefix ON access_codes(prefix)",
    ]
    for sql in statements:
        db.execute(sql)


@MIGRATIONS()
def m006_round_scoring(db: sqlite_utils.Database) -> None:
    """Give each round its scoring, net or gross, and an allowance of its own (issue 11).

    ``scoring`` NULL: the one its form of play implies (stroke play: ``stroke``, match play:
    ``match``); ``allowance`` NULL: config.toml's ``[handicap]``, else the percentages of
    the round's format as a JSON list (``[90]``, greensome ``[60, 40]``).
    """
    scorings = ", ".join(f"'{s}'" for s in SCORINGS)
    db.execute(f"ALTER TABLE rounds ADD COLUMN scoring TEXT CHECK (scoring IN ({scorings}))")
    db.execute("ALTER TABLE rounds ADD COLUMN net INTEGER NOT NULL DEFAULT 0 CHECK (net IN (0, 1))")
    db.execute(
        "ALTER TABLE rounds ADD COLUMN allowance TEXT"
        " CHECK (allowance IS NULL OR json_valid(allowance))"
    )


@MIGRATIONS()
def m007_competitions(db: sqlite_utils.Database) -> None:
    """Competitions of 2–4 rounds, their scoring and cut (issue 28); ``events`` is the log."""
    for sql in competition_tables():
        db.execute(sql)


@MIGRATIONS()
def m008_tees(db: sqlite_utils.Database) -> None:
    """Give each player of a draw his tee set and gender (issue 38); a course's tee sets live
    in its ``data`` JSON."""
    db.execute("ALTER TABLE players ADD COLUMN tees TEXT")
    db.execute("ALTER TABLE players ADD COLUMN gender TEXT")


def apply(shared: SharedDatabase) -> list[str]:
    """Apply the pending migrations in one write transaction; return the names applied.

    Two processes opening a new file at once are serialised by the write lock, so
    each migration still runs exactly once.
    """
    with shared.write() as db:
        pending = [m.name for m in MIGRATIONS.pending(db)]
        MIGRATIONS.apply(db)
    return pending


def applied(shared: SharedDatabase) -> list[str]:
    """Return the names of the migrations recorded in the file, in the order applied."""
    with shared.read() as db:
        return [m.name for m in MIGRATIONS.applied(db)]


@MIGRATIONS()
def m009_course_geometry(db: sqlite_utils.Database) -> None:
    """Give a course its own map (issue 40): its holes' geometry as JSON, beside the course
    (a course in use keeps its ``data``; its map may still be added or replaced)."""
    db.execute(
        """
        CREATE TABLE course_geometry (
            course TEXT PRIMARY KEY NOT NULL REFERENCES courses(name),
            data TEXT NOT NULL CHECK (json_valid(data)),
            imported_at TEXT NOT NULL
        )
        """
    )


@MIGRATIONS()
def m010_completion_sources(db: sqlite_utils.Database) -> None:
    """Say where a round's completions come from (issue 39): ``officials`` (the taps only),
    ``officials_and_groups`` or ``groups`` (the groups' own scorecards report)."""
    db.execute(
        "ALTER TABLE rounds ADD COLUMN completions TEXT NOT NULL DEFAULT 'officials'"
        " CHECK (completions IN ('officials', 'officials_and_groups', 'groups'))"
    )


@MIGRATIONS()
def m011_languages(db: sqlite_utils.Database) -> None:
    """Give each round the language of its documents and each player of a draw the language
    of his letter (issue 41); NULL: the configuration's, the round's."""
    db.execute("ALTER TABLE rounds ADD COLUMN language TEXT CHECK (language IN ('fr', 'en', 'nl'))")
    db.execute(
        "ALTER TABLE players ADD COLUMN language TEXT CHECK (language IN ('fr', 'en', 'nl'))"
    )


@MIGRATIONS()
def m012_handicap_readings(db: sqlite_utils.Database) -> None:
    """Give each round its readings of the handicap rules (issue 47): the playing handicap's
    ``rounding`` and the ``gross_par_adjustment`` for tees of different par; NULL (every round
    stored before): config.toml's ``[handicap]``."""
    roundings = ", ".join(f"'{r}'" for r in M012_ROUNDINGS)
    db.execute(f"ALTER TABLE rounds ADD COLUMN rounding TEXT CHECK (rounding IN ({roundings}))")
    db.execute(
        "ALTER TABLE rounds ADD COLUMN gross_par_adjustment INTEGER"
        " CHECK (gross_par_adjustment IN (0, 1))"
    )


@MIGRATIONS()
def m013_positions(db: sqlite_utils.Database) -> None:
    """Say whether a round allows positions from the groups' phones (issue 48): 0 (every round
    stored before, and the default) or 1. No coordinate is ever stored in this database."""
    db.execute(
        "ALTER TABLE rounds ADD COLUMN positions INTEGER NOT NULL DEFAULT 0"
        " CHECK (positions IN (0, 1))"
    )

"""The schema, as ordered migration steps written once for both engines.

Each step names its SQL for a :class:`~pace.store.sql.dialect.Dialect`: the same statements
on SQLite and PostgreSQL, with the dialect's words where the engines differ (a column's
type, a JSON check, the log's sequence); a step whose SQL differs altogether gives each
engine its own (``m001``'s append-only triggers, ``m005``'s new CHECK: SQLite rebuilds the
tables, PostgreSQL changes the CHECK in place). Each engine's runner applies the pending
steps in order, each once, in one transaction with its record (SQLite: sqlite-utils'
``_sqlite_migrations``; PostgreSQL: ``pace_migrations``). Never edit a shipped step: add the
next one at the end of ``STEPS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pace.store.records import (
    FORMATS,
    INSTANT_LIKE,
    M003_ROLES,
    M005_ROLES,
    M012_ROUNDINGS,
    PLAYS,
    SCORINGS,
    competition_tables,
)
from pace.store.sql.dialect import Dialect

# Instants are stored as fixed-width ISO 8601 UTC text, so text order is time order
# and report queries can compare them as strings.
_INSTANT = INSTANT_LIKE


@dataclass(frozen=True)
class Step:
    """One migration: its name (the schema's version on both engines) and its SQL."""

    name: str
    sql: Callable[[Dialect], list[str]]

    @property
    def doc(self) -> str:
        return (self.sql.__doc__ or "").strip()


def _listed(values: Sequence[str]) -> str:
    return ", ".join(f"'{v}'" for v in values)


def m001_initial(d: Dialect) -> list[str]:
    """Create the setup tables and the append-only event log."""
    tables = [
        f"""
        CREATE TABLE courses (
            name TEXT PRIMARY KEY NOT NULL,
            data TEXT NOT NULL {d.json("data")},
            imported_at TEXT NOT NULL
        )
        """,
        f"""
        CREATE TABLE rounds (
            name TEXT PRIMARY KEY NOT NULL,
            course TEXT NOT NULL REFERENCES courses(name),
            day TEXT NOT NULL {d.day_check},
            timezone TEXT NOT NULL,
            policy TEXT NOT NULL,
            standard_interval_s {d.real} CHECK (standard_interval_s > 0),
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
        f"""
        CREATE TABLE players (
            round TEXT NOT NULL,
            group_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            handicap {d.real},
            side TEXT,
            club TEXT,
            PRIMARY KEY (round, group_id, position),
            FOREIGN KEY (round, group_id) REFERENCES groups(round, id) ON DELETE CASCADE
        )
        """,
        f"""
        CREATE TABLE events (
            seq {d.event_seq},
            id TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            round TEXT NOT NULL REFERENCES rounds(name),
            at TEXT NOT NULL CHECK (at LIKE {_INSTANT}),
            recorded_at TEXT NOT NULL CHECK (recorded_at LIKE {_INSTANT}),
            by TEXT NOT NULL DEFAULT '{{}}' {d.json("by")},
            payload TEXT NOT NULL {d.json("payload")}
        )
        """,
        "CREATE INDEX events_round_seq ON events(round, seq)",
    ]
    # Defence in depth: facts are never changed or removed, whatever the caller.
    append_only = {
        "sqlite": [
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
        ],
        "postgresql": [
            """
            CREATE FUNCTION pace_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'events are append-only: % refused', TG_OP
                    USING ERRCODE = 'integrity_constraint_violation';
            END
            $$
            """,
            """
            CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events
            FOR EACH ROW EXECUTE FUNCTION pace_events_append_only()
            """,
            """
            CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
            FOR EACH STATEMENT EXECUTE FUNCTION pace_events_append_only()
            """,
        ],
    }
    return tables + append_only[d.name]


def m002_round_play_and_format(d: Dialect) -> list[str]:
    """Give each round its form of play and its scoring format (penalties depend on both)."""
    return [
        "ALTER TABLE rounds ADD COLUMN play TEXT NOT NULL DEFAULT 'stroke_play'"
        f" CHECK (play IN ({_listed(PLAYS)}))",
        "ALTER TABLE rounds ADD COLUMN format TEXT NOT NULL DEFAULT 'individual'"
        f" CHECK (format IN ({_listed(FORMATS)}))",
    ]


def _access_codes(d: Dialect, table: str, roles: str) -> str:
    return f"""
        CREATE TABLE {table} (
            id {d.code_key},
            round TEXT,
            role TEXT NOT NULL {d.constraint("access_codes_role")}CHECK (role IN ({roles})),
            prefix TEXT NOT NULL,
            hash TEXT NOT NULL,
            label TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT}),
            revoked_at TEXT
        )
        """


def _sessions(d: Dialect, table: str, roles: str, codes: str) -> str:
    return f"""
        CREATE TABLE {table} (
            token_hash TEXT PRIMARY KEY NOT NULL,
            role TEXT NOT NULL {d.constraint("sessions_role")}CHECK (role IN ({roles})),
            round TEXT,
            code {d.code_ref} REFERENCES {codes}(id),
            name TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT}),
            expires_at TEXT NOT NULL CHECK (expires_at LIKE {_INSTANT}),
            revoked_at TEXT
        )
        """


def m003_access(d: Dialect) -> list[str]:
    """Access: the app's secrets, hashed access codes per round and role, and sessions.

    Codes and session tokens are stored only as hashes (docs/access.md). A code whose
    ``round`` is NULL opens every round: the committee account made on an empty database.
    """
    roles = _listed(M003_ROLES)
    return [
        """
        CREATE TABLE app_secrets (
            name TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        )
        """,
        _access_codes(d, "access_codes", roles),
        "CREATE INDEX access_codes_prefix ON access_codes(prefix)",
        _sessions(d, "sessions", roles, "access_codes"),
    ]


def m004_scoring_setup(d: Dialect) -> list[str]:
    """Keep what scoring needs from the course and the draw (issue 11).

    Courses get their ``slope`` and ``rating`` (course handicaps); players their draw
    ``class`` and their ``match`` id. A hole's ``bogey`` lives in the course's holes JSON.
    """
    return [
        f"ALTER TABLE courses ADD COLUMN slope {d.real}",
        f"ALTER TABLE courses ADD COLUMN rating {d.real}",
        "ALTER TABLE players ADD COLUMN class TEXT",
        "ALTER TABLE players ADD COLUMN match TEXT",
    ]


def m005_scorer_role(d: Dialect) -> list[str]:
    """Add the ``scorer`` role to access codes and sessions (issue 11).

    PostgreSQL changes the named CHECKs in place. SQLite cannot: both tables are rebuilt
    with the new list and their rows copied, ids kept; ``sessions`` is rebuilt first so that
    no row refers to the old ``access_codes`` when it is dropped, and renaming the new tables
    rewrites the foreign key to the new name.
    """
    roles = _listed(M005_ROLES)
    if d.name == "postgresql":
        return [
            "ALTER TABLE access_codes DROP CONSTRAINT access_codes_role,"
            f" ADD CONSTRAINT access_codes_role CHECK (role IN ({roles}))",
            "ALTER TABLE sessions DROP CONSTRAINT sessions_role,"
            f" ADD CONSTRAINT sessions_role CHECK (role IN ({roles}))",
        ]
    return [
        _access_codes(d, "access_codes_new", roles),
        "INSERT INTO access_codes_new SELECT id, round, role, prefix, hash, label,"
        " created_at, revoked_at FROM access_codes",
        _sessions(d, "sessions_new", roles, "access_codes_new"),
        "INSERT INTO sessions_new SELECT token_hash, role, round, code, name, created_at,"
        " expires_at, revoked_at FROM sessions",
        "DROP TABLE sessions",
        "DROP TABLE access_codes",
        "ALTER TABLE access_codes_new RENAME TO access_codes",
        "ALTER TABLE sessions_new RENAME TO sessions",
        "CREATE INDEX access_codes_prefix ON access_codes(prefix)",
    ]


def m006_round_scoring(d: Dialect) -> list[str]:
    """Give each round its scoring, net or gross, and an allowance of its own (issue 11).

    ``scoring`` NULL: the one its form of play implies (stroke play: ``stroke``, match play:
    ``match``); ``allowance`` NULL: config.toml's ``[handicap]``, else the percentages of
    the round's format as a JSON list (``[90]``, greensome ``[60, 40]``).
    """
    allowance = d.json_valid("allowance")
    return [
        f"ALTER TABLE rounds ADD COLUMN scoring TEXT CHECK (scoring IN ({_listed(SCORINGS)}))",
        "ALTER TABLE rounds ADD COLUMN net INTEGER NOT NULL DEFAULT 0 CHECK (net IN (0, 1))",
        f"ALTER TABLE rounds ADD COLUMN allowance TEXT CHECK (allowance IS NULL OR {allowance})",
    ]


def m007_competitions(d: Dialect) -> list[str]:
    """Competitions of 2–4 rounds, their scoring and cut (issue 28); ``events`` is the log."""
    return competition_tables()


def m008_tees(d: Dialect) -> list[str]:
    """Give each player of a draw his tee set and gender (issue 38); a course's tee sets live
    in its ``data`` JSON."""
    return [
        "ALTER TABLE players ADD COLUMN tees TEXT",
        "ALTER TABLE players ADD COLUMN gender TEXT",
    ]


def m009_course_geometry(d: Dialect) -> list[str]:
    """Give a course its own map (issue 40): its holes' geometry as JSON, beside the course
    (a course in use keeps its ``data``; its map may still be added or replaced)."""
    return [
        f"""
        CREATE TABLE course_geometry (
            course TEXT PRIMARY KEY NOT NULL REFERENCES courses(name),
            data TEXT NOT NULL {d.json("data")},
            imported_at TEXT NOT NULL
        )
        """
    ]


def m010_completion_sources(d: Dialect) -> list[str]:
    """Say where a round's completions come from (issue 39): ``officials`` (the taps only),
    ``officials_and_groups`` or ``groups`` (the groups' own scorecards report)."""
    return [
        "ALTER TABLE rounds ADD COLUMN completions TEXT NOT NULL DEFAULT 'officials'"
        " CHECK (completions IN ('officials', 'officials_and_groups', 'groups'))",
    ]


def m011_languages(d: Dialect) -> list[str]:
    """Give each round the language of its documents and each player of a draw the language
    of his letter (issue 41); NULL: the configuration's, the round's."""
    return [
        "ALTER TABLE rounds ADD COLUMN language TEXT CHECK (language IN ('fr', 'en', 'nl'))",
        "ALTER TABLE players ADD COLUMN language TEXT CHECK (language IN ('fr', 'en', 'nl'))",
    ]


def m012_handicap_readings(d: Dialect) -> list[str]:
    """Give each round its readings of the handicap rules (issue 47): the playing handicap's
    ``rounding`` and the ``gross_par_adjustment`` for tees of different par; NULL (every round
    stored before): config.toml's ``[handicap]``."""
    return [
        "ALTER TABLE rounds ADD COLUMN rounding TEXT"
        f" CHECK (rounding IN ({_listed(M012_ROUNDINGS)}))",
        "ALTER TABLE rounds ADD COLUMN gross_par_adjustment INTEGER"
        " CHECK (gross_par_adjustment IN (0, 1))",
    ]


def m013_positions(d: Dialect) -> list[str]:
    """Say whether a round allows positions from the groups' phones (issue 48): 0 (every round
    stored before, and the default) or 1. No coordinate is ever stored in this database."""
    return [
        "ALTER TABLE rounds ADD COLUMN positions INTEGER NOT NULL DEFAULT 0"
        " CHECK (positions IN (0, 1))",
    ]


def m014_clubs(d: Dialect) -> list[str]:
    """Clubs as tenants of one instance, and people's own accounts (issue 50).

    Every course, round and competition belongs to a club (``club``; every row stored before:
    ``default``, the club of a single-club instance, made here). An account (a person: name,
    e-mail, an argon2 hash of a password) has a role per club (``memberships``); an
    administrator (``admin``) manages clubs and sees none of their data. ``sessions`` gain the
    club they act in and the account that opened them, and the ``admin`` role (SQLite rebuilds
    the table, as m005 did). ``access_log`` keeps every sign-in, failed attempt and change of
    role, appended only.
    """
    roles = _listed((*M005_ROLES, "admin"))
    sessions = f"""
        CREATE TABLE {{table}} (
            token_hash TEXT PRIMARY KEY NOT NULL,
            role TEXT NOT NULL {d.constraint("sessions_role")}CHECK (role IN ({roles})),
            round TEXT,
            code {d.code_ref} REFERENCES access_codes(id),
            name TEXT,
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT}),
            expires_at TEXT NOT NULL CHECK (expires_at LIKE {_INSTANT}),
            revoked_at TEXT,
            club TEXT,
            account {d.code_ref}
        )
        """
    if d.name == "postgresql":
        rebuilt = [
            "ALTER TABLE sessions DROP CONSTRAINT sessions_role,"
            f" ADD CONSTRAINT sessions_role CHECK (role IN ({roles}))",
            "ALTER TABLE sessions ADD COLUMN club TEXT",
            f"ALTER TABLE sessions ADD COLUMN account {d.code_ref}",
        ]
    else:
        rebuilt = [
            sessions.format(table="sessions_new"),
            "INSERT INTO sessions_new SELECT token_hash, role, round, code, name, created_at,"
            " expires_at, revoked_at, NULL, NULL FROM sessions",
            "DROP TABLE sessions",
            "ALTER TABLE sessions_new RENAME TO sessions",
        ]
    return [
        f"""
        CREATE TABLE clubs (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT})
        )
        """,
        "INSERT INTO clubs (id, name, created_at)"
        " VALUES ('default', 'Club', '1970-01-01T00:00:00.000000+00:00')",
        "ALTER TABLE courses ADD COLUMN club TEXT NOT NULL DEFAULT 'default'",
        "ALTER TABLE rounds ADD COLUMN club TEXT NOT NULL DEFAULT 'default'",
        "ALTER TABLE competitions ADD COLUMN club TEXT NOT NULL DEFAULT 'default'",
        "CREATE INDEX courses_club ON courses(club)",
        "CREATE INDEX rounds_club ON rounds(club)",
        f"""
        CREATE TABLE accounts (
            id {d.code_key},
            email TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            password TEXT,
            setup_hash TEXT,
            setup_expires TEXT,
            admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
            created_at TEXT NOT NULL CHECK (created_at LIKE {_INSTANT}),
            disabled_at TEXT
        )
        """,
        f"""
        CREATE TABLE memberships (
            account {d.code_ref} NOT NULL REFERENCES accounts(id),
            club TEXT NOT NULL REFERENCES clubs(id),
            role TEXT NOT NULL CHECK (role IN ('committee', 'referee')),
            PRIMARY KEY (account, club)
        )
        """,
        "CREATE INDEX memberships_club ON memberships(club)",
        f"""
        CREATE TABLE access_log (
            id {d.code_key},
            at TEXT NOT NULL CHECK (at LIKE {_INSTANT}),
            club TEXT,
            account {d.code_ref},
            who TEXT NOT NULL DEFAULT '',
            kind TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '',
            remote TEXT NOT NULL DEFAULT ''
        )
        """,
        "CREATE INDEX access_log_club ON access_log(club, id)",
        *rebuilt,
    ]


#: every migration, in the order it is applied; the names are the schema's versions
STEPS: tuple[Step, ...] = tuple(
    Step(sql.__name__, sql)
    for sql in (
        m001_initial,
        m002_round_play_and_format,
        m003_access,
        m004_scoring_setup,
        m005_scorer_role,
        m006_round_scoring,
        m007_competitions,
        m008_tees,
        m009_course_geometry,
        m010_completion_sources,
        m011_languages,
        m012_handicap_readings,
        m013_positions,
        m014_clubs,
    )
)

#: the names of ``STEPS``, in order
NAMES = tuple(step.name for step in STEPS)


def pending(done: set[str], *, stop_before: str | None = None) -> list[Step]:
    """Return the steps not in ``done``, in order; ``stop_before`` leaves that step and the
    later ones out (a test's older schema)."""
    if stop_before is not None and stop_before not in NAMES:
        raise ValueError(f"no migration {stop_before!r}")
    steps = []
    for step in STEPS:
        if step.name == stop_before:
            break
        if step.name not in done:
            steps.append(step)
    return steps

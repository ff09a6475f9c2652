"""The schema's steps (``pace.store.sql.schema``) applied to a PostgreSQL database.

Each step runs once, in one transaction with its record in ``pace_migrations`` (PostgreSQL's
DDL is transactional), under an advisory lock, so workers starting together on a new
database apply each step exactly once. The names are the SQLite file's: one list of names is
the schema's version on both engines.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pace.store.pg.db import DIALECT, LOCK_CLASS, MIGRATIONS_LOCK, PgDatabase
from pace.store.sql.schema import NAMES, pending


def apply(db: PgDatabase, *, stop_before: str | None = None) -> list[str]:
    """Apply the pending migrations in one transaction; return the names applied.

    Workers opening a new database at once are serialised by an advisory lock, so each
    migration still runs exactly once. ``stop_before`` leaves that migration and the later
    ones pending (tests of an upgrade).
    """
    with db.write() as tx:
        tx.execute("SELECT pg_advisory_xact_lock(?, ?)", [LOCK_CLASS, MIGRATIONS_LOCK])
        tx.execute(
            "CREATE TABLE IF NOT EXISTS pace_migrations"
            " (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        done = {str(r[0]) for r in tx.execute("SELECT name FROM pace_migrations")}
        steps = pending(done, stop_before=stop_before)
        for step in steps:
            for sql in step.sql(DIALECT):
                tx.execute(sql)
            tx.execute(
                "INSERT INTO pace_migrations (name, applied_at) VALUES (?, ?)",
                [step.name, datetime.now(UTC).isoformat(timespec="microseconds")],
            )
    return [step.name for step in steps]


def applied(db: PgDatabase) -> list[str]:
    """Return the names of the migrations recorded in the database, in the order applied."""
    with db.read(snapshot=False) as tx:
        rows = tx.execute("SELECT name FROM pace_migrations").fetchall()
    order = {name: i for i, name in enumerate(NAMES)}
    return sorted((str(r[0]) for r in rows), key=lambda n: order.get(n, len(order)))

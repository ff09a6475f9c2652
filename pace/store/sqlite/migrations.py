"""The schema's steps (``pace.store.sql.schema``) applied to a SQLite file.

Each step runs once, inside a transaction together with its record in sqlite-utils'
``_sqlite_migrations`` table (set ``"pace"``), as every released pace recorded them, so
``sqlite-utils migrate`` and the rest still read the file's history.
"""

from __future__ import annotations

import sqlite_utils

from pace.store.sql.schema import STEPS, Step
from pace.store.sqlite.db import DIALECT, SharedDatabase

MIGRATIONS = sqlite_utils.Migrations("pace")


def _register(step: Step) -> None:
    def run(db: sqlite_utils.Database) -> None:
        for sql in step.sql(DIALECT):
            db.execute(sql)

    run.__doc__ = step.doc
    MIGRATIONS(name=step.name)(run)


for _step in STEPS:
    _register(_step)


def apply(shared: SharedDatabase, *, stop_before: str | None = None) -> list[str]:
    """Apply the pending migrations in one write transaction; return the names applied.

    Two processes opening a new file at once are serialised by the write lock, so
    each migration still runs exactly once. ``stop_before`` leaves that migration and the
    later ones pending (tests of an upgrade).
    """
    with shared.write():
        db = shared.db
        pending = []
        for migration in MIGRATIONS.pending(db):
            if migration.name == stop_before:
                break
            pending.append(migration.name)
        MIGRATIONS.apply(db, stop_before=stop_before)
    return pending


def applied(shared: SharedDatabase) -> list[str]:
    """Return the names of the migrations recorded in the file, in the order applied."""
    with shared.read():
        return [m.name for m in MIGRATIONS.applied(shared.db)]

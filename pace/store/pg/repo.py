"""The store on PostgreSQL: the shared store (``pace.store.sql``) on a pool of connections.

Several workers share one database. What SQLite gets from its single writer, this engine gets
from transaction-level advisory locks: the appends and setup writes of a round are serialised
across workers (``PgDatabase.write(round)``), so within a round ``seq`` order is commit order,
the look-up of an id and its insert see the same log, and a draw is never replaced under a
tap. Rows hold the same text as on SQLite (``pace.store.records``), so a round exported from
one engine imports into the other unchanged.
"""

from __future__ import annotations

from pace.store.pg import migrations
from pace.store.pg.db import DIALECT, WAIT_SECONDS, PgDatabase
from pace.store.sql.repo import SqlStore


class PostgresStore(SqlStore):
    """The pace database on PostgreSQL: ``PostgresStore.open(url)`` (or ``open_store``)."""

    engine = "postgresql"
    _db: PgDatabase

    def __init__(self, db: PgDatabase) -> None:
        super().__init__(db, DIALECT)

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

    def __enter__(self) -> PostgresStore:
        return self

    @property
    def synchronous(self) -> str:
        """Return the ``database.synchronous`` level the connections commit with."""
        return self._db.synchronous

    def applied_migrations(self) -> list[str]:
        return migrations.applied(self._db)

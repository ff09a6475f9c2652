"""The store in one SQLite file: the shared store (``pace.store.sql``) on SQLite's connection.

What only SQLite has: its file (``path``), the file's journal mode and ``PRAGMA synchronous``,
and commits that ``pace serve`` may hand to gevent's thread pool (``offload_commits``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pace.store.base import DEFAULT_SYNCHRONOUS, SYNCHRONOUS_LEVELS
from pace.store.sql.repo import SqlStore
from pace.store.sqlite import db as dbmod
from pace.store.sqlite import migrations


class SqliteStore(SqlStore):
    """The pace database in one SQLite file: ``SqliteStore.open(path)`` (or ``open_store``)."""

    engine = "sqlite"
    _db: dbmod.SharedDatabase

    def __init__(self, shared: dbmod.SharedDatabase) -> None:
        super().__init__(shared, dbmod.DIALECT)

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

    def __enter__(self) -> SqliteStore:
        return self

    def offload_commits(self, offload: Callable[[Callable[[], object]], object]) -> None:
        """Run every commit through ``offload`` (it returns once the commit is done), such as
        gevent's thread pool, so the waiting on the disk leaves the other greenlets running."""
        self._db.offload = offload

    @property
    def path(self) -> Path:
        """Return the database file's path."""
        return self._db.path

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

"""Storage: the event log and the setup tables, behind one interface and two engines.

``Store`` (``pace.store.base``) is the interface the services use; ``open_store(target)``
opens a SQLite file (``pace.store.sqlite.SqliteStore``, the embedded default) or, for a
``postgresql://`` URL, a PostgreSQL database (``pace.store.pg.PostgresStore``). This package is
the only one in pace that imports ``sqlite_utils`` or ``psycopg`` or knows table names.

The store is written once (``pace.store.sql``: the queries, the append, the migrations) on
the contract (``base``) and the shared rows (``records``); each engine adds only what differs
(its connection, transactions, locks and durability). Neither of those imports an engine:
only this module, which opens a store, knows both.
"""

from __future__ import annotations

from pathlib import Path

from pace.store.base import (
    DEFAULT_SYNCHRONOUS,
    SYNCHRONOUS_LEVELS,
    Store,
    describe,
    is_database_url,
)
from pace.store.errors import (
    RoundExistsError,
    StorageError,
    UnknownCourseError,
    UnknownRoundError,
)
from pace.store.records import (
    UNSET,
    AccessCodeRecord,
    RoundRecord,
    RoundSummary,
    SessionRecord,
)
from pace.store.sqlite import SqliteStore


def open_store(target: str | Path, *, synchronous: str = DEFAULT_SYNCHRONOUS) -> Store:
    """Open the database ``target`` (a file path or a ``postgresql://`` URL), creating its
    schema if missing, and apply the pending migrations."""
    if is_database_url(target):
        # imported here: the embedded SQLite default needs neither psycopg nor a server
        try:
            from pace.store.pg import PostgresStore
        except ImportError as e:
            raise StorageError(
                f"a PostgreSQL database needs psycopg ({e.name} is missing): "
                "pip install 'pace[postgres]'"
            ) from None
        return PostgresStore.open(str(target), synchronous=synchronous)
    return SqliteStore.open(target, synchronous=synchronous)


__all__ = [
    "DEFAULT_SYNCHRONOUS",
    "SYNCHRONOUS_LEVELS",
    "UNSET",
    "AccessCodeRecord",
    "RoundExistsError",
    "RoundRecord",
    "RoundSummary",
    "SessionRecord",
    "SqliteStore",
    "StorageError",
    "Store",
    "UnknownCourseError",
    "UnknownRoundError",
    "describe",
    "is_database_url",
    "open_store",
]

"""Storage: the event log and the setup tables, behind one interface and two engines.

``Store`` (``pace.store.base``) is the interface the services use; ``Store.open(target)``
opens a SQLite file (``pace.store.repo.SqliteStore``, the embedded default) or, for a
``postgresql://`` URL, a PostgreSQL database (``pace.store.pg.PostgresStore``). This package is
the only one in pace that imports ``sqlite_utils`` or ``psycopg`` or knows table names.
"""

from pace.store.access import AccessCodeRecord, SessionRecord
from pace.store.base import Store, describe, is_database_url
from pace.store.db import DEFAULT_SYNCHRONOUS, SYNCHRONOUS_LEVELS
from pace.store.errors import (
    RoundExistsError,
    StorageError,
    UnknownCourseError,
    UnknownRoundError,
)
from pace.store.records import UNSET, RoundRecord, RoundSummary
from pace.store.repo import SqliteStore

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
]

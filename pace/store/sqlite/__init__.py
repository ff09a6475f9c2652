"""The SQLite engine of the store (sqlite-utils): one file, the embedded default.

The same modules as ``pace.store.pg`` where they play the same part, each holding only what
SQLite does its own way: ``db`` (the one shared connection, its transactions and durability),
``migrations`` (the shared steps, recorded by sqlite-utils), ``repo`` (``SqliteStore``). The
store itself is written once, in ``pace.store.sql``.
"""

from pace.store.sqlite.repo import SqliteStore

__all__ = ["SqliteStore"]

"""The SQLite engine of the store (sqlite-utils): one file, the embedded default.

The same modules as ``pace.store.pg`` where they play the same part: ``db`` (the connection
and its transactions), ``migrations`` (the schema), ``repo`` (the store), ``access`` (the
access tables).
"""

from pace.store.sqlite.repo import SqliteStore

__all__ = ["SqliteStore"]

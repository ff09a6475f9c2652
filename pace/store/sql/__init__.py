"""The store written once: the queries, the event log's append, the access and competition
tables and the schema's migrations, shared by both engines.

What differs between SQLite and PostgreSQL lives in a small :class:`Dialect` per engine
(``pace.store.sql.dialect.SQLITE`` and ``POSTGRESQL``, side by side) and in each engine's
database class (its connection or pool, its transactions and locks, its durability). The
SQL here is written once, with ``?`` placeholders: the PostgreSQL cursor turns them into
psycopg's (docs/storage.md, "One repository, two dialects").
"""

from pace.store.sql.dialect import Database, Dialect, Transaction

__all__ = ["Database", "Dialect", "Transaction"]

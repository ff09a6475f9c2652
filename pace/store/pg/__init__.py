"""The PostgreSQL engine of the store (psycopg 3 and its pool): several workers, one log.

Imported only when a ``postgresql://`` URL is opened, so the embedded SQLite default needs
neither psycopg nor a server.
"""

from pace.store.pg.repo import PostgresStore

__all__ = ["PostgresStore"]

"""A pool of PostgreSQL connections (psycopg 3), used one transaction at a time.

Each write borrows a connection for one explicit ``BEGIN … COMMIT``; a read of several
queries runs in one ``REPEATABLE READ READ ONLY`` transaction (one consistent snapshot), a
read of one query on its own. Connections are in autocommit mode, so the driver never opens
a transaction behind our back, and each is checked before it is handed out (a server restart
leaves only dead connections in the pool: they are replaced, not used).

psycopg 3 cooperates with gevent's monkey patching by itself (since 3.1.14): a query waits on
the hub, not on the whole process.
"""

from __future__ import annotations

import functools
import logging
import zlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool

from pace.store.base import describe, validate_synchronous
from pace.store.errors import StorageError
from pace.store.sql.dialect import POSTGRESQL, Lifecycle

#: what this engine's SQL differs in (pace.store.sql.dialect)
DIALECT = POSTGRESQL

log = logging.getLogger(__name__)

#: How long a write waits for a lock (another worker's append to the same round, a backup's
#: table lock) or for a free connection before it gives up with ``storage_unavailable``: the
#: SQLite store's busy timeout.
WAIT_SECONDS = 5.0

#: ``database.synchronous`` → PostgreSQL's ``synchronous_commit``: FULL and EXTRA wait for the
#: commit to be on disk (an ack survives a crash of the machine); NORMAL and OFF do not (the
#: last commits may be lost by a crash of the machine, never by one of pace)
SYNCHRONOUS_COMMIT = {"OFF": "off", "NORMAL": "off", "FULL": "on", "EXTRA": "on"}

#: the first key of pace's advisory locks (``'pace'`` in ASCII); the second names what is locked
LOCK_CLASS = 0x70616365
#: the second key of the lock around migrations, and of the one around the first account
MIGRATIONS_LOCK = 0
ACCOUNT_LOCK = 1
#: appends and setup writes of one round take ``(ROUND_LOCK_CLASS, crc32(round))``
ROUND_LOCK_CLASS = LOCK_CLASS + 1

#: SQLSTATE classes of the database's state rather than the query: connection (08), resources
#: (53: disk full, out of memory, too many connections), over a limit (54), a lock or a
#: statement that waited too long (55P03, 57014), the server shutting down (57P)
FAULT_STATES = ("08", "53", "54", "55P03", "57014", "57P")


def round_lock_key(round: str) -> int:
    """Return the second key of ``round``'s advisory lock (a signed 32-bit number)."""
    value = zlib.crc32(round.encode("utf-8"))
    return value - (1 << 32) if value >= 1 << 31 else value


class PgDatabase(Lifecycle):
    """A psycopg connection pool on one database, with pace's transaction shapes."""

    def __init__(
        self,
        url: str,
        *,
        synchronous: str = "FULL",
        min_size: int = 1,
        max_size: int = 8,
        wait_seconds: float = WAIT_SECONDS,
    ) -> None:
        self.url = url
        self.location = describe(url)
        self.synchronous = validate_synchronous(synchronous)
        self.wait_seconds = wait_seconds
        self._closed = False
        self.pool: psycopg_pool.ConnectionPool[psycopg.Connection[Any]] = (
            psycopg_pool.ConnectionPool(
                url,
                min_size=min_size,
                max_size=max_size,
                open=False,
                timeout=wait_seconds,
                kwargs={"autocommit": True, "application_name": "pace"},
                configure=self._configure,
                check=psycopg_pool.ConnectionPool.check_connection,
                name="pace",
                reconnect_timeout=60.0,
            )
        )

    def open(self) -> None:
        """Open the pool and wait for its first connection; ``StorageError`` if none comes."""
        try:
            self.pool.open(wait=True, timeout=self.wait_seconds)
        except (psycopg_pool.PoolTimeout, psycopg.Error) as exc:
            self.pool.close()
            self._closed = True
            raise StorageError(f"cannot open the database {self.location}: {exc}") from exc

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        timeout_ms = int(self.wait_seconds * 1000)
        level = SYNCHRONOUS_COMMIT[self.synchronous]
        conn.execute(f"SET synchronous_commit = {level}")
        conn.execute(f"SET lock_timeout = {timeout_ms}")
        conn.execute("SET TIME ZONE 'UTC'")

    def _close(self) -> None:
        self.pool.close()

    @contextmanager
    def write(
        self, *rounds: str, account: bool = False, implied: bool = False
    ) -> Iterator[PgTransaction]:
        """Run the block in one transaction, committed before the block's caller resumes.

        ``rounds`` are locked first (transaction-level advisory locks, in name order), so the
        appends of one round are serialised across every worker: an event's ``seq`` is drawn
        after the previous append of its round committed, and ``seq`` order is commit order.
        ``account``: the lock around making the first committee account. Any exception rolls
        the whole transaction back.

        ``implied``: the block stores only what the log implies (alerts raised and resolved,
        docs/storage.md "What waits for the disk"): committed with ``synchronous_commit = off``
        (``SET LOCAL``), visible to every worker at once, on disk with the next commit that
        waits (a crash of the database's machine before may lose it; the log implies it again).
        """
        with translate_errors():
            self._require_open()
            with self.pool.connection() as conn, conn.cursor() as cur:
                cur.execute("BEGIN")
                try:
                    if implied and SYNCHRONOUS_COMMIT[self.synchronous] == "on":
                        cur.execute("SET LOCAL synchronous_commit = off")
                    for name in sorted(set(rounds)):
                        cur.execute(
                            "SELECT pg_advisory_xact_lock(%s, %s)",
                            [ROUND_LOCK_CLASS, round_lock_key(name)],
                        )
                    if account:
                        cur.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                                    [LOCK_CLASS, ACCOUNT_LOCK])  # fmt: skip
                    yield PgTransaction(cur)
                except BaseException:
                    _rollback(conn)
                    raise
                try:
                    cur.execute("COMMIT")
                except BaseException:
                    _rollback(conn)
                    raise

    @contextmanager
    def read(self, *, snapshot: bool = True) -> Iterator[PgTransaction]:
        """Run the block's queries on one consistent snapshot (``snapshot=False``: one query,
        which is its own snapshot, without the transaction around it)."""
        with translate_errors():
            self._require_open()
            with self.pool.connection() as conn, conn.cursor() as cur:
                if not snapshot:
                    yield PgTransaction(cur)
                    return
                cur.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                try:
                    yield PgTransaction(cur)
                finally:
                    _rollback(conn)


@functools.lru_cache(maxsize=1024)
def placeholders(sql: str) -> str:
    """Return the shared SQL (``?`` placeholders) as psycopg takes it (``%s``, a literal ``%``
    doubled). The shared SQL holds no ``?`` but its placeholders."""
    return sql.replace("%", "%%").replace("?", "%s")


class PgTransaction:
    """A psycopg cursor in a transaction, taking the shared SQL's ``?`` placeholders."""

    __slots__ = ("cursor",)

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self.cursor = cursor

    def execute(self, sql: str, params: Sequence[object] = ()) -> psycopg.Cursor[Any]:
        if not params:  # psycopg reads no placeholder then: the text runs as it is
            return self.cursor.execute(sql)
        return self.cursor.execute(placeholders(sql), params)

    def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        self.cursor.executemany(placeholders(sql), rows)


def _rollback(conn: psycopg.Connection[Any]) -> None:
    # A broken connection has no transaction left to end; the pool throws it away.
    if conn.broken or conn.closed:
        return
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        try:
            conn.execute("ROLLBACK")
        except psycopg.Error:
            log.debug("rollback failed on a failing connection", exc_info=True)


@contextmanager
def translate_errors() -> Iterator[None]:
    """Turn any psycopg error escaping the block into a ``StorageError``.

    A fault of the database (``FAULT_STATES``: unreachable, full, locked too long, shutting
    down) or no free connection in time is logged as one warning line: it is the machine's
    state, not a bug. Anything else is logged with its traceback.
    """
    try:
        yield
    except psycopg_pool.PoolTimeout as exc:
        log.warning("the database cannot be written now (no connection): %s", exc)
        raise StorageError(f"the database refused the operation: {exc}") from exc
    except psycopg.Error as exc:
        state = exc.sqlstate or ""
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if isinstance(exc, psycopg.OperationalError) and (
            not state or state.startswith(FAULT_STATES)
        ):
            log.warning("the database cannot be written now (%s): %s", state or "connection", first)
        else:
            log.exception("database error")
        raise StorageError(f"the database refused the operation: {first}") from exc

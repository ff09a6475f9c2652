"""One SQLite connection shared by every thread, behind a lock.

Socket.IO handlers and scheduler jobs run in their own threads or greenlets. A
connection per event is slow (~1k/s) and a connection used from another thread
raises, so the store keeps one connection (``check_same_thread=False``) and takes a
re-entrant lock around every use of it (docs/storage.md, "One shared connection
behind a lock"). Write transactions
start with ``BEGIN IMMEDIATE`` so another process on the same file (a CLI import
while the server runs) waits for the write lock up to ``busy_timeout`` instead of
failing half-way through a read-then-write transaction.

A commit waits for the disk (``synchronous=FULL``: an fsync). ``offload`` names who runs it:
by default the calling thread; ``pace serve`` under gevent hands it to gevent's thread pool
once the disk proves slow (``Store.offload_commits`` with :class:`SlowDiskOffload`), so the hub
keeps serving every other connection while a slow commit waits, and the caller still resumes
only once the commit is done (acks after commit).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from pace.store.base import DEFAULT_SYNCHRONOUS, validate_synchronous
from pace.store.errors import StorageError
from pace.store.sql.dialect import SQLITE, Lifecycle

#: what this engine's SQL differs in (pace.store.sql.dialect)
DIALECT = SQLITE

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000

#: the oldest SQLite the shared SQL runs on: ``RETURNING`` (3.35, March 2021)
MIN_SQLITE = (3, 35, 0)


class SharedDatabase(Lifecycle):
    """A ``sqlite_utils.Database`` on one connection, used only under ``lock``."""

    def __init__(self, db: sqlite_utils.Database, path: Path) -> None:
        self.db = db
        self.path = path
        self.location = str(path)
        self.lock = threading.RLock()
        self._closed = False
        #: runs ``COMMIT`` (``offload(fn)`` returns ``fn()``'s result once it is done)
        self.offload: Callable[[Callable[[], object]], object] = _here
        #: the connection's ``PRAGMA synchronous`` level (``open_db``'s)
        self.synchronous = DEFAULT_SYNCHRONOUS

    @contextmanager
    def write(
        self, *rounds: str, account: bool = False, implied: bool = False
    ) -> Iterator[sqlite3.Connection]:
        """Run the block in one write transaction, committed before the block's caller resumes.

        ``BEGIN IMMEDIATE`` takes the file's write lock: no other writer, in this process or
        another, runs until the commit, so ``rounds`` and ``account`` need no lock of their own
        (PostgreSQL's do). Any exception rolls the whole transaction back. Nested use becomes a
        savepoint of the enclosing transaction.

        ``implied``: the block stores only what the log implies (alerts raised and resolved,
        docs/storage.md "What waits for the disk"): committed at ``synchronous=NORMAL``, in the
        file's journal (a crash of pace keeps it) without waiting for the disk, which holds it
        at the next commit that waits (a crash of the machine before may lose it; the log
        implies it again).
        """
        with self.lock, translate_errors():
            self._require_open()
            conn = self.db.conn
            if conn.in_transaction:
                with self.db.atomic():
                    yield conn
                return
            relax = implied and self.synchronous in ("FULL", "EXTRA")
            if relax:
                conn.execute("PRAGMA synchronous=NORMAL")
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                except BaseException:
                    _rollback(conn)
                    raise
                try:
                    if relax:
                        conn.execute("COMMIT")  # no fsync: nothing for the pool to wait on
                    else:
                        self.offload(lambda: conn.execute("COMMIT"))
                except BaseException:
                    _rollback(conn)
                    raise
            finally:
                if relax:
                    conn.execute(f"PRAGMA synchronous={self.synchronous}")

    @contextmanager
    def read(self, *, snapshot: bool = True) -> Iterator[sqlite3.Connection]:
        """Run the block's queries on one consistent snapshot of the file (``snapshot=False``:
        one query, which is its own snapshot, without the transaction around it: two
        statements fewer on every command's path, as the PostgreSQL store does)."""
        with self.lock, translate_errors():
            self._require_open()
            conn = self.db.conn
            if conn.in_transaction or not snapshot:
                yield conn
                return
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                _rollback(conn)

    def pragma(self, name: str) -> object:
        """Return the value of ``PRAGMA name`` on the shared connection."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        with self.lock, translate_errors():
            self._require_open()
            row = self.db.conn.execute(f"PRAGMA {name}").fetchone()
            return None if row is None else row[0]

    def close(self) -> None:
        with self.lock:  # not while another thread uses the connection
            super().close()

    def _close(self) -> None:
        self.db.close()


def _here(fn: Callable[[], object]) -> object:
    return fn()


class SlowDiskOffload:
    """Run each commit here while the disk answers fast; through ``pool`` for a while once one
    commit was slow (docs/storage.md, "Where a commit runs").

    Handing a commit to gevent's thread pool lets the hub serve every other connection while an
    fsync waits, but the hand-over and the way back cost the committing greenlet more than a
    fast disk's whole fsync (a fraction of a millisecond), and the greenlet resumes only when
    the hub comes back to it. So a commit runs on the hub while the last ``window`` commits
    each took at most ``slow`` seconds, and in ``pool`` for the next ``window`` commits after
    one took longer: a slow disk (an SD card, a busy laptop) blocks the hub once, not at every
    tap. Each commit is timed where it runs (``clock``), so the disk's own time decides, not
    the hand-over's.
    """

    def __init__(
        self,
        pool: Callable[[Callable[[], object]], object],
        *,
        slow: float = 0.004,
        window: int = 32,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.pool = pool
        self.slow = slow
        self.window = window
        self.clock = clock
        #: how many more commits go to the pool (0: they run here)
        self.pooled = 0

    def __call__(self, fn: Callable[[], object]) -> object:
        took: list[float] = []

        def timed() -> object:
            started = self.clock()
            try:
                return fn()
            finally:
                took.append(self.clock() - started)

        try:
            return self.pool(timed) if self.pooled else timed()
        finally:
            if took and took[0] > self.slow:
                self.pooled = self.window
            elif self.pooled:
                self.pooled -= 1


def _rollback(conn: sqlite3.Connection) -> None:
    # An error such as SQLITE_FULL may already have ended the transaction.
    if conn.in_transaction:
        conn.execute("ROLLBACK")


#: SQLite's answers when the file, not the query, is at fault: the disk is full, another
#: process (a backup) holds the lock, the file or its folder cannot be written
FAULTS = ("SQLITE_FULL", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_READONLY", "SQLITE_IOERR",
          "SQLITE_CANTOPEN", "SQLITE_PERM")  # fmt: skip


@contextmanager
def translate_errors() -> Iterator[None]:
    """Turn any ``sqlite3.Error`` escaping the block into a ``StorageError``.

    A fault of the file (``FAULTS``: full, locked, read-only) is logged as one warning line:
    it is the machine's state, not a bug, and clears by itself or by an operator. Anything
    else is logged with its traceback.
    """
    try:
        yield
    except sqlite3.Error as exc:
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith(FAULTS):
            log.warning("the database cannot be written now (%s): %s", name, exc)
        else:
            log.exception("database error")
        raise StorageError(f"the database refused the operation: {exc}") from exc


def open_db(path: str | Path, *, synchronous: str = DEFAULT_SYNCHRONOUS) -> SharedDatabase:
    """Open (creating it and its folder if missing) the SQLite file at ``path``.

    The connection runs in WAL mode with ``synchronous`` durability, foreign keys on
    and a busy timeout. Migrations are not applied here (see ``migrations.apply``).
    """
    level = validate_synchronous(synchronous)
    file = Path(path)
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StorageError(
            f"pace needs SQLite {'.'.join(map(str, MIN_SQLITE))} or later; this Python has"
            f" {sqlite3.sqlite_version}"
        )
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the driver never opens a transaction behind our back;
        # every transaction is an explicit BEGIN ... COMMIT in write() or read().
        conn = sqlite3.connect(file, check_same_thread=False, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise StorageError(f"cannot open the database {str(file)!r}: {exc}") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys=ON")
        db = sqlite_utils.Database(conn, execute_plugins=False)
        db.enable_wal()
        conn.execute(f"PRAGMA synchronous={level}")
    except sqlite3.Error as exc:
        conn.close()
        raise StorageError(f"cannot open the database {str(file)!r}: {exc}") from exc
    except BaseException:
        conn.close()
        raise
    shared = SharedDatabase(db, file)
    shared.synchronous = level
    return shared

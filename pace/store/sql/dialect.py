"""What an engine tells the shared store: its dialect, and the shape of its transactions."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from pace.store.errors import StorageError


class Transaction(Protocol):
    """One transaction on one connection: statements written with ``?`` placeholders."""

    def execute(self, sql: str, params: Sequence[object] = ..., /) -> Any:
        """Run one statement; return a cursor (``fetchone``, ``fetchall``, iteration)."""

    def executemany(self, sql: str, rows: Iterable[Sequence[object]], /) -> Any:
        """Run one statement once per row."""


class Lifecycle(ABC):
    """What an engine's database shares whatever the engine: once closed, it refuses work."""

    location: str
    _closed: bool = False

    @property
    def closed(self) -> bool:
        """Return whether ``close()`` was called."""
        return self._closed

    def close(self) -> None:
        """Close the connections; later use raises ``StorageError``. Twice is a no-op."""
        if self._closed:
            return
        self._closed = True
        self._close()

    @abstractmethod
    def _close(self) -> None:
        """Close the engine's connection or pool (once): each engine's database says how."""

    def _require_open(self) -> None:
        if self._closed:
            raise StorageError(f"the store {self.location!r} is closed")


class Database(Protocol):
    """An engine's connection (SQLite's one shared connection, PostgreSQL's pool)."""

    location: str

    @property
    def closed(self) -> bool: ...

    def close(self) -> None: ...

    def write(
        self, *rounds: str, account: bool = False, implied: bool = False
    ) -> AbstractContextManager[Transaction]:
        """One write transaction, committed before the block's caller resumes; ``rounds`` (and
        with ``account`` the first committee account) are locked first where several writers
        share the database (PostgreSQL's advisory locks; SQLite has one writer at a time).
        ``implied``: what the log implies, committed without waiting for the disk."""
        ...

    def read(self, *, snapshot: bool = True) -> AbstractContextManager[Transaction]:
        """Queries on one consistent snapshot (``snapshot=False``: one query, on its own)."""
        ...


@dataclass(frozen=True)
class Dialect:
    """What differs between the engines in the SQL that is otherwise written once."""

    #: ``"sqlite"`` or ``"postgresql"`` (``Store.engine``)
    name: str
    #: after ``ORDER BY`` a text column: order by bytes, as SQLite does by default
    #: (PostgreSQL's ``COLLATE "C"``; its default collation follows the locale)
    binary: str
    #: after a ``SELECT`` whose rows the transaction will change (PostgreSQL's ``FOR UPDATE``;
    #: SQLite's write transaction holds the whole file already)
    for_update: str
    #: whether an exception of the driver is a foreign key's refusal
    is_foreign_key_violation: Callable[[BaseException], bool]

    # -- the schema (pace.store.sql.schema) --------------------------------------------------

    #: a floating-point column (SQLite's ``REAL`` is 8 bytes; PostgreSQL's is 4)
    real: str
    #: whether the text column ``{col}`` holds JSON (a CHECK's condition)
    is_json: str
    #: the CHECK that ``day`` is an ISO date
    day_check: str
    #: the key of the event log: one global sequence, numbered in insert order
    event_seq: str
    #: the key of ``access_codes``, and a column referring to it
    code_key: str
    code_ref: str
    #: ``CONSTRAINT name `` before a CHECK a later migration changes in place (PostgreSQL);
    #: SQLite rebuilds the table instead and leaves the CHECK unnamed
    named_checks: bool

    def json(self, column: str) -> str:
        """Return the CHECK that ``column`` holds JSON text."""
        return f"CHECK ({self.json_valid(column)})"

    def json_valid(self, column: str) -> str:
        """Return the condition that ``column`` holds JSON text."""
        return self.is_json.format(col=column)

    def constraint(self, name: str) -> str:
        """Return ``CONSTRAINT name `` where the engine names its CHECKs, else nothing."""
        return f"CONSTRAINT {name} " if self.named_checks else ""


# -- the two engines, side by side ------------------------------------------------------------


def _sqlite_foreign_key(exc: BaseException) -> bool:
    return getattr(exc, "sqlite_errorname", "") == "SQLITE_CONSTRAINT_FOREIGNKEY"


def _postgresql_foreign_key(exc: BaseException) -> bool:
    return getattr(exc, "sqlstate", "") == "23503"  # foreign_key_violation


SQLITE = Dialect(
    name="sqlite",
    binary="",
    for_update="",
    is_foreign_key_violation=_sqlite_foreign_key,
    real="REAL",
    is_json="json_valid({col})",
    day_check="CHECK (day LIKE '____-__-__')",
    event_seq="INTEGER PRIMARY KEY AUTOINCREMENT",
    code_key="INTEGER PRIMARY KEY AUTOINCREMENT",
    code_ref="INTEGER",
    named_checks=False,
)

POSTGRESQL = Dialect(
    name="postgresql",
    binary=' COLLATE "C"',
    for_update=" FOR UPDATE",
    is_foreign_key_violation=_postgresql_foreign_key,
    real="DOUBLE PRECISION",
    is_json="({col})::jsonb IS NOT NULL",
    day_check="CHECK (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')",
    event_seq="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    code_key="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    code_ref="BIGINT",
    named_checks=True,
)

"""What an engine tells the shared store: its dialect, and the shape of its transactions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol


class Transaction(Protocol):
    """One transaction on one connection: statements written with ``?`` placeholders."""

    def execute(self, sql: str, params: Sequence[object] = ..., /) -> Any:
        """Run one statement; return a cursor (``fetchone``, ``fetchall``, iteration)."""

    def executemany(self, sql: str, rows: Iterable[Sequence[object]], /) -> Any:
        """Run one statement once per row."""


class Database(Protocol):
    """An engine's connection (SQLite's one shared connection, PostgreSQL's pool)."""

    location: str

    @property
    def closed(self) -> bool: ...

    def close(self) -> None: ...

    def write(self, *rounds: str, account: bool = False) -> AbstractContextManager[Transaction]:
        """One write transaction, committed before the block's caller resumes; ``rounds`` (and
        with ``account`` the first committee account) are locked first where several writers
        share the database (PostgreSQL's advisory locks; SQLite has one writer at a time)."""
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

"""The access tables: the app's secrets, hashed access codes and sessions (docs/access.md).

A mixin of :class:`pace.store.sql.repo.SqlStore`, on either engine. Where a read-then-write
must hold against a second writer, an upsert or the database's ``account`` lock does it (on
SQLite the write transaction holds the file; on PostgreSQL an advisory lock): two workers
starting together make one committee account and keep one cookie key. Codes and session
tokens are stored only as hashes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pace.store.errors import UnknownRoundError
from pace.store.instants import from_iso, iso
from pace.store.records import (
    CODE_COLUMNS,
    PROBE,
    SESSION_COLUMNS,
    AccessCodeRecord,
    SessionRecord,
    code_from_row,
)
from pace.store.sql.dialect import Database


class AccessTables:
    """The store's access codes, sessions and secrets (``SqlStore`` inherits them)."""

    _db: Database

    def secret(self, name: str, make: Callable[[], object] | None = None) -> str | None:
        with self._db.write() as tx:
            row = tx.execute("SELECT value FROM app_secrets WHERE name = ?", [name]).fetchone()
            if row is not None or make is None:
                return None if row is None else str(row[0])
            tx.execute(
                "INSERT INTO app_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                [name, str(make())],
            )
            row = tx.execute("SELECT value FROM app_secrets WHERE name = ?", [name]).fetchone()
            return None if row is None else str(row[0])

    def probe_write(self, at: str) -> None:
        with self._db.write() as tx:
            tx.execute(
                "INSERT INTO app_secrets (name, value) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                [PROBE, at],
            )

    def add_access_code(
        self,
        *,
        round: str | None,
        role: str,
        prefix: str,
        hash: str,
        label: str | None,
        created_at: datetime,
        only_if_no_account: bool = False,
    ) -> int | None:
        with self._db.write(account=only_if_no_account) as tx:
            if (
                round is not None
                and tx.execute("SELECT 1 FROM rounds WHERE name = ?", [round]).fetchone() is None
            ):
                raise UnknownRoundError(f"round {round!r} does not exist", field="round")
            if only_if_no_account:
                row = tx.execute(
                    "SELECT count(*) FROM access_codes WHERE round IS NULL AND revoked_at IS NULL"
                ).fetchone()
                if row and row[0]:
                    return None
            made = tx.execute(
                "INSERT INTO access_codes (round, role, prefix, hash, label, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                [round, role, prefix, hash, label, iso(created_at, "created_at")],
            ).fetchall()
            return int(made[0][0]) if made else None

    def access_codes(
        self, *, prefix: str | None = None, round: str | None = None
    ) -> list[AccessCodeRecord]:
        sql = f"SELECT {CODE_COLUMNS} FROM access_codes WHERE 1 = 1"
        params: list[object] = []
        if prefix is not None:
            sql += " AND prefix = ?"
            params.append(prefix)
        if round is not None:
            sql += " AND round = ?"
            params.append(round)
        with self._db.read(snapshot=False) as tx:
            return [code_from_row(r) for r in tx.execute(sql + " ORDER BY id", params)]

    def add_session(self, record: SessionRecord) -> None:
        with self._db.write() as tx:
            tx.execute(
                f"INSERT INTO sessions ({SESSION_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                [
                    record.token_hash,
                    record.role,
                    record.round,
                    record.code,
                    record.name,
                    iso(record.created_at, "created_at"),
                    iso(record.expires_at, "expires_at"),
                    record.club,
                    record.account,
                ],
            )

    def session(self, token_hash: str) -> SessionRecord | None:
        with self._db.read(snapshot=False) as tx:
            row = tx.execute(
                f"SELECT {SESSION_COLUMNS} FROM sessions WHERE token_hash = ?", [token_hash]
            ).fetchone()
        if row is None:
            return None
        t, role, round, code, name, created, expires, revoked, club, account = row
        return SessionRecord(
            t, role, round, None if code is None else int(code), name, from_iso(created),
            from_iso(expires), from_iso(revoked) if revoked else None, club,
            None if account is None else int(account),
        )  # fmt: skip

    def revoke_account_sessions(self, account: int, *, at: datetime) -> set[str]:
        """End every open session of ``account`` (a role taken away); return their hashes."""
        with self._db.write() as tx:
            rows = tx.execute(
                "UPDATE sessions SET revoked_at = ? WHERE account = ? AND revoked_at IS NULL"
                " RETURNING token_hash",
                [iso(at, "revoked_at"), account],
            ).fetchall()
        return {str(r[0]) for r in rows}

    def revoke_session(self, token_hash: str, *, at: datetime) -> None:
        with self._db.write() as tx:
            tx.execute(
                "UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                [iso(at, "revoked_at"), token_hash],
            )

    def revoke_code(self, code_id: int, *, at: datetime) -> set[str]:
        when = iso(at, "revoked_at")
        with self._db.write() as tx:
            tx.execute(
                "UPDATE access_codes SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                [when, code_id],
            )
            rows = tx.execute(
                "UPDATE sessions SET revoked_at = ? WHERE code = ? AND revoked_at IS NULL"
                " RETURNING token_hash",
                [when, code_id],
            ).fetchall()
        return {str(r[0]) for r in rows}

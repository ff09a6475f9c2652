"""The access tables on PostgreSQL: secrets, hashed access codes and sessions (docs/access.md).

A mixin of :class:`pace.store.pg.repo.PostgresStore`, with the same rows as the SQLite
tables (``pace.store.sqlite.access``). Where SQLite's single writer makes a read-then-write safe,
an upsert or an advisory lock does here: two workers starting together make one committee
account and keep one cookie key.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pace.store.errors import UnknownRoundError
from pace.store.instants import from_iso, iso
from pace.store.pg.db import ACCOUNT_LOCK, LOCK_CLASS, PgDatabase
from pace.store.records import (
    CODE_COLUMNS,
    PROBE,
    SESSION_COLUMNS,
    AccessCodeRecord,
    SessionRecord,
    code_from_row,
)


class PgAccessTables:
    """The store's access codes, sessions and secrets (``PostgresStore`` inherits them)."""

    _pg: PgDatabase

    def secret(self, name: str, make: Callable[[], object] | None = None) -> str | None:
        with self._pg.write() as cur:
            row = cur.execute("SELECT value FROM app_secrets WHERE name = %s", [name]).fetchone()
            if row is not None or make is None:
                return None if row is None else str(row[0])
            cur.execute(
                "INSERT INTO app_secrets (name, value) VALUES (%s, %s)"
                " ON CONFLICT (name) DO NOTHING",
                [name, str(make())],
            )
            row = cur.execute("SELECT value FROM app_secrets WHERE name = %s", [name]).fetchone()
            return None if row is None else str(row[0])

    def probe_write(self, at: str) -> None:
        with self._pg.write() as cur:
            cur.execute(
                "INSERT INTO app_secrets (name, value) VALUES (%s, %s)"
                " ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
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
        with self._pg.write() as cur:
            if (
                round is not None
                and cur.execute("SELECT 1 FROM rounds WHERE name = %s", [round]).fetchone() is None
            ):
                raise UnknownRoundError(f"round {round!r} does not exist", field="round")
            if only_if_no_account:
                cur.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, ACCOUNT_LOCK])
                row = cur.execute(
                    "SELECT count(*) FROM access_codes WHERE round IS NULL AND revoked_at IS NULL"
                ).fetchone()
                if row and row[0]:
                    return None
            made = cur.execute(
                "INSERT INTO access_codes (round, role, prefix, hash, label, created_at)"
                " VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
                [round, role, prefix, hash, label, iso(created_at, "created_at")],
            ).fetchone()
            return int(made[0]) if made else None

    def access_codes(
        self, *, prefix: str | None = None, round: str | None = None
    ) -> list[AccessCodeRecord]:
        sql = f"SELECT {CODE_COLUMNS} FROM access_codes WHERE TRUE"
        params: list[object] = []
        if prefix is not None:
            sql += " AND prefix = %s"
            params.append(prefix)
        if round is not None:
            sql += " AND round = %s"
            params.append(round)
        with self._pg.read(snapshot=False) as cur:
            return [code_from_row(r) for r in cur.execute(sql + " ORDER BY id", params)]

    def add_session(self, record: SessionRecord) -> None:
        with self._pg.write() as cur:
            cur.execute(
                f"INSERT INTO sessions ({SESSION_COLUMNS})"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, NULL)",
                [
                    record.token_hash,
                    record.role,
                    record.round,
                    record.code,
                    record.name,
                    iso(record.created_at, "created_at"),
                    iso(record.expires_at, "expires_at"),
                ],
            )

    def session(self, token_hash: str) -> SessionRecord | None:
        with self._pg.read(snapshot=False) as cur:
            row = cur.execute(
                f"SELECT {SESSION_COLUMNS} FROM sessions WHERE token_hash = %s", [token_hash]
            ).fetchone()
        if row is None:
            return None
        t, role, round, code, name, created, expires, revoked = row
        return SessionRecord(
            t, role, round, None if code is None else int(code), name, from_iso(created),
            from_iso(expires), from_iso(revoked) if revoked else None,
        )  # fmt: skip

    def revoke_session(self, token_hash: str, *, at: datetime) -> None:
        with self._pg.write() as cur:
            cur.execute(
                "UPDATE sessions SET revoked_at = %s WHERE token_hash = %s AND revoked_at IS NULL",
                [iso(at, "revoked_at"), token_hash],
            )

    def revoke_code(self, code_id: int, *, at: datetime) -> set[str]:
        when = iso(at, "revoked_at")
        with self._pg.write() as cur:
            cur.execute(
                "UPDATE access_codes SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                [when, code_id],
            )
            rows = cur.execute(
                "UPDATE sessions SET revoked_at = %s WHERE code = %s AND revoked_at IS NULL"
                " RETURNING token_hash",
                [when, code_id],
            ).fetchall()
        return {str(r[0]) for r in rows}

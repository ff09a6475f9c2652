"""The access tables: the app's secrets, hashed access codes and sessions (docs/access.md).

A mixin of :class:`pace.store.sqlite.repo.SqliteStore`: the same shared connection, its lock,
and one committed transaction per write. Codes and session tokens are stored only as hashes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pace.store.errors import UnknownRoundError
from pace.store.instants import from_iso as _from_iso
from pace.store.instants import iso as _iso
from pace.store.records import (
    CODE_COLUMNS,
    PROBE,
    SESSION_COLUMNS,
    AccessCodeRecord,
    SessionRecord,
    code_from_row,
)
from pace.store.sqlite import db as dbmod


class AccessTables:
    """The store's access codes, sessions and secrets (``Store`` inherits them)."""

    _db: dbmod.SharedDatabase

    # -- access (docs/access.md) ----------------------------------------------------------

    def secret(self, name: str, make: Any = None) -> str | None:
        with self._db.write() as db:
            row = db.execute("SELECT value FROM app_secrets WHERE name = ?", [name]).fetchone()
            if row is not None or make is None:
                return None if row is None else str(row[0])
            value = str(make())
            db.execute("INSERT INTO app_secrets (name, value) VALUES (?, ?)", [name, value])
            return value

    def probe_write(self, at: str) -> None:
        with self._db.write() as db:
            db.execute("INSERT OR REPLACE INTO app_secrets (name, value) VALUES (?, ?)",
                       [PROBE, at])  # fmt: skip

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
        with self._db.write() as db:
            if (
                round is not None
                and not db.execute("SELECT 1 FROM rounds WHERE name = ?", [round]).fetchone()
            ):
                raise UnknownRoundError(f"round {round!r} does not exist", field="round")
            if only_if_no_account:
                row = db.execute(
                    "SELECT count(*) FROM access_codes WHERE round IS NULL AND revoked_at IS NULL"
                ).fetchone()
                if row[0]:
                    return None
            cursor = db.execute(
                "INSERT INTO access_codes (round, role, prefix, hash, label, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [round, role, prefix, hash, label, _iso(created_at, "created_at")],
            )
            return int(cursor.lastrowid or 0)

    def access_codes(
        self, *, prefix: str | None = None, round: str | None = None
    ) -> list[AccessCodeRecord]:
        sql = f"SELECT {CODE_COLUMNS} FROM access_codes WHERE 1"
        params: list[object] = []
        if prefix is not None:
            sql += " AND prefix = ?"
            params.append(prefix)
        if round is not None:
            sql += " AND round = ?"
            params.append(round)
        with self._db.read(snapshot=False) as db:
            return [code_from_row(r) for r in db.execute(sql + " ORDER BY id", params)]

    def add_session(self, record: SessionRecord) -> None:
        with self._db.write() as db:
            db.execute(
                f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                [
                    record.token_hash,
                    record.role,
                    record.round,
                    record.code,
                    record.name,
                    _iso(record.created_at, "created_at"),
                    _iso(record.expires_at, "expires_at"),
                ],
            )

    def session(self, token_hash: str) -> SessionRecord | None:
        with self._db.read(snapshot=False) as db:
            row = db.execute(
                f"SELECT {SESSION_COLUMNS} FROM sessions WHERE token_hash = ?", [token_hash]
            ).fetchone()
        if row is None:
            return None
        t, role, round, code, name, created, expires, revoked = row
        return SessionRecord(
            t, role, round, code, name, _from_iso(created), _from_iso(expires),
            _from_iso(revoked) if revoked else None,
        )  # fmt: skip

    def revoke_session(self, token_hash: str, *, at: datetime) -> None:
        with self._db.write() as db:
            db.execute(
                "UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                [_iso(at, "revoked_at"), token_hash],
            )

    def revoke_code(self, code_id: int, *, at: datetime) -> set[str]:
        when = _iso(at, "revoked_at")
        with self._db.write() as db:
            db.execute(
                "UPDATE access_codes SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                [when, code_id],
            )
            rows = db.execute(
                "SELECT token_hash FROM sessions WHERE code = ? AND revoked_at IS NULL", [code_id]
            ).fetchall()
            db.execute(
                "UPDATE sessions SET revoked_at = ? WHERE code = ? AND revoked_at IS NULL",
                [when, code_id],
            )
        return {str(r[0]) for r in rows}

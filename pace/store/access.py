"""The access tables: the app's secrets, hashed access codes and sessions (docs/access.md).

A mixin of :class:`pace.store.repo.Store`: the same shared connection, its lock, and one
committed transaction per write. Codes and session tokens are stored only as hashes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pace.store import db as dbmod
from pace.store.errors import UnknownRoundError
from pace.store.instants import from_iso as _from_iso
from pace.store.instants import iso as _iso


@dataclass(frozen=True)
class AccessCodeRecord:
    """A stored access code: its role, its round (``None``: every round) and its hash."""

    id: int
    round: str | None
    role: str
    prefix: str
    hash: str
    label: str | None
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True)
class SessionRecord:
    """A stored session: who it is (role, round, name) and until when it holds."""

    token_hash: str
    role: str
    round: str | None
    code: int | None
    name: str | None
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None


_CODE_COLUMNS = "id, round, role, prefix, hash, label, created_at, revoked_at"
_SESSION_COLUMNS = "token_hash, role, round, code, name, created_at, expires_at, revoked_at"


class AccessTables:
    """The store's access codes, sessions and secrets (``Store`` inherits them)."""

    _db: dbmod.SharedDatabase

    # -- access (docs/access.md) ----------------------------------------------------------

    def secret(self, name: str, make: Any = None) -> str | None:
        """Return the app secret ``name``; if missing and ``make`` is given, store ``make()``.

        Two processes racing to make it keep the first one written.
        """
        with self._db.write() as db:
            row = db.execute("SELECT value FROM app_secrets WHERE name = ?", [name]).fetchone()
            if row is not None or make is None:
                return None if row is None else str(row[0])
            value = str(make())
            db.execute("INSERT INTO app_secrets (name, value) VALUES (?, ?)", [name, value])
            return value

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
        """Store a hashed access code; return its id.

        With ``only_if_no_account`` nothing is stored (``None``) when a code opening every
        round already exists: the first committee account is made once.
        """
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
        """Return the access codes with that prefix, or of that round, oldest first."""
        sql = f"SELECT {_CODE_COLUMNS} FROM access_codes WHERE 1"
        params: list[object] = []
        if prefix is not None:
            sql += " AND prefix = ?"
            params.append(prefix)
        if round is not None:
            sql += " AND round = ?"
            params.append(round)
        with self._db.read(snapshot=False) as db:
            return [_code_from_row(r) for r in db.execute(sql + " ORDER BY id", params)]

    def add_session(self, record: SessionRecord) -> None:
        """Store a session (its token only as a hash)."""
        with self._db.write() as db:
            db.execute(
                f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
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
        """Return the session whose token hashes to ``token_hash``, or ``None``."""
        with self._db.read(snapshot=False) as db:
            row = db.execute(
                f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE token_hash = ?", [token_hash]
            ).fetchone()
        if row is None:
            return None
        t, role, round, code, name, created, expires, revoked = row
        return SessionRecord(
            t, role, round, code, name, _from_iso(created), _from_iso(expires),
            _from_iso(revoked) if revoked else None,
        )  # fmt: skip

    def revoke_session(self, token_hash: str, *, at: datetime) -> None:
        """End a session now (logging out)."""
        with self._db.write() as db:
            db.execute(
                "UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                [_iso(at, "revoked_at"), token_hash],
            )

    def revoke_code(self, code_id: int, *, at: datetime) -> set[str]:
        """Revoke an access code and end every session it opened; return those sessions' hashes."""
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


def _code_from_row(row: Sequence[Any]) -> AccessCodeRecord:
    id, round, role, prefix, hash, label, created, revoked = row
    return AccessCodeRecord(
        int(id), round, role, prefix, hash, label, _from_iso(created),
        _from_iso(revoked) if revoked else None,
    )  # fmt: skip

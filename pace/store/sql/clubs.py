"""The clubs of an instance, people's accounts, their roles per club and the access log
(issue 50; docs/federation.md).

A mixin of :class:`pace.store.sql.repo.SqlStore`, on either engine. A club's id is a slug
(``rgc-antwerp``), checked by the service before it gets here; a password is stored only as
the hash the service made (argon2id). The access log is appended to, never changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pace.store.errors import (
    AccountExistsError,
    ClubExistsError,
    UnknownAccountError,
    UnknownClubError,
)
from pace.store.instants import from_iso, iso
from pace.store.records import CLUB_ROLES, AccessLogEntry, AccountRecord, ClubRecord
from pace.store.sql.dialect import Database, Dialect, Transaction

_ACCOUNT_COLUMNS = "id, email, name, password, admin, created_at, disabled_at"
_LOG_COLUMNS = "id, at, club, account, who, kind, detail, remote"


def _club(row: Sequence[Any]) -> ClubRecord:
    return ClubRecord(str(row[0]), str(row[1]), from_iso(row[2]))


def _account(row: Sequence[Any]) -> AccountRecord:
    id, email, name, password, admin, created, disabled = row
    return AccountRecord(int(id), email, name, password, bool(admin), from_iso(created),
                         from_iso(disabled) if disabled else None)  # fmt: skip


def _entry(row: Sequence[Any]) -> AccessLogEntry:
    id, at, club, account, who, kind, detail, remote = row
    return AccessLogEntry(int(id), from_iso(at), club, None if account is None else int(account),
                          who, kind, detail, remote)  # fmt: skip


def _require_club(tx: Transaction, club: str) -> None:
    if tx.execute("SELECT 1 FROM clubs WHERE id = ?", [club]).fetchone() is None:
        raise UnknownClubError(f"no club {club[:40]!r} on this instance", field="club")


class ClubTables:
    """Clubs, accounts, memberships and the access log (``SqlStore`` inherits them)."""

    _db: Database
    dialect: Dialect

    # -- clubs ------------------------------------------------------------------------------

    def clubs(self) -> list[ClubRecord]:
        """Every club of the instance, by id."""
        with self._db.read(snapshot=False) as tx:
            rows = tx.execute(
                f"SELECT id, name, created_at FROM clubs ORDER BY id{self.dialect.binary}"
            ).fetchall()
        return [_club(r) for r in rows]

    def club(self, id: str) -> ClubRecord | None:
        """The club ``id``, or ``None``."""
        with self._db.read(snapshot=False) as tx:
            row = tx.execute("SELECT id, name, created_at FROM clubs WHERE id = ?", [id]).fetchone()
        return None if row is None else _club(row)

    def add_club(self, id: str, name: str, *, created_at: datetime) -> ClubRecord:
        """Store a new club; ``ClubExistsError`` if the id is taken."""
        with self._db.write() as tx:
            made = tx.execute(
                "INSERT INTO clubs (id, name, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (id) DO NOTHING RETURNING id",
                [id, name, iso(created_at, "created_at")],
            ).fetchall()
            if not made:
                raise ClubExistsError(f"a club {id!r} already exists", field="id")
        return ClubRecord(id, name, created_at)

    def rename_club(self, id: str, name: str) -> ClubRecord:
        """Give club ``id`` a new name; ``UnknownClubError`` if none."""
        with self._db.write() as tx:
            _require_club(tx, id)
            tx.execute("UPDATE clubs SET name = ? WHERE id = ?", [name, id])
            row = tx.execute("SELECT id, name, created_at FROM clubs WHERE id = ?", [id]).fetchone()
        return _club(row)

    def round_club(self, round: str) -> str | None:
        """The club of ``round``, or ``None`` if it is not stored."""
        with self._db.read(snapshot=False) as tx:
            row = tx.execute("SELECT club FROM rounds WHERE name = ?", [round]).fetchone()
        return None if row is None else str(row[0])

    def course_club(self, course: str) -> str | None:
        """The club of ``course``, or ``None`` if it is not stored."""
        with self._db.read(snapshot=False) as tx:
            row = tx.execute("SELECT club FROM courses WHERE name = ?", [course]).fetchone()
        return None if row is None else str(row[0])

    # -- accounts ---------------------------------------------------------------------------

    def add_account(
        self, *, email: str, name: str, password: str | None, admin: bool, created_at: datetime
    ) -> AccountRecord:
        """Store a person's account; ``AccountExistsError`` if the e-mail is taken."""
        with self._db.write() as tx:
            made = tx.execute(
                "INSERT INTO accounts (email, name, password, admin, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id",
                [email, name, password, int(admin), iso(created_at, "created_at")],
            ).fetchall()
            if not made:
                raise AccountExistsError(f"an account for {email!r} already exists",
                                         field="email")  # fmt: skip
            row = tx.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE id = ?", [made[0][0]]
            ).fetchone()
        return _account(row)

    def account(self, id: int) -> AccountRecord | None:
        with self._db.read(snapshot=False) as tx:
            row = tx.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE id = ?", [id]
            ).fetchone()
        return None if row is None else _account(row)

    def account_by_email(self, email: str) -> AccountRecord | None:
        with self._db.read(snapshot=False) as tx:
            row = tx.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE email = ?", [email]
            ).fetchone()
        return None if row is None else _account(row)

    def set_password(self, account: int, password: str) -> None:
        """Store a new password hash for ``account``; ``UnknownAccountError`` if none."""
        with self._db.write() as tx:
            done = tx.execute(
                "UPDATE accounts SET password = ? WHERE id = ? RETURNING id", [password, account]
            ).fetchall()
            if not done:
                raise UnknownAccountError(f"no account #{account}", field="account")

    def set_setup(self, account: int, digest: str | None, expires: datetime | None) -> None:
        """Store (or clear, ``None``) the hash of ``account``'s one-time setup link."""
        with self._db.write() as tx:
            done = tx.execute(
                "UPDATE accounts SET setup_hash = ?, setup_expires = ? WHERE id = ? RETURNING id",
                [digest, None if expires is None else iso(expires, "setup_expires"), account],
            ).fetchall()
            if not done:
                raise UnknownAccountError(f"no account #{account}", field="account")

    def setup_account(self, digest: str, *, now: datetime) -> AccountRecord | None:
        """Return the account of the one-time setup link whose token hashes to ``digest``,
        or ``None`` (unknown, used or expired)."""
        with self._db.read(snapshot=False) as tx:
            row = tx.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE setup_hash = ?"
                " AND setup_expires > ? AND disabled_at IS NULL",
                [digest, iso(now, "now")],
            ).fetchone()
        return None if row is None else _account(row)

    def take_setup(self, digest: str, password: str, *, now: datetime) -> AccountRecord | None:
        """Use the one-time setup link whose token hashes to ``digest``: store ``password``
        (a hash), clear the link and return its account; ``None`` (unknown, used or expired)
        changes nothing. Two uses at once: one wins."""
        with self._db.write() as tx:
            row = tx.execute(
                "UPDATE accounts SET password = ?, setup_hash = NULL, setup_expires = NULL"
                " WHERE setup_hash = ? AND setup_expires > ? AND disabled_at IS NULL"
                f" RETURNING {_ACCOUNT_COLUMNS}",
                [password, digest, iso(now, "now")],
            ).fetchone()
        return None if row is None else _account(row)

    # -- roles per club ---------------------------------------------------------------------

    def memberships(self, account: int) -> dict[str, str]:
        """The clubs ``account`` holds a role in: club id → role."""
        with self._db.read(snapshot=False) as tx:
            rows = tx.execute(
                "SELECT club, role FROM memberships WHERE account = ?", [account]
            ).fetchall()
        return {str(c): str(r) for c, r in rows}

    def members(self, club: str) -> list[tuple[AccountRecord, str]]:
        """The accounts holding a role in ``club``, by name, with their role."""
        columns = ", ".join(f"a.{c.strip()}" for c in _ACCOUNT_COLUMNS.split(","))
        with self._db.read(snapshot=False) as tx:
            rows = tx.execute(
                f"SELECT {columns}, m.role FROM memberships m JOIN accounts a ON a.id = m.account"
                f" WHERE m.club = ? ORDER BY a.name{self.dialect.binary}, a.id",
                [club],
            ).fetchall()
        return [(_account(r[:7]), str(r[7])) for r in rows]

    def set_membership(self, account: int, club: str, role: str | None) -> str | None:
        """Give ``account`` ``role`` in ``club`` (``None``: no role any more); return the role
        it held before (``None``: none)."""
        if role is not None and role not in CLUB_ROLES:
            raise ValueError(f"role {role!r} is not a club role")
        with self._db.write() as tx:
            _require_club(tx, club)
            if tx.execute("SELECT 1 FROM accounts WHERE id = ?", [account]).fetchone() is None:
                raise UnknownAccountError(f"no account #{account}", field="account")
            row = tx.execute(
                "SELECT role FROM memberships WHERE account = ? AND club = ?", [account, club]
            ).fetchone()
            before = None if row is None else str(row[0])
            if role is None:
                tx.execute("DELETE FROM memberships WHERE account = ? AND club = ?",
                           [account, club])  # fmt: skip
            else:
                tx.execute(
                    "INSERT INTO memberships (account, club, role) VALUES (?, ?, ?)"
                    " ON CONFLICT (account, club) DO UPDATE SET role = excluded.role",
                    [account, club, role],
                )
        return before

    # -- the access log ---------------------------------------------------------------------

    def log_access(
        self,
        *,
        at: datetime,
        kind: str,
        club: str | None = None,
        account: int | None = None,
        who: str = "",
        detail: str = "",
        remote: str = "",
    ) -> None:
        """Append one line to the access log."""
        with self._db.write() as tx:
            tx.execute(
                "INSERT INTO access_log (at, club, account, who, kind, detail, remote)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [iso(at, "at"), club, account, who[:200], kind, detail[:500], remote[:100]],
            )

    def access_log(self, *, club: str | None, limit: int = 500) -> list[AccessLogEntry]:
        """The latest lines of ``club``'s access log (``None``: the instance's own, the
        administrators' lines that name no club), newest first."""
        where = "club IS NULL" if club is None else "club = ?"
        with self._db.read(snapshot=False) as tx:
            rows = tx.execute(
                f"SELECT {_LOG_COLUMNS} FROM access_log WHERE {where} ORDER BY id DESC LIMIT ?",
                ([] if club is None else [club]) + [int(limit)],
            ).fetchall()
        return [_entry(r) for r in rows]

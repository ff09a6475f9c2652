"""Clubs and people (issue 50; docs/federation.md): a federation's instance holds clubs, and a
club's committee members and referees sign in as themselves.

- A club's id is a slug (``rgc-antwerp``): typed any way (capitals, spaces, full-width
  letters), it is read as NFKC, trimmed and lower-cased, then must be ASCII letters, digits
  and inner hyphens; a look-alike letter of another script is refused, never matched.
- An account is a person: an e-mail (its key, read the same way, ASCII only), a name, and a
  password stored only as an argon2id hash (argon2-cffi, its parameters inside the hash). A
  new account gets a one-time link to set its password (valid ``SETUP_DAYS``, stored hashed,
  used once), printed or mailed by whoever made it.
- A person holds a role per club (``committee`` or ``referee``). A session acts in one club at
  a time; a member of several clubs switches (/clubs). An administrator of the instance makes
  clubs and their first committee member, and sees no club's data unless made a member of it.
- Wrong passwords are limited as wrong codes are (``MAX_FAILURES`` a minute per address and
  per e-mail). Every sign-in, failed attempt, setup, new club and change of role is written to
  the access log, in the club's log (the instance's for the administrators' own).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import quote

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from pace.clock import Clock
from pace.rules.errors import PaceError
from pace.services.access import AccessError, AccessService, Opened, RateLimiter, Session
from pace.store import Store
from pace.store.errors import UnknownAccountError, UnknownClubError
from pace.store.records import CLUB_ROLES, AccountRecord, ClubRecord

#: how long a one-time setup link opens
SETUP_DAYS = 7
MIN_PASSWORD = 10
MAX_PASSWORD = 200

_CLUB_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
_EMAIL = re.compile(r"[^@\s]{1,100}@[^@\s]{1,100}\.[^@\s.]{1,30}")

#: argon2id with argon2-cffi's default profile (RFC 9106's low-memory one)
_HASHER = PasswordHasher()
#: verified when no account matches, so a wrong e-mail costs the time a wrong password does
_DUMMY = _HASHER.hash(secrets.token_urlsafe(16))


def _invalid(message: str, field: str) -> PaceError:
    return PaceError(message, field=field, code="invalid_payload")


def club_id(text: object) -> str:
    """Return the canonical club id ``text`` names; refuse what is not one."""
    if not isinstance(text, str):
        raise _invalid("a club id must be text", "club")
    canonical = unicodedata.normalize("NFKC", text).strip().lower()
    if not _CLUB_ID.fullmatch(canonical):
        raise _invalid(
            f"{text[:40]!r} is not a club id: 1 to 40 lower-case letters a-z, digits and inner"
            " hyphens (rgc-antwerp)",
            "club",
        )
    return canonical


def email(text: object) -> str:
    """Return the canonical e-mail of ``text`` (trimmed, lower-case, ASCII); refuse others."""
    if not isinstance(text, str):
        raise _invalid("an e-mail must be text", "email")
    canonical = unicodedata.normalize("NFKC", text).strip().lower()
    if not canonical.isascii() or not _EMAIL.fullmatch(canonical):
        raise _invalid(f"{text[:60]!r} is not an e-mail address (name@club.be)", "email")
    return canonical


def person_name(text: object, field: str = "name") -> str:
    """Return a person's (or a club's) name, trimmed: 1 to 100 printable characters."""
    if not isinstance(text, str):
        raise _invalid("a name must be text", field)
    name = unicodedata.normalize("NFC", text).strip()
    if not name or len(name) > 100 or any(unicodedata.category(c)[0] == "C" for c in name):
        raise _invalid(f"{text[:40]!r} is not a name: 1 to 100 printable characters", field)
    return name


def club_role(text: object) -> str:
    """Return the club role ``text`` names (``committee`` or ``referee``)."""
    role = text.strip().lower() if isinstance(text, str) else ""
    if role not in CLUB_ROLES:
        raise _invalid(f"a role in a club is {' or '.join(CLUB_ROLES)}", "role")
    return role


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def setup_link(base: str, token: str) -> str:
    """Return the one-time link that lets a new account set its password."""
    return f"{base.rstrip('/')}/account/setup?token={quote(token, safe='')}"


@dataclass(frozen=True)
class Made:
    """An account made or given a role: the account, and its one-time setup token
    (``None``: the person has a password already)."""

    account: AccountRecord
    token: str | None


class Accounts:
    """Clubs, people and their roles over the store, on the server's clock."""

    def __init__(self, store: Store, access: AccessService, clock: Clock) -> None:
        self.store = store
        self.access = access
        self.clock = clock
        self.limiter = RateLimiter(clock)

    # -- the access log -------------------------------------------------------------------

    def log(self, kind: str, *, club: str | None, account: int | None = None, who: str = "",
            detail: str = "", remote: str = "") -> None:  # fmt: skip
        """Append a line to the access log (``club`` ``None``: the instance's)."""
        self.store.log_access(at=self.clock.now(), kind=kind, club=club, account=account,
                              who=who, detail=detail, remote=remote)  # fmt: skip

    # -- clubs ----------------------------------------------------------------------------

    def add_club(self, id: object, name: object, *, by: str = "", remote: str = "") -> ClubRecord:
        club = self.store.add_club(club_id(id), person_name(name), created_at=self.clock.now())
        self.log("club_made", club=None, who=by, detail=f"{club.id}: {club.name}", remote=remote)
        return club

    def rename_club(
        self, id: object, name: object, *, by: str = "", remote: str = ""
    ) -> ClubRecord:
        club = self.store.rename_club(club_id(id), person_name(name))
        self.log("club_renamed", club=None, who=by, detail=f"{club.id}: {club.name}",
                 remote=remote)  # fmt: skip
        return club

    def require_club(self, id: str) -> ClubRecord:
        club = self.store.club(id)
        if club is None:
            raise UnknownClubError(f"no club {id[:40]!r} on this instance", field="club")
        return club

    # -- accounts -------------------------------------------------------------------------

    def _setup_token(self, account: int) -> str:
        token = secrets.token_urlsafe(24)
        expires = self.clock.now() + timedelta(days=SETUP_DAYS)
        self.store.set_setup(account, _digest(token), expires)
        return token

    def add_account(self, address: object, name: object, *, admin: bool = False,
                    by: str = "", remote: str = "") -> Made:  # fmt: skip
        """Make an account with no password yet; return it with its one-time setup token."""
        account = self.store.add_account(
            email=email(address), name=person_name(name), password=None, admin=admin,
            created_at=self.clock.now(),
        )  # fmt: skip
        if admin:
            self.log("admin_made", club=None, account=account.id, who=by,
                     detail=account.email, remote=remote)  # fmt: skip
        return Made(account, self._setup_token(account.id))

    def add_member(self, club: str, address: object, name: object, role: object, *,
                   by: str = "", remote: str = "") -> Made:  # fmt: skip
        """Give the person of ``address`` ``role`` in ``club``, making the account if new
        (then with a one-time setup token). An existing account keeps its name."""
        self.require_club(club)
        role = club_role(role)
        canonical = email(address)
        existing = self.store.account_by_email(canonical)
        made = Made(existing, None) if existing is not None else self.add_account(
            canonical, name, by=by, remote=remote)  # fmt: skip
        if existing is not None and existing.password is None:
            made = Made(existing, self._setup_token(existing.id))  # a new link: the old is lost
        self.set_role(club, made.account.id, role, by=by, remote=remote)
        return made

    def set_role(self, club: str, account: int, role: str | None, *, by: str = "",
                 remote: str = "") -> set[str]:  # fmt: skip
        """Give ``account`` ``role`` in ``club`` (``None``: take its role away); its open
        sessions end (the server closes their sockets): it signs in again with what it holds
        now. Returns those sessions' hashes."""
        if role is not None:
            role = club_role(role)
        person = self.store.account(account)
        if person is None:
            raise UnknownAccountError(f"no account #{account}", field="account")
        before = self.store.set_membership(account, club, role)
        if before == role:
            return set()
        self.log("role_changed", club=club, account=account, who=by,
                 detail=f"{person.email}: {before or 'none'} → {role or 'none'}",
                 remote=remote)  # fmt: skip
        return self.store.revoke_account_sessions(account, at=self.clock.now())

    def member(self, club: str, account: object) -> AccountRecord:
        """Return the account ``account`` (an id) if it holds a role in ``club``, else refuse
        as though it did not exist (another club's people are not told)."""
        try:
            id = int(str(account))
        except ValueError:
            raise _invalid("an account is given by its number", "account") from None
        person = self.store.account(id) if 0 < id < 2**62 else None
        if person is None or club not in self.store.memberships(id):
            raise UnknownAccountError(f"no account #{id} in this club", field="account")
        return person

    # -- setting a password ---------------------------------------------------------------

    def pending(self, token: object) -> AccountRecord | None:
        """The account a one-time setup token opens, or ``None``."""
        if not isinstance(token, str) or not token or len(token) > 100:
            return None
        return self.store.setup_account(_digest(token), now=self.clock.now())

    def finish_setup(self, token: object, password: object, again: object, *,
                     remote: str = "") -> Opened:  # fmt: skip
        """Set the password of the account of ``token`` (used once) and sign it in."""
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise _invalid(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters",
                           "password")  # fmt: skip
        if password != again:
            raise _invalid("the two passwords differ; type the same one twice", "again")
        if not isinstance(token, str) or not token or len(token) > 100:
            token = ""
        account = self.store.take_setup(_digest(token), _HASHER.hash(password),
                                        now=self.clock.now())  # fmt: skip
        if account is None:
            raise AccessError("this link has been used or has expired; ask for a new one",
                              field="token", code="invalid_code")  # fmt: skip
        for club in self.store.memberships(account.id) or {None: ""}:
            self.log("password_set", club=club, account=account.id, who=account.email,
                     remote=remote)  # fmt: skip
        return self._session(account, None, remote)

    # -- signing in -----------------------------------------------------------------------

    def sign_in(self, address: object, password: object, *, club: object = None,
                remote: str = "") -> Opened:  # fmt: skip
        """Open a session for the person of ``address`` in ``club`` (default: their only
        club, else the first by id; an administrator with no club asked: the instance)."""
        try:
            canonical = email(address)
        except PaceError:
            canonical = ""
        keys = (f"addr:{remote}", f"email:{canonical}")
        if self.limiter.blocked(*keys):
            raise AccessError("too many wrong passwords; wait a minute before trying again",
                              field="password", code="rate_limited")  # fmt: skip
        account = self.store.account_by_email(canonical) if canonical else None
        stored = account.password if account is not None and account.disabled_at is None else None
        if not _verify(stored, password):
            self.limiter.failed(*keys)
            clubs = self.store.memberships(account.id) if account is not None else {}
            for where in clubs or {None: ""}:
                self.log("sign_in_failed", club=where,
                         account=None if account is None else account.id,
                         who=canonical or str(address)[:60], remote=remote)  # fmt: skip
            raise AccessError("this e-mail and password do not match an account",
                              field="password", code="invalid_code")  # fmt: skip
        assert account is not None
        return self._session(account, club, remote)

    def switch(self, s: Session, club: object, *, remote: str = "") -> Opened:
        """Open a session for the same person in another of their clubs (or, for an
        administrator, ``""``: the instance's own pages)."""
        if s.account is None:
            raise AccessError("only a person's own account works in several clubs; an access"
                              " code stays in its round", field="club")  # fmt: skip
        account = self.store.account(s.account)
        if account is None or account.disabled_at is not None:
            raise AccessError("your account is closed", code="unauthorized")
        return self._session(account, club if club != "" else "", remote)

    def _session(self, account: AccountRecord, club: object, remote: str) -> Opened:
        roles: dict[str, str] = self.store.memberships(account.id)
        if club == "":
            if not account.admin:
                raise AccessError("only an administrator of the instance works outside a club",
                                  field="club")  # fmt: skip
            chosen: str | None = None
        elif club is not None and club != "":
            chosen = club_id(club)
            if chosen not in roles:
                raise AccessError(f"you hold no role in club {chosen!r}", field="club")
        elif roles:
            chosen = sorted(roles)[0]
        elif account.admin:
            chosen = None
        else:
            raise AccessError("your account holds no role in any club yet; ask your club's"
                              " committee", field="club")  # fmt: skip
        role = "admin" if chosen is None else roles[chosen]
        opened = self.access.grant(role, None, account.name, club=chosen, account=account.id)
        self.log("sign_in", club=chosen, account=account.id, who=account.email,
                 detail=role, remote=remote)  # fmt: skip
        return opened


def _verify(stored: str | None, password: object) -> bool:
    """Whether ``password`` matches the hash ``stored``; with no hash, a dummy's is checked
    (and fails), so an unknown e-mail answers in the time a wrong password does."""
    if not isinstance(password, str) or not 0 < len(password) <= MAX_PASSWORD:
        return False
    try:
        matched = _HASHER.verify(stored or _DUMMY, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
    return bool(matched) and stored is not None

"""Access: the committee account, per-round access codes, sessions and the code rate limit.

No web framework here: ``pace.web.access`` holds the permission table and checks every
request and Socket.IO event against the session this service resolves (docs/access.md).

- Codes are short and typable (``ABCD-EFGH``: 8 characters of an alphabet without 0/O,
  1/I/L), stored only as salted scrypt hashes with their first two characters in clear
  (``prefix``) to find the candidates without hashing every stored code.
- The committee secret is a 20-character code of the same alphabet that opens every round;
  it is made when a database has none, and shown once.
- A session token is 32 random bytes (URL-safe text); the store keeps its SHA-256 only.
- A session for a round ends at midnight after the round's day in the round's time zone;
  a committee session (every round) at the end of the day it was opened, in the default
  round time zone of config.toml.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
from collections import deque
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from urllib.parse import quote
from zoneinfo import ZoneInfo

from pace import config
from pace.clock import Clock
from pace.rules.errors import PaceError
from pace.store import SessionRecord, Store, is_database_url
from pace.store.records import DEFAULT_CLUB

#: The roles of a session, most trusted first (docs/access.md). The store checks them in its
#: tables (its migrations keep their own lists, as shipped).
ROLES = ("committee", "referee", "scorer", "marshal", "viewer")

#: 31 characters nobody confuses on paper or a phone keyboard
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
SECRET_LENGTH = 20
PREFIX_LENGTH = 2

# scrypt: 16 MiB and about 50 ms a hash here; codes are few and tried rarely
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2**14, 8, 1

#: failed code attempts allowed per minute, per remote address and per code prefix
MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=1)


#: The page an access code's link opens, by role (issue 14): where each role works.
LANDING = {
    "committee": "dashboard",
    "referee": "dashboard",
    "scorer": "scorecard",
    "marshal": "marshal",
    "viewer": "board",
}


def join_link(base: str, code: str, role: str, round: str) -> str:
    """Return the link that signs in with ``code`` and opens the page of its role.

    >>> join_link("http://10.0.0.2:5000/", "ABCD-EFGH", "marshal", "Club R1")
    'http://10.0.0.2:5000/join?code=ABCD-EFGH&next=/rounds/Club%2520R1/marshal'
    """
    page = f"/rounds/{quote(round, safe='')}/{LANDING.get(role, 'board')}"
    return f"{base.rstrip('/')}/join?code={quote(code, safe='-')}&next={quote(page, safe='/')}"


class AccessError(PaceError, PermissionError):
    """A request without a session (``unauthorized``) or without the right role (``forbidden``)."""

    code = "forbidden"


def make_code(length: int = CODE_LENGTH) -> str:
    """Return a new random code of ``length`` characters of ``ALPHABET``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalise(text: str) -> str:
    """Return a typed code without spaces or dashes, in capitals (``abcd-efgh`` → ``ABCDEFGH``)."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def display(code: str) -> str:
    """Return a code in groups of four for reading aloud and printing (``ABCD-EFGH``)."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def hash_code(code: str) -> str:
    """Return ``scrypt$n$r$p$salt$hash`` of a normalised code (random salt)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(code.encode(), salt=salt, n=_SCRYPT_N, r=_SCRYPT_R, p=_SCRYPT_P)
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_code(code: str, stored: str) -> bool:
    """Return whether ``code`` (normalised) matches the stored hash."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    got = hashlib.scrypt(code.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p))
    return hmac.compare_digest(got.hex(), digest)


def token_hash(token: str) -> str:
    """Return the stored form of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Session:
    """Who is asking: a role, the round it may act on (``None``: every round), a name."""

    role: str
    round: str | None
    name: str | None
    expires_at: datetime
    token_hash: str
    #: the club the session acts in (issue 50): a round code's round's, the committee secret's
    #: ``default``, a person's chosen club; ``None``: an administrator's, which sees no club
    club: str | None = DEFAULT_CLUB
    #: the person's account that opened it (``None``: an access code or the secret)
    account: int | None = None

    def covers(self, round: str | None) -> bool:
        """Return whether this session may act on ``round``."""
        return self.round is None or round is None or self.round == round


@dataclass(frozen=True)
class Opened:
    """A session just opened: the token to give the client, and the session."""

    token: str
    session: Session


class RateLimiter:
    """Counts failed code attempts per key in a sliding minute on the injected clock."""

    def __init__(self, clock: Clock, limit: int = MAX_FAILURES, window: timedelta = FAILURE_WINDOW):
        self.clock = clock
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[datetime]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: datetime) -> deque[datetime]:
        q = self._failures.setdefault(key, deque())
        while q and now - q[0] >= self.window:
            q.popleft()
        return q

    def blocked(self, *keys: str) -> bool:
        """Return whether any of ``keys`` has used up its failures in the window."""
        now = self.clock.now()
        with self._lock:
            return any(len(self._recent(k, now)) >= self.limit for k in keys)

    def failed(self, *keys: str) -> None:
        """Count one failure against each of ``keys``."""
        now = self.clock.now()
        with self._lock:
            for k in keys:
                self._recent(k, now).append(now)


class AccessService:
    """Codes and sessions over the store, on the server's clock."""

    def __init__(self, store: Store, settings: config.Settings, clock: Clock):
        self.store = store
        self.settings = settings
        self.clock = clock
        self.limiter = RateLimiter(clock)

    # -- accounts and codes ---------------------------------------------------------------

    def ensure_committee_account(self) -> str | None:
        """Make the committee account if the database has none; return its secret (once)."""
        secret = make_code(SECRET_LENGTH)
        made = self.store.add_access_code(
            round=None,
            role="committee",
            prefix=secret[:PREFIX_LENGTH],
            hash=hash_code(secret),
            label="committee account",
            created_at=self.clock.now(),
            only_if_no_account=True,
        )
        return None if made is None else display(secret)

    def create_code(self, round: str, role: str, label: str | None = None) -> str:
        """Make an access code for ``role`` on ``round``; return it (shown once, stored hashed)."""
        if role not in ROLES:
            raise PaceError(
                f"role {role[:40]!r} must be one of {', '.join(ROLES)}", field="role",
                code="invalid_payload",
            )  # fmt: skip
        code = make_code()
        self.store.add_access_code(
            round=round,
            role=role,
            prefix=code[:PREFIX_LENGTH],
            hash=hash_code(code),
            label=label,
            created_at=self.clock.now(),
        )
        return display(code)

    # -- sessions ---------------------------------------------------------------------------

    def expiry(self, round: str | None) -> datetime:
        """Return when a session opened now for ``round`` ends (see the module's docstring)."""
        if round is None:
            tz = ZoneInfo(self.settings.round.timezone)
            day = self.clock.now().astimezone(tz).date()
        else:
            record = self.store.get_round(round)
            tz, day = ZoneInfo(record.timezone), record.day
        return _midnight_after(day, tz)

    def open_with_code(self, text: str, *, remote: str = "", name: str | None = None) -> Opened:
        """Open a session with a typed code or the committee secret.

        Refused with ``rate_limited`` after ``MAX_FAILURES`` failures in a minute from the
        same address or on the same prefix, and with ``invalid_code`` for a wrong, revoked
        or expired code.
        """
        code = normalise(text if isinstance(text, str) else "")[:64]
        if any(ch not in ALPHABET for ch in code):
            code = ""  # not a code of ours (a lone surrogate, a control character): wrong
        prefix = code[:PREFIX_LENGTH]
        keys = (f"addr:{remote}", f"prefix:{prefix}")
        if self.limiter.blocked(*keys):
            raise AccessError(
                "too many wrong codes; wait a minute before trying again", field="code",
                code="rate_limited",
            )  # fmt: skip
        now = self.clock.now()
        for candidate in self.store.access_codes(prefix=prefix) if len(code) >= 4 else ():
            if candidate.revoked_at is not None or not verify_code(code, candidate.hash):
                continue
            expires = self.expiry(candidate.round)
            if expires <= now:
                break
            round = candidate.round
            club = DEFAULT_CLUB if round is None else self.store.round_club(round)
            return self._open(candidate.role, candidate.round, name, candidate.id, expires,
                              club=club or DEFAULT_CLUB)  # fmt: skip
        self.limiter.failed(*keys)
        raise AccessError(
            "this code is not valid (or its round is over); check it on the timing sheet",
            field="code", code="invalid_code",
        )  # fmt: skip

    def grant(
        self,
        role: str,
        round: str | None,
        name: str | None = None,
        *,
        club: str | None = None,
        account: int | None = None,
    ) -> Opened:
        """Open a session without a code (the demo's simulated devices, tests, the CLI, a
        person signed in with a password: ``account``). ``club`` defaults to the round's, else
        the single-club instance's."""
        if club is None and role != "admin":
            club = (self.store.round_club(round) if round is not None else None) or DEFAULT_CLUB
        return self._open(role, round, name, None, self.expiry(round), club=club,
                          account=account)  # fmt: skip

    def _open(
        self,
        role: str,
        round: str | None,
        name: str | None,
        code: int | None,
        expires: datetime,
        *,
        club: str | None = DEFAULT_CLUB,
        account: int | None = None,
    ) -> Opened:
        token = secrets.token_urlsafe(32)
        record = SessionRecord(
            token_hash(token), role, round, code, name, self.clock.now(), expires, None, club,
            account,
        )  # fmt: skip
        self.store.add_session(record)
        return Opened(
            token, Session(role, round, name, expires, record.token_hash, club, account)
        )

    def resolve(self, token: object) -> Session | None:
        """Return the live session of ``token``, or ``None`` (unknown, expired or ended)."""
        if not isinstance(token, str) or not token or len(token) > 200 or not token.isascii():
            return None
        record = self.store.session(token_hash(token))
        if record is None or record.revoked_at is not None:
            return None
        if record.expires_at <= self.clock.now():
            return None
        club = record.club
        if club is None and record.role != "admin":
            club = DEFAULT_CLUB  # a session opened before clubs (m014): the one club's
        return Session(record.role, record.round, record.name, record.expires_at,
                       record.token_hash, club, record.account)  # fmt: skip

    def end(self, token: object) -> str | None:
        """End the session of ``token`` (logging out); return its hash (``None``: no token)."""
        if isinstance(token, str) and token and token.isascii():
            ended = token_hash(token)
            self.store.revoke_session(ended, at=self.clock.now())
            return ended
        return None

    def revoke_code(self, code_id: int, *, round: str | None = None) -> set[str]:
        """Revoke access code ``code_id`` (of ``round``, when given) and end its sessions now.

        Returns the hashes of the sessions ended, for the server to close their sockets.
        Refused with ``unknown_code`` for a code that is not stored (or of another round).
        """
        codes = {c.id: c for c in self.store.access_codes(round=round)}
        if code_id not in codes:
            where = f" of round {round!r}" if round is not None else ""
            raise PaceError(f"no access code #{code_id}{where}", field="code", code="unknown_code")
        return self.store.revoke_code(code_id, at=self.clock.now())


def secret_notice(secret: str, database: str | os.PathLike[str], *, interactive: bool) -> str:
    """Return what to print about a new committee secret, keeping it out of service logs.

    On an interactive terminal the secret is shown. Otherwise (a service manager, a log
    file, a script) it is written to ``<database>.committee-secret``, readable by the
    owner alone (mode 0600), and only that file's path is returned to print.
    """
    if interactive:
        return (
            f"committee secret: {secret}\n"
            "  shown this once and stored only hashed: write it down now; sign in at /login"
        )
    if is_database_url(str(database)):  # no folder of its own: the working directory's
        name = str(database).split("?")[0].rstrip("/").rsplit("/", 1)[-1] or "pace"
        path = Path.cwd() / f"{name}.committee-secret"
    else:
        path = Path(database).with_name(Path(database).name + ".committee-secret")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, f"{secret}\n".encode())
    finally:
        os.close(fd)
    return (
        f"committee secret written to {path} (readable by this user only, not shown in this"
        " log): read it, write it down, delete the file; sign in at /login"
    )


def _midnight_after(day: date, tz: ZoneInfo) -> datetime:
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz)

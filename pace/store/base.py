"""The store's interface: what the services may ask of the event log and the setup tables.

One implementation, :class:`pace.store.sql.repo.SqlStore`, written once, runs on two engines:
:class:`pace.store.sqlite.SqliteStore`, one SQLite file (the embedded default), and
:class:`pace.store.pg.PostgresStore`, a PostgreSQL database shared by several workers.
``pace.store.open_store(target)`` picks the engine from the target: a ``postgresql://`` URL,
or a file path. Both keep the same contract, checked by one test suite
run on each, and written here only (the engines' methods do not repeat it):

- every write is one transaction, committed before the method returns (a caller may ack then);
- an event id is stored once: a resend of the same fact changes nothing and returns the stored
  event with ``False``; the same id with another fact raises ``EventConflictError``;
- each event gets a ``seq`` from one global sequence, and within a round the ``seq`` order is
  the commit order: a reader that has seen ``seq`` N of a round will never later find an
  event of that round below N, so ``events(round, after_seq=N)`` catches up without a gap;
- nothing in the log is ever updated or deleted, whoever the caller;
- a fault of the database (down, full, locked too long, closed) raises ``StorageError``
  (``storage_unavailable``): nothing was stored and the client sends again later.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from pace.rules.events import Event
from pace.rules.model import Course, Group
from pace.store.records import (
    UNSET,
    AccessCodeRecord,
    RoundRecord,
    RoundSummary,
    SessionRecord,
    Unset,
)

if TYPE_CHECKING:
    from pace.rules.scoring.competition import Cut
    from pace.store.competitions import CompetitionRecord

#: the URL schemes of a PostgreSQL database (libpq's); anything else is a SQLite file path
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


SYNCHRONOUS_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")
"""Accepted ``synchronous`` levels (SQLite's ``PRAGMA synchronous``), weakest first."""

DEFAULT_SYNCHRONOUS = "FULL"
"""Every commit is on disk before it returns: a marshal's ack survives a power cut."""


def validate_synchronous(level: str) -> str:
    """Return ``level`` upper-cased if it is a ``synchronous`` level; else ValueError."""
    upper = level.upper() if isinstance(level, str) else level
    if upper not in SYNCHRONOUS_LEVELS:
        raise ValueError(
            f"synchronous must be one of {', '.join(SYNCHRONOUS_LEVELS)}, not {level!r}"
        )
    return upper


def is_database_url(target: str | Path) -> bool:
    """Return whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


class Store(ABC):
    """The pace database: open it with ``pace.store.open_store(target)``, close it (or use
    ``with``)."""

    #: ``"sqlite"`` or ``"postgresql"``
    engine: str = ""

    # -- lifecycle ---------------------------------------------------------------------

    @abstractmethod
    def close(self) -> None:
        """Close the store; later use raises ``StorageError``. Closing twice is a no-op."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """Return whether the store was closed."""

    @property
    @abstractmethod
    def location(self) -> str:
        """Return where the data lives, fit to print: the file's path, or the URL without
        its password."""

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @abstractmethod
    def applied_migrations(self) -> list[str]:
        """Return the names of the schema migrations recorded in the database, oldest first."""

    # -- events ------------------------------------------------------------------------

    @abstractmethod
    def append(self, event: Event, *, recorded_at: datetime) -> tuple[Event, bool]:
        """Append ``event`` durably; return the stored event and whether it was new.

        An id already stored with the same type, round, at and payload is a resend: nothing
        is written and the stored event comes back with ``False``. The same id with a
        different fact raises ``EventConflictError``; an unknown round raises
        ``UnknownRoundError``. ``by``, ``seq`` and ``recorded_at`` of ``event`` are not
        compared (``seq`` and ``recorded_at`` are the store's to set).
        """

    @abstractmethod
    def append_many(
        self,
        events: Iterable[Event],
        *,
        recorded_at: datetime,
        keep_recorded_at: bool = False,
        implied: bool = False,
    ) -> list[tuple[Event, bool]]:
        """Append ``events`` in order, all or nothing, in one transaction (rules of ``append``):
        one conflict or unknown round writes none of them.

        ``keep_recorded_at``: an event that has its own ``recorded_at`` keeps it (a restored
        backup); the others get ``recorded_at``.

        ``implied``: the events are what the log implies (alerts raised and resolved, their
        ids derived from their keys): committed without waiting for the disk, which holds them
        with the next commit that waits (docs/storage.md, "What waits for the disk"). Every
        reader sees them at once, and a crash of pace keeps them; a crash of the machine
        before that next commit may lose them, and the log implies them again.
        """

    @abstractmethod
    def events(
        self, round: str, *, types: Iterable[str] | None = None, after_seq: int = 0
    ) -> list[Event]:
        """Return the round's events in log order (``seq``), optionally of some types only;
        ``after_seq`` skips those up to and including that sequence number. An unknown round
        has no events."""

    @abstractmethod
    def event(self, id: str) -> Event | None:
        """Return the stored event with that id, or ``None``."""

    @abstractmethod
    def last_seq(self, round: str) -> int:
        """Return the sequence number of the round's last event (0 for none): the log's
        position, which changes with every event appended to it."""

    @abstractmethod
    def count_events(self, round: str | None = None) -> int:
        """Return how many events are stored, in all or in one round."""

    # -- courses, rounds and draws -----------------------------------------------------

    @abstractmethod
    def save_course(
        self, course: Course, *, imported_at: datetime | None = None, club: str = "default"
    ) -> None:
        """Store ``course``, replacing the course of that name.

        Refused with ``SetupError`` if the holes change while a round on that course already
        has events: the log would no longer match its setup.
        """

    @abstractmethod
    def get_course(self, name: str) -> Course:
        """Return the course of that name; raise ``UnknownCourseError`` if none."""

    @abstractmethod
    def list_courses(self, *, club: str | None = None) -> list[Course]:
        """Return every stored course, by name."""

    @abstractmethod
    def save_geometry(
        self, course: str, data: Mapping[str, Any], *, imported_at: datetime
    ) -> None:
        """Store ``course``'s map (its holes' geometry, docs/formats.md), replacing any
        (``UnknownCourseError`` if there is no such course)."""

    @abstractmethod
    def get_geometry(self, course: str) -> dict[str, Any] | None:
        """Return ``course``'s map as stored, or None when it has none."""

    @abstractmethod
    def create_round(
        self,
        name: str,
        *,
        course: str,
        day: date,
        timezone: str,
        policy: str = "frbg",
        standard_interval: timedelta | None = None,
        created_at: datetime | None = None,
        play: str = "stroke_play",
        format: str = "individual",
        scoring: str | None = None,
        net: bool = False,
        allowance: Sequence[float] | None = None,
        club: str = "default",
    ) -> RoundRecord:
        """Create a round (with an empty draw) on a stored course; return it.

        Raises ``RoundExistsError`` if the name is taken, ``UnknownCourseError`` if the course
        is not stored and ``SetupError`` for an unknown time zone or a bad value.
        """

    @abstractmethod
    def update_round(
        self,
        name: str,
        *,
        policy: str | Unset = UNSET,
        standard_interval: timedelta | None | Unset = UNSET,
        play: str | Unset = UNSET,
        format: str | Unset = UNSET,
        scoring: str | None | Unset = UNSET,
        net: bool | Unset = UNSET,
        allowance: Sequence[float] | None | Unset = UNSET,
        completions: str | Unset = UNSET,
        language: str | None | Unset = UNSET,
        rounding: str | None | Unset = UNSET,
        gross_par_adjustment: bool | None | Unset = UNSET,
        positions: bool | Unset = UNSET,
    ) -> RoundRecord:
        """Change a round's policy, standard interval, form of play, format, scoring setup,
        handicap readings or the language of its documents.

        Fields left ``UNSET`` keep their value; ``standard_interval=None`` means "the most
        common interval of the draw", ``scoring=None`` "the one the form of play implies",
        ``allowance=None``, ``language=None``, ``rounding=None`` and
        ``gross_par_adjustment=None`` "the configuration's"; ``completions`` where the
        round's completions come from (``officials``, ``officials_and_groups``, ``groups``);
        ``positions`` whether the round allows positions from the groups' phones (issue 48).
        """

    @abstractmethod
    def save_draw(self, round: str, groups: Sequence[Group]) -> RoundRecord:
        """Replace the round's draw by ``groups`` (in starting order), all or nothing.

        Refused with ``SetupError`` once the round has events, and for two groups with the
        same id; ``UnknownRoundError`` if the round is not stored.
        """

    @abstractmethod
    def get_round(self, name: str) -> RoundRecord:
        """Return the round's setup with its draw; raise ``UnknownRoundError`` if none."""

    @abstractmethod
    def has_round(self, name: str) -> bool:
        """Return whether a round of that name exists."""

    @abstractmethod
    def list_rounds(self, *, club: str | None = None) -> list[RoundSummary]:
        """Return a summary of every round (of ``club``, when given), by day then name."""

    # -- competitions of several rounds (pace.store.competitions) -----------------------

    @abstractmethod
    def create_competition(
        self,
        name: str,
        *,
        rounds: Sequence[str],
        scoring: str,
        cut: Cut | None = None,
        created_at: datetime | None = None,
        club: str = "default",
    ) -> CompetitionRecord:
        """Store a competition of 2–4 stored rounds in order, all or nothing; return it.

        Refused with ``SetupError`` (a bad name, rounds, scoring or cut),
        ``UnknownRoundError`` (a round not stored) or ``CompetitionExistsError``.
        """

    @abstractmethod
    def get_competition(self, name: str) -> CompetitionRecord:
        """Return the competition of that name; raise ``UnknownCompetitionError`` if none."""

    @abstractmethod
    def list_competitions(
        self, *, round: str | None = None, club: str | None = None
    ) -> list[CompetitionRecord]:
        """Return every competition (of ``club``, when given) by name, or those ``round`` is
        a round of."""

    # -- access (docs/access.md) ---------------------------------------------------------

    @abstractmethod
    def secret(self, name: str, make: Callable[[], object] | None = None) -> str | None:
        """Return the app secret ``name``; if missing and ``make`` is given, store ``make()``
        (two processes racing to make it keep the first one written)."""

    @abstractmethod
    def probe_write(self, at: str) -> None:
        """Write one row that nothing reads, the instant ``at`` (``/readyz`` asks whether the
        store takes a write now; never the event log)."""

    @abstractmethod
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

    @abstractmethod
    def access_codes(
        self, *, prefix: str | None = None, round: str | None = None
    ) -> list[AccessCodeRecord]:
        """Return the access codes with that prefix, or of that round, oldest first."""

    @abstractmethod
    def add_session(self, record: SessionRecord) -> None:
        """Store a session (its token only as a hash)."""

    @abstractmethod
    def session(self, token_hash: str) -> SessionRecord | None:
        """Return the session whose token hashes to ``token_hash``, or ``None``."""

    @abstractmethod
    def revoke_session(self, token_hash: str, *, at: datetime) -> None:
        """End a session now (logging out)."""

    # -- clubs, accounts and the access log (pace.store.sql.clubs, issue 50) -----------------
    # ``clubs``, ``club``, ``add_club``, ``rename_club``, ``round_club``, ``course_club``,
    # ``add_account``, ``account``, ``account_by_email``, ``set_password``, ``set_setup``,
    # ``setup_account``, ``take_setup``, ``memberships``, ``members``, ``set_membership``,
    # ``log_access``, ``access_log``, ``club_owners``, ``revoke_account_sessions``: written
    # once there, for both engines; a club's data (``club_holdings``, ``names``,
    # ``club_rows``, ``delete_club``, ``import_club_rows``) in pace.store.sql.clubdata. Only
    # the two below are declared here: the checks every round's command passes through.

    @abstractmethod
    def round_club(self, round: str) -> str | None:
        """Return the club of ``round``, or ``None`` if it is not stored."""

    @abstractmethod
    def course_club(self, course: str) -> str | None:
        """Return the club of ``course``, or ``None`` if it is not stored."""

    @abstractmethod
    def revoke_code(self, code_id: int, *, at: datetime) -> set[str]:
        """Revoke an access code and end every session it opened; return those sessions' hashes."""


def describe(target: Any) -> str:
    """Return ``target`` fit to print: a URL's password is replaced by ``***``."""
    text = str(target)
    if not is_database_url(text):
        return text
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(text)
    if parts.password is None:
        return text
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))

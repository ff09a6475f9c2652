"""A club's data is the club's (issue 50, item 4; docs/federation.md, "A club's data"):
``pace club export``, ``pace club delete`` and ``pace club import``.

- ``export_club``: everything the club owns, as one file (``pace.formats.clubfile``): its
  courses and maps, its rounds with their setup, draw and whole log exactly as stored, its
  competitions, its people (e-mail, name, role; no password hash, no setup link) and its
  access-log lines. An export writes nothing.
- ``removal`` / ``delete_club``: what the club owns, counted; then all of it removed in one
  transaction, nothing of another club's (``pace.store.sql.clubdata``), and the removal in the
  instance's access log.
- ``import_club``: a club's export, or another instance's single-club SQLite database (its
  ``default`` club), made club ``ID`` here: all or nothing, its log unchanged.

Club ids are read as ``pace.services.accounts.club_id`` reads them: a look-alike letter of
another script is refused, never matched.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pace.clock import Clock
from pace.formats import clubfile
from pace.formats.csvfile import read_text
from pace.rules.errors import FileFormatError, PaceError, Problem
from pace.services.accounts import club_id, email, person_name
from pace.store import Store
from pace.store.clubsource import is_sqlite_file, read_single_club
from pace.store.errors import UnknownClubError
from pace.store.instants import iso
from pace.store.records import CLUB_ROLES
from pace.store.sql.clubdata import SECTIONS, ClubHoldings, ImportedClub
from pace.store.sql.repo import SqlStore

__all__ = ["ClubHoldings", "ImportedClub", "Source", "delete_club", "export_club",
           "import_club", "read_source", "removal"]  # fmt: skip


def _sql(store: Store) -> SqlStore:
    if not isinstance(store, SqlStore):  # every store is; a test's fake would not be
        raise TypeError(f"a club's data needs the SQL store, not {type(store).__name__}")
    return store


def _known(store: SqlStore, club: object) -> str:
    id = club_id(club)
    if store.club(id) is None:
        raise UnknownClubError(f"no club {id!r} on this instance", field="club")
    return id


def export_club(store: Store, club: object, clock: Clock) -> str:
    """Return the export of ``club``: everything it owns, as ``pace.formats.clubfile``."""
    sql = _sql(store)
    head, rows = sql.club_rows(_known(sql, club))
    return clubfile.dump(head, rows, exported_at=iso(clock.now(), "exported_at"))


def removal(store: Store, club: object) -> ClubHoldings:
    """Return what removing ``club`` would remove (nothing is changed)."""
    sql = _sql(store)
    return sql.club_holdings(_known(sql, club))


def delete_club(store: Store, club: object, clock: Clock, *, by: str = "") -> ClubHoldings:
    """Remove ``club`` and everything it owns, in one transaction; return what was removed."""
    sql = _sql(store)
    return sql.delete_club(_known(sql, club), at=clock.now(), by=by)


@dataclass(frozen=True)
class Source:
    """A club's data read from a file: what it is, the club it was, and its rows."""

    kind: str  # "export" or "database"
    club: dict[str, str]
    rows: dict[str, list[dict[str, object]]]


def read_source(path: str | Path) -> Source:
    """Read ``path``: another instance's single-club SQLite database, or a club's export.
    Every problem is a ``FileFormatError`` naming the file; nothing is written anywhere."""
    if is_sqlite_file(path):
        club, rows = read_single_club(path)
        return Source("database", club, rows)
    parsed = clubfile.parse(read_text(path), str(path))
    _check_people(parsed.rows, str(path))
    try:
        club_id(parsed.club["id"])
    except PaceError as e:
        raise FileFormatError([Problem(str(path), 1, "club.id", e.message)]) from None
    return Source("export", parsed.club, parsed.rows)


def _check_people(rows: dict[str, list[dict[str, object]]], filename: str) -> None:
    """An export's people as accounts read them: a canonical e-mail, a name, a club role."""
    problems = []
    for i, person in enumerate(rows["people"], start=1):
        for column, check in (("email", email), ("name", person_name)):
            try:
                if check(person[column]) != person[column]:
                    raise PaceError(f"{str(person[column])[:60]!r} is not written as pace"
                                    " stores it", field=column)  # fmt: skip
            except PaceError as e:
                problems.append(Problem(filename, None, f"people[{i}].{column}", e.message))
        if person["role"] not in CLUB_ROLES:
            problems.append(Problem(filename, None, f"people[{i}].role",
                                    f"expected {' or '.join(CLUB_ROLES)}"))  # fmt: skip
    for i, line in enumerate(rows["access_log"], start=1):
        if line["account"] is not None:
            try:
                email(line["account"])
            except PaceError as e:
                problems.append(Problem(filename, None, f"access_log[{i}].account", e.message))
    if problems:
        raise FileFormatError(problems)


def import_club(
    store: Store,
    source: str | Path,
    club: object,
    clock: Clock,
    *,
    name: object = None,
    by: str = "",
) -> tuple[Source, ImportedClub]:
    """Make the club of ``source`` (an export, or a single-club SQLite database) club
    ``club`` of this instance: all or nothing, its log unchanged. Refused with nothing
    written: a bad file, a club that already owns anything, a name (or an event id) already
    taken on this instance (every clash named)."""
    sql = _sql(store)
    id = club_id(club)
    chosen = None if name is None else person_name(name, "name")
    read = read_source(source)
    if chosen is None and sql.club(id) is None:
        chosen = read.club.get("name") or id
    rows = {s: read.rows.get(s, []) for s in SECTIONS}
    done = sql.import_club_rows(id, chosen, rows, at=clock.now(), by=by,
                                detail=f"from {Path(source).name}")  # fmt: skip
    return read, done

"""Another instance's single-club SQLite database, read as one club's rows (``pace club
import``; docs/federation.md, "A club's data").

The file is never written: it is opened read-only and copied with SQLite's backup API (a
consistent copy, its WAL included) to a temporary file; the copy is brought to this schema by
the shipped migrations (a database of any released pace reads the same) and its ``default``
club's rows are read from it (:meth:`pace.store.sql.clubdata.ClubData.club_rows`). The copy is
removed afterwards.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import quote

from pace.rules.errors import FileFormatError, Problem
from pace.store.records import DEFAULT_CLUB
from pace.store.sql.clubdata import ClubRows
from pace.store.sql.schema import NAMES

#: the first bytes of every SQLite database file
SQLITE_MAGIC = b"SQLite format 3\x00"


def is_sqlite_file(path: str | Path) -> bool:
    """Whether the file at ``path`` is a SQLite database (by its first 16 bytes)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def _refuse(path: str | Path, message: str) -> FileFormatError:
    return FileFormatError([Problem(str(path), None, None, message)])


def read_single_club(path: str | Path) -> tuple[dict[str, str], ClubRows]:
    """Return the club and the rows of the single-club pace database at ``path``.

    Refused (``FileFormatError``, nothing read): a file that is not a pace database, one made
    by a newer pace (a migration this one does not know), one holding no club's data, or one
    whose rows belong to clubs other than ``default`` (a federation's instance: export the
    club wanted with ``pace club export``).
    """
    from pace.store.sqlite import SqliteStore

    source = Path(path).resolve()
    with tempfile.TemporaryDirectory(prefix="pace-club-") as folder:
        copy = Path(folder) / "source.db"
        try:
            reading = sqlite3.connect(f"file:{quote(str(source))}?mode=ro", uri=True)
            try:
                recorded = reading.execute(
                    "SELECT name FROM _sqlite_migrations WHERE migration_set = 'pace'"
                )
                applied = [str(r[0]) for r in recorded]
                writing = sqlite3.connect(copy)
                try:
                    reading.backup(writing)
                finally:
                    writing.close()
            finally:
                reading.close()
        except sqlite3.Error as e:
            raise _refuse(path, f"not a pace database ({e})") from None
        if not applied:
            raise _refuse(path, "not a pace database: it records no pace migration")
        newer = [name for name in applied if name not in NAMES]
        if newer:
            raise _refuse(path, f"made by a newer pace (migrations {', '.join(newer)}): import"
                          " it with that version, or export the club there")  # fmt: skip
        store = SqliteStore.open(copy)
        try:
            owners = store.club_owners()
            others = sorted(set(owners) - {DEFAULT_CLUB})
            if others:
                raise _refuse(path, "not a single-club database: it holds clubs"
                              f" {', '.join(others)}; export the club wanted there with"
                              " pace club export")  # fmt: skip
            return store.club_rows(DEFAULT_CLUB)
        finally:
            store.close()

"""The competitions on SQLite: a mixin of :class:`pace.store.sqlite.SqliteStore`, like the
access tables (the same shared connection, one committed transaction per write)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pace.rules.scoring.competition import Cut
from pace.store.competitions import (
    COLUMNS,
    CompetitionRecord,
    checked_competition,
    exists,
    read_competition,
    read_competitions,
)
from pace.store.records import unknown_round
from pace.store.sqlite import db as dbmod


class CompetitionTables:
    """The store's competitions (``SqliteStore`` inherits them)."""

    _db: dbmod.SharedDatabase

    def create_competition(
        self,
        name: str,
        *,
        rounds: Sequence[str],
        scoring: str,
        cut: Cut | None = None,
        created_at: datetime | None = None,
    ) -> CompetitionRecord:
        """Store a competition of stored rounds, all or nothing; return it."""
        row, round_rows = checked_competition(name, rounds, scoring, cut, created_at)
        with self._db.write() as db:
            for _, _, r in round_rows:
                if db.execute("SELECT 1 FROM rounds WHERE name = ?", [r]).fetchone() is None:
                    raise unknown_round(r, field="rounds")
            if db.execute("SELECT 1 FROM competitions WHERE name = ?", [name]).fetchone():
                raise exists(name)
            db.execute(f"INSERT INTO competitions ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", row)
            db.conn.executemany(
                "INSERT INTO competition_rounds (competition, position, round) VALUES (?, ?, ?)",
                round_rows,
            )
            return read_competition(db.execute, name)

    def get_competition(self, name: str) -> CompetitionRecord:
        """Return the competition of that name; raise ``UnknownCompetitionError`` if none."""
        with self._db.read() as db:
            return read_competition(db.execute, name)

    def list_competitions(self, *, round: str | None = None) -> list[CompetitionRecord]:
        """Return every competition by name, or those ``round`` is a round of."""
        with self._db.read() as db:
            return read_competitions(db.execute, round)

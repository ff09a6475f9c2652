"""The competitions on PostgreSQL: the same rows as the SQLite tables
(``pace.store.competitions``), a mixin of :class:`pace.store.pg.repo.PostgresStore`.

A competition is created under its rounds' advisory locks, so it never names a round that
another worker is removing or creating at the same instant.
"""

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
from pace.store.pg.db import PgDatabase
from pace.store.records import unknown_round


class PgCompetitionTables:
    """The store's competitions (``PostgresStore`` inherits them)."""

    _pg: PgDatabase

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
        with self._pg.write(*rounds) as cur:
            for _, _, r in round_rows:
                if cur.execute("SELECT 1 FROM rounds WHERE name = %s", [r]).fetchone() is None:
                    raise unknown_round(r, field="rounds")
            cur.execute(
                f"INSERT INTO competitions ({COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (name) DO NOTHING RETURNING name",
                row,
            )
            if cur.fetchone() is None:
                raise exists(name)
            cur.executemany(
                "INSERT INTO competition_rounds (competition, position, round) VALUES (%s, %s, %s)",
                round_rows,
            )
            return read_competition(cur.execute, name, "%s")

    def get_competition(self, name: str) -> CompetitionRecord:
        """Return the competition of that name; raise ``UnknownCompetitionError`` if none."""
        with self._pg.read() as cur:
            return read_competition(cur.execute, name, "%s")

    def list_competitions(self, *, round: str | None = None) -> list[CompetitionRecord]:
        """Return every competition by name, or those ``round`` is a round of."""
        with self._pg.read() as cur:
            return read_competitions(cur.execute, round, "%s", ' COLLATE "C"')

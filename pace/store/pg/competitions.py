"""The competitions on PostgreSQL: the same rows as the SQLite tables
(``pace.store.competitions``), a mixin of :class:`pace.store.pg.repo.PostgresStore`.

A competition is created under its rounds' advisory locks, so it never names a round that
another worker is removing or creating at the same instant.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pace.rules.scoring.competition import Cut
from pace.store.competitions import (
    COLUMNS,
    CompetitionRecord,
    checked_competition,
    competition_from_rows,
    exists,
    unknown_competition,
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
            return _get(cur, name)

    def get_competition(self, name: str) -> CompetitionRecord:
        """Return the competition of that name; raise ``UnknownCompetitionError`` if none."""
        with self._pg.read() as cur:
            return _get(cur, name)

    def list_competitions(self, *, round: str | None = None) -> list[CompetitionRecord]:
        """Return every competition by name, or those ``round`` is a round of."""
        with self._pg.read() as cur:
            if round is None:
                rows = cur.execute(
                    'SELECT name FROM competitions ORDER BY name COLLATE "C"'
                ).fetchall()
            else:
                rows = cur.execute(
                    "SELECT competition FROM competition_rounds WHERE round = %s"
                    ' ORDER BY competition COLLATE "C"',
                    [round],
                ).fetchall()
            return [_get(cur, str(r[0])) for r in rows]


def _get(cur: Any, name: str) -> CompetitionRecord:
    row = cur.execute(f"SELECT {COLUMNS} FROM competitions WHERE name = %s", [name]).fetchone()
    if row is None:
        raise unknown_competition(name)
    rounds = [
        str(r[0])
        for r in cur.execute(
            "SELECT round FROM competition_rounds WHERE competition = %s ORDER BY position",
            [name],
        ).fetchall()
    ]
    return competition_from_rows(row, rounds)

"""The competitions: events of 2–4 stored rounds, their scoring and their cut (issue 28).

Written once for both engines: the record, the checks and the mixin of the store that reads
and writes them (``CompetitionTables``). The table is ``competitions`` (``events`` is the event
log), its rounds in ``competition_rounds``, in order. A competition is set up once
(``create_competition``); its results are computed from its rounds' logs, never stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pace.rules.errors import SetupError
from pace.rules.scoring.competition import COMPETITION_SCORINGS, Cut, check_competition
from pace.store.errors import CompetitionExistsError, UnknownCompetitionError
from pace.store.instants import from_iso, iso
from pace.store.records import unknown_round
from pace.store.sql.dialect import Database, Dialect, Transaction


@dataclass(frozen=True)
class CompetitionRecord:
    """A stored competition: its rounds in order, its scoring (``gross``, ``net`` or
    ``points``) and its cut (None: every player plays every round)."""

    name: str
    rounds: tuple[str, ...]
    scoring: str
    cut: Cut | None
    created_at: datetime


#: the columns of ``competitions``, in the order :func:`competition_from_rows` reads them
COLUMNS = "name, scoring, cut_after, cut_top, cut_within, created_at"


def checked_competition(
    name: str,
    rounds: Sequence[str],
    scoring: str,
    cut: Cut | None,
    created_at: datetime | None,
) -> tuple[tuple[object, ...], list[tuple[str, int, str]]]:
    """Check a new competition as both engines store it; return its row and its rounds' rows.

    Whether the rounds exist is the engine's to check, in the same transaction.
    """
    check_competition(name, rounds, cut)
    if scoring not in COMPETITION_SCORINGS:
        raise SetupError(
            f"scoring {scoring!r}: expected one of {', '.join(COMPETITION_SCORINGS)}",
            field="scoring",
        )
    at = iso(created_at or datetime.now(UTC), "created_at")
    row = (
        name,
        scoring,
        cut.after if cut else None,
        cut.top if cut else None,
        cut.within if cut else None,
        at,
    )
    return row, [(name, n, r) for n, r in enumerate(rounds, start=1)]


def competition_from_rows(row: Sequence[Any], rounds: Sequence[str]) -> CompetitionRecord:
    """Return a competition from its row (``COLUMNS``) and its rounds in order."""
    name, scoring, after, top, within, created_at = row
    cut = Cut(int(after), top, within) if after is not None else None
    return CompetitionRecord(str(name), tuple(rounds), str(scoring), cut, from_iso(created_at))


def unknown_competition(name: str) -> UnknownCompetitionError:
    shown = name if len(name) <= 60 else name[:60] + "…"
    return UnknownCompetitionError(
        f"competition {shown!r} does not exist; create it with"
        " `pace event create NAME --round R1 --round R2`",
        field="event",
    )


def exists(name: str) -> CompetitionExistsError:
    return CompetitionExistsError(f"competition {name!r} already exists", field="name")


def read_competition(tx: Transaction, name: str) -> CompetitionRecord:
    """Return the competition ``name``; ``UnknownCompetitionError`` if none."""
    row = tx.execute(f"SELECT {COLUMNS} FROM competitions WHERE name = ?", [name]).fetchone()
    if row is None:
        raise unknown_competition(name)
    rounds = tx.execute(
        "SELECT round FROM competition_rounds WHERE competition = ? ORDER BY position", [name]
    ).fetchall()
    return competition_from_rows(row, [str(r[0]) for r in rounds])


class CompetitionTables:
    """The store's competitions (``pace.store.sql.repo.SqlStore`` inherits them), on either
    engine. A competition is created under its rounds' locks (PostgreSQL's advisory locks), so
    it never names a round another worker is creating at the same instant."""

    _db: Database
    dialect: Dialect

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
        row, round_rows = checked_competition(name, rounds, scoring, cut, created_at)
        with self._db.write(*rounds) as tx:
            for _, _, r in round_rows:
                # a round of another club is not there for this club's competition
                found = tx.execute("SELECT club FROM rounds WHERE name = ?", [r]).fetchone()
                if found is None or found[0] != club:
                    raise unknown_round(r, field="rounds")
            made = tx.execute(
                f"INSERT INTO competitions ({COLUMNS}, club) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (name) DO NOTHING RETURNING name",
                [*row, club],
            ).fetchall()
            if not made:
                raise exists(name)
            tx.executemany(
                "INSERT INTO competition_rounds (competition, position, round) VALUES (?, ?, ?)",
                round_rows,
            )
            return read_competition(tx, name)

    def get_competition(self, name: str) -> CompetitionRecord:
        with self._db.read() as tx:
            return read_competition(tx, name)

    def list_competitions(
        self, *, round: str | None = None, club: str | None = None
    ) -> list[CompetitionRecord]:
        binary = self.dialect.binary
        with self._db.read() as tx:
            if round is None and club is not None:
                rows = tx.execute(
                    f"SELECT name FROM competitions WHERE club = ? ORDER BY name{binary}", [club]
                ).fetchall()
            elif round is None:
                rows = tx.execute(f"SELECT name FROM competitions ORDER BY name{binary}").fetchall()
            else:
                rows = tx.execute(
                    "SELECT competition FROM competition_rounds WHERE round = ?"
                    f" ORDER BY competition{binary}",
                    [round],
                ).fetchall()
            return [read_competition(tx, str(r[0])) for r in rows]

"""The competitions: events of 2–4 stored rounds, their scoring and their cut (issue 28).

What both engines share: the record, the checks and the reads through a cursor; each engine's
mixin (``pace.store.sqlite.competitions``, ``pace.store.pg.competitions``) writes and reads
its own tables with them. The table is ``competitions`` (``events`` is the event log), its
rounds in ``competition_rounds``, in order. A competition is set up
once (``create_competition``); its results are computed from its rounds' logs, never stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pace.rules.errors import SetupError
from pace.rules.scoring.competition import COMPETITION_SCORINGS, Cut, check_competition
from pace.store.errors import CompetitionExistsError, UnknownCompetitionError
from pace.store.instants import from_iso, iso


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


#: runs one statement with its parameters, returns a cursor (sqlite3's or psycopg's)
Run = Callable[[str, Sequence[object]], Any]


def read_competition(run: Run, name: str, mark: str = "?") -> CompetitionRecord:
    """Return the competition ``name`` through ``run`` (``mark``: the engine's placeholder)."""
    row = run(f"SELECT {COLUMNS} FROM competitions WHERE name = {mark}", [name]).fetchone()
    if row is None:
        raise unknown_competition(name)
    rounds = run(
        f"SELECT round FROM competition_rounds WHERE competition = {mark} ORDER BY position",
        [name],
    ).fetchall()
    return competition_from_rows(row, [str(r[0]) for r in rounds])


def read_competitions(
    run: Run, round: str | None, mark: str = "?", collate: str = ""
) -> list[CompetitionRecord]:
    """Return every competition by name, or those of ``round`` (``collate``: what makes the
    engine order by bytes, as SQLite does by default; PostgreSQL's ``COLLATE "C"``)."""
    if round is None:
        rows = run(f"SELECT name FROM competitions ORDER BY name{collate}", []).fetchall()
    else:
        rows = run(
            f"SELECT competition FROM competition_rounds WHERE round = {mark}"
            f" ORDER BY competition{collate}",
            [round],
        ).fetchall()
    return [read_competition(run, str(r[0]), mark) for r in rows]

"""Every released schema upgrades to today's, on both engines, its log and its rows unchanged.

The databases in tests/data/schemas/ were made by the code that released each schema
(``make_old_schemas.py`` there, run on the tree before issue 49): one per migration m001 …
m013, on SQLite and on PostgreSQL, holding the rows that schema could hold. Each is loaded as
it was dumped and opened with today's store: the pending steps run, nothing else changes, and
the schema it ends with is the one a new database gets (so the steps written once for both
engines, ``pace.store.sql.schema``, leave the schema the released code left).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pace.rules.events import Event
from pace.store import is_database_url, open_store
from pace.store.sql.schema import NAMES

SCHEMAS = Path(__file__).resolve().parents[1] / "data" / "schemas"


def engine_of(target: str) -> str:
    return "postgresql" if is_database_url(target) else "sqlite"


def load(target: str, step: str) -> None:
    """Write the old database of ``step`` at ``target`` (an empty PostgreSQL database, or a
    file that does not exist yet)."""
    text = (SCHEMAS / engine_of(target) / f"{step}.dump").read_text(encoding="utf-8")
    if is_database_url(target):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute(text)  # type: ignore[call-overload]  # the dump: many statements
        return
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(target)
    try:
        conn.executescript(text)
    finally:
        conn.close()


def query(target: str, sql: str) -> list[tuple[object, ...]]:
    if is_database_url(target):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            return [tuple(r) for r in conn.execute(sql).fetchall()]  # type: ignore[call-overload]
    conn = sqlite3.connect(target)
    try:
        return [tuple(r) for r in conn.execute(sql).fetchall()]
    finally:
        conn.close()


def migration_log(target: str) -> list[tuple[object, ...]]:
    """The database's record of its migrations, with the instants they were applied."""
    if is_database_url(target):
        return query(target, "SELECT name, applied_at FROM pace_migrations ORDER BY applied_at")
    return query(target, "SELECT id, migration_set, name, applied_at FROM _sqlite_migrations"
                         " ORDER BY id")  # fmt: skip


def event_rows(target: str) -> list[tuple[object, ...]]:
    return query(target, "SELECT seq, id, type, round, at, recorded_at, by, payload FROM events"
                         " ORDER BY seq")  # fmt: skip


def schema(target: str) -> list[tuple[object, ...]]:
    """Every table, column, constraint, index, trigger and function, as the engine describes
    them (SQLite: its stored SQL, white space folded)."""
    if not is_database_url(target):
        rows = query(target, "SELECT type, name, tbl_name, sql FROM sqlite_master"
                             " WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")  # fmt: skip
        return [(t, n, tbl, " ".join(str(sql).split())) for t, n, tbl, sql in rows]
    parts = [
        "SELECT 'column', table_name, column_name, data_type, is_nullable,"
        " coalesce(column_default, ''), is_identity, coalesce(identity_generation, '')"
        " FROM information_schema.columns WHERE table_schema = 'public'",
        "SELECT 'constraint', conrelid::regclass::text, conname, pg_get_constraintdef(oid),"
        " '', '', '', '' FROM pg_constraint WHERE connamespace = 'public'::regnamespace",
        "SELECT 'index', tablename, indexname, indexdef, '', '', '', '' FROM pg_indexes"
        " WHERE schemaname = 'public'",
        "SELECT 'trigger', tgrelid::regclass::text, tgname, pg_get_triggerdef(oid), '', '', '',"
        " '' FROM pg_trigger WHERE NOT tgisinternal",
        "SELECT 'function', proname, '', regexp_replace(prosrc, '\\s+', ' ', 'g'), '', '', '', ''"
        " FROM pg_proc WHERE pronamespace = 'public'::regnamespace",
    ]
    return sorted(query(target, " UNION ALL ".join(parts)), key=repr)


def fresh_schema(target: str) -> list[tuple[object, ...]]:
    """The schema today's store gives a new database beside ``target``."""
    if is_database_url(target):
        import psycopg

        name = target.rsplit("/", 1)[1] + "_fresh"
        admin = target.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[call-overload]
        fresh = target.rsplit("/", 1)[0] + "/" + name
        try:
            open_store(fresh).close()
            return schema(fresh)
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')  # type: ignore[call-overload]
    fresh = str(Path(target).with_name("fresh.db"))
    open_store(fresh).close()
    return schema(fresh)


@pytest.mark.parametrize("step", NAMES)
def test_every_released_schema_upgrades_with_its_log_and_rows_unchanged(
    target: str, step: str
) -> None:
    load(target, step)
    log, events = migration_log(target), event_rows(target)
    assert [row[-2] for row in log] == list(NAMES[: NAMES.index(step) + 1])
    assert len(events) == (3 if step >= "m006" else 2)

    with open_store(target) as store:
        assert store.applied_migrations() == list(NAMES)
        # the steps already applied keep their record; the others are added after them
        assert migration_log(target)[: len(log)] == log
        assert event_rows(target) == events
        assert [e.id for e in store.events("R1")] == [str(row[1]) for row in events]
        record = store.get_round("R1")
        assert [g.id for g in record.groups] == ["g1", "g2"]
        assert [p.name for p in record.groups[0].players] == ["Anne Dupont", "Jan Peeters"]
        assert record.course.name == "Les Bruyères" and record.timezone == "Europe/Paris"
        assert record.language == ("nl" if step >= "m011" else None)
        assert store.get_round("R2").positions is (step >= "m013")
        if step >= "m003":
            assert [c.prefix for c in store.access_codes()] == ["AB", "CD"]
            session = store.session("t1")
            assert session is not None and (session.code, session.name) == (2, "Ann")
        if step >= "m007":
            (competition,) = store.list_competitions()
            assert competition.rounds == ("R1", "R2")
        # the log goes on after its last event, and the new store writes every new column
        new, created = store.append(
            Event(id="evt-new", type="hole_completed", round="R1",
                  at=datetime(2025, 6, 1, 7, 0, tzinfo=UTC), payload={"group": "g2", "hole": 1}),
            recorded_at=datetime(2025, 6, 1, 7, 0, 1, tzinfo=UTC),
        )  # fmt: skip
        assert created and new.seq is not None and new.seq > max(int(str(r[0])) for r in events)
        store.update_round("R1", positions=True, rounding="whs")
    with open_store(target) as store:  # opened again: nothing left to apply
        assert store.applied_migrations() == list(NAMES)
    assert migration_log(target)[: len(log)] == log
    assert event_rows(target)[: len(events)] == events
    # upgraded, the database has the very schema a new one gets today
    assert schema(target) == fresh_schema(target)

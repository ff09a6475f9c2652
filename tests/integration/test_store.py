"""The store on both engines: schema, durability, idempotent appends, setup round trips.

Every test that takes ``target`` runs twice: on a real SQLite file and on a real PostgreSQL
database (``tests/engines.py`` starts the server; the PostgreSQL run is skipped, saying why,
only when no PostgreSQL can start). The tests that take ``db_path`` are about the SQLite file
itself (WAL, pragmas, its raw schema).
"""

from __future__ import annotations

import os
import selectors
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from pace.rules.errors import PaceError, SetupError
from pace.rules.events import Event, EventConflictError
from pace.rules.model import Course, Group, Hole, Player
from pace.store import (
    RoundExistsError,
    RoundRecord,
    RoundSummary,
    StorageError,
    Store,
    UnknownCourseError,
    UnknownRoundError,
    is_database_url,
    open_store,
)

REPO = Path(__file__).resolve().parents[2]
DAY = date(2025, 6, 1)
T0 = datetime(2025, 6, 1, 8, 0, tzinfo=UTC)
RECORDED = datetime(2025, 6, 1, 8, 30, tzinfo=UTC)
PARIS_SUMMER = timezone(timedelta(hours=2))

COURSE = Course(
    "Les Bruyères",
    (
        Hole(1, 4, stroke_index=5, length_m=352.5, allotted={2: timedelta(minutes=12)}),
        Hole(2, 3, stroke_index=17, length_m=148),
        Hole(3, 5, stroke_index=1, walk=timedelta(minutes=2, seconds=30)),
    ),
)


def hole_completed(n: int, *, round: str = "R1", group: str = "g1", **changes: object) -> Event:
    fields: dict[str, object] = {
        "id": f"evt-{n:05d}",
        "type": "hole_completed",
        "round": round,
        "at": T0 + timedelta(minutes=n),
        "payload": {"group": group, "hole": n % 18 + 1},
        "by": {"role": "marshal", "device": "phone-1"},
    }
    fields.update(changes)
    return Event(**fields)  # type: ignore[arg-type]


def make_round(store: Store, name: str = "R1") -> None:
    store.save_course(COURSE, imported_at=T0)
    store.create_round(name, course=COURSE.name, day=DAY, timezone="Europe/Paris")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "pace.db"


@pytest.fixture
def store(target: str) -> Iterator[Store]:
    with open_store(target) as opened:
        make_round(opened)
        yield opened


def raw(db_path: Path) -> sqlite3.Connection:
    """A second, plain connection to the file, as another tool would open it."""
    return sqlite3.connect(db_path, isolation_level=None)


def raw_sql(target: str, sql: str) -> None:
    """Run ``sql`` on a second, plain connection to the database, as another tool would."""
    if not is_database_url(target):
        conn = raw(Path(target))
        try:
            conn.execute(sql)
        finally:
            conn.close()
        return
    import psycopg

    with psycopg.connect(target, autocommit=True) as pg:
        pg.execute(sql)


def append_only_error(target: str) -> type[Exception]:
    """Return the error a plain connection gets when it changes the log."""
    if not is_database_url(target):
        return sqlite3.IntegrityError
    import psycopg

    return psycopg.Error


MIGRATION_NAMES = [
    "m001_initial",
    "m002_round_play_and_format",
    "m003_access",
    "m004_scoring_setup",
    "m005_scorer_role",
    "m006_round_scoring",
    "m007_competitions",
    "m008_tees",
    "m009_course_geometry",
    "m010_completion_sources",
    "m011_languages",
    "m012_handicap_readings",
    "m013_positions",
    "m014_clubs",
]


def test_open_applies_the_schema_once(target: str) -> None:
    with open_store(target) as store:
        assert store.applied_migrations() == MIGRATION_NAMES
    with open_store(target) as store:
        assert store.applied_migrations() == MIGRATION_NAMES


# -- schema and connection ------------------------------------------------------------


def migration_records(target: str) -> list[str]:
    """The names the database's own record of its migrations holds, in the order applied."""
    if is_database_url(target):
        import psycopg

        with psycopg.connect(target, autocommit=True) as pg:
            rows = pg.execute("SELECT name FROM pace_migrations ORDER BY applied_at").fetchall()
        return [str(r[0]) for r in rows]
    conn = raw(Path(target))
    try:
        rows = conn.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'pace' ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    return [str(r[0]) for r in rows]


def test_open_creates_the_database_and_applies_the_schema_once(target: str) -> None:
    with open_store(target) as store:
        if not is_database_url(target):
            assert Path(target).exists()  # the file and its folder
        assert store.applied_migrations() == MIGRATION_NAMES
    with open_store(target) as store:
        assert store.applied_migrations() == MIGRATION_NAMES
    # one record a migration: the second opening applied none again (SQLite's record is
    # sqlite-utils' own table, which `sqlite-utils migrate` reads)
    assert migration_records(target) == MIGRATION_NAMES


def test_reopening_keeps_the_setup_and_the_events(target: str) -> None:
    with open_store(target) as store:
        make_round(store)
        store.append(hole_completed(1), recorded_at=RECORDED)
    with open_store(target) as store:
        assert store.get_round("R1").course == COURSE
        assert [e.id for e in store.events("R1")] == ["evt-00001"]


def test_the_file_is_in_wal_mode(db_path: Path) -> None:
    """SQLite's own: its journal (PostgreSQL always writes ahead)."""
    store = open_store(db_path)
    store.close()
    store = open_store(db_path)
    assert store.journal_mode == "wal"
    store.close()
    conn = raw(db_path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        conn.close()


@pytest.mark.parametrize("level", ["OFF", "NORMAL", "FULL", "EXTRA", "normal"])
def test_synchronous_level_is_applied(target: str, level: str) -> None:
    with open_store(target, synchronous=level) as store:
        assert store.synchronous == level.upper()  # type: ignore[attr-defined]
        # what each connection commits with: SQLite's PRAGMA, PostgreSQL's synchronous_commit
        # (FULL and EXTRA wait for the WAL's flush, NORMAL and OFF do not)
        question = "SHOW synchronous_commit" if is_database_url(target) else "PRAGMA synchronous"
        with store._db.read(snapshot=False) as tx:  # type: ignore[attr-defined]
            (value,) = tx.execute(question).fetchone()
        expected = {"OFF": ("off", 0), "NORMAL": ("off", 1), "FULL": ("on", 2), "EXTRA": ("on", 3)}
        assert value == expected[level.upper()][0 if is_database_url(target) else 1]


def test_synchronous_defaults_to_full(store: Store) -> None:
    assert store.synchronous == "FULL"  # type: ignore[attr-defined]


def test_unknown_synchronous_level_is_refused(target: str, db_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous must be one of"):
        open_store(target, synchronous="SOMETIMES")
    assert not db_path.exists()


def test_a_closed_store_refuses_work_with_a_storage_error(target: str) -> None:
    store = open_store(target)
    store.close()
    store.close()
    assert store.closed
    with pytest.raises(StorageError, match="closed") as caught:
        store.count_events()
    assert caught.value.code == "storage_unavailable"


# -- idempotent, append-only event log ------------------------------------------------


def test_append_returns_the_stored_event_with_seq_and_recorded_at(store: Store) -> None:
    event = hole_completed(1, at=datetime(2025, 6, 1, 10, 1, tzinfo=PARIS_SUMMER))
    stored, created = store.append(event, recorded_at=RECORDED)
    assert created
    assert stored.seq == 1
    assert stored.recorded_at == RECORDED
    assert stored.at == datetime(2025, 6, 1, 8, 1, tzinfo=UTC)
    assert stored.at.tzinfo is UTC
    assert (stored.id, stored.type, stored.round) == (event.id, event.type, event.round)
    assert stored.payload == event.payload and stored.by == event.by
    assert store.event(event.id) == stored
    assert store.events("R1") == [stored]


def test_resending_an_event_stores_it_once_and_returns_the_stored_one(store: Store) -> None:
    first, created = store.append(hole_completed(1), recorded_at=RECORDED)
    resend = hole_completed(1, by={"role": "marshal", "device": "phone-2"})
    again, created_again = store.append(resend, recorded_at=RECORDED + timedelta(minutes=5))
    assert created and not created_again
    assert again == first
    assert again.by == {"role": "marshal", "device": "phone-1"}
    assert store.count_events() == 1


@pytest.mark.parametrize(
    "changes, what",
    [
        ({"payload": {"group": "g1", "hole": 3}}, "payload"),
        ({"type": "hole_time_corrected"}, "type"),
        ({"at": T0 + timedelta(minutes=1, seconds=1)}, "at"),
    ],
    ids=["payload", "type", "at"],
)
def test_same_id_with_another_fact_is_a_conflict_and_changes_nothing(
    store: Store, changes: dict[str, object], what: str
) -> None:
    stored, _ = store.append(hole_completed(1), recorded_at=RECORDED)
    with pytest.raises(EventConflictError, match=f"'evt-00001'.*different {what}") as caught:
        store.append(hole_completed(1, **changes), recorded_at=RECORDED)
    assert caught.value.code == "event_conflict"
    assert isinstance(caught.value, PaceError) and isinstance(caught.value, ValueError)
    assert store.events("R1") == [stored]


def test_event_of_an_unknown_round_is_refused(store: Store) -> None:
    with pytest.raises(UnknownRoundError, match="'R9'"):
        store.append(hole_completed(1, round="R9"), recorded_at=RECORDED)
    assert store.count_events() == 0


def test_payload_that_is_not_plain_json_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="payload is not plain JSON"):
        store.append(hole_completed(1, payload={"at": T0}), recorded_at=RECORDED)
    assert store.count_events() == 0


def test_naive_recorded_at_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="no time zone"):
        store.append(hole_completed(1), recorded_at=datetime(2025, 6, 1, 8, 30))


def test_append_many_stores_all_in_order_and_reports_resends(store: Store) -> None:
    store.append(hole_completed(2), recorded_at=RECORDED)
    results = store.append_many([hole_completed(n) for n in (1, 2, 3)], recorded_at=RECORDED)
    assert [created for _, created in results] == [True, False, True]
    assert [e.id for e in store.events("R1")] == ["evt-00002", "evt-00001", "evt-00003"]


def test_append_many_with_a_conflict_in_the_middle_writes_none(store: Store) -> None:
    store.append(hole_completed(2), recorded_at=RECORDED)
    batch = [hole_completed(1), hole_completed(2, payload={"hole": 9}), hole_completed(3)]
    with pytest.raises(EventConflictError, match="'evt-00002'"):
        store.append_many(batch, recorded_at=RECORDED)
    assert [e.id for e in store.events("R1")] == ["evt-00002"]
    # The rolled-back batch leaves the store usable.
    assert store.append(hole_completed(1), recorded_at=RECORDED)[1]


def test_implied_events_commit_without_waiting_for_the_disk_then_the_store_waits_again(
    store: Store, target: str
) -> None:
    """What the log implies (alerts) is committed without the disk's wait: SQLite at
    ``synchronous=NORMAL`` for that one transaction, PostgreSQL with ``synchronous_commit``
    off for it (``SET LOCAL``); every later commit waits again (docs/storage.md, "What waits
    for the disk"). The events are stored and read as any others, all or nothing."""
    statements: list[str] = []
    sqlite = not target.startswith("postgres")
    if sqlite:
        conn = store._db.db.conn  # type: ignore[attr-defined]
        conn.set_trace_callback(statements.append)
    results = store.append_many([hole_completed(n) for n in (1, 2)], recorded_at=RECORDED,
                                implied=True)  # fmt: skip
    assert [created for _, created in results] == [True, True]
    store.append(hole_completed(3), recorded_at=RECORDED)
    assert [e.id for e in store.events("R1")] == ["evt-00001", "evt-00002", "evt-00003"]
    batch = [hole_completed(4), hole_completed(5, round="nope")]
    with pytest.raises(UnknownRoundError):
        store.append_many(batch, recorded_at=RECORDED, implied=True)
    assert store.count_events() == 3
    if sqlite:
        conn.set_trace_callback(None)
        relaxed = statements.index("PRAGMA synchronous=NORMAL")
        assert statements[relaxed + 1] == "BEGIN IMMEDIATE"
        restored = statements.index("PRAGMA synchronous=FULL", relaxed)
        assert "COMMIT" in statements[relaxed:restored]
        # the next append (a fact) commits at the level the store was opened with
        after = statements[restored + 1 :]
        assert "BEGIN IMMEDIATE" in after and "PRAGMA synchronous=NORMAL" not in after[:5]
        # the failed batch relaxed and restored the level too, and rolled back
        last = len(statements) - 1 - statements[::-1].index("PRAGMA synchronous=NORMAL")
        assert "ROLLBACK" in statements[last:]
        assert "PRAGMA synchronous=FULL" in statements[statements.index("ROLLBACK", last) :]
        assert store.synchronous == "FULL"  # type: ignore[attr-defined]
    else:
        with store._db.read(snapshot=False) as tx:  # type: ignore[attr-defined]
            row = tx.execute("SHOW synchronous_commit").fetchone()
        assert row[0] == "on"  # SET LOCAL ended with its transaction


def test_append_many_with_an_unknown_round_writes_none(store: Store) -> None:
    batch = [hole_completed(1), hole_completed(2, round="nope")]
    with pytest.raises(UnknownRoundError):
        store.append_many(batch, recorded_at=RECORDED)
    assert store.count_events() == 0


def test_events_filter_by_type_and_after_seq(store: Store) -> None:
    store.create_round("R2", course=COURSE.name, day=DAY, timezone="Europe/Paris")
    store.append(hole_completed(1), recorded_at=RECORDED)
    store.append(
        hole_completed(2, type="siren", payload={"kind": "suspension"}), recorded_at=RECORDED
    )
    store.append(hole_completed(3, round="R2"), recorded_at=RECORDED)
    store.append(hole_completed(4), recorded_at=RECORDED)
    assert [e.seq for e in store.events("R1")] == [1, 2, 4]
    assert [e.seq for e in store.events("R1", types=["hole_completed"])] == [1, 4]
    assert [e.seq for e in store.events("R1", after_seq=2)] == [4]
    assert store.events("R1", types=[]) == []
    assert store.events("unknown") == []
    assert (store.count_events(), store.count_events("R1"), store.count_events("R2")) == (4, 3, 1)
    assert store.event("missing") is None
    assert (store.last_seq("R1"), store.last_seq("R2"), store.last_seq("unknown")) == (4, 3, 0)


@pytest.mark.parametrize(
    "sql",
    ["UPDATE events SET payload = '{}'", "DELETE FROM events", "UPDATE events SET seq = 99"],
    ids=["update", "delete", "renumber"],
)
def test_the_event_log_refuses_update_and_delete_even_through_raw_sql(
    store: Store, target: str, sql: str
) -> None:
    stored, _ = store.append(hole_completed(1), recorded_at=RECORDED)
    # (PostgreSQL refuses a new seq even before the trigger: it is an identity column)
    with pytest.raises(append_only_error(target), match="append-only|only be updated to DEFAULT"):
        raw_sql(target, sql)
    assert store.events("R1") == [stored]


def test_postgresql_refuses_truncating_the_log_too(pg_url: str) -> None:
    with open_store(pg_url) as store:
        make_round(store)
        stored, _ = store.append(hole_completed(1), recorded_at=RECORDED)
        with pytest.raises(append_only_error(pg_url), match="append-only: TRUNCATE"):
            raw_sql(pg_url, "TRUNCATE events")
        assert store.events("R1") == [stored]


# -- durability ---------------------------------------------------------------------


def test_every_committed_event_survives_a_restart_in_order(target: str) -> None:
    with open_store(target) as store:
        make_round(store)
        appended = [store.append(hole_completed(n), recorded_at=RECORDED)[0] for n in range(200)]
    with open_store(target) as store:
        assert store.events("R1") == appended


def test_events_acked_by_a_process_killed_with_sigkill_are_kept(target: str) -> None:
    with open_store(target) as store:
        make_round(store)
    child = textwrap.dedent(
        f"""
        import sys
        from datetime import datetime, timedelta, UTC
        from pace.rules.events import Event
        from pace.store import open_store
        store = open_store({target!r})
        t0 = datetime(2025, 6, 1, 8, 0, tzinfo=UTC)
        for n in range(50):
            event = Event(f"kill-{{n:03d}}", "hole_completed", "R1", t0 + timedelta(minutes=n),
                          {{"group": "g1", "hole": n % 18 + 1}})
            store.append(event, recorded_at=t0)
        print("appended 50", flush=True)
        sys.stdin.read()  # hold the connection open until killed
        """
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-c", child],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=REPO,
        text=True,
    )
    try:
        line = _read_line(proc, timeout=30)
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=10) == -signal.SIGKILL
        assert line.strip() == "appended 50", proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    with open_store(target) as store:
        ids = [e.id for e in store.events("R1")]
    assert ids == [f"kill-{n:03d}" for n in range(50)]


def _read_line(proc: subprocess.Popen[str], *, timeout: float) -> str:
    """Return the child's first output line, waiting at most ``timeout`` seconds."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            raise AssertionError(f"no output from the child within {timeout} s")
    return proc.stdout.readline()


def test_eight_threads_appending_and_resending_store_each_event_once(store: Store) -> None:
    threads, per_thread = 8, 40
    barrier = threading.Barrier(threads)
    errors: list[BaseException] = []
    created_counts = [0] * threads

    def work(t: int) -> None:
        try:
            barrier.wait(timeout=10)
            for i in range(per_thread):
                mine = hole_completed(t * per_thread + i)
                # Each thread also resends its neighbour's events, racing it.
                theirs = hole_completed(((t + 1) % threads) * per_thread + i)
                for event in (mine, theirs):
                    if store.append(event, recorded_at=RECORDED)[1]:
                        created_counts[t] += 1
        except BaseException as exc:  # reported below, on the test's thread
            errors.append(exc)

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(worker.is_alive() for worker in workers)
    assert errors == []
    events = store.events("R1")
    assert sum(created_counts) == len(events) == threads * per_thread
    assert sorted(e.id for e in events) == [f"evt-{n:05d}" for n in range(threads * per_thread)]
    assert [e.seq for e in events] == sorted({e.seq for e in events if e.seq is not None})


# -- setup: courses, rounds, draws ----------------------------------------------------


DRAW = (
    Group(
        "1",
        datetime(2025, 6, 1, 9, 0, tzinfo=PARIS_SUMMER),
        1,
        (Player("Anne Martin", 4.2, "A", "Golf de Paris"), Player("Bea Roux", None)),
    ),
    Group("2", datetime(2025, 6, 1, 7, 10, tzinfo=UTC), 10, (Player("Chloé Petit", 12),)),
    Group("0b", datetime(2025, 6, 1, 7, 20, tzinfo=UTC), 1),
)


def test_course_round_and_draw_round_trip_as_the_same_dataclasses(store: Store) -> None:
    assert store.get_course(COURSE.name) == COURSE
    assert store.list_courses() == [COURSE]
    store.update_round("R1", policy="r&a", standard_interval=timedelta(minutes=10))
    saved = store.save_draw("R1", DRAW)
    expected = RoundRecord(
        name="R1",
        course=COURSE,
        day=DAY,
        timezone="Europe/Paris",
        policy="r&a",
        standard_interval=timedelta(minutes=10),
        groups=DRAW,
    )
    assert saved == expected
    assert store.get_round("R1") == expected
    assert [g.start.tzinfo for g in store.get_round("R1").groups] == [UTC, UTC, UTC]
    assert store.update_round("R1", standard_interval=None).standard_interval is None
    assert store.update_round("R1").policy == "r&a"


def test_save_draw_replaces_the_previous_draw(store: Store) -> None:
    store.save_draw("R1", DRAW)
    assert store.save_draw("R1", DRAW[1:2]).groups == DRAW[1:2]
    assert store.get_round("R1").groups == DRAW[1:2]


def test_list_rounds_counts_groups_and_events(store: Store) -> None:
    store.create_round("A0", course=COURSE.name, day=DAY, timezone="UTC")
    store.save_draw("R1", DRAW)
    store.append(hole_completed(1), recorded_at=RECORDED)
    assert store.list_rounds() == [
        RoundSummary("A0", COURSE.name, DAY, 0, 0),
        RoundSummary("R1", COURSE.name, DAY, 3, 1),
    ]


def test_save_draw_is_refused_once_the_round_has_events(store: Store) -> None:
    store.save_draw("R1", DRAW)
    store.append(hole_completed(1), recorded_at=RECORDED)
    with pytest.raises(SetupError, match="'R1' already has 1 event"):
        store.save_draw("R1", DRAW[:1])
    assert store.get_round("R1").groups == DRAW


def test_save_draw_with_a_duplicate_group_id_writes_nothing(store: Store) -> None:
    store.save_draw("R1", DRAW)
    with pytest.raises(SetupError, match="'1' appears twice") as caught:
        store.save_draw("R1", [DRAW[0], DRAW[1], DRAW[0]])
    assert caught.value.field == "groups[2]"
    assert store.get_round("R1").groups == DRAW


def test_changing_the_holes_of_a_course_in_play_is_refused(store: Store) -> None:
    store.append(hole_completed(1), recorded_at=RECORDED)
    store.save_course(COURSE)  # same holes: fine
    changed = Course(COURSE.name, COURSE.holes[:2])
    with pytest.raises(SetupError, match="'R1'"):
        store.save_course(changed)
    assert store.get_course(COURSE.name) == COURSE


def test_a_course_without_events_can_be_replaced(store: Store) -> None:
    changed = Course(COURSE.name, COURSE.holes[:2])
    store.save_course(changed)
    assert store.get_round("R1").course == changed


def test_a_course_in_play_takes_its_map_and_keeps_it_apart(store: Store) -> None:
    """issue 40: the holes' geometry is stored beside the course (its own table), replaced
    whole, and may be added while a round on the course has events."""
    assert store.get_geometry(COURSE.name) is None
    store.append(hole_completed(1), recorded_at=RECORDED)
    first = {"source": "a.osm", "holes": [{"number": 1, "line": [[4.5, 50.8], [4.51, 50.81]]}]}
    store.save_geometry(COURSE.name, first, imported_at=RECORDED)
    assert store.get_geometry(COURSE.name) == first
    second = {**first, "source": "b.geojson"}
    store.save_geometry(COURSE.name, second, imported_at=RECORDED)
    assert store.get_geometry(COURSE.name) == second
    assert store.get_course(COURSE.name) == COURSE  # the course itself untouched
    with pytest.raises(UnknownCourseError):
        store.save_geometry("Nowhere", first, imported_at=RECORDED)


def test_unknown_round_and_course_raise_lookup_errors(store: Store) -> None:
    with pytest.raises(UnknownRoundError, match="'R9'") as caught:
        store.get_round("R9")
    assert caught.value.code == "unknown_round" and isinstance(caught.value, LookupError)
    with pytest.raises(UnknownRoundError):
        store.save_draw("R9", DRAW)
    with pytest.raises(UnknownRoundError):
        store.update_round("R9", policy="frbg")
    with pytest.raises(UnknownCourseError, match="'Nowhere'") as course_error:
        store.get_course("Nowhere")
    assert course_error.value.code == "unknown_course"
    with pytest.raises(UnknownCourseError) as create_error:
        store.create_round("R2", course="Nowhere", day=DAY, timezone="UTC")
    assert create_error.value.field == "course"


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"name": "R1"}, "name"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"standard_interval": timedelta(0)}, "standard_interval"),
        ({"policy": ""}, "policy"),
    ],
    ids=["duplicate-name", "bad-timezone", "zero-interval", "no-policy"],
)
def test_create_round_refuses_bad_setup_with_the_field(
    store: Store, changes: dict[str, object], field: str
) -> None:
    arguments: dict[str, object] = {
        "name": "R2",
        "course": COURSE.name,
        "day": DAY,
        "timezone": "Europe/Paris",
    }
    arguments.update(changes)
    with pytest.raises(SetupError) as caught:
        store.create_round(**arguments)  # type: ignore[arg-type]
    assert caught.value.field == field
    if field == "name":
        assert isinstance(caught.value, RoundExistsError)
    assert [r.name for r in store.list_rounds()] == ["R1"]


def test_two_stores_on_one_database_append_together_without_errors(target: str) -> None:
    # A CLI import while the server runs, or two workers: two connections (pools), each
    # behind its own lock; SQLite's BEGIN IMMEDIATE and busy timeout, PostgreSQL's round
    # lock, serialise their write transactions.
    with open_store(target) as server, open_store(target) as cli:
        make_round(server)
        errors: list[BaseException] = []

        def work(store: Store, offset: int) -> None:
            try:
                for n in range(offset, offset + 100):
                    store.append(hole_completed(n), recorded_at=RECORDED)
                    store.append(hole_completed(n + 100 - 2 * offset), recorded_at=RECORDED)
            except BaseException as exc:  # reported below, on the test's thread
                errors.append(exc)

        workers = [
            threading.Thread(target=work, args=(server, 0)),
            threading.Thread(target=work, args=(cli, 100)),
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        assert errors == []
        assert sorted(e.id for e in cli.events("R1")) == [f"evt-{n:05d}" for n in range(200)]


def test_a_round_keeps_its_form_of_play_and_scoring_format(target: str) -> None:
    with open_store(target) as store:
        store.save_course(Course("c", (Hole(1, 4),)))
        r = store.create_round(
            "R", course="c", day=date(2025, 6, 14), timezone="UTC", play="match_play",
            format="foursome",
        )  # fmt: skip
        assert (r.play, r.format) == ("match_play", "foursome")
        assert store.update_round("R", play="stroke_play").play == "stroke_play"
        with pytest.raises(SetupError, match="format 'scramble'"):
            store.update_round("R", format="scramble")


def test_scoring_setup_survives_the_store(target: str) -> None:
    # issue 11: slope, rating and a hole's bogey; the draw's class and match
    course = Course(
        "Scored",
        (Hole(1, 4, stroke_index=1, bogey=4), Hole(2, 3, stroke_index=2)),
        slope=128,
        rating=70.4,
    )
    players = (
        Player("Ann", -1.2, "a", None, "AA", "m1"),
        Player("Bob", 20.1, "b", "Club", None, "m1"),
    )
    with open_store(target) as store:
        store.save_course(course, imported_at=T0)
        store.create_round("S", course="Scored", day=DAY, timezone="Europe/Paris")
        store.save_draw("S", (Group("1", T0, 1, players),))
    with open_store(target) as store:
        assert store.get_course("Scored") == course
        assert store.get_round("S").groups[0].players == players
        assert store.get_course("Scored").hole(2).bogey is None


def old_schema(target: str, stop_before: str) -> None:
    """Write a database at ``target`` with the migrations before ``stop_before`` only."""
    if is_database_url(target):
        from pace.store.pg import migrations as pg_migrations
        from pace.store.pg.db import PgDatabase

        db = PgDatabase(target)
        db.open()
        try:
            pg_migrations.apply(db, stop_before=stop_before)
        finally:
            db.close()
        return
    from pace.store.sqlite import db as dbmod
    from pace.store.sqlite import migrations

    shared = dbmod.open_db(target)
    try:
        migrations.apply(shared, stop_before=stop_before)
    finally:
        shared.close()


def test_upgrading_a_database_keeps_its_codes_and_sessions_and_opens_the_scorer_role(
    target: str,
) -> None:
    # a database as issue 9 shipped it (m001–m004), with a code and a session opened with it
    from pace.store import SessionRecord

    old_schema(target, "m005_scorer_role")
    raw_sql(
        target,
        "INSERT INTO access_codes (round, role, prefix, hash, label, created_at)"
        " VALUES ('R1', 'marshal', 'AB', 'scrypt$x', 'hole 7', '2026-06-14T06:00:00.000000+00:00')",
    )
    raw_sql(
        target,
        "INSERT INTO sessions (token_hash, role, round, code, name, created_at, expires_at)"
        " VALUES ('t1', 'marshal', 'R1', 1, 'Ann', '2026-06-14T06:00:00.000000+00:00',"
        " '2026-06-14T22:00:00.000000+00:00')",
    )
    assert migration_records(target) == MIGRATION_NAMES[:4]
    with open_store(target) as store:
        assert store.applied_migrations() == MIGRATION_NAMES  # m005 onwards applied
        (code,) = store.access_codes(round="R1")
        assert (code.id, code.role, code.label, code.hash) == (1, "marshal", "hole 7", "scrypt$x")
        session = store.session("t1")
        assert session is not None and (session.code, session.name) == (1, "Ann")
        new = store.add_access_code(
            round=None, role="scorer", prefix="CD", hash="scrypt$y", label=None,
            created_at=RECORDED,
        )  # fmt: skip
        assert new == 2  # the ids go on from the old table's
        store.add_session(SessionRecord("t2", "scorer", None, new, None, RECORDED, RECORDED))
    # the roles' CHECK is the new one, on both tables
    refused = sqlite3.IntegrityError if not is_database_url(target) else Exception
    with pytest.raises(refused, match="(?i)check"):
        raw_sql(target, "UPDATE sessions SET role = 'captain' WHERE token_hash = 't2'")
    with pytest.raises(refused, match="(?i)check"):
        raw_sql(target, "UPDATE access_codes SET role = 'captain' WHERE id = 2")
    if not is_database_url(target):  # SQLite rebuilt both tables: the foreign key follows
        conn = raw(Path(target))
        try:
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
            sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'sessions'").fetchone()
            assert "REFERENCES access_codes(id)" in sql[0].replace('"', "")
        finally:
            conn.close()


def test_a_commit_runs_where_the_store_offloads_it_and_its_caller_resumes_once_done(tmp_path):
    """SQLite's own (PostgreSQL's commits wait on the hub through psycopg's gevent support).

    pace serve hands commits to gevent's thread pool (issue 13, point 6): the commit runs
    there, and the write returns only once it is on the file."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from pace.store.sqlite import db as dbmod

    shared = dbmod.open_db(tmp_path / "x.db")
    pool = ThreadPoolExecutor(1, thread_name_prefix="committer")
    ran: list[str] = []

    def offload(fn):
        def run():
            ran.append(threading.current_thread().name)
            return fn()

        return pool.submit(run).result()

    try:
        shared.offload = offload
        with shared.write() as db:
            db.execute("CREATE TABLE t (x INTEGER)")
            db.execute("INSERT INTO t VALUES (1)")
        assert ran and all(name.startswith("committer") for name in ran)
        other = sqlite3.connect(tmp_path / "x.db")  # another connection sees it committed
        try:
            assert other.execute("SELECT x FROM t").fetchall() == [(1,)]
        finally:
            other.close()
    finally:
        shared.close()
        pool.shutdown()


def test_commits_run_here_while_the_disk_is_fast_and_in_the_pool_for_a_while_after_a_slow_one(
    tmp_path,
):
    """``pace serve``'s commits (``SlowDiskOffload``): on the hub while each commit is fast, in
    the thread pool for the next ``window`` commits once one was slow; each is timed where it
    runs, so the pool's hand-over does not keep it there. The disk's time is a fake clock's."""
    from pace.store.sqlite import db as dbmod

    now = [0.0]
    took = [0.0005]  # what the next commit's fsync takes
    where: list[str] = []

    def clock() -> float:
        return now[0]

    def pool(fn):
        where.append("pool")
        now[0] += 0.010  # the hand-over is slow: not the disk's time
        return fn()

    offload = dbmod.SlowDiskOffload(pool, slow=0.004, window=3, clock=clock)
    shared = dbmod.open_db(tmp_path / "x.db")
    inner = shared.db.conn

    class Timed:  # the connection, its COMMIT taking the fake disk's time
        def __getattr__(self, name):
            return getattr(inner, name)

        def execute(self, sql, *args):
            if sql == "COMMIT":
                where.append("commit")
                now[0] += took[0]
            return inner.execute(sql, *args)

    try:
        shared.db.conn = Timed()  # type: ignore[assignment]
        shared.offload = offload

        def commit(value: int) -> str:
            where.clear()
            with shared.write() as db:
                db.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
                db.execute("INSERT INTO t VALUES (?)", [value])
            return {("pool", "commit"): "pool", ("commit",): "here"}.get(tuple(where), str(where))

        assert [commit(i) for i in range(3)] == ["here"] * 3
        took[0] = 0.020  # the disk slows down: this one still ran here, the next go to the pool
        assert commit(3) == "here"
        took[0] = 0.0005
        assert [commit(i) for i in range(4, 8)] == ["pool", "pool", "pool", "here"]
        took[0] = 0.020  # slow while pooled: the window starts again
        assert commit(8) == "here"
        assert commit(9) == "pool"
        assert commit(10) == "pool"
        took[0] = 0.0005
        assert [commit(i) for i in range(11, 15)] == ["pool", "pool", "pool", "here"]
        other = sqlite3.connect(tmp_path / "x.db")  # every one of them is on the file
        try:
            assert other.execute("SELECT count(*) FROM t").fetchone() == (15,)
        finally:
            other.close()
    finally:
        shared.db.conn = inner
        shared.close()


def test_a_round_keeps_where_its_completions_come_from(store: Store) -> None:
    assert store.get_round("R1").completions == "officials"  # the default: today's behaviour
    assert store.update_round("R1", completions="groups").completions == "groups"
    assert store.get_round("R1").completions == "groups"
    with pytest.raises(SetupError, match="completions 'marshals' must be one of"):
        store.update_round("R1", completions="marshals")
    assert store.get_round("R1").completions == "groups"


def test_a_round_keeps_its_language_and_each_player_his(target: str) -> None:
    # issue 41: the committee's language for the round's documents, a player's for his letter
    with open_store(target) as store:
        make_round(store)
        assert store.get_round("R1").language is None
        store.update_round("R1", language="nl")
        at = datetime(2026, 6, 14, 8, 0, tzinfo=UTC)
        store.save_draw("R1", [
            Group("1", at, 1, (Player("Jan Peeters", language="nl"), Player("Anne Dubois"))),
            Group("2", at + timedelta(minutes=10), 1, (Player("Tom Smith", language="en"),)),
        ])  # fmt: skip
    with open_store(target) as store:
        rec = store.get_round("R1")
        assert rec.language == "nl"
        assert [p.language for g in rec.groups for p in g.players] == ["nl", None, "en"]
        with pytest.raises(SetupError):
            store.update_round("R1", language="de")
        store.update_round("R1", language=None)
        assert store.get_round("R1").language is None


def test_the_shared_sql_runs_on_both_engines_with_its_placeholders_and_a_literal_percent(
    store: Store,
) -> None:
    # the store's SQL is written once with ``?``; PostgreSQL's transaction turns them into
    # psycopg's ``%s`` and keeps a literal ``%`` (a LIKE pattern) as it is
    with store._db.read(snapshot=False) as tx:  # type: ignore[attr-defined]
        (found,) = tx.execute(
            "SELECT count(*) FROM rounds WHERE name LIKE '%1' AND course = ?", [COURSE.name]
        ).fetchone()
        (none,) = tx.execute("SELECT count(*) FROM rounds WHERE name LIKE 'X%'").fetchone()
    assert (found, none) == (1, 0)


def test_a_sqlite_older_than_returning_is_refused_with_what_it_needs(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's own: the shared SQL's RETURNING needs SQLite 3.35."""
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 34, 1))
    monkeypatch.setattr(sqlite3, "sqlite_version", "3.34.1")
    with pytest.raises(StorageError, match=r"SQLite 3\.35\.0 or later; this Python has 3\.34\.1"):
        open_store(db_path)
    assert not db_path.exists()

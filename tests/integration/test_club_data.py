"""A club's data is the club's (issue 50, item 4): ``pace club export|delete|import``.

Every test that touches the store runs on a real SQLite file and on a real PostgreSQL
database (``target``). Two clubs, ``alpha`` and ``bravo``, each hold courses (one with a
map), two rounds with their draws and logs, a competition, people (one of them in both
clubs), access codes, sessions and access-log lines; every text of alpha's says ``alpha``
and none of bravo's does, so a row's owner can be read from the row. Then:

- export → delete → import gives back the same rows, every event byte for byte but its seq;
- a delete removes every row of alpha's and nothing else (full dumps of every table, before
  and after), lifting the log's append-only triggers only inside its transaction: after it
  they read back as m001 made them (a database of an older release's too) and still refuse
  UPDATE and DELETE, a delete that fails after lifting them rolls everything back, triggers
  included, and a trigger dropped or changed by hand refuses the delete;
- a single-club SQLite database made with the CLI (``pace init``, ``import course``,
  ``import draw``, ``import times``, more events) imports onto PostgreSQL as one club, its log
  unchanged, the source file untouched; so does a database of an older pace (m013);
- a name already taken refuses the whole import, naming every clash, with nothing written;
- hostile input (an unknown club, a Cyrillic look-alike letter in a club id, a truncated or
  forged export, a file that is not pace's, another federation's database) is refused with
  a clear message and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from builders import make_course, make_group
from click.testing import CliRunner, Result
from drivers import COURSE, DRAW, TIMES

from pace.cli import cli
from pace.clock import FakeClock
from pace.formats import clubfile
from pace.rules.errors import FileFormatError, PaceError
from pace.rules.events import Event, canonical_json
from pace.services import clubdata
from pace.store import SessionRecord, StorageError, is_database_url, open_store
from pace.store.errors import ClubExistsError, UnknownClubError
from pace.store.sql import clubdata as storeclubs
from pace.store.sql.clubdata import SECTIONS, ClubNameClashError, log_triggers

T0 = datetime(2025, 6, 1, 8, 0, tzinfo=UTC)
SCHEMAS = Path(__file__).resolve().parents[1] / "data" / "schemas"

#: every table of the schema: what a full dump reads
TABLES = ("clubs", "courses", "course_geometry", "rounds", "groups", "players", "events",
          "competitions", "competition_rounds", "accounts", "memberships", "access_log",
          "sessions", "access_codes", "app_secrets")  # fmt: skip
#: a look-alike: "rgc-antwerp" with a Cyrillic а (U+0430) for the Latin a
LOOKALIKE = "rgc-\u0430ntwerp"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0 + timedelta(days=30))


# -- the two clubs -----------------------------------------------------------------------------


def populate(store, club: str, *, shared=None):  # type: ignore[no-untyped-def]
    """Give ``club`` (made here) everything a club owns; every text of it says ``club``.
    ``shared``: an account given a role here too. Return the club's own account."""
    store.add_club(club, f"Golf {club.title()}", created_at=T0)
    course = make_course(pars=[4, 3, 5], name=f"Course {club}")
    store.save_course(course, imported_at=T0, club=club)
    store.save_course(make_course(pars=[3, 3], name=f"Pitch {club}"), imported_at=T0, club=club)
    store.save_geometry(course.name, {"holes": [{"number": 1, "tee": [4.401, 50.8]}],
                                      "name": f"Bruyère {club}"}, imported_at=T0)  # fmt: skip
    rounds = [f"{club} R1", f"{club} R2"]
    for n, name in enumerate(rounds, start=1):
        store.create_round(name, course=course.name, day=date(2025, 6, n),
                           timezone="Europe/Brussels", created_at=T0, scoring="stroke",
                           net=True, allowance=[95], club=club)  # fmt: skip
        store.save_draw(name, [make_group("1", "08:00"), make_group("2", "08:10", tee=10)])
    store.update_round(rounds[1], language="nl", completions="groups", positions=True)
    store.create_competition(f"{club} Championship", rounds=rounds, scoring="net",
                             created_at=T0, club=club)  # fmt: skip
    events = [
        Event(f"{club}-e{i}", "hole_completed", rounds[i % 2],
              T0 + timedelta(minutes=i), {"group": "1", "hole": 1 + i // 2, "note": "été ✓",
                                          "x": 0.1 + 0.2},  # fmt: skip
              by={"role": "marshal", "device": f"{club}-phone", "name": "Zoë"})
        for i in range(8)
    ]
    store.append_many(events[:5], recorded_at=T0 + timedelta(hours=1))
    store.append_many(events[5:], recorded_at=T0 + timedelta(hours=2))
    own = store.add_account(email=f"{club}@club.be", name=f"Anna {club}",
                            password="$argon2id$v=19$not-a-real-hash", admin=False,
                            created_at=T0)  # fmt: skip
    store.set_setup(own.id, f"{club}-setup-digest", T0 + timedelta(days=7))
    store.set_membership(own.id, club, "committee")
    if shared is not None:
        store.set_membership(shared.id, club, "referee")
    store.log_access(at=T0, kind="sign_in", club=club, account=own.id, who=own.email,
                     detail="committee", remote="10.0.0.1")  # fmt: skip
    store.log_access(at=T0, kind="sign_in_failed", club=club, who=f"nobody-{club}@x.be")
    code = store.add_access_code(round=rounds[0], role="marshal", prefix=f"{club[:2]}12",
                                 hash=f"{club}-hash", label="hole 7", created_at=T0)  # fmt: skip
    until = T0 + timedelta(days=1)
    store.add_session(SessionRecord(f"{club}-s1", "committee", None, None, own.name, T0, until,
                                    None, club, own.id))  # fmt: skip
    store.add_session(SessionRecord(f"{club}-s2", "marshal", rounds[0], code, f"{club} m", T0,
                                    until, None, club, None))  # fmt: skip
    # a session of before clubs (m014): its club unset, its round the club's
    store.add_session(SessionRecord(f"{club}-s3", "viewer", rounds[1], None, None, T0, until))
    return own


@pytest.fixture
def store(target: str) -> Iterator:  # type: ignore[type-arg]
    with open_store(target) as opened:
        shared = opened.add_account(email="shared@federation.be", name="Sam Referee",
                                    password=None, admin=False, created_at=T0)  # fmt: skip
        populate(opened, "alpha", shared=shared)
        populate(opened, "bravo", shared=shared)
        yield opened


def dump(store) -> dict[str, list[tuple[object, ...]]]:  # type: ignore[no-untyped-def]
    """Every row of every table, in a stable order."""
    out = {}
    with store._db.read() as tx:
        for table in TABLES:
            out[table] = sorted((tuple(r) for r in tx.execute(f"SELECT * FROM {table}")), key=repr)
    return out


def mentions(row: tuple[object, ...], club: str) -> bool:
    return any(isinstance(v, str) and club in v for v in row)


def raw_events(store, rounds) -> list[tuple[object, ...]]:  # type: ignore[no-untyped-def]
    """The stored log of ``rounds``: every column as the database holds it, in seq order."""
    marks = ", ".join("?" for _ in rounds)
    with store._db.read() as tx:
        return [tuple(r) for r in tx.execute(
            f"SELECT seq, id, type, round, at, recorded_at, by, payload FROM events"
            f" WHERE round IN ({marks}) ORDER BY seq", list(rounds))]  # fmt: skip


def without_seq(rows):  # type: ignore[no-untyped-def]
    return {s: [{k: v for k, v in r.items() if k != "seq"} for r in rs] for s, rs in rows.items()}


def plain(target: str):  # type: ignore[no-untyped-def]
    """A second, plain connection to the database, as another tool would open it."""
    if is_database_url(target):
        import psycopg

        return psycopg.connect(target, autocommit=True)
    return sqlite3.connect(target, isolation_level=None)


def refused(target: str, sql: str) -> str:
    """Run ``sql`` on a plain connection; return the database's refusal (it must refuse)."""
    conn = plain(target)
    try:
        conn.execute(sql)
    except Exception as e:  # sqlite3.IntegrityError, psycopg's IntegrityConstraintViolation
        return str(e)
    finally:
        conn.close()
    raise AssertionError(f"{sql!r} was not refused")


# -- export → delete → import ------------------------------------------------------------------


def test_export_delete_import_gives_back_the_same_rows_and_the_log_byte_for_byte(
    store, clock, tmp_path
):
    head, before = store.club_rows("alpha")
    rounds = [r["name"] for r in before["rounds"]]
    log_before = raw_events(store, rounds)
    assert len(log_before) == 8 and {s: len(v) for s, v in before.items()} == {
        "courses": 2, "course_geometry": 1, "rounds": 2, "groups": 4, "players": 16,
        "competitions": 1, "competition_rounds": 2, "events": 8, "people": 2, "access_log": 2,
    }  # fmt: skip
    text = clubdata.export_club(store, "alpha", clock)
    exported = tmp_path / "alpha.club.jsonl"
    exported.write_text(text, encoding="utf-8")
    # the export holds no password hash and no setup link
    assert "argon2" not in text and "setup-digest" not in text and "alpha-hash" not in text

    clubdata.delete_club(store, "alpha", clock, by="test")
    assert store.club("alpha") is None and raw_events(store, rounds) == []
    last_seq = max(r[0] for r in raw_events(store, ["bravo R1", "bravo R2"]))

    clock.advance(minutes=5)
    read, done = clubdata.import_club(store, exported, "alpha", clock, by="test")
    assert (read.kind, done.made, done.counts["events"]) == ("export", True, 8)
    assert done.new_accounts == ("alpha@club.be",)  # the shared account was there
    head_after, after = store.club_rows("alpha")
    assert head_after["name"] == head["name"] == "Golf Alpha"
    # the access log gets one line more: the import itself
    imported = after["access_log"].pop()
    assert imported["kind"] == "club_imported" and "alpha.club.jsonl" in imported["detail"]
    assert without_seq(after) == without_seq(before)
    # every event byte for byte: id, type, round, at, recorded_at, by, payload; seq is ours
    log_after = raw_events(store, rounds)
    assert [r[1:] for r in log_after] == [r[1:] for r in log_before]
    assert all(r[0] > last_seq for r in log_after)
    # the course and the map as stored, the people with no password yet
    person = store.account_by_email("alpha@club.be")
    assert person is not None and person.password is None
    assert store.memberships(person.id) == {"alpha": "committee"}
    # and exported again: the same rows
    again = clubfile.parse(clubdata.export_club(store, "alpha", clock), "again")
    again.rows["access_log"].pop()
    assert without_seq(again.rows) == without_seq(clubfile.parse(text, "first").rows)


def test_the_export_names_no_other_club_and_every_column_the_tables_hold(store, clock):
    text = clubdata.export_club(store, "alpha", clock)
    assert "bravo" not in text
    # every column of a club's tables is in the file, or is left out on purpose
    left_out = {"courses": {"club"}, "rounds": {"club"}, "competitions": {"club"}}
    with store._db.read() as tx:
        for section, columns in SECTIONS.items():
            if section in ("people", "access_log"):
                continue  # made from accounts, memberships and the log: read below
            names = [d[0] for d in tx.execute(f"SELECT * FROM {section} WHERE 1 = 0").description]
            assert set(names) - left_out.get(section, set()) == set(columns), section
        accounts = [d[0] for d in tx.execute("SELECT * FROM accounts WHERE 1 = 0").description]
        log = [d[0] for d in tx.execute("SELECT * FROM access_log WHERE 1 = 0").description]
    # never a password hash nor a setup link; an account's number is this instance's
    assert set(accounts) - {"id", "password", "setup_hash", "setup_expires", "admin"} == {
        "email", "name", "created_at", "disabled_at"}  # fmt: skip
    assert set(log) - {"id", "club"} == set(SECTIONS["access_log"])
    # the file's sections are the store's, column for column
    assert {s: tuple(c) for s, c in clubfile.SECTIONS.items()} == SECTIONS


# -- delete ------------------------------------------------------------------------------------


def test_delete_removes_every_row_of_the_club_and_nothing_of_another(store, clock, target):
    before = dump(store)
    held = clubdata.delete_club(store, "alpha", clock, by="pace club delete")
    after = dump(store)
    assert held.counts == {
        "courses": 2, "maps": 1, "rounds": 2, "groups": 4, "players": 16, "events": 8,
        "competitions": 1, "memberships": 2, "sessions": 3, "access_codes": 1,
        "access_log": 2, "accounts": 1,
    }  # fmt: skip
    assert held.accounts == ("alpha@club.be",)
    for table in TABLES:
        new = set(after[table]) - set(before[table])
        if table == "access_log":  # the removal, in the instance's own log
            assert len(new) == 1
            (line,) = new
            assert "club_deleted" in line and None in line and "alpha: Golf Alpha removed" in (
                " ".join(str(v) for v in line))
        else:
            assert not new, f"{table} gained {new}"
        gone = set(before[table]) - set(after[table])
        # every row removed is alpha's, and every row of alpha's is removed
        assert all(mentions(r, "alpha") for r in gone), f"{table}: {gone}"
        assert not [r for r in after[table] if mentions(r, "alpha") and r not in new], table
    # the other club's rows, table by table: the same before and after
    for table in TABLES:
        kept = [r for r in before[table] if mentions(r, "bravo")]
        assert kept == [r for r in after[table] if mentions(r, "bravo")], table
    # the account in both clubs stays, with its role in bravo only
    shared = store.account_by_email("shared@federation.be")
    assert shared is not None and store.memberships(shared.id) == {"bravo": "referee"}
    assert store.account_by_email("alpha@club.be") is None
    with pytest.raises(UnknownClubError):
        store.club_rows("alpha")


def test_after_a_delete_the_log_triggers_are_back_and_still_refuse(store, clock, target):
    with store._db.read() as tx:
        made_by_m001 = log_triggers(tx, store.dialect)
    assert made_by_m001  # (SQLite: two triggers; PostgreSQL: two, and a TRUNCATE one)
    clubdata.delete_club(store, "alpha", clock)
    with store._db.read() as tx:
        assert log_triggers(tx, store.dialect) == made_by_m001
    path = target if is_database_url(target) else str(store.path)
    assert "append-only: UPDATE refused" in refused(path, "UPDATE events SET payload = '{}'")
    assert "append-only: DELETE refused" in refused(path, "DELETE FROM events")
    if is_database_url(target):
        assert "append-only: TRUNCATE refused" in refused(path, "TRUNCATE events")
    assert len(raw_events(store, ["bravo R1", "bravo R2"])) == 8


def load_dump(target: str, step: str) -> None:
    """Write the database a released pace made at ``step`` (tests/data/schemas) at ``target``."""
    engine = "postgresql" if is_database_url(target) else "sqlite"
    text = (SCHEMAS / engine / f"{step}.dump").read_text(encoding="utf-8")
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


def test_a_database_made_by_an_older_pace_gets_its_own_triggers_back(target, clock):
    # its m001 ran in an older release, whose SQL was indented otherwise: SQLite keeps that
    # text, and the delete puts it back byte for byte
    load_dump(target, "m013_positions")
    with open_store(target) as s:
        with s._db.read() as tx:
            before = log_triggers(tx, s.dialect)
        held = clubdata.delete_club(s, "default", clock)
        assert held.counts["events"] >= 3 and s.count_events() == 0
        with s._db.read() as tx:
            assert log_triggers(tx, s.dialect) == before
        s.save_course(make_course(pars=[4], name="New"), imported_at=T0)
        s.create_round("New R1", course="New", day=date(2025, 6, 9), timezone="UTC")
        s.append(Event("new-1", "hole_completed", "New R1", T0, {"group": "1", "hole": 1}),
                 recorded_at=T0)  # fmt: skip
    assert "append-only: UPDATE refused" in refused(target, "UPDATE events SET payload = '{}'")
    assert "append-only: DELETE refused" in refused(target, "DELETE FROM events")


@pytest.mark.parametrize("change", ["dropped", "altered"])
def test_a_log_whose_trigger_was_changed_by_hand_is_not_touched(store, clock, target, change):
    path = target if is_database_url(target) else str(store.path)
    pg = is_database_url(target)
    name = "events_no_update_or_delete" if pg else "events_no_delete"
    statements = [f"DROP TRIGGER {name} ON events" if pg else f"DROP TRIGGER {name}"]
    if change == "altered":  # the same name, refusing no DELETE any more
        statements.append(
            f"CREATE TRIGGER {name} BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION"
            " pace_events_append_only()" if pg
            else f"CREATE TRIGGER {name} BEFORE DELETE ON events BEGIN SELECT 1; END"
        )  # fmt: skip
    conn = plain(path)
    try:
        for sql in statements:
            conn.execute(sql)
    finally:
        conn.close()
    before = dump(store)
    said = "is missing" if change == "dropped" else "is not the one pace made"
    with pytest.raises(PaceError, match=f"append-only trigger {name} {said}") as e:
        clubdata.delete_club(store, "alpha", clock)
    assert e.value.code == "log_unguarded" and dump(store) == before


def test_a_delete_that_fails_after_lifting_the_triggers_rolls_all_of_it_back(
    store, clock, target, monkeypatch
):
    before = dump(store)
    with store._db.read() as tx:
        triggers = log_triggers(tx, store.dialect)
    calls = []

    def lying(tx, dialect):  # type: ignore[no-untyped-def]
        calls.append(1)
        read = log_triggers(tx, dialect)
        # read before, read to lift them, then after: "a trigger did not come back"
        return read if len(calls) < 3 else read[1:]

    monkeypatch.setattr(storeclubs, "log_triggers", lying)
    with pytest.raises(RuntimeError, match="did not read back"):
        clubdata.delete_club(store, "alpha", clock)
    monkeypatch.undo()
    assert dump(store) == before
    with store._db.read() as tx:
        assert log_triggers(tx, store.dialect) == triggers
    path = target if is_database_url(target) else str(store.path)
    assert "append-only" in refused(path, "DELETE FROM events WHERE round = 'alpha R1'")


def test_a_delete_without_yes_says_what_it_would_remove_and_removes_nothing(
    target, tmp_path, monkeypatch
):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    with open_store(target) as s:
        populate(s, "alpha")
        before = dump(s)
    result = run("club", "delete", "alpha", "--db", target)
    assert "club alpha (Golf Alpha) would remove: 2 courses (1 maps), 2 rounds" in result.output
    assert "'alpha R1', 'alpha R2'" in result.output and "add --yes" in result.output
    with open_store(target) as s:
        assert dump(s) == before
    result = run("club", "delete", "alpha", "--yes", "--db", target)
    assert "club alpha (Golf Alpha) removed: 2 courses" in result.output
    with open_store(target) as s:
        assert s.club("alpha") is None and s.count_events() == 0


def test_the_default_club_is_emptied_and_kept(target, clock):
    with open_store(target) as s:
        s.save_course(make_course(pars=[4, 4], name="Home"), imported_at=T0)
        s.create_round("Home R1", course="Home", day=date(2025, 6, 1), timezone="UTC")
        s.append(Event("d-1", "hole_completed", "Home R1", T0, {"group": "1", "hole": 1}),
                 recorded_at=T0)  # fmt: skip
        # the committee secret (a code of no round) is the instance's way in: it stays; the
        # sessions acting in the default club go, a session of before clubs (m014) too, and
        # an administrator's (no club) stays
        secret = s.add_access_code(round=None, role="committee", prefix="cs01", hash="h",
                                   label=None, created_at=T0)  # fmt: skip
        until = T0 + timedelta(days=1)
        for token, role, club in (("old", "committee", None), ("new", "committee", "default"),
                                  ("admin", "admin", None)):  # fmt: skip
            s.add_session(SessionRecord(token, role, None, secret, None, T0, until, None, club))
        held = clubdata.delete_club(s, "default", clock)
        assert held.kept and held.counts["events"] == 1 and held.counts["sessions"] == 2
        assert s.club("default") is not None and s.list_rounds() == [] and s.count_events() == 0
        assert [c.id for c in s.access_codes()] == [secret]
        assert s.session("admin") is not None and s.session("old") is None


# -- import from another instance's database ---------------------------------------------------


def run(*args: object, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result


def single_club_database(folder: Path) -> Path:
    """A club's own pace: ``pace init``, a course, a draw, its paper times, then taps."""
    path = folder / "club.db"
    run("init", "--db", path)
    run("import", "course", COURSE, "--db", path)
    run("import", "draw", DRAW, "--round", "R1", "--date", "2025-06-14", "--timezone",
        "Europe/Brussels", "--db", path)  # fmt: skip
    run("import", "times", TIMES, "--round", "R1", "--db", path)
    with open_store(path) as s:
        group = s.get_round("R1").groups[0].id
        taps = [
            Event(f"tap-{n}", "hole_completed", "R1", T0 + timedelta(minutes=n),
                  {"group": group, "hole": 10 + n, "comment": "Ça va? ✓", "x": 0.1 + 0.2},
                  by={"role": "marshal", "device": "phone-7", "name": "Zoë"})
            for n in range(3)
        ]  # fmt: skip
        s.append_many(taps, recorded_at=T0 + timedelta(hours=3))
        s.log_access(at=T0, kind="sign_in", who="committee")  # the instance's: not the club's
    return path


def source_log(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT id, type, round, at, recorded_at, by, payload FROM events ORDER BY seq"
        )
        return [tuple(r) for r in rows]
    finally:
        conn.close()


def test_a_single_club_sqlite_database_imports_onto_postgresql_its_log_unchanged(
    pg_url, tmp_path, monkeypatch
):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    source = single_club_database(tmp_path)
    log = source_log(source)
    assert len(log) == 13  # ten paper times and three taps
    with open_store(source) as s:
        _, source_rows = s.club_rows("default")
    fingerprint = hashlib.sha256(source.read_bytes()).hexdigest()

    run("club", "add", "bravo", "Golf Bravo", "--db", pg_url)
    with open_store(pg_url) as s:
        s.save_course(make_course(pars=[3], name="Bravo pitch"), imported_at=T0, club="bravo")
    result = run("club", "import", source, "--as", "RGC-Antwerp ", "--name",
                 "Royal Golf Club Antwerpen", "--db", pg_url)  # fmt: skip
    assert "club rgc-antwerp made from a single-club database: 1 courses" in result.output
    assert "(13 events)" in result.output
    assert hashlib.sha256(source.read_bytes()).hexdigest() == fingerprint  # never written

    with open_store(pg_url) as s:
        assert s.club("rgc-antwerp").name == "Royal Golf Club Antwerpen"
        assert [r.club for r in s.list_rounds()] == ["rgc-antwerp"]
        _, rows = s.club_rows("rgc-antwerp")
        assert [r[1:] for r in raw_events(s, ["R1"])] == log
        assert s.list_courses(club="bravo")[0].name == "Bravo pitch"
    rows["access_log"].pop()  # the import's own line
    assert without_seq(rows) == without_seq(source_rows)


def test_a_database_of_an_older_pace_imports_too(target, tmp_path, clock):
    old = tmp_path / "old.db"
    conn = sqlite3.connect(old)
    conn.executescript((SCHEMAS / "sqlite" / "m013_positions.dump").read_text(encoding="utf-8"))
    conn.close()
    fingerprint = hashlib.sha256(old.read_bytes()).hexdigest()
    with open_store(target) as s:
        read, done = clubdata.import_club(s, old, "old-club", clock)
        assert read.kind == "database" and done.counts["rounds"] >= 1
        assert [r[1:] for r in raw_events(s, [r["name"] for r in read.rows["rounds"]])] == [
            r for r in source_log(old)]  # fmt: skip
        assert {c.name for c in s.list_competitions(club="old-club")} == {"Club Championship"}
    assert hashlib.sha256(old.read_bytes()).hexdigest() == fingerprint


# -- all or nothing ----------------------------------------------------------------------------


def test_a_name_taken_refuses_the_whole_import_naming_every_clash(store, clock, tmp_path):
    exported = tmp_path / "alpha.club.jsonl"
    exported.write_text(clubdata.export_club(store, "alpha", clock), encoding="utf-8")
    clubdata.delete_club(store, "alpha", clock)  # alpha's names are free again, then two of
    # them are taken by another club: a course and a round (names are the instance's)
    store.save_course(make_course(pars=[3], name="Pitch alpha"), imported_at=T0, club="bravo")
    store.create_round("alpha R2", course="Pitch alpha", day=date(2025, 6, 2), timezone="UTC",
                       club="bravo")  # fmt: skip
    store.create_competition("alpha Championship", rounds=["bravo R1", "alpha R2"],
                             scoring="gross", club="bravo")  # fmt: skip
    before = dump(store)
    with pytest.raises(ClubNameClashError) as e:
        clubdata.import_club(store, exported, "alpha", clock)
    said = e.value.message
    assert "course 'Pitch alpha'" in said and "round 'alpha R2'" in said
    assert "competition 'alpha Championship'" in said
    assert "'alpha R1'" not in said and "'Course alpha'" not in said  # the free names are free
    assert e.value.code == "name_taken"
    assert dump(store) == before and store.club("alpha") is None


def test_a_club_that_owns_anything_is_not_imported_into(store, clock, tmp_path):
    exported = tmp_path / "alpha.club.jsonl"
    exported.write_text(clubdata.export_club(store, "alpha", clock), encoding="utf-8")
    clubdata.delete_club(store, "alpha", clock)
    before = dump(store)
    with pytest.raises(ClubExistsError, match="'bravo' exists and already owns 2 courses"):
        clubdata.import_club(store, exported, "bravo", clock)
    assert dump(store) == before
    # an empty club takes it, and --name renames it
    store.add_club("empty", "Empty", created_at=T0)
    _, done = clubdata.import_club(store, exported, "empty", clock, name="Golf Alpha again")
    assert not done.made and store.club("empty").name == "Golf Alpha again"


def test_a_forged_row_the_database_refuses_writes_nothing(store, clock, tmp_path):
    text = clubdata.export_club(store, "alpha", clock)
    clubdata.delete_club(store, "alpha", clock)
    before = dump(store)
    # a play the schema does not know, the digest made again: the file's checks pass, the
    # database's CHECK refuses it, after the courses went in: the transaction undoes them
    lines = text.splitlines()
    forged = [line.replace('"play":"stroke_play"', '"play":"darts"')
              if '"table":"rounds"' in line else line for line in lines[:-1]]  # fmt: skip
    path = tmp_path / "forged.jsonl"
    path.write_text(resealed(forged), encoding="utf-8")
    with pytest.raises(StorageError):
        clubdata.import_club(store, path, "alpha", clock)
    assert dump(store) == before


# -- hostile input -----------------------------------------------------------------------------


def resealed(lines: list[str]) -> str:
    """The export of ``lines`` (its header and rows) with its end made again to match."""
    counts: dict[str, int] = {s: 0 for s in SECTIONS}
    for line in lines[1:]:
        counts[json.loads(line)["table"]] += 1
    body = "".join(line + "\n" for line in lines)
    digest = hashlib.sha256(body.encode()).hexdigest()
    return body + canonical_json({"end": {"counts": counts, "sha256": digest}}) + "\n"


def test_an_unknown_club_or_a_look_alike_id_is_refused_and_changes_nothing(store, clock,
                                                                           tmp_path):  # fmt: skip
    exported = tmp_path / "alpha.club.jsonl"
    exported.write_text(clubdata.export_club(store, "alpha", clock), encoding="utf-8")
    before = dump(store)
    for act in (lambda c: clubdata.export_club(store, c, clock),
                lambda c: clubdata.removal(store, c),
                lambda c: clubdata.delete_club(store, c, clock)):  # fmt: skip
        with pytest.raises(UnknownClubError, match="no club 'charlie' on this instance"):
            act("charlie")
        with pytest.raises(PaceError, match="is not a club id") as e:
            act(LOOKALIKE)
        assert e.value.code == "invalid_payload"
        # spelled another way, the same club: capitals and spaces are read as the id
        with pytest.raises(UnknownClubError):
            act(" CHARLIE ")
    with pytest.raises(PaceError, match="is not a club id"):
        clubdata.import_club(store, exported, LOOKALIKE, clock)
    assert dump(store) == before


@pytest.mark.parametrize("damage", ["truncated", "cut_mid_line", "edited", "forged_reference",
                                    "forged_column", "forged_instant", "forged_email",
                                    "lookalike_club", "not_pace", "empty"])  # fmt: skip
def test_a_truncated_or_forged_export_is_refused_naming_the_problem(store, clock, tmp_path,
                                                                    damage):  # fmt: skip
    text = clubdata.export_club(store, "alpha", clock)
    clubdata.delete_club(store, "alpha", clock)
    lines = text.splitlines()
    rows = lines[:-1]
    event = next(i for i, line in enumerate(rows) if '"table":"events"' in line)
    person = next(i for i, line in enumerate(rows) if '"table":"people"' in line)

    def swap(i: int, change) -> list[str]:  # type: ignore[no-untyped-def]
        data = json.loads(rows[i])
        change(data)
        return [*rows[:i], canonical_json(data), *rows[i + 1:]]

    damaged, said = {
        "truncated": ("\n".join(lines[: len(lines) // 2]) + "\n", "cut short"),
        "cut_mid_line": (text[: len(text) - 40], "cut short"),
        "edited": (text.replace('"hole\\":1', '"hole\\":9', 1), "SHA-256"),
        "forged_reference": (resealed(swap(event, lambda d: d["row"].update(round="bravo R1"))),
                             "round 'bravo R1' is not in the file"),
        "forged_column": (resealed(swap(person, lambda d: d["row"].update(password="x"))),
                          "people has no column 'password'"),
        "forged_instant": (resealed(swap(event, lambda d: d["row"].update(at="yesterday"))),
                           "expected a stored instant"),
        "forged_email": (resealed(swap(person, lambda d: d["row"].update(
            email="\u0430lpha@club.be"))), "is not an e-mail address"),  # fmt: skip
        "lookalike_club": (resealed(swap(0, lambda d: d["club"].update(id=LOOKALIKE))),
                           "is not a club id"),
        "not_pace": ('{"pace":"round","version":1}\n', "not a pace club export"),
        "empty": ("", "empty file"),
    }[damage]
    path = tmp_path / "damaged.jsonl"
    path.write_text(damaged, encoding="utf-8")
    before = dump(store)
    with pytest.raises(FileFormatError) as e:
        clubdata.import_club(store, path, "alpha", clock)
    assert said in e.value.message and "damaged.jsonl" in e.value.message
    assert dump(store) == before


def test_a_file_that_is_not_a_single_club_pace_database_is_refused(store, clock, tmp_path, target):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    federation = tmp_path / "federation.db"
    with open_store(federation) as s:
        populate(s, "charlie")
    # a SQLite file cut short, and one whose pages are noise after its first bytes
    cut = tmp_path / "cut.db"
    cut.write_bytes(federation.read_bytes()[:3000])
    noise = tmp_path / "noise.db"
    noise.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 40)
    before = dump(store)
    for path in (other, cut, noise):
        with pytest.raises(FileFormatError, match="not a pace database") as e:
            clubdata.import_club(store, path, "delta", clock)
        assert path.name in e.value.message
    with pytest.raises(FileFormatError, match="not a single-club database: it holds clubs charlie"):
        clubdata.import_club(store, federation, "delta", clock)
    assert dump(store) == before


def test_the_cli_says_what_is_wrong_and_exits_with_an_error(target, tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    with open_store(target) as s:
        populate(s, "alpha")
    out = tmp_path / "alpha.club.jsonl"
    result = run("club", "export", "alpha", "--out", out, "--db", target)
    assert f"rows written to {out}" in result.output
    assert (out.stat().st_mode & 0o777) == 0o600  # people's e-mails: its owner's only
    assert "no club 'charlie'" in run("club", "export", "charlie", "--out", tmp_path / "c",
                                      "--db", target, code=1).output  # fmt: skip
    assert not (tmp_path / "c").exists()
    assert "is not a club id" in run("club", "delete", LOOKALIKE, "--yes", "--db", target,
                                     code=1).output  # fmt: skip
    out.write_text(out.read_text(encoding="utf-8")[:-30], encoding="utf-8")
    result = run("club", "import", out, "--as", "echo", "--db", target, code=2)
    assert "cut short" in result.output
    with open_store(target) as s:
        assert s.club("echo") is None and s.club("alpha") is not None

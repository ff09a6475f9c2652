"""Competitions of several rounds in the store, on both engines (issue 28).

Every test runs on a real SQLite file and on a real PostgreSQL database (``target``): a
competition round-trips with its rounds in order, its scoring and its cut; a bad one (a round
not stored, a round twice, too few or too many rounds, a cut it cannot have, a name taken)
is refused and stores nothing, whatever path it comes by, even raw SQL past the checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest

from pace.rules.errors import SetupError
from pace.rules.model import Course, Hole
from pace.rules.scoring.competition import Cut
from pace.store import Store, UnknownRoundError, is_database_url, open_store
from pace.store.competitions import CompetitionRecord
from pace.store.errors import CompetitionExistsError, UnknownCompetitionError

T0 = datetime(2025, 6, 1, 8, 0, tzinfo=UTC)
COURSE = Course("Les Bruyères", tuple(Hole(n, 4, stroke_index=n) for n in range(1, 10)))
ROUNDS = ("Club R1", "Club R2", "Club R3", "Club R4", "Club R5")


@pytest.fixture
def store(target: str) -> Iterator[Store]:
    with open_store(target) as opened:
        opened.save_course(COURSE, imported_at=T0)
        for n, name in enumerate(ROUNDS, start=1):
            opened.create_round(name, course=COURSE.name, day=date(2025, 6, n),
                                timezone="Europe/Paris", scoring="stroke", net=True)  # fmt: skip
        yield opened


def test_a_competition_round_trips_with_its_rounds_in_order_and_its_cut(target, store):
    made = store.create_competition(
        "Championnat du club", rounds=["Club R3", "Club R1"], scoring="net",
        cut=Cut(after=1, top=10), created_at=T0,
    )  # fmt: skip
    want = CompetitionRecord(
        "Championnat du club", ("Club R3", "Club R1"), "net", Cut(1, 10, None), T0
    )
    assert made == want
    with open_store(target) as again:  # what another process reads
        assert again.get_competition("Championnat du club") == want
        assert again.list_competitions() == [want]


def test_the_cut_within_and_no_cut_are_kept_and_listed_by_name_or_round(store):
    b = store.create_competition("B", rounds=ROUNDS[:4], scoring="points",
                                 cut=Cut(after=3, within=8), created_at=T0)  # fmt: skip
    a = store.create_competition("A", rounds=ROUNDS[1:3], scoring="gross", created_at=T0)
    assert (b.cut, b.rounds, a.cut) == (Cut(3, None, 8), ROUNDS[:4], None)
    assert [c.name for c in store.list_competitions()] == ["A", "B"]
    assert [c.name for c in store.list_competitions(round="Club R2")] == ["A", "B"]
    assert [c.name for c in store.list_competitions(round="Club R1")] == ["B"]
    assert store.list_competitions(round="Club R5") == []


def test_an_unknown_competition_is_a_lookup_error_naming_it(store):
    with pytest.raises(UnknownCompetitionError, match="'Nope' does not exist") as e:
        store.get_competition("Nope")
    assert isinstance(e.value, LookupError) and e.value.code == "unknown_competition"


BAD = [
    (dict(rounds=["Club R1", "Ghost"]), UnknownRoundError, "'Ghost' does not exist"),
    (dict(rounds=["Club R1", "Club R1"]), SetupError, "given twice"),
    (dict(rounds=["Club R1"]), SetupError, "2 to 4 rounds"),
    (dict(rounds=list(ROUNDS)), SetupError, "2 to 4 rounds"),
    (dict(cut=Cut(after=2, top=5)), SetupError, "before the last round"),
    (dict(cut=Cut(after=0, top=5)), SetupError, "numbered from 1"),
    (dict(cut=Cut(after=1, top=-3)), SetupError, "at least 1 player"),
    (dict(cut=Cut(after=1, within=-1)), SetupError, "0 or more"),
    (dict(cut=Cut(after=1)), SetupError, "needs its rule"),
    (dict(scoring="match"), SetupError, "expected one of gross, net, points"),
    (dict(name=" padded"), SetupError, "leading or trailing"),
    (dict(name="x\x00y"), SetupError, "printable"),
]


@pytest.mark.parametrize(("change", "error", "words"), BAD)
def test_a_bad_competition_is_refused_and_stores_nothing(store, change, error, words):
    args = {"name": "E", "rounds": ["Club R1", "Club R2"], "scoring": "net", "cut": None}
    args.update(change)
    name = args.pop("name")
    with pytest.raises(error, match=words):
        store.create_competition(name, **args)
    assert store.list_competitions() == []


def test_a_name_taken_is_refused_and_keeps_the_first(store):
    first = store.create_competition("E", rounds=ROUNDS[:2], scoring="net", created_at=T0)
    with pytest.raises(CompetitionExistsError, match="already exists"):
        store.create_competition("E", rounds=ROUNDS[2:4], scoring="gross")
    assert store.list_competitions() == [first]


def test_the_schema_refuses_a_bad_cut_and_a_round_not_stored_even_through_raw_sql(target, store):
    import sqlite3

    errors: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)
    if is_database_url(target):
        import psycopg

        errors = (psycopg.Error,)
    at = "2025-06-01T08:00:00.000000+00:00"
    into = "INSERT INTO competitions (name, scoring, cut_after, cut_top, cut_within, created_at)"
    bad = [
        f"{into} VALUES ('X', 'net', 1, 5, 3, '{at}')",  # two rules
        f"{into} VALUES ('X', 'net', NULL, 5, NULL, '{at}')",  # no round
        f"{into} VALUES ('X', 'match', NULL, NULL, NULL, '{at}')",
        "INSERT INTO competition_rounds VALUES ('Nope', 1, 'Club R1')",  # no competition
    ]
    for sql in bad:
        with pytest.raises(errors):
            _raw(target, sql)
    _raw(target, f"{into} VALUES ('X', 'net', NULL, NULL, NULL, '{at}')")
    with pytest.raises(errors):
        _raw(target, "INSERT INTO competition_rounds VALUES ('X', 1, 'Ghost')")
    with pytest.raises(errors):
        _raw(target, "INSERT INTO competition_rounds VALUES ('X', 5, 'Club R1')")


def _raw(target: str, sql: str) -> None:
    if not is_database_url(target):
        import sqlite3

        conn = sqlite3.connect(target, isolation_level=None)
        try:
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(sql)
        finally:
            conn.close()
        return
    import psycopg

    with psycopg.connect(target, autocommit=True) as pg:
        pg.execute(sql)

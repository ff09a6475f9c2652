"""Write one database of every released schema, on each engine, with the code that released it.

Run it with the old pace first on the path (a tree of the commit before issue 49, e.g.
``git archive 3aba88c | tar -x -C /tmp/old``)::

    PYTHONPATH=/tmp/old python3 tests/data/schemas/make_old_schemas.py --all

Once a new migration step is released, run it with that release's tree on the path and no
``--all``: it writes the new step's dumps only, and leaves the older ones as their own code
made them.

For each migration ``mNNN`` (m001 … m013) and each engine it makes a new database, applies the
old code's migrations up to and including ``mNNN`` (with the rows each step's schema can hold
written right after that step, as pace of that time wrote them), and dumps it here:
``sqlite/mNNN_name.dump`` (the file's ``iterdump``) and ``postgresql/mNNN_name.dump``
(``pg_dump --inserts``). tests/integration/test_store_upgrades.py loads each dump and opens
it with the current store.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _old_pace() -> Path:
    import pace

    return Path(pace.__file__).resolve().parents[1]


sys.path.insert(0, str(_old_pace() / "tests"))

import engines  # noqa: E402  (the old tree's tests/engines.py)

I1 = "2025-06-01T08:00:00.000000+00:00"
I2 = "2025-06-01T08:30:00.000000+00:00"
HOLES = [
    {"number": 1, "par": 4, "stroke_index": 5, "length_m": 352.5, "walk_s": 0.0,
     "allotted_s": {"2": 720.0}},
    {"number": 2, "par": 3, "stroke_index": 17, "length_m": 148.0, "walk_s": 0.0,
     "allotted_s": {}},
]  # fmt: skip

#: the rows written right after a step, as (SQL with ``?``, values)
ROWS: dict[str, list[tuple[str, list[object]]]] = {
    "m001_initial": [
        ("INSERT INTO courses (name, data, imported_at) VALUES (?, ?, ?)",
         ["Les Bruyères", json.dumps(HOLES, sort_keys=True, separators=(",", ":")), I1]),
        ("INSERT INTO rounds (name, course, day, timezone, policy, standard_interval_s,"
         " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
         ["R1", "Les Bruyères", "2025-06-01", "Europe/Paris", "frbg", 600.0, I1]),
        ("INSERT INTO rounds (name, course, day, timezone, policy, standard_interval_s,"
         " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
         ["R2", "Les Bruyères", "2025-06-02", "Europe/Brussels", "frbg", None, I1]),
        ("INSERT INTO groups (round, id, position, start, tee) VALUES (?, ?, ?, ?, ?)",
         ["R1", "g1", 0, "2025-06-01T06:00:00.000000+00:00", 1]),
        ("INSERT INTO groups (round, id, position, start, tee) VALUES (?, ?, ?, ?, ?)",
         ["R1", "g2", 1, "2025-06-01T06:10:00.000000+00:00", 1]),
        ("INSERT INTO players (round, group_id, position, name, handicap, side, club)"
         " VALUES (?, ?, ?, ?, ?, ?, ?)", ["R1", "g1", 0, "Anne Dupont", 12.4, None, "GCB"]),
        ("INSERT INTO players (round, group_id, position, name, handicap, side, club)"
         " VALUES (?, ?, ?, ?, ?, ?, ?)", ["R1", "g1", 1, "Jan Peeters", None, None, None]),
        ("INSERT INTO players (round, group_id, position, name, handicap, side, club)"
         " VALUES (?, ?, ?, ?, ?, ?, ?)", ["R1", "g2", 0, "Zoë Martin", 3.0, None, "RGCL"]),
    ]
    + [
        ("INSERT INTO events (id, type, round, at, recorded_at, by, payload)"
         " VALUES (?, ?, ?, ?, ?, ?, ?)",
         [f"evt-{n}", "hole_completed", "R1", f"2025-06-01T06:{10 + n:02d}:00.000000+00:00", I2,
          '{"device":"phone-1","role":"marshal"}', f'{{"group":"g1","hole":{n}}}'])
        for n in (1, 2)
    ],  # fmt: skip
    "m003_access": [
        ("INSERT INTO app_secrets (name, value) VALUES (?, ?)", ["flask_secret_key", "k" * 32]),
        ("INSERT INTO access_codes (round, role, prefix, hash, label, created_at)"
         " VALUES (?, ?, ?, ?, ?, ?)", [None, "committee", "AB", "scrypt$a", None, I1]),
        ("INSERT INTO access_codes (round, role, prefix, hash, label, created_at)"
         " VALUES (?, ?, ?, ?, ?, ?)", ["R1", "marshal", "CD", "scrypt$b", "hole 7", I1]),
        ("INSERT INTO sessions (token_hash, role, round, code, name, created_at, expires_at)"
         " VALUES (?, ?, ?, ?, ?, ?, ?)", ["t1", "marshal", "R1", 2, "Ann", I1, I2]),
    ],  # fmt: skip
    "m004_scoring_setup": [
        ("UPDATE courses SET slope = ?, rating = ?", [129.0, 71.3]),
        ("UPDATE players SET class = ? WHERE name = ?", ["A", "Anne Dupont"]),
    ],
    "m006_round_scoring": [
        ("UPDATE rounds SET scoring = ?, net = ?, allowance = ? WHERE name = ?",
         ["stableford", 1, "[95]", "R1"]),
        ("INSERT INTO events (id, type, round, at, recorded_at, by, payload)"
         " VALUES (?, ?, ?, ?, ?, ?, ?)",
         ["evt-3", "score_recorded", "R1", "2025-06-01T06:20:00.000000+00:00", I2,
          '{"role":"scorer"}', '{"group":"g1","hole":1,"player":"Anne Dupont","strokes":5}']),
    ],  # fmt: skip
    "m007_competitions": [
        ("INSERT INTO competitions (name, scoring, cut_after, cut_top, cut_within, created_at)"
         " VALUES (?, ?, ?, ?, ?, ?)", ["Club Championship", "gross", 1, 10, None, I1]),
        ("INSERT INTO competition_rounds (competition, position, round) VALUES (?, ?, ?)",
         ["Club Championship", 1, "R1"]),
        ("INSERT INTO competition_rounds (competition, position, round) VALUES (?, ?, ?)",
         ["Club Championship", 2, "R2"]),
    ],  # fmt: skip
    "m008_tees": [("UPDATE players SET tees = ?, gender = ? WHERE name = ?",
                   ["yellow", "F", "Anne Dupont"])],  # fmt: skip
    "m009_course_geometry": [
        ("INSERT INTO course_geometry (course, data, imported_at) VALUES (?, ?, ?)",
         ["Les Bruyères", '{"holes":[]}', I2]),
    ],
    "m010_completion_sources": [("UPDATE rounds SET completions = ? WHERE name = ?",
                                 ["officials_and_groups", "R2"])],  # fmt: skip
    "m011_languages": [("UPDATE rounds SET language = ? WHERE name = ?", ["nl", "R1"])],
    "m012_handicap_readings": [("UPDATE rounds SET rounding = ? WHERE name = ?",
                                ["course_then_playing", "R2"])],  # fmt: skip
    "m013_positions": [("UPDATE rounds SET positions = 1 WHERE name = ?", ["R2"])],
}


def names() -> list[str]:
    from pace.store.sqlite import migrations

    return [m.name for m in migrations.MIGRATIONS._migrations]


def sqlite_dump(upto: int) -> str:
    import sqlite_utils

    from pace.store.sqlite import migrations

    steps = names()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pace.db"
        db = sqlite_utils.Database(path)
        for step in steps[: upto + 1]:
            later = steps[steps.index(step) + 1] if step != steps[-1] else None
            migrations.MIGRATIONS.apply(db, stop_before=later)
            for sql, values in ROWS.get(step, []):
                db.execute(sql, values)
            db.conn.commit()
        db.close()
        conn = sqlite3.connect(path)
        try:
            return "\n".join(conn.iterdump()) + "\n"
        finally:
            conn.close()


def postgres_dump(server: engines.PostgresServer, upto: int) -> str:
    from pace.store.pg import migrations
    from pace.store.pg.db import PgDatabase

    steps = names()
    url = server.database("old")
    db = PgDatabase(url)
    db.open()
    try:
        for step in steps[: upto + 1]:
            later = steps[steps.index(step) + 1] if step != steps[-1] else None
            migrations.apply(db, stop_before=later)
            with db.write() as cur:
                for sql, values in ROWS.get(step, []):
                    if hasattr(cur, "cursor"):  # pace since issue 49: the shared SQL's ``?``
                        cur.execute(sql, values)
                    else:  # pace before it: psycopg's own cursor
                        cur.execute(sql.replace("?", "%s"), values)
    finally:
        db.close()
    dumped = subprocess.run(
        [engines._postgres_bin("pg_dump"), "--inserts", "--no-owner", "--no-privileges",
         "--no-comments", "--dbname", url],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    server.drop(url)
    # left out: the header naming the pg_dump that made it, and psql's \restrict lines (a
    # random key each time; not SQL): the rest is the database
    skipped = ("-- Dumped ", "\\restrict ", "\\unrestrict ")
    return "\n".join(
        line for line in dumped.stdout.splitlines() if not line.startswith(skipped)
    ) + "\n"


def main() -> None:
    """Write the dumps missing here (``--all``: every one again), each with the pace on the
    path: a released schema's dump is made once, by the code that released it."""
    print(f"pace: {_old_pace()}")
    steps = names()
    (HERE / "sqlite").mkdir(exist_ok=True)
    (HERE / "postgresql").mkdir(exist_ok=True)
    server = engines.start_postgres()
    try:
        for i, step in enumerate(steps):
            files = [HERE / engine / f"{step}.dump" for engine in ("sqlite", "postgresql")]
            if "--all" not in sys.argv and all(f.exists() for f in files):
                continue
            files[0].write_text(sqlite_dump(i), encoding="utf-8")
            files[1].write_text(postgres_dump(server, i), encoding="utf-8")
            print(f"wrote {step}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()

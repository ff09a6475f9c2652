"""A round's backup and restore (issue 15): the log exported and imported again, on either
engine, gives the same file and the same judgement, byte for byte.

The round is the report's played demo round (``tests/reportsupport.py``: hole times, a
suspension, referees' acts with timed strokes, a notification, a credit), in a SQLite file.
It is exported (``pace export round``), restored into PostgreSQL and exported from there,
restored from that into a new SQLite file and exported again: the three files are one, and
the post-round report's JSON (episodes, faults, penalties) is the same from all three.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from reportsupport import ROUND, report_database

from pace import config
from pace.formats import backup as backupfmt
from pace.rules.errors import FileFormatError, SetupError
from pace.rules.events import Event, EventConflictError, canonical_json
from pace.services.backup import export_round, restore_round
from pace.services.rounds import RoundService
from pace.store import open_store

REPO = Path(__file__).resolve().parents[2]


def pace(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pace", *args], cwd=cwd, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    return report_database(tmp_path_factory.mktemp("played"), groups=10)


def report_json(db: str, cwd: Path) -> str:
    done = pace("report", "--round", ROUND, "--format", "json", "--progress", "none",
                "--db", db, cwd=cwd)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_round_restored_on_either_engine_gives_the_same_file_and_judgement(
    played: Path, pg_url: str, tmp_path: Path
) -> None:
    first = tmp_path / "first.pace.jsonl"
    done = pace("export", "round", ROUND, "--db", str(played), "-o", str(first), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "events written" in done.stderr
    text = first.read_text(encoding="utf-8")
    assert text.count("\n") > 180  # the header and every event (10 groups × 18 holes, acts)

    done = pace("import", "round", str(first), "--db", pg_url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"round {ROUND!r} restored:" in done.stdout
    second = pace("export", "round", ROUND, "--db", pg_url, cwd=tmp_path).stdout
    assert second == text

    (tmp_path / "second.pace.jsonl").write_text(second, encoding="utf-8")
    again = tmp_path / "again.db"
    done = pace("import", "round", str(tmp_path / "second.pace.jsonl"), "--db", str(again),
                cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    third = pace("export", "round", ROUND, "--db", str(again), cwd=tmp_path).stdout
    assert third == text

    judged = report_json(str(played), tmp_path)
    assert '"penalties"' in judged or '"faults"' in judged
    assert report_json(pg_url, tmp_path) == judged
    assert report_json(str(again), tmp_path) == judged


def test_the_restored_log_keeps_every_fact_in_order(played: Path, target: str) -> None:
    with open_store(played) as source, open_store(target) as copy:
        text = export_round(RoundService(source, config.Settings()), ROUND)
        done = restore_round(RoundService(copy, config.Settings()), text, "r.jsonl")
        original, restored = source.events(ROUND), copy.events(ROUND)
        assert done.new_round and done.created == len(original) and done.already == 0
        assert [e.id for e in restored] == [e.id for e in original]
        assert all(a.is_same_fact(b) and (a.by, a.recorded_at) == (b.by, b.recorded_at)
                   for a, b in zip(original, restored, strict=True))  # fmt: skip
        assert copy.get_round(ROUND) == source.get_round(ROUND)
        # restoring it again adds nothing
        again = restore_round(RoundService(copy, config.Settings()), text, "r.jsonl")
        assert (again.new_round, again.created, again.already) == (False, 0, len(original))


def test_a_restore_that_would_contradict_the_database_writes_nothing(
    played: Path, tmp_path: Path
) -> None:
    with open_store(played) as source:
        text = export_round(RoundService(source, config.Settings()), ROUND)
    lines = text.splitlines()
    with open_store(tmp_path / "other.db") as other:
        service = RoundService(other, config.Settings())
        restore_round(service, "\n".join(lines[:-1]) + "\n", "r.jsonl")  # all but the last
        # the last event, new, after one stored with another payload: nothing is written
        event = json.loads(lines[1])
        event["payload"]["tampered"] = True
        tampered = "\n".join([lines[0], canonical_json(event), lines[-1]]) + "\n"
        with pytest.raises(EventConflictError, match=event["id"]):
            restore_round(service, tampered, "tampered.jsonl")
        assert other.count_events(ROUND) == len(lines) - 2
        # another draw under the same round name
        header = json.loads(lines[0])
        header["groups"][0]["tee"] = 10
        with pytest.raises(SetupError, match="another draw"):
            restore_round(service, canonical_json(header) + "\n", "draw.jsonl")
        assert other.count_events(ROUND) == len(lines) - 2


def test_every_problem_of_a_backup_is_named_with_its_line_and_field(tmp_path: Path) -> None:
    header = ('{"pace":"round","version":1,"course":{"name":"C","holes":[{"number":1,"par":4,'
              '"walk_s":0,"allotted_s":{}}]},"round":{"name":"R","day":"2026-06-14",'
              '"timezone":"UTC","policy":"frbg","play":"stroke_play","format":"individual",'
              '"net":false},"groups":[]}')  # fmt: skip
    good = ('{"id":"e1","type":"siren","at":"2026-06-14T08:00:00.000000+00:00",'
            '"by":{},"payload":{"kind":"suspension"}}')  # fmt: skip
    bad_at = good.replace('"2026-06-14T08:00:00.000000+00:00"', '"8 o\'clock"')
    no_payload = good.replace(',"payload":{"kind":"suspension"}', "").replace("e1", "e2")
    text = "\n".join([header, good, bad_at.replace("e1", "e3"), no_payload, "{oops", good])
    with pytest.raises(FileFormatError) as caught:
        backupfmt.parse(text, "b.jsonl")
    assert [str(p) for p in caught.value.problems] == ["b.jsonl, line 5: not JSON: "
                                                       "Expecting property name enclosed in "
                                                       "double quotes"]  # fmt: skip
    with pytest.raises(FileFormatError) as caught:
        backupfmt.parse(text.replace("\n{oops", ""), "b.jsonl")
    found = [(p.line, p.field) for p in caught.value.problems]
    assert found == [(3, "at"), (4, "payload"), (5, "id")]
    parsed = backupfmt.parse("\n".join([header, good]), "b.jsonl")
    assert parsed.events == (
        Event("e1", "siren", "R", parsed.events[0].at, {"kind": "suspension"}, {}),
    )


def test_a_backup_keeps_where_the_rounds_completions_come_from(tmp_path: Path) -> None:
    """Issue 39: a round whose groups report their holes is restored as such; the backup of a
    round of officials only says nothing of it (its file reads as before)."""
    db = report_database(tmp_path / "source", groups=4)
    with open_store(db) as source, open_store(tmp_path / "copy.db") as copy:
        service = RoundService(source, config.Settings())
        assert '"completions"' not in export_round(service, ROUND)
        service.set_completions(ROUND, "officials_and_groups")
        text = export_round(service, ROUND)
        assert '"completions": "officials_and_groups"' in text.replace('":"', '": "')
        restore_round(RoundService(copy, config.Settings()), text, "r.jsonl")
        assert copy.get_round(ROUND).completions == "officials_and_groups"


def test_the_rounds_and_the_players_languages_survive_a_backup(played: Path, tmp_path: Path):
    # issue 41: the committee's language and a player's letter language are kept by a backup
    import shutil
    import sqlite3

    source = tmp_path / "source.db"
    shutil.copy(played, source)
    with sqlite3.connect(source) as db:  # the draw was imported before its first event
        first = db.execute("SELECT name FROM players ORDER BY rowid LIMIT 1").fetchone()[0]
        db.execute("UPDATE players SET language = 'nl' WHERE name = ?", [first])
    with open_store(source) as store:
        store.update_round(ROUND, language="nl")
        text = export_round(RoundService(store, config.Settings()), ROUND)
    assert text.count('"language":"nl"') == 2  # the round's and the player's
    with open_store(tmp_path / "restored.db") as store:
        service = RoundService(store, config.Settings())
        restore_round(service, text, "r.pace.jsonl")
        rec = store.get_round(ROUND)
        assert rec.language == "nl"
        assert [p.language for g in rec.groups for p in g.players if p.name == first] == ["nl"]
        assert export_round(service, ROUND) == text

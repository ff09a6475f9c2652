"""``pace import geometry`` and the map exported with its course (issue 40), from the command
line on a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pace import formats
from pace.cli import cli
from pace.demo import geography
from pace.store import open_store

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
COURSE_FILE = DATA / "course_louiseville.toml"
SAMPLE = DATA / "course_louiseville.osm"
NAME = "Golf de Louiseville"


def run(*args: object, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "club.db"
    run("import", "course", COURSE_FILE, "--db", path)
    return path


def test_a_map_is_imported_exported_beside_its_course_and_read_back(db, tmp_path):
    out = run("import", "geometry", SAMPLE, "--course", NAME, "--db", db)
    assert f"course {NAME!r}: the map of 18 holes imported" in out.output
    run("export", "course", NAME, "-o", tmp_path / "club.toml", "--db", db)
    exported = json.loads((tmp_path / "club.geojson").read_text(encoding="utf-8"))
    holes = [f for f in exported["features"] if f["properties"]["golf"] == "hole"]
    assert [f["properties"]["ref"] for f in holes] == [str(n) for n in range(1, 19)]
    # the export reads back, into another database, to the same map
    other = tmp_path / "other.db"
    run("import", "course", tmp_path / "club.toml", "--db", other)
    run("import", "geometry", tmp_path / "club.geojson", "--course", NAME, "--db", other)
    with open_store(db) as a, open_store(other) as b:
        first, second = a.get_geometry(NAME), b.get_geometry(NAME)
    assert first and second and first["holes"] == second["holes"]


def test_a_file_with_a_hole_at_fault_is_refused_by_hole_and_stores_nothing(db, tmp_path):
    course = formats.load_course(str(COURSE_FILE))
    bad = tmp_path / "bad.osm"
    bad.write_text(geography.osm_xml(course, skip=[18]), encoding="utf-8")
    out = run("import", "geometry", bad, "--course", NAME, "--db", db, code=2)
    assert "hole 18: not in the file (no golf=hole way with ref=18)" in out.output
    run("import", "geometry", SAMPLE, "--course", "Nowhere", "--db", db, code=1)
    with open_store(db) as store:
        assert store.get_geometry(NAME) is None

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


# -- issue 46: sites with several courses, files as clubs save them, malformed files ---------

MAPS = DATA / "maps"
NINE = "Nine of the West"


@pytest.fixture
def nine(tmp_path, monkeypatch) -> Path:
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "site.db"
    run("import", "course", MAPS / "course_nine.toml", "--db", path)
    return path


def stored(db: Path) -> dict | None:
    with open_store(db) as store:
        return store.get_geometry(NINE)


def test_a_site_of_two_courses_lists_them_and_imports_the_one_chosen(nine):
    out = run("import", "geometry", MAPS / "melbourne.osm", "--course", NINE, "--db", nine,
              code=2)  # fmt: skip
    assert "Traceback" not in out.output and out.stdout == ""
    assert "the file holds 2 courses; choose the one to import:" in out.stderr
    assert "--map-course 'West Course'" in out.stderr and "9 holes: 1W–9W" in out.stderr
    assert stored(nine) is None
    out = run("import", "geometry", MAPS / "melbourne.geojson", "--course", NINE,
              "--map-course", "West Course", "--db", nine)  # fmt: skip
    assert out.stdout == (f"course {NINE!r}: the map of 9 holes imported, from the file's"
                          " course 'West Course'\n")  # fmt: skip
    geometry = stored(nine)
    assert geometry and geometry["holes"][0]["line"][0] == [145.03, -37.972]


def test_a_ref_pattern_chooses_and_the_preview_stores_nothing(nine):
    out = run("import", "geometry", MAPS / "pinehurst.osm", "--course", NINE,
              "--ref-pattern", "* - #2", "--preview", "--db", nine)  # fmt: skip
    lines = out.stdout.splitlines()
    assert lines[0] == (f"course {NINE!r}: the map of 9 holes read, from refs '* - #2';"
                        " nothing stored (without --preview it would be)")  # fmt: skip
    assert "  --ref-pattern '* - #2'" in out.stdout and "  --ref-pattern '* - #4'" in out.stdout
    assert lines[-9].split() == ["1", "1", "-", "#2", "4", "-", "-"]
    assert stored(nine) is None
    out = run("import", "geometry", MAPS / "pinehurst.osm", "--course", NINE,
              "--ref-pattern", "* - #4", "--db", nine, code=2)  # fmt: skip
    assert "hole 2: par 3 in the file, par 4 in the course" in out.stderr


def test_a_file_notepad_saved_with_a_byte_order_mark_imports(nine):
    run("import", "geometry", MAPS / "notepad.osm", "--course", NINE, "--db", nine)
    assert len(stored(nine)["holes"]) == 9


MALFORMED = {
    "features.geojson": (b'{"type": "FeatureCollection", "features": [1]}',
                         "feature 1 is a number, not a GeoJSON feature (an object)"),
    "deep.geojson": (b'{"a": ' * 100_000 + b"1" + b"}" * 100_000,
                     "the JSON is nested too deep to be GeoJSON (a map nests 6 levels)"),
    # UTF-16 without a byte-order mark: its "<!DOCTYPE" is not the bytes b"<!DOCTYPE"
    "laughs.osm": ('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE osm [<!ENTITY a "aa">'
                   '<!ENTITY b "&a;&a;&a;">]><osm>&b;</osm>'.encode("utf-16-le"),
                   "the file declares a document type or entities (<!DOCTYPE, <!ENTITY)"),
    "empty.osm": (b"", "the file is empty"),
    "big.osm": (b"<osm>" + b" " * (6 * 1024 * 1024 - 11) + b"</osm>",
                "the file is 6.0 MB: more than the 5 MB a course's map may take"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_file_is_refused_on_stderr_without_a_traceback(nine, tmp_path, name):
    data, message = MALFORMED[name]
    (tmp_path / name).write_bytes(data)
    out = run("import", "geometry", name, "--course", NINE, "--db", nine, code=2)  # in tmp_path
    assert out.stdout == "" and f"Error: {name}: {message}" in out.stderr, out.stderr
    assert out.exception is None or isinstance(out.exception, SystemExit)
    assert stored(nine) is None

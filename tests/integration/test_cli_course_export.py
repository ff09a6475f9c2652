"""``pace export course`` (issue 28, part 1): a stored course written as course TOML re-imports
to the same course, in another database; an unknown course is refused with a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli
from pace.store import open_store

DATA = Path(__file__).resolve().parents[1] / "data"
COURSES = sorted(DATA.rglob("*.toml"))


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args, code=0):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


def stored(db: Path):
    with open_store(db) as store:
        return store.list_courses()


@pytest.mark.parametrize("path", COURSES, ids=lambda p: p.name)
def test_an_exported_course_reimports_to_the_same_course_elsewhere(tmp_path, path):
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    run("import", "course", path, "--db", first)
    (course,) = stored(first)
    out = tmp_path / "exported.toml"
    result = run("export", "course", course.name, "-o", out, "--db", first)
    assert f"holes written to {out}" in result.output
    run("import", "course", out, "--db", second)
    assert stored(second) == [course]
    # and the standard output holds the same file
    assert run("export", "course", course.name, "--db", first).output == out.read_text("utf-8")


def test_an_unknown_course_is_refused(tmp_path):
    db = tmp_path / "a.db"
    run("import", "course", COURSES[0], "--db", db)
    result = run("export", "course", "Nowhere", "--db", db, code=1)
    assert "Nowhere" in result.output and "Traceback" not in result.output

"""``pace calibrate`` (issue 30 part 2): a course's time pars from its finished rounds in a real
SQLite file; the suggestion written as a course TOML the import reads, never applied."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from click.testing import CliRunner

from pace.cli import cli
from pace.demo import history as gh
from pace.rules.events import Event
from pace.store import open_store

TRUTH = gh.default_truth()


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "history.db"
    rounds = gh.generate(TRUTH, 6, 21, mess=gh.Mess(missed=0.02, siren=0.5, credit=0.2))
    with open_store(path) as store:
        gh.store_rounds(store, rounds)
        # a round in play on the same course: not finished, so not history
        _, setup, facts = gh.generate(TRUTH, 1, 22, first_day=setup_day(rounds))[0]
        store.create_round(
            "Today", course="Generated", day=setup.groups[0].start.date(), timezone="UTC"
        )
        store.save_draw("Today", setup.groups)
        c = facts.completions[0]
        store.append(
            Event("today-1", "hole_completed", "Today", c.at, {"group": c.group, "hole": c.hole}),
            recorded_at=c.at,
        )
    return path


def setup_day(rounds):
    return rounds[-1][1].groups[0].start + timedelta(days=7)


def run(*args, code=0):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


def test_the_table_compares_each_hole_with_its_allotment(db):
    out = run("calibrate", "--course", "Generated", "--db", db).output
    assert "6 finished rounds" in out
    assert "groups of 4:" in out
    assert "hole    n  median     p80  allotted  suggested" in out
    assert len([line for line in out.splitlines() if line.strip().startswith("18 ")]) == 3


def test_the_json_suggestion_sums_to_the_target_and_follows_the_truth(db):
    doc = json.loads(
        run(
            "calibrate",
            "--course",
            "Generated",
            "--target",
            "4:10",
            "--size",
            "4",
            "--json",
            "--db",
            db,
        ).output
    )
    assert doc["rounds"] == ["R1", "R2", "R3", "R4", "R5", "R6"]
    assert doc["skipped"]["stopped"] > 0 and doc["skipped"]["credited"] > 0
    four = next(c for c in doc["columns"] if c["size"] == 4)
    assert four["target_min"] == 250
    walks = sum(TRUTH.walk.values()) - TRUTH.walk.get(1, 0)
    assert sum(h["suggested_min"] for h in four["holes"]) + walks == 250
    # the slowest hole of the truth gets the most time, the quickest the least
    truth = TRUTH.minutes
    most = max(four["holes"], key=lambda h: (h["suggested_min"], truth[h["hole"]]))
    assert truth[most["hole"]] >= sorted(truth.values())[-3]
    least = min(four["holes"], key=lambda h: (h["suggested_min"], -truth[h["hole"]]))
    assert truth[least["hole"]] <= sorted(truth.values())[2]


def test_the_suggestion_file_imports_as_a_new_course_and_nothing_is_applied(db, tmp_path):
    out = tmp_path / "suggested.toml"
    result = run("calibrate", "--course", "Generated", "--target", "4:10", "--out", out, "--db", db)
    assert "not applied" in result.output
    with open_store(db) as store:
        before = store.get_course("Generated")
    run("import", "course", out, "--db", db)
    with open_store(db) as store:
        assert store.get_course("Generated") == before
        (name,) = [c.name for c in store.list_courses() if c.name != "Generated"]
        new = store.get_course(name)
    assert name.startswith("Generated (calibrated ")
    doc = json.loads(
        run("calibrate", "--course", "Generated", "--target", "4:10", "--json", "--db", db).output
    )
    for column in doc["columns"]:
        for h in column["holes"]:
            assert new.hole(h["hole"]).allotted[column["size"]] == timedelta(
                minutes=h["suggested_min"]
            )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--target", "four hours"], "expected a round time as H:MM"),
        (["--target", "0:10"], "between 1:00 and 12:00"),
        (["--since", "yesterday"], "expected a day as YYYY-MM-DD"),
    ],
    ids=["words", "too-short", "bad-day"],
)
def test_bad_options_are_refused_with_a_sentence(db, args, message):
    result = run(
        "calibrate", "--course", "Generated", *args, "--db", db, code=2 if "--since" in args else 1
    )
    assert message in result.output


def test_an_unknown_course_is_refused(db):
    assert "Nowhere" in run("calibrate", "--course", "Nowhere", "--db", db, code=1).output


def test_since_leaves_the_older_rounds_out(db):
    with open_store(db) as store:
        days = sorted({r.day for r in store.list_rounds() if r.name.startswith("R")})
    doc = json.loads(
        run("calibrate", "--course", "Generated", "--since", days[4], "--json", "--db", db).output
    )
    assert doc["rounds"] == ["R5", "R6"]

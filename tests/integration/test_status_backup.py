"""``pace status`` from a round's export equals the live judgement when the round had changes
on the day (issue 28).

Round R1 of the shared test data on a real SQLite file, played through the live services on
the fake clock: group 1 (a three-ball) plays, one of its players retires mid-round; group 6's
start is moved before it plays; a no-show in group 5. ``pace export round`` writes the round's
file; ``pace status --backup`` (no database) must print, at every instant asked, the document
the live service's judgement gives, and ``pace round status`` the same. The draw CSV cannot
carry a retirement's instant: the committee's files judge the draw as written
(docs/status.md, "Changes on the day").
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from drivers import ROUND, TZ, local

from pace.cli import cli
from pace.reports.status import status_document
from pace.services.changes import ChangeService
from pace.services.commands import Author

COMMITTEE = Author(role="committee", device="desk", name="Anne Roy")


@pytest.fixture(autouse=True)
def _default_configuration(tmp_path, monkeypatch):
    """The CLI reads the defaults, as the app's settings do (no config.toml, no PACE_CONFIG)."""
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args: object, code: int = 0) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result.output


@pytest.fixture
def played(app, marshal, clock):
    """R1 played to 09:40 with a retirement mid-round, a moved start and a no-show."""
    changes = ChangeService(app.extensions["pace"].live)
    clock.set(local("08:05"))
    changes.withdraw(ROUND, "Lise Dion", "no_show", COMMITTEE, note="called in sick")
    clock.set(local("08:14"))
    marshal.tap("1", 1, "08:13")
    clock.set(local("08:20"))
    # Julie retires during group 1's second hole: a two-ball from 08:20 on, not before
    changes.withdraw(ROUND, "Julie Gagnon", "retired", COMMITTEE, note="back")
    clock.set(local("08:30"))
    marshal.tap("2", 1, "08:26")
    changes.change_start(ROUND, "6", local("09:05"), "waiting for a player", COMMITTEE)
    clock.set(local("09:40"))
    for group, hole, hhmm in (("1", 2, "08:29"), ("2", 2, "08:44"), ("1", 3, "08:40"),
                              ("3", 1, "08:35"), ("1", 4, "08:53"), ("2", 3, "08:59"),
                              ("4", 1, "08:47"), ("5", 1, "08:55"), ("1", 5, "09:06"),
                              ("6", 1, "09:19"), ("3", 2, "08:52"), ("1", 6, "09:30")):  # fmt: skip
        marshal.tap(group, hole, hhmm)
    return app


def test_pace_status_from_the_export_equals_the_live_judgement_with_changes(
    played, settings, tmp_path
):
    exported = tmp_path / "r1.pace.jsonl"
    run("export", "round", ROUND, "--db", settings.database.path, "-o", exported)
    live = played.extensions["pace"].live
    documents = {}
    for hhmm in ("08:19", "08:25", "08:45", "09:00", "09:10", "09:25", "09:40"):
        expected = status_document(live.field(ROUND, local(hhmm)), TZ)
        from_file = json.loads(run("status", "--backup", exported, "--at", hhmm, "--json"))
        assert from_file == expected, hhmm
        stored = run("round", "status", "--round", ROUND, "--at", hhmm, "--json",
                     "--db", settings.database.path)  # fmt: skip
        assert json.loads(stored) == expected, hhmm
        documents[hhmm] = {g["group"]: g for g in from_file["groups"]}
    assert len(documents) == 7
    # the changes are in what was judged: group 6 off at 09:05 (after a starter's gap: a lead
    # group now); group 1 a two-ball from 08:20 on, out of position at 09:10 (as the
    # three-ball of the imported draw it would be on pace)
    g1, g6 = documents["09:10"]["1"], documents["09:10"]["6"]
    assert (g6["lead"], g6["interval_min"], g6["status"]) == (True, 25.0, "on_pace")
    assert (g1["holes_completed"], g1["status"]) == (5, "out_of_position")


def test_the_export_is_not_judged_as_its_imported_draw(played, settings, tmp_path):
    """Without the changes (the draw CSV as imported) the same taps give another picture: the
    export's changes are what makes the two equal."""
    exported = tmp_path / "r1.pace.jsonl"
    run("export", "round", ROUND, "--db", settings.database.path, "-o", exported)
    lines = exported.read_text(encoding="utf-8").splitlines()
    kept = [ln for ln in lines[1:] if json.loads(ln)["type"] == "hole_completed"]
    taps_only = tmp_path / "taps-only.pace.jsonl"
    taps_only.write_text("\n".join([lines[0], *kept]) + "\n", encoding="utf-8")
    with_changes = json.loads(run("status", "--backup", exported, "--at", "09:10", "--json"))
    without = json.loads(run("status", "--backup", taps_only, "--at", "09:10", "--json"))
    assert with_changes != without
    groups = {g["group"]: g for g in without["groups"]}
    assert groups["1"]["status"] == "on_pace"  # a three-ball throughout
    # at 08:50 in the imported draw, 10 minutes after group 5: following, and overdue
    assert (groups["6"]["lead"], groups["6"]["status"]) == (False, "overdue")


def test_status_refuses_a_backup_with_the_files_it_replaces(played, settings, tmp_path):
    exported = tmp_path / "r1.pace.jsonl"
    run("export", "round", ROUND, "--db", settings.database.path, "-o", exported)
    out = run("status", "--backup", exported, "--at", "09:00", "--timezone", "UTC", code=2)
    assert "drop --timezone" in out
    out = run("status", "--at", "09:00", code=2)
    assert "--course, --draw, --times" in out and "--backup" in out

"""A referee's paper log, imported into a live round and judged offline (issue 10).

The live service and ``pace penalties`` must give the same verdicts on the same acts: each
golden scenario of ``tests/golden/penalties`` is imported into a round of a real database
(``pace import referee-log``'s use case), judged by the live referees' service, and compared
with ``pace penalties --json`` on the same files.
"""

from __future__ import annotations

import json
import tomllib
from datetime import date, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

from pace import config
from pace.cli import cli
from pace.clock import FakeClock
from pace.rules.errors import FileFormatError
from pace.services.live import LiveService
from pace.services.referee_feed import RefereeFeed
from pace.services.rounds import RoundService
from pace.store import Store, open_store

GOLDEN = Path(__file__).parents[1] / "golden" / "penalties"
SCENARIOS = sorted(p.parent for p in GOLDEN.glob("*/expected.toml"))


def scenario_runs():
    for folder in SCENARIOS:
        expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
        for run in expected["runs"]:
            yield pytest.param(folder, expected, run, id=f"{folder.name}:{run['play']}")


def offline_document(folder: Path, expected: dict, run: dict, monkeypatch) -> dict:
    """Return ``pace penalties --json`` on the scenario's files."""
    args = [
        "penalties", "--course", str(folder / "course.toml"), "--draw", str(folder / "draw.csv"),
        "--times", str(folder / "times.csv"), "--referee", str(folder / "referee.csv"),
        "--policy", run["policy"], "--play", run["play"], "--format", run["format"],
        "--date", expected["date"], "--timezone", expected["timezone"], "--json",
    ]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def scenario_settings(folder: Path, tmp_path: Path) -> config.Settings:
    base = config.load(folder / "config.toml") if (folder / "config.toml").exists() else None
    return (base or config.Settings()).replace(database={"path": str(tmp_path / "pace.db")})


@pytest.fixture
def live_round(tmp_path):
    """Return a function that sets up a scenario's round in a new database and imports its
    times and referee log; it gives the referees' service, the round's name and time zone."""
    opened: list[Store] = []

    def make(folder: Path, expected: dict, run: dict, round: str = "G1"):
        settings = scenario_settings(folder, tmp_path)
        tz = ZoneInfo(expected["timezone"])
        day = date.fromisoformat(expected["date"])
        store = open_store(settings.database.path)
        opened.append(store)
        clock = FakeClock(datetime.combine(day, time(23, 0), tzinfo=tz))
        service = RoundService(store, settings, clock)
        read = lambda name: (folder / name).read_text(encoding="utf-8-sig")  # noqa: E731
        service.import_course(read("course.toml"), "course.toml")
        service.import_draw(
            read("draw.csv"), "draw.csv", round=round, day=day, timezone=expected["timezone"],
            policy=run["policy"], play=run["play"], format=run["format"],
        )  # fmt: skip
        service.import_times(read("times.csv"), "times.csv", round=round, by="test")
        created, already = service.import_referee_log(
            read("referee.csv"), "referee.csv", round=round, by="test"
        )
        return RefereeFeed(LiveService(service)), round, tz, (created, already), service

    yield make
    for store in opened:
        store.close()


@pytest.mark.parametrize(("folder", "expected", "run"), list(scenario_runs()))
def test_the_live_service_judges_an_imported_log_as_pace_penalties_does(
    folder, expected, run, live_round, monkeypatch, tmp_path
):
    monkeypatch.chdir(tmp_path)
    if (folder / "config.toml").exists():
        monkeypatch.setenv("PACE_CONFIG", str(folder / "config.toml"))
    document = offline_document(folder, expected, run, monkeypatch)
    referee, round, tz, _, _ = live_round(folder, expected, run)

    rows = referee.penalties(round)

    def local(instant: str) -> str:
        return datetime.fromisoformat(instant).astimezone(tz).strftime("%H:%M:%S")

    live = {
        (r["group"], r["player"]): [
            (local(f["at"]), f["hole"], f["source"], f["counted"], f["reason"], f["penalty"])
            for f in r["faults"]
        ]
        for r in rows
    }
    offline: dict[tuple[str, str], list] = {}
    for f in document["faults"]:
        offline.setdefault((f["group"], f["player"]), []).append(
            (f["at"], f["hole"], f["source"], f["counted"], f["reason"], f["penalty"])
        )
    assert live == offline
    assert document["faults"], "a scenario without faults proves nothing"
    totals = {(r["group"], r["player"]): r for r in rows}
    for p in document["players"]:
        r = totals.get((p["group"], p["player"]))
        if r is None:
            assert p["counted"] == p["strokes"] == p["points"] == 0 and not p["disqualified"]
            continue
        assert (r["strokes_total"], r["points_total"], r["holes_lost"], r["disqualified"]) == (
            p["strokes"], p["points"], p["holes_lost"], p["disqualified"],
        )  # fmt: skip
        assert sum(f["counted"] for f in r["faults"]) == p["counted"]


def test_a_reimport_stores_nothing_and_says_so(live_round, tmp_path):
    folder = GOLDEN / "a_frbg_stroke_play"
    expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
    _, round, _, (created, already), service = live_round(folder, expected, expected["runs"][0])
    assert (created, already) == (24, 0)  # 24 acts under the header
    before = service.store.count_events(round)
    text = (folder / "referee.csv").read_text(encoding="utf-8")
    assert service.import_referee_log(text, "referee.csv", round=round, by="x") == (0, 24)
    assert service.store.count_events(round) == before


def test_the_import_command_reports_new_and_stored_acts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    folder = GOLDEN / "d_swin"
    db = str(tmp_path / "club.db")
    runner = CliRunner()
    for args in (
        ["import", "course", str(folder / "course.toml"), "--db", db],
        ["import", "draw", str(folder / "draw.csv"), "--round", "S1", "--date", "2025-06-14",
         "--timezone", "UTC", "--policy", "swin", "--db", db],
        ["import", "times", str(folder / "times.csv"), "--round", "S1", "--db", db],
    ):  # fmt: skip
        assert runner.invoke(cli, args).exit_code == 0
    log = ["import", "referee-log", str(folder / "referee.csv"), "--round", "S1", "--db", db]

    first = runner.invoke(cli, log)
    again = runner.invoke(cli, log)

    assert first.exit_code == 0 and first.stdout.strip() == (
        "5 referee acts imported into round 'S1'"
    )
    assert again.exit_code == 0 and again.stdout.strip() == (
        "0 referee acts imported into round 'S1', 5 acts already stored"
    )


def test_a_bad_log_imports_nothing_and_names_every_problem(live_round, tmp_path):
    folder = GOLDEN / "a_frbg_stroke_play"
    expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
    _, round, _, _, service = live_round(folder, expected, expected["runs"][0])
    before = service.store.count_events(round)
    bad = (
        "at,act,group,player,hole,kind,first,seconds\n"
        "09:00:00,decide,1,,,,,\n"  # no decision
        "09:01:00,stroke,9,Nobody,2,other,no,41\n"  # no group 9
        "09:02:00,stroke,1,Luc Nadeau,12,drive,no,41\n"  # no hole 12, no such kind
        "09:03:00,tell,1,Luc Nadeau,,,,\n"  # a good row: not stored either
    )
    with pytest.raises(FileFormatError) as caught:
        service.import_referee_log(bad, "paper.csv", round=round, by="x")
    where = [(p.line, p.field) for p in caught.value.problems]
    assert where == [(2, "decision"), (3, "group"), (4, "hole"), (4, "kind")]
    assert all(str(p).startswith("paper.csv, line ") for p in caught.value.problems)
    assert service.store.count_events(round) == before


# -- pace status --referee ------------------------------------------------------------------


def status(folder: Path, at: str, referee: bool) -> dict:
    args = [
        "status", "--course", str(folder / "course.toml"), "--draw", str(folder / "draw.csv"),
        "--times", str(folder / "times.csv"), "--at", at, "--date", "2025-06-14",
        "--timezone", "America/Toronto", "--json",
    ]  # fmt: skip
    if referee:
        args += ["--referee", str(folder / "referee.csv")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return {g["group"]: g for g in json.loads(result.stdout)["groups"]}


@pytest.mark.parametrize(
    ("at", "less"),
    [("09:59", {"1": 0, "10": 0}), ("11:10", {"1": 0, "10": 6}), ("12:50", {"1": 8, "10": 14})],
    ids=["before-the-credit", "after-the-credit", "after-the-suspension"],
)
def test_status_counts_the_logs_credits_and_sirens(tmp_path, monkeypatch, at, less):
    # scenario (c): group 10 is granted 6 minutes at 10:00; play stops 12:00-12:08
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    folder = GOLDEN / "c_mauricie_crossover"
    plain, judged = status(folder, at, False), status(folder, at, True)
    for group, minutes in less.items():
        assert round(plain[group]["over_min"] - judged[group]["over_min"], 2) == minutes

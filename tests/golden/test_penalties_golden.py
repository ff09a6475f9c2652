"""Golden penalty scenarios run end to end through ``pace penalties --json`` (issue 10).

Each folder under ``penalties/`` holds a round as a committee would hand it over after a
round timed on paper: ``course.toml``, ``draw.csv``, ``times.csv`` and ``referee.csv``
(docs/formats.md §1–§5), an optional ``config.toml`` (a committee's own policy), and
``expected.toml``:

    date = "2025-06-14"           # the round's day
    timezone = "UTC"              # the round's time zone (local times in the files)
    [[runs]]                      # one run of `pace penalties` per policy, play, format
    policy = "frbg"
    play = "stroke_play"
    format = "individual"
    faults = [ { id = "L3", group = "1", ..., penalty = "null" } ]   # exactly, in order
    players = [ { group = "1", player = "...", counted = 1, ... } ]  # every player, draw order

TOML has no null, so ``"null"`` stands for JSON ``null``. Every expectation is worked out by
hand from docs/rules.md in the comments of its file. ``tests/integration/test_referee_log.py``
imports the same files into a live round and checks that the live service judges alike.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli

HERE = Path(__file__).parent / "penalties"
SCENARIOS = sorted(p.parent for p in HERE.glob("*/expected.toml"))
FAULT_KEYS = (
    "id", "group", "player", "at", "hole", "source", "seconds", "allowed_s", "counted",
    "reason", "penalty",
)  # fmt: skip
PLAYER_KEYS = ("group", "player", "counted", "strokes", "points", "holes_lost", "disqualified")


def nulls(value: object) -> object:
    """Return ``value`` with TOML's ``"null"`` stand-ins as None, keys kept in order."""
    if value == "null":
        return None
    if isinstance(value, dict):
        return {k: nulls(v) for k, v in value.items()}
    if isinstance(value, list):
        return [nulls(v) for v in value]
    return value


def runs():
    for folder in SCENARIOS:
        expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
        for run in expected["runs"]:
            name = f"{folder.name}:{run['policy']}:{run['play']}:{run['format']}"
            yield pytest.param(folder, expected, run, id=name)


def penalties_args(folder: Path, expected: dict, run: dict) -> list[str]:
    """Return the command line of ``pace penalties`` for one run of a scenario."""
    return [
        "penalties",
        "--course", str(folder / "course.toml"),
        "--draw", str(folder / "draw.csv"),
        "--times", str(folder / "times.csv"),
        "--referee", str(folder / "referee.csv"),
        "--policy", run["policy"],
        "--play", run["play"],
        "--format", run["format"],
        "--date", expected["date"],
        "--timezone", expected["timezone"],
        "--json",
    ]  # fmt: skip


def test_there_is_a_scenario_per_policy_and_form_of_play():
    seen = {(r.values[2]["policy"], r.values[2]["play"]) for r in runs()}
    policies = {p for p, _ in seen}
    assert {"frbg", "mauricie", "swin"} <= policies and len(policies) >= 4  # and a custom one
    assert {play for _, play in seen} == {"stroke_play", "match_play"}
    assert any(r.values[2]["format"] != "individual" for r in runs()), "a team format"


@pytest.mark.parametrize(("folder", "expected", "run"), list(runs()))
def test_golden_penalties(folder, expected, run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if (folder / "config.toml").exists():
        monkeypatch.setenv("PACE_CONFIG", str(folder / "config.toml"))
    else:
        monkeypatch.delenv("PACE_CONFIG", raising=False)

    result = CliRunner().invoke(cli, penalties_args(folder, expected, run))

    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert list(document) == ["policy", "faults", "players"]
    assert document["policy"] == run["policy"]
    assert [list(f) for f in document["faults"]] == [list(FAULT_KEYS)] * len(document["faults"])
    assert [list(p) for p in document["players"]] == [list(PLAYER_KEYS)] * len(document["players"])
    want = nulls(run["faults"])
    got = document["faults"]
    assert [f["id"] for f in got] == [f["id"] for f in want], "faults in log order"
    for g, w in zip(got, want, strict=True):
        assert g == w, f"fault {w['id']}"
    assert document["players"] == nulls(run["players"])


@pytest.mark.parametrize(("folder", "expected", "run"), list(runs())[:1])
def test_without_json_the_faults_print_as_a_table(folder, expected, run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    args = [a for a in penalties_args(folder, expected, run) if a != "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"policy {run['policy']}"
    assert lines[1].split() == [
        "group", "player", "at", "hole", "seconds/allowed", "verdict", "penalty",
    ]  # fmt: skip
    first = nulls(run["faults"])[0]
    assert first["player"] in lines[2] and first["at"] in lines[2]

"""Golden scenarios run end to end through ``pace status --json`` (issue 3).

Each folder next to this file holds a round as a committee would hand it over:
``course.toml``, ``draw.csv`` and ``times.csv`` (docs/formats.md §1–§3), plus ``expected.toml``:

    date = "2025-06-14"          # the round's day
    timezone = "UTC"             # the round's time zone (local times in the files)
    interval = 10                # optional: --interval, the standard start interval
    [[instants]]
    at = "08:42"                 # --at
    groups = [                   # every group, in draw order
      { group = "A", status = "out_of_position", holes_completed = 2, lead = true,
        over_min = 1.0, gap_min = "null", interval_min = "null" },
    ]

TOML has no null, so ``"null"`` stands for JSON ``null``. Every expectation is worked out by
hand from docs/rules.md in the comments of its file; a referee can add a scenario by adding a
folder, without writing Python.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli

HERE = Path(__file__).parent
SCENARIOS = sorted(p.parent for p in HERE.glob("*/expected.toml"))
FIELDS = ("group", "status", "holes_completed", "lead", "over_min", "gap_min", "interval_min")


def _expected_group(entry: dict[str, object]) -> dict[str, object]:
    assert set(entry) == set(FIELDS), f"expected.toml entry must give exactly {FIELDS}: {entry}"
    return {k: (None if entry[k] == "null" else entry[k]) for k in FIELDS}


def _hms(text: str) -> str:
    return text if text.count(":") == 2 else f"{text}:00"


def test_there_are_at_least_five_scenarios():
    assert len(SCENARIOS) >= 5


@pytest.fixture(autouse=True)
def _default_config(tmp_path, monkeypatch):
    # The scenarios are worked out with the documented defaults (docs/rules.md numbers).
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def instants():
    for folder in SCENARIOS:
        expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
        for instant in expected["instants"]:
            yield pytest.param(folder, expected, instant, id=f"{folder.name}@{instant['at']}")


@pytest.mark.parametrize(("folder", "expected", "instant"), list(instants()))
def test_golden_scenario(folder, expected, instant):
    args = [
        "status",
        "--course",
        str(folder / "course.toml"),
        "--draw",
        str(folder / "draw.csv"),
        "--times",
        str(folder / "times.csv"),
        "--at",
        instant["at"],
        "--date",
        expected["date"],
        "--timezone",
        expected["timezone"],
        "--json",
    ]
    if "interval" in expected:
        args += ["--interval", str(expected["interval"])]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["at"] == _hms(instant["at"])
    want = [_expected_group(g) for g in instant["groups"]]
    got = document["groups"]
    assert [g["group"] for g in got] == [g["group"] for g in want], "groups in draw order"
    for g, w in zip(got, want, strict=True):
        assert g == w, f"group {w['group']} at {instant['at']}"
    assert [list(g) for g in got] == [list(FIELDS)] * len(got), "keys in docs/formats.md §4 order"

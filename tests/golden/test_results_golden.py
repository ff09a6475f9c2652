"""Golden results scenarios run end to end through ``pace results --json`` (issue 31).

Each folder under ``results/`` holds a round as a committee would hand it over after the
cards are in: ``course.toml``, ``draw.csv`` and ``scores.csv`` (docs/formats.md §1, §2, §7), plus
``expected.toml``:

    scoring = "stableford"        # --scoring
    net = true                    # --net
    format = "individual"         # optional: --format
    allowance = "90"              # optional: --allowance
    rounding = "whs"              # optional: --rounding (whs or course_then_playing)
    [[entries]]                   # every entry, in the order of the results
    entry = "Émile Dubé"
    position = 1
    tied = false
    handicap_index = 9.7
    playing_handicap = 5
    gross = 41
    net = 36
    points = 18
    result = "18 points"
    countback = "null"
    received = [1, 1, 0, 1, 1, 1, 0, 0, 0]      # the strokes received, hole by hole
    points_by_hole = [2, 3, 2, 2, 2, 2, 1, 2, 2]

A mixed field gives ``tees = "men=Yellow,women=Red"`` (``--tees``: the round's default tee
sets), and a match play scenario ``[[matches]]`` instead of entries: ``match``, ``result``,
``winner``, ``sides`` (any fields of each side, as ``[[matches.sides]]``) and ``states`` (the
state after each hole played).

TOML has no null, so ``"null"`` stands for JSON ``null``. An entry gives any of the entry
fields of the JSON document; ``received`` and ``points_by_hole`` are read from its holes.
Every expectation is worked out by hand from docs/rules.md in the comments of its file; a referee
can add a scenario by adding a folder, without writing Python.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli

HERE = Path(__file__).parent / "results"
SCENARIOS = sorted(p.parent for p in HERE.glob("*/expected.toml"))
#: what an expected entry gives from its holes, rather than from the entry itself
BY_HOLE = {"received": "received", "points_by_hole": "points"}


def nulls(value: object) -> object:
    return None if value == "null" else value


def scenarios():
    for folder in SCENARIOS:
        expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
        yield pytest.param(folder, expected, id=folder.name)


def test_there_is_a_net_stableford_scenario():
    assert any(e.values[1]["scoring"] == "stableford" and e.values[1]["net"] for e in scenarios())


@pytest.mark.parametrize(("folder", "expected"), list(scenarios()))
def test_golden_results(folder, expected, tmp_path, monkeypatch):
    # The scenarios are worked out with the documented defaults (docs/rules.md numbers).
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    args = [
        "results",
        "--course", str(folder / "course.toml"),
        "--draw", str(folder / "draw.csv"),
        "--scores", str(folder / "scores.csv"),
        "--scoring", expected["scoring"],
        "--json",
    ]  # fmt: skip
    if expected["net"]:
        args.append("--net")
    if "format" in expected:
        args += ["--format", expected["format"]]
    if "allowance" in expected:
        args += ["--allowance", str(expected["allowance"])]
    if "tees" in expected:
        args += ["--tees", expected["tees"]]
    if "rounding" in expected:
        args += ["--rounding", expected["rounding"]]

    result = CliRunner().invoke(cli, args)

    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert (document["scoring"], document["net"]) == (expected["scoring"], expected["net"])
    got = document["entries"]
    if "matches" in expected:
        check_matches(got, expected["matches"])
        return
    want = expected["entries"]
    assert [e["entry"] for e in got] == [w["entry"] for w in want], "entries in results order"
    for g, w in zip(got, want, strict=True):
        for key, value in w.items():
            if key in BY_HOLE:
                shown = [h[BY_HOLE[key]] for h in g["holes"]]
            else:
                shown = g[key]
            assert shown == nulls(value), f"{w['entry']}: {key}"


def check_matches(got: list[dict], want: list[dict]) -> None:
    """Check a match play document against its ``[[matches]]``."""
    assert [m["match"] for m in got] == [w["match"] for w in want], "matches in order"
    for g, w in zip(got, want, strict=True):
        for key, value in w.items():
            if key == "sides":
                for side, expected_side in zip(g["sides"], value, strict=True):
                    for k, v in expected_side.items():
                        assert side[k] == nulls(v), f"match {w['match']}: {side['entry']}: {k}"
            elif key == "states":
                assert [h["state"] for h in g["holes"]] == value, f"match {w['match']}: states"
            else:
                assert g[key] == nulls(value), f"match {w['match']}: {key}"

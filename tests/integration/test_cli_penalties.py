"""``pace penalties`` and ``pace status --referee`` from the command line (issue 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli

SCENARIO = Path(__file__).parents[1] / "golden" / "penalties" / "a_frbg_stroke_play"


@pytest.fixture(autouse=True)
def _default_config(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def files(tmp_path: Path, referee: str | None = None) -> list[str]:
    """Return the options naming scenario (a)'s files, the referee log replaced if given."""
    log = SCENARIO / "referee.csv"
    if referee is not None:
        log = tmp_path / "referee.csv"
        log.write_text(referee, encoding="utf-8")
    return [
        "--course", str(SCENARIO / "course.toml"), "--draw", str(SCENARIO / "draw.csv"),
        "--times", str(SCENARIO / "times.csv"), "--referee", str(log),
        "--date", "2025-06-14", "--timezone", "Europe/Brussels",
    ]  # fmt: skip


def test_the_commands_of_issue_10_are_there():
    assert {"penalties", "status"} <= set(cli.commands)
    assert "referee-log" in cli.commands["import"].commands


def test_a_bad_referee_log_exits_2_naming_file_line_and_field(tmp_path):
    log = (
        "at,act,group,player,hole,kind,first,seconds\n"
        "08:20:00,decide,1,,,,,\n"
        "08:22:10,stroke,1,Hélène Hébert,2,other,no,46.2\n"
    )
    result = CliRunner().invoke(cli, ["penalties", *files(tmp_path, log), "--json"])
    assert result.exit_code == 2
    assert f"{tmp_path / 'referee.csv'}, line 2, field 'decision'" in result.output
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [("--policy", "nope", "--policy 'nope'"), ("--play", "bowls", "--play 'bowls'"),
     ("--format", "scramble", "--format 'scramble'")],
    ids=["policy", "play", "format"],
)  # fmt: skip
def test_bad_options_exit_2(tmp_path, option, value, words):
    result = CliRunner().invoke(cli, ["penalties", *files(tmp_path), option, value])
    assert result.exit_code == 2 and words in result.output


def test_the_same_log_under_another_policy_is_judged_under_it(tmp_path):
    # swin: no extra time, a point for every breach, no gate
    result = CliRunner().invoke(cli, ["penalties", *files(tmp_path), "--policy", "swin", "--json"])
    document = json.loads(result.stdout)
    assert document["policy"] == "swin"
    counted = [f for f in document["faults"] if f["counted"]]
    assert {f["penalty"]["kind"] for f in counted} == {"points"}


def test_penalties_need_no_database(tmp_path):
    result = CliRunner().invoke(cli, ["penalties", *files(tmp_path), "--json"])
    assert result.exit_code == 0
    assert not list(tmp_path.glob("*.db"))


def test_a_decision_not_to_time_ends_the_running_spell_offline(tmp_path):
    """Issue 37: ``not_time`` while a spell ran was ignored offline (the stroke after it
    counted) and refused live; both now end the spell there, as a stop (docs/penalties.md)."""
    log = (
        "at,act,group,player,hole,kind,first,seconds,between,id,fault,decision,reason\n"
        "08:20:00,decide,1,,,,,,,,,time,\n"
        "08:22:10,stroke,1,Hélène Hébert,2,other,no,46,,,,,\n"
        "08:26:00,decide,1,,,,,,,,,not_time,ruling\n"
        "08:30:00,stroke,1,Luc Nadeau,2,other,no,47,,,,,\n"
    )
    result = CliRunner().invoke(cli, ["penalties", *files(tmp_path, log), "--json"])

    assert result.exit_code == 0, result.output
    faults = {f["id"]: (f["counted"], f["reason"]) for f in json.loads(result.stdout)["faults"]}
    assert faults == {"L3": (True, "counted"), "L5": (False, "not_timed")}  # by line

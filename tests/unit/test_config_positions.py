"""``[positions] keep_hours``: how long the groups' positions are held (issue 48, item 6).

"A setting may shorten, never lengthen, beyond 24 h": the default is 24, a shorter one is
taken, a longer one is taken as 24 with a warning as the server starts, and 0 or less is
refused with a message naming the file, the key and what is expected.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from pace import config
from pace.app import close_app, create_app

CHECKOUT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_config_in_sight(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pace.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_positions_are_held_24_hours_by_default():
    s = config.load()
    assert s.positions.keep_hours == 24.0
    assert s.positions.keep == timedelta(hours=24)


@pytest.mark.parametrize("hours", [6, 0.5, 24], ids=["six", "half-an-hour", "the-bound"])
def test_a_shorter_time_is_taken(tmp_path, hours):
    s = config.load(write(tmp_path, f"[positions]\nkeep_hours = {hours}\n"))
    assert s.positions.keep == timedelta(hours=hours)
    assert s.notes == ()


@pytest.mark.parametrize("hours", ["48", "24.5", "inf"])
def test_a_longer_time_is_taken_as_24_hours_with_a_note(tmp_path, hours):
    path = write(tmp_path, f"[positions]\nkeep_hours = {hours}\n")
    s = config.load(path)
    assert s.positions.keep == timedelta(hours=24)
    [note] = s.notes
    assert note.startswith(f"{path}: positions.keep_hours = ")
    assert "never lengthen, beyond 24 h" in note and "24 is used" in note


def test_the_server_says_the_note_as_it_starts(tmp_path, caplog):
    s = config.load(write(tmp_path, "[positions]\nkeep_hours = 72\n"))
    s = s.replace(database={"path": str(tmp_path / "pace.db")}, scheduler={"enabled": False},
                  server={"async_mode": "threading"})  # fmt: skip
    with caplog.at_level(logging.WARNING, logger="pace.app"):
        app = create_app(s)
    try:
        assert app.extensions["pace"].positions.keep == timedelta(hours=24)
    finally:
        close_app(app)
    [warning] = [r for r in caplog.records if "keep_hours" in r.getMessage()]
    assert warning.levelno == logging.WARNING
    assert "positions.keep_hours = 72.0: positions are held 24 hours at most" in (
        warning.getMessage()
    )


def test_the_repository_config_and_a_shorter_time_have_no_note(tmp_path):
    assert config.load(Path(__file__).resolve().parents[2] / "config.toml").notes == ()
    assert config.load(write(tmp_path, "[positions]\nkeep_hours = 2\n")).notes == ()


@pytest.mark.parametrize("value", ["0", "-1", "-0.5", "nan"])
def test_no_time_at_all_is_refused(tmp_path, value):
    path = write(tmp_path, f"[positions]\nkeep_hours = {value}\n")
    with pytest.raises(config.ConfigError) as refused:
        config.load(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: positions.keep_hours = ")
    assert "expected hours above 0 and at most 24" in message
    assert "leave the rounds' positions off" in message


def test_a_time_that_is_not_a_number_is_refused(tmp_path):
    expected = r"positions.keep_hours = 'six': expected a number"
    with pytest.raises(config.ConfigError, match=expected):
        config.load(write(tmp_path, '[positions]\nkeep_hours = "six"\n'))


def test_an_unknown_key_of_positions_is_refused(tmp_path):
    with pytest.raises(config.ConfigError, match=r"unknown key positions.keep_days"):
        config.load(write(tmp_path, "[positions]\nkeep_days = 1\n"))


def test_the_command_line_refuses_no_time_at_all(tmp_path):
    """A refused value stops the command with its message (exit status 2)."""
    done = subprocess.run(
        [sys.executable, "-m", "pace", "rounds", "--db", str(tmp_path / "pace.db")],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(CHECKOUT),
             "PACE_CONFIG": str(write(tmp_path, "[positions]\nkeep_hours = 0\n"))},
    )  # fmt: skip
    assert done.returncode == 2
    assert "positions.keep_hours = 0.0: expected hours above 0 and at most 24" in done.stderr

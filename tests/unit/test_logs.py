"""The log's formats (pace/web/logs.py, issue 29 §4): one JSON object a line with the fields
given, and no secret-looking value in either format, even one a message or a traceback
quotes."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from pace.web import logs


@pytest.fixture
def configured(capsys) -> Iterator[None]:
    """Let a test configure the process's logging, and put pytest's back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    commands = logging.getLogger(logs.COMMANDS).level
    yield
    for h in list(root.handlers):
        root.removeHandler(h)
    for h in handlers:
        root.addHandler(h)
    root.setLevel(level)
    logging.captureWarnings(False)
    logging.getLogger(logs.COMMANDS).setLevel(commands)


def test_json_lines_carry_the_commands_fields_and_no_secret(configured, capsys):
    logs.configure("json")
    logs.command("hole_completed", round="R1", role="marshal", outcome="ok", seconds=0.0123)
    log = logging.getLogger("pace.test")
    log.warning("GET /join?code=K7Q2-M4X9&lang=fr from %s", "10.0.0.7")
    try:
        raise ValueError("header Authorization: Bearer s3cr3t-t0ken")
    except ValueError:
        log.exception("refused /api/session?token=abcdef123")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert len(lines) == 3
    command = lines[0]
    assert command["logger"] == "pace.commands" and command["level"] == "info"
    assert (command["round"], command["command"], command["outcome"], command["role"]) == (
        "R1", "hole_completed", "ok", "marshal",
    )  # fmt: skip
    assert command["duration_ms"] == 12.3
    assert lines[1]["message"] == "GET /join?code=…&lang=fr from 10.0.0.7"
    text = json.dumps(lines)
    for secret in ("K7Q2-M4X9", "s3cr3t-t0ken", "abcdef123"):
        assert secret not in text
    assert "ValueError" in lines[2]["exception"]


def test_the_text_format_stays_a_persons_and_keeps_commands_quiet(configured, capsys):
    logs.configure("text")
    logs.command("hole_completed", round="R1", role="marshal", outcome="ok", seconds=0.01)
    logging.getLogger("pace.test").warning("link /join?code=K7Q2-M4X9 sent")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "WARNING pace.test: link /join?code=… sent" in err
    assert "K7Q2-M4X9" not in err
    with pytest.raises(json.JSONDecodeError):
        json.loads(err)

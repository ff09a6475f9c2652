"""The server's log: a line for a person (``server.log_format = "text"``, the default) or one
JSON object a line (``"json"``) for a log collector (docs/deploy.md, "Logs").

Every command (Socket.IO or ``POST /api/commands/<name>``) is one event of the
``pace.commands`` logger with its round, command, outcome and duration (``edge.handle``); in
the text format that logger stays quiet (warnings only), as the HTTP requests and the ticks
do. No line ever holds an access code, a session token, the committee secret or a cookie:
the command's line is built from the parsed command and the session's role, never from a
payload; no access log is written (``pace.web.server``: none under gevent; Werkzeug's
and Engine.IO's are off); and, should a message or a traceback quote a URL's query string or
an ``Authorization`` header anyway, ``redact`` blanks its value before the line is written.

The JSON formatter is a few lines of the standard library's ``logging`` rather than a
dependency (python-json-logger): the fields are few and fixed, and redaction has to run on the
finished text either way.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

#: the logger of the commands' events (one line per command, in the JSON format)
COMMANDS = "pace.commands"

#: what a line may quote that must not be written: the value of a query parameter or form
#: field naming a code, token, secret, key or password (``/join?code=…``), a bearer token, a
#: cookie header's value
_SECRETS = re.compile(
    r"(?i)(\b(?:code|token|secret|password|key|session)\w*=)[^&\s\"',;]+"
    r"|(\bbearer\s+)[^\s\"',;]+"
    r"|(\b(?:cookie|set-cookie):\s*)[^\r\n\"']+"
)

#: the attributes every ``LogRecord`` has: what else a record holds came with ``extra=``
_STANDARD = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def redact(text: str) -> str:
    """Return ``text`` with every secret-looking value blanked.

    >>> redact("GET /join?code=K7Q2-M4X9&lang=fr")
    'GET /join?code=…&lang=fr'
    >>> redact("Authorization: Bearer abc.def")
    'Authorization: Bearer …'
    """
    return _SECRETS.sub(lambda m: (m.group(1) or m.group(2) or m.group(3)) + "…", text)


class TextFormatter(logging.Formatter):
    """The human format, redacted."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``,
    the fields given with ``extra=`` (``round``, ``command``, ``outcome``, ``duration_ms``,
    ...) and, for an exception, ``exception`` (its traceback as text); every text redacted."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            line["exception"] = redact(self.formatException(record.exc_info))
        elif record.stack_info:
            line["stack"] = redact(self.formatStack(record.stack_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(log_format: str) -> None:
    """Log at INFO for pace to standard error in ``log_format`` ("text" or "json"), without a
    line per scheduler tick or per HTTP request (the commands' lines only in JSON)."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(TextFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)  # a library's warning is a line of the log too, not raw text
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    logging.getLogger("geventwebsocket.handler").setLevel(logging.WARNING)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # its access log: query strings
    logging.getLogger(COMMANDS).setLevel(logging.INFO if log_format == "json" else logging.WARNING)


def command(
    name: str, *, round: str | None, role: str | None, outcome: str, seconds: float
) -> None:
    """Log one command's event: its round, name, outcome (``ok``, ``duplicate`` or the
    error's code), the sender's role and how long it took."""
    logging.getLogger(COMMANDS).info(
        "%s %s in %.1f ms",
        name,
        outcome,
        seconds * 1000,
        extra={
            "round": round,
            "command": name,
            "outcome": outcome,
            "role": role,
            "duration_ms": round_ms(seconds),
        },  # fmt: skip
    )


def round_ms(seconds: float) -> float:
    """Return ``seconds`` as milliseconds to a tenth."""
    return float(f"{seconds * 1000:.1f}")

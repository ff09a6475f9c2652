"""What the ``pace`` commands share: the input error, the configuration, checks of options.

Domain errors become ``click.ClickException`` (exit status 1) except input-file problems,
which exit with status 2 after naming the file, the line and the field of each problem.
"""

from __future__ import annotations

import sys
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click

from pace import config, formats
from pace.rules.errors import FileFormatError, PaceError


class InputError(click.ClickException):
    """Bad input files or values: exit status 2, nothing half done."""

    exit_code = 2


def load_settings() -> config.Settings:
    try:
        return config.load()
    except config.ConfigError as e:
        raise InputError(str(e)) from None


def fail(e: PaceError) -> click.ClickException:
    if isinstance(e, FileFormatError):
        return InputError(e.message)
    return click.ClickException(e.message)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InputError(
            f"--timezone {name!r}: expected an IANA time zone such as 'Europe/Brussels'"
        ) from None


def check_policy(policy: str | None) -> None:
    """Refuse a policy that is neither a preset nor a ``[policies.NAME]`` of config.toml."""
    if policy is None:
        return
    names = load_settings().policy_names
    if policy not in names:
        raise InputError(f"--policy {policy!r}: expected one of {', '.join(names)}")


def check_play(play: str | None, format_name: str | None) -> None:
    from pace.store.records import FORMATS, PLAYS

    if play is not None and play not in PLAYS:
        raise InputError(f"--play {play!r}: expected one of {', '.join(PLAYS)}")
    if format_name is not None and format_name not in FORMATS:
        raise InputError(f"--format {format_name!r}: expected one of {', '.join(FORMATS)}")


def emit(text: str, output: str | None) -> None:
    """Write a command's document to ``output`` (saying so), or to the standard output."""
    if output:
        Path(output).write_text(text, encoding="utf-8", newline="")
        click.echo(f"results written to {output}")
    else:
        sys.stdout.write(text)


def read(path: str) -> str:
    try:
        return formats.read_text(path)
    except FileFormatError as e:
        raise fail(e) from None


#: the ``--db`` option of the commands that work on a stored round
db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default=None,
    help="SQLite database file, or a postgresql:// URL (default: database.path in config.toml).",
)


def open_service(db: str | None):  # type: ignore[no-untyped-def]
    """Open the database ``db`` (default: ``database.path`` of the settings) as a service."""
    from pace.services.rounds import open_service as open_round_service

    return open_round_service(load_settings(), db)

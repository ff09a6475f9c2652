"""The report commands of the ``pace`` command line: ``report``, ``letters``, ``offenders``.

Registered on the Click group by ``pace.cli`` (``register``); the rendering is
``pace.reports``' (``pace.reports.build``). Long work shows a progress bar on the terminal;
``--progress lines`` prints ``progress N/M`` lines instead.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from pace.cli import common as climod
from pace.reports.build import FORMATS, build


class _Progress:
    """Progress of long work: a bar on a terminal, ``progress N/M`` lines, or nothing."""

    def __init__(self, mode: str, label: str):
        # a bar only on a terminal: click would print its label alone otherwise
        self.mode = "none" if mode == "bar" and not sys.stderr.isatty() else mode
        self.label = label
        self.bar: Any = None
        self.done = 0

    def __call__(self, done: int, total: int, what: str = "") -> None:
        if self.mode == "lines":
            click.echo(f"progress {done}/{total} {what}".rstrip(), err=True)
            sys.stderr.flush()
        elif self.mode == "bar":
            if self.bar is None:
                self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
                self.bar.__enter__()
            self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _at(
    service: Any, round_name: str, at_text: str | None, option: str = "--at"
) -> datetime | None:
    """Return the instant ``--at HH:MM[:SS]`` names on the round's day (None: not given)."""
    from pace import formats

    if at_text is None:
        return None
    view = service.round_view(round_name)
    try:
        clock = formats.parse_clock(at_text)
    except ValueError as e:
        raise climod.InputError(f"{option} {at_text!r}: {e}") from None
    return datetime.combine(view.record.day, clock, tzinfo=view.tz)


def _write(output: str | None, data: str | bytes, what: str) -> None:
    if output is None:
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data)
        return
    if isinstance(data, bytes):
        Path(output).write_bytes(data)
    else:
        Path(output).write_text(data, encoding="utf-8")
    click.echo(f"{what} written to {output}", err=True)


def _lang_option(f: Any) -> Any:
    return click.option(
        "--lang",
        type=click.Choice(["fr", "en", "nl"]),
        default=None,
        help="Language of the report (default: the round's, else reports.language in "
        "config.toml); a letter goes in its player's language where the draw gives one.",
    )(f)


def _progress_option(f: Any) -> Any:
    return click.option(
        "--progress",
        "progress_mode",
        type=click.Choice(["bar", "lines", "none"]),
        default="bar",
        show_default=True,
        help="Progress of long work on standard error: a bar (on a terminal), lines, none.",
    )(f)


def register(cli: click.Group, db_option: Callable[[Any], Any]) -> None:
    """Add the report commands to the ``pace`` group."""

    @cli.command("report")
    @click.option("--round", "round_name", required=True, help="Round to report on.")
    @click.option(
        "--format", "fmt", type=click.Choice(FORMATS), default="html", show_default=True,
        help="html (a page to print), pdf (A4), csv (one row per hole, stroke, fault), json.",
    )  # fmt: skip
    @click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="File.")
    @click.option(
        "--excel",
        is_flag=True,
        help="CSV for a French-locale spreadsheet: ';', decimal commas, BOM.",
    )
    @click.option("--at", "at_text", default=None, help="Report the facts up to HH:MM[:SS].")
    @click.option(
        "--strip-at", "strip_text", default=None,
        help="Draw the field on the course at HH:MM[:SS] (the course strip, as a static SVG).",
    )  # fmt: skip
    @click.option(
        "--strip-reading", type=click.Choice(["corrected", "known"]), default="corrected",
        show_default=True,
        help="The strip with every correction logged since (as pace status --at), or the log "
        "as it stood at that instant (known).",
    )  # fmt: skip
    @click.option(
        "--full-charts",
        is_flag=True,
        help="PDF: each group's chart with its axes, as on the page (default: its bars over "
        "its hole grid; about 50 ms more a group).",
    )
    @_lang_option
    @_progress_option
    @db_option
    def report_command(
        round_name, fmt, output, excel, at_text, strip_text, strip_reading, full_charts, lang,
        progress_mode, db,
    ) -> None:  # fmt: skip
        """Write a round's pace-of-play report: groups, holes, episodes, referees, penalties.

        Example: pace report --round R1 --format pdf -o R1-report.pdf
        """
        from pace.rules.errors import PaceError

        if fmt == "pdf" and output is None and sys.stdout.isatty():
            raise climod.InputError("--format pdf: give -o FILE (a PDF is not for the terminal)")
        service = climod.open_service(db)
        progress = _Progress(progress_mode, "report")
        try:
            data = build(
                service, round_name, fmt, lang=service.document_language(round_name, lang),
                now=_at(service, round_name, at_text), excel=excel, full_charts=full_charts,
                progress=progress, strip_at=_at(service, round_name, strip_text, "--strip-at"),
                strip_reading=strip_reading,
            )  # fmt: skip
        except PaceError as e:
            raise climod.fail(e) from None
        finally:
            progress.close()
            service.store.close()
        _write(output, data, "report")

    @cli.command("letters")
    @click.option("--round", "round_name", required=True, help="Round the letters are about.")
    @click.option(
        "--per", type=click.Choice(["player", "group"]), default="player", show_default=True,
        help="One letter per player, or per group.",
    )  # fmt: skip
    @click.option(
        "--format", "fmt", type=click.Choice(["html", "pdf"]), default="html", show_default=True,
        help="html (print it), pdf (one letter per page).",
    )  # fmt: skip
    @click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="File.")
    @click.option("--at", "at_text", default=None, help="The facts up to HH:MM[:SS].")
    @_lang_option
    @_progress_option
    @db_option
    def letters_command(round_name, per, fmt, output, at_text, lang, progress_mode, db) -> None:
        """Write the facts-only letters of a round: one per player (or group), one per page.

        Example: pace letters --round R1 --format pdf --lang fr -o letters.pdf
        """
        from pace.rules.errors import PaceError

        if fmt == "pdf" and output is None and sys.stdout.isatty():
            raise climod.InputError("--format pdf: give -o FILE (a PDF is not for the terminal)")
        service = climod.open_service(db)
        progress = _Progress(progress_mode, "letters")
        try:
            data = build(
                service, round_name, fmt, lang=service.document_language(round_name, lang),
                now=_at(service, round_name, at_text), letters_per=per, progress=progress,
            )  # fmt: skip
        except PaceError as e:
            raise climod.fail(e) from None
        finally:
            progress.close()
            service.store.close()
        _write(output, data, "letters")

    @cli.command("offenders")
    @click.option(
        "--days", type=click.IntRange(1, 3660), default=None,
        help="Look back this many days (default: reports.offenders_days, 183).",
    )  # fmt: skip
    @click.option("--json", "as_json", is_flag=True, help="Print a JSON document.")
    @db_option
    def offenders_command(days, as_json, db) -> None:
        """List repeat offenders: players with episodes, bad times or penalties, newest first.

        Example: pace offenders --days 90
        """
        from pace.reports.offenders import offenders_document, offenders_table
        from pace.services.reports import ReportService

        service = climod.open_service(db)
        try:
            found = ReportService(service).offenders(days)
        finally:
            service.store.close()
        if as_json:
            click.echo(json.dumps(offenders_document(found), ensure_ascii=False))
        else:
            click.echo(offenders_table(found))

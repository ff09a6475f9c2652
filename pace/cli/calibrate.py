"""``pace calibrate``: the course's time pars from its finished rounds (issue 30 part 2).

Prints, per hole and group size, what the history shows against the allotment, and writes
the suggestion as a course TOML (``--out``) for the committee to import if it chooses:
nothing is applied here (docs/calibration.md).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import click

from pace.cli.common import InputError, db_option, emit, fail, open_service
from pace.rules.errors import PaceError


@click.command("calibrate")
@click.option("--course", "course_name", required=True, help="The stored course to calibrate.")
@click.option(
    "--since", default=None, help="Only the rounds played on or after this day (YYYY-MM-DD)."
)
@click.option(
    "--target", default=None,
    help="The round the suggestion sums to, H:MM (walks included); default: the observed"
    " median round.",
)  # fmt: skip
@click.option(
    "--size", type=click.IntRange(1, 6), default=None,
    help="The group size the target is for (default: the size most played); the other sizes"
    " keep their observed ratio to it.",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option(
    "--out", type=click.Path(dir_okay=False), default=None,
    help="Write the suggestion as a course TOML to this file (import it with pace import course).",
)  # fmt: skip
@click.option(
    "--name", default=None,
    help="The name of the suggested course in the file (default: the course's name and"
    " '(calibrated DAY)').",
)  # fmt: skip
@db_option
def calibrate_command(
    course_name: str,
    since: str | None,
    target: str | None,
    size: int | None,
    as_json: bool,
    out: str | None,
    name: str | None,
    db: str | None,
) -> None:
    """Show each hole's time from the course's finished rounds against its allotment, with a
    suggested allotment per hole summing to the target; --out writes it as a course TOML.

    The suggestion is never applied: the committee imports the file if it chooses.

    Example: pace calibrate --course "Golf de Louiseville" --target 4:10 --out suggested.toml
    """
    from pace.services import calibration as calsvc

    try:
        day = date.fromisoformat(since) if since else None
    except ValueError:
        raise InputError(f"--since {since!r}: expected a day as YYYY-MM-DD") from None
    service = open_service(db)
    try:
        goal = calsvc.parse_target(target) if target else None
        c = calsvc.CalibrationService(service).calibrate(
            calsvc.Request(course_name, day, goal, size)
        )
        if as_json:
            emit(json.dumps(calsvc.document(c), indent=2) + "\n", None)
        else:
            click.echo("\n".join(calsvc.table(c)))
        if out:
            if not any(col.suggested for col in c.columns):
                raise click.ClickException("no suggestion to write: the history is too thin")
            title = name or calsvc.suggestion_name(c.course, service.clock.now().date())
            Path(out).write_text(calsvc.suggestion_toml(c, title), encoding="utf-8")
            click.echo(
                f"suggestion written to {out} as course {title!r}: not applied;"
                " pace import course applies it"
            )
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()

"""``pace export round`` and ``pace import round``: a round's backup and its restore.

The file is JSON Lines (``pace.formats.backup``): the round's setup, then its log, one event a
line. Restored into any database, of either engine, it gives the same judgement, and its export
is the same file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pace.cli.common import db_option, fail, read
from pace.cli.common import open_service as _open_service
from pace.rules.errors import PaceError


@click.group("export")
def export_group() -> None:
    """Export a round (its setup and its whole log, to back it up or to move it) or a course
    (the course TOML that pace import course reads back).

    Example: pace export round R1 --db club.db -o r1.pace.jsonl
    """


@export_group.command("round")
@click.argument("round_name", metavar="ROUND")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: standard output).")  # fmt: skip
@db_option
def export_round(round_name: str, output: str | None, db: str | None) -> None:
    """Write a round's backup: course, setup, draw and every event, in log order.

    Example: pace export round R1 --db postgresql://pace@db/pace -o r1.pace.jsonl
    """
    from pace.services.backup import export_round as export

    service = _open_service(db)
    try:
        text = export(service, round_name)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    if output is None:
        sys.stdout.write(text)
        return
    with open(output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    events = text.count("\n") - 1
    click.echo(f"round {round_name!r}: {events} events written to {output}", err=True)


@export_group.command("course")
@click.argument("name")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: standard output).")  # fmt: skip
@db_option
def export_course(name: str, output: str | None, db: str | None) -> None:
    """Write a stored course as course TOML (docs/formats.md §1): `pace import course` reads
    it back to the same course. A course with a map has it written beside the file, as
    FILE.geojson (`pace import geometry` reads it back).

    Example: pace export course "Golf de Louiseville" --db club.db -o louiseville.toml
    """
    from pace.services.geometry import export_geometry

    service = _open_service(db)
    try:
        text = service.export_course(name)
        geometry = export_geometry(service, name)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    if output is None:
        sys.stdout.write(text)
        if geometry is not None:
            click.echo(f"course {name!r} has a map: give -o FILE to write it too", err=True)
        return
    with open(output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    click.echo(f"course {name!r}: {text.count('[[holes]]')} holes written to {output}", err=True)
    if geometry is not None:
        # its map beside it, as GeoJSON: pace import geometry reads it back
        beside = str(Path(output).with_suffix(".geojson"))
        with open(beside, "w", encoding="utf-8", newline="\n") as f:
            f.write(geometry)
        click.echo(f"course {name!r}: its map written to {beside}", err=True)


@click.command("round")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@db_option
def import_round(file: str, db: str | None) -> None:
    """Restore a round from its backup (all or nothing; restoring it again adds nothing).

    Example: pace import round r1.pace.jsonl --db restored.db
    """
    from pace.services.backup import restore_round

    service = _open_service(db)
    try:
        done = restore_round(service, read(file), file)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    what = "restored" if done.new_round else "already stored"
    click.echo(f"round {done.round!r} {what}: {done.created} events restored, "
               f"{done.already} already stored")  # fmt: skip

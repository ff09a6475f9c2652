"""The commands of competitions of several rounds: ``pace event create|list|show`` and the
``--event`` of ``pace results`` (issue 28; docs/scoring.md, "Competitions of several rounds").
"""

from __future__ import annotations

import json

import click

from pace.cli.common import InputError, db_option, emit, open_service
from pace.rules.errors import PaceError


@click.group("event")
def event_group() -> None:
    """Competitions of 2–4 stored rounds (36 to 72 holes): their setup; their results are
    `pace results --event NAME`.

    Example: pace event create "Club championship" --round R1 --round R2 --cut-after 1 --cut-top 10
    """


@event_group.command("create")
@click.argument("name")
@click.option(
    "--round", "rounds", multiple=True, required=True,
    help="A stored round of the competition, in playing order (give 2 to 4).",
)  # fmt: skip
@click.option(
    "--scoring", default=None,
    help="gross, net or points (Stableford); default: what its rounds are scored by, which it "
    "must be.",
)  # fmt: skip
@click.option("--cut-after", type=int, default=None, help="The cut falls after this round.")
@click.option("--cut-top", type=int, default=None, help="Cut: the top N and ties make it.")
@click.option(
    "--cut-within", type=int, default=None,
    help="Cut: every player within X strokes of the lead makes it (Stableford: X points).",
)  # fmt: skip
@db_option
def event_create(name, rounds, scoring, cut_after, cut_top, cut_within, db) -> None:
    """Set up a competition of stored rounds, with an optional cut; all or nothing.

    Example: pace event create "Club championship" --round R1 --round R2 --cut-after 1 --cut-top 10

    Example: pace event create Seniors --round S1 --round S2 --round S3 --cut-after 2 --cut-within 8
    """
    from pace.rules.scoring.competition import Cut
    from pace.services.competitions import create_competition

    cut = None
    if cut_after is not None or cut_top is not None or cut_within is not None:
        if cut_after is None:
            raise InputError(
                "--cut-top and --cut-within need --cut-after N: the round the cut follows"
            )
        cut = Cut(cut_after, cut_top, cut_within)
    service = open_service(db)
    try:
        record = create_competition(service, name, rounds, scoring=scoring, cut=cut)
    except PaceError as e:
        raise InputError(e.message) from None
    finally:
        service.store.close()
    click.echo(f"event {record.name!r}: {_setup(record)}")


@event_group.command("list")
@db_option
def event_list(db) -> None:
    """List the competitions: rounds, scoring, cut.

    Example: pace event list --db club.db
    """
    service = open_service(db)
    try:
        records = service.store.list_competitions()
    finally:
        service.store.close()
    if not records:
        click.echo("no event yet: pace event create NAME --round R1 --round R2")
    for r in records:
        click.echo(f"{r.name}: {_setup(r)}")


@event_group.command("show")
@click.argument("name")
@db_option
def event_show(name, db) -> None:
    """Show a competition's setup and its rounds (day, course, holes, scores so far).

    Example: pace event show "Club championship"
    """
    service = open_service(db)
    try:
        record = service.store.get_competition(name)
        lines = [f"event {record.name!r}: {_setup(record)}"]
        for n, r in enumerate(record.rounds, start=1):
            rr = service.store.get_round(r)
            scored = len(service.store.events(r, types=("score_recorded",)))
            lines.append(
                f"  round {n}: {r!r} on {rr.day}, {rr.course.name} ({len(rr.course.holes)} holes),"
                f" {sum(g.size for g in rr.groups)} players, {scored} scores recorded"
            )
    except PaceError as e:
        raise InputError(e.message) from None
    finally:
        service.store.close()
    click.echo("\n".join(lines))


def _setup(record) -> str:  # type: ignore[no-untyped-def]
    cut = f"cut {record.cut.describe(record.scoring)}" if record.cut else "no cut"
    rounds = ", ".join(record.rounds)
    return f"{record.scoring}, {len(record.rounds)} rounds ({rounds}), {cut}"


def event_results(name, db, as_json, as_csv, excel, output) -> None:  # type: ignore[no-untyped-def]
    """Print ``pace results --event NAME``: each round judged at the end of its day."""
    from pace.reports import competition as report
    from pace.services.competitions import competition_results
    from pace.services.live import LiveService
    from pace.services.offline import end_of_day
    from pace.services.referee_feed import RefereeFeed
    from pace.services.scores import ScoreService

    service = open_service(db)
    try:
        live = LiveService(service)
        scores = ScoreService(live, RefereeFeed(live))
        # each round judged at the end of its day: every act of the day is in
        outcome = competition_results(scores, name, lambda v: end_of_day(v.record.day, v.tz))
    except PaceError as e:
        raise InputError(e.message) from None
    finally:
        service.store.close()
    for warning in outcome.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        text = json.dumps(report.competition_document(outcome), ensure_ascii=False) + "\n"
    elif as_csv or excel:
        text = report.competition_csv(outcome, excel=excel)
    else:
        text = report.competition_table(outcome) + "\n"
    emit(text, output)

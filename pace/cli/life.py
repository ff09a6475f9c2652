"""A round's life on the command line: ``pace round finish|final|reopen|status`` (issue 28).

The same acts as the committee's console, through the same service
(:class:`pace.services.life.RoundLifeService`): each is an event of the round's log with
who (``--by``) and when, which a running server reads at its next command or tick.
"""

from __future__ import annotations

import json

import click

from pace.cli.common import db_option, fail, open_service
from pace.rules.errors import PaceError
from pace.rules.reported import COMPLETIONS
from pace.rules.scoring.handicaps import ROUNDINGS

_round = click.option("--round", "round_name", required=True, help="The stored round.")
_by = click.option(
    "--by", default="committee", show_default=True,
    help="Who acts for the committee (kept with the act in the audit).",
)  # fmt: skip


@click.group("round")
def round_group() -> None:
    """A round's life: planned, in play, finished, results final (docs/status.md); the CLI
    serves these commands under ``pace round`` beside the changes on the day.

    Example: pace round finish --round R1 --by "J. Martin" && pace round final --round R1
    """


def _act(round_name: str, db: str | None, act: str, by: str, reason: str | None = None) -> None:
    from pace.services.commands import Author
    from pace.services.life import RoundLifeService
    from pace.services.live import LiveService

    service = open_service(db)
    try:
        life = RoundLifeService(LiveService(service))
        author = Author("committee", "cli", by)
        if act == "finish":
            outcome = life.finish(round_name, author)
        elif act == "final":
            outcome = life.finalise(round_name, author)
        else:
            outcome = life.reopen(round_name, author, reason or "")
        click.echo(_line(life.document(outcome.event.round)))
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()


def _line(doc: dict) -> str:  # type: ignore[type-arg]
    """Return the round's life in one line: its stage, and who finished or finalised it."""
    words = [f"round {doc['round']}: {doc['stage'].replace('_', ' ')}"]
    finished = doc["finished"]
    if finished is not None:
        who = "last hole logged" if finished["implied"] else f"by {finished['by']}"
        words.append(f"finished {finished['at']} ({who})")
    if doc["finalised"] is not None:
        words.append(f"results final {doc['finalised']['at']} (by {doc['finalised']['by']})")
    for r in doc["reopened"]:
        words.append(f"reopened {r['at']} (by {r['by']}: {r['reason']})")
    return "; ".join(words)


@round_group.command("finish")
@_round
@_by
@db_option
def round_finish(round_name, by, db) -> None:
    """Finish a round (implied once the last group's last hole is logged).

    Example: pace round finish --round R1 --by "J. Martin"
    """
    _act(round_name, db, "finish", by)


@round_group.command("final")
@_round
@_by
@db_option
def round_final(round_name, by, db) -> None:
    """Make a finished round's results final: no score, correction, referee's act, completion
    or void of one is taken afterwards, until the results are reopened.

    Example: pace round final --round R1 --by "J. Martin"
    """
    _act(round_name, db, "final", by)


@round_group.command("reopen")
@_round
@click.option("--reason", required=True, help="Why the results are reopened (audited).")
@_by
@db_option
def round_reopen(round_name, reason, by, db) -> None:
    """Reopen final results, with the reason: scores and penalties may change again.

    Example: pace round reopen --round R1 --reason "card of group 4 mis-added" --by "J. Martin"
    """
    _act(round_name, db, "reopen", by, reason)


@round_group.command("completions")
@_round
@click.argument("setting", type=click.Choice(COMPLETIONS))
@db_option
def round_completions(round_name, setting, db) -> None:
    """Say where a round's completions come from: officials (the taps only),
    officials_and_groups (the groups' scorecards report too; an official's tap wins) or
    groups (no marshal: the scorecards report). Docs: docs/status.md "Groups' reports".

    Example: pace round completions groups --round R1
    """
    service = open_service(db)
    try:
        record = service.set_completions(round_name, setting)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    click.echo(f"round {record.name}: completions from {record.completions.replace('_', ' ')}")


@round_group.command("positions")
@_round
@click.argument("setting", type=click.Choice(("on", "off")))
@db_option
def round_positions(round_name, setting, db) -> None:
    """Allow (on) or refuse (off, the default) positions from the groups' phones for a round:
    the scorers' pages may then share where their group is, with its consent; hole completions
    are inferred from them (docs/positions.md).

    Example: pace round positions on --round R1
    """
    service = open_service(db)
    try:
        record = service.set_positions(round_name, setting == "on")
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    state = "allowed" if record.positions else "not allowed"
    click.echo(f"round {record.name}: positions from the groups' phones {state}")


@round_group.command("handicap")
@_round
@click.option(
    "--rounding",
    type=click.Choice(ROUNDINGS),
    required=True,
    help="The playing handicap: whs (the unrounded course handicap times the allowance, "
    "rounded once) or course_then_playing (rounded twice).",
)
@click.option(
    "--gross-par-adjustment/--no-gross-par-adjustment",
    required=True,
    help="Gross stroke and match play from tees of different par: the difference in par off "
    "the gross of the higher par (WHS Rule 6.2b) or not.",
)
@db_option
def round_handicap(round_name, rounding, gross_par_adjustment, db) -> None:
    """Set a round's readings of the handicap rules (docs/scoring.md, "Handicaps"): its
    results, leaderboard and sheets follow them; refused while its results are final.

    Example: pace round handicap --round R1 --rounding whs --gross-par-adjustment
    """
    service = open_service(db)
    try:
        record = service.set_handicap_readings(
            round_name, rounding=rounding, gross_par_adjustment=gross_par_adjustment
        )
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    adjusted = "adjusted" if record.gross_par_adjustment else "not adjusted"
    click.echo(
        f"round {record.name}: playing handicaps {record.rounding}, gross from tees of "
        f"different par {adjusted}"
    )


@round_group.command("life")
@_round
@click.option("--json", "as_json", is_flag=True, help="Print the JSON document instead.")
@db_option
def round_status(round_name, as_json, db) -> None:
    """Say where a round is in its life, and who finished it or made its results final.

    Example: pace round life --round R1 --json
    """
    from pace.services.life import RoundLifeService
    from pace.services.live import LiveService

    service = open_service(db)
    try:
        doc = RoundLifeService(LiveService(service)).document(round_name)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    click.echo(json.dumps(doc, ensure_ascii=False) if as_json else _line(doc))

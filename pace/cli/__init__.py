"""The ``pace`` command line: a Click group.

The commands that work on a database (``init``, ``access``, ``serve``, ``rounds``,
``import``, ``demo``) are here; the offline ones (``status``, ``penalties``, ``results``,
``sheet``) in ``pace.cli.offline``. Errors: ``pace.cli.common``.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import click

from pace import __version__, formats
from pace.cli import backup as backup_cli
from pace.cli import calibrate as calibrate_cli
from pace.cli import changes as changes_cli
from pace.cli import clubs as clubs_cli
from pace.cli import competitions as competitions_cli
from pace.cli import life as life_cli
from pace.cli import offline
from pace.cli import reports as reports_cli
from pace.cli import scoring as scoring_cli
from pace.cli.common import (
    InputError,
    check_play,
    check_policy,
    db_option,
    fail,
    load_settings,
    read,
    zone,
)
from pace.cli.common import open_service as _open_service
from pace.formats.geometry import MAX_BYTES as MAX_GEOMETRY_BYTES
from pace.rules.errors import PaceError
from pace.rules.reported import COMPLETIONS
from pace.rules.scoring.handicaps import ROUNDINGS


class PaceGroup(click.Group):
    """A Click group whose commands never end in a traceback for a domain error.

    A ``PaceError`` that escapes a command (the database locked by a backup while the store
    opens, say) is printed as its message, like the ones each command catches itself.
    """

    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except PaceError as e:
            raise fail(e) from None


@click.group(cls=PaceGroup)
@click.version_option(__version__, prog_name="pace")
def cli() -> None:
    """pace: pace-of-play timing and referee tool for golf and swin-golf.

    Example: pace import course course.toml && pace import draw draw.csv --round R1
    """


@cli.command()
@db_option
def init(db: str | None) -> None:
    """Create an empty database (tables and migrations), or upgrade an existing one.

    Example: pace init --db club.db
    """
    service = _open_service(db)
    try:
        click.echo(f"database ready: {service.store.location}")
        _show_committee_secret(service)
    finally:
        service.store.close()


def _show_committee_secret(service) -> None:
    """Make the committee account of an empty database and print its secret, this once."""
    from pace.services.access import AccessService, secret_notice

    secret = AccessService(
        service.store, service.settings, service.clock
    ).ensure_committee_account()
    if secret is not None:
        interactive = sys.stdout.isatty()
        click.echo(secret_notice(secret, service.store.location, interactive=interactive))


@cli.group("access")
def access_group() -> None:
    """Access codes: who may use which pages and commands (docs/access.md).

    Example: pace access code --round R1 --role marshal
    """


@access_group.command("code")
@click.option("--round", "round_name", required=True, help="Round the code opens.")
@click.option(
    "--role",
    required=True,
    type=click.Choice(["committee", "referee", "scorer", "marshal", "viewer"]),
    help="Role of whoever enters the code.",
)
@click.option("--label", default=None, help="A note kept with the code (e.g. 'hole 7').")
@click.option(
    "--count", type=click.IntRange(1, 100), default=1, show_default=True, help="How many codes."
)
@click.option(
    "--url",
    default=None,
    help="Server address to print /join links for; each opens its role's page (a marshal's"
    " the marshal page, a referee's and the committee's the dashboard, a viewer's the board).",
)
@db_option
def access_code(round_name, role, label, count, url, db) -> None:
    """Make access codes for a round and a role; each is printed once and stored hashed.

    Example: pace access code --round R1 --role marshal --count 6 --url http://10.0.0.2:5000
    """
    from pace.services.access import AccessService, join_link

    service = _open_service(db)
    try:
        access = AccessService(service.store, service.settings, service.clock)
        round_name = service.round_view(round_name).record.name  # its canonical spelling
        for _ in range(count):
            code = access.create_code(round_name, role, label)
            line = f"{role}\t{round_name}\t{code}"
            if url:
                line += f"\t{join_link(url, code, role, round_name)}"
            click.echo(line)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()


@access_group.command("cards")
@click.option("--round", "round_name", required=True, help="Round the codes open.")
@click.option(
    "--role", "roles", multiple=True, required=True,
    type=click.Choice(["committee", "referee", "scorer", "marshal", "viewer"]),
    help="Role of a batch of cards; repeat for each role (--role marshal --count 8 --role "
    "referee --count 2).",
)  # fmt: skip
@click.option(
    "--count", "counts", multiple=True, type=click.IntRange(1, 100),
    help="How many cards of the --role given in the same place (default 1 each).",
)  # fmt: skip
@click.option(
    "--url", required=True,
    help="Server address as the phones reach it (e.g. http://10.0.0.2:5000): the QR codes open "
    "its /join page, which signs in and opens the role's page.",
)  # fmt: skip
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False), help="PDF file to write."
)
@click.option(
    "--layout", type=click.Choice(["2x4", "3x3"]), default="2x4", show_default=True,
    help="Cards per A4 page: 2 columns of 4, or 3 of 3.",
)  # fmt: skip
@click.option(
    "--lang", type=click.Choice(["fr", "en", "nl"]), default=None,
    help="Language of the cards (default: the round's, else reports.language in config.toml).",
)  # fmt: skip
@db_option
def access_cards(round_name, roles, counts, url, output, layout, lang, db) -> None:
    """Make access codes and print them as an A4 sheet of cards to cut (PDF): one card per
    code, with its role, its round, the QR code of its /join link and the code in large type.

    The codes are shown only once, on these cards: they are stored hashed. Keep the PDF as you
    would the cards, and revoke a lost card's code (pace access list: its label says "card N/M").

    Example: pace access cards --round R1 --role marshal --count 8 --role referee --count 2
    --url http://10.0.0.2:5000 -o cards.pdf
    """
    from pace.reports.cards import cards_pdf
    from pace.services.access import AccessService
    from pace.services.cards import make_cards

    if len(counts) > len(roles):
        raise InputError(
            f"{len(counts)} --count for {len(roles)} --role: give each --count after its --role"
        )
    wanted = [(role, counts[i] if i < len(counts) else 1) for i, role in enumerate(roles)]
    service = _open_service(db)
    try:
        access = AccessService(service.store, service.settings, service.clock)
        round_name = service.round_view(round_name).record.name  # its canonical spelling
        cards = make_cards(access, round_name, wanted, url)
        pdf = cards_pdf(cards, service.document_language(round_name, lang), layout)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    with open(output, "wb") as f:
        f.write(pdf)
    made = ", ".join(f"{n} {role}" for role, n in wanted)
    click.echo(f"{len(cards)} codes made for round {round_name!r} ({made}); cards written to "
               f"{output}. The codes are on these cards only.")  # fmt: skip


@access_group.command("list")
@click.option("--round", "round_name", default=None, help="Only the codes of this round.")
@db_option
def access_list(round_name, db) -> None:
    """List the access codes (never the codes themselves): id, role, round, label, state.

    Example: pace access list --round R1
    """
    service = _open_service(db)
    try:
        if round_name is not None:
            service.store.get_round(round_name)
        for c in service.store.access_codes(round=round_name):
            state = f"revoked {c.revoked_at.isoformat()}" if c.revoked_at else "active"
            line = [str(c.id), c.role, c.round or "*", c.label or "", f"{c.prefix}…", state]
            click.echo("\t".join(line))
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()


@access_group.command("revoke")
@click.argument("ids", nargs=-1, type=click.IntRange(1), required=True)
@db_option
def access_revoke(ids, db) -> None:
    """Revoke access codes by id (see pace access list): they open nothing any more, and the
    sessions they opened end now (a running server closes their sockets within a minute).

    Example: pace access revoke 4 7
    """
    from pace.services.access import AccessService

    service = _open_service(db)
    try:
        access = AccessService(service.store, service.settings, service.clock)
        for code_id in ids:
            ended = access.revoke_code(code_id)
            click.echo(f"code {code_id} revoked; {len(ended)} session(s) ended")
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()


@cli.command()
@db_option
@click.option("--host", default=None, help="Address to listen on (default: server.host).")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=None,
    help="Port to listen on, 1-65535 (default: server.port).",
)
@click.option(
    "--clock-origin",
    default=None,
    help="Start the server's clock at this ISO 8601 instant (rehearsals, tests).",
)
@click.option(
    "--clock-speed",
    type=float,
    default=None,
    help="Run the server's clock this many times faster than real time (default 1).",
)
@click.option(
    "--tick", type=float, default=None, help="Scheduler tick in seconds (default: config)."
)
@click.option(
    "--message-queue",
    default=None,
    help="Redis URL shared by several workers, e.g. redis://127.0.0.1:6379/0 (default: "
    "server.message_queue; none: this process is the only worker).",
)
def serve(db, host, port, clock_origin, clock_speed, tick, message_queue) -> None:
    """Serve the pages and the live Socket.IO endpoint on the configured host and port.

    Several workers on one PostgreSQL database share a Redis (--message-queue): a tap on
    one reaches the pages of all, and each round ticks on one of them (docs/deploy.md).

    Example: pace serve --db club.db --port 5001

    Example: pace serve --db postgresql://pace@db/pace --message-queue redis://db:6379/0
    """
    from pace import app as appmod
    from pace import config

    settings = load_settings()
    try:
        settings = config.checked(
            settings.replace(
                server={
                    "host": host or settings.server.host,
                    "port": port or settings.server.port,
                    "message_queue": settings.server.message_queue
                    if message_queue is None
                    else message_queue,
                },
                database={"path": db or settings.database.path},
                scheduler={"tick_seconds": tick or settings.scheduler.tick_seconds},
            )
        )
    except config.ConfigError as e:
        raise InputError(e.message) from None
    appmod.serve(settings, clock=_clock(clock_origin, clock_speed))


def _clock(origin: str | None, speed: float | None):
    from pace.clock import AcceleratedClock

    if origin is None and speed is None:
        return None
    if speed is not None and speed <= 0:
        raise InputError(f"--clock-speed {speed!r}: expected a number above 0")
    start = datetime.now().astimezone()
    if origin is not None:
        try:
            start = datetime.fromisoformat(origin)
        except ValueError:
            raise InputError(f"--clock-origin {origin!r}: expected an ISO 8601 instant") from None
        if start.tzinfo is None:
            raise InputError(f"--clock-origin {origin!r}: give the UTC offset, e.g. +02:00")
    return AcceleratedClock(start, speed or 1.0)


@cli.command("rounds")
@click.option("--club", default=None, help="Only this club's rounds (default: every club's).")
@db_option
def rounds_command(club: str | None, db: str | None) -> None:
    """List the rounds in the database (with their club, once there are several).

    Example: pace rounds --db club.db
    """
    from pace.services.accounts import club_id

    service = _open_service(db)
    try:
        rounds = service.list_rounds(None if club is None else club_id(club))
        several = len(service.store.clubs()) > 1
        if not rounds:
            click.echo("no rounds yet: pace import course FILE, then pace import draw FILE")
        for r in rounds:
            line = f"{r.name}\t{r.day}\t{r.course}\t{r.groups} groups\t{r.events} events"
            click.echo(f"{line}\t{r.club}" if several else line)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()


@cli.group("import")
def import_group() -> None:
    """Import a course, a draw, paper hole times or a referee's paper log (all or nothing).

    Example: pace import times times.csv --round R1
    """


CLUB_OPTION = click.option(
    "--club",
    default="default",
    show_default=True,
    help="The club it belongs to, on an instance of several clubs (pace club list).",
)


@import_group.command("course")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@CLUB_OPTION
@db_option
def import_course(file: str, club: str, db: str | None) -> None:
    """Import a course TOML (docs/formats.md §1), replacing a course of the same name.

    Example: pace import course louiseville.toml
    """
    from pace.services.accounts import club_id

    service = _open_service(db)
    notes: list[str] = []
    try:
        course = service.import_course(read(file), file, notes, club=club_id(club))
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    for note in notes:
        click.echo(f"note: {note}")
    click.echo(f"course {course.name!r}: {len(course.holes)} holes imported")


@import_group.command("geometry")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--course", "course_name", required=True, help="The stored course it maps.")
@click.option(
    "--map-course",
    default="",
    help="Of a site with several courses: the OpenStreetMap golf course's name.",
)
@click.option(
    "--ref-pattern",
    default="",
    help="Of a site with several courses: its holes' refs, * for the number (*W).",
)
@click.option(
    "--preview", is_flag=True, help="Show the holes matched and the file's courses; store nothing."
)
@db_option
def import_geometry(
    file: str, course_name: str, map_course: str, ref_pattern: str, preview: bool, db: str | None
) -> None:
    """Import a course's map: its holes from an OpenStreetMap export (.osm XML or GeoJSON:
    golf=hole ways with ref and par, golf=tee and golf=green areas), checked against the
    course hole by hole (docs/formats.md, "Course geometry"); replaces its map. A file of a
    site with several courses names its choices: pick one with --map-course or --ref-pattern.

    Example: pace import geometry melbourne.osm --course West --map-course "West Course"
    """
    from pace.formats.geometry import MapFileError, MapMatch
    from pace.formats.mapfile import size_problem
    from pace.services.geometry import import_geometry as store_geometry
    from pace.services.geometry import preview_geometry

    too_large = size_problem(os.path.getsize(file), file)
    if too_large is not None:
        raise fail(too_large)
    service = _open_service(db)
    choice = {"map_course": map_course, "ref_pattern": ref_pattern}
    try:
        with open(file, "rb") as f:
            data = f.read(MAX_GEOMETRY_BYTES + 1)
        act = preview_geometry if preview else store_geometry
        match: MapMatch = act(service, data, file, course_name, **choice)
    except MapFileError as e:
        lines = [e.message, *_choice_lines(e.choices)] if e.choices else [e.message]
        raise InputError("\n".join(lines)) from None
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    chosen = ""
    if match.chosen is not None:
        which = "the file's course" if match.chosen.kind == "course" else "refs"
        chosen = f", from {which} {match.chosen.value!r}"
    if not preview:
        click.echo(f"course {course_name!r}: the map of {len(match.geometry['holes'])} holes"
                   f" imported{chosen}")  # fmt: skip
        return
    click.echo(f"course {course_name!r}: the map of {len(match.holes)} holes read{chosen};"
               " nothing stored (without --preview it would be)")  # fmt: skip
    if len(match.choices) > 1:
        click.echo("\n".join(_choice_lines(match.choices)))
    click.echo(f"{'hole':>4}  {'ref':<12}{'par':>4}  {'length':<10}name")
    for h in match.holes:
        dash = "-"
        click.echo(f"{h['number']:>4}  {h['ref']:<12}{h['par'] or dash:>4}  "
                   f"{h['length'] or dash:<10}{h['name'] or dash}")  # fmt: skip


def _choice_lines(choices: Sequence[Any]) -> list[str]:
    """Return a map file's courses as the options that choose each."""
    lines = ["the file's courses:"]
    for c in choices:
        option = "--map-course" if c.kind == "course" else "--ref-pattern"
        refs = f"{c.refs[0]}–{c.refs[-1]}" if c.refs else ""
        lines.append(f"  {option} {shlex.quote(c.value):<20} {len(c.refs)} holes: {refs}")
    return lines


def _tee_defaults(text: str | None) -> dict[str, str] | None:
    """Return a ``--tees`` option's defaults; ``InputError`` when it is not GENDER=TEES."""
    if not text:
        return None
    try:
        return formats.parse_tee_defaults(text)
    except ValueError as e:
        raise InputError(f"--tees: {e}") from None


@import_group.command("draw")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--round", "round_name", required=True, help="Round name (created if new).")
@click.option("--course", default=None, help="Course of a new round (default: the only one).")
@click.option(
    "--date",
    "day",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="Day of a new round, YYYY-MM-DD (default: today).",
)
@click.option("--timezone", default=None, help="Time zone of a new round (default: config).")
@click.option(
    "--policy",
    default=None,
    help="Pace policy: frbg, mauricie, swin or a [policies.NAME] of config.toml (default: config).",
)
@click.option(
    "--play", default=None, help="Form of play: stroke_play or match_play (default: stroke_play)."
)
@click.option(
    "--format",
    "format_name",
    default=None,
    help="Scoring format: individual, foursome, threesome, greensome, four_ball or best_ball"
    " (default: individual).",
)
@click.option(
    "--scoring",
    default=None,
    help="Way of scoring: stroke, stableford, match, bogey or par (it sets --play; default: "
    "what the form of play implies).",
)
@click.option("--net/--gross", default=None, help="Net (strokes received) or gross scoring.")
@click.option(
    "--allowance",
    default=None,
    help="The round's own handicap allowance in percent (greensome: 60/40), instead of "
    "config.toml's [handicap].",
)
@click.option(
    "--completions",
    type=click.Choice(COMPLETIONS),
    default=None,
    help="Where completions come from: officials, officials_and_groups or groups (the groups' "
    "scorecards report; docs/status.md). Default: config.toml's [round] completions.",
)
@click.option(
    "--tees",
    "tee_defaults",
    default=None,
    help="Default tees by gender or class for players the draw's tees column leaves empty, "
    "e.g. men=Yellow,women=Red,B=Red or heren=Geel,dames=Rood (docs/formats.md §2).",
)
@click.option(
    "--rounding",
    type=click.Choice(ROUNDINGS),
    default=None,
    help="The round's playing handicap: whs (the unrounded course handicap times the "
    "allowance, rounded once) or course_then_playing (rounded twice). Default: a new round "
    "takes config.toml's [handicap] rounding.",
)
@click.option(
    "--gross-par-adjustment/--no-gross-par-adjustment",
    default=None,
    help="The round's gross stroke and match play from tees of different par: the difference "
    "in par off the gross of the higher par (WHS Rule 6.2b) or not. Default: a new round "
    "takes config.toml's [handicap] gross_par_adjustment.",
)
@CLUB_OPTION
@db_option
def import_draw(
    file, round_name, course, day, timezone, policy, play, format_name, scoring, net, allowance,
    completions, tee_defaults, rounding, gross_par_adjustment, club, db,
) -> None:  # fmt: skip
    """Import a draw CSV into a round (created if new; replaced while it has no events).

    Example: pace import draw draw.csv --round "Club championship R1" --date 2026-06-14

    Example: pace import draw draw.csv --round R1 --scoring stableford --net --allowance 90
    """
    from pace.services.accounts import club_id

    if timezone is not None:
        zone(timezone)
    check_policy(policy)
    check_play(play, format_name)
    service = _open_service(db)
    notes: list[str] = []
    try:
        record = service.import_draw(
            read(file),
            file,
            notes=notes,
            round=round_name,
            course=course,
            day=day.date() if day else None,
            timezone=timezone,
            policy=policy,
            play=play,
            format=format_name,
            scoring=scoring,
            net=net,
            allowance=scoring_cli.parse_allowance(allowance) if allowance else None,
            tees=_tee_defaults(tee_defaults),
            completions=completions,
            rounding=rounding,
            gross_par_adjustment=gross_par_adjustment,
            club=club_id(club),
        )
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    for note in notes:
        click.echo(f"note: {note}")
    players = sum(g.size for g in record.groups)
    click.echo(
        f"round {record.name!r} on {record.day}: {len(record.groups)} groups,"
        f" {players} players imported"
    )


@import_group.command("times")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--round", "round_name", required=True, help="Round the times belong to.")
@click.option("--by", default="import", help="Who recorded these times (the event author).")
@db_option
def import_times(file, round_name, by, db) -> None:
    """Import paper hole times as hole_completed events (re-importing adds nothing).

    Example: pace import times sheet-hole9.csv --round R1 --by "J. Dupont"
    """
    service = _open_service(db)
    try:
        created, already = service.import_times(read(file), file, round=round_name, by=by)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    done = f"{created} hole times imported into round {round_name!r}"
    if already:  # a re-import says why it adds nothing
        done += f" ({already} already stored, {created} new)"
    click.echo(done)


@import_group.command("referee-log")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--round", "round_name", required=True, help="Round the referees' acts belong to.")
@click.option("--by", default="referee log", help="Who wrote the log (the events' author).")
@db_option
def import_referee_log(file, round_name, by, db) -> None:
    """Import a referee log CSV as the live commands' events (all or nothing; re-importing
    adds nothing).

    Example: pace import referee-log referee-hole7.csv --round R1 --by "M. Roy"
    """
    service = _open_service(db)
    try:
        created, already = service.import_referee_log(read(file), file, round=round_name, by=by)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    done = f"{created} referee acts imported into round {round_name!r}"
    click.echo(f"{done}, {already} acts already stored" if already else done)


@cli.command()
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default="pace-demo.db",
    show_default=True,
    help="Demo database; deleted and recreated at every run (a file holding anything "
    "but the demo is refused).",
)
@click.option("--host", default=None, help="Address to listen on (default: server.host).")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=None,
    help="Port to listen on, 1-65535 (default: server.port).",
)
@click.option(
    "--speed",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Clock speed: seconds of play per real second.",
)
@click.option(
    "--tick",
    type=click.FloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Scheduler tick, real seconds.",
)
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    help="Seed of the draw, the play and everybody's acts: the same seed stores the same facts.",
)
@click.option(
    "--groups",
    type=click.IntRange(2, 60),
    default=32,
    show_default=True,
    help="Number of groups in the draw.",
)
@click.option(
    "--duration",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Stop after this many real seconds (default: Ctrl-C; the demo serves on once the "
    "round is over, for its report).",
)
@click.option(
    "--actors",
    type=click.Choice(["all", "marshals", "groups", "phones"]),
    default="all",
    show_default=True,
    help="Who is simulated: everybody (marshals, referees, scorers, the committee's sirens), "
    "only the marshals, only the groups' scorers reporting their holes with no marshal "
    "(the round takes completions from the groups; docs/status.md), or only the groups' "
    "phones sharing their positions, from which the completions are inferred, with no "
    "marshal and nobody typing (one group does not share; docs/positions.md).",
)
def demo(db, host, port, speed, tick, seed, groups, duration, actors) -> None:
    """Play a demo round on an accelerated clock, with simulated people; open the URLs printed.

    The database (--db, default pace-demo.db in the working directory) is deleted and
    recreated at every run, so the demo always starts clean: an 18-hole course, a draw of
    32 groups for today, and play already under way. Simulated marshals, referees, scorers
    and the committee (real Socket.IO clients) play the round: groups fall out of position
    and recover, referees time some of them (bad times, a warning, a penalty stroke), decide
    not to time one and credit it a ruling, scorers enter every card (the leaderboard fills),
    the sirens stop play once. When the round is over the demo prints where its report,
    letters and results are, and serves on until Ctrl-C. The same --seed plays the same round.

    Example: pace demo --speed 120 --port 5001
    """
    from pace import demo as demomod
    from pace.store import is_database_url

    if is_database_url(db):
        raise InputError("--db: the demo plays on a SQLite file it deletes at every run")
    options = demomod.DemoOptions(db, host, port, speed, tick, seed, groups, duration, actors)
    try:
        demomod.run(load_settings(), options)
    except PaceError as e:
        raise fail(e) from None


for _command in offline.COMMANDS:
    cli.add_command(_command)
cli.add_command(backup_cli.export_group)
cli.add_command(clubs_cli.club_group)
cli.add_command(clubs_cli.account_group)
import_group.add_command(backup_cli.import_round)
cli.add_command(scoring_cli.results)
cli.add_command(calibrate_cli.calibrate_command)
cli.add_command(competitions_cli.event_group)
import_group.add_command(scoring_cli.import_scores)
reports_cli.register(cli, db_option)  # pace report, pace letters, pace offenders
# one `pace round` group: the changes on the day, the status, and the round's life
for _command in life_cli.round_group.commands.values():
    changes_cli.round_group.add_command(_command)
cli.add_command(changes_cli.round_group)

"""The ``pace`` command line: a Click group.

Domain errors become ``click.ClickException`` (exit status 1) except input-file problems,
which exit with status 2 after naming the file, the line and the field of each problem.
"""

from __future__ import annotations

import json
import sys
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click

from pace import __version__, config, formats
from pace.rules.errors import FileFormatError, PaceError


class InputError(click.ClickException):
    """Bad input files or values: exit status 2, nothing half done."""

    exit_code = 2


def _settings() -> config.Settings:
    try:
        return config.load()
    except config.ConfigError as e:
        raise InputError(str(e)) from None


def _fail(e: PaceError) -> click.ClickException:
    if isinstance(e, FileFormatError):
        return InputError(e.message)
    return click.ClickException(e.message)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InputError(
            f"--timezone {name!r}: expected an IANA time zone such as 'Europe/Brussels'"
        ) from None


def _check_policy(policy: str | None) -> None:
    """Refuse a policy that is neither a preset nor a ``[policies.NAME]`` of config.toml."""
    if policy is None:
        return
    names = _settings().policy_names
    if policy not in names:
        raise InputError(f"--policy {policy!r}: expected one of {', '.join(names)}")


def _check_play(play: str | None, format_name: str | None) -> None:
    from pace.store.migrations import FORMATS, PLAYS

    if play is not None and play not in PLAYS:
        raise InputError(f"--play {play!r}: expected one of {', '.join(PLAYS)}")
    if format_name is not None and format_name not in FORMATS:
        raise InputError(f"--format {format_name!r}: expected one of {', '.join(FORMATS)}")


def _open_service(db: str | None):
    from pace.services.rounds import PaceService
    from pace.store import Store

    settings = _settings()
    path = db or settings.database.path
    store = Store.open(path, synchronous=settings.database.synchronous)
    return PaceService(store, settings)


db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default=None,
    help="SQLite database file (default: database.path in config.toml).",
)


class PaceGroup(click.Group):
    """A Click group whose commands never end in a traceback for a domain error.

    A ``PaceError`` that escapes a command (the database locked by a backup while the store
    opens, say) is printed as its message, like the ones each command catches itself.
    """

    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except PaceError as e:
            raise _fail(e) from None


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
        click.echo(f"database ready: {service.store.path}")
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
        click.echo(secret_notice(secret, service.store.path, interactive=interactive))


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
@click.option("--url", default=None, help="Server address to print /join links for.")
@db_option
def access_code(round_name, role, label, count, url, db) -> None:
    """Make access codes for a round and a role; each is printed once and stored hashed.

    Example: pace access code --round R1 --role marshal --count 6 --url http://10.0.0.2:5000
    """
    from pace.services.access import AccessService

    service = _open_service(db)
    try:
        access = AccessService(service.store, service.settings, service.clock)
        for _ in range(count):
            code = access.create_code(round_name, role, label)
            line = f"{role}\t{round_name}\t{code}"
            if url:
                line += f"\t{url.rstrip('/')}/join?code={code}"
            click.echo(line)
    except PaceError as e:
        raise _fail(e) from None
    finally:
        service.store.close()


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
        raise _fail(e) from None
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
        raise _fail(e) from None
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
def serve(db, host, port, clock_origin, clock_speed, tick) -> None:
    """Serve the pages and the live Socket.IO endpoint on the configured host and port.

    Example: pace serve --db club.db --port 5001
    """
    from pace import app as appmod

    settings = _settings()
    settings = settings.replace(
        server={"host": host or settings.server.host, "port": port or settings.server.port},
        database={"path": db or settings.database.path},
        scheduler={"tick_seconds": tick or settings.scheduler.tick_seconds},
    )
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
@db_option
def rounds_command(db: str | None) -> None:
    """List the rounds in the database.

    Example: pace rounds --db club.db
    """
    service = _open_service(db)
    try:
        rounds = service.list_rounds()
        if not rounds:
            click.echo("no rounds yet: pace import course FILE, then pace import draw FILE")
        for r in rounds:
            click.echo(f"{r.name}\t{r.day}\t{r.course}\t{r.groups} groups\t{r.events} events")
    finally:
        service.store.close()


@cli.group("import")
def import_group() -> None:
    """Import a course, a draw or paper hole times (all or nothing).

    Example: pace import times times.csv --round R1
    """


def _read(path: str) -> str:
    try:
        return formats.read_text(path)
    except FileFormatError as e:
        raise _fail(e) from None


@import_group.command("course")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@db_option
def import_course(file: str, db: str | None) -> None:
    """Import a course TOML (FORMATS.md), replacing a course of the same name.

    Example: pace import course louiseville.toml
    """
    service = _open_service(db)
    try:
        course = service.import_course(_read(file), file)
    except PaceError as e:
        raise _fail(e) from None
    finally:
        service.store.close()
    click.echo(f"course {course.name!r}: {len(course.holes)} holes imported")


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
@db_option
def import_draw(file, round_name, course, day, timezone, policy, play, format_name, db) -> None:
    """Import a draw CSV into a round (created if new; replaced while it has no events).

    Example: pace import draw draw.csv --round "Club championship R1" --date 2026-06-14
    """
    if timezone is not None:
        _zone(timezone)
    _check_policy(policy)
    _check_play(play, format_name)
    service = _open_service(db)
    try:
        record = service.import_draw(
            _read(file),
            file,
            round=round_name,
            course=course,
            day=day.date() if day else None,
            timezone=timezone,
            policy=policy,
            play=play,
            format=format_name,
        )
    except PaceError as e:
        raise _fail(e) from None
    finally:
        service.store.close()
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
        created = service.import_times(_read(file), file, round=round_name, by=by)
    except PaceError as e:
        raise _fail(e) from None
    finally:
        service.store.close()
    click.echo(f"{created} hole times imported into round {round_name!r}")


def _offline_setup(course_file, draw_file, day, tzname, interval):
    from pace.rules.model import RoundSetup

    settings = _settings()
    tz = _zone(tzname or settings.round.timezone)
    try:
        course = formats.parse_course(_read(course_file), course_file)
        groups = formats.parse_draw(_read(draw_file), draw_file, day=day, tz=tz, course=course)
    except PaceError as e:
        raise _fail(e) from None
    pace_settings = settings.pace_settings()
    if interval is not None:
        from datetime import timedelta

        if interval <= 0:
            raise InputError(f"--interval {interval!r}: expected minutes above 0")
        pace_settings = settings.pace_settings(timedelta(minutes=interval))
    return RoundSetup(course, groups, pace_settings), tz


def _day_option(f):
    return click.option(
        "--date",
        "day",
        type=click.DateTime(["%Y-%m-%d"]),
        default=None,
        help="Day of the round, YYYY-MM-DD (default: today); matters only across DST.",
    )(f)


def _course_and_draw_options(f):
    """Add the --course and --draw options of the offline commands."""
    f = click.option(
        "--draw",
        "draw_file",
        required=True,
        type=click.Path(exists=True, dir_okay=False),
        help="Draw CSV file, one row per player (FORMATS.md).",
    )(f)
    return click.option(
        "--course",
        "course_file",
        required=True,
        type=click.Path(exists=True, dir_okay=False),
        help="Course TOML file (FORMATS.md).",
    )(f)


@cli.command()
@_course_and_draw_options
@click.option(
    "--times",
    "times_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Hole times CSV file: group, hole, completed (FORMATS.md).",
)
@click.option("--at", "at_text", required=True, help="Instant to evaluate, HH:MM[:SS] local.")
@click.option(
    "--policy", default=None, help="Pace policy: a preset (frbg, mauricie, swin) or a custom one."
)
@click.option("--interval", type=float, default=None, help="Standard start interval, minutes.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON document of FORMATS.md.")
@click.option("--timezone", default=None, help="Time zone of the round (default: config).")
@_day_option
def status(course_file, draw_file, times_file, at_text, policy, interval, as_json, timezone, day):
    """Evaluate a round from files at an instant, as the live scheduler would.

    Example: pace status --course c.toml --draw d.csv --times t.csv --at 10:42 --json
    """
    from pace.reports.status import status_document, status_table
    from pace.services.rounds import offline_status

    _check_policy(policy)
    tzname = timezone or _settings().round.timezone
    tz = _zone(tzname)
    the_day = day.date() if day else datetime.now(tz).date()
    setup, tz = _offline_setup(course_file, draw_file, the_day, tzname, interval)
    try:
        clock = formats.parse_clock(at_text)
    except ValueError as e:
        raise InputError(f"--at {at_text!r}: {e}") from None
    now = datetime.combine(the_day, clock, tzinfo=tz)
    try:
        completions = formats.parse_times(
            _read(times_file),
            times_file,
            day=the_day,
            tz=tz,
            course=setup.course,
            groups=setup.groups,
        )
    except PaceError as e:
        raise _fail(e) from None
    field = offline_status(setup, completions, now)
    if as_json:
        click.echo(json.dumps(status_document(field, tz), ensure_ascii=False))
    else:
        click.echo(status_table(field, tz))


@cli.command()
@_course_and_draw_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["csv", "html"]),
    default="csv",
    help="CSV for spreadsheets, HTML for printing (A4 landscape).",
)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="File.")
@click.option("--interval", type=float, default=None, help="Standard start interval, minutes.")
@click.option("--timezone", default=None, help="Time zone of the round (default: config).")
@_day_option
def sheet(course_file, draw_file, fmt, output, interval, timezone, day):
    """Print the referees' timing sheet: by when each group must complete each hole.

    Example: pace sheet --course c.toml --draw d.csv --format html -o sheet.html
    """
    from pace.reports import sheet as sheetmod

    tzname = timezone or _settings().round.timezone
    the_day = day.date() if day else date.today()
    setup, tz = _offline_setup(course_file, draw_file, the_day, tzname, interval)
    data = sheetmod.timing_sheet(setup)
    text = sheetmod.to_csv(data, tz) if fmt == "csv" else sheetmod.to_html(data, tz)
    if output:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"timing sheet written to {output}")
    else:
        sys.stdout.write(text)


@cli.command()
@_course_and_draw_options
@click.option(
    "--scores",
    "scores_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Scores CSV file: group, player, hole, strokes[, conceded] (FORMATS.md).",
)
@click.option(
    "--scoring",
    default="stroke",
    show_default=True,
    help="Way of scoring: stroke, stableford, match, bogey or par.",
)
@click.option(
    "--format",
    "format_name",
    default="individual",
    show_default=True,
    help="Format of the draw: individual, foursome, threesome, greensome, four_ball or"
    " best_ball.",
)
@click.option("--net", is_flag=True, help="Net scoring: strokes received by stroke index.")
@click.option(
    "--allowance",
    default=None,
    help="Handicap allowance of this round in percent, instead of config.toml's [handicap]"
    " (greensome: LOWER/HIGHER, e.g. 60/40).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON document of FORMATS.md.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV for a spreadsheet.")
@click.option(
    "--excel",
    is_flag=True,
    help="CSV for a French-locale spreadsheet: ';' separated, decimal commas, with a BOM.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write to this file instead of the standard output.",
)
@click.option("--timezone", default=None, help="Time zone of the round (default: config).")
@_day_option
def results(
    course_file, draw_file, scores_file, scoring, format_name, net, allowance, as_json, as_csv,
    excel, output, timezone, day,
):  # fmt: skip
    """Compute a round's results from files, as the leaderboard would (RULES.md §7, §10).

    Example: pace results --course c.toml --draw d.csv --scores s.csv --scoring stableford --net
    """
    from pace.reports import results as report
    from pace.rules import scoring as scoringmod
    from pace.services.scoring import offline_results

    settings = _settings()
    try:
        scorer = scoringmod.find_scoring(scoring)
    except PaceError:
        names = ", ".join(s.name for s in scoringmod.SCORINGS)
        raise InputError(f"--scoring {scoring!r}: expected one of {names}") from None
    try:
        team_format = scoringmod.find_format(format_name)
    except PaceError:
        names = ", ".join(f.name for f in scoringmod.FORMATS)
        raise InputError(f"--format {format_name!r}: expected one of {names}") from None
    allowances = settings.allowances()
    if allowance is not None:
        allowances = _allowance(allowance, allowances, team_format, scorer.family)
    tzname = timezone or settings.round.timezone
    the_day = day.date() if day else date.today()
    setup, _ = _offline_setup(course_file, draw_file, the_day, tzname, None)
    try:
        outcome = offline_results(
            setup,
            _read(scores_file),
            scores_file,
            scoring=scorer,
            team_format=team_format,
            net=net,
            allowances=allowances,
        )
    except FileFormatError as e:
        raise _fail(e) from None
    except PaceError as e:  # the draw (sides, matches) or the course cannot be scored so
        where = course_file if e.field == "stroke_index" else draw_file
        raise InputError(f"{where}: {e.message}") from None
    if as_json:
        text = json.dumps(report.results_document(outcome), ensure_ascii=False) + "\n"
    elif as_csv or excel:
        text = report.results_csv(outcome, excel=excel)
    else:
        text = report.results_table(outcome) + "\n"
    if output:
        Path(output).write_text(text, encoding="utf-8", newline="")
        click.echo(f"results written to {output}")
    else:
        sys.stdout.write(text)


def _allowance(text, allowances, team_format, family):
    """Return the allowances with this round's ``--allowance`` for its format and scoring."""
    try:
        values = tuple(float(v.replace(",", ".")) for v in text.split("/"))
        return team_format.override(allowances, family, values)
    except PaceError as e:
        raise InputError(f"--allowance {text!r}: {e.message}") from None
    except ValueError:
        raise InputError(
            f"--allowance {text!r}: expected a percentage such as 85"
            " (greensome: LOWER/HIGHER such as 60/40), each from 0 to 100"
        ) from None


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
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the draw and play.")
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
    help="Stop after this many real seconds (default: when the round is over, or Ctrl-C).",
)
def demo(db, host, port, speed, tick, seed, groups, duration) -> None:
    """Play a demo round on an accelerated clock, with simulated marshals; open the URLs printed.

    The database (--db, default pace-demo.db in the working directory) is deleted and
    recreated at every run, so the demo always starts clean: an 18-hole course, a draw of
    32 groups for today, and play already under way. Six simulated marshals (real
    Socket.IO clients) log the completions; some groups fall out of position and recover.

    Example: pace demo --speed 120 --port 5001
    """
    from pace import demo as demomod

    options = demomod.DemoOptions(db, host, port, speed, tick, seed, groups, duration)
    try:
        demomod.run(_settings(), options)
    except PaceError as e:
        raise _fail(e) from None

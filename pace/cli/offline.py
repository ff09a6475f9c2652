"""The offline commands: a round's pace, penalties and timing sheet from the committee's
files alone, with no server and no database (docs/formats.md; docs/status.md, docs/penalties.md).
"""

from __future__ import annotations

import functools
import json
import sys
from datetime import date, datetime
from pathlib import Path

import click

from pace import formats
from pace.cli.common import (
    InputError,
    check_play,
    check_policy,
    fail,
    load_settings,
    read,
    zone,
)
from pace.rules.errors import PaceError


def _offline_setup(course_file, draw_file, day, tzname, interval, tee_defaults=None):
    from pace.rules.model import RoundSetup

    settings = load_settings()
    tz = zone(tzname or settings.round.timezone)
    try:
        course = formats.parse_course(read(course_file), course_file)
        defaults = formats.check_tee_defaults(tee_defaults, course) if tee_defaults else None
        groups = formats.parse_draw(
            read(draw_file), draw_file, day=day, tz=tz, course=course, tee_defaults=defaults
        )
    except PaceError as e:
        raise fail(e) from None
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


def _course_and_draw_options(f, *, required: bool = True):
    """Add the --course and --draw options of the offline commands."""
    f = click.option(
        "--draw",
        "draw_file",
        required=required,
        type=click.Path(exists=True, dir_okay=False),
        help="Draw CSV file, one row per player (docs/formats.md §2).",
    )(f)
    return click.option(
        "--course",
        "course_file",
        required=required,
        type=click.Path(exists=True, dir_okay=False),
        help="Course TOML file (docs/formats.md §1).",
    )(f)


def _times_option(*, required: bool = True):
    return click.option(
        "--times",
        "times_file",
        required=required,
        type=click.Path(exists=True, dir_okay=False),
        help="Hole times CSV file: group, hole, completed (docs/formats.md §3).",
    )


def _referee_option(*, required: bool):
    return click.option(
        "--referee",
        "referee_file",
        required=required,
        default=None,
        type=click.Path(exists=True, dir_okay=False),
        help="Referee log CSV file: one row per act (docs/formats.md §5).",
    )


def _offline_round(course_file, draw_file, timezone, day, interval):
    """Return the setup of the files' round, its time zone and its day."""
    tzname = timezone or load_settings().round.timezone
    the_day = day.date() if day else datetime.now(zone(tzname)).date()
    setup, tz = _offline_setup(course_file, draw_file, the_day, tzname, interval)
    return setup, tz, the_day


def _offline_files(setup, times_file, referee_file, day, tz):
    """Return the hole times and the referee log's acts (none without a log), checked."""
    where = {"day": day, "tz": tz, "course": setup.course, "groups": setup.groups}
    try:
        completions = formats.parse_times(read(times_file), times_file, **where)
        acts = ()
        if referee_file:
            acts = formats.parse_referee_log(read(referee_file), referee_file, **where)
    except PaceError as e:
        raise fail(e) from None
    return completions, acts


@click.command()
@functools.partial(_course_and_draw_options, required=False)
@_times_option(required=False)
@click.option(
    "--backup",
    "backup_file",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="A round's export (pace export round; docs/formats.md §10) instead of the course, draw "
    "and times: judged with its changes on the day, as the stored round.",
)
@click.option("--at", "at_text", required=True, help="Instant to evaluate, HH:MM[:SS] local.")
@_referee_option(required=False)
@click.option(
    "--policy", default=None, help="Pace policy: a preset (frbg, mauricie, swin) or a custom one."
)
@click.option("--interval", type=float, default=None, help="Standard start interval, minutes.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON of docs/formats.md §4.")
@click.option("--timezone", default=None, help="Time zone of the round (default: config).")
@_day_option
def status(
    course_file, draw_file, times_file, backup_file, at_text, referee_file, policy, interval,
    as_json, timezone, day,
):  # fmt: skip
    """Evaluate a round from files at an instant, as the live scheduler would; with
    --referee, the log's sirens and time credits count. With --backup, a round's export
    (pace export round) is judged instead, its changes on the day included.

    Example: pace status --course c.toml --draw d.csv --times t.csv --at 10:42 --json

    Example: pace status --backup r1.pace.jsonl --at 10:42 --json
    """
    from pace.reports.status import status_document, status_table
    from pace.rules.position import evaluate_field
    from pace.services import offline

    check_policy(policy)
    if backup_file is not None:
        field, tz = _backup_status(backup_file, at_text, course=course_file, draw=draw_file,
                                   times=times_file, referee=referee_file, interval=interval,
                                   timezone=timezone, date=day)  # fmt: skip
    else:
        missing = [f"--{name}" for name, value in (("course", course_file),
                   ("draw", draw_file), ("times", times_file)) if value is None]  # fmt: skip
        if missing:
            raise InputError(f"give {', '.join(missing)} (the committee's files), or --backup "
                             "(a round's export, pace export round)")  # fmt: skip
        setup, tz, the_day = _offline_round(course_file, draw_file, timezone, day, interval)
        now = datetime.combine(the_day, _at(at_text), tzinfo=tz)
        completions, acts = _offline_files(setup, times_file, referee_file, the_day, tz)
        log = formats.referee_log.to_events(acts, offline.OFFLINE_ROUND) if referee_file else None
        field = evaluate_field(setup, offline.offline_facts(completions, log), now)
    if as_json:
        click.echo(json.dumps(status_document(field, tz), ensure_ascii=False))
    else:
        click.echo(status_table(field, tz))


def _at(text: str):
    try:
        return formats.parse_clock(text)
    except ValueError as e:
        raise InputError(f"--at {text!r}: {e}") from None


def _backup_status(path: str, at_text: str, **others):
    """Return the statuses at ``--at`` (on the round's day, in its zone) of the round a backup
    holds, and its zone; the backup carries its course, draw, log, day, zone and interval,
    so the options that would give them again are refused."""
    from pace.formats import backup as backupfmt
    from pace.services import offline

    given = [f"--{name}" for name, value in others.items() if value is not None]
    if given:
        raise InputError(f"--backup holds the round's course, draw, log, day, time zone and "
                         f"interval: drop {', '.join(given)}")  # fmt: skip
    try:
        backup = backupfmt.parse(read(path), path)
    except PaceError as e:
        raise fail(e) from None
    tz = zone(backup.round.timezone)
    now = datetime.combine(backup.round.day, _at(at_text), tzinfo=tz)
    pace = load_settings().pace_settings(backup.round.standard_interval)
    return offline.backup_status(backup, pace, now), tz


@click.command()
@_course_and_draw_options
@_times_option()
@_referee_option(required=True)
@click.option(
    "--policy", default=None, help="Pace policy: frbg, mauricie, swin or a custom one (default: "
    "round.policy in config.toml).",
)  # fmt: skip
@click.option("--play", default="stroke_play", show_default=True, help="stroke_play or match_play.")
@click.option(
    "--format",
    "format_name",
    default="individual",
    show_default=True,
    help="individual, foursome, threesome, greensome, four_ball or best_ball.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON of docs/formats.md §6.")
@click.option("--interval", type=float, default=None, help="Standard start interval, minutes.")
@click.option("--timezone", default=None, help="Time zone of the round (default: config).")
@_day_option
def penalties(
    course_file, draw_file, times_file, referee_file, policy, play, format_name, as_json,
    interval, timezone, day,
):  # fmt: skip
    """Judge a round's bad times, checkpoint breaches and penalties from files, as the live
    service would (docs/rules.md §4–§8).

    Example: pace penalties --course c.toml --draw d.csv --times t.csv --referee log.csv --json
    """
    from pace.reports.penalties import penalties_document, penalties_table
    from pace.services import offline

    check_policy(policy)
    check_play(play, format_name)
    setup, tz, the_day = _offline_round(course_file, draw_file, timezone, day, interval)
    completions, acts = _offline_files(setup, times_file, referee_file, the_day, tz)
    settings = load_settings()
    judged = offline.judge(
        setup, completions, acts, settings.policy(policy or settings.round.policy),
        offline.end_of_day(the_day, tz), play=play, format_name=format_name,
    )  # fmt: skip
    document = penalties_document(judged, tz)
    if as_json:
        click.echo(json.dumps(document, ensure_ascii=False))
    else:
        click.echo(penalties_table(document))


@click.command()
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
@click.option(
    "--lang", type=click.Choice(["fr", "en", "nl"]), default=None,
    help="Language of the HTML sheet (default: reports.language in config.toml).",
)  # fmt: skip
def sheet(course_file, draw_file, fmt, output, interval, timezone, day, lang):
    """Print the referees' timing sheet: by when each group must complete each hole.

    Example: pace sheet --course c.toml --draw d.csv --format html -o sheet.html
    """
    from pace.reports import sheet as sheetmod

    settings = load_settings()
    tzname = timezone or settings.round.timezone
    the_day = day.date() if day else date.today()
    setup, tz = _offline_setup(course_file, draw_file, the_day, tzname, interval)
    data = sheetmod.timing_sheet(setup)
    text = (
        sheetmod.to_csv(data, tz)
        if fmt == "csv"
        else sheetmod.to_html(data, tz, lang or settings.reports.language)
    )
    if output:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"timing sheet written to {output}")
    else:
        sys.stdout.write(text)


COMMANDS = (status, penalties, sheet)

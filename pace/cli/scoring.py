"""The scoring commands: ``pace results`` (from files, or of a stored round) and
``pace import scores`` (cards typed in after the round). docs/formats.md §7, §8; docs/scoring.md.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime

import click

from pace import formats
from pace.cli.common import (
    InputError,
    db_option,
    emit,
    fail,
    load_settings,
    open_service,
    read,
    zone,
)
from pace.cli.offline import (
    _day_option,
    _offline_files,
    _offline_setup,
)
from pace.rules.errors import FileFormatError, PaceError


def parse_allowance(text: str) -> tuple[float, ...]:
    """Return ``--allowance`` as percentages: ``85``, or ``60/40`` for a greensome."""
    try:
        return tuple(float(v.replace(",", ".")) for v in text.split("/"))
    except ValueError:
        raise InputError(
            f"--allowance {text!r}: expected a percentage such as 85"
            " (greensome: LOWER/HIGHER such as 60/40), each from 0 to 100"
        ) from None


def _allowances(text, allowances, team_format, family):
    """Return the allowances with this round's ``--allowance`` for its format and scoring."""
    try:
        return team_format.override(allowances, family, parse_allowance(text))
    except PaceError as e:
        raise InputError(f"--allowance {text!r}: {e.message}") from None


def _write(outcome, as_json: bool, as_csv: bool, excel: bool, output: str | None,
           life=None) -> None:  # fmt: skip
    from pace.reports import results as report

    if as_json:
        text = json.dumps(report.results_document(outcome, life), ensure_ascii=False) + "\n"
    elif as_csv or excel:
        text = report.results_csv(outcome, excel=excel, life=life)
    else:
        text = report.results_table(outcome, life) + "\n"
    emit(text, output)


def _file(name: str, help: str):
    return click.option(
        f"--{name}", f"{name}_file", default=None, type=click.Path(exists=True, dir_okay=False),
        help=help,
    )  # fmt: skip


@click.command()
@click.option(
    "--round",
    "round_name",
    default=None,
    help="A stored round (with --db): its "
    "scores, its referees' penalties and its scoring, as the leaderboard has them.",
)
@click.option(
    "--event",
    "event_name",
    default=None,
    help="A stored competition of several rounds (with --db): its rounds added up, the cut.",
)
@db_option
@_file("course", "Course TOML file (docs/formats.md §1).")
@_file("draw", "Draw CSV file, one row per player (docs/formats.md §2).")
@_file("scores", "Scores CSV file: group, player, hole, strokes[, conceded] (docs/formats.md §7).")
@_file("referee", "Referee log CSV (with --times): the pace penalties judged from it.")
@_file("times", "Hole times CSV (with --referee): group, hole, completed (docs/formats.md §3).")
@click.option(
    "--policy",
    default=None,
    help="Pace policy judging the referee log (default: round.policy in config.toml).",
)
@click.option(
    "--scoring",
    default=None,
    help="Way of scoring: stroke (default), stableford, "
    "match, bogey or par (a stored round has its own).",
)
@click.option(
    "--format",
    "format_names",
    multiple=True,
    help="Format of the draw: individual "
    "(default), foursome, threesome, greensome, four_ball or best_ball; or pdf or html: the "
    "printable results sheet (A4, class by class; may be given with a draw format: "
    "--format four_ball --format pdf).",
)
@click.option(
    "--lang",
    type=click.Choice(["fr", "en", "nl"]),
    default=None,
    help="Language of the results: the table printed is then the results sheet's, in its "
    "words, decimal commas (fr, nl) and dates (14/06/2026); of --format pdf|html, the sheet's "
    "(default: the round's, else reports.language in config.toml). Without it the table is "
    "the CLI's English one. --json and --csv keep their stable keys and column names "
    "(docs/formats.md §8): --lang is refused with them.",
)
@click.option("--net", is_flag=True, help="Net scoring: strokes received by stroke index.")
@click.option(
    "--allowance",
    default=None,
    help="Handicap allowance of this round in percent, "
    "instead of config.toml's [handicap] (greensome: LOWER/HIGHER, e.g. 60/40).",
)
@click.option(
    "--rounding",
    type=click.Choice(["whs", "course_then_playing"]),
    default=None,
    help="Playing handicap of this round: whs (the unrounded course handicap times the "
    "allowance, rounded once) or course_then_playing (rounded twice); default: a stored "
    "round's own (--round; this run only, nothing stored), else [handicap] rounding in "
    "config.toml.",
)
@click.option(
    "--gross-par-adjustment/--no-gross-par-adjustment",
    default=None,
    help="Gross stroke play from tees of different par: take the difference in par off the "
    "gross of the higher par (WHS Rule 6.2b) or not; default: a stored round's own (--round; "
    "this run only, nothing stored), else [handicap] gross_par_adjustment in config.toml.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON of docs/formats.md §8.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV for a spreadsheet.")
@click.option(
    "--excel",
    is_flag=True,
    help="CSV for a French-locale spreadsheet: ';' separated, decimal commas, a BOM.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write to this file instead of the standard output.",
)
@click.option("--timezone", default=None, help="Time zone of the round (default: config).")
@click.option(
    "--tees",
    "tee_defaults",
    default=None,
    help="Default tees by gender or class for players the draw's tees column leaves empty, "
    "e.g. men=Yellow,women=Red or heren=Geel,dames=Rood.",
)
@_day_option
def results(
    round_name, event_name, db, course_file, draw_file, scores_file, referee_file, times_file,
    policy, scoring, format_names, lang, net, allowance, rounding, gross_par_adjustment, as_json,
    as_csv, excel, output, timezone, tee_defaults, day,
):  # fmt: skip
    """Compute a round's results as the leaderboard would (docs/rules.md §7, §10): from files, or
    of a round stored in the database (--round).

    Example: pace results --course c.toml --draw d.csv --scores s.csv --scoring stableford --net

    Example: pace results --round R1 --db pace.db --csv --excel -o results.csv

    Example: pace results --event "Club championship" --db pace.db --json

    Example: pace results --round R1 --db pace.db --format pdf -o results.pdf

    Example: pace results --round R1 --db pace.db --lang nl
    """
    format_name, sheet = _formats(format_names)
    if sheet is not None and (as_json or as_csv or excel):
        raise InputError(f"--format {sheet} prints the results sheet: leave out --json, --csv "
                         "and --excel")  # fmt: skip
    if lang is not None and (as_json or as_csv or excel):
        # machine formats: their keys and columns are a contract, the same in every language
        raise InputError(f"--lang {lang} says the table and the sheet in a language; --json, "
                         "--csv and --excel keep their stable keys and column names "
                         "(docs/formats.md §8): leave out --lang")  # fmt: skip
    if lang is not None and event_name is not None:
        raise InputError(f"--lang {lang}: a competition's table (--event) is printed in English "
                         "only; leave out --lang")  # fmt: skip
    if sheet == "pdf" and output is None:
        raise InputError("--format pdf writes a PDF: give the file with -o results.pdf")
    if sheet is not None and event_name is not None:
        raise InputError(f"--format {sheet}: the results sheet is a round's (--round or the "
                         "files), not a competition's")  # fmt: skip
    if event_name is not None:
        if round_name is not None or any((course_file, draw_file, scores_file, referee_file,
                                          times_file, policy, scoring, format_name, net,
                                          allowance, tee_defaults, rounding,
                                          gross_par_adjustment is not None)):  # fmt: skip
            raise InputError(
                "--event adds up a stored competition's rounds as they are stored; leave out"
                " --round and the file and scoring options"
            )
        from pace.cli.competitions import event_results

        event_results(event_name, db, as_json, as_csv, excel, output)
        return
    if round_name is not None:
        if any((course_file, draw_file, scores_file, referee_file, times_file, policy,
                scoring, format_name, net, allowance, tee_defaults)):  # fmt: skip
            raise InputError(
                "--round scores a stored round as it is stored: its course, draw, scores, "
                "scoring and referees' penalties; leave out the file and scoring options "
                "(--rounding and --[no-]gross-par-adjustment may change its handicap readings "
                "for this run)"
            )
        # the round's own readings of the handicap rules, unless this run says otherwise
        readings = {"rounding": rounding, "gross_par_adjustment": gross_par_adjustment}
        if sheet is not None or lang is not None:
            _write_sheet(sheet or "text", *_stored_sheet(round_name, db, readings), output, lang)
            return
        outcome, life = _stored_results(round_name, db, readings)
        _write(outcome, as_json, as_csv, excel, output, life)
        return
    else:
        missing = [n for n, f in (("--course", course_file), ("--draw", draw_file),
                                  ("--scores", scores_file)) if not f]  # fmt: skip
        if missing:
            raise InputError(f"give {', '.join(missing)} (or --round for a stored round)")
        if bool(referee_file) != bool(times_file):
            raise InputError("--referee and --times go together: the log is judged against the "
                             "hole times")  # fmt: skip
        outcome = _offline_results(
            course_file, draw_file, scores_file, referee_file, times_file, policy,
            scoring or "stroke", format_name or "individual", net, allowance, timezone, day,
            tee_defaults, rounding, gross_par_adjustment,
        )  # fmt: skip
    if sheet is not None or lang is not None:
        from pace.reports.results import results_document

        setting = {"round": None, "course": _course_name(course_file),
                   "day": day.date() if day else None}  # fmt: skip
        _write_sheet(sheet or "text", results_document(outcome), setting, output, lang)
        return
    _write(outcome, as_json, as_csv, excel, output)


#: the values of ``--format`` that ask for the printable results sheet
SHEETS = ("pdf", "html")


def _formats(values: tuple[str, ...]) -> tuple[str | None, str | None]:
    """Return ``--format``'s draw format and results sheet (each None when not given)."""
    sheets = [v.lower() for v in values if v.lower() in SHEETS]
    formats = [v for v in values if v.lower() not in SHEETS]
    if len(sheets) > 1 or len(formats) > 1:
        raise InputError(
            f"--format {' --format '.join(values)}: give at most one draw format (individual, "
            "foursome, ...) and one of pdf or html"
        )
    return (formats[0] if formats else None), (sheets[0] if sheets else None)


def _course_name(course_file: str) -> str | None:
    from pace import formats

    try:
        return formats.parse_course(read(course_file), course_file).name
    except (FileFormatError, PaceError):
        return None


def _stored_sheet(round_name: str, db: str | None, readings=None):
    """Return a stored round's results document (with its life) and the sheet's header."""
    from pace.reports.results import results_document

    outcome, life = _stored_results(round_name, db, readings)
    service = open_service(db)
    try:
        view = service.round_view(round_name)
        setting = {"round": view.record.name, "course": view.record.course.name,
                   "day": view.record.day, "language": view.record.language}  # fmt: skip
    finally:
        service.store.close()
    return results_document(outcome, life), setting


def _write_sheet(kind: str, doc, setting, output: str | None, lang: str | None) -> None:
    from pathlib import Path

    from pace.reports import results_sheet

    setting = dict(setting)
    own = setting.pop("language", None)  # a stored round's, for the committee's default
    lang = lang or own or load_settings().reports.language
    if kind == "text":  # ``--lang`` alone: the sheet's table in the terminal (issue 47)
        emit(results_sheet.results_sheet_text(doc, lang, **setting) + "\n", output)
        return
    if kind == "html":
        emit(results_sheet.results_sheet_html(doc, lang, **setting), output)
        return
    assert output is not None
    Path(output).write_bytes(results_sheet.results_sheet_pdf(doc, lang, **setting))
    click.echo(f"results sheet written to {output}")


def _stored_results(round_name: str, db: str | None, readings=None):
    """Return a stored round's results, judged at the end of its day, and its life; the
    ``readings`` given (``rounding``, ``gross_par_adjustment``; None: the round's own) for this
    run only."""
    from pace.services.life import RoundLifeService
    from pace.services.live import LiveService
    from pace.services.referee_feed import RefereeFeed
    from pace.services.scores import ScoreService

    service = open_service(db)
    try:
        live = LiveService(service)
        scores = ScoreService(live, RefereeFeed(live))
        # judged at the end of the round's day: every act of the day is in
        outcome, error = scores.judged_results(round_name, _end_of(service, round_name),
                                               **(readings or {}))  # fmt: skip
        # its life as of now: final or not (the acts come after the day, often)
        life = RoundLifeService(live).document(round_name)
        life.pop("round")
    finally:
        service.store.close()
    if error:
        click.echo(f"warning: no pace penalty on the cards: {error}", err=True)
    return outcome, life


def _end_of(service, round_name: str) -> datetime:
    from pace.services.offline import end_of_day

    view = service.round_view(round_name)
    return end_of_day(view.record.day, view.tz)


def _offline_results(
    course_file, draw_file, scores_file, referee_file, times_file, policy, scoring,
    format_name, net, allowance, timezone, day, tee_defaults=None, rounding=None,
    gross_par_adjustment=None,
):  # fmt: skip
    from pace.rules import scoring as scoringmod
    from pace.services import offline
    from pace.services.scoring import offline_results

    settings = load_settings()
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
        allowances = _allowances(allowance, allowances, team_format, scorer.family)
    if rounding is not None:
        allowances = replace(allowances, rounding=rounding)
    if gross_par_adjustment is not None:
        allowances = replace(allowances, gross_par_adjustment=gross_par_adjustment)
    if policy is not None and policy not in settings.policy_names:
        raise InputError(f"--policy {policy!r}: expected one of {', '.join(settings.policy_names)}")
    tzname = timezone or settings.round.timezone
    the_day = day.date() if day else datetime.now(zone(tzname)).date()
    defaults = None
    if tee_defaults:
        try:
            defaults = formats.parse_tee_defaults(tee_defaults)
        except ValueError as e:
            raise InputError(f"--tees: {e}") from None
    setup, tz = _offline_setup(course_file, draw_file, the_day, tzname, None, defaults)
    outcomes = ()
    if referee_file:  # judged on the ladder of the scoring's form of play (docs/rules.md §7)
        completions, acts = _offline_files(setup, times_file, referee_file, the_day, tz)
        judged = offline.judge(
            setup, completions, acts, settings.policy(policy or settings.round.policy),
            offline.end_of_day(the_day, tz), play=scorer.play, format_name=team_format.name,
        )  # fmt: skip
        # the faults named as the log names them (L12, cp:1), as pace penalties prints them
        outcomes = tuple(
            replace(o, fault=replace(o.fault, id=judged.act_id(o.fault))) for o in judged.outcomes
        )
    try:
        return offline_results(
            setup, read(scores_file), scores_file, scoring=scorer, team_format=team_format,
            net=net, allowances=allowances, outcomes=outcomes,
        )  # fmt: skip
    except FileFormatError as e:
        raise fail(e) from None
    except PaceError as e:  # the draw (sides, matches) or the course cannot be scored so
        where = course_file if e.field == "stroke_index" else draw_file
        raise InputError(f"{where}: {e.message}") from None


@click.command("scores")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--round", "round_name", required=True, help="Round the cards belong to.")
@click.option("--by", default="import", help="Who typed these cards in (the event author).")
@db_option
def import_scores(file, round_name, by, db) -> None:
    """Import score cards (CSV, docs/formats.md §7) as score_recorded events: all or nothing; a hole
    already scored otherwise refuses the file; re-importing adds nothing.

    Example: pace import scores cards-group7.csv --round R1 --by "S. Roy"
    """
    from pace.services.scores import import_scores as importing

    service = open_service(db)
    try:
        created, already = importing(service, read(file), file, round=round_name, by=by)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    done = f"{created} scores imported into round {round_name!r}"
    if already:
        done += f"; {already} already recorded, left as they are"
    click.echo(done)

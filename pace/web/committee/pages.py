"""The console's pages (committee only): its home, the courses (a form and a TOML upload),
a new round from its draw CSV (preview, then create), and a round's changes on the day.

The uploads and the course form are ``multipart/form-data`` POSTs with the page's form token
(``csrf``), answered as JSON. A refused file stores nothing and answers every problem at once
(``problems``: line, field, the parser's message, and the CLI's line ``file, line N, field
'x': …``); the preview and the creation parse the same file the same way, server-side.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from pace.formats import csvfile
from pace.formats.geometry import MAX_BYTES as MAX_GEOMETRY
from pace.formats.geometry import MapFileError, MapMatch
from pace.formats.mapfile import size_problem
from pace.i18n import NAMES
from pace.rules.errors import FileFormatError, Label, PaceError, said
from pace.rules.reported import COMPLETIONS
from pace.services.changes import ChangeService
from pace.services.geometry import course_geometry as stored_geometry
from pace.services.geometry import import_geometry
from pace.services.geometry import preview_geometry as map_preview
from pace.services.life import RoundLifeService
from pace.web import access, payloads
from pace.web.committee import courses, parsers, problems
from pace.web.downloads import attachment
from pace.web.errors import error_body, http_status, refusal_body
from pace.web.i18n import ENGLISH, current_language, local_time, page_context, translate
from pace.web.parts import parts

bp = Blueprint("committee", __name__)

#: the largest course file the console reads
MAX_COURSE = 64 * 1024
#: the time zones offered first (the others follow in the list)
USUAL_ZONES = ("Europe/Brussels", "Europe/Paris", "America/Toronto", "UTC")


def _check_form() -> None:
    """A form carried by the session cookie must hold this browser's token (``csrf``); a
    Bearer token is never sent by a browser on its own (scripts, tests): no forgery there."""
    if not request.headers.get("Authorization", "").startswith("Bearer "):
        access.check_csrf()


def _refused(
    e: PaceError, problems: list[dict[str, Any]] | None = None, translation: str | None = None
) -> Any:
    """Answer a refusal as JSON: its sentence in the page's language too (``translation``),
    and a refused file's problems, each in the page's language."""
    lang = current_language()
    body = refusal_body(e, lang)
    if translation is not None and lang != "en":  # English: the message is the sentence
        body["error"]["translation"] = translation
    if problems is not None:
        body["problems"] = problems
    return jsonify(body), http_status(body)


def _club() -> str:
    """The club of this request's session: the console is a club's (issue 50). The table
    lets only a committee's session here, and a committee's session has a club."""
    club = access.session_club()
    if club is None:  # an administrator's session never gets here (pace.web.access)
        raise access.AccessError("an administrator's session sees no club's data")
    return club


# -- the console's home --------------------------------------------------------------------


@bp.get("/committee")
def console() -> str:
    """The console's home: courses, a new round, each round's changes, access and dashboard."""
    app_parts = parts()
    return render_template(
        "committee/home.html",
        rounds=app_parts.live.service.list_rounds(_club()),
        courses=app_parts.store.list_courses(club=_club()),
        **page_context(),
    )


# -- courses -------------------------------------------------------------------------------


@bp.get("/courses")
def courses_page() -> str:
    """The stored courses, each with its edit link; a new one by hand or from a TOML file."""
    return render_template(
        "committee/courses.html", courses=parts().store.list_courses(club=_club()),
        **page_context(),
    )


@bp.get("/courses/edit")
def course_form() -> str:
    """The course form: empty (a new course), or ``?name=`` a stored course's values."""
    name = payloads.text(request.args, "name", required=False)
    values = courses.to_form(parts().live.service.course(name, _club())) if name else None
    return render_template(
        "committee/course.html",
        values=values,
        hole_counts=courses.HOLE_COUNTS,
        **page_context(),
    )


@bp.get("/courses/<path:name>.toml")
def download_course(name: str) -> Any:
    """A stored course as its TOML file (``pace export course``): it re-imports to the same
    course."""
    text = parts().live.service.export_course(
        payloads.text({"name": name}, "name", limit=200), _club()
    )
    response = Response(text, mimetype="application/toml")
    return attachment(response, name, "course", "toml")


@bp.post("/api/courses")
def save_course() -> Any:
    """Store the course form (``course``: its fields as JSON) after the checks of
    ``pace import course``; refused: every problem, each with the form's field at fault."""
    _check_form()
    raw = payloads.text(request.form, "course", limit=payloads.MAX_BODY, prose=True)
    try:
        form = courses.to_toml(json.loads(raw))
    except (ValueError, RecursionError) as e:
        if isinstance(e, PaceError):
            raise
        raise payloads.PayloadError(said("refusal.course_form.json", "course: expected the "
                                         "form's fields as JSON"),
                                    field="course") from None  # fmt: skip
    return _import_course(form.text, courses.FORM, form)


@bp.post("/api/courses/upload")
def upload_course() -> Any:
    """Store a course TOML file (``file``), as ``pace import course`` does."""
    _check_form()
    file = request.files.get("file")
    if file is None or not file.filename:
        raise payloads.PayloadError(said("refusal.course.file", "choose the course's TOML file"),
                                    field="file", code="missing_field")  # fmt: skip
    data = file.read(MAX_COURSE + 1)
    if len(data) > MAX_COURSE:
        raise payloads.PayloadError(said("refusal.course.size", "the course file is larger than "
                                         "{size} KiB", size=MAX_COURSE // 1024),
                                    field="file", code="payload_too_large")  # fmt: skip
    filename = payloads.text({"f": file.filename}, "f").rsplit("/", 1)[-1]
    try:
        text = csvfile.decode(data, filename)
    except FileFormatError as e:
        return _refused(e, courses.problems_of(e, lang=current_language()))
    return _import_course(text, filename, None)


def _map_upload() -> tuple[bytes, str, str, dict[str, str]]:
    """Return a map upload's file, its name, the course and the file's course chosen
    (``map_course`` or ``ref_pattern``); a body over the map's size is refused unread."""
    # a map is larger than the pages' bodies: this upload alone may take MAX_BYTES (and the
    # form's fields); its size is said as the parser says it (pace.formats.mapfile)
    limit = MAX_GEOMETRY + 64 * 1024
    too_large = size_problem(request.content_length, "file")
    if too_large is not None and (request.content_length or 0) > limit:
        raise _TooLargeError(too_large)
    request.max_content_length = limit
    try:
        _check_form()
        file = request.files.get("file")
        form = request.form
    except RequestEntityTooLarge:  # a body sent without its length, cut off at the limit
        raise _TooLargeError(size_problem(None, "file") or FileFormatError([])) from None
    course = payloads.text(form, "course", limit=200)
    choice = {
        "map_course": payloads.text(form, "map_course", limit=200, required=False),
        "ref_pattern": payloads.text(form, "ref_pattern", limit=60, required=False),
    }
    if file is None or not file.filename:
        raise payloads.PayloadError(said("refusal.map.file", "choose the course's map file "
                                         "(.osm or .geojson)"),
                                    field="file", code="missing_field")  # fmt: skip
    filename = payloads.text({"f": file.filename}, "f").rsplit("/", 1)[-1]
    return file.read(), filename, course, choice


class _TooLargeError(Exception):
    """A map upload over the size a map may take: refused before it is read."""

    def __init__(self, refusal: FileFormatError) -> None:
        self.refusal = refusal


def _map_refused(e: FileFormatError) -> Any:
    """Answer a refused map: every problem in the page's language, and the file's courses."""
    body = error_body(e.code, e.message, e.field)
    body["problems"] = courses.problems_of(e, lang=current_language())
    if isinstance(e, MapFileError):
        body["choices"] = [c.to_dict() for c in e.choices]
    return jsonify(body), http_status(body)


@bp.errorhandler(_TooLargeError)
def _map_too_large(e: _TooLargeError) -> Any:
    body = error_body("payload_too_large", e.refusal.problems[0].message, "file")
    body["problems"] = courses.problems_of(e.refusal, lang=current_language())
    return jsonify(body), 413


def _chosen(match: MapMatch) -> dict[str, Any]:
    return {"chosen": match.chosen.to_dict() if match.chosen else None,
            "choices": [c.to_dict() for c in match.choices]}  # fmt: skip


@bp.post("/api/courses/geometry/preview")
def preview_geometry() -> Any:
    """Match a course's map file to the course as its upload would, and store nothing: the
    holes matched (number, ref, par, length, name as the file gives them), the file's
    courses and the one chosen (issue 46)."""
    data, filename, course, choice = _map_upload()
    try:
        match = map_preview(parts().live.service, data, filename, course, **choice,
                            club=_club())  # fmt: skip
    except FileFormatError as e:
        return _map_refused(e)
    return jsonify({"ok": True, "stored": False, "course": course, "source": filename,
                    "holes": match.holes, **_chosen(match)})  # fmt: skip


@bp.post("/api/courses/geometry")
def upload_geometry() -> Any:
    """Store a course's map (``course``, ``file``: .osm XML or GeoJSON; of a site with several
    courses, ``map_course`` or ``ref_pattern``), as ``pace import geometry`` does: refused
    with every problem, by hole; nothing stored then."""
    data, filename, course, choice = _map_upload()
    try:
        match = import_geometry(parts().live.service, data, filename, course, **choice,
                                club=_club())  # fmt: skip
    except FileFormatError as e:
        return _map_refused(e)
    return jsonify({"ok": True, "course": course, "holes": len(match.geometry["holes"]),
                    **_chosen(match)})  # fmt: skip


@bp.get("/api/courses/<path:name>/geometry")
def course_geometry(name: str) -> Any:
    """A stored course's map (``{ok, course, geometry}``, ``geometry`` null when it has none)."""
    name = payloads.text({"name": name}, "name", limit=200)
    return jsonify({"ok": True, "course": name,
                    "geometry": stored_geometry(parts().live.service, name, _club())})  # fmt: skip


def _import_course(text: str, filename: str, form: courses.CourseForm | None) -> Any:
    notes: list[str] = []
    try:
        course = parts().live.service.import_course(text, filename, notes, club=_club())
    except FileFormatError as e:
        return _refused(e, courses.problems_of(e, form, current_language()))
    return jsonify({"ok": True, "course": course.name, "holes": len(course.holes),
                    "notes": notes})  # fmt: skip


# -- a new round -----------------------------------------------------------------------------


@bp.get("/rounds/new")
def round_new() -> str:
    """Create a round: its setup from lists that say what each choice means, its draw CSV
    (file picker or drop), a preview, then the committee's confirmation."""
    app_parts = parts()
    settings = app_parts.settings
    zones = [z for z in USUAL_ZONES if z != settings.round.timezone]
    zones = [settings.round.timezone, *zones, *sorted(available_timezones() - {*zones,
             settings.round.timezone})]  # fmt: skip
    return render_template(
        "committee/round_new.html",
        courses=app_parts.store.list_courses(club=_club()),
        policies=settings.policy_names,
        default_policy=settings.round.policy,
        completions=COMPLETIONS,
        default_completions=settings.round.completions,
        zones=zones,
        today=app_parts.live.clock.now().astimezone(ZoneInfo(zones[0])).date().isoformat(),
        plays=parsers.PLAYS,
        formats=parsers.FORMAT_NAMES,
        scorings=parsers.SCORING_NAMES,
        languages=[(code, NAMES[code]) for code in parsers.LANGUAGES],
        default_language=settings.reports.language,
        roundings=parsers.ROUNDINGS,
        readings={"rounding": settings.handicap.rounding,
                  "gross_par_adjustment": settings.handicap.gross_par_adjustment},  # fmt: skip
        **page_context(),
    )


def _prepare() -> Any:
    _check_form()
    app_parts = parts()
    setup = parsers.round_setup(
        request.form, request.files.get("draw"), app_parts.settings.policy_names
    )
    notes: list[str] = []
    prepared = app_parts.live.service.prepare_draw(
        setup.draw,
        setup.filename,
        round=setup.round,
        course=setup.course,
        day=setup.day,
        timezone=setup.timezone,
        policy=setup.policy,
        play=setup.play,
        format=setup.format,
        scoring=setup.scoring,
        net=setup.net,
        allowance=setup.allowance,
        notes=notes,
        new=True,
        tees=setup.tees,
        completions=setup.completions,
        rounding=setup.rounding,
        gross_par_adjustment=setup.gross_par_adjustment,
        club=_club(),
    )
    return prepared, notes, setup.language


def _draw_step(store: bool) -> Any:
    try:
        prepared, notes, language = _prepare()
    except FileFormatError as e:
        return _refused(e, courses.problems_of(e, lang=current_language()))
    except PaceError as e:
        if e.sentence is not None or e.field != "tees":
            raise  # answered with its sentence in the page's language (pace.app)
        # the default tees' refusal, a parser's sentence, in the page's language (issue 47)
        return _refused(e, translation=problems.translate(e.message, current_language()))
    app_parts = parts()
    if store:
        app_parts.live.service.store_draw(prepared)
        if language is not None:  # the committee's language for the round's documents
            app_parts.store.update_round(prepared.round, language=language)
    lang = current_language()
    tz = ZoneInfo(prepared.timezone)
    groups = [
        {
            "group": g.id,
            "start": local_time(g.start, tz, lang),
            "tee": g.tee,
            "players": [
                {"name": p.name, "handicap": p.handicap, "club": p.club, "tees": p.tees,
                 "gender": p.gender}
                for p in g.players
            ],
        }
        for g in prepared.groups
    ]
    return jsonify(
        {
            "ok": True,
            "stored": store,
            "round": prepared.round,
            "course": prepared.course.name,
            "day": prepared.day.isoformat(),
            "timezone": prepared.timezone,
            "groups": groups,
            "players": sum(len(g.players) for g in prepared.groups),
            # the columns ignored, in the page's language (issue 47)
            "notes": [problems.translate(note, lang) for note in notes],
        }
    )


@bp.post("/api/rounds/preview")
def round_preview() -> Any:
    """Parse the new round's form and draw, store nothing: its groups, or every problem."""
    return _draw_step(store=False)


@bp.post("/api/rounds/create")
def round_create() -> Any:
    """Parse the same form and draw again, and store the round (refused: nothing stored)."""
    return _draw_step(store=True)


# -- the changes on the day ------------------------------------------------------------------


def _changes(round: str) -> dict[str, Any]:
    """Return the draw as it is now and the round's changes, as the page shows them."""
    app_parts = parts()
    with app_parts.live.lock:
        live = app_parts.live.live(round)
    view = live.view
    lang = current_language()
    played = {c.group for c in live.field.facts().completions}
    groups = [
        {
            "group": g.id,
            "start": local_time(g.start, view.tz, lang),
            "tee": g.tee,
            "played": g.id in played,
            "players": [
                {
                    "name": p.name,
                    "handicap": p.handicap,
                    "tees": p.tees,
                    "retired": local_time(g.retired_at(p.name), view.tz, lang) or None,
                }
                for p in g.players
            ],
        }
        for g in view.setup.groups
    ]
    rows = []
    for r in ChangeService(app_parts.live).listing(round):
        p: dict[str, Any] = dict(r["payload"])  # type: ignore[call-overload]
        by: dict[str, Any] = dict(r["by"])  # type: ignore[call-overload]
        if "start" in p:
            p["start"] = _local_iso(str(p["start"]), view.tz, lang)
        if r["type"] == "player_withdrawn" and p.get("reason") in WITHDRAWALS:
            p["reason"] = translate(f"changes.why.{p['reason']}", lang)  # no_show: in words
        rows.append({"id": r["id"], "type": r["type"], "voided": r["voided"],
                     "at": _local_iso(str(r["at"]), view.tz, lang),
                     "by": by.get("name") or _role(by.get("role"), lang),
                     "payload": p})  # fmt: skip
    life = RoundLifeService(app_parts.live).document(round)
    for act in (life["finished"], life["finalised"], *life["reopened"]):
        if act is not None and act.get("at"):
            act["at"] = _local_iso(act["at"], view.tz, lang)
    return {"round": round, "day": view.record.day.isoformat(), "groups": groups,
            "changes": rows, "holes": [h.number for h in view.setup.course.holes],
            "tees": [t.name for t in view.setup.course.tees], "life": life}  # fmt: skip


def _readings(record: Any, settings: Any) -> dict[str, Any]:
    """Return the round's readings of the handicap rules as its results take them (its own,
    else config.toml's), and whether they are config.toml's (a round stored before issue 47)."""
    return {
        "rounding": record.rounding or settings.handicap.rounding,
        "gross_par_adjustment": settings.handicap.gross_par_adjustment
        if record.gross_par_adjustment is None
        else record.gross_par_adjustment,
        "configured": record.rounding is None and record.gross_par_adjustment is None,
    }


#: a withdrawal's reasons (``change_withdraw``), each said in words in the changes' list
WITHDRAWALS = ("no_show", "retired")


def _role(role: object, lang: str) -> str:
    """Return a change's author without a name as its role in words ("Comité")."""
    key = f"role.{role}"
    return translate(key, lang) if key in ENGLISH else str(role or "")


def _local_iso(text: str, tz: Any, lang: str) -> str:
    return local_time(datetime.fromisoformat(text), tz, lang)


@bp.get("/rounds/<round>/changes")
def changes_page(round: str) -> str:
    """The round's draw as it is now, its changes (who, why, when, voided) and the forms of
    the changes on the day (each a command of the edge pipeline); its life, and its access
    cards in bulk."""
    app_parts = parts()
    record = app_parts.live.service.round_view(round).record
    return render_template(
        "committee/changes.html",
        round=round,
        data=_changes(round),
        card_roles=CARD_ROLES,
        languages=[(code, NAMES[code]) for code in parsers.LANGUAGES],
        round_language=record.language or app_parts.settings.reports.language,
        language_saved=request.args.get("language_saved") == "1",
        readings=_readings(record, app_parts.settings),
        roundings=parsers.ROUNDINGS,
        handicap_saved=request.args.get("handicap_saved") == "1",
        positions=record.positions,
        positions_saved=request.args.get("positions_saved") == "1",
        public_url=app_parts.settings.server.public_url or request.host_url.rstrip("/"),
        **page_context(),
    )


@bp.get("/api/rounds/<round>/changes")
def api_changes(round: str) -> Any:
    """The draw as it is now and the changes, as the changes page shows them."""
    return jsonify({"ok": True, **_changes(round)})


@bp.post("/rounds/<round>/language")
def round_language(round: str) -> Any:
    """The committee sets the language of the round's documents (report, letters, sheets made
    without a language asked for); stored with the round, the changes page shown again."""
    _check_form()
    unknown = sorted(set(request.form) - {"csrf", "language"})
    if unknown:
        raise _unknown_field(unknown[0])
    language = payloads.text(request.form, "language", limit=10)
    if language not in parsers.LANGUAGES:
        raise payloads.PayloadError(
            said("refusal.form.choice", "{field} {value}: expected one of {choices}",
                 field=Label("language"), value=repr(language[:10]),
                 choices=", ".join(parsers.LANGUAGES)),
            field="language",
        )  # fmt: skip
    service = parts().live.service
    name = service.round_view(round).record.name  # unknown_round for a round not stored
    service.set_language(name, language)
    return redirect(url_for("committee.changes_page", round=name, language_saved=1))


@bp.post("/rounds/<round>/handicap")
def round_handicap(round: str) -> Any:
    """The committee sets the round's readings of the handicap rules (issue 47): the playing
    handicap's rounding and the gross adjustment for tees of different par; stored with the
    round (its results, leaderboard and sheets follow them), the changes page shown again."""
    _check_form()
    readings = parsers.handicap_readings(request.form)
    app_parts = parts()
    service = app_parts.live.service
    name = service.round_view(round).record.name  # unknown_round for a round not stored
    service.set_handicap_readings(name, **readings)
    app_parts.derived.cards(name)  # the leaderboard and the cards follow the new readings
    return redirect(url_for("committee.changes_page", round=name, handicap_saved=1))


@bp.post("/rounds/<round>/positions")
def round_positions(round: str) -> Any:
    """The committee allows or refuses positions from the groups' phones for the round
    (issue 48, docs/positions.md); stored with the round, the changes page shown again."""
    _check_form()
    allowed = parsers.positions_setting(request.form)
    service = parts().live.service
    name = service.round_view(round).record.name  # unknown_round for a round not stored
    service.set_positions(name, allowed)
    return redirect(url_for("committee.changes_page", round=name, positions_saved=1))


def _unknown_field(name: str) -> payloads.PayloadError:
    return payloads.PayloadError(said("refusal.form.unknown_field", "unknown field {name}",
                                      name=repr(name[:40])),
                                 field=name[:40], code="unknown_field")  # fmt: skip


# -- access cards in bulk ----------------------------------------------------------------------

#: the roles whose cards the console makes in bulk, in the order of the sheet
CARD_ROLES = ("marshal", "referee", "scorer")
_CARD_FIELDS = frozenset({"csrf", *CARD_ROLES, "url", "layout"})


@bp.post("/rounds/<round>/cards")
def access_cards(round: str) -> Any:
    """Make codes for N marshals, referees and scorers at once and answer the A4 sheet of their
    cards (PDF), as ``pace access cards`` does (``make_cards``, then WeasyPrint). The codes are
    shown on these cards only; the address on the cards is the form's, else
    ``server.public_url``, else the address this request came to."""
    from pace.reports.cards import LAYOUTS, cards_pdf
    from pace.services.cards import MAX_CARDS, make_cards

    _check_form()
    form = request.form
    unknown = sorted(set(form) - _CARD_FIELDS)
    if unknown:
        raise _unknown_field(unknown[0])
    counts = {r: payloads.integer(form, r, 0, MAX_CARDS) if form.get(r, "").strip() else 0
              for r in CARD_ROLES}  # fmt: skip
    wanted = [(role, n) for role, n in counts.items() if n]
    if not wanted:
        raise payloads.PayloadError(said("refusal.cards.count", "say how many cards to make for "
                                         "marshals, referees or scorers"),
                                    field="marshal", code="missing_field")  # fmt: skip
    layout = payloads.text(form, "layout", limit=10, required=False) or "2x4"
    if layout not in LAYOUTS:
        raise payloads.PayloadError(said("refusal.cards.layout", "layout must be one of {names}",
                                         names=", ".join(LAYOUTS)), field="layout")  # fmt: skip
    app_parts = parts()
    url = (payloads.text(form, "url", limit=300, required=False)
           or app_parts.settings.server.public_url or request.host_url)  # fmt: skip
    name = app_parts.live.service.round_view(round).record.name  # its canonical spelling
    cards = make_cards(app_parts.access, name, wanted, url)
    pdf = cards_pdf(cards, current_language(), layout)
    return attachment(Response(pdf, mimetype="application/pdf"), name, "cards", "pdf")

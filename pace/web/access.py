"""Who may do what: the ONE permission table, and where every request and event is checked.

- ``EVENTS``: each Socket.IO event (and its ``/api/commands/<name>`` mirror) → the roles
  allowed. The edge pipeline (pace/web/edge.py) calls ``check_role`` before it parses a
  payload and ``check_scope`` on the parsed command (its round, the void rule).
- ``ENDPOINTS``: each HTTP endpoint → the roles allowed, or ``PUBLIC``. ``guard_request``
  runs before every request; an endpoint missing from the table is refused (deny by default).
- The session comes from the signed Flask session cookie (browsers: HTTP and the Socket.IO
  handshake) or from a token: ``Authorization: Bearer <token>`` on HTTP, ``auth={"token":
  ...}`` on Socket.IO (python clients). The role is never taken from what a client claims.

Refusals have the shared error shape: ``unauthorized`` (no valid session) or ``forbidden``.
See docs/access.md.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from pace.rules.errors import PaceError, said
from pace.services.access import ROLES, AccessError, Session, join_link
from pace.store import UnknownRoundError
from pace.web import errors, payloads
from pace.web.i18n import current_language, page_context, say, translate
from pace.web.parts import parts

COMMITTEE = frozenset({"committee"})
REFEREE = frozenset({"committee", "referee"})
MARSHAL = frozenset({"committee", "referee", "marshal"})
SCORER = frozenset({"committee", "referee", "scorer"})
PHONE = frozenset({"scorer"})
ANY_ROLE = frozenset(ROLES)
#: an administrator of a federation's instance: its clubs, none of their data (issue 50)
ADMIN = frozenset({"admin"})
PUBLIC = None

#: Socket.IO events and the command mirror: who may send each (``PUBLIC``: anybody, no
#: session needed).
EVENTS: dict[str, frozenset[str] | None] = {
    "clock_sync": ANY_ROLE,
    "join_round": ANY_ROLE,
    "join_board": ANY_ROLE,
    "join_leaderboard": PUBLIC,
    "join_scores": SCORER,
    "hole_completed": MARSHAL,
    "correct_hole_time": MARSHAL,
    # a marshal only of taps and tap corrections, a scorer only of scores (``check_scope``)
    "void_event": MARSHAL | SCORER,
    "record_score": SCORER,
    "correct_score": SCORER,
    # a group's own report that it holed out (issue 39): any scorer of the round, as scores
    "group_completed": SCORER,
    # positions from the group's phone (issue 48): the scorer's page is the group's phone; a
    # referee's or a marshal's phone is not a group's
    "share_positions": PHONE,
    "send_positions": PHONE,
    "acknowledge_alert": REFEREE,
    "decide_timing": REFEREE,
    "tell_player_timed": REFEREE,
    "record_stroke": REFEREE,
    "notify_player": REFEREE,
    "grant_time_credit": REFEREE,
    "stop_timing": REFEREE,
    "record_siren": COMMITTEE,
    # the console's changes on the day (pace/web/committee)
    "change_withdraw": COMMITTEE,
    "change_add_player": COMMITTEE,
    "change_move_player": COMMITTEE,
    "change_swap": COMMITTEE,
    "change_start": COMMITTEE,
    "change_tee": COMMITTEE,
    "change_tees": COMMITTEE,
    "change_add_group": COMMITTEE,
    "change_remove_group": COMMITTEE,
    "change_void": COMMITTEE,
    "round_finish": COMMITTEE,
    "round_final": COMMITTEE,
    "round_reopen": COMMITTEE,
}

#: The event types a marshal, or a scorer, may void: their own kind of fact.
MARSHAL_VOIDABLE = ("hole_completed", "hole_time_corrected")
SCORER_VOIDABLE = ("score_recorded", "score_corrected")
OWN_KIND = {
    "marshal": (MARSHAL_VOIDABLE, "hole times", "ask a referee"),
    "scorer": (SCORER_VOIDABLE, "scores and the groups' reports", "ask a referee or the committee"),
}

#: HTTP endpoints: who may call each (``PUBLIC``: anybody, no session needed).
ENDPOINTS: dict[str, frozenset[str] | None] = {
    "static": PUBLIC,
    "pace.service_worker": PUBLIC,
    "pace.home": PUBLIC,
    "privacy.privacy": PUBLIC,  # the members' page on positions (pace/web/privacy.py)
    "access.join": PUBLIC,
    "access.login": PUBLIC,
    "access.logout": PUBLIC,
    "access.api_session": PUBLIC,
    # people's own accounts and the clubs of a federation's instance (pace/web/clubs.py)
    "clubs.signin": PUBLIC,
    "clubs.setup": PUBLIC,
    "clubs.clubs_page": ANY_ROLE | ADMIN,  # a person's clubs; an access code has none
    "clubs.members_page": COMMITTEE,  # the club's people, their roles, its access log
    "clubs.admin_page": ADMIN,
    "health.healthz": PUBLIC,  # the operator's probes (pace/web/health.py): no detail in them
    "health.readyz": PUBLIC,
    "metrics.metrics": PUBLIC,  # off by default; then only to server.metrics_from (404 else)
    "pace.api_rounds": ANY_ROLE,
    "referee.board_page": ANY_ROLE,
    "pace.api_board": ANY_ROLE,
    "marshal.marshal_page": MARSHAL,
    "pace.api_snapshot": MARSHAL,
    "pace.api_status": MARSHAL,
    "pace.api_strip": MARSHAL,  # the course strip's rewind (the field at an instant)
    "pace.api_geometry": ANY_ROLE,  # the round's course's map (issue 40): the board's too
    "pace.api_events": MARSHAL,
    "pace.api_alert": REFEREE,
    # where the groups stand on their holes, from their phones (issue 48): the committee and
    # its referees only, as the scorer's page tells its players (docs/positions.md, "Privacy")
    "positions.api_places": REFEREE,  # an alert's "Why": the dashboard's (issue 37)
    "referee.api_penalties": MARSHAL,
    "referee.api_group_penalties": MARSHAL,  # a group's every fault, fetched when asked
    "scoring.leaderboard_page": PUBLIC,
    "scoring.api_leaderboard": PUBLIC,
    "scoring.scorecard_page": SCORER,
    "scoring.api_card": SCORER,
    "scoring.api_own_pace": SCORER,
    "scoring.api_results": SCORER,
    # the printable results sheet: the committee's until the results are final, then anybody's
    # (``OPEN_WHEN_FINAL``)
    "scoring.results_sheet": COMMITTEE,
    "scoring.results_pdf": COMMITTEE,
    "scoring.results_csv": COMMITTEE,
    "scoring.scoring_setting": COMMITTEE,
    "dashboard.dashboard_page": REFEREE,
    "dashboard.held_up_why": REFEREE,  # the hold-up panel's "Why", fetched when asked
    "referee.shotclock_page": REFEREE,
    "audit.audit_page": REFEREE,
    "audit.audit_csv": REFEREE,
    "reports.report_page": REFEREE,
    "reports.report_chart": REFEREE,
    "reports.report_csv": REFEREE,
    "reports.report_json": REFEREE,
    "reports.letters_page": REFEREE,
    "reports.start_job": REFEREE,
    "reports.job_status": REFEREE,
    "reports.job_file": REFEREE,
    "reports.offenders_page": COMMITTEE,
    "access.access_page": COMMITTEE,
    # the committee's console (pace/web/committee)
    "committee.console": COMMITTEE,
    "committee.courses_page": COMMITTEE,
    "committee.download_course": COMMITTEE,
    "committee.course_form": COMMITTEE,
    "committee.save_course": COMMITTEE,
    "committee.upload_course": COMMITTEE,
    "committee.upload_geometry": COMMITTEE,  # a course's map (issue 40)
    "committee.preview_geometry": COMMITTEE,  # the holes a map file gives, unstored (issue 46)
    "committee.course_geometry": COMMITTEE,
    "committee.round_new": COMMITTEE,
    "committee.round_preview": COMMITTEE,
    "committee.round_create": COMMITTEE,
    "committee.changes_page": COMMITTEE,
    "committee.api_changes": COMMITTEE,
    "committee.access_cards": COMMITTEE,
    "committee.round_language": COMMITTEE,  # the language of the round's documents (issue 41)
    "committee.round_handicap": COMMITTEE,  # the round's handicap readings (issue 47)
    "committee.round_positions": COMMITTEE,  # positions from the groups' phones (issue 48)
    "committee.calibration_page": COMMITTEE,  # time pars from history (issue 30)
    "committee.calibration_toml": COMMITTEE,
    "pace.api_command": MARSHAL | SCORER,  # narrowed per command by EVENTS
}

#: The console's global pages, across every round (the courses, new rounds, every round's
#: list, the courses' history, repeat offenders over all rounds): the committee secret's alone.
#: A committee code made for one round stays within that round (docs/access.md, "A round's
#: committee code").
ALL_ROUNDS = frozenset({
    "committee.console",
    "committee.courses_page",
    "committee.download_course",
    "committee.course_form",
    "committee.save_course",
    "committee.upload_course",
    "committee.upload_geometry",
    "committee.preview_geometry",
    "committee.course_geometry",
    "committee.round_new",
    "committee.round_preview",
    "committee.round_create",
    "committee.calibration_page",
    "committee.calibration_toml",
    "reports.offenders_page",
    "clubs.members_page",  # the club's people and access log: never a round code's
})  # fmt: skip

#: Endpoints open to anybody once the round's results are final (the notice board's results
#: sheet, docs/access.md); until then ``ENDPOINTS`` says who may.
OPEN_WHEN_FINAL = frozenset({"scoring.results_sheet", "scoring.results_pdf", "scoring.results_csv"})

ROLE_WORDS = {
    "committee": "the committee",
    "referee": "a referee",
    "scorer": "a scorer",
    "marshal": "a marshal",
    "viewer": "a viewer",
    "admin": "an administrator of the instance",
}

#: what a refused page is, in the sentence of its refusal (issue 14: full sentences), and the
#: catalogue key of its name for the translated page
PAGES: dict[str, tuple[str, str]] = {
    "marshal.marshal_page": ("the marshal page", "page.marshal"),
    "dashboard.dashboard_page": ("the referees' dashboard", "page.dashboard"),
    "referee.shotclock_page": ("the shot clock", "page.shotclock"),
    "referee.board_page": ("the pace board", "page.board"),
    "audit.audit_page": ("the audit of the round", "page.audit"),
    "audit.audit_csv": ("the audit of the round", "page.audit"),
    "reports.report_page": ("the round's report", "page.report"),
    "reports.letters_page": ("the round's letters", "page.report"),
    "reports.offenders_page": ("the repeat offenders", "page.offenders"),
    "access.access_page": ("the access codes of the round", "page.access"),
    "scoring.scorecard_page": ("the scorer's card", "page.scorecard"),
    "scoring.results_sheet": ("the results sheet before the results are final", "page.results"),
    "committee.console": ("the committee's console", "page.console"),
    "committee.courses_page": ("the courses", "page.courses"),
    "committee.course_form": ("the course form", "page.courses"),
    "committee.round_new": ("the new round", "page.round_new"),
    "committee.changes_page": ("the changes on the day", "page.changes"),
    "committee.calibration_page": ("the time pars from history", "page.calibration"),
}


def _who(roles: frozenset[str]) -> str:
    """Return who may, in words: "the committee, a referee or a marshal"."""
    words = [ROLE_WORDS[r] for r in ROLES if r in roles]
    return " or ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} or {words[-1]}"


def _what(name: str) -> str:
    """Return what was refused, in words: "open the referees' dashboard", "send record_siren"."""
    if name in PAGES:
        return f"open {PAGES[name][0]}"
    if name in EVENTS:
        return f"send {name}"
    return f"read {request.path}" if request else f"use {name}"


def allowed(name: str, role: str | None, table: Mapping[str, Any] = EVENTS) -> bool:
    """Return whether ``role`` may send the event (or call the endpoint) ``name``."""
    roles = table.get(name, frozenset())
    return roles is PUBLIC or (role is not None and role in roles)


def may_open(endpoint: str, s: Session | None) -> bool:
    """Return whether the session ``s`` may call ``endpoint``: its role, and for the
    console's global pages (``ALL_ROUNDS``) a session of every round (the committee secret)."""
    if not allowed(endpoint, s.role if s else None, ENDPOINTS):
        return False
    return endpoint not in ALL_ROUNDS or (s is not None and s.round is None)


def check_all_rounds(endpoint: str, s: Session) -> None:
    """Refuse a global page of the console to a session made for one round (``forbidden``)."""
    if endpoint in ALL_ROUNDS and s.round is not None:
        raise AccessError(
            said("refusal.access.one_round", "your access code is for round {round} only: "
                 "what you asked for spans every round; sign in with the committee secret at "
                 "/login", round=repr(s.round)),
            field="round",
        )  # fmt: skip


def _refuse_role(name: str, roles: frozenset[str], s: Session | None) -> None:
    if s is None:
        raise AccessError(
            said("refusal.access.signed_out", "you are not signed in (or your session ended): "
                 "enter your access code at /join"),
            code="unauthorized",
        )  # fmt: skip
    if s.role not in roles:
        raise AccessError(
            f"{ROLE_WORDS.get(s.role, s.role)} may not {_what(name)}; only {_who(roles)} may"
        )


def check_role(name: str, s: Session | None) -> None:
    """Raise ``AccessError`` unless the session ``s`` may send the event ``name`` at all.

    This reads nothing of the payload: it runs before parsing (docs/access.md).
    """
    if name not in EVENTS:
        raise AccessError(f"{name[:40]!r} is not an event anybody may send")
    roles = EVENTS[name]
    if roles is not PUBLIC:
        _refuse_role(name, roles, s)


def check_round(s: Session, round: str, store: Any) -> None:
    """Refuse a round that is not stored (``unknown_round``) or not the session's.

    ``round`` is already canonical (parsed); an unknown round is refused, never waved on. A
    round of another club than the session's is refused as though it were not stored: its
    name tells nothing of it (issue 50; an administrator's session has no club).
    """
    if store.round_club(round) != s.club or s.club is None:
        raise _no_round(round)
    if not s.covers(round):
        raise AccessError(
            said("refusal.access.other_round", "your access code is for round {round}, not "
                 "{other}", round=repr(s.round), other=repr(round[:40])),
            field="round",
        )  # fmt: skip


def check_exists(round: str, store: Any, field: str | None = "round") -> None:
    """Refuse a round that is not stored (``unknown_round``)."""
    if not store.has_round(round):
        raise _no_round(round, field)


def _no_round(round: str, field: str | None = "round") -> UnknownRoundError:
    return UnknownRoundError(
        said("refusal.round.none", "no round {round}; rounds are created with pace import "
             "draw", round=repr(round[:40])),
        field=field,
    )  # fmt: skip


def session_club() -> str | None:
    """Return the club this request's session acts in (``None``: none, an administrator's)."""
    s = current_session()
    return s.club if s is not None else None


def check_scope(name: str, s: Session | None, command: object, store: Any) -> None:
    """Check a parsed command against the session: its round, then the command's own rule.

    Runs after the payload is parsed (pace/web/edge.py), so it compares canonical names and
    ids only: a round padded with spaces or an id in capitals is the same round, the same id.
    """
    round = getattr(command, "round", None)
    if EVENTS.get(name, frozenset()) is PUBLIC:  # anybody's, whatever round: it must exist
        if isinstance(round, str):
            check_exists(round, store)
        return
    if s is None:  # check_role refused it already; kept for callers that skip it
        raise AccessError("you are not signed in", code="unauthorized")
    if isinstance(round, str):
        check_round(s, round, store)
    if name == "join_round" and getattr(command, "facts", False) and s.role == "marshal":
        # the stored facts are the referees' room's (strokes timed, credits): a marshal's
        # phone hears only what its page uses (docs/protocol.md, ``join_round``)
        raise AccessError("a marshal's session does not follow the stored facts", field="facts")
    if name == "void_event" and s.role in OWN_KIND:
        kinds, words, instead = OWN_KIND[s.role]
        event = store.event(getattr(command, "target", ""))
        # a scorer takes back a report of its group's (issue 39) as a score: "We've finished
        # hole 5" pressed by mistake
        own_report = (
            s.role == "scorer"
            and event is not None
            and event.type == "hole_completed"
            and event.payload.get("source") == "group"
        )
        if event is not None and event.type not in kinds and not own_report:
            raise AccessError(
                f"{ROLE_WORDS[s.role]} may void only {words}, not a"
                f" {event.type.replace('_', ' ')}; {instead}",
                field="target",
            )


# -- the session of a request ---------------------------------------------------------------


def request_token() -> str | None:
    """Return the session token of this request: a Bearer header, else the session cookie."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[len("Bearer ") :].strip() or None
    token = session.get("token")
    return token if isinstance(token, str) else None


def current_session() -> Session | None:
    """Return this request's live session, or ``None``."""
    if "pace_session" not in g:
        g.pace_session = parts().access.resolve(request_token())
    return g.pace_session


def csrf_token() -> str:
    """Return this browser's form token (made once per Flask session)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def check_csrf() -> None:
    """Refuse a form POST whose ``csrf`` field is not this browser's token."""
    sent = request.form.get("csrf", "")
    expected = session.get("csrf")
    if not isinstance(expected, str) or not hmac.compare_digest(str(sent), expected):
        raise AccessError(
            said("refusal.access.csrf", "this form has expired or did not come from this site; "
                 "reload the page and send it again"),
            field="csrf",
            code="csrf_failed",
        )  # fmt: skip


def _check_json_origin() -> None:
    """A JSON command carried by the session cookie must be JSON and come from this site."""
    if request.headers.get("Authorization", "").startswith("Bearer "):
        return  # a token is never sent by a browser on its own: no forgery possible
    if not request.is_json:
        raise AccessError(
            "commands must be sent as application/json", field=None, code="csrf_failed"
        )
    origin = request.headers.get("Origin") or request.headers.get("Referer")
    if origin:
        here = urlsplit(request.host_url)
        there = urlsplit(origin)
        if (there.scheme, there.netloc) != (here.scheme, here.netloc):
            raise AccessError(
                "commands are accepted only from pages of this site", code="csrf_failed"
            )


def _wants_json() -> bool:
    path = request.path
    return path.startswith("/api/") or path.endswith(".csv") or request.method != "GET"


def guard_request() -> Any:
    """Check every HTTP request against ``ENDPOINTS`` (``before_request``).

    A ``<round>`` in the path is parsed first: its canonical spelling replaces it for the
    view, and a round that is not stored, or not the session's, is refused here. A command
    of the mirror is checked for its role here; its payload goes through the edge pipeline.
    """
    endpoint = request.endpoint
    if endpoint is None:
        return None  # no such page: the 404 handler answers
    if endpoint not in ENDPOINTS:
        return _refuse(AccessError(f"{request.path} is not open to anybody"))
    roles = ENDPOINTS[endpoint]
    view_args = request.view_args if request.view_args is not None else {}
    if endpoint in OPEN_WHEN_FINAL and _final(view_args):
        return None
    if roles is PUBLIC:
        if "round" not in view_args:
            return None
        try:  # anybody may open it, for a round that exists
            view_args["round"] = payloads.text(view_args, "round")
            check_exists(view_args["round"], parts().store, field=None)
        except PaceError as e:
            return _refuse(e)
        return None
    s = current_session()
    try:
        if endpoint == "pace.api_command" and s is not None and view_args.get("name") in EVENTS:
            _check_json_origin()
            check_role(str(view_args["name"]), s)
            return None
        _refuse_role(endpoint, roles, s)
        if s is not None:
            check_all_rounds(endpoint, s)
        if "round" in view_args and s is not None:
            view_args["round"] = payloads.text(view_args, "round")
            check_round(s, view_args["round"], parts().store)
    except PaceError as e:
        return _refuse(e)
    return None


def _final(view_args: dict[str, Any]) -> bool:
    """Return whether the round of the path exists and its results are final (its canonical
    name then replaces it for the view); any doubt is not final, and the table decides."""
    try:
        round = payloads.text(view_args, "round")
        if not parts().store.has_round(round):
            return False
        live = parts().live
        with live.lock:
            final = live.life(round).is_final
    except PaceError:
        return False
    if final:
        view_args["round"] = round
    return final


def wants_page() -> bool:
    """Return whether the request is a browser's, which reads a refusal as a page in its
    language (issue 47), not a client's, which gets the shared JSON shape: a page's address
    (not ``/api/``, not a download) asked for as HTML, or a form a page posted."""
    path = request.path
    if path.startswith("/api/") or path.endswith((".csv", ".json", ".toml", ".xlsx")):
        return False
    html = request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"
    if request.method in ("GET", "HEAD"):
        return html
    return html and request.mimetype in ("application/x-www-form-urlencoded",
                                         "multipart/form-data")  # fmt: skip


def refusal(body: dict[str, Any], status: int) -> Any:
    """Return a refusal (the shared error shape) as its asker reads it: a page in the page's
    language for a browser (:func:`wants_page`), else the JSON."""
    if not wants_page():
        return jsonify(body), status
    error = body["error"]
    return (
        render_template(
            "message.html",
            title=translate("message.title.refused", current_language()),
            message=error["message"],
            # the precise reason in the page's language, when the catalogue has its sentence
            translation=error.get("translation"),
            error_code=error["code"],
            **page_context(),
        ),
        status,
    )


def _refuse(e: PaceError) -> Any:
    body = errors.error_body(e.code, e.message, e.field)
    status = errors.http_status(body)
    if _wants_json() or e.code not in ("unauthorized", "forbidden"):
        return refusal(body, status)
    if e.code == "unauthorized":
        return redirect(url_for("access.join", next=_safe_next(request.full_path.rstrip("?"))))
    s = current_session()
    allowed_roles = ENDPOINTS.get(request.endpoint or "") or frozenset()
    lang = current_language()
    # the precise reason in the page's language (message.html shows it under the title)
    translation = say(e.sentence, lang) if lang != "en" and e.sentence is not None else None
    return (
        render_template(
            "message.html",
            title="forbidden",
            message=e.message,
            translation=translation,
            error_code=e.code,
            refused_role=s.role if s is not None and e.field != "round" else None,
            refused_page=PAGES.get(request.endpoint or "", (None, None))[1],
            allowed_roles=[r for r in ROLES if r in allowed_roles],
            **page_context(),
        ),
        status,
    )


# -- signing in -------------------------------------------------------------------------------

bp = Blueprint("access", __name__)


def _remote() -> str:
    return request.remote_addr or "?"


#: a local path: one "/" then printable ASCII, no second "/" or "\\" after it, no "\\"
_LOCAL_PATH = re.compile(r"/(?![/\\])[\x21-\x5b\x5d-\x7e]*")


def _safe_next(target: str | None) -> str:
    """Return a local path to go to after signing in (never another site).

    Only a path of this site is kept: it starts with one ``/`` and holds printable ASCII
    without white space or backslashes (a browser drops tabs and newlines and reads ``\\``
    as ``/``, so ``/\t/evil.example`` would lead elsewhere). Anything else goes home.
    """
    if isinstance(target, str) and _LOCAL_PATH.fullmatch(target):
        return target
    return url_for("pace.home")


def _sign_in(code: str) -> Any:
    opened = parts().access.open_with_code(code, remote=_remote())
    session.clear()
    session["token"] = opened.token
    csrf_token()
    return redirect(_safe_next(request.values.get("next")))


def _form(template: str, error: AccessError | None = None, status: int = 200) -> Any:
    return (
        render_template(
            template,
            error=error.message if error else None,
            error_code=error.code if error else None,
            next=_safe_next(request.values.get("next")),
            code=request.values.get("code", ""),
            **page_context(),
        ),
        status,
    )


def _code_form(template: str) -> Any:
    if request.method == "GET" and not request.args.get("code"):
        return _form(template)
    if request.method == "POST":
        try:
            check_csrf()
        except AccessError as e:
            return _form(template, e, 403)
    # a link /join?code=... signs in at once: the code itself is the secret
    try:
        return _sign_in(request.values.get("code", ""))
    except AccessError as e:
        return _form(template, e, errors.http_status(errors.error_body(e.code, "")))


@bp.route("/join", methods=["GET", "POST"])
def join() -> Any:
    """Enter an access code (form, or a ``?code=`` link): opens a session for its role."""
    return _code_form("join.html")


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    """The committee signs in with its secret (the same form as /join)."""
    return _code_form("login.html")


@bp.post("/logout")
def logout() -> Any:
    """End this browser's session."""
    try:
        check_csrf()
    except AccessError as e:
        return _refuse(e)
    app_parts = parts()
    ended = app_parts.access.end(session.get("token"))
    session.clear()
    if ended is not None:
        app_parts.namespace.close_sessions({ended})  # its open sockets stop hearing the round
    return redirect(url_for("pace.home"))


@bp.post("/api/session")
def api_session() -> Any:
    """Exchange a code for a session token (python clients): ``{"code": "ABCD-EFGH"}``; or a
    person's e-mail and password, ``{"email", "password", "club"?}`` (issue 50): a session of
    their role in that club (default: their only one, else the first by id)."""
    body = payloads.json_body()
    if isinstance(body, Mapping) and "email" in body:
        club = body.get("club")
        opened = parts().accounts.sign_in(
            body.get("email"), body.get("password"), remote=_remote(),
            club=club if isinstance(club, str) and club else None,
        )  # fmt: skip
    else:
        code = body.get("code") if isinstance(body, Mapping) else None
        name = payloads.text(body, "name", required=False) if isinstance(body, Mapping) else ""
        opened = parts().access.open_with_code(
            code if isinstance(code, str) else "", remote=_remote(), name=name or None
        )
    s = opened.session
    return jsonify(
        {
            "ok": True,
            "token": opened.token,
            "role": s.role,
            "round": s.round,
            "club": s.club,
            "expires_at": s.expires_at.isoformat(),
        }
    )


@bp.route("/rounds/<round>/access", methods=["GET", "POST"])
def access_page(round: str) -> Any:
    """The committee makes access codes for a round (each shown once, with its link) and
    revokes them: a revoked code opens nothing, and its sessions end at once, sockets too."""
    app_parts = parts()
    view = app_parts.live.service.round_view(round)
    made: list[dict[str, str | None]] = []
    error: PaceError | None = None
    if request.method == "POST":
        try:
            check_csrf()
            if request.form.get("revoke"):
                revoked = payloads.integer(request.form, "revoke", 1, 2**62)
                app_parts.namespace.close_sessions(
                    app_parts.access.revoke_code(revoked, round=round)
                )
            else:
                roles = [r for r in request.form.getlist("role") if r in ROLES] or ["marshal"]
                label = payloads.text(request.form, "label", limit=100, required=False) or None
                for role in roles:
                    code = app_parts.access.create_code(round, role, label)
                    link = join_link(request.host_url, code, role, round)
                    made.append({"role": role, "code": code, "link": link, "qr": qr_svg(link)})
        except PaceError as e:
            error = e
    codes = app_parts.store.access_codes(round=round)
    return render_template(
        "access.html",
        round=round,
        roles=ROLES,
        made=made,
        codes=codes,
        tz=view.tz,
        error=error.message if error else None,
        error_code=error.code if error else None,
        **page_context(),
    )


def qr_svg(link: str) -> str | None:
    """Return a QR code of ``link`` as an SVG ``data:`` URI for an ``<img>`` (``segno``).

    ``None`` if segno is missing: the page still shows the code and the link.
    """
    try:
        import segno  # type: ignore[import-not-found]
    except ImportError:
        return None
    uri: str = segno.make(link, error="m").svg_data_uri(scale=4)
    return uri


def _club_name(s: Session | None) -> str | None:
    """The name of the session's club, on an instance of several clubs (a single club's
    pages stay as they were: its club is implicit)."""
    if s is None or s.club is None:
        return None
    store = parts().store
    clubs = store.clubs()
    if len(clubs) < 2:
        return None
    return next((c.name for c in clubs if c.id == s.club), None)


def template_globals() -> dict[str, Any]:
    """What every page may use: the session's role and the form token."""
    s = current_session() if request else None
    return {
        "session_role": s.role if s else None,
        "session_round": s.round if s else None,
        "session_club": s.club if s else None,
        "session_club_name": _club_name(s),
        "session_account": s.account if s else None,
        "csrf_token": csrf_token,
        "can": lambda endpoint: may_open(endpoint, s),
    }

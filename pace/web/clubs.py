"""People's own accounts and the clubs of an instance (issue 50; docs/federation.md).

- ``/signin``: a committee member or referee signs in with e-mail and password (wrong ones
  limited as wrong codes are, each one in the access log).
- ``/account/setup?token=``: a new account chooses its password with its one-time link.
- ``/clubs``: a person's clubs; a member of several works in one at a time and switches here.
- ``/club/members``: the club's committee adds people, changes their role or removes them, and
  reads the club's access log.
- ``/admin``: an administrator of the instance makes clubs and their first committee member,
  renames them, and reads the instance's own log; nothing of a club's data.

Every form carries the browser's form token; the table of ``pace.web.access`` says who opens
each page; the club is always the session's, never one a form names, except where a person
chooses among their own clubs.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC
from typing import Any

from flask import Blueprint, redirect, render_template, request, session

from pace.rules.errors import PaceError
from pace.services.access import AccessError, Opened
from pace.services.accounts import email, person_name, setup_link
from pace.store.records import CLUB_ROLES, AccessLogEntry
from pace.web import errors
from pace.web.access import _safe_next, check_csrf, csrf_token, current_session
from pace.web.i18n import current_language, local_date, local_time, page_context, translate
from pace.web.parts import parts

bp = Blueprint("clubs", __name__)


def _remote() -> str:
    return request.remote_addr or "?"


def _start(opened: Opened, target: str | None = None) -> Any:
    """Give this browser the session just opened (the old one's cookie is dropped)."""
    session.clear()
    session["token"] = opened.token
    csrf_token()
    return redirect(_safe_next(target))


def _status(e: PaceError) -> int:
    return errors.http_status(errors.error_body(e.code, e.message, e.field))


def _page(template: str, error: PaceError | None, status: int = 200, **values: Any) -> Any:
    """Render one of these pages with its refusal (if any) and the refusal's status."""
    return (
        render_template(
            template,
            error=error.message if error else None,
            error_code=error.code if error else None,
            **values,
            **page_context(),
        ),
        _status(error) if error else status,
    )


def _log_lines(entries: Sequence[AccessLogEntry]) -> list[tuple[AccessLogEntry, str, str]]:
    """The access log's lines as a page shows them, in its language: each line, its instant
    (UTC, to the second) and its detail, whose roles are stored as codes (a sign-in's role, a
    change of role's ``anna@club.be: referee → committee``) and shown as words."""
    lang = current_language()

    def role(code: str) -> str:
        if code in (*CLUB_ROLES, "admin"):
            return translate(f"role.{code}", lang)
        return translate("log.role.none", lang) if code == "none" else code

    lines = []
    for e in entries:
        at = e.at.astimezone(UTC)
        when = f"{local_date(at.date(), lang, 'short')} {local_time(at, UTC, lang, seconds=True)}"
        detail = e.detail
        if e.kind == "sign_in":
            detail = role(detail)
        elif e.kind == "role_changed" and ": " in detail and " → " in detail:
            person, change = detail.rsplit(": ", 1)
            before, _, after = change.partition(" → ")
            detail = f"{person}: {role(before)} → {role(after)}"
        lines.append((e, when, detail))
    return lines


@bp.route("/signin", methods=["GET", "POST"])
def signin() -> Any:
    """Sign in with e-mail and password (a form); ``next``: where to go then."""
    error: PaceError | None = None
    if request.method == "POST":
        try:
            check_csrf()
            opened = parts().accounts.sign_in(
                request.form.get("email", ""), request.form.get("password", ""),
                remote=_remote(),
            )  # fmt: skip
            return _start(opened, request.values.get("next"))
        except PaceError as e:
            error = e
    return _page(
        "signin.html",
        error,
        email=request.form.get("email", "")[:200],
        next=_safe_next(request.values.get("next")),
    )


@bp.route("/account/setup", methods=["GET", "POST"])
def setup() -> Any:
    """A new account chooses its password with its one-time link, then is signed in."""
    accounts = parts().accounts
    token = request.values.get("token", "")
    error: PaceError | None = None
    if request.method == "POST":
        try:
            check_csrf()
            opened = accounts.finish_setup(token, request.form.get("password"),
                                           request.form.get("again"), remote=_remote())  # fmt: skip
            return _start(opened)
        except PaceError as e:
            error = e
    account = accounts.pending(token)
    return _page(
        "account_setup.html",
        error,
        200 if account is not None else 404,
        account=account,
        token=token if account is not None else "",
    )


@bp.route("/clubs", methods=["GET", "POST"])
def clubs_page() -> Any:
    """A person's clubs, and the button to work in another (a new session in that club)."""
    s = current_session()
    assert s is not None  # the table lets only a session here
    app_parts = parts()
    error: PaceError | None = None
    if request.method == "POST":
        try:
            check_csrf()
            opened = app_parts.accounts.switch(s, request.form.get("club", ""), remote=_remote())
            ended = app_parts.access.end(session.get("token"))
            if ended is not None:
                app_parts.namespace.close_sessions({ended})
            return _start(opened)
        except PaceError as e:
            error = e
    clubs: list[tuple[Any, str]] = []
    admin = False
    if s.account is not None:
        held = app_parts.store.memberships(s.account)
        clubs = [(app_parts.store.club(c), r) for c, r in sorted(held.items())]
        person = app_parts.store.account(s.account)
        admin = person is not None and person.admin
    return _page("clubs.html", error, clubs=[(c, r) for c, r in clubs if c is not None],
                 admin=admin)  # fmt: skip


@bp.route("/club/members", methods=["GET", "POST"])
def members_page() -> Any:
    """The club's people and roles (add, change, remove) and the club's access log."""
    s = current_session()
    assert s is not None and s.club is not None  # a committee's session has a club
    app_parts = parts()
    accounts = app_parts.accounts
    made: dict[str, str] | None = None
    error: PaceError | None = None
    if request.method == "POST":
        try:
            check_csrf()
            by = s.name or "committee"
            action = request.form.get("action", "")
            if action == "add":
                typed = person_name(request.form.get("name"))
                found = app_parts.store.account_by_email(email(request.form.get("email")))
                if found is not None and found.id == s.account:
                    raise AccessError("you may not change your own role; ask another member "
                                      "of the committee", field="email")  # fmt: skip
                person = accounts.add_member(
                    s.club, request.form.get("email"), typed,
                    request.form.get("role"), by=by, remote=_remote(),
                )  # fmt: skip
                # the name typed, not an existing account's as another club knows it
                made = {"name": typed,
                        "link": setup_link(request.host_url, person.token) if person.token
                        else ""}  # fmt: skip
            elif action in ("role", "remove"):
                person = accounts.member(s.club, request.form.get("account", ""))
                if person.id == s.account:
                    raise AccessError("you may not change your own role; ask another member "
                                      "of the committee", field="account")  # fmt: skip
                role = request.form.get("role") if action == "role" else None
                ended = accounts.set_role(s.club, person.id, role, by=by, remote=_remote())
                app_parts.namespace.close_sessions(ended)
            else:
                raise PaceError("action must be add, role or remove", field="action",
                                code="invalid_payload")  # fmt: skip
        except PaceError as e:
            error = e
    return _page(
        "club_members.html",
        error,
        club=app_parts.store.club(s.club),
        members=app_parts.store.members(s.club),
        roles=CLUB_ROLES,
        log=_log_lines(app_parts.store.access_log(club=s.club, limit=200)),
        made=made,
        me=s.account,
    )


@bp.route("/admin", methods=["GET", "POST"])
def admin_page() -> Any:
    """An administrator's page: the instance's clubs, a new club with its first committee
    member (their link shown once), renaming, and the instance's own log."""
    s = current_session()
    assert s is not None
    app_parts = parts()
    accounts = app_parts.accounts
    made: dict[str, str] | None = None
    error: PaceError | None = None
    if request.method == "POST":
        try:
            check_csrf()
            by = s.name or "administrator"
            action = request.form.get("action", "")
            if action == "add":
                # the first member's fields are checked before the club is made
                email(request.form.get("email"))
                person_name(request.form.get("person"))
                club = accounts.add_club(request.form.get("club"), request.form.get("name"),
                                         by=by, remote=_remote())  # fmt: skip
                person = accounts.add_member(
                    club.id, request.form.get("email"), request.form.get("person"),
                    "committee", by=by, remote=_remote(),
                )  # fmt: skip
                made = {"club": club.name, "name": person.account.name,
                        "link": setup_link(request.host_url, person.token) if person.token
                        else ""}  # fmt: skip
            elif action == "rename":
                accounts.rename_club(request.form.get("club"), request.form.get("name"),
                                     by=by, remote=_remote())  # fmt: skip
            else:
                raise PaceError("action must be add or rename", field="action",
                                code="invalid_payload")  # fmt: skip
        except PaceError as e:
            error = e
    return _page(
        "admin.html",
        error,
        clubs=app_parts.store.clubs(),
        log=_log_lines(app_parts.store.access_log(club=None, limit=200)),
        made=made,
    )

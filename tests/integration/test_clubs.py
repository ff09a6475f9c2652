"""Clubs as tenants and people's own accounts (issue 50; docs/federation.md), in process: the
store's clubs, accounts, roles and access log on both engines; the accounts service's
canonical forms, one-time links, sign-in limit and log; a club's session against another
club's rounds, courses, competitions and console. The same boundary over the wire, every event
and endpoint × every role: tests/security/test_club_matrix.py.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from drivers import COURSE, DAY, DRAW, ROUND, TIMEZONE, assert_error, new_id

from pace import formats
from pace.rules.errors import PaceError
from pace.services.access import AccessError
from pace.services.accounts import SETUP_DAYS, Accounts, club_id, email
from pace.store import open_store
from pace.store.errors import (
    AccountExistsError,
    ClubExistsError,
    UnknownAccountError,
    UnknownClubError,
)

T0 = datetime(2026, 6, 1, 8, tzinfo=UTC)
OTHER = "Autre R1"
OTHER_COURSE = "Louiseville B"
PASSWORD = "correct horse battery"
COURSE_OBJ = formats.parse_course(COURSE.read_text(encoding="utf-8"), COURSE.name)


# -- the store, on both engines ------------------------------------------------------------------


def test_clubs_accounts_roles_and_the_log_are_stored_on_both_engines(target):
    with open_store(target) as store:
        assert [c.id for c in store.clubs()] == ["default"]
        store.add_club("rgc", "Royal", created_at=T0)
        with pytest.raises(ClubExistsError):
            store.add_club("rgc", "Again", created_at=T0)
        assert store.rename_club("rgc", "Royal GC").name == "Royal GC"
        with pytest.raises(UnknownClubError):
            store.rename_club("nope", "x")
        anna = store.add_account(email="anna@x.be", name="Anna", password=None, admin=False,
                                 created_at=T0)  # fmt: skip
        with pytest.raises(AccountExistsError):
            store.add_account(email="anna@x.be", name="A", password=None, admin=False,
                              created_at=T0)  # fmt: skip
        assert store.set_membership(anna.id, "rgc", "committee") is None
        assert store.set_membership(anna.id, "rgc", "referee") == "committee"
        assert store.memberships(anna.id) == {"rgc": "referee"}
        assert [(a.email, r) for a, r in store.members("rgc")] == [("anna@x.be", "referee")]
        with pytest.raises(UnknownAccountError):
            store.set_membership(999, "rgc", "referee")
        with pytest.raises(UnknownClubError):
            store.set_membership(anna.id, "nope", "referee")
        store.set_setup(anna.id, "d" * 64, T0 + timedelta(days=1))
        assert store.setup_account("d" * 64, now=T0).id == anna.id
        assert store.take_setup("d" * 64, "hash", now=T0 + timedelta(days=2)) is None  # expired
        assert store.take_setup("d" * 64, "hash", now=T0).password == "hash"
        assert store.take_setup("d" * 64, "hash2", now=T0) is None  # used once
        store.log_access(at=T0, kind="sign_in", club="rgc", account=anna.id, who="anna")
        store.log_access(at=T0, kind="club_made", club=None, who="root")
        assert [e.kind for e in store.access_log(club="rgc")] == ["sign_in"]
        assert [e.kind for e in store.access_log(club=None)] == ["club_made"]
        # courses and rounds of a club
        store.save_course(COURSE_OBJ, imported_at=T0, club="rgc")
        assert store.course_club(COURSE_OBJ.name) == "rgc"
        assert store.list_courses(club="default") == []
        with pytest.raises(PaceError) as taken:
            store.save_course(COURSE_OBJ, imported_at=T0)  # the default club: taken
        assert taken.value.code == "course_exists" and "rgc" not in taken.value.message
        with pytest.raises(PaceError) as unknown:  # another club's course: not there
            store.create_round("R9", course=COURSE_OBJ.name, day=date(2026, 6, 1),
                               timezone="Europe/Paris")  # fmt: skip
        assert unknown.value.code == "unknown_course"
        store.create_round("R9", course=COURSE_OBJ.name, day=date(2026, 6, 1),
                           timezone="Europe/Paris", club="rgc")  # fmt: skip
        assert store.round_club("R9") == "rgc" and store.get_round("R9").club == "rgc"
        assert [r.name for r in store.list_rounds(club="rgc")] == ["R9"]
        assert store.list_rounds(club="default") == []


# -- the accounts service --------------------------------------------------------------------------


@pytest.fixture
def accounts(app) -> Accounts:
    return app.extensions["pace"].accounts


def test_club_ids_and_emails_are_read_as_typed_and_look_alikes_refused():
    assert club_id(" RGC-Antwerp ") == "rgc-antwerp"
    assert club_id("ｒｇｃ") == "rgc"  # full-width letters are the same letters (NFKC)
    for bad in ("rgс", "-rgc", "rgc-", "r g c", "", "a" * 41, "rgc_x", None, 7):
        with pytest.raises(PaceError):
            club_id(bad)  # "rgс": a Cyrillic "с"
    assert email(" Anna@RGCA.be ") == "anna@rgca.be"
    for bad in ("anna", "anna@", "аnna@x.be", "a b@x.be", None):
        with pytest.raises(PaceError):
            email(bad)


def test_a_new_persons_link_sets_the_password_once_and_expires(app, accounts, clock):
    made = accounts.add_member("default", "Anna@Club.be", "Anna", "committee")
    assert made.token and made.account.password is None
    with pytest.raises(PaceError) as short:
        accounts.finish_setup(made.token, "short", "short")
    assert short.value.field == "password"
    with pytest.raises(PaceError) as differ:
        accounts.finish_setup(made.token, PASSWORD, PASSWORD + "!")
    assert differ.value.field == "again"
    opened = accounts.finish_setup(made.token, PASSWORD, PASSWORD)
    assert (opened.session.role, opened.session.club) == ("committee", "default")
    stored = app.extensions["pace"].store.account(made.account.id)
    assert stored.password.startswith("$argon2id$") and PASSWORD not in stored.password
    with pytest.raises(AccessError):  # used once
        accounts.finish_setup(made.token, PASSWORD, PASSWORD)
    late = accounts.add_member("default", "bert@club.be", "Bert", "referee")
    clock.advance(timedelta(days=SETUP_DAYS, seconds=1))
    assert accounts.pending(late.token) is None
    with pytest.raises(AccessError):
        accounts.finish_setup(late.token, PASSWORD, PASSWORD)


def _person(accounts: Accounts, address: str, roles: dict[str, str], admin: bool = False) -> int:
    made = accounts.add_account(address, address.split("@")[0].title(), admin=admin)
    for club, role in roles.items():
        accounts.set_role(club, made.account.id, role)
    accounts.finish_setup(made.token, PASSWORD, PASSWORD)
    return made.account.id


def test_wrong_passwords_are_limited_logged_and_answered_as_an_unknown_email(app, accounts, clock):
    accounts.add_club("rgc", "Royal")
    _person(accounts, "anna@rgc.be", {"rgc": "committee"})
    refusals = []
    for _ in range(5):
        with pytest.raises(AccessError) as e:
            accounts.sign_in("anna@rgc.be", "not the password", remote="10.0.0.9")
        refusals.append((e.value.code, e.value.message))
    with pytest.raises(AccessError) as nobody:
        accounts.sign_in("nobody@rgc.be", "not the password", remote="10.0.0.8")
    assert (nobody.value.code, nobody.value.message) == refusals[0]  # nothing told apart
    with pytest.raises(AccessError) as held:  # the right one, but the address is held up
        accounts.sign_in("anna@rgc.be", PASSWORD, remote="10.0.0.9")
    assert held.value.code == "rate_limited"
    store = app.extensions["pace"].store
    assert [e.kind for e in store.access_log(club="rgc")].count("sign_in_failed") == 5
    assert [e.who for e in store.access_log(club=None) if e.kind == "sign_in_failed"] == [
        "nobody@rgc.be"
    ]
    clock.advance(timedelta(minutes=1))
    assert accounts.sign_in("anna@rgc.be", PASSWORD, remote="10.0.0.9").session.club == "rgc"
    assert store.access_log(club="rgc")[0].kind == "sign_in"


def test_a_change_of_role_ends_the_persons_sessions_and_is_logged(app, accounts):
    access = app.extensions["pace"].access
    anna = _person(accounts, "anna@club.be", {"default": "referee"})
    token = accounts.sign_in("anna@club.be", PASSWORD).token
    assert access.resolve(token).role == "referee"
    ended = accounts.set_role("default", anna, "committee", by="Claire")
    assert access.resolve(token) is None and len(ended) == 2  # the setup's and this one
    assert accounts.sign_in("anna@club.be", PASSWORD).session.role == "committee"
    line = app.extensions["pace"].store.access_log(club="default")[1]
    assert (line.kind, line.who, line.detail) == (
        "role_changed",
        "Claire",
        "anna@club.be: referee → committee",
    )
    accounts.set_role("default", anna, None)
    with pytest.raises(AccessError) as none:
        accounts.sign_in("anna@club.be", PASSWORD)
    assert "no role in any club" in none.value.message


def test_a_member_of_two_clubs_works_in_one_and_switches(app, accounts):
    accounts.add_club("rgc", "Royal")
    _person(accounts, "rene@fed.be", {"default": "referee", "rgc": "committee"})
    first = accounts.sign_in("rene@fed.be", PASSWORD)
    assert (first.session.club, first.session.role) == ("default", "referee")
    other = accounts.switch(first.session, " RGC ")
    assert (other.session.club, other.session.role) == ("rgc", "committee")
    with pytest.raises(AccessError):
        accounts.switch(other.session, "")  # not an administrator
    with pytest.raises(AccessError):
        accounts.switch(other.session, "nope")
    code_session = app.extensions["pace"].access.grant("marshal", ROUND)
    with pytest.raises(AccessError):
        accounts.switch(code_session.session, "rgc")


# -- a club's session against another club's data, over Flask's test clients ----------------------


@pytest.fixture
def two_clubs(app, accounts):
    """The own round R1 is the default club's; ``Autre R1`` is club ``rgc``'s, on its course."""
    service = app.extensions["pace"].live.service
    accounts.add_club("rgc", "Royal")
    text = re.sub(r'(?m)^name = ".*"$', f'name = "{OTHER_COURSE}"',
                  COURSE.read_text(encoding="utf-8"), count=1)  # fmt: skip
    service.import_course(text, "b.toml", club="rgc")
    service.import_draw(DRAW.read_text(encoding="utf-8"), str(DRAW), round=OTHER, day=DAY,
                        timezone=TIMEZONE, course=OTHER_COURSE, club="rgc")  # fmt: skip
    return app


def person_client(app, accounts, address: str, roles: dict[str, str], admin: bool = False):
    _person(accounts, address, roles, admin)
    token = accounts.sign_in(address, PASSWORD).token
    c = app.test_client()
    with c.session_transaction() as s:
        s["token"] = token
    return c


def test_a_clubs_committee_reads_its_rounds_and_courses_and_nothing_of_anothers(
    two_clubs, accounts
):
    app = two_clubs
    claire = person_client(app, accounts, "claire@own.be", {"default": "committee"})
    assert [r["name"] for r in claire.get("/api/rounds").json["rounds"]] == [ROUND]
    assert claire.get(f"/rounds/{ROUND}/dashboard").status_code == 200
    for path in (f"/rounds/{OTHER}/dashboard", f"/api/rounds/{OTHER}/snapshot",
                 f"/rounds/{OTHER}/report.csv", f"/rounds/{OTHER}/audit",
                 f"/rounds/{OTHER}/access", f"/rounds/{OTHER}/changes"):  # fmt: skip
        r = claire.get(path)
        assert r.status_code == 404, (path, r.status_code)
        assert OTHER_COURSE.encode() not in r.data
    for path in ("/committee", "/courses", "/rounds/new", "/committee/time-pars", "/offenders"):
        r = claire.get(path)
        assert r.status_code == 200 and OTHER.encode() not in r.data, path
        assert OTHER_COURSE.encode() not in r.data, path
    for path in (f"/courses/{OTHER_COURSE}.toml", f"/api/courses/{OTHER_COURSE}/geometry",
                 f"/courses/edit?name={OTHER_COURSE}",
                 f"/committee/time-pars?course={OTHER_COURSE}"):  # fmt: skip
        r = claire.get(path)
        assert r.status_code == 404, (path, r.status_code)
    # the other club's members page and people are not this committee's
    r = claire.post(
        "/club/members",
        data={"action": "role", "account": "1", "role": "referee", "csrf": _csrf(claire)},
    )
    assert b"odile" not in r.data


def _csrf(client) -> str:
    client.get("/")
    with client.session_transaction() as s:
        return s["csrf"]


def test_commands_on_another_clubs_round_are_refused_and_record_nothing(
    two_clubs, accounts, connect
):
    app = two_clubs
    store = app.extensions["pace"].store
    _person(accounts, "rene@fed.be", {"default": "referee", "rgc": "referee"})
    token = accounts.sign_in("rene@fed.be", PASSWORD).token  # in the default club
    sio = connect(None, token=token)
    before = store.count_events(OTHER)
    now = app.extensions["pace"].live.clock.now().isoformat()
    for name, body in (
        ("join_round", {"round": OTHER}),
        ("hole_completed", {"id": new_id(), "round": OTHER, "group": "1", "hole": 1,
                            "at": now, "device_time": now}),
        ("decide_timing", {"id": new_id(), "round": OTHER, "group": "1", "decision": "time",
                           "device_time": now}),
    ):  # fmt: skip
        answer = sio.emit(name, body, callback=True)
        assert_error(answer, "unknown_round")
    assert store.count_events(OTHER) == before
    joined = sio.emit("join_round", {"round": ROUND}, callback=True)
    assert joined["ok"] is True


def test_an_administrator_makes_clubs_and_reads_none_of_their_data(two_clubs, accounts):
    app = two_clubs
    root = person_client(app, accounts, "root@fed.be", {}, admin=True)
    paths = ("/api/rounds", "/committee", f"/rounds/{ROUND}/dashboard",
             f"/api/rounds/{OTHER}/snapshot", "/club/members", "/offenders")  # fmt: skip
    for path in paths:
        assert root.get(path).status_code in (403, 404), path
    page = root.get("/admin")
    assert page.status_code == 200 and b"rgc" in page.data
    r = root.post("/admin", data={"action": "add", "club": " New-Club ", "name": "New club",
                                  "person": "Nora", "email": "nora@new.be",
                                  "csrf": _csrf(root)})  # fmt: skip
    assert r.status_code == 200 and b"/account/setup?token=" in r.data
    store = app.extensions["pace"].store
    nora = store.account_by_email("nora@new.be")
    assert store.memberships(nora.id) == {"new-club": "committee"}
    # a bad first member makes no club
    r = root.post("/admin", data={"action": "add", "club": "half", "name": "Half",
                                  "person": "X", "email": "not an e-mail",
                                  "csrf": _csrf(root)})  # fmt: skip
    assert r.status_code == 400 and store.club("half") is None


def test_the_committee_secret_is_the_default_clubs_committee(two_clubs, client):
    """A single club's instance works as before: the secret's session is the default club's."""
    assert [r["name"] for r in client.get("/api/rounds").json["rounds"]] == [ROUND]
    assert client.get(f"/rounds/{OTHER}/dashboard").status_code == 404
    r = client.get("/club/members")
    assert r.status_code == 200


def test_a_round_code_keeps_its_round_and_never_opens_the_clubs_people(two_clubs, login):
    c = login("committee", ROUND)
    assert c.get("/club/members").status_code == 403
    assert c.get(f"/rounds/{OTHER}/dashboard").status_code == 404


def test_session_over_the_json_api_with_email_and_password(two_clubs, accounts):
    app = two_clubs
    _person(accounts, "rene@fed.be", {"default": "referee", "rgc": "committee"})
    c = app.test_client()
    r = c.post("/api/session", json={"email": "RENE@fed.be", "password": PASSWORD, "club": "rgc"})
    assert r.status_code == 200 and (r.json["role"], r.json["club"]) == ("committee", "rgc")
    r = c.post("/api/session", json={"email": "rene@fed.be", "password": "nope nope nope"})
    assert r.status_code == 400
    assert_error(r.json, "invalid_code")
    r = c.post("/api/session", json={"email": "rene@fed.be", "password": PASSWORD,
                                     "club": "nope"})  # fmt: skip
    assert r.status_code == 403


def test_a_committee_cannot_change_its_own_role_nor_another_clubs_person(two_clubs, accounts):
    app = two_clubs
    store = app.extensions["pace"].store
    odile = _person(accounts, "odile@rgc.be", {"rgc": "committee"})
    claire = person_client(app, accounts, "claire@own.be", {"default": "committee"})
    me = store.account_by_email("claire@own.be").id
    for account in (me, odile, 10**9, "x"):
        r = claire.post(
            "/club/members",
            data={
                "action": "role",
                "account": str(account),
                "role": "referee",
                "csrf": _csrf(claire),
            },
        )
        assert r.status_code in (400, 403, 404), (account, r.status_code)
    r = claire.post("/club/members", data={"action": "add", "email": "CLAIRE@own.be",
                                           "name": "Claire", "role": "referee",
                                           "csrf": _csrf(claire)})  # fmt: skip
    assert r.status_code == 403
    assert store.memberships(me) == {"default": "committee"}
    assert store.memberships(odile) == {"rgc": "committee"}

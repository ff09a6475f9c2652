"""Nothing crosses a club (issue 50, item 3), over the wire: the round matrix of
tests/security/test_matrix.py run again where the other round is ANOTHER CLUB's, and the
committee's and the referee's sessions are people's own (``/api/session`` with e-mail and
password) in the own round's club — sessions that open every round of their club, so only the
club boundary stands between them and the other round. The referee is a referee of the other
club too (federation referees work many clubs): his session in the own club still reaches
nothing of the other's. Every event and endpoint × every role × the other club's round spelled
every way: 0 reads or changes.

Beyond the rounds, the club's own pages (the console, courses, maps, time pars, offenders, the
list of rounds, people and the access log) are read as each of those sessions and as an
administrator of the instance: nothing of the other club shows, its course is unknown however
its name is spelled, and switching to a club where one holds no role is refused, however the
club's id is spelled.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import unicodedata
import urllib.error
import urllib.parse
import urllib.request

import pytest
from security.arena import (
    OTHER,
    OTHER_CLUB,
    OTHER_COURSE,
    OWN,
    PASSWORD,
    PEOPLE,
    Arena,
    is_refusal,
)
from security.test_matrix import (  # noqa: F401  (collected here, on the clubs' arena)
    test_http_commands_on_another_round_are_refused_however_it_is_spelt,
    test_http_commands_on_the_own_round_follow_the_permission_table,
    test_ids_of_another_rounds_facts_are_not_reachable_however_spelt,
    test_posting_the_access_page_of_another_round_is_refused,
    test_round_pages_and_reads_follow_the_table_and_never_open_another_round,
    test_socket_events_on_another_round_are_refused_however_it_is_spelt,
    test_socket_events_on_the_own_round_follow_the_permission_table,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def arena(club_arena: Arena) -> Arena:
    """The matrix's server, with its other round in another club."""
    assert club_arena.clubs
    return club_arena


#: the sessions of a person of the own club, and the instance's administrator
PERSONS = ("committee", "referee", "instance-admin")

COURSE_SPELLINGS = {
    "exact": OTHER_COURSE,
    "upper": OTHER_COURSE.upper(),
    "padded": f" {OTHER_COURSE} ",
    "nbsp": "\u00a0" + OTHER_COURSE,
    "nfd": unicodedata.normalize("NFD", OTHER_COURSE),
}

#: the club's own pages and reads: what of the other club could show there
CLUB_PAGES = [
    "/",
    "/api/rounds",
    "/committee",
    "/courses",
    "/rounds/new",
    "/committee/time-pars",
    "/offenders?days=3660",
    "/club/members",
    "/clubs",
    "/admin",
]


#: the other club's NAME where it belongs: among the referee's own clubs (he is a referee
#: there too), and on the administrator's list of clubs; never its rounds, courses or people
SHOWN = {("/clubs", "referee"): ("Other club",), ("/admin", "instance-admin"): ("Other club",)}


def _text(arena: Arena, path: str, role: str) -> tuple[int, str]:
    status, _, body = arena.request("GET", path, role)
    return status, body.decode("utf-8", "replace")


@pytest.mark.parametrize("role", PERSONS)
@pytest.mark.parametrize("path", CLUB_PAGES)
def test_the_clubs_pages_show_nothing_of_another_club(arena, path, role):
    status, text = _text(arena, path, role)
    assert status in (200, 302, 403, 404), (path, role, status)
    for secret in (OTHER, OTHER_COURSE, "Other club", "odile@other.example"):
        if secret in SHOWN.get((path, role), ()):
            continue
        assert secret not in text, (path, role, secret)
    if path == "/api/rounds" and status == 200:
        names = [r["name"] for r in json.loads(text)["rounds"]]
        assert names == ([] if role == "instance-admin" else [OWN]), names
    arena.assert_log_clean()


def test_an_administrator_sees_the_clubs_but_no_round_of_any(arena):
    status, text = _text(arena, "/admin", "instance-admin")
    assert status == 200 and OTHER_CLUB in text
    for path in ("/committee", f"/rounds/{urllib.parse.quote(OWN)}/dashboard",
                 f"/api/rounds/{urllib.parse.quote(OWN)}/snapshot"):  # fmt: skip
        status, _ = _text(arena, path, "instance-admin")
        assert status in (403, 404), (path, status)
    for role in ("committee", "referee"):  # and a club's people do not administer
        assert _text(arena, "/admin", role)[0] == 403


COURSE_PATHS = [
    "/courses/{}.toml",
    "/api/courses/{}/geometry",
    "/courses/edit?name={}",
    "/committee/time-pars?course={}",
    "/committee/time-pars.toml?course={}",
]


@pytest.mark.parametrize("path", COURSE_PATHS)
def test_another_clubs_course_is_unknown_however_spelt(arena, path):
    for how, spelling in COURSE_SPELLINGS.items():
        status, text = _text(arena, path.format(urllib.parse.quote(spelling, safe="")),
                             "committee")  # fmt: skip
        assert status in (400, 404), (path, how, status, text[:300])
        assert "Louiseville B" not in text or "does not exist" in text or how != "exact", text
    # the own club's course opens (the test can fail)
    own = "Golf de Louiseville"
    status, _ = _text(arena, path.format(urllib.parse.quote(own, safe="")), "committee")
    assert status in (200, 400), (path, status)  # 400: time pars with too few rounds


def test_another_clubs_course_name_is_neither_read_nor_overwritten(arena):
    """Importing a course under another club's course name is refused (names are the
    instance's) and the other club's course is unchanged."""
    other = f"/courses/{urllib.parse.quote(OTHER_COURSE)}.toml"
    before = arena.request("GET", other, "admin-other")
    assert before[0] == 200
    course = {"name": OTHER_COURSE, "hole_count": 6, "slope": 113, "rating": 72,
              "holes": [{"par": 3, "stroke_index": i + 1, "length_m": 120, "bogey": None,
                         "walk_min": 1} for i in range(6)]}  # fmt: skip
    data = urllib.parse.urlencode({"course": json.dumps(course)}).encode()
    status, _, body = arena.request(
        "POST",
        "/api/courses",
        "committee",
        data,
        {"Content-Type": "application/x-www-form-urlencoded"},
    )
    answer = json.loads(body)
    assert status == 409 and is_refusal(answer), (status, answer)
    assert answer["error"]["code"] == "course_exists", answer
    assert OTHER_CLUB not in answer["error"]["message"]
    assert arena.request("GET", other, "admin-other")[2] == before[2]


class Browser:
    """A browser's cookies and form tokens over plain HTTP (no redirects followed)."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  _NoRedirect)  # fmt: skip

    def open(self, method: str, path: str, fields: dict[str, str] | None = None
             ) -> tuple[int, str]:  # fmt: skip
        data = None if fields is None else urllib.parse.urlencode(fields).encode()
        req = urllib.request.Request(self.arena.url + path, data=data, method=method,
                                     headers={"Accept": "text/html"})  # fmt: skip
        try:
            with self.opener.open(req, timeout=10) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")

    def form(self, path: str, fields: dict[str, str], page: str | None = None) -> tuple[int, str]:
        """GET ``page`` (default ``path``) for its form token, then POST ``fields`` to ``path``."""
        status, text = self.open("GET", page or path)
        found = re.search(r'name="csrf" value="([^"]+)"', text)
        assert found, (page or path, status, text[:300])
        return self.open("POST", path, {**fields, "csrf": found.group(1)})


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def signed_in(arena: Arena, email: str) -> Browser:
    browser = Browser(arena)
    status, _ = browser.form("/signin", {"email": email, "password": PASSWORD})
    assert status == 302, status
    return browser


@pytest.mark.parametrize("spelling", ["other-club", "OTHER-CLUB", " other-club ",
                                      "ｏｔｈｅｒ-ｃｌｕｂ", "\u043ether-club"])  # fmt: skip
def test_switching_to_a_club_one_holds_no_role_in_is_refused_however_spelt(arena, spelling):
    """Claire is the own club's committee only (the Cyrillic "о" is not the Latin one): each
    refused, and she still works in her own club; René, a referee of both clubs, switches."""
    claire = signed_in(arena, PEOPLE["committee"][0])
    status, text = claire.form("/clubs", {"club": spelling}, page="/")
    assert status in (400, 403), (spelling, status, text[:300])
    assert claire.open("GET", "/api/rounds")[1].count(OWN) == 1
    assert OTHER not in claire.open("GET", "/api/rounds")[1]
    rene = signed_in(arena, PEOPLE["referee"][0])
    status, _ = rene.form("/clubs", {"club": spelling}, page="/")
    if spelling.strip().lower() == OTHER_CLUB or spelling.startswith("ｏ"):
        assert status == 302  # the same club, however typed (NFKC, trimmed, lower case)
        rounds = json.loads(rene.open("GET", "/api/rounds")[1])["rounds"]
        assert [r["name"] for r in rounds] == [OTHER]
    else:
        assert status in (400, 403)


def test_a_wrong_password_is_refused_limited_and_in_the_clubs_log(arena):
    """Wrong passwords are limited as wrong codes are, and each lands in the club's access
    log, which the club's committee reads (and no other club's)."""
    claire = signed_in(arena, PEOPLE["committee"][0])  # before this address is held up
    email = PEOPLE["referee"][0]
    answers = [arena.server.post_json("/api/session", {"email": email, "password": "wrong one!"},
                                      token="") for _ in range(6)]  # fmt: skip
    codes = [a["error"]["code"] for a in answers]
    assert codes[:5] == ["invalid_code"] * 5 and codes[5] == "rate_limited", codes
    status, text = claire.open("GET", "/club/members")
    assert status == 200 and text.count('data-kind="sign_in_failed"') >= 5
    assert "odile@other.example" not in text

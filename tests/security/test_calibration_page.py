"""The console's time-pars page (issue 30 part 2) under attack over the wire: a real ``pace
serve`` (the arena), real HTTP clients. Only the committee opens the page and its download;
every hostile query (unknown course, huge or control-character names, bad days, targets and
sizes, markup) is answered with a clear error in the shared shape or shown escaped, nothing is
stored, the download's file name stays tame, and the server's log stays clean.
"""

from __future__ import annotations

import json
import re
import urllib.parse

import pytest
from security.arena import Arena, is_refusal
from security.test_console import post

pytestmark = pytest.mark.e2e

COURSE = "Golf de Louiseville"
PAGE, FILE = "/committee/time-pars", "/committee/time-pars.toml"
#: the committee here is a code of round R1: the history across rounds is the secret's alone
REFUSED_ROLES = ("committee", "referee", "scorer", "marshal", "viewer", None)


def get(arena: Arena, path: str, role: str | None, **query: str) -> tuple[int, dict, bytes]:
    return arena.request("GET", path + "?" + urllib.parse.urlencode(query), role)


def courses(arena: Arena) -> list[str]:
    return re.findall(
        r'data-course="([^"]*)"', arena.request("GET", "/courses", "admin")[2].decode()
    )


@pytest.mark.parametrize("role", REFUSED_ROLES, ids=lambda r: r or "no-session")
@pytest.mark.parametrize("path", [PAGE, FILE])
def test_only_the_committee_secret_opens_the_page_and_its_download(arena, path, role):
    status, headers, body = get(arena, path, role, course=COURSE)
    assert status in (302, 401, 403), (path, role, status, body[:300])
    if status == 302:
        assert headers["Location"].startswith("/join?next=/"), headers["Location"]
    else:
        assert COURSE.encode() not in body and b"[[holes]]" not in body
    arena.assert_log_clean()


def test_the_committee_secret_opens_the_page_and_its_download(arena):
    status, _, body = get(arena, PAGE, "admin", course=COURSE)
    assert status == 200 and b'id="calibrate"' in body
    status, headers, body = get(arena, FILE, "admin", course=COURSE)
    assert status == 200 and b"[[holes]]" in body
    assert headers["Content-Disposition"] == (
        'attachment; filename="time-pars-Golf_de_Louiseville.toml"'
    )
    arena.assert_log_clean()


HOSTILE = {
    "unknown course": ({"course": "Nowhere"}, 404),
    "huge query": ({"course": "é" * 20_000}, 414),  # the server refuses the line itself
    "huge course": ({"course": "x" * 3_000}, 400),
    "long course": ({"course": "x" * 201}, 400),
    "control course": ({"course": "a\x00b"}, 400),
    "markup course": ({"course": "<script>alert(1)</script>"}, 404),
    "since words": ({"course": COURSE, "since": "yesterday"}, 400),
    "since long": ({"course": COURSE, "since": "2026-01-01" * 50}, 400),
    "since impossible": ({"course": COURSE, "since": "2026-02-30"}, 400),
    "target words": ({"course": COURSE, "target": "soon"}, 400),
    "target zero": ({"course": COURSE, "target": "0:00"}, 400),
    "target huge": ({"course": COURSE, "target": "99:59"}, 400),
    "target minutes 60": ({"course": COURSE, "target": "4:60"}, 400),
    "target long": ({"course": COURSE, "target": "4:10" * 100}, 400),
    "size zero": ({"course": COURSE, "size": "0"}, 400),
    "size huge": ({"course": COURSE, "size": "9" * 40}, 400),
    "size text": ({"course": COURSE, "size": "four"}, 400),
    "size negative": ({"course": COURSE, "size": "-4"}, 400),
}


@pytest.mark.parametrize("path", [PAGE, FILE])
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_query_is_refused_with_a_sentence_and_stores_nothing(arena, case, path):
    query, expected = HOSTILE[case]
    before = courses(arena)
    status, _, body = get(arena, path, "admin", **query)
    assert status == expected, (case, status, body[:300])
    if status != 414:
        answer = json.loads(body)
        assert is_refusal(answer) and answer["error"]["message"], answer
    assert b"<script>" not in body
    assert courses(arena) == before
    arena.assert_log_clean()


def test_a_course_name_with_markup_is_shown_escaped(arena):
    # a stored course whose name is markup: the page shows it as text, never as markup
    name = '<img src=x onerror="alert(1)">'
    toml = f"name = '{name}'\n" + "".join(
        f"[[holes]]\nnumber = {n}\npar = 4\n" for n in range(1, 10)
    )
    status, answer = post(
        arena, "/api/courses/upload", "admin", {}, {"file": ("c.toml", toml.encode())}
    )
    assert status == 200, answer
    status, headers, body = get(arena, PAGE, "admin", course=name)
    assert status == 200
    assert name.encode() not in body
    assert b"&lt;img src=x onerror=" in body
    status, headers, body = get(arena, FILE, "admin", course=name)
    assert status == 200
    disposition = headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="time-pars-') and "<" not in disposition
    arena.assert_log_clean()

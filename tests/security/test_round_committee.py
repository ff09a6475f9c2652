"""A round's committee code stays within its round (issue 37; docs/access.md, "A round's
committee code"): over real HTTP and real Socket.IO against the arena's ``pace serve``.

The arena's ``committee`` session comes from ``pace access code --round R1 --role committee``;
``admin`` from the committee secret. The code of R1 opens R1's pages and commands, and nothing
of the other round (``Été 2``) nor the console's global pages (every round listed, the courses,
new rounds, the courses' history, repeat offenders): each refused ``forbidden`` (403) with a
sentence that says why, and nothing is stored. The secret still opens all of it.
"""

from __future__ import annotations

import json
import re
import urllib.parse
import uuid

import pytest
from security.arena import OTHER, OWN, Arena, is_refusal

COURSE = "Golf de Louiseville"
OTHER_Q = urllib.parse.quote(OTHER, safe="")

#: The console's global pages and reads: (method, path).
GLOBAL_GETS = {
    "committee.console": "/committee",
    "committee.courses_page": "/courses",
    "committee.course_form": "/courses/edit",
    "committee.download_course": "/courses/Golf%20de%20Louiseville.toml",
    "committee.round_new": "/rounds/new",
    "committee.calibration_page": "/committee/time-pars?course=Golf%20de%20Louiseville",
    "committee.calibration_toml": "/committee/time-pars.toml?course=Golf%20de%20Louiseville",
    "reports.offenders_page": "/offenders",
}
#: The console's global writes: a course saved or uploaded, a round previewed or created.
GLOBAL_POSTS = {
    "committee.save_course": "/api/courses",
    "committee.upload_course": "/api/courses/upload",
    "committee.round_preview": "/api/rounds/preview",
    "committee.round_create": "/api/rounds/create",
}
#: A round's own console pages and reads (``{}``: the round).
ROUND_GETS = {
    "committee.changes_page": "/rounds/{}/changes",
    "committee.api_changes": "/api/rounds/{}/changes",
    "access.access_page": "/rounds/{}/access",
    "dashboard.dashboard_page": "/rounds/{}/dashboard",
    "reports.report_page": "/rounds/{}/report",
    "audit.audit_page": "/rounds/{}/audit",
}

BOUNDARY = "pace-round-committee"


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    out = b""
    for name, value in fields.items():
        out += (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n").encode()  # fmt: skip
    for name, (filename, data) in files.items():
        out += (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: text/plain\r\n\r\n'
        ).encode()
        out += data + b"\r\n"  # fmt: skip
    return out + f"--{BOUNDARY}--\r\n".encode(), f"multipart/form-data; boundary={BOUNDARY}"


def post_form(arena: Arena, path: str, role: str) -> tuple[int, bytes]:
    """POST what a console form would (a course, a draw), well formed, as ``role``."""
    toml = f'name = "Links of {uuid.uuid4().hex[:6]}"\n' + "".join(
        f"[[holes]]\nnumber = {n}\npar = 4\nstroke_index = {n}\n" for n in range(1, 10)
    )
    draw = "group,start,tee,player,handicap\n1,13:00,1,Ann Ash,10\n"
    fields = {"course": toml} if path == "/api/courses" else {}
    files = {"file": ("c.toml", toml.encode())} if path.endswith("upload") else {}
    if path.startswith("/api/rounds/"):
        fields = {"round": f"Stolen {uuid.uuid4().hex[:6]}", "course": COURSE,
                  "date": "2026-06-20", "timezone": "Europe/Brussels", "policy": "frbg",
                  "format": "individual", "net": "gross"}  # fmt: skip
        files = {"draw": ("draw.csv", draw.encode())}
    body, kind = multipart(fields, files)
    status, _, answer = arena.request("POST", path, role, body, {"Content-Type": kind})
    return status, answer


def stored(arena: Arena) -> tuple[list[str], list[str]]:
    """The rounds and the courses as the secret sees them."""
    rounds = [r["name"] for r in arena.get("/api/rounds", "admin")["rounds"]]
    page = arena.request("GET", "/courses", "admin")[2].decode()
    return rounds, re.findall(r'data-course="([^"]*)"', page)


def refused_for_the_round(status: int, body: bytes, json_answer: bool) -> None:
    assert status == 403, (status, body[:300])
    text = body.decode()
    if json_answer:
        answer = json.loads(text)
        assert is_refusal(answer) and answer["error"]["code"] == "forbidden", answer
        text = answer["error"]["message"]
    assert "R1" in text, text[:600]


@pytest.mark.parametrize("endpoint", sorted(GLOBAL_GETS))
def test_a_rounds_committee_code_opens_no_global_page_the_secret_does(arena, endpoint):
    path = GLOBAL_GETS[endpoint]
    status, _, body = arena.request("GET", path, "committee")
    refused_for_the_round(status, body, json_answer=False)
    assert b"committee secret" in body and b"[[holes]]" not in body and b"cal-rounds" not in body
    status, _, body = arena.request("GET", path, "admin")
    assert status == 200, (endpoint, status, body[:300])
    arena.assert_log_clean()


@pytest.mark.parametrize("endpoint", sorted(GLOBAL_POSTS))
def test_a_rounds_committee_code_creates_no_course_nor_round(arena, endpoint):
    before = stored(arena)
    status, body = post_form(arena, GLOBAL_POSTS[endpoint], "committee")
    refused_for_the_round(status, body, json_answer=True)
    assert "committee secret" in json.loads(body)["error"]["message"]
    assert stored(arena) == before
    # the secret may (the form's course, sent here as a file's text, is judged, not refused)
    status, body = post_form(arena, GLOBAL_POSTS[endpoint], "admin")
    if endpoint == "committee.save_course":
        assert status == 400 and json.loads(body)["error"]["field"] == "course", body[:300]
    else:
        assert status == 200 and json.loads(body)["ok"] is True, (endpoint, status, body[:300])
    arena.assert_log_clean()


@pytest.mark.parametrize("endpoint", sorted(ROUND_GETS))
def test_a_rounds_committee_code_opens_its_round_and_not_another(arena, endpoint):
    own = ROUND_GETS[endpoint].format(OWN)
    status, _, body = arena.request("GET", own, "committee")
    assert status == 200, (endpoint, status, body[:300])
    other = ROUND_GETS[endpoint].format(OTHER_Q)
    status, _, body = arena.request("GET", other, "committee")
    refused_for_the_round(status, body, json_answer=other.startswith("/api/"))
    status, _, _ = arena.request("GET", other, "admin")
    assert status == 200, (endpoint, status)


def test_the_round_list_and_the_home_page_keep_to_the_codes_round(arena):
    assert [r["name"] for r in arena.get("/api/rounds", "committee")["rounds"]] == [OWN]
    assert {r["name"] for r in arena.get("/api/rounds", "admin")["rounds"]} >= {OWN, OTHER}
    home = arena.request("GET", "/", "committee")[2]
    assert b'id="console-link"' not in home
    assert b'id="console-link"' in arena.request("GET", "/", "admin")[2]
    changes = arena.request("GET", f"/rounds/{OWN}/changes", "committee")[2]
    assert b'href="/committee"' not in changes  # no link to a page it cannot open
    # the other round's access cards: refused, no PDF made
    form = b"marshal=1&url=http%3A%2F%2F127.0.0.1"
    kind = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _, body = arena.request("POST", f"/rounds/{OTHER_Q}/cards", "committee", form, kind)
    assert status == 403 and not body.startswith(b"%PDF")


CHANGE = {
    "change_start": {"group": "1", "start": "15:55", "reason": "a late car"},
    "round_finish": {},
    "change_void": {"target": str(uuid.uuid4()), "reason": "wrong"},
}


@pytest.mark.parametrize("name", sorted(CHANGE))
def test_a_rounds_committee_code_sends_no_command_to_another_round(arena, name):
    before = arena.people_events()
    body = {"id": str(uuid.uuid4()), "round": OTHER, **CHANGE[name]}
    status, answer = arena.command(name, body, "committee")
    assert status == 403 and is_refusal(answer), (status, answer)
    assert (answer["error"]["code"], answer["error"]["field"]) == ("forbidden", "round")
    assert "R1" in answer["error"]["message"]
    answer = arena.emit("committee", name, {**body, "id": str(uuid.uuid4())})
    assert is_refusal(answer) and answer["error"]["code"] == "forbidden", answer
    assert arena.people_events() == before
    arena.assert_log_clean()

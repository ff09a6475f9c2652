"""Hostile input to the committee's console over the wire (issue 28): a real ``pace serve``
(the arena), real HTTP clients, from the committee that may send it. Every form and upload
(the course form, a course TOML, a new round's preview and creation) and every change command
gets malformed JSON, wrong types, huge strings, unknown rounds, groups and players, an instant
in the future, a TOML bomb, oversized files, a CSV with formulas, a byte order mark or the
wrong encoding, and the wrong role: each is answered with a clear error in the shared shape
and stores nothing; the server's log stays clean.
"""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from typing import Any

import pytest
from livesupport import DRAW
from security.arena import OWN, Arena, is_refusal

pytestmark = pytest.mark.e2e

COURSE = "Golf de Louiseville"
ROLES_REFUSED = ("referee", "scorer", "marshal", "viewer")


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    """Return a multipart/form-data body and its content type."""
    boundary = uuid.uuid4().hex
    out = b""
    for name, value in fields.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n"
                f"{value}\r\n").encode()  # fmt: skip
    for name, (filename, data) in files.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; "
                f"filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                ).encode() + data + b"\r\n"  # fmt: skip
    return out + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def post(arena: Arena, path: str, role: str | None, fields: dict[str, str],
         files: dict[str, tuple[str, bytes]] | None = None) -> tuple[int, dict]:  # fmt: skip
    body, kind = multipart(fields, files or {})
    status, _, answer = arena.request("POST", path, role, body, {"Content-Type": kind})
    return status, json.loads(answer)


def courses(arena: Arena) -> list[str]:
    status, _, page = arena.request("GET", "/courses", "admin")
    assert status == 200
    return re.findall(r'data-course="([^"]*)"', page.decode())


def rounds(arena: Arena) -> list[str]:
    return [r["name"] for r in arena.get("/api/rounds", "admin")["rounds"]]


def refused(status: int, answer: dict, code: str | None = None) -> None:
    assert 400 <= status < 500, (status, answer)
    assert is_refusal(answer), answer
    assert answer["error"]["message"], answer
    if code is not None:
        assert answer["error"]["code"] == code, answer


def course_form(**changes: Any) -> dict[str, Any]:
    holes = [{"par": 4, "stroke_index": i + 1} for i in range(9)]
    return {"name": "Hostile Links", "hole_count": 9, "holes": holes, **changes}


HOSTILE_FORMS = {
    "not json": "{",
    "a list": "[]",
    "a string": '"x"',
    "deep": "[" * 5000 + "]" * 5000,
    "unknown field": json.dumps(course_form(evil=1)),
    "hole_count text": json.dumps(course_form(hole_count="nine")),
    "hole_count 7": json.dumps(course_form(hole_count=7)),
    "holes not a list": json.dumps(course_form(holes={"par": 4})),
    "too few holes": json.dumps(course_form(holes=[{"par": 4}])),
    "par an object": json.dumps(course_form(holes=[{"par": {"x": 1}}] * 9)),
    "par true": json.dumps(course_form(holes=[{"par": True}] * 9)),
    "huge name": json.dumps(course_form(name="é" * 100_000))[:60_000],
    "long name": json.dumps(course_form(name="é" * 5_000)),
    "control name": json.dumps(course_form(name="a\x00b")),
    "surrogate name": '{"name": "\\ud800", "hole_count": 9, "holes": []}',
    "nan slope": json.dumps(course_form(slope=float("nan"))),
    "par slip": json.dumps(course_form(holes=[{"par": "x"}] * 9)),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_FORMS))
def test_the_course_form_refuses_hostile_input_and_stores_nothing(arena, case):
    before = courses(arena)
    status, answer = post(arena, "/api/courses", "admin", {"course": HOSTILE_FORMS[case]})
    refused(status, answer)
    assert courses(arena) == before
    arena.assert_log_clean()


BOMB = b"a = " + b"[" * 30_000 + b"]" * 30_000
HOSTILE_TOML = {
    "bomb": (BOMB, "invalid_file"),
    "table bomb": (b"a = " + b"{b=" * 8_000 + b"1" + b"}" * 8_000, None),
    "oversized": (b"# " + b"x" * 70_000 + b"\n", "payload_too_large"),
    "utf-16": ('name = "X"\n'.encode("utf-16"), "invalid_file"),
    "latin-1": ('name = "Été"\n'.encode("latin-1"), "invalid_file"),
    "not toml": (b"name = \n[[holes", "invalid_file"),
    "no holes": (b'name = "X"\n', "invalid_file"),
    "binary": (bytes(range(256)) * 10, "invalid_file"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_TOML))
def test_a_hostile_course_upload_is_refused_and_stores_nothing(arena, case):
    data, code = HOSTILE_TOML[case]
    before = courses(arena)
    status, answer = post(arena, "/api/courses/upload", "admin", {}, {"file": ("c.toml", data)})
    refused(status, answer, code)
    assert courses(arena) == before
    arena.assert_log_clean()


def draw_fields(**changes: str) -> dict[str, str]:
    return {"round": "Hostile cup", "course": COURSE, "date": "2026-06-20",
            "timezone": "Europe/Brussels", "policy": "frbg", "format": "individual",
            "net": "gross", **changes}  # fmt: skip


GOOD_DRAW = DRAW.read_bytes()
HOSTILE_SETUPS = {
    "bad date": (draw_fields(date="2026-02-30"), GOOD_DRAW, "invalid_payload"),
    "ancient date": (draw_fields(date="1066-10-14"), GOOD_DRAW, "invalid_payload"),
    "path as zone": (draw_fields(timezone="../../etc/passwd"), GOOD_DRAW, "invalid_payload"),
    "unknown policy": (draw_fields(policy="fast"), GOOD_DRAW, "invalid_payload"),
    "unknown scoring": (draw_fields(scoring="golf"), GOOD_DRAW, "invalid_payload"),
    "bad allowance": (draw_fields(allowance="lots"), GOOD_DRAW, "invalid_payload"),
    "net maybe": (draw_fields(net="maybe"), GOOD_DRAW, "invalid_payload"),
    "unknown field": ({**draw_fields(), "admin": "1"}, GOOD_DRAW, "unknown_field"),
    "control round": (draw_fields(round="R\x00"), GOOD_DRAW, "invalid_payload"),
    "huge round": (draw_fields(round="é" * 20_000), GOOD_DRAW, "invalid_payload"),
    "empty round": (draw_fields(round="   "), GOOD_DRAW, None),
    "unknown course": (draw_fields(course="Nowhere"), GOOD_DRAW, "unknown_course"),
    "existing round": (draw_fields(round=OWN), GOOD_DRAW, "round_exists"),
    "no file": (draw_fields(), None, "missing_field"),
    "oversized": (draw_fields(), b"group,start,tee,player\n" + b"1,08:00,1,A\n" * 8_000,
                  "payload_too_large"),
    "utf-16": (draw_fields(), GOOD_DRAW.decode().encode("utf-16"), "invalid_file"),
    "latin-1": (draw_fields(), GOOD_DRAW.decode().encode("latin-1", "replace"), "invalid_file"),
    "no columns": (draw_fields(), b"a,b\n1,2\n", "invalid_file"),
    "binary": (draw_fields(), bytes(range(1, 256)) * 10, "invalid_file"),
}  # fmt: skip


@pytest.mark.parametrize("step", ["preview", "create"])
@pytest.mark.parametrize("case", sorted(HOSTILE_SETUPS))
def test_a_hostile_new_round_is_refused_and_stores_nothing(arena, case, step):
    fields, data, code = HOSTILE_SETUPS[case]
    before = rounds(arena)
    files = {"draw": ("draw.csv", data)} if data is not None else {}
    status, answer = post(arena, f"/api/rounds/{step}", "admin", fields, files)
    refused(status, answer, code)
    assert rounds(arena) == before
    arena.assert_log_clean()


def test_a_draw_with_formulas_and_a_bom_is_read_as_text_never_as_formulas(arena):
    """A byte order mark is how a French spreadsheet saves CSV: read. A cell that a spreadsheet
    would read as a formula is a name like any other: kept as text, shown as text (the audit's
    CSV export prefixes it with ')."""
    text = ("\ufeffgroup,start,tee,player,club\n1,08:00,1,=HYPERLINK(\"http://x\"),@SUM(A1)\n"
            "1,08:00,1,+Ann,-Club\n")  # fmt: skip
    before = rounds(arena)
    status, answer = post(arena, "/api/rounds/preview", "admin",
                          draw_fields(round="Formula cup"),
                          {"draw": ("f.csv", text.encode())})  # fmt: skip
    assert status == 200, answer
    names = [p["name"] for g in answer["groups"] for p in g["players"]]
    assert names == ['=HYPERLINK("http://x")', "+Ann"]
    assert rounds(arena) == before  # a preview stores nothing


def test_a_round_drawn_with_formulas_exports_them_as_text_in_every_csv(arena):
    """The draw from players' own entries (issue 38): created through the console, its names
    reach the results CSV with a leading ', never as a formula a spreadsheet would run; no cell
    of the round's other CSV exports (the report, the audit) starts a formula either; figures
    (a -1 playing handicap) stay figures."""
    evil = ['=HYPERLINK("http://evil.example/","x")', "+SUM(1+1)", "@cmd", "-2+3"]
    rows = "".join(f'1,08:00,1,"{name.replace(chr(34), 2 * chr(34))}",{i + 1}.0\n'
                   for i, name in enumerate(evil))  # fmt: skip
    text = "group,start,tee,player,handicap\n" + rows
    status, answer = post(arena, "/api/rounds/create", "admin",
                          draw_fields(round="Formula cup", net="net"),
                          {"draw": ("entries.csv", text.encode())})  # fmt: skip
    assert status == 200, answer
    exports = {}
    for path in ("results.csv", "results.csv?excel=1", "report.csv", "report.csv?excel=1",
                 "audit.csv", "audit.csv?excel=1"):  # fmt: skip
        status, _, body = arena.request("GET", f"/rounds/Formula%20cup/{path}", "admin")
        assert status == 200, (path, body[:300])
        exports[path] = body.decode("utf-8").removeprefix("\ufeff")
    number = re.compile(r"[+-]?(\d+([.,]\d+)?|[.,]\d+)")
    for path, text in exports.items():
        delimiter = ";" if "excel" in path else ","
        for row in csv.reader(io.StringIO(text), delimiter=delimiter):
            for cell in row:
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    assert cell == "-" or number.fullmatch(cell), (path, cell)
    entries = [r[4] for r in csv.reader(io.StringIO(exports["results.csv"]))][1:]
    assert sorted(entries) == sorted("'" + name for name in evil)
    arena.assert_log_clean()


@pytest.mark.parametrize("path", ["/api/courses", "/api/courses/upload", "/api/rounds/preview",
                                  "/api/rounds/create"])  # fmt: skip
@pytest.mark.parametrize("role", (*ROLES_REFUSED, None), ids=lambda r: r or "no-session")
def test_the_console_refuses_every_other_role(arena, path, role):
    before = (courses(arena), rounds(arena))
    fields = {"course": json.dumps(course_form())} if path == "/api/courses" else draw_fields()
    files = {"file": ("c.toml", b'name = "X"'), "draw": ("d.csv", GOOD_DRAW)}
    status, answer = post(arena, path, role, fields, files)
    refused(status, answer, "unauthorized" if role is None else "forbidden")
    assert (courses(arena), rounds(arena)) == before


def test_a_cookie_form_without_its_token_is_refused(arena):
    body, kind = multipart({"course": json.dumps(course_form())}, {})
    headers = {"Content-Type": kind, "Cookie": "session=forged"}
    status, _, answer = arena.request("POST", "/api/courses", None, body, headers)
    refused(status, json.loads(answer))


def change(name: str, **fields: Any) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), "round": OWN, **fields}


HOSTILE_CHANGES = {
    "unknown round": ("change_withdraw", change("change_withdraw", round="Nope",
                      player="Lise Dion", reason="no_show"), "unknown_round"),
    "unknown player": ("change_withdraw", change("w", player="Nobody", reason="no_show"),
                       "unknown_player"),
    "unknown group": ("change_start", change("s", group="99", start="10:00", reason="x"),
                      "unknown_group"),
    "unknown target": ("change_void", change("v", target=str(uuid.uuid4()), reason="x"),
                       "unknown_target"),
    "a tap is no change": ("change_void", change("v", target=None, reason="x"), None),
    "future instant": ("change_withdraw", change("w", player="Lise Dion", reason="retired",
                       at="23:59"), "time_in_future"),
    "hour 25": ("change_start", change("s", group="6", start="25:00", reason="x"),
                "invalid_payload"),
    "tee as text": ("change_tee", change("t", group="6", tee="ten", reason="x"),
                    "invalid_payload"),
    "tee off the course": ("change_tee", change("t", group="6", tee=40, reason="x"), None),
    "players not a list": ("change_add_group", change("g", group="Z", start="10:00", tee=1,
                           players="Ann", reason="x"), "invalid_payload"),
    "seven players": ("change_add_group", change("g", group="Z", start="10:00", tee=1,
                      players=[f"P{i}" for i in range(7)], reason="x"), "invalid_payload"),
    "player an int": ("change_add_player", change("p", group="6", player=5, reason="x"),
                      "invalid_payload"),
    "handicap text": ("change_add_player", change("p", group="6",
                      player={"name": "Zed", "handicap": "lots"}, reason="x"), "invalid_payload"),
    "huge reason": ("change_swap", change("s", player="Lise Dion", other="Paul Martel",
                    reason="é" * 1_000), "invalid_payload"),
    "no reason": ("change_swap", change("s", player="Lise Dion", other="Paul Martel",
                  reason=""), None),
    "withdrawal kind": ("change_withdraw", change("w", player="Lise Dion", reason="bored"),
                        "invalid_payload"),
    "a played group": ("change_swap", change("s", player="Marie Lavoie", other="Paul Martel",
                       reason="x"), "group_has_played"),
    "a played group's start": ("change_start", change("s", group="1", start="10:00",
                                reason="x"), "group_has_played"),
    "himself": ("change_swap", change("s", player="Lise Dion", other="Lise Dion", reason="x"),
                None),
    "not an object": ("change_remove_group", [1, 2], "invalid_payload"),
}  # fmt: skip


#: the HTTP status of each refusal: 409 for a change the round as it stands refuses (it would
#: rewrite what a group played: the same change was fine before), 404 for what is not in the
#: round, 400 for a malformed or self-contradictory change (no state of the round takes it)
CHANGE_STATUS = {
    "a played group": 409,
    "a played group's start": 409,
    "unknown round": 404,
    "unknown player": 404,
    "unknown group": 404,
    "unknown target": 404,
    "tee off the course": 404,
    **dict.fromkeys(
        ("a tap is no change", "future instant", "hour 25", "tee as text", "players not a list",
         "seven players", "player an int", "handicap text", "huge reason", "no reason",
         "withdrawal kind", "himself", "not an object"),
        400,
    ),
}  # fmt: skip


def test_every_hostile_change_has_its_status():
    assert sorted(CHANGE_STATUS) == sorted(HOSTILE_CHANGES)


@pytest.mark.parametrize("case", sorted(HOSTILE_CHANGES))
def test_hostile_changes_are_refused_with_the_services_sentence_and_store_nothing(arena, case):
    name, body, code = HOSTILE_CHANGES[case]
    if isinstance(body, dict) and "target" in body and body["target"] is None:
        body["target"] = arena.facts[OWN]["spare"]  # a tap: not a change
    before = arena.people_events()
    status, answer = arena.command(name, body, "committee")
    refused(status, answer, code)
    assert status == CHANGE_STATUS[case], (case, status, answer)
    assert arena.people_events() == before
    arena.assert_log_clean()


def test_malformed_json_to_a_change_command_is_invalid_json(arena):
    before = arena.people_events()
    for raw in (b"{", b"[" * 5000, b"\xff\xfe", b'{"id": NaN}'):
        status, _, answer = arena.request("POST", "/api/commands/change_withdraw", "committee",
                                          raw, {"Content-Type": "application/json"})  # fmt: skip
        refused(status, json.loads(answer))
    assert arena.people_events() == before


@pytest.mark.parametrize("role", (*ROLES_REFUSED, None), ids=lambda r: r or "no-session")
def test_a_change_from_another_role_is_refused(arena, role):
    before = arena.people_events()
    status, answer = arena.command(
        "change_withdraw", change("w", player="Lise Dion", reason="no_show"), role
    )
    refused(status, answer, "unauthorized" if role is None else "forbidden")
    assert arena.people_events() == before


@pytest.mark.parametrize(
    "name",
    ["..%2F..%2Fetc%2Fpasswd", "a%00b", "x%0D%0ASet-Cookie:%20a=b", "%22%3B%20evil", "%C3%A9" * 300,
     "..", "Nowhere"],
)  # fmt: skip
def test_a_hostile_course_name_to_download_is_refused_cleanly(arena, name):
    status, headers, answer = arena.request("GET", f"/courses/{name}.toml", "admin")
    assert 400 <= status < 500, (status, answer[:200])
    assert "Content-Disposition" not in headers and b"[[holes]]" not in answer
    arena.assert_log_clean()


@pytest.mark.parametrize("role", (*ROLES_REFUSED, None), ids=lambda r: r or "no-session")
def test_a_course_download_is_the_committees(arena, role):
    status, headers, answer = arena.request("GET", f"/courses/{COURSE}.toml".replace(" ", "%20"),
                                            role)  # fmt: skip
    assert status in (302, 401, 403), status  # no session: the sign-in page
    assert b"[[holes]]" not in answer
    status, headers, answer = arena.request("GET", "/courses/Golf%20de%20Louiseville.toml",
                                            "admin")  # fmt: skip
    assert status == 200 and b"[[holes]]" in answer
    assert headers["Content-Disposition"].startswith('attachment; filename="course-')


HOSTILE_LIFE = {
    "unknown round": ("round_finish", {"round": "Nope"}, "unknown_round"),
    "round an int": ("round_finish", {"round": 7}, "invalid_payload"),
    "unknown field": ("round_final", {"round": OWN, "by": "admin"}, "unknown_field"),
    "not an object": ("round_finish", [OWN], "invalid_payload"),
    "bad id": ("round_finish", {"round": OWN, "id": "x" * 300}, "invalid_payload"),
    "final before finish": ("round_final", {"round": OWN}, "not_finished"),
    "reopen not final": ("round_reopen", {"round": OWN, "reason": "x"}, "not_final"),
    "reopen no reason": ("round_reopen", {"round": OWN}, None),
    "reopen huge reason": ("round_reopen", {"round": OWN, "reason": "é" * 1_000},
                           "invalid_payload"),
    "reopen reason object": ("round_reopen", {"round": OWN, "reason": {"a": 1}},
                             "invalid_payload"),
}  # fmt: skip


def life_of(arena: Arena) -> dict:
    return arena.get(f"/api/rounds/{OWN}/leaderboard", "admin")["leaderboard"]["life"]


@pytest.mark.parametrize("case", sorted(HOSTILE_LIFE))
def test_hostile_acts_on_a_rounds_life_are_refused_and_store_nothing(arena, case):
    name, body, code = HOSTILE_LIFE[case]
    before = (arena.people_events(), life_of(arena))
    status, answer = arena.command(name, body, "committee")
    refused(status, answer, code)
    assert (arena.people_events(), life_of(arena)) == before
    arena.assert_log_clean()


@pytest.mark.parametrize("name", ["round_finish", "round_final", "round_reopen"])
@pytest.mark.parametrize("role", (*ROLES_REFUSED, None), ids=lambda r: r or "no-session")
def test_an_act_on_a_rounds_life_from_another_role_is_refused(arena, name, role):
    before = life_of(arena)
    status, answer = arena.command(name, {"round": OWN, "reason": "x"}, role)
    refused(status, answer, "unauthorized" if role is None else "forbidden")
    assert life_of(arena) == before


def codes_made(arena: Arena) -> int:
    status, _, page = arena.request("GET", f"/rounds/{OWN}/access", "admin")
    assert status == 200
    return page.count(b"<code>")


HOSTILE_CARDS = {
    "nothing asked": ({}, "missing_field"),
    "negative": ({"marshal": "-1"}, "invalid_payload"),
    "huge count": ({"marshal": "9" * 40}, "invalid_payload"),
    "too many in all": ({"marshal": "200", "scorer": "1"}, "invalid_payload"),
    "count text": ({"referee": "ten"}, "invalid_payload"),
    "committee cards": ({"committee": "1"}, "unknown_field"),
    "javascript url": ({"marshal": "1", "url": "javascript:alert(1)"}, "invalid_payload"),
    "long url": ({"marshal": "1", "url": "http://" + "x" * 400}, "invalid_payload"),
    "control url": ({"marshal": "1", "url": "http://a\x00b"}, None),
    "bad layout": ({"marshal": "1", "layout": "../x"}, "invalid_payload"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_CARDS))
def test_hostile_access_card_forms_make_no_code(arena, case):
    fields, code = HOSTILE_CARDS[case]
    before = codes_made(arena)
    status, answer = post(arena, f"/rounds/{OWN}/cards", "committee", fields)
    refused(status, answer, code)
    assert codes_made(arena) == before
    arena.assert_log_clean()


def test_access_cards_of_an_unknown_round_make_no_code(arena):
    status, answer = post(arena, "/rounds/Nope/cards", "committee", {"marshal": "1"})
    refused(status, answer, "unknown_round")


@pytest.mark.parametrize("role", (*ROLES_REFUSED, None), ids=lambda r: r or "no-session")
def test_access_cards_from_another_role_make_no_code(arena, role):
    before = codes_made(arena)
    status, answer = post(arena, f"/rounds/{OWN}/cards", role, {"marshal": "2"})
    refused(status, answer, "unauthorized" if role is None else "forbidden")
    assert codes_made(arena) == before


def test_access_cards_over_the_wire_are_a_pdf_of_new_codes(arena):
    before = codes_made(arena)
    body, kind = multipart({"marshal": "2", "referee": "1"}, {})
    status, headers, answer = arena.request("POST", f"/rounds/{OWN}/cards", "committee", body,
                                            {"Content-Type": kind})  # fmt: skip
    assert status == 200 and answer.startswith(b"%PDF"), answer[:200]
    assert headers["Content-Disposition"].startswith('attachment; filename="cards-')
    assert codes_made(arena) == before + 3


# -- the round's language (issue 41) ----------------------------------------------------------


def round_language(arena: Arena) -> str:
    """The language of the round's documents, as the changes page selects it."""
    status, _, page = arena.request("GET", f"/rounds/{OWN}/changes", "admin")
    assert status == 200
    found = re.search(rb'<option value="(\w+)" lang="\w+" selected>', page)
    assert found is not None
    return found[1].decode()


HOSTILE_LANGUAGES = {
    "none given": ({}, "missing_field"),
    "unknown language": ({"language": "de"}, "invalid_payload"),
    "a path": ({"language": "../nl"}, "invalid_payload"),
    "huge": ({"language": "nl" * 400}, "invalid_payload"),
    "control": ({"language": "n\x00l"}, None),
    "extra field": ({"language": "nl", "round": "Other"}, "unknown_field"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_LANGUAGES))
def test_hostile_round_language_forms_change_nothing(arena, case):
    fields, code = HOSTILE_LANGUAGES[case]
    before = round_language(arena)
    status, answer = post(arena, f"/rounds/{OWN}/language", "committee", fields)
    refused(status, answer, code)
    assert round_language(arena) == before
    arena.assert_log_clean()


@pytest.mark.parametrize("role", (*ROLES_REFUSED, None), ids=lambda r: r or "no-session")
def test_the_round_language_from_another_role_changes_nothing(arena, role):
    before = round_language(arena)
    status, answer = post(arena, f"/rounds/{OWN}/language", role, {"language": "en"})
    refused(status, answer, "unauthorized" if role is None else "forbidden")
    assert round_language(arena) == before
    status, answer = post(arena, "/rounds/Nope/language", "committee", {"language": "en"})
    refused(status, answer, "unknown_round")


def test_the_round_language_over_the_wire_is_stored(arena):
    body, kind = multipart({"language": "nl"}, {})
    status, headers, _ = arena.request("POST", f"/rounds/{OWN}/language", "committee", body,
                                       {"Content-Type": kind})  # fmt: skip
    assert status == 302 and "language_saved=1" in headers["Location"]
    assert round_language(arena) == "nl"


# -- the round's handicap readings (issue 47) ---------------------------------------------------


def round_rounding(arena: Arena) -> str:
    """The round's playing handicap reading, as the changes page selects it."""
    status, _, page = arena.request("GET", f"/rounds/{OWN}/changes", "admin")
    assert status == 200
    select = re.search(rb'<select name="rounding">(.*?)</select>', page)
    assert select is not None
    found = re.search(rb'<option value="(\w+)" selected>', select[1])
    assert found is not None
    return found[1].decode()


HOSTILE_READINGS = {
    "none given": ({}, "missing_field"),
    "unknown rounding": ({"rounding": "half", "gross_par_adjustment": "yes"}, "invalid_payload"),
    "huge": ({"rounding": "whs" * 400, "gross_par_adjustment": "yes"}, "invalid_payload"),
    "control": ({"rounding": "w\x00hs", "gross_par_adjustment": "yes"}, None),
    "adjustment not yes or no": ({"rounding": "whs", "gross_par_adjustment": "true"},
                                 "invalid_payload"),
    "extra field": ({"rounding": "course_then_playing", "gross_par_adjustment": "yes",
                     "round": "Other"}, "unknown_field"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOSTILE_READINGS))
def test_hostile_handicap_reading_forms_change_nothing(arena, case):
    fields, code = HOSTILE_READINGS[case]
    before = round_rounding(arena)
    status, answer = post(arena, f"/rounds/{OWN}/handicap", "committee", fields)
    refused(status, answer, code)
    assert round_rounding(arena) == before
    arena.assert_log_clean()


@pytest.mark.parametrize("role", (*ROLES_REFUSED, None), ids=lambda r: r or "no-session")
def test_the_handicap_readings_from_another_role_change_nothing(arena, role):
    before = round_rounding(arena)
    fields = {"rounding": "course_then_playing", "gross_par_adjustment": "no"}
    status, answer = post(arena, f"/rounds/{OWN}/handicap", role, fields)
    refused(status, answer, "unauthorized" if role is None else "forbidden")
    assert round_rounding(arena) == before
    status, answer = post(arena, "/rounds/Nope/handicap", "committee", fields)
    refused(status, answer, "unknown_round")


def test_the_handicap_readings_over_the_wire_are_stored(arena):
    fields = {"rounding": "course_then_playing", "gross_par_adjustment": "yes"}
    body, kind = multipart(fields, {})
    status, headers, _ = arena.request("POST", f"/rounds/{OWN}/handicap", "committee", body,
                                       {"Content-Type": kind})  # fmt: skip
    assert status == 302 and "handicap_saved=1" in headers["Location"]
    assert round_rounding(arena) == "course_then_playing"

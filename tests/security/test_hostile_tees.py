"""Hostile input for tee sets over the wire (issue 38): a real ``pace serve`` (the arena), real
HTTP from the committee that may send it. The course form's tee sets and ``change_tees`` get
wrong types, huge and control texts, tees the course does not have, a formula, a woman sent to
tees not rated for women, a player who already has a score: each is answered with a clear
error in the shared shape and stores nothing; the server's log stays clean. A committee makes
a course with three tee sets and a mixed round through the console, and a good change moves a
player to other tees: the leaderboard names them.
"""

from __future__ import annotations

import json
import urllib.request
import uuid
from datetime import datetime
from typing import Any

import pytest
from security.arena import TZ, Arena
from security.test_console import courses, post, refused

pytestmark = pytest.mark.e2e

ROUND = "Mixed cup"
COURSE = "Tee Links"
#: men from the yellow; men and women from the red; women only from the blue
TEES = [
    {"name": "Yellow", "colour": "yellow", "slope": "125", "rating": "35.1"},
    {"name": "Red", "colour": "red", "slope": "110", "rating": "33.9", "women_slope": "122",
     "women_rating": "36.4", "par": "9=5"},
    {"name": "Blue", "women_slope": "118", "women_rating": "35.0"},
]  # fmt: skip
DRAW = """group,start,tee,player,handicap,gender,tees
1,08:00,1,Ann Ash,10.2,F,Red
1,08:00,1,Ben Birch,12,M,Yellow
2,08:10,1,Cat Cedar,18.5,F,Blue
"""


def course_form(**changes: Any) -> dict[str, Any]:
    holes = [{"par": 4, "stroke_index": i + 1} for i in range(9)]
    return {"name": COURSE, "hole_count": 9, "holes": holes, "tees": TEES, **changes}


def events(arena: Arena) -> list[str]:
    quoted = urllib.request.quote(ROUND, safe="")
    return [e["id"] for e in arena.get(f"/api/rounds/{quoted}/events", "admin")["events"]
            if e["by"]["role"] != "system"]  # fmt: skip


def leaderboard(arena: Arena) -> dict[str, dict]:
    quoted = urllib.request.quote(ROUND, safe="")
    board = arena.get(f"/api/rounds/{quoted}/leaderboard", "admin")["leaderboard"]
    return {e["entry"]: e for e in board["entries"]}


@pytest.fixture(scope="module")
def mixed(arena: Arena) -> Arena:
    """The committee's course with three tee sets and a mixed round for today, made through the
    console over the wire."""
    status, answer = post(arena, "/api/courses", "admin",
                          {"course": json.dumps(course_form())})  # fmt: skip
    assert status == 200, answer
    today = datetime.now(TZ).date().isoformat()
    fields = {"round": ROUND, "course": COURSE, "date": today, "timezone": str(TZ),
              "policy": "frbg", "format": "individual", "scoring": "stableford",
              "net": "net"}  # fmt: skip
    status, answer = post(arena, "/api/rounds/create", "admin", fields,
                          {"draw": ("draw.csv", DRAW.encode())})  # fmt: skip
    assert status == 200, answer
    assert [p["tees"] for g in answer["groups"] for p in g["players"]] == ["Red", "Yellow", "Blue"]
    return arena


def tees_change(**fields: Any) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), "round": ROUND, "reason": "wrong tees on the draw", **fields}


HOSTILE_FORMS = {
    "tees not a list": course_form(tees={"name": "Yellow"}),
    "thirteen tee sets": course_form(tees=[{"name": f"T{i}"} for i in range(13)]),
    "a tee set a string": course_form(tees=["Yellow"]),
    "tee name an int": course_form(tees=[{"name": 7}]),
    "tee name huge": course_form(tees=[{"name": "é" * 1_000}]),
    "tee name control": course_form(tees=[{"name": "Yel\x00low"}]),
    "tee name empty": course_form(tees=[{"name": "  "}]),
    "unknown tee field": course_form(tees=[{"name": "Yellow", "admin": 1}]),
    "women slope nan": course_form(tees=[{"name": "Yellow", "women_slope": float("nan")}]),
    "women slope 300": course_form(tees=[{"name": "Yellow", "women_slope": 300}]),
    "par text": course_form(tees=[{"name": "Yellow", "par": "9=x"}]),
    "par off the course": course_form(tees=[{"name": "Yellow", "par": "30=5"}]),
    "par an object": course_form(tees=[{"name": "Yellow", "par": {"9": 5}}]),
    "lengths huge": course_form(tees=[{"name": "Yellow", "length_m": "1," * 2_000}]),
    "stroke index twice": course_form(tees=[{"name": "Yellow", "stroke_index": "1=2"}]),
    "tees given twice": course_form(tees=[{"name": "Yellow"}, {"name": "YELLOW"}]),
    "a slope beside tee sets": course_form(slope="120"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOSTILE_FORMS))
def test_hostile_tee_sets_in_the_course_form_are_refused_and_store_nothing(mixed, case):
    form = {**HOSTILE_FORMS[case], "name": "Hostile tees"}
    before = courses(mixed)
    status, answer = post(mixed, "/api/courses", "admin", {"course": json.dumps(form)})
    refused(status, answer)
    assert courses(mixed) == before
    mixed.assert_log_clean()


HOSTILE_CHANGES = {
    "unknown tees": (tees_change(player="Ben Birch", tees="Pink"), 404, "unknown_tees"),
    "a formula": (tees_change(player="Ben Birch", tees='=HYPERLINK("http://x")'), 404,
                  "unknown_tees"),
    "a woman to men's tees": (tees_change(player="Ann Ash", tees="Yellow"), 404, "unknown_tees"),
    "the tees he has": (tees_change(player="Ben Birch", tees="yellow"), 400, "invalid_change"),
    "unknown player": (tees_change(player="Nobody", tees="Red"), 404, "unknown_player"),
    "tees a number": (tees_change(player="Ben Birch", tees=3), 400, "invalid_payload"),
    "tees huge": (tees_change(player="Ben Birch", tees="R" * 41), 400, "invalid_payload"),
    "tees control": (tees_change(player="Ben Birch", tees="R\x00ed"), 400, "invalid_payload"),
    "no tees": (tees_change(player="Ben Birch"), 400, "missing_field"),
    "unknown field": (tees_change(player="Ben Birch", tees="Red", group="1"), 400,
                      "unknown_field"),
    "no reason": (tees_change(player="Ben Birch", tees="Red", reason=""), 400,
                  "invalid_payload"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOSTILE_CHANGES))
def test_hostile_tee_changes_are_refused_and_store_nothing(mixed, case):
    body, status_expected, code = HOSTILE_CHANGES[case]
    before = events(mixed)
    status, answer = mixed.command("change_tees", body, "admin")
    refused(status, answer, code)
    assert status == status_expected, (case, status, answer)
    assert events(mixed) == before
    mixed.assert_log_clean()


@pytest.mark.parametrize("role", ("referee", "scorer", "marshal", "viewer", None))
def test_a_tee_change_from_another_role_is_refused(mixed, role):
    before = events(mixed)
    status, answer = mixed.command("change_tees", tees_change(player="Ben Birch", tees="Red"),
                                   role)  # fmt: skip
    refused(status, answer, "unauthorized" if role is None else "forbidden")
    assert events(mixed) == before


def test_a_player_moves_to_other_tees_until_he_has_a_score(mixed):
    assert leaderboard(mixed)["Ben Birch"]["tees"] == "Yellow"
    status, answer = mixed.command("change_tees", tees_change(player="Ben Birch", tees="red"),
                                   "admin")  # fmt: skip
    assert status == 200 and answer["ok"], answer
    assert leaderboard(mixed)["Ben Birch"]["tees"] == "Red"
    # a score for Ann: her tees no longer change
    score = {"id": str(uuid.uuid4()), "round": ROUND, "group": "1", "player": "Ann Ash",
             "hole": 1, "strokes": 5}  # fmt: skip
    status, answer = mixed.command("record_score", score, "admin")
    assert status == 200 and answer["ok"], answer
    before = events(mixed)
    status, answer = mixed.command("change_tees", tees_change(player="Ann Ash", tees="Blue"),
                                   "admin")  # fmt: skip
    refused(status, answer, "player_has_scores")
    assert status == 409 and "has a score on hole 1" in answer["error"]["message"]
    assert events(mixed) == before
    assert leaderboard(mixed)["Ann Ash"]["tees"] == "Red"
    mixed.assert_log_clean()


def round_fields(**changes: str) -> dict[str, str]:
    today = datetime.now(TZ).date().isoformat()
    return {"round": "Defaults cup", "course": COURSE, "date": today, "timezone": str(TZ),
            "policy": "frbg", "format": "individual", **changes}  # fmt: skip


PLAIN_DRAW = b"group,start,tee,player,gender\n1,08:00,1,Ann Ash,F\n1,08:00,1,Ben Birch,M\n"


def test_the_new_rounds_default_tees_go_to_players_the_draw_gives_none(mixed):
    status, answer = post(mixed, "/api/rounds/preview", "admin",
                          round_fields(tees="men=Yellow, women=red"),
                          {"draw": ("draw.csv", PLAIN_DRAW)})  # fmt: skip
    assert status == 200, answer
    assert [(p["name"], p["tees"]) for g in answer["groups"] for p in g["players"]] == [
        ("Ann Ash", "Red"), ("Ben Birch", "Yellow")]  # fmt: skip


HOSTILE_DEFAULTS = {
    "not key=value": "Yellow",
    "unknown key": "juniors=Blue",
    "unknown tees": "men=Pink",
    "women on men's tees": "women=Yellow",
    "a formula": "men==SUM(1+1)",
    "huge": "men=" + "Y" * 300,
    "control": "men=Yel\x00low",
}


@pytest.mark.parametrize("case", sorted(HOSTILE_DEFAULTS))
def test_hostile_default_tees_are_refused_and_store_nothing(mixed, case):
    before = [r["name"] for r in mixed.get("/api/rounds", "admin")["rounds"]]
    for step in ("preview", "create"):
        status, answer = post(mixed, f"/api/rounds/{step}", "admin",
                              round_fields(tees=HOSTILE_DEFAULTS[case]),
                              {"draw": ("draw.csv", PLAIN_DRAW)})  # fmt: skip
        refused(status, answer)
    assert [r["name"] for r in mixed.get("/api/rounds", "admin")["rounds"]] == before
    mixed.assert_log_clean()

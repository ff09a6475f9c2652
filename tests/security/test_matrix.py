"""Every event and endpoint of docs/protocol.md × every role × {own round, another round, that
round's name padded or re-spelled}, over the wire: 0 unauthorized actions accepted (issue 9).

The sessions are all for ``R1``; ``Été 2`` is another round. A payload valid for its round is
sent as each role: on ``R1`` the roles of the permission table get through (so the test can
fail), every other combination is refused with the shared error shape and records nothing,
in either round. Ids of the other round's facts are also sent spelt every way a UUID can be.
"""

from __future__ import annotations

import itertools
import urllib.parse
import urllib.request
import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from security.arena import (
    MARIE,
    OTHER,
    OTHER_SPELLINGS,
    OWN,
    ROLES,
    TZ,
    Arena,
    is_refusal,
    uuid_spellings,
)

from pace.web import access, edge
from pace.web.sockets import ROUTES

pytestmark = pytest.mark.e2e

SESSIONS = (*ROLES, None)


#: (group, hole) completions nobody logged yet: each success of a tap (or of a group's report)
#: needs a fresh one
_slots = itertools.cycle(itertools.product(("5", "6", "4", "2", "3"), range(2, 19)))


def _fresh_slot(arena: Arena) -> tuple[str, int]:
    """Return a (group, hole) of the own round nobody logged yet (the cycle skips those the
    other tests' taps and reports took: several suites share the arena's round)."""
    quoted = urllib.request.quote(OWN, safe="")
    events = arena.get(f"/api/rounds/{quoted}/events", "admin")["events"]
    logged = {(str(e["payload"].get("group")), int(e["payload"].get("hole") or 0))
              for e in events if e["type"] == "hole_completed"}  # fmt: skip
    for _ in range(200):
        slot = next(_slots)
        if slot not in logged:
            return slot
    raise AssertionError("the arena's round has no hole left to log")
#: (group, player, hole) nobody scored yet: each success of a score needs a fresh one
_PLAYERS = {"5": ("Isabelle Ouellet", "Chantal Paquette", "Lise Dion"),
            "6": ("Robert Leblanc", "Paul Martel", "Guy Boucher", "René Hébert")}  # fmt: skip
_scores = itertools.cycle(
    [(g, p, h) for g, players in _PLAYERS.items() for p in players for h in range(1, 19)]
)


def payload(
    arena: Arena, event: str, round: str, facts_of: str, role: str | None = None
) -> dict[str, Any]:
    """A payload of ``event`` on ``round`` that its allowed roles may send with success.

    ``facts_of`` names the round whose facts (taps, alerts, faults) it aims at. For the own
    round, what the command needs is made first (a fresh tap to void, a fresh score for a
    scorer to void, an open alert, a group being timed), so every allowed role's command is
    accepted, not only the first one.
    """
    now = arena.now()
    local = now.astimezone(TZ)
    facts = arena.facts[facts_of]
    base = {"id": str(uuid.uuid4()), "round": round, "device_time": now.isoformat()}
    at = lambda h, m: local.replace(hour=h, minute=m, second=0, microsecond=0).isoformat()  # noqa: E731
    target, alert = facts["spare"], facts["alert"]
    stroke_from = now - timedelta(seconds=30)  # a stroke starts inside a spell (docs/rules.md §4.7)
    if round == OWN:
        if event == "void_event" and role == "scorer":  # a scorer voids scores only
            group, player, hole = next(_scores)
            target = admin(arena, "record_score", group=group, player=player, hole=hole,
                           strokes=4)["id"]  # fmt: skip
        elif event == "void_event":
            group, hole = _fresh_slot(arena)
            target = admin(arena, "hole_completed", group=group, hole=hole, at=at(8, 59))["id"]
        if event == "acknowledge_alert":  # (once all are acknowledged: already_done)
            alert = (open_alerts(arena) or [alert])[0]
        if event in ("stop_timing", "tell_player_timed", "record_stroke"):
            decided = admin(arena, "decide_timing", group="1", decision="time",
                            refusal="already_timed")  # fmt: skip
            if decided.get("ok"):  # a new spell from now: the stroke is timed within it
                stroke_from = datetime.fromisoformat(decided["at"]) + timedelta(seconds=1)
    if event.startswith("change_"):
        fields = change_stage(arena, event) if round == OWN else OTHER_CHANGE[event]
        return {**base, **fields}
    fresh = event in ("hole_completed", "group_completed") and round == OWN
    group, hole = _fresh_slot(arena) if fresh else ("5", 1)
    scored = next(_scores) if event == "record_score" and round == OWN else ("2", MARIE, 2)
    return {
        "clock_sync": {},
        "join_round": {"round": round},
        "join_board": {"round": round},
        "join_scores": {"round": round},
        "join_leaderboard": {"round": round},
        "record_score": {**base, "group": scored[0], "player": scored[1], "hole": scored[2],
                         "strokes": 5},
        "correct_score": {**base, "target": facts["score"], "strokes": 5, "reason": "misread"},
        "hole_completed": {**base, "group": group, "hole": hole, "at": at(8, 59)},
        "group_completed": {**base, "group": group, "hole": hole, "at": at(8, 59)},
        "share_positions": {**base, "group": "2", "share": True},
        "send_positions": {"round": round, "group": "2", "device_time": base["device_time"],
                           "fixes": [{"at": at(8, 59), "lon": 4.61, "lat": 50.69,
                                      "accuracy": 8}]},
        "correct_hole_time": {**base, "target": facts["tap"], "at": at(8, 41),
                              "reason": "late tap"},
        "void_event": {**base, "target": target, "reason": "wrong group"},
        "record_siren": {**base, "kind": "interruption", "at": at(11, 59)},
        "acknowledge_alert": {**base, "alert": alert},
        "decide_timing": {**base, "group": "2", "decision": "not_time", "reason": "ruling"},
        "tell_player_timed": {**base, "group": "1", "player": MARIE},
        "record_stroke": {**base, "group": "1", "player": MARIE, "hole": 2, "kind": "other",
                          "first_to_play": False,
                          "started": stroke_from.isoformat(),
                          "stopped": (stroke_from + timedelta(seconds=20)).isoformat()},
        "notify_player": {**base, "group": "1", "player": MARIE, "fault": facts["fault"]},
        "grant_time_credit": {**base, "group": "2", "minutes": 2, "reason": "ruling"},
        "stop_timing": {**base, "group": "1", "reason": "back in position"},
        "round_finish": {**base},
        "round_final": {**base},
        "round_reopen": {**base, "reason": "a card mis-added"},
    }[event]  # fmt: skip


#: fresh group ids and player names for the changes on the day (each success needs its own)
_fresh = itertools.count(1)


def change_stage(arena: Arena, event: str) -> dict[str, Any]:
    """Return the fields of a change ``event`` that succeeds on the own round now: it aims at
    a group added for it (as admin) to start at 16:30, so no group of the staged facts is touched
    and, the arena's clock starting at noon, the staged groups raise no alert."""
    n = next(_fresh)
    a, b, c = f"Late {n}a", f"Late {n}b", f"Late {n}c"
    g, h = f"X{n}", f"Y{n}"
    arena.staged += [g, h]
    if event == "change_add_group":
        return {"group": g, "start": "16:30", "tee": 1, "players": [a, {"name": b}],
                "reason": "late entries"}  # fmt: skip
    admin(arena, "change_add_group", group=g, start="16:30", tee=1, players=[a, b],
          reason="stage")  # fmt: skip
    if event in ("change_move_player", "change_swap"):
        admin(arena, "change_add_group", group=h, start="16:40", tee=1, players=[c],
              reason="stage")  # fmt: skip
    return {
        "change_withdraw": {"player": a, "reason": "no_show", "note": "called in sick"},
        "change_add_player": {"group": g, "player": {"name": c, "handicap": "12,4"},
                              "reason": "late entry"},
        "change_move_player": {"player": a, "to": h, "reason": "car sharing"},
        "change_swap": {"player": a, "other": c, "reason": "car sharing"},
        "change_start": {"group": g, "start": "16:50", "reason": "traffic"},
        "change_tee": {"group": g, "tee": 10, "reason": "tee 1 full"},
        "change_tees": {"player": a, "tees": "Red", "reason": "the red tees"},
        "change_remove_group": {"group": g, "reason": "all withdrew"},
        "change_void": {"target": admin(arena, "change_tee", group=g, tee=10,
                                        reason="stage")["id"], "reason": "wrong group"},
    }[event]  # fmt: skip


#: a change's fields on another round (valid in shape: refused for its round, after parsing)
OTHER_CHANGE = {
    "change_withdraw": {"player": MARIE, "reason": "no_show"},
    "change_add_player": {"group": "1", "player": {"name": "Zed"}, "reason": "x"},
    "change_move_player": {"player": MARIE, "to": "2", "reason": "x"},
    "change_swap": {"player": MARIE, "other": "Luc Côté", "reason": "x"},
    "change_start": {"group": "1", "start": "10:00", "reason": "x"},
    "change_tee": {"group": "1", "tee": 10, "reason": "x"},
    "change_tees": {"player": MARIE, "tees": "Red", "reason": "x"},
    "change_add_group": {"group": "Z", "start": "10:00", "tee": 1, "players": ["Zed"],
                         "reason": "x"},
    "change_remove_group": {"group": "1", "reason": "x"},
    "change_void": {"target": "6f1d3c52-5c2a-4f0e-9d0b-3a1c2b7d9e10", "reason": "x"},
}  # fmt: skip


def clear_staged(arena: Arena) -> None:
    """Take the groups staged for changes out of the draw again (those the change left in it),
    so the arena's field stays the size of a real one: every tick and snapshot judges each
    group, and hundreds of staged groups made each later command many times slower."""
    staged, arena.staged = arena.staged, []
    for group in staged:
        admin(arena, "change_remove_group", "unknown_group", group=group, reason="unstage")


def admin(arena: Arena, name: str, refusal: str | None = None, **fields: Any) -> dict:
    """Record a fact of the own round as the committee (every round), for a test to aim at."""
    body = {"id": str(uuid.uuid4()), "round": OWN, "device_time": arena.now().isoformat(),
            **fields}  # fmt: skip
    _, answer = arena.command(name, body, "admin")
    assert answer.get("ok") or answer["error"]["code"] == refusal, (name, answer)
    return answer


def open_alerts(arena: Arena) -> list[str]:
    """The keys of the own round's alerts nobody acknowledged yet."""
    alerts = arena.get(f"/api/rounds/{OWN}/snapshot", "admin")["snapshot"]["alerts"]
    return [a["key"] for a in alerts]


COMMANDS = sorted(edge.ROUTES)  # the HTTP mirror's; the joins are Socket.IO's only
ROUND_EVENTS = sorted(set(ROUTES) - {"clock_sync"})
#: the round's life: on the own round an allowed role's act would finish the shared arena's
#: round and lock its scores for every later test; those are refused on another round here,
#: their refusals by role over the wire are in tests/security/test_console.py, their success
#: on a round of its own in tests/integration/test_console.py
LIFE = {"round_finish", "round_final", "round_reopen"}
PUBLIC_EVENTS = {e for e, roles in access.EVENTS.items() if roles is access.PUBLIC}


def refused_and_unrecorded(arena: Arena, answer: Any, before: list, what: str) -> None:
    assert is_refusal(answer), (what, answer)
    assert answer["error"]["code"] not in ("internal_error",), (what, answer)
    assert arena.people_events() == before, f"{what} was refused but recorded something"


# -- Socket.IO -------------------------------------------------------------------------------


@pytest.mark.parametrize("role", SESSIONS, ids=lambda r: r or "no-session")
@pytest.mark.parametrize("event", ROUND_EVENTS)
def test_socket_events_on_another_round_are_refused_however_it_is_spelt(arena, event, role):
    before = arena.people_events()
    for how, spelling in OTHER_SPELLINGS.items():
        body = payload(arena, event, spelling, OTHER)
        answer = arena.emit(role, event, body)
        if event in PUBLIC_EVENTS:  # anybody's, for every round: the other round, canonical
            assert answer.get("ok") is True and answer["leaderboard"]["round"] == OTHER, answer
            assert arena.people_events() == before
            continue
        refused_and_unrecorded(arena, answer, before, f"{event} by {role} on {how}")
        if role is not None and access.allowed(event, role):
            # the round is read before the check: the refusal names it, never waves it on;
            # another club's round is refused as though it were not stored (issue 50)
            code = "unknown_round" if arena.clubs else "forbidden"
            assert answer["error"]["code"] == code and answer["error"]["field"] == "round"
    arena.assert_log_clean()


@pytest.mark.parametrize("role", SESSIONS, ids=lambda r: r or "no-session")
@pytest.mark.parametrize("event", sorted(set(ROUTES) - LIFE))
def test_socket_events_on_the_own_round_follow_the_permission_table(arena, event, role):
    body = payload(arena, event, OWN, OWN, role)  # (may record what it aims at, as admin)
    before = arena.people_events()
    answer = arena.emit(role, event, body)
    if access.allowed(event, role):
        assert isinstance(answer, dict) and answer.get("ok") is True, (event, role, answer)
    else:
        refused_and_unrecorded(arena, answer, before, f"{event} by {role}")
        assert answer["error"]["code"] == ("unauthorized" if role is None else "forbidden")
    clear_staged(arena)
    arena.assert_log_clean()


# -- HTTP commands ---------------------------------------------------------------------------


@pytest.mark.parametrize("role", SESSIONS, ids=lambda r: r or "no-session")
@pytest.mark.parametrize("event", COMMANDS)
def test_http_commands_on_another_round_are_refused_however_it_is_spelt(arena, event, role):
    before = arena.people_events()
    for how, spelling in OTHER_SPELLINGS.items():
        status, answer = arena.command(event, payload(arena, event, spelling, OTHER), role)
        refused_and_unrecorded(arena, answer, before, f"POST {event} by {role} on {how}")
        assert 400 <= status < 500, (status, answer)
    arena.assert_log_clean()


@pytest.mark.parametrize("role", SESSIONS, ids=lambda r: r or "no-session")
@pytest.mark.parametrize("event", sorted(set(COMMANDS) - LIFE))
def test_http_commands_on_the_own_round_follow_the_permission_table(arena, event, role):
    body = payload(arena, event, OWN, OWN, role)
    before = arena.people_events()
    status, answer = arena.command(event, body, role)
    if role is not None and access.allowed(event, role):
        assert status == 200 and answer.get("ok") is True, (event, role, answer)
    else:
        refused_and_unrecorded(arena, answer, before, f"POST {event} by {role}")
        assert status == (401 if role is None else 403)
    clear_staged(arena)
    arena.assert_log_clean()


# -- ids spelt another way ---------------------------------------------------------------------


#: what a marshal and a scorer may not void: the others' facts
NOT_THEIRS = {"marshal": ("stroke", "credit", "score"), "scorer": ("stroke", "credit", "tap")}


@pytest.mark.parametrize("role", sorted(NOT_THEIRS))
@pytest.mark.parametrize("transport", ["socket", "http"])
def test_a_marshal_or_a_scorer_cannot_void_anothers_fact_by_spelling_its_id_another_way(
    arena, transport, role
):
    before = arena.people_events()
    for fact in NOT_THEIRS[role]:
        for how, spelling in uuid_spellings(arena.facts[OWN][fact]).items():
            body = {"id": str(uuid.uuid4()), "round": OWN, "target": spelling,
                    "reason": "not mine"}  # fmt: skip
            if transport == "socket":
                answer = arena.emit(role, "void_event", body)
            else:
                answer = arena.command("void_event", body, role)[1]
            refused_and_unrecorded(arena, answer, before, f"void of a {fact} spelt {how}")
            assert answer["error"]["code"] == "forbidden", (how, answer)


def test_ids_of_another_rounds_facts_are_not_reachable_however_spelt(arena):
    before = arena.people_events()
    for how, spelling in uuid_spellings(arena.facts[OTHER]["tap"]).items():
        for role in ("committee", "referee", "marshal"):
            body = {"id": str(uuid.uuid4()), "round": OWN, "target": spelling,
                    "reason": "wrong group"}  # fmt: skip
            answer = arena.emit(role, "void_event", body)
            refused_and_unrecorded(arena, answer, before, f"void by {role} spelt {how}")
            assert answer["error"]["code"] == "unknown_target"


# -- HTTP reads and pages ------------------------------------------------------------------------

ROUND_PATHS = {
    "pace.api_board": "/api/rounds/{}/board",
    "pace.api_snapshot": "/api/rounds/{}/snapshot",
    "pace.api_status": "/api/rounds/{}/status",
    "pace.api_strip": "/api/rounds/{}/strip",
    "pace.api_geometry": "/api/rounds/{}/geometry",
    "positions.api_places": "/api/rounds/{}/places",
    "pace.api_events": "/api/rounds/{}/events",
    "referee.api_penalties": "/api/rounds/{}/penalties",
    "referee.api_group_penalties": "/api/rounds/{}/penalties/1",
    "referee.board_page": "/rounds/{}/board",
    "marshal.marshal_page": "/rounds/{}/marshal",
    "dashboard.dashboard_page": "/rounds/{}/dashboard",
    "referee.shotclock_page": "/rounds/{}/shotclock",
    "audit.audit_page": "/rounds/{}/audit",
    "audit.audit_csv": "/rounds/{}/audit.csv",
    "access.access_page": "/rounds/{}/access",
    "scoring.scorecard_page": "/rounds/{}/scorecard",
    "scoring.leaderboard_page": "/rounds/{}/leaderboard",
    "scoring.api_leaderboard": "/api/rounds/{}/leaderboard",
    "scoring.api_card": "/api/rounds/{}/cards/1",
    "scoring.api_results": "/api/rounds/{}/results",
}


@pytest.mark.parametrize("role", SESSIONS, ids=lambda r: r or "no-session")
@pytest.mark.parametrize("endpoint", sorted(ROUND_PATHS))
def test_round_pages_and_reads_follow_the_table_and_never_open_another_round(arena, endpoint, role):
    own = ROUND_PATHS[endpoint].format(OWN)
    status, headers, body = arena.request("GET", own, role)
    public = access.ENDPOINTS[endpoint] is access.PUBLIC
    if access.allowed(endpoint, role, access.ENDPOINTS):
        assert status == 200, (endpoint, role, status, body[:300])
    else:
        assert status in (302, 401, 403), (endpoint, role, status)
    for how, spelling in OTHER_SPELLINGS.items():
        path = ROUND_PATHS[endpoint].format(urllib.parse.quote(spelling, safe=""))
        status, headers, body = arena.request("GET", path, role)
        if public:  # the leaderboard is everybody's, of every round
            assert status == 200, (endpoint, role, how, status, body[:300])
            continue
        assert status in (302, 400, 401, 403, 404), (endpoint, role, how, status, body[:300])
        if status == 302:
            assert headers["Location"].startswith("/join?next=/"), headers["Location"]
    arena.assert_log_clean()


def test_posting_the_access_page_of_another_round_is_refused(arena):
    for role in ROLES:
        for how, spelling in OTHER_SPELLINGS.items():
            path = f"/rounds/{urllib.parse.quote(spelling, safe='')}/access"
            form = {"Content-Type": "application/x-www-form-urlencoded"}
            status, _, _ = arena.request("POST", path, role, b"role=marshal", form)
            assert status in (400, 401, 403, 404), (role, how, status)

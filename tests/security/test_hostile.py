"""Hostile payloads over the wire, from a role allowed to send them (issue 9).

Hypothesis mutates a valid payload of every command (surrogates, cut emoji, control
characters, NFC/NFD twins, deep nesting, huge strings, every UUID spelling, extra arguments)
and sends it to a real ``pace serve`` over Socket.IO and HTTP: no 500, no traceback in the
server's log, a refused payload records nothing, and every read (events, audit, CSV,
snapshot) still answers after. Then: a conflicting resend is refused for every event kind;
raw Engine.IO frames too deep for any JSON parser are answered, not crashed on; sockets
close at logout and when their code is revoked.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import unicodedata
import urllib.parse
import urllib.request
import uuid
from typing import Any

import pytest
import socketio
import websocket
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from livesupport import pace
from security.arena import OTHER, OWN, Arena, connect, is_refusal, uuid_spellings
from security.test_matrix import clear_staged, payload

from pace.web import access, edge
from pace.web.sockets import ROUTES

pytestmark = pytest.mark.e2e

WIRE = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)

COMMANDS = sorted(set(ROUTES) - {"clock_sync"})

#: text no stored string may hold, and the spellings that are the same name
SURROGATES = ["\ud800", "\udfff", "💥"[:1] + "\ud83d", "a\udc00b"]
CONTROLS = ["\x00", "\x07", "a\x1bb", "\x7f", "x\u0085y", "a\u200bb", "\u202eevil", "\ufeffR1"]


def sender(event: str) -> str:
    """A role the permission table lets send ``event`` (the narrowest one)."""
    # a scorer last: the positions' commands are its phone's alone (issue 48)
    for role in ("viewer", "marshal", "referee", "committee", "scorer"):
        if access.allowed(event, role):
            return role
    raise AssertionError(event)


def twins(text: str) -> list[str]:
    return [unicodedata.normalize("NFD", text), " " + text + "\u3000", text.upper()]


hostile_text = (
    st.sampled_from(SURROGATES + CONTROLS)
    | st.text(max_size=20).map(lambda s: s + "\ud800")
    | st.integers(min_value=201, max_value=50_000).map(lambda n: "é" * n)
    | st.text(st.characters(codec="utf-8"), max_size=30)
)
deep = st.integers(min_value=9, max_value=300).map(lambda n: json.loads("[" * n + "]" * n))
odd = st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | deep | st.just({})


@st.composite
def hostile(draw, arena: Arena, event: str) -> tuple[dict[str, Any] | list, dict[str, Any]]:
    """Return (payload, the valid payload it was made from)."""
    valid = payload(arena, event, OWN, OWN)
    body = dict(valid)
    fields = sorted(k for k in body if k != "device_time")
    how = draw(st.sampled_from(["text", "text", "odd", "uuid", "twin", "extra", "nest"]))
    field = draw(st.sampled_from(fields))
    if how == "text":
        body[field] = draw(hostile_text)
    elif how == "odd":
        body[field] = draw(odd)
    elif how == "uuid" and isinstance(body.get(field), str):
        u = str(uuid.uuid4())
        spelt = draw(st.sampled_from(sorted(uuid_spellings(u).values())))
        broken = [spelt, spelt + "x", "٣" * 32, spelt.replace("-", "")[:31]]
        body[field] = draw(st.sampled_from(broken))
    elif how == "twin" and isinstance(body.get(field), str):
        body[field] = draw(st.sampled_from(twins(body[field])))
    elif how == "extra":
        body[draw(st.sampled_from(["ROUND", "round ", "\ud800", "__proto__"]))] = 1
    else:
        return draw(deep), valid
    return body, valid


def reads_answer(arena: Arena) -> None:
    """Every read of both rounds still answers (nothing stored broke them)."""
    for round in (OWN, OTHER):
        q = urllib.parse.quote(round, safe="")
        for path in (
            f"/api/rounds/{q}/events", f"/api/rounds/{q}/snapshot", f"/rounds/{q}/audit",
            f"/rounds/{q}/audit.csv", f"/api/rounds/{q}/penalties",
            f"/api/rounds/{q}/leaderboard", f"/api/rounds/{q}/cards/1",
            f"/api/rounds/{q}/results",
        ):  # fmt: skip
            status, _, body = arena.request("GET", path, "admin")
            assert status == 200, (path, status, body[:300])
            body.decode("utf-8")  # valid UTF-8: no lone surrogate was stored


#: the committee's changes on the day: each valid one folds the round's log again, so they are
#: attacked on an arena of their own (tests/security/test_hostile_changes.py), beside this one
CHANGES = sorted(e for e in COMMANDS if e.startswith("change_"))


def attack_with_hostile_payloads(arena: Arena, event: str, transport: str) -> None:
    """Send Hypothesis' hostile payloads of ``event`` over ``transport`` from an allowed role:
    each is answered, a refused one records nothing, and every read answers after."""
    role = sender(event)

    @WIRE
    @given(data=st.data())
    def attack(data):
        body, valid = data.draw(hostile(arena, event))
        before = arena.people_events()
        if transport == "socket":
            answer = arena.emit(role, event, body)
        else:
            status, answer = arena.command(event, body, role)
            assert status < 500, (status, answer)
        assert isinstance(answer, dict) and isinstance(answer.get("ok"), bool), answer
        if not answer["ok"]:
            assert is_refusal(answer), answer
            assert arena.people_events() == before, f"refused {body!r:.200} recorded something"
        clear_staged(arena)

    attack()
    reads_answer(arena)
    arena.assert_log_clean()


def transports(events: list[str]) -> list[tuple[str, str]]:
    """Each event over Socket.IO, and over HTTP where the mirror has it."""
    return [(e, "socket") for e in events] + [(e, "http") for e in events if e in edge.ROUTES]


#: the round's life: a valid payload drawn for ``round_final`` made the shared arena's results
#: final and every later test's facts refused (seen once in CI, as the tests' order changed);
#: left out here (their refusals by role over the wire: tests/security/test_console.py)
LIFE = {"round_finish", "round_final", "round_reopen"}


@pytest.mark.parametrize(
    ("event", "transport"),
    transports([e for e in COMMANDS if e not in CHANGES and e not in LIFE]),
)
def test_hostile_payloads_from_an_allowed_role_are_answered_and_refused_ones_record_nothing(
    arena, event, transport
):
    attack_with_hostile_payloads(arena, event, transport)


@pytest.mark.parametrize("event", sorted(ROUTES))
def test_an_event_with_a_second_argument_is_an_invalid_payload(arena, event):
    role = sender(event)
    body = payload(arena, event, OWN, OWN)
    before = arena.people_events()
    answer = arena.emit(role, event, (body, {"extra": 1}))
    assert is_refusal(answer) and answer["error"]["code"] == "invalid_payload", answer
    assert arena.people_events() == before
    arena.assert_log_clean()


@pytest.mark.parametrize("event", ["hole_complete", "record_score ", "\u00a0join_round", "x" * 300])
def test_an_event_pace_does_not_have_is_answered_not_left_without_an_ack(arena, event):
    before = arena.people_events()
    answer = arena.emit("committee", event, (payload(arena, "hole_completed", OWN, OWN),))
    assert is_refusal(answer) and answer["error"]["code"] == "unknown_command", answer
    assert len(answer["error"]["message"]) < 600, answer
    assert arena.people_events() == before
    arena.assert_log_clean()


def test_the_same_name_spelt_another_way_is_the_same_name(arena):
    # NFD and padding: the same round, group and player, accepted and stored in one spelling
    body = payload(arena, "decide_timing", OWN, OWN) | {"group": "4", "decision": "time"}
    arena.emit("committee", "decide_timing", body)  # (already_timed when run again)
    body = payload(arena, "tell_player_timed", OWN, OWN)
    body |= {"round": "\u3000" + OWN + "\n", "group": " 4\t",
             "player": " " + unicodedata.normalize("NFD", "Éric Bouchard") + "\u00a0"}  # fmt: skip
    answer = arena.emit("referee", "tell_player_timed", body)
    assert answer["ok"] is True, answer
    stored = [e for e in arena.get(f"/api/rounds/{OWN}/events", "admin")["events"]
              if e["id"] == answer["id"]]  # fmt: skip
    assert stored[0]["round"] == OWN
    assert stored[0]["payload"] == {"group": "4", "player": "Éric Bouchard"}


# -- resends ---------------------------------------------------------------------------------

#: for each command, a field that changes the fact (a resend with it changed is a conflict)
CHANGED = {
    "hole_completed": ("at", lambda v: v.replace(":59:00", ":58:00")),
    "correct_hole_time": ("reason", lambda v: v + " (2)"),
    "void_event": ("reason", lambda v: v + " (2)"),
    "record_siren": ("kind", lambda v: "suspension"),
    "acknowledge_alert": ("note", lambda v: "another note"),
    "decide_timing": ("reason", lambda v: "lost_ball"),
    "tell_player_timed": ("player", lambda v: "Julie Gagnon"),
    "record_stroke": ("kind", lambda v: "approach"),
    "notify_player": ("fault", lambda v: v + "x"),
    "grant_time_credit": ("minutes", lambda v: 3),
    "stop_timing": ("reason", lambda v: "another reason"),
    "record_score": ("strokes", lambda v: 6),
    "correct_score": ("reason", lambda v: v + " (2)"),
    "change_withdraw": ("note", lambda v: v + " (2)"),
    **{name: ("reason", lambda v: v + " (2)") for name in (
        "change_add_player", "change_move_player", "change_swap", "change_start", "change_tee",
        "change_tees", "change_add_group", "change_remove_group", "change_void")},
}  # fmt: skip


@pytest.mark.parametrize("event", sorted(CHANGED))
def test_a_resend_of_the_same_id_with_another_fact_is_refused_for_every_kind(arena, event):
    role = "committee"
    body = payload(arena, event, OWN, OWN)
    first = arena.emit(role, event, body)
    assert first["ok"] is True, first
    again = arena.emit(role, event, {**body, "device_time": arena.now().isoformat()})
    assert again["ok"] is True and again["duplicate"] is True and again["seq"] == first["seq"]
    # the same id spelt in capitals is the same id: a resend, not a new fact
    upper = arena.command(event, {**body, "id": body["id"].upper()}, role)[1]
    assert upper["ok"] is True and upper["duplicate"] is True, upper
    field, change = CHANGED[event]
    before = arena.people_events()
    changed = {**body, field: change(body.get(field, ""))}
    for answer in (arena.emit(role, event, changed), arena.command(event, changed, role)[1]):
        assert is_refusal(answer) and answer["error"]["code"] == "event_conflict", answer
        assert answer["error"]["field"] == "id"
    # and an id of another kind of fact is a conflict too
    kind = "record_siren" if event != "record_siren" else "grant_time_credit"
    other = arena.emit(role, kind, payload(arena, kind, OWN, OWN) | {"id": body["id"]})
    assert other["error"]["code"] == "event_conflict", other
    assert arena.people_events() == before
    clear_staged(arena)


# -- raw frames ------------------------------------------------------------------------------


def raw_socket(arena: Arena, token: str) -> websocket.WebSocket:
    """An Engine.IO 4 websocket connected to namespace ``/`` with ``token``, by hand."""
    ws = websocket.create_connection(
        arena.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket", timeout=10
    )
    assert ws.recv().startswith("0")  # the Engine.IO handshake
    ws.send("40" + json.dumps({"token": token, "device": "raw"}))
    while not ws.recv().startswith("40"):  # (a clock probe may come first)
        pass
    return ws


def raw_ack(ws: websocket.WebSocket, ack_id: int) -> Any:
    """Return the data of the ack ``ack_id`` (answering pings and skipping events)."""
    while True:
        frame = ws.recv()
        if frame == "2":
            ws.send("3")
        elif frame.startswith(f"43{ack_id}["):
            return json.loads(frame[len(f"43{ack_id}") :])[0]


@pytest.mark.parametrize(
    "text",
    [
        '["hole_completed",' + "[" * 5000 + "]" * 5000 + "]",
        '["void_event",{"id":' + "[" * 100_000 + "]" * 100_000 + "}]",
        '["hole_completed",{"round":"\\ud800"',
        '["join_round",{"round":"R1"},{"round":"R1"}]',
    ],
    ids=["deep", "deeper", "broken", "two-arguments"],
)
def test_raw_frames_no_parser_can_read_are_answered_with_the_error_shape(arena, text):
    before = arena.people_events()
    ws = raw_socket(arena, arena.token("committee"))
    try:
        ws.send("427" + text)
        answer = raw_ack(ws, 7)
        assert is_refusal(answer) and answer["error"]["code"] == "invalid_payload", answer
        ws.send('428["clock_sync",{}]')  # the connection still works
        assert raw_ack(ws, 8)["ok"] is True
    finally:
        ws.close()
    assert arena.people_events() == before
    arena.assert_log_clean()


def test_deep_json_over_http_is_invalid_json_not_a_500(arena):
    for path in ("/api/commands/hole_completed", "/api/session"):
        status, headers, body = arena.request(
            "POST", path, "committee", b"[" * 5000, {"Content-Type": "application/json"}
        )
        assert status == 400 and json.loads(body)["error"]["code"] == "invalid_json", body
    status, _, body = arena.request(
        "POST", "/api/commands/hole_completed", "committee", b" " * 70_000,
        {"Content-Type": "application/json"},
    )  # fmt: skip
    assert status == 413 and json.loads(body)["error"]["code"] == "payload_too_large"
    arena.assert_log_clean()


def test_hostile_text_in_auth_and_codes_is_refused_and_never_stored(arena):
    for auth in ({"device": "\ud800"}, {"name": "a\x00b"}, {"name": "\u202e" + "x"}):
        client = socketio.SimpleClient()
        with pytest.raises(socketio.exceptions.ConnectionError):
            client.connect(arena.url, auth={"token": arena.token("marshal"), **auth},
                           transports=["websocket"], wait_timeout=5)  # fmt: skip
    for code in ("\ud800" * 8, "ABCD-\x00EFG", "ＡＢＣＤ-ＥＦＧＨ"):
        status, _, body = arena.request(
            "POST", "/api/session", None, json.dumps({"code": code}).encode(),
            {"Content-Type": "application/json"},
        )  # fmt: skip
        assert status in (400, 429) and json.loads(body)["ok"] is False, body
    reads_answer(arena)
    arena.assert_log_clean()


# -- sessions that end -----------------------------------------------------------------------


def _browser(arena: Arena, role: str) -> tuple[urllib.request.OpenerDirector, str]:
    """Sign in as a browser does (a /join?code= link); return its opener and cookie header."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{arena.url}/join?code={arena.server.code(role)}", timeout=10).read()
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return opener, cookie


def _csrf(opener: urllib.request.OpenerDirector, url: str) -> str:
    page = opener.open(url, timeout=10).read().decode()
    return re.search(r'name="csrf" value="([^"]+)"', page)[1]


def _closed(client: socketio.SimpleClient) -> bool:
    """Wait (bounded) until the server closes ``client``'s connection."""
    try:
        for _ in range(100):
            client.receive(timeout=0.1)
    except socketio.exceptions.DisconnectedError:
        return True
    except socketio.exceptions.TimeoutError:
        return not client.connected
    return not client.connected


def test_logout_closes_the_sessions_sockets(arena):
    opener, cookie = _browser(arena, "referee")
    client = socketio.SimpleClient()
    client.connect(arena.url, headers={"Cookie": cookie}, transports=["websocket"])
    assert client.call("join_round", {"round": OWN}, timeout=10)["ok"] is True
    csrf = _csrf(opener, f"{arena.url}/")
    opener.open(
        urllib.request.Request(f"{arena.url}/logout", data=f"csrf={csrf}".encode(), method="POST"),
        timeout=10,
    ).read()
    assert _closed(client), "a socket of the ended session still hears the round"
    client.disconnect()


def test_revoking_a_code_on_the_access_page_ends_its_sessions_and_their_sockets(arena):
    code = arena.server.code("marshal")
    token = arena.server.post_json("/api/session", {"code": code}, token="")["token"]
    client = socketio.SimpleClient()
    client.connect(arena.url, auth={"token": token, "device": "doomed"}, transports=["websocket"])
    assert client.call("join_round", {"round": OWN}, timeout=10)["ok"] is True
    listed = pace("access", "list", "--round", OWN, "--db", str(arena.server.db),
                  cwd=arena.server.db.parent).stdout.splitlines()  # fmt: skip
    code_id = [line.split("\t")[0] for line in listed if "\tmarshal\t" in line][-1]
    opener, _ = _browser(arena, "committee")
    page = f"{arena.url}/rounds/{OWN}/access"
    assert f'name="revoke" value="{code_id}"' in opener.open(page, timeout=10).read().decode()
    csrf = _csrf(opener, page)
    opener.open(
        urllib.request.Request(page, data=f"csrf={csrf}&revoke={code_id}".encode(), method="POST"),
        timeout=10,
    ).read()
    assert _closed(client), "a socket of the revoked code still hears the round"
    status, _, _ = arena.request("GET", f"/api/rounds/{OWN}/events", None,
                                 headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert status == 401
    again = arena.server.post_json("/api/session", {"code": code}, token="")
    assert again["error"]["code"] == "invalid_code"
    client.disconnect()


def test_a_fresh_connection_still_works_after_the_whole_module(arena):
    client = connect(arena, "referee", device="after")
    try:
        assert client.call("join_round", {"round": OWN}, timeout=10)["ok"] is True
    finally:
        client.disconnect()
    reads_answer(arena)


def test_the_stored_facts_are_followed_only_when_asked_and_never_by_a_marshal(arena):
    # a referee's page does not hear a tap's stored event (no page renders it: issue 37); a
    # tool asks for it with ``facts``; a marshal's phone may not (its room hears what its page
    # uses); a ``facts`` that is not a boolean is refused naming the field
    plain, tool, phone = (connect(arena, role, device=f"facts-{role}-{n}")
                          for n, role in enumerate(("referee", "referee", "marshal")))  # fmt: skip
    try:
        assert plain.call("join_round", {"round": OWN}, timeout=10)["ok"] is True
        assert tool.call("join_round", {"round": OWN, "facts": True}, timeout=10)["ok"] is True
        refused = phone.call("join_round", {"round": OWN, "holes": [3], "facts": True}, timeout=10)
        assert is_refusal(refused) and refused["error"]["code"] == "forbidden", refused
        assert "stored facts" in refused["error"]["message"]
        for bad in ("yes", 1, None, [], {"x": 1}):
            answer = tool.call("join_round", {"round": OWN, "facts": bad}, timeout=10)
            assert is_refusal(answer) and answer["error"]["code"] == "invalid_payload", answer
            assert answer["error"].get("field") == "facts", answer
        assert tool.call("join_round", {"round": OWN, "facts": True}, timeout=10)["ok"] is True
        body = payload(arena, "hole_completed", OWN, OWN)
        ack = arena.emit("marshal", "hole_completed", body)
        assert ack["ok"] is True, ack

        def heard(client: socketio.SimpleClient, until: str) -> list[str]:
            names = []
            while True:
                name, *data = client.receive(timeout=10)
                names.append(name)
                if name == until and data[0]["group"]["group"] == body["group"]:
                    return names

        assert "hole_logged" in heard(tool, "group_updated")
        assert "hole_logged" not in heard(plain, "group_updated")
    finally:
        for client in (plain, tool, phone):
            client.disconnect()
    arena.assert_log_clean()


@pytest.mark.parametrize("event", ["hole_completed", "join_round"])
def test_bytes_in_a_payload_are_an_invalid_payload_and_the_socket_goes_on(arena, event):
    """A client may send a binary event (python-socketio sends bytes as an attachment); pace
    reads only JSON, and its own packets never carry bytes (``WirePacket``)."""
    role = sender(event)
    body = payload(arena, event, OWN, OWN)
    body["round"] = b"R1"
    before = arena.people_events()
    answer = arena.emit(role, event, (body,))
    assert is_refusal(answer) and answer["error"]["code"] == "invalid_payload", answer
    assert "round" in answer["error"]["message"], answer
    again = arena.emit(role, "clock_sync", ({},))
    assert again["ok"] is True, again
    assert arena.people_events() == before
    arena.assert_log_clean()

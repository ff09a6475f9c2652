"""Hostile input (issue 6, "Done when": fuzz test).

Thousands of malformed or hostile payloads over Socket.IO (Flask-SocketIO's test client, every
client → server event) and HTTP (``POST /api/commands/<name>``, ``GET`` with odd parameters):
wrong types, missing and extra fields, huge strings, unknown groups and holes, instants far in
the future or the past, script injection. The app is built with ``testing=True``, so an
unexpected exception is raised into the test instead of being answered ``internal_error``.
Every answer must have the shared error shape, and nothing may change: the log, the statuses
and what the other pages hear.

Most payloads are one mutation away from a valid one (a valid payload is checked to be
accepted in its own app), so they reach the deep checks and not only the first one. Names
shown in the pages are escaped, and the pages' JavaScript never writes HTML.
"""

from __future__ import annotations

import json
import re
import string
import urllib.parse
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from drivers import COURSE, DAY, DRAW, ROUND, TIMEZONE, assert_error, local
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pace.rules import names
from pace.scheduler import PaceScheduler
from pace.web import errors, sockets

ROOT = Path(__file__).resolve().parents[2]

FUZZ = settings(
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

GROUPS = {"1", "2", "3", "4", "5", "6"}
SCRIPT = "<script>alert(1)</script>"
HOSTILE = [
    SCRIPT,
    '"><img src=x onerror=alert(1)>',
    "'; DROP TABLE events; --",
    "{{ 7*7 }}",
    "../../etc/passwd",
    "\u202eevil",
    "\x00",
    "\r\n",
    "💥" * 50,
    "x" * 10_000,
    "",
    " ",
    "null",
]

# -- the valid payloads the mutations start from ---------------------------------------------

#: Fields each event requires (here: the test client never answers clock probes, so the
#: timed commands need ``device_time``) and the ones it may have.
REQUIRED = {
    "join_round": ("round",),
    "hole_completed": ("id", "round", "group", "hole", "at", "device_time"),
    "correct_hole_time": ("id", "round", "target", "at", "device_time", "reason"),
    "void_event": ("id", "round", "target", "reason"),
    "record_siren": ("id", "round", "kind", "at", "device_time"),
    "acknowledge_alert": ("id", "round", "alert"),
}
OPTIONAL = {
    "join_round": ("holes",),
    "void_event": ("device_time",),
    "acknowledge_alert": ("note", "device_time"),
}
COMMANDS = tuple(e for e in REQUIRED if e != "join_round")
#: Socket.IO events that only ask (they change nothing and answer ``ok`` to anything).
QUERIES = ("clock_sync",)


def handlers() -> set[str]:
    """Every client → server event the namespace handles (future ones included)."""
    return set(sockets.ROUTES)


def valid(event: str, world: dict[str, str]) -> dict[str, Any]:
    """A payload of ``event`` the server accepts (at 09:10 on the round's day)."""
    now = local("09:10").isoformat()
    return {
        "join_round": {"round": ROUND, "holes": [1, 2]},
        "hole_completed": {
            "id": str(uuid.uuid4()),
            "round": ROUND,
            "group": "2",
            "hole": 1,
            "at": local("08:24").isoformat(),
            "device_time": now,
        },
        "correct_hole_time": {
            "id": str(uuid.uuid4()),
            "round": ROUND,
            "target": world["tap"],
            "at": local("08:14").isoformat(),
            "device_time": now,
            "reason": "late tap",
        },
        "void_event": {
            "id": str(uuid.uuid4()),
            "round": ROUND,
            "target": world["tap"],
            "reason": "wrong group",
        },
        "record_siren": {
            "id": str(uuid.uuid4()),
            "round": ROUND,
            "kind": "suspension",
            "at": local("09:00").isoformat(),
            "device_time": now,
        },
        "acknowledge_alert": {
            "id": str(uuid.uuid4()),
            "round": ROUND,
            "alert": world["alert"],
            "note": "seen",
        },
    }[event]


# -- hostile values ------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)
wrong_types = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.lists(json_values, max_size=3)
    | st.dictionaries(st.text(max_size=8), json_values, max_size=3)
)
texts = st.sampled_from(HOSTILE) | st.text(max_size=60)
huge = st.integers(min_value=501, max_value=200_000).map(lambda n: "é" * n)
control = st.text(min_size=1, max_size=5).map(lambda s: s + "\x07" + s)


def instant_text(dt: datetime) -> st.SearchStrategy[str]:
    return st.sampled_from([dt.isoformat(), dt.astimezone(UTC).isoformat().replace("+00:00", "Z")])


# Instants that no command accepts: after the server's clock (09:10, 30 s tolerance), on
# another day, or not instants at all.
future = st.integers(min_value=31, max_value=75 * 365 * 86400).map(
    lambda s: local("09:10") + timedelta(seconds=s)
)
other_day = st.datetimes(
    min_value=datetime(2000, 1, 2), max_value=datetime(2099, 12, 30), timezones=st.just(UTC)
).filter(lambda d: d.astimezone(local("09:10").tzinfo).date() != DAY)
malformed_instant = (
    st.sampled_from(
        [
            "2026-06-14T08:24:00",  # no offset
            "2026-06-14",
            "08:24",
            "1999-06-14T08:24:00+02:00",
            "2101-06-14T08:24:00+02:00",
            "2026-13-14T08:24:00+02:00",
            "2026-06-14T25:00:00+02:00",
            "2026-06-14T08:24:00+02:00" + "0" * 40,
            "yesterday",
        ]
    )
    | texts.filter(lambda s: not _parses(s))
    | wrong_types
)
bad_instant = future.flatmap(instant_text) | other_day.flatmap(instant_text) | malformed_instant
before_start = st.integers(min_value=1, max_value=8 * 3600 - 1).map(
    lambda s: (local("08:00") - timedelta(seconds=s)).isoformat()
)
# device_time: not an instant, or two days or more away (the corrected instant leaves the day)
bad_device_time = malformed_instant | st.integers(
    min_value=2 * 86400, max_value=40 * 86400
).flatmap(
    lambda s: st.sampled_from(
        [local("09:10") + timedelta(seconds=s), local("09:10") - timedelta(seconds=s)]
    )
).map(lambda d: d.isoformat())


def _parses(text: str) -> bool:
    try:
        datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _not_uuid(value: object) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return True
    return not isinstance(value, str)


def bad_values(event: str, field: str, world: dict[str, str]) -> st.SearchStrategy[Any]:
    """Values of ``field`` that make a valid ``event`` payload invalid, whatever else it holds."""
    not_text = wrong_types.filter(lambda v: not isinstance(v, str))
    empty = st.sampled_from(["", "   ", "\t"])
    if field in ("id", "target"):
        choices = (
            not_text | texts.filter(_not_uuid) | st.uuids().map(lambda u: str(u).upper() + "x")
        )
        if field == "id":  # an id already stored with another fact: event_conflict
            choices |= st.sampled_from([world["tap"], world["alert_id"]])
        else:  # no such event, or one of a kind that cannot be changed
            choices |= st.uuids().map(str) | st.just(world["alert_id"])
        return choices
    if field == "round":
        return not_text | huge | control | texts.filter(lambda s: s.strip() != ROUND)
    if field == "group":
        return not_text | huge | control | texts.filter(lambda s: s.strip() not in GROUPS)
    if field == "hole":
        return (
            wrong_types.filter(
                lambda v: not isinstance(v, int) or isinstance(v, bool) or v > 18 or v < 1
            )
            | st.integers(min_value=19, max_value=99)
            | st.integers(max_value=0)
            | st.integers(min_value=100)
            | texts.filter(lambda s: not re.fullmatch(r"\s*\d{1,3}\s*", s) or not 1 <= int(s) <= 18)
        )
    if field == "at":
        if event in ("hole_completed", "correct_hole_time"):
            return bad_instant | before_start
        return bad_instant
    if field == "device_time":
        # a clock off by days is still a clock: only the timed commands use the offset
        return bad_device_time if field in REQUIRED[event] else malformed_instant
    if field == "reason":
        return not_text | huge | control | empty
    if field == "note":
        return (
            wrong_types.filter(lambda v: v not in (None, "") and not isinstance(v, str))
            | huge
            | control
        )
    if field == "kind":
        return (
            not_text
            | control
            | texts.filter(lambda s: s.strip() not in ("interruption", "suspension", "resume"))
        )
    if field == "alert":
        return not_text | huge | control | texts.filter(lambda s: s.strip() != world["alert"])
    if field == "holes":
        bad_hole = (
            st.integers(max_value=0)
            | st.integers(min_value=100)
            | texts.filter(lambda s: not re.fullmatch(r"\s*\d{1,3}\s*", s) or not 1 <= int(s) <= 99)
            | wrong_types.filter(lambda v: not isinstance(v, int | str) or isinstance(v, bool))
        )
        return (
            st.lists(st.integers(1, 18), min_size=37, max_size=60)
            | st.lists(bad_hole, min_size=1, max_size=3).flatmap(
                lambda bad: st.lists(st.integers(1, 18), max_size=3).map(lambda ok: ok + bad)
            )
            | st.sampled_from(["1,2", 7, 1.5, {"1": True}, True])
        )
    raise AssertionError(f"no bad values for {event}.{field}")


@st.composite
def hostile_payload(draw, event: str, world: dict[str, str]) -> Any:
    """A payload of ``event`` that the server must refuse."""
    payload = valid(event, world)
    fields = REQUIRED[event] + OPTIONAL.get(event, ())
    allowed = set(fields)
    how = draw(st.sampled_from(["missing", "extra", "value", "value", "values", "garbage"]))
    if how == "missing":
        del payload[draw(st.sampled_from(REQUIRED[event]))]
    elif how == "extra":
        key = draw(
            st.sampled_from(["__proto__", "constructor", "ID", "Round", "groupe", SCRIPT])
            | st.text(min_size=1, max_size=20)
        )
        if key in allowed:
            key += "_"
        payload[key] = draw(json_values)
    elif how == "value":
        field = draw(st.sampled_from(fields))
        bad = bad_values(event, field, world)
        if field not in REQUIRED[event]:  # null is how an optional field is left out
            bad = bad.filter(lambda v: v is not None)
        payload[field] = draw(bad)
    elif how == "values":  # several bad fields at once; null for some required ones
        for field in draw(st.lists(st.sampled_from(fields), min_size=2, max_size=4, unique=True)):
            bad = bad_values(event, field, world)
            if field not in REQUIRED[event]:
                bad = bad.filter(lambda v: v is not None)
            payload[field] = draw(bad | (st.none() if field in REQUIRED[event] else st.nothing()))
    else:
        payload = draw(
            json_values.filter(lambda v: not isinstance(v, dict))
            | st.dictionaries(
                st.text(max_size=10).filter(lambda k: k not in allowed),
                json_values,
                min_size=1,
                max_size=5,
            )
        )
    return payload


# -- the world the payloads fall on ------------------------------------------------------------


@pytest.fixture
def world(app, client, connect) -> dict[str, Any]:
    """Round R1 at 09:10 with one tap (group 1, hole 1) and open alerts; a dashboard listens."""
    marshal = connect("marshal", "fuzz-phone")
    tap = str(uuid.uuid4())
    ack = marshal.emit(
        "hole_completed",
        {
            "id": tap,
            "round": ROUND,
            "group": "1",
            "hole": 1,
            "at": local("08:40").isoformat(),
            "device_time": local("09:10").isoformat(),
        },
        callback=True,
    )
    assert ack["ok"], ack
    ext = app.extensions["pace"]
    PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5).tick(ROUND)
    alerts = client.get(f"/api/rounds/{ROUND}/snapshot").json["snapshot"]["alerts"]
    assert alerts, "the fixture needs an open alert"
    dashboard = connect("referee", "fuzz-dashboard")
    assert dashboard.emit("join_round", {"round": ROUND}, callback=True)["ok"]
    dashboard.get_received()
    marshal.get_received()
    return {
        "tap": tap,
        "alert": alerts[0]["key"],
        "alert_id": alerts[0]["id"],
        "marshal": marshal,
        "dashboard": dashboard,
        "client": client,
        "app": app,
    }


def state(world: dict[str, Any]) -> tuple:
    """What must not change: the log and the statuses (at the server's now and later)."""
    client = world["client"]
    events = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    status = client.get(f"/api/rounds/{ROUND}/status").json
    later = client.get(f"/api/rounds/{ROUND}/status?at=13:00").json
    return len(events), events[-1]["seq"], status, later


def assert_nothing_changed(world: dict[str, Any], before: tuple) -> None:
    assert state(world) == before
    assert world["dashboard"].get_received() == [], "a refused command was broadcast"


def test_each_valid_payload_is_accepted(app, world, connect):
    # the fuzzed payloads are one mutation away from these: they reach the deep checks
    phone = connect("committee", "valid-phone")  # sirens are the committee's
    for event in REQUIRED:
        ack = phone.emit(event, valid(event, world), callback=True)
        assert isinstance(ack, dict) and ack["ok"], (event, ack)
    assert handlers() >= set(REQUIRED) | set(QUERIES)


# -- Socket.IO ---------------------------------------------------------------------------------


@FUZZ
@given(data=st.data())
def test_hostile_socket_payloads_are_refused_and_change_nothing(world, data):
    before = state(world)
    event = data.draw(st.sampled_from(sorted(REQUIRED)), label="event")
    payload = data.draw(hostile_payload(event, world), label="payload")
    answer = world["marshal"].emit(event, payload, callback=True)
    assert_error_shape(answer)
    assert_nothing_changed(world, before)
    world["marshal"].get_received()


@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_any_event_with_garbage_raises_nothing(world, data):
    # every handler, the ones added after this test was written included
    before = state(world)
    event = data.draw(st.sampled_from(sorted(handlers())), label="event")
    payload = data.draw(json_values, label="payload")
    if isinstance(payload, dict) and event in REQUIRED:
        payload.setdefault("\u0000unknown", 1)  # never a valid payload by accident
    answer = world["marshal"].emit(event, payload, callback=True)
    if event in REQUIRED:
        assert_error_shape(answer)
    else:
        assert isinstance(answer, dict) and isinstance(answer.get("ok"), bool), answer
        if not answer["ok"]:
            assert_error_shape(answer)
    assert_nothing_changed(world, before)
    world["marshal"].get_received()


@settings(FUZZ, max_examples=200)
# (a bare number cannot be a CONNECT payload: the protocol would read its digits as an ack id)
@given(
    auth=json_values.filter(lambda v: isinstance(v, bool) or not isinstance(v, int | float)),
    payload=json_values,
)
def test_a_connection_with_hostile_auth_is_a_plain_marshal(world, connect, app, auth, payload):
    socketio = app.extensions["pace"].socketio
    c = socketio.test_client(app, flask_test_client=world["client"], auth=auth)
    try:
        if not c.is_connected():  # refused only for a device or name that cannot be stored
            assert isinstance(auth, dict) and any(
                isinstance(auth.get(k), str) and names.problem(auth[k].strip()) is not None
                for k in ("device", "name")
            ), auth
            return
        answer = c.emit(
            "hole_completed",
            payload if not isinstance(payload, dict) else {**payload, "x_": 1},
            callback=True,
        )
        assert_error_shape(answer)
    finally:
        c.disconnect()
        type(c).clients.pop(c.eio_sid, None)


def assert_error_shape(answer: Any, *, short: bool = True) -> None:
    assert isinstance(answer, dict), answer
    assert answer.get("ok") is False, answer
    assert set(answer) == {"ok", "error"}, answer
    error = answer["error"]
    assert isinstance(error, dict) and set(error) == {"code", "message", "field"}, answer
    assert isinstance(error["code"], str) and re.fullmatch(r"[a-z_]+", error["code"]), answer
    assert error["code"] != "internal_error", answer
    assert isinstance(error["message"], str) and error["message"].strip(), answer
    assert error["field"] is None or isinstance(error["field"], str), answer
    if short:  # a message quotes at most a short piece of a payload (a URL may be quoted whole)
        assert len(error["message"]) < 1000, answer


# -- HTTP ----------------------------------------------------------------------------------------

header_text = st.text(alphabet=string.printable.strip() + " ", max_size=80)


@FUZZ
@given(data=st.data())
def test_hostile_http_commands_are_refused_and_change_nothing(world, data):
    before = state(world)
    client = world["client"]
    name = data.draw(st.sampled_from(COMMANDS), label="name")
    headers = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "X-Pace-Role": header_text,
                "X-Pace-Device": header_text,
                "X-Pace-Name": header_text,
            },
        ),
        label="headers",
    )
    how = data.draw(st.sampled_from(["payload", "payload", "payload", "raw", "name"]), label="how")
    if how == "payload":
        payload = data.draw(hostile_payload(name, world), label="payload")
        answer = client.post(f"/api/commands/{name}", json=payload, headers=headers)
    elif how == "raw":
        body = data.draw(
            st.binary(max_size=200)
            | st.sampled_from(
                [b"", b"null", b"{", b"[1, 2]", b'"text"', b'{"id": NaN}', b"\xff\xfe"]
            ),
            label="body",
        )
        content_type = data.draw(
            st.sampled_from(
                ["application/json", "text/plain", "application/x-www-form-urlencoded"]
            ),
            label="content_type",
        )
        answer = client.post(
            f"/api/commands/{name}", data=body, content_type=content_type, headers=headers
        )
    else:
        odd = data.draw(
            texts.filter(lambda s: s not in COMMANDS and "/" not in s and s.strip()), label="odd"
        )
        answer = client.post(
            f"/api/commands/{urllib.parse.quote(odd, safe='')}", json=valid(name, world)
        )
    assert_http_error(answer)
    assert_nothing_changed(world, before)


@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_any_http_command_with_garbage_raises_nothing(world, data):
    # every command of the HTTP mirror, the ones added after this test was written included
    from pace.web import http

    before = state(world)
    name = data.draw(st.sampled_from(sorted(http.COMMANDS)), label="name")
    body = data.draw(json_values, label="body")
    if isinstance(body, dict):
        body["\u0000unknown"] = 1  # never a valid payload by accident
    answer = world["client"].post(f"/api/commands/{name}", json=body)
    assert_http_error(answer)
    assert_nothing_changed(world, before)


@settings(FUZZ, max_examples=500)
@given(data=st.data())
def test_odd_http_queries_answer_the_error_shape_and_change_nothing(world, data):
    before = state(world)
    client = world["client"]
    round_name = data.draw(texts.filter(lambda s: s.strip() and s != ROUND), label="round")
    quoted = urllib.parse.quote(round_name, safe="")
    at = data.draw(texts | st.sampled_from(["25:00", "9h99", "2026-06-14", "T", "-1"]), label="at")
    path = data.draw(
        st.sampled_from(
            [
                f"/api/rounds/{quoted}/status",
                f"/api/rounds/{quoted}/snapshot",
                f"/api/rounds/{quoted}/events",
                f"/rounds/{quoted}/marshal",
                f"/rounds/{quoted}/dashboard",
                f"/api/rounds/{ROUND}/status?at={urllib.parse.quote(at)}",
                f"/api/{quoted}",
                f"/{quoted}",
            ]
        ),
        label="path",
    )
    method = data.draw(
        st.sampled_from(["GET", "GET", "GET", "POST", "PUT", "DELETE"]), label="method"
    )
    # (a path with "//" in it, from an encoded "/", is first redirected to the merged path)
    answer = client.open(path, method=method, follow_redirects=True)
    if method == "GET" and path.startswith(f"/api/rounds/{ROUND}/status?at=") and _status_at_ok(at):
        assert answer.status_code == 200 and "groups" in answer.json
    else:
        assert_http_error(answer, short=False)
    assert_nothing_changed(world, before)


def _status_at_ok(at: str) -> bool:
    """Whether ``?at=`` is an instant the status endpoint understands (then it answers)."""
    from pace import formats

    if not at:
        return True  # no ?at= means the server's now
    try:
        formats.parse_clock(at)
        return True
    except ValueError:
        pass
    try:
        parsed = datetime.fromisoformat(at.strip().replace("Z", "+00:00"))
    except ValueError:
        return False
    return len(at) <= 40 and parsed.tzinfo is not None and 2000 <= parsed.year <= 2100


def assert_http_error(answer, *, short: bool = True) -> None:
    assert answer.mimetype == "application/json", (answer.status, answer.data[:200])
    body = answer.get_json()
    assert_error_shape(body, short=short)
    assert answer.status_code == errors.http_status(body), (answer.status_code, body)
    assert 400 <= answer.status_code < 500, body


# -- names shown in the pages are escaped ------------------------------------------------------

HOSTILE_ROUND = '<img src=x onerror="alert(1)">'


@pytest.fixture
def hostile_round(app) -> str:
    """A round whose name and players' names are script injections."""
    service = app.extensions["pace"].live.service
    lines = DRAW.read_text(encoding="utf-8").splitlines()
    header, rows = lines[0], lines[1:]
    first = rows[0].split(",")
    first[3] = SCRIPT
    rows[0] = ",".join(first)
    second = rows[1].split(",")
    second[3] = '"Eve ""</td><script>alert(2)</script>"""'
    rows[1] = ",".join(second)
    service.import_draw(
        "\n".join([header, *rows]) + "\n",
        "hostile.csv",
        round=HOSTILE_ROUND,
        day=DAY,
        timezone=TIMEZONE,
    )
    return HOSTILE_ROUND


def test_hostile_names_are_escaped_in_every_page_and_answer(client, hostile_round):
    quoted = urllib.parse.quote(hostile_round, safe="")
    pages = {
        "home": client.get("/"),
        "marshal": client.get(f"/rounds/{quoted}/marshal"),
        "dashboard": client.get(f"/rounds/{quoted}/dashboard"),
    }
    for name, page in pages.items():
        assert page.status_code == 200, name
        html = page.get_data(as_text=True)
        assert "<script>alert" not in html and "<img src=x" not in html, name
        assert "alert(1)" not in html or "&lt;img src=x" in html, name

    for path in (f"/api/rounds/{quoted}/snapshot", f"/api/rounds/{quoted}/events", "/api/rounds"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        text = answer.get_data(as_text=True)
        assert "<" not in text and ">" not in text, (path, text[:300])  # \u003c, never a tag
        assert answer.headers["X-Content-Type-Options"] == "nosniff"

    snapshot = client.get(f"/api/rounds/{quoted}/snapshot").json["snapshot"]
    players = [p for row in snapshot["groups"] for p in row["players"]]
    assert SCRIPT in players  # the names are kept as they were written, as data
    assert snapshot["round"] == hostile_round
    assert COURSE.exists()


def test_a_hostile_name_in_an_error_message_is_not_html(client):
    answer = client.post("/api/commands/hole_completed", json={SCRIPT: 1})
    assert_error(answer.json, "unknown_field")
    assert "<script>" not in answer.get_data(as_text=True)


#: Ways a script could turn data into markup: assigning innerHTML/outerHTML, inserting HTML,
#: writing the document, parsing HTML, evaluating text.
HTML_SINKS = re.compile(
    r"\.(innerHTML|outerHTML)\s*\+?=(?!=)|insertAdjacentHTML|document\.write|DOMParser"
    r"|createContextualFragment|\beval\s*\(|new\s+Function\s*\("
)


@pytest.mark.parametrize(
    "path",
    # the pages' scripts and their parts (static/shotclock/, static/dashboard/), not vendor/
    sorted(p for p in (ROOT / "static").rglob("*.js") if "vendor" not in p.parts),
    ids=lambda p: p.relative_to(ROOT / "static").as_posix(),
)
def test_the_pages_scripts_put_data_in_the_page_as_text(path):
    lines = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HTML_SINKS.search(line)
    ]
    assert not lines, "data must go in with textContent / el(), never as HTML:\n" + "\n".join(lines)


def test_the_templates_never_turn_off_escaping():
    for path in (ROOT / "templates").glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|Markup\(", text), path.name


def test_json_made_html_safe_reads_back_the_same():
    # what the server sends for JSON: every <, > and & escaped, the same data once parsed
    from pace.web.http import html_safe_json

    for value in ({"a": SCRIPT, "b": ["\\<", "&amp;", "x>y"]}, [SCRIPT], '<>&\\"</script>'):
        text = html_safe_json(json.dumps(value, ensure_ascii=False))
        assert not set("<>&") & set(text)
        assert json.loads(text) == value


def test_the_app_of_this_module_is_built_for_tests(app):
    # an unexpected exception must reach the test, not be answered internal_error
    assert app.config["TESTING"] is True

"""docs/protocol.md cannot drift from the code: handlers, events, routes, fields, error codes."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from pace.cluster import queue
from pace.web import broadcast, errors, payloads, sockets
from pace.web.committee import parsers as committee_parsers
from pace.web.dashboard import parsers as dashboard_parsers
from pace.web.marshal import parsers as marshal_parsers
from pace.web.positions import parsers as positions_parsers
from pace.web.referee import parsers as referee_parsers
from pace.web.scoring import parsers as scoring_parsers
from pace.web.sockets import PaceNamespace

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
WEB = ROOT / "pace" / "web"
LIVE = ROOT / "pace" / "services" / "taps.py"
REFEREEING = ROOT / "pace" / "services" / "referees.py"
SCORES = ROOT / "pace" / "services" / "scores.py"
#: where the parsers are: the connection's own payloads, then each feature's parsers
PARSERS = (payloads, marshal_parsers, dashboard_parsers, referee_parsers, scoring_parsers,
           committee_parsers, positions_parsers)  # fmt: skip

CLIENT_EVENTS = "Client → server events"
SERVER_EVENTS = "Server → client events"
HTTP = "HTTP endpoints"
ERRORS = "Errors"


def sections(text: str) -> dict[str, str]:
    """Return the text under each ``## `` heading."""
    parts = re.split(r"^## +(.+)$", text, flags=re.MULTILINE)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2], strict=True)}


def table_rows(body: str) -> list[list[str]]:
    """Return the cells of every table row of ``body`` (headers and rules excluded)."""
    rows = []
    for line in body.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if all(set(c) <= set("-: ") for c in cells):
            continue  # the rule under the header
        rows.append(cells)
    return rows


def named_rows(section: str, column: int = 0) -> dict[str, list[str]]:
    """Return the rows of ``section``'s tables whose ``column`` is one backticked name."""
    out = {}
    for cells in table_rows(sections(DOC.read_text(encoding="utf-8"))[section]):
        m = re.fullmatch(r"`([^`]+)`", cells[column]) if len(cells) > column else None
        if m:
            out[m.group(1)] = cells
    return out


def backticked(cell: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", cell))


# -- Socket.IO: client to server -------------------------------------------------------------


def handlers() -> set[str]:
    """Return the events PaceNamespace handles: the routes of the edge pipeline, and its own."""
    own = {
        name.removeprefix("on_")
        for cls in PaceNamespace.__mro__
        if cls.__module__.startswith("pace.")
        for name, member in vars(cls).items()
        if name.startswith("on_") and callable(member)
    }
    return own | set(sockets.ROUTES)


def first_table(body: str) -> str:
    """Return the lines of the first table in ``body``."""
    lines = body.strip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return "\n".join(lines[start:end])


def client_events() -> dict[str, list[str]]:
    """Return the rows of the table of client → server events (the section's first table)."""
    rows = table_rows(first_table(sections(DOC.read_text(encoding="utf-8"))[CLIENT_EVENTS]))
    assert rows[0][0] == "event", "the section must open with the table of events"
    return {r[0].strip("`"): r for r in rows[1:]}


def test_every_socket_handler_is_documented():
    missing = handlers() - set(client_events())
    assert not missing, f"handlers missing from docs/protocol.md: {sorted(missing)}"


def test_every_documented_client_event_has_a_handler():
    unknown = set(client_events()) - handlers()
    assert not unknown, f"documented events without an on_<event> handler: {sorted(unknown)}"


def allowed_fields(event: str) -> set[str] | None:
    """Return the fields the parser of ``event`` accepts: ``payloads.<event>`` (a connection's
    own) or a feature's ``parsers.<event>``.

    They are read from the parser's ``mapping`` call.
    """
    module = next(
        (m for m in PARSERS if hasattr(m, event)),
        referee_parsers,
    )
    parse = getattr(module, event, None)
    if parse is None:
        return None
    tree = ast.parse(inspect.getsource(parse))
    for node in ast.walk(tree):
        called = getattr(node, "func", None)
        if isinstance(node, ast.Call) and "mapping" in (
            getattr(called, "id", None),
            getattr(called, "attr", None),
        ):
            arg = node.args[1]
            if isinstance(arg, ast.Name):
                return set(getattr(module, arg.id))
            return set(ast.literal_eval(arg))
    return None


NO_PAYLOAD = {"connect", "disconnect", "clock_sync"}


@pytest.mark.parametrize("event", sorted(set(client_events()) - NO_PAYLOAD))
def test_documented_payload_fields_are_the_parsers_fields(event):
    allowed = allowed_fields(event)
    assert allowed is not None, f"the parser of {event} should read the payload with mapping"
    payload = client_events()[event][1]
    documented = {f.strip().rstrip("?") for f in payload.strip("`{} ").split(",")}
    assert documented == allowed
    field_rows = named_rows(CLIENT_EVENTS)
    assert allowed <= set(field_rows), "every payload field has a row in the fields table"


def test_every_error_code_in_the_event_table_is_explained():
    codes = set(named_rows(ERRORS))
    for event, cells in client_events().items():
        used = backticked(cells[3])
        assert used <= codes, f"{event}: codes not in the errors table: {sorted(used - codes)}"


# -- Socket.IO: server to client -------------------------------------------------------------


def emitted_events() -> set[str]:
    """Return every event name pace/web and pace/cluster emit: literal ``emit("name", ...)``,
    a module constant so named (the queue's ``join_again``) and announcements."""
    names = set(broadcast.ANNOUNCED_AS.values())
    names.add(queue.JOIN_AGAIN)
    for path in [*WEB.rglob("*.py"), *(ROOT / "pace" / "cluster").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                # ``Broadcaster._to_both`` and ``_to_marshal_rooms`` emit (the marshals' held)
                and getattr(node.func, "attr", None) in ("emit", "_to_both", "_to_marshal_rooms")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                names.add(node.args[0].value)
    return names


def test_every_server_event_is_documented():
    emitted = emitted_events()
    assert {"clock_probe", "hole_logged", "group_updated", "alert_raised"} <= emitted
    missing = emitted - set(named_rows(SERVER_EVENTS))
    assert not missing, f"emitted events missing from docs/protocol.md: {sorted(missing)}"


def test_every_documented_server_event_is_emitted():
    unknown = set(named_rows(SERVER_EVENTS)) - emitted_events()
    assert not unknown, f"documented events nothing emits: {sorted(unknown)}"


def test_every_announced_event_type_has_its_name():
    # a stored type without an entry would go out under its own name, undocumented
    assert set(broadcast.ANNOUNCED_AS.values()) <= set(named_rows(SERVER_EVENTS))


# -- HTTP ------------------------------------------------------------------------------------


def documented_endpoints() -> set[tuple[str, str]]:
    return {
        (cells[0].strip("`"), cells[1].strip("`"))
        for cells in table_rows(sections(DOC.read_text(encoding="utf-8"))[HTTP])
        if re.fullmatch(r"`[A-Z]+`", cells[0])
    }


def routes(app) -> set[tuple[str, str]]:
    return {
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }


def test_every_route_is_documented(app):
    missing = routes(app) - documented_endpoints()
    assert not missing, f"routes missing from docs/protocol.md: {sorted(missing)}"


def test_every_documented_endpoint_exists(app):
    unknown = documented_endpoints() - routes(app)
    assert not unknown, f"documented endpoints the app does not serve: {sorted(unknown)}"


def test_the_documented_commands_are_the_http_mirrors_commands():
    from pace.web import http

    text = sections(DOC.read_text(encoding="utf-8"))[HTTP]
    paragraph = next(x for x in text.split("\n\n") if x.startswith("`<name>` is one of"))
    line = paragraph.split(". ", 1)[0]
    assert backticked(line) - {"<name>"} == set(http.COMMANDS)
    assert set(http.COMMANDS) <= set(client_events())


# -- errors ------------------------------------------------------------------------------------


def test_documented_http_statuses_are_the_servers(client):
    served_by_flask = {
        "not_found": client.get("/no/such/page"),
        "method_not_allowed": client.delete("/api/rounds"),
    }
    for code, cells in named_rows(ERRORS).items():
        if code in served_by_flask:
            answer = served_by_flask[code]
            assert answer.json["error"]["code"] == code
            status = answer.status_code
        else:
            status = errors.http_status(errors.error_body(code, "m"))
        assert str(status) == cells[1], f"{code}: documented {cells[1]}, served {status}"


def raised_codes() -> set[str]:
    """Return the error codes the taps and referees services and pace/web raise by name."""
    found = set()
    for path in [LIVE, REFEREEING, SCORES, *WEB.rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "code":
                if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                    found.add(node.value.value)
    return found


def test_every_error_code_the_live_loop_raises_is_documented():
    codes = raised_codes() | {"invalid_payload", "unknown_round", "unknown_group"}
    codes |= {"unknown_hole", "event_conflict", "internal_error"}
    missing = codes - set(named_rows(ERRORS))
    assert not missing, f"error codes missing from docs/protocol.md: {sorted(missing)}"

"""The payload primitives: fields parsed and validated into typed values; dicts never travel
inward. Each feature's parsers (pace/web/<feature>/parsers.py) build its commands from them;
the connection's own payloads (``join_round``, ``join_board``, ``auth``, the clock's reply)
and an HTTP command's body (``json_body``, its size and depth) are read here.

Every refusal is a ``PayloadError`` naming the field and saying what is expected.
Unknown fields are refused too: a typo must not be silently ignored. Every name and id
comes out in its one canonical spelling (``pace.rules.names``: NFC, no space at either end,
UUIDs in lower-case 8-4-4-4-12), so the permission check and every look-up compare the
same text; text that is not valid Unicode, or holds control characters, is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from flask import request

from pace.rules import names
from pace.rules.errors import Label, PaceError, Sentence, said
from pace.services import commands as cmd

MAX_TEXT = 200
MAX_REASON = 500


class PayloadError(PaceError, ValueError):
    """A payload that is not of the documented form."""

    code = "invalid_payload"


def mapping(payload: object, allowed: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(payload, Mapping):
        raise PayloadError(said(
            "refusal.payload.not_object", "expected a JSON object with fields {fields}, not {kind}",
            fields=", ".join(allowed), kind=type(payload).__name__,
        ))  # fmt: skip
    extra = [k for k in payload if k not in allowed]
    if extra:
        name = str(extra[0])[:40]
        raise PayloadError(
            said("refusal.payload.unknown_field", "unknown field {name}; expected only {fields}",
                 name=repr(name), fields=", ".join(allowed)),
            field=name,
            code="unknown_field",
        )  # fmt: skip
    return payload


def required_value(p: Mapping[str, Any], name: str) -> Any:
    if name not in p or p[name] is None:
        raise PayloadError(said("refusal.payload.required", "{field} is required",
                                field=Label(name)), field=name, code="missing_field")  # fmt: skip
    return p[name]


def text(
    p: Mapping[str, Any],
    name: str,
    *,
    limit: int = MAX_TEXT,
    required: bool = True,
    prose: bool = False,
) -> str:
    """Return a non-empty string field of at most ``limit`` characters, canonically spelt.

    ``prose`` (a reason, a note) may hold newlines; a name (a round, a group, a player, a
    key) holds no control or invisible format character.
    """
    if not required and p.get(name) in (None, ""):
        return ""
    value = required_value(p, name)
    if not isinstance(value, str):
        raise PayloadError(_empty(name), field=name)
    if len(value) > limit:
        too_long = said("refusal.payload.too_long", "{field} is longer than {limit} characters",
                        field=Label(name), limit=limit)  # fmt: skip
        raise PayloadError(too_long, field=name)
    try:
        value = names.canonical(value, prose=prose)
    except names.SpellingError as e:
        raise PayloadError(spelling(name, e), field=name) from None
    if not value:
        if not required:
            return ""
        raise PayloadError(_empty(name), field=name)
    return value


def _empty(name: str) -> Sentence:
    return said("refusal.payload.empty", "{field} must be a non-empty string", field=Label(name))


def spelling(name: str, e: names.SpellingError) -> Sentence:
    """Return the refusal of field ``name``'s text that has no canonical spelling."""
    return said("refusal.payload.spelling", "{field} {reason}", field=Label(name),
                reason=e.sentence or e.reason)  # fmt: skip


def event_id(p: Mapping[str, Any], name: str = "id") -> str:
    """Return a UUID made on the device, in its canonical text form (lower case, dashes)."""
    value = required_value(p, name)
    if not isinstance(value, str) or len(value) > 64:
        raise PayloadError(said("refusal.payload.uuid", "{field} must be a UUID made on the "
                                "device", field=Label(name)), field=name)  # fmt: skip
    canonical = names.canonical_uuid(value)
    if canonical is None:
        raise PayloadError(said("refusal.payload.not_uuid", "{field} {value} is not a UUID",
                                field=Label(name), value=repr(value[:40])), field=name)  # fmt: skip
    return canonical


def integer(p: Mapping[str, Any], name: str, lo: int, hi: int) -> int:
    """Return a whole number field between ``lo`` and ``hi``."""
    value = required_value(p, name)
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and re.fullmatch(r"[0-9]{1,9}", value.strip()):
            value = int(value)
        else:
            raise PayloadError(said("refusal.payload.whole", "{field} must be a whole number",
                                    field=Label(name)), field=name)  # fmt: skip
    if not lo <= value <= hi:
        raise PayloadError(said("refusal.payload.range", "{field} {value} is out of range "
                                "{lo}–{hi}", field=Label(name), value=value, lo=lo, hi=hi),
                           field=name)  # fmt: skip
    return value


def instant(p: Mapping[str, Any], name: str) -> datetime:
    """Return an ISO 8601 instant with its UTC offset (``2026-06-14T10:42:05+02:00``)."""
    value = required_value(p, name)
    if not isinstance(value, str) or len(value) > 40:
        raise PayloadError(said("refusal.payload.instant", "{field} must be an ISO 8601 time "
                                "with offset", field=Label(name)), field=name)  # fmt: skip
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise PayloadError(
            said("refusal.payload.not_instant", "{field} {value} is not an ISO 8601 time such "
                 "as 2026-06-14T10:42:05+02:00", field=Label(name), value=repr(value)),
            field=name,
        ) from None  # fmt: skip
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise PayloadError(said("refusal.payload.no_offset", "{field} {value} has no UTC offset",
                                field=Label(name), value=repr(value)), field=name)  # fmt: skip
    if not 2000 <= parsed.year <= 2100:
        raise PayloadError(said("refusal.payload.implausible", "{field} {value} is not a "
                                "plausible date", field=Label(name), value=repr(value)),
                           field=name)  # fmt: skip
    return parsed


def device_time(
    p: Mapping[str, Any], name: str, received: datetime, ping_offset: timedelta | None
) -> cmd.DeviceTime:
    """Return the device instant ``name`` with the device's clock offset.

    The connection's ping estimate is used when there is one; otherwise the payload's
    ``device_time`` (the device's clock when it sent) against the server's on receipt.
    """
    raw = instant(p, name)
    if ping_offset is not None:
        return cmd.DeviceTime(raw, ping_offset, "ping")
    sent = instant(p, "device_time")
    return cmd.DeviceTime(raw, sent - received, "send")


def join_round(payload: object) -> cmd.JoinRound:
    """Parse ``join_round``: a round, for a marshal the holes covered, and whether the
    stored facts are wanted too (``facts``, false when absent)."""
    p = mapping(payload, ("round", "holes", "facts"))
    holes = p.get("holes") or []
    if not isinstance(holes, list) or len(holes) > 36:
        raise PayloadError("holes must be a list of hole numbers", field="holes")
    numbers = tuple(integer({"holes": h}, "holes", 1, 99) for h in holes)
    facts = p.get("facts", False)
    if not isinstance(facts, bool):
        raise PayloadError("facts must be true or false", field="facts")
    return cmd.JoinRound(text(p, "round"), numbers, facts)


def join_board(payload: object) -> cmd.JoinRound:
    """Parse ``join_board``: the round whose facts-only board a page follows."""
    p = mapping(payload, ("round",))
    return cmd.JoinRound(text(p, "round"))


def optional_instant(p: Mapping[str, Any], name: str) -> None:
    """Check an optional instant the command does not use (still of the documented form)."""
    if p.get(name) is not None:
        instant(p, name)


def clock_reply(payload: object) -> datetime:
    """Parse a device's answer to ``clock_probe``: its clock, ``device_time``."""
    p = mapping(payload, ("device_time",))
    return instant(p, "device_time")


def author(auth: object, sid: str) -> cmd.Author:
    """Parse a connection's ``auth`` (or the HTTP headers standing for it): device id, name.

    The role is never taken from here: it is the session's (pace/web/access.py); a ``role``
    sent by an older client is ignored, as is an ``auth`` that is not an object. A device or
    a name that is not valid text (a lone surrogate, a control character) is refused:
    ``PayloadError`` with field ``auth.device`` or ``auth.name``.
    """
    p = auth if isinstance(auth, Mapping) else {}
    device = _auth_text(p, "device", 64)
    return cmd.Author(
        role="viewer",
        device=device or f"sid:{sid[:12]}",
        name=_auth_text(p, "name", MAX_TEXT),
    )


def _auth_text(p: Mapping[str, Any], name: str, limit: int) -> str | None:
    value = p.get(name)
    if not isinstance(value, str) or not value:
        return None
    try:
        return names.canonical(value)[:limit] or None
    except names.SpellingError as e:
        raise PayloadError(f"auth {name} {e.reason}", field=f"auth.{name}") from None


#: how deep a payload's objects and lists may nest (the deepest command needs 2)
MAX_DEPTH = 8


def check_depth(payload: object, limit: int = MAX_DEPTH) -> None:
    """Refuse a payload whose objects and lists nest deeper than ``limit`` (no recursion)."""
    level = [payload]
    for _ in range(limit + 1):
        level = [
            child
            for value in level
            if isinstance(value, Mapping | list | tuple)
            for child in (value.values() if isinstance(value, Mapping) else value)
        ]
        if not level:
            return
    raise PayloadError(said("refusal.payload.depth", "the payload nests objects or lists "
                            "deeper than {limit} levels", limit=limit))  # fmt: skip


#: the largest HTTP body pace reads (a command is well under 2 KiB)
MAX_BODY = 64 * 1024
#: the largest Socket.IO message: a bigger one closes its connection (Engine.IO's limit)
MAX_MESSAGE = 512 * 1024


def json_body() -> object:
    """Return this request's JSON body, or raise ``invalid_json`` (any body, any depth).

    The size is capped by ``MAX_CONTENT_LENGTH`` (``payload_too_large``) before this runs;
    a body nested deeper than the parser's recursion limit is ``invalid_json``, not a 500.
    """
    data = request.get_data(cache=True)
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        body = None
    if body is None:
        raise PayloadError(said("refusal.payload.json", "the body must be a JSON object"),
                           code="invalid_json")  # fmt: skip
    return body

"""The edge pipeline: every command, over Socket.IO or HTTP, passes the same steps in order.

1. **who** — a live session whose role the permission table (``access.EVENTS``) allows for
   this event, else ``unauthorized`` / ``forbidden``; nothing of the payload is read yet;
2. **shape** — one payload, nested at most ``payloads.MAX_DEPTH`` deep (``invalid_payload``);
3. **parse** — the route's parser turns the payload into a typed command, every name and id
   in its one canonical spelling (``pace.rules.names``), or refuses it naming the field;
4. **scope** — ``access.check_scope`` sees only the parsed command: its round must exist
   (``unknown_round``) and be the session's (``forbidden``), and a command's own access rule
   applies (a marshal voids only hole times);
5. **run** — the route's handler calls the use case, broadcasts and returns the ack.

``ROUTES`` maps each command to its parser and handler. A new command plugs in with one line
here (or in its own module's routes, merged into ``ROUTES``) and one line in
``access.EVENTS`` (who may send it); Socket.IO and ``POST /api/commands/<name>`` both serve it.
See docs/access.md, "The edge pipeline".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import request

from pace.services import commands as cmd
from pace.services.access import Session
from pace.services.alerts import AlertDesk
from pace.services.commands import Outcome
from pace.services.referees import RefereeService
from pace.services.taps import TapService
from pace.web import access, payloads, referee, scoring
from pace.web import referee_payloads as rp


@dataclass(frozen=True)
class Sender:
    """Who sends a command and when: what the pipeline hands parsers and handlers.

    ``ping_offset`` is the connection's clock offset from the ping exchange (``None``
    over HTTP, or before the first sample); ``sid`` the Socket.IO connection, if any.
    """

    session: Session | None
    by: cmd.Author
    received: datetime
    ping_offset: timedelta | None = None
    sid: str | None = None


#: ``parse(payload, sender)`` → a typed command (``PayloadError`` naming the field)
Parser = Callable[[object, Sender], Any]
#: ``run(command, sender, ext)`` → the ack; ``ext`` is ``app.extensions["pace"]``
Handler = Callable[[Any, Sender, Any], dict[str, Any]]


@dataclass(frozen=True)
class Route:
    """A command's parser and handler (its permission is ``access.EVENTS[name]``)."""

    parse: Parser
    run: Handler


def timed(parse: Callable[..., Any]) -> Parser:
    """Adapt a parser of ``(payload, by, received, ping_offset)`` (commands with instants)."""
    return lambda payload, s: parse(payload, s.by, s.received, s.ping_offset)


def authored(parse: Callable[..., Any]) -> Parser:
    """Adapt a parser of ``(payload, by)`` (commands without a device instant)."""
    return lambda payload, s: parse(payload, s.by)


def ack(outcome: Outcome) -> dict[str, Any]:
    """Return the ack of a live command: the stored event and whether it was a resend."""
    e = outcome.event
    return {
        "ok": True,
        "id": e.id,
        "seq": e.seq,
        "at": e.at.isoformat(),
        "duplicate": not outcome.created,
    }


#: the marshals' commands, announced to the cards by the tick rather than at once
TAPS = (TapService.log_hole_completed, TapService.correct_hole_time)


def live(use_case: Callable[..., Outcome], service: str = "taps") -> Handler:
    """Return the handler running a live use case (``TapService``'s, or ``AlertDesk``'s
    with ``service="alerts"``) on ``ext.<service>`` and announcing its outcome."""

    def run(command: Any, sender: Sender, ext: Any) -> dict[str, Any]:
        outcome = use_case(getattr(ext, service), command)
        ext.broadcaster.outcome(outcome, ext.derived.stages)
        if outcome.created and use_case not in TAPS:
            # a void may take back a score or a timed stroke: the cards follow at once (a
            # tap's effect on a card, a checkpoint breach, waits for the next tick)
            ext.derived.cards(outcome.event.round)
        return ack(outcome)

    return run


def referees(use_case: Callable[..., Any]) -> Handler:
    """Return the handler running a ``RefereeService`` use case (pace/web/referee.py)."""

    def run(command: Any, sender: Sender, ext: Any) -> dict[str, Any]:
        return referee.run(use_case, command, ext.referee, ext.referee_broadcaster, ext.derived)

    return run


ROUTES: dict[str, Route] = {
    "hole_completed": Route(timed(payloads.hole_completed), live(TapService.log_hole_completed)),
    "correct_hole_time": Route(
        timed(payloads.correct_hole_time), live(TapService.correct_hole_time)
    ),
    "void_event": Route(authored(payloads.void_event), live(TapService.void_event)),
    "record_siren": Route(timed(payloads.record_siren), live(TapService.record_siren)),
    "acknowledge_alert": Route(
        authored(payloads.acknowledge_alert), live(AlertDesk.acknowledge_alert, "alerts")
    ),
    "decide_timing": Route(timed(rp.decide_timing), referees(RefereeService.decide_timing)),
    "tell_player_timed": Route(
        timed(rp.tell_player_timed), referees(RefereeService.tell_player_timed)
    ),
    "record_stroke": Route(timed(rp.record_stroke), referees(RefereeService.record_stroke)),
    "notify_player": Route(timed(rp.notify_player), referees(RefereeService.notify_player)),
    "grant_time_credit": Route(
        timed(rp.grant_time_credit), referees(RefereeService.grant_time_credit)
    ),
    "stop_timing": Route(timed(rp.stop_timing), referees(RefereeService.stop_timing)),
    **{name: Route(parse, run) for name, (parse, run) in scoring.COMMANDS.items()},
}


def handle(
    name: str, payload: object, sender: Sender, ext: Any, routes: Mapping[str, Route] = ROUTES
) -> dict[str, Any]:
    """Run ``name`` through the pipeline: who → shape → parse → scope → run; return the ack.

    Every refusal is a ``PaceError`` (the shared error shape); nothing is stored before
    the last step.
    """
    route = routes[name]
    access.check_role(name, sender.session)
    payloads.check_depth(payload)
    command = route.parse(payload, sender)
    access.check_scope(name, sender.session, command, ext.store)
    return route.run(command, sender, ext)


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
        raise payloads.PayloadError("the body must be a JSON object", code="invalid_json")
    return body

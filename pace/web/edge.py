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

``ROUTES`` maps each command to its parser and handler: the commands every feature declares
(``FEATURES``: each ``pace/web/<feature>/feature.py``'s ``FEATURE``, pace/web/routing.py),
merged here and nowhere else. A new command plugs in with one line in its feature's
``FEATURE`` and one line in ``access.EVENTS`` (who may send it); Socket.IO and
``POST /api/commands/<name>`` both serve it. See docs/access.md, "The edge pipeline".
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from pace.rules.errors import PaceError
from pace.web import access, logs, payloads
from pace.web.audit import feature as audit
from pace.web.committee import feature as committee
from pace.web.dashboard import feature as dashboard
from pace.web.marshal import feature as marshal
from pace.web.metrics import outcome as ack_outcome
from pace.web.parts import AppParts
from pace.web.positions import feature as positions
from pace.web.referee import feature as referee
from pace.web.reports import feature as reports
from pace.web.routing import Feature, Route, Sender
from pace.web.scoring import feature as scoring

#: every feature of the web adapter, in the order their commands are listed
FEATURES: tuple[Feature, ...] = (
    marshal.FEATURE,
    dashboard.FEATURE,
    referee.FEATURE,
    scoring.FEATURE,
    positions.FEATURE,
    reports.FEATURE,
    audit.FEATURE,
    committee.FEATURE,
)


def merged(tables: Iterable[Mapping[str, Route]]) -> dict[str, Route]:
    """Return the routes of every feature's table, by name; a name two features declare is a
    mistake, caught at import."""
    out: dict[str, Route] = {}
    for table in tables:
        for name, route in table.items():
            if name in out:
                raise ValueError(f"{name!r} is declared by two features")
            out[name] = route
    return out


#: every command, over Socket.IO and ``POST /api/commands/<name>``: the features' commands
ROUTES: dict[str, Route] = merged(feature.commands for feature in FEATURES)
#: the Socket.IO events that follow a feature's rooms (pace/web/sockets.py serves them)
JOINS: dict[str, Route] = merged(feature.joins for feature in FEATURES)


def handle(
    name: str,
    payload: object,
    sender: Sender,
    app_parts: AppParts,
    routes: Mapping[str, Route] = ROUTES,
) -> dict[str, Any]:
    """Run ``name`` through the pipeline: who → shape → parse → scope → run; return the ack.

    Every refusal is a ``PaceError`` (the shared error shape); nothing is stored before
    the last step. Every command's outcome passes here once: the operator's metrics count it
    and the log has its line (its round, outcome and duration; never its payload).
    """
    route = routes[name]
    scoped: list[Any] = []  # the parsed command, once its round is known to be the session's
    started = time.perf_counter()
    outcome = "internal_error"
    try:
        ack = _run(name, route, payload, sender, app_parts, scoped)
        outcome = ack_outcome(ack)
        return ack
    except PaceError as e:  # counted and logged below, then raised as it came
        outcome = e.code
        raise
    finally:
        seconds = time.perf_counter() - started
        if app_parts.metrics is not None:
            app_parts.metrics.command(name, outcome)
        session = sender.session
        # the round a refused command named is not trusted to be one: the session's is logged
        round = getattr(scoped[0], "round", None) if scoped else None
        logs.command(name, round=round or (session.round if session else None),
                     role=session.role if session else None, outcome=outcome,
                     seconds=seconds)  # fmt: skip


def _run(
    name: str,
    route: Route,
    payload: object,
    sender: Sender,
    app_parts: AppParts,
    scoped: list[Any],
) -> dict[str, Any]:
    access.check_role(name, sender.session)
    payloads.check_depth(payload)
    command = route.parse(payload, sender)
    access.check_scope(name, sender.session, command, app_parts.store)
    scoped.append(command)
    return route.run(command, sender, app_parts)

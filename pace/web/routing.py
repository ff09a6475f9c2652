"""What a feature of the web adapter declares, each the same way: its commands and its pages.

A feature is a package of pace/web (``marshal``, ``dashboard``, ``referee``, ``scoring``,
``reports``, ``audit``) made of the same modules: ``parsers.py`` (its payloads → typed
commands), ``messages.py`` (its pages' texts in English, joined by pace/web/i18n.py),
``pages.py`` (its Blueprint, when it has pages) and ``feature.py``, whose ``FEATURE`` declares
the commands it routes (``Route``: a parser and a handler) and the Socket.IO events that
follow its rooms. pace/web/edge.py merges the features' commands, pace/web/sockets.py their
joins, pace/app.py registers their pages. A feature imports this module, the payload
primitives and the shared plumbing; nothing imports a feature but the edge, the sockets, the
catalogue (its ``messages``) and the composition root.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from flask import Blueprint

from pace.rules.events import Event
from pace.services import commands as cmd
from pace.services.access import Session
from pace.services.commands import Outcome
from pace.web.parts import AppParts


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
#: ``run(command, sender, app_parts)`` → the ack
Handler = Callable[[Any, Sender, AppParts], dict[str, Any]]


@dataclass(frozen=True)
class Route:
    """A command's parser and handler (its permission is ``access.EVENTS[name]``)."""

    parse: Parser
    run: Handler


@dataclass(frozen=True)
class Feature:
    """What one feature brings to the web adapter.

    ``commands`` are served over Socket.IO and ``POST /api/commands/<name>`` alike; ``joins``
    are Socket.IO only (a page follows the feature's rooms); ``pages`` is its Blueprint.
    """

    name: str
    commands: Mapping[str, Route] = field(default_factory=dict)
    joins: Mapping[str, Route] = field(default_factory=dict)
    pages: Blueprint | None = None


def timed(parse: Callable[..., Any]) -> Parser:
    """Adapt a parser of ``(payload, by, received, ping_offset)`` (commands with instants)."""
    return lambda payload, s: parse(payload, s.by, s.received, s.ping_offset)


def authored(parse: Callable[..., Any]) -> Parser:
    """Adapt a parser of ``(payload, by)`` (commands without a device instant)."""
    return lambda payload, s: parse(payload, s.by)


def unsigned(parse: Callable[[object], Any]) -> Parser:
    """Adapt a parser of the payload alone (the joins: nothing of the sender is stored)."""
    return lambda payload, s: parse(payload)


class Stored(Protocol):
    """What a use case answers a command with: its stored event, and whether it is new (a
    resend answers the event stored the first time)."""

    @property
    def event(self) -> Event: ...

    @property
    def created(self) -> bool: ...


def ack(outcome: Stored) -> dict[str, Any]:
    """Return a command's ack: the stored event and whether it was a resend."""
    e = outcome.event
    return {
        "ok": True,
        "id": e.id,
        "seq": e.seq,
        "at": e.at.isoformat(),
        "duplicate": not outcome.created,
    }


def live(use_case: Callable[..., Outcome], *, on: str = "taps", cards_at_once: bool) -> Handler:
    """Return the handler running a live use case on ``app_parts.<on>`` (``TapService``, or
    ``AlertDesk`` with ``on="alerts"``) and announcing its outcome.

    ``cards_at_once``: a void may take back a score or a timed stroke, so the cards follow
    at once; a marshal's tap's effect on a card (a checkpoint breach) waits for the next tick.
    """

    def run(command: Any, sender: Sender, app_parts: AppParts) -> dict[str, Any]:
        outcome = use_case(getattr(app_parts, on), command)
        app_parts.broadcaster.outcome(outcome, app_parts.derived.stages)
        if outcome.created and cards_at_once:
            app_parts.derived.cards(outcome.event.round)
        return ack(outcome)

    return run

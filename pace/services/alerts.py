"""The referees' alerts as events: raised, acknowledged, resolved (issue 14).

The tick raises what the state calls for (``pace.rules.alerts``), each alert once; an open
alert whose situation has ended (a group back in position, paper times imported later that
show it was on pace, a prompt whose group is now out of position) is *resolved*: an
``alert_resolved`` event, kept in the audit, takes it out of the open list, and the
referees can still read it among the resolved ones. An acknowledgement takes an alert off
both lists.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pace.reports.status import minutes
from pace.rules import alerts as alertsmod
from pace.rules.events import Event

ALERT_RAISED = "alert_raised"
ALERT_ACKNOWLEDGED = "alert_acknowledged"
ALERT_RESOLVED = "alert_resolved"
ALERT_NAMESPACE = uuid.UUID("0b8e1f0c-4a57-4d6e-8a1e-7f3c9d2b5a61")
SYSTEM = {"role": "system", "device": "scheduler"}
#: how many resolved alerts the snapshot keeps (newest first): enough for a round's reading
RESOLVED_SHOWN = 50


@dataclass
class AlertState:
    """The alerts of a round's log: raised (by key, in log order), acknowledged, resolved."""

    raised: dict[str, dict[str, Any]] = field(default_factory=dict)
    acked: set[str] = field(default_factory=set)
    resolved: dict[str, datetime] = field(default_factory=dict)

    def open(self) -> list[dict[str, Any]]:
        """Return the alerts raised and neither acknowledged nor resolved, in log order."""
        return [a for k, a in self.raised.items() if k not in self.acked and k not in self.resolved]

    def closed(self) -> list[dict[str, Any]]:
        """Return the resolved alerts not acknowledged, with ``resolved_at``."""
        return [
            {**a, "resolved_at": self.resolved[k].isoformat()}
            for k, a in self.raised.items()
            if k in self.resolved and k not in self.acked
        ]


def state(events: Iterable[Event]) -> AlertState:
    """Return the alerts of ``events`` (a round's log)."""
    out = AlertState()
    for e in events:
        if e.type == ALERT_RAISED:
            out.raised[str(e.payload["key"])] = view(e)
        elif e.type == ALERT_ACKNOWLEDGED:
            out.acked.add(str(e.payload["alert"]))
        elif e.type == ALERT_RESOLVED:
            out.resolved.setdefault(str(e.payload["alert"]), e.at)
    return out


def payload(a: alertsmod.Alert) -> dict[str, Any]:
    """Return the stored payload of a raised alert: ``over_min``/``gap_min`` as at the raise."""
    return {
        "key": a.key,
        "kind": a.kind,
        "group": a.group,
        "hole": a.hole,
        "over_min": minutes(a.over),
        "gap_min": minutes(a.gap),
        **({"check_holes": list(a.check_holes)} if a.check_holes else {}),
        **({"reason": a.reason} if a.reason else {}),
    }


def view(e: Event) -> dict[str, Any]:
    """Return a raised alert as the pages get it."""
    return {**e.payload, "at": e.at.isoformat(), "id": e.id}


def raised_event(round: str, a: alertsmod.Alert, now: datetime) -> Event:
    """Return the ``alert_raised`` event of ``a``: its id derives from the key (never twice)."""
    return Event(
        id=str(uuid.uuid5(ALERT_NAMESPACE, f"{round}/{a.key}")),
        type=ALERT_RAISED,
        round=round,
        at=min(a.at, now),
        payload=payload(a),
        by=SYSTEM,
    )


def resolved_event(round: str, alert: Mapping[str, Any], now: datetime) -> Event:
    """Return the ``alert_resolved`` event of an open alert whose situation has ended."""
    key = str(alert["key"])
    return Event(
        id=str(uuid.uuid5(ALERT_NAMESPACE, f"{round}/resolved/{key}")),
        type=ALERT_RESOLVED,
        round=round,
        at=now,
        payload={"alert": key, "kind": alert.get("kind"), "group": alert.get("group")},
        by=SYSTEM,
    )


def to_resolve(current: AlertState, due: Sequence[alertsmod.Alert]) -> list[dict[str, Any]]:
    """Return the open alerts whose situation no longer holds (not among ``due``'s current)."""
    holding = {a.key for a in due if a.current}
    return [a for a in current.open() if a["key"] not in holding]

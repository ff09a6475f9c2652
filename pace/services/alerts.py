"""The referees' alerts as events: raised, acknowledged, resolved (issue 14).

The tick raises what the state calls for (``pace.rules.alerts``), each alert once; an open
alert whose situation has ended (a group back in position, paper times imported later that
show it was on pace, a prompt whose group is now out of position) is *resolved*: an
``alert_resolved`` event, kept in the audit, takes it out of the open list, and the
referees can still read it among the resolved ones. A resolved alert that the corrected
history calls for again (a missed tap logged late, a void) is *re-opened*: raised again, its
``generation`` counting the raises (issue 37, docs/protocol.md "Alerts follow the log"). An
acknowledgement takes an alert off both lists. :class:`AlertDesk` does all three for the live
loop: it raises (or re-opens) what a command or a tick finds due, resolves what ended, and
takes the referees' acknowledgements. The alerts'
events are folded by ``pace.rules.alerts.AlertBook`` (each round's ``LiveRound.alerts``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from pace.documents.values import minutes
from pace.rules import alerts as alertsmod
from pace.rules import explain as explainmod
from pace.rules import facts as factsmod
from pace.rules.alerts import ALERT_ACKNOWLEDGED, ALERT_RAISED, ALERT_RESOLVED, view
from pace.rules.events import Event, EventConflictError
from pace.rules.report import author
from pace.services import commands as cmd
from pace.services.commands import CommandError, Outcome
from pace.services.state import LiveRound, LiveRounds

ALERT_NAMESPACE = uuid.UUID("0b8e1f0c-4a57-4d6e-8a1e-7f3c9d2b5a61")
SYSTEM = {"role": "system", "device": "scheduler"}
#: before any instant of a round (a correction or a void names every group of its hole)
FAR_PAST = datetime.min.replace(tzinfo=UTC)
#: how many resolved alerts the snapshot keeps (newest first): enough for a round's reading
RESOLVED_SHOWN = 50


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
        **(_bounds(a.bounds) if a.bounds else {}),
    }


def _bounds(bounds: tuple[datetime, datetime | None]) -> dict[str, Any]:
    """Return an estimate's bounds as a raised alert stores them (docs/estimates.md)."""
    earliest, latest = bounds
    return {"earliest": earliest.isoformat(), "latest": latest.isoformat() if latest else None}


def raised_event(round: str, a: alertsmod.Alert, now: datetime, generation: int = 1) -> Event:
    """Return the ``alert_raised`` event of ``a``: its id derives from the key and which raise
    of it this is (``generation``: 1, or n for its (n-1)th re-opening), so each raise is
    stored once, across restarts and workers."""
    if generation == 1:
        name, extra = f"{round}/{a.key}", {}
    else:
        name, extra = f"{round}/reopened/{generation}/{a.key}", {"generation": generation}
    return Event(
        id=str(uuid.uuid5(ALERT_NAMESPACE, name)),
        type=ALERT_RAISED,
        round=round,
        at=min(a.at, now),
        payload={**payload(a), **extra},
        by=SYSTEM,
    )


#: the alerts a referee may be asked to explain to a group (docs/explanations.md)
EXPLAINED = (alertsmod.OUT_OF_POSITION, alertsmod.BACK_IN_POSITION, alertsmod.OVERDUE)


def explained(live: LiveRound, e: Event, a: alertsmod.Alert) -> Event:
    """Return ``alert_raised`` event ``e`` with why the group was named in its payload: the
    explanation of ``a`` as at its instant, from the round's own fold (docs/explanations.md).

    The log's sources (ids and authors) are the round's own, kept one event at a time
    (``LiveRound.sources``): an explanation costs the figures of one group, not the log.
    """
    if a.kind not in EXPLAINED:
        return e
    # still on the hole (issue 48): why is the projection's at the instant it was seen there,
    # the hole in play overdue (its time over and its gap then, docs/positions.md)
    kind = alertsmod.OVERDUE if a.reason == alertsmod.SEEN_ON_HOLE else a.kind
    still = None
    if a.reason == alertsmod.SEEN_ON_HOLE and a.hole is not None:
        # seen on the hole, its time over there is exact: read with no allowance for a
        # completion on its way but the report's when the group reports (FieldFold.still_on)
        still = live.field.still_on(a.group, a.hole, a.at)
    x = explainmod.explain(live.field, live.sources, kind, a.group, a.at, still)
    if x is None:
        return e
    if still is not None:
        x = replace(x, slack=live.field.allowance if live.field.reported_holes(a.group)
                    else timedelta(0))  # fmt: skip
    return replace(e, payload={**e.payload, "explanation": explainmod.as_document(x, author)})


def resolved_event(round: str, alert: Mapping[str, Any], now: datetime) -> Event:
    """Return the ``alert_resolved`` event of an open alert whose situation has ended: its id
    derives from the key and the raise it ends (``generation``, as :func:`raised_event`)."""
    key = str(alert["key"])
    generation = alert.get("generation", 1)
    if generation == 1:
        name, extra = f"{round}/resolved/{key}", {}
    else:
        name, extra = f"{round}/resolved/{generation}/{key}", {"generation": generation}
    return Event(
        id=str(uuid.uuid5(ALERT_NAMESPACE, name)),
        type=ALERT_RESOLVED,
        round=round,
        at=now,
        payload={"alert": key, "kind": alert.get("kind"), "group": alert.get("group"), **extra},
        by=SYSTEM,
    )


def behind_late_facts(live: LiveRound, since: int) -> set[str]:
    """Return the groups whose history the completions folded since event ``since`` of the
    log may have changed, beside their own group's: those that completed the same hole later
    (their gap on it is measured to the group ahead's completion).

    A tap logged late with its instant (a missed tap, docs/estimates.md) changes the gaps, so
    the episodes, of the groups that holed out there after it; a correction or a void of a
    completion may move it either way: every other group that completed that hole is named.
    A tap logged as it happens names nobody (nobody completed the hole after it yet).
    """
    plan = live.view.plan
    by_rank = {p.rank: p.id for p in plan.groups}
    index = live.field.index
    out: set[str] = set()
    for e in live.events[since:]:
        target, at = e, e.at
        if e.type in (factsmod.HOLE_TIME_CORRECTED, factsmod.EVENT_VOIDED):
            target, at = live.by_id.get(str(e.payload.get("target"))), FAR_PAST
            while target is not None and target.type == factsmod.HOLE_TIME_CORRECTED:
                target = live.by_id.get(str(target.payload.get("target")))
        if target is None or target.type != factsmod.HOLE_COMPLETED:
            continue
        group, hole = target.payload.get("group"), target.payload.get("hole")
        p = plan.by_id.get(group) if isinstance(group, str) else None
        if p is None or not isinstance(hole, int):
            continue
        later = index.ranks_after(hole, at, p.rank)
        out.update(by_rank[r] for r in later if r != p.rank and r in by_rank)
    return out


class AlertDesk:
    """The alerts of the live loop: raised, resolved, re-opened when the log calls for them
    again, acknowledged by a referee.

    Called under the rounds' lock (``LiveService.changes``); an alert's events have ids
    derived from its key and the raise they belong to, so nothing is raised or resolved twice,
    across restarts and workers.
    It works on the rounds' folded state (``LiveRounds``), which the live service owns and
    lends it: the live service calls the desk, never the reverse.
    """

    def __init__(self, rounds: LiveRounds) -> None:
        self.rounds = rounds

    @staticmethod
    def raises(live: LiveRound, due: Iterable[alertsmod.Alert], now: datetime) -> list[Event]:
        """Return the ``alert_raised`` events of the alerts ``due`` not raised yet, once each,
        and of those resolved earlier that hold again (re-opened: the corrected history calls
        for them again, docs/protocol.md), unless a referee acknowledged them.

        An event's id derives from its alert's key and which raise of it this is, so a raise
        is never stored twice, across restarts and workers included, and its view
        (:func:`view`) is the same before and after it is stored: the log already implies it.
        """
        book = live.alerts
        fresh: dict[str, Event] = {}
        for a in due:
            if a.key in fresh:
                continue
            if a.key not in book.raised:
                fresh[a.key] = explained(live, raised_event(live.name, a, now), a)
            elif a.current and a.key in book.resolved and a.key not in book.acked:
                n = book.generation.get(a.key, 1) + 1
                fresh[a.key] = explained(live, raised_event(live.name, a, now, n), a)
            else:
                continue
            if live.field.rests_on_report(a.group, min(a.at, now)):
                # issue 39: the status rests on the group's own report (an upper bound): a
                # referee goes to look before timing (docs/status.md, "Groups' reports")
                e = fresh[a.key]
                fresh[a.key] = replace(e, payload={**e.payload, "reported_by_group": True})
            elif a.reason == alertsmod.SEEN_ON_HOLE or live.field.rests_on_position(
                a.group, min(a.at, now)
            ):
                # issue 48: the status rests on a completion inferred from the group's
                # positions (an interval, a minute or two wide): marked as such
                e = fresh[a.key]
                fresh[a.key] = replace(e, payload={**e.payload, "from_positions": True})
        return list(fresh.values())

    def settle(
        self,
        live: LiveRound,
        raises: Sequence[Event],
        due: Iterable[alertsmod.Alert],
        looked: Iterable[tuple[tuple[str, ...], set[str]]],
        now: datetime,
    ) -> list[dict[str, Any]]:
        """Store the ``raises`` (:meth:`raises`) and resolve each open alert whose situation
        has ended, in one transaction (the raises first); return the alerts this call raised
        (not those another worker stored first).

        Only the open alerts of the kinds and groups looked for again are judged (``looked``):
        one that ``due`` no longer holds current is resolved (issue 14), once (its id derives
        from its key), one of the ``raises`` included (an episode that began and ended between
        two looks). A group back in position raises its ``back_in_position`` and resolves its
        ``out_of_position`` at once: one commit.
        """
        due = list(due)
        candidates = [*live.alerts.open(), *(view(e) for e in raises)]
        events = [*raises, *self._ended(live, candidates, due, looked, now)]
        if not events:
            return []
        stored = self.append_implied(events, now)
        self.rounds.get(live.name, now)
        return [view(e) for e, created in stored if created and e.type == ALERT_RAISED]

    def append_implied(self, events: list[Event], now: datetime) -> list[tuple[Event, bool]]:
        """Append events the log implies (their ids derive from their keys); one that another
        worker stored first, at its own instant, is that worker's: kept, not a conflict that
        would fail the command that found it due (several workers, issue 15)."""
        store = self.rounds.service.store
        try:
            # what the log implies: its commit need not wait for the disk (the command's
            # fact did; the next one carries these to disk: docs/storage.md)
            return store.append_many(events, recorded_at=now, implied=True)
        except EventConflictError:
            stored = []
            for e in events:
                try:
                    stored.append(store.append(e, recorded_at=now))
                except EventConflictError:
                    continue  # the same alert, raised or resolved already by another worker
            return stored

    @staticmethod
    def _ended(
        live: LiveRound,
        candidates: Iterable[Mapping[str, Any]],
        due: Iterable[alertsmod.Alert],
        looked: Iterable[tuple[tuple[str, ...], set[str]]],
        now: datetime,
    ) -> list[Event]:
        """Return the ``alert_resolved`` events of the ``candidates`` (open alerts) of the
        kinds and groups looked for again that ``due`` no longer holds current, and of those
        whose group is no longer in the draw (a group removed on the day: nobody will look
        for its alerts again)."""
        scope = [(frozenset(kinds), groups) for kinds, groups in looked if groups]
        drawn = {p.id for p in live.view.plan.groups}
        holding = {a.key for a in due if a.current}
        return [
            resolved_event(live.name, a, now)
            for a in candidates
            if a["key"] not in holding
            and (
                (isinstance(a.get("group"), str) and a["group"] not in drawn)
                or any(a.get("kind") in k and a.get("group") in g for k, g in scope)
            )
        ]

    def acknowledge_alert(self, c: cmd.AcknowledgeAlert) -> Outcome:
        """Take an alert off the dashboards: a referee has seen it."""
        with self.rounds.lock:
            live = self.rounds.get(c.round, self.rounds.service.clock.now())
            event = Event(
                id=c.id,
                type=ALERT_ACKNOWLEDGED,
                round=c.round,
                at=self.rounds.service.clock.now(),
                payload={"alert": c.alert, "note": c.note},
                by=c.by.as_dict(),
            )
            if (stored := self.rounds.resent(event)) is not None:
                return Outcome(stored, False)
            if c.alert not in live.alerts.raised:
                raise CommandError(
                    f"no alert {c.alert!r} was raised in round {c.round!r}",
                    field="alert",
                    code="unknown_alert",
                )
            if c.alert in live.alerts.acked:
                raise CommandError(
                    f"alert {c.alert!r} is already acknowledged", field="alert", code="already_done"
                )
            return Outcome(*self.rounds.append(event))

"""The committee's changes on the day as use cases (issue 28): withdraw a player, add a late
entry, move or swap players, change a group's start or tee, add or remove or withdraw a group,
void a change, list them.

Each is an event of the round's log (who in ``by``, why in ``reason``), checked against the
draw and the facts as they stand (:func:`pace.rules.changes.check`: a change that would rewrite
what already happened is refused with a sentence that says what to do instead) and appended
through the live service, which folds the round again under the changed draw (changes are
rare; taps stay incremental) and tells the pages every row at once. The CLI (``pace round
change …``) and the committee's console go through this one service.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from pace.rules import changes as changesmod
from pace.rules import facts as factsmod
from pace.rules import names
from pace.rules.changes import ChangeRefused
from pace.rules.errors import Label, said
from pace.rules.events import Event
from pace.rules.model import Group, Player
from pace.rules.scoring import records
from pace.services.commands import Author, CommandError, Outcome
from pace.services.live import LiveService
from pace.services.rounds import RoundView
from pace.services.validation import group_of, live_target, local

#: the longest reason or note kept with a change
REASON_MAX = 500
#: the longest player name (as the live commands' ``player``) and group id
NAME_MAX, GROUP_MAX = 200, 50
#: the longest tee set name a change may give (the course file's limit)
TEES_MAX = 40


class ChangeService:
    """The committee's changes of a round's draw over a :class:`LiveService`."""

    def __init__(self, live: LiveService) -> None:
        self.live = live

    # -- the changes ---------------------------------------------------------------------

    def withdraw(
        self,
        round: str,
        player: str,
        reason: str,
        by: Author,
        *,
        note: str = "",
        at: datetime | None = None,
        id: str | None = None,
    ) -> Outcome:
        """Withdraw ``player``: a ``no_show`` (he never started: his group is judged without
        him from its start) or ``retired`` (from ``at`` on: his group keeps its column on the
        holes already begun). The last player of a group that played retiring withdraws the
        group too (``group_withdrawn``)."""
        if reason not in changesmod.WITHDRAWALS:
            raise CommandError(
                said("refusal.form.withdrawal", "{field} {value}: expected no_show (he never "
                     "started) or retired (he stopped during play)", field=Label("reason"),
                     value=repr(reason)),
                field="reason",
                code="invalid_change",
            )  # fmt: skip
        player = _name(player, "player")
        with self.live.lock:
            group = self._earlier(id, changesmod.PLAYER_WITHDRAWN, "group") or (
                self._group_of_player(self._view(round), player).id
            )
            payload = {"group": group, "player": player, "reason": reason,
                       "note": _reason(note, "note", required=False)}  # fmt: skip
            outcome = self._record(round, changesmod.PLAYER_WITHDRAWN, payload, by, at, id)
            if outcome.created and reason == changesmod.RETIRED:
                g = self._view(round).plan.by_id[group].group
                if g.size_at(outcome.event.at) == 0:
                    self.live.append(
                        Event(
                            id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{outcome.event.id}/group")),
                            type=factsmod.GROUP_WITHDRAWN,
                            round=round,
                            at=outcome.event.at,
                            payload={
                                "group": g.id,
                                "reason": f"{player} retired, the last player of the group",
                                "change": outcome.event.id,
                            },
                            by=by.as_dict(),
                        )  # fmt: skip
                    )
            return outcome

    def add_player(
        self, round: str, group: str, player: Player, reason: str, by: Author, **kw: Any
    ) -> Outcome:
        """Add a late entry to ``group`` (before the group completes a hole)."""
        player = replace(player, name=_name(player.name, "player"))
        payload = {
            "group": _name(group, "group", GROUP_MAX),
            "player": changesmod.player_payload(player),
            "reason": _reason(reason),
        }
        return self._record(round, changesmod.PLAYER_ADDED, payload, by, **kw)

    def move_player(
        self, round: str, player: str, to: str, reason: str, by: Author, **kw: Any
    ) -> Outcome:
        """Move ``player`` to group ``to`` (before either group completes a hole)."""
        player, to = _name(player, "player"), _name(to, "to", GROUP_MAX)
        with self.live.lock:
            source = self._earlier(kw.get("id"), changesmod.PLAYER_MOVED, "from") or (
                self._group_of_player(self._view(round), player).id
            )
            payload = {"player": player, "from": source, "to": to, "reason": _reason(reason)}
            return self._record(round, changesmod.PLAYER_MOVED, payload, by, **kw)

    def swap(
        self, round: str, player: str, other: str, reason: str, by: Author, **kw: Any
    ) -> Outcome:
        """Swap two players of two groups (before either group completes a hole)."""
        player, other = _name(player, "player"), _name(other, "other")
        with self.live.lock:
            view = self._view(round)
            id = kw.get("id")
            a = self._earlier(id, changesmod.PLAYERS_SWAPPED, "group") or (
                self._group_of_player(view, player).id
            )
            b = self._earlier(id, changesmod.PLAYERS_SWAPPED, "other_group") or (
                self._group_of_player(view, other, "other").id
            )
            payload = {"group": a, "player": player, "other_group": b, "other": other,
                       "reason": _reason(reason)}  # fmt: skip
            return self._record(round, changesmod.PLAYERS_SWAPPED, payload, by, **kw)

    def change_start(
        self, round: str, group: str, start: datetime, reason: str, by: Author, **kw: Any
    ) -> Outcome:
        """Give ``group`` another start time (before it completes a hole): the field is
        planned again (intervals, lead groups, starter's gaps)."""
        with self.live.lock:
            self._on_the_day(self._view(round), start, "start")
            payload = {"group": _name(group, "group", GROUP_MAX), "start": start.isoformat(),
                       "reason": _reason(reason)}  # fmt: skip
            return self._record(round, changesmod.GROUP_START_CHANGED, payload, by, **kw)

    def change_tee(
        self, round: str, group: str, tee: int, reason: str, by: Author, **kw: Any
    ) -> Outcome:
        """Send ``group`` off another tee (before it completes a hole)."""
        payload = {"group": _name(group, "group", GROUP_MAX), "tee": tee, "reason": _reason(reason)}
        return self._record(round, changesmod.GROUP_TEE_CHANGED, payload, by, **kw)

    def change_tees(
        self, round: str, player: str, tees: str, reason: str, by: Author, **kw: Any
    ) -> Outcome:
        """Move ``player`` to other tees of the round's course (a tee set's name or colour),
        before he has a score: his handicap and card are then those of the new tees
        (docs/scoring.md, "Tees")."""
        with self.live.lock:
            view = self._view(round)
            name = _name(player, "player")
            earlier = self._earlier(kw.get("id"), changesmod.PLAYER_TEES_CHANGED, "group")
            group = earlier or self._group_of_player(view, name).id
            scored = [
                r for r in records.fold(self.live.live(round).events).of_group(group)
                if changesmod.same_name(r.player, name)
            ]  # fmt: skip
            if scored and earlier is None:  # a resend of a stored change is acknowledged
                raise ChangeRefused(
                    said("refusal.change.tees_scored", "{name} has a score on hole {hole}: tees "
                         "change only before a player has a score (void the scores first if "
                         "they were a mistake)", name=name, hole=scored[0].hole),
                    field="tees",
                    code="player_has_scores",
                )  # fmt: skip
            tees = _name(tees, "tees", TEES_MAX)
            found = view.setup.course.find_tees(tees)  # kept as the course names them
            payload = {"group": group, "player": name, "tees": found.name if found else tees,
                       "reason": _reason(reason)}  # fmt: skip
            return self._record(round, changesmod.PLAYER_TEES_CHANGED, payload, by, **kw)

    def add_group(
        self,
        round: str,
        group: str,
        start: datetime,
        tee: int,
        players: Sequence[Player],
        reason: str,
        by: Author,
        **kw: Any,
    ) -> Outcome:
        """Add a group to the draw (its players not in the round yet)."""
        with self.live.lock:
            self._on_the_day(self._view(round), start, "start")
            people = [replace(p, name=_name(p.name, "players")) for p in players]
            payload = {"group": _name(group, "group", GROUP_MAX), "start": start.isoformat(),
                       "tee": tee, "players": [changesmod.player_payload(p) for p in people],
                       "reason": _reason(reason)}  # fmt: skip
            return self._record(round, changesmod.GROUP_ADDED, payload, by, **kw)

    def remove_group(self, round: str, group: str, reason: str, by: Author, **kw: Any) -> Outcome:
        """Take a group out of the draw (before it logs a hole; after, withdraw it)."""
        payload = {"group": _name(group, "group", GROUP_MAX), "reason": _reason(reason)}
        return self._record(round, changesmod.GROUP_REMOVED, payload, by, **kw)

    def withdraw_group(
        self,
        round: str,
        group: str,
        reason: str,
        by: Author,
        *,
        at: datetime | None = None,
        id: str | None = None,
    ) -> Outcome:
        """Withdraw a whole group from ``at`` on (``group_withdrawn``): what it played stays."""
        with self.live.lock:
            now = self.live.clock.now()
            live = self.live.live(round, now)
            at = at or now
            payload = {"group": group, "reason": _reason(reason)}
            event = Event(id or str(uuid.uuid4()), factsmod.GROUP_WITHDRAWN, round, at, payload,
                          by=by.as_dict())  # fmt: skip
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            group_of(live.view, group)
            self.live.check_instant(live.view, at, "at")
            if live.field.withdrawn_at(group) is not None:
                raise ChangeRefused(said("refusal.change.group_withdrawn", "group {group} has "
                                         "already withdrawn", group=group), field="group",
                                    code="already_withdrawn")  # fmt: skip
            return Outcome(*self.live.append(event))

    def void(
        self, round: str, target: str, reason: str, by: Author, *, id: str | None = None
    ) -> Outcome:
        """Void a change (``event_voided``), unless that would change a group that has played
        (voiding a retirement is allowed: the player plays on)."""
        with self.live.lock:
            now = self.live.clock.now()
            live = self.live.live(round, now)
            payload = {"target": target, "reason": _reason(reason)}
            event = Event(id or str(uuid.uuid4()), factsmod.EVENT_VOIDED, round, now, payload,
                          by=by.as_dict())  # fmt: skip
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            live_target(live, target, changesmod.KINDS)
            view = live.view
            changesmod.check_void(view.imported, live.events, event, live.field.facts(),
                                  lambda t: local(view, t))  # fmt: skip
            return Outcome(*self.live.append(event))

    def listing(self, round: str) -> list[dict[str, object]]:
        """Return the round's changes in log order (who, when, why, voided or not)."""
        with self.live.lock:
            return changesmod.listing(self.live.live(round).events)

    # -- shared ----------------------------------------------------------------------------

    def _view(self, round: str) -> RoundView:
        return self.live.live(round).view

    def _record(
        self,
        round: str,
        kind: str,
        payload: Mapping[str, object],
        by: Author,
        at: datetime | None = None,
        id: str | None = None,
    ) -> Outcome:
        """Check change ``kind`` against the draw and facts as they stand, then store it."""
        with self.live.lock:
            now = self.live.clock.now()
            live = self.live.live(round, now)
            view = live.view
            event = Event(id or str(uuid.uuid4()), kind, round, at or now, dict(payload),
                          by=by.as_dict())  # fmt: skip
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            if kind == changesmod.PLAYER_WITHDRAWN and payload.get("reason") == changesmod.RETIRED:
                self.live.check_instant(view, event.at, "at")  # during play: on the day
            elif event.at > now + self.live.future_tolerance:
                # a change of the draw may be made the day before (a withdrawal by phone)
                self.live.check_instant(view, event.at, "at")
            changesmod.check(view.setup, live.field.facts(), event, lambda t: local(view, t))
            return Outcome(*self.live.append(event))

    def _earlier(self, id: str | None, kind: str, key: str) -> str | None:
        """Return what a stored change of id ``id`` named under ``key`` (its player's group):
        a resend is compared with the change as it was made, not with the draw it changed
        (after a move, the player is no longer in the group the first send named)."""
        stored = self.live.service.store.event(id) if id else None
        if stored is None or stored.type != kind or key not in stored.payload:
            return None
        return str(stored.payload[key])

    @staticmethod
    def _group_of_player(view: RoundView, name: str, field: str = "player") -> Group:
        for g in view.setup.groups:
            if any(changesmod.same_name(p.name, name) for p in g.players):
                return g
        raise changesmod.UnknownPlayerError(
            said("refusal.change.not_in_draw", "{name} is not in the draw of round {round}",
                 name=name, round=view.record.name),
            field=field,
        )  # fmt: skip

    @staticmethod
    def _on_the_day(view: RoundView, start: datetime, field: str) -> None:
        day = start.astimezone(view.tz).date()
        if day != view.record.day:
            raise CommandError(
                said("refusal.time.wrong_day", "{at} is not on the round's day ({day})",
                     at=start.astimezone(view.tz), day=view.record.day),
                field=field,
                code="wrong_day",
            )  # fmt: skip


def _name(text: str, field: str, longest: int = NAME_MAX) -> str:
    """Return a player's name or a group's id in its one spelling (``pace.rules.names``)."""
    try:
        text = names.canonical(text or "")
    except names.SpellingError as e:
        raise CommandError(said("refusal.payload.spelling", "{field} {reason}",
                                field=Label(field), reason=e.sentence or e.reason),
                           field=field, code="invalid_change") from None  # fmt: skip
    if not text or len(text) > longest:
        raise CommandError(said("refusal.change.name_length", "{field}: give 1 to {n} "
                                "characters", field=Label(field), n=longest), field=field,
                           code="invalid_change")  # fmt: skip
    return text


def _reason(text: str, field: str = "reason", *, required: bool = True) -> str:
    """Return a change's reason (or note) as kept: trimmed, not empty, at most 500 characters."""
    try:
        text = names.canonical(text or "", prose=True)
    except names.SpellingError as e:
        raise CommandError(said("refusal.change.reason_spelling", "the {field} {reason}",
                                field=Label(field), reason=e.sentence or e.reason),
                           field=field, code="invalid_change") from None  # fmt: skip
    if required and not text:
        raise CommandError(said("refusal.change.reason", "say why (a reason is kept with every "
                                "change)"), field=field, code="reason_required")  # fmt: skip
    if len(text) > REASON_MAX:
        raise CommandError(said("refusal.change.reason_long", "the {field} is longer than {n} "
                                "characters", field=Label(field), n=REASON_MAX), field=field,
                           code="invalid_change")  # fmt: skip
    return text

"""Changes on the day: the draw as the committee changed it, folded from the log (issue 28).

A withdrawal, a late entry, a move, a swap, a new start time or tee, a group added or removed
is a fact of the round's log like a tap (who in ``by``, why in ``reason``), voidable by
``event_voided``. The draw the rules judge is the imported draw with every change of the log
applied in log order (:func:`apply`); a change is checked against the draw and the facts as
they stand before it is stored (:func:`check`), and refused with a sentence that says why and
what to do instead when it would rewrite what already happened (docs/status.md, "Changes on
the day").

The reading: every change but a retirement is a change of the draw itself, allowed only while
the groups it touches have completed no hole, and it holds from the group's start (nothing of
theirs was judged yet). A retirement holds from its instant: the group keeps the player (his
card stops there) and is judged by its smaller size from then on, never retroactively
(:meth:`pace.rules.position.GroupPlan.cumulative_at`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from pace.rules import facts as factsmod
from pace.rules.errors import PaceError, UnknownGroupError, said
from pace.rules.events import Event
from pace.rules.model import Group, Player, RoundFacts, RoundSetup

#: shows an instant as the round's local time of day, in the refusals' sentences
HHMM = Callable[[datetime], str]

PLAYER_WITHDRAWN = "player_withdrawn"
PLAYER_ADDED = "player_added"
PLAYER_MOVED = "player_moved"
PLAYERS_SWAPPED = "players_swapped"
GROUP_START_CHANGED = "group_start_changed"
GROUP_TEE_CHANGED = "group_tee_changed"
GROUP_ADDED = "group_added"
GROUP_REMOVED = "group_removed"
PLAYER_TEES_CHANGED = "player_tees_changed"

#: every kind of change of the draw, in the order the docs list them
KINDS = (
    PLAYER_WITHDRAWN,
    PLAYER_ADDED,
    PLAYER_MOVED,
    PLAYERS_SWAPPED,
    GROUP_START_CHANGED,
    GROUP_TEE_CHANGED,
    GROUP_ADDED,
    GROUP_REMOVED,
    PLAYER_TEES_CHANGED,
)

NO_SHOW, RETIRED = "no_show", "retired"
#: why a player withdraws: he never started (no_show), or stopped during play (retired)
WITHDRAWALS = (NO_SHOW, RETIRED)

#: the player fields a late entry may carry (as the draw's columns)
PLAYER_FIELDS = ("name", "handicap", "side", "club", "class_name", "match")


class ChangeRefused(PaceError):
    """A change of the draw that cannot be made: the sentence says why and what to do instead."""

    code = "change_refused"


class UnknownPlayerError(PaceError, LookupError):
    """A player who is not in the group (or the round) the change names."""

    code = "unknown_player"


# --------------------------------------------------------------------------- payloads


def player_payload(p: Player) -> dict[str, object]:
    """Return a player as a change's payload carries him (the fields that are set)."""
    out: dict[str, object] = {"name": p.name}
    for name in PLAYER_FIELDS[1:]:
        value = getattr(p, name)
        if value is not None:
            out[name] = value
    return out


def player_from(payload: object) -> Player:
    """Return the player a change's payload names (``{"name": …, "handicap": …}``)."""
    if not isinstance(payload, Mapping) or not str(payload.get("name") or "").strip():
        raise ChangeRefused(said("refusal.change.no_name", "a player needs a name"),
                            field="player", code="invalid_change")  # fmt: skip
    handicap = payload.get("handicap")

    def text(key: str) -> str | None:
        value = payload.get(key)
        return None if value is None else str(value)

    return Player(
        name=str(payload["name"]).strip(),
        handicap=None if handicap is None else float(str(handicap)),
        side=text("side"),
        club=text("club"),
        class_name=text("class_name"),
        match=text("match"),
    )


# --------------------------------------------------------------------------- the fold


def listing(events: Iterable[Event]) -> list[dict[str, object]]:
    """Return the log's changes in log order as plain data (``pace round changes``, the
    snapshot's ``changes``): id, kind, instant, who, the payload (``reason`` says why), and
    whether it was voided."""
    out: dict[str, dict[str, object]] = {}
    for e in events:
        if e.type in KINDS:
            out[e.id] = {"id": e.id, "type": e.type, "at": e.at.isoformat(), "by": dict(e.by),
                         "payload": dict(e.payload), "voided": False}  # fmt: skip
        elif e.type == factsmod.EVENT_VOIDED:
            row = out.get(str(e.payload["target"]))
            if row is not None:
                row["voided"] = True
    return list(out.values())


def change_events(events: Iterable[Event]) -> list[Event]:
    """Return the changes of a log that stand (not voided), in log order."""
    kept: dict[str, Event] = {}
    for e in events:
        if e.type in KINDS:
            kept[e.id] = e
        elif e.type == factsmod.EVENT_VOIDED:
            kept.pop(str(e.payload["target"]), None)
    return list(kept.values())


def is_change(e: Event, by_id: Mapping[str, Event]) -> bool:
    """Return whether ``e`` changes the draw: a change, or the void of one."""
    if e.type in KINDS:
        return True
    if e.type == factsmod.EVENT_VOIDED:
        target = by_id.get(str(e.payload.get("target")))
        return target is not None and target.type in KINDS
    return False


def apply(setup: RoundSetup, events: Iterable[Event]) -> RoundSetup:
    """Return ``setup`` with every change of the log applied, voids taken into account.

    A change that no longer applies once an earlier one was voided (the move of a player whose
    late entry was voided) is skipped: the fold is defined for any log.
    """
    changes = change_events(events)
    if not changes:
        return setup
    groups = list(setup.groups)
    for e in changes:
        try:
            groups = apply_one(groups, e, setup)
        except PaceError:
            continue
    return replace(setup, groups=tuple(groups))


def apply_one(groups: Sequence[Group], e: Event, setup: RoundSetup) -> list[Group]:
    """Return the draw ``groups`` after change ``e`` (``PaceError`` when it cannot apply)."""
    p = e.payload
    out = list(groups)
    if e.type == PLAYER_WITHDRAWN:
        i, g = _group(out, p.get("group"))
        name = _member(g, p.get("player"))
        if p.get("reason") == NO_SHOW:
            players = tuple(x for x in g.players if x.name != name)
            out[i] = replace(g, players=players, retired=_without(g.retired, name))
        else:
            if g.retired_at(name) is not None:
                raise ChangeRefused(said("refusal.change.withdrawn", "{name} has already "
                                         "withdrawn", name=name), field="player",
                                    code="already_withdrawn")  # fmt: skip
            out[i] = replace(g, retired=(*g.retired, (name, e.at)))
    elif e.type == PLAYER_ADDED:
        i, g = _group(out, p.get("group"))
        player = player_from(p.get("player"))
        _not_in_round(out, player.name)
        out[i] = replace(g, players=(*g.players, player))
    elif e.type == PLAYER_MOVED:
        i, g = _group(out, p.get("from"), "from")
        j, h = _group(out, p.get("to"), "to")
        name = _member(g, p.get("player"))
        if i == j:
            raise ChangeRefused(said("refusal.change.same_group", "{name} is already in group "
                                     "{group}", name=name, group=h.id), field="to",
                                code="same_group")  # fmt: skip
        player = next(x for x in g.players if x.name == name)
        out[i] = replace(g, players=tuple(x for x in g.players if x.name != name))
        out[j] = replace(h, players=(*h.players, player))
    elif e.type == PLAYERS_SWAPPED:
        i, g = _group(out, p.get("group"))
        j, h = _group(out, p.get("other_group"), "other_group")
        a = _member(g, p.get("player"))
        b = _member(h, p.get("other"), "other")
        if a == b:
            raise ChangeRefused(said("refusal.change.same_player", "{name} cannot be swapped "
                                     "with {name}: name two players", name=a), field="other",
                                code="same_player")  # fmt: skip
        if i == j:
            raise ChangeRefused(
                said("refusal.change.swap_same_group", "{a} and {b} are both in group {group}: a "
                     "swap within a group changes nothing", a=a, b=b, group=g.id),
                field="other_group",
                code="same_group",
            )  # fmt: skip
        pa = next(x for x in g.players if x.name == a)
        pb = next(x for x in h.players if x.name == b)
        out[i] = replace(g, players=tuple(pb if x.name == a else x for x in g.players))
        out[j] = replace(h, players=tuple(pa if x.name == b else x for x in h.players))
    elif e.type == GROUP_START_CHANGED:
        i, g = _group(out, p.get("group"))
        out[i] = replace(g, start=datetime.fromisoformat(str(p["start"])))
    elif e.type == GROUP_TEE_CHANGED:
        i, g = _group(out, p.get("group"))
        out[i] = replace(g, tee=_tee(setup, p.get("tee")))
    elif e.type == GROUP_ADDED:
        gid = str(p.get("group") or "").strip()
        if not gid:
            raise ChangeRefused(said("refusal.change.no_group_id", "a group needs an id"),
                                field="group", code="invalid_change")  # fmt: skip
        if any(g.id == gid for g in out):
            raise ChangeRefused(
                said("refusal.change.group_exists", "group {group} is already in the draw; give "
                     "the new group another id", group=gid),
                field="group",
                code="group_exists",
            )  # fmt: skip
        raw = p.get("players")
        players = tuple(player_from(x) for x in raw) if isinstance(raw, list | tuple) else ()
        if not players:
            raise ChangeRefused(said("refusal.change.no_players", "a new group needs at least "
                                     "one player"), field="players",
                                code="invalid_change")  # fmt: skip
        for n, pl in enumerate(players):
            _not_in_round(out, pl.name)
            if any(same_name(pl.name, q.name) for q in players[:n]):
                raise ChangeRefused(said("refusal.change.named_twice", "{name} is named twice",
                                         name=pl.name), field="players",
                                    code="player_exists")  # fmt: skip
        start = datetime.fromisoformat(str(p["start"]))
        out.append(Group(gid, start, _tee(setup, p.get("tee")), players))
    elif e.type == GROUP_REMOVED:
        i, _ = _group(out, p.get("group"))
        del out[i]
    elif e.type == PLAYER_TEES_CHANGED:
        i, g = _group(out, p.get("group"))
        name = _member(g, p.get("player"))
        player = next(x for x in g.players if x.name == name)
        tees = _tees(setup, player, p.get("tees"))
        out[i] = replace(g, players=tuple(
            replace(x, tees=tees) if x.name == name else x for x in g.players
        ))  # fmt: skip
    return out


def _tees(setup: RoundSetup, player: Player, text: object) -> str:
    """Return the name of the tee set ``text`` names on the round's course, for ``player``
    (``ChangeRefused`` when the course has none such, or none rated for her)."""
    course = setup.course
    if not course.tees:
        raise ChangeRefused(
            said("refusal.change.no_tee_sets", "course {course} has no tee sets (one slope and "
                 "rating for everyone)", course=course.name),
            field="tees", code="unknown_tees",
        )  # fmt: skip
    found = course.find_tees(str(text or ""))
    if found is None:
        raise ChangeRefused(
            said("refusal.change.not_tees", "{value} is not a tee set of course {course}; its "
                 "tees are {tees}", value=repr(str(text)[:40]), course=course.name,
                 tees=", ".join(t.name for t in course.tees)),
            field="tees", code="unknown_tees",
        )  # fmt: skip
    if not found.rated_for(player.gender):
        raise ChangeRefused(
            said("refusal.change.tees_women", "tees {tees} have no women's slope or rating on "
                 "this course: {name} cannot play them", tees=found.name, name=player.name),
            field="tees", code="unknown_tees",
        )  # fmt: skip
    if player.tees is not None and found.name == player.tees:
        raise ChangeRefused(said("refusal.change.same_tees", "{name} already plays from the "
                                 "{tees} tees", name=player.name, tees=found.name),
                            field="tees", code="invalid_change")  # fmt: skip
    return found.name


def same_name(a: str, b: str) -> bool:
    """Return whether two player names are the same (case and spaces aside)."""
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def _group(groups: Sequence[Group], gid: object, field: str = "group") -> tuple[int, Group]:
    for i, g in enumerate(groups):
        if g.id == str(gid):
            return i, g
    known = ", ".join(g.id for g in groups)
    raise UnknownGroupError(said("refusal.change.unknown_group", "group {group} is not in the "
                                 "draw; its groups are {groups}", group=gid, groups=known),
                            field=field)  # fmt: skip


def _member(g: Group, name: object, field: str = "player") -> str:
    for p in g.players:
        if p.name == str(name) or same_name(p.name, str(name)):
            return p.name
    players = ", ".join(p.name for p in g.players)
    raise UnknownPlayerError(
        said("refusal.change.unknown_player", "{name} is not in group {group}; its players are "
             "{players}", name=name, group=g.id, players=players)
        if players else
        said("refusal.change.unknown_player_none", "{name} is not in group {group}; its players "
             "are none", name=name, group=g.id),
        field=field,
    )  # fmt: skip


def _not_in_round(groups: Sequence[Group], name: str) -> None:
    for g in groups:
        for p in g.players:
            if same_name(p.name, name):
                raise ChangeRefused(
                    said("refusal.change.player_exists", "{name} is already in group {group}; "
                         "move the player (move-player) instead", name=name, group=g.id),
                    field="player",
                    code="player_exists",
                )  # fmt: skip


def _tee(setup: RoundSetup, tee: object) -> int:
    try:
        number = int(str(tee))
    except ValueError:
        number = -1
    if not setup.course.has_hole(number):
        numbers = setup.course.hole_numbers
        raise ChangeRefused(
            said("refusal.change.tee", "tee {tee} is not a hole of the course; holes are "
                 "{first}–{last}", tee=tee, first=numbers[0], last=numbers[-1]),
            field="tee",
            code="unknown_hole",
        )  # fmt: skip
    return number


def _without(
    retired: tuple[tuple[str, datetime], ...], name: str
) -> tuple[tuple[str, datetime], ...]:
    return tuple(r for r in retired if r[0] != name)


# --------------------------------------------------------------------------- the checks


def played(facts: RoundFacts, group: str) -> list[tuple[int, datetime]]:
    """Return the holes ``group`` completed (facts of the log, at any instant), in time order."""
    return [(c.hole, c.at) for c in facts.completions if c.group == group]


def check(setup: RoundSetup, facts: RoundFacts, e: Event, hhmm: HHMM) -> None:
    """Refuse change ``e`` to the draw ``setup`` (changes applied so far) given the facts.

    Raises :class:`ChangeRefused` (or an unknown group or player) with the sentence that says
    why and what to do instead; ``hhmm`` shows an instant as the round's local time.
    """
    p = e.payload
    apply_one(setup.groups, e, setup)  # unknown group or player, duplicate names, bad tee
    by_id = {g.id: g for g in setup.groups}

    def first(group: str) -> tuple[int, datetime] | None:
        holes = played(facts, group)
        return holes[0] if holes else None

    if e.type == PLAYER_WITHDRAWN:
        g = by_id[str(p["group"])]
        name = _member(g, p.get("player"))
        active = g.size_at(e.at)
        holes = played(facts, g.id)
        if p.get("reason") == NO_SHOW:
            if holes:
                hole, at = holes[0]
                raise ChangeRefused(
                    said("refusal.change.no_show_played", "group {group} completed hole {hole} "
                         "at {at} with {name} counted: a no-show would judge again the holes it "
                         "played; record {name} as retired (counted from now on)", group=g.id,
                         hole=hole, at=hhmm(at), name=name),
                    field="reason",
                    code="group_has_played",
                )  # fmt: skip
            if len(g.players) == 1:
                raise ChangeRefused(
                    said("refusal.change.only_player", "{name} is the only player of group "
                         "{group}; remove the group instead (remove-group)", name=name,
                         group=g.id),
                    field="player",
                    code="last_player",
                )  # fmt: skip
        else:
            later = [(hole, at) for hole, at in holes if at > e.at]
            if later:
                hole, at = later[-1]
                raise ChangeRefused(
                    said("refusal.change.retired_played", "group {group} completed hole {hole} "
                         "at {at}, after {retired}: a retirement counts from its instant on and "
                         "cannot judge again the holes played since; give an instant after {at}",
                         group=g.id, hole=hole, at=hhmm(at), retired=hhmm(e.at)),
                    field="at",
                    code="group_has_played",
                )  # fmt: skip
            if active <= 1 and not holes:
                raise ChangeRefused(
                    said("refusal.change.last_player", "{name} is the last player of group "
                         "{group} and it has not played: remove the group instead "
                         "(remove-group)", name=name, group=g.id),
                    field="player",
                    code="last_player",
                )  # fmt: skip
    elif e.type == PLAYER_ADDED:
        g = by_id[str(p["group"])]
        done = first(g.id)
        if done is not None:
            raise ChangeRefused(
                said("refusal.change.add_played", "group {group} completed hole {hole} at {at}: "
                     "a player added now would have no score for the holes it played; add the "
                     "player to a group that has not played yet, or add a group (add-group)",
                     group=g.id, hole=done[0], at=hhmm(done[1])),
                field="group",
                code="group_has_played",
            )  # fmt: skip
    elif e.type == PLAYER_MOVED:
        name = _member(by_id[str(p["from"])], p.get("player"))
        for field, gid in (("from", str(p["from"])), ("to", str(p["to"]))):
            done = first(gid)
            if done is None:
                continue
            values = {"group": gid, "hole": done[0], "at": hhmm(done[1]), "name": name}
            raise ChangeRefused(
                said("refusal.change.move_out_played", "group {group} completed hole {hole} at "
                     "{at}: moving {name} out of it would rewrite what it played; record {name} "
                     "as retired instead", **values)
                if field == "from" else
                said("refusal.change.move_in_played", "group {group} completed hole {hole} at "
                     "{at}: moving {name} into it would give {name} no score for the holes it "
                     "played; move the player to a group that has not played yet", **values),
                field=field,
                code="group_has_played",
            )  # fmt: skip
        if by_id[str(p["from"])].retired_at(name) is not None:
            raise ChangeRefused(said("refusal.change.has_withdrawn", "{name} has withdrawn",
                                     name=name), field="player",
                                code="already_withdrawn")  # fmt: skip
    elif e.type == PLAYERS_SWAPPED:
        for gid in (str(p["group"]), str(p["other_group"])):
            done = first(gid)
            if done is not None:
                raise ChangeRefused(
                    said("refusal.change.swap_played", "group {group} completed hole {hole} at "
                         "{at}: a swap would rewrite what it played; swaps are made before "
                         "either group plays", group=gid, hole=done[0], at=hhmm(done[1])),
                    field="group" if gid == str(p["group"]) else "other_group",
                    code="group_has_played",
                )  # fmt: skip
    elif e.type in (GROUP_START_CHANGED, GROUP_TEE_CHANGED):
        gid = str(p["group"])
        done = first(gid)
        if done is not None:
            values = {"group": gid, "hole": done[0], "at": hhmm(done[1])}
            raise ChangeRefused(
                said("refusal.change.start_played", "group {group} completed hole {hole} at "
                     "{at}: its start can no longer change (the holes it played were timed from "
                     "it); grant it a time credit if it was held up", **values)
                if e.type == GROUP_START_CHANGED else
                said("refusal.change.tee_played", "group {group} completed hole {hole} at {at}: "
                     "its starting tee can no longer change (the holes it played were timed "
                     "from it); void its completions first if they were logged by mistake",
                     **values),
                field="start" if e.type == GROUP_START_CHANGED else "tee",
                code="group_has_played",
            )  # fmt: skip
    elif e.type == GROUP_REMOVED:
        gid = str(p["group"])
        done = first(gid)
        if done is not None:
            raise ChangeRefused(
                said("refusal.change.remove_played", "group {group} logged hole {hole} at {at}: "
                     "removing it would erase what it played; withdraw it instead "
                     "(withdraw-group)", group=gid, hole=done[0], at=hhmm(done[1])),
                field="group",
                code="group_has_played",
            )  # fmt: skip
    elif e.type == PLAYER_TEES_CHANGED:
        # the player's scores are checked by the service (they are not facts of the pace
        # side); a hole his group completed is one he may have a score on
        gid = str(p["group"])
        done = first(gid)
        if done is not None:
            raise ChangeRefused(
                said("refusal.change.tees_played", "group {group} completed hole {hole} at {at}: "
                     "{name} has played from his tees; tees change only before a player has a "
                     "score", group=gid, hole=done[0], at=hhmm(done[1]), name=p.get("player")),
                field="tees",
                code="player_has_scores",
            )  # fmt: skip


def check_void(
    base: RoundSetup, events: Sequence[Event], void: Event, facts: RoundFacts, hhmm: HHMM
) -> None:
    """Refuse the void of a change when it would change a group that has played.

    ``base`` is the imported draw, ``events`` the log so far. Voiding a retirement is allowed
    (a player recorded by mistake plays on: his group is judged at its full size again); any
    other void that changes the players, start or tee of a group that completed a hole is
    refused, as the change itself would be.
    """
    before = {g.id: g for g in apply(base, events).groups}
    after = {g.id: g for g in apply(base, [*events, void]).groups}
    for gid in sorted(set(before) | set(after)):
        was, now = before.get(gid), after.get(gid)
        if was is not None and now is not None:
            same = (was.start, was.tee, [p.name for p in was.players]) == (
                now.start, now.tee, [p.name for p in now.players])  # fmt: skip
            if same:
                continue
        holes = played(facts, gid)
        if holes:
            hole, at = holes[0]
            raise ChangeRefused(
                said("refusal.change.void_played", "group {group} completed hole {hole} at {at}: "
                     "voiding this change would rewrite the draw it played; make a new change "
                     "instead", group=gid, hole=hole, at=hhmm(at)),
                field="target",
                code="group_has_played",
            )  # fmt: skip

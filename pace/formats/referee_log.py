"""Referee log CSV: the paper twin of the live referee commands, one row per act.

Format: docs/formats.md §5. A referee with a stopwatch and a clipboard writes when
he decided to time a group, told a player, timed a stroke, told a player of a fault,
granted a credit, stopped timing, or heard a siren. :func:`parse_referee_log` reads the
file into :class:`RefereeAct`s sorted by instant, then line; :func:`to_events` turns them
into exactly the events the live commands record, with ids derived from the acts' content
so that importing the same file twice stores nothing new. Every problem names the file,
the line and the field, and nothing of an invalid file is returned.
"""

from __future__ import annotations

import os
import re
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo

from pace.formats import csvfile, times
from pace.rules import errors, model, penalties, refereeing, timing
from pace.rules import facts as factsmod
from pace.rules.events import Event, canonical_json

ACTS = ("decide", "tell", "stroke", "notify", "credit", "stop", "siren")
DECISIONS = ("time", "not_time")
#: The log's reasons not to time, and the live commands' names for them (docs/rules.md §4.1).
REASONS = {
    "ruling": "ruling",
    "lost_ball": "lost_ball",
    "unplayable": "unplayable_ball",
    "unplayable_ball": "unplayable_ball",
    "other": "other",
}
KINDS = tuple(k.value for k in timing.StrokeKind)
SIRENS = ("interruption", "suspension", "resume")
YES = ("yes", "y", "oui", "o", "true", "1", "x")
NO = ("no", "n", "non", "false", "0", "")
#: The longest stroke a stopwatch may show (the shot clock's limit): more was left running.
MAX_SECONDS = 600.0
MAX_CREDIT_MIN = 60.0

COLUMNS = (
    csvfile.Column("at", ("heure", "time"), required=True),
    csvfile.Column("act", ("acte", "action"), required=True),
    csvfile.Column("group", ("groupe", "partie")),
    csvfile.Column("player", ("joueur", "name")),
    csvfile.Column("hole", ("trou",)),
    csvfile.Column("kind", ("coup", "stroke kind")),
    csvfile.Column("first", ("premier", "first to play")),
    csvfile.Column("seconds", ("secondes", "s")),
    csvfile.Column("between", ("entre", "between holes")),
    csvfile.Column("id", ()),
    csvfile.Column("fault", ("faute",)),
    csvfile.Column("decision", ("décision",)),
    csvfile.Column("reason", ("motif", "raison")),
    csvfile.Column("minutes", ()),
    csvfile.Column("siren", ("sirène",)),
)

_CHECKPOINT = re.compile(r"cp:([0-9]{1,3})")
_NUMBER = re.compile(r"[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+")

#: Namespace of the ids of imported acts: the same act of the same round is the same event.
LOG_NAMESPACE = uuid.UUID("3d0f8a5e-7b61-4c2e-9a47-5e2b8c1d4f93")


@dataclass(frozen=True)
class RefereeAct:
    """One row of a referee log: an act, its instant (UTC) and its fields.

    ``id`` is the act's id (``L<line>`` unless the file gives one); ``fault`` is as written
    (a stroke's id, or ``cp:N`` for the group's N-th checkpoint breach).
    """

    line: int
    id: str
    at: datetime
    act: str
    group: str | None = None
    player: str | None = None
    hole: int | None = None
    kind: str | None = None
    first: bool = False
    seconds: timedelta | None = None
    between: bool = False
    fault: str | None = None
    decision: str | None = None
    reason: str | None = None
    minutes: float | None = None
    siren: str | None = None
    explicit_id: bool = False

    @property
    def started(self) -> datetime:
        """Return a stroke's start: its stop (``at``) less the seconds measured."""
        return self.at - (self.seconds or timedelta(0))


def parse_yes_no(text: str) -> bool:
    """Return a yes/no cell: ``yes``/``oui``/``1`` or ``no``/``non``/``0``/empty.

    >>> parse_yes_no("Yes"), parse_yes_no(""), parse_yes_no("non")
    (True, False, False)
    """
    folded = text.strip().casefold()
    if folded in YES:
        return True
    if folded in NO:
        return False
    raise ValueError(text)


def parse_decimal(text: str) -> float:
    """Return a decimal number written with ``.`` or ``,`` (``46,2`` is 46.2).

    >>> parse_decimal("46,2"), parse_decimal("6")
    (46.2, 6.0)
    """
    value = text.strip()
    if not _NUMBER.fullmatch(value):
        raise ValueError(text)
    return float(value.replace(",", "."))


def parse_referee_log(
    text: str,
    filename: str,
    *,
    day: date,
    tz: tzinfo,
    course: model.Course | None = None,
    groups: Sequence[model.Group] | None = None,
) -> tuple[RefereeAct, ...]:
    """Return a referee log's acts sorted by instant, then line; raise ``FileFormatError``.

    With ``course`` every hole must be on it; with ``groups`` (the draw) every group must be
    in it and every player in his group. A ``notify`` names a stroke of the same log (by its
    id) of the same player, or ``cp:N``.
    """
    table, problems = csvfile.read_table(text, filename, COLUMNS)
    draw = {g.id: g for g in groups} if groups is not None else None
    acts: list[RefereeAct] = []
    ids: dict[str, int] = {}

    def problem(line: int, name: str, message: str) -> None:
        problems.append(errors.Problem(filename, line, name, message))

    for row in table.rows:
        act = _act(row, problem, day=day, tz=tz, course=course, draw=draw)
        if act is None:
            continue
        first = ids.setdefault(act.id, row.line)
        if first != row.line:
            problem(row.line, "id", f"id {act.id!r} is already the id of line {first}")
            continue
        acts.append(act)

    strokes = {a.id: a for a in acts if a.act == "stroke"}
    for a in acts:
        if a.act == "notify" and a.fault is not None and not _CHECKPOINT.fullmatch(a.fault):
            target = strokes.get(a.fault)
            if target is None:
                problem(
                    a.line,
                    "fault",
                    f"fault {a.fault!r} is not the id of a stroke in this log; expected a "
                    "stroke's id (L<line> by default) or cp:N for the group's N-th checkpoint "
                    "breach",
                )
            elif (target.group, target.player) != (a.group, a.player):
                problem(
                    a.line,
                    "fault",
                    f"fault {a.fault!r} (line {target.line}) is {target.player!r}'s of group "
                    f"{target.group!r}, not {a.player!r}'s",
                )
    if not table.rows and not problems:
        problem(table.header_line, "act", "the log has no acts; expected one row per act")
    if problems:
        raise errors.FileFormatError(problems)
    return tuple(sorted(acts, key=lambda a: (a.at, a.line)))


def _act(
    row: csvfile.Row,
    problem,
    *,
    day: date,
    tz: tzinfo,
    course: model.Course | None,
    draw: Mapping[str, model.Group] | None,
) -> RefereeAct | None:
    """Return one row's act, or None after reporting its problems."""
    found: list[str] = []

    def bad(name: str, message: str) -> None:
        found.append(name)
        problem(row.line, name, message)

    def need(name: str, what: str) -> str:
        value = row.get(name)
        if not value:
            bad(name, f"{name} is empty; a {act!r} needs {what}")
        return value

    act = row.get("act").casefold()
    if act not in ACTS:
        bad("act", f"act {row.get('act')!r} is not an act; expected one of {', '.join(ACTS)}")
        act = ""
    at = None
    at_text = row.get("at")
    if not at_text:
        bad("at", "at is empty; expected the local time of the act, HH:MM:SS")
    else:
        try:
            at = times.to_utc(day, times.parse_clock(at_text), tz)
        except ValueError:
            bad("at", f"at {at_text!r} is not a time; expected HH:MM:SS")

    group = row.get("group") or None
    players: tuple[str, ...] = ()
    if act and act != "siren":
        if group is None:
            bad("group", f"group is empty; a {act!r} needs the group id as in the draw")
        elif draw is not None:
            if group not in draw:
                bad("group", f"group {group!r} is not in the draw")
            else:
                players = tuple(p.name for p in draw[group].players)
    player = row.get("player") or None
    if act in ("tell", "stroke", "notify"):
        if player is None:
            bad("player", f"player is empty; a {act!r} needs the player's name as in the draw")
        elif players and player not in players:
            bad(
                "player",
                f"{player!r} is not in group {group!r}; its players are "
                + ", ".join(repr(n) for n in players),
            )

    fields: dict[str, object] = {}
    if act == "stroke":
        fields.update(_stroke_fields(row, bad, need, course))
    elif act == "notify":
        fields["fault"] = need("fault", "the id of the fault the player was told of")
    elif act == "decide":
        decision = need("decision", "time or not_time").casefold()
        if decision and decision not in DECISIONS:
            bad("decision", f"decision {row.get('decision')!r} must be time or not_time")
        fields["decision"] = decision
        reason = row.get("reason")
        if decision == "not_time":
            key = reason.casefold()
            if key not in REASONS:
                bad(
                    "reason",
                    f"reason {reason!r} is not a mitigating circumstance; a decision not to "
                    "time needs one of ruling, lost_ball, unplayable, other",
                )
            fields["reason"] = REASONS.get(key)
        else:
            fields["reason"] = reason or None
    elif act == "credit":
        fields["reason"] = need("reason", "its reason, such as 'ruling on hole 4'")
        text = need("minutes", "the minutes credited")
        if text:
            try:
                minutes = parse_decimal(text)
            except ValueError:
                minutes = -1.0
            if not 0 < minutes <= MAX_CREDIT_MIN:
                bad(
                    "minutes",
                    f"minutes {text!r} must be a number above 0 and at most "
                    f"{MAX_CREDIT_MIN:g}, such as 6 or 2,5",
                )
            fields["minutes"] = minutes
    elif act == "stop":
        fields["reason"] = row.get("reason") or None
    elif act == "siren":
        siren = need("siren", "interruption, suspension or resume").casefold()
        if siren and siren not in SIRENS:
            bad("siren", f"siren {row.get('siren')!r} must be one of {', '.join(SIRENS)}")
        fields["siren"] = siren

    if found or at is None:
        return None
    given = row.get("id")
    return RefereeAct(
        line=row.line,
        id=given or f"L{row.line}",
        at=at,
        act=act,
        group=group if act != "siren" else None,
        player=player if act in ("tell", "stroke", "notify") else None,
        explicit_id=bool(given),
        **fields,  # type: ignore[arg-type]
    )


def _stroke_fields(row: csvfile.Row, bad, need, course: model.Course | None) -> dict[str, object]:
    out: dict[str, object] = {}
    between_text = row.get("between")
    try:
        out["between"] = parse_yes_no(between_text)
    except ValueError:
        bad("between", f"between {between_text!r} must be yes or no (or empty: no)")
        out["between"] = False
    hole_text = row.get("hole")
    out["hole"] = None
    if not hole_text:
        if not out["between"]:
            bad("hole", "hole is empty; a stroke needs the hole played (or between=yes)")
    else:
        try:
            hole = times.parse_hole_number(hole_text)
        except ValueError:
            bad("hole", f"hole {hole_text!r} is not a hole number")
        else:
            if course is not None and not course.has_hole(hole):
                bad(
                    "hole",
                    f"hole {hole} does not exist on this course; holes are "
                    f"{times.hole_range(course)}",
                )
            out["hole"] = hole
    kind = need("kind", f"the kind of stroke, one of {', '.join(KINDS)}").casefold()
    if kind and kind not in KINDS:
        bad("kind", f"kind {row.get('kind')!r} must be one of {', '.join(KINDS)}")
    out["kind"] = kind
    first_text = row.get("first")
    try:
        out["first"] = parse_yes_no(first_text)
    except ValueError:
        bad("first", f"first {first_text!r} must be yes or no")
    text = need("seconds", "the seconds measured, such as 46.2")
    if text:
        try:
            value = parse_decimal(text)
        except ValueError:
            value = -1.0
        if not 0 <= value <= MAX_SECONDS:
            bad(
                "seconds",
                f"seconds {text!r} must be the time measured, a number from 0 to "
                f"{MAX_SECONDS:g} (a decimal comma in a ','-separated file must be quoted)",
            )
        out["seconds"] = timedelta(seconds=value)
    return out


def load_referee_log(
    path: str | os.PathLike[str],
    *,
    day: date,
    tz: tzinfo,
    course: model.Course | None = None,
    groups: Sequence[model.Group] | None = None,
) -> tuple[RefereeAct, ...]:
    """Return the acts of the referee log CSV file at ``path``."""
    return parse_referee_log(
        csvfile.read_text(path), str(path), day=day, tz=tz, course=course, groups=groups
    )


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class LogEvents:
    """A referee log as the live commands' events, and the log's id of each event."""

    events: tuple[Event, ...]
    act_ids: Mapping[str, str] = field(default_factory=dict)  # event id -> the act's id


def to_events(acts: Sequence[RefereeAct], round: str, *, by: str = "referee log") -> LogEvents:
    """Return the events the live commands would record for ``acts``, in the acts' order.

    Each event's id derives from the round and the act's content (its explicit id too, not
    its line), so a re-import of the same log stores nothing new; identical acts are told
    apart by their rank. A ``notify`` names the stroke's event id, or the fault id of the
    group's N-th checkpoint breach for ``cp:N``.
    """
    author = {"role": "referee", "device": "import", "name": by}
    seen: Counter[str] = Counter()
    by_act: dict[str, str] = {}
    events: list[Event] = []
    act_ids: dict[str, str] = {}
    for a in acts:  # strokes first: a notify names its stroke's event
        if a.act == "stroke":
            by_act[a.id] = _event_id(round, _content(a, None), seen)
    for a in acts:
        fault = _fault(a, by_act) if a.act == "notify" else None
        if a.act == "stroke":
            event_id = by_act[a.id]
        else:
            event_id = _event_id(round, _content(a, fault), seen)
        type_, at, payload = _event(a, fault)
        events.append(Event(event_id, type_, round, at, payload, by=author))
        act_ids[event_id] = a.id
    return LogEvents(tuple(events), act_ids)


def _fault(a: RefereeAct, strokes: Mapping[str, str]) -> str:
    match = _CHECKPOINT.fullmatch(a.fault or "")
    if match:
        return penalties.checkpoint_fault_id(str(a.group), int(match[1]))
    return strokes[str(a.fault)]


def _content(a: RefereeAct, fault: str | None) -> dict[str, object]:
    return {
        "at": a.at.astimezone(UTC).isoformat(),
        "act": a.act,
        "group": a.group,
        "player": a.player,
        "hole": a.hole,
        "kind": a.kind,
        "first": a.first,
        "seconds": None if a.seconds is None else a.seconds.total_seconds(),
        "between": a.between,
        "fault": fault,
        "decision": a.decision,
        "reason": a.reason,
        "minutes": a.minutes,
        "siren": a.siren,
        "id": a.id if a.explicit_id else None,
    }


def _event_id(round: str, content: dict[str, object], seen: Counter[str]) -> str:
    key = canonical_json(content)
    seen[key] += 1
    return str(uuid.uuid5(LOG_NAMESPACE, f"{round}/{key}/{seen[key]}"))


def _event(a: RefereeAct, fault: str | None) -> tuple[str, datetime, dict[str, object]]:
    """Return the type, instant and payload the live command records for act ``a``."""
    group = a.group
    if a.act == "decide":
        note = a.reason if a.decision == "time" and a.reason else ""
        reason = a.reason if a.decision == "not_time" else None
        payload = {"group": group, "decision": a.decision, "reason": reason, "note": note}
        return refereeing.TIMING_DECIDED, a.at, payload
    if a.act == "tell":
        return refereeing.PLAYER_TOLD_TIMED, a.at, {"group": group, "player": a.player}
    if a.act == "stroke":
        payload = {
            "group": group,
            "player": a.player,
            "hole": a.hole,
            "kind": a.kind,
            "first_to_play": a.first,
            "between_holes": a.between,
            "started": a.started.isoformat(),
            "stopped": a.at.isoformat(),
        }
        return refereeing.STROKE_TIMED, a.at, payload
    if a.act == "notify":
        payload = {"group": group, "player": a.player, "fault": fault}
        return refereeing.PLAYER_NOTIFIED, a.at, payload
    if a.act == "credit":
        payload = {"group": group, "minutes": a.minutes, "reason": a.reason}
        return factsmod.TIME_CREDIT_GRANTED, a.at, payload
    if a.act == "stop":
        return refereeing.TIMING_STOPPED, a.at, {"group": group, "reason": a.reason or ""}
    return factsmod.SIREN, a.at, {"kind": a.siren}

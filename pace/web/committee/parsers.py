"""Parse the console's payloads: the changes on the day (each a typed command), and the new
round's setup (its form fields, the draw file's bytes).

Like ``pace.web.payloads``: every field checked, unknown ones refused, names and ids in their
canonical spelling, a refusal naming the field. Times of day (``start``, ``at``) are read as
``HH:MM`` here and placed on the round's day in its time zone by the handler, which knows the
round (the scope check has seen it exists and is the session's first).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, time
from typing import Any
from zoneinfo import available_timezones

from pace.formats import csvfile
from pace.formats.draw import parse_handicap, parse_tee_defaults
from pace.rules import changes as changesmod
from pace.rules.errors import Label, said
from pace.rules.model import Player
from pace.rules.reported import COMPLETIONS
from pace.rules.scoring import SCORINGS, handicaps
from pace.rules.scoring.teams import FORMATS
from pace.services import commands as cmd
from pace.web.payloads import (
    MAX_REASON,
    PayloadError,
    event_id,
    integer,
    mapping,
    optional_instant,
    text,
)

#: the group ids and player names of a change, as long as the service keeps them
GROUP_MAX, NAME_MAX = 50, 200
#: the players of a group added on the day
MAX_PLAYERS = 6
#: the largest draw file the console reads (the request body is capped lower still)
MAX_DRAW = 256 * 1024
PLAYS = ("stroke_play", "match_play")
SCORING_NAMES = tuple(s.name for s in SCORINGS)
FORMAT_NAMES = tuple(f.name for f in FORMATS)


@dataclass(frozen=True)
class Change:
    """A change on the day: which ``kind`` (``ChangeService``'s method), of which round, with
    its fields as the service takes them; ``id`` makes a resend store nothing twice."""

    kind: str
    id: str
    round: str
    by: cmd.Author
    fields: Mapping[str, Any]


_CLOCK = re.compile(r"\s*(\d{1,2}):(\d{2})\s*")


#: the languages of a round's documents the console offers (pace.i18n)
LANGUAGES = ("fr", "en", "nl")
#: the readings of the playing handicap's rounding (pace.rules.scoring.handicaps)
ROUNDINGS = handicaps.ROUNDINGS
#: the gross adjustment for tees of different par, as the forms send it
YES_NO = ("yes", "no")


def clock(p: Mapping[str, Any], name: str, *, required: bool = True) -> time | None:
    """Return a time of day ``HH:MM`` (on the round's day, placed by the handler)."""
    value = p.get(name)
    if value in (None, "") and not required:
        return None
    if not isinstance(value, str) or len(value) > 10:
        raise PayloadError(said("refusal.form.clock", "{field} must be a time of day such as "
                                "08:40", field=Label(name)), field=name)  # fmt: skip
    m = _CLOCK.fullmatch(value)
    if m is None or int(m[1]) > 23 or int(m[2]) > 59:
        raise PayloadError(said("refusal.form.not_clock", "{field} {value} is not a time of day "
                                "such as 08:40", field=Label(name), value=repr(value)),
                           field=name)  # fmt: skip
    return time(int(m[1]), int(m[2]))


def _reason(p: Mapping[str, Any], name: str = "reason", *, required: bool = True) -> str:
    return text(p, name, limit=MAX_REASON, prose=True, required=required)


def _handicap(p: Mapping[str, Any], name: str = "handicap") -> float | None:
    value = p.get(name)
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise PayloadError(said("refusal.form.handicap", "{field} must be a handicap index such "
                                "as 12.4", field=Label(name)), field=name)  # fmt: skip
    try:
        number = parse_handicap(str(value)) if isinstance(value, str) else float(value)
    except ValueError:
        raise PayloadError(
            said("refusal.form.not_handicap", "{field} {value} is not a handicap index; "
                 "expected 12.4, 12,4 or +2.1", field=Label(name), value=repr(str(value)[:20])),
            field=name,
        ) from None  # fmt: skip
    if not -10 <= number <= 54:
        raise PayloadError(said("refusal.form.handicap_range", "{field} {value} is out of range "
                                "+10 to 54", field=Label(name), value=number),
                           field=name)  # fmt: skip
    return number


def _player(p: object, field: str) -> Player:
    if isinstance(p, str):
        p = {"name": p}
    if not isinstance(p, Mapping):
        raise PayloadError(said("refusal.form.player", "{field}: expected a name, or {shape}",
                                field=Label(field), shape="{name, handicap, club}"),
                           field=field)  # fmt: skip
    q = mapping(p, ("name", "handicap", "club"))
    return Player(
        text(q, "name", limit=NAME_MAX),
        handicap=_handicap(q),
        club=text(q, "club", limit=100, required=False) or None,
    )


_WITHDRAW = ("id", "round", "player", "reason", "note", "at", "device_time")
_ADD_PLAYER = ("id", "round", "group", "player", "reason", "device_time")
_MOVE_PLAYER = ("id", "round", "player", "to", "reason", "device_time")
_SWAP = ("id", "round", "player", "other", "reason", "device_time")
_START = ("id", "round", "group", "start", "reason", "device_time")
_TEE = ("id", "round", "group", "tee", "reason", "device_time")
_TEES = ("id", "round", "player", "tees", "reason", "device_time")
_ADD_GROUP = ("id", "round", "group", "start", "tee", "players", "reason", "device_time")
_REMOVE_GROUP = ("id", "round", "group", "reason", "device_time")
_VOID = ("id", "round", "target", "reason", "device_time")


def _made(kind: str, p: Mapping[str, Any], by: cmd.Author, fields: dict[str, Any]) -> Change:
    optional_instant(p, "device_time")  # allowed on every command, as the docs say; not kept
    return Change(kind, event_id(p), text(p, "round"), by, fields)


def change_withdraw(payload: object, by: cmd.Author) -> Change:
    """``change_withdraw``: player, reason ``no_show``|``retired``, note, at (``HH:MM``)."""
    p = mapping(payload, _WITHDRAW)
    reason = text(p, "reason", limit=20)
    if reason not in changesmod.WITHDRAWALS:
        raise PayloadError(
            said("refusal.form.withdrawal", "{field} {value}: expected no_show (he never "
                 "started) or retired (he stopped during play)", field=Label("reason"),
                 value=repr(reason[:20])),
            field="reason",
        )  # fmt: skip
    fields = {
        "player": text(p, "player", limit=NAME_MAX),
        "reason": reason,
        "note": _reason(p, "note", required=False),
        "at": clock(p, "at", required=False),
    }
    return _made("withdraw", p, by, fields)


def change_add_player(payload: object, by: cmd.Author) -> Change:
    """``change_add_player``: group, player ``{name, handicap, club}``, reason."""
    p = mapping(payload, _ADD_PLAYER)
    fields = {
        "group": text(p, "group", limit=GROUP_MAX),
        "player": _player(p.get("player"), "player"),
        "reason": _reason(p),
    }
    return _made("add_player", p, by, fields)


def change_move_player(payload: object, by: cmd.Author) -> Change:
    """``change_move_player``: player, to (a group), reason."""
    p = mapping(payload, _MOVE_PLAYER)
    fields = {"player": text(p, "player", limit=NAME_MAX), "to": text(p, "to", limit=GROUP_MAX),
              "reason": _reason(p)}  # fmt: skip
    return _made("move_player", p, by, fields)


def change_swap(payload: object, by: cmd.Author) -> Change:
    """``change_swap``: player, other, reason."""
    p = mapping(payload, _SWAP)
    fields = {"player": text(p, "player", limit=NAME_MAX),
              "other": text(p, "other", limit=NAME_MAX), "reason": _reason(p)}  # fmt: skip
    return _made("swap", p, by, fields)


def change_start(payload: object, by: cmd.Author) -> Change:
    """``change_start``: group, start (``HH:MM``), reason."""
    p = mapping(payload, _START)
    fields = {"group": text(p, "group", limit=GROUP_MAX), "start": clock(p, "start"),
              "reason": _reason(p)}  # fmt: skip
    return _made("change_start", p, by, fields)


def change_tee(payload: object, by: cmd.Author) -> Change:
    """``change_tee``: group, tee (a hole), reason."""
    p = mapping(payload, _TEE)
    fields = {"group": text(p, "group", limit=GROUP_MAX), "tee": integer(p, "tee", 1, 99),
              "reason": _reason(p)}  # fmt: skip
    return _made("change_tee", p, by, fields)


def change_tees(payload: object, by: cmd.Author) -> Change:
    """``change_tees``: player, tees (a tee set of the course: its name or colour), reason."""
    p = mapping(payload, _TEES)
    fields = {"player": text(p, "player", limit=NAME_MAX), "tees": text(p, "tees", limit=40),
              "reason": _reason(p)}  # fmt: skip
    return _made("change_tees", p, by, fields)


def change_add_group(payload: object, by: cmd.Author) -> Change:
    """``change_add_group``: group, start (``HH:MM``), tee, players (1–6), reason."""
    p = mapping(payload, _ADD_GROUP)
    players = p.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise PayloadError(said("refusal.form.players", "{field} must be a list of 1 to {n} "
                                "players", field=Label("players"), n=MAX_PLAYERS),
                           field="players")  # fmt: skip
    people = [_player(x, "players") for x in players]
    fields = {"group": text(p, "group", limit=GROUP_MAX), "start": clock(p, "start"),
              "tee": integer(p, "tee", 1, 99), "players": people, "reason": _reason(p)}  # fmt: skip
    return _made("add_group", p, by, fields)


def change_remove_group(payload: object, by: cmd.Author) -> Change:
    """``change_remove_group``: group, reason."""
    p = mapping(payload, _REMOVE_GROUP)
    fields = {"group": text(p, "group", limit=GROUP_MAX), "reason": _reason(p)}
    return _made("remove_group", p, by, fields)


def change_void(payload: object, by: cmd.Author) -> Change:
    """``change_void``: target (the change's id), reason."""
    p = mapping(payload, _VOID)
    fields = {"target": event_id(p, "target"), "reason": _reason(p)}
    return _made("void", p, by, fields)


@dataclass(frozen=True)
class LifeAct:
    """A committee's act on a round's life: ``finish``, ``final`` or ``reopen`` (with its
    reason); ``RoundLifeService`` refuses an act already done, so a resend stores nothing."""

    act: str
    round: str
    by: cmd.Author
    reason: str = ""


_LIFE = ("id", "round", "device_time")
_REOPEN = ("id", "round", "reason", "device_time")


def _life(act: str, p: Mapping[str, Any], by: cmd.Author) -> LifeAct:
    if p.get("id") is not None:
        event_id(p)  # a page sends one with every command; its shape is checked, not kept
    optional_instant(p, "device_time")
    reason = _reason(p) if act == "reopen" else ""
    return LifeAct(act, text(p, "round"), by, reason)


def round_finish(payload: object, by: cmd.Author) -> LifeAct:
    """``round_finish``: round."""
    return _life("finish", mapping(payload, _LIFE), by)


def round_final(payload: object, by: cmd.Author) -> LifeAct:
    """``round_final``: round."""
    return _life("final", mapping(payload, _LIFE), by)


def round_reopen(payload: object, by: cmd.Author) -> LifeAct:
    """``round_reopen``: round, reason (required, audited)."""
    return _life("reopen", mapping(payload, _REOPEN), by)


# -- the new round's setup (a form, and the draw's file) -----------------------------------


@dataclass(frozen=True)
class RoundSetup:
    """The new round's form: what ``RoundService.prepare_draw`` takes, and the draw's text."""

    round: str
    course: str
    day: date
    timezone: str
    policy: str
    play: str | None
    format: str
    scoring: str | None
    net: bool
    allowance: tuple[float, ...] | None
    filename: str
    draw: str
    #: the round's default tees by gender or class (``men=Yellow, women=Red``), or none
    tees: dict[str, str] | None = None
    #: where the round's completions come from (None: the configuration's; issue 39)
    completions: str | None = None
    #: the language of the round's documents (fr, en, nl), or none: the configuration's
    language: str | None = None
    #: the round's readings of the handicap rules (issue 47), or none: the configuration's
    rounding: str | None = None
    gross_par_adjustment: bool | None = None


def _choice(form: Mapping[str, Any], name: str, choices: tuple[str, ...], *,
            required: bool = True) -> str | None:  # fmt: skip
    value = text(form, name, limit=40, required=required)
    if not value:
        return None
    if value not in choices:
        raise PayloadError(said("refusal.form.choice", "{field} {value}: expected one of "
                                "{choices}", field=Label(name), value=repr(value[:40]),
                                choices=", ".join(choices)), field=name)  # fmt: skip
    return value


def allowance(value: str) -> tuple[float, ...] | None:
    """Return an allowance in percent, ``85`` or ``60/40`` (greensome); empty: none."""
    if not value:
        return None
    try:
        parts = tuple(float(v.replace(",", ".")) for v in value.split("/"))
    except ValueError:
        parts = ()
    if not 1 <= len(parts) <= 2 or not all(0 <= v <= 100 for v in parts):
        raise PayloadError(
            said("refusal.form.allowance", "{field} {value} is not a percentage such as 85 "
                 "(greensome: 60/40)", field=Label("allowance"), value=repr(value[:20])),
            field="allowance",
        )  # fmt: skip
    return parts


def round_setup(form: Mapping[str, Any], file: Any, policies: tuple[str, ...]) -> RoundSetup:
    """Parse the new round's form and its draw file (bytes, decoded as ``pace import draw``
    reads a file: UTF-8 with or without a byte order mark, else a problem of the file)."""
    known = ("csrf", "round", "course", "date", "timezone", "policy", "play", "format",
             "scoring", "net", "allowance", "tees", "completions", "language", "rounding",
             "gross_par_adjustment")  # fmt: skip
    extra = [k for k in form if k not in known]
    if extra:
        name = str(extra[0])[:40]
        raise PayloadError(said("refusal.form.unknown_field", "unknown field {name}",
                                name=repr(name)), field=name, code="unknown_field")  # fmt: skip
    day_text = text(form, "date", limit=10)
    try:
        day = date.fromisoformat(day_text)
    except ValueError:
        raise PayloadError(said("refusal.form.date", "{field} {value} is not a day such as "
                                "2026-06-14", field=Label("date"), value=repr(day_text)),
                           field="date") from None  # fmt: skip
    if not 2000 <= day.year <= 2100:
        raise PayloadError(said("refusal.form.date_range", "{field} {value} is not a plausible "
                                "day", field=Label("date"), value=repr(day_text)),
                           field="date")  # fmt: skip
    timezone = text(form, "timezone", limit=60)
    if timezone not in available_timezones():
        raise PayloadError(said("refusal.form.timezone", "{field} {value}: expected an IANA time "
                                "zone such as Europe/Brussels", field=Label("timezone"),
                                value=repr(timezone[:60])), field="timezone")  # fmt: skip
    net = text(form, "net", limit=10, required=False) or "gross"
    if net not in ("net", "gross"):
        raise PayloadError(said("refusal.form.net", "{field}: expected net or gross",
                                field=Label("net")), field="net")  # fmt: skip
    if file is None or not getattr(file, "filename", None):
        raise PayloadError(said("refusal.form.draw", "choose the draw's CSV file"), field="draw",
                           code="missing_field")  # fmt: skip
    data = file.read(MAX_DRAW + 1)
    if len(data) > MAX_DRAW:
        raise PayloadError(said("refusal.form.draw_size", "the draw file is larger than {size} "
                                "KiB", size=MAX_DRAW // 1024), field="draw",
                           code="payload_too_large")  # fmt: skip
    filename = text({"f": file.filename}, "f", limit=200).rsplit("/", 1)[-1]
    return RoundSetup(
        round=text(form, "round", limit=100),
        course=text(form, "course", limit=200),
        day=day,
        timezone=timezone,
        policy=_choice(form, "policy", policies) or "",
        play=_choice(form, "play", PLAYS, required=False),
        format=_choice(form, "format", FORMAT_NAMES, required=False) or "individual",
        scoring=_choice(form, "scoring", SCORING_NAMES, required=False),
        net=net == "net",
        allowance=allowance(text(form, "allowance", limit=20, required=False)),
        filename=filename,
        draw=csvfile.decode(data, filename),
        tees=tee_defaults(text(form, "tees", limit=200, required=False)),
        completions=_choice(form, "completions", COMPLETIONS, required=False),
        language=_choice(form, "language", LANGUAGES, required=False),
        rounding=_choice(form, "rounding", ROUNDINGS, required=False),
        gross_par_adjustment=_yes_no(_choice(form, "gross_par_adjustment", YES_NO,
                                             required=False)),  # fmt: skip
    )


def _yes_no(value: str | None) -> bool | None:
    return None if value is None else value == "yes"


def handicap_readings(form: Mapping[str, Any]) -> dict[str, Any]:
    """Parse the round's handicap readings form (issue 47): ``rounding`` (``whs`` or
    ``course_then_playing``) and ``gross_par_adjustment`` (``yes`` or ``no``), both needed;
    any other field is refused."""
    unknown = sorted(k for k in form if k not in ("csrf", "rounding", "gross_par_adjustment"))
    if unknown:
        name = str(unknown[0])[:40]
        raise PayloadError(f"unknown field {name!r}", field=name, code="unknown_field")
    return {
        "rounding": _choice(form, "rounding", ROUNDINGS),
        "gross_par_adjustment": _choice(form, "gross_par_adjustment", YES_NO) == "yes",
    }


#: whether a round allows positions from the groups' phones (issue 48)
ON_OFF = ("on", "off")


def positions_setting(form: Mapping[str, Any]) -> bool:
    """Parse the round's positions form (issue 48): ``positions`` ``on`` or ``off``, needed;
    any other field is refused."""
    unknown = sorted(k for k in form if k not in ("csrf", "positions"))
    if unknown:
        name = str(unknown[0])[:40]
        raise PayloadError(f"unknown field {name!r}", field=name, code="unknown_field")
    return _choice(form, "positions", ON_OFF) == "on"


def tee_defaults(value: str) -> dict[str, str] | None:
    """Return the round's default tees the form gives (``men=Yellow, women=Red``); empty: none.
    Whether they are tee sets of the course is the service's check."""
    if not value:
        return None
    try:
        return parse_tee_defaults(value)
    except ValueError as e:
        raise PayloadError(f"tees: {e}", field="tees") from None

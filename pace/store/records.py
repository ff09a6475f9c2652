"""What the store's rows hold, whatever the engine: records, events as rows, setup checks.

Both engines (``pace.store.sqlite`` on SQLite, ``pace.store.pg`` on PostgreSQL) write the same
text in the same columns: instants as fixed-width ISO 8601 UTC text, JSON as canonical JSON,
durations as seconds. The functions here turn ``rules`` types into those values and back, and
refuse a bad setup with the field at fault, before any SQL runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import Enum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pace.rules.errors import SetupError, said
from pace.rules.events import Event, canonical_json
from pace.rules.model import Course, Group, Hole, TeeSet
from pace.rules.reported import COMPLETIONS
from pace.store.errors import UnknownRoundError
from pace.store.instants import from_iso as _from_iso
from pace.store.instants import iso as _iso

#: what a round's ``play`` and ``format`` columns allow (both engines' CHECK constraints)
PLAYS = ("stroke_play", "match_play")
FORMATS = ("individual", "foursome", "threesome", "greensome", "four_ball", "best_ball")

#: the row of ``app_secrets`` the readiness check (``/readyz``) rewrites: an instant, no secret
PROBE = "readyz_probe"

#: The ways a round may be scored (``pace.rules.scoring.SCORINGS``).
SCORINGS = ("stroke", "stableford", "match", "bogey", "par")

#: the roles migration m003 knew (a shipped migration keeps its own list; the roles of a
#: session are the access service's, ``pace.services.access.ROLES``)
M003_ROLES = ("committee", "referee", "marshal", "viewer")

#: the readings of the playing handicap's rounding migration m012 knows
#: (``pace.rules.scoring.handicaps.ROUNDINGS``)
M012_ROUNDINGS = ("whs", "course_then_playing")

#: the roles migration m005 knows: m003's and ``scorer``
M005_ROLES = ("committee", "referee", "scorer", "marshal", "viewer")


class Unset(Enum):
    UNSET = "unset"


UNSET = Unset.UNSET
"""Marks an ``update_round`` field left unchanged (``None`` is a real value there)."""


@dataclass(frozen=True)
class RoundRecord:
    """A round's stored setup: its course, day, policy and draw."""

    name: str
    course: Course
    day: date
    timezone: str
    policy: str
    standard_interval: timedelta | None
    groups: tuple[Group, ...] = ()
    play: str = "stroke_play"
    format: str = "individual"
    #: the scoring stored for the round; None: the one its form of play implies
    scoring: str | None = None
    net: bool = False
    #: the round's own handicap allowance for its format, in percent (None: the config's)
    allowance: tuple[float, ...] | None = None
    #: where completions come from: ``officials``, ``officials_and_groups`` or ``groups``
    #: (the groups' own scorecards report, docs/status.md "Groups' reports")
    completions: str = "officials"
    #: the language of the round's documents (report, letters, sheets; None: the config's)
    language: str | None = None
    #: the committee's readings of the handicap rules for the round (issue 47): the playing
    #: handicap's ``rounding`` (``whs`` or ``course_then_playing``) and whether gross stroke
    #: and match play from tees of different par take the ``gross_par_adjustment``; None:
    #: config.toml's ``[handicap]`` (a round stored before migration m012)
    rounding: str | None = None
    gross_par_adjustment: bool | None = None
    #: whether the round allows positions from the groups' phones (issue 48; off by default)
    positions: bool = False
    #: the club the round belongs to (issue 50; ``default``: a single-club instance's)
    club: str = "default"


@dataclass(frozen=True)
class RoundSummary:
    """One line of the list of rounds."""

    name: str
    course: str
    day: date
    groups: int
    events: int
    club: str = "default"


EVENT_COLUMNS = "seq, id, type, round, at, recorded_at, by, payload"


def differences(stored: Event, new: Event) -> str:
    names = [
        name
        for name, differs in (
            ("type", stored.type != new.type),
            ("round", stored.round != new.round),
            ("at", stored.at != new.at),
            ("payload", canonical_json(stored.payload) != canonical_json(new.payload)),
        )
        if differs
    ]
    return " and ".join(names)


def event_json(event: Event, name: str, value: Mapping[str, object]) -> str:
    if not isinstance(value, Mapping):
        raise ValueError(f"event {event.id!r}: {name} must be a mapping, not {value!r}")
    try:
        return canonical_json(dict(value))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"event {event.id!r}: {name} is not plain JSON: {exc}") from None


def event_from_row(row: Sequence[Any]) -> Event:
    seq, id_, type_, round_, at, recorded_at, by, payload = row
    return Event(
        id=id_,
        type=type_,
        round=round_,
        at=_from_iso(at),
        payload=json.loads(payload),
        by=json.loads(by),
        recorded_at=_from_iso(recorded_at),
        seq=seq,
    )


def unknown_round(name: str, *, field: str | None = "round") -> UnknownRoundError:
    shown = name if len(name) <= 60 else name[:60] + "…"
    return UnknownRoundError(
        said("refusal.round.unknown", "round {round} does not exist; create it with `pace "
             "import draw FILE --round NAME`", round=repr(shown)),
        field=field,
    )  # fmt: skip


def draw_rows(
    round: str, groups: Sequence[Group]
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    group_rows: list[dict[str, object]] = []
    player_rows: list[dict[str, object]] = []
    seen: set[str] = set()
    for position, group in enumerate(groups):
        where = f"groups[{position}]"
        if not isinstance(group.id, str) or not group.id.strip():
            raise SetupError(f"group {position + 1} needs an id, not {group.id!r}", field=where)
        if group.id in seen:
            raise SetupError(f"group id {group.id!r} appears twice in the draw", field=where)
        seen.add(group.id)
        try:
            start = _iso(group.start, f"group {group.id!r} start")
        except (TypeError, ValueError) as exc:
            raise SetupError(str(exc), field=f"{where}.start") from None
        group_rows.append(
            {"round": round, "id": group.id, "position": position, "start": start, "tee": group.tee}
        )
        for index, player in enumerate(group.players):
            player_rows.append(
                {
                    "round": round,
                    "group_id": group.id,
                    "position": index,
                    "name": player.name,
                    "handicap": player.handicap,
                    "side": player.side,
                    "club": player.club,
                    "class": player.class_name,
                    "match": player.match,
                    "tees": player.tees,
                    "gender": player.gender,
                    "language": player.language,
                }
            )
    return group_rows, player_rows


def holes_to_json(holes: Iterable[Hole]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for h in holes:
        hole: dict[str, object] = {
            "number": h.number,
            "par": h.par,
            "stroke_index": h.stroke_index,
            "length_m": h.length_m,
            "walk_s": h.walk.total_seconds(),
            "allotted_s": {str(size): t.total_seconds() for size, t in sorted(h.allotted.items())},
        }
        if h.bogey is not None:  # only when given, so courses stored before keep their text
            hole["bogey"] = h.bogey
        out.append(hole)
    return out


def course_json(course: Course) -> object:
    """Return what a course row's ``data`` holds: its holes, and with tee sets an object of
    ``holes`` and ``tees`` (a course without tee sets keeps the list courses always had)."""
    holes = holes_to_json(course.holes)
    if not course.tees:
        return holes
    tees = [
        {
            "name": t.name,
            "colour": t.colour,
            "slope": t.slope,
            "rating": t.rating,
            "women_slope": t.women_slope,
            "women_rating": t.women_rating,
            "par": {str(n): v for n, v in sorted(t.par.items())},
            "stroke_index": {str(n): v for n, v in sorted(t.stroke_index.items())},
            "length_m": {str(n): v for n, v in sorted(t.length_m.items())},
        }
        for t in course.tees
    ]
    return {"holes": holes, "tees": tees}


def course_from_row(
    name: str, data: str, slope: float | None = None, rating: float | None = None
) -> Course:
    stored = json.loads(data)
    tees: tuple[TeeSet, ...] = ()
    if isinstance(stored, dict):
        tees = tuple(
            TeeSet(
                t["name"],
                t["colour"],
                t["slope"],
                t["rating"],
                t["women_slope"],
                t["women_rating"],
                par={int(n): v for n, v in t["par"].items()},
                stroke_index={int(n): v for n, v in t["stroke_index"].items()},
                length_m={int(n): v for n, v in t["length_m"].items()},
            )
            for t in stored["tees"]
        )
        stored = stored["holes"]
    holes = tuple(
        Hole(
            number=h["number"],
            par=h["par"],
            stroke_index=h["stroke_index"],
            length_m=h["length_m"],
            walk=timedelta(seconds=h["walk_s"]),
            allotted={int(size): timedelta(seconds=s) for size, s in h["allotted_s"].items()},
            bogey=h.get("bogey"),
        )
        for h in stored
    )
    return Course(name, holes, slope=slope, rating=rating, tees=tees)


def check_timezone(timezone: str) -> None:
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise SetupError(
            f"unknown time zone {timezone!r}; use an IANA name such as 'Europe/Paris'",
            field="timezone",
        ) from None


def check_play(play: str, format: str) -> None:
    if play not in PLAYS:
        raise SetupError(f"play {play!r} must be one of {', '.join(PLAYS)}", field="play")
    if format not in FORMATS:
        raise SetupError(f"format {format!r} must be one of {', '.join(FORMATS)}", field="format")


def check_scoring(scoring: str | None, net: object) -> None:
    if scoring is not None and scoring not in SCORINGS:
        raise SetupError(
            f"scoring {scoring!r} must be one of {', '.join(SCORINGS)}", field="scoring"
        )
    if not isinstance(net, bool):
        raise SetupError(f"net must be true or false, not {net!r}", field="net")


def check_completions(completions: object) -> str:
    """Return a round's completions setting, checked (``SetupError`` naming the settings)."""
    if completions not in COMPLETIONS:
        raise SetupError(
            said("refusal.setup.completions", "completions {value} must be one of {names}",
                 value=repr(completions), names=", ".join(COMPLETIONS)),
            field="completions",
        )  # fmt: skip
    return str(completions)


def check_readings(rounding: object, gross_par_adjustment: object) -> None:
    """Refuse a round's handicap readings pace does not know (None: the configuration's)."""
    if rounding is not None and rounding not in M012_ROUNDINGS:
        raise SetupError(
            f"handicap rounding {rounding!r} must be one of {', '.join(M012_ROUNDINGS)}",
            field="rounding",
        )
    if gross_par_adjustment is not None and not isinstance(gross_par_adjustment, bool):
        raise SetupError(
            f"gross_par_adjustment must be true or false, not {gross_par_adjustment!r}",
            field="gross_par_adjustment",
        )


def allowance_json(allowance: Sequence[float] | None) -> str | None:
    if allowance is None:
        return None
    values = list(allowance)
    if not values or any(
        isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 100 for v in values
    ):
        raise SetupError(
            f"a round's allowance is one or two percentages from 0 to 100, not {allowance!r}",
            field="allowance",
        )
    return canonical_json([float(v) for v in values])


def check_policy(policy: str) -> None:
    if not isinstance(policy, str) or not policy.strip():
        raise SetupError(f"a round needs a pace policy, not {policy!r}", field="policy")


def interval_seconds(interval: timedelta | None) -> float | None:
    if interval is None:
        return None
    if not isinstance(interval, timedelta) or interval <= timedelta(0):
        raise SetupError(
            f"the standard interval must be a positive duration, not {interval!r}",
            field="standard_interval",
        )
    return interval.total_seconds()


@dataclass(frozen=True)
class NewRound:
    """A new round's setup checked and put as both engines store it."""

    allowance: str | None
    interval_s: float | None
    created_at: str


def checked_new_round(
    name: object,
    day: object,
    timezone: str,
    policy: str,
    play: str,
    format: str,
    scoring: str | None,
    net: object,
    allowance: Sequence[float] | None,
    standard_interval: timedelta | None,
    created_at: datetime | None,
) -> NewRound:
    """Check a new round's setup (``SetupError`` naming the field); return its stored forms."""
    if not isinstance(name, str) or not name.strip():
        raise SetupError(f"a round needs a name, not {name!r}", field="name")
    if isinstance(day, datetime) or not isinstance(day, date):
        raise SetupError(f"day must be a date, not {day!r}", field="day")
    check_timezone(timezone)
    check_policy(policy)
    check_play(play, format)
    check_scoring(scoring, net)
    return NewRound(
        allowance_json(allowance),
        interval_seconds(standard_interval),
        _iso(created_at or datetime.now(UTC), "created_at"),
    )


@dataclass(frozen=True)
class AccessCodeRecord:
    """A stored access code: its role, its round (``None``: every round) and its hash."""

    id: int
    round: str | None
    role: str
    prefix: str
    hash: str
    label: str | None
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True)
class SessionRecord:
    """A stored session: who it is (role, round, name, the club it acts in, the account that
    opened it) and until when it holds."""

    token_hash: str
    role: str
    round: str | None
    code: int | None
    name: str | None
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None
    club: str | None = None
    account: int | None = None


#: the club of a single-club instance, and of every row stored before clubs (m014): a round, a
#: course, a competition, the committee secret
DEFAULT_CLUB = "default"

#: the roles a person's account may hold in a club (issue 50); a phone's access code keeps the
#: round's roles
CLUB_ROLES = ("committee", "referee")


@dataclass(frozen=True)
class ClubRecord:
    """A club of the instance: its id (a slug, in addresses and commands) and its name."""

    id: str
    name: str
    created_at: datetime


@dataclass(frozen=True)
class AccountRecord:
    """A person's account: e-mail, name, the hash of a password (``None``: none set yet),
    whether an administrator of the instance, and since when disabled (``None``: active)."""

    id: int
    email: str
    name: str
    password: str | None
    admin: bool
    created_at: datetime
    disabled_at: datetime | None = None


@dataclass(frozen=True)
class AccessLogEntry:
    """One line of the access log: a sign-in, a failed attempt, a change of role."""

    id: int
    at: datetime
    club: str | None
    account: int | None
    who: str
    kind: str
    detail: str
    remote: str


#: the columns of ``access_codes`` and ``sessions``, in the order the records take them
CODE_COLUMNS = "id, round, role, prefix, hash, label, created_at, revoked_at"
SESSION_COLUMNS = (
    "token_hash, role, round, code, name, created_at, expires_at, revoked_at, club, account"
)


def code_from_row(row: Sequence[Any]) -> AccessCodeRecord:
    """Return the access code of an ``access_codes`` row (``CODE_COLUMNS``)."""
    id, round, role, prefix, hash, label, created, revoked = row
    return AccessCodeRecord(
        int(id), round, role, prefix, hash, label, _from_iso(created),
        _from_iso(revoked) if revoked else None,
    )  # fmt: skip


#: a stored instant's text, as a LIKE pattern (fixed-width ISO 8601 UTC, both engines)
INSTANT_LIKE = "'____-__-__T__:__:__.______+00:00'"

#: the ways a competition of several rounds is scored
#: (``pace.rules.scoring.competition.COMPETITION_SCORINGS``)
COMPETITION_SCORINGS = ("gross", "net", "points")


def competition_tables() -> list[str]:
    """Return m007's statements, written for both engines (the same SQL runs on each)."""
    scorings = ", ".join(f"'{s}'" for s in COMPETITION_SCORINGS)
    return [
        f"""
        CREATE TABLE competitions (
            name TEXT PRIMARY KEY NOT NULL,
            scoring TEXT NOT NULL CHECK (scoring IN ({scorings})),
            cut_after INTEGER CHECK (cut_after BETWEEN 1 AND 3),
            cut_top INTEGER CHECK (cut_top >= 1),
            cut_within INTEGER CHECK (cut_within >= 0),
            created_at TEXT NOT NULL CHECK (created_at LIKE {INSTANT_LIKE}),
            CHECK ((cut_after IS NULL AND cut_top IS NULL AND cut_within IS NULL)
                   OR (cut_after IS NOT NULL AND (cut_top IS NULL) <> (cut_within IS NULL)))
        )
        """,
        """
        CREATE TABLE competition_rounds (
            competition TEXT NOT NULL REFERENCES competitions(name) ON DELETE CASCADE,
            position INTEGER NOT NULL CHECK (position BETWEEN 1 AND 4),
            round TEXT NOT NULL REFERENCES rounds(name),
            PRIMARY KEY (competition, position),
            UNIQUE (competition, round)
        )
        """,
        "CREATE INDEX competition_rounds_round ON competition_rounds(round)",
    ]


#: the languages a round's documents and a player's letter may be in (pace.i18n.LANGUAGES)
LANGUAGES = ("fr", "en", "nl")


def check_language(language: str | None) -> None:
    """Refuse a round language pace has no catalogue for (None: the configuration's)."""
    if language is not None and language not in LANGUAGES:
        raise SetupError(
            f"language {language!r} must be one of {', '.join(LANGUAGES)}", field="language"
        )

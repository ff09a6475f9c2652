"""A round's backup: its setup and its whole log, as JSON Lines (``pace export round``).

Line 1 is the header: ``{"pace": "round", "version": 1, "course": …, "round": …, "groups":
…}``; every following line is one event of the log, in log order: ``{"id", "type", "at",
"recorded_at", "by", "payload"}``. Every line is canonical JSON (sorted keys, no spaces),
instants are ISO 8601 UTC with microseconds, durations seconds: the same round always gives
the same bytes, whatever database it was read from, so a backup restored and exported again
is identical to the first (``cmp`` says so), and so is every judgement made from it.

Parsing checks the whole file before anything is stored and reports every problem with the
file, its line and the field (``FileFormatError``). The sequence numbers are not kept: the
order of the lines is the log's order, which is all the judgement reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from pace.rules.errors import FileFormatError, Problem
from pace.rules.events import Event, canonical_json
from pace.rules.model import MEN, WOMEN, Course, Group, Hole, Player, TeeSet
from pace.rules.reported import COMPLETIONS
from pace.rules.scoring.handicaps import ROUNDINGS

KIND = "round"
VERSION = 1


@dataclass(frozen=True)
class RoundSetup:
    """What a round is besides its draw and its log (the store's ``rounds`` row)."""

    name: str
    day: date
    timezone: str
    policy: str
    standard_interval: timedelta | None = None
    play: str = "stroke_play"
    format: str = "individual"
    scoring: str | None = None
    net: bool = False
    allowance: tuple[float, ...] | None = None
    #: where completions come from (issue 39); written only when not ``officials``, so the
    #: backups of rounds without groups' reports read as before
    completions: str = "officials"
    #: the language of the round's documents (None: the configuration's)
    language: str | None = None
    #: the round's readings of the handicap rules (issue 47; None: the configuration's)
    rounding: str | None = None
    gross_par_adjustment: bool | None = None
    #: whether the round allows positions from the groups' phones (issue 48); written only
    #: when true. A backup holds no position: only the facts inferred from them
    positions: bool = False


@dataclass(frozen=True)
class Backup:
    """A parsed backup: the course, the round's setup, its draw and its log."""

    course: Course
    round: RoundSetup
    groups: tuple[Group, ...]
    events: tuple[Event, ...]


def _instant(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def dump(
    course: Course, round: RoundSetup, groups: Sequence[Group], events: Sequence[Event]
) -> str:
    """Return the backup of a round as text (one canonical JSON document per line)."""
    header = {
        "pace": KIND,
        "version": VERSION,
        "course": {
            "name": course.name,
            "slope": course.slope,
            "rating": course.rating,
            "holes": [_hole(h) for h in course.holes],
            **({"tees": [_tee_set(t) for t in course.tees]} if course.tees else {}),
        },
        "round": {
            "name": round.name,
            "day": round.day.isoformat(),
            "timezone": round.timezone,
            "policy": round.policy,
            "standard_interval_s": None
            if round.standard_interval is None
            else round.standard_interval.total_seconds(),
            "play": round.play,
            "format": round.format,
            "scoring": round.scoring,
            "net": round.net,
            "allowance": None if round.allowance is None else list(round.allowance),
            **({} if round.completions == "officials" else {"completions": round.completions}),
            # only when set: a backup of a round without one is as it was
            **({"language": round.language} if round.language is not None else {}),
            **({"rounding": round.rounding} if round.rounding is not None else {}),
            **(
                {"gross_par_adjustment": round.gross_par_adjustment}
                if round.gross_par_adjustment is not None
                else {}
            ),
            **({"positions": True} if round.positions else {}),
        },
        "groups": [
            {
                "id": g.id,
                "start": _instant(g.start),
                "tee": g.tee,
                "players": [
                    {
                        "name": p.name,
                        "handicap": p.handicap,
                        "side": p.side,
                        "club": p.club,
                        "class": p.class_name,
                        "match": p.match,
                        # only when set: a backup of a round without tees is as it was
                        **({"tees": p.tees} if p.tees is not None else {}),
                        **({"gender": p.gender} if p.gender is not None else {}),
                        **({"language": p.language} if p.language is not None else {}),
                    }
                    for p in g.players
                ],  # fmt: skip
            }
            for g in groups
        ],
    }
    lines = [canonical_json(header)]
    for e in events:
        lines.append(
            canonical_json(
                {
                    "id": e.id,
                    "type": e.type,
                    "at": _instant(e.at),
                    "recorded_at": None if e.recorded_at is None else _instant(e.recorded_at),
                    "by": dict(e.by),
                    "payload": dict(e.payload),
                }
            )
        )
    return "\n".join(lines) + "\n"


def _hole(h: Hole) -> dict[str, Any]:
    return {
        "number": h.number,
        "par": h.par,
        "stroke_index": h.stroke_index,
        "length_m": h.length_m,
        "walk_s": h.walk.total_seconds(),
        "allotted_s": {str(size): t.total_seconds() for size, t in sorted(h.allotted.items())},
        "bogey": h.bogey,
    }


class _Reader:
    """Collects the problems of one line; every value is read through ``take``."""

    def __init__(self, filename: str, line: int, problems: list[Problem]) -> None:
        self.filename, self.line, self.problems = filename, line, problems

    def fail(self, field: str, message: str) -> None:
        self.problems.append(Problem(self.filename, self.line, field, message))

    def take(self, data: Any, key: str, kind: type | tuple[type, ...], where: str = "",
             *, optional: bool = False) -> Any:  # fmt: skip
        name = f"{where}.{key}" if where else key
        if not isinstance(data, Mapping) or key not in data:
            if not optional:
                self.fail(name, "is missing")
            return None
        value = data[key]
        if value is None and optional:
            return None
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            self.fail(name, f"expected {_kind(kind)}, not {value!r}")
            return None
        if not isinstance(value, kind):
            self.fail(name, f"expected {_kind(kind)}, not {value!r}")
            return None
        return value

    def instant(self, data: Any, key: str, where: str = "", *, optional: bool = False) -> Any:
        text = self.take(data, key, str, where, optional=optional)
        if text is None:
            return None
        try:
            value = datetime.fromisoformat(text)
        except ValueError:
            value = None
        if value is None or value.tzinfo is None:
            self.fail(f"{where}.{key}" if where else key, f"expected an ISO 8601 instant with "
                      f"its offset, not {text!r}")  # fmt: skip
            return None
        return value.astimezone(UTC)


def _kind(kind: type | tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
             dict: "an object", list: "a list"}  # fmt: skip
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(dict.fromkeys(names.get(k, k.__name__) for k in kinds))


def parse(text: str, filename: str) -> Backup:
    """Parse a backup; raise ``FileFormatError`` naming every problem (file, line, field)."""
    problems: list[Problem] = []
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise FileFormatError([Problem(filename, 1, None, "empty file: not a pace backup")])
    documents: list[tuple[int, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            documents.append((number, json.loads(line)))
        except json.JSONDecodeError as e:
            problems.append(Problem(filename, number, None, f"not JSON: {e.msg}"))
    if problems:
        raise FileFormatError(problems)
    number, header = documents[0]
    head = _Reader(filename, number, problems)
    if not isinstance(header, dict) or header.get("pace") != KIND:
        raise FileFormatError([Problem(filename, number, "pace", "not a pace round backup")])
    if header.get("version") != VERSION:
        head.fail("version", f"version {header.get('version')!r} is not {VERSION}: made by "
                  "another version of pace")  # fmt: skip
    course = _course(head, header.get("course"))
    round = _round(head, header.get("round"))
    groups = _groups(head, header.get("groups"))
    events = []
    seen: dict[str, int] = {}
    for number, data in documents[1:]:
        reader = _Reader(filename, number, problems)
        event = _event(reader, data, round.name if round else "")
        if event is None:
            continue
        if event.id in seen:
            reader.fail("id", f"event {event.id!r} is already on line {seen[event.id]}")
            continue
        seen[event.id] = number
        events.append(event)
    if problems or course is None or round is None or groups is None:
        raise FileFormatError(problems or [Problem(filename, 1, None, "incomplete header")])
    return Backup(course, round, groups, tuple(events))


def _course(r: _Reader, data: Any) -> Course | None:
    name = r.take(data, "name", str, "course")
    holes = r.take(data, "holes", list, "course")
    slope = r.take(data, "slope", (int, float), "course", optional=True)
    rating = r.take(data, "rating", (int, float), "course", optional=True)
    parsed = []
    for i, h in enumerate(holes or ()):
        where = f"course.holes[{i}]"
        number = r.take(h, "number", int, where)
        par = r.take(h, "par", int, where)
        walk = r.take(h, "walk_s", (int, float), where)
        allotted = r.take(h, "allotted_s", dict, where)
        times = {}
        for size, seconds in (allotted or {}).items():
            if (
                not str(size).isdigit()
                or isinstance(seconds, bool)
                or not isinstance(seconds, int | float)
            ):
                r.fail(f"{where}.allotted_s", f"expected group sizes mapped to seconds, not "
                       f"{size!r}: {seconds!r}")  # fmt: skip
                continue
            times[int(size)] = timedelta(seconds=seconds)
        if number is None or par is None or walk is None:
            continue
        parsed.append(
            Hole(number, par, r.take(h, "stroke_index", int, where, optional=True),
                 r.take(h, "length_m", (int, float), where, optional=True),
                 timedelta(seconds=walk), times, r.take(h, "bogey", int, where, optional=True))
        )  # fmt: skip
    if name is None or holes is None:
        return None
    tees = tuple(
        t for i, data in enumerate(r.take(data, "tees", list, "course", optional=True) or ())
        if (t := _read_tee_set(r, data, f"course.tees[{i}]")) is not None
    )  # fmt: skip
    return Course(name, tuple(parsed), slope=slope, rating=rating, tees=tees)


def _tee_set(t: TeeSet) -> dict[str, object]:
    """Return a tee set as a backup's course carries it."""
    return {
        "name": t.name, "colour": t.colour, "slope": t.slope, "rating": t.rating,
        "women_slope": t.women_slope, "women_rating": t.women_rating,
        "par": {str(n): v for n, v in sorted(t.par.items())},
        "stroke_index": {str(n): v for n, v in sorted(t.stroke_index.items())},
        "length_m": {str(n): v for n, v in sorted(t.length_m.items())},
    }  # fmt: skip


def _read_tee_set(r: _Reader, data: Any, where: str) -> TeeSet | None:
    """Return a backup's tee set, or None after naming what is wrong with it."""
    name = r.take(data, "name", str, where)
    numbers = {}
    for key, kind in (("par", int), ("stroke_index", int), ("length_m", (int, float))):
        figures = r.take(data, key, dict, where) or {}
        for hole, value in figures.items():
            ok = isinstance(value, kind) and not isinstance(value, bool)
            if not (str(hole).isdigit() and ok):
                r.fail(f"{where}.{key}", f"expected hole numbers mapped to numbers, not "
                       f"{hole!r}: {value!r}")  # fmt: skip
                return None
        numbers[key] = {int(h): v for h, v in figures.items()}
    slope, rating, women_slope, women_rating = (
        r.take(data, key, (int, float), where, optional=True)
        for key in ("slope", "rating", "women_slope", "women_rating")
    )
    if name is None:
        return None
    return TeeSet(name, r.take(data, "colour", str, where, optional=True), slope, rating,
                  women_slope, women_rating, par=numbers["par"],
                  stroke_index=numbers["stroke_index"], length_m=numbers["length_m"])  # fmt: skip


def _language(r: _Reader, data: Any, where: str) -> str | None:
    """Return a backup player's letter language: fr, en, nl or none."""
    language = r.take(data, "language", str, where, optional=True)
    if language not in (None, "fr", "en", "nl"):
        r.fail(f"{where}.language", f"expected fr, en or nl, not {language!r}")
        return None
    return language


def _gender(r: _Reader, data: Any, where: str) -> str | None:
    """Return a backup player's gender: men, women or none."""
    gender = r.take(data, "gender", str, where, optional=True)
    if gender not in (None, MEN, WOMEN):
        r.fail(f"{where}.gender", f"expected men or women, not {gender!r}")
        return None
    return gender


def _round(r: _Reader, data: Any) -> RoundSetup | None:
    name = r.take(data, "name", str, "round")
    day_text = r.take(data, "day", str, "round")
    timezone = r.take(data, "timezone", str, "round")
    policy = r.take(data, "policy", str, "round")
    interval = r.take(data, "standard_interval_s", (int, float), "round", optional=True)
    play = r.take(data, "play", str, "round")
    format_ = r.take(data, "format", str, "round")
    scoring = r.take(data, "scoring", str, "round", optional=True)
    net = r.take(data, "net", bool, "round")
    allowance = r.take(data, "allowance", list, "round", optional=True)
    completions = r.take(data, "completions", str, "round", optional=True)
    if completions is not None and completions not in COMPLETIONS:
        r.fail(
            "round.completions", f"expected one of {', '.join(COMPLETIONS)}, not {completions!r}"
        )
        completions = None
    language = r.take(data, "language", str, "round", optional=True)
    if language not in (None, "fr", "en", "nl"):
        r.fail("round.language", f"expected fr, en or nl, not {language!r}")
        language = None
    rounding = r.take(data, "rounding", str, "round", optional=True)
    if rounding not in (None, *ROUNDINGS):
        r.fail("round.rounding", f"expected {' or '.join(ROUNDINGS)}, not {rounding!r}")
        rounding = None
    gross = r.take(data, "gross_par_adjustment", bool, "round", optional=True)
    positions = r.take(data, "positions", bool, "round", optional=True)
    day = None
    if day_text is not None:
        try:
            day = date.fromisoformat(day_text)
        except ValueError:
            r.fail("round.day", f"expected a date YYYY-MM-DD, not {day_text!r}")
    if allowance is not None and not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in allowance
    ):
        r.fail("round.allowance", f"expected a list of percentages, not {allowance!r}")
        allowance = None
    if None in (name, day, timezone, policy, play, format_, net):
        return None
    return RoundSetup(
        name, day, timezone, policy,  # type: ignore[arg-type]
        None if interval is None else timedelta(seconds=interval), play, format_, scoring,
        bool(net), None if allowance is None else tuple(float(v) for v in allowance),
        completions or "officials", language, rounding, gross, bool(positions),
    )  # fmt: skip


def _groups(r: _Reader, data: Any) -> tuple[Group, ...] | None:
    if not isinstance(data, list):
        r.fail("groups", f"expected a list, not {data!r}")
        return None
    groups = []
    for i, g in enumerate(data):
        where = f"groups[{i}]"
        gid = r.take(g, "id", str, where)
        start = r.instant(g, "start", where)
        tee = r.take(g, "tee", int, where)
        players = []
        for j, p in enumerate(r.take(g, "players", list, where) or ()):
            pw = f"{where}.players[{j}]"
            name = r.take(p, "name", str, pw)
            if name is None:
                continue
            players.append(
                Player(name, r.take(p, "handicap", (int, float), pw, optional=True),
                       r.take(p, "side", str, pw, optional=True),
                       r.take(p, "club", str, pw, optional=True),
                       r.take(p, "class", str, pw, optional=True),
                       r.take(p, "match", str, pw, optional=True),
                       r.take(p, "tees", str, pw, optional=True),
                       _gender(r, p, pw),
                       _language(r, p, pw))
            )  # fmt: skip
        if gid is not None and start is not None and tee is not None:
            groups.append(Group(gid, start, tee, tuple(players)))
    return tuple(groups)


def _event(r: _Reader, data: Any, round: str) -> Event | None:
    if not isinstance(data, dict):
        r.fail("", "expected an event object")
        return None
    id_ = r.take(data, "id", str)
    type_ = r.take(data, "type", str)
    at = r.instant(data, "at")
    recorded = r.instant(data, "recorded_at", optional=True)
    by = r.take(data, "by", dict)
    payload = r.take(data, "payload", dict)
    if None in (id_, type_, at, by, payload):
        return None
    return Event(id_, type_, round, at, payload, by, recorded_at=recorded)

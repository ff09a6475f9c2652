"""A course's own map (issues 40 and 46): its holes' geometry read from an OpenStreetMap export
and checked against the course (docs/formats.md, "Course geometry").

The file is read by :mod:`pace.formats.mapfile` (safely: every malformed file is refused in
words). Its ``golf=hole`` ways are then taken for the course: all of them when the file holds
one course; else those of the course the committee chose, by the name of the OpenStreetMap
golf course (``leisure=golf_course``) the holes lie in (or name in ``golf:course:name``), or by
a ref pattern (``*W`` for Royal Melbourne's West course, ``1W`` … ``18W``; ``* - #2`` for
Pinehurst No. 2). Each hole takes the tee area nearest the start of its line and the green
area nearest its end (within :data:`NEAR_M`; else the line's ends). Checked against the
course: every hole of the course found once, no other, pars agreeing; else every problem is
raised at once, by hole, and nothing is stored.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pace.formats import mapfile
from pace.formats.mapfile import MAX_BYTES, MapFile, MapHole, Point, ProblemList
from pace.rules.errors import FileFormatError, Problem
from pace.rules.model import Course

__all__ = ["MAX_BYTES", "Choice", "MapFileError", "MapMatch", "match_map", "parse_geometry"]

#: a tee or green area belongs to the hole whose line starts (ends) within this distance
NEAR_M = 150.0
#: a choice by the OpenStreetMap golf course's name, or by a ref pattern
COURSE, REFS = "course", "refs"
#: a ref longer than this is no hole's (its number is not looked for)
MAX_REF = 40
#: the courses of a file offered at most (a site has a handful; a hostile file, thousands)
MAX_CHOICES = 40
_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Choice:
    """One course of a file: ``value`` is its OpenStreetMap golf course's name (``kind``
    COURSE) or its holes' ref pattern (REFS, ``*`` where the number goes); ``refs`` are its
    holes' refs in the order of their numbers."""

    kind: str
    value: str
    refs: tuple[str, ...]

    @property
    def label(self) -> str:
        """The choice as the problems name it: ``course 'West' (18 holes)``."""
        kind = "course" if self.kind == COURSE else "refs"
        return f"{kind} {self.value!r} ({len(self.refs)} holes)"

    def to_dict(self) -> dict[str, Any]:
        """The choice as the course page's select offers it."""
        return {"kind": self.kind, "value": self.value, "holes": len(self.refs),
                "first": self.refs[0] if self.refs else None,
                "last": self.refs[-1] if self.refs else None}  # fmt: skip


@dataclass(frozen=True)
class MapMatch:
    """A map file matched to a course: the ``geometry`` to store, the ``holes`` matched as
    the preview shows them (number, ref, par, length and name as the file gives them), the
    file's ``choices`` and the one ``chosen`` (None: the file's only course)."""

    geometry: dict[str, Any]
    holes: list[dict[str, Any]]
    choices: tuple[Choice, ...]
    chosen: Choice | None


class MapFileError(FileFormatError):
    """A map file refused (every problem, by hole), with the courses it holds (``choices``):
    ``map_course_required`` when it holds several and none was chosen."""

    def __init__(
        self, problems: Sequence[Problem], choices: Sequence[Choice] = (), code: str | None = None
    ) -> None:
        super().__init__(list(problems))
        self.choices = tuple(choices)
        if code is not None:
            self.code = code


def parse_geometry(
    data: bytes, filename: str, course: Course, *, map_course: str = "", ref_pattern: str = ""
) -> dict[str, Any]:
    """Return the geometry of ``course``'s holes read from ``data`` (.osm XML or GeoJSON):
    ``{source, holes: [{number, par, line, tee, green, tee_area, green_area}]}``, points as
    ``[lon, lat]``. Every problem, by hole, is raised at once (``FileFormatError``)."""
    return match_map(data, filename, course, map_course=map_course,
                     ref_pattern=ref_pattern).geometry  # fmt: skip


def match_map(
    data: bytes, filename: str, course: Course, *, map_course: str = "", ref_pattern: str = ""
) -> MapMatch:
    """Return ``data``'s holes matched to ``course``: those of the file's only course, or of
    the one chosen by its OpenStreetMap name (``map_course``) or by ``ref_pattern``.

    ``MapFileError`` with every problem and the file's courses: ``map_course_required`` when
    it holds several and none is chosen; ``FileFormatError`` when it cannot be read."""
    found = mapfile.read_map(data, filename)
    problems = ProblemList(filename)
    numbered = _families(found.holes)
    try:
        courses = _courses(found)
    except ValueError:
        problems.add(
            "the golf courses' areas are drawn with too many points to place the holes in them"
            f" (more than {mapfile.MAX_AREA_CHECKS} checks); export only the course's area"
        )
        raise MapFileError(problems.listed()) from None
    choices = _choices(found, numbered, courses)
    chosen: Choice | None = None
    pattern = ""
    if map_course.strip() and ref_pattern.strip():
        problems.add("choose the course by its name or by a ref pattern, not both")
    elif map_course.strip():
        named = [c for c in choices if c.kind == COURSE]
        chosen = next((c for c in named if _key(c.value) == _key(map_course)), None)
        if chosen is None:
            _unknown_course(found, map_course, choices, problems)
        else:
            members = courses[_key(chosen.value)]
            pattern = _only_pattern([numbered[i] for i in members])
    elif ref_pattern.strip():
        members, pattern = _by_pattern(found, ref_pattern, numbered, choices, problems)
        if members:
            chosen = Choice(REFS, pattern, _refs(found, numbered, members))
    else:
        members = list(range(len(found.holes)))
        pattern = _only_pattern(numbered)
        if _several(numbered, choices):
            problems.add(
                f"the file holds {len(choices)} courses; choose the one to import:"
                f" {', '.join(c.label for c in choices)}"
            )
            raise MapFileError(problems.listed(), choices, code="map_course_required")
    if problems:
        raise MapFileError(problems.listed(), choices)
    taken = [(found.holes[i], numbered[i]) for i in members]
    geometry, rows = _check(taken, pattern, found, course, problems)
    if problems:
        raise MapFileError(problems.listed(), choices)
    return MapMatch(geometry, rows, choices, chosen)


# -- the courses a file holds ----------------------------------------------------------------


def _spaced(text: str) -> str:
    return " ".join(text.split())


def _key(text: str) -> str:
    """Return a name or pattern as compared: NFC, spaces collapsed, case folded."""
    return unicodedata.normalize("NFC", _spaced(text)).casefold()


def _templates(ref: str) -> list[tuple[str, int]]:
    """Return each way of reading ``ref`` as a pattern and a hole number: one per run of
    digits (``1 - #2``: ``* - #2`` hole 1, or ``1 - #*`` hole 2).

    >>> _templates("1 - #2"), _templates("W12"), _templates("Tea Olive")
    ([('* - #2', 1), ('1 - #*', 2)], [('W*', 12)], [])
    """
    ref = _spaced(ref)
    if len(ref) > MAX_REF:
        return []
    return [(ref[: m.start()] + "*" + ref[m.end():], int(m.group()))
            for m in list(_NUMBER.finditer(ref))[:4] if len(m.group()) <= 3]  # fmt: skip


def _families(holes: Sequence[MapHole]) -> list[tuple[str, int] | None]:
    """Return each hole's pattern and number: of its readings, the pattern most holes share
    (the leftmost number on a tie), so ``1 - #2`` … ``18 - #2`` read as ``* - #2``."""
    readings = [_templates(h.tags.get("ref", "")) for h in holes]
    counts = Counter(_key(t) for r in readings for t, _ in set(r))
    return [max(r, key=lambda c: counts[_key(c[0])]) if r else None for r in readings]


def _choices(
    found: MapFile, numbered: Sequence[tuple[str, int] | None], courses: Mapping[str, list[int]]
) -> tuple[Choice, ...]:
    """Return the courses a file holds: its named golf courses with holes (in the file's
    order), then its refs' patterns (the most holes first)."""
    names: dict[str, str] = {}
    for area in found.courses:
        names.setdefault(_key(area.name), area.name)
    for hole in found.holes:
        tagged = _spaced(hole.tags.get("golf:course:name", ""))
        if tagged:
            names.setdefault(_key(tagged), tagged)
    out = [Choice(COURSE, name, _refs(found, numbered, courses[key]))
           for key, name in names.items() if courses.get(key)]  # fmt: skip
    named = {frozenset(members) for members in courses.values()}
    families: dict[str, list[int]] = {}
    spelt: dict[str, str] = {}
    for i, n in enumerate(numbered):
        if n is not None:
            families.setdefault(_key(n[0]), []).append(i)
            spelt.setdefault(_key(n[0]), n[0])
    for key, members in sorted(families.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        # a pattern is a course of its own when it numbers each hole once, and is not a
        # named course's holes over again (Royal Melbourne's West: its area and its 1W…18W)
        numbers = [numbered[i] for i in members]
        if len(set(numbers)) == len(numbers) and frozenset(members) not in named:
            out.append(Choice(REFS, spelt[key], _refs(found, numbered, members)))
    return tuple(out[:MAX_CHOICES])


def _refs(
    found: MapFile, numbered: Sequence[tuple[str, int] | None], members: list[int]
) -> tuple[str, ...]:
    order = sorted(members, key=lambda i: (numbered[i] or ("", 10_000))[1])
    return tuple(_spaced(found.holes[i].tags.get("ref", "")) or "?" for i in order)


def _samples(line: Sequence[Point]) -> list[Point]:
    """Return the points that place a hole: its line's ends and the point half along it."""
    if not line:
        return []
    lengths = [_metres(a, b) for a, b in zip(line, line[1:], strict=False)]
    half, walked = sum(lengths) / 2, 0.0
    middle = line[0]
    for (a, b), length in zip(zip(line, line[1:], strict=False), lengths, strict=True):
        if walked + length >= half and length > 0:
            share = (half - walked) / length
            middle = (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)
            break
        walked += length
    return [line[0], middle, line[-1]]


def _courses(found: MapFile) -> dict[str, list[int]]:
    """Return the holes of each named golf course (by its key): those that name it
    (``golf:course:name``), and those naming none whose line lies in its area (two of its
    three points, tee end, middle and green end, inside). ``ValueError`` past the budget."""
    samples = [_samples(h.line) for h in found.holes]
    owner = [i for i, s in enumerate(samples) for _ in s]
    index = mapfile.PointIndex([p for s in samples for p in s])
    inside: list[set[str]] = [set() for _ in found.holes]
    for area in found.courses:
        if area.missing:
            continue
        counts = Counter(owner[p] for p in index.inside(area.lines))
        for i, n in counts.items():
            if n * 2 > len(samples[i]):
                inside[i].add(_key(area.name))
    out: dict[str, list[int]] = {}
    for i, hole in enumerate(found.holes):
        tagged = _spaced(hole.tags.get("golf:course:name", ""))
        for key in [_key(tagged)] if tagged else sorted(inside[i]):
            out.setdefault(key, []).append(i)
    return out


def _only_pattern(numbered: Sequence[tuple[str, int] | None]) -> str:
    """Return the one pattern of these holes' refs ("*" for plain numbers), or ""."""
    keys = {_key(n[0]): n[0] for n in numbered if n is not None}
    return next(iter(keys.values())) if len(keys) == 1 else ""


def _several(numbered: Sequence[tuple[str, int] | None], choices: Sequence[Choice]) -> bool:
    """Whether a file holds several courses: refs of several patterns (``1W`` and ``1E``),
    or a hole number twice in a file with several named golf courses."""
    patterns = {_key(n[0]) for n in numbered if n is not None}
    twice = any(k > 1 for k in Counter((_key(n[0]), n[1]) for n in numbered if n).values())
    named = [c for c in choices if c.kind == COURSE]
    return len(patterns) > 1 or (twice and len(named) > 1)


def _unknown_course(
    found: MapFile, name: str, choices: Sequence[Choice], problems: ProblemList
) -> None:
    cut = next((a for a in found.courses if _key(a.name) == _key(name) and a.missing), None)
    if cut is not None:
        problems.add(
            f"golf course {cut.name[:60]!r} ({cut.where}): its outline is not whole in the file"
            f" ({cut.missing} missing); export the whole course"
        )
        return
    problems.add(
        f"the file has no golf course {_spaced(name)[:60]!r} with holes; its courses:"
        f" {', '.join(c.label for c in choices) or 'none'}"
    )


def _by_pattern(
    found: MapFile,
    text: str,
    numbered: list[tuple[str, int] | None],
    choices: Sequence[Choice],
    problems: ProblemList,
) -> tuple[list[int], str]:
    """Return the holes whose ref fits the pattern ``text`` (``*`` the hole number; spaces
    and case not counted: ``*-#2`` fits ``1 - #2``), numbered by it; the pattern as spelt."""
    pattern = _spaced(text)
    if pattern.count("*") != 1 or len(pattern) > MAX_REF:
        problems.add(
            f"ref pattern {pattern[:MAX_REF]!r}: put one * where the hole number goes"
            " (*W for 1W, 2W, …)"
        )
        return [], pattern
    before, after = (re.escape("".join(p.split())) for p in pattern.split("*"))
    fits = re.compile(rf"{before}([0-9]{{1,3}}){after}", re.IGNORECASE)
    members = []
    for i, hole in enumerate(found.holes):
        match = fits.fullmatch("".join(hole.tags.get("ref", "").split()))
        if match:
            numbered[i] = (pattern, int(match.group(1)))
            members.append(i)
    if not members:
        problems.add(
            f"no hole's ref fits the pattern {pattern!r}; the file's courses:"
            f" {', '.join(c.label for c in choices) or 'none'}"
        )
    return members, pattern


# -- checked against the course --------------------------------------------------------------


def _check(
    taken: list[tuple[MapHole, tuple[str, int] | None]],
    pattern: str,
    found: MapFile,
    course: Course,
    problems: ProblemList,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    pars = {h.number: h.par for h in course.holes}
    by_hole: dict[int, list[MapHole]] = {}
    for hole, numbered in taken:
        ref = _spaced(hole.tags.get("ref", ""))
        if not ref:
            problems.add(f"{hole.where} is a golf=hole without a ref: which hole is it?", "ref")
            continue
        if numbered is None or numbered[1] not in pars:
            problems.add(
                f"hole {ref[:20]!r} ({hole.where}): the course has no such hole"
                f" (holes {min(pars)}–{max(pars)})", "ref",
            )  # fmt: skip
            continue
        by_hole.setdefault(numbered[1], []).append(hole)
    tees = _centred(found.areas["tee"])
    greens = _centred(found.areas["green"])
    holes, rows = [], []
    for number in sorted(pars):
        ways = by_hole.get(number, [])
        if not ways:
            ref = pattern.replace("*", str(number)) if pattern else str(number)
            problems.add(f"hole {number}: not in the file (no golf=hole way with ref={ref})")
            continue
        if len(ways) > 1:
            problems.add(
                f"hole {number}: found {len(ways)} times ({', '.join(w.where for w in ways)})"
            )
            continue
        hole = ways[0]
        par = hole.tags.get("par", "").strip()
        if par and par != str(pars[number]):
            problems.add(
                f"hole {number}: par {par[:10]} in the file, par {pars[number]} in the course",
                "par",
            )
            continue
        line = hole.line
        if len(line) < 2:
            problems.add(f"hole {number} ({hole.where}): its line has fewer than two points")
            continue
        tee_area = _nearest(tees, line[0])
        green_area = _nearest(greens, line[-1])
        holes.append({
            "number": number,
            "par": pars[number],
            "line": [list(p) for p in line],
            "tee": list(_centre(tee_area) if tee_area else line[0]),
            "green": list(_centre(green_area) if green_area else line[-1]),
            "tee_area": [list(p) for p in tee_area] if tee_area and len(tee_area) > 2 else None,
            "green_area": (
                [list(p) for p in green_area] if green_area and len(green_area) > 2 else None
            ),
        })  # fmt: skip
        rows.append({
            "number": number,
            "ref": _spaced(hole.tags.get("ref", ""))[:MAX_REF],
            "par": par[:10] or None,
            "length": _spaced(hole.tags.get("dist", ""))[:20] or None,
            "name": _spaced(hole.tags.get("name", ""))[:60] or None,
        })  # fmt: skip
    return {"source": found.filename, "holes": holes}, rows


def _metres(a: Point, b: Point) -> float:
    lat = math.radians((a[1] + b[1]) / 2)
    dx = math.radians(b[0] - a[0]) * math.cos(lat)
    dy = math.radians(b[1] - a[1])
    return 6371000.0 * math.hypot(dx, dy)


def _centre(ring: Sequence[Point]) -> Point:
    pts = list(ring[:-1]) if len(ring) > 1 and ring[0] == ring[-1] else list(ring)
    return (
        round(sum(p[0] for p in pts) / len(pts), mapfile.DECIMALS),
        round(sum(p[1] for p in pts) / len(pts), mapfile.DECIMALS),
    )


def _centred(areas: Sequence[Sequence[Point]]) -> list[tuple[Point, Sequence[Point]]]:
    return [(_centre(a), a) for a in areas if a]


def _nearest(areas: Sequence[tuple[Point, Sequence[Point]]], to: Point) -> Sequence[Point] | None:
    best = min(areas, key=lambda a: _metres(a[0], to), default=None)
    if best is None or _metres(best[0], to) > NEAR_M:
        return None
    return best[1]


def geometry_geojson(geometry: Mapping[str, Any]) -> str:
    """Return a stored geometry as GeoJSON that :func:`parse_geometry` reads back to it
    (``pace export course``)."""
    features = []
    for h in geometry["holes"]:
        features.append({
            "type": "Feature",
            "properties": {"golf": "hole", "ref": str(h["number"]), "par": str(h["par"])},
            "geometry": {"type": "LineString", "coordinates": h["line"]},
        })  # fmt: skip
        for kind in ("tee", "green"):
            area = h.get(f"{kind}_area")
            shape = ({"type": "Polygon", "coordinates": [area]} if area
                     else {"type": "Point", "coordinates": h[kind]})  # fmt: skip
            features.append({"type": "Feature", "properties": {"golf": kind}, "geometry": shape})
    return json.dumps({"type": "FeatureCollection", "features": features}, indent=1) + "\n"

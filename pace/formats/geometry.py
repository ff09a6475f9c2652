"""A course's own map (issue 40): its holes' geometry read from an OpenStreetMap export and
checked against the course (docs/formats.md, "Course geometry").

Read: ``golf=hole`` ways (their ``ref``, the hole's number, and ``par``; the way is the hole's
line of play, tee to green), ``golf=tee`` and ``golf=green`` areas (ways, or points), from an
``.osm`` XML export or GeoJSON. Each hole takes the tee area nearest the start of its line and
the green area nearest its end (within :data:`NEAR_M`; else the line's ends). Checked against
the course: every hole of the course found once, no other, pars agreeing; else every problem
is raised at once, by hole, and nothing is stored.

XML is read with the standard library's parser, after refusing any document type declaration:
an OpenStreetMap export has none, and a DTD is what entity expansion ("billion laughs") and
external entities need; the file's size is capped first (:data:`MAX_BYTES`). No new dependency
(defusedxml would refuse the same declarations).
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from pace.rules.errors import FileFormatError, Problem
from pace.rules.model import Course

#: the largest file read (an export of a whole club's features is well under 1 MB)
MAX_BYTES = 5 * 1024 * 1024
#: a tee or green area belongs to the hole whose line starts (ends) within this distance
NEAR_M = 150.0
#: decimals kept of a coordinate (about 1 cm)
DECIMALS = 7
_DECLARATION = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)

Point = tuple[float, float]  # (lon, lat)


def _point(lon: Any, lat: Any) -> Point:
    x, y = float(lon), float(lat)
    if not (-180 <= x <= 180 and -90 <= y <= 90) or math.isnan(x) or math.isnan(y):
        raise ValueError(f"({lon}, {lat}) is not a longitude and latitude")
    return (round(x, DECIMALS), round(y, DECIMALS))


def _metres(a: Point, b: Point) -> float:
    lat = math.radians((a[1] + b[1]) / 2)
    dx = math.radians(b[0] - a[0]) * math.cos(lat)
    dy = math.radians(b[1] - a[1])
    return 6371000.0 * math.hypot(dx, dy)


def _centre(ring: Sequence[Point]) -> Point:
    pts = list(ring[:-1]) if len(ring) > 1 and ring[0] == ring[-1] else list(ring)
    return (
        round(sum(p[0] for p in pts) / len(pts), DECIMALS),
        round(sum(p[1] for p in pts) / len(pts), DECIMALS),
    )


class _Found:
    """What a file holds: the hole ways, the tee and green areas, and the problems met."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.holes: list[tuple[str, Mapping[str, str], list[Point]]] = []  # (where, tags, line)
        self.areas: dict[str, list[list[Point]]] = {"tee": [], "green": []}
        self.problems: list[Problem] = []

    def problem(self, message: str, field: str | None = None) -> None:
        self.problems.append(Problem(self.filename, None, field, message))


def _read_osm(data: bytes, found: _Found) -> None:
    if _DECLARATION.search(data):
        found.problem(
            "the file declares a document type or entities (<!DOCTYPE, <!ENTITY): an"
            " OpenStreetMap export has none, and they can expand without bound; refused"
        )
        return
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        found.problem(f"not readable as XML: {e}")
        return
    if root.tag != "osm":
        found.problem(
            f"the root element is <{root.tag[:40]}>, not <osm>: not an OpenStreetMap export"
        )
        return
    nodes: dict[str, Point] = {}
    for n in root.iter("node"):
        try:
            nodes[n.get("id", "")] = _point(n.get("lon"), n.get("lat"))
        except (TypeError, ValueError):
            found.problem(f"node {n.get('id', '?')[:20]}: no valid lat and lon")
    for w in root.iter("way"):
        tags = {t.get("k", ""): t.get("v", "") for t in w.iter("tag")}
        kind = tags.get("golf")
        if kind not in ("hole", "tee", "green"):
            continue
        refs = [nd.get("ref", "") for nd in w.iter("nd")]
        missing = [r for r in refs if r not in nodes]
        where = f"way {w.get('id', '?')[:20]}"
        if missing:
            found.problem(f"{where} (golf={kind}): node {missing[0][:20]} is not in the file")
            continue
        line = [nodes[r] for r in refs]
        if kind == "hole":
            found.holes.append((where, tags, line))
        elif line:
            found.areas[kind].append(line)
    for n in root.iter("node"):  # a tee or a green mapped as a point
        tags = {t.get("k", ""): t.get("v", "") for t in n.iter("tag")}
        if tags.get("golf") in ("tee", "green") and n.get("id", "") in nodes:
            found.areas[tags["golf"]].append([nodes[n.get("id", "")]])


def _read_geojson(data: bytes, found: _Found) -> None:
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        found.problem(f"not readable as JSON: {e}")
        return
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        found.problem("not a GeoJSON FeatureCollection")
        return
    for i, f in enumerate(doc.get("features") or []):
        props = (f or {}).get("properties") or {}
        kind = props.get("golf")
        if kind not in ("hole", "tee", "green"):
            continue
        geom = (f or {}).get("geometry") or {}
        where = f"feature {i + 1}"
        try:
            gtype, coords = geom.get("type"), geom.get("coordinates")
            if gtype == "LineString":
                line = [_point(*c[:2]) for c in coords]
            elif gtype == "Polygon":
                line = [_point(*c[:2]) for c in coords[0]]
            elif gtype == "Point":
                line = [_point(*coords[:2])]
            else:
                found.problem(
                    f"{where} (golf={kind}): a {str(gtype)[:20]}, not a line, area or point"
                )
                continue
        except (TypeError, ValueError, IndexError):
            found.problem(
                f"{where} (golf={kind}): its coordinates are not longitudes and latitudes"
            )
            continue
        tags = {str(k): str(v) for k, v in props.items()}
        if kind == "hole":
            found.holes.append((where, tags, line))
        elif line:
            found.areas[kind].append(line)


def parse_geometry(data: bytes, filename: str, course: Course) -> dict[str, Any]:
    """Return the geometry of ``course``'s holes read from ``data`` (.osm XML or GeoJSON):
    ``{source, holes: [{number, par, line, tee, green, tee_area, green_area}]}``, points as
    ``[lon, lat]``. Every problem, by hole, is raised at once (``FileFormatError``)."""
    found = _Found(filename)
    if len(data) > MAX_BYTES:
        found.problem(
            f"the file is {len(data) / 1048576:.1f} MB: more than the {MAX_BYTES // 1048576} MB"
            " a course's map may take (export only the course's area)"
        )
        raise FileFormatError(found.problems)
    head = data.lstrip()[:1]
    if head == b"<":
        _read_osm(data, found)
    elif head == b"{":
        _read_geojson(data, found)
    else:
        found.problem("neither an OpenStreetMap XML export (.osm) nor GeoJSON")
    if found.problems:
        raise FileFormatError(found.problems)
    pars = {h.number: h.par for h in course.holes}
    by_hole: dict[int, list[tuple[str, Mapping[str, str], list[Point]]]] = {}
    for where, tags, line in found.holes:
        ref = tags.get("ref", "").strip()
        if not ref:
            found.problem(f"{where} is a golf=hole without a ref: which hole is it?", "ref")
            continue
        if not ref.isdigit() or int(ref) not in pars:
            found.problem(
                f"hole {ref[:20]!r} ({where}): the course has no such hole"
                f" (holes {min(pars)}–{max(pars)})", "ref",
            )  # fmt: skip
            continue
        by_hole.setdefault(int(ref), []).append((where, tags, line))
    holes = []
    for number in sorted(pars):
        ways = by_hole.get(number, [])
        if not ways:
            found.problem(f"hole {number}: not in the file (no golf=hole way with ref={number})")
            continue
        if len(ways) > 1:
            found.problem(
                f"hole {number}: found {len(ways)} times ({', '.join(w for w, _, _ in ways)})"
            )
            continue
        where, tags, line = ways[0]
        par = tags.get("par", "").strip()
        if par and par != str(pars[number]):
            found.problem(
                f"hole {number}: par {par[:10]} in the file, par {pars[number]} in the course",
                "par",
            )
            continue
        if len(line) < 2:
            found.problem(f"hole {number} ({where}): its line has fewer than two points")
            continue
        tee_area = _nearest(found.areas["tee"], line[0])
        green_area = _nearest(found.areas["green"], line[-1])
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
    if found.problems:
        raise FileFormatError(found.problems)
    return {"source": filename, "holes": holes}


def _nearest(areas: Sequence[Sequence[Point]], to: Point) -> Sequence[Point] | None:
    best = min(areas, key=lambda a: _metres(_centre(a), to), default=None)
    if best is None or _metres(_centre(best), to) > NEAR_M:
        return None
    return best


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

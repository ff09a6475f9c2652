"""A course's map file read safely (issues 40 and 46): an OpenStreetMap export, ``.osm`` XML or
GeoJSON, as clubs find it, into what pace uses of it (docs/formats.md, "Course geometry").

Read: the ``golf=hole`` ways (their tags and their line of play), the ``golf=tee`` and
``golf=green`` areas (ways, polygons or points), and the named ``leisure=golf_course`` areas
(closed ways, multipolygon relations; GeoJSON polygons) that tell a site's courses apart.

Every malformed file is refused with a sentence, never a traceback: its size first (the real
size, :data:`MAX_BYTES`), a byte-order mark taken off (UTF-8, as Notepad writes it; UTF-16 and
UTF-32 read too), XML through defusedxml, which refuses any document type declaration or entity
in whatever encoding the file is written (a "billion laughs" in UTF-16 included), elements
nested deeper than an export nests them, JSON nested beyond the interpreter's limit, and every
value of the wrong type (a feature that is not an object, coordinates that are not numbers).
At most :data:`MAX_PROBLEMS` problems are listed.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import defusedxml
from defusedxml.ElementTree import DefusedXMLParser

from pace.rules.errors import FileFormatError, Problem

#: the largest file read, in bytes (an export of a whole club's features is well under 1 MB);
#: sizes are said in MB of 1024 × 1024 bytes, as Windows counts them
MAX_BYTES = 5 * 1024 * 1024
#: decimals kept of a coordinate (about 1 cm)
DECIMALS = 7
#: an OpenStreetMap export nests <osm><way><tag>: 3 deep; deeper is not an export
MAX_XML_DEPTH = 8
#: problems listed at most (a hostile file may hold a million); the rest are counted
MAX_PROBLEMS = 50
#: point-in-area tests allowed to place the holes in the courses' areas (a real site needs
#: tens of thousands; a file drawn to make it quadratic is refused instead)
MAX_AREA_CHECKS = 2_000_000
#: the tags read from GeoJSON properties; their values must be texts or numbers
TAGS = ("golf", "ref", "par", "name", "dist", "leisure", "golf:course:name")

Point = tuple[float, float]  # (lon, lat)
_BOMS = (
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xfe\xff", "utf-16"),
    (b"\xff\xfe", "utf-16"),
)


@dataclass(frozen=True)
class MapHole:
    """A ``golf=hole`` way: where it is in the file, its tags and its line of play."""

    where: str
    tags: Mapping[str, str]
    line: tuple[Point, ...]


@dataclass(frozen=True)
class CourseArea:
    """A ``leisure=golf_course`` area: its name and its outline's lines (rings, or a
    relation's member ways, which join into rings); ``missing`` names what of it the file
    lacks (an area cut by the export's box), empty when it is whole."""

    name: str
    where: str
    lines: tuple[tuple[Point, ...], ...]
    missing: str = ""


@dataclass
class MapFile:
    """What a map file holds: its holes, tee and green areas, and named course areas."""

    filename: str
    holes: list[MapHole] = field(default_factory=list)
    areas: dict[str, list[tuple[Point, ...]]] = field(
        default_factory=lambda: {"tee": [], "green": []}
    )
    courses: list[CourseArea] = field(default_factory=list)


class ProblemList:
    """The problems met, at most :data:`MAX_PROBLEMS` of them kept."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.found: list[Problem] = []
        self.more = 0

    def add(self, message: str, field: str | None = None) -> None:
        if len(self.found) < MAX_PROBLEMS:
            self.found.append(Problem(self.filename, None, field, message))
        else:
            self.more += 1

    def __bool__(self) -> bool:
        return bool(self.found)

    def listed(self) -> list[Problem]:
        """Return the problems kept, and a last one counting those left out."""
        more = [Problem(self.filename, None, None, f"{self.more} more problems not listed")]
        return self.found + (more if self.more else [])

    def raise_any(self) -> None:
        """Raise every problem at once (``FileFormatError``), if any."""
        if self.found:
            raise FileFormatError(self.listed())


def size_problem(size: int | None, filename: str) -> FileFormatError | None:
    """Return the refusal of a file of ``size`` bytes when it is over :data:`MAX_BYTES`: its
    real size in MB to a tenth, never said as the limit itself (``None``: a file known only to
    be over it, its upload cut off there)."""
    limit = f"the {MAX_BYTES // 1048576} MB a course's map may take (export only the course's area)"
    if size is None:
        message = f"the file is more than {limit}"
    elif size > MAX_BYTES:
        megabytes = max(round(size / 1048576, 1), MAX_BYTES // 1048576 + 0.1)
        message = f"the file is {megabytes:.1f} MB: more than {limit}"
    else:
        return None
    return FileFormatError([Problem(filename, None, None, message)])


def read_map(data: bytes, filename: str) -> MapFile:
    """Return what the map file ``data`` holds (.osm XML or GeoJSON, any byte-order mark);
    every problem at once (``FileFormatError``) when it is not a readable, safe export."""
    too_large = size_problem(len(data), filename)
    if too_large is not None:
        raise too_large
    problems = ProblemList(filename)
    found = MapFile(filename)
    encoding = _encoding(data)
    start = data[:4096].decode(encoding, errors="ignore").lstrip("\ufeff \t\r\n")
    if not start and len(data) <= 4096:
        problems.add("the file is empty; expected an OpenStreetMap export (.osm XML or GeoJSON)")
    elif start[:1] == "<":
        _read_osm(data, found, problems)
    elif start[:1] in ("{", "["):
        _read_geojson(data, encoding, found, problems)
    else:
        problems.add("neither an OpenStreetMap XML export (.osm) nor GeoJSON")
    problems.raise_any()
    return found


# -- shared ----------------------------------------------------------------------------------


def _encoding(data: bytes) -> str:
    """Return the encoding a file's first bytes show: its byte-order mark, else UTF-16 by
    its zero bytes around the first character (XML's appendix F), else UTF-8."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding
    if len(data) >= 2 and (data[0] == 0) != (data[1] == 0):
        return "utf-16-be" if data[0] == 0 else "utf-16-le"
    return "utf-8"


def _point(lon: Any, lat: Any) -> Point:
    x, y = float(lon), float(lat)
    if not (-180 <= x <= 180 and -90 <= y <= 90) or math.isnan(x) or math.isnan(y):
        raise ValueError(f"({lon}, {lat}) is not a longitude and latitude")
    return (round(x, DECIMALS), round(y, DECIMALS))


def _add(found: MapFile, where: str, tags: Mapping[str, str], line: tuple[Point, ...]) -> None:
    kind = tags.get("golf")
    if kind == "hole":
        found.holes.append(MapHole(where, dict(tags), line))
    elif kind in ("tee", "green") and line:
        found.areas[kind].append(line)


# -- .osm XML --------------------------------------------------------------------------------


class _TooDeepError(ValueError):
    """An element nested deeper than an OpenStreetMap export nests them."""


class _NotOsmError(ValueError):
    """The root element is not ``<osm>``."""


@dataclass
class _Element:
    kind: str
    attrib: dict[str, str]
    tags: dict[str, str] = field(default_factory=dict)
    nds: list[str] = field(default_factory=list)
    members: list[tuple[str, str]] = field(default_factory=list)  # (type, ref)


class _OsmTarget:
    """expat's target: an export's nodes, ways and relations, with no tree built, and no
    element deeper than :data:`MAX_XML_DEPTH`."""

    def __init__(self) -> None:
        self.depth = 0
        self.current: _Element | None = None
        self.elements: list[_Element] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_XML_DEPTH:
            raise _TooDeepError
        if self.depth == 1 and tag != "osm":
            raise _NotOsmError(tag)
        if self.depth == 2 and tag in ("node", "way", "relation"):
            self.current = _Element(tag, dict(attrib))
        elif self.depth == 3 and self.current is not None:
            if tag == "tag":
                self.current.tags[attrib.get("k", "")] = attrib.get("v", "")
            elif tag == "nd":
                self.current.nds.append(attrib.get("ref", ""))
            elif tag == "member":
                self.current.members.append((attrib.get("type", ""), attrib.get("ref", "")))

    def end(self, tag: str) -> None:
        self.depth -= 1
        if self.depth == 1 and self.current is not None:
            self.elements.append(self.current)
            self.current = None

    def data(self, text: str) -> None:
        pass

    def close(self) -> list[_Element]:
        return self.elements


def _read_osm(data: bytes, found: MapFile, problems: ProblemList) -> None:
    target = _OsmTarget()
    parser = DefusedXMLParser(target=target, forbid_dtd=True)
    try:
        parser.feed(data)
        elements: list[_Element] = parser.close()
    except defusedxml.DefusedXmlException:
        problems.add(
            "the file declares a document type or entities (<!DOCTYPE, <!ENTITY): an"
            " OpenStreetMap export has none, and they can expand without bound; refused"
        )
        return
    except _TooDeepError:
        problems.add(
            f"the XML nests elements more than {MAX_XML_DEPTH} deep (an OpenStreetMap export"
            " nests 3): not an OpenStreetMap export"
        )
        return
    except _NotOsmError as e:
        problems.add(f"the root element is <{str(e)[:40]}>, not <osm>: not an OpenStreetMap export")
        return
    except ET.ParseError as e:
        problems.add(f"not readable as XML: {e}")
        return
    nodes: dict[str, Point] = {}
    for n in (e for e in elements if e.kind == "node"):
        try:
            nodes[n.attrib.get("id", "")] = _point(n.attrib.get("lon"), n.attrib.get("lat"))
        except (TypeError, ValueError):
            problems.add(f"node {n.attrib.get('id', '?')[:20]}: no valid lat and lon")
    ways: dict[str, list[str]] = {}
    for w in (e for e in elements if e.kind == "way"):
        ways[w.attrib.get("id", "")] = w.nds
        where = f"way {w.attrib.get('id', '?')[:20]}"
        kind = w.tags.get("golf")
        missing = [r for r in w.nds if r not in nodes]
        if kind in ("hole", "tee", "green"):
            if missing:
                problems.add(f"{where} (golf={kind}): node {missing[0][:20]} is not in the file")
                continue
            _add(found, where, w.tags, tuple(nodes[r] for r in w.nds))
        elif w.tags.get("leisure") == "golf_course" and w.tags.get("name", "").strip():
            line = tuple(nodes[r] for r in w.nds if r in nodes)
            gap = f"node {missing[0][:20]}" if missing else ""
            if not gap and (len(line) < 4 or line[0] != line[-1]):
                gap = "its closing node"
            found.courses.append(CourseArea(w.tags["name"].strip(), where, (line,), gap))
    for n in (e for e in elements if e.kind == "node"):  # a tee or a green mapped as a point
        if n.tags.get("golf") in ("tee", "green") and n.attrib.get("id", "") in nodes:
            found.areas[n.tags["golf"]].append((nodes[n.attrib.get("id", "")],))
    for r in (e for e in elements if e.kind == "relation"):
        if r.tags.get("leisure") != "golf_course" or not r.tags.get("name", "").strip():
            continue
        lines, gap = [], ""
        for kind, ref in r.members:
            if kind != "way":
                continue
            if ref not in ways or any(n not in nodes for n in ways[ref]):
                gap = gap or f"way {ref[:20]}"
                continue
            lines.append(tuple(nodes[n] for n in ways[ref]))
        where = f"relation {r.attrib.get('id', '?')[:20]}"
        found.courses.append(CourseArea(r.tags["name"].strip(), where, tuple(lines), gap))


# -- GeoJSON ---------------------------------------------------------------------------------


def what(value: Any) -> str:
    """Return the JSON type of ``value`` in words ("a list"), for a problem's sentence."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    return "a list" if isinstance(value, list) else "an object"


def _position(value: Any) -> Point:
    """Return a GeoJSON position ``[lon, lat, ...]``; ``ValueError`` when it is not one."""
    if (
        not isinstance(value, list)
        or len(value) < 2
        or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in value[:2])
    ):
        raise ValueError("not a position")
    return _point(value[0], value[1])


def _positions(value: Any, closed: bool = False) -> tuple[Point, ...]:
    if not isinstance(value, list):
        raise ValueError("not a list of positions")
    line = tuple(_position(c) for c in value)
    if closed and line and line[0] != line[-1]:
        line += (line[0],)
    return line


def _tags(props: Mapping[str, Any], where: str, problems: ProblemList) -> dict[str, str] | None:
    tags: dict[str, str] = {}
    for key in TAGS:
        value = props.get(key)
        if value is None:
            continue
        if isinstance(value, str):
            tags[key] = value
        elif isinstance(value, int | float) and not isinstance(value, bool):
            tags[key] = str(int(value)) if float(value).is_integer() else str(value)
        else:
            problems.add(f"{where}: its {key} is {what(value)}, not a text or a number", key)
            return None
    return tags


def _read_geojson(data: bytes, encoding: str, found: MapFile, problems: ProblemList) -> None:
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        problems.add(
            f"the file is not {encoding.removesuffix('-sig').upper()} text (byte {e.start + 1}"
            " cannot be read as such); save it as UTF-8"
        )
        return
    try:
        doc = json.loads(text)
    except RecursionError:
        problems.add("the JSON is nested too deep to be GeoJSON (a map nests 6 levels)")
        return
    except ValueError as e:
        problems.add(f"not readable as JSON: {e}")
        return
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        problems.add("not a GeoJSON FeatureCollection")
        return
    features = doc.get("features")
    if not isinstance(features, list):
        problems.add(f"the FeatureCollection's features are {what(features)}, not a list")
        return
    for i, f in enumerate(features, start=1):
        where = f"feature {i}"
        if not isinstance(f, dict):
            problems.add(f"{where} is {what(f)}, not a GeoJSON feature (an object)")
            continue
        props = f.get("properties")
        if props is None:
            continue
        if not isinstance(props, dict):
            problems.add(f"{where}: its properties are {what(props)}, not an object")
            continue
        tags = _tags(props, where, problems)
        if tags is None:
            continue
        kind = tags.get("golf")
        if kind in ("hole", "tee", "green"):
            _feature(f.get("geometry"), where, f"golf={kind}", tags, found, problems)
        elif tags.get("leisure") == "golf_course" and tags.get("name", "").strip():
            _feature(f.get("geometry"), where, "leisure=golf_course", tags, found, problems)


def _feature(
    geom: Any, where: str, tag: str, tags: dict[str, str], found: MapFile, problems: ProblemList
) -> None:
    if not isinstance(geom, dict):
        problems.add(f"{where} ({tag}): its geometry is {what(geom)}, not a GeoJSON geometry")
        return
    gtype, coords = geom.get("type"), geom.get("coordinates")
    area = tag == "leisure=golf_course"
    try:
        if area and gtype == "Polygon":
            lines = tuple(_positions(ring, closed=True) for ring in _list(coords))
        elif area and gtype == "MultiPolygon":
            lines = tuple(
                _positions(ring, closed=True) for poly in _list(coords) for ring in _list(poly)
            )
        elif not area and gtype == "LineString":
            lines = (_positions(coords),)
        elif not area and gtype == "Polygon":
            lines = (_positions(_list(coords)[0], closed=True),) if coords else ((),)
        elif not area and gtype == "Point":
            lines = ((_position(coords),),)
        else:
            shape = str(gtype)[:20]
            if area:
                problems.add(f"{where} ({tag}): a {shape}, not an area")
            else:
                problems.add(f"{where} ({tag}): a {shape}, not a line, area or point")
            return
    except ValueError:
        problems.add(f"{where} ({tag}): its coordinates are not longitudes and latitudes")
        return
    if area:
        found.courses.append(CourseArea(tags["name"].strip(), where, lines))
    else:
        _add(found, where, tags, lines[0])


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError("not a list")
    return value


# -- which holes lie in which area -----------------------------------------------------------


class PointIndex:
    """Points sorted by latitude, to find those inside areas: each edge of an area tests
    only the points within its own span of latitudes (even-odd over every edge), within a
    budget of tests (:data:`MAX_AREA_CHECKS`) shared by every area asked about.

    >>> index = PointIndex([(0.5, 0.5), (2.0, 0.5), (0.2, 0.9)])
    >>> sorted(index.inside([((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0))]))
    [0, 2]
    """

    def __init__(self, points: Sequence[Point], budget: int = MAX_AREA_CHECKS) -> None:
        self.points = points
        self.order = sorted(range(len(points)), key=lambda i: points[i][1])
        self.ys = [points[i][1] for i in self.order]
        self.budget = budget

    def inside(self, lines: Sequence[Sequence[Point]]) -> set[int]:
        """Return the indices of the points inside the area drawn by ``lines`` (its rings,
        or the member ways that join into them). ``ValueError`` past the budget."""
        spans = []
        for line in lines:
            for (x1, y1), (x2, y2) in zip(line, line[1:], strict=False):
                if y1 != y2:
                    lo, hi = sorted((y1, y2))
                    a, b = bisect_left(self.ys, lo), bisect_left(self.ys, hi)
                    spans.append((x1, y1, x2, y2, a, b))
                    self.budget -= 1 + b - a
        if self.budget < 0:
            raise ValueError(MAX_AREA_CHECKS)
        found: set[int] = set()
        for x1, y1, x2, y2, a, b in spans:
            for k in range(a, b):
                i = self.order[k]
                x, y = self.points[i]
                if x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                    found.symmetric_difference_update((i,))
        return found

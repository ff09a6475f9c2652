"""Make the map files of tests/data/formats/maps (issue 46): sites with several courses, mapped
the ways clubs map them on OpenStreetMap, each written as an ``.osm`` export and as GeoJSON
(overpass turbo's shape: ``id`` "way/12", the tags and ``@id`` in ``properties``).

- ``melbourne``: two nine-hole courses side by side (after Royal Melbourne), told apart both
  ways: their ``leisure=golf_course`` areas ("West Course" a closed way, "East Course" a
  multipolygon relation of two ways; a MultiPolygon in GeoJSON) and their refs ``1W`` …
  ``9W``, ``1E`` … ``9E``. The West holes carry ``dist`` and a few a ``name``; East's hole 2
  is a par 3 where West's is a par 4.
- ``links``: two courses with plain refs 1 … 9 each (after St Andrews): the "Old Course" told
  apart by its area only, the "New Course" by its holes' ``golf:course:name`` only.
- ``pinehurst``: refs ``1 - #2`` … and ``1 - #4`` …, no area (after Pinehurst No. 2 and 4).
- ``notepad``: one course, saved as Notepad saves: a UTF-8 byte-order mark, CRLF lines.

The nine-hole course they are checked against is ``course_nine.toml`` (West's pars).
Run ``python tests/data/formats/maps/make_maps.py`` to write them again.
"""

from __future__ import annotations

import json
from pathlib import Path
from xml.sax.saxutils import quoteattr

HERE = Path(__file__).resolve().parent
PARS = [4, 4, 3, 5, 4, 4, 3, 5, 4]
EAST_PARS = [4, 3, 3, 5, 4, 4, 3, 5, 4]
NAMES = {1: "Tea Tree", 6: "The Dell"}


class Site:
    """An OpenStreetMap export being written: nodes, ways and relations with their tags."""

    def __init__(self) -> None:
        self.next_id = 1
        self.nodes: list[tuple[int, float, float]] = []
        self.ways: list[tuple[int, list[int], dict[str, str]]] = []
        self.relations: list[tuple[int, list[int], dict[str, str]]] = []

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def node(self, lon: float, lat: float) -> int:
        n = self._id()
        self.nodes.append((n, round(lon, 7), round(lat, 7)))
        return n

    def way(self, points: list[tuple[float, float]], tags: dict[str, str], closed=False) -> int:
        ids = [self.node(*p) for p in points]
        return self.way_of([*ids, ids[0]] if closed else ids, tags)

    def way_of(self, ids: list[int], tags: dict[str, str]) -> int:
        w = self._id()
        self.ways.append((w, ids, tags))
        return w

    def relation(self, ways: list[int], tags: dict[str, str]) -> int:
        r = self._id()
        self.relations.append((r, ways, tags))
        return r

    def osm(self) -> str:
        out = ["<?xml version='1.0' encoding='UTF-8'?>",
               '<osm version="0.6" generator="pace tests (make_maps.py)">']  # fmt: skip
        lons = [n[1] for n in self.nodes]
        lats = [n[2] for n in self.nodes]
        out.append(f'  <bounds minlat="{min(lats)}" minlon="{min(lons)}" maxlat="{max(lats)}"'
                   f' maxlon="{max(lons)}"/>')  # fmt: skip
        for n, lon, lat in self.nodes:
            out.append(f'  <node id="{n}" version="1" lat="{lat:.7f}" lon="{lon:.7f}"/>')
        for w, ids, tags in self.ways:
            out.append(f'  <way id="{w}" version="1">')
            out += [f'    <nd ref="{i}"/>' for i in ids]
            out += [f"    <tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in tags.items()]
            out.append("  </way>")
        for r, ways, tags in self.relations:
            out.append(f'  <relation id="{r}" version="1">')
            out += [f'    <member type="way" ref="{w}" role="outer"/>' for w in ways]
            out += [f"    <tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in tags.items()]
            out.append("  </relation>")
        return "\n".join([*out, "</osm>"]) + "\n"

    def geojson(self) -> str:
        where = {n: [lon, lat] for n, lon, lat in self.nodes}
        in_relation = {w for _, ways, _ in self.relations for w in ways}
        features = []
        for w, ids, tags in self.ways:
            if w in in_relation:
                continue
            line = [where[i] for i in ids]
            kind = "Polygon" if ids[0] == ids[-1] and len(ids) > 3 else "LineString"
            features.append({
                "type": "Feature", "id": f"way/{w}",
                "properties": {**tags, "@id": f"way/{w}"},
                "geometry": {"type": kind, "coordinates": [line] if kind == "Polygon" else line},
            })  # fmt: skip
        for r, ways, tags in self.relations:
            ring: list[list[float]] = []
            for w in ways:
                ids = next(i for x, i, _ in self.ways if x == w)
                ring += [where[i] for i in (ids if not ring else ids[1:])]
            features.append({
                "type": "Feature", "id": f"relation/{r}",
                "properties": {**tags, "@id": f"relation/{r}"},
                "geometry": {"type": "MultiPolygon", "coordinates": [[ring]]},
            })  # fmt: skip
        doc = {"type": "FeatureCollection", "generator": "pace tests (make_maps.py)",
               "features": features}  # fmt: skip
        return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def square(lon: float, lat: float, half: float = 0.00012) -> list[tuple[float, float]]:
    return [(lon - half, lat - half), (lon + half, lat - half), (lon + half, lat + half),
            (lon - half, lat + half)]  # fmt: skip


def nine(site: Site, lon: float, lat: float, ref: str, pars: list[int], extra=None) -> None:
    """Nine holes in a row from (lon, lat), alternately north and south, ~330 m each."""
    for k, par in enumerate(pars, start=1):
        x = lon + (k - 1) * 0.0011
        y0, y1 = (lat, lat + 0.003) if k % 2 else (lat + 0.003, lat)
        line = [(x, y0), (x + 0.0002, (y0 + y1) / 2), (x, y1)] if par == 5 else [(x, y0), (x, y1)]
        tags = {"golf": "hole", "ref": ref.replace("*", str(k)), "par": str(par)}
        tags.update((extra or (lambda k: {}))(k))
        site.way(line, tags)
        site.way(square(x, y0), {"golf": "tee"}, closed=True)
        site.way(square(x, y1, 0.0002), {"golf": "green"}, closed=True)


def outline(lon: float, lat: float) -> list[tuple[float, float]]:
    """A course's boundary around nine holes laid out by :func:`nine`."""
    return [(lon - 0.0006, lat - 0.0006), (lon + 0.0094, lat - 0.0006),
            (lon + 0.0094, lat + 0.0036), (lon - 0.0006, lat + 0.0036)]  # fmt: skip


def melbourne() -> Site:
    site = Site()
    west, east = (145.0300, -37.9720), (145.0420, -37.9720)
    site.way(outline(*west), {"leisure": "golf_course", "name": "West Course"}, closed=True)
    nine(site, *west, "*W", PARS, lambda k: {"dist": f"{300 + 10 * k} m",
                                             **({"name": NAMES[k]} if k in NAMES else {})})
    # the relation's two ways share their end nodes, as OpenStreetMap joins them
    corners = [site.node(*p) for p in outline(*east)]
    north = site.way_of([corners[0], corners[1], corners[2]], {})
    south = site.way_of([corners[2], corners[3], corners[0]], {})
    site.relation([north, south], {"type": "multipolygon", "leisure": "golf_course",
                                   "name": "East Course"})  # fmt: skip
    nine(site, *east, "*E", EAST_PARS)
    return site


def links() -> Site:
    site = Site()
    old, new = (-2.8200, 56.3480), (-2.8080, 56.3480)
    site.way(outline(*old), {"leisure": "golf_course", "name": "Old Course"}, closed=True)
    nine(site, *old, "*", PARS)
    nine(site, *new, "*", PARS, lambda k: {"golf:course:name": "New Course"})
    return site


def pinehurst() -> Site:
    site = Site()
    nine(site, -79.4700, 35.1900, "* - #2", PARS)
    nine(site, -79.4580, 35.1900, "* - #4", EAST_PARS)
    return site


def notepad() -> Site:
    site = Site()
    nine(site, 4.6100, 50.6900, "*", PARS, lambda k: {"name": "Hólé " + str(k)})
    return site


def main() -> None:
    for name, site in (("melbourne", melbourne()), ("links", links()),
                       ("pinehurst", pinehurst())):  # fmt: skip
        (HERE / f"{name}.osm").write_text(site.osm(), encoding="utf-8")
        (HERE / f"{name}.geojson").write_text(site.geojson(), encoding="utf-8")
    site = notepad()
    for suffix, text in ((".osm", site.osm()), (".geojson", site.geojson())):
        (HERE / f"notepad{suffix}").write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n")
                                                .encode("utf-8"))  # fmt: skip


if __name__ == "__main__":
    main()

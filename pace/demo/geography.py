"""The demo course's own map (issue 40): a layout made for it, two loops of nine holes from a
clubhouse in the Brabant countryside, each hole as long as the course says, written as the
OpenStreetMap export a committee would import (``golf=hole`` ways with ``ref`` and ``par``,
``golf=tee`` and ``golf=green`` areas). The demo imports it through ``pace import geometry``'s
parser, like any club's file. Also the maker of the tests' sample export.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import quoteattr

from pace.rules.model import Course

#: the clubhouse (the first tee), somewhere between Wavre and Louvain-la-Neuve
HOME = (4.6100, 50.6900)
#: a hole's length when the course gives none, by par
LENGTHS = {3: 160, 4: 360, 5: 470}
EARTH_M = 6371000.0


def _offset(p: tuple[float, float], bearing: float, metres: float) -> tuple[float, float]:
    """Return the point ``metres`` from ``p`` towards ``bearing`` (degrees from north)."""
    lat = math.radians(p[1])
    dy = metres * math.cos(math.radians(bearing)) / EARTH_M
    dx = metres * math.sin(math.radians(bearing)) / (EARTH_M * math.cos(lat))
    return (round(p[0] + math.degrees(dx), 7), round(p[1] + math.degrees(dy), 7))


def layout(course: Course) -> list[tuple[int, int, list[tuple[float, float]]]]:
    """Return each hole's (number, par, line of play): tee, a dogleg point for a par 5, green.

    Each loop of nine turns through a full circle, so its ninth green comes back near the
    clubhouse; the second loop goes the other way.
    """
    out = []
    at = HOME
    n = len(course.holes)
    half = max(1, n // 2)
    for i, hole in enumerate(course.holes):
        loop, k = divmod(i, half)
        turn = 360 / half
        bearing = (k * turn + 20) if loop == 0 else (180 - k * turn - 20)
        length = float(hole.length_m or LENGTHS.get(hole.par, 360))
        if i and k == 0:
            at = _offset(HOME, 200, 60)  # the second loop's first tee, beside the clubhouse
        tee = _offset(at, bearing + 90, 15)
        if hole.par >= 5:
            bend = _offset(tee, bearing, length * 0.6)
            green = _offset(bend, bearing + 25, length * 0.4)
            line = [tee, bend, green]
        else:
            green = _offset(tee, bearing, length)
            line = [tee, green]
        out.append((hole.number, hole.par, line))
        at = _offset(green, bearing + 60, 25)  # the walk to the next tee
    return out


def _square(centre: tuple[float, float], half: float, turn: float) -> list[tuple[float, float]]:
    """Return a closed ring, a rough oval of ``half`` metres around ``centre``."""
    ring = [
        _offset(centre, turn + a, half * (1.0 if a % 90 == 0 else 0.8)) for a in range(0, 360, 45)
    ]
    return ring + ring[:1]


def osm_xml(course: Course, skip: Sequence[int] = (), wrong_par: Sequence[int] = ()) -> str:
    """Return the layout as an OpenStreetMap XML export: every hole a ``golf=hole`` way, its
    tee and green ``golf=tee``/``golf=green`` areas. ``skip`` leaves holes out and
    ``wrong_par`` tags holes with a par the course does not have (the tests' hostile files)."""
    nodes: list[str] = []
    ways: list[str] = []
    ids = iter(range(1, 1_000_000))

    def node(p: tuple[float, float]) -> int:
        i = next(ids)
        nodes.append(f'  <node id="{i}" version="1" lat="{p[1]:.7f}" lon="{p[0]:.7f}"/>')
        return i

    def way(points: Sequence[tuple[float, float]], tags: dict[str, str]) -> None:
        refs = [node(p) for p in points]
        if points[0] == points[-1]:
            refs[-1] = refs[0]
        body = "".join(f'\n    <nd ref="{r}"/>' for r in refs)
        body += "".join(f"\n    <tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in tags.items())
        ways.append(f'  <way id="{next(ids) + 1_000_000}" version="1">{body}\n  </way>')

    for number, par, line in layout(course):
        if number in skip:
            continue
        shown = par + 1 if number in wrong_par else par
        way(line, {"golf": "hole", "ref": str(number), "par": str(shown)})
        way(_square(line[0], 8, 0), {"golf": "tee"})
        way(_square(line[-1], 14, 20), {"golf": "green"})
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<osm version="0.6" generator="pace demo">\n' + "\n".join(nodes + ways) + "\n</osm>\n"
    )

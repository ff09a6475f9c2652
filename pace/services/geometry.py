"""A course's own map (issues 40 and 46): its holes' geometry imported from an OpenStreetMap
export, matched to the course (``pace.formats.geometry``: the file's only course, or the one
the committee chose of a site's several), previewed or stored beside it, and read back for the
pages' map and the course's export."""

from __future__ import annotations

from typing import Any

from pace.formats.geometry import MapMatch, geometry_geojson, match_map
from pace.rules.model import Course
from pace.services.rounds import RoundService


def preview_geometry(
    service: RoundService,
    data: bytes,
    filename: str,
    course: str,
    *,
    map_course: str = "",
    ref_pattern: str = "",
    club: str | None = None,
) -> MapMatch:
    """Return ``data`` (.osm XML or GeoJSON) matched to ``course`` as it would be stored,
    storing nothing: the holes matched, the file's courses and the one chosen (by its
    OpenStreetMap name ``map_course``, or ``ref_pattern``). ``FileFormatError`` (every
    problem by hole; ``map_course_required`` for a site whose course is not chosen);
    ``unknown_course`` without the course."""
    return _matched(service, data, filename, course, map_course, ref_pattern, club)[1]


def _matched(
    service: RoundService, data: bytes, filename: str, course: str, map_course: str,
    ref_pattern: str, club: str | None = None,
) -> tuple[Course, MapMatch]:  # fmt: skip
    """Return the stored course ``course`` (of ``club``) and ``data`` matched to it."""
    found = service.course(course, club)
    return found, match_map(data, filename, found, map_course=map_course, ref_pattern=ref_pattern)


def import_geometry(
    service: RoundService,
    data: bytes,
    filename: str,
    course: str,
    *,
    map_course: str = "",
    ref_pattern: str = "",
    club: str | None = None,
) -> MapMatch:
    """Match ``data`` to ``course`` as :func:`preview_geometry` does and store its geometry
    as the course's map, replacing any; return the match. Nothing is stored when a hole has
    a problem (``FileFormatError``); ``unknown_course`` without the course."""
    found, match = _matched(service, data, filename, course, map_course, ref_pattern, club)
    service.store.save_geometry(found.name, match.geometry, imported_at=service.clock.now())
    return match


def course_geometry(
    service: RoundService, course: str, club: str | None = None
) -> dict[str, Any] | None:
    """Return ``course``'s map as stored, or None (``unknown_course`` without the course, or
    for another club's)."""
    service.course(course, club)
    return service.store.get_geometry(course)


def round_geometry(service: RoundService, round: str) -> dict[str, Any] | None:
    """Return the map of ``round``'s course, or None when the course has none."""
    return service.store.get_geometry(service.round_view(round).record.course.name)


def export_geometry(service: RoundService, course: str) -> str | None:
    """Return ``course``'s map as GeoJSON that ``pace import geometry`` reads back, or None."""
    geometry = course_geometry(service, course)
    return None if geometry is None else geometry_geojson(geometry)

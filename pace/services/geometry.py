"""A course's own map (issue 40): its holes' geometry imported from an OpenStreetMap export,
checked against the course (``pace.formats.geometry``), stored beside it and read back for the
pages' map and the course's export."""

from __future__ import annotations

from typing import Any

from pace.formats.geometry import geometry_geojson, parse_geometry
from pace.services.rounds import RoundService


def import_geometry(
    service: RoundService, data: bytes, filename: str, course: str
) -> dict[str, Any]:
    """Read ``data`` (.osm XML or GeoJSON) as ``course``'s map, check it against the course
    and store it, replacing any; return it. Nothing is stored when a hole has a problem
    (``FileFormatError``, every problem by hole); ``unknown_course`` without the course."""
    found = service.store.get_course(course)
    geometry = parse_geometry(data, filename, found)
    service.store.save_geometry(found.name, geometry, imported_at=service.clock.now())
    return geometry


def course_geometry(service: RoundService, course: str) -> dict[str, Any] | None:
    """Return ``course``'s map as stored, or None (``unknown_course`` without the course)."""
    service.store.get_course(course)
    return service.store.get_geometry(course)


def round_geometry(service: RoundService, round: str) -> dict[str, Any] | None:
    """Return the map of ``round``'s course, or None when the course has none."""
    return service.store.get_geometry(service.round_view(round).record.course.name)


def export_geometry(service: RoundService, course: str) -> str | None:
    """Return ``course``'s map as GeoJSON that ``pace import geometry`` reads back, or None."""
    geometry = course_geometry(service, course)
    return None if geometry is None else geometry_geojson(geometry)

"""A round whose course has a map and whose positions are allowed (issue 48), for the tests.

``positions_app(tmp_path, clock)`` is an app on a real SQLite file (no scheduler) holding
Louiseville, round R1's draw, the demo's drawing of the course as its map and positions on;
``allow_positions(folder, db)`` does the same to a database a ``pace serve`` will open, through
the command line, as a committee would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from drivers import COURSE, DAY, DRAW, ROUND, TIMEZONE
from flask import Flask
from livesupport import pace

from pace import config, formats
from pace.app import create_app
from pace.clock import Clock
from pace.demo import geography
from pace.formats.geometry import parse_geometry
from pace.services.geometry import import_geometry


def demo_map(course_name: str | None = None) -> tuple[formats.Course, str]:
    """Return Louiseville and the demo's drawing of it as an OSM export."""
    course = formats.parse_course(COURSE.read_text(encoding="utf-8"), course_name or COURSE.name)
    return course, geography.osm_xml(course)


def demo_geometry() -> dict[str, Any]:
    """Return the map ``allow_positions`` and ``positions_app`` give the course, parsed."""
    course, osm = demo_map()
    return parse_geometry(osm.encode(), "demo.osm", course)


def positions_app(
    tmp_path: Path, clock: Clock, *, mapped: bool = True, allowed: bool = True, **settings: Any
) -> Flask:
    """Return the app (the caller closes it with ``close_app``): the course ``mapped``,
    positions ``allowed``; ``settings`` are sections of ``config.Settings`` to replace
    (``positions={"keep_hours": 2}``)."""
    app = create_app(
        config.Settings().replace(
            server={"async_mode": "threading"},
            database={"path": str(tmp_path / "pace.db")},
            scheduler={"enabled": False},
            **settings,
        ),
        clock=clock,
        testing=True,
    )
    service = app.extensions["pace"].live.service
    service.import_course(COURSE.read_text(encoding="utf-8"), "course.toml")
    service.import_draw(DRAW.read_text(encoding="utf-8"), "draw.csv", round=ROUND, day=DAY,
                        timezone=TIMEZONE)  # fmt: skip
    if mapped:
        course, osm = demo_map("course.toml")
        import_geometry(service, osm.encode(), "demo.osm", course.name)
    if allowed:
        service.set_positions(ROUND, True)
    return app


def allow_positions(folder: Path, db: Path, round: str = ROUND) -> None:
    """Give ``db``'s course its map and allow positions for ``round``, from the command line."""
    course, osm = demo_map()
    path = folder / "louiseville.osm"
    path.write_text(osm, encoding="utf-8")
    pace("import", "geometry", str(path), "--course", course.name, "--db", str(db), cwd=folder)
    pace("round", "positions", "on", "--round", round, "--db", str(db), cwd=folder)

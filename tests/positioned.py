"""A round whose course has a map and whose positions are allowed (issue 48), for the tests.

``positions_app(tmp_path, clock)`` is an app on a real SQLite file (no scheduler) holding
Louiseville, round R1's draw, the demo's drawing of the course as its map and positions on;
``allow_positions(folder, db)`` does the same to a database a ``pace serve`` will open, through
the command line, as a committee would. ``walked(app, ...)`` are the fixes a group's phone sends
walking its holes at given instants.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from drivers import COURSE, DAY, DRAW, ROUND, TIMEZONE, local
from flask import Flask
from livesupport import pace

from pace import config, formats
from pace.app import close_app, create_app
from pace.clock import Clock
from pace.demo import geography
from pace.demo.phones import Phones, samples, walk
from pace.formats.geometry import parse_geometry
from pace.rules.positions import CourseShape
from pace.services.geometry import import_geometry, round_geometry


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


def walked(
    app: Flask,
    group: str,
    start: str,
    done: Mapping[int, str],
    until: str,
    since: str | None = None,
) -> list[dict]:
    """Return the fixes of ``group``'s phone (as ``send_positions`` carries them) walking its
    holes from ``start`` (local "HH:MM"), holing out on each as ``done`` says, from ``since``
    (default: two minutes before its start) up to ``until``: 5-12 m off, no gap, none wild."""
    shape = CourseShape.of(round_geometry(app.extensions["pace"].live.service, ROUND))
    rng = random.Random(int(group) + 7)
    path = walk(shape, list(range(1, 19)), local(start),
                {h: local(t) for h, t in done.items()}, rng)  # fmt: skip
    model = Phones(gaps=0, long_gap_groups=0, wild_share=0.0, accuracy=(5.0, 12.0))
    got = samples(shape, path, rng, model, local(start) - timedelta(minutes=2), local(until))
    after = local(since) if since is not None else None
    return [{"at": s.at.isoformat(), "lon": round(s.lon, 7), "lat": round(s.lat, 7),
             "accuracy": s.accuracy} for s in got if after is None or s.at > after]  # fmt: skip


@contextmanager
def opened(tmp_path: Path, clock: Clock, **settings: Any) -> Iterator[Flask]:
    """Yield ``positions_app(tmp_path, clock, **settings)``, closed at the end."""
    app = positions_app(tmp_path, clock, **settings)
    try:
        yield app
    finally:
        close_app(app)

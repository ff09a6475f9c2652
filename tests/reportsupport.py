"""A finished demo round in a real database, for the report's tests and its bench.

The course, the draw and every hole time come from ``pace.demo.data.played_files`` (the
demo's seeded play), imported as a committee would (``import_times``). On top: a suspension
of play, and the referees' acts a real round has for the groups that fell out of position
(decisions to time or not, players told, timed strokes with bad times, a notification, a
time credit, a stop), appended to the log as the live commands store them.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from pace import config
from pace.demo import data as demo_data
from pace.rules import position
from pace.rules.events import Event
from pace.services.rounds import RoundService
from pace.store import open_store

ROUND = "demo"
TIMEZONE = "Europe/Brussels"
NAMESPACE = uuid.UUID("1b1e5f3e-3d6c-4f43-9c55-2f2f3b8a6c01")
REFEREE = {"role": "referee", "name": "Anne Dubois", "device": "tablet-1"}
COMMITTEE = {"role": "committee", "name": "Comité", "device": "laptop"}


def _event(type_: str, at: datetime, key: str, by: dict, **payload: object) -> Event:
    return Event(str(uuid.uuid5(NAMESPACE, key)), type_, ROUND, at, payload, by=by)


def _stroke(g: str, player: str, hole: int, stopped: datetime, seconds: float, key: str) -> Event:
    started = stopped - timedelta(seconds=seconds)
    return _event(
        "stroke_timed", stopped, key, REFEREE, group=g, player=player, hole=hole, kind="other",
        first_to_play=False, between_holes=False, started=started.isoformat(),
        stopped=stopped.isoformat(),
    )  # fmt: skip


def report_database(
    folder: Path,
    *,
    groups: int = 52,
    seed: int = 1,
    day: date = date(2026, 6, 14),
    settings: config.Settings | None = None,
) -> Path:
    """Create ``folder/report.db`` holding the played demo round ``demo``; return its path."""
    tz = ZoneInfo(TIMEZONE)
    settings = settings or config.Settings()
    db = folder / "report.db"
    course_text, draw_text, times_text = demo_data.played_files(groups, seed, day, tz)
    store = open_store(db)
    try:
        service = RoundService(store, settings)
        service.import_course(course_text, "demo-course.toml")
        service.import_draw(draw_text, "demo-draw.csv", round=ROUND, day=day, timezone=TIMEZONE)
        service.import_times(times_text, "demo-times.csv", round=ROUND, by="import")
        view = service.round_view(ROUND)
        first = min(g.start for g in view.record.groups)
        stop = first + timedelta(hours=2, minutes=10)
        sirens = [
            _event("siren", stop, "siren-stop", COMMITTEE, kind="suspension"),
            _event("siren", stop + timedelta(minutes=25), "siren-go", COMMITTEE, kind="resume"),
        ]
        store.append_many(sirens, recorded_at=stop)
        facts = service.facts(ROUND)
        end = max(c.at for c in facts.completions) + timedelta(minutes=1)
        acts = _referee_acts(view, position.episodes(view.setup, facts, end, view.plan), facts)
        store.append_many(acts, recorded_at=end)
    finally:
        store.close()
    return db


def _referee_acts(view, episodes, facts) -> list[Event]:
    out: list[Event] = []
    done: dict[str, dict[int, datetime]] = {}
    for c in facts.completions:
        done.setdefault(c.group, {})[c.hole] = c.at
    timed = 0
    for e in episodes:
        plan = view.plan.by_id[e.group]
        g = e.group
        players = [p.name for p in plan.group.players]
        t0 = e.start + timedelta(minutes=1)
        if timed == 1:
            out.append(
                _event("timing_decided", t0, f"{g}-nt", REFEREE, group=g, decision="not_time",
                       reason="lost_ball", note="searched 4 minutes on the 6th")
            )  # fmt: skip
            timed += 1
            continue
        if timed >= 6:
            break
        timed += 1
        k = max((plan.position[h] for h, at in done.get(g, {}).items() if at <= t0), default=0)
        hole = plan.order[min(k, len(plan.order) - 1)]
        out.append(
            _event("timing_decided", t0, f"{g}-t", REFEREE, group=g, decision="time", note="")
        )
        for i, name in enumerate(players):
            out.append(
                _event("player_told_timed", t0 + timedelta(seconds=30 * (i + 1)), f"{g}-told-{i}",
                       REFEREE, group=g, player=name)
            )  # fmt: skip
        first = players[0]
        s1 = _stroke(g, first, hole, t0 + timedelta(minutes=4), 47.3, f"{g}-s1")
        out.append(s1)
        out.append(_stroke(g, players[-1], hole, t0 + timedelta(minutes=5), 35.0, f"{g}-s2"))
        out.append(
            _event("player_notified", t0 + timedelta(minutes=6), f"{g}-n1", REFEREE, group=g,
                   player=first, fault=s1.id)
        )  # fmt: skip
        out.append(_stroke(g, first, hole, t0 + timedelta(minutes=9), 52.6, f"{g}-s3"))
        if timed == 3:
            out.append(
                _event("time_credit_granted", t0 + timedelta(minutes=10), f"{g}-c", REFEREE,
                       group=g, minutes=5, reason="ruling on an embedded ball")
            )  # fmt: skip
        out.append(
            _event("timing_stopped", t0 + timedelta(minutes=15), f"{g}-stop", REFEREE, group=g,
                   reason="back in position")
        )  # fmt: skip
    return out

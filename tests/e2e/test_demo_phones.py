"""``pace demo --actors phones``: a round with no marshal and nobody typing, every completion
inferred from the positions of the groups' phones (issue 48).

Six groups at 900× speed on the demo course's map. Each sharing group's phone (a real
Socket.IO client on a scorer's session) agrees to share, sends its fixes in batches as the
demo's clock reaches them (noise, wild fixes, screen-locked gaps, a walk back for a club, a
second phone in some groups) and stops sharing once its group has left the course; one group
never agrees. The round plays to its end: the consenting groups' holes are completed from
their positions, each with its interval, the other group's are not, nobody taps, and no
coordinate is in the log.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from datetime import datetime

import pytest
from livesupport import start_demo

from pace import formats
from pace.demo import data as demo_data
from pace.demo import geography
from pace.formats.geometry import parse_geometry

pytestmark = pytest.mark.e2e

ROUND = "demo"
GROUPS = 6
ARGS = ("--actors", "phones", "--groups", str(GROUPS), "--seed", "3", "--speed", "900",
        "--tick", "0.3", "--duration", "80")  # fmt: skip


def course_box() -> tuple[tuple[float, float], tuple[float, float]]:
    """The demo course's map: its longitudes' and latitudes' ranges, 0.01° wider."""
    course = formats.parse_course(demo_data.course_toml(), "demo-course.toml")
    geometry = parse_geometry(geography.osm_xml(course).encode(), "demo.osm", course)
    text = json.dumps(geometry)
    points = [(float(a), float(b)) for a, b in re.findall(r"\[(-?\d+\.\d+), (-?\d+\.\d+)\]", text)]
    assert points, text[:200]
    lons, lats = [p[0] for p in points], [p[1] for p in points]
    return (min(lons) - 0.01, max(lons) + 0.01), (min(lats) - 0.01, max(lats) + 0.01)


def numbers(value: object) -> list[float]:
    """Every number in a JSON value (not those inside its strings: instants' seconds)."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in numbers(v)]
    if isinstance(value, list):
        return [x for v in value for x in numbers(v)]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [float(value)]
    return []


def test_the_phones_alone_complete_the_round_of_the_groups_that_share(tmp_path):
    demo = start_demo(tmp_path, *ARGS, name="phones")
    try:
        deadline = time.monotonic() + 75
        while "the round is over" not in demo.log.read_text():
            assert demo.process.poll() is None, demo.log.read_text()
            assert time.monotonic() < deadline, demo.log.read_text()
            try:  # a bounded poll: the demo plays on its own clock
                demo.process.wait(timeout=0.3)
            except subprocess.TimeoutExpired:
                pass
        events = demo.get_json(f"/api/rounds/{ROUND}/events")["events"]
    finally:
        demo.process.terminate()
        demo.process.wait(timeout=15)
    log = demo.log.read_text()
    assert "Traceback" not in log and "refused" not in log, log

    consents = [e for e in events if e["type"] == "positions_consented"]
    sharing = {e["payload"]["group"] for e in consents}
    everyone = {str(g) for g in range(1, GROUPS + 1)}
    assert len(sharing) == GROUPS - 1 and sharing < everyone, sharing
    assert {e["by"]["role"] for e in consents} == {"scorer"}
    devices = {e["by"]["device"] for e in consents}
    assert len(devices) == len(consents)  # one consent a phone; some groups carry two
    stopped = {e["by"]["device"] for e in events if e["type"] == "positions_stopped"}
    assert stopped == devices  # each phone stopped sharing once its group had left

    completions = [e for e in events if e["type"] == "hole_completed"]
    assert completions
    assert {e["payload"]["source"] for e in completions} == {"position"}
    assert {e["by"]["role"] for e in completions} == {"positions"}  # no marshal tapped
    assert not [e for e in events if e["by"].get("role") in ("marshal", "referee")]
    by_group: dict[str, set[int]] = {}
    for e in completions:
        p = e["payload"]
        earliest, latest = (datetime.fromisoformat(p[k]) for k in ("earliest", "latest"))
        assert earliest <= datetime.fromisoformat(e["at"]) <= latest, e
        assert e["by"]["device"] in devices, e
        by_group.setdefault(p["group"], set()).add(p["hole"])
    assert set(by_group) == sharing  # none for the group that never agreed
    assert all(len(holes) >= 17 for holes in by_group.values()), by_group
    assert sum(map(len, by_group.values())) >= 0.97 * 18 * len(sharing), by_group

    # the status lines say where the completions come from
    lines = re.findall(r"(\d+) completions from positions", log)
    assert lines and int(lines[-1]) == len(completions), log
    assert "0 taps" in log and "phones of 5 groups sharing their positions" in log

    # no coordinate in the log: no field of a fix, no number that is a degree of the course
    text = json.dumps(events)
    assert not re.search(r'"(lon|lat|accuracy|fixes)"', text), text[:500]
    (lon_lo, lon_hi), (lat_lo, lat_hi) = course_box()
    degrees = [x for x in numbers(events) if lon_lo <= x <= lon_hi or lat_lo <= x <= lat_hi]
    assert not [x for x in degrees if x != round(x, 4)], degrees  # a fix's has 7 decimals

"""Where each group stands on its hole, from the phones it carries (issue 48), in headless
Chromium.

A real ``pace serve`` whose clock starts at 08:40 local: round R1 on Louiseville with the
demo's map, positions allowed. Three scorers' phones (python-socketio clients) share their
groups' positions and send the fixes of the groups walking their holes: group 1 on time,
group 2 twenty minutes slow on the 1st (out of position, its completion inferred from its
phone), group 3's phone silent for seven minutes. The dashboard, in Dutch, says in the row
and the strip's marker how far group 2 is from its green and behind group 1, marks its alert
"from positions", places it on the map and on the strip at its share of the hole, and shows
group 3 only as last seen; the scorer's page of group 2 says its own place, no blame. Both
pages are looked at 360 px wide.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from browser.conftest import sign_in
from browser.test_course_strip import serious
from drivers import ACK_TIMEOUT
from livesupport import (
    COURSE,
    ROUND,
    LiveServer,
    clocked,
    live_server,
    pace,
    phones,
    server_now,
    setup_round,
)
from playwright.sync_api import expect

from pace import formats
from pace.demo import geography
from pace.demo.phones import Phones, samples, walk
from pace.formats.geometry import parse_geometry
from pace.rules.positions import CourseShape

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/places")
#: the groups' true completions (group 2 holes out on the 1st twenty minutes after group 1)
TRUE = {"1": {1: "08:14", 2: "08:31", 3: "08:42"}, "2": {1: "08:34", 2: "08:52"},
        "3": {1: "08:36"}}  # fmt: skip
START = {"1": "08:00", "2": "08:10", "3": "08:20"}
#: group 3's phone went silent seven minutes before now
SILENT = {"3": timedelta(minutes=7)}


@pytest.fixture
def server(tmp_path) -> Iterator[LiveServer]:
    yield from serve(tmp_path, "08:40")


@pytest.fixture
def early(tmp_path) -> Iterator[LiveServer]:
    """The same round at 08:31: group 2 is still on the 1st (it leaves it at 08:34)."""
    yield from serve(tmp_path, "08:31")


def serve(tmp_path: Path, clock: str) -> Iterator[LiveServer]:
    db = setup_round(tmp_path)
    course = formats.parse_course(COURSE.read_text(encoding="utf-8"), COURSE.name)
    osm = tmp_path / "louiseville.osm"
    osm.write_text(geography.osm_xml(course), encoding="utf-8")
    pace("import", "geometry", str(osm), "--course", course.name, "--db", str(db), cwd=tmp_path)
    pace("round", "positions", "on", "--round", ROUND, "--db", str(db), cwd=tmp_path)
    with live_server(tmp_path, db=db, extra_args=clocked(clock, tick=0.2)) as s:
        s.shape = CourseShape.of(  # type: ignore[attr-defined]
            parse_geometry(geography.osm_xml(course).encode(), "demo.osm", course)
        )
        yield s


def at(now: datetime, hhmm: str) -> datetime:
    h, m = (int(x) for x in hhmm.split(":"))
    return now.replace(hour=h, minute=m, second=0, microsecond=0)


def share_walk(server, make, group: str) -> None:
    """Group ``group``'s phone agrees to share and sends its walk up to now (or its silence)."""
    now = server_now(server)
    rng = random.Random(48 + int(group))
    path = walk(server.shape, list(range(1, 19)), at(now, START[group]),
                {h: at(now, t) for h, t in TRUE[group].items()}, rng)  # fmt: skip
    model = Phones(gaps=0, long_gap_groups=0, wild_share=0.0, accuracy=(5.0, 10.0))
    until = now - SILENT.get(group, timedelta(seconds=5))
    got = samples(server.shape, path, rng, model, at(now, START[group]) - timedelta(minutes=2),
                  until)  # fmt: skip
    fixes = [{"at": s.at.isoformat(), "lon": round(s.lon, 7), "lat": round(s.lat, 7),
              "accuracy": s.accuracy} for s in got]  # fmt: skip
    phone = make("scorer", ROUND, f"phone-{group}")
    ack = phone.call("share_positions", {"id": f"00000000-0000-4000-8000-00000000000{group}",
                                         "round": ROUND, "group": group, "share": True},
                     timeout=ACK_TIMEOUT)  # fmt: skip
    assert ack["ok"], ack
    for i in range(0, len(fixes), 40):
        ack = phone.call("send_positions", {
            "round": ROUND, "group": group, "fixes": fixes[i : i + 40],
            "device_time": server_now(server).isoformat()}, timeout=ACK_TIMEOUT)  # fmt: skip
        assert ack["ok"] and not ack["discarded"], ack


@pytest.fixture
def shared(server) -> Iterator[dict]:
    with phones(server, ACK_TIMEOUT) as make:
        for group in ("1", "2", "3"):
            share_walk(server, make, group)
        yield server.get_json(f"/api/rounds/{ROUND}/places")["places"]


def test_the_dashboard_shows_where_each_group_stands_and_the_alert_from_positions(
    server, shared, browser
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    two = shared["2"]
    assert two["hole"] == 2 and two["ahead"] == "1" and two["behind_m"], two
    assert shared["3"]["stale"] is True, shared["3"]
    context = browser.new_context(locale="nl-BE", viewport={"width": 1280, "height": 900})
    sign_in(context, server)
    page = context.new_page()
    page.goto(f"{server.url}/rounds/{ROUND}/dashboard")
    expect(page.locator("#app")).to_have_attribute("data-places", "3")
    row = page.locator("#grid-body tr[data-group='2']")
    expect(row).to_have_attribute("data-status", "out_of_position")
    metres = two["to_green_m"]
    expect(row.locator(".place")).to_have_text(
        f"nog {metres} m tot de green, {two['behind_m']} m achter flight 1"
    )
    # group 3's phone has been silent for seven minutes: last seen, greyed, never standing
    stale = page.locator("#grid-body tr[data-group='3'] .place")
    expect(stale).to_have_class(re.compile(r"\bstale\b"))
    expect(stale).to_have_text(re.compile(r"^laatst gezien 7 min geleden, "))
    # group 1 on time: where it stands, no distance behind anybody
    expect(page.locator("#grid-body tr[data-group='1'] .place")).not_to_contain_text("achter")
    # the alert rests on a completion the phone's positions inferred: marked so
    alert = page.locator("#alerts li.alert[data-group='2'][data-kind='out_of_position']")
    expect(alert.locator(".from-positions")).to_have_text(re.compile(r"^Uit posities: "))
    # the hole time in the grid says where it came from
    expect(row.locator("td.hole[data-hole='1']")).to_have_class(re.compile("by-position"))
    # with its interval, as a missed tap's estimate has its bounds (the row's own instants)
    snap = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]
    cell = next(r for r in snap["groups"] if r["group"] == "2")["holes"]["1"]
    assert cell["source"] == "position" and cell["earliest"] < cell["at"] < cell["latest"], cell
    expect(row.locator("td.hole[data-hole='1']")).to_have_attribute(
        "title", re.compile(r"uit posities, tussen \d\d:\d\d:\d\d en \d\d:\d\d:\d\d$")
    )

    # the map: group 2 at its share of the 2nd hole's line, its words in the marker's label
    marker = page.locator(".map-groups li.strip-group[data-group='2']")
    expect(marker).to_have_attribute("data-place", "fresh")
    expect(marker).to_have_attribute("data-hole", "2")
    expect(marker).to_have_attribute("data-fraction", f"{two['fraction']:.3f}")
    label = marker.locator("button").get_attribute("aria-label")
    assert f"nog {metres} m tot de green" in label and "achter flight 1" in label, label
    # group 3's stale place does not move it: drawn where its time puts it, greyed
    expect(page.locator(".map-groups li.strip-group[data-group='3']")).to_have_attribute(
        "data-place", "stale")  # fmt: skip
    assert serious(page) == []
    page.locator(".strip-map").screenshot(path=str(SHOTS / "map-1280.png"))

    # the strip: group 2 at its share within the 2nd hole's cell of the 1st tee's lane
    page.locator("#strip-map").uncheck()
    lane = page.locator(".strip-all li.strip-group[data-group='2']")
    expect(lane).to_have_attribute("data-place", "fresh")
    x = float(lane.evaluate("(n) => n.style.getPropertyValue('--x')"))
    assert x == pytest.approx((1 + two["fraction"]) / 18, abs=1e-3), (x, two)

    page.set_viewport_size({"width": 360, "height": 780})
    page.locator("#strip-map").check()
    expect(row.locator(".place")).to_be_visible()
    page.screenshot(path=str(SHOTS / "dashboard-360.png"), full_page=True)
    context.close()


def test_the_dashboard_says_a_group_still_on_its_hole_past_its_limits_is_out_of_position(
    early, browser
):
    # 08:31: group 2 (off at 08:10, ten minutes after group 1, which left the 1st at 08:14)
    # is 21 minutes into its 14-minute 1st, 17 minutes after group 1 left it, and its phone
    # shows it still there: out of position whatever instant it leaves, said now
    with phones(early, ACK_TIMEOUT) as make:
        for group in ("1", "2"):
            share_walk(early, make, group)
        context = browser.new_context(locale="fr-BE", viewport={"width": 1280, "height": 900})
        sign_in(context, early)
        page = context.new_page()
        page.goto(f"{early.url}/rounds/{ROUND}/dashboard")
        alert = page.locator("#alerts li.alert[data-group='2'][data-kind='out_of_position']")
        expect(alert.locator(".from-positions")).to_have_text(re.compile(
            r"^D'après les positions : le téléphone du groupe l'a montré encore sur le trou 1 "
            r"à 08:3\d"))  # fmt: skip
        # its completion is not known yet: the grid's 1st is still empty for group 2
        assert early.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]["groups"][1][
            "holes_completed"] == 0  # fmt: skip
        assert serious(page) == []
        context.close()


def test_the_scorers_page_shows_its_own_groups_place(server, shared, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    two = shared["2"]
    context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True,
                                  has_touch=True)  # fmt: skip
    sign_in(context, server, "scorer")
    # this page is group 2's phone, the one that shares its position (its device id)
    context.add_init_script('localStorage.setItem("pace.device", JSON.stringify("phone-2"))')
    page = context.new_page()
    page.goto(f"{server.url}/rounds/{ROUND}/scorecard")
    page.locator("#group").select_option("2")
    facts = page.locator("#pace-facts")
    expect(facts.locator("li[data-fact='place']")).to_have_text(
        f"Hole 2: {two['to_green_m']} m to the green"
    )
    expect(facts.locator("li[data-fact='behind']")).to_have_text(
        f"{two['behind_m']} m behind the group ahead"
    )
    # facts, no blame: no status, no "out of position"
    expect(page.locator("#own-pace")).not_to_contain_text("position")
    page.locator("#own-pace").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "scorecard-360.png"), full_page=True)
    # a group whose phone does not share has no place on its page
    page.locator("#group").select_option("4")
    expect(facts.locator("li").first).to_be_visible()
    expect(facts.locator("li[data-fact='place']")).to_have_count(0)
    context.close()

    # another phone (another group's scorer) opening group 2's card is told its pace in
    # minutes, not where it stands
    other = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True,
                                has_touch=True)  # fmt: skip
    sign_in(other, server, "scorer")
    page = other.new_page()
    page.goto(f"{server.url}/rounds/{ROUND}/scorecard")
    page.locator("#group").select_option("2")
    facts = page.locator("#pace-facts")
    expect(facts.locator("li").first).to_be_visible()
    expect(facts.locator("li[data-fact='place']")).to_have_count(0)
    expect(facts).not_to_contain_text(" m behind the group ahead")
    other.close()

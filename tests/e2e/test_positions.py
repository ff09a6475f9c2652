"""End to end: positions from the phones the groups carry, over the wire (issue 48).

The real ``pace serve`` over a fresh database: round R1 for today on Louiseville, whose map is
the demo's (``pace.demo.geography``, imported with ``pace import geometry``), allows positions
(``pace round positions on``); R2 on the same course does not; R3 is on a course with no map.
The server's clock starts at 10:30 local. A scorer's phone (a real python-socketio client, its
clock two minutes fast) agrees to share group 1's position and sends the fixes of the group
walking holes 1 and 2 (``pace.demo.phones.walk``): both completions are inferred and stored as
``hole_completed`` with source ``position``, their interval holding the true instant. Every
hostile input is refused and changes nothing; a referee's or a marshal's phone is
``forbidden``. Once the round is finished, no coordinate sent is in any table.
"""

from __future__ import annotations

import random
import re
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from drivers import ACK_TIMEOUT
from livesupport import (
    COURSE,
    DRAW,
    ROUND,
    TIMEZONE,
    LiveServer,
    clocked,
    live_server,
    pace,
    phones,
    server_now,
    setup_round,
)
from positioned import allow_positions, demo_geometry

from pace.demo.phones import Phones, samples, walk
from pace.rules.positions import CourseShape, Sample

pytestmark = pytest.mark.e2e

SKEW = timedelta(minutes=2)  # the scorer's phone is two minutes fast
#: group 1's true completions of holes 1-3 (it starts at 08:00)
TRUE = {1: "08:14", 2: "08:31", 3: "08:42"}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("positions")
    db = setup_round(folder)
    allow_positions(folder, db)
    day = datetime.now(ZoneInfo(TIMEZONE)).date().isoformat()
    pace("import", "draw", str(DRAW), "--round", "R2", "--timezone", TIMEZONE, "--date", day,
         "--db", str(db), cwd=folder)  # fmt: skip
    bare = folder / "bare.toml"
    bare.write_text(COURSE.read_text(encoding="utf-8").replace(
        'name = "Golf de Louiseville"', 'name = "Golf sans carte"'), encoding="utf-8")  # fmt: skip
    pace("import", "course", str(bare), "--db", str(db), cwd=folder)
    pace("import", "draw", str(DRAW), "--round", "R3", "--timezone", TIMEZONE, "--date", day,
         "--course", "Golf sans carte", "--db", str(db), cwd=folder)  # fmt: skip
    pace("round", "positions", "on", "--round", "R3", "--db", str(db), cwd=folder)
    with live_server(folder, db=db, extra_args=clocked("10:30", tick=0.2)) as s:
        s.shape = CourseShape.of(  # type: ignore[attr-defined]
            demo_geometry()
        )
        yield s


@pytest.fixture
def phone(server) -> Iterator:
    with phones(server, ACK_TIMEOUT) as make:
        yield lambda role="scorer", round=ROUND: make(role, round)


def local(server: LiveServer, hhmm: str) -> datetime:
    now = server_now(server)
    h, m = (int(x) for x in hhmm.split(":"))
    return now.replace(hour=h, minute=m, second=0, microsecond=0)


def events(server, round=ROUND) -> list[dict]:
    return server.get_json(f"/api/rounds/{round}/events", server.token("committee", round))[
        "events"
    ]


def fix(s: Sample, skew: timedelta = SKEW) -> dict:
    """A fix as the phone sends it: its instant read on the phone's clock."""
    return {"at": (s.at + skew).isoformat(), "lon": round(s.lon, 7), "lat": round(s.lat, 7),
            "accuracy": s.accuracy}  # fmt: skip


def send(server, c, fixes: list[dict], group="1", round=ROUND, **extra) -> dict:
    payload = {"round": round, "group": group, "fixes": fixes,
               "device_time": (server_now(server) + SKEW).isoformat(), **extra}  # fmt: skip
    return c.call("send_positions", payload, timeout=ACK_TIMEOUT)


def share(c, group="1", round=ROUND, on=True) -> dict:
    payload = {"id": str(uuid.uuid4()), "round": round, "group": group, "share": on}
    return c.call("share_positions", payload, timeout=ACK_TIMEOUT)


def code(ack: dict) -> str | None:
    return None if ack.get("ok") else ack["error"]["code"]


def group_walk(server, group: str, start: str, done: dict[int, str], until: str) -> list[Sample]:
    """The fixes of ``group``'s phone walking its holes as ``done`` says, up to ``until``."""
    shape = server.shape
    rng = random.Random(48)
    order = list(range(1, 19))
    path = walk(shape, order, local(server, start),
                {h: local(server, t) for h, t in done.items()}, rng)  # fmt: skip
    model = Phones(gaps=0, long_gap_groups=0, wild_share=0.0, accuracy=(5.0, 12.0))
    return samples(shape, path, rng, model, local(server, start) - timedelta(minutes=2),
                   local(server, until))  # fmt: skip


def near_tee(server) -> tuple[float, float]:
    """A point a few metres off the first tee (not one of the map's own points)."""
    x, y = server.shape.holes[1].tee
    return server.shape.frame.lonlat(x + 2.3, y + 1.7)


SENT: list[dict] = []  # every fix sent in this module, for the privacy test


def test_a_phone_walking_two_holes_infers_both_completions(server, phone):
    scorer = phone()
    walked = group_walk(server, "1", "08:00", {h: t for h, t in TRUE.items()}, "08:39")
    fixes = [fix(s) for s in walked]
    SENT.extend(fixes)
    before = events(server)
    # without the group's consent, nothing is taken
    assert code(send(server, scorer, fixes[:10])) == "no_consent"
    assert events(server) == before
    consented = share(scorer)
    assert consented["ok"], consented
    inferred = []
    for i in range(0, len(fixes), 40):
        ack = send(server, scorer, fixes[i : i + 40], consent_id=consented["id"])
        assert ack["ok"], ack
        assert ack["discarded"] == {}, ack
        inferred += ack["inferred"]
    assert [i["hole"] for i in inferred] == [1, 2], inferred
    log = events(server)
    consent = next(e for e in log if e["type"] == "positions_consented")
    assert consent["payload"] == {"group": "1"} and consent["by"]["role"] == "scorer"
    assert consent["by"]["device"].startswith("scorer-")
    done = [e for e in log if e["type"] == "hole_completed"]
    assert [(e["payload"]["group"], e["payload"]["hole"]) for e in done] == [("1", 1), ("1", 2)]
    for e in done:
        p = e["payload"]
        assert p["source"] == "position" and e["by"] == {
            "role": "positions", "device": consent["by"]["device"]}  # fmt: skip
        earliest = datetime.fromisoformat(p["earliest"])
        latest = datetime.fromisoformat(p["latest"])
        true = local(server, TRUE[p["hole"]])
        # the phone's two minutes are taken off: the interval holds the true instant
        assert earliest <= true <= latest, (p, true)
        assert datetime.fromisoformat(e["at"]) == earliest + (latest - earliest) / 2
        assert set(p) == {"group", "hole", "source", "earliest", "latest"}  # no coordinate
    # the dashboard's row shows the completions as positions' (a tap's row, out at once)
    snap = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]
    row = next(r for r in snap["groups"] if r["group"] == "1")
    assert row["holes"]["1"]["source"] == "position", row["holes"]["1"]
    # the same fixes again (a queue replayed) change nothing
    again = send(server, scorer, fixes[-40:])
    assert again["ok"] and again["inferred"] == [], again
    assert len(events(server)) == len(log)


def test_fixes_off_the_course_inaccurate_or_too_fast_are_discarded_and_counted(server, phone):
    scorer = phone()
    assert share(scorer, group="2")["ok"]
    tee = near_tee(server)
    at = local(server, "08:12")
    s = [
        Sample(at, tee[0], tee[1], 8.0),  # kept: on the first tee
        Sample(at + timedelta(seconds=15), tee[0] + 0.05, tee[1], 8.0),  # 3.5 km east: outside
        Sample(at + timedelta(seconds=30), tee[0], tee[1], 80.0),  # inaccurate
        Sample(at + timedelta(seconds=45), *server.shape.frame.lonlat(
            server.shape.holes[1].tee[0] + 900, server.shape.holes[1].tee[1] + 1.3),
               5.0),  # 900 m in 15 s
    ]  # fmt: skip
    fixes = [fix(x) for x in s]
    SENT.extend(fixes)
    ack = send(server, scorer, fixes, group="2")
    assert ack["ok"], ack
    assert ack["kept"] == 1 and ack["discarded"] == {
        "outside": 1, "inaccurate": 1, "too_fast": 1}, ack  # fmt: skip


def hostile(server) -> dict[str, tuple[dict, str]]:
    """Each hostile ``send_positions`` from a consented scorer, and the code it is refused."""
    good = fix(Sample(local(server, "08:20"), 4.61, 50.69, 8.0))
    base = {"round": ROUND, "group": "3", "fixes": [good],
            "device_time": (server_now(server) + SKEW).isoformat()}  # fmt: skip
    return {
        "round without positions": ({**base, "round": "R2"}, "positions_off"),
        "round without a map": ({**base, "round": "R3"}, "no_course_map"),
        "unknown group": ({**base, "group": "99"}, "unknown_group"),
        "fixes not a list": ({**base, "fixes": "4.61,50.69"}, "invalid_payload"),
        "no fixes": ({**base, "fixes": []}, "invalid_payload"),
        "fix missing lat": ({**base, "fixes": [{k: v for k, v in good.items() if k != "lat"}]},
                            "missing_field"),
        "lon as text": ({**base, "fixes": [{**good, "lon": "4.61"}]}, "invalid_payload"),
        "latitude 200": ({**base, "fixes": [{**good, "lat": 200}]}, "invalid_payload"),
        "negative accuracy": ({**base, "fixes": [{**good, "accuracy": -1}]}, "invalid_payload"),
        "at without offset": ({**base, "fixes": [{**good, "at": "2026-06-14T08:20:00"}]},
                              "invalid_payload"),
        "unknown field in a fix": ({**base, "fixes": [{**good, "speed": 3}]}, "unknown_field"),
        "unknown field": ({**base, "where": "here"}, "unknown_field"),
        "consent not its own": ({**base, "consent_id": str(uuid.uuid4())}, "no_consent"),
        "41 fixes": ({**base, "fixes": [good] * 41}, "too_many_fixes"),
        "another round's": ({**base, "round": "R9"}, "unknown_round"),
    }


def test_hostile_positions_are_refused_and_change_nothing(server, phone):
    scorer = phone()
    assert share(scorer, group="3")["ok"]
    r3 = phone(round="R3")
    assert share(r3, group="3", round="R3")["ok"]
    r2 = phone(round="R2")
    assert code(share(r2, group="3", round="R2")) == "positions_off"
    before = {r: events(server, r) for r in (ROUND, "R2", "R3")}
    for name, (payload, expected) in hostile(server).items():
        c = {"R2": r2, "R3": r3}.get(payload["round"], scorer)
        ack = c.call("send_positions", payload, timeout=ACK_TIMEOUT)
        assert code(ack) == expected, (name, ack)
    # another round than the session's: forbidden, whatever that round allows
    other = scorer.call("send_positions", {**hostile(server)["round without positions"][0]},
                        timeout=ACK_TIMEOUT)  # fmt: skip
    assert code(other) == "forbidden", other
    # another group than the one this phone shares: no consent for it
    assert code(send(server, scorer, [fix(Sample(local(server, "08:20"), 4.61, 50.69, 8.0))],
                     group="2")) == "no_consent"  # fmt: skip
    assert {r: events(server, r) for r in before} == before


def test_a_flood_from_one_phone_is_bounded(server, phone):
    flooder = phone()
    assert share(flooder, group="4")["ok"]
    tee = near_tee(server)
    at = local(server, "08:30")
    batch = [fix(Sample(at + timedelta(seconds=i), tee[0], tee[1], 8.0)) for i in range(40)]
    SENT.extend(batch[:1])
    before = len(events(server))
    answers = [code(send(server, flooder, batch, group="4")) for _ in range(14)]
    assert answers[:10] == [None] * 10, answers  # 400 fixes a minute
    assert answers[10:] == ["too_many_fixes"] * 4, answers
    assert len(events(server)) == before
    # another phone is not held up by this one's flood
    other = phone()
    assert share(other, group="4")["ok"]
    assert code(send(server, other, batch[:5], group="4")) is None


@pytest.mark.parametrize("role", ["referee", "marshal", "committee"])
def test_only_a_scorers_phone_sends_positions(server, phone, role):
    c = phone(role)
    before = len(events(server))
    fixes = [fix(Sample(local(server, "08:20"), 4.61, 50.69, 8.0))]
    assert code(send(server, c, fixes, group="1")) == "forbidden"
    assert code(share(c, group="1")) == "forbidden"
    assert len(events(server)) == before


def test_a_stopped_phone_sends_nothing_more(server, phone):
    scorer = phone()
    assert share(scorer, group="5")["ok"]
    tee = near_tee(server)
    fixes = [fix(Sample(local(server, "08:40"), tee[0], tee[1], 8.0))]
    assert send(server, scorer, fixes, group="5")["ok"]
    assert share(scorer, group="5", on=False)["ok"]
    assert code(send(server, scorer, fixes, group="5")) == "no_consent"
    stopped = [e for e in events(server) if e["type"] == "positions_stopped"]
    assert stopped[-1]["payload"] == {"group": "5"}


def test_after_the_round_no_coordinate_is_stored(server, phone):
    """Runs last: the round is finished, then every table of the database is read."""
    assert SENT, "the tests above sent fixes"
    scorer = phone()
    assert share(scorer, group="6")["ok"]
    finished = server.post_json("/api/commands/round_finish",
                                {"id": str(uuid.uuid4()), "round": ROUND})  # fmt: skip
    assert finished["ok"], finished
    tee = near_tee(server)
    late = [fix(Sample(local(server, "10:00"), tee[0], tee[1], 8.0))]
    assert code(send(server, scorer, late, group="6")) == "round_finished"
    conn = sqlite3.connect(server.db)
    try:
        dump = "\n".join(conn.iterdump())
    finally:
        conn.close()
    # every number in the database, whole (the map's own points are the course's, and there)
    stored = set(re.findall(r"-?\d+\.\d+", dump))
    found = [f for f in SENT if repr(f["lon"]) in stored and repr(f["lat"]) in stored]
    assert found == [], found[:3]
    lons = [f for f in SENT if repr(f["lon"]) in stored]
    assert len(lons) <= len(SENT) // 20, lons[:3]  # a longitude may round to a map point's
    assert "positions_consented" in dump  # the audit's facts are there: who agreed, when

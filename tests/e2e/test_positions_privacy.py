"""No coordinate survives the round anywhere (issue 48, item 6; docs/privacy.md).

"Raw positions never enter the event log, the public board, a report, an export or a backup
[...]. A test reads every table, export and page after a round and finds no coordinate."

The real ``pace serve`` (JSON logs, metrics on, ``[positions] keep_hours = 48``: held 24 hours,
and its log says so as it starts) over a fresh database: round R1 for today on
Louiseville with the demo's map allows positions. Pages listen from the start (the
committee's, a referee's, a marshal's, a scorer's and a viewer's sockets, and the public's
leaderboard). Two groups' phones agree and send their walks over the wire, fixes written with
7 decimals; both groups have completions inferred. Fixes the server discards (off the course,
inaccurate) and payloads it refuses (a latitude of 95, a longitude as text) carry
coordinates too. A marshal taps, a scorer scores, and the committee finishes the round.

Then everything is read: every table of the SQLite file (every column as text) and the raw
bytes of its files, every GET route of the app as each role (visitor, viewer, scorer,
marshal, referee, committee: pages, JSON, CSV, SVG, TOML, the PDFs as ``pdftotext`` reads
them, the report's and the letters' PDF jobs), every broadcast and join answer the sockets
received, what the command line writes of the round (``pace export round``, ``pace report``
in every format and with the strip, ``pace letters``, ``pace results``, ``pace round
status|changes|life``, ``pace offenders``, ``pace calibrate``, ``pace export course``), and
the server's log. None holds a coordinate sent: a fix's longitude and latitude together in
one document, written in full, or rounded to 6, 5 or 4 decimals, with a decimal point or a
decimal comma (a rounded pair the course's own map also holds is left out at that rounding).
The GET routes are walked from the app's URL map: one neither fetched nor skipped with its
reason fails the test (a new export is read the day it is added).
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import subprocess
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from drivers import ACK_TIMEOUT
from livesupport import (
    ROUND,
    LiveServer,
    clocked,
    connect,
    live_server,
    pace,
    server_now,
    setup_round,
    wait_for,
)
from positioned import allow_positions, demo_geometry
from socketio.exceptions import TimeoutError as NothingMore

from pace import config
from pace.app import close_app, create_app
from pace.clock import SystemClock
from pace.demo.phones import Phones, samples, walk
from pace.rules.positions import CourseShape, Sample
from pace.services.access import AccessService
from pace.store import open_store

pytestmark = pytest.mark.e2e

COURSE_NAME = "Golf de Louiseville"
#: the two groups whose phones share, and their true completions (they start 08:00, 08:10)
WALKS = {"1": ("08:00", {1: "08:14", 2: "08:31", 3: "08:42"}, "08:39"),
         "2": ("08:10", {1: "08:25", 2: "08:41", 3: "08:53"}, "08:49")}  # fmt: skip
#: who reads: nobody signed in, a code of R1 of each role, the committee's secret (the
#: console's pages over every round open only to it)
ROLES = ("visitor", "viewer", "scorer", "marshal", "referee", "committee", "console")
#: the club asked for positions to be held two days: it gets 24 hours, and the log says so
CONFIG = '[server]\nlog_format = "json"\nmetrics = true\n\n[positions]\nkeep_hours = 48\n'
PRECISIONS = (7, 6, 5, 4)

# -- how a coordinate is looked for --------------------------------------------------------


def numbers(text: str) -> set[str]:
    """Every decimal number written in ``text``, as written: with a point, or a comma (as a
    French or Dutch page writes it) read as a point."""
    found = set(re.findall(r"\d+\.\d+", text))
    found |= {n.replace(",", ".") for n in re.findall(r"\d+,\d+", text)}
    return found


def written(x: float, decimals: int) -> set[str]:
    """The ways ``x`` is written with ``decimals`` decimals (trailing zeros or not)."""
    fixed = f"{abs(x):.{decimals}f}"
    out = {fixed, fixed.rstrip("0").rstrip(".")}
    if decimals == 7:
        out.add(repr(abs(x)))
    return {w for w in out if "." in w}


@dataclass
class Coordinates:
    """The fixes sent, and the course map's own points (rounded alike: not a leak)."""

    sent: list[tuple[float, float]] = field(default_factory=list)
    map_points: set[tuple[str, str]] = field(default_factory=set)

    def add_map(self, points: Iterable[tuple[float, float]]) -> None:
        for lon, lat in points:
            for d in PRECISIONS:
                self.map_points.add((f"{abs(lon):.{d}f}", f"{abs(lat):.{d}f}"))

    def leaks(self, text: str) -> list[str]:
        """Return the fixes ``text`` writes (longitude and latitude, at some rounding)."""
        found = numbers(text)
        out = []
        for lon, lat in self.sent:
            for d in PRECISIONS:
                if (f"{abs(lon):.{d}f}", f"{abs(lat):.{d}f}") in self.map_points:
                    continue  # the map holds this point at this rounding: not the fix's
                if written(lon, d) & found and written(lat, d) & found:
                    out.append(f"({lon!r}, {lat!r}) at {d} decimals")
                    break
        return out


def test_the_search_finds_a_coordinate_however_it_is_written():
    """The search itself: a coordinate in JSON, in a French sentence, rounded, is found; the
    same digits apart, or the map's own point, are not."""
    c = Coordinates(sent=[(4.6123457, 50.6912345), (-0.1234567, 51.5012345)])
    c.add_map([(4.6200001, 50.7000001)])
    assert c.leaks('{"lon": 4.6123457, "lat": 50.6912345}')
    assert c.leaks("Le groupe était à 50,69123 N, 4,61235 E.")
    assert c.leaks("lat 50.6912 lon 4.6123")
    assert c.leaks("[-0.12346, 51.50123]")
    assert not c.leaks("4.6123457 alone, then 51.5012345 of another")
    assert not c.leaks("at 10:41 and 10:43, 210 m to the green, 4.61 km")
    near_map = Coordinates(sent=[(4.62000321, 50.70000456)])
    near_map.add_map([(4.6200001, 50.7000001)])
    assert not near_map.leaks("the map's 4.6200 50.7000")
    assert near_map.leaks("the fix's 4.6200032 50.7000046")


# -- the round -------------------------------------------------------------------------------


@dataclass
class Played:
    server: LiveServer
    folder: Path
    #: the committee's secret (the console)
    secret: str
    coordinates: Coordinates
    #: what the sockets received and answered, by who listened
    heard: dict[str, list[str]]
    inferred: dict[str, list[int]]


def local(server: LiveServer, hhmm: str) -> datetime:
    h, m = (int(x) for x in hhmm.split(":"))
    return server_now(server).replace(hour=h, minute=m, second=0, microsecond=0)


def fix(s: Sample) -> dict:
    return {"at": s.at.isoformat(), "lon": round(s.lon, 7), "lat": round(s.lat, 7),
            "accuracy": s.accuracy}  # fmt: skip


def call(c, name: str, payload: dict) -> dict:
    return c.call(name, payload, timeout=ACK_TIMEOUT)


def send(server: LiveServer, phone, group: str, fixes: list[dict]) -> dict:
    """``send_positions`` from a phone whose clock is the server's."""
    return call(
        phone,
        "send_positions",
        {
            "round": ROUND,
            "group": group,
            "fixes": fixes,
            "device_time": server_now(server).isoformat(),
        },
    )


def drain(c) -> list[str]:
    """Every event ``c`` received so far, as JSON text."""
    out = []
    while True:
        try:
            event = c.receive(timeout=0.3)
        except NothingMore:
            return out
        out.append(json.dumps(event, default=str))


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Iterator[Played]:
    folder = tmp_path_factory.mktemp("privacy")
    db = setup_round(folder)
    allow_positions(folder, db)
    settings = folder / "config.toml"
    settings.write_text(CONFIG, encoding="utf-8")
    store = open_store(db)
    try:
        secret = AccessService(store, config.Settings(), SystemClock()).ensure_committee_account()
    finally:
        store.close()
    assert secret is not None
    geometry = demo_geometry()
    shape = CourseShape.of(geometry)
    coordinates = Coordinates()
    coordinates.add_map(map_points(geometry))
    with live_server(folder, db=db, extra_args=clocked("10:30", tick=0.2),
                     env={"PACE_CONFIG": str(settings)}) as server:  # fmt: skip
        listeners = {role: connect(server, None if role == "visitor" else role, ACK_TIMEOUT)
                     for role in ROLES if role != "console"}  # fmt: skip
        heard: dict[str, list[str]] = {role: [] for role in listeners}
        try:
            for role, c in listeners.items():
                if role == "visitor":
                    heard[role].append(json.dumps(call(c, "join_leaderboard", {"round": ROUND})))
                else:
                    heard[role].append(json.dumps(call(c, "join_round", {"round": ROUND})))
            heard["scorer"].append(json.dumps(call(listeners["scorer"], "join_scores",
                                                   {"round": ROUND})))  # fmt: skip
            inferred = play(server, shape, coordinates)
            for role, c in listeners.items():
                heard[role] += drain(c)
        finally:
            for c in listeners.values():
                c.disconnect()
        yield Played(server, folder, secret, coordinates, heard, inferred)


def map_points(geometry: object) -> Iterator[tuple[float, float]]:
    """Every [lon, lat] pair of the course's map."""
    if isinstance(geometry, dict):
        for v in geometry.values():
            yield from map_points(v)
    elif isinstance(geometry, list | tuple):
        if len(geometry) == 2 and all(isinstance(x, float) for x in geometry):
            yield float(geometry[0]), float(geometry[1])
        else:
            for v in geometry:
                yield from map_points(v)


def play(server: LiveServer, shape: CourseShape, coordinates: Coordinates) -> dict[str, list[int]]:
    """The round as the module's docstring tells it; return the holes inferred by group."""
    inferred: dict[str, list[int]] = {}
    phones = []
    for group, (start, done, until) in WALKS.items():
        phone = connect(server, "scorer", ACK_TIMEOUT)
        phones.append(phone)
        rng = random.Random(48 + int(group))
        path = walk(shape, list(range(1, 19)), local(server, start),
                    {h: local(server, t) for h, t in done.items()}, rng)  # fmt: skip
        model = Phones(gaps=0, long_gap_groups=0, wild_share=0.0, accuracy=(5.0, 12.0))
        fixes = [fix(s) for s in samples(shape, path, rng, model,
                                         local(server, start) - timedelta(minutes=2),
                                         local(server, until))]  # fmt: skip
        coordinates.sent += [(f["lon"], f["lat"]) for f in fixes]
        shared = call(phone, "share_positions", {"id": str(uuid.uuid4()), "round": ROUND,
                                                 "group": group, "share": True})  # fmt: skip
        assert shared["ok"], shared
        inferred[group] = []
        for i in range(0, len(fixes), 40):
            ack = send(server, phone, group, fixes[i : i + 40])
            assert ack["ok"], ack
            inferred[group] += [x["hole"] for x in ack["inferred"]]
        assert inferred[group], (group, "no completion inferred")
    # fixes the server discards, and payloads it refuses, carry coordinates too
    tee = shape.holes[1].tee
    at = local(server, "08:55")
    off_course = shape.frame.lonlat(tee[0] + 5000.37, tee[1] + 12.11)
    blurred = shape.frame.lonlat(tee[0] + 3.71, tee[1] + 2.29)
    bad = [{"at": at.isoformat(), "lon": round(off_course[0], 7), "lat": round(off_course[1], 7),
            "accuracy": 6.0},
           {"at": (at + timedelta(seconds=15)).isoformat(), "lon": round(blurred[0], 7),
            "lat": round(blurred[1], 7), "accuracy": 80.0}]  # fmt: skip
    coordinates.sent += [(f["lon"], f["lat"]) for f in bad]
    ack = send(server, phones[1], "2", bad)
    assert ack["ok"] and ack["discarded"] == {"outside": 1, "inaccurate": 1}, ack
    wrong_lat = {**bad[1], "lon": round(blurred[0] + 0.0001234, 7), "lat": 95.1234567,
                 "accuracy": 8.0}  # fmt: skip
    as_text = {**bad[1], "lon": f"{blurred[0] + 0.0002345:.7f}", "accuracy": 8.0}
    coordinates.sent += [(wrong_lat["lon"], wrong_lat["lat"]),
                         (float(as_text["lon"]), as_text["lat"])]  # fmt: skip
    for refused in (wrong_lat, as_text):
        ack = send(server, phones[1], "2", [refused])
        assert not ack["ok"] and ack["error"]["code"] == "invalid_payload", ack
    # an official's tap, a score, then the round is finished
    server.tap("3", 1, local(server, "08:36"))
    score = call(phones[0], "record_score", {"id": str(uuid.uuid4()), "round": ROUND,
                                             "group": "1", "player": "Marie Lavoie", "hole": 1,
                                             "strokes": 5})  # fmt: skip
    assert score["ok"], score
    finished = server.post_json("/api/commands/round_finish",
                                {"id": str(uuid.uuid4()), "round": ROUND})  # fmt: skip
    assert finished["ok"], finished
    for phone in phones:
        phone.disconnect()
    return inferred


# -- what is read ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Read:
    """A document read: what, as whom, its status, its text."""

    where: str
    role: str
    status: int
    text: str


def get(server: LiveServer, path: str, token: str) -> tuple[int, str, bytes]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    req = urllib.request.Request(server.url + path, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def as_text(kind: str, body: bytes, folder: Path) -> str:
    """A body as text: a PDF as ``pdftotext`` reads it, anything else decoded."""
    if kind.startswith("application/pdf") or body[:5] == b"%PDF-":
        path = folder / f"read-{uuid.uuid4().hex}.pdf"
        path.write_bytes(body)
        out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                             check=True, text=True, timeout=120)  # fmt: skip
        return out.stdout
    return body.decode("utf-8", errors="replace")


COURSE_Q = urllib.parse.quote(COURSE_NAME)
#: every GET route and the paths it is read at (``{round}``, ``{course}`` filled in)
ROUTES: dict[str, tuple[str, ...]] = {
    "/": ("/",),
    "/api/courses/<path:name>/geometry": (f"/api/courses/{COURSE_Q}/geometry",),
    "/api/rounds": ("/api/rounds",),
    "/api/rounds/<round>/alerts/<path:key>": (),  # filled in with the alerts of the log
    "/api/rounds/<round>/board": ("/api/rounds/R1/board",),
    "/api/rounds/<round>/cards/<group>": tuple(f"/api/rounds/R1/cards/{g}" for g in "123"),
    "/api/rounds/<round>/cards/<group>/pace": tuple(
        f"/api/rounds/R1/cards/{g}/pace" for g in "123"
    ),  # fmt: skip
    "/api/rounds/<round>/changes": ("/api/rounds/R1/changes",),
    "/api/rounds/<round>/events": ("/api/rounds/R1/events",),
    "/api/rounds/<round>/geometry": ("/api/rounds/R1/geometry",),
    "/api/rounds/<round>/held_up/<group>/why": tuple(
        f"/api/rounds/R1/held_up/{g}/why" for g in "123"
    ),  # fmt: skip
    "/api/rounds/<round>/leaderboard": ("/api/rounds/R1/leaderboard",),
    "/api/rounds/<round>/penalties": ("/api/rounds/R1/penalties",),
    "/api/rounds/<round>/places": ("/api/rounds/R1/places",),
    "/api/rounds/<round>/penalties/<group>": tuple(
        f"/api/rounds/R1/penalties/{g}" for g in "123"
    ),  # fmt: skip
    "/api/rounds/<round>/results": ("/api/rounds/R1/results",),
    "/api/rounds/<round>/snapshot": ("/api/rounds/R1/snapshot",),
    "/api/rounds/<round>/status": ("/api/rounds/R1/status",),
    "/api/rounds/<round>/strip": ("/api/rounds/R1/strip",),
    "/committee": ("/committee",),
    # people and clubs (issue 50): the club's people and its access log, and the sign-in pages
    "/club/members": ("/club/members",),
    "/clubs": ("/clubs",),
    "/admin": ("/admin",),
    "/signin": ("/signin",),
    "/account/setup": ("/account/setup",),
    "/committee/time-pars": ("/committee/time-pars", f"/committee/time-pars?course={COURSE_Q}"),
    "/committee/time-pars.toml": (f"/committee/time-pars.toml?course={COURSE_Q}",),
    "/courses": ("/courses",),
    "/courses/<path:name>.toml": (f"/courses/{COURSE_Q}.toml",),
    "/courses/edit": ("/courses/edit", f"/courses/edit?name={COURSE_Q}"),
    "/healthz": ("/healthz",),
    "/join": ("/join",),
    "/login": ("/login",),
    "/metrics": ("/metrics",),
    "/offenders": ("/offenders",),
    "/privacy": ("/privacy", "/privacy?lang=nl"),
    "/readyz": ("/readyz",),
    "/rounds/<round>/access": ("/rounds/R1/access",),
    "/rounds/<round>/audit": ("/rounds/R1/audit", "/rounds/R1/audit?lang=fr"),
    "/rounds/<round>/audit.csv": ("/rounds/R1/audit.csv", "/rounds/R1/audit.csv?excel=1"),
    "/rounds/<round>/board": ("/rounds/R1/board",),
    "/rounds/<round>/changes": ("/rounds/R1/changes",),
    "/rounds/<round>/dashboard": ("/rounds/R1/dashboard",),
    "/rounds/<round>/leaderboard": ("/rounds/R1/leaderboard",),
    "/rounds/<round>/letters": ("/rounds/R1/letters", "/rounds/R1/letters?per=group&lang=nl"),
    "/rounds/<round>/marshal": ("/rounds/R1/marshal",),
    "/rounds/<round>/report": (
        "/rounds/R1/report",
        "/rounds/R1/report?lang=fr",
        "/rounds/R1/report?lang=nl",
    ),  # fmt: skip
    "/rounds/<round>/report.csv": ("/rounds/R1/report.csv", "/rounds/R1/report.csv?excel=1"),
    "/rounds/<round>/report.json": ("/rounds/R1/report.json",),
    "/rounds/<round>/report/chart.svg": tuple(
        f"/rounds/R1/report/chart.svg?group={g}" for g in "123"
    ),  # fmt: skip
    "/rounds/<round>/report/jobs/<job>": (),  # read with the jobs below
    "/rounds/<round>/report/jobs/<job>/file": (),
    "/rounds/<round>/results": ("/rounds/R1/results",),
    "/rounds/<round>/results.csv": ("/rounds/R1/results.csv", "/rounds/R1/results.csv?excel=1"),
    "/rounds/<round>/results.pdf": ("/rounds/R1/results.pdf",),
    "/rounds/<round>/scorecard": ("/rounds/R1/scorecard",),
    "/rounds/<round>/shotclock": ("/rounds/R1/shotclock",),
    "/rounds/new": ("/rounds/new",),
}
#: GET routes not read here, and why
SKIPPED = {
    "/static/<path:filename>": "the site's own files (scripts, styles, icons): no round's data",
    "/sw.js": "the service worker's script: no round's data",
}
#: read with the committee's secret, these must answer (else the test would read refusals)
MUST_ANSWER = ("/api/rounds/R1/events", "/rounds/R1/report.json", "/rounds/R1/report.csv",
               "/rounds/R1/results.pdf", "/rounds/R1/audit.csv", "/rounds/R1/letters",
               "/api/rounds/R1/snapshot", "/api/rounds/R1/strip", "/rounds/R1/dashboard",
               "/metrics", "/committee", "/offenders", "/api/rounds/R1/geometry",
               f"/courses/{COURSE_Q}.toml", f"/committee/time-pars?course={COURSE_Q}",
               "/rounds/R1/report/chart.svg?group=1")  # fmt: skip


def app_get_routes(folder: Path) -> set[str]:
    """The GET routes of the app, from its URL map."""
    settings = config.Settings().replace(
        database={"path": str(folder / "routes.db")}, scheduler={"enabled": False},
        server={"async_mode": "threading"},
    )  # fmt: skip
    app = create_app(settings)
    try:
        return {r.rule for r in app.url_map.iter_rules() if "GET" in (r.methods or ())}
    finally:
        close_app(app)


def read_http(played: Played) -> list[Read]:
    """Every route of :data:`ROUTES`, as every role, and the PDF jobs as the committee."""
    server = played.server
    tokens = {role: "" if role == "visitor" else server.token(role)
              for role in ROLES if role != "console"}  # fmt: skip
    console = server.post_json("/api/session", {"code": played.secret}, token="")
    assert console["ok"], console
    tokens["console"] = console["token"]
    events = server.get_json(f"/api/rounds/{ROUND}/events")["events"]
    keys = {e["payload"]["key"] for e in events if e["type"] == "alert_raised"}
    paths = [p for ps in ROUTES.values() for p in ps]
    paths += [f"/api/rounds/R1/alerts/{urllib.parse.quote(k, safe='')}" for k in sorted(keys)]
    out = []
    for role, token in tokens.items():
        for path in paths:
            if path.endswith(".pdf") and role not in ("console", "visitor"):
                continue  # one PDF as the committee, one as the public: each costs seconds
            status, kind, body = get(server, path, token)
            out.append(Read(path, role, status, as_text(kind, body, played.folder)))
    out += read_jobs(played, tokens["console"])
    return out


def read_jobs(played: Played, token: str) -> list[Read]:
    """The report's and the letters' PDFs, as the report page builds them (its jobs)."""
    server = played.server
    out = []
    # a form's token lives in the browser's session cookie: read it off a page first
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    bearer = {"Authorization": f"Bearer {token}"}
    with browser.open(urllib.request.Request(f"{server.url}/rounds/{ROUND}/changes",
                                             headers=bearer), timeout=10) as r:  # fmt: skip
        csrf = re.search(r'name="csrf" value="([^"]+)"', r.read().decode())
    assert csrf, "no form token on the changes page"
    for kind in ("report", "letters"):
        req = urllib.request.Request(
            f"{server.url}/rounds/{ROUND}/report/jobs",
            data=urllib.parse.urlencode({"kind": kind, "per": "player",
                                         "csrf": csrf[1]}).encode(),
            headers={**bearer, "Content-Type": "application/x-www-form-urlencoded"},
            method="POST",
        )  # fmt: skip
        with browser.open(req, timeout=10) as r:
            job = json.loads(r.read())["job"]
        path = f"/rounds/{ROUND}/report/jobs/{job['id']}"

        def done(path: str = path) -> dict | None:
            job = server.get_json(path, token)["job"]
            return job if job["state"] != "running" else None

        job = wait_for(done, timeout=180, interval=0.5)
        assert job and job["state"] == "done", job
        out.append(Read(path, "console", 200, json.dumps(job)))
        status, ctype, body = get(server, path + "/file", token)
        assert status == 200 and body[:5] == b"%PDF-", (kind, status)
        out.append(Read(path + "/file", "console", status, as_text(ctype, body, played.folder)))
    return out


def read_command_line(played: Played) -> list[Read]:
    """What the command line writes of the round, each in every format it offers."""
    db, folder = str(played.server.db), played.folder
    runs = [
        ("export", "round", ROUND),
        ("export", "course", COURSE_NAME),
        ("round", "status", "--round", ROUND, "--json"),
        ("round", "status", "--round", ROUND),
        ("round", "changes", "--round", ROUND),
        ("round", "life", "--round", ROUND, "--json"),
        ("offenders", "--json"),
        ("calibrate", "--course", COURSE_NAME, "--json"),
        ("results", "--round", ROUND, "--json"),
        ("results", "--round", ROUND, "--csv"),
        ("results", "--round", ROUND),
        ("letters", "--round", ROUND, "--per", "group"),
        ("report", "--round", ROUND, "--format", "html", "--strip-at", "08:40"),
    ]
    runs += [("report", "--round", ROUND, "--format", f) for f in ("json", "csv")]
    out = []
    for args in runs:
        done = pace(*args, "--db", db, cwd=folder)
        out.append(Read("pace " + " ".join(args), "cli", 0, done.stdout + done.stderr))
    pdfs = ((("report", "--round", ROUND, "--format", "pdf"), "report.pdf"),
            (("letters", "--round", ROUND, "--format", "pdf"), "letters.pdf"))  # fmt: skip
    for args, name in pdfs:
        pace(*args, "-o", str(folder / name), "--db", db, "--progress", "none", cwd=folder)
        text = as_text("application/pdf", (folder / name).read_bytes(), folder)
        out.append(Read("pace " + " ".join(args), "cli", 0, text))
    return out


def read_database(played: Played) -> list[Read]:
    """Every table of the SQLite file, every column as text; and its files' raw bytes."""
    db = Path(played.server.db)
    out = []
    conn = sqlite3.connect(db)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]  # fmt: skip
        for table in tables:
            rows = conn.execute(f'SELECT * FROM "{table}"').fetchall()
            text = "\n".join("\t".join(repr(v) if isinstance(v, float) else str(v) for v in row)
                             for row in rows)  # fmt: skip
            out.append(Read(f"table {table}", "database", len(rows), text))
        out.append(Read("sqlite3 .dump", "database", 0, "\n".join(conn.iterdump())))
    finally:
        conn.close()
    assert {"events", "rounds"} <= set(tables), tables
    return out + read_files(db)


def read_files(db: Path) -> list[Read]:
    """The raw bytes of the database's files (its write-ahead log too, while it serves), as
    text: a row deleted, or a page not yet checkpointed, is still read."""
    return [Read(f"file {path.name}", "database", 0, path.read_bytes().decode("latin-1"))
            for path in sorted(db.parent.glob(db.name + "*"))]  # fmt: skip


def test_no_coordinate_sent_is_found_anywhere_after_the_round(played, tmp_path):
    assert sorted(played.inferred) == ["1", "2"] and all(played.inferred.values())
    assert len(played.coordinates.sent) > 200
    reads = read_http(played)
    # every GET route of the app is read here, or skipped with its reason
    got = app_get_routes(tmp_path)
    assert got - set(ROUTES) - set(SKIPPED) == set(), "a GET route nobody reads for coordinates"
    by_path = {(r.where, r.role): r for r in reads}
    for path in MUST_ANSWER:
        assert by_path[(path, "console")].status == 200, path
    # what is read holds the round's facts: the inferred completions, the consents
    events = by_path[("/api/rounds/R1/events", "console")].text
    assert '"source": "position"' in events or '"source":"position"' in events
    assert "positions_consented" in events
    reads += [Read(f"socket of the {role}", role, 0, "\n".join(texts))
              for role, texts in played.heard.items()]  # fmt: skip
    # the committee's page heard the groups' rows move on positions' completions
    assert any("group_updated" in t and '"position"' in t for t in played.heard["committee"])
    reads += read_command_line(played)
    log = played.server.log.read_text(encoding="utf-8")
    assert "send_positions" in log  # a line a command: the log was written
    assert "positions.keep_hours = 48.0: positions are held 24 hours at most" in log
    reads.append(Read("the server's log", "server", 0, log))
    reads += [Read(f"{r.where} (served)", r.role, r.status, r.text)
              for r in read_files(Path(played.server.db))]  # fmt: skip
    played.server.process.terminate()
    played.server.process.wait(timeout=10)
    reads += read_database(played)
    reads.append(Read("the server's log, stopped", "server", 0,
                      played.server.log.read_text(encoding="utf-8")))  # fmt: skip
    leaked = {f"{r.where} ({r.role}, {r.status})": found[:3]
              for r in reads if (found := played.coordinates.leaks(r.text))}  # fmt: skip
    assert leaked == {}, json.dumps(leaked, indent=1)
    assert sum(len(r.text) for r in reads) > 1_000_000  # a million characters were read

"""The wire-level attack suite (issue 9): a real ``pace serve`` per module, real clients.

``arena`` starts the server over a database with two rounds for today: ``R1`` (the sessions'
own round) and ``Été 2`` (another round, named so that its NFD twin and padded spellings
differ from it byte for byte). Both have facts to aim at: taps, a timed group with a stroke,
an alert. Sessions come from access codes made with ``pace access code`` and exchanged at
``POST /api/session``: one per role, all for ``R1`` (a committee code of a round opens only
that round).
"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import socketio
from livesupport import COURSE, DRAW, TIMEZONE, LiveServer, live_server, pace, setup_round

OWN = "R1"
OTHER = "Été 2"
ROLES = ("committee", "referee", "scorer", "marshal", "viewer")
MARIE = "Marie Lavoie"
TZ = ZoneInfo(TIMEZONE)

#: the other round spelled so that a check on the raw text would not recognise it
OTHER_SPELLINGS = {
    "exact": OTHER,
    "space": " " + OTHER,
    "tab": OTHER + "\t",
    "newline": "\n" + OTHER,
    "nbsp": "\u00a0" + OTHER,
    "ideographic": "\u3000" + OTHER,
    "nfd": unicodedata.normalize("NFD", OTHER),
    "nfd_padded": unicodedata.normalize("NFD", OTHER) + " ",
}


def uuid_spellings(id: str) -> dict[str, str]:
    """Return ``id`` spelt every way ``uuid.UUID`` reads as the same id."""
    u = uuid.UUID(id)
    return {
        "canonical": str(u),
        "upper": str(u).upper(),
        "braces": "{" + str(u) + "}",
        "urn": u.urn,
        "hex": u.hex,
        "upper_hex": u.hex.upper(),
    }


@dataclass
class Arena:
    """The server under attack, its two rounds, its sessions and the facts to aim at."""

    server: LiveServer
    tokens: dict[str, str] = field(default_factory=dict)
    facts: dict[str, dict[str, str]] = field(default_factory=dict)
    sockets: dict[str, socketio.SimpleClient] = field(default_factory=dict)
    log_checked: int = 0
    #: the groups added for the changes on the day aimed at since the last ``clear_staged``
    staged: list[str] = field(default_factory=list)
    #: the session that stages each round's facts (``admin``: the committee secret's, of the
    #: default club; the clubs' arena stages the other club's round as that club's committee)
    admins: dict[str, str] = field(default_factory=dict)
    #: whether the other round is another club's (issue 50; tests/security/test_club_matrix.py)
    clubs: bool = False

    def admin_for(self, round: str) -> str:
        """The session that may act on ``round`` as its committee, for the setup."""
        return self.admins.get(round, "admin")

    @property
    def url(self) -> str:
        return self.server.url

    def now(self) -> datetime:
        """The server's clock (its snapshot's ``at``)."""
        at = self.get(f"/api/rounds/{OWN}/snapshot", "committee")["snapshot"]["at"]
        return datetime.fromisoformat(at)

    def token(self, role: str | None) -> str:
        return "" if role is None else self.tokens[role]

    def get(self, path: str, role: str | None) -> dict:
        return self.server.get_json(path, token=self.token(role) if role else "")

    def request(
        self,
        method: str,
        path: str,
        role: str | None,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """Send one HTTP request; return (status, headers, body), never following redirects."""
        h = {**(headers or {})}
        if role is not None:
            h["Authorization"] = f"Bearer {self.token(role)}"
        req = urllib.request.Request(self.url + path, data=body, headers=h, method=method)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(req, timeout=10) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def command(self, name: str, payload: object, role: str | None) -> tuple[int, dict]:
        """POST a command to the HTTP mirror; return (status, answer)."""
        status, _, body = self.request(
            "POST",
            f"/api/commands/{name}",
            role,
            json.dumps(payload).encode(),
            {"Content-Type": "application/json"},
        )
        return status, json.loads(body)

    def emit(self, role: str | None, name: str, data: Any = None) -> Any:
        """Send a Socket.IO event from ``role``'s connection; return its ack.

        A tuple ``data`` is sent as several arguments (python-socketio's convention).
        """
        return self.sockets[role or "none"].call(name, data, timeout=10)

    def people_events(self) -> list[tuple[str, str, str]]:
        """Every event a person recorded, in both rounds (the tick's alerts left out)."""
        out = []
        for round in (OWN, OTHER):
            quoted = urllib.request.quote(round, safe="")
            events = self.get(f"/api/rounds/{quoted}/events", self.admin_for(round))["events"]
            out += [(e["id"], e["type"], e["round"]) for e in events if e["by"]["role"] != "system"]
        return out

    def assert_log_clean(self) -> None:
        """No traceback and no unexpected error in the server's log since the last look."""
        text = self.server.log.read_text(encoding="utf-8", errors="replace")
        new = text[self.log_checked :]
        self.log_checked = len(text)
        assert "Traceback" not in new, new[-4000:]
        assert "unexpected error" not in new, new[-4000:]
        assert " ERROR " not in new, new[-4000:]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _session(server: LiveServer, role: str, round: str | None) -> str:
    code = server.code(role, round) if round else _committee_code(server)
    answer = server.post_json("/api/session", {"code": code}, token="")
    assert answer.get("ok"), answer
    return answer["token"]


def _committee_code(server: LiveServer) -> str:
    path = Path(str(server.db) + ".committee-secret")
    assert path.exists(), "pace serve writes the secret beside the database when not on a tty"
    return path.read_text().strip()


#: the arena's course gets two tee sets (issue 38), so that ``change_tees`` has tees to move a
#: player to: the first rated as the course was (113 and its par), the second for women too
TEE_SETS = ('\n[[tees]]\nname = "White"\n\n[[tees]]\nname = "Red"\nwomen_slope = 120\n'
            'women_rating = 74.0\n')


#: the other club of the clubs' arena, its course (the same holes, its own name) and the
#: people's accounts: a committee member and a referee of the own round's club (the referee
#: is a referee of the other club too: he works both clubs' events), the other club's
#: committee (the setup's), and an administrator of the instance
OTHER_CLUB = "other-club"
OTHER_COURSE = "Louiseville B"
PASSWORD = "a long enough password"
PEOPLE = {
    "committee": ("claire@own.example", "Claire", {"default": "committee"}),
    "referee": ("rene@fed.example", "René", {"default": "referee", OTHER_CLUB: "referee"}),
    "admin-other": ("odile@other.example", "Odile", {OTHER_CLUB: "committee"}),
    "instance-admin": ("root@fed.example", "Fed", {}),
}


def _setup(folder: Path, clubs: bool = False) -> Path:
    today = datetime.now(TZ).date().isoformat()
    db = setup_round(folder, day=today)
    course = folder / "course-tees.toml"
    course.write_text(COURSE.read_text(encoding="utf-8") + TEE_SETS, encoding="utf-8")
    pace("import", "course", str(course), "--db", str(db), cwd=folder)
    if clubs:  # the other round is another club's, on that club's course
        pace("club", "add", OTHER_CLUB, "Other club", "--db", str(db), cwd=folder)
        other = folder / "course-b.toml"
        other.write_text(re.sub(r'(?m)^name = ".*"$', f'name = "{OTHER_COURSE}"',
                                course.read_text(encoding="utf-8"), count=1),
                         encoding="utf-8")  # fmt: skip
        pace("import", "course", str(other), "--club", OTHER_CLUB, "--db", str(db), cwd=folder)
        pace("import", "draw", str(DRAW), "--round", OTHER, "--date", today, "--course",
             OTHER_COURSE, "--club", OTHER_CLUB, "--timezone", TIMEZONE, "--db", str(db),
             cwd=folder)  # fmt: skip
        _people(db)
    else:
        pace("import", "draw", str(DRAW), "--round", OTHER, "--date", today,
             "--timezone", TIMEZONE, "--db", str(db), cwd=folder)  # fmt: skip
    for round in (OWN, OTHER):  # the groups' own reports are taken too (issue 39)
        pace("round", "completions", "officials_and_groups", "--round", round, "--db", str(db),
             cwd=folder)  # fmt: skip
    # the own round takes positions from the groups' phones, on the demo's map (issue 48)
    from pace import formats
    from pace.demo import geography

    louiseville = formats.parse_course(COURSE.read_text(encoding="utf-8"), COURSE.name)
    osm = folder / "louiseville.osm"
    osm.write_text(geography.osm_xml(louiseville), encoding="utf-8")
    pace("import", "geometry", str(osm), "--course", louiseville.name, "--db", str(db),
         cwd=folder)  # fmt: skip
    pace("round", "positions", "on", "--round", OWN, "--db", str(db), cwd=folder)
    return db


def _people(db: Path) -> None:
    """Make the clubs' arena's people, each with the password ``PASSWORD``."""
    from pace import config
    from pace.clock import SystemClock
    from pace.services.access import AccessService
    from pace.services.accounts import Accounts
    from pace.store import open_store

    with open_store(db) as store:
        clock = SystemClock()
        accounts = Accounts(store, AccessService(store, config.Settings(), clock), clock)
        for email, name, roles in PEOPLE.values():
            made = accounts.add_account(email, name, admin=not roles)
            for club, role in roles.items():
                accounts.set_role(club, made.account.id, role)
            assert made.token is not None
            accounts.finish_setup(made.token, PASSWORD, PASSWORD)


def _person_session(server: LiveServer, key: str) -> str:
    answer = server.post_json("/api/session", {"email": PEOPLE[key][0], "password": PASSWORD},
                              token="")  # fmt: skip
    assert answer.get("ok"), answer
    return answer["token"]


def connect(
    arena: Arena, role: str | None, *, device: str = "attack-phone"
) -> socketio.SimpleClient:
    """Open a real Socket.IO connection with ``role``'s token (``None``: no session)."""
    client = socketio.SimpleClient()
    auth: dict[str, Any] = {"device": device, "name": f"{role} phone"}
    if role is not None:
        auth["token"] = arena.token(role)
    client.connect(arena.url, auth=auth, transports=["websocket"], wait_timeout=10)
    return client


def _stage(arena: Arena) -> None:
    """Give both rounds facts to aim at: taps, a timed group, a stroke, a credit, an alert,
    a score."""
    for round in (OWN, OTHER):
        arena.facts[round] = _stage_round(arena, round, arena.now())


def _stage_round(arena: Arena, round: str, now: datetime) -> dict[str, str]:
    def send(name: str, **fields: Any) -> dict:
        body = {"id": str(uuid.uuid4()), "round": round, "device_time": now.isoformat(),
                **fields}  # fmt: skip
        _, answer = arena.command(name, body, arena.admin_for(round))
        assert answer.get("ok"), (name, answer)
        return answer

    def at(hhmm: str) -> str:
        hour, minute = int(hhmm[:2]), int(hhmm[3:])
        return now.astimezone(TZ).replace(hour=hour, minute=minute, second=0).isoformat()

    tap = send("hole_completed", group="1", hole=1, at=at("08:40"))["id"]
    spare = send("hole_completed", group="3", hole=1, at=at("08:35"))["id"]
    # decided two minutes ago (the phone's instant): the stroke below is timed within it
    send("decide_timing", group="1", decision="time",
         at=(now - timedelta(minutes=2)).isoformat())  # fmt: skip
    stroke = send(
        "record_stroke", group="1", player=MARIE, hole=2, kind="other", first_to_play=False,
        started=(now - timedelta(seconds=80)).isoformat(),
        stopped=(now - timedelta(seconds=5)).isoformat(),
    )["id"]  # fmt: skip
    credit = send("grant_time_credit", group="4", minutes=1, reason="ruling")["id"]
    score = send("record_score", group="2", player="Luc Côté", hole=1, strokes=4)["id"]
    quoted = urllib.request.quote(round, safe="")
    alerts: list[dict] = []
    for _ in range(100):  # the tick raises the alerts of a field long overdue
        alerts = arena.get(f"/api/rounds/{quoted}/snapshot",
                           arena.admin_for(round))["snapshot"]["alerts"]  # fmt: skip
        if alerts:
            break
        _wait(arena.server, 0.1)
    assert alerts, "the tick raised no alert"
    penalties = arena.get(f"/api/rounds/{quoted}/penalties", arena.admin_for(round))["penalties"]
    faults = [f["id"] for row in penalties for f in row["faults"]]
    return {"tap": tap, "spare": spare, "stroke": stroke, "credit": credit,
            "alert": alerts[0]["key"], "fault": faults[0] if faults else stroke,
            "score": score}  # fmt: skip


def _wait(server: LiveServer, seconds: float) -> None:
    """Wait up to ``seconds`` for the other condition of a poll: the server dying."""
    try:
        server.process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return
    raise RuntimeError(f"pace serve died:\n{server.log.read_text()}")


@pytest.fixture(scope="module")
def arena(tmp_path_factory) -> Iterator[Arena]:
    """A real ``pace serve`` (gevent, its tick every 0.2 s) with two rounds of facts."""
    yield from _arena(tmp_path_factory, clubs=False)


@pytest.fixture(scope="module")
def club_arena(tmp_path_factory) -> Iterator[Arena]:
    """The same server, the other round another club's (issue 50), and the committee's and
    the referee's sessions a person's own, of the own round's club: they open every round of
    that club, and the other club's round is what they must never reach."""
    yield from _arena(tmp_path_factory, clubs=True)


def _arena(tmp_path_factory: Any, clubs: bool) -> Iterator[Arena]:
    folder = tmp_path_factory.mktemp("club-arena" if clubs else "arena")
    db = _setup(folder, clubs)
    noon = datetime.now(TZ).replace(hour=12, minute=0, second=0, microsecond=0)
    with live_server(
        folder, db=db, extra_args=["--clock-origin", noon.isoformat(), "--tick", "0.2"]
    ) as server:
        arena = Arena(server, clubs=clubs)
        arena.tokens = {role: _session(server, role, OWN) for role in ROLES}
        arena.tokens["admin"] = _session(server, "committee", None)  # every round: the setup
        if clubs:
            # the committee's and the referee's sessions are now the people's own
            for key in PEOPLE:
                arena.tokens[key] = _person_session(server, key)
            arena.admins = {OTHER: "admin-other"}
        _stage(arena)
        for role in (*ROLES, None):
            arena.sockets[role or "none"] = connect(arena, role)
        # the scorer's phone shares group 2's position, over Socket.IO and over HTTP
        share = {"round": OWN, "group": "2", "share": True}
        assert arena.emit("scorer", "share_positions", {"id": str(uuid.uuid4()), **share})["ok"]
        status, answer = arena.command("share_positions", {"id": str(uuid.uuid4()), **share},
                                       "scorer")  # fmt: skip
        assert answer.get("ok"), answer
        try:
            yield arena
        finally:
            for client in arena.sockets.values():
                client.disconnect()
            arena.assert_log_clean()


def is_refusal(answer: object) -> bool:
    """Whether ``answer`` is the shared error shape, and not a server failure."""
    if not isinstance(answer, dict) or answer.get("ok") is not False:
        return False
    error = answer.get("error")
    return (
        isinstance(error, dict)
        and set(error) == {"code", "message", "field"}
        and isinstance(error["code"], str)
        and re.fullmatch(r"[a-z_]+", error["code"]) is not None
        and error["code"] != "internal_error"
    )

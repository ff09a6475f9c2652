"""End to end: the committee changes the draw while simulated marshals play the round (issue 28).

The real ``pace serve`` (gevent) over a round of twelve groups for today. Its clock is passed
in: it stands at 14:30 local (it runs a millionth of real speed), and every completion is
logged with the instant it was played, as phones sending what they held, four marshals' phones
at once, each as fast as its acks come. Meanwhile the committee, over HTTP as the console
sends its commands, moves a player between two groups that have not played, swaps two
players, records a no-show, adds a late entry, sends a group off later and from tee 10, retires
a player of a three-ball mid-round (his group is a two-ball from that instant on, not before),
and tries what must be refused (a player moved out of a group, or a swap with a group, that
completed a hole; a start re-timed after the group's first completion; a retirement before a
hole its group has already logged): each refusal says why in a sentence and stores nothing.

Dashboards (the round's numbered deltas), boards (the board's own feed) and leaderboards
(``leaderboard_changed``, then a read) follow from real python-socketio clients, one of each
joining mid-round. At a checkpoint and at the end, every one of them holds what a fresh read
holds, and the judgement they show (each group's status and figures, the time over at each
hole, the instant each hole is due, the open alerts) is the whole-log fold: the stored log read
back from the database file and judged by ``pace.rules`` at the instant each row was
evaluated. Every wait is bounded; nothing sleeps to make time pass.
"""

from __future__ import annotations

import json
import random
import threading
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import socketio
from drivers import ACK_TIMEOUT, MarshalDriver, assert_error
from livesupport import (
    COURSE,
    ROUND,
    TIMEZONE,
    LiveServer,
    connect,
    in_sequence,
    live_server,
    pace,
    setup_round,
)
from socketio.exceptions import TimeoutError as SocketTimeout

from pace.config import Settings
from pace.documents.status import group_document
from pace.documents.values import minutes
from pace.rules import alerts as alertsmod
from pace.rules import changes as changesmod
from pace.rules import facts as factsmod
from pace.rules.model import RoundSetup
from pace.rules.position import episodes, evaluate_field, hole_overs, plan_field
from pace.store import open_store

pytestmark = pytest.mark.e2e

TZ = ZoneInfo(TIMEZONE)
#: the server's clock: today at this time, all but still (every tap is of the morning)
NOW = "14:30"
#: twelve groups off tee 1 every ten minutes from 08:00; these have four players
FOURS = {2, 6, 9}
GROUPS = [str(g) for g in range(1, 13)]
#: the par of each hole of the course
PAR = {h["number"]: h["par"] for h in tomllib.loads(COURSE.read_text())["holes"]}
#: the end of the first part of the morning (the checkpoint): groups 9–12 have not played
CHECKPOINT = "09:20"
#: Player 3C retires at this instant: group 3 plays on as a two-ball
RETIRED_AT = "09:40"
#: the deltas a dashboard applies (docs/protocol.md, "Deltas")
DELTAS = {"group_updated", "alert_raised", "alert_acknowledged", "alert_resolved",
          "penalties_changed", "timing_changed", "round_changed"}  # fmt: skip
#: the alerts the live loop raises from the field's judgement (the referees' are theirs)
FIELD_ALERTS = ("out_of_position", "back_in_position", "overdue")
#: how long a fresh read and a page may take to agree once the commands are answered
SETTLE_S = 15.0


def player(group: int, n: int) -> str:
    return f"Player {group}{'ABCD'[n]}"


def today(hhmm: str) -> datetime:
    hour, minute = (int(x) for x in hhmm.split(":"))
    return datetime.now(TZ).replace(hour=hour, minute=minute, second=0, microsecond=0)


def write_draw(folder: Path) -> Path:
    lines = ["group,start,tee,player,handicap,club,notes"]
    for g in range(1, 13):
        start = today("08:00") + timedelta(minutes=10 * (g - 1))
        for n in range(4 if g in FOURS else 3):
            lines.append(f"{g},{start:%H:%M},1,{player(g, n)},{10 + n},Louiseville,")
    path = folder / "draw.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# ------------------------------------------------------------------------------ the play


def planned_round() -> dict[str, list[tuple[int, datetime]]]:
    """Return each group's completions as it will play them (seeded), in playing order.

    The field is planned with the draw as the committee will leave it: group 12 off at 10:00,
    group 11 off tee 10. Each hole takes its par's minutes at a three-ball's pace, slower or
    faster by the group's form and the hole's luck, and never ends before the group ahead on
    the same tee has holed out there (it waits): some groups fall out of position and back.
    """
    rng = random.Random(28)
    starts = {g: today("08:00") + timedelta(minutes=10 * (int(g) - 1)) for g in GROUPS}
    starts["12"] = today("10:00")
    tees = {g: 10 if g == "11" else 1 for g in GROUPS}
    out: dict[str, list[tuple[int, datetime]]] = {}
    ahead: dict[int, dict[int, datetime]] = {}
    form = {g: rng.uniform(0.9, 1.15) for g in GROUPS}
    form["5"] = 1.3  # the slow group of the day
    for g in sorted(GROUPS, key=lambda g: starts[g]):
        tee = tees[g]
        order = list(range(tee, 19)) + list(range(1, tee))
        at = starts[g]
        done: list[tuple[int, datetime]] = []
        seen = ahead.setdefault(tee, {})
        for hole in order:
            minutes_ = (14 + 3 * (PAR[hole] - 4)) * form[g] * rng.uniform(0.85, 1.2)
            at = at + timedelta(seconds=round(minutes_ * 60))
            if hole in seen:
                at = max(at, seen[hole] + timedelta(seconds=50))
            seen[hole] = at
            done.append((hole, at))
        out[g] = done
    return out


@dataclass
class Progress:
    """What the marshals have had acknowledged: each group's latest completion logged."""

    latest: dict[str, datetime] = field(default_factory=dict)
    cond: threading.Condition = field(default_factory=threading.Condition)

    def logged(self, group: str, at: datetime) -> None:
        with self.cond:
            self.latest[group] = at
            self.cond.notify_all()

    def wait(self, group: str, after: datetime, timeout: float = 30.0) -> None:
        """Wait until ``group`` logged a completion after ``after`` (bounded)."""
        with self.cond:
            ok = self.cond.wait_for(
                lambda: self.latest.get(group, datetime.min.replace(tzinfo=TZ)) > after, timeout
            )
        assert ok, f"group {group} logged nothing after {after:%H:%M} within {timeout} s"


class Marshal(threading.Thread):
    """A marshal's phone: logs its groups' completions in the order they were played, each
    once its ack for the previous one came. At each phase's instant it stops (``paused``)
    until the phase's event is set; a group with a gate holds its completions after the
    gate's instant until the gate's event is set."""

    def __init__(
        self,
        server: LiveServer,
        taps: list[tuple[str, int, datetime]],
        progress: Progress,
        phases: list[tuple[datetime, threading.Event]],
        gates: dict[str, tuple[datetime, threading.Event]],
    ):
        super().__init__(daemon=True)
        self.client = connect(server, "marshal")
        frozen = datetime.fromisoformat(
            self.client.call("clock_sync", {}, timeout=ACK_TIMEOUT)["server_time"]
        )
        self.driver = MarshalDriver(self.client, lambda: frozen)
        self.taps = sorted(taps, key=lambda t: t[2])
        self.progress = progress
        self.phases = phases
        self.gates = gates
        self.paused = threading.Event()  # reached the end of the current phase
        self.error: BaseException | None = None
        self.sent = 0

    def run(self) -> None:
        try:
            phases = list(self.phases)
            for group, hole, at in self.taps:
                while phases and at >= phases[0][0]:
                    self.paused.set()
                    assert phases[0][1].wait(60), "the next phase never began"
                    phases.pop(0)
                gate = self.gates.get(group)
                if gate is not None and at > gate[0]:
                    assert gate[1].wait(60), f"group {group}'s gate never opened"
                self.driver.tap(group, hole, at)
                self.sent += 1
                self.progress.logged(group, at)
            self.paused.set()
        except BaseException as e:  # noqa: BLE001 (reported by the test's thread)
            self.error = e
            self.paused.set()


# ------------------------------------------------------------------------------ the pages


class Page:
    """A page following the round from a real client, applying what it hears in order.

    ``kind`` is ``dashboard`` (``join_round``, the round's deltas), ``board`` (``join_board``,
    the board's feed) or ``leaderboard`` (``join_leaderboard``, then a read of the
    leaderboard at each ``leaderboard_changed``), as the pages' scripts do.
    """

    def __init__(self, server: LiveServer, kind: str, client: socketio.SimpleClient):
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.server = server
        self.kind = kind
        self.client = client
        self.lock = threading.RLock()
        self.stop = threading.Event()
        self.drop: int | None = None
        self.joins = 0
        self.error: BaseException | None = None
        self.rev: int = 0
        self.state: dict[str, Any] = {}
        self.join()

    def join(self) -> None:
        with self.lock:
            if self.kind == "leaderboard":
                ack = self.client.call("join_leaderboard", {"round": ROUND}, timeout=ACK_TIMEOUT)
                assert ack["ok"], ack
                self.state = {"leaderboard": ack["leaderboard"]}
                self.joins += 1
                return
            event = "join_round" if self.kind == "dashboard" else "join_board"
            ack = self.client.call(event, {"round": ROUND}, timeout=ACK_TIMEOUT)
            assert ack["ok"], ack
            self.joins += 1
            snap = ack["snapshot"]
            self.rev = snap["rev"]
            if self.kind == "board":
                self.state = snap
                return
            self.state = dashboard_state(snap)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    event = self.client.receive(timeout=0.2)
                except SocketTimeout:
                    continue
                name, msg = event[0], (event[1] if len(event) > 1 else None)
                with self.lock:
                    self.apply(name, msg)
        except BaseException as e:  # noqa: BLE001 (reported by the test's thread)
            self.error = e

    def apply(self, name: str, msg: Any) -> None:
        if self.kind == "leaderboard":
            if name == "leaderboard_changed":
                answer = self.server.get_json(f"/api/rounds/{ROUND}/leaderboard", token="")
                assert answer["ok"], answer
                self.state = {"leaderboard": answer["leaderboard"]}
            return
        if self.kind == "board":
            if name == "board_changed" and in_sequence(self, msg["rev"]):
                b = self.state
                b["rev"] = msg["rev"]
                for row in msg.get("groups", []):
                    rows = {r["group"]: r for r in b["groups"]}
                    rows[row["group"]] = row
                    b["groups"] = list(rows.values())
                b["timing"].update(msg.get("timing", {}))
                for part in ("disqualified", "suspended"):
                    if part in msg:
                        b[part] = msg[part]
            return
        if name not in DELTAS or not in_sequence(self, msg["rev"]):
            return
        s = self.state
        if name == "group_updated":
            row = msg["group"]
            at = [i for i, r in enumerate(s["groups"]) if r["group"] == row["group"]]
            if at:
                s["groups"][at[0]] = row
            else:
                s["groups"].append(row)
        elif name == "alert_raised":
            s["alerts"][msg["alert"]["key"]] = msg["alert"]
        elif name == "alert_acknowledged":
            s["alerts"].pop(msg["payload"]["alert"], None)
        elif name == "alert_resolved":
            s["alerts"].pop(msg["payload"]["alert"], None)
        elif name == "timing_changed":
            s["timing"][msg["group"]] = msg["timing"]
        elif name == "penalties_changed":
            kept = [p for p in s["penalties"] if p["group"] != msg["group"]]
            s["penalties"] = kept + list(msg["players"])
        elif name == "round_changed":
            parts = dict(msg["parts"])
            if "groups" in parts:
                s["groups"] = list(parts.pop("groups"))
            s.update(parts)


def dashboard_state(snap: dict[str, Any]) -> dict[str, Any]:
    """What a dashboard holds of a snapshot (its open alerts by key), the deltas applied to."""
    state = {k: snap[k] for k in ("changes", "suspended", "timing", "penalties", "held_up")}
    state["groups"] = list(snap["groups"])
    state["alerts"] = {a["key"]: a for a in snap["alerts"]}
    return state


def without_at(row: dict[str, Any]) -> dict[str, Any]:
    """A row as compared with a fresh read: the instant it was evaluated at aside, and the
    figures that grow with the clock from there (the clock all but stands: a millionth of a
    second counts in a projected finish). Each row is the whole-log fold at its own instant,
    figures included (:func:`assert_judged_as_the_whole_log`)."""
    return {k: v for k, v in row.items() if k != "at" and k not in row["moving"]}


def dashboard_truth(server: LiveServer) -> dict[str, Any]:
    """The dashboard's snapshot, read afresh over HTTP."""
    return dict(server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"])


#: what a page's thread is given to apply what is on its way, between two fresh reads
SETTLING = threading.Event()


def agree(pages: list[Page], read: Callable[[Page], tuple[int | None, Any]],
          hold: Callable[[Page], Any]) -> Any:  # fmt: skip
    """Wait until every page holds what a fresh read holds at the same feed number; return
    the last fresh read. A page ahead of the read (a tick's delta since) reads again."""
    deadline = time.monotonic() + SETTLE_S
    last: Any = None
    while True:
        mismatched = []
        for page in pages:
            assert page.error is None, page.error
            rev, truth = read(page)
            last = truth
            with page.lock:
                held_rev = page.rev if rev is not None else None
                held = hold(page)
            if held_rev != rev or held != truth:
                mismatched.append((page.kind, held_rev, rev, held, truth))
        if not mismatched:
            return last
        if time.monotonic() > deadline:
            kind, held_rev, rev, held, truth = mismatched[0]
            assert (held_rev, held) == (rev, truth), (
                f"{kind} page differs from a fresh read: {differences(held, truth)}"
            )
        SETTLING.wait(0.1)  # a bounded poll: the pages' threads apply what is on its way


def differences(held: Any, truth: Any, path: str = "") -> list[str]:
    """Name where ``held`` and ``truth`` differ (the first few places), for the failure."""
    if isinstance(held, dict) and isinstance(truth, dict):
        out = []
        for k in sorted(set(held) | set(truth), key=str):
            if held.get(k) != truth.get(k):
                out += differences(held.get(k), truth.get(k), f"{path}.{k}")
        return out[:5]
    if isinstance(held, list) and isinstance(truth, list) and len(held) == len(truth):
        return [d for i, (a, b) in enumerate(zip(held, truth, strict=True)) if a != b
                for d in differences(a, b, f"{path}[{i}]")][:5]  # fmt: skip
    return [f"{path}: {held!r} != {truth!r}"]


# ------------------------------------------------------------------------------ the fold


def whole_log_fold(db: Path) -> tuple[RoundSetup, factsmod.RoundFacts, list[Any]]:
    """Return the draw with the log's changes, the facts and the events, read from the file."""
    store = open_store(db)
    try:
        record = store.get_round(ROUND)
        events = store.events(ROUND)
    finally:
        store.close()
    drawn = RoundSetup(record.course, record.groups,
                       Settings().pace_settings(record.standard_interval))  # fmt: skip
    return changesmod.apply(drawn, events), factsmod.fold(events), events


def assert_judged_as_the_whole_log(
    db: Path, snapshot: dict[str, Any], held: list[list[dict[str, Any]]]
) -> None:
    """Every row of ``snapshot``, and every row the pages hold (``held``), is the whole-log
    fold at the row's instant; the snapshot's open field alerts are those the fold calls for
    at its instant."""
    setup, facts, events = whole_log_fold(db)
    plan = plan_field(setup)
    for rows in (snapshot["groups"], *held):
        assert [r["group"] for r in rows] == [p.id for p in plan.groups]
    for row in [r for rows in (snapshot["groups"], *held) for r in rows]:
        at = datetime.fromisoformat(row["at"])
        p = plan.by_id[row["group"]]
        s = evaluate_field(setup, facts, at, plan).group(p.id)
        expected = group_document(s)
        assert {k: row[k] for k in expected} == expected, (row, expected)
        finish = s.projected_finish.isoformat() if s.projected_finish else None
        assert (row["hole"], row["projected_finish"]) == (s.hole, finish), row
        g = p.group
        assert (row["tee"], row["start"], row["players"], row["order"]) == (
            g.tee, g.start.isoformat(), [x.name for x in g.players], list(p.order)
        )  # fmt: skip
        overs = hole_overs(setup, facts, at, plan).get(p.id, {})
        assert {h: (v["at"], v["over_min"]) for h, v in row["holes"].items()} == {
            str(h): (when.isoformat(), minutes(over)) for h, (when, over) in overs.items()
        }, row
        done = {h: when for h, (when, _) in overs.items()}
        cumulative = p.cumulative_at(done, at)
        assert row["due"] == [(g.start + c).isoformat() for c in cumulative[1:]], (
            f"group {p.id}: the instants each hole is due are not the allotments as they "
            f"stand at {at:%H:%M} (group size {g.size_at(at)})"
        )
    # the alerts: every one the fold calls for was raised (once: ids derive from keys), and
    # those open are exactly those whose situation still holds
    now = datetime.fromisoformat(snapshot["at"])
    due = alertsmod.due_alerts(evaluate_field(setup, facts, now, plan),
                               episodes(setup, facts, now, plan),
                               setup.course.hole_numbers)  # fmt: skip
    raised = {str(e.payload["key"]) for e in events if e.type == "alert_raised"}
    assert {a.key for a in due} <= raised, sorted({a.key for a in due} - raised)
    shown = {a["key"] for a in snapshot["alerts"] if a["kind"] in FIELD_ALERTS}
    current = {a.key for a in due if a.current}
    assert shown == current, (sorted(shown - current), sorted(current - shown))


# ------------------------------------------------------------------------------ the test


@pytest.fixture
def server(tmp_path) -> Iterator[LiveServer]:
    db = setup_round(tmp_path, draw=write_draw(tmp_path))
    origin = today(NOW)
    args = ["--tick", "0.5", "--clock-origin", origin.isoformat(), "--clock-speed", "1e-06"]
    with live_server(tmp_path, db=Path(db), extra_args=args) as s:
        yield s


class Committee:
    """The console's commands, sent over HTTP as the committee's page sends them."""

    def __init__(self, server: LiveServer):
        self.server = server
        self.sent: list[str] = []

    def send(self, name: str, **fields: Any) -> dict[str, Any]:
        body = {"id": str(uuid.uuid4()), "round": ROUND, **fields}
        self.sent.append(body["id"])
        return self.server.post_json(f"/api/commands/{name}", body)

    def ok(self, name: str, **fields: Any) -> dict[str, Any]:
        answer = self.send(name, **fields)
        assert answer.get("ok") is True, (name, fields, answer)
        return answer

    def refused(self, name: str, field: str, says: str, **fields: Any) -> None:
        """The change is refused with a sentence saying why, and nothing is stored."""
        before = self.server.get_json(f"/api/rounds/{ROUND}/changes")["changes"]
        answer = self.send(name, **fields)
        assert_error(answer, "group_has_played", field)
        message = answer["error"]["message"]
        assert says in message and "completed hole" in message, message
        stored = self.server.get_json(f"/api/rounds/{ROUND}/events")["events"]
        assert self.sent[-1] not in {e["id"] for e in stored}
        assert self.server.get_json(f"/api/rounds/{ROUND}/changes")["changes"] == before


def test_changes_on_the_day_under_load_end_equal_to_the_whole_log(server):
    plan = planned_round()
    by_marshal: dict[int, list[tuple[str, int, datetime]]] = {}
    for g, done in plan.items():
        by_marshal.setdefault(int(g) % 4, []).extend((g, hole, at) for hole, at in done)
    progress = Progress()
    phase_b = threading.Event()
    retired = threading.Event()
    gates = {"3": (today(RETIRED_AT), retired)}
    for token in ("committee", "referee", "viewer", "marshal"):
        server.token(token)
    marshals = [Marshal(server, taps, progress, [(today(CHECKPOINT), phase_b)], gates)
                for taps in by_marshal.values()]  # fmt: skip
    opened: list[socketio.SimpleClient] = [m.client for m in marshals]

    def page(kind: str, role: str | None) -> Page:
        c = connect(server, role, ACK_TIMEOUT)
        opened.append(c)
        p = Page(server, kind, c)
        p.thread.start()
        return p

    pages = [page("dashboard", "referee"), page("dashboard", "committee"),
             page("board", "viewer"), page("board", "referee"),
             page("leaderboard", None)]  # fmt: skip
    committee = Committee(server)
    try:
        for m in marshals:
            m.start()

        # the morning's changes, while the first groups are being logged
        progress.wait("2", today("08:10"))
        committee.ok("change_move_player", player=player(10, 2), to="11", reason="his son")
        committee.ok("change_swap", player=player(9, 0), other=player(12, 1), reason="asked")
        committee.refused("change_move_player", "from", "record Player 1A as retired",
                          player=player(1, 0), to="9", reason="asked")  # fmt: skip
        committee.ok("change_start", group="12", start="10:00", reason="the starter's gap")
        committee.ok("change_withdraw", player=player(10, 0), reason="no_show", note="not here")
        pages.append(page("dashboard", "referee"))  # a page opened mid-morning
        committee.ok("change_tee", group="11", tee=10, reason="crossover")
        committee.refused("change_start", "start", "grant it a time credit",
                          group="2", start="08:30", reason="late")  # fmt: skip
        committee.ok("change_add_player", group="12", player={"name": "Late Entry", "handicap": 9},
                     reason="on the reserve list")  # fmt: skip
        committee.refused("change_swap", "group", "swaps are made before either group plays",
                          player=player(1, 1), other=player(11, 0), reason="asked")  # fmt: skip
        pages.append(page("board", "viewer"))
        pages.append(page("leaderboard", None))

        # the checkpoint: every page holds what a fresh read holds, judged as the whole log
        for m in marshals:
            assert m.paused.wait(60) and m.error is None, m.error
        middle = check_pages(server, pages)
        kinds = [c["type"] for c in middle["changes"]]
        assert kinds == [
            "player_moved",
            "players_swapped",
            "group_start_changed",
            "player_withdrawn",
            "group_tee_changed",
            "player_added",
        ], kinds
        three = next(r for r in middle["groups"] if r["group"] == "3")
        rows = {r["group"]: r for r in middle["groups"]}
        assert rows["10"]["players"] == [player(10, 1)]
        assert rows["11"]["players"] == [player(11, n) for n in range(3)] + [player(10, 2)]
        assert rows["12"]["players"] == [player(12, 0), player(9, 0), player(12, 2), "Late Entry"]
        assert (rows["11"]["tee"], rows["11"]["order"][0]) == (10, 10)
        assert rows["12"]["start"] == today("10:00").isoformat()

        # the rest of the round; Player 3C retires while the others play on
        for m in marshals:
            m.paused.clear()
        phase_b.set()
        progress.wait("3", today("09:20"))
        committee.ok("change_withdraw", player=player(3, 2), reason="retired", note="his back",
                     at=RETIRED_AT)  # fmt: skip
        retired.set()
        progress.wait("4", today("09:45"))
        committee.refused("change_withdraw", "at", "give an instant after", player=player(4, 0),
                          reason="retired", note="late", at="09:30")  # fmt: skip
        progress.wait("9", today("09:30"))
        committee.refused("change_move_player", "from", "record Player 9B as retired",
                          player=player(9, 1), to="12", reason="asked")  # fmt: skip
        progress.wait("12", today("10:00"))
        committee.refused("change_start", "start", "can no longer change",
                          group="12", start="10:30", reason="late")  # fmt: skip
        for m in marshals:
            assert m.paused.wait(90) and m.error is None, m.error
        assert sum(m.sent for m in marshals) == sum(len(d) for d in plan.values())

        final = check_pages(server, pages)
        rows = {r["group"]: r for r in final["groups"]}
        assert all(r["status"] == "finished" for r in final["groups"]), final["groups"]
        assert rows["3"]["players"] == [player(3, n) for n in range(3)]  # he stays on the card
        console = server.get_json(f"/api/rounds/{ROUND}/changes")["groups"][2]["players"]
        assert [p["retired"] for p in console] == [None, None, RETIRED_AT]
        # the two-ball from 09:40 on, not before: the holes begun earlier keep their allotment
        assert_two_ball_from(three, rows["3"], today(RETIRED_AT))
        assert len(final["changes"]) == 7 and final["changes"][-1]["type"] == "player_withdrawn"
        # `pace round status`, another process reading the stored log, judges the same
        out = pace("round", "status", "--round", ROUND, "--at", NOW, "--json",
                   "--db", str(server.db), cwd=server.db.parent)  # fmt: skip
        judged = json.loads(out.stdout)["groups"]
        assert judged == [{k: r[k] for k in judged[0]} for r in final["groups"]]
        # the morning's changes were stored among the marshals' taps, not after them
        _, _, log = whole_log_fold(server.db)
        made = [i for i, e in enumerate(log) if e.id in committee.sent]
        assert any(e.type == "hole_completed" for e in log[made[0] : made[5]]), made
    finally:
        phase_b.set()
        retired.set()
        for p in pages:
            p.stop.set()
        for p in pages:
            p.thread.join(5)
        for m in marshals:
            m.join(5)
        for c in opened:
            c.disconnect()
    for p in pages:
        assert p.error is None, p.error


def check_pages(server: LiveServer, pages: list[Page]) -> dict[str, Any]:
    """Every page equals a fresh read; the dashboards' judgement is the whole-log fold."""
    dashboards = [p for p in pages if p.kind == "dashboard"]
    boards = [p for p in pages if p.kind == "board"]
    leaderboards = [p for p in pages if p.kind == "leaderboard"]

    def dashboard(page: Page) -> tuple[int, Any]:
        snap = dashboard_truth(server)
        return snap["rev"], held_dashboard(dashboard_state(snap))

    def held(page: Page) -> Any:
        return held_dashboard(page.state)

    agree(dashboards, dashboard, held)
    snapshot = dashboard_truth(server)
    rows = []
    for page in dashboards:
        with page.lock:
            rows.append(list(page.state["groups"]))
    assert_judged_as_the_whole_log(server.db, snapshot, rows)

    # the console's page of changes shows the same draw, each group played or not
    console = server.get_json(f"/api/rounds/{ROUND}/changes")
    assert [(g["group"], g["tee"], [p["name"] for p in g["players"]], g["played"])
            for g in console["groups"]] == [
        (r["group"], r["tee"], r["players"], bool(r["holes"])) for r in snapshot["groups"]
    ]  # fmt: skip
    assert [c["id"] for c in console["changes"]] == [c["id"] for c in snapshot["changes"]]

    def board(page: Page) -> tuple[int, Any]:
        b = server.get_json(f"/api/rounds/{ROUND}/board", server.token("viewer"))["snapshot"]
        return b["rev"], held_board(b)

    agree(boards, board, lambda p: held_board(p.state))
    shown = server.get_json(f"/api/rounds/{ROUND}/board", server.token("viewer"))["snapshot"]
    assert [held_board_row(r) for r in shown["groups"]] == [
        held_board_row(r) for r in snapshot["groups"]
    ], "the board shows the draw and holes the dashboard shows"

    def leaderboard(page: Page) -> tuple[None, Any]:
        answer = server.get_json(f"/api/rounds/{ROUND}/leaderboard", token="")
        return None, without_clock(answer["leaderboard"])

    board = agree(leaderboards, leaderboard, lambda p: without_clock(p.state["leaderboard"]))
    # the leaderboard's entries are the draw as changed: each player in the group he plays in
    entries = {(e["entry"], e["group"]) for e in board["entries"]}
    assert entries == {(name, r["group"]) for r in snapshot["groups"] for name in r["players"]}
    return snapshot


def held_dashboard(state: dict[str, Any]) -> dict[str, Any]:
    """What a dashboard shows, its rows as compared (:func:`without_at`)."""
    return {**state, "groups": [without_at(r) for r in state["groups"]]}


def held_board(b: dict[str, Any]) -> Any:
    return {k: b[k] for k in ("rev", "groups", "timing", "disqualified", "suspended")}


def held_board_row(row: dict[str, Any]) -> Any:
    return (row["group"], row["players"], row["tee"], row["start"], row["due"],
            {h: v["at"] for h, v in row["holes"].items()})  # fmt: skip


def without_clock(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "at"}


def assert_two_ball_from(before: dict[str, Any], after: dict[str, Any], retired: datetime) -> None:
    """Group 3's allotments: a hole begun before ``retired`` keeps a three-ball's minutes, a
    hole begun after takes a two-ball's, two minutes fewer (12 against 14 a hole on average,
    the same split by par); the holes played before are judged as they were."""
    order = after["order"]
    due_before = [datetime.fromisoformat(d) for d in before["due"]]
    due_after = [datetime.fromisoformat(d) for d in after["due"]]
    start = datetime.fromisoformat(after["start"])
    began = start
    for i, hole in enumerate(order):
        three = due_before[i] - (due_before[i - 1] if i else start)
        now = due_after[i] - (due_after[i - 1] if i else start)
        expected = three if began < retired else three - timedelta(minutes=2)
        assert now == expected, (hole, began, three, now)
        began = datetime.fromisoformat(after["holes"][str(hole)]["at"])
    for hole, h in before["holes"].items():
        assert after["holes"][hole]["over_min"] == h["over_min"], hole

"""``pace demo`` plays the whole chain (issue 32): simulated referees, scorers and sirens
beside the marshals, penalties on the cards, the report; a seed replays the same facts.

Two demos of the same seed run side by side on a small field at a high speed until their
round is over (each on its own SQLite file and port); what they stored and what their pages'
APIs answer is read while they serve on.
"""

from __future__ import annotations

import re
import subprocess
import time
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from livesupport import LiveServer, start_demo

pytestmark = pytest.mark.e2e

ROUND = "demo"
ARGS = ("--groups", "6", "--seed", "3", "--speed", "900", "--tick", "0.3", "--duration", "80")

#: The payload fields the server derives from its own clock (the corrected instants, the
#: offset it measured): never the same twice. Everything else of an event is the fact.
SERVER_CLOCK = {"clock_offset_ms", "clock_source", "started", "stopped"}


def stop(demo: LiveServer) -> str:
    demo.process.terminate()
    try:
        demo.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        demo.process.kill()
        demo.process.wait(timeout=10)
    return demo.log.read_text()


def wait_for_the_end(demo: LiveServer, timeout: float = 75) -> None:
    deadline = time.monotonic() + timeout
    while "the round is over" not in demo.log.read_text():
        assert demo.process.poll() is None, demo.log.read_text()
        assert time.monotonic() < deadline, demo.log.read_text()
        try:  # a bounded poll: the demo plays on its own clock
            demo.process.wait(timeout=0.3)
        except subprocess.TimeoutExpired:
            pass


def console(demo: LiveServer) -> tuple[str, str]:
    """Follow the banner's console link as a browser does (its cookies kept): the page it
    lands on and its text."""
    link = re.search(r"^  console +(http://\S+)$", demo.log.read_text(), re.M)
    assert link, demo.log.read_text()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with opener.open(link.group(1), timeout=10) as r:
        return urllib.parse.urlsplit(r.geturl()).path, r.read().decode()


def read(demo: LiveServer) -> dict:
    """Return what the demo stored and what its pages' APIs answer."""
    return {
        "console": console(demo),
        "events": demo.get_json(f"/api/rounds/{ROUND}/events")["events"],
        "penalties": demo.get_json(f"/api/rounds/{ROUND}/penalties")["penalties"],
        "snapshot": demo.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"],
        "leaderboard": demo.get_json(f"/api/rounds/{ROUND}/leaderboard", token="")["leaderboard"],
        "report": demo.get_json(f"/rounds/{ROUND}/report.json"),
        "log": demo.log.read_text(),
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Iterator[tuple[dict, dict]]:
    """Two demos of the same seed, played to the end of their round."""
    folder = tmp_path_factory.mktemp("demo-cast")
    demos = [start_demo(folder, *ARGS, name=name) for name in ("first", "second")]
    try:
        for demo in demos:
            wait_for_the_end(demo)
        read_ = [read(demo) for demo in demos]
    finally:
        logs = [stop(demo) for demo in demos]
    for log in logs:
        assert "Traceback" not in log, log
        assert "refused" not in log, log
        # the referees act on the alerts they heard: each decision followed its alert
        assert "acting without having seen out_of_position" not in log, log
    yield read_[0], read_[1]


def local(instant: str, tz: ZoneInfo) -> str:
    """Return an instant as the round's local time of day (two runs may straddle midnight)."""
    return datetime.fromisoformat(instant).astimezone(tz).time().isoformat()


def facts(events: list[dict], tz: ZoneInfo) -> Counter:
    """Return the facts the demo's people sent: what a second run must store again.

    A fact is an event's id, type and author (role, device, name) and its payload, device
    instants included (``device_at``, ``device_started``, ``device_stopped``: the simulated
    instants, as local times of day). Left out: what the server stamps from its own clock
    (``at`` and ``recorded_at``, the corrected ``started``/``stopped``, the measured offset,
    ``seq``), and the events the server derives itself on its scheduler's ticks (alerts and
    their resolutions, which depend on when a tick falls in real time).
    """
    out: Counter = Counter()
    for e in events:
        device = str(e["by"].get("device", ""))
        if not device.startswith("demo-"):
            continue
        payload = {
            k: local(v, tz) if k.startswith("device_") else v
            for k, v in e["payload"].items()
            if k not in SERVER_CLOCK
        }
        by = (e["by"]["role"], device, e["by"].get("name"))
        out[(e["id"], e["type"], by, repr(sorted(payload.items())))] += 1
    return out


def verdicts(penalties: list[dict]) -> list[tuple]:
    """Return the referees' verdicts without the server's instants."""
    return [
        (row["group"], row["player"], f["hole"], f["counted"], f["reason"], f["rank"],
         f["penalty"] and (f["penalty"]["kind"], f["penalty"]["amount"], f["penalty"]["hole"]),
         f["duration_s"], f["allowed_s"])
        for row in penalties for f in row["faults"]
    ]  # fmt: skip


def test_the_demo_plays_referees_scorers_sirens_and_the_report(runs):
    run, _ = runs
    events = run["events"]
    kinds = Counter(e["type"] for e in events)
    by_type = {t: [e for e in events if e["type"] == t] for t in kinds}

    # the referees decided, timed some groups and not one (a ruling, credited), told players
    decisions = [e["payload"] for e in by_type["timing_decided"]]
    assert {d["decision"] for d in decisions} == {"time", "not_time"}, decisions
    assert any(d["decision"] == "not_time" and d["reason"] == "ruling" for d in decisions)
    assert kinds["time_credit_granted"] == 1
    assert kinds["player_told_timed"] >= 3
    assert all(e["by"]["role"] == "referee" for e in by_type["timing_decided"])
    strokes = by_type["stroke_timed"]
    assert len(strokes) >= 8, kinds
    faults = [f for row in run["penalties"] for f in row["faults"]]
    assert 0 < len(faults) < len(strokes) / 2, "most strokes within the allowance, a few over"
    assert all(f["notified"] for f in faults if f["counted"]), faults
    penalties = Counter(f["penalty"]["kind"] for f in faults if f["counted"])
    assert penalties["warning"] >= 2 and penalties["strokes"] == 1, penalties

    # a timing ended by itself when the group was back in position; the referee told them
    spells = [s for t in run["snapshot"]["timing"].values() for s in t["spells"]]
    assert any(s["ended_by"] == "back_in_position" and s["stopped"] for s in spells), spells

    # the committee's sirens: one interruption, then the resumption
    sirens = sorted(by_type["siren"], key=lambda e: e["at"])
    assert [s["payload"]["kind"] for s in sirens] == ["interruption", "resume"]
    assert {s["by"]["role"] for s in sirens} == {"committee"}

    # every card entered, one score corrected: a full leaderboard with the penalty on a card
    board = run["leaderboard"]
    entries = board["entries"]
    players = sum(len(g["players"]) for g in run["snapshot"]["groups"])
    assert kinds["score_recorded"] == players * 18 and kinds["score_corrected"] == 1
    assert board["final"] and all(e["state"] == "ranked" for e in entries), entries
    penalised = [e for e in entries if e["penalty_strokes"]]
    assert [p["effect"] for e in penalised for p in e["penalties"]] == ["strokes"]
    assert any(c[2] for e in penalised for c in e["card"]), "the penalty stroke is on a hole"
    # the penalty changed the order: someone is ahead of the penalised player only because of it
    (p,) = penalised
    overtaken = [
        e for e in entries
        if e["position"] < p["position"]
        and e["value"] - e["penalty_strokes"] >= p["value"] - p["penalty_strokes"]
    ]  # fmt: skip
    assert overtaken, entries

    # the report has the referees' part: decisions, spells, credits, per player strokes, faults
    report = run["report"]
    group_parts = [g for g in report["groups"] if g["decisions"]]
    assert {d["decision"] for g in group_parts for d in g["decisions"]} == {"time", "not_time"}
    assert any(g["spells"] for g in group_parts) and any(g["credits"] for g in group_parts)
    timed = [p for g in report["groups"] for p in g["players"] if p["strokes"]]
    assert sum(len(p["strokes"]) for p in timed) == len(strokes)
    assert all(p["told"] for p in timed)
    assert sum(p["strokes_total"] for p in timed) == 1
    assert any(s["bad_time"] for p in timed for s in p["strokes"])

    # the banner links the new pages; the end says where the report, letters and results are
    path, page = run["console"]  # the console's link opens the console (issue 47)
    assert path == "/committee" and "/rounds/new" in page, (path, page[:400])
    log = run["log"]
    for page in ("scorecard", "leaderboard", "rounds/demo/results"):
        assert f"/{page}" in log, page
    end = log[log.index("the round is over") :]
    assert re.search(r"next=/rounds/demo/letters", end), end
    assert "pace results --round demo --db" in end and "pace report --round demo" in end


def test_a_second_run_of_the_same_seed_stores_the_same_facts(runs):
    first, second = runs
    tz = ZoneInfo(first["snapshot"]["timezone"])
    mine, again = facts(first["events"], tz), facts(second["events"], tz)
    assert len(mine) > 400
    assert mine == again, (mine - again, again - mine)
    assert verdicts(first["penalties"]) == verdicts(second["penalties"])
    board = [(e["entry"], e["position"], e["value"]) for e in first["leaderboard"]["entries"]]
    assert board == [
        (e["entry"], e["position"], e["value"]) for e in second["leaderboard"]["entries"]
    ]

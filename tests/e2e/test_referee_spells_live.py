"""End to end: what ends a timing spell, over HTTP with acts stamped by the server (issue 26).

The real ``pace serve`` (gevent) on a free loopback port, a two-tee start for today (groups 1
and 2 from tee 1, 10 and 11 from tee 10, 3-balls, Louiseville), its clock starting at 09:10
local and running 60 times real speed. A referee's phone replays its acts over the HTTP
mirror as it sends them: no ``at``, so the server stamps each act on its own clock, a few
(accelerated) seconds apart; a stroke's start and stop are read on the phone, whose clock is
the server's. Every wait is bounded: a loop until the server's clock has passed an instant.

Allotted to a 3-ball (the course's split by par): from tee 1, 14 minutes for hole 1; from tee
10, 14 for hole 10 and 98 for holes 10-16.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from livesupport import ROUND, TIMEZONE, LiveServer, clocked, live_server, server_now, setup_round

pytestmark = pytest.mark.e2e

SPEED = 60
DRAW = """group,start,tee,player,handicap
1,08:00,1,Marie Lavoie,4.2
1,08:00,1,Julie Gagnon,1.3
1,08:00,1,Sophie Tremblay,6.8
2,08:10,1,Marc Bélanger,11.4
2,08:10,1,Luc Côté,9.9
2,08:10,1,Pierre Roy,12.0
10,08:00,10,Nadia Morin,18.5
10,08:00,10,Claude Fortin,20.0
10,08:00,10,Jean Gauthier,21.0
11,08:10,10,Éric Bouchard,7.7
11,08:10,10,Simon Caron,8.3
11,08:10,10,Hugo Lefebvre,10.6
"""
PLAYERS = {
    "1": ["Marie Lavoie", "Julie Gagnon", "Sophie Tremblay"],
    "2": ["Marc Bélanger", "Luc Côté", "Pierre Roy"],
    "10": ["Nadia Morin", "Claude Fortin", "Jean Gauthier"],
    "11": ["Éric Bouchard", "Simon Caron", "Hugo Lefebvre"],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("referee-spells")
    draw = folder / "draw.csv"
    draw.write_text(DRAW, encoding="utf-8")
    db = setup_round(folder, draw=draw)
    with live_server(folder, db=db, extra_args=clocked("09:10", tick=0.2, speed=SPEED)) as s:
        yield s


class Phone:
    """A referee's phone over the HTTP mirror: every act without ``at`` (server-stamped)."""

    def __init__(self, server: LiveServer):
        self.server = server
        self.token = server.token("referee")

    def send(self, name: str, **fields: object) -> dict:
        body = {"id": str(uuid.uuid4()), "round": ROUND, **fields}
        return self.server.post_json(f"/api/commands/{name}", body, token=self.token)

    def act(self, name: str, **fields: object) -> dict:
        answer = self.send(name, **fields)
        assert answer["ok"] is True, answer
        return answer

    def stroke(self, group: str, player: str, hole: int, seconds: float) -> dict:
        """Time a stroke of ``seconds`` that ended a second ago on the phone (its ack)."""
        now = server_now(self.server)
        stopped = now - timedelta(seconds=1)
        return self.send(
            "record_stroke", group=group, player=player, hole=hole, kind="other",
            first_to_play=False, started=(stopped - timedelta(seconds=seconds)).isoformat(),
            stopped=stopped.isoformat(), device_time=now.isoformat(),
        )  # fmt: skip

    def decide_and_tell(self, group: str) -> None:
        """Decide to time ``group`` and tell its players, then let a minute and more pass."""
        decided = self.act("decide_timing", group=group, decision="time")
        assert decided["timing"]["timed"] is True
        for player in PLAYERS[group]:
            self.act("tell_player_timed", group=group, player=player)
        wait_past(self.server, datetime.fromisoformat(decided["at"]) + timedelta(seconds=70))

    def notify(self, group: str, player: str, fault: str) -> None:
        """Tell ``player`` of ``fault``, then let half a minute pass: a stroke stopped in
        the (accelerated) second after the notification would be judged before it."""
        told = self.act("notify_player", group=group, player=player, fault=fault)
        wait_past(self.server, datetime.fromisoformat(told["at"]) + timedelta(seconds=30))

    def credit_ending_the_spell(self, group: str, minutes: float, reason: str) -> dict:
        """Grant a credit that must end the group's spell at its instant; let 2 minutes pass."""
        credited = self.act("grant_time_credit", group=group, minutes=minutes, reason=reason)
        assert credited["timing"]["timed"] is False
        [spell] = credited["timing"]["spells"]
        assert (spell["ended_by"], spell["until"]) == ("back_in_position", credited["at"])
        wait_past(self.server, datetime.fromisoformat(credited["at"]) + timedelta(minutes=2))
        return credited


def wait_past(server: LiveServer, instant: datetime) -> None:
    """Wait (bounded) until the server's fast clock has passed ``instant``."""
    deadline = time.monotonic() + 30
    while server_now(server) <= instant:
        assert time.monotonic() < deadline, "the server's clock does not move"


def local(server: LiveServer, hhmm: str) -> datetime:
    """Return today's ``hhmm`` in the round's time zone, on the server's day."""
    day = server_now(server).astimezone(ZoneInfo(TIMEZONE))
    hour, minute = (int(x) for x in hhmm.split(":"))
    return day.replace(hour=hour, minute=minute, second=0, microsecond=0)


def faults(server: LiveServer, group: str) -> dict[str, list[tuple[str, str]]]:
    """Return each player's faults of ``group`` on the penalties page: (fault id, reason)."""
    rows = server.get_json(f"/api/rounds/{ROUND}/penalties")["penalties"]
    return {
        r["player"]: [(f["id"], f["reason"]) for f in r["faults"]]
        for r in rows
        if r["group"] == group
    }


def test_a_stroke_after_a_referees_stop_on_tee_10_is_refused(server):
    phone, nadia = Phone(server), PLAYERS["10"][0]
    server.tap("10", 10, local(server, "08:40"))  # 40 min for 14: out of position
    phone.decide_and_tell("10")
    first = phone.stroke("10", nadia, 11, 50)
    assert first["outcome"]["penalty"]["kind"] == "warning"
    phone.notify("10", nadia, first["id"])
    second = phone.stroke("10", nadia, 11, 52)
    assert (second["outcome"]["penalty"]["kind"], second["outcome"]["penalty"]["amount"]) == (
        "strokes", 1,
    )  # fmt: skip
    phone.notify("10", nadia, second["id"])

    stopped = phone.act("stop_timing", group="10")
    [spell] = stopped["timing"]["spells"]
    assert (spell["ended_by"], spell["until"]) == ("stopped", stopped["at"])

    # minutes later, before any new decision: a minute-long stroke is not timed
    wait_past(server, datetime.fromisoformat(stopped["at"]) + timedelta(minutes=3))
    late = phone.stroke("10", nadia, 12, 60)
    assert late["ok"] is False and late["error"]["code"] == "not_timed", late
    assert faults(server, "10") == {nadia: [(first["id"], "counted"), (second["id"], "counted")]}


def test_a_stroke_after_the_stop_that_told_the_players_is_refused(server):
    phone, eric, simon = Phone(server), PLAYERS["11"][0], PLAYERS["11"][1]
    # hole 10 at 08:51: 41 min for 14, 11 after group 10's (interval 10): out of position
    server.tap("11", 10, local(server, "08:51"))
    phone.decide_and_tell("11")
    inside = phone.stroke("11", eric, 11, 45)
    assert inside["outcome"]["counted"] is True

    # holing out on the 16th now (about 09:20, 70 min for the 98 of holes 10-16): back in
    # position, the spell ends by itself at that completion
    back = server.tap("11", 16, server_now(server))
    wait_past(server, datetime.fromisoformat(back["at"]) + timedelta(seconds=70))
    between = phone.stroke("11", simon, 17, 45)
    assert between["outcome"] == {
        "counted": False, "reason": "group_in_position", "rank": None, "penalty": None,
    }  # fmt: skip

    told = phone.act("stop_timing", group="11")  # the referee tells the players
    [spell] = told["timing"]["spells"]
    assert (spell["ended_by"], spell["until"], spell["stopped"]) == (
        "back_in_position", back["at"], told["at"],
    )  # fmt: skip
    wait_past(server, datetime.fromisoformat(told["at"]) + timedelta(minutes=2))
    late = phone.stroke("11", eric, 17, 60)
    assert late["ok"] is False and late["error"]["code"] == "not_timed", late
    assert faults(server, "11") == {
        eric: [(inside["id"], "counted")], simon: [(between["id"], "group_in_position")],
    }  # fmt: skip


def test_a_credit_that_puts_the_group_back_ends_its_timing(server):
    phone, marie = Phone(server), PLAYERS["1"][0]
    server.tap("1", 1, local(server, "08:40"))  # 40 min for 14: out of position
    phone.decide_and_tell("1")
    inside = phone.stroke("1", marie, 2, 45)
    assert inside["outcome"]["counted"] is True

    # 30 minutes for a ruling: 40 - 30 = 10 <= 14 at hole 1, back in position at the credit
    phone.credit_ending_the_spell("1", 30, "ruling")
    after = phone.stroke("1", marie, 2, 60)
    assert after["outcome"] == {
        "counted": False, "reason": "group_in_position", "rank": None, "penalty": None,
    }  # fmt: skip


def test_a_credit_before_the_groups_first_completion_ends_its_timing(server):
    phone, marc = Phone(server), PLAYERS["2"][0]
    phone.decide_and_tell("2")  # no hole completed yet
    inside = phone.stroke("2", marc, 1, 45)
    assert inside["outcome"]["counted"] is True
    phone.notify("2", marc, inside["id"])

    phone.credit_ending_the_spell("2", 5, "lost ball")
    after = phone.stroke("2", marc, 1, 60)  # would have been his second bad time
    assert after["outcome"]["counted"] is False
    assert after["outcome"]["reason"] == "group_in_position"

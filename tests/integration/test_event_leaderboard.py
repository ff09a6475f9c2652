"""A round's public leaderboard shows the competitions it is a round of (issue 28).

The golden two-round event (tests/golden/events/a_two_rounds_cut), imported by the real
commands, served by the real app: ``GET /api/rounds/<round>/leaderboard`` carries ``events``,
each with the standings over the rounds counted so far (the rounds before this one, and this
one once its board is final or its day is over), the cut and who made it.
"""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime

import pytest

from pace import config
from pace.app import close_app, create_app
from pace.clock import FakeClock
from tests.golden.test_event_golden import HERE, build, nulls

FOLDER = HERE / "a_two_rounds_cut"
EXPECTED = tomllib.loads((FOLDER / "expected.toml").read_text(encoding="utf-8"))


@pytest.fixture
def served(tmp_path, monkeypatch):
    """Return a function serving the golden event's database; the app is closed after."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    apps = []

    def serve(unscored: tuple[str, ...] = (), now: datetime = datetime(2025, 6, 16, 8, tzinfo=UTC)):
        db = tmp_path / f"club{len(apps)}.db"
        build(FOLDER, EXPECTED, db, unscored=unscored)
        settings = config.Settings().replace(
            server={"async_mode": "threading"},
            database={"path": str(db)},
            scheduler={"enabled": False},
        )
        app = create_app(settings, clock=FakeClock(now), testing=True)
        apps.append(app)
        return app.test_client()

    yield serve
    for app in apps:
        close_app(app)


def events(client, round: str) -> list[dict]:
    answer = client.get(f"/api/rounds/{round}/leaderboard")
    assert answer.status_code == 200, answer.json
    return answer.json["leaderboard"]["events"]


def standings(view: dict) -> list[tuple]:
    return [(e["entry"], e["position"], e["status"], e["rounds"], e["total"])
            for e in view["entries"]]  # fmt: skip


def test_the_last_rounds_board_shows_the_event_as_pace_results_does(served):
    # the day after R2: Paul's card stopped on the 5th (a no return), the round counts
    client = served()
    (view,) = events(client, "R2")
    assert (view["event"], view["round_number"], view["counted"], view["rounds"]) == (
        "Club championship", 2, 2, ["R1", "R2"],
    )  # fmt: skip
    want = [(e["entry"], e["position"], e["status"], e["rounds"], e["total"])
            for e in nulls(EXPECTED["expected"]["entries"])]  # fmt: skip
    assert standings(view) == want
    assert view["cut"] == {
        "after": 1, "rule": "top 3 and ties after round 1", "applied": True, "line": 38, "made": 4,
    }  # fmt: skip
    julie = next(e for e in view["entries"] if e["entry"] == "Julie Gagné")
    assert julie["penalties"] == [1, 0]  # her pace penalty stroke, on R1's card


def test_the_first_rounds_board_shows_the_standing_after_it_with_the_cut(served):
    # after R1 alone: Anne 37; Julie, Luc, Paul 38, countback on R1: last 6 Julie 25, Luc
    # and Paul 26; last 3 Paul 12 (3 5 4), Luc 13 (3 5 5). Sophie and Marc miss the cut.
    (view,) = events(served(), "R1")
    assert (view["round_number"], view["counted"]) == (1, 1)
    assert standings(view) == [
        ("Anne Côté", 1, "ok", [37], 37),
        ("Julie Gagné", 2, "ok", [38], 38),
        ("Paul Tremblay", 3, "ok", [38], 38),
        ("Luc Nadeau", 4, "ok", [38], 38),
        ("Sophie Lavoie", None, "mc", [44], 44),
        ("Marc Roy", None, "mc", [45], 45),
    ]


def test_a_round_not_final_yet_counts_the_rounds_before_it(served):
    # R2's afternoon, no card in yet: the event stands as after R1; Paul's R2 stopping on the
    # 5th leaves the board in play (he may still be out there) until the day is over
    client = served(unscored=("R2",), now=datetime(2025, 6, 15, 16, tzinfo=UTC))
    (view,) = events(client, "R2")
    assert (view["round_number"], view["counted"], view["cut"]["applied"]) == (2, 1, True)
    assert [(e["entry"], e["rounds"]) for e in view["entries"]][:2] == [
        ("Anne Côté", [37]), ("Julie Gagné", [38]),
    ]  # fmt: skip
    assert events(client, "R1")[0]["counted"] == 1
    playing = served(now=datetime(2025, 6, 15, 16, tzinfo=UTC))
    assert events(playing, "R2")[0]["counted"] == 1

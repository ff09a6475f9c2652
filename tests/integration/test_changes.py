"""Changes on the day through the real app (issue 28): round R1 of the shared test data on a
real SQLite file, the clock at 09:10 local, the committee's dashboard over Flask-SocketIO's
test client.

A change is stored through :class:`pace.services.changes.ChangeService` (as the CLI and the
console do); the round is folded again under the changed draw and the next feed tells the
pages every row at once (``round_changed`` with ``groups`` and ``changes``); what they hold
then equals a fresh read of the stored log by another process.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from drivers import ROUND, local

from pace.rules import changes as changesmod
from pace.rules import facts as factsmod
from pace.rules import position
from pace.rules.model import Player, Status
from pace.services.changes import ChangeService
from pace.services.commands import Author, CommandError
from pace.services.live import LiveService
from pace.services.rounds import RoundService
from pace.store import open_store

COMMITTEE = Author(role="committee", device="desk", name="Anne Roy")


@pytest.fixture
def changes(app) -> ChangeService:
    return ChangeService(app.extensions["pace"].live)


@pytest.fixture
def desk(dashboard, scheduler):
    """The committee's dashboard following round R1 (joined, its first tick heard)."""
    answer = dashboard.emit("join_round", {"round": ROUND}, callback=True)
    assert answer["ok"] is True, answer
    scheduler.tick(ROUND)
    dashboard.get_received()
    return dashboard


@pytest.fixture
def elsewhere(settings, clock):
    """Another process's service on the same database file (the CLI's, say)."""
    service = RoundService(open_store(settings.database.path), settings, clock)
    yield service
    service.store.close()


def redrawn(sio) -> list[dict]:
    """Return the ``round_changed`` parts that carry the draw (groups and changes)."""
    return [
        e["args"][0]
        for e in sio.get_received()
        if e["name"] == "round_changed" and "groups" in e["args"][0]["parts"]
    ]


def players(rows: list[dict], group: str) -> list[str]:
    return next(r["players"] for r in rows if r["group"] == group)


def fresh_field(service: RoundService, now):
    """The round judged from its stored log alone, as a new process reads it."""
    service.draw_changed(ROUND)
    view = service.round_view(ROUND)
    facts = factsmod.fold(service.store.events(ROUND))
    return view, position.evaluate_field(view.setup, facts, now, view.plan)


def test_a_change_reaches_the_dashboard_as_round_changed_and_equals_a_fresh_read(
    app, changes, desk, scheduler, clock, elsewhere
):
    out = changes.withdraw(ROUND, "Guy Boucher", "no_show", COMMITTEE, note="called in sick")
    assert out.created and out.event.type == changesmod.PLAYER_WITHDRAWN
    assert out.event.by["name"] == "Anne Roy" and out.event.payload["note"] == "called in sick"
    scheduler.tick(ROUND)
    sent = redrawn(desk)
    assert len(sent) == 1
    parts = sent[0]["parts"]
    assert players(parts["groups"], "6") == ["Robert Leblanc", "Paul Martel", "René Hébert"]
    assert [c["id"] for c in parts["changes"]] == [out.event.id]
    # the feed skipped a number: a page holding the old draw reads the snapshot again
    snapshot = app.extensions["pace"].live.snapshot(ROUND)
    assert sent[0]["rev"] <= snapshot["rev"]
    assert [r["players"] for r in snapshot["groups"]] == [r["players"] for r in parts["groups"]]
    view, field = fresh_field(elsewhere, clock.now())
    assert players(parts["groups"], "6") == [p.name for p in view.plan.by_id["6"].group.players]
    assert [(r["group"], r["status"]) for r in parts["groups"]] == [
        (s.group, s.status.value) for s in field.groups
    ]


def test_a_change_made_by_another_process_goes_out_at_the_next_tick(
    app, desk, scheduler, clock, elsewhere
):
    other = ChangeService(LiveService(elsewhere))
    moved = other.change_start(ROUND, "6", local("09:40"), "waiting for a player", COMMITTEE)
    scheduler.tick(ROUND)
    parts = redrawn(desk)[0]["parts"]
    row = next(r for r in parts["groups"] if r["group"] == "6")
    assert row["start"] == local("09:40").isoformat()
    assert row["status"] == Status.NOT_STARTED.value
    assert parts["changes"][0]["id"] == moved.event.id
    # the field was planned again: group 6 is now after a starter's gap (50 min after group 5)
    assert row["lead"] is True


def test_a_three_ball_losing_a_player_is_judged_as_a_two_ball_from_then_on(
    app, changes, marshal, clock, elsewhere
):
    # group 1 (three players, 08:00) plays its first hole; Julie retires during the second
    marshal.tap("1", 1, "08:13")
    clock.set(local("08:20"))
    changes.withdraw(ROUND, "Julie Gagnon", "retired", COMMITTEE, note="back")
    clock.set(local("09:10"))
    marshal.tap("1", 2, "08:40")
    marshal.tap("1", 3, "08:52")
    live = app.extensions["pace"].live
    plan = live.live(ROUND).view.plan.by_id["1"]
    course = plan.group
    assert course.size_at(local("08:19")) == 3 and course.size_at(local("08:20")) == 2
    done = live.live(ROUND).field.done("1")
    three = position.plan_field(live.live(ROUND).view.imported).by_id["1"].cumulative
    mixed = plan.cumulative_at(done, clock.now())
    # holes 1 and 2 (begun at 08:00 and 08:13, before 08:20) keep the three-ball column
    assert mixed[:3] == three[:3]
    assert mixed[3] - mixed[2] < three[3] - three[2]  # hole 3 begun as a two-ball
    _, field = fresh_field(elsewhere, clock.now())
    assert live.field(ROUND).groups == field.groups


def test_a_rows_due_follows_the_two_ball_from_the_retirement(app, changes, marshal, clock):
    # group 1 (three players, 08:00) completes hole 1 at 08:13; Julie retires at 08:20, during
    # hole 2: hole 2 keeps a three-ball's minutes, every hole after takes a two-ball's
    marshal.tap("1", 1, "08:13")
    clock.set(local("08:20"))
    changes.withdraw(ROUND, "Julie Gagnon", "retired", COMMITTEE, note="back")
    clock.set(local("09:10"))
    marshal.tap("1", 2, "08:40")
    live = app.extensions["pace"].live
    row = next(r for r in live.snapshot(ROUND)["groups"] if r["group"] == "1")
    drawn = position.plan_field(live.live(ROUND).view.imported).by_id["1"]
    start = drawn.group.start
    due = [start, *(datetime.fromisoformat(d) for d in row["due"])]
    shown = [b - a for a, b in zip(due, due[1:], strict=False)]
    three = [b - a for a, b in zip(drawn.cumulative, drawn.cumulative[1:], strict=False)]
    assert shown[:2] == three[:2]
    # 12 minutes a hole on average for two players against 14 for three, split by par alike
    assert shown[2:] == [t - timedelta(minutes=2) for t in three[2:]]
    # the board shows the same instants
    board = next(r for r in app.extensions["pace"].board_feed.snapshot(ROUND)["groups"]
                 if r["group"] == "1")  # fmt: skip
    assert board["due"] == row["due"]


def test_the_scorers_see_the_draw_as_changed(app, changes):
    changes.move_player(ROUND, "Marie Lavoie", "5", "plays with her team", COMMITTEE)
    changes.add_player(ROUND, "3", Player("Tom Ruiz", handicap=12.4), "late entry", COMMITTEE)
    changes.withdraw(ROUND, "Guy Boucher", "no_show", COMMITTEE)
    scorers = app.extensions["pace"].scores.snapshot(ROUND)
    groups = {g["group"]: g["players"] for g in scorers["groups"]}
    assert "Marie Lavoie" in groups["5"] and "Marie Lavoie" not in groups["1"]
    assert groups["3"][-1] == "Tom Ruiz"
    assert "Guy Boucher" not in groups["6"]


def test_a_refused_change_says_why_and_stores_nothing(app, changes, marshal, clock):
    marshal.tap("1", 1, "08:13")
    store = app.extensions["pace"].store
    before = len(store.events(ROUND))
    with pytest.raises(changesmod.ChangeRefused, match="Lavoie as retired instead") as e:
        changes.move_player(ROUND, "Marie Lavoie", "5", "mistake", COMMITTEE)
    assert e.value.code == "group_has_played"
    with pytest.raises(CommandError, match="in the future") as e:
        changes.withdraw(ROUND, "Luc Côté", "retired", COMMITTEE, at=local("11:00"))
    with pytest.raises(CommandError, match="say why"):
        changes.change_tee(ROUND, "6", 10, "  ", COMMITTEE)
    assert len(store.events(ROUND)) == before


def test_a_void_of_a_change_restores_the_draw(app, changes, desk, scheduler):
    out = changes.swap(ROUND, "Guy Boucher", "Lise Dion", "car sharing", COMMITTEE)
    live = app.extensions["pace"].live
    assert "Lise Dion" in [p.name for p in live.live(ROUND).view.plan.by_id["6"].group.players]
    changes.void(ROUND, out.event.id, "wrong players", COMMITTEE)
    scheduler.tick(ROUND)
    parts = redrawn(desk)[-1]["parts"]
    assert "Guy Boucher" in players(parts["groups"], "6")
    assert parts["changes"][0]["voided"] is True
    with pytest.raises(CommandError, match="already voided"):
        changes.void(ROUND, out.event.id, "again", COMMITTEE)


def test_the_scorecards_and_the_leaderboard_re_read_after_a_change(app, changes, scheduler):
    socketio = app.extensions["pace"].socketio
    crowd = socketio.test_client(app, auth={"device": "crowd"})
    try:
        assert crowd.emit("join_leaderboard", {"round": ROUND}, callback=True)["ok"] is True
        scheduler.tick(ROUND)
        crowd.get_received()
        changes.withdraw(ROUND, "Guy Boucher", "no_show", COMMITTEE)
        scheduler.tick(ROUND)
        names = [e["name"] for e in crowd.get_received()]
        assert names == ["leaderboard_changed"]
        board = app.extensions["pace"].scores.leaderboard(ROUND)
        entries = [e["entry"] for e in board["entries"]]
        assert "Guy Boucher" not in entries and "René Hébert" in entries
    finally:
        crowd.disconnect()


def test_a_retired_players_card_is_over_where_he_stopped(app, changes, clock):
    scores = app.extensions["pace"].scores
    changes.withdraw(ROUND, "Luc Côté", "retired", COMMITTEE, note="ill")
    line = next(ln for ln in scores.board(ROUND).lines if ln.entry.entry == "Luc Côté")
    assert line.complete and line.state == "nr"  # stroke play: a no return
    others = [ln for ln in scores.board(ROUND).lines if ln.entry.entry == "Marc Bélanger"]
    assert not others[0].complete


def test_the_public_board_hears_the_change(app, changes, scheduler, connect):
    viewer = connect("viewer", "wall")
    try:
        answer = viewer.emit("join_board", {"round": ROUND}, callback=True)
        assert answer["ok"] is True, answer
        scheduler.tick(ROUND)
        viewer.get_received()
        changes.change_start(ROUND, "6", local("09:40"), "waiting for a player", COMMITTEE)
        scheduler.tick(ROUND)
        [sent] = [e["args"][0] for e in viewer.get_received() if e["name"] == "board_changed"]
        row = next(r for r in sent["groups"] if r["group"] == "6")
        assert row["start"] == local("09:40").isoformat()
        assert sent["rev"] > answer["snapshot"]["rev"] + 1  # a number skipped: read it again
    finally:
        viewer.disconnect()


def test_the_last_player_retiring_withdraws_the_group(app, changes, marshal):
    marshal.tap("3", 1, "08:34")
    for name in ("Nadia Morin", "Claude Fortin"):
        changes.withdraw(ROUND, name, "retired", COMMITTEE)
    live = app.extensions["pace"].live
    assert live.live(ROUND).field.withdrawn_at("3") is None
    last = changes.withdraw(ROUND, "Jean Gauthier", "retired", COMMITTEE)
    assert live.live(ROUND).field.withdrawn_at("3") == last.event.at
    assert live.field(ROUND).group("3").status is Status.WITHDRAWN


def test_a_removed_groups_open_alerts_are_resolved_at_the_next_tick(app, changes, scheduler):
    # a group added at 08:30 has not logged hole 1 at 09:10: overdue
    changes.add_group(ROUND, "Z", local("08:30"), 1, [Player("Zoé Roy"), Player("Yves Roy")],
                      "late pair", COMMITTEE)  # fmt: skip
    scheduler.tick(ROUND)
    live = app.extensions["pace"].live
    assert any(a["group"] == "Z" for a in live.snapshot(ROUND)["alerts"])
    # taken out of the draw, nobody will look for its alerts again: the tick resolves them
    changes.remove_group(ROUND, "Z", "the pair went home", COMMITTEE)
    scheduler.tick(ROUND)
    snapshot = live.snapshot(ROUND)
    assert not [a for a in snapshot["alerts"] if a["group"] == "Z"]
    resolved = [e for e in app.extensions["pace"].live.events(ROUND)
                if e.type == "alert_resolved" and e.payload["group"] == "Z"]  # fmt: skip
    assert resolved and {e.payload["kind"] for e in resolved} == {"overdue"}

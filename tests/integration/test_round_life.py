"""A round's life (issue 28, part 5): planned, in play, finished, results final, reopened.

Through the app on a real SQLite file and a FakeClock at 09:10 local (round R1: group "1" of
Marie Lavoie, Julie Gagnon and Sophie Tremblay off tee 1 at 08:00, the lead group): the
committee's acts through the service the CLI and a later console share, the live commands
refused while the results are final, the leaderboard's and the report's ``life``.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import jsonschema
import pytest
from drivers import DAY, ROUND, TIMEZONE, ScorerDriver, assert_error, local

from pace.reports.document import report_document
from pace.services.commands import Author, CommandError
from pace.services.life import RoundLifeService
from pace.services.reports import ReportService

MARIE = "Marie Lavoie"
SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "report.schema.json").read_text("utf-8")
)
JANE = Author("committee", "desk", "Jane Roe")


@pytest.fixture
def life(app) -> RoundLifeService:
    return RoundLifeService(app.extensions["pace"].live)


@pytest.fixture
def scorer(connect, clock) -> ScorerDriver:
    driver = ScorerDriver(connect("scorer", "scorer-phone"), clock.now)
    driver.join_scores()
    driver.client.get_received()
    return driver


def final(life: RoundLifeService) -> None:
    life.finish(ROUND, JANE)
    life.finalise(ROUND, JANE)


def refused(call, code: str) -> str:
    with pytest.raises(CommandError) as e:
        call()
    assert e.value.code == code, e.value.message
    return e.value.message


def test_planned_before_the_first_tee_time_then_in_play_by_the_clock(life, clock):
    assert life.document(ROUND, local("07:59"))["stage"] == "planned"
    assert life.document(ROUND, local("08:00"))["stage"] == "in_play"
    clock.set(local("07:30"))
    message = refused(lambda: life.finish(ROUND, JANE), "not_started")
    assert "has not started" in message


def test_a_score_before_the_first_tee_time_puts_the_round_in_play(life, scorer, clock):
    clock.set(local("07:30"))
    scorer.score("1", MARIE, 1, 5)
    doc = life.document(ROUND)
    assert doc["stage"] == "in_play"
    assert doc["first_play"].startswith("2026-06-14T07:30")


def test_finish_then_final_says_who_and_when(life, clock):
    life.finish(ROUND, JANE)
    doc = life.document(ROUND)
    assert doc["stage"] == "finished"
    assert doc["finished"] == {"at": "2026-06-14T09:10:00+02:00", "by": "Jane Roe",
                               "implied": False}  # fmt: skip
    clock.advance(minutes=20)
    life.finalise(ROUND, Author("committee", "cli", "Paul Dupont"))
    doc = life.document(ROUND)
    assert (doc["stage"], doc["final"]) == ("final", True)
    assert doc["finalised"] == {"at": "2026-06-14T09:30:00+02:00", "by": "Paul Dupont"}


def test_final_needs_a_finished_round_and_is_made_once(life):
    assert "finish it first" in refused(lambda: life.finalise(ROUND, JANE), "not_finished")
    final(life)
    again = refused(lambda: life.finalise(ROUND, JANE), "already_done")
    assert "already final" in again and "Jane Roe" in again
    assert "already finished" in refused(lambda: life.finish(ROUND, JANE), "already_done")


def test_reopening_needs_a_reason_and_final_results(life):
    life.finish(ROUND, JANE)
    assert "not final" in refused(lambda: life.reopen(ROUND, JANE, "a card"), "not_final")
    life.finalise(ROUND, JANE)
    assert "--reason" in refused(lambda: life.reopen(ROUND, JANE, "  "), "missing_field")
    assert life.document(ROUND)["final"] is True


def test_final_results_refuse_a_score_a_correction_and_a_void_until_reopened(
    life, scorer, client, clock
):
    first = scorer.score("1", MARIE, 1, 5)
    final(life)
    late = scorer.score("1", MARIE, 2, 4, error="results_final")
    assert_error(late, "results_final", None)
    message = late["error"]["message"]
    assert "are final since 2026-06-14 09:10 (Jane Roe): a score cannot be added" in message
    assert "reopen" in message
    scorer.correct(first["id"], 6, error="results_final")
    voided = scorer.void(first["id"], error="results_final")
    assert "a void of a score cannot be added" in voided["error"]["message"]
    # over HTTP, the same refusal with its status
    answer = client.post("/api/commands/record_score", json={
        "id": "6f1c1d1e-0000-4000-8000-000000000001", "round": ROUND, "group": "1",
        "player": MARIE, "hole": 2, "strokes": 4,
    })  # fmt: skip
    assert answer.status_code == 409 and answer.json["error"]["code"] == "results_final"
    events = app_events(life)
    assert [e.type for e in events if e.type.startswith("score")] == ["score_recorded"]
    clock.advance(minutes=5)
    life.reopen(ROUND, JANE, "Marie's card mis-added on hole 2")
    assert scorer.score("1", MARIE, 2, 4)["ok"] is True
    doc = life.document(ROUND)
    assert (doc["stage"], doc["final"], doc["finalised"]) == ("finished", False, None)
    assert doc["reopened"] == [{"at": "2026-06-14T09:15:00+02:00", "by": "Jane Roe",
                                "reason": "Marie's card mis-added on hole 2"}]  # fmt: skip


def app_events(life: RoundLifeService):
    return life.live.events(ROUND)


def test_final_results_refuse_the_referees_and_the_marshals_facts(life, referee, clock):
    tapped = referee.tap("1", 1, "08:40")
    referee.decide("1", at=clock.now() - timedelta(minutes=2))
    final(life)
    referee.timed_stroke("1", MARIE, 1, 45, error="results_final")
    referee.stop_timing("1", error="results_final")
    referee.credit("1", 3, error="results_final")
    referee.tap("1", 2, "08:55", error="results_final")
    referee.void(tapped["id"], error="results_final")
    # an alert is no fact of the results: the referees still acknowledge theirs
    types = [e.type for e in app_events(life)]
    assert types.count("hole_completed") == 1 and "stroke_timed" not in types


def test_a_resend_of_a_score_stored_before_final_is_still_answered(life, scorer):
    first = scorer.score("1", MARIE, 1, 5)
    final(life)
    again = scorer.score("1", MARIE, 1, 5, id=first["id"])
    assert again["ok"] is True and again["duplicate"] is True


def test_the_leaderboard_and_the_report_say_final_and_by_whom(app, life, client):
    before = client.get(f"/api/rounds/{ROUND}/leaderboard").json["leaderboard"]
    assert before["life"]["final"] is False
    final(life)
    board = client.get(f"/api/rounds/{ROUND}/leaderboard").json["leaderboard"]
    assert board["life"]["stage"] == "final"
    assert board["life"]["finalised"] == {"at": "2026-06-14T09:10:00+02:00", "by": "Jane Roe"}
    view = ReportService(app.extensions["pace"].live.service).round_report(ROUND)
    doc = report_document(view.meta, view.report)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert doc["life"]["final"] is True and doc["life"]["finalised"]["by"] == "Jane Roe"
    page = client.get(f"/rounds/{ROUND}/report")
    assert page.status_code == 200
    assert "Results final since 2026-06-14 09:10, by Jane Roe" in page.get_data(as_text=True)


def test_the_audit_tells_the_acts_and_the_reason(app, life, client):
    final(life)
    life.reopen(ROUND, JANE, "late card")
    text = client.get(f"/rounds/{ROUND}/audit").get_data(as_text=True)
    assert "Results made final" in text and "Results reopened: late card" in text
    assert "Round finished by the committee" in text


def solo(app, name: str) -> None:
    """Round ``name``: one player off tee 1 at 07:00, her first 17 holes logged by 10:07."""
    service = app.extensions["pace"].live.service
    draw = "group,start,tee,player\nA,07:00,1,Ann Lee\n"
    service.import_draw(draw, "solo.csv", round=name, day=DAY, timezone=TIMEZONE)
    times = "group,hole,completed\n" + "".join(
        f"A,{h},{7 + (h * 11) // 60:02d}:{(h * 11) % 60:02d}\n" for h in range(1, 18)
    )
    service.import_times(times, "times.csv", round=name, by="desk")


def test_the_last_groups_last_hole_finishes_the_round_without_the_committee(app, life, clock):
    clock.set(local("10:30"))
    solo(app, "Solo")
    assert life.document("Solo")["stage"] == "in_play"
    service = app.extensions["pace"].live.service
    service.import_times("group,hole,completed\nA,18,10:20\n", "t.csv", round="Solo", by="desk")
    doc = life.document("Solo")
    assert doc["stage"] == "finished"
    assert doc["finished"] == {"at": "2026-06-14T10:20:00+02:00", "by": None, "implied": True}
    # the committee may make the results final at once, with no act of finishing
    life.finalise("Solo", JANE)
    assert life.document("Solo")["stage"] == "final"


def test_the_leaderboard_is_told_when_the_last_hole_finishes_the_round(app, life, clock, connect):
    clock.set(local("10:30"))
    solo(app, "Solo")
    public = connect(None, round=None)
    assert public.emit("join_leaderboard", {"round": "Solo"}, callback=True)["ok"]
    public.get_received()  # the connection's clock probe
    announce = app.extensions["pace"].score_broadcaster
    announce.changed("Solo")  # a tick: nothing moved since the page joined
    assert public.get_received() == []
    service = app.extensions["pace"].live.service
    service.import_times("group,hole,completed\nA,18,10:20\n", "t.csv", round="Solo", by="desk")
    announce.changed("Solo")  # the next tick: no card changed, but the round is finished
    heard = [e["name"] for e in public.get_received()]
    assert heard == ["leaderboard_changed"], heard
    announce.changed("Solo")
    assert public.get_received() == []


def test_the_leaderboard_is_told_when_the_first_tee_time_comes(app, clock, connect):
    clock.set(local("07:58"))
    public = connect(None, round=None)
    assert public.emit("join_leaderboard", {"round": ROUND}, callback=True)["ok"]
    public.get_received()  # the connection's clock probe
    announce = app.extensions["pace"].score_broadcaster
    announce.changed(ROUND)  # a tick at 07:58: planned, as the page read it
    clock.set(local("07:59"))
    announce.changed(ROUND)
    assert public.get_received() == []
    clock.set(local("08:00"))  # round R1's first tee time: in play, with no fact logged
    announce.changed(ROUND)
    assert [e["name"] for e in public.get_received()] == ["leaderboard_changed"]


def test_a_file_of_hole_times_is_refused_while_the_results_are_final(app, life, clock):
    clock.set(local("10:30"))
    solo(app, "Solo")
    final_of = RoundLifeService(app.extensions["pace"].live)
    final_of.finish("Solo", JANE)
    final_of.finalise("Solo", JANE)
    service = app.extensions["pace"].live.service
    last = "group,hole,completed\nA,18,10:20\n"
    message = refused(
        lambda: service.import_times(last, "t.csv", round="Solo", by="desk"), "results_final"
    )
    assert "a completed hole cannot be added" in message
    # the same file again after a reopening is taken
    final_of.reopen("Solo", JANE, "hole 18 of Ann's card was not logged")
    assert service.import_times(last, "t.csv", round="Solo", by="desk") == (1, 0)

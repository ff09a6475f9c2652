"""Scores in the log (issue 11): the scorers' commands, the card as a fold, the leaderboard.

Through Flask-SocketIO's test client on a real SQLite file and a FakeClock at 09:10 local.
Round R1 (stroke play, gross, frbg) has group "1": Marie Lavoie, Julie Gagnon, Sophie
Tremblay, off tee 1 at 08:00; Louiseville's pars are 4 5 3 4 4 … (par 72). Group 1 holing
out on the 1st at 08:40 is out of position; two bad times of Marie's, the first notified,
cost her a stroke on the second's hole.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from drivers import (
    DAY,
    DRAW,
    ROUND,
    TIMEZONE,
    MarshalDriver,
    RefereeDriver,
    ScorerDriver,
    assert_error,
    new_id,
)

from pace.app import tick_announcer
from pace.scheduler import PaceScheduler

MARIE, JULIE, SOPHIE = "Marie Lavoie", "Julie Gagnon", "Sophie Tremblay"
PARS = [4, 5, 3, 4, 4, 3, 4, 5, 4, 4, 5, 4, 3, 4, 4, 5, 3, 4]


def names(sio) -> list[str]:
    return [e["name"] for e in sio.get_received()]


def add_round(app, name: str, **options) -> None:
    app.extensions["pace"].live.service.import_draw(
        DRAW.read_text(encoding="utf-8"), str(DRAW), round=name, day=DAY, timezone=TIMEZONE,
        **options,
    )  # fmt: skip


@pytest.fixture
def scorer(connect, clock) -> ScorerDriver:
    driver = ScorerDriver(connect("scorer", "scorer-phone"), clock.now)
    driver.join_scores()
    driver.client.get_received()
    return driver


@pytest.fixture
def referee(connect, clock) -> RefereeDriver:
    driver = RefereeDriver(connect("referee", "referee-phone"), clock.now)
    driver.join()
    return driver


@pytest.fixture
def public(app):
    """A leaderboard page with no session at all."""
    c = app.extensions["pace"].socketio.test_client(app, auth={"device": "crowd"})
    answer = c.emit("join_leaderboard", {"round": ROUND}, callback=True)
    assert answer["ok"] is True
    c.get_received()
    yield c
    c.disconnect()


def board(client, round: str = ROUND) -> dict:
    answer = client.get(f"/api/rounds/{round}/leaderboard")
    assert answer.status_code == 200, answer.json
    return answer.json["leaderboard"]


def line(client, entry: str, round: str = ROUND) -> dict:
    return next(e for e in board(client, round)["entries"] if e["entry"] == entry)


def two_bad_times(referee: RefereeDriver, clock, holes=(1, 2)) -> tuple[dict, dict]:
    """Group 1 out of position and timed; Marie's two bad times, the first one notified."""
    referee.tap("1", 1, "08:40")
    referee.decide("1", at=clock.now() - timedelta(minutes=2))
    first = referee.timed_stroke("1", MARIE, holes[0], 45)
    clock.advance(seconds=30)
    referee.notify("1", MARIE, first["id"])
    clock.advance(seconds=30)
    second = referee.timed_stroke("1", MARIE, holes[1], 46)
    assert second["outcome"]["penalty"]["kind"] == "strokes", second
    return first, second


# -- recording, correcting, voiding ----------------------------------------------------------


def test_a_score_is_recorded_once_and_a_resend_is_a_duplicate(scorer, client):
    id = new_id()
    first = scorer.score("1", MARIE, 1, 5, id=id)
    again = scorer.score("1", MARIE, 1, 5, id=id)
    assert (first["duplicate"], again["duplicate"], again["seq"]) == (False, True, first["seq"])
    scorer.score("1", MARIE, 1, 4, id=id, error="event_conflict")
    scorer.score("1", MARIE, 1, 4, error="already_scored")
    events = [e for e in client.get(f"/api/rounds/{ROUND}/events").json["events"]]
    assert [(e["type"], e["payload"]) for e in events] == [
        ("score_recorded", {"group": "1", "player": MARIE, "hole": 1, "strokes": 5,
                            "conceded": False}),
    ]  # fmt: skip
    assert events[0]["by"]["role"] == "scorer"


def test_a_correction_changes_the_card_and_a_void_takes_it_back(scorer, client):
    recorded = scorer.score("1", MARIE, 1, 6)
    assert line(client, MARIE)["so_far"] == 6
    fix = scorer.correct(recorded["id"], 5)
    assert line(client, MARIE)["so_far"] == 5
    scorer.void(fix["id"], "it was a 6 after all")
    assert line(client, MARIE)["so_far"] == 6
    scorer.void(recorded["id"])
    marie = line(client, MARIE)
    assert (marie["state"], marie["thru"]) == ("not_started", 0)
    # the hole may be scored anew; the voided score cannot be corrected or voided again
    scorer.correct(recorded["id"], 5, error="already_done")
    scorer.void(recorded["id"], error="already_done")
    scorer.score("1", MARIE, 1, 4)
    assert line(client, MARIE)["so_far"] == 4


def test_a_correction_must_name_a_recorded_score(scorer, referee):
    tap = referee.tap("1", 1, "08:40")
    scorer.correct(tap["id"], 4, error="wrong_target")
    scorer.correct(new_id(), 4, error="unknown_target")


@pytest.mark.parametrize(
    "fields, code, field",
    [
        ({"strokes": 0}, "invalid_payload", "strokes"),
        ({"strokes": 21}, "invalid_payload", "strokes"),
        ({"strokes": 4.5}, "invalid_payload", "strokes"),
        ({"strokes": True}, "invalid_payload", "strokes"),
        ({"strokes": "four"}, "invalid_payload", "strokes"),
        ({"strokes": "٤"}, "invalid_payload", "strokes"),
        ({"hole": 19}, "unknown_hole", "hole"),
        ({"player": "Luc Côté"}, "unknown_player", "player"),  # of group 2
        ({"player": "Nobody"}, "unknown_player", "player"),
        ({"group": "99"}, "unknown_group", "group"),
        ({"conceded": "yes"}, "invalid_payload", "conceded"),
        ({"strokes": None, "extra": 1}, "unknown_field", "extra"),
    ],
    ids=lambda v: str(v),
)
def test_a_bad_score_is_refused_naming_its_field_and_changes_nothing(
    scorer, app, fields, code, field
):
    body = {"id": new_id(), "round": ROUND, "group": "1", "player": MARIE, "hole": 1,
            "strokes": 4, **fields}  # fmt: skip
    before = app.extensions["pace"].store.count_events()
    answer = scorer.send("record_score", body)
    assert_error(answer, code, field)
    assert app.extensions["pace"].store.count_events() == before
    assert names(scorer.client) == []


def test_strokes_must_be_sent_and_null_is_no_score(scorer, client):
    body = {"id": new_id(), "round": ROUND, "group": "1", "player": MARIE, "hole": 1}
    assert_error(scorer.send("record_score", body), "missing_field", "strokes")
    scorer.score("1", MARIE, 1, None)
    marie = line(client, MARIE)
    assert (marie["state"], marie["thru"], marie["result"]) == ("nr", 1, "NR")


def test_in_a_one_ball_format_a_partners_score_is_the_sides(app, connect, clock, client):
    teams = DRAW.with_name("draw_foursome.csv")
    teams.write_text(
        "group,start,tee,player,handicap,side\n"
        "1,08:00,1,Ann,10,A\n1,08:00,1,Bea,12,A\n1,08:00,1,Cy,8,B\n1,08:00,1,Dan,14,B\n",
        encoding="utf-8",
    )
    try:
        app.extensions["pace"].live.service.import_draw(
            teams.read_text(encoding="utf-8"), str(teams), round="F1", day=DAY,
            timezone=TIMEZONE, format="foursome",
        )  # fmt: skip
    finally:
        teams.unlink()
    driver = ScorerDriver(connect("scorer", round="F1"), clock.now, round="F1")
    snapshot = driver.join_scores()["snapshot"]
    assert [b["ball"] for b in snapshot["groups"][0]["balls"]] == ["Ann / Bea", "Cy / Dan"]
    driver.score("1", "Ann", 1, 5)
    driver.score("1", "Bea", 1, 4, error="already_scored")
    assert line(client, "Ann / Bea", "F1")["so_far"] == 5


def test_in_match_play_a_conceded_hole_is_the_opponents(app, connect, clock, client, tmp_path):
    draw = tmp_path / "singles.csv"
    draw.write_text("group,start,tee,player,handicap\n1,08:00,1,Ann,10\n1,08:00,1,Bob,12\n",
                    encoding="utf-8")  # fmt: skip
    app.extensions["pace"].live.service.import_draw(
        draw.read_text(encoding="utf-8"), str(draw), round="M2", day=DAY, timezone=TIMEZONE,
        scoring="match",
    )  # fmt: skip
    scorer = ScorerDriver(connect("scorer", round="M2"), clock.now, round="M2")
    scorer.score("1", "Ann", 1, 4)
    scorer.score("1", "Bob", 1, 9, conceded=True)
    (match,) = board(client, "M2")["matches"]
    assert (match["result"], match["thru"], match["finished"]) == ("1 up thru 1", 1, False)
    card = client.get("/api/rounds/M2/cards/1").json["card"]
    assert card["scores"]["Bob"]["1"]["conceded"] is True
    assert card["matches"][0]["result"] == "1 up thru 1"


# -- the card: scores plus the referees' judgement -------------------------------------------


def test_a_counted_bad_time_puts_a_stroke_on_its_hole_and_a_void_takes_it_off(
    scorer, referee, client, clock
):
    scorer.card("1", MARIE, PARS[:3])
    assert line(client, MARIE)["to_par"] == 0
    first, second = two_bad_times(referee, clock, holes=(1, 2))
    marie = line(client, MARIE)
    assert (marie["to_par"], marie["so_far"], marie["penalty_strokes"]) == (1, 13, 1)
    assert marie["card"][:3] == [[1, 4, 0], [2, 5, 1], [3, 3, 0]]
    [pen] = marie["penalties"]
    assert (pen["fault"], pen["kind"], pen["hole"], pen["rank"]) == (second["id"], "strokes", 2, 2)
    # nothing about the penalty is in the scores: the log holds only what scorers wrote
    events = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    assert {e["payload"]["strokes"] for e in events if e["type"] == "score_recorded"} == {4, 5, 3}
    # the card re-judged: the second bad time voided
    referee.void(second["id"], "timed the wrong player")
    assert line(client, MARIE)["penalty_strokes"] == 0
    # voiding the first re-judges the second (restored by a new stroke): it becomes a warning
    third = referee.timed_stroke("1", MARIE, 3, 47)
    assert line(client, MARIE)["penalty_strokes"] == 1
    referee.void(first["id"], "not Marie")
    assert third["outcome"]["rank"] == 2
    assert line(client, MARIE)["penalty_strokes"] == 0


def test_a_late_notification_re_judges_the_card_at_once(scorer, referee, client, clock):
    scorer.card("1", MARIE, PARS[:3])
    referee.tap("1", 1, "08:40")
    referee.decide("1", at=clock.now() - timedelta(minutes=2))
    first = referee.timed_stroke("1", MARIE, 1, 45)
    told_at = clock.now()
    clock.advance(minutes=1)
    second = referee.timed_stroke("1", MARIE, 3, 47)
    assert second["outcome"]["reason"] == "previous_not_notified"
    assert line(client, MARIE)["penalty_strokes"] == 0
    # the referee's phone was offline: its notification, made before the second bad time,
    # arrives now with its own instant; the second bad time counts, and the card follows
    clock.advance(minutes=2)
    answer = referee.send("notify_player", {"id": new_id(), "round": ROUND, "group": "1",
                          "player": MARIE, "fault": first["id"], "at": told_at.isoformat(),
                          "device_time": clock.now().isoformat()})  # fmt: skip
    assert answer["ok"] is True, answer
    marie = line(client, MARIE)
    assert (marie["penalty_strokes"], marie["card"][2], marie["to_par"]) == (1, [3, 3, 1], 1)


def test_the_card_of_a_group_holds_its_scores_ids_and_penalties(scorer, referee, client, clock):
    recorded = scorer.card("1", MARIE, PARS[:2])
    scorer.score("1", JULIE, 1, 6)
    two_bad_times(referee, clock, holes=(1, 2))
    card = client.get(f"/api/rounds/{ROUND}/cards/1").json["card"]
    assert card["balls"][0] == {"ball": MARIE, "player": MARIE, "players": [MARIE], "side": MARIE}
    assert card["scores"][MARIE]["1"]["id"] == recorded[0]["id"]
    assert card["scores"][JULIE]["1"]["strokes"] == 6 and card["scores"][SOPHIE] == {}
    [pen] = card["penalties"]
    assert (pen["player"], pen["hole"], pen["effect"], pen["value"]) == (MARIE, 2, "strokes", 1)
    marie = next(e for e in card["entries"] if e["entry"] == MARIE)
    assert marie["holes"][1]["penalty_strokes"] == 1
    assert card["seq"] == max(e["seq"] for e in client.get(
        f"/api/rounds/{ROUND}/events").json["events"])  # fmt: skip
    assert client.get(f"/api/rounds/{ROUND}/cards/99").status_code == 404


def test_stableford_takes_two_points_off_per_counted_penalty(app, connect, clock, client):
    add_round(app, "S1", scoring="stableford")
    scorer = ScorerDriver(connect("scorer", round="S1"), clock.now, round="S1")
    referee = RefereeDriver(connect("referee", round="S1"), clock.now, round="S1")
    scorer.card("1", MARIE, PARS[:3])  # gross: par is 2 points a hole
    assert line(client, MARIE, "S1")["value"] == 6
    two_bad_times(referee, clock)
    marie = line(client, MARIE, "S1")
    assert (marie["points"], marie["penalty_points"], marie["value"]) == (6, 2, 4)
    assert marie["result"] == "4 points"
    assert marie["penalty_strokes"] == 0  # the strokes stay as played


# -- broadcasts ------------------------------------------------------------------------------


def test_scores_and_counted_penalties_announce_the_card_and_the_leaderboard(
    scorer, referee, public, clock
):
    scorer.score("1", MARIE, 1, 4)
    assert names(public) == ["leaderboard_changed"]
    assert [e["args"][0] for e in scorer.client.get_received() if e["name"] == "card_changed"] == [
        {"round": ROUND, "group": "1"}
    ]
    referee.tap("1", 1, "08:40")
    referee.decide("1", at=clock.now() - timedelta(minutes=2))
    first = referee.timed_stroke("1", MARIE, 1, 45)  # a warning: the card does not change
    assert names(public) == []
    clock.advance(seconds=30)
    referee.notify("1", MARIE, first["id"])
    clock.advance(seconds=30)
    second = referee.timed_stroke("1", MARIE, 2, 46)
    assert names(public) == ["leaderboard_changed"]
    assert "card_changed" in names(scorer.client)
    referee.void(second["id"])
    assert names(public) == ["leaderboard_changed"]
    # the public room never hears the pace side (statuses, alerts, penalty rows)
    referee.tap("1", 2, "08:55")
    assert names(public) == []


def test_a_checkpoint_breach_found_by_the_tick_is_announced_by_the_tick(
    app, connect, clock, client
):
    add_round(app, "M1", policy="mauricie")
    ext = app.extensions["pace"]
    public = ext.socketio.test_client(app, auth={"device": "crowd"})
    try:
        public.emit("join_leaderboard", {"round": "M1"}, callback=True)
        ScorerDriver(connect("scorer", round="M1"), clock.now, round="M1").card(
            "1", MARIE, PARS[:13]
        )
        clock.set(clock.now() + timedelta(minutes=50))  # 10:00
        referee = RefereeDriver(connect("referee", round="M1"), clock.now, round="M1")
        scheduler = PaceScheduler(
            ext.live, ext.broadcaster, tick_seconds=5, after_tick=tick_announcer(ext)
        )
        # 90 minutes per six holes: the 6th at 09:45 (105 min) is a first breach, a warning
        referee.tap("1", 6, "09:45")
        scheduler.tick("M1")
        referee.notify("1", MARIE, "checkpoint:1:1")  # told at 10:00
        public.get_received()
        clock.set(clock.now() + timedelta(hours=1, minutes=30))  # 11:30
        # the 12th 95 minutes later: a second breach, two strokes on the 13th
        referee.tap("1", 12, "11:20")
        assert names(public) == []  # a tap's effect on the cards waits for the tick
        scheduler.tick("M1")
        assert names(public) == ["leaderboard_changed"]
        marie = line(client, MARIE, "M1")
        assert (marie["penalty_strokes"], marie["card"][12]) == (2, [13, 3, 2])
    finally:
        public.disconnect()


# -- who may do what -------------------------------------------------------------------------


def test_a_scorer_voids_scores_only_and_a_marshal_no_score(scorer, connect, clock, app):
    score = scorer.score("1", MARIE, 1, 4)
    marshal = MarshalDriver(connect("marshal"), clock.now)
    tap = marshal.tap("1", 1, "08:40")
    before = app.extensions["pace"].store.count_events()
    scorer.void(tap["id"], error="forbidden")
    marshal.void(score["id"], error="forbidden")
    assert app.extensions["pace"].store.count_events() == before
    scorer.void(score["id"])


def test_a_scorer_joining_the_round_gets_the_facts_only_board(scorer):
    snapshot = scorer.join()["snapshot"]
    assert "alerts" not in snapshot and "penalties" not in snapshot
    assert all("status" not in row for row in snapshot["groups"])


def test_the_leaderboard_is_public_for_every_round_but_an_unknown_one(app, client):
    add_round(app, "R2")
    anybody = app.test_client()
    for path in (f"/api/rounds/{ROUND}/leaderboard", "/api/rounds/R2/leaderboard",
                 f"/rounds/{ROUND}/leaderboard", "/rounds/%20R2%20/leaderboard"):  # fmt: skip
        assert anybody.get(path).status_code == 200, path
    missing = anybody.get("/api/rounds/Nope/leaderboard")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "unknown_round"
    crowd = app.extensions["pace"].socketio.test_client(app, auth={"device": "crowd"})
    try:
        assert crowd.emit("join_leaderboard", {"round": "R2"}, callback=True)["ok"] is True
        assert_error(crowd.emit("join_leaderboard", {"round": "Nope"}, callback=True),
                     "unknown_round")  # fmt: skip
        assert_error(crowd.emit("join_scores", {"round": ROUND}, callback=True), "unauthorized")
    finally:
        crowd.disconnect()


def test_the_committee_sets_how_the_round_is_scored_on_the_scorer_page(app, login, client):
    ext = app.extensions["pace"]
    for role, expected in (("referee", 403), ("scorer", 403), ("committee", 302)):
        web = login(role)
        web.get(f"/rounds/{ROUND}/scorecard")  # the form token of this browser
        with web.session_transaction() as s:
            csrf = s.get("csrf", "")
        form = {"scoring": "stableford", "net": "yes", "allowance": "90", "csrf": csrf}
        r = web.post(f"/rounds/{ROUND}/scoring", data=form)
        assert r.status_code == expected, (role, r.status_code)
    record = ext.store.get_round(ROUND)
    assert (record.scoring, record.net, record.allowance, record.play) == (
        "stableford", True, (90.0,), "stroke_play"
    )  # fmt: skip
    assert board(client)["scoring"] == "stableford" and board(client)["net"] is True
    page = client.get(f"/rounds/{ROUND}/scorecard").get_data(as_text=True)
    assert '<option value="stableford" selected>' in page and 'value="90.0"' in page
    web = login("committee")
    bad = web.post(f"/rounds/{ROUND}/scoring", data={"scoring": "stroke", "csrf": "forged"})
    assert bad.status_code == 403 and bad.json["error"]["code"] == "csrf_failed"
    web.get(f"/rounds/{ROUND}/scorecard")
    with web.session_transaction() as s:
        csrf = s.get("csrf", "")
    wrong = web.post(f"/rounds/{ROUND}/scoring",
                     data={"scoring": "stroke", "allowance": "60/40", "csrf": csrf})  # fmt: skip
    assert wrong.status_code == 400 and wrong.json["error"]["code"] == "invalid_setup"
    assert ext.store.get_round(ROUND).scoring == "stableford"


def test_the_access_page_makes_scorer_codes_that_open_the_scorer_page(app, login):
    web = login("committee", None)
    page = web.get(f"/rounds/{ROUND}/access").get_data(as_text=True)
    assert 'value="scorer"' in page
    with web.session_transaction() as s:
        csrf = s["csrf"]
    made = web.post(f"/rounds/{ROUND}/access", data={"role": "scorer", "csrf": csrf})
    assert made.status_code == 200
    (code,) = [c for c in app.extensions["pace"].store.access_codes(round=ROUND)]
    assert code.role == "scorer"
    text = made.get_data(as_text=True)
    link = text[text.index("/join?code=") :].split('"')[0].split("<")[0]
    phone = app.test_client()
    assert phone.get(link).status_code == 302
    assert phone.get(f"/rounds/{ROUND}/scorecard").status_code == 200
    assert phone.get(f"/rounds/{ROUND}/dashboard").status_code == 403

"""The committee's console through the real app (issue 28): its pages, the course form and
upload (the same checks and messages as ``pace import course``), a new round in two steps
(preview stores nothing, create stores the same parse), and the change commands over
``POST /api/commands/<name>`` (the edge pipeline), each reaching the dashboard's socket.

Round R1 of the shared test data on a real SQLite file; the clock at 09:10 local.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import uuid

import pytest
from drivers import COURSE, DRAW, ROUND

from pace.rules.errors import FileFormatError


@pytest.fixture
def desk(client):
    """The committee's test client with a form token in its session."""
    with client.session_transaction() as s:
        s["csrf"] = "tok"
    return client


def course_form(holes: int = 9, **top) -> dict:
    rows = [{"par": 4, "stroke_index": i + 1, "length_m": 350, "bogey": 5, "walk_min": 1}
            for i in range(holes)]  # fmt: skip
    return {"name": "Pine Hills", "hole_count": holes, "slope": 120, "rating": 70.1,
            "holes": rows, **top}  # fmt: skip


def post_course(desk, form: dict):
    return desk.post("/api/courses", data={"csrf": "tok", "course": json.dumps(form)})


def test_the_console_home_and_pages_open_for_the_committee(desk):
    home = desk.get("/").get_data(as_text=True)
    assert 'id="console-link"' in home
    page = desk.get("/committee").get_data(as_text=True)
    assert "/rounds/R1/changes" in page and "/courses" in page and "/rounds/new" in page
    for path in ("/courses", "/courses/edit", "/rounds/new", f"/rounds/{ROUND}/changes"):
        assert desk.get(path).status_code == 200, path
    assert "Nouveau parcours" in desk.get("/courses?lang=fr").get_data(as_text=True)


def test_a_course_from_the_form_is_stored_as_pace_import_course_would(desk, app):
    answer = post_course(desk, course_form(12))
    assert answer.status_code == 200, answer.get_json()
    course = app.extensions["pace"].store.get_course("Pine Hills")
    assert len(course.holes) == 12 and course.slope == 120 and course.holes[3].par == 4
    # it edits: the form shows the stored values
    page = desk.get("/courses/edit?name=Pine%20Hills").get_data(as_text=True)
    assert "Pine Hills" in page and '"hole_count": 12' in page


def test_the_forms_problems_are_the_parsers_beside_their_fields(desk, app):
    form = course_form(9)
    form["holes"][2]["par"] = "x"
    form["holes"][4]["stroke_index"] = 1  # also hole 1's
    form["slope"] = 300
    answer = post_course(desk, form)
    assert answer.status_code == 400
    body = answer.get_json()
    by_field = {p["form_field"]: p["message"] for p in body["problems"]}
    assert "par 'x' is not allowed" in by_field["holes.2.par"]
    assert "stroke_index 1 is also given to hole 1" in by_field["holes.4.stroke_index"]
    # said in the form's words: a form user has no line 6 (issue 38)
    assert "line" not in by_field["holes.4.stroke_index"]
    assert by_field["slope"].startswith("slope 300 is not a slope rating")
    # the same messages as the parser of `pace import course` gives for the same course
    from pace.web.committee.courses import to_toml

    with pytest.raises(FileFormatError) as e:
        from pace.formats import parse_course

        parse_course(to_toml(form).text, "f")
    parsed = sorted(re.sub(r" \(on line \d+\)", "", p.message) for p in e.value.problems)
    assert parsed == sorted(by_field.values())
    assert all(c.name != "Pine Hills" for c in app.extensions["pace"].store.list_courses())


def test_a_course_toml_upload_stores_it_or_says_every_problem(desk, app):
    good = COURSE.read_bytes()
    ok = desk.post("/api/courses/upload", data={"csrf": "tok", "file": (io.BytesIO(good),
                                                                        "c.toml")})  # fmt: skip
    assert ok.status_code == 200 and ok.get_json()["holes"] == 18
    bad = b'name = "Bad"\n[[holes]]\nnumber = 1\npar = 9\n'
    upload = {"csrf": "tok", "file": (io.BytesIO(bad), "bad.toml")}
    refused = desk.post("/api/courses/upload", data=upload)
    problems = refused.get_json()["problems"]
    assert refused.status_code == 400 and any(
        p["text"].startswith("bad.toml, line 2") for p in problems
    )
    assert all(c.name != "Bad" for c in app.extensions["pace"].store.list_courses())


def draw_form(text: str, round: str = "Spring cup", **extra) -> dict:
    return {"csrf": "tok", "round": round, "course": "Golf de Louiseville", "date": "2026-06-20",
            "timezone": "Europe/Brussels", "policy": "frbg", "format": "individual",
            "net": "gross", "draw": (io.BytesIO(text.encode()), "draw.csv"), **extra}  # fmt: skip


def test_a_new_round_is_previewed_then_created_from_the_same_parse(desk, app):
    store = app.extensions["pace"].store
    text = DRAW.read_text(encoding="utf-8")
    preview = desk.post("/api/rounds/preview", data=draw_form(text))
    body = preview.get_json()
    assert preview.status_code == 200, body
    assert body["stored"] is False and body["groups"][0]["start"] == "08:00"
    assert not store.has_round("Spring cup")
    created = desk.post("/api/rounds/create", data=draw_form(text)).get_json()
    assert created["groups"] == body["groups"] and store.has_round("Spring cup")
    again = desk.post("/api/rounds/create", data=draw_form(text))
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "round_exists"


def test_a_refused_draw_names_every_problem_and_stores_nothing(desk, app):
    text = "group,start,tee,player\n1,soon,1,Ann\n1,08:00,99,Bea\n2,08:10,1,\n"
    answer = desk.post("/api/rounds/preview", data=draw_form(text))
    problems = answer.get_json()["problems"]
    assert [(p["line"], p["field"]) for p in problems] == [(2, "start"), (3, "tee"),
                                                            (4, "player")]  # fmt: skip
    assert problems[0]["text"].startswith("draw.csv, line 2, field 'start'")
    answer = desk.post("/api/rounds/create", data=draw_form(text))
    assert answer.status_code == 400 and not app.extensions["pace"].store.has_round("Spring cup")


def command(desk, name: str, **payload):
    answer = desk.post(f"/api/commands/{name}", json={"id": str(uuid.uuid4()), "round": ROUND,
                                                      **payload})  # fmt: skip
    return answer.status_code, answer.get_json()


def test_the_change_commands_run_on_the_service_and_reach_the_dashboard(desk, dashboard, app):
    assert dashboard.emit("join_round", {"round": ROUND}, callback=True)["ok"]
    dashboard.get_received()
    status, ack = command(desk, "change_withdraw", player="Luc Côté", reason="no_show",
                          note="called in sick")  # fmt: skip
    assert status == 200 and ack["ok"], ack
    status, ack = command(desk, "change_swap", player="Marie Lavoie", other="Marc Bélanger",
                          reason="car sharing")  # fmt: skip
    assert status == 200, ack
    heard = [
        e["args"][0]["parts"] for e in dashboard.get_received() if e["name"] == "round_changed"
    ]
    assert any("groups" in p for p in heard), "the dashboard did not hear the new draw"
    data = desk.get(f"/api/rounds/{ROUND}/changes").get_json()
    kinds = [c["type"] for c in data["changes"]]
    assert kinds == ["player_withdrawn", "players_swapped"]
    g1 = next(g for g in data["groups"] if g["group"] == "1")
    assert "Marc Bélanger" in [p["name"] for p in g1["players"]]
    # void, then a refusal in the service's sentence
    status, ack = command(desk, "change_void", target=data["changes"][1]["id"], reason="mistake")
    assert status == 200, ack
    status, ack = command(desk, "change_move_player", player="Nobody Here", to="2", reason="x")
    assert status == 404 and ack["error"]["code"] == "unknown_player"
    assert "not in the draw" in ack["error"]["message"]


def test_start_tee_groups_and_late_entries(desk, app):
    assert command(desk, "change_start", group="6", start="09:40", reason="traffic")[0] == 200
    assert command(desk, "change_tee", group="6", tee=10, reason="tee 1 full")[0] == 200
    players = ["Tom Ruiz", {"name": "Lea Martin", "handicap": "20,5"}]
    ok = command(desk, "change_add_group", group="9", start="10:30", tee=1, players=players,
                 reason="late")  # fmt: skip
    assert ok[0] == 200, ok
    assert command(desk, "change_add_player", group="9", player={"name": "Zoe Ng"},
                   reason="late")[0] == 200  # fmt: skip
    assert command(desk, "change_remove_group", group="9", reason="all withdrew")[0] == 200
    data = desk.get(f"/api/rounds/{ROUND}/changes").get_json()
    six = next(g for g in data["groups"] if g["group"] == "6")
    assert (six["start"], six["tee"]) == ("09:40", 10)
    assert "9" not in [g["group"] for g in data["groups"]]


def test_only_the_committee_opens_the_console_or_sends_its_commands(login):
    referee = login("referee")
    assert referee.get("/committee").status_code == 403
    answer = referee.post("/api/commands/change_withdraw", json={"id": str(uuid.uuid4()),
                          "round": ROUND, "player": "Luc Côté", "reason": "no_show"})  # fmt: skip
    assert answer.status_code == 403


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("change_withdraw", {"player": "Lise Dion", "reason": "no_show"}),
        ("change_move_player", {"player": "Lise Dion", "to": "6", "reason": "car"}),
        ("change_swap", {"player": "Lise Dion", "other": "Paul Martel", "reason": "car"}),
    ],
)
def test_a_resent_change_is_the_same_change_though_the_draw_moved(desk, name, fields):
    """The first send moved the player: the resend (a phone that lost the ack) is compared
    with the change as made, and answers ``duplicate``, storing nothing twice."""
    body = {"id": str(uuid.uuid4()), "round": ROUND, **fields}
    first = desk.post(f"/api/commands/{name}", json=body).get_json()
    again = desk.post(f"/api/commands/{name}", json=body).get_json()
    assert first["ok"] and again["ok"] and again["duplicate"] is True, again
    assert again["seq"] == first["seq"]
    key = "note" if name == "change_withdraw" else "reason"
    other = desk.post(f"/api/commands/{name}", json={**body, key: "another"}).get_json()
    assert other["error"]["code"] == "event_conflict"


def test_a_change_of_the_console_reaches_the_board_and_the_leaderboard(desk, connect, app):
    """The facts-only board and the public leaderboard follow a change made in the console
    (the leaderboard's cards were announced once before, as the scheduler's tick does)."""
    app.extensions["pace"].score_broadcaster.changed(ROUND)
    board = connect("viewer", "board-screen")
    assert board.emit("join_board", {"round": ROUND}, callback=True)["ok"]
    public = connect(None, "clubhouse-screen")
    answer = public.emit("join_leaderboard", {"round": ROUND}, callback=True)
    assert answer["ok"]
    board.get_received()
    public.get_received()
    status, ack = command(desk, "change_withdraw", player="Lise Dion", reason="no_show")
    assert status == 200, ack
    boards = [e["args"][0] for e in board.get_received() if e["name"] == "board_changed"]
    assert boards, "the board heard nothing of the change"
    shown = json.dumps(boards, ensure_ascii=False)
    assert "Lise Dion" not in shown and "Chantal Paquette" in shown
    heard = [e["name"] for e in public.get_received()]
    assert "leaderboard_changed" in heard, heard


def test_a_course_downloaded_as_toml_re_imports_to_the_same_course(desk, app):
    """The courses page links each course's TOML file; the file is the course again."""
    from pace.formats import parse_course

    store = app.extensions["pace"].store
    stored = store.get_course("Golf de Louiseville")
    page = desk.get("/courses").get_data(as_text=True)
    assert "/courses/Golf%20de%20Louiseville.toml" in page
    answer = desk.get("/courses/Golf%20de%20Louiseville.toml")
    assert answer.status_code == 200
    assert answer.headers["Content-Disposition"] == (
        'attachment; filename="course-Golf_de_Louiseville.toml"'
    )
    assert parse_course(answer.get_data(as_text=True), "c.toml") == stored
    # uploaded again through the console, it is stored as the same course
    upload = {"csrf": "tok", "file": (io.BytesIO(answer.get_data()), "c.toml")}
    assert desk.post("/api/courses/upload", data=upload).status_code == 200
    assert store.get_course("Golf de Louiseville") == stored
    assert desk.get("/courses/Nowhere.toml").status_code == 404


def test_only_the_committee_downloads_a_course(login):
    assert login("referee").get("/courses/Golf%20de%20Louiseville.toml").status_code == 403


def test_a_rounds_life_from_the_console_reaches_the_leaderboard_and_the_results(desk, connect):
    """Finish, make final, reopen: each a command of the console on ``RoundLifeService``; the
    leaderboard's clients are told, and its JSON and the results JSON say "final", by whom."""
    public = connect(None, "clubhouse-screen")
    assert public.emit("join_leaderboard", {"round": ROUND}, callback=True)["ok"]
    public.get_received()
    life = desk.get(f"/api/rounds/{ROUND}/changes").get_json()["life"]
    assert life["stage"] == "in_play" and life["final"] is False
    status, ack = command(desk, "round_final")
    assert status == 409 and ack["error"]["code"] == "not_finished", ack
    assert "finish it first" in ack["error"]["message"]
    status, ack = command(desk, "round_finish")
    assert status == 200 and ack["life"]["stage"] == "finished", ack
    assert ack["life"]["finished"]["implied"] is False
    status, ack = command(desk, "round_final")
    assert status == 200 and ack["life"]["final"] is True, ack
    heard = [e["name"] for e in public.get_received()]
    assert heard.count("leaderboard_changed") >= 2, heard
    board = desk.get(f"/api/rounds/{ROUND}/leaderboard").get_json()["leaderboard"]
    assert board["life"]["final"] is True and board["life"]["finalised"]["by"]
    results = desk.get(f"/api/rounds/{ROUND}/results").get_json()
    assert results["life"]["stage"] == "final"
    assert results["life"]["finalised"] == board["life"]["finalised"]
    page = desk.get(f"/rounds/{ROUND}/changes").get_data(as_text=True)
    assert 'id="life-finish"' in page and '"stage": "final"' in page
    status, ack = command(desk, "round_reopen", reason="")
    assert status == 400 and ack["error"]["field"] == "reason"
    status, ack = command(desk, "round_reopen", reason="card of group 4 mis-added")
    assert status == 200 and ack["life"]["final"] is False
    assert ack["life"]["reopened"][0]["reason"] == "card of group 4 mis-added"
    assert desk.get(f"/api/rounds/{ROUND}/results").get_json()["life"]["final"] is False


def test_only_the_committee_acts_on_a_rounds_life(login):
    referee = login("referee")
    answer = referee.post("/api/commands/round_finish", json={"round": ROUND})
    assert answer.status_code == 403


CARD_CODE = re.compile(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}\b")


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils missing")
def test_access_cards_in_bulk_sign_in_with_their_roles(desk, app, tmp_path):
    """The round's page makes codes for N marshals, referees and scorers at once and answers
    their A4 sheet of cards; each code printed signs in with its card's role, and a marshal's
    card link opens the marshal page."""
    page = desk.get(f"/rounds/{ROUND}/changes").get_data(as_text=True)
    assert f'action="/rounds/{ROUND}/cards"' in page and 'value="http://localhost"' in page
    answer = desk.post(f"/rounds/{ROUND}/cards", data={"csrf": "tok", "marshal": "3",
                       "referee": "2", "scorer": "1", "url": "http://10.0.0.2:5000"})  # fmt: skip
    assert answer.status_code == 200, answer.get_data()[:300]
    assert answer.mimetype == "application/pdf"
    assert answer.headers["Content-Disposition"] == 'attachment; filename="cards-R1.pdf"'
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(answer.get_data())
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    codes = list(dict.fromkeys(CARD_CODE.findall(text)))
    assert len(codes) == 6, text
    access = app.extensions["pace"].access
    roles = [access.open_with_code(code).session.role for code in codes]
    assert sorted(roles) == ["marshal"] * 3 + ["referee"] * 2 + ["scorer"]
    links = "".join(text.split())
    marshal = codes[roles.index("marshal")]
    link = re.search(rf"http://10\.0\.0\.2:5000(/join\?code={marshal}&next=[^\s]*?marshal)",
                     links)  # fmt: skip
    assert link, links
    phone = app.test_client()
    opened = phone.get(link[1], follow_redirects=True)
    assert opened.status_code == 200 and opened.request.path == f"/rounds/{ROUND}/marshal"
    # refused: nothing asked, too many, an address that is not http, another role
    before = len(app.extensions["pace"].store.access_codes(round=ROUND))
    for form, code in (({}, "missing_field"), ({"marshal": "201"}, "invalid_payload"),
                       ({"marshal": "150", "referee": "100"}, "invalid_payload"),
                       ({"marshal": "1", "url": "javascript:alert(1)"}, "invalid_payload"),
                       ({"marshal": "x"}, "invalid_payload"), ({"role": "committee"},
                                                               "unknown_field")):  # fmt: skip
        refused = desk.post(f"/rounds/{ROUND}/cards", data={"csrf": "tok", **form},
                            headers={"Accept": "application/json"})  # fmt: skip
        assert refused.status_code == 400, (form, refused.get_data()[:200])
        assert refused.get_json()["error"]["code"] == code, (form, refused.get_json())
    assert len(app.extensions["pace"].store.access_codes(round=ROUND)) == before


def test_a_new_round_keeps_the_committees_language_and_each_players(desk, app):
    # issue 41: the round's language (a console field) and the draw's language column
    store = app.extensions["pace"].store
    text = ("group,start,tee,player,taal\n1,08:00,1,Jan Peeters,nl-BE\n1,08:00,1,Anne Dubois,"
            "Français\n2,08:10,1,Tom Smith,\n")  # fmt: skip
    created = desk.post("/api/rounds/create", data=draw_form(text, language="nl"))
    assert created.status_code == 200, created.get_json()
    rec = store.get_round("Spring cup")
    assert rec.language == "nl"
    assert [p.language for g in rec.groups for p in g.players] == ["nl", "fr", None]
    page = desk.get("/rounds/new?lang=nl").get_data(as_text=True)
    assert "Taal van de documenten van de ronde" in page and 'value="nl" lang="nl"' in page


def test_a_wrong_language_is_a_problem_of_its_line_and_field_and_a_bad_choice_refused(desk, app):
    text = "group,start,tee,player,langue\n1,08:00,1,Ann,klingon\n"
    problems = desk.post("/api/rounds/preview?lang=nl", data=draw_form(text)).get_json()["problems"]
    assert [(p["line"], p["field"]) for p in problems] == [(2, "language")]
    assert problems[0]["message"] == (
        "taal 'klingon' is geen taal van pace; verwacht fr, en of nl "
        "(français, English, Nederlands), of niets"
    )
    answer = desk.post("/api/rounds/create", data=draw_form(DRAW.read_text(encoding="utf-8"),
                                                           language="de"))  # fmt: skip
    assert answer.status_code == 400 and answer.get_json()["error"]["field"] == "language"
    assert not app.extensions["pace"].store.has_round("Spring cup")

"""The console's refusals in the asker's language (issue 47): every refusal a committee page can
meet is a sentence of the catalogue (``pace.rules.errors.said``), from the payload's primitives
(``pace.web.payloads``) and the console's parsers to the services and the rules; asked for in
Dutch or French (``Accept-Language``, ``?lang=``, the device's cookie), the JSON refusal carries
it translated (``translation``), its ``message`` staying the English the CLI prints; asked for
in English (or by a script that says nothing), the shape is the shared one, unchanged.

Round R1 of the shared test data on a real SQLite file, the clock at 09:10 local; group 1 has
completed hole 1 where a refusal needs a group that has played.
"""

from __future__ import annotations

import io
import re
import uuid
from datetime import date, datetime

import pytest
from drivers import ROUND, local

from pace.i18n import catalog
from pace.rules.errors import PaceError
from pace.web import i18n as pages

DUTCH = {"Accept-Language": "nl-BE"}
FRENCH = {"Accept-Language": "fr-BE,fr;q=0.9"}


@pytest.fixture
def desk(client, marshal):
    """The committee's test client (a form token in its session); group 1 has played hole 1."""
    marshal.tap("1", 1, local("08:12"))
    with client.session_transaction() as s:
        s["csrf"] = "tok"
    return client


def command(desk, name: str, headers: dict[str, str] | None = None, **payload):
    body = {"id": str(uuid.uuid4()), "round": ROUND, **payload}
    answer = desk.post(f"/api/commands/{name}", json=body, headers=headers or {})
    return answer.status_code, answer.get_json()["error"]


#: bad changes on the day, one per kind of refusal: (command, payload, code, the Dutch)
CHANGES = [
    ("change_start", {"group": "6", "start": "25:99", "reason": "file"}, "invalid_payload",
     "starttijd '25:99' is geen tijdstip zoals 08:40"),
    ("change_start", {"group": "6", "start": 840, "reason": "file"}, "invalid_payload",
     "starttijd: verwacht een tijdstip zoals 08:40"),
    ("change_start", {"group": "6", "start": "09:00", "reason": " "}, "invalid_payload",
     "reden: dit veld mag niet leeg zijn"),
    ("change_start", {"group": "6", "start": "09:00"}, "missing_field",
     "reden: dit veld is verplicht"),
    ("change_start", {"group": "6", "start": "09:00", "reason": "x", "who": "me"},
     "unknown_field", "onbekend veld 'who'; alleen id, round, group, start, reason, "
     "device_time worden verwacht"),
    ("change_start", {"group": "1", "start": "09:00", "reason": "file"}, "group_has_played",
     "flight 1 heeft hole 1 uitgespeeld om 08:12:00: haar starttijd kan niet meer veranderen "
     "(de gespeelde holes werden ervan uit getimed); geef haar een tijdskrediet als ze "
     "opgehouden werd"),
    ("change_start", {"group": "60", "start": "09:00", "reason": "file"}, "unknown_group",
     "flight 60 staat niet op de startlijst; de flights zijn 1, 2, 3, 4, 5, 6"),
    ("change_tee", {"group": "6", "tee": 19, "reason": "file"}, "unknown_hole",
     "tee 19 is geen hole van de baan; de holes zijn 1–18"),
    ("change_tee", {"group": "6", "tee": 100, "reason": "file"}, "invalid_payload",
     "starttee 100 valt buiten het bereik 1–99"),
    ("change_tee", {"group": "6", "tee": "tien", "reason": "file"}, "invalid_payload",
     "starttee: verwacht een geheel getal"),
    ("change_withdraw", {"player": "Marie Lavoie", "reason": "sick"}, "invalid_payload",
     "reden 'sick': verwacht no_show (niet opgedaagd, nooit gestart) of retired (opgegeven "
     "tijdens het spel)"),
    ("change_withdraw", {"player": "Marie Lavoie", "reason": "no_show", "note": "ziek"},
     "group_has_played", "flight 1 heeft hole 1 uitgespeeld om 08:12:00 met Marie Lavoie "
     "meegeteld: niet opgedaagd zou de gespeelde holes opnieuw beoordelen; registreer Marie "
     "Lavoie als opgegeven (geteld vanaf nu)"),
    ("change_withdraw", {"player": "Marie Lavoie", "reason": "retired", "at": "07:00"},
     "group_has_played", "flight 1 heeft hole 1 uitgespeeld om 08:12:00, na 07:00:00: opgeven "
     "telt vanaf dat tijdstip en kan de sindsdien gespeelde holes niet opnieuw beoordelen; geef "
     "een tijdstip na 08:12:00"),
    ("change_withdraw", {"player": "Nobody", "reason": "no_show"}, "unknown_player",
     "Nobody staat niet op de startlijst van ronde R1"),
    ("change_add_player", {"group": "1", "player": {"name": "Anne Ash"}, "reason": "laat"},
     "group_has_played", "flight 1 heeft hole 1 uitgespeeld om 08:12:00: een speler die nu "
     "wordt toegevoegd, zou geen score hebben voor de gespeelde holes; voeg de speler toe aan "
     "een flight die nog niet gespeeld heeft, of voeg een flight toe (add-group)"),
    ("change_add_player", {"group": "2", "player": {"name": "Anne", "handicap": "veel"},
                           "reason": "laat"}, "invalid_payload",
     "handicap 'veel' is geen handicapindex; verwacht 12.4, 12,4 of +2.1"),
    ("change_add_player", {"group": "2", "player": {"name": "Anne", "handicap": 60.5},
                           "reason": "laat"}, "invalid_payload",
     "handicap 60,5 valt buiten het bereik +10 tot 54"),
    ("change_add_player", {"group": "2", "player": {"name": "Luc\u200bCôté"}, "reason": "x"},
     "invalid_payload", "naam: bevat een onzichtbaar opmaakteken (U+200B)"),
    ("change_add_player", {"group": "2", "player": {"name": "luc côté"}, "reason": "x"},
     "player_exists", "luc côté zit al in flight 2; verplaats de speler in de plaats "
     "(move-player)"),
    ("change_move_player", {"player": "Luc Côté", "to": "2", "reason": "x"}, "same_group",
     "Luc Côté zit al in flight 2"),
    ("change_move_player", {"player": "Luc Côté", "to": "1", "reason": "x"}, "group_has_played",
     "flight 1 heeft hole 1 uitgespeeld om 08:12:00: Luc Côté erin verplaatsen zou Luc Côté "
     "zonder score laten voor de gespeelde holes; verplaats de speler naar een flight die nog "
     "niet gespeeld heeft"),
    ("change_swap", {"player": "Luc Côté", "other": "Luc Côté", "reason": "x"}, "same_player",
     "Luc Côté kan niet met Luc Côté gewisseld worden: kies twee spelers"),
    ("change_swap", {"player": "Luc Côté", "other": "Marc Bélanger", "reason": "x"},
     "same_group", "Luc Côté en Marc Bélanger zitten allebei in flight 2: wisselen binnen een "
     "flight verandert niets"),
    ("change_add_group", {"group": "7", "start": "13:00", "tee": 1, "players": [],
                          "reason": "x"}, "invalid_payload",
     "spelers: verwacht een lijst van 1 tot 6 spelers"),
    ("change_add_group", {"group": "7", "start": "13:00", "tee": 1,
                          "players": ["Zoé Roy", "zoé roy"], "reason": "x"}, "player_exists",
     "zoé roy staat er twee keer"),
    ("change_remove_group", {"group": "1", "reason": "x"}, "group_has_played",
     "flight 1 heeft hole 1 geregistreerd om 08:12:00: haar verwijderen zou wissen wat ze "
     "gespeeld heeft; trek haar in de plaats terug (withdraw-group)"),
    ("change_void", {"target": str(uuid.UUID(int=7)), "reason": "x"}, "unknown_target",
     f"geen gebeurtenis '{uuid.UUID(int=7)}' in deze ronde"),
    ("change_void", {"target": "not-an-id", "reason": "x"}, "invalid_payload",
     "bedoelde wijziging 'not-an-id' is geen UUID"),
    ("round_final", {}, "not_finished",
     "ronde 'R1' is in spel: sluit ze eerst af (pace round finish) en maak dan de uitslagen "
     "definitief"),
    ("round_reopen", {"reason": "x"}, "not_final",
     "de uitslagen van ronde 'R1' zijn niet definitief; er valt niets te heropenen"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "payload", "code", "dutch"), CHANGES,
                         ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CHANGES)])  # fmt: skip
def test_a_refused_change_is_said_in_dutch_to_a_dutch_page(desk, app, name, payload, code,
                                                           dutch):  # fmt: skip
    before = app.extensions["pace"].store.events(ROUND)
    status, error = command(desk, name, DUTCH, **payload)
    assert status >= 400 and error["code"] == code, error
    assert error["translation"] == dutch
    # the English stays the protocol's message, as the CLI says it
    assert error["message"] != dutch
    # refused: nothing stored
    assert app.extensions["pace"].store.events(ROUND) == before


def test_an_english_page_or_a_script_gets_the_shared_shape_unchanged(desk):
    for headers in ({"Accept-Language": "en-GB"}, {}):
        status, error = command(desk, "change_start", headers, group="6", start="25:99",
                                reason="file")  # fmt: skip
        assert status == 400
        assert error == {"code": "invalid_payload", "field": "start",
                         "message": "start '25:99' is not a time of day such as 08:40"}  # fmt: skip


def test_a_fact_refused_once_the_results_are_final_is_said_in_dutch(desk, clock):
    for act in ("round_finish", "round_final"):
        answer = desk.post(f"/api/commands/{act}", json={"round": ROUND})
        assert answer.status_code == 200, answer.get_json()
    status, error = command(desk, "hole_completed", DUTCH, group="2", hole=1,
                            at=local("08:30").isoformat(), device_time=clock.now().isoformat())
    assert status == 409 and error["code"] == "results_final", error
    day = local("09:10").strftime("%d/%m/%Y")
    assert re.fullmatch(
        rf"de uitslagen van ronde 'R1' zijn definitief sinds {day} 09:10 \(.+\): een "
        r"uitgespeelde hole kan niet meer worden toegevoegd; het comité heropent ze eerst, met "
        r"een reden \(pace round reopen\)", error["translation"]), error  # fmt: skip


def test_a_socket_refusal_is_said_in_the_connections_language(app, grant):
    from flask_socketio import SocketIOTestClient

    socketio = app.extensions["pace"].socketio
    sio = socketio.test_client(app, headers={"Accept-Language": "nl-BE"},
                               auth={"token": grant("committee"), "device": "desk"})  # fmt: skip
    try:
        ack = sio.emit("change_start", {"id": str(uuid.uuid4()), "round": ROUND, "group": "6",
                                        "start": "25:99", "reason": "file"},
                       callback=True)  # fmt: skip
    finally:
        sio.disconnect()
        SocketIOTestClient.clients.pop(sio.eio_sid, None)
    assert ack["error"]["message"] == "start '25:99' is not a time of day such as 08:40"
    assert ack["error"]["translation"] == "starttijd '25:99' is geen tijdstip zoals 08:40"


def test_the_default_tees_refusal_keeps_the_shared_shape_in_english(desk):
    # a parser's sentence, translated by the problems' catalogue on a French page only
    answer = desk.post("/api/rounds/preview", data=form(tees="kinderen=Rood"))
    assert set(answer.get_json()["error"]) == {"code", "message", "field"}
    answer = desk.post("/api/rounds/preview", data=form(tees="kinderen=Rood"), headers=FRENCH)
    assert answer.get_json()["error"]["translation"].startswith("départs par défaut pour")


def test_a_french_page_chosen_with_lang_or_its_cookie_reads_french(desk):
    desk.set_cookie("pace_lang", "fr")
    _, error = command(desk, "change_swap", player="Luc Côté", other="Luc Côté", reason="x")
    assert error["translation"] == (
        "Luc Côté ne peut pas être échangé avec Luc Côté : nommez deux joueurs"
    )
    _, error = command(desk, "change_start", FRENCH, group="1", start="09:00", reason="x")
    assert error["translation"].startswith(
        "la partie 1 a terminé le trou 1 à 08:12:00 : son heure de départ ne peut plus changer"
    )


def form(**fields) -> dict:
    draw = fields.pop("draw", "group,start,tee,player\n1,09:00,1,Ann Ash\n")
    return {"csrf": "tok", "round": "Voorjaarsbeker", "course": "Golf de Louiseville",
            "date": "2026-06-20", "timezone": "Europe/Brussels", "policy": "frbg",
            "format": "individual", "net": "gross",
            "draw": (io.BytesIO(draw.encode()), "startlijst.csv"), **fields}  # fmt: skip


#: the new round's form with a bad field: (field, value, the Dutch)
ROUND_FORM = [
    ("round", "R1", "ronde 'R1' bestaat al; kies een andere naam (haar startlijst wijzig je op "
     "de dag zelf op haar pagina met wijzigingen)"),
    ("round", "", "naam van de ronde: dit veld mag niet leeg zijn"),
    ("date", "20/06/2026", "datum '20/06/2026' is geen dag zoals 2026-06-14"),
    ("date", "1999-06-20", "datum '1999-06-20' is geen aannemelijke dag"),
    ("timezone", "Europe/Gent", "tijdzone 'Europe/Gent': verwacht een IANA-tijdzone zoals "
     "Europe/Brussels"),
    ("allowance", "veel", "handicapverrekening 'veel' is geen percentage zoals 85 (greensome: "
     "60/40)"),
    ("allowance", "60/40", "formule 'individual' neemt 1 handicapverrekening(en) "
     "(stroke_play), niet 2"),
    ("scoring", "putts", "telling 'putts': verwacht een van stroke, stableford, match, bogey, "
     "par"),
    ("net", "half", "netto of bruto: verwacht netto of bruto"),
    ("course", "Nergens", "baan 'Nergens' bestaat niet; importeer ze eerst"),
    ("draw", None, "kies het CSV-bestand van de startlijst"),
]  # fmt: skip


@pytest.mark.parametrize(("field", "value", "dutch"), ROUND_FORM,
                         ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(ROUND_FORM)])  # fmt: skip
def test_the_new_round_forms_refusal_is_said_in_dutch(desk, app, field, value, dutch):
    data = form(**{field: value}) if value is not None else {
        k: v for k, v in form().items() if k != field}  # fmt: skip
    answer = desk.post("/api/rounds/preview", data=data, headers=DUTCH)
    error = answer.get_json()["error"]
    assert answer.status_code >= 400, error
    # a course that is not stored is the store's refusal, which names no field
    assert error["field"] == (None if field == "course" else field), error
    assert error["translation"] == dutch, error
    assert [r.name for r in app.extensions["pace"].store.list_rounds()] == [ROUND]


def test_the_scoring_a_form_of_play_contradicts_is_said_in_french(desk):
    answer = desk.post("/api/rounds/preview", data=form(play="stroke_play", scoring="match"),
                       headers=FRENCH)  # fmt: skip
    error = answer.get_json()["error"]
    assert error["translation"] == (
        "le décompte 'match' se joue en match play ; la forme de jeu 'stroke_play' le contredit "
        "(laissez --play de côté)"
    )


def test_a_refused_files_problems_name_their_field_by_its_label(desk):
    draw = "group,start,tee,player,language,gender\n1,negen,1,Ann,de,X\n"
    answer = desk.post("/api/rounds/preview", data=form(draw=draw), headers=DUTCH)
    found = answer.get_json()["problems"]
    assert [(p["field"], p["field_label"]) for p in found] == [
        ("start", "starttijd"), ("gender", "geslacht"), ("language", "taal")]  # fmt: skip
    answer = desk.post("/api/rounds/preview", data=form(draw=draw), headers=FRENCH)
    labels = [p["field_label"] for p in answer.get_json()["problems"]]
    assert labels == ["heure de départ", "sexe", "langue"]
    # a column pace does not know keeps its name; English says the field as the file does
    answer = desk.post("/api/rounds/preview", data=form(draw=draw))
    assert [p["field_label"] for p in answer.get_json()["problems"]] == [
        "start", "gender", "language"]  # fmt: skip


def test_the_round_language_forms_refusal_page_gives_the_reason_in_the_pages_language(desk):
    answer = desk.post(f"/rounds/{ROUND}/language", data={"csrf": "tok", "language": "de"},
                       headers={**DUTCH, "Accept": "text/html"})  # fmt: skip
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and 'lang="nl"' in page
    assert "taal &#39;de&#39;: verwacht een van fr, en, nl" in page
    assert "expected one of" not in page


# -- the mechanism ---------------------------------------------------------------------------


def test_a_sentence_is_said_with_its_values_each_in_the_language():
    from pace.rules.errors import Label, said

    sentence = said(
        "refusal.time.wrong_day", "{at} is not on the round's day ({day})",
        at=datetime(2026, 6, 21, 9, 20, tzinfo=local("09:00").tzinfo), day=date(2026, 6, 20),
    )  # fmt: skip
    assert str(sentence) == "2026-06-21 09:20 is not on the round's day (2026-06-20)"
    assert pages.say(sentence, "nl") == (
        "21/06/2026 09:20 valt niet op de dag van de ronde (20/06/2026)"
    )
    number = said("refusal.payload.range", "{field} {value} is out of range {lo}–{hi}",
                  field=Label("handicap"), value=60.5, lo=1, hi=54)  # fmt: skip
    assert str(number) == "handicap 60.5 is out of range 1–54"
    assert pages.say(number, "fr") == "handicap 60,5 est hors des limites 1–54"
    # a field the catalogue has no label for keeps its name
    assert pages.field_label("colour_code", "nl") == "colour_code"


def test_a_refusal_without_a_sentence_carries_no_translation():
    from pace.web.errors import refusal_body

    body = refusal_body(PaceError("something only English says", code="x"), "nl")
    assert body == {"ok": False, "error": {"code": "x", "message": "something only English says",
                                           "field": None}}  # fmt: skip


def test_the_catalogue_finds_every_said_sentence_of_the_code():
    found = {key: english for key, english, _ in catalog.sentences()}
    assert found["refusal.form.not_clock"] == "{field} {value} is not a time of day such as 08:40"
    assert found["refusal.change.start_played"].startswith("group {group} completed hole")
    contexts = {context for context, _, _ in catalog.sources()}
    assert {"refusal.form.not_clock", "field.language"} <= contexts
    # every sentence is said the same everywhere: one key, one English
    assert all(re.fullmatch(r"refusal\.[\w.]+", key) for key in found)


def test_one_key_said_with_two_englishes_is_a_problem_of_the_catalogue(monkeypatch):
    original = catalog.sentences

    def twice():
        return [*original(), ("refusal.form.not_clock", "another English", "pace/x.py")]

    monkeypatch.setattr(catalog, "sentences", twice)
    assert any("'refusal.form.not_clock' is said with 2 Englishes" in p
               for p in catalog.problems())  # fmt: skip

"""The console's file problems in the page's language (issue 28): a draw CSV's and the course
form's problems come out in French on the French pages (``Accept-Language: fr`` or
``?lang=fr``), from the gettext catalogue, with the same values, line and field; the CLI's
line (``text``) stays as ``pace import`` prints it. Every problem a corpus of bad files
raises is a sentence the catalogue knows, so a parser's sentence changed without its
translation fails here.

Round R1 of the shared test data on a real SQLite file; the clock at 09:10 local.
"""

from __future__ import annotations

import io
import json
import re
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from drivers import COURSE

from pace import formats
from pace.formats import geometry, mapfile
from pace.rules.errors import FileFormatError, SetupError
from pace.web.committee import problems

FRENCH = {"Accept-Language": "fr-BE,fr;q=0.9,en;q=0.5"}


@pytest.fixture
def desk(client):
    """The committee's test client with a form token in its session."""
    with client.session_transaction() as s:
        s["csrf"] = "tok"
    return client


def draw_form(text: str) -> dict:
    return {"csrf": "tok", "round": "Spring cup", "course": "Golf de Louiseville",
            "date": "2026-06-20", "timezone": "Europe/Brussels", "policy": "frbg",
            "format": "individual", "net": "gross",
            "draw": (io.BytesIO(text.encode()), "draw.csv")}  # fmt: skip


BAD_DRAW = "group,start,tee,player,handicap\n1,soon,1,Ann,10\n1,08:00,99,Bea,x\n2,08:10,1,,\n"


@pytest.mark.parametrize(
    "how", [{"headers": FRENCH}, {"query_string": {"lang": "fr"}}], ids=["accept", "lang"]
)
def test_a_refused_draws_problems_are_in_french_on_the_french_page(desk, app, how):
    answer = desk.post("/api/rounds/preview", data=draw_form(BAD_DRAW), **how)
    assert answer.status_code == 400
    found = answer.get_json()["problems"]
    assert [(p["line"], p["field"], p["message"]) for p in found] == [
        (2, "start", "le départ 'soon' n'est pas une heure ; attendu : HH:MM"),
        (3, "tee", "le trou de départ 99 n'existe pas sur ce parcours ; ses trous sont 1–18"),
        (3, "handicap", "le handicap 'x' n'est pas un index ; attendu : un nombre comme 12.4 "
         "ou 12,4 (+2.1 pour un handicap plus), ou rien"),
        (4, "player", "le joueur est vide ; attendu : le nom du joueur"),
    ]  # fmt: skip
    # the CLI's line is the one `pace import draw` prints
    assert found[0]["text"] == "draw.csv, line 2, field 'start': start 'soon' is not a time; " \
        "expected HH:MM"  # fmt: skip
    assert not app.extensions["pace"].store.has_round("Spring cup")


@pytest.mark.parametrize(
    "how", [{"headers": {"Accept-Language": "nl-BE"}}, {"query_string": {"lang": "nl"}}],
    ids=["accept", "lang"],
)
def test_a_refused_draws_problems_are_in_dutch_on_the_dutch_page(desk, app, how):
    # issue 41: a Flemish committee reads the problems in Dutch (nl-BE alone is Dutch)
    answer = desk.post("/api/rounds/preview", data=draw_form(BAD_DRAW), **how)
    found = answer.get_json()["problems"]
    assert [(p["line"], p["field"], p["message"]) for p in found] == [
        (2, "start", "start 'soon' is geen tijd; verwacht UU:MM"),
        (3, "tee", "tee 99 bestaat niet op deze baan; de holes zijn 1–18"),
        (3, "handicap", "handicap 'x' is geen handicapindex; verwacht een getal zoals 12.4 of "
         "12,4 (+2.1 voor een plushandicap), of niets"),
        (4, "player", "player is leeg; verwacht de naam van de speler"),
    ]  # fmt: skip
    assert not app.extensions["pace"].store.has_round("Spring cup")


#: issue 47: a Flemish start list (Louiseville has no tee sets)
STARTLIJST = (
    "Flight;Starttijd;Afslag;Voornaam;Naam;Geslacht;Exact HCP;Opmerking\n"
    "1;08:30;1;Jan;Peeters;M;12,4;\n1;08:30;1;Els;Maes;V;20,1;snel\n"
)


@pytest.mark.parametrize(
    ("lang", "example"),
    [("en", "men=Yellow, women=Red"), ("fr", "messieurs=Jaune, dames=Rouge"),
     ("nl", "heren=Geel, dames=Rood")],
)  # fmt: skip
def test_the_default_tees_example_is_in_the_pages_language(desk, lang, example):
    page = desk.get("/rounds/new", query_string={"lang": lang}).get_data(as_text=True)
    assert f'name="tees" maxlength="200" placeholder="{example}"' in page


def test_a_flemish_start_list_is_previewed_with_its_note_in_dutch(desk):
    answer = desk.post("/api/rounds/preview", data=draw_form(STARTLIJST),
                       query_string={"lang": "nl"})  # fmt: skip
    body = answer.get_json()
    assert answer.status_code == 200, body
    [group] = body["groups"]
    assert [(p["name"], p["gender"], p["handicap"]) for p in group["players"]] == [
        ("Jan Peeters", "men", 12.4), ("Els Maes", "women", 20.1)]  # fmt: skip
    assert body["notes"] == [
        "draw.csv, regel 1: kolom 'Opmerking' genegeerd (geen kolom van dit bestand; zijn "
        "kolommen zijn group, start, tee, player, first_name, last_name, handicap, side, club, "
        "class, match, tees, gender, language, member)"
    ]


def test_a_flemish_afslag_of_holes_and_colours_and_bad_default_tees_are_refused_in_dutch(desk):
    mixed = STARTLIJST.replace("1;08:30;1;Els", "1;08:30;Geel;Els")
    answer = desk.post("/api/rounds/preview", data=draw_form(mixed), query_string={"lang": "nl"})
    [problem] = answer.get_json()["problems"]
    assert (problem["line"], problem["field"]) == (1, "tee")
    assert problem["message"].startswith("kolom 'Afslag' (kolom 3) kan 'tee' of 'tees' zijn")
    form = {**draw_form(STARTLIJST), "tees": "kinderen=Rood"}
    answer = desk.post("/api/rounds/preview", data=form, query_string={"lang": "nl"})
    assert answer.status_code == 400
    # the sentence in the page's language beside the English one (issue 47: ``translation``)
    assert answer.get_json()["error"] == {
        "code": "invalid_setup", "field": "tees",
        "message": "default tees for 'kinderen': 'kinderen' is neither a gender (men, women) nor "
        "a class (AA, A, BB, B)",
        "translation": "standaardafslagplaats voor 'kinderen': 'kinderen' is geen geslacht "
        "(heren, dames) en geen klasse (AA, A, BB, B)"}  # fmt: skip


def test_a_refused_draws_problems_stay_in_english_on_the_english_page(desk):
    answer = desk.post("/api/rounds/preview", data=draw_form(BAD_DRAW),
                       headers={"Accept-Language": "en"})  # fmt: skip
    messages = [p["message"] for p in answer.get_json()["problems"]]
    assert messages[0] == "start 'soon' is not a time; expected HH:MM"


def test_the_course_forms_problems_are_in_french_beside_their_fields(desk, app):
    holes = [{"par": 4, "stroke_index": i + 1} for i in range(9)]
    holes[2]["par"] = "x"
    holes[4]["stroke_index"] = 1  # also hole 1's
    form = {"name": "Pine Hills", "hole_count": 9, "slope": 300, "holes": holes}
    answer = desk.post("/api/courses", data={"csrf": "tok", "course": json.dumps(form)},
                       headers=FRENCH)  # fmt: skip
    assert answer.status_code == 400
    by_field = {p["form_field"]: p["message"] for p in answer.get_json()["problems"]}
    assert by_field["holes.2.par"] == (
        "trou 3 : le par 'x' n'est pas admis ; attendu : 3, 4 ou 5 (2 et 6 acceptés avec une note)"
    )
    # said in the form's words: a form user has no line of the TOML text (issue 38)
    assert by_field["holes.4.stroke_index"] == (
        "trou 5 : le stroke index 1 est aussi donné à trou 1 ; chaque index sert une fois"
    )
    assert by_field["slope"].startswith("le slope 300 n'est pas un slope ; attendu : un nombre de")
    assert all(c.name != "Pine Hills" for c in app.extensions["pace"].store.list_courses())


# -- every problem of the corpus is a sentence the catalogue knows ---------------------------

DRAWS = [
    "group,start,tee,player,handicap,class\n1,soon,1,Ann,x,ZZ\n1,,,,,\n,08:00,1,Bob,,\n"
    "2,08:10,one,Cy,,\n2,08:10,99,Di,,\n3,08:20,1,Ann,,\n4,08:30,1,Ed,,\n4,08:40,2,Ed,,\n",
    "group,start,tee,player\n",
    "group,start,player\n1,08:00,Ann\n",
    "group,start,tee,player\n1,08:00,1,Ann,extra\n",
]
COURSES = [
    'name = ""\nslope = 300\nrating = "x"\n[[holes]]\npar = 9\nstroke_index = 30\n'
    'length_m = -1\nwalk_min = "a"\nbogey = 1\n' + "[[holes]]\nnumber = 2\npar = 4\n" * 8,
    "[[holes]]\nnumber = 1\n"
    + "".join(f"[[holes]]\nnumber = {i}\npar = 4\nstroke_index = 1\n" for i in range(2, 10)),
    f'name = "{"x" * 300}"\n'
    + "".join(f"[[holes]]\nnumber = {i}\npar = 4\n" for i in range(1, 10)),
    'name = "C"\n' + "".join(f"[[holes]]\nnumber = {i}\npar = 4\n" for i in (*range(1, 9), 99)),
    'name = "C"\n' + "".join(f"[[holes]]\nnumber = {i}\npar = 4\n" for i in range(1, 8)),
    'name = "C"\nhole_count = 6\n'
    + "".join(f"[[holes]]\nnumber = {i}\npar = 4\n" for i in range(1, 8)),
]


#: draws on a course with tee sets (issue 38): a gender that is none, tees it lacks, a woman on
#: tees not rated for women, with tees given and without (the first tee set)
TEES_COURSE = 'name = "T"\n[[tees]]\nname = "Yellow"\n[[tees]]\nname = "Red"\n' \
    'women_slope = 120\nwomen_rating = 37.0\n' + "".join(
        f"[[holes]]\nnumber = {i}\npar = 4\n" for i in range(1, 10))
#: nine good holes, under a course's bad tee sets
NINE = "".join(f"[[holes]]\nnumber = {i}\npar = 4\nstroke_index = {i}\n" for i in range(1, 10))
TEES_COURSES = [
    'name = "T"\nslope = 120\n'
    '[[tees]]\nname = ""\n'
    '[[tees]]\nname = "Y"\ncolour = 5\nslope = 300\nwomen_rating = "x"\npar = [4, 4]\n'
    'stroke_index = "x"\nlength_m = { 30 = 1 }\n'
    '[[tees]]\nname = "Z"\npar = { 2 = 9 }\nstroke_index = { 1 = 99 }\nlength_m = { 1 = -1 }\n'
    '[[tees]]\nname = "W"\nstroke_index = { 1 = 2 }\n'
    '[[tees]]\nname = "Q"\n[[tees]]\nname = "q"\n' + NINE,
    'name = "T"\ntees = []\n' + NINE,
    'name = "T"\ntees = 5\n' + NINE,
    'name = "T"\n' + "".join(f'[[tees]]\nname = "T{i}"\n' for i in range(13)) + NINE,
    'name = "T"\ntees = [{ name = "A" }, { name = "a" }]\n' + NINE,
]
TEES_DRAWS = [
    "group,start,tee,player,gender,tees\n1,08:00,1,Ann,X,\n1,08:00,1,Bo,M,Pink\n"
    "1,08:00,1,Cy,F,Yellow\n1,08:00,1,Di,F,\n",
    # issue 41: a letter language pace has no catalogue for
    "group,start,tee,player,taal\n1,08:00,1,Ann,Deutsch\n",
    # issue 47: a Flemish "afslag" whose cells are neither all holes nor all tee sets, and a
    # column given twice
    "flight;starttijd;afslag;speler\n1;08:00;1;An\n1;08:00;Geel;Bo\n",
    "flight;starttijd;hole;speler;naam\n1;08:00;1;An;An\n",
]


def _features(*features: object) -> bytes:
    return json.dumps({"type": "FeatureCollection", "features": list(features)}).encode()


def _hole(ref: object = "1", coords: object = ((4.0, 50.0), (4.0, 50.003)), **props: object):
    return {"type": "Feature", "properties": {"golf": "hole", "ref": ref, **props},
            "geometry": {"type": "LineString", "coordinates": coords}}  # fmt: skip


#: bad map files (issue 46) and the course's choice asked of them: every sentence of
#: pace/formats/mapfile.py and geometry.py among their problems
MAPS_DIR = Path(__file__).resolve().parents[1] / "data" / "formats" / "maps"
MAP_FILES: list[tuple[bytes, dict[str, str]]] = [
    (b"", {}),
    (bytes(range(256)), {}),
    (b" " * (6 * 1024 * 1024), {}),
    (b'<!DOCTYPE osm [<!ENTITY a "a">]><osm>&a;</osm>', {}),
    (b"<osm>" + b"<a>" * 20 + b"</a>" * 20 + b"</osm>", {}),
    (b"<gpx/>", {}),
    (b"<osm><way>", {}),
    (b'<osm><node id="1" lat="x" lon="4"/>'
     b'<way id="7"><nd ref="2"/><tag k="golf" v="hole"/></way></osm>', {}),
    (b'<osm><relation id="5"><member type="way" ref="9"/><tag k="leisure" v="golf_course"/>'
     b'<tag k="name" v="Cut"/></relation></osm>', {"map_course": "Cut"}),
    (b'{"name": "\xff"}', {}),
    (b"[" * 100_000, {}),
    (b"{", {}),
    (b'{"type": "Feature"}', {}),
    (b'{"type": "FeatureCollection", "features": {}}', {}),
    (_features(1, {"properties": [1]}, _hole([1]), {"properties": {"golf": "hole"},
               "geometry": "x"}), {}),  # fmt: skip
    (_features({"properties": {"leisure": "golf_course", "name": "L"},
                "geometry": {"type": "LineString", "coordinates": [[4, 50], [4, 51]]}},
               {"properties": {"golf": "hole"}, "geometry": {"type": "MultiLineString"}},
               _hole("1", [["4", "50"]])), {}),  # fmt: skip
    (_features(*[1] * 60), {}),
    (_features({"properties": {"leisure": "golf_course", "name": "Z"},
                "geometry": {"type": "Polygon", "coordinates": [
                    [[i * 1e-5, float(i % 2)] for i in range(2000)] + [[0.0, 0.0]]]}},
               *[_hole(str(k % 9 + 1), [[0.1, 0.5], [0.1, 0.6]]) for k in range(1100)]),
     {}),  # fmt: skip
    (_features(_hole("1"), _hole("1"), _hole(None), _hole("19"), _hole("3", [[4, 50]]),
               _hole("2", par="5")), {}),  # fmt: skip
    ((MAPS_DIR / "melbourne.geojson").read_bytes(), {}),
    ((MAPS_DIR / "melbourne.geojson").read_bytes(), {"map_course": "Composite"}),
    ((MAPS_DIR / "melbourne.geojson").read_bytes(), {"ref_pattern": "W"}),
    ((MAPS_DIR / "melbourne.geojson").read_bytes(), {"ref_pattern": "*N"}),
    ((MAPS_DIR / "melbourne.geojson").read_bytes(), {"ref_pattern": "*W", "map_course": "X"}),
]


def map_corpus() -> list[str]:
    """Return the problems the bad map files raise, and the refusal of an upload cut off."""
    course = formats.load_course(str(MAPS_DIR / "course_nine.toml"))
    found = [p.message for p in mapfile.size_problem(None, "f").problems]  # type: ignore[union-attr]
    for data, choice in MAP_FILES:
        with pytest.raises(FileFormatError) as e:
            geometry.match_map(data, "m", course, **choice)
        found += [p.message for p in e.value.problems]
    return found


def corpus() -> list[str]:
    """Return the problems the corpus's bad draws and courses raise (the parsers' sentences)."""
    course = formats.parse_course(COURSE.read_text(encoding="utf-8"), "c.toml")
    tees = formats.parse_course(TEES_COURSE, "t.toml")
    found = []
    draws = [(text, course) for text in (*DRAWS, "group,start,tee,player,tees\n1,08:00,1,A,Red\n")]
    for text, on in (*draws, *((text, tees) for text in TEES_DRAWS)):
        with pytest.raises(FileFormatError) as e:
            formats.parse_draw(text, "d.csv", day=date(2026, 6, 14), tz=ZoneInfo("UTC"),
                               course=on)  # fmt: skip
        found += [p.message for p in e.value.problems]
    # the note naming the columns a draw's reader ignores (issue 47), one and several
    for text in ("Flight;Starttijd;Afslag;Speler;Opmerking\n1;08:00;1;An;x\n",
                 "group,start,tee,player,x,y\n1,08:00,1,An,x,y\n"):  # fmt: skip
        notes: list[str] = []
        formats.parse_draw(text, "d.csv", day=date(2026, 6, 14), tz=ZoneInfo("UTC"), notes=notes)
        found += notes
    # the round's default tees (issue 47): a key that is no gender, tees the course lacks
    for defaults, on in (({"kids": "Red"}, tees), ({"heren": "Pink"}, tees),
                         ({"dames": "Rood"}, course)):  # fmt: skip
        with pytest.raises(SetupError) as setup:
            formats.check_tee_defaults(defaults, on)
        found.append(setup.value.message)
    with pytest.raises(ValueError) as bad:
        formats.parse_tee_defaults("heren Geel")
    found.append(f"tees: {bad.value}")  # as the console's form says it
    for text in (*COURSES, *TEES_COURSES):
        with pytest.raises(FileFormatError) as e:
            formats.parse_course(text, "c.toml")
        found += [p.message for p in e.value.problems]
    return found + map_corpus()


def test_every_problem_of_a_bad_draw_course_or_map_is_translated():
    found = corpus()
    untranslated = [m for m in found if problems.translate(m, "fr") == m]
    assert untranslated == []
    assert [m for m in found if problems.translate(m, "nl") == m] == []
    # and every sentence of the catalogue is one a parser writes (none left over)
    known = {key: pattern for key, _, pattern in problems.sentences()}
    unused = [k for k, pattern in known.items() if not any(pattern.fullmatch(m) for m in found)]
    assert unused == []
    # a place named in a sentence is translated too, and no English word is left of it
    french = [problems.translate(m, "fr") for m in found]
    # (OpenStreetMap's tags, golf=hole, stay as they are written in the file)
    english = re.compile(r"(?<!golf=)hole |table 1:|on line")
    assert not [m for m in french if english.search(m)]

"""Start lists as Belgian, French and English club software exports them (issue 47): Dutch,
French and English headers, M/V genders, tee colours and default tees in three languages, and
a header that could be two columns refused by line and column when its cells cannot say."""

from __future__ import annotations

from datetime import UTC, date
from pathlib import Path

import pytest

from pace import formats
from pace.formats import csvfile
from pace.formats import draw as draw_format
from pace.rules import model
from pace.rules.errors import FileFormatError

GOLDEN = Path(__file__).parents[2] / "golden" / "results"
#: Yellow (colour "yellow"), Red (women rated) and Blue tee sets
MIXED = (GOLDEN / "b_mixed_tees_stableford" / "course.toml").read_text(encoding="utf-8")
DAY = date(2026, 6, 13)

#: a Flemish club's export: BOM, semicolons, Dutch headers, split names, M/V, a decimal comma,
#: columns pace does not keep (the member's number), and no tee colour for most players
FLEMISH = (
    "\ufeffFlight;Starttijd;Afslag;Voornaam;Naam;Geslacht;Exact HCP;Lidnummer;Club;Afslagkleur\n"
    "1;08:30;1;Jan;Peeters;M;12,4;1234567;Royal Waterloo GC;\n"
    "1;08:30;1;Els;Maes;V;20,1;1234568;Keerbergen GC;\n"
    "1;08:30;1;Lotte;Claes;vrouw;31;1234569;Keerbergen GC;Geel\n"
    "2;08:40;1;Pieter;Janssens;man;+1,2;1234570;Rigenée;Blauw\n"
)


def course() -> model.Course:
    return formats.parse_course(MIXED, "mixed.toml")


def draw(text: str, **kw) -> tuple[model.Group, ...]:
    return formats.parse_draw(text, "startlijst.csv", day=DAY, tz=UTC, **kw)


def players(groups) -> list[tuple[str, str, float | None, str | None, str | None, str | None]]:
    return [(g.id, p.name, p.handicap, p.gender, p.tees, p.club) for g in groups for p in g.players]


def test_a_flemish_start_list_is_read_with_its_dutch_defaults():
    notes: list[str] = []
    defaults = formats.check_tee_defaults(formats.parse_tee_defaults("heren=Geel, dames=Rood"),
                                          course())  # fmt: skip
    assert defaults == {"men": "Yellow", "women": "Red"}
    groups = draw(FLEMISH, course=course(), tee_defaults=defaults, notes=notes)
    assert players(groups) == [
        ("1", "Jan Peeters", 12.4, "men", "Yellow", "Royal Waterloo GC"),
        ("1", "Els Maes", 20.1, "women", "Red", "Keerbergen GC"),
        ("1", "Lotte Claes", 31.0, "women", "Yellow", "Keerbergen GC"),
        ("2", "Pieter Janssens", -1.2, "men", "Blue", "Rigenée"),
    ]
    assert [(g.tee, g.start.strftime("%H:%M")) for g in groups] == [(1, "08:30"), (1, "08:40")]
    assert notes == []  # every column known, the member's number too


def test_a_woman_on_dutch_named_tees_without_womens_rating_is_refused_by_line():
    text = FLEMISH.replace(";Geel\n", ";Blauw\n")
    with pytest.raises(FileFormatError) as e:
        draw(text, course=course())
    (problem,) = e.value.problems
    assert (problem.line, problem.field) == (4, "tees")
    assert "Lotte Claes (women) plays from tees 'Blue'" in problem.message


@pytest.mark.parametrize(
    ("header", "field"),
    [
        # Dutch
        ("flight", "group"), ("Groep", "group"), ("partij", "group"), ("Flight nr.", "group"),
        ("Starttijd", "start"), ("tijd", "start"), ("Start", "start"), ("Start tijd", "start"),
        ("Speler", "player"), ("naam", "player"), ("Achternaam", "last_name"),
        ("Voornaam", "first_name"), ("geslacht", "gender"), ("M/V", "gender"),
        ("Starthole", "tee"), ("Hole", "tee"), ("Afslagkleur", "tees"), ("Teebox", "tees"),
        ("hcp", "handicap"), ("Handicap", "handicap"), ("Exact Hcp", "handicap"),
        ("HCP-index", "handicap"), ("Lidnummer", "member"), ("Federatienummer", "member"),
        ("club", "club"), ("Klasse", "class"), ("taal", "language"), ("Ploeg", "side"),
        # French
        ("Partie", "group"), ("Heure de départ", "start"), ("Trou de départ", "tee"),
        ("Joueur", "player"), ("Prénom", "first_name"), ("Nom de famille", "last_name"),
        ("Sexe", "gender"), ("H/F", "gender"), ("Boules", "tees"), ("Index", "handicap"),
        ("N° de licence", "member"), ("Catégorie", "class"), ("Équipe", "side"),
        # English
        ("Group", "group"), ("Tee time", "start"), ("Starting hole", "tee"),
        ("Player name", "player"), ("First name", "first_name"), ("Last name", "last_name"),
        ("Gender", "gender"), ("Tee colour", "tees"), ("Handicap index", "handicap"),
        ("Member number", "member"), ("Home club", "club"), ("Team", "side"),
    ],
    ids=lambda v: v,
)  # fmt: skip
def test_a_header_in_any_of_paces_languages_names_its_column(header, field):
    by_key = {csvfile.header_key(a): c.name for c in draw_format.COLUMNS
              for a in (c.name, *c.aliases)}  # fmt: skip
    assert by_key[csvfile.header_key(header)] == field


@pytest.mark.parametrize(
    ("text", "gender"),
    [("M", "men"), ("V", "women"), ("v", "women"), ("man", "men"), ("Vrouw", "women"),
     ("heren", "men"), ("Dames", "women"), ("H", "men"), ("F", "women"), ("homme", "men"),
     ("femme", "women"), ("messieurs", "men"), ("male", "men"), ("Female", "women"),
     ("women", "women"), ("Men", "men"), ("Dhr.", "men"), ("Mevr.", "women"),
     ("Féminin", "women")],
    ids=lambda v: v,
)  # fmt: skip
def test_every_gender_a_club_writes_is_read(text, gender):
    assert draw_format.parse_gender(text) == gender


@pytest.mark.parametrize(
    ("text", "tees"),
    [("Geel", "Yellow"), ("jaune", "Yellow"), ("Gele tee", "Yellow"), ("Rood", "Red"),
     ("Rouge", "Red"), ("les boules rouges", "Red"), ("Blauw", "Blue"), ("bleues", "Blue"),
     ("yellow", "Yellow"), ("RED", "Red")],
    ids=lambda v: v,
)  # fmt: skip
def test_a_tee_colour_in_any_language_finds_the_courses_tees(text, tees):
    assert course().find_tees(text).name == tees


def test_tees_named_in_french_are_found_in_dutch_and_english():
    c = model.Course(
        "c",
        (model.Hole(1, 4, 1),),
        tees=(model.TeeSet("Jaunes"), model.TeeSet("Rouges", women_rating=70.0)),
    )
    assert c.find_tees("Geel").name == "Jaunes" and c.find_tees("red").name == "Rouges"
    assert c.find_tees("Wit") is None
    # two tee sets of one colour: the colour alone names neither
    two = model.Course(
        "c", (model.Hole(1, 4, 1),), tees=(model.TeeSet("Yellow"), model.TeeSet("Jaune 2", "jaune"))
    )
    assert two.find_tees("Geel") is None and two.find_tees("Yellow").name == "Yellow"


@pytest.mark.parametrize(
    "text",
    ["heren=Geel, dames=Rood", "messieurs=Jaune; dames=Rouge", "men=Yellow, women=Red",
     "Heren = geel , Dames = rood"],
)  # fmt: skip
def test_default_tees_in_three_languages_are_the_same_defaults(text):
    defaults = formats.check_tee_defaults(formats.parse_tee_defaults(text), course())
    assert defaults == {"men": "Yellow", "women": "Red"}


def test_an_afslag_column_is_the_starting_hole_or_the_tee_set_by_its_cells():
    # "Afslag" of hole numbers is the starting hole ...
    (group,) = draw("Flight;Starttijd;Afslag;Speler\n1;08:00;10;An Peeters\n")
    assert group.tee == 10
    # ... of colours, beside a hole column, the tee set played
    (group,) = draw("Flight;Starttijd;Hole;Afslag;Speler\n1;08:00;1;Geel;An Peeters\n",
                    course=course())  # fmt: skip
    assert (group.tee, group.players[0].tees) == (1, "Yellow")
    # and "Départ" of times is the start, beside a "Trou" column
    (group,) = draw("Partie;Départ;Trou;Joueur\n1;08h10;1;Anne\n")
    assert group.start.strftime("%H:%M") == "08:10"


def test_an_afslag_column_of_holes_and_colours_is_refused_naming_its_column():
    text = "Flight;Starttijd;Afslag;Speler\n1;08:00;1;An\n1;08:00;Geel;Bo\n"
    with pytest.raises(FileFormatError) as e:
        draw(text)
    (problem,) = e.value.problems
    assert (problem.line, problem.field) == (1, "tee")
    assert problem.message.startswith("column 'Afslag' (column 3) may be 'tee' or 'tees'")
    assert "'Geel' on line 3" in problem.message and "'1' on line 2" in problem.message


def test_a_bad_dutch_gender_names_its_line_and_the_spellings_read():
    text = "Flight;Starttijd;Afslag;Speler;Geslacht\n1;08:00;1;An;X\n"
    with pytest.raises(FileFormatError) as e:
        draw(text)
    (problem,) = e.value.problems
    assert (problem.line, problem.field) == (2, "gender")
    assert "V, vrouw, heren read" in problem.message


@pytest.mark.parametrize(
    "text",
    [
        "group,start,tee,player,handicap,gender,tees\n1,08:00,1,Ann Lee,12.4,F,Red\n",
        "Groupe;Heure;Départ;Joueur;Index;Sexe;Boules\n1;08:00;1;Ann Lee;12,4;Femme;Rouges\n",
        "Partie;Heure de départ;Trou de départ;Nom;Index;Sexe;Repères\n"
        "1;8h00;1;Ann Lee;12,4;D;rouge\n",
    ],
    ids=["english", "french", "french-board"],
)
def test_english_and_french_start_lists_are_still_read(text):
    (group,) = draw(text, course=course())
    assert players([group]) == [("1", "Ann Lee", 12.4, "women", "Red", None)]


@pytest.mark.parametrize(
    ("header", "cells", "name"),
    [
        ("Voornaam;Naam", "Jan;Peeters", "Jan Peeters"),
        ("Naam;Voornaam", "Peeters;Jan", "Jan Peeters"),
        ("Voornaam;Achternaam", "Jan;Peeters", "Jan Peeters"),
        ("Nom;Prénom", "Dupont;Marie", "Marie Dupont"),
        ("Name;First name;Last name", "Ann Lee;Ann;Lee", "Ann Lee"),
        ("Last name", "Lee", "Lee"),
        ("Speler;Voornaam", "Jan Peeters;Jan", "Jan Peeters"),
    ],
    ids=lambda v: v,
)
def test_a_name_split_in_two_columns_is_the_players_whole_name(header, cells, name):
    (group,) = draw(f"Flight;Starttijd;Afslag;{header}\n1;08:00;1;{cells}\n")
    assert group.players[0].name == name


def test_a_start_list_without_any_name_column_is_refused_naming_the_player_column():
    with pytest.raises(FileFormatError) as e:
        draw("Flight;Starttijd;Afslag;Voornaam\n1;08:00;1;Jan\n")
    (problem,) = e.value.problems
    assert (problem.line, problem.field) == (1, "player")
    assert problem.message.startswith("missing column 'player' (or 'joueur')")

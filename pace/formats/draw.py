"""Draw CSV: one row per player; a group is the rows that share its id.

Format: docs/formats.md §2. Required columns ``group``, ``start``, ``tee``, ``player``;
optional ``handicap``, ``side``, ``club``, ``class`` (AA, A, BB, B), ``match`` (the match
id in match play), ``tees`` (the tee set played: ``boules``, ``repères``, ``marques``) and
``gender`` (``sexe``), ``language`` (``langue``, ``taal``: the language of the player's
letter, fr, en or nl); other columns are ignored, and named in a note. French headers are
accepted, the board's own words among them (``groupe``, ``heure``, ``départ``/``trou de
départ``, ``joueur``, ``index``, ``club``): ``départ`` alone is the start when the header
has no other start column, else the tee. A player is in one group only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, time, tzinfo

from pace.formats import csvfile, times
from pace.rules import errors, model


def _is_hole(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _is_clock(text: str) -> bool:
    try:
        times.parse_clock(text)
    except ValueError:
        return False
    return True


# Header aliases in English, French and Dutch (issue 47): what Belgian, French and Canadian
# clubs' software exports, matched with case, accents, spaces and punctuation aside
# (csvfile.header_key). A header several columns may mean (``départ``, ``afslag``) is told
# apart by its cells: a time is a start, a hole number a tee, a colour the tees.
# fmt: off
COLUMNS = (
    csvfile.Column(
        "group",
        ("groupe", "partie", "flight", "flight nr", "flight number", "group number",
         "numéro de partie", "n° partie", "n° de flight", "groep", "groepsnummer", "partij",
         "flightnummer", "flight nummer"),
        required=True,
    ),
    csvfile.Column(
        "start",
        ("départ", "heure", "heure de départ", "horaire", "start time", "tee time", "time",
         "starting time", "starttijd", "tijd", "aanvangstijd", "starttijdstip", "startuur",
         "uur"),
        required=True,
        accepts=_is_clock,
    ),
    # "départ" is also the board's word for the tee, "afslag" the Flemish word for the tee
    # and for the tee set: see csvfile._match_header
    csvfile.Column(
        "tee",
        ("trou de départ", "trou", "départ", "tee de départ", "starting tee", "starting hole",
         "start hole", "first hole", "hole", "afslag", "starthole", "starttee",
         "eerste hole", "startafslag"),
        required=True,
        accepts=_is_hole,
    ),
    csvfile.Column(
        "player",
        ("joueur", "nom", "name", "player name", "full name", "nom du joueur", "nom complet",
         "speler", "naam", "spelersnaam", "naam speler", "volledige naam"),
        required=True,
        instead=("last_name",),
    ),
    # a name split in two: the player is "first last"; and "Voornaam;Naam" (the name column
    # then holds the last name alone): see _player_name
    csvfile.Column("first_name", ("first name", "given name", "prénom", "voornaam")),
    csvfile.Column(
        "last_name",
        ("last name", "surname", "family name", "nom de famille", "achternaam", "familienaam"),
    ),
    csvfile.Column(
        "handicap",
        ("index", "hcp", "handicap index", "hcp index", "exact hcp", "exact handicap",
         "whs index", "hi", "index de handicap", "index whs", "exacte hcp", "exacte handicap",
         "handicapindex", "hcp-index"),
    ),
    csvfile.Column("side", ("équipe", "team", "side id", "ploeg")),
    csvfile.Column("club", ("home club", "club name", "club d'origine", "golfclub", "clubnaam",
                            "thuisclub")),
    csvfile.Column("class", ("classe", "catégorie", "category", "klasse", "categorie")),
    csvfile.Column("match", ("match id", "rencontre", "match nr", "matchnummer", "partij id")),
    # the tee set played (docs/formats.md §2): not "tee", the starting hole's column
    csvfile.Column(
        "tees",
        ("tee set", "tee colour", "tee color", "tee box", "teebox", "tees played",
         "boules", "boules de départ", "repères", "repères de départ", "marques",
         "marques de départ", "couleur", "couleur des boules", "couleur de départ",
         "afslag", "afslagplaats", "afslagkleur", "kleur afslag", "teekleur", "tee kleur",
         "kleur"),
        accepts=lambda text: not _is_hole(text),
    ),
    csvfile.Column("gender", ("sexe", "genre", "sex", "geslacht", "m/f", "h/f", "h/d", "m/v")),
    # the language of the player's letter (issue 41): French, Flemish and English headers
    csvfile.Column("language", ("langue", "taal", "lang", "langage", "language code")),
    # the member's federation number: read, not kept (a draw names its players)
    csvfile.Column(
        "member",
        ("member number", "membership number", "federation number", "licence", "license",
         "numéro de licence", "n° de licence", "numéro de membre", "n° de membre",
         "numéro fédéral", "lidnummer", "federatienummer", "lidnr", "federatie nummer",
         "vvg nummer", "affiliation", "aansluitingsnummer"),
    ),
)
# fmt: on

#: how the ``language`` column may be written, and the catalogue each spelling is (case aside)
LANGUAGES = {
    **dict.fromkeys(("fr", "français", "francais", "french", "frans", "f"), "fr"),
    **dict.fromkeys(("nl", "nederlands", "néerlandais", "neerlandais", "dutch", "vlaams",
                     "flamand", "flemish", "n"), "nl"),
    **dict.fromkeys(("en", "english", "anglais", "engels", "e"), "en"),
}  # fmt: skip

#: how the ``gender`` column may be written, and the gender each spelling is (case aside)
GENDERS = {
    **dict.fromkeys(("m", "h", "men", "man", "male", "gentlemen", "gents", "mr", "homme",
                     "hommes", "masculin", "messieurs", "monsieur", "heer", "heren", "mannen",
                     "mannelijk", "dhr"), model.MEN),
    **dict.fromkeys(("f", "w", "d", "v", "women", "woman", "female", "ladies", "lady", "mrs",
                     "ms", "femme", "femmes", "féminin", "feminin", "dame", "dames", "madame",
                     "vrouw", "vrouwen", "vrouwelijk", "mevrouw", "mevr"), model.WOMEN),
}  # fmt: skip

#: The classes of golf-mauricie 5, as written in the draw's ``class`` column.
CLASSES = ("AA", "A", "BB", "B")

# A plus handicap is written "+2.1" and stored as -2.1 (better than scratch), the
# convention of handicap systems; "-2.1" is read the same way.
_HANDICAP = re.compile(r"([+\-\u2212])?\s*([0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)")


def parse_language(text: str) -> str:
    """Return the language a ``language`` cell names: ``fr``, ``en`` or ``nl``.

    A region is read as its language (``nl-BE``, ``fr_BE``).

    >>> parse_language("NL-be"), parse_language(" Français "), parse_language("Vlaams")
    ('nl', 'fr', 'nl')
    """
    key = " ".join(text.casefold().split())
    found = LANGUAGES.get(key) or LANGUAGES.get(re.split(r"[-_]", key)[0])
    if found is None:
        raise ValueError(f"{text!r} is not a language")
    return found


def parse_gender(text: str) -> str:
    """Return the gender a ``gender`` cell names: ``men`` or ``women``.

    Case, accents and a final dot aside: ``M``, ``V``, ``Vrouw``, ``Heren``, ``Féminin``,
    ``Dhr.`` (issue 47: a Flemish start list writes M and V).

    >>> parse_gender("F"), parse_gender(" Homme "), parse_gender("Dames"), parse_gender("V")
    ('women', 'men', 'women', 'women')
    """
    gender = GENDERS.get(" ".join(text.casefold().split()).rstrip("."))
    if gender is None:
        gender = GENDERS.get(csvfile.normalize_header(text).rstrip("."))
    if gender is None:
        raise ValueError(f"{text!r} is not a gender")
    return gender


def parse_tee_defaults(text: str) -> dict[str, str]:
    """Return the default tees an option writes ``men=Yellow,women=Red,B=Red``, unchecked
    (:func:`check_tee_defaults` checks them against the course); raise ``ValueError``.

    Parts are separated by ``,`` or ``;``; the keys and tees in any of pace's languages
    (``heren=Geel, dames=Rood``, ``messieurs=Jaune; dames=Rouge``).

    >>> parse_tee_defaults("men=Yellow, women = Red")
    {'men': 'Yellow', 'women': 'Red'}
    >>> parse_tee_defaults("heren=Geel; dames=Rood")
    {'heren': 'Geel', 'dames': 'Rood'}
    """
    out: dict[str, str] = {}
    for part in re.split(r"[,;]", text):
        if not part.strip() and out:
            continue  # a final separator
        key, sep, tees = part.partition("=")
        if not sep or not key.strip() or not tees.strip():
            raise ValueError(
                f"{part.strip()[:40]!r} is not GENDER=TEES or CLASS=TEES; expected e.g. "
                "men=Yellow,women=Red"
            )
        out[key.strip()] = tees.strip()
    return out


def check_tee_defaults(
    defaults: Mapping[str, str], course: model.Course | None, field: str = "tees"
) -> dict[str, str]:
    """Return a round's default tees by gender or class (``{"men": "Yellow", "women":
    "Red", "B": "Red"}``) with the keys read as the draw reads them and the tees as the
    course names them; raise ``SetupError`` for a key or tees that are not.

    >>> check_tee_defaults({"Dames": "red", "b": "Red"}, None)
    {'women': 'red', 'B': 'Red'}
    """
    out: dict[str, str] = {}
    for key, tees in defaults.items():
        if not isinstance(key, str) or not isinstance(tees, str) or not tees.strip():
            raise errors.SetupError(
                f"default tees {str(key)[:40]!r} = {str(tees)[:40]!r}: expected a gender (men, "
                "women) or a class (AA, A, BB, B) and the name of a tee set",
                field=field,
            )
        name = key.strip().upper() if key.strip().upper() in CLASSES else None
        if name is None:
            try:
                name = parse_gender(key)
            except ValueError:
                raise errors.SetupError(
                    f"default tees for {key[:40]!r}: {key[:40]!r} is neither a gender (men, "
                    "women) nor a class (AA, A, BB, B)",
                    field=field,
                ) from None
        if course is not None:
            found = _find_tees(course, tees)
            if found is None:
                raise errors.SetupError(
                    f"default tees for {key[:40]!r}: {_tees_problem(course, tees)}", field=field
                )
            tees = found.name
        out[name] = tees.strip()
    return out


def _find_tees(course: model.Course, text: str) -> model.TeeSet | None:
    """Return the course's tee set named (or coloured) ``text``, None if it has none."""
    return course.find_tees(text)


def _tees_problem(course: model.Course, text: str) -> str:
    if not course.tees:
        return (
            f"tees {text[:40]!r}: course {course.name!r} has no tee sets (one slope and rating "
            "for everyone); leave the tees empty or give the course [[tees]] tables"
        )
    return (
        f"tees {text[:40]!r} are not a tee set of course {course.name!r}; its tees are "
        + ", ".join(t.name for t in course.tees)
    )


def parse_handicap(text: str) -> float:
    """Return a handicap index written with ``.`` or ``,``; a plus handicap ``+2.1`` is -2.1.

    >>> parse_handicap("12,4"), parse_handicap("+2.1")
    (12.4, -2.1)
    """
    match = _HANDICAP.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a handicap index")
    value = float(match[2].replace(",", "."))
    return -value if match[1] and value else value


def _player_name(row: csvfile.Row) -> str:
    """Return a row's player: the ``player`` cell, the first name before it when it lacks
    it (``Voornaam;Naam``: Jan, Peeters), else the first and last names.

    >>> _player_name(csvfile.Row(2, {"first_name": "Jan", "player": "Peeters"}))
    'Jan Peeters'
    >>> _player_name(csvfile.Row(2, {"first_name": "Jan", "player": "Jan Peeters",
    ...                              "last_name": "Peeters"}))
    'Jan Peeters'
    >>> _player_name(csvfile.Row(2, {"first_name": "Els", "last_name": "Maes"}))
    'Els Maes'
    """
    whole, first, last = row.get("player"), row.get("first_name"), row.get("last_name")
    if whole:
        return whole if first.casefold() in whole.casefold() else f"{first} {whole}"
    return " ".join(part for part in (first, last) if part) if last else ""


@dataclass
class _GroupRows:
    line: int
    start_text: str
    start: time | None
    tee_text: str
    tee: int | None
    players: list[model.Player] = field(default_factory=list)
    names: dict[str, int] = field(default_factory=dict)


def parse_draw(
    text: str,
    filename: str,
    *,
    day: date,
    tz: tzinfo,
    course: model.Course | None = None,
    notes: list[str] | None = None,
    tee_defaults: Mapping[str, str] | None = None,
) -> tuple[model.Group, ...]:
    """Return a draw CSV's groups in draw order; raise ``FileFormatError`` if invalid.

    Starts are local times on ``day`` in ``tz``, returned as UTC instants. With
    ``course``, every starting tee must be a hole of it, and every player's tees one of its
    tee sets, rated for the player's gender. A player without a ``tees`` cell plays from the
    round's default for his class, else for his gender (``tee_defaults``, as
    :func:`check_tee_defaults` returns them), else from the course's first tee set. Columns
    the draw does not know are named in ``notes`` (when given): they are ignored, not refused.
    """
    defaults = dict(tee_defaults or {})
    table, problems = csvfile.read_table(text, filename, COLUMNS)
    note = table.ignored_note(filename, COLUMNS)
    if note and notes is not None:
        notes.append(note)
    groups: dict[str, _GroupRows] = {}
    #: every player of the draw: the group and line of his row (a player is in one group)
    everyone: dict[str, tuple[str, int]] = {}

    def problem(line: int, field: str, message: str) -> None:
        problems.append(errors.Problem(filename, line, field, message))

    for row in table.rows:
        group_id, start_text, tee_text = row.get("group"), row.get("start"), row.get("tee")
        name = _player_name(row)

        start = None
        if not start_text:
            problem(row.line, "start", "start is empty; expected the scheduled start as HH:MM")
        else:
            try:
                start = times.parse_clock(start_text)
            except ValueError:
                problem(row.line, "start", f"start {start_text!r} is not a time; expected HH:MM")

        tee = None
        if not tee_text:
            problem(row.line, "tee", "tee is empty; expected the starting hole, normally 1")
        else:
            try:
                tee = times.parse_hole_number(tee_text)
            except ValueError:
                problem(
                    row.line,
                    "tee",
                    f"tee {tee_text!r} is not a hole number; expected the starting hole, "
                    "normally 1 (10 for a two-tee start)",
                )
            else:
                if course is not None and not course.has_hole(tee):
                    problem(
                        row.line,
                        "tee",
                        f"tee {tee} does not exist on this course; "
                        f"holes are {times.hole_range(course)}",
                    )
                    tee = None

        if not name:
            problem(row.line, "player", "player is empty; expected the player's name")

        handicap = None
        handicap_text = row.get("handicap")
        if handicap_text:
            try:
                handicap = parse_handicap(handicap_text)
            except ValueError:
                problem(
                    row.line,
                    "handicap",
                    f"handicap {handicap_text!r} is not a handicap index; expected a number "
                    "such as 12.4 or 12,4 (+2.1 for a plus handicap), or nothing",
                )

        class_name = None
        class_text = row.get("class")
        if class_text:
            class_name = class_text.upper()
            if class_name not in CLASSES:
                problem(
                    row.line,
                    "class",
                    f"class {class_text!r} is not a class; expected AA, A, BB or B, or nothing "
                    "(the class then comes from the handicap index)",
                )
                class_name = None

        gender = None
        gender_text = row.get("gender")
        if gender_text:
            try:
                gender = parse_gender(gender_text)
            except ValueError:
                problem(
                    row.line,
                    "gender",
                    f"gender {gender_text[:40]!r} is not a gender; expected M or F (men, women; "
                    "H, homme, D, dame, V, vrouw, heren read), or nothing",
                )

        language = None
        language_text = row.get("language")
        if language_text:
            try:
                language = parse_language(language_text)
            except ValueError:
                problem(
                    row.line,
                    "language",
                    f"language {language_text[:40]!r} is not a language of pace; expected fr, "
                    "en or nl (français, English, Nederlands), or nothing",
                )

        tees = None
        tees_text: str | None = row.get("tees")
        tees_field = "tees"
        if not tees_text:
            tees_field = "gender" if gender_text else "tees"
            tees_text = defaults.get(class_name or "") or defaults.get(gender or model.MEN)
        if tees_text and course is not None:
            found = _find_tees(course, tees_text)
            if found is None:
                problem(row.line, "tees", _tees_problem(course, tees_text))
            elif not found.rated_for(gender):
                problem(
                    row.line,
                    tees_field,
                    f"{name or 'the player'} (women) plays from tees {found.name!r}, which have "
                    "no women's slope or rating on this course; give the tees' women_slope and "
                    "women_rating, or other tees",
                )
            else:
                tees = found.name
        elif tees_text:
            tees = tees_text
        elif course is not None and course.tees and not course.tees[0].rated_for(gender):
            problem(
                row.line,
                "tees",
                f"{name or 'the player'} (women) has no tees, and the course's first tees "
                f"{course.tees[0].name!r} have no women's rating; give the player's tees",
            )

        if not group_id:
            problem(row.line, "group", "group is empty; expected the group id as on the draw")
            continue
        rows = groups.get(group_id)
        if rows is None:
            rows = groups[group_id] = _GroupRows(row.line, start_text, start, tee_text, tee)
        else:
            if start is not None and rows.start is not None and start != rows.start:
                problem(
                    row.line,
                    "start",
                    f"group {group_id!r} starts at {start_text!r} here but at "
                    f"{rows.start_text!r} on line {rows.line}; "
                    "all rows of a group share start and tee",
                )
            if tee is not None and rows.tee is not None and tee != rows.tee:
                problem(
                    row.line,
                    "tee",
                    f"group {group_id!r} starts on tee {tee_text!r} here but on tee "
                    f"{rows.tee_text!r} on line {rows.line}; "
                    "all rows of a group share start and tee",
                )
        if name:
            key = " ".join(name.casefold().split())
            if key in rows.names:
                problem(
                    row.line,
                    "player",
                    f"player {name!r} is already in group {group_id!r} on line {rows.names[key]}",
                )
            elif key in everyone:
                other, line = everyone[key]
                problem(
                    row.line,
                    "player",
                    f"player {name!r} is in group {group_id!r} here and in group {other!r} on "
                    f"line {line}; a player plays in one group (for two players of the same "
                    "name, tell them apart, e.g. with an initial)",
                )
            else:
                everyone[key] = (group_id, row.line)
                rows.names[key] = row.line
                rows.players.append(
                    model.Player(
                        name,
                        handicap,
                        side=row.get("side") or None,
                        club=row.get("club") or None,
                        class_name=class_name,
                        match=row.get("match") or None,
                        tees=tees,
                        gender=gender,
                        language=language,
                    )
                )

    if not table.rows and not problems:
        problems.append(
            errors.Problem(
                filename,
                table.header_line,
                None,
                "the draw has no players; expected one row per player under the header",
            )
        )
    if problems:
        raise errors.FileFormatError(problems)
    return tuple(
        model.Group(
            group_id,
            times.to_utc(day, rows.start, tz),
            rows.tee,
            tuple(rows.players),
        )
        for group_id, rows in groups.items()
        if rows.start is not None and rows.tee is not None
    )


def load_draw(
    path: str | os.PathLike[str],
    *,
    day: date,
    tz: tzinfo,
    course: model.Course | None = None,
    notes: list[str] | None = None,
    tee_defaults: Mapping[str, str] | None = None,
) -> tuple[model.Group, ...]:
    """Return the groups of the draw CSV file at ``path``."""
    return parse_draw(
        csvfile.read_text(path), str(path), day=day, tz=tz, course=course, notes=notes,
        tee_defaults=tee_defaults,
    )  # fmt: skip

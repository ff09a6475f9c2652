"""Scores CSV (cards as the scorers hand them in): one row per player (or side) and hole.

Format: docs/formats.md §7. Columns ``group``, ``player``, ``hole``, ``strokes`` and the
optional ``conceded`` (French headers ``groupe``/``partie``, ``joueur``/``nom``, ``trou``,
``coups``/``score``, ``concédé`` are accepted). ``strokes`` is a whole number 1–20, or
``-`` / empty for no score (ball picked up); ``conceded`` is ``yes`` (``oui``) when, in match
play, the player's side conceded the hole. In one-ball formats (foursome, threesome,
greensome) any partner names the side, once per hole. All or nothing: every problem is
reported with its file, line and field, and nothing of an invalid file is returned.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence

from pace.formats import csvfile, times
from pace.rules import errors, model
from pace.rules.scoring.sides import Score
from pace.rules.scoring.teams import find_format

COLUMNS = (
    csvfile.Column("group", ("groupe", "partie"), required=True),
    csvfile.Column("player", ("joueur", "nom", "name"), required=True),
    csvfile.Column("hole", ("trou",), required=True),
    csvfile.Column("strokes", ("coups", "score", "strokes taken"), required=True),
    csvfile.Column("conceded", ("concédé", "concede", "donné")),
)

STROKES = range(1, 21)
NO_SCORE = ("", "-", "–")
YES = ("yes", "y", "oui", "o", "true", "1", "x")
NO = ("", "no", "n", "non", "false", "0")


def _fold(name: str) -> str:
    """Return a name folded for matching: NFC, no case, single spaces."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def parse_scores(
    text: str,
    filename: str,
    *,
    course: model.Course,
    groups: Sequence[model.Group],
    format_name: str = "individual",
) -> tuple[Score, ...]:
    """Return a scores CSV's scores in file order; raise ``FileFormatError`` if invalid.

    Every group must be in the draw, every player in his group (names are matched ignoring
    case, extra spaces and how accents are encoded; the draw's spelling is returned), every
    hole on the course, and each player (side, in one-ball formats) scored at most once per
    hole.
    """
    team_format = find_format(format_name)
    table, problems = csvfile.read_table(text, filename, COLUMNS)
    draw = {g.id: g for g in groups}
    seen: dict[tuple[str, str, int], tuple[int, str]] = {}
    out: list[Score] = []

    def problem(line: int, field: str, message: str) -> None:
        problems.append(errors.Problem(filename, line, field, message))

    for row in table.rows:
        group_id, name = row.get("group"), row.get("player")
        hole_text, strokes_text = row.get("hole"), row.get("strokes")

        group = None
        if not group_id:
            problem(row.line, "group", "group is empty; expected the group id as in the draw")
        else:
            group = draw.get(group_id)
            if group is None:
                known = ", ".join(repr(g) for g in list(draw)[:8])
                more = ", …" if len(draw) > 8 else ""
                problem(
                    row.line,
                    "group",
                    f"group {group_id!r} is not in the draw; its groups are {known}{more}",
                )

        player = None
        if not name:
            problem(row.line, "player", "player is empty; expected the player's name as drawn")
        elif group is not None:
            player = next((p for p in group.players if p.name == name), None) or next(
                (p for p in group.players if _fold(p.name) == _fold(name)), None
            )
            if player is None:
                problem(
                    row.line,
                    "player",
                    f"player {name!r} is not in group {group_id!r}; its players are "
                    + ", ".join(repr(p.name) for p in group.players),
                )

        hole = None
        if not hole_text:
            problem(row.line, "hole", "hole is empty; expected the hole number")
        else:
            try:
                hole = times.parse_hole_number(hole_text)
            except ValueError:
                problem(
                    row.line,
                    "hole",
                    f"hole {hole_text!r} is not a hole number; expected {times.hole_range(course)}",
                )
            else:
                if not course.has_hole(hole):
                    problem(
                        row.line,
                        "hole",
                        f"hole {hole} does not exist on this course; "
                        f"holes are {times.hole_range(course)}",
                    )
                    hole = None

        strokes: int | None = None
        valid_strokes = True
        if strokes_text.casefold() not in NO_SCORE:
            if strokes_text.isascii() and strokes_text.isdigit() and int(strokes_text) in STROKES:
                strokes = int(strokes_text)
            else:
                valid_strokes = False
                problem(
                    row.line,
                    "strokes",
                    f"strokes {strokes_text!r} is not a score; expected a whole number "
                    f"{STROKES[0]}–{STROKES[-1]}, or - (or nothing) for no score",
                )

        conceded_text = row.get("conceded").casefold()
        conceded = conceded_text in YES
        if not conceded and conceded_text not in NO:
            problem(
                row.line,
                "conceded",
                f"conceded {row.get('conceded')!r} is not yes or no; write yes when the hole "
                "was conceded to the opponent, or leave it empty",
            )

        if group is None or player is None or hole is None or not valid_strokes:
            continue
        who = player.name
        if team_format.one_ball and player.side:
            who = f"side {player.side!r}"
        first = seen.setdefault((group.id, who, hole), (row.line, player.name))
        if first[0] != row.line:
            by = "" if first[1] == player.name else f" (as {first[1]!r})"
            problem(
                row.line,
                "hole",
                f"{'player ' + repr(player.name) if who == player.name else who} of group "
                f"{group.id!r} is already scored on hole {hole} on line {first[0]}{by}; "
                "keep one score per hole",
            )
            continue
        out.append(Score(group.id, player.name, hole, strokes, conceded))

    if not table.rows and not problems:
        problems.append(
            errors.Problem(
                filename,
                table.header_line,
                None,
                "the file has no scores; expected one row per player and hole under the header",
            )
        )
    if problems:
        raise errors.FileFormatError(problems)
    return tuple(out)


def load_scores(
    path: str | os.PathLike[str],
    *,
    course: model.Course,
    groups: Sequence[model.Group],
    format_name: str = "individual",
) -> tuple[Score, ...]:
    """Return the scores of the scores CSV file at ``path``."""
    return parse_scores(
        csvfile.read_text(path), str(path), course=course, groups=groups, format_name=format_name
    )

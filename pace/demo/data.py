"""The demo's course and draw, written as the files a committee would import.

The demo imports them through the same parsers as ``pace import course`` and
``pace import draw``, so what it shows is what a real round would look like. The banner the
demo prints (its pages and how fast its clock runs) is here too.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta, tzinfo
from urllib.parse import quote, urlsplit

COURSE_NAME = "Golf de démonstration"
FIRST_START = time(8, 0)
INTERVAL = timedelta(minutes=10)

#: (par, stroke index, length in metres, walk minutes before the hole) for holes 1..18:
#: par 72 with four par 3s and four par 5s, odd stroke indexes on the front nine.
HOLES = (
    (4, 9, 352, 0),
    (5, 13, 471, 0),
    (4, 1, 398, 0),
    (3, 17, 148, 0),
    (4, 5, 372, 0),
    (4, 11, 331, 0),
    (3, 15, 167, 0),
    (5, 7, 489, 0),
    (4, 3, 384, 0),
    (4, 6, 366, 3),  # the halfway house before the 10th tee
    (3, 16, 139, 0),
    (5, 10, 462, 0),
    (4, 2, 405, 0),
    (4, 12, 318, 0),
    (3, 18, 176, 0),
    (5, 8, 501, 0),
    (4, 4, 391, 0),
    (4, 14, 347, 0),
)

_NAMES = {
    "fr": (
        (
            "Marie", "Julien", "Camille", "Thomas", "Sophie", "Nicolas", "Élodie", "Antoine",
            "Charlotte", "Maxime", "Amélie", "Benoît", "Catherine", "Olivier", "Nathalie",
            "Pierre", "Isabelle", "Laurent", "Valérie", "Philippe", "Pauline", "Guillaume",
            "Aurélie", "Vincent", "Céline", "Sébastien", "Hélène", "François", "Anne", "Jérôme",
            "Claire", "Mathieu", "Geneviève", "Hugues", "Bérénice", "Cédric",
        ),
        (
            "Dubois", "Lambert", "Martin", "Dupont", "Leroy", "Moreau", "Lefèvre", "Fontaine",
            "Girard", "Mercier", "Rousseau", "Chevalier", "Bonnet", "Gauthier", "Dumont",
            "Renard", "Lejeune", "Collignon", "Delvaux", "Simon", "Lemaire", "Denis",
            "de Villers", "d'Ursel", "Piron", "Lecomte", "Thiry", "Masson", "Hubert", "Gillet",
        ),
    ),
    "nl": (
        (
            "Pieter", "Jan", "Els", "Wouter", "Griet", "Koen", "Sofie", "Bart", "Lotte", "Dries",
            "An", "Tom", "Liesbeth", "Jeroen", "Katrien", "Stijn", "Hilde", "Joris", "Inge",
            "Filip",
        ),
        (
            "Peeters", "Janssens", "Maes", "Jacobs", "Mertens", "Willems", "Claes", "Goossens",
            "Wouters", "De Smet", "Van den Broeck", "Hermans", "Vandenberghe", "De Backer",
            "Verhaegen", "Van Damme", "Declercq", "Pauwels", "Vermeulen", "De Vos",
        ),
    ),
    "en": (
        (
            "James", "Emma", "Oliver", "Sarah", "William", "Harry", "Emily", "George", "Lucy",
            "Edward", "Alice", "Henry", "Rachel", "Graham", "Fiona",
        ),
        (
            "Smith", "Taylor", "Brown", "Wilson", "Clarke", "Hughes", "Walker", "Wright",
            "Thompson", "Robinson", "Fletcher", "Hamilton", "Murray", "Bennett", "Gibson",
        ),
    ),
}  # fmt: skip

_ORIGINS = (("fr", 0.55), ("nl", 0.30), ("en", 0.15))

CLUBS = (
    "Royal Waterloo",
    "Golf de Rigenée",
    "Royal Golf du Hainaut",
    "Golf du Bercuit",
    "Royal Latem",
    "Golf de l'Empereur",
    "Golf de Louvain-la-Neuve",
    "Royal Ostend",
    "Golf de Pierpont",
    "Golf d'Hardelot",
    "Royal Zoute",
    "Golf de Durbuy",
)


def course_toml() -> str:
    """Return the demo course as a course TOML text (docs/formats.md §1)."""
    lines = [
        "# The demo course: par 72, allotted times by the default split of docs/rules.md §1.",
        f'name = "{COURSE_NAME}"',
    ]
    for number, (par, index, length, walk) in enumerate(HOLES, start=1):
        lines += [
            "",
            "[[holes]]",
            f"number = {number}",
            f"par = {par}",
            f"stroke_index = {index}",
            f"length_m = {length}",
        ]
        if walk:
            lines.append(f"walk_min = {walk}")
    return "\n".join(lines) + "\n"


def _player_name(rng: random.Random, taken: set[str]) -> str:
    while True:
        origin = rng.choices([o for o, _ in _ORIGINS], [w for _, w in _ORIGINS])[0]
        first, last = _NAMES[origin]
        name = f"{rng.choice(first)} {rng.choice(last)}"
        if name not in taken:
            taken.add(name)
            return name


def _handicap(rng: random.Random) -> float:
    return round(min(36.0, max(-3.0, rng.gauss(15.0, 8.0))), 1)


def _handicap_text(value: float) -> str:
    return f"+{-value:.1f}" if value < 0 else f"{value:.1f}"


def start_times(groups: int) -> list[time]:
    """Return the starts from tee 1: every 10 minutes, with a starter's gap halfway."""
    first = datetime.combine(datetime.min.date(), FIRST_START)
    starts = []
    at = first
    for i in range(groups):
        if i and i == groups // 2:
            at += INTERVAL  # an empty slot: the next group is a lead group (docs/rules.md §3)
        starts.append(at.time())
        at += INTERVAL
    return starts


def draw_csv(groups: int, rng: random.Random) -> str:
    """Return a draw of ``groups`` groups of 3 or 4 players as a draw CSV text.

    The draw is by handicap, best players first, as many clubs do for a medal round.
    """
    sizes = [4 if rng.random() < 0.65 else 3 for _ in range(groups)]
    taken: set[str] = set()
    players = sorted(
        ((_handicap(rng), _player_name(rng, taken), rng.choice(CLUBS)) for _ in range(sum(sizes))),
        key=lambda p: p[0],
    )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["group", "start", "tee", "player", "handicap", "club"])
    it = iter(players)
    for number, (size, start) in enumerate(zip(sizes, start_times(groups), strict=True), 1):
        for _ in range(size):
            handicap, name, club = next(it)
            writer.writerow(
                [number, start.strftime("%H:%M"), 1, name, _handicap_text(handicap), club]
            )
    return out.getvalue()


def played_files(groups: int, seed: int, day: date, tz: tzinfo) -> tuple[str, str, str]:
    """Return the demo's course, a draw of ``groups`` groups and the whole round's hole times.

    The three files a committee would import (course TOML, draw CSV, hole-times CSV: every
    hole of every group logged), played as the demo plays (``pace.demo.play.play_round``, seeded):
    a report of a finished round without running the demo (tests, ``bench/bench_report.py``).
    """
    from pace import formats
    from pace.demo.play import plan_incidents, play_round
    from pace.rules.model import RoundSetup
    from pace.rules.position import plan_field

    rng = random.Random(seed)
    course_text, draw_text = course_toml(), draw_csv(groups, rng)
    course = formats.parse_course(course_text, "demo-course.toml")
    draw = formats.parse_draw(draw_text, "demo-draw.csv", day=day, tz=tz, course=course)
    plan = plan_field(RoundSetup(course, tuple(draw)))
    pars = {h.number: h.par for h in course.holes}
    taps = play_round(plan, pars, rng, plan_incidents(plan, rng))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["group", "hole", "completed"])
    for tap in taps:
        writer.writerow([tap.group, tap.hole, tap.at.astimezone(tz).strftime("%H:%M:%S")])
    return course_text, draw_text, out.getvalue()


# --------------------------------------------------------------------------- the banner

#: The demo's pages: (label, role whose code opens it, path), as the banner lists them;
#: no role: a public page, linked as it is.
PAGES = (
    ("dashboard", "committee", "/rounds/{round}/dashboard"),
    ("shot clock", "referee", "/rounds/{round}/shotclock"),
    ("marshal", "marshal", "/rounds/{round}/marshal"),
    ("scorecard", "scorer", "/rounds/{round}/scorecard"),
    ("board", "viewer", "/rounds/{round}/board"),
    ("leaderboard", None, "/rounds/{round}/leaderboard"),
    ("audit", "committee", "/rounds/{round}/audit"),
    ("access", "committee", "/rounds/{round}/access"),
    ("report", "committee", "/rounds/{round}/report"),
    ("results", "committee", "/rounds/{round}/results"),
)

#: the demo's codes' key of the committee secret, which opens the console (every round)
SECRET = "committee secret"

#: What the demo points to once the round is over: the report, the letters, the results.
AFTER = (
    ("report", "committee", "/rounds/{round}/report"),
    ("letters", "committee", "/rounds/{round}/letters"),
    ("results", "committee", "/rounds/{round}/results"),
    ("leaderboard", None, "/rounds/{round}/leaderboard"),
)


def speed_words(speed: float) -> str:
    """Return how fast the demo's clock runs, as people read it.

    >>> speed_words(20)
    '×20 (20 minutes of play per real minute)'
    >>> speed_words(60), speed_words(1)
    ('×60 (an hour of play per real minute)', 'real time')
    """
    if speed == 1:
        return "real time"
    per_minute = "an hour" if speed == 60 else f"{speed:g} minutes"
    return f"×{speed:g} ({per_minute} of play per real minute)"


def banner(
    *,
    url: str,
    codes: dict[str, str],
    first_start: datetime,
    origin: datetime,
    speed: float,
    summary: str,
    cast: str,
    holes: Sequence[int],
    db: str,
) -> str:
    """Return the demo's banner: what is played, how fast, and a link that opens each page.

    ``cast`` says who plays, in words ("6 marshals, 2 referees, 4 scorers and the committee").
    """
    covered = f"holes {holes[0]}–{holes[-1]}" if holes else "some holes"
    pages = (("home", None, "/"), *PAGES)
    console = ""
    if SECRET in codes:
        pages = (*pages, ("console", SECRET, "/committee"))
        console = (
            f"  the console (courses, rounds, draws, codes) signs in with the committee secret"
            f" {codes[SECRET]}, also at {url}/login\n"
        )
    return (
        f"pace demo: {summary}, first start {first_start:%H:%M}\n"
        f"  the clock starts at {origin:%H:%M} and runs {speed_words(speed)}\n"
        f"{_links(url, codes, pages)}\n{console}"
        f"  (each link signs in with an access code of the page's role; on the marshal page,"
        f" tick the holes you watch, e.g. {covered}, to see the groups due there)\n"
        f"  simulated {cast} (real Socket.IO clients, each signed in with a code of its role)"
        f" send what happened since {first_start:%H:%M}, then play live;"
        f" database {db} (recreated at every run). Ctrl-C stops."
    )


def closing(*, url: str, codes: dict[str, str], db: str, at: datetime, serving: bool) -> str:
    """Return what the demo prints at the end: where the report, letters and results are.

    ``serving``: the round is over and the demo serves on, so the links work; otherwise the
    demo is stopping, and the commands read the same from its database.
    """
    head = (
        f"pace demo: the round is over at {at:%H:%M} (the clock now runs at real time);"
        " its report, letters and results (the links open while the demo runs, Ctrl-C stops):"
        if serving
        else f"pace demo: stopped at {at:%H:%M} of the round; its report, letters and results"
        " as far as it went (the links open once it is served again, its clock where it"
        f" stopped: pace serve --db {db} --port {urlsplit(url).port}"
        f" --clock-origin {at.isoformat(timespec='seconds')}):"
    )
    return (
        f"{head}\n{_links(url, codes, AFTER)}\n"
        f"  from the database {db}:\n"
        f"    pace report --round demo --db {db} --at {at:%H:%M:%S} -o demo-report.html\n"
        f"    pace letters --round demo --db {db} --at {at:%H:%M:%S} -o demo-letters.html\n"
        f"    pace results --round demo --db {db}"
    )


def _links(url: str, codes: dict[str, str], pages: Sequence[tuple[str, str | None, str]]) -> str:
    width = max(len(label) for label, _, _ in pages)
    return "\n".join(
        f"  {label:<{width}}  {_link(url, codes, role, path.format(round='demo'))}"
        for label, role, path in pages
    )


def _link(url: str, codes: dict[str, str], role: str | None, path: str) -> str:
    """Return a link that signs in with the demo's code of ``role`` and opens ``path``."""
    if role is None:
        return f"{url}{path}"
    return f"{url}/join?code={codes[role]}&next={quote(path, safe='/')}"

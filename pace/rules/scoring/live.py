"""The live leaderboard: how cards still being played rank (docs/scoring.md, "Live").

The scoring core ranks finished cards: in stroke play a card with a hole not scored yet is
a no return (``nr``), and countback compares the course's last holes. While the round is
played the board ranks every card on what it has so far:

- **stroke play**: the score to par over the holes scored ("−2 thru 7"; net when net); a
  hole scored as no score (ball picked up) makes the card a no return at once;
- **Stableford**: the points so far, after the slow-play deductions;
- **bogey / par**: holes won less holes lost over the holes scored, after the deductions;

cards equal on it share the position (1, 2, 2, 4): countback waits for the last holes.
Once every card of the field is complete (or out: NR, DQ) the board is **final**, and its
positions are the core's, countback included. A card with no hole scored has not started:
no position. Disqualified entries stay at the bottom with their reason. Matches are the
core's: a match in progress reads "2 up thru 6".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from pace.rules.model import Course, Group
from pace.rules.scoring.results import DQ, NR, Entry, Match, Results
from pace.rules.scoring.sides import Roster, Score, build_sides
from pace.rules.scoring.teams import TeamFormat, find_format

RANKED, NOT_STARTED = "ranked", "not_started"


@dataclass(frozen=True)
class Line:
    """One entry of the live board: the core's entry and where it stands now.

    ``state`` is ``ranked``, ``not_started``, ``nr`` or ``dq``; ``thru`` the holes scored;
    ``to_par`` (stroke play) the score to par over them, ``so_far`` their total (strokes,
    net when net) and ``value`` what the board ranks on (to par, points, or the balance).
    """

    entry: Entry
    state: str
    thru: int
    complete: bool
    to_par: int | None
    so_far: int | None
    value: int | None
    position: int | None = None
    tied: bool = False
    class_position: int | None = None
    countback: str | None = None


@dataclass(frozen=True)
class Board:
    """The live board of a round: its lines in board order, or its matches."""

    scoring: str
    format: str
    net: bool
    final: bool
    lines: tuple[Line, ...] = ()
    matches: tuple[Match, ...] = ()


def roster(groups: Sequence[Group], team_format: str | TeamFormat) -> Roster:
    """Return the sides of the draw in a format, to find a player's side."""
    fmt = team_format if isinstance(team_format, TeamFormat) else find_format(team_format)
    return Roster(build_sides(groups, fmt))


def recorded_holes(scores: Iterable[Score], sides: Roster) -> dict[str, frozenset[int]]:
    """Return, by side key, the holes on which any ball of the side has a recorded score.

    Scores of players the draw does not have are left out (the core refuses them).
    """
    out: dict[str, set[int]] = {}
    for s in scores:
        try:
            side = sides.side_of(s.group, s.player)
        except (LookupError, ValueError):
            continue
        out.setdefault(side.key, set()).add(s.hole)
    return {key: frozenset(holes) for key, holes in out.items()}


def board(
    results: Results,
    course: Course,
    recorded: Mapping[str, frozenset[int]],
    retired: frozenset[str] = frozenset(),
    closed: bool = False,
) -> Board:
    """Return the live board of ``results`` given the holes each entry has scored.

    ``closed``: the committee made the round's results final. No card can change any more,
    so the board is final whatever is missing: the core's positions (countback included), a
    card short of a hole a no return (docs/scoring.md, "The live board").

    ``retired`` holds the keys of the entries whose players all withdrew during play (a
    change on the day, docs/status.md): their card is over where it stopped, a no return in
    stroke play and their points or balance so far otherwise.

    >>> from pace.rules.model import Hole, Player
    >>> from pace.rules.scoring import score_round
    >>> from datetime import UTC, datetime
    >>> course = Course("c", tuple(Hole(n, 4, stroke_index=n) for n in range(1, 4)))
    >>> start = datetime(2026, 6, 14, 8, tzinfo=UTC)
    >>> groups = [Group(g, start, 1, (Player(name),)) for g, name in (("1", "Ann"),
    ...           ("2", "Bob"), ("3", "Cy"))]
    >>> scores = [Score("1", "Ann", 1, 3), Score("1", "Ann", 2, 4), Score("2", "Bob", 1, 4)]
    >>> live = board(score_round(course, groups, scores), course,
    ...              recorded_holes(scores, roster(groups, "individual")))
    >>> [(ln.entry.entry, ln.state, ln.position, ln.to_par, ln.thru) for ln in live.lines]
    [('Ann', 'ranked', 1, -1, 2), ('Bob', 'ranked', 2, 0, 1), ('Cy', 'not_started', None, None, 0)]
    >>> live.final
    False
    """
    if results.matches or not results.entries:
        return Board(results.scoring, results.format, results.net,
                     closed or _matches_final(results), matches=results.matches)  # fmt: skip
    pars = {h.number: h.par for h in course.holes}
    numbers = frozenset(pars)
    lines = [_line(e, recorded.get(e.key, frozenset()), numbers, pars, results.scoring,
                   e.key in retired or closed)
             for e in results.entries]  # fmt: skip
    final = closed or all(ln.complete or ln.state in (NR, DQ) for ln in lines)
    placed = _final(lines) if final else _live(lines, results.scoring)
    return Board(results.scoring, results.format, results.net, final, tuple(placed))


def _matches_final(results: Results) -> bool:
    return all(m.finished or m.status == DQ for m in results.matches)


def _line(
    e: Entry,
    holes: frozenset[int],
    numbers: frozenset[int],
    pars: Mapping[int, int],
    scoring: str,
    retired: bool = False,
) -> Line:
    scored = [ln for ln in e.holes if ln.hole in holes]
    thru = len(scored)
    complete = retired or numbers <= holes  # a retired card has every hole it will have
    to_par = so_far = value = None
    state = RANKED if thru else NOT_STARTED
    if thru and scoring == "stroke":
        if any(ln.value is None for ln in scored):
            state = NR
        else:
            so_far = sum(ln.value or 0 for ln in scored)
            to_par = so_far - sum(pars[ln.hole] for ln in scored)
            value = to_par
    elif thru and scoring == "stableford":
        value = (e.points or 0) - (e.penalty_points or 0)
    elif thru:  # bogey, par: the balance over the holes scored
        value = sum(ln.value or 0 for ln in scored) - (e.penalty_holes or 0)
    if e.status == DQ:
        state = DQ
    elif e.status == NR and complete:
        state = NR
    return Line(e, state, thru, complete, to_par, so_far, value)


_ORDER = {RANKED: 0, NOT_STARTED: 1, NR: 2, DQ: 3}


def _final(lines: Sequence[Line]) -> list[Line]:
    """The core's positions (countback included), then NR, then DQ, each in draw order."""
    placed = [
        replace(
            ln,
            position=ln.entry.position,
            tied=ln.entry.tied,
            class_position=ln.entry.class_position,
            countback=ln.entry.countback,
        )
        if ln.state == RANKED
        else ln
        for ln in lines
    ]
    order = sorted(
        range(len(placed)),
        key=lambda i: (_ORDER[placed[i].state], placed[i].position or 0, i),
    )
    return [placed[i] for i in order]


def _live(lines: Sequence[Line], scoring: str) -> list[Line]:
    """Positions on the value so far, ties shared (1, 2, 2, 4), overall and per class."""
    sign = 1 if scoring == "stroke" else -1  # to par: lower is better; points, holes: higher
    ranked = sorted(
        (i for i, ln in enumerate(lines) if ln.state == RANKED),
        key=lambda i: (sign * (lines[i].value or 0), i),
    )
    position: dict[int, int] = {}
    tied: set[int] = set()
    class_position: dict[int, int] = {}
    seen: dict[str, tuple[int, int | None, int]] = {}
    for n, i in enumerate(ranked):
        prev = ranked[n - 1] if n else None
        if prev is not None and lines[prev].value == lines[i].value:
            position[i] = position[prev]
            tied.update((prev, i))
        else:
            position[i] = n + 1
        c = lines[i].entry.class_name
        if c is not None:
            count, last, place = seen.get(c, (0, None, 0))
            mine = place if count and last == lines[i].value else count + 1
            class_position[i] = mine
            seen[c] = (count + 1, lines[i].value, mine)
    placed = [
        replace(ln, position=position.get(i), tied=i in tied, class_position=class_position.get(i))
        for i, ln in enumerate(lines)
    ]
    order = sorted(
        range(len(placed)),
        key=lambda i: (_ORDER[placed[i].state], placed[i].position or 0, i),
    )
    return [placed[i] for i in order]

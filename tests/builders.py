"""Tiny factories for rules tests: courses, groups, instants and facts with defaults.

Every instant is on one fixed day in UTC, written as ``"HH:MM"`` (or ``"HH:MM:SS"``), and
every duration is in minutes, so a test table reads like a marshal's sheet.

>>> at("08:42").isoformat()
'2025-06-14T08:42:00+00:00'
>>> [h.par for h in make_course(pars=[4, 3, 5]).holes]
[4, 3, 5]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta

from pace.rules.model import (
    Course,
    Group,
    Hole,
    HoleCompletion,
    PaceSettings,
    Player,
    RoundFacts,
    RoundSetup,
    Suspension,
    TimeCredit,
)
from pace.rules.penalties import Fault, FaultOutcome, Penalty, Reason
from pace.rules.scoring import Score

DAY = (2025, 6, 14)

# A par-72 course with four par 3s and four par 5s (docs/rules.md §1's federation example).
PAR_72 = (4, 4, 3, 5, 4, 4, 3, 5, 4, 4, 4, 3, 5, 4, 4, 3, 5, 4)


def minutes(value: float) -> timedelta:
    """Return ``value`` minutes as a timedelta.

    >>> minutes(1.5)
    datetime.timedelta(seconds=90)
    """
    return timedelta(minutes=value)


def at(hhmm: str) -> datetime:
    """Return the aware UTC instant ``hhmm`` (``"08:42"`` or ``"08:42:30"``) on the fixed day."""
    parts = [int(p) for p in hhmm.split(":")]
    hour, minute = parts[0], parts[1]
    second = parts[2] if len(parts) > 2 else 0
    return datetime(*DAY, hour, minute, second, tzinfo=UTC)


def make_course(
    pars: Sequence[int] = PAR_72,
    walk: Mapping[int, float] | None = None,
    allotted: Mapping[int, float | Mapping[int, float]] | None = None,
    name: str = "test course",
) -> Course:
    """Return a course with holes 1..N of the given pars.

    ``walk`` maps a hole number to the minutes of walk before it; ``allotted`` maps a hole
    number to the committee's minutes, either one number (the 4-ball column) or a mapping
    column -> minutes.

    >>> course = make_course(pars=[4, 3], walk={2: 2}, allotted={1: 14, 2: {2: 9, 4: 11.5}})
    >>> course.hole(2).walk, course.hole(1).allotted
    (datetime.timedelta(seconds=120), {4: datetime.timedelta(seconds=840)})
    """
    walk = walk or {}
    allotted = allotted or {}
    holes = []
    for number, par in enumerate(pars, 1):
        given = allotted.get(number, {})
        columns = {4: given} if isinstance(given, int | float) else given
        holes.append(
            Hole(
                number,
                par,
                walk=minutes(walk.get(number, 0)),
                allotted={col: minutes(m) for col, m in columns.items()},
            )
        )
    return Course(name, tuple(holes))


def make_group(group_id: str, start: str = "08:00", tee: int = 1, size: int = 4) -> Group:
    """Return group ``group_id`` of ``size`` players starting at ``start`` from ``tee``.

    >>> make_group("A", "08:10", tee=10, size=3).size
    3
    """
    players = tuple(Player(f"{group_id}{i}") for i in range(1, size + 1))
    return Group(group_id, at(start), tee, players)


def make_setup(
    course: Course | None = None, groups: Iterable[Group] = (), **settings: object
) -> RoundSetup:
    """Return a round setup; keyword arguments become :class:`PaceSettings` fields."""
    return RoundSetup(
        course or make_course(),
        tuple(groups),
        PaceSettings(**settings),  # type: ignore[arg-type]
    )


def completions(log: Mapping[str, Mapping[int, str]]) -> tuple[HoleCompletion, ...]:
    """Return completions from ``{group: {hole: "HH:MM"}}``.

    >>> [(c.group, c.hole) for c in completions({"A": {1: "08:14", 2: "08:29"}})]
    [('A', 1), ('A', 2)]
    """
    return tuple(
        HoleCompletion(group, hole, at(when))
        for group, holes in log.items()
        for hole, when in holes.items()
    )


def suspension(start: str, end: str | None = None, kind: str = "suspension") -> Suspension:
    """Return a stop of play from ``start`` to ``end`` (None: not resumed yet)."""
    return Suspension(at(start), None if end is None else at(end), kind)


def credit(group: str, when: str, amount_min: float, reason: str = "ruling") -> TimeCredit:
    """Return a time credit of ``amount_min`` minutes granted to ``group`` at ``when``."""
    return TimeCredit(group, at(when), minutes(amount_min), reason)


def make_facts(
    log: Mapping[str, Mapping[int, str]] | None = None,
    suspensions: Iterable[Suspension] = (),
    credits: Iterable[TimeCredit] = (),
    withdrawn: Mapping[str, str] | None = None,
) -> RoundFacts:
    """Return round facts from a completion log, sirens, credits and withdrawals."""
    return RoundFacts(
        completions=completions(log or {}),
        suspensions=tuple(suspensions),
        credits=tuple(credits),
        withdrawn={g: at(t) for g, t in (withdrawn or {}).items()},
    )


# --------------------------------------------------------------------------- scoring

#: Stroke indexes of an 18-hole card, holes 1..18 (each index once).
SI_18 = (7, 11, 17, 1, 9, 15, 13, 3, 5, 8, 12, 18, 2, 10, 16, 14, 4, 6)


def scoring_course(
    pars: Sequence[int] = PAR_72,
    stroke_indexes: Sequence[int] | None = None,
    *,
    slope: float | None = None,
    rating: float | None = None,
    bogey: Mapping[int, int] | None = None,
) -> Course:
    """Return a course for scoring: pars, stroke indexes (default :data:`SI_18`), slope, rating.

    >>> c = scoring_course(slope=128, rating=70.4)
    >>> c.par, c.hole(4).stroke_index, c.slope
    (72, 1, 128)
    """
    indexes = stroke_indexes or (SI_18 if len(pars) == 18 else tuple(range(1, len(pars) + 1)))
    holes = tuple(
        Hole(n, par, stroke_index=si, bogey=(bogey or {}).get(n))
        for n, (par, si) in enumerate(zip(pars, indexes, strict=True), 1)
    )
    return Course("scoring course", holes, slope=slope, rating=rating)


def draw_group(group_id: str, *players: Player, tee: int = 1, start: str = "08:00") -> Group:
    """Return a group of the given players."""
    return Group(group_id, at(start), tee, tuple(players))


def card(group: str, player: str, strokes: Sequence[int | None], *, first: int = 1) -> list[Score]:
    """Return a player's scores: ``strokes[i]`` on hole ``first + i`` (None: no score).

    >>> [(s.hole, s.strokes) for s in card("1", "Ann", [4, None])]
    [(1, 4), (2, None)]
    """
    return [Score(group, player, first + i, s) for i, s in enumerate(strokes)]


def with_holes(base: Sequence[int], changes: Mapping[int, int]) -> list[int]:
    """Return a card ``base`` (hole 1 first) with some holes' strokes changed by a delta.

    >>> with_holes([4, 4, 3], {2: +1, 3: -1})
    [4, 5, 2]
    """
    return [s + changes.get(n, 0) for n, s in enumerate(base, 1)]


def counted(
    fid: str,
    group: str,
    player: str,
    hole: int,
    kind: str,
    amount: int = 0,
    *,
    bearer: str = "player",
    rank: int = 2,
) -> FaultOutcome:
    """Return a counted fault with its penalty, as the referees' judgement hands it over."""
    fault = Fault(fid, group, player, at("10:00"), hole)
    return FaultOutcome(fault, True, Reason.COUNTED, rank, Penalty(kind, amount, hole, bearer))

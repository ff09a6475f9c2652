"""Sides, balls and cards: who is scored together, and what each ball did on each hole.

A side is one player, or the partners sharing a ``side`` id in a group in a team format.
A side plays one ball (individual, foursome, threesome, greensome) or one ball per
partner (four-ball, best-ball). A card is a fold of the scores: for each ball, its
score on each hole the scorers recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pace.rules.errors import SetupError, UnknownGroupError, UnknownHoleError
from pace.rules.model import Course, Group, Player
from pace.rules.scoring.handicaps import exact
from pace.rules.scoring.teams import TeamFormat

#: Classes by handicap index, golf-mauricie 5: (class, highest index), plus indexes in AA.
CLASSES: tuple[tuple[str, Fraction | None], ...] = (
    ("AA", Fraction(54, 10)),
    ("A", Fraction(104, 10)),
    ("BB", Fraction(154, 10)),
    ("B", None),
)
CLASS_NAMES = tuple(name for name, _ in CLASSES)


@dataclass(frozen=True)
class Score:
    """What a scorer recorded for a player (or his side) on a hole.

    ``strokes`` is None for no score (ball picked up); ``conceded`` is true when, in match
    play, the player's side conceded the hole to the other side.
    """

    group: str
    player: str
    hole: int
    strokes: int | None
    conceded: bool = False


@dataclass(frozen=True)
class Side:
    """A side: its players in draw order, the balls it plays, its class and its match.

    ``balls`` names the side's balls: the partners' names in own-ball formats, else the
    side's one ball, named like the side. ``matches`` holds the draw's match ids of its
    players (partners play one match: match play refuses a side with two).
    """

    key: str
    group: str
    players: tuple[Player, ...]
    balls: tuple[str, ...]
    class_name: str | None
    matches: tuple[str, ...] = ()

    @property
    def match(self) -> str | None:
        """Return the side's match id, None when the draw gives none."""
        return self.matches[0] if self.matches else None

    @property
    def name(self) -> str:
        """Return how results name the side: its players joined with " / "."""
        return " / ".join(p.name for p in self.players)

    def ball_of(self, player: str) -> str:
        """Return the ball a player of this side plays."""
        return player if player in self.balls else self.balls[0]


def class_of_index(index: float | None) -> str | None:
    """Return the class of a handicap index (golf-mauricie 5), None without an index.

    >>> [class_of_index(i) for i in (-1.2, 5.4, 5.5, 10.4, 12.0, 15.5, None)]
    ['AA', 'AA', 'A', 'A', 'BB', 'B', None]
    """
    if index is None:
        return None
    value = exact(index)
    for name, highest in CLASSES:
        if highest is None or value <= highest:
            return name
    raise AssertionError("the last class has no upper bound")  # pragma: no cover


def class_of(players: Sequence[Player]) -> str | None:
    """Return a side's class: the draw's ``class`` of its first partner that has one, else
    the class of its lowest index (a side plays in the class of its best player).

    >>> class_of([Player("a", 12.0), Player("b", 4.0)])
    'AA'
    >>> class_of([Player("a", 12.0, class_name="A")])
    'A'
    """
    for p in players:
        if p.class_name:
            return p.class_name
    indexes = [p.handicap for p in players if p.handicap is not None]
    return class_of_index(min(indexes)) if indexes else None


def build_sides(groups: Sequence[Group], team_format: TeamFormat) -> tuple[Side, ...]:
    """Return the field's sides in draw order (the order of their first player).

    In a team format the partners of a side share a ``side`` id within their group; a
    player without one is a side on his own.
    """
    out: list[Side] = []
    problems: list[str] = []
    for group in groups:
        members: dict[str, list[Player]] = {}
        for p in group.players:
            tag = p.side if team_format.max_side > 1 and p.side else f"\x00{p.name}"
            members.setdefault(tag, []).append(p)
        for tag, players in members.items():
            if len(players) > team_format.max_side:
                problems.append(
                    f"side {tag!r} of group {group.id!r} has {len(players)} players; "
                    f"a {team_format.name} side has at most {team_format.max_side}"
                )
                continue
            matches = sorted({p.match for p in players if p.match})
            balls = (
                tuple(p.name for p in players)
                if team_format.own_balls
                else (" / ".join(p.name for p in players),)
            )
            out.append(
                Side(
                    f"{group.id}\x1f{tag}",
                    group.id,
                    tuple(players),
                    balls,
                    class_of(players),
                    tuple(matches),
                )
            )
    if problems:
        raise SetupError("; ".join(problems), field="side")
    return tuple(out)


@dataclass(frozen=True)
class Cards:
    """Every ball's recorded scores, by side key, then ball, then hole."""

    by_side: Mapping[str, Mapping[str, Mapping[int, Score]]]

    def of(self, side: Side, ball: str) -> Mapping[int, Score]:
        """Return one ball's recorded scores by hole (holes never recorded are absent)."""
        return self.by_side.get(side.key, {}).get(ball, {})


class Roster:
    """Finds the side and the ball of a player of the draw."""

    def __init__(self, sides: Iterable[Side]) -> None:
        self.sides = tuple(sides)
        self._by_player: dict[tuple[str, str], Side] = {}
        self._groups: set[str] = set()
        for side in self.sides:
            self._groups.add(side.group)
            for p in side.players:
                self._by_player[(side.group, p.name)] = side

    def side_of(self, group: str, player: str) -> Side:
        """Return the side of ``player`` in ``group``; raise if the draw has no such player."""
        side = self._by_player.get((group, player))
        if side is not None:
            return side
        if group not in self._groups:
            raise UnknownGroupError(f"group {group!r} is not in the draw", field="group")
        raise SetupError(f"player {player!r} is not in group {group!r}", field="player")


def fold_cards(scores: Iterable[Score], roster: Roster, course: Course) -> Cards:
    """Return the cards the scores make; a later score of a ball and hole replaces an earlier.

    In one-ball formats any partner's score is the side's.
    """
    out: dict[str, dict[str, dict[int, Score]]] = {}
    holes = set(course.hole_numbers)
    for s in scores:
        if s.hole not in holes:
            raise UnknownHoleError(
                f"hole {s.hole!r} is not on course {course.name!r}", field="hole"
            )
        side = roster.side_of(s.group, s.player)
        out.setdefault(side.key, {}).setdefault(side.ball_of(s.player), {})[s.hole] = s
    return Cards(out)

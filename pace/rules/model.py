"""The round's setup and facts as frozen dataclasses.

Instants are timezone-aware ``datetime`` (UTC inside the core); durations are
``timedelta``. Nothing here reads a clock or a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

MINUTE = timedelta(minutes=1)


def _default_averages() -> Mapping[int, timedelta]:
    # docs/rules.md §1: federation averages per hole for 2, 3 and 4 players.
    return {2: timedelta(minutes=12), 3: timedelta(minutes=14), 4: timedelta(minutes=15)}


@dataclass(frozen=True)
class Hole:
    """One hole of a course.

    ``allotted`` maps a group-size column (2, 3, 4) to the committee's allotted time
    for this hole; columns left out use the default split by par (docs/rules.md §1).
    ``walk`` is extra time added before the hole (a long walk, a halfway stop).
    """

    number: int
    par: int
    stroke_index: int | None = None
    length_m: float | None = None
    walk: timedelta = timedelta(0)
    allotted: Mapping[int, timedelta] = field(default_factory=dict)
    bogey: int | None = None  # the fixed score of a bogey competition; None: par + 1


#: The genders a tee set is rated for (docs/formats.md §1): a draw's ``gender`` column.
MEN, WOMEN = "men", "women"


@dataclass(frozen=True)
class TeeSet:
    """A set of tees of a course (the yellow, the red): its ratings and what differs by hole.

    ``slope`` and ``rating`` are the men's ratings from these tees (None: 113 and the tees'
    par), ``women_slope`` and ``women_rating`` the women's where the card gives them. ``par``,
    ``stroke_index`` and ``length_m`` map a hole number to its figure from these tees where it
    differs from the course's hole (a ladies' par 5, a separate stroke index, the lengths).
    """

    name: str
    colour: str | None = None
    slope: float | None = None
    rating: float | None = None
    women_slope: float | None = None
    women_rating: float | None = None
    par: Mapping[int, int] = field(default_factory=dict)
    stroke_index: Mapping[int, int] = field(default_factory=dict)
    length_m: Mapping[int, float] = field(default_factory=dict)

    @property
    def shown_colour(self) -> str:
        """Return the colour the tees are shown in: their colour, else their name."""
        return self.colour or self.name

    def rated_for(self, gender: str | None) -> bool:
        """Return whether these tees have ratings for ``gender`` (None: men, else women)."""
        if gender == WOMEN:
            return self.women_slope is not None or self.women_rating is not None
        return True


@dataclass(frozen=True)
class Course:
    """A course: its name, its holes numbered 1..N in order, its slope and rating, its tees.

    ``slope`` and ``rating`` give course handicaps (docs/rules.md §10.1); None means 113 and
    the course's par. A course with ``tees`` has its ratings on each tee set instead (its own
    ``slope`` and ``rating`` are None); the first tee set is the one a player without tees
    plays (:meth:`played_from`).
    """

    name: str
    holes: tuple[Hole, ...]
    slope: float | None = None
    rating: float | None = None
    tees: tuple[TeeSet, ...] = ()

    def tee_set(self, name: str) -> TeeSet:
        """Return the tee set called ``name`` (case and spaces aside); raise ``KeyError``."""
        key = tee_key(name)
        for t in self.tees:
            if tee_key(t.name) == key:
                return t
        raise KeyError(name)

    def find_tees(self, text: str) -> TeeSet | None:
        """Return the tee set named ``text``, else the one of that colour (case aside); None
        when the course has neither."""
        key = tee_key(text)
        for t in self.tees:
            if tee_key(t.name) == key:
                return t
        for t in self.tees:
            if t.colour is not None and tee_key(t.colour) == key:
                return t
        # the colour in another language (issue 47: "Geel" for the Yellow tees); only when
        # one tee set alone is of that colour
        colour = tee_colour(text)
        if colour is None:
            return None
        found = {
            t.name: t
            for t in self.tees
            if colour in (tee_colour(t.name), t.colour and tee_colour(t.colour))
        }
        return next(iter(found.values())) if len(found) == 1 else None

    def played_from(self, tees: str | None, gender: str | None = None) -> Course:
        """Return the course as a player from ``tees`` of ``gender`` plays it: each hole's par,
        stroke index and length from those tees, and the slope and rating of that gender.

        The course itself when it has no tee sets. ``tees`` None is the first tee set; a
        gender None is rated as men (docs/scoring.md, tees). Raise ``KeyError`` for tees the
        course does not have, ``ValueError`` for women from tees without a women's rating.

        >>> course = Course("c", (Hole(1, 4, 1), Hole(2, 5, 2)), tees=(
        ...     TeeSet("Yellow", slope=128, rating=70.4),
        ...     TeeSet("Red", "red", 120, 66.0, 125, 71.1, par={1: 5}, stroke_index={1: 2, 2: 1})))
        >>> red = course.played_from("red", WOMEN)
        >>> [(h.par, h.stroke_index) for h in red.holes], red.slope, red.rating, red.par
        ([(5, 2), (5, 1)], 125, 71.1, 10)
        >>> course.played_from(None).slope
        128
        """
        if not self.tees:
            return self
        t = self.tees[0] if tees is None else self.tee_set(tees)
        if not t.rated_for(gender):
            raise ValueError(f"tees {t.name!r} have no women's slope or rating")
        women = gender == WOMEN
        holes = tuple(
            Hole(
                h.number,
                t.par.get(h.number, h.par),
                t.stroke_index.get(h.number, h.stroke_index),
                t.length_m.get(h.number, h.length_m),
                h.walk,
                h.allotted,
                h.bogey if h.number not in t.par else None,
            )
            for h in self.holes
        )
        return Course(
            self.name,
            holes,
            slope=t.women_slope if women else t.slope,
            rating=t.women_rating if women else t.rating,
        )

    @property
    def par(self) -> int:
        """Return the course's par: the sum of its holes' pars."""
        return sum(h.par for h in self.holes)

    @property
    def hole_numbers(self) -> tuple[int, ...]:
        """Return the hole numbers in course order."""
        return tuple(h.number for h in self.holes)

    def hole(self, number: int) -> Hole:
        """Return hole ``number``; raise ``KeyError`` if the course has none."""
        for h in self.holes:
            if h.number == number:
                return h
        raise KeyError(number)

    def has_hole(self, number: int) -> bool:
        """Return whether the course has a hole with that number."""
        return any(h.number == number for h in self.holes)


@dataclass(frozen=True)
class Player:
    """A player as printed on the draw.

    ``handicap`` is the handicap index (a plus index is negative); ``class_name`` the draw's
    class (AA, A, BB, B), None to take it from the index; ``match`` the match id in match play;
    ``tees`` the name of the tee set the player plays from (None: the course's first);
    ``gender`` ``men`` or ``women`` (None: rated as men), for the ratings of those tees;
    ``language`` the language of the player's letter (``fr``, ``en``, ``nl``; None: the round's).
    """

    name: str
    handicap: float | None = None
    side: str | None = None
    club: str | None = None
    class_name: str | None = None
    match: str | None = None
    tees: str | None = None
    gender: str | None = None
    language: str | None = None


#: tee colours in English, French and Dutch (with plurals and the Dutch inflected form), each
#: to the English name (issue 47): a Flemish draw's "Geel" finds the course's "Yellow" tees
TEE_COLOURS = {
    **dict.fromkeys(("yellow", "jaune", "jaunes", "geel", "gele"), "yellow"),
    **dict.fromkeys(("red", "rouge", "rouges", "rood", "rode"), "red"),
    **dict.fromkeys(("white", "blanc", "blancs", "blanche", "blanches", "wit", "witte"),
                    "white"),
    **dict.fromkeys(("blue", "bleu", "bleus", "bleue", "bleues", "blauw", "blauwe"), "blue"),
    **dict.fromkeys(("black", "noir", "noirs", "noire", "noires", "zwart", "zwarte"), "black"),
    **dict.fromkeys(("orange", "oranges", "oranje"), "orange"),
    **dict.fromkeys(("green", "vert", "verts", "verte", "vertes", "groen", "groene"), "green"),
    **dict.fromkeys(("gold", "or", "doré", "dorés", "goud", "gouden"), "gold"),
    **dict.fromkeys(("silver", "argent", "argenté", "argentés", "zilver", "zilveren"), "silver"),
    **dict.fromkeys(("purple", "violet", "violets", "violette", "paars", "paarse"), "purple"),
}  # fmt: skip

#: the words around a colour that name the tees themselves ("les boules jaunes", "Gele tee")
_TEE_WORDS = frozenset(
    ("tee", "tees", "boule", "boules", "repère", "repères", "marque", "marques", "départ",
     "départs", "de", "des", "les", "the", "afslag", "afslagen", "afslagplaats", "box",
     "teebox")
)  # fmt: skip


def tee_colour(text: str) -> str | None:
    """Return the colour (in English) a tee set's name or colour says, in English, French or
    Dutch; None when it says none.

    >>> tee_colour("Geel"), tee_colour("les boules Jaunes"), tee_colour("Yellow tees")
    ('yellow', 'yellow', 'yellow')
    >>> tee_colour("Championship") is None, tee_colour("Rood")
    (True, 'red')
    """
    words = [w for w in tee_key(text).split() if w not in _TEE_WORDS]
    return TEE_COLOURS.get(words[0]) if len(words) == 1 else None


def tee_key(name: str) -> str:
    """Return how tee set names compare: case and repeated spaces aside.

    >>> tee_key("  Yellow  Tees"), tee_key("jaunes") == tee_key("JAUNES")
    ('yellow tees', True)
    """
    return " ".join(name.casefold().split())


@dataclass(frozen=True)
class Group:
    """A group (partie): its id, scheduled start, starting tee and players.

    ``retired`` names the players who withdrew during play and when (a change on the day,
    :mod:`pace.rules.changes`): they stay in ``players`` (their card stops where they did) but
    no longer count in the group's size from that instant on.
    """

    id: str
    start: datetime
    tee: int
    players: tuple[Player, ...] = ()
    retired: tuple[tuple[str, datetime], ...] = ()

    @property
    def size(self) -> int:
        """Return the number of players in the group at its start."""
        return self.size_at(self.start)

    def size_at(self, at: datetime) -> int:
        """Return the number of players still playing at ``at`` (a retirement counts from its
        instant on)."""
        return len(self.players) - sum(1 for _, t in self.retired if t <= at)

    def retired_at(self, name: str) -> datetime | None:
        """Return when player ``name`` retired, if he did."""
        return next((t for n, t in self.retired if n == name), None)


@dataclass(frozen=True)
class HoleCompletion:
    """A group completed a hole (flag back in) at instant ``at``.

    ``source``: who saw it, ``"official"`` (a marshal's, referee's or the committee's tap) or
    ``"group"`` (the group's own scorecard reported it, docs/status.md "Groups' reports").
    """

    group: str
    hole: int
    at: datetime
    source: str = "official"
    #: half its interval, for a completion inferred from positions (``at`` is the middle of
    #: ``at - spread`` … ``at + spread``, docs/positions.md); zero for a tap or a report
    spread: timedelta = timedelta(0)


@dataclass(frozen=True)
class Suspension:
    """Play stopped at ``start`` and resumed at ``end`` (None: not resumed yet).

    ``kind`` is ``"interruption"`` (one long siren: stop at once) or ``"suspension"``
    (three sirens: finish the hole, then wait). Both stop every group's clock (docs/rules.md §8).
    """

    start: datetime
    end: datetime | None = None
    kind: str = "suspension"


@dataclass(frozen=True)
class TimeCredit:
    """Time a referee granted to a group at instant ``at`` (docs/rules.md §5)."""

    group: str
    at: datetime
    amount: timedelta
    reason: str = ""


@dataclass(frozen=True)
class PaceSettings:
    """The numbers of docs/rules.md §1–3, with their defaults; all of them configurable."""

    averages: Mapping[int, timedelta] = field(default_factory=_default_averages)
    par_split: timedelta = timedelta(minutes=3)
    standard_interval: timedelta | None = None  # None: the most common one in the draw
    gap_factor: float = 1.5  # a starting interval >= factor x standard follows a starter's gap
    gap_margin: timedelta = timedelta(0)  # committee margin added to the interval
    #: how late a group's own report may be: a status resting on one allows it (issue 46)
    report_allowance: timedelta = timedelta(minutes=3)
    #: at least this allowance for a verdict resting on a completion inferred from positions
    #: (besides half its interval, which it always allows: issue 48)
    position_allowance: timedelta = timedelta(0)
    small_group_column: int = 2  # the column a group of 1 uses
    large_group_column: int = 4  # the column a group of more than 4 uses


class Status(StrEnum):
    """A group's pace status; severity order is ``on_pace < behind < overdue < out_of_position``."""

    NOT_STARTED = "not_started"
    ON_PACE = "on_pace"
    BEHIND = "behind"
    OVERDUE = "overdue"
    OUT_OF_POSITION = "out_of_position"
    FINISHED = "finished"
    WITHDRAWN = "withdrawn"

    @property
    def severity(self) -> int:
        """Return the rank used to take the worse of two statuses."""
        return _SEVERITY.get(self, 0)


_SEVERITY = {
    Status.ON_PACE: 1,
    Status.BEHIND: 2,
    Status.OVERDUE: 3,
    Status.OUT_OF_POSITION: 4,
}


@dataclass(frozen=True)
class RoundSetup:
    """What is fixed before play: the course, the draw (in draw order) and the numbers."""

    course: Course
    groups: tuple[Group, ...]
    settings: PaceSettings = field(default_factory=PaceSettings)


@dataclass(frozen=True)
class RoundFacts:
    """What happened on the course, as folded from the event log.

    ``completions`` holds at most one completion per (group, hole), corrections applied;
    ``withdrawn`` maps a group id to the instant it withdrew.
    """

    completions: tuple[HoleCompletion, ...] = ()
    suspensions: tuple[Suspension, ...] = ()
    credits: tuple[TimeCredit, ...] = ()
    withdrawn: Mapping[str, datetime] = field(default_factory=dict)

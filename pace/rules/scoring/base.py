"""The interface every way of scoring follows, and the card scorings' shared arithmetic.

A scoring has a ``name``, ``aliases``, the ``family`` its handicap allowance depends on,
the ``play`` whose penalty ladder judges its faults (stroke play or match play), how it
converts a counted pace penalty (:meth:`Scoring.convert`), and :meth:`Scoring.score`.

Stroke play, Stableford, bogey and par are *card* scorings: each side's card is worth a
value per hole (strokes, points, or a hole won/halved/lost), the better ball counts in
four-ball, and entries are ranked with countback. :class:`CardScoring` does that once;
each subclass says what a hole is worth and how its total reads.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import ClassVar

from pace.rules.errors import SetupError
from pace.rules.model import Course, Hole, Player
from pace.rules.penalties import STROKE_PLAY
from pace.rules.scoring import countback, handicaps
from pace.rules.scoring.handicaps import Allowances
from pace.rules.scoring.results import DQ, OK, Entry, HoleLine, Results, Totals
from pace.rules.scoring.sides import Cards, Side
from pace.rules.scoring.slowplay import NO_EFFECTS, SideEffects
from pace.rules.scoring.teams import MATCH, STROKE, TeamFormat


@dataclass(frozen=True)
class Field:
    """Everything a scoring needs: the course, the sides, their cards and penalty effects.

    Each player plays the course from his own tees (``Player.tees``, ``Player.gender``):
    his course handicap takes their slope, rating and par, his strokes received their
    stroke indexes, his holes their pars (docs/scoring.md, "Tees").
    """

    course: Course
    sides: tuple[Side, ...]
    cards: Cards
    effects: Mapping[str, SideEffects]
    team_format: TeamFormat
    net: bool
    allowances: Allowances
    tees: Mapping[str, int]  # group id -> starting tee
    # computed once per field, on first use: the course from each tees and gender, course
    # handicaps by index and tees, strokes received by playing handicap and tees
    _views: dict[tuple[str | None, str | None], Course] = field(default_factory=dict, repr=False)
    _course_handicaps: dict[tuple[float | None, str | None, str | None], Fraction] = field(
        default_factory=dict, repr=False
    )
    _received: dict[tuple[int, str | None], Mapping[int, int]] = field(
        default_factory=dict, repr=False
    )
    _lowest_par: list[int] = field(default_factory=list, repr=False)

    def effects_of(self, side: Side) -> SideEffects:
        """Return what the counted penalties do to ``side``."""
        return self.effects.get(side.key, NO_EFFECTS)

    def played_from(self, player: Player) -> Course:
        """Return the course as ``player`` plays it: from his tees, rated for his gender."""
        key = (player.tees, player.gender) if self.course.tees else (None, None)
        if key not in self._views:
            try:
                self._views[key] = self.course.played_from(*key)
            except KeyError:
                raise SetupError(
                    f"player {player.name!r} plays from tees {player.tees!r}, which course "
                    f"{self.course.name!r} does not have; its tees are "
                    + ", ".join(t.name for t in self.course.tees),
                    field="tees",
                ) from None
            except ValueError as e:
                raise SetupError(f"player {player.name!r} (women): {e}", field="gender") from None
        return self._views[key]

    def unrounded_course_handicap(self, player: Player) -> Fraction:
        """Return ``player``'s course handicap from his tees before rounding."""
        key = (player.handicap, player.tees, player.gender)
        if key not in self._course_handicaps:
            factors = handicaps.CourseFactors.of(self.played_from(player))
            self._course_handicaps[key] = factors.unrounded(player.handicap)
        return self._course_handicaps[key]

    def course_handicap(self, player: Player) -> int:
        """Return ``player``'s course handicap from his tees (docs/rules.md §10.1)."""
        return handicaps.round_half_up(self.unrounded_course_handicap(player))

    def course_handicaps(self, side: Side) -> tuple[int, ...]:
        """Return the course handicap of each player of ``side``."""
        return tuple(self.course_handicap(p) for p in side.players)

    def allowance_bases(self, side: Side) -> tuple[int | Fraction, ...]:
        """Return what the allowance multiplies for each player of ``side``: his unrounded
        course handicap (the WHS reading, rounded once), or his course handicap rounded
        (the committee's older reading): docs/rules.md §10.1."""
        if self.allowances.rounding == handicaps.WHS:
            return tuple(self.unrounded_course_handicap(p) for p in side.players)
        return self.course_handicaps(side)

    def par_strokes(self, player: Player, family: str) -> int:
        """Return the strokes ``player`` adds for the par of his tees (WHS Rule 6.2b): the
        difference between their par and the lowest par of the tees in play, in stroke play
        and match play; none in Stableford and bogey/par, which score against each hole's
        own par (docs/scoring.md, "Tees of different par")."""
        if family not in (STROKE, MATCH) or not self.course.tees:
            return 0
        if not self._lowest_par:
            self._lowest_par.append(
                min(self.played_from(p).par for s in self.sides for p in s.players)
            )
        return self.played_from(player).par - self._lowest_par[0]

    def ball_par_strokes(self, side: Side, family: str) -> tuple[int, ...]:
        """Return the strokes for the par of the tees (Rule 6.2b) of each ball of ``side``:
        each partner's own in own-ball formats, half the partners' together (rounded half
        up) on one ball."""
        extra = [self.par_strokes(p, family) for p in side.players]
        if self.team_format.own_balls or len(extra) == 1:
            return tuple(extra)
        return (handicaps.round_half_up(Fraction(sum(extra), 2)),)

    def playing_handicaps(self, side: Side, family: str) -> tuple[int, ...]:
        """Return the playing handicap of each ball of ``side``: the format's allowance of
        the course handicaps (unrounded in the WHS reading), plus the strokes for the par of
        the tees (Rule 6.2b, :meth:`ball_par_strokes`)."""
        phs = self.team_format.playing_handicaps(
            self.allowance_bases(side), family, self.allowances
        )
        extra = self.ball_par_strokes(side, family)
        return tuple(ph + x for ph, x in zip(phs, extra, strict=True))

    def gross_par_strokes(self, side: Side, family: str) -> tuple[int, ...]:
        """Return the par strokes taken off each ball's gross in gross stroke play and gross
        match play (WHS Rule 6.2b (i); docs/rules.md §10.1), unless the committee turned the
        gross adjustment off; none in net play (the playing handicap has them) and in
        Stableford and bogey/par."""
        if self.net or family not in (STROKE, MATCH) or not self.allowances.gross_par_adjustment:
            return tuple(0 for _ in side.balls)
        return self.ball_par_strokes(side, family)

    def ball_course(self, side: Side, ball: str) -> Course:
        """Return the course as ``ball`` plays it: its player's tees in own-ball formats,
        else the tees of the side's first player (docs/scoring.md, "Tees")."""
        for p in side.players:
            if p.name == ball:
                return self.played_from(p)
        return self.played_from(side.players[0])

    def received(
        self, playing_handicap: int, course: Course | None = None, *, gross: bool = False
    ) -> Mapping[int, int]:
        """Return the strokes received per hole off ``playing_handicap`` (none when gross,
        unless ``gross``: the par strokes of a gross card), by the stroke indexes of
        ``course`` (the course as a ball plays it; default the course)."""
        played = course or self.course
        key = (playing_handicap if self.net or gross else 0, _stroke_indexes(played))
        if key not in self._received:
            try:
                self._received[key] = handicaps.strokes_received(key[0], played)
            except SetupError as e:
                if self.net:
                    raise
                raise SetupError(
                    e.message.replace("net scoring", "gross play from tees of different par")
                    + " (or turn the gross adjustment off: [handicap] gross_par_adjustment = "
                    "false, pace results --no-gross-par-adjustment)",
                    field=e.field,
                ) from None
        return self._received[key]


def _stroke_indexes(course: Course) -> str:
    """Return a key of a course's stroke indexes (courses from tees differ by them)."""
    return ",".join(str(h.stroke_index) for h in course.holes)


def tees_of(players: Sequence[Player], course: Course) -> tuple[str | None, str | None]:
    """Return how results name the tees of ``players``: the tee set's name and colour, the
    partners' joined with " / " where they differ; None on a course without tee sets."""
    if not course.tees:
        return None, None
    sets = []
    for p in players:
        try:
            t = course.tee_set(p.tees) if p.tees is not None else course.tees[0]
        except KeyError:
            return p.tees, None
        if t not in sets:
            sets.append(t)
    return " / ".join(t.name for t in sets), " / ".join(t.shown_colour for t in sets)


class Scoring(ABC):
    """A way of scoring a round."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    family: ClassVar[str]
    play: ClassVar[str] = STROKE_PLAY

    @abstractmethod
    def convert(self, kind: str, amount: int) -> tuple[str, int]:
        """Return the effect of a counted step: ``strokes``, ``points`` or ``loss_of_hole``."""

    @abstractmethod
    def score(self, field: Field) -> Results:
        """Return the round's results under this scoring."""


@dataclass(frozen=True)
class _Ball:
    name: str
    playing_handicap: int
    received: Mapping[int, int]
    holes: Mapping[int, Hole]  # the course's holes as this ball plays them (its tees)


class CardScoring(Scoring):
    """A scoring that values each hole of a card and ranks entries with countback."""

    #: whether a bigger value is better (points, holes) or a smaller one (strokes)
    higher_is_better: ClassVar[bool] = False

    @abstractmethod
    def hole_value(self, strokes: int | None, hole: Hole, received: int, net: bool) -> int | None:
        """Return what a ball's hole is worth; ``strokes`` include its penalty strokes."""

    @abstractmethod
    def total(self, lines: Sequence[HoleLine], effects: SideEffects) -> Totals:
        """Return the scoring's totals of a card: its ``result``, points or holes."""

    @abstractmethod
    def primary(self, entry: Entry) -> countback.Value | None:
        """Return what entries are ranked on, lower is better; None when not ranked."""

    def countback_value(self, entry: Entry, step: countback.Step, net: bool) -> countback.Value:
        """Return the entry's value on a countback step: its holes' values (the steps are the
        course's last holes)."""
        first = step.holes[0]
        return sum(line.value or 0 for line in entry.holes if line.hole >= first)

    def score(self, field: Field) -> Results:
        entries = [self._entry(side, field) for side in field.sides]
        steps = countback.steps(field.course)
        keys: list[countback.RankKey | None] = []
        for e in entries:
            p = self.primary(e) if e.status == OK else None
            if p is None:
                keys.append(None)
                continue
            sign = -1 if self.higher_is_better else 1
            values = [self.countback_value(e, s, field.net) for s in steps]
            keys.append(countback.RankKey(p, tuple((sign * v, v) for v in values)))
        standings = countback.rank(keys, [e.class_name for e in entries], [s.label for s in steps])
        placed = [
            _place(e, s.position, s.tied, s.class_position, s.countback)
            for e, s in zip(entries, standings, strict=True)
        ]
        order = sorted(
            range(len(placed)),
            key=lambda i: (placed[i].position is None, placed[i].position or 0, i),
        )
        return Results(
            self.name, field.team_format.name, field.net, tuple(placed[i] for i in order)
        )

    # -- one side's card ----------------------------------------------------------------

    def _balls(self, side: Side, field: Field) -> list[_Ball]:
        phs = field.playing_handicaps(side, self.family)
        gross = field.gross_par_strokes(side, self.family)
        out = []
        for name, ph, par in zip(side.balls, phs, gross, strict=True):
            played = field.ball_course(side, name)
            received = (
                field.received(ph, played) if field.net else field.received(par, played, gross=True)
            )
            out.append(_Ball(name, ph, received, {h.number: h for h in played.holes}))
        return out

    def _entry(self, side: Side, field: Field) -> Entry:
        effects = field.effects_of(side)
        all_balls = self._balls(side, field)
        balls = [b for b in all_balls if b.name not in effects.dq_balls]
        own = field.team_format.own_balls
        lines = []
        cards = [(b, field.cards.of(side, b.name)) for b in balls]
        recorded = {hole for _, scores in cards for hole in scores}
        net_scoring = field.net
        for hole in field.course.holes:
            number = hole.number
            options = []
            for b, scores in cards:
                record = scores.get(number)
                strokes = record.strokes if record is not None else None
                pen = effects.strokes.get((b.name, number), 0) if effects.strokes else 0
                total = strokes + pen if strokes is not None else None
                value = self.hole_value(total, b.holes[number], b.received[number], net_scoring)
                options.append((b, strokes, pen, value))
            lines.append(self._line(number, options, own))
        totals = [ln.strokes + ln.penalty_strokes for ln in lines if ln.strokes is not None]
        gross = sum(totals) if len(totals) == len(lines) else None
        net = gross - sum(ln.received for ln in lines) if gross is not None and field.net else None
        t = self.total(lines, effects)
        tees, colour = tees_of(side.players, field.course)
        return Entry(
            key=side.key,
            entry=side.name,
            group=side.group,
            players=tuple(p.name for p in side.players),
            class_name=side.class_name,
            handicap_index=side.players[0].handicap if len(side.players) == 1 else None,
            playing_handicap=all_balls[0].playing_handicap if len(all_balls) == 1 else None,
            playing_handicaps={b.name: b.playing_handicap for b in all_balls} if own else {},
            holes=tuple(lines),
            thru=len(recorded),
            gross=t.get("gross", gross),
            net=t.get("net", net),
            penalty_strokes=sum(ln.penalty_strokes for ln in lines),
            result="DQ" if effects.dq else t.get("result", ""),
            status=DQ if effects.dq else t.get("status", OK),
            reason=effects.dq,
            points=t.get("points"),
            penalty_points=t.get("penalty_points"),
            holes_won=t.get("holes_won"),
            holes_halved=t.get("holes_halved"),
            holes_lost=t.get("holes_lost"),
            penalty_holes=t.get("penalty_holes"),
            balance=t.get("balance"),
            penalties=effects.lines,
            tees=tees,
            tee_colour=colour,
            course_handicap=(
                field.course_handicap(side.players[0]) if len(side.players) == 1 else None
            ),
        )

    def _line(
        self,
        hole: int,
        options: Sequence[tuple[_Ball, int | None, int, int | None]],
        own: bool,
    ) -> HoleLine:
        if not options:  # every ball of the side is out of the round (disqualified)
            return HoleLine(hole, None, 0, 0, None)
        best = options[0]
        for option in options[1:]:
            if self._better(option, best):
                best = option
        ball, strokes, pen, value = best
        points, outcome = self.labels(value)
        if not own:
            return HoleLine(
                hole, strokes, ball.received[hole], pen if strokes is not None else 0, value,
                points, outcome,
            )  # fmt: skip
        return HoleLine(
            hole, strokes, ball.received[hole], pen if strokes is not None else 0, value,
            points, outcome,
            counted=ball.name if strokes is not None else None,
            scores={b.name: s for b, s, _, _ in options},
            received_by={b.name: b.received[hole] for b, _, _, _ in options},
            penalty_by={b.name: p for b, _, p, _ in options},
        )  # fmt: skip

    def labels(self, value: int | None) -> tuple[int | None, str | None]:
        """Return a hole's Stableford points and bogey/par outcome, where the scoring has them."""
        return None, None

    def _better(
        self,
        a: tuple[_Ball, int | None, int, int | None],
        b: tuple[_Ball, int | None, int, int | None],
    ) -> bool:
        """Return whether ball option ``a`` counts rather than ``b`` (ties: ``b``, the first)."""
        if a[3] is None:
            return False
        if b[3] is None:
            return True
        if a[3] != b[3]:
            return a[3] > b[3] if self.higher_is_better else a[3] < b[3]
        return a[1] is not None and b[1] is None


def _place(
    entry: Entry,
    position: int | None,
    tied: bool,
    class_position: int | None,
    cb: str | None,
) -> Entry:
    return replace(entry, position=position, tied=tied, class_position=class_position, countback=cb)

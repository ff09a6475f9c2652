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
from typing import ClassVar

from pace.rules.model import Course, Hole
from pace.rules.penalties import STROKE_PLAY
from pace.rules.scoring import countback, handicaps
from pace.rules.scoring.handicaps import Allowances
from pace.rules.scoring.results import DQ, OK, Entry, HoleLine, Results, Totals
from pace.rules.scoring.sides import Cards, Side
from pace.rules.scoring.slowplay import NO_EFFECTS, SideEffects
from pace.rules.scoring.teams import TeamFormat


@dataclass(frozen=True)
class Field:
    """Everything a scoring needs: the course, the sides, their cards and penalty effects."""

    course: Course
    sides: tuple[Side, ...]
    cards: Cards
    effects: Mapping[str, SideEffects]
    team_format: TeamFormat
    net: bool
    allowances: Allowances
    tees: Mapping[str, int]  # group id -> starting tee
    # computed once per field, on first use: the course's factors, course handicaps by
    # index, strokes received by playing handicap
    _factors: list[handicaps.CourseFactors] = field(default_factory=list, repr=False)
    _course_handicaps: dict[float | None, int] = field(default_factory=dict, repr=False)
    _received: dict[int, Mapping[int, int]] = field(default_factory=dict, repr=False)

    def effects_of(self, side: Side) -> SideEffects:
        """Return what the counted penalties do to ``side``."""
        return self.effects.get(side.key, NO_EFFECTS)

    def course_handicaps(self, side: Side) -> tuple[int, ...]:
        """Return the course handicap of each player of ``side``."""
        out = []
        for p in side.players:
            if p.handicap not in self._course_handicaps:
                if not self._factors:
                    self._factors.append(handicaps.CourseFactors.of(self.course))
                self._course_handicaps[p.handicap] = self._factors[0].course_handicap(p.handicap)
            out.append(self._course_handicaps[p.handicap])
        return tuple(out)

    def received(self, playing_handicap: int) -> Mapping[int, int]:
        """Return the strokes received per hole off ``playing_handicap`` (none when gross)."""
        key = playing_handicap if self.net else 0
        if key not in self._received:
            self._received[key] = handicaps.strokes_received(key, self.course)
        return self._received[key]


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
        phs = field.team_format.playing_handicaps(
            field.course_handicaps(side), self.family, field.allowances
        )
        return [
            _Ball(name, ph, field.received(ph)) for name, ph in zip(side.balls, phs, strict=True)
        ]

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
                value = self.hole_value(total, hole, b.received[number], net_scoring)
                options.append((b, strokes, pen, value))
            lines.append(self._line(number, options, own))
        totals = [ln.strokes + ln.penalty_strokes for ln in lines if ln.strokes is not None]
        gross = sum(totals) if len(totals) == len(lines) else None
        net = gross - sum(ln.received for ln in lines) if gross is not None and field.net else None
        t = self.total(lines, effects)
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

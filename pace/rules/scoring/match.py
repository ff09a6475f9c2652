"""Match play: singles, foursome/threesome/greensome and four-ball/best-ball (docs/rules.md §10).

Holes are taken in the order the match plays them (from tee 10: 10–18, then 1–9). A hole is
won by the lower score (net when net), halved on equal scores or when neither side holes
out, or conceded to the side named. After each hole the state is "n up", "all square" or
"dormie n"; the match ends when one side leads by more holes than remain, and holes played
after that are ignored. The result reads "3 & 2", "1 up", "2 up" or "all square".

Handicaps: the side with the lower playing handicap plays off zero, the other receives the
difference; in four-ball the lowest of the four plays off zero and the others receive the
difference from him (§10.1).

Pace penalties: a loss of hole loses the penalty hole (in four-ball the partner's own ball
does not count on it; the side loses it when no ball of it is left); a final warning or a
warning changes nothing; strokes, and swin points, go on the hole's score; a disqualified
side loses the match ("DQ").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from pace.rules.allotted import playing_order
from pace.rules.errors import SetupError
from pace.rules.penalties import MATCH_PLAY
from pace.rules.scoring import slowplay
from pace.rules.scoring.base import Field, Scoring, tees_of
from pace.rules.scoring.results import DQ, OK, Match, MatchHole, MatchSide, Results
from pace.rules.scoring.sides import Side
from pace.rules.scoring.slowplay import LOSS_OF_HOLE, STROKES, SideEffects
from pace.rules.scoring.teams import MATCH

WON, HALVED, CONCEDED, PENALTY = "won", "halved", "conceded", "penalty"


def state_text(up: int, remaining: int) -> str:
    """Return the state of a match ``up`` holes up (for the leader) with ``remaining`` to play.

    >>> state_text(0, 5), state_text(2, 5), state_text(3, 3), state_text(2, 0)
    ('all square', '2 up', 'dormie 3', '2 up')
    """
    if up == 0:
        return "all square"
    if 0 < remaining == up:
        return f"dormie {up}"
    return f"{up} up"


def result_text(up: int, remaining: int) -> str:
    """Return a finished match's result.

    >>> result_text(3, 2), result_text(1, 0), result_text(0, 0)
    ('3 & 2', '1 up', 'all square')
    """
    if up == 0:
        return "all square"
    return f"{up} & {remaining}" if remaining else f"{up} up"


def pair_matches(sides: Sequence[Side]) -> list[tuple[str, tuple[Side, Side]]]:
    """Return the matches of the draw: the ``match`` column's, else one per group.

    A match has exactly two sides.
    """
    with_id = [s for s in sides if s.match]
    problems = [
        f"side {s.name!r} of group {s.group!r} is given matches "
        + ", ".join(repr(m) for m in s.matches)
        + "; partners play one match"
        for s in sides
        if len(s.matches) > 1
    ]
    if with_id and len(with_id) != len(sides):
        missing = ", ".join(repr(s.name) for s in sides if not s.match)
        problems.append(f"{missing} {'has' if ',' not in missing else 'have'} no match")
    by_match: dict[str, list[Side]] = {}
    for s in sides:
        key = s.match if with_id else s.group
        if key:
            by_match.setdefault(key, []).append(s)
    out = []
    for key, members in by_match.items():
        if len(members) != 2:
            what = "match" if with_id else "group"
            problems.append(
                f"{what} {key!r} has {len(members)} side(s); a match has two: "
                + (", ".join(repr(m.name) for m in members) or "none")
            )
            continue
        out.append((key, (members[0], members[1])))
    if problems:
        raise SetupError("; ".join(problems), field="match")
    return out


class _Handicap(NamedTuple):
    """A ball's handicap in a match: with the allowance, off the lowest, strokes per hole."""

    allowance: int
    match: int
    received: Mapping[int, int]


class _SideHole(NamedTuple):
    score: int | None
    conceded: bool
    lost: bool
    scores: Mapping[str, int | None]
    received: Mapping[str, int]


class MatchPlay(Scoring):
    """Match play: holes won and lost, side against side.

    >>> MatchPlay().convert("loss_of_hole", 0), MatchPlay().convert("points", 1)
    (('loss_of_hole', 1), ('strokes', 1))
    """

    name = "match"
    aliases = ("match_play", "matchplay", "match-play", "partie_par_trous")
    family = MATCH
    play = MATCH_PLAY

    def convert(self, kind: str, amount: int) -> tuple[str, int]:
        if kind == "loss_of_hole":
            return LOSS_OF_HOLE, 1
        if kind in ("strokes", "points"):
            return STROKES, amount
        raise slowplay.unknown_kind(kind)

    def score(self, field: Field) -> Results:
        matches = [self._match(key, pair, field) for key, pair in pair_matches(field.sides)]
        return Results(self.name, field.team_format.name, field.net, matches=tuple(matches))

    def _handicaps(self, pair: tuple[Side, Side], field: Field) -> list[dict[str, _Handicap]]:
        """Return, per side, each ball's playing handicaps and strokes received per hole."""
        phs = []
        for side in pair:
            balls = field.playing_handicaps(side, MATCH)
            phs.append(dict(zip(side.balls, balls, strict=True)))
        low = min(ph for side in phs for ph in side.values())
        if not field.net:  # gross: only the par strokes of Rule 6.2b, the lowest off zero
            gross = [
                dict(zip(s.balls, field.gross_par_strokes(s, MATCH), strict=True)) for s in pair
            ]
            least = min(g for side in gross for g in side.values())
            return [
                {
                    ball: _Handicap(
                        ph, ph - low,
                        field.received(g[ball] - least, field.ball_course(side, ball), gross=True),
                    )
                    for ball, ph in side_phs.items()
                }
                for side, side_phs, g in zip(pair, phs, gross, strict=True)
            ]  # fmt: skip
        return [
            {
                ball: _Handicap(
                    ph, ph - low, field.received(ph - low, field.ball_course(side, ball))
                )
                for ball, ph in side_phs.items()
            }
            for side, side_phs in zip(pair, phs, strict=True)
        ]

    def _match(self, key: str, pair: tuple[Side, Side], field: Field) -> Match:
        course = field.course
        effects = [field.effects_of(s) for s in pair]
        hcp = self._handicaps(pair, field)
        order = playing_order(course, field.tees[pair[0].group])
        played = _played(order, pair, field, effects)
        holes: list[MatchHole] = []
        up = 0  # holes up for the first side; negative: the second side leads
        decided_at: int | None = None
        for i, number in enumerate(order[:played]):
            a, b = (
                self._side_hole(side, number, hcp[k], field, effects[k])
                for k, side in enumerate(pair)
            )
            winner, how = _hole_winner(a, b)
            up += 1 if winner == 0 else -1 if winner == 1 else 0
            remaining = len(order) - i - 1
            leader = None if up == 0 else pair[0 if up > 0 else 1].name
            own = field.team_format.own_balls
            holes.append(
                MatchHole(
                    number,
                    pair[winner].name if winner is not None else None,
                    how,
                    state_text(abs(up), remaining),
                    leader,
                    {pair[0].name: a.score, pair[1].name: b.score},
                    {**a.received, **b.received},
                    {**a.scores, **b.scores} if own else None,
                )
            )
            if abs(up) > remaining:
                decided_at = i
                break
        thru = len(holes)
        remaining = len(order) - thru
        finished = decided_at is not None or thru == len(order)
        if finished:
            result = result_text(abs(up), remaining)
            winner_name = None if up == 0 else pair[0 if up > 0 else 1].name
        else:
            result = state_text(abs(up), remaining) + f" thru {thru}" if thru else "not started"
            winner_name = None
        status, reason = OK, None
        dq = [k for k in (0, 1) if effects[k].dq]
        if dq:
            status, result, finished = DQ, "DQ", True
            reason = "; ".join(f"{pair[k].name}: {effects[k].dq}" for k in dq)
            winner_name = pair[1 - dq[0]].name if len(dq) == 1 else None
        sides = tuple(self._match_side(side, hcp[k], field) for k, side in enumerate(pair))
        return Match(
            key,
            (sides[0], sides[1]),
            tuple(holes),
            result,
            winner_name,
            status,
            finished,
            thru,
            reason,
            effects[0].lines + effects[1].lines,
        )

    def _match_side(self, side: Side, hcp: Mapping[str, _Handicap], field: Field) -> MatchSide:
        received = {ball: sum(h.received.values()) for ball, h in hcp.items()}
        players = tuple(p.name for p in side.players)
        tees, colour = tees_of(side.players, field.course)
        if field.team_format.own_balls:
            return MatchSide(
                side.key,
                side.name,
                players,
                None,
                None,
                None,
                {ball: h.match for ball, h in hcp.items()},
                received,
                {ball: h.allowance for ball, h in hcp.items()},
                tees,
                colour,
            )
        (h,) = hcp.values()
        return MatchSide(
            side.key, side.name, players, h.match, received[side.balls[0]], h.allowance,
            tees=tees, tee_colour=colour,
        )  # fmt: skip

    def _side_hole(
        self,
        side: Side,
        hole: int,
        hcp: Mapping[str, _Handicap],
        field: Field,
        effects: SideEffects,
    ) -> _SideHole:
        lost = (None, hole) in effects.lost
        conceded = False
        best: int | None = None
        scores: dict[str, int | None] = {}
        received: dict[str, int] = {}
        counting = 0
        for ball in side.balls:
            rec = hcp[ball].received
            received[ball] = rec[hole]
            record = field.cards.of(side, ball).get(hole)
            strokes = record.strokes if record is not None else None
            scores[ball] = strokes
            if record is not None and record.conceded:
                conceded = True
            if ball in effects.dq_balls or (ball, hole) in effects.lost:
                continue
            counting += 1
            if strokes is None:
                continue
            net = strokes + effects.penalty_strokes(ball, hole) - rec[hole]
            best = net if best is None or net < best else best
        if counting == 0:
            lost = True
        return _SideHole(best, conceded, lost, scores, received)


def _played(
    order: Sequence[int], pair: tuple[Side, Side], field: Field, effects: Sequence[SideEffects]
) -> int:
    """Return how many holes of the match's order are played: up to the last one recorded
    (a score, a concession or a loss of hole on it)."""
    seen: set[int] = set()
    for side in pair:
        for ball in side.balls:
            seen.update(field.cards.of(side, ball))
    for e in effects:
        seen.update(hole for _, hole in e.lost)
    last = max((i for i, h in enumerate(order) if h in seen), default=-1)
    return last + 1


def _hole_winner(a: _SideHole, b: _SideHole) -> tuple[int | None, str]:
    """Return which side won a hole (0, 1 or None for halved) and how."""
    if a.lost or b.lost:
        if a.lost and b.lost:
            return None, HALVED
        return (1, PENALTY) if a.lost else (0, PENALTY)
    if a.conceded or b.conceded:
        if a.conceded and b.conceded:
            return None, HALVED
        return (1, CONCEDED) if a.conceded else (0, CONCEDED)
    if a.score is None and b.score is None:
        return None, HALVED
    if a.score is None:
        return 1, WON
    if b.score is None:
        return 0, WON
    if a.score == b.score:
        return None, HALVED
    return (0, WON) if a.score < b.score else (1, WON)

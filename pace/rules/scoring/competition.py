"""Competitions of several rounds: 2–4 stored rounds added up, a cut, countback on the last
round first (issue 28; docs/scoring.md, "Competitions of several rounds").

Pure: the caller scores each round as a round is scored (``score_round``, its pace penalties
on its own card) and hands the results in order; this module adds them up. A player is the
same player in every round when his entry has the same players' names, folded as the scores
CSV folds them (no case, single spaces): the draw has no licence number, names are how a
committee's files identify players.

A competition is scored one of three ways, and its rounds must all be scored that way:
``gross`` (stroke play, gross), ``net`` (stroke play, net) or ``points`` (Stableford, all net
or all gross). The cut, after round N, keeps the ``top`` N and ties, or every player
``within`` X strokes of the lead (Stableford: X points), on the totals after round N; it
ignores countback (ties at the line all make it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pace.rules.errors import SetupError
from pace.rules.model import Course
from pace.rules.scoring import countback
from pace.rules.scoring.base import CardScoring
from pace.rules.scoring.results import DQ, NR, OK, Entry, Results
from pace.rules.scoring.slowplay import PenaltyLine
from pace.rules.scoring.stableford import Stableford
from pace.rules.scoring.stroke import StrokePlay

GROSS, NET, POINTS = "gross", "net", "points"
#: the ways a competition is scored, each with the round scoring it adds up
COMPETITION_SCORINGS = (GROSS, NET, POINTS)
#: a competition's entry that did not make the cut
MC = "mc"
MIN_ROUNDS, MAX_ROUNDS = 2, 4
MAX_NAME = 100


def scoring_of(round_scoring: str, net: bool) -> str | None:
    """Return the competition scoring that adds up rounds scored so, or None (match play,
    bogey and par are not added up).

    >>> scoring_of("stroke", False), scoring_of("stroke", True), scoring_of("stableford", True)
    ('gross', 'net', 'points')
    >>> scoring_of("match", False) is None
    True
    """
    if round_scoring == StrokePlay.name:
        return NET if net else GROSS
    if round_scoring == Stableford.name:
        return POINTS
    return None


def _how(scoring: str, net: bool) -> str:
    return f"{scoring} {'net' if net else 'gross'}"


def check_scoring(requested: str | None, rounds: Sequence[tuple[str, str, bool]]) -> str:
    """Return the competition's scoring for rounds scored as ``rounds`` says (name, scoring,
    net); refuse rounds scored unalike, a scoring no competition adds up, or a ``requested``
    scoring the rounds are not scored by.

    >>> check_scoring(None, [("R1", "stroke", True), ("R2", "stroke", True)])
    'net'
    >>> check_scoring("gross", [("R1", "stroke", True), ("R2", "stroke", True)])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pace.rules.errors.SetupError: scoring 'gross' adds up stroke gross rounds; the rounds ...
    """
    if requested is not None and requested not in COMPETITION_SCORINGS:
        raise SetupError(
            f"scoring {requested!r}: expected one of {', '.join(COMPETITION_SCORINGS)}",
            field="scoring",
        )
    first_name, first_scoring, first_net = rounds[0]
    for name, scoring, net in rounds[1:]:
        if (scoring, net) != (first_scoring, first_net):
            raise SetupError(
                f"round {name!r} is scored {_how(scoring, net)} but round {first_name!r}"
                f" {_how(first_scoring, first_net)}: the rounds of a competition are scored"
                " alike (set a round's scoring with pace import draw --scoring)",
                field="rounds",
            )
    found = scoring_of(first_scoring, first_net)
    if found is None:
        raise SetupError(
            f"the rounds are scored {first_scoring}: a competition adds up stroke play (gross"
            " or net) or Stableford rounds",
            field="scoring",
        )
    if requested is not None and requested != found:
        wanted = {GROSS: "stroke gross", NET: "stroke net", POINTS: "stableford"}[requested]
        raise SetupError(
            f"scoring {requested!r} adds up {wanted} rounds; the rounds are scored"
            f" {_how(first_scoring, first_net)} (its scoring is the rounds' own: leave it out,"
            " or set the rounds' scoring with pace import draw --scoring)",
            field="scoring",
        )
    return found


@dataclass(frozen=True)
class Cut:
    """The cut after round ``after``: the ``top`` N and ties, or ``within`` X of the lead.

    >>> Cut(after=2, top=60).describe(POINTS), Cut(after=1, within=8).describe(GROSS)
    ('top 60 and ties after round 2', 'within 8 strokes of the lead after round 1')
    """

    after: int
    top: int | None = None
    within: int | None = None

    def check(self, rounds: int) -> None:
        """Refuse a cut a competition of ``rounds`` rounds cannot have.

        >>> Cut(after=2, top=10).check(2)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pace.rules.errors.SetupError: a cut after round 2 of 2: the cut comes before the last ...
        >>> Cut(after=1, top=10, within=5).check(2)
        Traceback (most recent call last):
        ...
        pace.rules.errors.SetupError: a cut is the top N and ties or within X of the lead, not both
        >>> Cut(after=1, top=0).check(3)
        Traceback (most recent call last):
        ...
        pace.rules.errors.SetupError: cut top 0: keep at least 1 player
        """
        if not 1 <= self.after < rounds:
            raise SetupError(
                f"a cut after round {self.after} of {rounds}: the cut comes before the last"
                f" round (after round {rounds - 1} at most)"
                if self.after >= rounds
                else f"a cut after round {self.after}: rounds are numbered from 1",
                field="cut_after",
            )
        if (self.top is None) == (self.within is None):
            raise SetupError(
                "a cut is the top N and ties or within X of the lead, not both"
                if self.top is not None
                else "a cut needs its rule: the top N and ties, or within X of the lead",
                field="cut",
            )
        if self.top is not None and self.top < 1:
            raise SetupError(f"cut top {self.top}: keep at least 1 player", field="cut_top")
        if self.within is not None and self.within < 0:
            raise SetupError(
                f"cut within {self.within}: the margin is 0 or more", field="cut_within"
            )

    def describe(self, scoring: str) -> str:
        """Return the cut in words."""
        if self.top is not None:
            rule = f"top {self.top} and ties"
        else:
            unit = "points" if scoring == POINTS else "strokes"
            rule = f"within {self.within} {unit} of the lead"
        return f"{rule} after round {self.after}"


def made_cut(totals: Sequence[int | None], cut: Cut, higher_is_better: bool) -> list[bool]:
    """Return who makes ``cut`` on the ``totals`` after its round (None: no total, out).

    Ties at the line all make it; countback plays no part in a cut.

    >>> made_cut([70, 72, 72, 75, None], Cut(after=1, top=2), False)  # top 2 and ties
    [True, True, True, False, False]
    >>> made_cut([70, 72], Cut(after=1, top=5), False)  # fewer players than places
    [True, True]
    >>> made_cut([71, 78, 79, 70], Cut(after=1, within=8), False)  # 8 strokes of 70
    [True, True, False, True]
    >>> made_cut([40, 31, 30, 36], Cut(after=1, within=9), True)  # Stableford: 9 points of 40
    [True, True, False, True]
    >>> made_cut([30, 36, 36, 31], Cut(after=1, top=2), True)  # the most points are best
    [False, True, True, False]
    >>> made_cut([None, None], Cut(after=1, within=0), False)
    [False, False]
    """
    sign = -1 if higher_is_better else 1
    keys = sorted(sign * t for t in totals if t is not None)
    if not keys:
        return [False] * len(totals)
    if cut.top is not None:
        line = keys[min(cut.top, len(keys)) - 1]
    else:
        assert cut.within is not None
        line = keys[0] + cut.within
    return [t is not None and sign * t <= line for t in totals]


def check_competition(name: str, rounds: Sequence[str], cut: Cut | None) -> None:
    """Refuse a competition's setup: a blank name, fewer than 2 or more than 4 rounds, a
    round twice, a cut it cannot have.

    >>> check_competition("Club championship", ["R1", "R1"], None)
    Traceback (most recent call last):
    ...
    pace.rules.errors.SetupError: round 'R1' is given twice; a competition plays each round once
    >>> check_competition("Open", ["R1"], None)
    Traceback (most recent call last):
    ...
    pace.rules.errors.SetupError: a competition has 2 to 4 rounds (36 to 72 holes on 18); 1 given
    """
    if not name.strip() or name != name.strip():
        raise SetupError(
            f"competition name {name!r}: give a name without leading or trailing spaces",
            field="name",
        )
    if len(name) > MAX_NAME or any(unicodedata.category(c).startswith("C") for c in name):
        raise SetupError(
            f"competition name {name[:MAX_NAME]!r}: at most {MAX_NAME} printable characters",
            field="name",
        )
    if not MIN_ROUNDS <= len(rounds) <= MAX_ROUNDS:
        raise SetupError(
            f"a competition has {MIN_ROUNDS} to {MAX_ROUNDS} rounds (36 to 72 holes on 18);"
            f" {len(rounds)} given",
            field="rounds",
        )
    seen: set[str] = set()
    for r in rounds:
        if r in seen:
            raise SetupError(
                f"round {r!r} is given twice; a competition plays each round once",
                field="rounds",
            )
        seen.add(r)
    if cut is not None:
        cut.check(len(rounds))


# -- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedRound:
    """One round of a competition as the caller scored it: its name, course and results."""

    name: str
    course: Course
    results: Results


@dataclass(frozen=True)
class RoundFigure:
    """A player's round in a competition: the round's own entry, figures and penalties.

    ``figure`` is what the round adds to the total: gross or net strokes, or the points
    after the slow-play deductions; ``status`` is the round's (``ok``, ``nr``, ``dq``), and
    ``nr`` for a Stableford card with no hole scored (no card returned). ``counted`` says
    whether the figure is in the total (rounds after a missed cut are not).
    """

    round: str
    status: str
    figure: int | None
    result: str
    position: int | None
    tied: bool
    gross: int | None
    net: int | None
    points: int | None
    penalty_strokes: int
    penalty_points: int | None
    reason: str | None
    penalties: tuple[PenaltyLine, ...]
    counted: bool = True


@dataclass(frozen=True)
class CompetitionEntry:
    """One player (or side) of a competition: his rounds, total and place.

    ``rounds`` has one item per round of the competition, None where he has no entry in
    that round's draw, or where the round is not played yet, or after a cut he missed.
    ``made_cut`` is None when there is no cut or it is not made yet. ``status``: ``ok``
    (ranked), ``mc`` (missed the cut), ``nr`` (a round without a return), ``dq``.
    """

    key: str
    entry: str
    players: tuple[str, ...]
    class_name: str | None
    rounds: tuple[RoundFigure | None, ...]
    total: int | None
    result: str
    status: str
    made_cut: bool | None
    reason: str | None = None
    position: int | None = None
    tied: bool = False
    class_position: int | None = None
    countback: str | None = None


@dataclass(frozen=True)
class CutLine:
    """The cut as it fell: the rule, and the last total that made it (None: nobody)."""

    cut: Cut
    line: int | None
    made: int


@dataclass(frozen=True)
class CompetitionResults:
    """A competition's results: ``played`` rounds of ``rounds`` counted so far."""

    name: str
    scoring: str
    rounds: tuple[str, ...]
    played: int
    cut: Cut | None
    cut_line: CutLine | None
    entries: tuple[CompetitionEntry, ...]


def _fold(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def player_key(players: Sequence[str]) -> str:
    """Return who an entry is, the same in every round: its players' folded names.

    >>> player_key(["Julie  Gagné"]) == player_key(["julie gagné"])
    True
    """
    return " + ".join(sorted(_fold(p) for p in players))


def _figure(entry: Entry, scoring: str) -> RoundFigure:
    status = entry.status
    if scoring == POINTS:
        figure = None
        if entry.points is not None:
            figure = entry.points - (entry.penalty_points or 0)
        if status == OK and entry.thru == 0:
            status = NR  # no hole scored: no card returned
    else:
        figure = entry.net if scoring == NET else entry.gross
        if scoring == GROSS and figure is not None:
            # the gross less the par strokes of WHS Rule 6.2b (i) (issue 47), as the round
            # ranks it: the holes' values; the gross itself when the tees have one par
            figure = sum(line.value or 0 for line in entry.holes)
    if status != OK:
        figure = None
    return RoundFigure(
        round="", status=status, figure=figure, result=entry.result, position=entry.position,
        tied=entry.tied, gross=entry.gross, net=entry.net, points=entry.points,
        penalty_strokes=entry.penalty_strokes, penalty_points=entry.penalty_points,
        reason=entry.reason, penalties=entry.penalties,
    )  # fmt: skip


@dataclass
class _Player:
    key: str
    entries: list[Entry | None]
    figures: list[RoundFigure | None]


def _scorer(played: PlayedRound) -> CardScoring:
    return StrokePlay() if played.results.scoring == StrokePlay.name else Stableford()


def _total(p: _Player, upto: int) -> tuple[int | None, str, str | None]:
    """Return the player's total over the first ``upto`` rounds, or why he has none:
    (total, status, reason)."""
    total = 0
    for i in range(upto):
        f = p.figures[i]
        if f is not None and f.status == DQ:
            return None, DQ, f"{f.round}: {f.reason or 'disqualified'}"
    for i in range(upto):
        f = p.figures[i]
        if f is None:
            return None, NR, f"not in the draw of round {i + 1}"
        if f.figure is None:
            why = "no card" if f.points is not None and f.status == NR else "no return"
            return None, NR, f"{why} in {f.round}"
        total += f.figure
    return total, OK, None


def _key(p: _Player, total: int, upto: int, rounds: Sequence[PlayedRound], higher: bool,
         net: bool) -> countback.RankKey:  # fmt: skip
    """Return the ranking key over the first ``upto`` rounds: the total, then the last round's
    figure and countback steps, then the round before's, and so on."""
    sign = -1 if higher else 1
    steps: list[tuple[countback.Value, countback.Value]] = []
    for i in reversed(range(upto)):
        entry, figure = p.entries[i], p.figures[i]
        assert entry is not None and figure is not None and figure.figure is not None
        steps.append((sign * figure.figure, figure.figure))
        scorer = _scorer(rounds[i])
        for step in countback.steps(rounds[i].course):
            value = scorer.countback_value(entry, step, net)
            steps.append((sign * value, value))
    return countback.RankKey(sign * total, tuple(steps))


def _labels(rounds: Sequence[PlayedRound], upto: int) -> list[str]:
    out = []
    for i in reversed(range(upto)):
        out.append(rounds[i].name)
        out += [f"{rounds[i].name} {s.label}" for s in countback.steps(rounds[i].course)]
    return out


def _result(total: int | None, status: str, scoring: str) -> str:
    if status != OK or total is None:
        return status.upper()
    if scoring == POINTS:
        return f"{total} point" if abs(total) == 1 else f"{total} points"
    return str(total)


def score_competition(
    name: str,
    scoring: str,
    rounds: Sequence[PlayedRound],
    cut: Cut | None = None,
) -> CompetitionResults:
    """Return the competition's results from its rounds' results, in round order.

    The rounds count up to the last one with a score (later ones are not played yet); the
    cut falls once its round is played. Players are ranked on their total with countback
    on the last round first, positions shared when still equal (1, 2, 2, 4).
    """
    if scoring not in COMPETITION_SCORINGS:
        raise SetupError(f"unknown competition scoring {scoring!r}", field="scoring")
    for r in rounds:
        if scoring_of(r.results.scoring, r.results.net) != scoring:
            raise SetupError(
                f"round {r.name!r} is scored {_how(r.results.scoring, r.results.net)}, not as"
                f" the competition ({scoring})",
                field="scoring",
            )
    higher = scoring == POINTS
    net = rounds[0].results.net if rounds else False
    players: dict[str, _Player] = {}
    for i, r in enumerate(rounds):
        for e in r.results.entries:
            key = player_key(e.players)
            p = players.setdefault(key, _Player(key, [None] * len(rounds), [None] * len(rounds)))
            p.entries[i] = e
            p.figures[i] = _with_round(_figure(e, scoring), r.name)
    played = max(
        (i + 1 for i, r in enumerate(rounds) if any(e.thru for e in r.results.entries)),
        default=0,
    )
    everyone = list(players.values())
    made: dict[str, bool] = {}
    cut_line = None
    cut_standing: dict[str, int] = {}
    if cut is not None and played >= cut.after:
        at_cut = [_total(p, cut.after)[0] for p in everyone]
        kept = made_cut(at_cut, cut, higher)
        made = {p.key: k for p, k in zip(everyone, kept, strict=True)}
        line = [t for t, k in zip(at_cut, kept, strict=True) if k and t is not None]
        worst = (min(line) if higher else max(line)) if line else None
        cut_line = CutLine(cut, worst, sum(kept))
        cut_keys = [
            _key(p, t, cut.after, rounds, higher, net) if t is not None else None
            for p, t in zip(everyone, at_cut, strict=True)
        ]
        at_line = countback.rank(cut_keys, [None] * len(cut_keys), _labels(rounds, cut.after))
        cut_standing = {
            p.key: s.position for p, s in zip(everyone, at_line, strict=True) if s.position
        }
    entries: list[CompetitionEntry] = []
    keys: list[countback.RankKey | None] = []
    for p in everyone:
        in_cut = made.get(p.key) if made else None
        upto = played if in_cut is not False else cut.after if cut else played
        total, status, reason = _total(p, upto)
        if in_cut is False and status == OK:
            status, reason = MC, f"missed the cut after round {upto}"
        figures = tuple(
            None if f is None or i >= played else f if i < upto else None
            for i, f in enumerate(p.figures)
        )
        latest = next(e for e in reversed(p.entries) if e is not None)
        entries.append(
            CompetitionEntry(
                key=p.key,
                entry=latest.entry,
                players=latest.players,
                class_name=latest.class_name,
                rounds=figures,
                total=total,
                result=_result(total, status, scoring),
                status=status,
                made_cut=in_cut,
                reason=reason,
            )  # fmt: skip
        )
        keys.append(
            _key(p, total, upto, rounds, higher, net)
            if status == OK and total is not None
            else None
        )
    standings = countback.rank(keys, [e.class_name for e in entries], _labels(rounds, played))
    placed = [
        _placed(e, s) if s.position is not None else e
        for e, s in zip(entries, standings, strict=True)
    ]
    order = sorted(range(len(placed)), key=lambda i: _order(placed[i], cut_standing, i))
    return CompetitionResults(
        name=name,
        scoring=scoring,
        rounds=tuple(r.name for r in rounds),
        played=played,
        cut=cut,
        cut_line=cut_line,
        entries=tuple(placed[i] for i in order),
    )


def _with_round(f: RoundFigure, name: str) -> RoundFigure:
    return replace(f, round=name)


def _placed(e: CompetitionEntry, s: countback.Standing) -> CompetitionEntry:
    return replace(
        e, position=s.position, tied=s.tied, class_position=s.class_position, countback=s.countback
    )


def _order(e: CompetitionEntry, cut_standing: dict[str, int], i: int) -> tuple[int, int, int]:
    """Return where an entry is listed: the ranked by position, those who made the cut
    without a return, the missed cut by their place at the cut, then no returns, then DQ."""
    if e.position is not None:
        return (0, e.position, i)
    if e.status == NR and e.made_cut:
        return (1, 0, i)
    if e.status == MC:
        return (2, cut_standing.get(e.key, 0), i)
    return (3 if e.status == NR else 4, 0, i)

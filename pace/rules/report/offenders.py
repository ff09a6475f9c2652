"""Repeat offenders: the players whose groups were out of position, or who had bad times or
penalties, across the rounds of a window of days.

A player is known by his name as printed on the draw (the only identity a draw carries).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from pace.rules import penalties, policies
from pace.rules import refereeing as rr
from pace.rules.events import Event
from pace.rules.model import RoundFacts, RoundSetup
from pace.rules.position import FieldPlan, episodes, plan_field


@dataclass(frozen=True)
class PlayerRound:
    """One player's round: his group's episodes, his bad times, his counted penalties."""

    round: str
    day: date
    group: str
    player: str
    episodes: int
    bad_times: int
    faults: int
    penalties: tuple[penalties.Penalty, ...]

    @property
    def is_offence(self) -> bool:
        """Return whether there is anything to report for the player in this round."""
        return bool(self.episodes or self.bad_times or self.faults or self.penalties)


@dataclass(frozen=True)
class RoundRecord:
    """The players of one round with anything to report."""

    round: str
    day: date
    players: tuple[PlayerRound, ...]


def round_record(
    name: str,
    day: date,
    setup: RoundSetup,
    facts: RoundFacts,
    events: Sequence[Event],
    policy: policies.Policy | None,
    now: datetime,
    *,
    play: str = penalties.STROKE_PLAY,
    format_name: str = "individual",
    plan: FieldPlan | None = None,
) -> RoundRecord:
    """Return the players of a round with episodes, bad times, faults or penalties."""
    plan = plan or plan_field(setup)
    eps: dict[str, int] = defaultdict(int)
    for e in episodes(setup, facts, now, plan):
        eps[e.group] += 1
    bad: dict[tuple[str, str], int] = defaultdict(int)
    faults: dict[tuple[str, str], int] = defaultdict(int)
    counted: dict[tuple[str, str], list[penalties.Penalty]] = defaultdict(list)
    if policy is not None:
        state = rr.fold(e for e in events if e.at <= now)
        judged = rr.judge_round(
            setup, facts, state, policy, now, play=play, format_name=format_name, plan=plan
        )
        for v in (j.verdict for j in judged.strokes):
            if v.is_bad_time:
                bad[(v.stroke.group, v.stroke.player)] += 1
        for o in judged.outcomes:
            key = (o.fault.group, o.fault.player)
            faults[key] += 1
            if o.counted and o.penalty is not None:
                counted[key].append(o.penalty)
    players = []
    for p in plan.groups:
        for player in p.group.players:
            key = (p.id, player.name)
            pr = PlayerRound(
                name, day, p.id, player.name, eps.get(p.id, 0), bad.get(key, 0),
                faults.get(key, 0), tuple(counted.get(key, ())),
            )  # fmt: skip
            if pr.is_offence:
                players.append(pr)
    return RoundRecord(name, day, tuple(players))


@dataclass(frozen=True)
class Offender:
    """One player across the window: his rounds with anything to report, newest first."""

    player: str
    rounds: tuple[PlayerRound, ...]

    @property
    def latest(self) -> date:
        """Return the day of his most recent round with anything to report."""
        return self.rounds[0].day

    @property
    def episodes(self) -> int:
        """Return his groups' out-of-position episodes, added up."""
        return sum(r.episodes for r in self.rounds)

    @property
    def bad_times(self) -> int:
        """Return his bad times, added up."""
        return sum(r.bad_times for r in self.rounds)

    @property
    def penalties(self) -> int:
        """Return his counted penalties (warnings included), added up."""
        return sum(len(r.penalties) for r in self.rounds)


@dataclass(frozen=True)
class Offenders:
    """The repeat offenders of a window of ``days`` days, from ``since`` to ``until``."""

    days: int
    since: date
    until: date
    players: tuple[Offender, ...]


def repeat_offenders(rounds: Iterable[RoundRecord]) -> tuple[Offender, ...]:
    """Return one line per player, the most recent offence first (then by name).

    >>> a = PlayerRound("R1", date(2026, 5, 1), "3", "Ann", 1, 0, 0, ())
    >>> b = PlayerRound("R2", date(2026, 6, 1), "7", "Ann", 0, 2, 2, ())
    >>> c = PlayerRound("R1", date(2026, 5, 1), "3", "Bob", 1, 0, 0, ())
    >>> [(o.player, [r.round for r in o.rounds]) for o in repeat_offenders(
    ...     [RoundRecord("R1", a.day, (a, c)), RoundRecord("R2", b.day, (b,))])]
    [('Ann', ['R2', 'R1']), ('Bob', ['R1'])]
    """
    by_player: dict[str, list[PlayerRound]] = defaultdict(list)
    for r in rounds:
        for p in r.players:
            by_player[p.player].append(p)
    out = [
        Offender(name, tuple(sorted(rs, key=lambda r: (r.day, r.round), reverse=True)))
        for name, rs in by_player.items()
    ]
    out.sort(key=lambda o: (-o.latest.toordinal(), -len(o.rounds), o.player))
    return tuple(out)

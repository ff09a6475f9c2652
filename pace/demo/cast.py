"""What the demo's people do besides the marshals, planned from the seed (pure).

- The committee sounds one interruption and the resumption (:func:`plan_interruption`); play
  stops meanwhile (``pace.demo.play.play_round``'s ``stops``).
- The referees watch the groups out of position and act as the shot clock lets them
  (:func:`plan_referees`): they time some groups, decide not to time one for a ruling and
  credit it the ruling's minutes, tell the players, time strokes (most within the allowance,
  a few over), tell the players of their bad times (so one player gets a warning and a
  penalty stroke), and tell the players once a group is back in position. The acts are a
  referee log's (``RefereeAct``), so a test judges the plan exactly as the server judges it.
- The scorers enter every card hole by hole, shortly after the group completes the hole
  (:func:`plan_cards`), with one mistake corrected.

``pace.demo.runner`` sends these as commands (:func:`referee_command`, :func:`card_commands`).
The ids are the demo's own, derived from the seed (:func:`demo_id`): a second run of the same
seed sends the same facts under the same ids.
"""

from __future__ import annotations

import itertools
import random
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from pace.demo import phones as phonesmod
from pace.demo.play import Incident, Report, Tap
from pace.formats.referee_log import RefereeAct
from pace.rules import alerts, position, refereeing, timing
from pace.rules.model import HoleCompletion, RoundFacts, RoundSetup, Suspension
from pace.rules.policies import Policy
from pace.rules.position import Episode, FieldPlan
from pace.rules.positions import CourseShape, Sample

#: The namespace of the demo's event ids (UUID 5 of the seed and what the event is).
DEMO_IDS = uuid.UUID("6b1f3c2e-5d4a-4e8b-9c17-2f0a8d3e6b51")
REFEREES = 2
GROUPS_PER_SCORER = 8
#: how often a demo phone sends the fixes it has taken (a batch of about four while its group
#: moves): fewer messages than one a fix, which keeps a fast demo's phones on its clock
PHONE_SENDS_EVERY = timedelta(minutes=1)
#: the most fixes one ``send_positions`` carries (``pace.services.positions.MAX_FIXES``)
PHONE_BATCH = 40

#: The shot clock's reason for the stop that tells the players timing ended by itself: a code,
#: said in each page's language (issue 47).
PLAYERS_TOLD = refereeing.PLAYERS_TOLD


def demo_id(seed: int, key: str) -> str:
    """Return the id of the demo's event named ``key`` in the round played on ``seed``.

    >>> demo_id(1, "tap/3/4") == demo_id(1, "tap/3/4") != demo_id(2, "tap/3/4")
    True
    """
    return str(uuid.uuid5(DEMO_IDS, f"{seed}/{key}"))


def _minutes(rng: random.Random, low: float, high: float) -> timedelta:
    """Return a duration between ``low`` and ``high`` minutes, to the second."""
    return timedelta(seconds=round(rng.uniform(low, high) * 60))


def _whole_minute(t: datetime) -> datetime:
    return t.replace(second=0, microsecond=0) + timedelta(minutes=1)


# --------------------------------------------------------------------------- the sirens


def round_episodes(
    setup: RoundSetup,
    plan: FieldPlan,
    taps: Sequence[Tap],
    stops: Sequence[Suspension] = (),
) -> tuple[Episode, ...]:
    """Return every out-of-position episode of the round these taps play (docs/rules.md §3)."""
    facts = RoundFacts(
        completions=tuple(HoleCompletion(t.group, t.hole, t.at) for t in taps),
        suspensions=tuple(stops),
    )
    end = max(t.at for t in taps) + timedelta(hours=1) if taps else datetime.max
    return position.episodes(setup, facts, end, plan)


def plan_interruption(
    origin: datetime, episodes: Sequence[Episode], rng: random.Random
) -> Suspension:
    """Return the round's interruption: one long siren, then two to resume (docs/rules.md §8).

    It comes after the first two episodes of the round are over (the referees' first
    work is not cut in two), at least 45 minutes after the demo's clock starts, and lasts
    12 to 20 minutes.
    """
    first = sorted(episodes, key=lambda e: e.start)[:2]
    after = max([origin + timedelta(minutes=45), *(e.end for e in first if e.end is not None)])
    start = _whole_minute(after + _minutes(rng, 15, 30))
    return Suspension(start, start + timedelta(minutes=rng.randint(12, 20)), "interruption")


def siren_acts(stop: Suspension) -> list[RefereeAct]:
    """Return the committee's sirens for ``stop``: the interruption and the resumption."""
    assert stop.end is not None
    return [
        RefereeAct(0, "siren-1", stop.start, "siren", siren=stop.kind, explicit_id=True),
        RefereeAct(0, "siren-2", stop.end, "siren", siren="resume", explicit_id=True),
    ]


# --------------------------------------------------------------------------- the referees


@dataclass(frozen=True)
class Planned:
    """A referee's act, the referee (1, 2, …) and what the referee waits to have seen first.

    ``watch`` is an alert key (``out_of_position:6:h4``), or ``prompt:<group>`` for the
    prompt to stop timing a group back in position; ``note`` is the decision's note.
    """

    referee: int
    act: RefereeAct
    watch: str | None = None
    note: str = ""


@dataclass(frozen=True)
class RefereePlan:
    """The referees' acts in time order, and who gets the ladder's penalty stroke."""

    acts: tuple[Planned, ...]
    penalised: tuple[str, str] | None = None  # (group, player): a warning, then a stroke
    warned: tuple[str, str] | None = None  # (group, player): a warning only


class _Plan:
    """The referees' acts as they are planned, episode by episode."""

    def __init__(self, plan: FieldPlan, taps: Sequence[Tap], stops: Sequence[Suspension]):
        self.plan = plan
        self.stops = stops
        self.done: dict[str, list[Tap]] = {}
        for tap in sorted(taps, key=lambda t: t.at):
            self.done.setdefault(tap.group, []).append(tap)
        self.acts: list[Planned] = []
        self.faulted: set[tuple[str, str]] = set()
        self.penalised: tuple[str, str] | None = None
        self.warned: tuple[str, str] | None = None
        self.ruled = False

    def add(self, referee: int, at: datetime, act: str, **fields: object) -> RefereeAct:
        watch = fields.pop("watch", None)
        note = str(fields.pop("note", ""))
        a = RefereeAct(len(self.acts) + 1, f"R{len(self.acts) + 1}", at, act, explicit_id=True,
                       **fields)  # type: ignore[arg-type]  # fmt: skip
        self.acts.append(Planned(referee, a, None if watch is None else str(watch), note))
        return a

    def playing(self, group: str, at: datetime) -> int:
        """Return the hole the group is playing at ``at``: the next after its last completion."""
        order = self.plan.by_id[group].order
        completed = [t.hole for t in self.done.get(group, []) if t.at <= at]
        return order[min(len(completed), len(order) - 1)]

    def clear_of_stops(self, at: datetime) -> datetime:
        """Return ``at``, or the moment play resumed when play is stopped then (§8)."""
        for s in self.stops:
            if s.end is not None and s.start <= at < s.end + timedelta(minutes=2):
                return s.end + timedelta(minutes=2)
        return at


def plan_referees(
    setup: RoundSetup,
    plan: FieldPlan,
    taps: Sequence[Tap],
    stops: Sequence[Suspension],
    incidents: Mapping[str, Incident],
    policy: Policy,
    rng: random.Random,
    *,
    referees: int = REFEREES,
) -> RefereePlan:
    """Return what the referees do about the round's episodes out of position (docs/rules.md §4–§6).

    Episodes are taken in the order they begin, each by a referee who is free when it does
    (the others are left to the marshals). A group out of position after a lost ball is not
    timed: the first for a ruling, with its minutes credited (§5), the others for the lost
    ball. Any other group is timed until it is back in position: its timing then ends by
    itself, and the referee tells the players. In the first timed episode long enough for
    it, one player has two bad times and is told of each (a warning, then a penalty stroke:
    the notification gate opened between them), and another has one (a warning).
    """
    p = _Plan(plan, taps, stops)
    episodes = round_episodes(setup, plan, taps, stops)
    names = dict(zip(episodes, alerts.episode_keys(episodes), strict=True))
    free: list[datetime | None] = [None] * referees  # when each referee is free again
    for e in sorted(episodes, key=lambda e: e.start):
        if e.end is None or e.ended_by != "back_in_position":
            continue
        referee = min(range(referees), key=lambda i: free[i] or e.start)
        arrive = p.clear_of_stops(e.start + _minutes(rng, 2, 4))
        busy_until = free[referee]
        if (busy_until is not None and busy_until > arrive) or arrive >= e.end - timedelta(
            minutes=4
        ):
            continue  # nobody is free, or the group is back in position before one gets there
        watch = f"out_of_position:{names[e]}"
        incident = incidents.get(e.group)
        if incident is not None and incident.kind == "lost_ball":
            free[referee] = _not_timed(p, referee + 1, e, arrive, watch, rng)
        else:
            free[referee] = _timed(p, referee + 1, e, arrive, watch, policy, setup, rng)
    acts = sorted(p.acts, key=lambda a: (a.act.at, a.act.line))
    return RefereePlan(tuple(acts), p.penalised, p.warned)


def _not_timed(
    p: _Plan, referee: int, e: Episode, at: datetime, watch: str, rng: random.Random
) -> datetime:
    """A group slowed by a lost ball: not timed; the first one for a ruling, with a credit."""
    hole = e.start_hole
    if p.ruled:
        p.add(referee, at, "decide", group=e.group, decision="not_time", reason="lost_ball",
              watch=watch, note=f"ball lost on hole {hole}")  # fmt: skip
        return at + timedelta(minutes=3)
    p.ruled = True
    minutes = rng.randint(4, 7)
    note = f"a ruling on hole {hole} (ball lost or in the penalty area?) took {minutes} minutes"
    p.add(referee, at, "decide", group=e.group, decision="not_time", reason="ruling",
          watch=watch, note=note)  # fmt: skip
    p.add(referee, at + timedelta(seconds=40), "credit", group=e.group, minutes=float(minutes),
          reason=f"ruling on hole {hole}")  # fmt: skip
    return at + timedelta(minutes=4)


#: The strokes a referee times, by weight: (kind, first to play).
_STROKES = (
    (timing.StrokeKind.OTHER, False),
    (timing.StrokeKind.OTHER, True),
    (timing.StrokeKind.APPROACH, True),
    (timing.StrokeKind.APPROACH, False),
    (timing.StrokeKind.CHIP_PUTT, True),
    (timing.StrokeKind.CHIP_PUTT, False),
)


def _timed(
    p: _Plan,
    referee: int,
    e: Episode,
    at: datetime,
    watch: str,
    policy: Policy,
    setup: RoundSetup,
    rng: random.Random,
) -> datetime:
    """Time a group out of position until it is back in position (docs/rules.md §4)."""
    assert e.end is not None
    group = e.group
    players = [pl.name for pl in p.plan.by_id[group].group.players]
    pars = {h.number: h.par for h in setup.course.holes}
    p.add(referee, at, "decide", group=group, decision="time", watch=watch,
          note="out of position: timing every player")  # fmt: skip
    t = at
    for name in players:
        t = p.clear_of_stops(t + _minutes(rng, 0.4, 1.0))
        p.add(referee, t, "tell", group=group, player=name)
    last = e.end - timedelta(minutes=3)  # the last stroke starts well before the end
    slots: list[datetime] = []
    t = p.clear_of_stops(t + _minutes(rng, 1.0, 2.0))
    while t < last:
        slots.append(t)
        t = p.clear_of_stops(t + _minutes(rng, 1.5, 3.0))
    script: dict[int, str] = {}
    if p.penalised is None and len(slots) >= 6 and len(players) >= 2:
        bearer, other = rng.sample(players, 2)
        p.penalised, p.warned = (group, bearer), (group, other)
        script = {0: bearer, 2: other, 4: bearer}
    turns = itertools.cycle(rng.sample(players, len(players)))
    for i, slot in enumerate(slots):
        player = script.get(i) or next(turns)
        hole = p.playing(group, slot)
        kind, first = rng.choice(_STROKES)
        if kind is timing.StrokeKind.OTHER and first and pars.get(hole) == 3:
            kind = timing.StrokeKind.PAR3_TEE
        allowed = timing.allowance(kind, first, policy, pars.get(hole)).total_seconds()
        bad = i in script or ((group, player) not in p.faulted and rng.random() < 0.08)
        if i not in script and (group, player) in {p.penalised, p.warned}:
            bad = False  # the scripted players' ladders stay as scripted
        seconds = allowed + rng.uniform(3, 14) if bad else rng.uniform(12, allowed - 4)
        measured = timedelta(seconds=round(seconds, 1))
        stopped = slot + measured
        stroke = p.add(referee, stopped, "stroke", group=group, player=player, hole=hole,
                       kind=kind.value, first=first, seconds=measured)  # fmt: skip
        if bad:
            p.faulted.add((group, player))
            told = p.clear_of_stops(stopped + _minutes(rng, 0.5, 1.0))
            p.add(referee, told, "notify", group=group, player=player, fault=stroke.id)
    told = p.clear_of_stops(e.end + _minutes(rng, 1.5, 3.0))
    p.add(referee, told, "stop", group=group, reason=PLAYERS_TOLD, watch=f"prompt:{group}")
    return told + timedelta(minutes=2)


# --------------------------------------------------------------------------- the scorers


@dataclass(frozen=True)
class Score:
    """A scorer enters a player's strokes on a hole at ``at`` (``corrects``: the key of the
    score this one corrects, with ``reason``); ``key`` names it for its id."""

    scorer: int
    at: datetime
    key: str
    group: str
    player: str
    hole: int
    strokes: int
    corrects: str | None = None
    reason: str = ""


def _strokes(par: int, handicap: float | None, rng: random.Random) -> int:
    """Return a player's strokes on a hole of ``par``: about a stroke over par per 18 of index."""
    expected = 0.1 + max(-3.0, handicap or 0.0) / 18
    return max(1, min(par + 4, par + round(rng.gauss(expected, 0.8))))


def plan_cards(
    plan: FieldPlan,
    taps: Sequence[Tap],
    pars: Mapping[int, int],
    rng: random.Random,
    *,
    twins: tuple[str, str] | None = None,
    per_scorer: int = GROUPS_PER_SCORER,
) -> list[Score]:
    """Return every score of the round, in time order, and one mistake and its correction.

    A group's scorer enters its players' strokes on a hole one to three minutes after the
    group completes it, as a marker does walking to the next tee. ``twins`` is
    ``(group, player)``: another player of that group scores exactly as that one, so a
    penalty stroke of either puts him behind the other on the leaderboard (their positions
    differ by the penalty alone).
    """
    scorer_of = {g.id: 1 + i // per_scorer for i, g in enumerate(plan.groups)}
    players = {g.id: g.group.players for g in plan.groups}
    twin_of: dict[str, str] = {}
    if twins is not None:
        group, player = twins
        others = [pl.name for pl in players[group] if pl.name != player]
        if others:
            twin_of[others[-1]] = player
    cards: dict[tuple[str, str], dict[int, int]] = {}
    scores: list[Score] = []
    for tap in sorted(taps, key=lambda t: (t.at, t.group, t.hole)):
        at = tap.at + _minutes(rng, 1, 3)
        for pl in players[tap.group]:
            strokes = _strokes(pars[tap.hole], pl.handicap, rng)
            cards.setdefault((tap.group, pl.name), {})[tap.hole] = strokes
        for pl in players[tap.group]:
            copied = twin_of.get(pl.name)
            strokes = cards[(tap.group, copied or pl.name)][tap.hole]
            key = f"score/{tap.group}/{pl.name}/{tap.hole}"
            scores.append(
                Score(scorer_of[tap.group], at, key, tap.group, pl.name, tap.hole, strokes)
            )
    return sorted(_a_mistake(scores, {player for player in (*twin_of, *twin_of.values())}, rng),
                  key=lambda s: s.at)  # fmt: skip


def _a_mistake(scores: list[Score], spared: set[str], rng: random.Random) -> list[Score]:
    """Return ``scores`` with one entered a stroke too many, and corrected a few minutes later."""
    candidates = [
        i for i, s in enumerate(scores) if i >= len(scores) // 5 and s.player not in spared
    ]
    if not candidates:
        return scores
    i = rng.choice(candidates)
    right = scores[i]
    scores[i] = Score(right.scorer, right.at, right.key, right.group, right.player, right.hole,
                      right.strokes + 1)  # fmt: skip
    fixed = Score(
        right.scorer, right.at + _minutes(rng, 3, 6), f"{right.key}/corrected", right.group,
        right.player, right.hole, right.strokes, corrects=right.key,
        reason=f"card checked with {right.player}: {right.strokes}, not {right.strokes + 1}",
    )  # fmt: skip
    return [*scores, fixed]


# --------------------------------------------------------------------------- the phones


@dataclass(frozen=True)
class Phone:
    """One phone of a group (issue 48): the group, its number in the group (1, or 2 for a
    group's second phone) and the fixes it takes of the group's true walk, in time order."""

    group: str
    number: int
    fixes: tuple[Sample, ...]


def plan_phones(
    shape: CourseShape,
    plan: FieldPlan,
    taps: Sequence[Tap],
    rng: random.Random,
    model: phonesmod.Phones | None = None,
) -> tuple[Phone, ...]:
    """Return the phones of the groups that share their position, each walking its group's
    true round (``taps``) on the course's map as ``pace.demo.phones`` says: noise, wild
    fixes, screen-locked gaps, a walk back for a club, a second phone in some groups, and
    ``model.not_sharing`` groups that never share (no phone here)."""
    orders = {p.id: p.order for p in plan.groups}
    starts = {p.id: p.group.start for p in plan.groups}
    traces = phonesmod.phone_traces(shape, orders, starts, taps, rng, model or phonesmod.Phones())
    return tuple(
        Phone(group, n, tuple(fixes))
        for group in sorted(traces, key=lambda g: (len(g), g))
        for n, fixes in enumerate(traces[group], start=1)
        if fixes
    )


# --------------------------------------------------------------------------- the whole cast


@dataclass(frozen=True)
class Cast:
    """The demo round as everybody plays it: the taps, the sirens, the referees, the cards."""

    taps: tuple[Tap, ...]
    stops: tuple[Suspension, ...] = ()
    sirens: tuple[RefereeAct, ...] = ()
    referees: RefereePlan = RefereePlan(())
    scores: tuple[Score, ...] = ()
    phones: tuple[Phone, ...] = ()

    def referee_log(self) -> list[RefereeAct]:
        """Return the sirens and the referees' acts as one referee log, in time order."""
        acts = [*self.sirens, *(p.act for p in self.referees.acts)]
        return sorted(acts, key=lambda a: a.at)


def plan_cast(
    setup: RoundSetup,
    plan: FieldPlan,
    incidents: Mapping[str, Incident],
    play: Callable[[Sequence[Suspension]], list[Tap]],
    *,
    seed: int,
    origin: datetime,
    policy: Policy,
) -> Cast:
    """Return the round played by everybody: ``play(stops)`` plays it with those stops.

    The interruption is placed on the round played without it (after its first episodes),
    then the round is played again with it: the same draws, the same play until the siren.
    Each part has a random stream of its own, so adding one changes no other.
    """
    first = play(())
    stop = plan_interruption(origin, round_episodes(setup, plan, first), _rng(seed, "sirens"))
    taps = play((stop,))
    referees = plan_referees(setup, plan, taps, (stop,), incidents, policy, _rng(seed, "referees"))
    pars = {h.number: h.par for h in setup.course.holes}
    scores = plan_cards(plan, taps, pars, _rng(seed, "cards"), twins=referees.penalised)
    return Cast(tuple(taps), (stop,), tuple(siren_acts(stop)), referees, tuple(scores))


def _rng(seed: int, part: str) -> random.Random:
    return random.Random(f"{seed}/{part}")


# --------------------------------------------------------------------------- as commands


@dataclass(frozen=True)
class Command:
    """A simulated person's command, sent once the demo's clock reaches ``at``.

    ``payload`` holds the command's fields and its ``id``; the round and the device's clock
    (``device_time``) are added when it is sent. ``watch``: see :class:`Planned`.
    """

    at: datetime
    event: str
    payload: Mapping[str, object]
    watch: str | None = None


def _instant(t: datetime, tz: tzinfo) -> str:
    return t.astimezone(tz).isoformat()


def tap_command(tap: Tap, seed: int, tz: tzinfo) -> Command:
    """Return a marshal's tap: the group completed the hole (flag back in) at ``tap.at``."""
    payload = {"id": demo_id(seed, f"tap/{tap.group}/{tap.hole}"), "group": tap.group,
               "hole": tap.hole, "at": _instant(tap.at, tz)}  # fmt: skip
    return Command(tap.at, "hole_completed", payload)


def report_command(report: Report, seed: int, tz: tzinfo) -> Command:
    """Return a scorer's report that its group finished a hole (issue 39), sent when the
    phone reports it, with that instant."""
    payload = {
        "id": demo_id(seed, f"report/{report.group}/{report.hole}"),
        "group": report.group,
        "hole": report.hole,
        "at": _instant(report.at, tz),
    }
    return Command(report.at, "group_completed", payload)


def referee_command(planned: Planned, seed: int, tz: tzinfo) -> Command:
    """Return the command a shot clock sends for a referee's (or the committee's) act."""
    a = planned.act
    ident = demo_id(seed, f"act/{a.id}")
    at = _instant(a.at, tz)
    if a.act == "siren":
        return Command(a.at, "record_siren", {"id": ident, "kind": a.siren, "at": at})
    fields: dict[str, object] = {"id": ident, "group": a.group}
    if a.act == "decide":
        event = "decide_timing"
        fields["decision"] = a.decision
        if a.reason:
            fields["reason"] = a.reason
        if planned.note:
            fields["note"] = planned.note
    elif a.act == "tell":
        event, fields["player"] = "tell_player_timed", a.player
    elif a.act == "stroke":
        assert a.seconds is not None
        fields.update(player=a.player, hole=a.hole, kind=a.kind, first_to_play=a.first,
                      started=_instant(a.at - a.seconds, tz), stopped=at)  # fmt: skip
        return Command(a.at, "record_stroke", fields, planned.watch)
    elif a.act == "notify":
        fields.update(player=a.player, fault=demo_id(seed, f"act/{a.fault}"))
        event = "notify_player"
    elif a.act == "credit":
        event = "grant_time_credit"
        fields.update(minutes=a.minutes, reason=a.reason)
    else:
        event, fields["reason"] = "stop_timing", a.reason
    fields["at"] = at
    return Command(a.at, event, fields, planned.watch)


def score_command(score: Score, seed: int) -> Command:
    """Return a scorer's ``record_score``, or ``correct_score`` of an earlier one."""
    ident = demo_id(seed, score.key)
    if score.corrects is not None:
        payload = {"id": ident, "target": demo_id(seed, score.corrects),
                   "strokes": score.strokes, "reason": score.reason}  # fmt: skip
        return Command(score.at, "correct_score", payload)
    payload = {"id": ident, "group": score.group, "player": score.player, "hole": score.hole,
               "strokes": score.strokes}  # fmt: skip
    return Command(score.at, "record_score", payload)


def _fix(s: Sample, tz: tzinfo) -> dict[str, object]:
    """Return a fix as a phone sends it: its instant on the phone's clock, degrees, metres."""
    return {"at": _instant(s.at, tz), "lon": round(s.lon, 7), "lat": round(s.lat, 7),
            "accuracy": s.accuracy}  # fmt: skip


def phone_commands(
    phone: Phone, seed: int, tz: tzinfo, every: timedelta = PHONE_SENDS_EVERY
) -> list[Command]:
    """Return what a group's phone sends (issue 48): its consent (``share_positions``) with
    its first fix, its fixes in batches (``send_positions``, each batch the fixes taken in a
    period ``every``, sent at its end, naming the consent), and the end of its sharing once
    its group has left the course."""
    key = f"phone/{phone.group}/{phone.number}"
    consent = demo_id(seed, f"{key}/share")
    first = phone.fixes[0].at
    out = [Command(first, "share_positions", {"id": consent, "group": phone.group,
                                              "share": True})]  # fmt: skip
    batches: dict[int, list[Sample]] = {}
    for s in phone.fixes:
        batches.setdefault((s.at - first) // every, []).append(s)
    for k, fixes in sorted(batches.items()):
        at = first + every * (k + 1)
        for i in range(0, len(fixes), PHONE_BATCH):
            payload = {"group": phone.group, "consent_id": consent,
                       "fixes": [_fix(s, tz) for s in fixes[i : i + PHONE_BATCH]]}  # fmt: skip
            out.append(Command(at, "send_positions", payload))
    stop = {"id": demo_id(seed, f"{key}/stop"), "group": phone.group, "share": False}
    out.append(Command(out[-1].at + every, "share_positions", stop))
    return out

"""The scorers' use cases: scores recorded and corrected, the round's cards and leaderboard.

A companion of :class:`pace.services.live.LiveService` over the same log, lock and cache,
like the referees' services. Each command is validated against the round (a hole of the
course, a player of that group, strokes 1–20 or no score, one score per ball and hole),
appended (committed before returning) and answered with the stored event; a void is the
live loop's ``void_event``. The card is a fold of the score events
(:func:`pace.rules.scoring.records.fold`) plus the referees' judgement of the same log
(``RefereeFeed.outcomes``): nothing about a penalty is copied into a score, so a void or a
re-judged fault changes the card at the next read. Results are computed once per state of
the log (a 156-player field costs tens of milliseconds) and kept until the log grows.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

from pace import formats
from pace.clock import Clock
from pace.documents import scoring as views
from pace.documents.competition import event_view
from pace.formats import csvfile
from pace.formats import scores as scores_csv
from pace.rules.errors import FileFormatError, PaceError, Problem
from pace.rules.events import Event
from pace.rules.penalties import FaultOutcome
from pace.rules.scoring import Results, Score, score_round
from pace.rules.scoring import live as livemod
from pace.rules.scoring import records as rec
from pace.rules.scoring.competition import PlayedRound, score_competition
from pace.rules.scoring.sides import Roster, Side, build_sides
from pace.services import commands as cmd
from pace.services import positions
from pace.services.commands import CommandError, Outcome
from pace.services.finality import check_open_import
from pace.services.live import LiveService
from pace.services.offline import end_of_day
from pace.services.referee_feed import RefereeFeed
from pace.services.rounds import RoundService, RoundView
from pace.services.scoring import RoundScoring, round_scoring, with_readings
from pace.services.validation import check_hole, check_player, group_of

T = TypeVar("T")

#: the ladder's steps that change nothing on a card
WARNINGS = ("warning", "final_warning")

#: Namespace of the ids of imported scores: re-importing the same file adds nothing.
SCORES_NAMESPACE = uuid.UUID("3c0f6a1e-93b4-4e5f-8f43-5a0d1b7c2e94")


class ScoreService:
    """The scorers' commands and the round's cards and leaderboard; thread-safe like the
    live service it extends."""

    def __init__(self, live: LiveService, referees: RefereeFeed):
        self.live = live
        self.referees = referees
        #: what each round's pages were last told of, per group (see ``changes``)
        self._told: dict[str, dict[str, Any]] = {}
        #: each round's scores, folded event by event as the log grows
        self._folders: dict[str, rec.Folder] = {}
        self._rosters: dict[str, tuple[RoundView, Roster]] = {}
        #: each round's judgement for the cards: (view, last other seq, judged at, outcomes)
        self._judged: dict[str, tuple[RoundView, int | None, datetime, Any]] = {}

    @property
    def clock(self) -> Clock:
        """Return the service's clock."""
        clock: Clock = self.live.clock
        return clock

    # -- setup -------------------------------------------------------------------------

    def scoring(self, round: str) -> RoundScoring:
        """Return how the round is scored."""
        view = self.live.service.round_view(round)
        return round_scoring(view.record, self.live.service.settings)

    def _roster(self, view: RoundView) -> Roster:
        """Return the round's sides (kept until its setup changes: a new view)."""
        kept = self._rosters.get(view.record.name)
        if kept is None or kept[0] is not view:
            fmt = self.scoring(view.record.name).team_format
            kept = self._rosters[view.record.name] = (view, livemod.roster(view.record.groups, fmt))
        return kept[1]

    def score_log(self, round: str) -> rec.ScoreLog:
        """Return the round's recorded scores; each new event of the log is folded once."""
        events = self.live.live(round).events
        folder = self._folders.get(round)
        if folder is None or folder.count > len(events):
            folder = self._folders[round] = rec.Folder()
        if folder.count < len(events):
            folder.apply(events[folder.count :])
        return folder.log()

    # -- commands ----------------------------------------------------------------------

    def record_score(self, c: cmd.RecordScore) -> Outcome:
        """Record a player's (or one-ball side's) score on a hole; a resend changes nothing."""
        with self.live.lock:
            view = self.live.service.round_view(c.round)
            event = self._event(c, rec.SCORE_RECORDED, {
                "group": c.group, "player": c.player, "hole": c.hole,
                "strokes": c.strokes, "conceded": c.conceded,
            })  # fmt: skip
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            side = self._check(view, c.group, c.player, c.hole, c.strokes, c.conceded)
            scored = self._scored(view, side, c.player, c.hole)
            if scored is not None:
                who = side.name if len(side.balls) == 1 else c.player
                raise CommandError(
                    f"{who}'s hole {c.hole} is already scored ({_shown(scored.strokes)}); "
                    "correct that score instead",
                    field="hole",
                    code="already_scored",
                )
            stored, created = self.live.append(event)
            return Outcome(stored, created)

    def correct_score(self, c: cmd.CorrectScore) -> Outcome:
        """Put a recorded score right; the score and every correction stay in the log."""
        with self.live.lock:
            view = self.live.service.round_view(c.round)
            event = self._event(c, rec.SCORE_CORRECTED, {
                "target": c.target, "strokes": c.strokes, "conceded": c.conceded,
                "reason": c.reason,
            })  # fmt: skip
            if (stored := self.live.resent(event)) is not None:
                return Outcome(stored, False)
            record = self._target(c.round, c.target)
            self._check(view, record.group, record.player, record.hole, c.strokes, c.conceded)
            stored, created = self.live.append(event)
            return Outcome(stored, created)

    def _event(self, c: Any, type: str, payload: dict[str, Any]) -> Event:
        return Event(c.id, type, c.round, self.clock.now(), payload, c.by.as_dict())

    def _check(
        self,
        view: RoundView,
        group: str,
        player: str,
        hole: int,
        strokes: int | None,
        conceded: bool,
    ) -> Side:
        """Refuse a score the round cannot have; return the side it is of."""
        check_player(view, group, player)
        check_hole(view, hole)
        problem = rec.check_strokes(strokes)
        if problem is not None:
            raise CommandError(problem, field="strokes", code="invalid_payload")
        return self._roster(view).side_of(group, player)

    def _scored(self, view: RoundView, side: Side, player: str, hole: int) -> rec.Record | None:
        """Return the live score of ``player``'s ball (his side's, in one-ball formats)."""
        ball = side.ball_of(player)
        names = {p.name for p in side.players}
        for r in self.score_log(view.record.name).of_group(side.group):
            if r.hole == hole and r.player in names and side.ball_of(r.player) == ball:
                return r
        return None

    def _target(self, round: str, target: str) -> rec.Record:
        record = self.score_log(round).record(target)
        if record is not None:
            return record
        for e in self.live.live(round).events:
            if e.id == target:
                if e.type != rec.SCORE_RECORDED:
                    raise CommandError(
                        f"event {target!r} is a {e.type}; only a recorded score is corrected",
                        field="target",
                        code="wrong_target",
                    )
                raise CommandError(
                    f"score {target!r} was voided; record the hole again",
                    field="target",
                    code="already_done",
                )
        raise CommandError(
            f"no score {target!r} in this round", field="target", code="unknown_target"
        )

    # -- the judgement and the results ---------------------------------------------------

    def _outcomes(self, round: str, now: datetime) -> tuple[tuple[FaultOutcome, ...], str | None]:
        """Return the round's judged faults, or none with the reason (an unknown policy).

        The judgement depends on the log's other events only (taps, sirens, the referees'
        acts; a void of a score is one, harmlessly): it is kept while only scores come in,
        and, like the referees' own, as long as no such event lies after the instant it was
        judged at.
        """
        self.score_log(round)
        folder = self._folders[round]
        view = self.live.service.round_view(round)
        kept = self._judged.get(round)
        if (
            kept is not None
            and kept[0] is view
            and kept[1] == folder.other_seq
            and kept[2] <= now
            and (folder.other_at is None or folder.other_at <= kept[2])
        ):
            return kept[3]
        try:
            judged: tuple[tuple[FaultOutcome, ...], str | None] = (
                self.referees.outcomes(round, now),
                None,
            )
        except CommandError as e:
            judged = ((), e.message)
        self._judged[round] = (view, folder.other_seq, now, judged)
        return judged

    def _kept(self, round: str, name: str, now: datetime, key: Any, compute: Callable[[], T]) -> T:
        """Return ``compute()``, kept until the log grows (and for the same ``key``): a
        judgement is the same at every later instant once the log's latest instant is past.
        """
        live = self.live.live(round)
        known = live.memo(name, dict)
        latest = live.memo("latest", lambda: max((e.at for e in live.events), default=None))
        view = self.live.service.round_view(round)  # a new setup is a new view
        valid = (
            "value" in known
            and known.get("view") is view
            and known.get("key") == key
            and known["at"] <= now
        )
        if not (valid and (latest is None or latest <= known["at"])):
            known.update(view=view, key=key, at=now, value=compute())
        value: T = known["value"]
        return value

    def results(self, round: str, now: datetime | None = None) -> Results:
        """Return the round's results as the core scores them (docs/formats.md §8)."""
        return self.judged_results(round, now)[0]

    def judged_results(
        self,
        round: str,
        now: datetime | None = None,
        *,
        rounding: str | None = None,
        gross_par_adjustment: bool | None = None,
    ) -> tuple[Results, str | None]:
        """Return the round's results and, when no pace penalty could be judged, why.

        ``rounding`` and ``gross_par_adjustment``, when given, take the place of the round's
        readings of the handicap rules for this call only (``pace results --round R
        --rounding ...``: nothing is stored)."""
        with self.live.lock:
            now = now or self.clock.now()
            view = self.live.service.round_view(round)
            rs = self.scoring(round)
            if rounding is not None or gross_par_adjustment is not None:
                allowances = with_readings(rs.allowances, rounding, gross_par_adjustment)
                rs = replace(rs, allowances=allowances)

            def compute() -> tuple[Results, str | None]:
                outcomes, error = self._outcomes(round, now)
                results = score_round(
                    view.record.course,
                    view.record.groups,
                    self.score_log(round).scores(),
                    scoring=rs.scoring,
                    format_name=rs.team_format,
                    net=rs.net,
                    outcomes=outcomes,
                    allowances=rs.allowances,
                )
                return results, error

            return self._kept(round, "results", now, rs, compute)

    def board(self, round: str, now: datetime | None = None) -> livemod.Board:
        """Return the live board: cards in progress ranked on what they have so far."""
        with self.live.lock:
            view = self.live.service.round_view(round)
            results, _ = self.judged_results(round, now)
            roster = self._roster(view)
            recorded = livemod.recorded_holes(self.score_log(round).scores(), roster)
            # results made final: the board is final too (no card can change any more)
            closed = self.live.life(round).is_final
            return livemod.board(results, view.record.course, recorded,
                                 retired_sides(view, roster), closed=closed)  # fmt: skip

    def leaderboard(self, round: str, now: datetime | None = None) -> dict[str, Any]:
        """Return what the public leaderboard shows (docs/protocol.md, leaderboard)."""
        with self.live.lock:
            now = now or self.clock.now()
            view = self.live.service.round_view(round)
            rs = self.scoring(round)

            def compute() -> dict[str, Any]:
                _, error = self.judged_results(round, now)
                doc = views.leaderboard_document(self.board(round, now), view.record.course)
                doc.update(round=round, at=now.isoformat(), allowances=_allowance_view(rs))
                doc["penalties_error"] = error
                # the competitions this round is a round of (issue 28): a view that follows
                # this round's log (another round's change shows at this one's next change)
                doc["events"] = leaderboard_events(self, round, now, final=doc["final"])
                return doc

            doc = self._kept(round, "leaderboard", now, rs, compute)
            # the round's life follows the clock too (planned until its first tee time): read
            # apart from the kept document, which only the log changes
            from pace.services.life import RoundLifeService

            life = RoundLifeService(self.live).document(round, now)
            return {**doc, "life": {k: v for k, v in life.items() if k != "round"}}

    def card(self, round: str, group: str, now: datetime | None = None) -> dict[str, Any]:
        """Return one group's card as the scorer page shows it: every ball's scores (with
        their ids, to correct or void them), the penalties from the pace side, the totals."""
        with self.live.lock:
            view = self.live.service.round_view(round)
            found = group_of(view, group)
            sides = [s for s in self._roster(view).sides if s.group == group]
            live = self.board(round, now)
            records = self.score_log(round).of_group(group)
            order = list(view.plan.by_id[group].order)
            card = views.card_document(
                round, found, sides, order, records, live, view.record.course
            )
            card["seq"] = self.live.live(round).last_seq  # the log the card is a fold of
            return card

    def own_pace(self, round: str, group: str, now: datetime | None = None) -> dict[str, Any]:
        """Return what a group's scorer page shows of its own pace, as facts (docs/status.md,
        "Groups' reports"): the hole in play and when it is due, the minutes over (negative:
        under) its allotment, how far behind the group ahead it is, and which of its holes
        are known and who saw each (``official``, ``group``); no status, no blame.
        ``asked``: the holes the group's scorer is asked to enter, where a round with no
        marshal asks the scorer about a missed report (issue 46, docs/estimates.md)."""
        with self.live.lock:
            view = self.live.service.round_view(round)
            group_of(view, group)
            now = now or self.clock.now()
            row = self.live.group_row(round, group, now)
            live = self.live.live(round, now)
            fold = live.field
            asked = sorted(
                {int(a["hole"]) for a in live.alerts.open()
                 if a.get("kind") == "missing_tap" and a.get("group") == group
                 and not a.get("check_holes") and a.get("hole") is not None}
            )  # fmt: skip
            order = list(row["order"])
            holes = row["holes"]
            # the hole after the furthest one known (a hole before it is implied, or estimated
            # when it was reported in a batch)
            furthest = max((order.index(int(h)) for h in holes), default=-1)
            hole = order[furthest + 1] if furthest + 1 < len(order) else None
            due = row["due"][order.index(hole)] if hole is not None else None
            return {
                "round": round,
                "group": group,
                "at": now.isoformat(),
                "hole": hole,
                "due": due,
                "over_min": row["over_min"],
                "gap_min": None if row["lead"] else row["gap_min"],
                "finished": hole is None,
                "holes": {
                    h: {"at": v["at"], "source": v.get("source", "official")}
                    for h, v in holes.items()
                },  # fmt: skip
                "reported": fold.reported_holes(group),
                "completions": view.record.completions,
                "asked": asked,
            }

    def snapshot(self, round: str) -> dict[str, Any]:
        """Return what the scorer page needs of a round: its course, scoring and groups."""
        with self.live.lock:
            view = self.live.service.round_view(round)
            rs = self.scoring(round)
            sides = self._roster(view).sides
            groups = [
                {
                    "group": p.id,
                    "tee": p.group.tee,
                    "start": p.group.start.isoformat(),
                    "players": [pl.name for pl in p.group.players],
                    "order": list(p.order),
                    "balls": [
                        views.ball_view(s, b, view.record.course)
                        for s in sides
                        if s.group == p.id
                        for b in s.balls
                    ],  # fmt: skip
                }
                for p in view.plan.groups
            ]
            course = view.record.course
            stored = self.live.service.store.get_round(round)
            return {
                "round": round,
                "day": view.record.day.isoformat(),
                "timezone": view.record.timezone,
                "completions": stored.completions,
                # the page asks its group to share its position only where the server would
                # take it (issue 48): allowed, a map to place it on, the round still in play
                "positions": bool(
                    stored.positions
                    and not positions.finished(self.live.life(round))
                    and self.live.service.store.get_geometry(course.name)
                ),
                "course": {
                    "name": course.name,
                    "holes": [
                        {"number": h.number, "par": h.par, "stroke_index": h.stroke_index}
                        for h in course.holes
                    ],
                },
                "scoring": {
                    "scoring": rs.scoring.name,
                    "format": rs.team_format.name,
                    "net": rs.net,
                    "one_ball": not rs.team_format.own_balls,
                },
                "groups": groups,
            }

    def changes(self, round: str, now: datetime | None = None) -> tuple[str, ...]:
        """Return the groups whose card changed since last asked: their scores, or the counted
        penalties of their players (a stroke timed, voided or re-judged). Empty: nothing for
        the leaderboard to announce."""
        with self.live.lock:
            view = self.live.service.round_view(round)
            told = self._told.setdefault(round, {"setup": None, "groups": {}})
            seq = self.live.live(round).last_seq
            if told.get("seq") == seq and told["setup"] is not None and told["setup"][0] is view:
                return ()  # nothing logged since last asked (a quiet tick): nothing changed
            outcomes, _ = self._outcomes(round, now or self.clock.now())
            setup = (view, self.scoring(round))
            by_group: dict[str, list[Any]] = {}
            for r in self.score_log(round).records:
                by_group.setdefault(r.group, []).append((r.id, r.hole, r.strokes, r.conceded))
            for o in outcomes:  # a warning changes nothing on a card
                if o.counted and o.penalty is not None and o.penalty.kind not in WARNINGS:
                    p = o.penalty
                    by_group.setdefault(o.fault.group, []).append(
                        (o.fault.id, o.fault.player, p.kind, p.amount, p.hole, p.bearer)
                    )
            same = told["setup"] is not None and told["setup"][0] is view
            old = told["groups"] if same and told["setup"][1] == setup[1] else {}
            now_groups = {g: tuple(v) for g, v in by_group.items()}
            changed = tuple(
                p.id for p in view.plan.groups if old.get(p.id, ()) != now_groups.get(p.id, ())
            )
            if told["setup"] is not None and told["setup"][0] is not view:
                # the draw changed (a change on the day): every card may have
                changed = tuple(p.id for p in view.plan.groups)
            told.update(setup=setup, groups=now_groups, seq=seq)
            return changed


# -- import ----------------------------------------------------------------------------------


def import_scores(
    service: RoundService, text: str, filename: str, *, round: str, by: str
) -> tuple[int, int]:
    """Parse a scores CSV (docs/formats.md §7) into ``score_recorded`` events: (new, already).

    All or nothing: a row for a hole already scored with other strokes (live, or by another
    file) refuses the whole file, naming its line (correct that score instead). Rows the log
    already says are not recorded again; re-importing the same file adds nothing (the ids
    derive from the rows).
    """
    view = service.round_view(round)
    record = view.record
    rs = round_scoring(record, service.settings)
    scores = formats.parse_scores(
        text, filename, course=record.course, groups=record.groups,
        format_name=rs.team_format.name,
    )  # fmt: skip
    roster = Roster(build_sides(record.groups, rs.team_format))
    stored = rec.fold(service.store.events(round))
    current: dict[tuple[str, str, int], rec.Record] = {}
    for r in stored.records:
        side = roster.side_of(r.group, r.player)
        current[(side.key, side.ball_of(r.player), r.hole)] = r
    lines = _score_lines(text, filename)
    problems: list[Problem] = []
    new: list[Event] = []
    already = 0
    for s, line in zip(scores, lines, strict=True):
        side = roster.side_of(s.group, s.player)
        there = current.get((side.key, side.ball_of(s.player), s.hole))
        if there is not None and (there.strokes, there.conceded) == (s.strokes, s.conceded):
            already += 1
        elif there is not None:
            problems.append(Problem(
                filename, line, "strokes",
                f"{s.player}'s hole {s.hole} (group {s.group!r}) is already scored "
                f"{_shown(there.strokes)}; correct that score instead of importing another one",
            ))  # fmt: skip
        else:
            new.append(_imported(round, s, by, service.clock.now()))
    if problems:
        raise FileFormatError(problems)
    check_open_import(view.record.name, view.tz, service.store.events(round), new)
    created = service.store.append_many(new, recorded_at=service.clock.now())
    return sum(1 for _, c in created if c), already


def _imported(round: str, s: Score, by: str, now: datetime) -> Event:
    key = f"{round}/{s.group}/{s.player}/{s.hole}/{s.strokes}/{s.conceded}"
    return Event(
        id=str(uuid.uuid5(SCORES_NAMESPACE, key)),
        type=rec.SCORE_RECORDED,
        round=round,
        at=now,
        payload={
            "group": s.group,
            "player": s.player,
            "hole": s.hole,
            "strokes": s.strokes,
            "conceded": s.conceded,
        },  # fmt: skip
        by={"name": by, "role": "committee", "device": "import"},
    )


def _score_lines(text: str, filename: str) -> list[int]:
    """Return the line of each row of a valid scores CSV, in file order (one score a row)."""
    table, _ = csvfile.read_table(text, filename, scores_csv.COLUMNS)
    return [row.line for row in table.rows]


# -- helpers -------------------------------------------------------------------------------


def _shown(strokes: int | None) -> str:
    return "no score" if strokes is None else str(strokes)


def _allowance_view(rs: RoundScoring) -> list[float] | None:
    return list(rs.allowance) if rs.allowance else None


def retired_sides(view: RoundView, roster: Roster) -> frozenset[str]:
    """Return the keys of the sides whose players all retired during play (a change on the
    day): their cards are over where they stopped."""
    out = set()
    for side in roster.sides:
        plan = view.plan.by_id.get(side.group)
        if plan is not None and all(plan.group.retired_at(p.name) for p in side.players):
            out.add(side.key)
    return frozenset(out)


def leaderboard_events(
    scores: ScoreService, round: str, now: datetime, *, final: bool
) -> list[dict[str, Any]]:
    """Return the view of each competition ``round`` is a round of, for its leaderboard.

    The standings count the rounds before this one, and this one once its board is final or
    its day is over: a round in play has no total yet (stroke play: a card not complete is no
    return), so the event's table waits for it rather than showing the field as no returns.
    A competition that cannot be scored (a round's scoring changed since) says why in
    ``error``.
    """
    service = scores.live.service
    this = service.round_view(round)
    over = final or now > end_of_day(this.record.day, this.tz)
    views = []
    for record in service.store.list_competitions(round=round):
        number = record.rounds.index(round) + 1
        counted = number if over else number - 1
        try:
            played = []
            for r in record.rounds[:counted]:
                view = service.round_view(r)
                results, _ = scores.judged_results(r, now)  # every act of an earlier round is in
                played.append(PlayedRound(r, view.record.course, results))
            outcome = score_competition(record.name, record.scoring, played, record.cut)
        except PaceError as e:
            views.append(event_view(record, number, None, error=e.message))
            continue
        views.append(event_view(record, number, outcome))
    return views

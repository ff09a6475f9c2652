"""The shapes the referees' feed sends: a group's timing, its penalty rows, the round's policy.

Pure views of a :class:`pace.rules.refereeing.Judgement` and a round's view, shaped as
docs/protocol.md describes them (instants ISO 8601, durations in seconds or minutes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from datetime import datetime
from typing import Any

from pace.documents.values import minutes, seconds
from pace.rules import penalties, policies, spells, timing
from pace.rules import refereeing as rr
from pace.services.rounds import RoundView


def _iso(instant: datetime | None) -> str | None:
    return None if instant is None else instant.isoformat()


def timing_view(
    view: RoundView,
    group_spells: Sequence[spells.Spell],
    decisions: Sequence[rr.Decision],
    group: str,
    now: datetime,
) -> dict[str, Any]:
    """Return a group's timing: whether a spell runs at ``now``, since when, who was told.

    ``spells`` lists every spell of the round for the group, how it ended and when.
    """
    plan = view.plan.by_id.get(group)
    names = [p.name for p in plan.group.players] if plan else []
    current = spells.running(group_spells, now)
    told_set = current.told if current else frozenset()
    told = [n for n in names if n in told_set] + sorted(told_set - set(names))
    return {
        "timed": current is not None,
        "since": _iso(current.start) if current else None,
        "told": told,
        "decisions": [
            {
                "decision": d.decision,
                "reason": d.reason,
                "note": d.note,
                "at": d.at.isoformat(),
                "by": dict(d.by),
            }
            for d in decisions
        ],
        "spells": [
            {
                "since": s.start.isoformat(),
                "until": _iso(s.end),
                "ended_by": s.ended_by,
                "hole": s.end_hole,
                "stopped": _iso(s.stopped),
            }
            for s in group_spells
            if s.start <= now
        ],
    }


def verdict_view(j: rr.StrokeJudgement) -> dict[str, Any]:
    """Return a timed stroke's verdict: its allowance, its duration, how far over."""
    v = j.verdict
    return {
        "allowed_s": seconds(v.allowed),
        "duration_s": seconds(v.stroke.duration),
        "over_s": seconds(v.over),
        "bad_time": v.is_bad_time,
    }


def penalty_view(p: penalties.Penalty | None) -> dict[str, Any] | None:
    """Return a penalty as ``{kind, amount, hole, bearer}``, or None."""
    if p is None:
        return None
    return {"kind": p.kind, "amount": p.amount, "hole": p.hole, "bearer": p.bearer}


def outcome_view(o: penalties.FaultOutcome) -> dict[str, Any]:
    """Return a judged fault: counted or not, why, its rank and its penalty."""
    return {
        "counted": o.counted,
        "reason": o.reason.value,
        "rank": o.rank,
        "penalty": penalty_view(o.penalty),
    }


def stretch_view(
    view: RoundView, policy: policies.Policy, b: penalties.CheckpointBreach
) -> dict[str, Any]:
    """Return a checkpoint breach's stretch: its holes, the minutes taken and allowed."""
    order = view.plan.by_id[b.group].order
    n = policy.checkpoint_holes
    holes = order[(b.checkpoint - 1) * n : b.checkpoint * n]
    return {
        "checkpoint": b.checkpoint,
        "holes": [holes[0], holes[-1]],
        "taken_min": minutes(b.taken),
        "limit_min": minutes(b.limit),
    }


def penalty_rows(
    view: RoundView,
    group: str,
    outcomes: Iterable[penalties.FaultOutcome],
    strokes: Mapping[str, rr.StrokeJudgement],
    breaches: Mapping[str, penalties.CheckpointBreach],
    notified: Set[tuple[str, str, str]],
    policy: policies.Policy,
) -> list[dict[str, Any]]:
    """Return one row per player of ``group`` with any fault, in draw order, each judged:
    every fault whole, and ``uncounted``, how many of them did not count.

    ``outcomes`` are the group's judged faults in log order (``GroupJudgement``); ``strokes``
    and ``breaches`` what they were judged from, by fault id.
    """
    by_player: dict[str, list[penalties.FaultOutcome]] = {}
    for o in outcomes:
        by_player.setdefault(o.fault.player, []).append(o)
    rows = []
    for player in view.plan.by_id[group].group.players:
        judged = by_player.get(player.name)
        if not judged:
            continue
        faults = []
        for o in judged:
            j = strokes.get(o.fault.id)
            breach = breaches.get(o.fault.id)
            faults.append(
                {
                    "id": o.fault.id,
                    "at": o.fault.at.isoformat(),
                    "hole": o.fault.hole,
                    **outcome_view(o),
                    "awaiting_notification": o.awaiting_notification,
                    "notified": (group, player.name, o.fault.id) in notified,
                    "source": o.fault.source,
                    "duration_s": seconds(j.stroke.duration) if j else None,
                    "allowed_s": seconds(j.verdict.allowed) if j else None,
                    "over_s": seconds(j.verdict.over) if j else None,
                    "stretch": stretch_view(view, policy, breach) if breach else None,
                }
            )
        counted = [o.penalty for o in judged if o.counted and o.penalty is not None]
        rows.append(
            {
                "group": group,
                "player": player.name,
                "faults": faults,
                "uncounted": sum(1 for o in judged if not o.counted),
                "strokes_total": sum(x.amount for x in counted if x.kind == "strokes"),
                "points_total": sum(x.amount for x in counted if x.kind == "points"),
                "holes_lost": [x.hole for x in counted if x.kind == "loss_of_hole"],
                "disqualified": any(x.kind == "disqualification" for x in counted),
            }
        )
    return rows


def glance_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return penalty rows as the snapshot and the feed carry them (docs/protocol.md, "A
    penalty row"): each player's totals and his counted faults whole (those awaiting
    notification are among them: the ladder is short); the faults that did not count are left
    out, ``uncounted`` says how many. A page fetches them when a referee asks
    (``GET /api/rounds/<round>/penalties/<group>``): a slow group timed for a long spell has
    hundreds."""
    return [
        {**r, "faults": [f for f in r["faults"] if f["counted"] or f["awaiting_notification"]]}
        for r in rows
    ]


def policy_view(policy: policies.Policy, view: RoundView) -> dict[str, Any]:
    """Return the round's pace policy as the pages use it (``policy_detail``)."""
    play = view.record.play
    return {
        "name": policy.name,
        "description": policy.description,
        "stroke_allowance_s": seconds(policy.stroke_allowance),
        "extra_allowance_s": seconds(policy.extra_allowance),
        # what the shot clock counts down from, per stroke kind, for the first to play (the
        # par-3 tee shot's only on a par 3; "other" never earns extra time): the rule stays here
        "allowances_s": {
            k.value: seconds(timing.allowance(k, k is not timing.StrokeKind.OTHER, policy))
            for k in timing.StrokeKind
        },
        "ball_search_s": seconds(policy.ball_search),
        "play": play,
        "format": view.record.format,
        "gate": policy.notification_gate,
        "ladder": list(
            policy.stroke_ladder if play == penalties.STROKE_PLAY else policy.match_ladder
        ),
        "stroke_ladder": list(policy.stroke_ladder),
        "match_ladder": list(policy.match_ladder),
        "repeat_last": policy.repeat_last,
        "faults_from": policy.faults_from,
        "checkpoint_holes": policy.checkpoint_holes,
        "checkpoint_limit_min": minutes(policy.checkpoint_limit),
    }

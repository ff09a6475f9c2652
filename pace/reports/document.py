"""The report's JSON document (docs/reports.md, ``docs/report.schema.json``): the same facts
as the page, as plain values.

Instants are ISO 8601 in the round's local time with its UTC offset; durations are minutes
rounded to the hundredth (``*_min``) or seconds to the tenth (``*_s``); keys stay stable.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo
from typing import Any

from pace.documents.report import ReportMeta, holdup_view
from pace.documents.values import instant, minutes, seconds
from pace.rules import explain, penalties
from pace.rules import report as rp

#: The version of the document's shape; it changes only when a key changes meaning.
SCHEMA_VERSION = 1


def penalty_view(p: penalties.Penalty | None) -> dict[str, Any] | None:
    """Return a penalty as ``{kind, amount, hole, bearer}`` (as the live penalty rows)."""
    if p is None:
        return None
    return {"kind": p.kind, "amount": p.amount, "hole": p.hole, "bearer": p.bearer}


def _hole(r: rp.HoleRow, tz: tzinfo) -> dict[str, Any]:
    return {
        "hole": r.hole,
        "position": r.position,
        "par": r.par,
        "allotted_min": minutes(r.allotted),
        "due": instant(r.due, tz),
        "logged": instant(r.logged, tz),
        "over_min": minutes(r.over),
        "gap_min": minutes(r.gap),
        "ahead": r.ahead,
        "status": None if r.status is None else r.status.value,
        "hole_min": minutes(r.hole_time),
        "stopped_min": minutes(r.stopped),
    }


def _episode(e: rp.EpisodeReport, tz: tzinfo) -> dict[str, Any]:
    return {
        "start": instant(e.episode.start, tz),
        "end": instant(e.episode.end, tz),
        "start_hole": e.episode.start_hole,
        "end_hole": e.episode.end_hole,
        "ended_by": e.episode.ended_by,
        "holes": list(e.holes),
        "worst_gap_min": minutes(e.worst_gap),
        "worst_over_min": minutes(e.worst_over),
        "worst_hole": e.worst_hole,
    }


def _act(a: rp.Act, tz: tzinfo) -> dict[str, Any]:
    return {"at": instant(a.at, tz), "by": a.by}


def _fault(f: rp.FaultReport, tz: tzinfo) -> dict[str, Any]:
    o = f.outcome
    return {
        "id": o.fault.id,
        "at": instant(o.fault.at, tz),
        "hole": o.fault.hole,
        "source": o.fault.source,
        "seconds": seconds(f.stroke.stroke.duration) if f.stroke else None,
        "allowed_s": seconds(f.stroke.allowed) if f.stroke else None,
        "taken_min": minutes(f.breach.taken) if f.breach else None,
        "limit_min": minutes(f.breach.limit) if f.breach else None,
        "counted": o.counted,
        "reason": o.reason.value,
        "rank": o.rank,
        "penalty": penalty_view(o.penalty),
        "notified": None if f.notified is None else _act(f.notified, tz),
    }


def _player(p: rp.PlayerReport, tz: tzinfo, tees: str | None = None) -> dict[str, Any]:
    counted = p.penalties
    return {
        "player": p.name,
        # the tee set played, on a course with tee sets only (issue 38)
        **({"tees": tees} if tees is not None else {}),
        "told": [_act(a, tz) for a in p.told],
        "strokes": [
            {
                "id": s.verdict.stroke.id,
                "at": instant(s.verdict.stroke.stopped, tz),
                "hole": s.verdict.stroke.hole,
                "kind": s.verdict.stroke.kind.value,
                "first_to_play": s.verdict.stroke.first_to_play,
                "between_holes": s.verdict.stroke.between_holes,
                "seconds": seconds(s.verdict.stroke.duration),
                "allowed_s": seconds(s.verdict.allowed),
                "over_s": seconds(s.verdict.over),
                "bad_time": s.verdict.is_bad_time,
                "by": s.by,
            }
            for s in p.strokes
        ],
        "faults": [_fault(f, tz) for f in p.faults],
        "strokes_total": sum(x.amount for x in counted if x.kind == "strokes"),
        "points_total": sum(x.amount for x in counted if x.kind == "points"),
        "holes_lost": [x.hole for x in counted if x.kind == "loss_of_hole"],
        "disqualified": any(x.kind == "disqualification" for x in counted),
    }


def group_view(g: rp.GroupReport, tz: tzinfo) -> dict[str, Any]:
    """Return one group's part of the document."""
    grp = g.plan.group
    tees = {x.name: x.tees for x in grp.players}
    return {
        "group": g.id,
        "tee": grp.tee,
        "start": instant(grp.start, tz),
        "lead": g.plan.lead,
        "interval_min": minutes(g.plan.interval),
        "status": g.status.status.value,
        "holes_completed": g.status.holes_completed,
        "finish": instant(g.finish, tz),
        "round_min": minutes(g.round_time),
        "allotted_min": minutes(g.allotted),
        "stopped_min": minutes(g.stopped),
        "credited_min": minutes(g.credited),
        "over_min": minutes(g.over),
        "holes": [_hole(r, tz) for r in g.holes],
        "episodes": [_episode(e, tz) for e in g.episodes],
        "explanations": [
            explain.as_document(x, rp.author, lambda t: str(instant(t, tz)), minutes)
            for x in g.explanations
        ],
        "decisions": [
            {**_act(d, tz), "decision": d.decision, "reason": d.reason, "note": d.note}
            for d in g.acts.decisions
        ],
        "spells": [
            {
                "start": instant(s.start, tz),
                "by": s.by,
                "end": instant(s.end, tz),
                "stopped_by": s.stopped_by,
                "ended_by": s.ended_by,
            }
            for s in g.acts.spells
        ],
        "credits": [
            {**_act(c, tz), "minutes": c.minutes, "reason": c.reason} for c in g.acts.credits
        ],
        "players": [_player(p, tz, tees.get(p.name)) for p in g.players],
    }


def _bands(bands: Sequence[rp.Band]) -> list[dict[str, Any]]:
    return [
        {
            "from_min": minutes(b.low),
            "to_min": minutes(b.high),
            "groups": list(b.groups),
        }
        for b in bands
    ]


def report_document(meta: ReportMeta, r: rp.RoundReport) -> dict[str, Any]:
    """Return the whole report as the JSON document of docs/reports.md."""
    tz = meta.tz
    f = r.field
    out: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "round": meta.round,
        "course": meta.course,
        "day": meta.day.isoformat(),
        "timezone": meta.timezone,
        "policy": meta.policy,
        "policy_known": meta.policy_known,
        "play": meta.play,
        "format": meta.format,
        "at": instant(r.at, tz),
        "life": None if meta.life is None else dict(meta.life),
        "standard_interval_min": minutes(r.standard_interval),
        "summary": {
            "groups": len(r.groups),
            "finished": f.finished,
            "not_finished": list(f.not_finished),
            "bands": _bands(f.bands),
            "holes": [
                {
                    "hole": s.hole,
                    "par": s.par,
                    "groups": s.groups,
                    "avg_over_min": minutes(s.over),
                    "avg_hole_over_min": minutes(s.hole_over),
                    "avg_gap_min": minutes(s.gap),
                    "avg_gap_change_min": minutes(s.gap_change),
                }
                for s in f.holes
            ],
            "bottlenecks": list(f.bottlenecks),
            "stoppages": [
                {
                    "kind": s.kind,
                    "start": instant(s.start, tz),
                    "end": instant(s.end, tz),
                    "minutes": minutes(s.duration),
                    "groups": list(s.groups),
                }
                for s in f.stoppages
            ],
            "stopped_min": minutes(f.stopped),
            "group_stopped_min": minutes(f.group_stopped),
            "held_up": [holdup_view(u, tz) for u in f.held_up],
        },
        "groups": [group_view(g, tz) for g in r.groups],
    }
    if meta.strip is not None:
        out["strip"] = dict(meta.strip)
    return out

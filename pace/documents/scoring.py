"""What the live pages show of the scoring: the public leaderboard and a group's card.

Pure formatting of ``pace.rules.scoring.live.Board`` and the score log: nothing here
scores. The leaderboard is compact (a phone in the crowd reads it at every change): each
entry's standing, totals, penalties and the holes scored so far; the document of
``pace results`` (docs/formats.md §8) is ``pace.reports.results``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pace.rules.model import Course, Group
from pace.rules.scoring import live as livemod
from pace.rules.scoring.base import tees_of
from pace.rules.scoring.bogey import balance_text
from pace.rules.scoring.records import Record
from pace.rules.scoring.results import DQ, NR, Match
from pace.rules.scoring.sides import CLASS_NAMES, Side
from pace.rules.scoring.slowplay import PenaltyLine


def penalty_document(p: PenaltyLine) -> dict[str, Any]:
    """Return one counted penalty as it landed on the card."""
    return {
        "fault": p.fault,
        "group": p.group,
        "player": p.player,
        "hole": p.hole,
        "kind": p.kind,
        "amount": p.amount,
        "bearer": p.bearer,
        "source": p.source,
        "rank": p.rank,
        "effect": p.effect,
        "value": p.value,
    }


def _result(line: livemod.Line, scoring: str, final: bool) -> str:
    """Return what the board prints for an entry now."""
    if line.state == DQ:
        return "DQ"
    if line.state == NR:
        return "NR"
    if line.state == livemod.NOT_STARTED or line.value is None:
        return ""
    if scoring == "stroke":
        return line.entry.result if final else str(line.so_far)
    if scoring == "stableford":
        return f"{line.value} point" if abs(line.value) == 1 else f"{line.value} points"
    return balance_text(line.value)


def line_document(line: livemod.Line, scoring: str, final: bool) -> dict[str, Any]:
    """Return one entry of the leaderboard."""
    e = line.entry
    return {
        "position": line.position,
        "tied": line.tied,
        "class": e.class_name,
        "class_position": line.class_position,
        "entry": e.entry,
        "players": list(e.players),
        "group": e.group,
        "state": line.state,
        "thru": line.thru,
        "complete": line.complete,
        "to_par": line.to_par,
        "so_far": line.so_far,
        "value": line.value,
        "result": _result(line, scoring, final),
        "gross": e.gross if line.complete else None,
        "net": e.net if line.complete else None,
        "points": e.points if scoring == "stableford" else None,
        "playing_handicap": e.playing_handicap,
        "tees": e.tees,
        "tee_colour": e.tee_colour,
        "penalty_strokes": e.penalty_strokes,
        "penalty_points": e.penalty_points if scoring == "stableford" else None,
        "penalty_holes": e.penalty_holes if scoring in ("bogey", "par") else None,
        "status": e.status,
        "reason": e.reason,
        "countback": line.countback,
        "penalties": [penalty_document(p) for p in e.penalties if p.effect != "none"],
        # hole, strokes (null: not scored, or no score), penalty strokes
        "card": [[h.hole, h.strokes, h.penalty_strokes] for h in e.holes],
    }


def match_view(m: Match) -> dict[str, Any]:
    """Return one match as the leaderboard shows it: its state or result, and its sides."""
    return {
        "match": m.match,
        "result": m.result,
        "winner": m.winner,
        "status": m.status,
        "reason": m.reason,
        "finished": m.finished,
        "thru": m.thru,
        "sides": [
            {"entry": s.entry, "players": list(s.players), "tees": s.tees,
             "tee_colour": s.tee_colour}
            for s in m.sides
        ],  # fmt: skip
        "penalties": [penalty_document(p) for p in m.penalties if p.effect != "none"],
    }


def leaderboard_document(board: livemod.Board, course: Course) -> dict[str, Any]:
    """Return the leaderboard of a round: entries in board order, or its matches."""
    lines = [line_document(ln, board.scoring, board.final) for ln in board.lines]
    present = {ln.entry.class_name for ln in board.lines if ln.entry.class_name}
    return {
        "scoring": board.scoring,
        "format": board.format,
        "net": board.net,
        "final": board.final,
        "course": {
            "name": course.name,
            "par": course.par,
            "holes": [{"number": h.number, "par": h.par} for h in course.holes],
        },
        "classes": [c for c in CLASS_NAMES if c in present],
        "entries": lines,
        "matches": [match_view(m) for m in board.matches],
    }


def ball_view(side: Side, ball: str, course: Course | None = None) -> dict[str, Any]:
    """Return one ball of a group's card: whom a score names, and who plays it; on a course
    with tee sets, the tees the ball is played from (its player's; a one-ball side's first
    partner's) and the par of each hole from them (docs/scoring.md, "Tees")."""
    own = ball in {p.name for p in side.players}
    players = [ball] if own else [p.name for p in side.players]
    out: dict[str, Any] = {"ball": ball, "player": players[0], "players": players,
                           "side": side.name}  # fmt: skip
    if course is not None and course.tees:
        player = next((p for p in side.players if p.name == ball), side.players[0])
        tees, colour = tees_of([player], course)
        out["tees"], out["tee_colour"] = tees, colour
        try:
            played = course.played_from(player.tees, player.gender)
        except (KeyError, ValueError):
            played = course
        out["pars"] = {str(h.number): h.par for h in played.holes}
    return out


def record_view(r: Record) -> dict[str, Any]:
    """Return a recorded score as the scorer page shows it (its id, to correct or void it)."""
    return {
        "id": r.id,
        "player": r.player,
        "strokes": r.strokes,
        "conceded": r.conceded,
        "at": r.at.isoformat(),
        "by": dict(r.by),
        "corrected": bool(r.corrections),
        "original": r.original,
    }


def card_document(
    round: str,
    group: Group,
    sides: Sequence[Side],
    order: Sequence[int],
    records: Iterable[Record],
    board: livemod.Board,
    course: Course | None = None,
) -> dict[str, Any]:
    """Return a group's card: every ball's scores by hole, its entries' standing and holes
    (penalty strokes included), and the penalties the pace side counted for its players."""
    keys = {s.key for s in sides}
    scores: dict[str, dict[str, Any]] = {b: {} for s in sides for b in s.balls}
    by_player = {p.name: s for s in sides for p in s.players}
    for r in records:
        side = by_player.get(r.player)
        if side is not None:
            scores.setdefault(side.ball_of(r.player), {})[str(r.hole)] = record_view(r)
    lines = []
    for ln in board.lines:
        if ln.entry.key not in keys:
            continue
        doc = line_document(ln, board.scoring, board.final)
        doc["holes"] = [
            {
                "hole": h.hole,
                "strokes": h.strokes,
                "received": h.received,
                "penalty_strokes": h.penalty_strokes,
                "points": h.points,
                "outcome": h.outcome,
                "counted": h.counted,
                "penalty_by": dict(h.penalty_by) if h.penalty_by is not None else None,
            }
            for h in ln.entry.holes
        ]
        lines.append(doc)
    matches = [match_view(m) for m in board.matches if any(s.key in keys for s in m.sides)]
    penalties = [p for doc in lines + matches for p in doc["penalties"] if p["group"] == group.id]
    return {
        "round": round,
        "group": group.id,
        "tee": group.tee,
        "start": group.start.isoformat(),
        "order": list(order),
        "players": [p.name for p in group.players],
        "balls": [ball_view(s, b, course) for s in sides for b in s.balls],
        "scores": scores,
        "scoring": board.scoring,
        "net": board.net,
        "final": board.final,
        "entries": lines,
        "matches": matches,
        "penalties": penalties,
    }

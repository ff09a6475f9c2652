"""A competition's results (``pace results --event``): its JSON document, table and CSV.

Pure formatting of :class:`pace.services.competitions.CompetitionOutcome`: nothing here
scores. The shapes follow a round's (``pace.reports.results``): the same penalty lines, the
same CSV conventions (``--excel``: ``;``, decimal commas, a byte order mark, CRLF).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from pace.documents.competition import round_penalty
from pace.formats import spreadsheet
from pace.reports.results import BOM, number_text, penalty_document
from pace.rules.scoring.competition import (
    POINTS,
    CompetitionEntry,
    RoundFigure,
)

if TYPE_CHECKING:
    from pace.services.competitions import CompetitionOutcome


def round_figure_document(f: RoundFigure | None) -> dict[str, Any] | None:
    """Return a player's round in the competition (None: no card in that round)."""
    if f is None:
        return None
    return {
        "round": f.round,
        "status": f.status,
        "figure": f.figure,
        "result": f.result,
        "position": f.position,
        "tied": f.tied,
        "gross": f.gross,
        "net": f.net,
        "points": f.points,
        "penalty_strokes": f.penalty_strokes,
        "penalty_points": f.penalty_points,
        "reason": f.reason,
        "penalties": [penalty_document(p) for p in f.penalties],
    }


def competition_entry_document(e: CompetitionEntry) -> dict[str, Any]:
    """Return one player of the competition, keys in the order a round's entry has them."""
    return {
        "position": e.position,
        "tied": e.tied,
        "class_position": e.class_position,
        "entry": e.entry,
        "players": list(e.players),
        "class": e.class_name,
        "made_cut": e.made_cut,
        "rounds": [round_figure_document(f) for f in e.rounds],
        "total": e.total,
        "result": e.result,
        "status": e.status,
        "reason": e.reason,
        "countback": e.countback,
    }


def competition_document(outcome: CompetitionOutcome) -> dict[str, Any]:
    """Return the ``pace results --event --json`` document."""
    results = outcome.results
    cut = None
    if results.cut is not None:
        line = results.cut_line
        cut = {
            "after": results.cut.after,
            "top": results.cut.top,
            "within": results.cut.within,
            "rule": results.cut.describe(results.scoring),
            "applied": line is not None,
            "line": line.line if line else None,
            "made": line.made if line else None,
        }
    return {
        "event": results.name,
        "scoring": results.scoring,
        "holes": sum(len(r.course.holes) for r in outcome.rounds),
        "played": results.played,
        "rounds": [
            {
                "number": n,
                "round": r.name,
                "course": r.course.name,
                "day": r.day.isoformat(),
                "holes": len(r.course.holes),
            }
            for n, r in enumerate(outcome.rounds, start=1)
        ],
        "cut": cut,
        "entries": [competition_entry_document(e) for e in results.entries],
    }


# -- the readable table and the spreadsheet ---------------------------------------------


def _cell(f: RoundFigure | None) -> str:
    if f is None:
        return ""
    return str(f.figure) if f.figure is not None else f.status.upper()


def _note(e: CompetitionEntry, scoring: str) -> str:
    parts = [e.reason] if e.reason else []
    for f in e.rounds:
        value = round_penalty(f, scoring)
        if f is not None and value:
            unit = "point(s) off" if scoring == POINTS else "penalty stroke(s)"
            parts.append(f"{f.round}: {value} {unit}")
    return "; ".join(parts)


def competition_table(outcome: CompetitionOutcome) -> str:
    """Return the competition's results as a readable fixed-width table."""
    results = outcome.results
    holes = sum(len(r.course.holes) for r in outcome.rounds)
    title = (
        f"event {results.name}: {results.scoring}, {len(results.rounds)} rounds ({holes} holes),"
        f" {results.played} played"
    )
    if results.cut is not None:
        line = results.cut_line
        fell = (
            f"{line.made} made it" + (f", at {line.line}" if line.line is not None else "")
            if line
            else "not made yet"
        )
        title += f"; cut: {results.cut.describe(results.scoring)} ({fell})"
    head = ["pos", "entry", "class", *results.rounds, "total", "result", "countback", "note"]
    rows = [head]
    for e in results.entries:
        pos = "" if e.position is None else f"{'T' if e.tied else ''}{e.position}"
        rows.append(
            [pos, e.entry, e.class_name or "", *(_cell(f) for f in e.rounds),
             "" if e.total is None else str(e.total), e.result, e.countback or "",
             _note(e, results.scoring)]
        )  # fmt: skip
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    body = "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )
    return f"{title}\n{body}"


def competition_csv(outcome: CompetitionOutcome, *, excel: bool = False) -> str:
    """Return the competition's results as CSV for the committee's spreadsheet, one row per
    player: each round's figure and its pace penalty (strokes, or points off), the total."""
    results = outcome.results
    out = io.StringIO()
    w = spreadsheet.writer(
        out, delimiter=";" if excel else ",", lineterminator="\r\n" if excel else "\n"
    )
    rounds = range(1, len(results.rounds) + 1)
    w.writerow(
        ["position", "tied", "class", "class_position", "entry", "made_cut",
         *(c for n in rounds for c in (f"round_{n}", f"round_{n}_penalty")),
         "total", "result", "status", "reason", "countback"]
    )  # fmt: skip
    for e in results.entries:
        made = "" if e.made_cut is None else "yes" if e.made_cut else "no"
        per_round = []
        for f in e.rounds:
            penalty = round_penalty(f, results.scoring)
            per_round += [_cell(f), "" if penalty is None else str(penalty)]
        w.writerow(
            ["" if e.position is None else e.position, "yes" if e.tied else "",
             e.class_name or "", "" if e.class_position is None else e.class_position,
             e.entry, made, *per_round, "" if e.total is None else e.total, e.result,
             e.status, e.reason or "", number_text(e.countback, excel)]
        )  # fmt: skip
    text = out.getvalue()
    return BOM + text if excel else text

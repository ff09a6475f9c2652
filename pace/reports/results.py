"""The results document of docs/formats.md §8 (``pace results --json``), its table and its CSV.

Pure formatting of ``pace.rules.scoring.Results``: nothing here scores.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from pace.documents.scoring import penalty_document
from pace.formats import spreadsheet
from pace.rules.scoring.results import Entry, HoleLine, Match, MatchHole, MatchSide, Results

BOM = "\ufeff"


def hole_document(line: HoleLine, scoring: str) -> dict[str, Any]:
    """Return one hole of an entry's card, keys in docs/formats.md §8's order."""
    out: dict[str, Any] = {"hole": line.hole, "strokes": line.strokes, "received": line.received}
    if scoring == "stableford":
        out["points"] = line.points
    if scoring in ("bogey", "par"):
        out["outcome"] = line.outcome
    out["penalty_strokes"] = line.penalty_strokes
    if line.scores is not None:
        out["scores"] = dict(line.scores)
        out["received_by"] = dict(line.received_by or {})
        out["penalty_by"] = dict(line.penalty_by or {})
        out["counted"] = line.counted
    return out


def entry_document(e: Entry, scoring: str) -> dict[str, Any]:
    """Return one entry of a stroke-play, Stableford or bogey/par result."""
    out: dict[str, Any] = {
        "position": e.position,
        "tied": e.tied,
        "class_position": e.class_position,
        "entry": e.entry,
        "players": list(e.players),
        "group": e.group,
        "class": e.class_name,
        "handicap_index": e.handicap_index,
        "playing_handicap": e.playing_handicap,
        "course_handicap": e.course_handicap,
        "tees": e.tees,
        "tee_colour": e.tee_colour,
    }
    if e.playing_handicaps:
        out["playing_handicaps"] = dict(e.playing_handicaps)
    out["holes"] = [hole_document(line, scoring) for line in e.holes]
    out["thru"] = e.thru
    out.update(
        gross=e.gross,
        net=e.net,
        penalty_strokes=e.penalty_strokes,
        points=e.points,
        penalty_points=e.penalty_points if scoring == "stableford" else None,
    )
    if scoring in ("bogey", "par"):
        out.update(
            holes_won=e.holes_won,
            holes_halved=e.holes_halved,
            holes_lost=e.holes_lost,
            penalty_holes=e.penalty_holes,
            balance=e.balance,
        )
    out.update(
        result=e.result,
        status=e.status,
        reason=e.reason,
        countback=e.countback,
        penalties=[penalty_document(p) for p in e.penalties],
    )
    return out


def side_document(s: MatchSide) -> dict[str, Any]:
    """Return one side of a match."""
    out: dict[str, Any] = {
        "entry": s.entry,
        "players": list(s.players),
        "playing_handicap": s.playing_handicap,
        "received": s.received,
        "allowance_handicap": s.allowance_handicap,
        "tees": s.tees,
        "tee_colour": s.tee_colour,
    }
    if s.playing_handicaps:
        out["playing_handicaps"] = dict(s.playing_handicaps)
        out["received_by"] = dict(s.received_by)
        out["allowance_handicaps"] = dict(s.allowance_handicaps)
    return out


def match_hole_document(h: MatchHole) -> dict[str, Any]:
    """Return one hole of a match."""
    out: dict[str, Any] = {
        "hole": h.hole,
        "winner": h.winner,
        "how": h.how,
        "state": h.state,
        "leader": h.leader,
        "strokes": dict(h.strokes),
        "received": dict(h.received),
    }
    if h.scores is not None:
        out["scores"] = dict(h.scores)
    return out


def match_document(m: Match) -> dict[str, Any]:
    """Return one match, keys in docs/formats.md §8's order."""
    return {
        "match": m.match,
        "result": m.result,
        "winner": m.winner,
        "status": m.status,
        "reason": m.reason,
        "finished": m.finished,
        "thru": m.thru,
        "sides": [side_document(s) for s in m.sides],
        "holes": [match_hole_document(h) for h in m.holes],
        "penalties": [penalty_document(p) for p in m.penalties],
    }


def results_document(results: Results, life: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return the ``pace results --json`` document of docs/formats.md §8; a stored round's
    with its ``life`` (final or not, when and by whom: ``pace.services.life``)."""
    if results.scoring == "match":
        entries = [match_document(m) for m in results.matches]
    else:
        entries = [entry_document(e, results.scoring) for e in results.entries]
    doc = {
        "scoring": results.scoring,
        "format": results.format,
        "net": results.net,
        "handicap": handicap_document(results),
        "entries": entries,
    }
    if life is not None:
        doc["life"] = dict(life)
    return doc


def handicap_document(results: Results) -> dict[str, Any]:
    """Return the readings of the handicap rules the results follow (docs/rules.md §10.1):
    the playing handicap's ``rounding`` and the ``gross_par_adjustment`` of tees of
    different par."""
    return {"rounding": results.rounding, "gross_par_adjustment": results.gross_par_adjustment}


def handicap_keys(doc: Mapping[str, Any]) -> list[str]:
    """Return the words keys of the footer lines saying which readings a results document
    follows: the rounding always; the gross adjustment in gross stroke play and match play."""
    readings = doc.get("handicap") or {}
    keys = [f"results.handicap.{readings.get('rounding', 'whs')}"]
    if doc.get("scoring") in ("stroke", "match") and not doc.get("net"):
        gross = readings.get("gross_par_adjustment", True)
        keys.append("results.handicap.gross_par" if gross else "results.handicap.gross_as_played")
    return keys


def handicap_footer(results: Results, lang: str = "en") -> list[str]:
    """Return the footer lines saying which readings of the handicap rules ``results``
    follow, in ``lang``."""
    from pace.reports.words import text

    doc = {"scoring": results.scoring, "net": results.net, "handicap": handicap_document(results)}
    return [text(key, lang) for key in handicap_keys(doc)]


def final_stamp(life: Mapping[str, Any]) -> str:
    """Return what a stored round's results are: final (when, by whom) or provisional."""
    act = life.get("finalised")
    if life.get("final") and act is not None:
        return f"results final {act['at']} by {act['by']}"
    return f"results provisional (round {str(life.get('stage', '?')).replace('_', ' ')})"


def _final_cells(life: Mapping[str, Any] | None) -> list[str]:
    if life is None:
        return []
    act = life.get("finalised") if life.get("final") else None
    return ["final" if act else "provisional", act["at"] if act else "", act["by"] if act else ""]


# -- the readable table and the spreadsheet ---------------------------------------------


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )


def _card_rows(results: Results) -> list[list[str]]:
    head = ["pos", "entry", "class", "hcp", "gross", "net"]
    stableford = results.scoring == "stableford"
    if stableford:
        head += ["points", "-pts"]
    if results.scoring in ("bogey", "par"):
        head += ["won", "halved", "lost", "-holes"]
    head += ["result", "countback", "note"]
    rows = [head]
    for e in results.entries:
        pos = "" if e.position is None else f"{'T' if e.tied else ''}{e.position}"
        hcp = (
            e.playing_handicap
            if e.playing_handicap is not None
            else "/".join(str(v) for v in e.playing_handicaps.values())
        )
        row = [pos, e.entry, _text(e.class_name), _text(hcp), _text(e.gross), _text(e.net)]
        if stableford:
            row += [_text(e.points), _text(e.penalty_points or "")]
        if results.scoring in ("bogey", "par"):
            row += [_text(e.holes_won), _text(e.holes_halved), _text(e.holes_lost)]
            row += [_text(e.penalty_holes or "")]
        note = e.reason or (f"{e.penalty_strokes} penalty stroke(s)" if e.penalty_strokes else "")
        row += [e.result, _text(e.countback), note]
        rows.append(row)
    return rows


def results_table(results: Results, life: Mapping[str, Any] | None = None) -> str:
    """Return the results as a readable fixed-width table (a stored round's: final or not)."""
    title = f"{results.scoring} {'net' if results.net else 'gross'}, {results.format}"
    if results.scoring == "match":
        rows = [["match", "side 1", "side 2", "result", "winner", "thru", "note"]]
        for m in results.matches:
            rows.append(
                [m.match, m.sides[0].entry, m.sides[1].entry, m.result, _text(m.winner),
                 str(m.thru), _text(m.reason)]
            )  # fmt: skip
    else:
        rows = _card_rows(results)
    stamp = "" if life is None else final_stamp(life) + "\n"
    footer = "".join(f"\n{line}" for line in handicap_footer(results))
    return f"results: {title}\n{stamp}" + _table(rows) + "\n" + footer


def results_csv(
    results: Results, *, excel: bool = False, life: Mapping[str, Any] | None = None
) -> str:
    """Return the results as CSV for the committee's spreadsheet.

    ``excel``: ``;``-separated with a byte order mark and decimal commas, as a French-locale
    spreadsheet opens it directly. A stored round's (``life``) end in three columns, the
    same on every row: ``results`` (final or provisional), ``final_at``, ``final_by``.
    """
    stamp = _final_cells(life)
    stamp_head = ["results", "final_at", "final_by"] if life is not None else []
    out = io.StringIO()
    w = spreadsheet.writer(
        out, delimiter=";" if excel else ",", lineterminator="\r\n" if excel else "\n"
    )

    def number(value: float | None) -> str:
        text = _text(value)
        return text.replace(".", ",") if excel else text

    if results.scoring == "match":
        w.writerow(["match", "side_1", "side_2", "result", "winner", "status", "thru", "reason",
                    *stamp_head])  # fmt: skip
        for m in results.matches:
            w.writerow(
                [m.match, m.sides[0].entry, m.sides[1].entry, m.result, _text(m.winner),
                 m.status, m.thru, _text(m.reason), *stamp]
            )  # fmt: skip
    else:
        holes = [line.hole for line in results.entries[0].holes] if results.entries else []
        w.writerow(
            ["position", "tied", "class", "class_position", "entry", "group",
             "handicap_index", "playing_handicap", "course_handicap", "playing_handicaps",
             "gross", "net", "penalty_strokes", "points",
             "penalty_points", "result", "status", "reason", "countback", "tees", "tee_colour",
             *(f"hole_{h}" for h in holes), *stamp_head]
        )  # fmt: skip
        for e in results.entries:
            w.writerow(
                [_text(e.position), "yes" if e.tied else "", _text(e.class_name),
                 _text(e.class_position), e.entry, e.group, number(e.handicap_index),
                 _text(e.playing_handicap), _text(e.course_handicap),
                 per_player(e.playing_handicaps), _text(e.gross), _text(e.net), e.penalty_strokes,
                 _text(e.points), _text(e.penalty_points if results.scoring == "stableford"
                                        else None),
                 e.result, e.status, _text(e.reason),
                 number_text(e.countback, excel), _text(e.tees), _text(e.tee_colour),
                 *(_card_cell(line) for line in e.holes), *stamp]
            )  # fmt: skip
    text = out.getvalue()
    return BOM + text if excel else text


def per_player(handicaps: Mapping[str, int]) -> str:
    """Return a side's playing handicaps, each partner's: ``Ann 8 / Bob 12`` (empty for a
    single player, whose ``playing_handicap`` is his)."""
    return " / ".join(f"{name} {value}" for name, value in handicaps.items())


def number_text(text: str | None, excel: bool) -> str:
    """Return a countback text with a decimal comma for a French spreadsheet."""
    if text is None:
        return ""
    return text.replace(".", ",") if excel else text


def _card_cell(line: HoleLine) -> str:
    if line.strokes is None:
        return "-"
    return f"{line.strokes}+{line.penalty_strokes}" if line.penalty_strokes else str(line.strokes)

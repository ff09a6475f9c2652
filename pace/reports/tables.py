"""The report as CSV: one row per group × hole, one per timed stroke, one per fault.

One table, so a spreadsheet filters it by ``record`` (``hole``, ``stroke``, ``fault``). With
``excel``, the French-locale spreadsheet form: ``;`` between cells, decimal commas, and a
UTF-8 byte-order mark. Cells a spreadsheet would read as a formula are prefixed with ``'``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from pace.documents.report import ReportMeta
from pace.documents.values import instant, minutes
from pace.formats import spreadsheet
from pace.reports.words import effect
from pace.rules import report as rp

COLUMNS = (
    "record", "group", "player", "hole", "position", "par", "due", "logged", "over_min",
    "gap_min", "ahead", "status", "at", "kind", "first_to_play", "seconds", "allowed_s",
    "bad_time", "timed_by", "fault", "source", "counted", "reason", "rank", "penalty",
    "amount", "bearer", "effect", "notified_at", "notified_by",
)  # fmt: skip


def _s(d: Any) -> float | None:
    return None if d is None else round(d.total_seconds(), 1)


def rows(meta: ReportMeta, r: rp.RoundReport, lang: str) -> Iterator[dict[str, Any]]:
    """Yield the report's rows as mappings of ``COLUMNS`` (missing cells are empty)."""
    tz = meta.tz
    for g in r.groups:
        for h in g.holes:
            yield {
                "record": "hole", "group": g.id, "hole": h.hole, "position": h.position,
                "par": h.par, "due": instant(h.due, tz), "logged": instant(h.logged, tz),
                "over_min": minutes(h.over), "gap_min": minutes(h.gap),
                "ahead": h.ahead, "status": h.status.value if h.status else None,
                # issue 39: a hole the group reported itself says so (an official's: empty)
                "source": "group" if h.logged is not None and h.source == "group" else None,
            }  # fmt: skip
        for p in g.players:
            for s in p.strokes:
                v = s.verdict
                yield {
                    "record": "stroke", "group": g.id, "player": p.name, "hole": v.stroke.hole,
                    "at": instant(v.stroke.stopped, tz), "kind": v.stroke.kind.value,
                    "first_to_play": v.stroke.first_to_play, "seconds": _s(v.stroke.duration),
                    "allowed_s": _s(v.allowed), "bad_time": v.is_bad_time, "timed_by": s.by,
                }  # fmt: skip
            for f in p.faults:
                o = f.outcome
                pen = o.penalty
                yield {
                    "record": "fault", "group": g.id, "player": p.name, "hole": o.fault.hole,
                    "at": instant(o.fault.at, tz), "fault": o.fault.id, "source": o.fault.source,
                    "seconds": _s(f.stroke.stroke.duration) if f.stroke else None,
                    "allowed_s": _s(f.stroke.allowed) if f.stroke else None,
                    "counted": o.counted, "reason": o.reason.value, "rank": o.rank,
                    "penalty": pen.kind if pen else None, "amount": pen.amount if pen else None,
                    "bearer": pen.bearer if pen else None,
                    "effect": effect(pen, lang) if o.counted else None,
                    "notified_at": instant(f.notified.at, tz) if f.notified else None,
                    "notified_by": f.notified.by if f.notified else None,
                }  # fmt: skip


def _cell(value: Any, excel: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        out = repr(value)
        return out.replace(".", ",") if excel else out
    return str(value)


def to_csv(meta: ReportMeta, r: rp.RoundReport, lang: str, *, excel: bool = False) -> str:
    """Return the report's rows as CSV text (``excel``: ``;``, decimal commas and a BOM)."""
    out = io.StringIO()
    writer = spreadsheet.writer(out, delimiter=";" if excel else ",", lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows(meta, r, lang):
        writer.writerow([_cell(row.get(c), excel) for c in COLUMNS])
    return ("\ufeff" if excel else "") + out.getvalue()

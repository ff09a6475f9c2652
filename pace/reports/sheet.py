"""The referees' timing sheet (Raguzzi chart): by when each group must complete each hole."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, tzinfo
from html import escape

from pace.rules.model import RoundSetup
from pace.rules.position import plan_field


@dataclass(frozen=True)
class SheetRow:
    """One group's line: its start, starting tee and the due instant of each hole."""

    group: str
    tee: int
    start: datetime
    players: tuple[str, ...]
    lead: bool
    due: dict[int, datetime]  # hole number -> instant by which it must be completed


@dataclass(frozen=True)
class TimingSheet:
    """The whole sheet: the course's hole numbers and one row per group in draw order."""

    course: str
    holes: tuple[int, ...]
    pars: tuple[int, ...]
    rows: tuple[SheetRow, ...]


def timing_sheet(setup: RoundSetup) -> TimingSheet:
    """Return, for every group, the instant by which it must complete each hole.

    The due instant of a hole is the scheduled start plus the cumulative allotment up to
    and including that hole in the group's own playing order (RULES.md §1, §9).
    """
    plan = plan_field(setup)
    rows = []
    for p in plan.groups:
        g = p.group
        due = {hole: g.start + p.cumulative[i + 1] for i, hole in enumerate(p.order)}
        rows.append(SheetRow(g.id, g.tee, g.start, tuple(x.name for x in g.players), p.lead, due))
    course = setup.course
    return TimingSheet(
        course.name, course.hole_numbers, tuple(h.par for h in course.holes), tuple(rows)
    )


def _hm(instant: datetime, tz: tzinfo) -> str:
    return instant.astimezone(tz).strftime("%H:%M")


def to_csv(sheet: TimingSheet, tz: tzinfo) -> str:
    """Return the sheet as CSV: group, tee, start, players, then one column per hole."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["group", "tee", "start", "players", *(f"hole_{h}" for h in sheet.holes)])
    for r in sheet.rows:
        w.writerow(
            [
                r.group,
                r.tee,
                _hm(r.start, tz),
                " / ".join(r.players),
                *(_hm(r.due[h], tz) for h in sheet.holes),
            ]
        )
    return out.getvalue()


_CSS = """
@page { size: A4 landscape; margin: 10mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 9pt; }
h1 { font-size: 13pt; margin: 0 0 4mm; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #444; padding: 1mm 1.2mm; text-align: center; white-space: nowrap; }
td.players { text-align: left; white-space: normal; font-size: 8pt; }
td.tee, th.tee { background: #eee; font-weight: bold; }
td.start-hole { background: #ffe9a8; font-weight: bold; }
tr { page-break-inside: avoid; }
thead { display: table-header-group; }
.par { font-weight: normal; font-size: 7pt; }
"""


def to_html(sheet: TimingSheet, tz: tzinfo) -> str:
    """Return the sheet as a printable HTML page (A4 landscape, one line per group)."""
    head = "".join(
        f"<th>{h}<br><span class='par'>par {p}</span></th>"
        for h, p in zip(sheet.holes, sheet.pars, strict=True)
    )
    body = []
    for r in sheet.rows:
        cells = "".join(
            f"<td class='start-hole'>{_hm(r.due[h], tz)}</td>"
            if h == r.tee
            else f"<td>{_hm(r.due[h], tz)}</td>"
            for h in sheet.holes
        )
        body.append(
            f"<tr><td>{escape(r.group)}</td><td class='tee'>{r.tee}</td>"
            f"<td>{_hm(r.start, tz)}</td>"
            f"<td class='players'>{escape(', '.join(r.players))}</td>{cells}</tr>"
        )
    title = f"Timing sheet / Feuille de temps — {escape(sheet.course)}"
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>{_CSS}</style></head><body>"
        f"<h1>{title}</h1>"
        "<p>Clock time by which each group must have completed each hole"
        " (heure limite de fin de chaque trou). Highlighted: starting tee.</p>"
        "<table><thead><tr><th>group</th><th class='tee'>tee</th><th>start</th>"
        f"<th>players</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        "</body></html>\n"
    )

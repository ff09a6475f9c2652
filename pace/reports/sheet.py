"""The referees' timing sheet (Raguzzi chart): by when each group must complete each hole."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime, tzinfo
from html import escape

from pace.formats import spreadsheet
from pace.reports.words import text
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
    #: each player's tee set (None: the course has no tee sets), as ``players``
    tees: tuple[str | None, ...] = ()

    def named(self) -> tuple[str, ...]:
        """Return the players as the sheet names them: with their tees where they have some
        (issue 38: a marshal sees who plays from the red)."""
        tees = self.tees or (None,) * len(self.players)
        return tuple(
            f"{name} ({t})" if t else name for name, t in zip(self.players, tees, strict=True)
        )


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
    and including that hole in the group's own playing order (docs/rules.md §1, §9).
    """
    plan = plan_field(setup)
    rows = []
    for p in plan.groups:
        g = p.group
        due = {hole: g.start + p.cumulative[i + 1] for i, hole in enumerate(p.order)}
        rows.append(
            SheetRow(g.id, g.tee, g.start, tuple(x.name for x in g.players), p.lead, due,
                     tuple(x.tees for x in g.players))
        )  # fmt: skip
    course = setup.course
    return TimingSheet(
        course.name, course.hole_numbers, tuple(h.par for h in course.holes), tuple(rows)
    )


def _hm(instant: datetime, tz: tzinfo) -> str:
    return instant.astimezone(tz).strftime("%H:%M")


def to_csv(sheet: TimingSheet, tz: tzinfo) -> str:
    """Return the sheet as CSV: group, tee, start, players, then one column per hole."""
    out = io.StringIO()
    w = spreadsheet.writer(out, lineterminator="\n")
    w.writerow(["group", "tee", "start", "players", *(f"hole_{h}" for h in sheet.holes)])
    for r in sheet.rows:
        w.writerow(
            [
                r.group,
                r.tee,
                _hm(r.start, tz),
                " / ".join(r.named()),
                *(_hm(r.due[h], tz) for h in sheet.holes),
            ]
        )
    return out.getvalue()


#: a player's name longer than this is printed as initials and surname (issue 14)
NAME_LIMIT = 22

_CSS = """
@page { size: A4 landscape; margin: 7mm 8mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 7.5pt; line-height: 1.12; }
h1 { font-size: 11pt; margin: 0 0 1.5mm; }
p.lead { margin: 0 0 2mm; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border: 0.6pt solid #444; padding: 0.35mm 0.7mm; text-align: center;
         white-space: nowrap; vertical-align: middle; }
th.group, td.group { width: 9mm; }
th.tee, td.tee { width: 7mm; background: #eee; font-weight: bold; }
th.start, td.start { width: 10mm; }
th.players, td.players { width: 48mm; text-align: left; }
td.players div { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
td.players .tees { color: #555; font-size: 85%; }
td.start-hole { background: #ffe9a8; font-weight: bold; }
tr { page-break-inside: avoid; break-inside: avoid; }
thead { display: table-header-group; }
.par { font-weight: normal; font-size: 6pt; }
"""


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """Return a player's name as it fits one line of the sheet: initials and surname if long.

    >>> short_name("Anne Lavoie"), short_name("Marie-Hélène Vaillancourt")
    ('Anne Lavoie', 'M.-H. Vaillancourt')
    >>> short_name("Jean Pierre de la Fontaine-Beauchemin")
    'J. P. de la Fontaine-Beauchemin'
    """
    if len(name) <= limit:
        return name
    words = name.split()
    particles = {"de", "du", "des", "la", "le", "van", "von", "der", "di", "da", "st", "ste"}
    last = len(words) - 1
    while last > 1 and words[last - 1].casefold() in particles:
        last -= 1
    first, surname = words[:last], words[last:]
    initials = ["-".join(f"{part[0]}." for part in word.split("-") if part) for word in first]
    return " ".join(initials + surname) if first else name


def to_html(sheet: TimingSheet, tz: tzinfo, lang: str = "en") -> str:
    """Return the sheet as a printable HTML page (A4 landscape, one line per player), in
    ``lang``.

    Each group is one row of the table; its players are one line each (initials and surname
    when a name is long, the whole name in the cell's title), so 40 four-balls print on three
    pages (issue 14).
    """
    head = "".join(
        f"<th>{h}<br><span class='par'>{escape(text('sheet.par', lang, par=p))}</span></th>"
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
        tees = r.tees or (None,) * len(r.players)
        players = "".join(
            f"<div title='{escape(name)}'>{escape(short_name(name))}"
            + (f" <span class='tees'>{escape(t)}</span>" if t else "")
            + "</div>"
            for name, t in zip(r.players, tees, strict=True)
        )
        body.append(
            f"<tr><td class='group'>{escape(r.group)}</td><td class='tee'>{r.tee}</td>"
            f"<td class='start'>{_hm(r.start, tz)}</td>"
            f"<td class='players'>{players}</td>{cells}</tr>"
        )
    title = escape(text("sheet.title", lang, course=sheet.course))
    col = {k: escape(text(f"sheet.{k}", lang)) for k in ("group", "tee", "start", "players")}
    return (
        f"<!doctype html><html lang='{escape(lang)}'><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>{_CSS}</style></head><body>"
        f"<h1>{title}</h1>"
        f"<p class='lead'>{escape(text('sheet.lead', lang))}</p>"
        f"<table><thead><tr><th class='group'>{col['group']}</th>"
        f"<th class='tee'>{col['tee']}</th><th class='start'>{col['start']}</th>"
        f"<th class='players'>{col['players']}</th>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></body></html>\n"
    )

"""The report and the letters as HTML (the page, and the source of the PDF).

One Jinja environment over ``templates/reports/`` serves the web page and the command line,
so both print the same. Every value is escaped by Jinja; the charts are SVG made by
``charts`` from the same data (their texts escaped by the XML serialiser).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from pace.reports import charts, letters
from pace.reports.document import ReportMeta
from pace.reports.words import (
    TEXTS,
    clock,
    duration,
    effect,
    seconds,
    signed_minutes,
    text,
    text_n,
)
from pace.rules import report as rp
from pace.rules.model import Status

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
CSS = ROOT / "static" / "report.css"

#: Called as work goes on: (steps done, steps in all, what is being done).
Progress = Callable[[int, int, str], None]


def _no_progress(done: int, total: int, what: str) -> None:
    return None


_env: Environment | None = None


def environment() -> Environment:
    """Return the Jinja environment of the reports (made once)."""
    global _env
    if _env is None:
        _env = Environment(
            loader=FileSystemLoader(str(TEMPLATES)),
            autoescape=select_autoescape(["html"]),
            trim_blocks=True,
            lstrip_blocks=True,
        )
    return _env


def css() -> str:
    """Return the report's style sheet (screen and print)."""
    return CSS.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Charts:
    """The report's SVG charts: the field's, the bands', the holes' and one per group."""

    field: str
    bands: str
    holes: str
    groups: Mapping[str, str]


def draw_charts(
    r: rp.RoundReport,
    meta: ReportMeta,
    lang: str,
    progress: Progress,
    *,
    only_concerned: bool = False,
) -> Charts:
    """Draw every chart of the report, telling ``progress`` after each group's.

    Each chart is an ``<img>`` of its SVG: the page's Content-Security-Policy allows no inline
    style, which an inline SVG's needs (an image's are its own), and WeasyPrint lays an image
    out three times faster than an inline SVG. With ``only_concerned`` the groups with nothing
    to report get no chart of their own.
    """
    total = len(r.groups) + 2
    put = charts.as_image
    field = put(charts.field_chart(r, meta.tz, lang), "field")
    bands = put(charts.bands_chart(r, lang), "bands")
    holes = put(charts.holes_chart(r, lang), "holes")
    progress(1, total, "field")
    groups = {}
    for i, g in enumerate(r.groups, start=2):
        if not only_concerned or concerned(g, r):
            groups[g.id] = put(charts.group_chart(g, lang), "group")
        progress(i, total, g.id)
    return Charts(field, bands, holes, groups)


def concerned(g: rp.GroupReport, r: rp.RoundReport) -> bool:
    """Return whether a group has anything to report besides its times: an episode, a
    referee's act, a timed stroke or fault, or it held the field up."""
    return bool(
        g.episodes
        or g.acts.decisions
        or g.acts.credits
        or any(p.strokes or p.faults for p in g.players)
        or any(u.group == g.id for u in r.field.held_up)
    )


def helpers(meta: ReportMeta, lang: str) -> dict[str, Any]:
    """Return the formatting functions the report templates use."""
    tz = meta.tz

    def mins(d: timedelta | None, signed: bool = True) -> str:
        if d is None:
            return ""
        return signed_minutes(d) if signed else str(round(d.total_seconds() / 60))

    def mins1(d: timedelta | None, signed: bool = True) -> str:
        if d is None:
            return ""
        v = d.total_seconds() / 60
        s = f"{v:+.1f}" if signed else f"{v:.1f}"
        s = s.replace("-", "−")
        return s.replace(".", ",") if lang == "fr" else s

    def over_class(d: timedelta | None) -> str:
        if d is None:
            return ""
        return "t-late" if d > timedelta(0) else "t-ok"

    def status_class(s: Status | None) -> str:
        return (
            {
                Status.OUT_OF_POSITION: "s-oop",
                Status.BEHIND: "s-behind",
                Status.ON_PACE: "s-ok",
            }.get(s, "")
            if s
            else ""
        )

    def grid_lines(g: rp.GroupReport) -> list[str]:
        # the PDF's hole grid: aligned text, as cheap to lay out as a paragraph (a table of
        # 52 x 6 x 19 cells takes WeasyPrint ten seconds)
        marks = {Status.OUT_OF_POSITION: "!", Status.BEHIND: "~"}
        rows = [
            ("hole", [str(h.hole) for h in g.holes]),
            ("par", [str(h.par) for h in g.holes]),
            ("due", [clock(h.due, tz) for h in g.holes]),
            ("logged", [clock(h.logged, tz) for h in g.holes]),
            ("over", [mins(h.over) + marks.get(h.status, "") if h.status else mins(h.over)
                      for h in g.holes]),
            ("gap", [mins(h.gap, signed=False) for h in g.holes]),
        ]  # fmt: skip
        width = max(len(text(k, lang)) for k, _ in rows) + 1
        return [
            text(k, lang).ljust(width) + "".join(c.rjust(6) for c in cells) for k, cells in rows
        ]

    def times_lines(r: rp.RoundReport) -> list[str]:
        # the PDF's round-times table, as aligned text (see grid_lines)
        head = ["group", "start", "finish", "round_time", "allotted", "stopped", "credited",
                "over", "status"]  # fmt: skip
        rows = [[text(k, lang) for k in head]]
        for g in r.groups:
            rows.append([
                g.id, clock(g.plan.group.start, tz), clock(g.finish, tz), duration(g.round_time),
                duration(g.allotted), duration(g.stopped) if g.stopped else "",
                duration(g.credited) if g.credited else "", mins(g.over),
                text(f"status.{g.status.status.value}", lang),
            ])  # fmt: skip
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        return ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
                for row in rows]  # fmt: skip

    def held_behind(u: rp.HoldUp) -> str:
        return ", ".join(f"{g} {signed_minutes(o)}" for g, o in u.worst.behind)

    return {
        "lang": lang,
        "t": lambda key: text(key, lang),
        "tx": lambda key, **kw: text(key, lang, **kw),
        "txn": lambda key, n, **kw: text_n(key, n, lang, **kw),
        "hm": lambda t: clock(t, tz),
        "hms": lambda t: clock(t, tz, seconds=True),
        "dur": duration,
        "mins": mins,
        "mins1": mins1,
        "secs": lambda d: seconds(d, lang),
        "effect": lambda p: effect(p, lang),
        "over_class": over_class,
        "status_class": status_class,
        "band_label": charts.band_label,
        "held_behind": held_behind,
        "grid_lines": grid_lines,
        "times_lines": times_lines,
        "hole_at": letters.hole_at,
        "fault_words": lambda f: letters.fault_words(f, meta, lang),
    }


def report_html(
    meta: ReportMeta,
    r: rp.RoundReport,
    lang: str,
    *,
    links: Mapping[str, str] | None = None,
    css_href: str | None = None,
    screen_css_href: str | None = None,
    script_src: str | None = None,
    messages: Mapping[str, str] | None = None,
    progress: Progress = _no_progress,
    for_pdf: bool = False,
    all_charts: bool = False,
) -> str:
    """Return the report as one HTML page (its style inlined unless ``css_href`` is given).

    ``links`` (the page's export links) and ``script_src`` (the page's script) are for the
    web page; the printed and PDF versions have neither. ``for_pdf`` lays the holes out as
    aligned text (what WeasyPrint lays out fastest), and only the groups with something to
    report get their own chart, unless ``all_charts`` (WeasyPrint takes about 90 ms a chart:
    52 of them are five seconds).
    """
    only = for_pdf and not all_charts
    drawn = draw_charts(r, meta, lang, progress, only_concerned=only)
    template = environment().get_template("reports/report.html")
    return template.render(
        meta=meta,
        report=r,
        charts=drawn,
        links=links,
        css_href=css_href,
        screen_css_href=screen_css_href,
        css="" if css_href else css(),
        script_src=script_src,
        messages=dict(messages or {}),
        for_pdf=for_pdf,
        **helpers(meta, lang),
    )


def letters_html(
    meta: ReportMeta,
    r: rp.RoundReport,
    lang: str,
    per: str = letters.PER_PLAYER,
    *,
    css_href: str | None = None,
    progress: Progress = _no_progress,
) -> str:
    """Return the round's facts-only letters as one HTML document, one letter per page."""
    made = letters.letters(meta, r, lang, per)
    progress(1, 1, "letters")
    template = environment().get_template("reports/letters.html")
    return template.render(
        meta=meta,
        letters=made,
        css_href=css_href,
        css="" if css_href else css(),
        **helpers(meta, lang),
    )


def words_for_page(lang: str) -> dict[str, str]:
    """Return the report's words in ``lang``, for the page's script."""
    return {key: text(key, lang) for key in TEXTS}


def stamp(at: datetime, meta: ReportMeta) -> str:
    """Return the report's instant as the file names say it: ``20260614-1742``."""
    return at.astimezone(meta.tz).strftime("%Y%m%d-%H%M")

"""The report and the letters as HTML (the page, and the source of the PDF).

One Jinja environment over ``templates/reports/`` serves the web page and the command line,
so both print the same. Every value is escaped by Jinja; the charts are SVG made by
``charts`` from the same data (their texts escaped by the XML serialiser).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from pace import i18n
from pace.documents.report import ReportMeta
from pace.reports import charts, document, forked, letters, why, words
from pace.reports.strip_svg import strip_svg
from pace.reports.words import (
    TEXTS,
    author,
    clock,
    duration,
    effect,
    results_final,
    seconds,
    signed_minutes,
    text,
    text_n,
)
from pace.rules import report as rp
from pace.rules import spells
from pace.rules.model import Status

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
CSS = ROOT / "static" / "report.css"

#: Called as work goes on: (steps done, steps in all, what is being done).
Progress = Callable[[int, int, str], None]


def no_progress(done: int, total: int, what: str) -> None:
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


def css(lang: str = "en") -> str:
    """Return the report's style sheet (screen and print), its page numbers in ``lang``
    ("pagina 2 / 6")."""
    sheet = CSS.read_text(encoding="utf-8")
    return sheet.replace('content: "page "', f'content: "{text("page", lang)} "', 1)


@dataclass(frozen=True)
class Charts:
    """The report's charts as ``<img>`` elements: the field's, the bands', the holes' and one
    per group (by group id)."""

    field: str
    bands: str
    holes: str
    groups: Mapping[str, str]
    #: the group charts are the PDF's bars, laid over each group's hole grid
    strips: bool = False


#: The three charts of the field: (name, drawing function of the report, tz and language).
FIELD_CHARTS: tuple[tuple[str, Callable[[rp.RoundReport, Any, str], str]], ...] = (
    ("field", lambda r, tz, lang: charts.field_chart(r, tz, lang)),
    ("bands", lambda r, tz, lang: charts.bands_chart(r, lang)),
    ("holes", lambda r, tz, lang: charts.holes_chart(r, lang)),
)


#: Charts of at least this many groups are drawn in two processes (``forked``).
PARALLEL_MIN = 16


def lazy_image(src: str, css_class: str = "group") -> str:
    """Return an ``<img>`` of a chart the browser fetches from ``src`` when it nears the
    screen (the web page's group charts: the page itself comes at once)."""
    return (
        f'<img class="{css_class}" alt="" loading="lazy" decoding="async" width="700" '
        f'height="170" src="{escape(src)}">'
    )


def draw_charts(
    r: rp.RoundReport,
    meta: ReportMeta,
    lang: str,
    progress: Progress,
    *,
    for_pdf: bool = False,
    full_charts: bool = False,
    chart_src: Callable[[str], str] | None = None,
    field: Mapping[str, str] | None = None,
) -> Charts:
    """Draw every chart of the report, telling ``progress`` after each group's.

    Each chart is an ``<img>`` of its SVG: the page's Content-Security-Policy allows no inline
    style, which an inline SVG's needs (an image's are its own), and WeasyPrint lays an image
    out three times faster than an inline SVG. The PDF's group charts are the bars alone, laid
    over the group's hole grid (``charts.strip_chart``), unless ``full_charts``. With
    ``chart_src`` (the web page) the group charts are images fetched from that address, drawn
    when the browser asks for them. ``field`` gives the field's charts already drawn (SVG, by
    name), as the report service keeps them.
    """
    total = len(r.groups) + 2
    put = charts.as_image
    strips = for_pdf and not full_charts
    n = len(r.groups)

    def field_charts() -> dict[str, str]:
        return dict(field) if field is not None else {
            name: draw(r, meta.tz, lang) for name, draw in FIELD_CHARTS
        }  # fmt: skip

    def group_charts(first: int, last: int, tell: bool = True) -> dict[str, str]:
        out = {}
        for i in range(first, last):
            g = r.groups[i]
            if chart_src is not None:
                if any(h.over is not None for h in g.holes):
                    out[g.id] = lazy_image(chart_src(g.id))
            elif strips:
                out[g.id] = put(charts.strip_chart(g, lang), "strip")
            else:
                out[g.id] = put(charts.group_chart(g, lang), "group")
            if tell:
                progress(i + 2, total, g.id)
        return out

    if chart_src is None and n >= PARALLEL_MIN and forked.can_fork():
        # the field's charts and the first groups' here, the others' in a child meanwhile
        k = max(0, round(n * 0.5) - 4)
        (drawn, groups), theirs = forked.in_parallel(
            lambda: (field_charts(), group_charts(0, k)), lambda: group_charts(k, n, False)
        )
        groups.update(theirs)
        progress(total, total, "charts")
    else:
        drawn = field_charts()
        progress(1, total, "field")
        groups = group_charts(0, n)
    return Charts(
        put(drawn["field"], "field"), put(drawn["bands"], "bands"), put(drawn["holes"], "holes"),
        groups, strips,
    )  # fmt: skip


#: The rows of a group's hole grid in the PDF, and the characters of each hole's column.
GRID_ROWS = ("hole", "par", "due", "logged", "over", "gap")
GRID_CELL = 6


def _aligned(rows: list[list[str]], left: int | None = None) -> list[str]:
    """Return a table as lines of aligned text: the first ``left`` columns (all when None)
    left-aligned, the others (figures) right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    cut = len(widths) if left is None else left
    return [
        "  ".join(
            c.ljust(w) if i < cut else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


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
        return i18n.decimal(s, lang)

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
        width = grid_label_width()
        return [
            text(k, lang).ljust(width) + "".join(c.rjust(GRID_CELL) for c in cells)
            for k, cells in rows
        ]

    def grid_label_width() -> int:
        return max(len(text(k, lang)) for k in GRID_ROWS) + 1

    def grid_strip(g: rp.GroupReport, chart: str) -> Markup:
        # the group's bars, as the grid's first line: after the labels' column, each bar
        # above its hole's column (``GRID_CELL`` characters a hole)
        if not chart:
            return Markup("")
        width = GRID_CELL * len(g.holes)
        image = Markup(chart.replace("<img ", f'<img style="width: {width}ch" ', 1))
        return Markup(" " * grid_label_width()) + image + Markup("\n")

    def stats_lines(r: rp.RoundReport) -> list[str]:
        # the PDF's hole-by-hole table, as aligned text (see grid_lines)
        head = ["hole", "par", "groups", "avg_over", "avg_hole_over", "avg_gap", "gap_change"]
        rows = [[text(k, lang) for k in head]]
        for st in r.field.holes:
            rows.append([
                str(st.hole), str(st.par), str(st.groups), mins1(st.over),
                mins1(st.hole_over), mins1(st.gap, signed=False), mins1(st.gap_change),
            ])  # fmt: skip
        return _aligned(rows, left=1)

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
        return _aligned(rows)

    def held_behind(u: rp.HoldUp) -> str:
        return ", ".join(f"{g} {signed_minutes(o)}" for g, o in u.worst.behind)

    def estimate_of(r: rp.RoundReport, group: str, hole: int) -> Any:
        # a missed tap still estimated at the report's instant (docs/estimates.md)
        return r.missed.estimate(group, hole) if r.missed is not None else None

    def spell_end(s: rp.Spell) -> str:
        # when and how a timing spell ended, and the referee's stop with its reason in words
        if s.end is None:
            return text("not_stopped", lang)
        stop = s.stop
        reason = words.stop_reason(stop.reason, lang) if stop is not None else ""
        if s.ended_by == spells.STOPPED:
            by = author(s.stopped_by or (stop.by if stop is not None else "?"), lang)
            how = text("spell_end_reason", lang, by=by, reason=reason) if reason else by
            return f"{clock(s.end, tz)} ({how})"
        end = f"{clock(s.end, tz)} ({text('back_in_position', lang)})"
        if stop is None:
            return end
        key = "spell_stop_reason" if reason else "spell_stop"
        return end + text(key, lang, time=clock(stop.at, tz), by=author(stop.by, lang),
                          reason=reason)

    def estimate_title(e: Any) -> str:
        latest = clock(e.latest, tz) if e.counts else text("estimate.now", lang)
        return text("estimate.title", lang, time=clock(e.at, tz), earliest=clock(e.earliest, tz),
                    latest=latest, reason=text(f"estimate.{e.reason}", lang))  # fmt: skip

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
        "tenths": lambda value: i18n.tenths(float(value), lang),
        "day_text": lambda day: i18n.day_text(day, lang),
        # who recorded an act, a role in words when no name was given ("le comité")
        "who": lambda by: author(by, lang),
        "results_final": lambda act: results_final(act, lang),
        "secs": lambda d: seconds(d, lang),
        "effect": lambda p: effect(p, lang),
        "over_class": over_class,
        "status_class": status_class,
        "band_label": charts.band_label,
        "held_behind": held_behind,
        "estimate_of": estimate_of,
        "estimate_title": estimate_title,
        "sources_view": document.sources_view,
        "grid_lines": grid_lines,
        "grid_strip": grid_strip,
        "times_lines": times_lines,
        "stats_lines": stats_lines,
        "hole_at": letters.hole_at,
        "spell_end": spell_end,
        "fault_words": lambda f: letters.fault_words(f, meta, lang),
        "why": lambda x, seen=None: why.say(x, lang, tz, seen),
        "strip_svg": lambda doc: strip_svg(doc, lang),
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
    sun_src: str | None = None,
    messages: Mapping[str, str] | None = None,
    progress: Progress = no_progress,
    for_pdf: bool = False,
    full_charts: bool = False,
    chart_src: Callable[[str], str] | None = None,
    field_charts: Mapping[str, str] | None = None,
    drawn: Charts | None = None,
    groups: tuple[int, int] | None = None,
    with_summary: bool = True,
    language_links: Sequence[tuple[str, str, str]] = (),
    language_label: str = "",
) -> str:
    """Return the report as one HTML page (its style inlined unless ``css_href`` is given).

    ``links`` (the page's export links), ``script_src`` (the page's script), ``sun_src``
    (sun mode's script, with its toggle: docs/accessibility.md) and
    ``chart_src`` (where its group charts are fetched from) are for the web page, and so is
    its language menu (``language_links``: code, name, address; ``language_label`` its name);
    the HTML export and the PDF have none and carry every chart. ``for_pdf`` lays the holes and the
    tables of figures out as aligned text (what WeasyPrint lays out fastest) and each group's
    chart as bars over its hole grid, unless ``full_charts`` (WeasyPrint takes about 50 ms
    for a labelled chart, 5 for the bars: docs/reports.md, "Speed").

    A part of the report (the PDF lays parts out side by side, ``pdf.parts_to_pdf``) is the
    groups ``groups`` (start, stop), with or without the header and the field's summary,
    from charts already ``drawn``.
    """
    if drawn is None:
        drawn = draw_charts(
            r, meta, lang, progress, for_pdf=for_pdf, full_charts=full_charts,
            chart_src=chart_src, field=field_charts,
        )  # fmt: skip
    first, last = groups or (0, len(r.groups))
    template = environment().get_template("reports/report.html")
    return template.render(
        meta=meta,
        report=r,
        seen=why.Seen.of(r),
        charts=drawn,
        links=links,
        css_href=css_href,
        screen_css_href=screen_css_href,
        css="" if css_href else css(lang),
        script_src=script_src,
        sun_src=sun_src,
        messages=dict(messages or {}),
        for_pdf=for_pdf,
        first_group=first,
        last_group=last,
        with_summary=with_summary,
        language_links=language_links,
        language_label=language_label,
        **helpers(meta, lang),
    )


def letters_html(
    meta: ReportMeta,
    r: rp.RoundReport,
    lang: str,
    per: str = letters.PER_PLAYER,
    *,
    css_href: str | None = None,
    screen_css_href: str | None = None,
    progress: Progress = no_progress,
    language_links: Sequence[tuple[str, str, str]] = (),
    language_label: str = "",
) -> str:
    """Return the round's facts-only letters as one HTML document, one letter per page; the
    web page's has its screen style (``screen_css_href``) and its language menu
    (``language_links``, as the report's)."""
    made = letters.letters(meta, r, lang, per)
    progress(1, 1, "letters")
    template = environment().get_template("reports/letters.html")
    return template.render(
        meta=meta,
        letters=made,
        # episodes the rules found on the groups' own reports alone, which no letter names
        on_reports=any(g.episodes for g in r.groups),
        css_href=css_href,
        screen_css_href=screen_css_href,
        css="" if css_href else css(lang),
        language_links=language_links,
        language_label=language_label,
        **helpers(meta, lang),
    )


def words_for_page(lang: str) -> dict[str, str]:
    """Return the report's words in ``lang``, for the page's script."""
    return {key: text(key, lang) for key in TEXTS}


def stamp(at: datetime, meta: ReportMeta) -> str:
    """Return the report's instant as the file names say it: ``20260614-1742``."""
    return at.astimezone(meta.tz).strftime("%Y%m%d-%H%M")

"""The report's charts, drawn server-side as SVG with Pygal (no JavaScript, no CDN).

Pygal was chosen over Matplotlib (measured here, docs/reports.md): 1.9 MB installed against
174 MB, and about 5 ms a small chart against 70 ms, which a report of 52 groups needs to
stay within its second. The SVGs scale to their container (``viewBox``, no fixed size), so
they read on a phone and in print; they carry no script and no tooltip (Pygal's tooltips
are drawn by its JavaScript, which the report does not ship: drawing their data took half
of a small chart's time), their style sheet is the few rules they use
(``templates/reports/chart.css``), every text in them is escaped by the XML serialiser, and
pages show them as images.
"""

from __future__ import annotations

import base64
import math
import sys
from collections.abc import Sequence
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

import pygal
from pygal.etree import etree
from pygal.style import Style

from pace.reports.words import text
from pace.rules import report as rp
from pace.rules.model import Status

# Pygal appends a legacy import hook for its map plugins (``pygal.maps.*``, unused here) to
# ``sys.meta_path``; Python 3.11 warns (ImportWarning) at every import that reaches it.
sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, pygal.PluginImportFixer)]

#: The charts' style sheet, a Pygal template: the rules of Pygal's that the charts use.
CHART_CSS = Path(__file__).resolve().parents[2] / "templates" / "reports" / "chart.css"


class _NoTooltips:
    """A Pygal chart without the data of its JavaScript tooltips (``<desc>`` elements)."""

    def _tooltip_data(self, *args: Any, **kwargs: Any) -> None:
        return None


class Bar(_NoTooltips, pygal.Bar):  # type: ignore[misc]
    """Pygal's bar chart, without tooltips."""


class XY(_NoTooltips, pygal.XY):  # type: ignore[misc]
    """Pygal's XY chart, without tooltips."""


OUT_OF_POSITION = "#d62728"
BEHIND = "#ff9f1c"
ON_PACE = "#2ca02c"
SIREN = "#bdbdbd"
UNDER = "#4c9a2a"
OVER = "#c0392b"

#: Line colours of the groups, cycled: distinct in colour and in grey when printed.
PALETTE = (
    "#1f77b4", "#9467bd", "#8c564b", "#17becf", "#7f7f7f", "#bcbd22", "#e377c2", "#2b4c7e",
    "#3b8b5b", "#a0522d",
)  # fmt: skip

_STATUS_COLOURS = {
    Status.OUT_OF_POSITION: OUT_OF_POSITION,
    Status.BEHIND: BEHIND,
    Status.ON_PACE: ON_PACE,
}


def _style(colours: Sequence[str]) -> Style:
    return Style(
        background="white",
        plot_background="white",
        foreground="#222",
        foreground_strong="#000",
        foreground_subtle="#bbb",
        opacity="1",
        opacity_hover="1",
        colors=tuple(colours) or ("#1f77b4",),
        font_family="DejaVu Sans, Arial, sans-serif",
        label_font_size=11,
        major_label_font_size=11,
        title_font_size=13,
        value_font_size=9,
    )


_COMMON: dict[str, Any] = {
    "js": [],
    "disable_xml_declaration": True,
    "show_legend": False,
    "explicit_size": False,
    "print_values": False,
    "truncate_label": -1,
    "css": ["file://" + str(CHART_CSS)],
}


#: Pygal's parts for its JavaScript tooltips and hover titles, which an image never shows.
_DROPPED = frozenset({"script", "desc", "title"})


def svg(chart: Any, *, bare: bool = False) -> str:
    """Return the chart's SVG element as text, without Pygal's script and tooltip texts.

    ``bare`` drops its style sheet and background too, for a chart whose every colour is
    on its elements (``strip_chart``): WeasyPrint compiles each SVG's style sheet, which
    takes longer than drawing a few bars.
    """
    root = chart.render_tree()
    dropped = _DROPPED | {"defs"} if bare else _DROPPED
    for parent in list(root.iter()):
        for child in list(parent):
            if not isinstance(child.tag, str):  # Pygal's comments
                parent.remove(child)
            elif child.tag.rsplit("}", 1)[-1] in dropped or (
                bare and child.get("class") == "background"
            ):
                parent.remove(child)
    out: str = etree.tostring(root, encoding="unicode")
    return out


def _minutes(t: datetime, origin: datetime) -> float:
    return (t - origin).total_seconds() / 60


def _clock_labels(first: datetime, last: datetime, tz: tzinfo) -> tuple[datetime, list[float]]:
    local = first.astimezone(tz)
    origin = local.replace(minute=(local.minute // 30) * 30, second=0, microsecond=0)
    span = max(_minutes(last, origin), 30.0)
    step = 30 if span <= 360 else 60
    return origin, [float(m) for m in range(0, int(span) + step, step)]


def field_chart(r: rp.RoundReport, tz: tzinfo, lang: str) -> str:
    """Return the time–hole diagram of the field: one line per group, its allotted pace
    beside it (dotted), out-of-position stretches in red and stops of play shaded."""
    if not r.groups:
        return ""
    starts = [g.plan.group.start for g in r.groups]
    ends = [x for g in r.groups for x in (g.holes[-1].logged, g.holes[-1].due) if x]
    ends += [s.end or r.at for s in r.field.stoppages]
    origin, ticks = _clock_labels(min(starts), max(ends + starts), tz)
    n = max(len(g.holes) for g in r.groups)
    colours: list[str] = []
    chart = XY(
        show_dots=False,
        stroke_style={"width": 1.4},
        x_labels=ticks,
        x_value_formatter=lambda m: (origin + timedelta(minutes=m)).strftime("%H:%M"),
        y_labels=list(range(0, n + 1, 3 if n > 9 else 1)),
        range=(0, n),
        xrange=(ticks[0], ticks[-1]),
        x_title=text("when", lang),
        y_title=text("holes", lang),
        width=1000,
        height=560,
        **_COMMON,
    )
    for s in r.field.stoppages:
        x0, x1 = _minutes(s.start, origin), _minutes(s.end or r.at, origin)
        chart.add(
            "siren", [(x0, 0), (x0, n), (x1, n), (x1, 0)], fill=True, stroke_style={"width": 0.5}
        )
        colours.append(SIREN)
    for i, g in enumerate(r.groups):
        colour = PALETTE[i % len(PALETTE)]
        start = _minutes(g.plan.group.start, origin)
        due = [(start, 0)] + [
            (_minutes(h.due, origin), h.position) for h in g.holes if h.due is not None
        ]
        chart.add(f"{g.id} ·", due, stroke_style={"width": 0.8, "dasharray": "2,3"})
        logged = [(start, 0)] + [
            (_minutes(h.logged, origin), h.position) for h in g.holes if h.logged is not None
        ]
        chart.add(g.id, logged)
        colours += [colour, colour]
        for e in g.episodes:
            stretch = [
                (_minutes(h.logged, origin), h.position)
                for h in g.holes
                if h.hole in e.holes and h.logged is not None
            ]
            if len(stretch) == 1:
                x, y = stretch[0]
                stretch = [(x - 2, y - 0.15), (x, y)]
            chart.add(f"{g.id} !", stretch, stroke_style={"width": 4})
            colours.append(OUT_OF_POSITION)
    chart.style = _style(colours)
    return svg(chart)


def bands_chart(r: rp.RoundReport, lang: str) -> str:
    """Return the finishing times over the allotment as bars, one per 10-minute band."""
    bands = r.field.bands
    if not bands:
        return ""
    labels = [band_label(b) for b in bands]
    chart = Bar(
        style=_style(["#1f77b4"]),
        x_labels=labels,
        x_title=text("band", lang),
        y_title=text("groups", lang),
        width=600,
        height=300,
        **_COMMON,
    )
    values = [
        {"value": len(b.groups), "color": ON_PACE if b.high <= timedelta(0) else OVER}
        for b in bands
    ]
    chart.add(text("groups", lang), values)
    return svg(chart)


def band_label(b: rp.Band) -> str:
    """Return a band's label: ``+0 to +10``-style minutes, as the axis shows them."""

    def m(d: timedelta) -> str:
        n = round(d.total_seconds() / 60)
        return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}")

    return f"{m(b.low)}…{m(b.high)}"


def holes_chart(r: rp.RoundReport, lang: str) -> str:
    """Return each hole's average minutes over its own allotment as bars (+ red, − green)."""
    stats = r.field.holes
    if not any(s.hole_over is not None for s in stats):
        return ""
    chart = Bar(
        style=_style(["#1f77b4"]),
        x_labels=[str(s.hole) for s in stats],
        x_title=text("hole", lang),
        y_title="min",
        width=800,
        height=300,
        **_COMMON,
    )
    values: list[Any] = []
    for s in stats:
        if s.hole_over is None:
            values.append(None)
            continue
        v = round(s.hole_over.total_seconds() / 60, 1)
        values.append({"value": v, "color": OVER if v > 0 else UNDER})
    chart.add(text("avg_hole_over", lang), values)
    return svg(chart)


def _over_bars(g: rp.GroupReport) -> tuple[list[Any], int]:
    """Return a group's bars (minutes over at each hole, coloured by its status there) and
    the half-height of its scale (5-minute steps); no bar at all: ``[]``."""
    values: list[Any] = []
    for h in g.holes:
        if h.over is None:
            values.append(None)
            continue
        v = round(h.over.total_seconds() / 60, 1)
        colour = _STATUS_COLOURS.get(h.status, ON_PACE) if h.status else ON_PACE
        values.append({"value": v, "color": colour})
    if all(v is None for v in values):
        return [], 0
    top = max(abs(v["value"]) for v in values if v is not None)
    return values, max(5, math.ceil(top / 5) * 5)


def group_chart(g: rp.GroupReport, lang: str) -> str:
    """Return a group's minutes over at each hole it logged, coloured by its status there."""
    values, limit = _over_bars(g)
    if not values:
        return ""
    chart = Bar(
        style=_style(["#1f77b4"]),
        x_labels=[str(h.hole) for h in g.holes],
        range=(-limit, limit),
        y_title="min",
        width=700,
        height=170,
        margin=4,
        **_COMMON,
    )
    chart.add(text("over", lang), values)
    return svg(chart)


def strip_chart(g: rp.GroupReport, lang: str) -> str:
    """Return a group's chart for print: the bars of ``group_chart`` alone, one per hole
    across the whole width, so that laid over the group's aligned-text hole grid each bar
    stands above its hole's column (the grid gives the holes and the minutes). It has no
    text and no style sheet: WeasyPrint draws it in a few milliseconds, where the labelled
    chart takes fifty (docs/reports.md, "Speed")."""
    values, limit = _over_bars(g)
    if not values:
        return ""
    chart = Bar(
        style=_style(["#1f77b4"]),
        range=(-limit, limit),
        width=20 * len(g.holes),
        height=24,
        margin=0,
        spacing=0,
        show_x_labels=False,
        show_y_labels=False,
        show_y_guides=False,
        **_COMMON,
    )
    chart.add(text("over", lang), values)
    return svg(chart, bare=True)


def as_image(svg_text: str, css_class: str = "") -> str:
    """Return an SVG as an ``<img>`` with a ``data:`` URI: its style stays its own (the page's
    CSP allows no inline style), and WeasyPrint lays it out three times faster than inline."""
    if not svg_text:
        return ""
    data = base64.b64encode(svg_text.encode("utf-8")).decode("ascii")
    return f'<img class="{css_class}" alt="" src="data:image/svg+xml;base64,{data}">'


def calibration_chart(
    holes: Sequence[int],
    series: Sequence[tuple[str, Sequence[float | None]]],
    x_title: str,
) -> str:
    """Return minutes per hole as grouped bars, one series each (issue 30: the observed median
    and 80th percentile against the allotment, docs/calibration.md), with their legend."""
    if not holes or not any(v is not None for _, values in series for v in values):
        return ""
    chart = Bar(
        style=_style(["#1f77b4", "#9ecae1", "#7f7f7f", "#2ca02c"][: len(series)]),
        x_labels=[str(h) for h in holes],
        x_title=x_title,
        y_title="min",
        width=800,
        height=320,
        **{**_COMMON, "show_legend": True, "legend_at_bottom": True},
    )
    for name, values in series:
        chart.add(name, list(values))
    return svg(chart)

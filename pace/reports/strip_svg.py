"""The report's course strip as a static SVG (issue 40): the field at one instant as the
dashboard's strip draws it, from the strip document (``pace.services.strip.strip_document``)
the report's JSON carries, so the picture and the JSON say the same.

Each group is a ``<g class="strip-group">`` with its group, hole and share of the hole's time in
``data-`` attributes and its place in words in a ``<title>``; its status is a colour and a
shape (never the colour alone).
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from pace import i18n
from pace.reports.words import text

WIDTH = 1000
MARGIN = 24
HOLES_H = 18
TRACK_H = 22
MARKER_W = 46
#: a status's fill, ink and shape (the dashboard's, static/strip.js)
STYLE: Mapping[str, tuple[str, str, str]] = {
    "not_started": ("#f4f5f7", "#555555", "◌"),
    "on_pace": ("#e3f4e8", "#166534", "●"),
    "behind": ("#fff3c4", "#5c4400", "▲"),
    "overdue": ("#ffe6cc", "#7a3300", "◆"),
    "out_of_position": ("#c62828", "#ffffff", "■"),
    "finished": ("#e6eef8", "#1f3f66", "✓"),
}


def _label(g: Mapping[str, Any], lang: str) -> str:
    parts = [text("strip.group", lang, group=g["group"]), text(f"status.{g['status']}", lang)]
    if g["finished"]:
        if g["status"] != "finished":
            parts.append(text("strip.finished", lang))
    elif g["status"] == "not_started":
        parts.append(text("strip.on_tee", lang, hole=g["hole"]))
    else:
        percent = round(g["fraction"] * 100)
        parts.append(text("strip.on_hole", lang, hole=g["hole"], percent=percent))
    if g["gap_min"] is not None:
        parts.append(text("strip.gap", lang, minutes=i18n.decimal(f"{g['gap_min']:.1f}", lang)))
    if g["holding"]:
        parts.append(text("strip.holding", lang, groups=", ".join(g["holding"])))
    if g["held_by"]:
        parts.append(text("strip.held_by", lang, group=g["held_by"]))
    return ", ".join(parts)


def strip_svg(doc: Mapping[str, Any], lang: str) -> str:
    """Return the strip document ``doc`` drawn as one SVG element (inline in the HTML/PDF)."""
    inner = WIDTH - 2 * MARGIN
    out: list[str] = []
    y = 0
    for lane in doc["lanes"]:
        holes = lane["holes"]
        n = max(1, len(holes))
        cell = inner / n
        tee = lane["tee"]
        members = [g for g in doc["groups"] if tee is None or g["tee"] == tee]

        def x_of(g: Mapping[str, Any], holes: list[int] = holes, n: int = n) -> float:
            if g["finished"]:
                return MARGIN + inner
            i = holes.index(g["hole"]) if g["hole"] in holes else g["index"]
            return MARGIN + (min(n, i + g["fraction"]) / n) * inner

        title = (text("strip.course_order", lang) if tee is None
                 else text("strip.from_tee", lang, tee=tee))  # fmt: skip
        out.append(
            f'<text x="{MARGIN}" y="{y + 14}" font-size="12" font-weight="bold">'
            f"{escape(title)}</text>"
        )
        y += 20
        for i, h in enumerate(holes):
            fill = "#f4f5f7" if i % 2 == 0 else "#ffffff"
            x = MARGIN + i * cell
            out.append(
                f'<rect x="{x:.1f}" y="{y}" width="{cell:.1f}" height="{HOLES_H}" fill="{fill}"'
                f' stroke="#d8dbe0"/><text x="{x + cell / 2:.1f}" y="{y + 13}"'
                f' text-anchor="middle" font-size="10">{h}</text>'
            )
        y += HOLES_H + 4
        # groups close together stack in tracks, the one furthest on at the top
        ends: list[float] = []
        tracks: dict[str, int] = {}
        for g in sorted(members, key=lambda g: -x_of(g)):
            x = x_of(g)
            t = next((k for k, end in enumerate(ends) if end - x >= MARKER_W), len(ends))
            if t == len(ends):
                ends.append(x)
            else:
                ends[t] = x
            tracks[g["group"]] = t
        for holder in (g for g in members if g["holding"]):
            xs = [x_of(g) for g in members if g["group"] in (holder["group"], *holder["holding"])]
            ly = y + max(1, len(ends)) * TRACK_H + 4
            words = text("strip.chain", lang, group=holder["group"],
                         groups=", ".join(holder["holding"]))  # fmt: skip
            out.append(
                f'<g class="strip-chain" data-group="{escape(holder["group"])}">'
                f'<line x1="{min(xs):.1f}" x2="{max(xs):.1f}" y1="{ly}" y2="{ly}"'
                f' stroke="#c62828" stroke-width="3"/><text x="{min(xs):.1f}" y="{ly + 12}"'
                f' font-size="10" fill="#c62828">{escape(words)}</text></g>'
            )
        for g in members:
            fill, ink, shape = STYLE.get(g["status"], ("#ffffff", "#1d1d1f", ""))
            x = x_of(g)
            gy = y + tracks[g["group"]] * TRACK_H
            label = _label(g, lang)
            hole = "" if g["hole"] is None else str(g["hole"])
            ring = ' stroke-width="3"' if g["holding"] else ' stroke-width="1.5"'
            out.append(
                f'<g class="strip-group" data-group="{escape(g["group"])}"'
                f' data-status="{g["status"]}" data-hole="{hole}"'
                f' data-fraction="{g["fraction"]:.3f}"'
                f' data-holes-completed="{g["holes_completed"]}">'
                f"<title>{escape(label)}</title>"
                f'<rect x="{x - MARKER_W / 2:.1f}" y="{gy}" width="{MARKER_W}"'
                f' height="{TRACK_H - 4}" rx="9" fill="{fill}" stroke="{ink}"{ring}/>'
                f'<text x="{x:.1f}" y="{gy + 13}" text-anchor="middle" fill="{ink}"'
                f">{shape} {escape(g['group'])}</text></g>"
            )
        y += max(1, len(ends)) * TRACK_H + 26
    reading = text(f"strip.reading.{doc['reading']}", lang)
    caption = text("strip.report_caption", lang, at=doc["at"], reading=reading)
    return (
        f'<figure class="course-strip"><svg xmlns="http://www.w3.org/2000/svg"'
        f' viewBox="0 0 {WIDTH} {y}" width="100%" role="img"'
        f' aria-label="{escape(caption)}" data-at="{escape(doc["at"])}"'
        f' data-reading="{escape(doc["reading"])}">'
        # presentation attributes, no <style>: the report page's CSP allows no inline style
        f'<g font-family="sans-serif" font-size="11" fill="#1d1d1f">{"".join(out)}</g></svg>'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )

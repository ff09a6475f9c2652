"""The printable results sheet for the notice board (issue 38, item 4): HTML and A4 PDF.

It is a rendering of the results document of docs/formats.md §8 (``results_document``), so
``pace results --format pdf``, the page ``/rounds/<round>/results`` and its PDF print the same
figures as ``pace results --json`` and the leaderboard. A field with classes is laid out class
by class (one A4 page each in the PDF), placed by class position; a field without, as one
table. Each entry shows its place (``T3`` for a shared one), its tees when the results carry
them (``tees`` and ``tee_colour`` of an entry: the column appears as soon as one entry has
them), its playing handicap in net play, its figures, and the countback that separated it
from those level with it ("last 9: 18"). NR and DQ close each table, with the reason.
The sheet says whether the results are final (when, by whom) or not yet. docs/reports.md,
"The results sheet".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from pace import i18n
from pace.reports.html import environment
from pace.reports.results import handicap_keys
from pace.reports.words import results_final, text, when
from pace.rules.scoring.sides import CLASS_NAMES

#: the CSS of the sheet (screen, phone and A4), in static/ beside the report's
CSS_FILE = "results-sheet.css"

_LAST = re.compile(r"last (\d+): (.+)")
_HOLE = re.compile(r"last hole: (.+)")
#: a tee colour drawn as a swatch: a CSS colour name or a hex colour, nothing else
_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}")


@dataclass(frozen=True)
class Tees:
    """A player's tee set as the sheet shows it: its name, and its colour when one is safe."""

    name: str
    colour: str | None


@dataclass(frozen=True)
class SheetRow:
    """One line of a table: place, entry, tees, handicap, figures, countback and a note."""

    place: str
    entry: str
    tees: tuple[Tees, ...]
    handicap: str
    figures: tuple[str, ...]
    countback: str
    note: str
    status: str


@dataclass(frozen=True)
class SheetTable:
    """One table of the sheet: a class (or the whole field, or the matches)."""

    title: str
    heads: tuple[str, ...]
    rows: tuple[SheetRow, ...]


@dataclass(frozen=True)
class ResultsSheet:
    """What the sheet prints: its header and its tables."""

    title: str
    lines: tuple[str, ...]
    stamp: str
    final: bool
    tables: tuple[SheetTable, ...]
    with_tees: bool
    with_handicap: bool
    matches: bool
    #: the footer's lines saying which readings of the handicap rules the figures follow
    handicap: tuple[str, ...] = ()


def countback_words(value: str | None, lang: str) -> str:
    """Return the countback that decided, in the sheet's language.

    >>> countback_words("last 9: 18", "en"), countback_words("last 6: 24.33", "fr")
    ('last 9: 18', '6 derniers : 24,33')
    >>> countback_words("last hole: 4", "fr"), countback_words("equal", "en")
    ('dernier trou : 4', 'still equal')
    """
    if not value:
        return ""

    def number(v: str) -> str:
        return i18n.decimal(v, lang)

    if m := _LAST.fullmatch(value):
        return text("results.countback_last", lang, holes=m.group(1), value=number(m.group(2)))
    if m := _HOLE.fullmatch(value):
        return text("results.countback_hole", lang, value=number(m.group(1)))
    if value == "equal":
        return text("results.countback_equal", lang)
    return value


def _tees(item: Mapping[str, Any]) -> tuple[Tees, ...]:
    """Return the tees an entry (or a side) played from: ``tees`` and ``tee_colour``, a name
    or a mapping of each player's (a four-ball side from different tees)."""
    names = item.get("tees")
    colours = item.get("tee_colour")
    if not names:
        return ()
    if isinstance(names, Mapping):
        pairs = [
            (str(v), colours.get(k) if isinstance(colours, Mapping) else colours)
            for k, v in names.items()
            if v
        ]
    else:
        pairs = [(str(names), colours)]
    out: list[Tees] = []
    for name, colour in pairs:
        safe = str(colour) if colour and _COLOUR.fullmatch(str(colour)) else None
        if Tees(name, safe) not in out:
            out.append(Tees(name, safe))
    return tuple(out)


def _handicap(e: Mapping[str, Any]) -> str:
    if e.get("playing_handicap") is not None:
        return str(e["playing_handicap"])
    values = (e.get("playing_handicaps") or {}).values()
    return " / ".join(str(v) for v in values)


def _place(position: int | None, shared: bool, lang: str) -> str:
    if position is None:
        return ""
    return text("results.tied", lang, position=position) if shared else str(position)


def _still_out(e: Mapping[str, Any], final: bool) -> bool:
    """Return whether a card without a score on every hole is still being played (results
    not final yet): it is shown as not started or through its holes, not as a no return."""
    return not final and e.get("status") == "nr" and (e.get("thru") or 0) < len(e["holes"])


def _figures(
    e: Mapping[str, Any], scoring: str, net: bool, lang: str, final: bool = True
) -> tuple[str, ...]:
    status = e.get("status")
    if _still_out(e, final):
        return tuple("" for _ in _heads(scoring, net, lang))
    if status in ("nr", "dq"):
        word = text(f"results.{status}", lang)
        width = len(_heads(scoring, net, lang))
        return (*([""] * (width - 1)), word)
    if scoring == "stroke":
        gross = "" if e.get("gross") is None else str(e["gross"])
        return (gross, str(e.get("net") if e.get("net") is not None else "")) if net else (gross,)
    if scoring == "stableford":
        points = (e.get("points") or 0) - (e.get("penalty_points") or 0)
        return (str(points),)
    return (str(e.get("result") or ""),)  # bogey, par: "2 up", as golfers say it in French too


def _heads(scoring: str, net: bool, lang: str) -> tuple[str, ...]:
    if scoring == "stroke":
        keys = ("results.col.gross", "results.col.net") if net else ("results.col.gross",)
    elif scoring == "stableford":
        keys = ("results.col.points",)
    else:
        keys = ("results.col.result",)
    return tuple(text(k, lang) for k in keys)


def _note(e: Mapping[str, Any], scoring: str, lang: str, final: bool = True) -> str:
    if _still_out(e, final):
        thru = e.get("thru") or 0
        return text("results.thru", lang, n=thru) if thru else text("results.not_started", lang)
    if e.get("status") == "dq" and e.get("reason"):
        return text("results.dq_reason", lang, reason=e["reason"])
    if e.get("status") == "nr":
        return text("results.nr_reason", lang)
    if scoring == "stableford" and e.get("penalty_points"):
        return text("results.points_off", lang, n=e["penalty_points"])
    if e.get("penalty_strokes"):
        return text("results.penalty_strokes", lang, n=e["penalty_strokes"])
    return ""


def _class_order(name: str | None) -> tuple[int, str]:
    """Return where a class's table goes: AA, A, BB, B (the rules' order), others after."""
    if name in CLASS_NAMES:
        return CLASS_NAMES.index(name), ""
    return len(CLASS_NAMES), name or "\uffff"


def _card_tables(doc: Mapping[str, Any], lang: str, final: bool) -> list[SheetTable]:
    entries: Sequence[Mapping[str, Any]] = doc["entries"]
    scoring, net = doc["scoring"], bool(doc["net"])
    heads = _heads(scoring, net, lang)
    by_class = any(e.get("class") for e in entries)
    groups: dict[str | None, list[Mapping[str, Any]]] = {}
    for e in entries:  # each class's entries in the document's order (by place, NR/DQ last)
        groups.setdefault(e.get("class") if by_class else None, []).append(e)
    tables = []
    for name, members in sorted(groups.items(), key=lambda item: _class_order(item[0])):
        key = "class_position" if by_class else "position"
        counts: dict[int, int] = {}
        for e in members:
            if e.get(key) is not None:
                counts[e[key]] = counts.get(e[key], 0) + 1
        figures = [_figures(e, scoring, net, lang, final) for e in members]
        # a class's table shows the countback of the entries level with another of the class
        # on the ranking figure (the last: net in net stroke play, points, the result): the
        # step that separated them (one alone on its figure needed none in its class)
        ranked = [
            f[-1] if e.get("status") == "ok" else None
            for e, f in zip(members, figures, strict=True)
        ]
        level = [not by_class or (r is not None and ranked.count(r) > 1) for r in ranked]
        rows = tuple(
            SheetRow(
                place=_place(e.get(key), counts.get(e.get(key), 0) > 1, lang),
                entry=str(e["entry"]),
                tees=_tees(e),
                handicap=_handicap(e) if net else "",
                figures=f,
                countback=countback_words(e.get("countback"), lang) if shown else "",
                note=_note(e, scoring, lang, final),
                status=str(e.get("status") or "ok"),
            )
            for e, f, shown in zip(members, figures, level, strict=True)
        )
        if not by_class:
            title = text("results.overall", lang)
        elif name is None:
            title = text("results.no_class", lang)
        else:
            title = text("results.class", lang, name=name)
        tables.append(SheetTable(title, heads, rows))
    return tables


def _match_table(doc: Mapping[str, Any], lang: str) -> SheetTable:
    rows = []
    for m in doc["entries"]:
        sides = m["sides"]
        winner = m.get("winner")
        result = m.get("result") or ""
        if m.get("status") == "dq":
            result = text("results.dq", lang)
        elif winner is None and m.get("finished"):
            result = text("results.halved", lang)
        rows.append(
            SheetRow(
                place=str(m["match"]),
                entry=text("results.vs", lang, a=sides[0]["entry"], b=sides[1]["entry"]),
                tees=tuple(t for s in sides for t in _tees(s)),
                handicap="",
                figures=(result, str(winner or "")),
                countback="",
                note=text("results.dq_reason", lang, reason=m["reason"]) if m.get("reason") else "",
                status=str(m.get("status") or "ok"),
            )  # fmt: skip
        )
    heads = (text("results.col.result", lang), text("results.col.winner", lang))
    return SheetTable(text("results.matches", lang), heads, tuple(rows))


def stamp_words(life: Mapping[str, Any] | None, lang: str) -> tuple[str, bool]:
    """Return what the sheet says of the results' life, and whether they are final."""
    if life is None:
        return text("results.from_files", lang), False
    act = life.get("finalised")
    if life.get("final") and act:
        return results_final(act, lang), True
    return text("results_open", lang), False


def build_sheet(
    doc: Mapping[str, Any],
    lang: str,
    *,
    round: str | None = None,
    course: str | None = None,
    day: date | None = None,
) -> ResultsSheet:
    """Return the sheet of a results document (docs/formats.md §8; ``life`` in it for a
    stored round), in ``lang``."""
    scoring, net = doc["scoring"], bool(doc["net"])
    matches = scoring == "match"
    stamp, final = stamp_words(doc.get("life"), lang)
    # a stored round's cards are still out until its results are final; the files' are all in
    complete = final or doc.get("life") is None
    tables = [_match_table(doc, lang)] if matches else _card_tables(doc, lang, complete)
    kind = text(
        "results.kind", lang,
        scoring=text(f"results.scoring.{scoring}", lang),
        net=text("results.net" if net else "results.gross", lang),
        format=text(f"results.format.{doc.get('format') or 'individual'}", lang),
    )  # fmt: skip
    lines = [kind]
    if course:
        lines.insert(0, text("results.course", lang, course=course))
    if day is not None:
        lines.append(i18n.day_text(day, lang))
    title = text("results.title_round", lang, round=round) if round else text("results.title", lang)
    return ResultsSheet(
        title=title,
        lines=tuple(lines),
        stamp=stamp,
        final=final,
        tables=tuple(tables),
        with_tees=any(r.tees for t in tables for r in t.rows),
        with_handicap=net and not matches,
        matches=matches,
        handicap=tuple(text(key, lang) for key in handicap_keys(doc)),
    )


def results_sheet_html(
    doc: Mapping[str, Any],
    lang: str,
    *,
    round: str | None = None,
    course: str | None = None,
    day: date | None = None,
    css_href: str | None = None,
    links: Mapping[str, str] | None = None,
    printed: datetime | None = None,
    sun: tuple[str, str] | None = None,
    language_links: Sequence[tuple[str, str, str]] = (),
    language_label: str = "",
) -> str:
    """Return the sheet as one HTML document: its style inlined unless ``css_href`` (the web
    page, which also has ``links``: its PDF, its CSV and the leaderboard; ``sun``, sun
    mode's script and its toggle's label: docs/accessibility.md; and its language menu,
    ``language_links``: code, name and address of each language)."""
    from pace.reports.html import ROOT

    sheet = build_sheet(doc, lang, round=round, course=course, day=day)
    css = "" if css_href else (ROOT / "static" / CSS_FILE).read_text(encoding="utf-8")
    return (
        environment()
        .get_template("reports/results.html")
        .render(
            sheet=sheet,
            lang=lang,
            css=css,
            css_href=css_href,
            links=dict(links or {}),
            printed=when(printed.isoformat(), lang) if printed else "",
            sun=sun,
            t=_words(lang),
            language_links=language_links,
            language_label=language_label,
        )
    )


def results_sheet_text(
    doc: Mapping[str, Any],
    lang: str,
    *,
    round: str | None = None,
    course: str | None = None,
    day: date | None = None,
) -> str:
    """Return the sheet as a terminal's text (``pace results --lang``, issue 47): the same
    header, tables and footer as the printed sheet, in ``lang``'s words, numbers and dates,
    each table's columns padded to their widest cell.

    >>> doc = {"scoring": "stableford", "net": True, "format": "individual", "entries": [
    ...     {"position": 1, "tied": False, "entry": "Jan Peeters", "playing_handicap": 11,
    ...      "points": 38, "status": "ok", "holes": [], "countback": "last 9: 18.5"}]}
    >>> sheet = results_sheet_text(doc, "nl", course="De Heide", day=date(2026, 6, 14))
    >>> print("\\n".join(sheet.splitlines()[:9]))
    Uitslagen
    Baan: De Heide
    Stableford netto, individueel
    14/06/2026
    Berekend uit de bestanden van het comité: niet de uitslagen van een bewaarde ronde.
    <BLANKLINE>
    Algemeen
    Pl.  Speler       Hcp  Punten  Countback        Opmerking
    1    Jan Peeters  11   38      laatste 9: 18,5
    """
    sheet = build_sheet(doc, lang, round=round, course=course, day=day)
    out = [sheet.title, *sheet.lines, sheet.stamp]
    for table in sheet.tables:
        heads = [
            text("results.col.match" if sheet.matches else "results.col.pos", lang),
            text("results.col.sides" if sheet.matches else "results.col.player", lang),
            *([text("results.col.tees", lang)] if sheet.with_tees else []),
            *([text("results.col.handicap", lang)] if sheet.with_handicap else []),
            *table.heads,
            *([] if sheet.matches else [text("results.col.countback", lang)]),
            text("results.col.note", lang),
        ]
        rows = [
            [
                row.place,
                row.entry,
                *([" / ".join(t.name for t in row.tees)] if sheet.with_tees else []),
                *([row.handicap] if sheet.with_handicap else []),
                *row.figures,
                *([] if sheet.matches else [row.countback]),
                row.note,
            ]
            for row in table.rows
        ]
        widths = [max(len(r[i]) for r in (heads, *rows)) for i in range(len(heads))]
        out += ["", table.title]
        out += [
            "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
            for r in (heads, *rows)
        ]
    if sheet.handicap:
        out += ["", *sheet.handicap]
    return "\n".join(out)


def _words(lang: str) -> Callable[..., str]:
    return lambda key, **kw: text(key, lang, **kw)


def results_sheet_pdf(
    doc: Mapping[str, Any],
    lang: str,
    *,
    round: str | None = None,
    course: str | None = None,
    day: date | None = None,
    printed: datetime | None = None,
) -> bytes:
    """Return the A4 PDF of the sheet (:func:`results_sheet_html` through WeasyPrint, the
    reports' path), a page per class."""
    from pace.reports.pdf import html_to_pdf

    return html_to_pdf(
        results_sheet_html(doc, lang, round=round, course=course, day=day, printed=printed)
    )


def sheet_request(
    doc: Mapping[str, Any],
    *,
    round: str | None = None,
    course: str | None = None,
    day: date | None = None,
    printed: datetime | None = None,
) -> dict[str, Any]:
    """Return what a PDF builder needs to lay the sheet out (``pdf_of_request``), as JSON."""
    return {
        "results": dict(doc),
        "round": round,
        "course": course,
        "day": day.isoformat() if day else None,
        "printed": printed.isoformat() if printed else None,
    }


def pdf_of_request(request: Mapping[str, Any], lang: str) -> bytes:
    """Return the PDF of a :func:`sheet_request` (the server's PDF builder lays it out)."""
    day, printed = request.get("day"), request.get("printed")
    return results_sheet_pdf(
        request["results"], lang, round=request.get("round"), course=request.get("course"),
        day=date.fromisoformat(day) if day else None,
        printed=datetime.fromisoformat(printed) if printed else None,
    )  # fmt: skip

"""The audit of a round: its event log for the committee and referees, as a page and as CSV.

Who (role, name, device), what, when (local time of the round), and for corrections and
voids their target and reason. The page says each event in words ("Hole 4 completed by group
6 — marshal Paul, phone clock +2 s") and why (a code said in the page's language, what a
person typed as typed; the type filter too: issue 47), the raw columns as stored on demand
(``?raw=1``); the CSV has both,
``?excel=1`` with ``;`` and a byte order mark for French spreadsheets (issue 14). Everything
is text put in the page by Jinja's escaping, and CSV cells that a spreadsheet would read as a
formula are prefixed with ``'`` (``pace.formats.spreadsheet``).
"""

from __future__ import annotations

import io

from flask import Blueprint, Response, render_template, request

from pace.formats import spreadsheet
from pace.web.audit import sentences, table
from pace.web.downloads import attachment
from pace.web.i18n import current_language, page_context
from pace.web.parts import parts

bp = Blueprint("audit", __name__)


def _selected(round: str) -> tuple[list[dict[str, str]], list[tuple[str, str]], list[str]]:
    """Return the round's rows filtered by ``?type=`` and ``?group=``, and the choices: the
    log's kinds of event as ``(value, label)``, the value the raw kind, the label said in the
    page's language (issue 47), in the order of the labels."""
    live = parts().live
    view = live.service.round_view(round)
    lang = current_language()
    all_rows = table.rows(live.events(round), view.tz, lang)
    wanted_type = request.args.get("type") or ""
    wanted_group = request.args.get("group") or ""
    kinds = {r["type"] for r in all_rows}
    if wanted_type in sentences.TYPES:  # a kind this round has none of: shown as chosen
        kinds.add(wanted_type)
    labelled = {(kind, sentences.type_label(kind, lang)) for kind in kinds}
    types = sorted(labelled, key=lambda pair: (pair[1].casefold(), pair[0]))
    groups = [g.id for g in view.record.groups]
    chosen = [
        r
        for r in all_rows
        if (not wanted_type or r["type"] == wanted_type)
        and (not wanted_group or r["group"] == wanted_group)
    ]
    return chosen, types, groups


@bp.get("/rounds/<round>/audit")
def audit_page(round: str) -> str:
    """The round's event log: who did what and when, corrections and voids with reasons."""
    chosen, types, groups = _selected(round)
    raw = request.args.get("raw") == "1"
    return render_template(
        "audit.html",
        round=round,
        rows=chosen,
        columns=table.COLUMNS[:12] if raw else table.READABLE,
        raw=raw,
        types=types,
        groups=groups,
        type=request.args.get("type") or "",
        group=request.args.get("group") or "",
        **page_context(),
    )


@bp.get("/rounds/<round>/audit.csv")
def audit_csv(round: str) -> Response:
    """The same log (and filters) as CSV, UTF-8; ``?excel=1``: ``;`` and a byte order mark,
    as a French spreadsheet opens it (pace's imports accept both)."""
    chosen, _, _ = _selected(round)
    excel = request.args.get("excel") == "1"
    out = io.StringIO()
    writer = spreadsheet.writer(out, delimiter=";" if excel else ",")
    writer.writerow(table.COLUMNS)
    for r in chosen:
        writer.writerow([r[c] for c in table.COLUMNS])
    text = ("\ufeff" if excel else "") + out.getvalue()
    return attachment(Response(text, mimetype="text/csv"), round, "audit", "csv")

"""The field at an instant of the day, for the course strip's rewind (issue 40): every group's
row as the live rows carry it (its status entry, its playing order, the instants each hole is
due, its logged holes), and who was holding the field up, judged at that instant.

Read-only: it folds the round's log again for the instant asked, never the live state's fold.
Two readings (docs/status.md, "The course strip and its rewind"):

- ``known`` (the default): the log as it stood at the instant, the events recorded by then
  (``recorded_at`` at or before it). A tap logged later, a correction or a void logged later
  are not seen: the field as the referees saw it then.
- ``corrected``: the statuses of ``GET /api/rounds/<round>/status?at=`` exactly (the whole log
  as it stands now, the facts dated up to the instant: later corrections and late taps count).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import Any

from pace.documents.report import holdup_view
from pace.rules import facts as factsmod
from pace.rules import report as rp
from pace.rules import strip as stripmod
from pace.rules.events import Event
from pace.rules.position import GroupStatus, evaluate_field, hole_overs
from pace.services import rows as rowsmod
from pace.services.rounds import RoundService, RoundView

#: the two readings of the field at an instant
KNOWN, CORRECTED = "known", "corrected"


def field_at(live: Any, round: str, at: datetime, reading: str = KNOWN) -> dict[str, Any]:
    """Return the round's field at ``at`` in ``reading``: ``{at, reading, groups, held_up}``,
    ``groups`` one row per group in draw order with the live rows' fields (docs/protocol.md).

    ``corrected`` takes its statuses from the live service, exactly as ``status?at=``."""
    with live.lock:
        events = list(live.live(round).events)
        view = live.service.round_view(round)
        statuses = live.field(round, at).groups if reading == CORRECTED else None
    return _field(view, events, at, reading, statuses)


def report_field(
    service: RoundService, round: str, at: datetime, reading: str = CORRECTED
) -> dict[str, Any]:
    """Return the round's field at ``at`` from its stored log, as :func:`field_at` (the
    report's strip: no live service; ``corrected`` is then ``pace status --at``'s judgement)."""
    return _field(service.round_view(round), service.store.events(round), at, reading, None)


def _field(
    view: RoundView,
    events: Sequence[Event],
    at: datetime,
    reading: str,
    statuses: Sequence[GroupStatus] | None,
) -> dict[str, Any]:
    if reading != CORRECTED:
        events = [e for e in events if e.recorded_at is None or e.recorded_at <= at]
    facts = factsmod.fold(events)
    if statuses is None:
        statuses = evaluate_field(view.setup, facts, at, view.plan).groups
    overs = hole_overs(view.setup, facts, at, view.plan)
    rows = []
    for s in statuses:
        plan = view.plan.by_id[s.group]
        logged = overs.get(s.group, {})
        fixed = rowsmod.fixed_row(plan)
        if plan.sizes:
            fixed = {**fixed, "due": rowsmod.due(plan, {h: w for h, (w, _) in logged.items()}, at)}
        holes = {h: (w, o, None) for h, (w, o) in logged.items()}
        rows.append(rowsmod.group_row(s, fixed, holes, at, frozenset()))
    steps = rp.field_holdups_steps(view.setup, facts, at, view.plan)
    held = [holdup_view(u, view.tz, going) for u, going in rp.run_steps(steps, None)]
    return {"at": at.isoformat(), "reading": reading, "groups": rows, "held_up": held}


def strip_document(field: dict[str, Any], tz: tzinfo) -> dict[str, Any]:
    """Return the course strip of a field read by :func:`field_at` or :func:`report_field`:
    its lanes and each group's place (:func:`pace.rules.strip.place`), what the report's
    static strip draws and its JSON carries (docs/reports.md)."""
    at = datetime.fromisoformat(field["at"])
    rows = field["groups"]
    holding = {h["group"]: [b["group"] for b in h.get("behind") or []]
               for h in field.get("held_up") or [] if h.get("ongoing")}  # fmt: skip
    held_by = {g: holder for holder, behind in holding.items() for g in behind}
    groups = []
    for r in rows:
        if r["status"] == "withdrawn":
            continue
        p = stripmod.place(
            r["group"], r["status"], r["order"], datetime.fromisoformat(r["start"]),
            [datetime.fromisoformat(d) for d in r["due"]], r["holes_completed"],
            {int(h): datetime.fromisoformat(v["at"]) for h, v in r["holes"].items()}, at,
        )  # fmt: skip
        groups.append({
            "group": r["group"], "tee": r["tee"], "status": r["status"], "hole": p.hole,
            "index": p.index, "fraction": round(p.fraction, 3), "over": p.over,
            "finished": p.finished, "holes_completed": r["holes_completed"],
            "gap_min": r["gap_min"], "held_by": held_by.get(r["group"]),
            "holding": holding.get(r["group"], []),
        })  # fmt: skip
    lanes = stripmod.lanes([(r["tee"], r["order"]) for r in rows])
    return {
        "at": at.astimezone(tz).strftime("%H:%M"),
        "reading": field["reading"],
        "lanes": [{"tee": tee, "holes": list(order)} for tee, order in lanes],
        "groups": groups,
    }

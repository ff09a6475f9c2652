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

from datetime import datetime
from typing import Any

from pace.documents.report import holdup_view
from pace.rules import facts as factsmod
from pace.rules import report as rp
from pace.rules.position import evaluate_field, hole_overs
from pace.services import rows as rowsmod

#: the two readings of the field at an instant
KNOWN, CORRECTED = "known", "corrected"


def field_at(live: Any, round: str, at: datetime, reading: str = KNOWN) -> dict[str, Any]:
    """Return the round's field at ``at`` in ``reading``: ``{at, reading, groups, held_up}``,
    ``groups`` one row per group in draw order with the live rows' fields (docs/protocol.md)."""
    with live.lock:
        events = list(live.live(round).events)
        view = live.service.round_view(round)
        statuses = live.field(round, at).groups if reading == CORRECTED else None
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

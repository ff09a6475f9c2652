"""Repeat offenders as a JSON document and a readable table (``pace offenders``, the page)."""

from __future__ import annotations

from typing import Any

from pace.reports.document import penalty_view
from pace.rules.report.offenders import Offenders


def offenders_document(o: Offenders) -> dict[str, Any]:
    """Return the repeat offenders of a window: one entry per player, newest first."""
    return {
        "days": o.days,
        "since": o.since.isoformat(),
        "until": o.until.isoformat(),
        "players": [
            {
                "player": p.player,
                "latest": p.latest.isoformat(),
                "rounds": [
                    {
                        "round": r.round,
                        "day": r.day.isoformat(),
                        "group": r.group,
                        "episodes": r.episodes,
                        "bad_times": r.bad_times,
                        "faults": r.faults,
                        "penalties": [penalty_view(x) for x in r.penalties],
                    }
                    for r in p.rounds
                ],
                "episodes": p.episodes,
                "bad_times": p.bad_times,
                "penalties": p.penalties,
            }
            for p in o.players
        ],
    }


def offenders_table(o: Offenders) -> str:
    """Return the repeat offenders as one line per player (tab-separated)."""
    lines = [f"repeat offenders from {o.since} to {o.until} ({o.days} days)"]
    if not o.players:
        return lines[0] + "\nnobody: no episode, bad time or penalty in that window"
    lines.append("player\tlatest\trounds\tepisodes\tbad times\tpenalties")
    for p in o.players:
        rounds = ", ".join(f"{r.round} ({r.day})" for r in p.rounds)
        lines.append(
            f"{p.player}\t{p.latest}\t{rounds}\t{p.episodes}\t{p.bad_times}\t{p.penalties}"
        )
    return "\n".join(lines)

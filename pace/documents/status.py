"""A group's entry of the status document (docs/formats.md §4, ``pace status --json``): the
one shape the status document and the live group rows share."""

from __future__ import annotations

from typing import Any

from pace.documents.values import minutes
from pace.rules.position import GroupStatus


def group_document(s: GroupStatus) -> dict[str, Any]:
    """Return one group's entry of the status document, keys in docs/formats.md §4's order."""
    return {
        "group": s.group,
        "status": s.status.value,
        "holes_completed": s.holes_completed,
        "lead": s.lead,
        "over_min": minutes(s.over),
        "gap_min": minutes(s.gap),
        "interval_min": minutes(s.interval),
    }

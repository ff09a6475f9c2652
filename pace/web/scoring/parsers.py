"""Parse the scorers' payloads (``record_score``, ``correct_score``, the joins) into commands.

Like ``pace.web.payloads``: every field checked, unknown ones refused, names and ids in
their canonical spelling. A score is ``strokes`` 1–20, or ``null`` for no score (ball picked
up); the field itself must be there (a hole never scored is simply not sent).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from pace.rules.scoring import records
from pace.services import commands as cmd
from pace.web.payloads import (
    MAX_REASON,
    PayloadError,
    device_time,
    event_id,
    integer,
    mapping,
    optional_instant,
    text,
)

_SCORE = ("id", "round", "group", "player", "hole", "strokes", "conceded", "device_time")
_CORRECTION = ("id", "round", "target", "strokes", "conceded", "reason", "device_time")


def _strokes(p: Mapping[str, Any]) -> int | None:
    if "strokes" not in p:
        raise PayloadError(
            "strokes is required: a whole number 1–20, or null for no score",
            field="strokes",
            code="missing_field",
        )
    value = p["strokes"]
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,2}", value.strip()):
        value = int(value.strip())  # a digit string, as for a hole
    problem = records.check_strokes(value)
    if problem is not None:
        raise PayloadError(problem, field="strokes")
    return value if value is None else int(value)


def _conceded(p: Mapping[str, Any]) -> bool:
    value = p.get("conceded", False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise PayloadError("conceded must be true or false", field="conceded")
    return value


def record_score(payload: object, by: cmd.Author) -> cmd.RecordScore:
    """Parse ``record_score``: id, round, group, player, hole, strokes (or null), conceded."""
    p = mapping(payload, _SCORE)
    optional_instant(p, "device_time")
    return cmd.RecordScore(
        id=event_id(p),
        round=text(p, "round"),
        group=text(p, "group", limit=50),
        player=text(p, "player"),
        hole=integer(p, "hole", 1, 99),
        strokes=_strokes(p),
        conceded=_conceded(p),
        by=by,
    )


def correct_score(payload: object, by: cmd.Author) -> cmd.CorrectScore:
    """Parse ``correct_score``: id, round, target (the score), strokes (or null), reason."""
    p = mapping(payload, _CORRECTION)
    optional_instant(p, "device_time")
    return cmd.CorrectScore(
        id=event_id(p),
        round=text(p, "round"),
        target=event_id(p, "target"),
        strokes=_strokes(p),
        conceded=_conceded(p),
        reason=text(p, "reason", limit=MAX_REASON, prose=True),
        by=by,
    )


def group_completed(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> cmd.ReportHoleCompleted:
    """Parse ``group_completed`` (a group's own report that it holed out): id, round, group,
    hole, at, device_time; the instant is clock-corrected exactly as a marshal's tap's is."""
    p = mapping(payload, ("id", "round", "group", "hole", "at", "device_time"))
    return cmd.ReportHoleCompleted(
        id=event_id(p),
        round=text(p, "round"),
        group=text(p, "group", limit=50),
        hole=integer(p, "hole", 1, 99),
        at=device_time(p, "at", received, ping_offset),
        by=by,
    )


def join_scores(payload: object) -> cmd.JoinRound:
    """Parse ``join_scores``: the round whose cards a scorer page follows."""
    p = mapping(payload, ("round",))
    return cmd.JoinRound(text(p, "round"))


def join_leaderboard(payload: object) -> cmd.JoinRound:
    """Parse ``join_leaderboard``: the round whose leaderboard a page follows (public)."""
    p = mapping(payload, ("round",))
    return cmd.JoinRound(text(p, "round"))

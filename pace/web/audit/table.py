"""The audit's table: its columns, and one row per event of a round's log, every cell text:
what it says in words ("Hole 4 completed by group 6", ``sentences``), who recorded it
("marshal Paul, phone clock +2 s"), why in words, and its raw columns as stored."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from pace.rules.events import Event
from pace.web.audit import sentences
from pace.web.audit.sentences import describe, t

COLUMNS = (
    "seq", "at", "recorded_at", "type", "group", "hole", "role", "name", "device",
    "target", "reason", "details", "what", "who", "why",
)  # fmt: skip
#: the columns of the readable page (the others with ``?raw=1``): ``why`` is the reason in
#: words (a code said in the page's language), ``reason`` the raw column as stored
READABLE = ("seq", "at", "what", "who", "why")

#: payload fields shown in their own column, not among the details
_OWN = ("group", "hole", "target", "reason", "device_at", "offset_s", "offset_source")


def _local(instant: datetime | None, tz: ZoneInfo) -> str:
    return instant.astimezone(tz).strftime("%H:%M:%S") if instant else ""


def _details(payload: Mapping[str, Any]) -> str:
    return "; ".join(
        f"{k}={v}" for k, v in payload.items() if k not in _OWN and v not in (None, "", [], {})
    )


def rows(events: Iterable[Event], tz: ZoneInfo, lang: str = "en") -> list[dict[str, str]]:
    """Return the audit rows of ``events``: one per event, every cell text."""
    listed = list(events)
    by_id = {e.id: e for e in listed}
    raised = sentences.raises(listed)
    out = []
    for e in listed:
        p = dict(e.payload)
        by = dict(e.by)
        out.append(
            {
                "seq": str(e.seq or ""),
                "at": _local(e.at, tz),
                "recorded_at": _local(e.recorded_at, tz),
                "type": e.type,
                "group": str(p.get("group") or ""),
                "hole": str(p.get("hole") or ""),
                "role": str(by.get("role") or ""),
                "name": str(by.get("name") or ""),
                "device": str(by.get("device") or ""),
                "target": str(p.get("target") or ""),
                "reason": str(p.get("reason") or p.get("note") or ""),
                "details": _details(p),
                "what": describe(e, by_id, tz, lang, raised),
                "who": author(e, lang),
                "why": sentences.why(e, by_id, lang),
            }
        )
    return out


def author(e: Event, lang: str = "en") -> str:
    """Return who recorded an event, in words: "marshal Paul, phone clock +2 s"."""
    by = e.by
    role = str(by.get("role") or "")
    if role == "system":
        return t("audit.system", lang)
    if by.get("device") == "import":
        return t("audit.import", lang, name=by.get("name") or "")
    who = t("audit.who", lang, role=t(f"audit.role.{role}", lang), name=by.get("name") or "")
    offset = e.payload.get("clock_offset_ms")
    if isinstance(offset, int | float):
        seconds = round(offset / 1000)
        signed = f"+{seconds}" if seconds > 0 else ("0" if seconds == 0 else f"−{-seconds}")
        who = f"{who.strip()}, {t('audit.clock', lang, offset=signed)}"
    return who.strip()

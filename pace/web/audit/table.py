"""The audit's table: its columns, and one row per event of a round's log, every cell text:
what it says in words ("Hole 4 completed by group 6"), who recorded it ("marshal Paul, phone
clock +2 s") and its raw columns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from pace import i18n
from pace.rules.events import Event
from pace.web.i18n import translate

COLUMNS = (
    "seq", "at", "recorded_at", "type", "group", "hole", "role", "name", "device",
    "target", "reason", "details", "what", "who",
)  # fmt: skip
#: the columns of the readable page (the others with ``?raw=1``)
READABLE = ("seq", "at", "what", "who", "reason")

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
                "what": describe(e, by_id, tz, lang),
                "who": author(e, lang),
            }
        )
    return out


def _t(key: str, lang: str, **values: object) -> str:
    text = translate(key, lang)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _target(e: Event | None, lang: str) -> str:
    if e is not None and e.type == "hole_completed":
        p = e.payload
        return _t("audit.target.hole", lang, hole=p.get("hole"), group=p.get("group"))
    return _t("audit.target.other", lang, seq=e.seq if e is not None else "?")


def _alert(payload: Mapping[str, Any], raised: Event | None, lang: str) -> str:
    alert = dict(raised.payload) if raised is not None else dict(payload)
    kind = str(alert.get("kind") or "")
    key = f"dash.alert.{kind}" if kind in _ALERT_KINDS else "dash.alert.other"
    if kind == "stop_timing" and alert.get("reason") == "in_position":
        key = "dash.alert.stop_timing_in_position"
    hole = alert.get("hole") if alert.get("hole") is not None else ""
    return _t(key, lang, group=alert.get("group", ""), hole=hole, kind=kind)


_ALERT_KINDS = ("out_of_position", "overdue", "back_in_position", "stop_timing")


def describe(e: Event, by_id: Mapping[str, Event], tz: ZoneInfo, lang: str = "en") -> str:
    """Return what an event says, in words: "Hole 4 completed by group 6"."""
    p = e.payload
    group, hole = p.get("group", ""), p.get("hole", "")
    if e.type == "hole_completed" and p.get("source") == "group":
        # issue 39: the group's own report, not an official's tap
        return _t("audit.what.hole_reported", lang, group=group, hole=hole)
    if e.type in ("hole_completed", "player_told_timed", "player_notified", "timing_stopped",
                  "group_withdrawn"):  # fmt: skip
        return _t(f"audit.what.{e.type}", lang, group=group, hole=hole, player=p.get("player"))
    if e.type == "hole_time_corrected":
        at = datetime.fromisoformat(str(p["at"])) if p.get("at") else None
        return _t(
            "audit.what.hole_time_corrected",
            lang,
            target=_target(by_id.get(str(p.get("target"))), lang),
            time=_local(at, tz),
        )
    if e.type == "event_voided":
        target = _target(by_id.get(str(p.get("target"))), lang)
        return _t("audit.what.event_voided", lang, target=target[:1].upper() + target[1:])
    if e.type == "siren":
        kind = _t(f"audit.what.siren.{p.get('kind')}", lang)
        return _t("audit.what.siren", lang, kind=kind)
    if e.type in ("alert_raised", "alert_acknowledged", "alert_resolved"):
        key = str(p.get("key") or p.get("alert") or "")
        raised = next(
            (x for x in by_id.values() if x.type == "alert_raised" and x.payload.get("key") == key),
            None,
        )
        return _t(f"audit.what.{e.type}", lang, alert=_alert(p, raised, lang))
    if e.type == "timing_decided":
        decision = "time" if p.get("decision") == "time" else "not_time"
        reason = _t(f"timing.reason.{p.get('reason')}", lang) if p.get("reason") else ""
        return _t(f"audit.what.timing_decided.{decision}", lang, group=group, reason=reason)
    if e.type == "stroke_timed":
        start, stop = p.get("started"), p.get("stopped")
        seconds = ""
        if start and stop:
            span = datetime.fromisoformat(str(stop)) - datetime.fromisoformat(str(start))
            seconds = f"{span.total_seconds():.1f}"
            seconds = i18n.decimal(seconds, lang)
        return _t(
            "audit.what.stroke_timed",
            lang,
            player=p.get("player"),
            group=group,
            hole=hole,
            seconds=seconds,
        )
    if e.type == "time_credit_granted":
        amount = p.get("minutes")
        if isinstance(amount, int | float) and not isinstance(amount, bool):
            amount = i18n.tenths(float(amount), lang)
        return _t("audit.what.time_credit_granted", lang, group=group, minutes=amount)
    if e.type in ("round_finished", "results_finalised", "results_reopened"):  # issue 28
        return _t(f"audit.what.{e.type}", lang, reason=p.get("reason") or "")
    return _t("audit.what.other", lang, type=e.type.replace("_", " "))


def author(e: Event, lang: str = "en") -> str:
    """Return who recorded an event, in words: "marshal Paul, phone clock +2 s"."""
    by = e.by
    role = str(by.get("role") or "")
    if role == "system":
        return _t("audit.system", lang)
    if by.get("device") == "import":
        return _t("audit.import", lang, name=by.get("name") or "")
    who = _t("audit.who", lang, role=_t(f"audit.role.{role}", lang), name=by.get("name") or "")
    offset = e.payload.get("clock_offset_ms")
    if isinstance(offset, int | float):
        seconds = round(offset / 1000)
        signed = f"+{seconds}" if seconds > 0 else ("0" if seconds == 0 else f"−{-seconds}")
        who = f"{who.strip()}, {_t('audit.clock', lang, offset=signed)}"
    return who.strip()

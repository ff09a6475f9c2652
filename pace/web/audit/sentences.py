"""The audit's sentences: what each kind of event of a round's log says, and why, in the
page's language (issue 14, point 15; every kind, codes included: issue 47).

Every kind the log holds is in :data:`TYPES`, with a short label (the type filter) and a
sentence (the "what" column); a code a payload carries (a mitigating reason, a missed tap's
reason, a withdrawal, the shot clock's stop reason) is said through the catalogue, and only
what a person typed (a note, a correction's reason) is shown as typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from pace import i18n
from pace.rules import alerts, changes, facts, life, refereeing
from pace.rules.events import Event
from pace.rules.scoring import records
from pace.web.i18n import ENGLISH, translate

#: every kind of event a round's log holds, in the order docs/protocol.md lists them
TYPES: tuple[str, ...] = (
    facts.HOLE_COMPLETED,
    facts.HOLE_TIME_CORRECTED,
    facts.EVENT_VOIDED,
    facts.SIREN,
    alerts.ALERT_RAISED,
    alerts.ALERT_ACKNOWLEDGED,
    alerts.ALERT_RESOLVED,
    refereeing.TIMING_DECIDED,
    refereeing.PLAYER_TOLD_TIMED,
    refereeing.STROKE_TIMED,
    refereeing.PLAYER_NOTIFIED,
    facts.TIME_CREDIT_GRANTED,
    refereeing.TIMING_STOPPED,
    records.SCORE_RECORDED,
    records.SCORE_CORRECTED,
    # a group's phone agrees to share its position, or stops (issue 48): who, when; no place
    "positions_consented",
    "positions_stopped",
    *changes.KINDS,
    facts.GROUP_WITHDRAWN,
    life.ROUND_FINISHED,
    life.RESULTS_FINALISED,
    life.RESULTS_REOPENED,
)

#: the alerts the dashboard says in words (``dash.alert.<kind>``)
ALERT_KINDS = (
    alerts.OUT_OF_POSITION,
    alerts.OVERDUE,
    alerts.BACK_IN_POSITION,
    refereeing.STOP_TIMING,
    "missing_tap",
)
#: the events that say what they do to a group's player or hole in one sentence of their own
_PLAIN = (
    facts.HOLE_COMPLETED,
    refereeing.PLAYER_TOLD_TIMED,
    refereeing.PLAYER_NOTIFIED,
    refereeing.TIMING_STOPPED,
    facts.GROUP_WITHDRAWN,
    life.ROUND_FINISHED,
    life.RESULTS_FINALISED,
    life.RESULTS_REOPENED,
)
#: a player's withdrawal in a change's sentence, by its kind
_WITHDRAWALS = {kind: f"audit.withdrawal.{kind}" for kind in changes.WITHDRAWALS}


def t(key: str, lang: str, **values: object) -> str:
    """Return the text ``key`` in ``lang`` with its ``{fields}`` filled."""
    return i18n.fill(translate(key, lang), values)


def type_label(kind: str, lang: str) -> str:
    """Return the short label of an event kind (the type filter's option), the kind itself
    for a kind pace does not know.

    >>> type_label("hole_completed", "en"), type_label("something_new", "nl")
    ('Hole completed', 'something_new')
    """
    key = f"audit.type.{kind}"
    return t(key, lang) if key in ENGLISH else kind


def _local(instant: datetime | None, tz: ZoneInfo, form: str = "%H:%M:%S") -> str:
    return instant.astimezone(tz).strftime(form) if instant else ""


def _instant(value: object) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) and value else None


def _origin(e: Event | None, by_id: Mapping[str, Event]) -> Event | None:
    """Return the first fact of a chain of corrections (a score corrected twice: its score)."""
    seen = 0
    while e is not None and e.type in (records.SCORE_CORRECTED, facts.HOLE_TIME_CORRECTED):
        e, seen = by_id.get(str(e.payload.get("target"))), seen + 1
        if seen > len(by_id):  # a loop of targets cannot be stored; never spin on one
            return None
    return e


def _target(e: Event | None, by_id: Mapping[str, Event], lang: str) -> str:
    """Return what a correction or a void is about: a hole, a score, or an event by its
    number and kind."""
    first = _origin(e, by_id)
    if first is not None and first.type == facts.HOLE_COMPLETED:
        p = first.payload
        return t("audit.target.hole", lang, hole=p.get("hole"), group=p.get("group"))
    if first is not None and first.type == records.SCORE_RECORDED:
        p = first.payload
        return t("audit.target.score", lang, player=p.get("player"), group=p.get("group"),
                 hole=p.get("hole"))  # fmt: skip
    if e is None:
        return t("audit.target.other", lang, seq="?", type="?")
    return t("audit.target.other", lang, seq=e.seq or "?", type=type_label(e.type, lang))


def _alert(e: Event, raised: Event | None, tz: ZoneInfo, lang: str) -> str:
    """Return an alert in the dashboard's words, as it was raised."""
    alert = dict(raised.payload) if raised is not None else dict(e.payload)
    kind = str(alert.get("kind") or "")
    key = f"dash.alert.{kind}" if kind in ALERT_KINDS else "dash.alert.other"
    if kind == refereeing.STOP_TIMING and alert.get("reason") == "in_position":
        key = "dash.alert.stop_timing_in_position"
    if kind == "missing_tap" and not alert.get("check_holes"):
        key = "dash.alert.missing_tap_scorer"  # a round with no marshal asks the scorer
    latest = _instant(alert.get("latest"))
    hole = alert.get("hole") if alert.get("hole") is not None else ""
    return t(
        key,
        lang,
        group=alert.get("group", ""),
        hole=hole,
        kind=kind,
        time=_local((raised or e).at, tz, "%H:%M"),
        earliest=_local(_instant(alert.get("earliest")), tz, "%H:%M"),
        latest=_local(latest, tz, "%H:%M") if latest else t("dash.estimate.now", lang),
    )


def raises(events: Iterable[Event]) -> dict[str, Event]:
    """Return each alert's raise by its key (the first one: a re-raise says the same)."""
    out: dict[str, Event] = {}
    for e in events:
        if e.type == alerts.ALERT_RAISED:
            out.setdefault(str(e.payload.get("key")), e)
    return out


def _raised(e: Event, raised: Mapping[str, Event]) -> Event | None:
    if e.type == alerts.ALERT_RAISED:
        return e
    return raised.get(str(e.payload.get("key") or e.payload.get("alert") or ""))


def _score(p: Mapping[str, Any], lang: str) -> str:
    strokes = p.get("strokes")
    score = t("audit.score.none", lang) if strokes is None else str(strokes)
    return t("audit.score.conceded", lang, score=score) if p.get("conceded") else score


def _change(e: Event, tz: ZoneInfo, lang: str) -> str:
    """Return a change of the draw as the changes page says it."""
    p: dict[str, Any] = dict(e.payload)
    if isinstance(p.get("player"), Mapping):  # a late entry: the player's fields
        p["name"] = p["player"].get("name", "")
    if e.type == changes.PLAYER_WITHDRAWN and str(p.get("reason")) in _WITHDRAWALS:
        p["reason"] = t(_WITHDRAWALS[str(p["reason"])], lang)
    if "start" in p:
        p["start"] = _local(_instant(p["start"]), tz, "%H:%M")
    return t("audit.what.change", lang, change=t(f"changes.said.{e.type}", lang, **p))


def describe(
    e: Event,
    by_id: Mapping[str, Event],
    tz: ZoneInfo,
    lang: str = "en",
    raised: Mapping[str, Event] | None = None,
) -> str:
    """Return what an event says, in words: "Hole 4 completed by group 6".

    ``by_id`` holds the log's events by id (what a correction or a void is about);
    ``raised``, each alert's raise by its key (:func:`raises` of the log, made once for a
    whole table).
    """
    p = e.payload
    group, hole = p.get("group", ""), p.get("hole", "")
    if e.type == facts.HOLE_COMPLETED and p.get("source") == "group":
        # issue 39: the group's own report, not an official's tap
        return t("audit.what.hole_reported", lang, group=group, hole=hole)
    if e.type == facts.HOLE_COMPLETED and p.get("source") == "position":
        # issue 48: inferred from the positions its phone sent, within an interval
        return t("audit.what.hole_inferred", lang, group=group, hole=hole,
                 earliest=_local(_instant(p.get("earliest")), tz),
                 latest=_local(_instant(p.get("latest")), tz))  # fmt: skip
    if e.type in ("positions_consented", "positions_stopped"):
        return t(f"audit.what.{e.type}", lang, group=group)
    if e.type in _PLAIN:
        return t(f"audit.what.{e.type}", lang, group=group, hole=hole, player=p.get("player"),
                 reason=p.get("reason") or "")  # fmt: skip
    if e.type == facts.HOLE_TIME_CORRECTED:
        return t("audit.what.hole_time_corrected", lang,
                 target=_target(by_id.get(str(p.get("target"))), by_id, lang),
                 time=_local(_instant(p.get("at")), tz))  # fmt: skip
    if e.type == facts.EVENT_VOIDED:
        target = _target(by_id.get(str(p.get("target"))), by_id, lang)
        return t("audit.what.event_voided", lang, target=target[:1].upper() + target[1:])
    if e.type == facts.SIREN:
        return t("audit.what.siren", lang, kind=t(f"audit.what.siren.{p.get('kind')}", lang))
    if e.type in (alerts.ALERT_RAISED, alerts.ALERT_ACKNOWLEDGED, alerts.ALERT_RESOLVED):
        raised = raises(by_id.values()) if raised is None else raised
        return t(f"audit.what.{e.type}", lang, alert=_alert(e, _raised(e, raised), tz, lang))
    if e.type == refereeing.TIMING_DECIDED:
        if p.get("decision") == "time":
            return t("audit.what.timing_decided.time", lang, group=group)
        reason = p.get("reason") if p.get("reason") in refereeing.MITIGATING_REASONS else "other"
        return t("audit.what.timing_decided.not_time", lang, group=group,
                 reason=t(f"timing.reason.{reason}", lang))  # fmt: skip
    if e.type == refereeing.STROKE_TIMED:
        start, stop = _instant(p.get("started")), _instant(p.get("stopped"))
        span = f"{(stop - start).total_seconds():.1f}" if start and stop else ""
        seconds = i18n.decimal(span, lang)
        return t("audit.what.stroke_timed", lang, player=p.get("player"), group=group, hole=hole,
                 seconds=seconds)  # fmt: skip
    if e.type == facts.TIME_CREDIT_GRANTED:
        amount = p.get("minutes")
        if isinstance(amount, int | float) and not isinstance(amount, bool):
            amount = i18n.tenths(float(amount), lang)
        return t("audit.what.time_credit_granted", lang, group=group, minutes=amount)
    if e.type == records.SCORE_RECORDED:
        return t("audit.what.score_recorded", lang, player=p.get("player"), group=group,
                 hole=hole, score=_score(p, lang))  # fmt: skip
    if e.type == records.SCORE_CORRECTED:
        first = _origin(e, by_id)
        q = first.payload if first is not None else {}
        return t("audit.what.score_corrected", lang, player=q.get("player", "?"),
                 group=q.get("group", "?"), hole=q.get("hole", "?"),
                 score=_score(p, lang))  # fmt: skip
    if e.type in changes.KINDS:
        return _change(e, tz, lang)
    return t("audit.what.other", lang, type=e.type.replace("_", " "))


def why(e: Event, by_id: Mapping[str, Event], lang: str = "en") -> str:
    """Return why, in words: a code the payload carries said in ``lang`` (the shot clock's
    stop, a missed tap's reason, a group withdrawn with its last player), or what a person
    typed (a correction's reason, a note), as typed."""
    p = e.payload
    if e.type == refereeing.TIMING_STOPPED:
        code = refereeing.stop_reason_code(p.get("reason"))
        return t(f"timing.stop_reason.{code}", lang) if code else _typed(p.get("reason"))
    if e.type in (refereeing.TIMING_DECIDED, alerts.ALERT_ACKNOWLEDGED, changes.PLAYER_WITHDRAWN):
        return _typed(p.get("note"))  # the reason, a code, is in the sentence
    if e.type == alerts.ALERT_RAISED:
        reason = p.get("reason")
        known = p.get("kind") == "missing_tap" and f"dash.estimate.{reason}" in ENGLISH
        return t(f"dash.estimate.{reason}", lang) if known else ""  # a stop's: in the sentence
    if e.type == facts.GROUP_WITHDRAWN and p.get("change"):
        change = by_id.get(str(p["change"]))  # the last player's retirement withdrew it
        if change is not None and change.type == changes.PLAYER_WITHDRAWN:
            return t("audit.why.last_player_retired", lang, player=change.payload.get("player"))
    return _typed(p.get("reason"))


def _typed(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""

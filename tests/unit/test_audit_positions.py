"""The audit says what positions did (issue 48): a completion inferred from a group's phone,
with its interval, and who agreed to share or stopped, in the page's language."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from pace.rules.events import Event
from pace.web.audit import sentences

TZ = ZoneInfo("Europe/Brussels")
AT = datetime(2026, 6, 14, 6, 14, 30, tzinfo=UTC)


def event(type: str, **payload: object) -> Event:
    return Event(id="e1", type=type, round="R1", at=AT, payload=payload,
                 by={"role": "positions", "device": "scorer-1"})  # fmt: skip


def test_an_inferred_completion_is_said_with_its_interval():
    e = event("hole_completed", group="3", hole=7, source="position",
              earliest="2026-06-14T06:13:50+00:00", latest="2026-06-14T06:15:10+00:00")
    assert sentences.describe(e, {}, TZ) == (
        "Hole 7 completed by group 3, inferred from its phone's positions "
        "(between 08:13:50 and 08:15:10)"
    )
    assert sentences.describe(e, {}, TZ, "fr").startswith("Trou 7 terminé par le groupe 3")


def test_a_phone_sharing_and_stopping_is_said_without_a_place():
    shared = sentences.describe(event("positions_consented", group="3"), {}, TZ)
    stopped = sentences.describe(event("positions_stopped", group="3"), {}, TZ, "nl")
    assert shared == "Group 3's phone shares the group's position"
    assert stopped == "De telefoon van flight 3 deelt de positie van de flight niet meer"
    assert sentences.type_label("positions_consented", "en") == "Position shared"

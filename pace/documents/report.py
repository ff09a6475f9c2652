"""The report's round and who held the field up: shapes the report's JSON document
(``pace.reports.document``) and the dashboard's live panel (``pace.services.reports``) share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from pace.documents.values import instant, minutes
from pace.rules import report as rp


@dataclass(frozen=True)
class ReportMeta:
    """What the report says of its round besides the facts: names, day, zone, policy."""

    round: str
    course: str
    day: date
    timezone: str
    policy: str
    play: str
    format: str
    policy_known: bool = True
    #: the round's life when the report was made (``pace.services.life.life_document``)
    life: Mapping[str, Any] | None = None
    #: the course strip at the instant the committee chose (``pace report --strip-at``;
    #: ``pace.services.strip.strip_document``), drawn as a static SVG and carried in the JSON
    strip: Mapping[str, Any] | None = None
    #: each player's own language where the draw gives one ((name, fr|en|nl), ...), for letters
    languages: tuple[tuple[str, str], ...] = ()

    @property
    def tz(self) -> ZoneInfo:
        """Return the round's time zone."""
        return ZoneInfo(self.timezone)


def holdup_view(u: rp.HoldUp, tz: tzinfo, going: bool | None = None) -> dict[str, Any]:
    """Return who held the field up, as the report and the dashboard show it."""
    out: dict[str, Any] = {
        "group": u.group,
        "groups": u.groups,
        "minutes": minutes(u.minutes),
        "hole": u.worst.hole,
        "at": instant(u.worst.at, tz),
        "over_min": minutes(u.worst.over),
        "behind": [{"group": g, "over_min": minutes(o)} for g, o in u.worst.behind],
        "holes": [h.hole for h in u.holes],
        "held": list(u.held),
    }
    if going is not None:
        out["ongoing"] = going
        out["latest_hole"] = u.latest.hole
    return out

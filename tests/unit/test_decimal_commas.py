"""Minutes written as Dutch and French write them (issue 47): a comma, never a decimal point,
in the audit's time credits, the report's credits and the report's strip."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from pace.reports.strip_svg import _label
from pace.rules.events import Event
from pace.web.audit.table import describe

T = datetime(2026, 6, 14, 9, 0, tzinfo=UTC)
TZ = ZoneInfo("Europe/Brussels")


def credit(minutes: float) -> Event:
    return Event("c", "time_credit_granted", "R", T, {"group": "7", "minutes": minutes,
                                                      "reason": "ruling"})  # fmt: skip


@pytest.mark.parametrize(
    ("minutes", "lang", "written"),
    [(7.0, "nl", "7 min"), (7.5, "nl", "7,5 min"), (7.5, "fr", "7,5 min"), (7.5, "en", "7.5 min")],
)
def test_the_audit_writes_a_credit_in_the_pages_notation(minutes, lang, written):
    line = describe(credit(minutes), {}, TZ, lang)
    assert written in line and "7.0" not in line
    if lang != "en":
        assert "7.5" not in line


def test_the_reports_strip_writes_a_gap_with_a_comma_in_dutch():
    group = {"group": "B", "status": "out_of_position", "finished": False, "hole": 3,
             "fraction": 0.33, "gap_min": 17.04, "holding": [], "held_by": None}  # fmt: skip
    assert "17,0" in _label(group, "nl") and "17.0" not in _label(group, "nl")
    assert "17.0" in _label(group, "en")

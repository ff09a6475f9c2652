"""The clock of a group: elapsed = t − start − suspensions − credits (docs/rules.md §2, §5, §8)."""

from __future__ import annotations

import pytest

from pace.rules import groupclock
from tests.builders import at, credit, minutes, suspension


def _elapsed_min(start, t, sirens=(), credits=(), credits_at=None):
    spans = groupclock.merge_suspensions(sirens, at(t))
    value = groupclock.elapsed(
        at(start),
        at(t),
        spans,
        credits,
        credits_at=None if credits_at is None else at(credits_at),
    )
    return value / minutes(1)


@pytest.mark.parametrize(
    ("sirens", "t", "expected"),
    [
        # group starts 08:00
        ((), "08:42", 42),
        # stop 08:10–08:40: 30 min frozen; 44 − 30 = 14
        ((suspension("08:10", "08:40"),), "08:44", 14),
        # interruption (one long siren) stops the clock too
        ((suspension("08:10", "08:40", kind="interruption"),), "08:44", 14),
        # still suspended at t (no resumption yet): clock frozen since 08:10
        ((suspension("08:10"),), "09:00", 10),
        # resumption stamped after t is not known at t: still running, frozen since 08:10
        ((suspension("08:10", "09:30"),), "09:00", 10),
        # siren after t: not known yet, nothing frozen
        ((suspension("09:10", "09:30"),), "09:00", 60),
        # overlapping 08:10–08:30 and 08:20–08:40 is one stop of 30 min, not 40
        ((suspension("08:10", "08:30"), suspension("08:20", "08:40")), "08:44", 14),
        # nested 08:10–08:40 and 08:15–08:20: still 30 min
        ((suspension("08:10", "08:40"), suspension("08:15", "08:20")), "08:44", 14),
        # two separate stops 10 + 5 min
        ((suspension("08:10", "08:20"), suspension("08:30", "08:35")), "08:44", 29),
        # overlapping, the later one still running at t: frozen from 08:10 on
        ((suspension("08:10", "08:30"), suspension("08:20")), "09:00", 10),
        # a stop that began before the group's start only counts from the start:
        # 07:50–08:10 -> 10 min inside the group's clock
        ((suspension("07:50", "08:10"),), "08:44", 34),
        # a stop that ended before the group started does not touch its clock
        ((suspension("07:30", "07:50"),), "08:44", 44),
    ],
    ids=[
        "no stop",
        "suspension",
        "interruption",
        "still running at now",
        "resumption after now not known",
        "siren after now not known",
        "overlapping counted once",
        "nested counted once",
        "two stops add up",
        "overlap with one still running",
        "stop straddling the start",
        "stop before the start",
    ],
)
def test_suspension_stops_the_group_clock(sirens, t, expected):
    assert _elapsed_min("08:00", t, sirens) == expected


def test_suspension_given_out_of_order_is_merged_the_same():
    sirens = (suspension("08:20", "08:40"), suspension("08:10", "08:30"))
    assert _elapsed_min("08:00", "08:44", sirens) == 14


@pytest.mark.parametrize(
    ("t", "expected"),
    [
        ("08:35", 35),  # credit of 6 min granted at 08:40: not yet at 08:35
        ("08:40", 34),  # from the instant it is granted on
        ("09:00", 54),
    ],
    ids=["before the grant", "at the grant", "after the grant"],
)
def test_time_credit_counts_from_the_instant_it_is_granted(t, expected):
    credits = (credit("A", "08:40", 6),)
    assert _elapsed_min("08:00", t, credits=credits) == expected


def test_time_credits_add_up():
    credits = (credit("A", "08:20", 6), credit("A", "08:30", 2.5))
    assert _elapsed_min("08:00", "08:50", credits=credits) == 50 - 8.5


def test_credit_granted_later_applies_to_an_earlier_instant_when_asked_at_the_grant():
    # elapsed at a completion at 08:36, seen from 08:40 after a 6-min credit: 36 − 6
    credits = (credit("A", "08:40", 6),)
    assert _elapsed_min("08:00", "08:36", credits=credits, credits_at="08:40") == 30
    assert _elapsed_min("08:00", "08:36", credits=credits, credits_at="08:39") == 36


def test_suspension_and_credit_both_come_off_the_clock():
    # 08:00 start, stop 08:10–08:25 (15), credit 6 at 08:30: at 09:00, 60 − 15 − 6 = 39
    sirens = (suspension("08:10", "08:25"),)
    credits = (credit("A", "08:30", 6),)
    assert _elapsed_min("08:00", "09:00", sirens, credits) == 39


def test_merged_suspensions_are_sorted_and_disjoint():
    sirens = (
        suspension("09:00", "09:10"),
        suspension("08:10", "08:30"),
        suspension("08:20", "08:40"),
        suspension("09:50"),
    )
    spans = groupclock.merge_suspensions(sirens, at("10:00"))
    assert spans == ((at("08:10"), at("08:40")), (at("09:00"), at("09:10")), (at("09:50"), None))

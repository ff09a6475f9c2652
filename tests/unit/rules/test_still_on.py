"""A group seen still on its hole in play past the instant it was overdue there is out of
position there whatever instant it leaves (issue 48; ``FieldFold.still_on``,
docs/positions.md "Still on the hole").

Group A (two players, off at 08:00) holes out on the 1st at 08:12; group B (three players, off
at 08:10, ten minutes behind: its 1st is allotted 14 minutes) is seen still on the 1st.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from pace.rules.events import Event
from pace.rules.fieldfold import FieldFold
from pace.rules.model import Status
from pace.rules.position import plan_field
from tests.builders import at, make_course, make_group, make_setup

GROUPS = [make_group("A", "08:00", size=2), make_group("B", "08:10", size=3)]


def fold(*completions: tuple[str, int, str, str]) -> FieldFold:
    """The fold of a log of completions (group, hole, "HH:MM", source), read at 09:00; a
    source "position±N" is a completion inferred from positions, N minutes either side."""
    setup = make_setup(make_course(pars=[4, 4, 4, 4, 4, 4]), GROUPS)
    f = FieldFold(setup, plan_field(setup))
    for group, hole, when, source in completions:
        payload: dict[str, object] = {"group": group, "hole": hole}
        if source.startswith("position±"):
            half = timedelta(minutes=float(source.split("±")[1]))
            payload |= {"source": "position", "earliest": (at(when) - half).isoformat(),
                        "latest": (at(when) + half).isoformat()}  # fmt: skip
        elif source != "official":
            payload["source"] = source
        f.apply(Event(str(uuid.uuid4()), "hole_completed", "R", at(when), payload), at("09:00"))
    return f


A_OFF_THE_1ST = ("A", 1, "08:12", "official")


def test_seen_on_the_hole_past_its_time_and_its_gap_proves_it_out_of_position():
    s = fold(A_OFF_THE_1ST).still_on("B", 1, at("08:30"))
    assert s is not None and s.status is Status.OVERDUE and s.hole == 1
    assert s.over == timedelta(minutes=6) and s.gap == timedelta(minutes=18)


def test_seen_on_the_hole_before_its_time_is_up_proves_nothing():
    # 08:23: 18 minutes behind A's completion but a minute inside its 14 (over at 08:24)
    assert fold(A_OFF_THE_1ST).still_on("B", 1, at("08:23")) is None


def test_nothing_while_the_group_ahead_has_not_been_seen_leaving_the_hole():
    assert fold().still_on("B", 1, at("08:30")) is None


def test_nothing_once_the_group_is_logged_off_the_hole():
    f = fold(A_OFF_THE_1ST, ("B", 1, "08:34", "official"))
    assert f.still_on("B", 1, at("08:30")) is None


def test_a_group_that_reports_its_holes_must_be_past_both_limits_by_the_reports_allowance():
    # B's scorer reports its holes (its 1st, with a marshal's tap over it): its completion of
    # the 2nd may be its report, judged with the 3-minute allowance. Its 2nd is due at 08:38
    # (28 minutes), A left it at 08:24
    tapped = [A_OFF_THE_1ST, ("A", 2, "08:24", "official"), ("B", 1, "08:21", "official")]
    reporting = fold(*tapped, ("B", 1, "08:22", "group"))
    # 08:40: 2 minutes over, 16 behind A: overdue, but not past the time by the allowance
    assert reporting.status("B", at("08:40")).status is Status.OVERDUE
    assert reporting.still_on("B", 2, at("08:40")) is None
    # 08:42: 4 minutes over, 18 behind A: past both by the allowance
    s = reporting.still_on("B", 2, at("08:42"))
    assert s is not None and s.over == timedelta(minutes=4) and s.gap == timedelta(minutes=18)
    # on the marshals' taps alone, 08:40 is enough
    assert fold(*tapped).still_on("B", 2, at("08:40")) is not None


def test_seen_on_the_hole_its_time_over_is_exact_whatever_the_last_hole_rests_on():
    # B's 1st inferred from its phone at 08:22, a minute either side: its status allows for
    # that minute (the 2nd's completion may be on its way), but a fix on the 2nd at 08:38:30
    # says it is not: 30 s past the 2nd's time (08:38), 14.5 min behind A
    f = fold(A_OFF_THE_1ST, ("A", 2, "08:24", "official"), ("B", 1, "08:22", "position±1"))
    assert f.status("B", at("08:38:30")).status is not Status.OVERDUE
    s = f.still_on("B", 2, at("08:38:30"))
    assert s is not None and s.status is Status.OVERDUE and s.projected is Status.OVERDUE
    assert s.over == timedelta(seconds=30) and s.gap == timedelta(minutes=14, seconds=30)


def test_the_gap_allows_for_a_completion_ahead_inferred_from_positions():
    # A left the 2nd at 08:27: B seen on it at 08:38:30 is 11.5 min behind (its interval is
    # 10); inferred from A's phone, three minutes either side, A may have left at 08:30
    tapped = fold(A_OFF_THE_1ST, ("A", 2, "08:27", "official"), ("B", 1, "08:22", "official"))
    assert tapped.still_on("B", 2, at("08:38:30")) is not None
    inferred = fold(A_OFF_THE_1ST, ("A", 2, "08:27", "position±3"), ("B", 1, "08:22", "official"))
    assert inferred.still_on("B", 2, at("08:38:30")) is None
    s = inferred.still_on("B", 2, at("08:42"))  # 15 min behind, 12 at least
    assert s is not None and s.gap == timedelta(minutes=12)

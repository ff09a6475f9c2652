"""The readings of a group's own reports (issue 39, docs/status.md "Groups' reports"): an
official's tap wins, a batch proves only its last hole, and the whole-log fold reads them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pace.rules import facts as factsmod
from pace.rules import reported
from pace.rules.events import Event
from pace.rules.model import HoleCompletion
from tests.builders import at

T = at("09:00")


def c(hole: int, minute: float, source: str = "group", group: str = "1") -> HoleCompletion:
    return HoleCompletion(group, hole, T + timedelta(minutes=minute), source)


@pytest.mark.parametrize(
    "candidates, wins",
    [
        ([("r", c(3, 0))], "r"),
        ([("r", c(3, 0)), ("m", c(3, 2, "official"))], "m"),  # the official wins, though later
        ([("m", c(3, 2, "official")), ("r", c(3, 0))], "m"),
        ([("m", c(3, 2, "official")), ("n", c(3, 1, "official"))], "n"),  # the earliest tap
        ([("r", c(3, 1)), ("s", c(3, 0))], "s"),  # two reports: the earliest
        ([("r", c(3, 0)), ("s", c(3, 0))], "r"),  # a tie: the first in the log
    ],
)
def test_an_officials_tap_wins_over_the_groups_report(candidates, wins):
    assert reported.counted(candidates)[0] == wins


@pytest.mark.parametrize(
    "reports, left_out",
    [
        ([("a", c(1, 0)), ("b", c(2, 15))], set()),  # holes apart: both proved
        ([("a", c(1, 0)), ("b", c(2, 0.5))], {"a"}),  # within a minute: only the last
        ([("a", c(1, 0)), ("b", c(2, 1))], {"a"}),  # exactly a minute: still a batch
        ([("a", c(1, 0)), ("b", c(2, 1.05))], set()),  # just over a minute: both proved
        ([("a", c(1, 0)), ("b", c(2, 0.2)), ("d", c(3, 0.4))], {"a", "b"}),  # three at once
        ([("a", c(1, 0)), ("b", c(2, 0))], {"a"}),  # the same instant: the later in the log
        ([("b", c(2, 0.5)), ("a", c(1, 0))], {"a"}),  # replayed out of order: by instants
        ([("a", c(1, 0)), ("b", c(2, 0.5, group="1"))], {"a"}),
    ],
)
def test_several_holes_reported_within_a_minute_prove_only_the_last(reports, left_out):
    assert reported.batched(reports) == left_out


def test_the_whole_log_fold_reads_the_reports():
    def hc(id, hole, minute, source=None):
        p = {"group": "1", "hole": hole}
        if source:
            p["source"] = source
        return Event(id, "hole_completed", "R", T + timedelta(minutes=minute), p)

    log = [
        hc("r1", 1, 0, "group"),
        hc("r2", 2, 0.5, "group"),  # a batch of 1 and 2: 1 is not a fact
        hc("r3", 3, 30, "group"),
        hc("m3", 3, 33),  # the marshal's tap of 3 wins over the report, though later
        hc("r4", 4, 45, "group"),
    ]
    got = [(x.hole, x.at, x.source) for x in factsmod.fold(log).completions]
    assert got == [
        (2, T + timedelta(minutes=0.5), "group"),
        (3, T + timedelta(minutes=33), "official"),
        (4, T + timedelta(minutes=45), "group"),
    ]
    # the void of the marshal's tap gives the group's report back
    voided = [*log, Event("v", "event_voided", "R", T, {"target": "m3", "reason": "slip"})]
    assert (3, T + timedelta(minutes=30), "group") in [
        (x.hole, x.at, x.source) for x in factsmod.fold(voided).completions
    ]


@pytest.mark.parametrize(
    "setting, takes",
    [("officials", False), ("officials_and_groups", True), ("groups", True), (None, False)],
)
def test_which_settings_take_the_groups_reports(setting, takes):
    assert reported.groups_report(setting) is takes


# -- nothing is penalised on a group's report alone (golf-mauricie's checkpoints) ------------

from pace.rules.model import RoundFacts  # noqa: E402
from pace.rules.penalties import checkpoint_breaches  # noqa: E402
from pace.rules.policies import MAURICIE  # noqa: E402
from tests.builders import make_course, make_group, make_setup  # noqa: E402

SETUP = make_setup(make_course(), [make_group("A", "08:00", size=2)])


@pytest.mark.parametrize(
    "log, breached",
    [
        # the 6th at 09:40 is 100 min: a breach when an official saw it
        ({6: ("09:40", "official")}, [6]),
        # the same instant reported by the group only: not judged
        ({6: ("09:40", "group")}, []),
        # the group's report, then a referee's tap of the hole (it wins): judged
        ({6: ("09:40", "official")}, [6]),
        # 12th seen by an official, but the stretch began at a reported 6th: not judged
        ({6: ("09:20", "group"), 12: ("11:00", "official")}, []),
        # both ends seen by officials: the second stretch (100 min) is judged
        ({6: ("09:20", "official"), 12: ("11:00", "official")}, [12]),
        # the first stretch by an official, the 12th only reported: only the first judged
        ({6: ("09:40", "official"), 12: ("12:00", "group")}, [6]),
        # inferred from the group's positions (issue 48): not judged either
        ({6: ("09:40", "position")}, []),
        ({6: ("09:20", "position"), 12: ("11:00", "official")}, []),
    ],
)
def test_a_checkpoint_is_judged_only_on_an_officials_observation(log, breached):
    facts = RoundFacts(
        completions=tuple(
            HoleCompletion("A", hole, at(when), source) for hole, (when, source) in log.items()
        ),
        suspensions=(),
        credits=(),
        withdrawn={},
    )
    found = checkpoint_breaches(SETUP, facts, at("16:00"), MAURICIE)
    assert [b.after_hole for b in found] == breached


# -- the report: who saw the holes -------------------------------------------------------------


def test_the_report_counts_the_holes_by_source_and_compares_the_reports_with_the_taps():
    def hc(id, group, hole, minute, source=None):
        p = {"group": group, "hole": hole, **({"source": source} if source else {})}
        return Event(id, "hole_completed", "R", T + timedelta(minutes=minute), p)

    log = [
        hc("r1", "1", 1, 10, "group"),
        hc("m1", "1", 1, 8),  # the official saw it 2 minutes before the report
        hc("r2", "1", 2, 25, "group"),
        hc("r3", "1", 3, 25.5, "group"),  # a batch: 2 is left to the estimates
        hc("m4", "1", 4, 40),
        hc("r4", "1", 4, 39, "group"),  # a report a minute before the official's tap
        hc("r5", "2", 1, 12, "group"),
        hc("m5", "2", 1, 12),
        Event("v", "event_voided", "R", T, {"target": "m5", "reason": "wrong group"}),
    ]
    s = reported.sources(log, T + timedelta(hours=5))
    assert (s.official, s.group) == (2, 2)  # 1/1 and 1/4 officials; 1/3 and 2/1 groups
    assert s.group_share == 0.5
    assert sorted((g, h, d.total_seconds() / 60) for g, h, d in s.compared) == [
        ("1", 1, 2.0),
        ("1", 4, -1.0),
    ]

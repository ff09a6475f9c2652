"""Alerts on a round timed by the groups' own reports wait for the evidence that settles them
(issue 46; docs/status.md, "Groups' reports").

The live loop over a real SQLite file and a fake clock: a report that opens a batch raises
nothing (the next report, seconds later, proves only itself); a lone report waits out the batch
window; a report whose group ahead has not reported the hole yet waits for that report; a group
behind a silent one is judged against the group truly seen, with the starting interval between
the two.
"""

from __future__ import annotations

import tempfile
import uuid
from datetime import date
from pathlib import Path

import pytest

from pace import config
from pace.clock import FakeClock
from pace.rules.events import Event
from pace.services.live import LiveService
from pace.services.rounds import RoundService
from pace.store import open_store
from tests.builders import DAY, at, make_course, make_group

ROUND = "R"


def report(group: str, hole: int, when: str) -> Event:
    return Event(str(uuid.uuid4()), "hole_completed", ROUND, at(when),
                 {"group": group, "hole": hole, "source": "group"},
                 by={"role": "scorer", "device": "phone"})  # fmt: skip


class Round:
    """A live round of 2-balls (12 min a par 4, 9 a par 3, 15 a par 5) on a real store."""

    def __init__(self, folder: str, groups) -> None:
        cfg = config.Settings().replace(database={"path": str(Path(folder) / "pace.db")})
        self.store = open_store(cfg.database.path, synchronous="OFF")
        course = make_course(pars=[4, 3, 5, 4, 4, 3])
        self.store.save_course(course)
        self.store.create_round(ROUND, course=course.name, day=date(*DAY), timezone="UTC")
        self.store.save_draw(ROUND, groups)
        self.clock = FakeClock(at("07:30"))
        self.live = LiveService(RoundService(self.store, cfg, self.clock))
        self.live.snapshot(ROUND, self.clock.now())
        self.raised: list[dict] = []

    def send(self, e: Event, when: str | None = None) -> None:
        """The report reaches the server at ``when`` (default: its own instant)."""
        now = at(when) if when else e.at
        self.clock.set(now)
        self.live.append(e)
        self._heard(self.live.changes(ROUND, now))

    def tick(self, when: str) -> None:
        self.clock.set(at(when))
        self._heard(self.live.tick(ROUND, at(when)))

    def _heard(self, deltas) -> None:
        self.raised += [dict(d.data) for d in deltas if d.kind == "alert"]

    def out_of_position(self) -> list[tuple[str, int]]:
        return [(a["group"], a["hole"]) for a in self.raised if a["kind"] == "out_of_position"]


def test_a_report_that_opens_a_batch_raises_nothing():
    with tempfile.TemporaryDirectory() as tmp:
        r = Round(tmp, [make_group("A", "08:00", size=2)])
        # hole 1 entered at 08:20 (over by 8 min, read alone), hole 2 twenty seconds later:
        # the batch proves hole 2 only, on pace (21 min allotted)
        r.send(report("A", 1, "08:20:00"))
        assert r.out_of_position() == []
        r.send(report("A", 2, "08:20:20"))
        for when in ("08:21:00", "08:22:00", "08:25:00"):
            r.tick(when)
        assert r.out_of_position() == []


def test_a_lone_report_raises_its_alert_once_the_batch_window_has_passed():
    with tempfile.TemporaryDirectory() as tmp:
        r = Round(tmp, [make_group("A", "08:00", size=2)])
        r.send(report("A", 1, "08:20:00"))  # over by 8 min, more than the 3 min allowed
        r.tick("08:20:30")
        assert r.out_of_position() == []
        r.tick("08:21:01")
        assert r.out_of_position() == [("A", 1)]


def test_a_report_over_by_less_than_the_allowance_raises_nothing():
    with tempfile.TemporaryDirectory() as tmp:
        r = Round(tmp, [make_group("A", "08:00", size=2)])
        r.send(report("A", 1, "08:14:30"))  # 2.5 min over: the scorer may be that late
        r.tick("08:16:00")
        assert r.out_of_position() == []


def test_a_report_waits_for_the_group_ahead_to_report_the_hole():
    with tempfile.TemporaryDirectory() as tmp:
        groups = [make_group("A", "08:00", size=2), make_group("B", "08:10", size=2)]
        r = Round(tmp, groups)
        # B reports hole 1 at 08:28 (over by 6) before A reported it: read alone, B would be
        # judged as a lead group there
        r.send(report("B", 1, "08:28:00"))
        r.tick("08:30:00")
        assert r.out_of_position() == []
        # A's report comes, late: A holed out at 08:21, so B's gap is 7 min, within its 10
        r.send(report("A", 1, "08:21:00"), when="08:31:00")
        for when in ("08:33:00", "08:40:00", "09:00:00"):
            r.tick(when)
        assert ("B", 1) not in r.out_of_position()


SILENT_AHEAD = [
    make_group("Z", "07:50", size=2),
    make_group("A", "08:00", size=2),  # never reports
    make_group("B", "08:10", size=2),
]


@pytest.mark.parametrize(
    ("z_reports", "b_hole_1", "named"),
    [
        # B 18 min over at hole 1, 38 min behind Z (20 min between their starts): out of
        # position against the group seen, whatever A's estimate says
        ((("08:02:00", 1), ("08:11:00", 2), ("08:26:00", 3)), "08:40:00", True),
        # B 6 min over, 18 min behind Z: within the 20 min between them
        ((("08:10:00", 1),), "08:28:00", False),
    ],
)
def test_a_group_behind_a_silent_one_is_judged_against_the_group_truly_seen(
    z_reports, b_hole_1, named
):
    with tempfile.TemporaryDirectory() as tmp:
        r = Round(tmp, SILENT_AHEAD)
        for when, hole in z_reports:
            r.send(report("Z", hole, when))
        r.send(report("B", 1, b_hole_1))
        for when in ("08:45:00", "08:50:00", "09:00:00", "09:10:00"):
            r.tick(when)
        assert (("B", 1) in r.out_of_position()) is named


@pytest.mark.parametrize(
    ("b_hole_2", "tick", "named"),
    [
        # A left hole 2 unreported and reported hole 3 at 08:36 (the gap is read to Z, who
        # reported it at 08:13, against the 20 min between their starts); B reports hole 2 at 08:55,
        # 24 min over: its gap to A there is at least 08:55 - 3 min - 08:36 = 16 min, past
        # the 10 between their starts, so no report of A's can bring it back: raised once the
        # batch window has passed, not after the wait for A's report (till 09:16)
        ("08:55:00", "08:56:30", True),
        # B at 08:47: the bound (8 min) proves nothing, A's report of hole 2 may still say
        # B is within its interval: B waits
        ("08:47:00", "08:50:00", False),
    ],
)
def test_a_group_ahead_seen_at_a_later_hole_bounds_the_gap(b_hole_2, tick, named):
    with tempfile.TemporaryDirectory() as tmp:
        r = Round(tmp, SILENT_AHEAD)  # Z, A and B, every one reporting here
        r.send(report("Z", 1, "08:02:00"))
        r.send(report("A", 1, "08:12:00"))
        r.send(report("Z", 2, "08:13:00"))
        r.send(report("B", 1, "08:22:00"))
        r.send(report("A", 3, "08:36:00"))  # hole 2 forgotten
        r.send(report("B", 2, b_hole_2))
        r.tick(tick)
        assert (("B", 2) in r.out_of_position()) is named

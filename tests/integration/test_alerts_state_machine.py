"""Random sequences of the live commands and restarts keep the alerts and the rows equal to a
fresh process's (issue 37, "Alerts follow the log"), on SQLite and on PostgreSQL.

A Hypothesis state machine plays a small round (five groups, one of them off tee 5, nine
holes) through the live service in-process over a real store: taps as they happen, taps missed
and logged late with their instant, corrections, voids, changes on the day (a player retired, a
group's start moved), time credits, sirens, a referee's acts (timing decided and stopped, an
alert acknowledged), the clock moving on with the scheduler's tick, and restarts (a new process
over the same store). After every step the process's open alerts (key, kind, group) must be a
fresh process's after its one full look at the same instant (docs/protocol.md, "What a fresh
process holds"), and the dashboard page that heard the process's feed must hold exactly those
alerts, and the same rows as the fresh process's snapshot.
"""

from __future__ import annotations

import itertools
import os
import uuid
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from pace.clock import FakeClock
from pace.rules import changes as changesmod
from pace.rules import facts as factsmod
from pace.rules import refereeing as rr
from pace.rules.alerts import ALERT_ACKNOWLEDGED
from pace.rules.events import Event
from pace.store import open_store
from tests.builders import DAY, at, make_course, make_group
from tests.livefold import Process, fresh_look

ROUND = "R"
HOLES = 9
GROUPS = [
    make_group("1", "08:00", size=3),
    make_group("2", "08:10", size=3),
    make_group("3", "08:20", size=3),
    make_group("4", "08:30", size=3),
    make_group("5", "08:10", tee=5, size=3),
]
IDS = [g.id for g in GROUPS]
COURSE = make_course(pars=[4, 3, 5, 4, 4, 3, 5, 4, 4], allotted={h: 13 for h in range(1, 10)})
#: examples per engine (a PostgreSQL example costs about twice a SQLite one): about 30 s each
EXAMPLES = {"sqlite": 50, "postgresql": 25}
#: ``PACE_ALERT_MACHINE_EXAMPLES`` runs that many on each engine (a longer hunt)
LONGER = os.environ.get("PACE_ALERT_MACHINE_EXAMPLES")


def machine_settings(engine: str) -> settings:
    """Return the machine's Hypothesis settings on ``engine``."""
    return settings(
        max_examples=int(LONGER) if LONGER else EXAMPLES[engine],
        stateful_step_count=30,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


MARSHAL = {"role": "marshal", "device": "hole-phone"}
COMMITTEE = {"role": "committee", "name": "committee"}
REFEREE = {"role": "referee", "name": "referee"}


def shown(row: dict[str, Any], now: datetime) -> dict[str, Any]:
    """Return what a page shows of a row at ``now``: its status and holes, and each figure
    that grows with the clock worked out to ``now`` (as the dashboard's script does)."""
    minutes = (now - datetime.fromisoformat(row["at"])).total_seconds() / 60
    figures = {}
    for name in ("over_min", "gap_min"):
        value = row.get(name)
        if value is not None and name in row["moving"]:
            value += minutes
        figures[name] = None if value is None else round(value, 1)
    return {
        "status": row["status"],
        "hole": row["hole"],
        "holes": {h: (v["at"], v["id"]) for h, v in row["holes"].items()},
        "estimate": row.get("estimate"),
        **figures,
    }


class AlertsFollowTheLog(RuleBasedStateMachine):
    """The live loop against a fresh fold of its stored log, step after step."""

    #: where each example's store opens (a new SQLite file or PostgreSQL database each time)
    targets: Any = None

    def __init__(self) -> None:
        super().__init__()
        self.target, self.dispose = self.targets()
        self.store = open_store(self.target)
        self.store.save_course(COURSE)
        self.store.create_round(ROUND, course=COURSE.name, day=date(*DAY), timezone="UTC")
        self.store.save_draw(ROUND, GROUPS)
        self.clock = FakeClock(at("08:00"))
        self.process = Process(self.store, self.clock, ROUND)
        self.starts = {g.id: g.start for g in GROUPS}
        self.played: dict[str, list[datetime]] = {g: [] for g in IDS}  # the truth, in order
        self.missed: list[tuple[str, int, datetime]] = []
        self.taps: list[Event] = []  # logged taps and corrections (voidable)
        self.voidable: list[Event] = []
        self.retired: set[str] = set()
        self.timed: set[str] = set()
        self.stopped = False

    def teardown(self) -> None:
        self.store.close()
        self.dispose()

    def _event(self, type: str, payload: dict[str, Any], by: dict[str, Any],
               when: datetime | None = None) -> Event:  # fmt: skip
        event = Event(str(uuid.uuid4()), type, ROUND, when or self.clock.now(), payload, by=by)
        self.process.command(event)
        return event

    # -- the clock and the scheduler ---------------------------------------------------------

    @rule(minutes=st.integers(1, 20))
    def time_passes(self, minutes: int) -> None:
        self.clock.set(self.clock.now() + timedelta(minutes=minutes))
        self.process.feed(tick=True)

    @rule()
    def restart(self) -> None:
        self.process = Process(self.store, self.clock, ROUND)

    # -- the marshals -----------------------------------------------------------------------

    @rule(group=st.sampled_from(IDS), missed=st.booleans(), late=st.integers(0, 6))
    def tap(self, group: str, missed: bool, late: int) -> None:
        done = self.played[group]
        when = self.clock.now() - timedelta(minutes=late)
        last = done[-1] if done else self.starts[group]
        if len(done) >= HOLES or when <= last:
            return
        hole = len(done) + 1
        done.append(when)
        if missed:
            self.missed.append((group, hole, when))
            return
        e = self._event(factsmod.HOLE_COMPLETED, {"group": group, "hole": hole}, MARSHAL, when)
        self.taps.append(e)
        self.voidable.append(e)

    @precondition(lambda self: self.missed)
    @rule(data=st.data())
    def missed_tap_logged_late(self, data) -> None:
        group, hole, when = data.draw(st.sampled_from(self.missed))
        self.missed.remove((group, hole, when))
        e = self._event(factsmod.HOLE_COMPLETED, {"group": group, "hole": hole}, MARSHAL, when)
        self.taps.append(e)
        self.voidable.append(e)

    @precondition(lambda self: self.taps)
    @rule(data=st.data(), shift=st.integers(-8, 8).filter(bool))
    def correction(self, data, shift: int) -> None:
        target = data.draw(st.sampled_from(self.taps))
        while target.type == factsmod.HOLE_TIME_CORRECTED:
            target = next(t for t in self.taps if t.id == target.payload["target"])
        group = str(target.payload["group"])
        new = min(target.at + timedelta(minutes=shift), self.clock.now())
        new = max(new, self.starts[group] + timedelta(minutes=1))
        payload = {"target": target.id, "at": new.isoformat(), "reason": "wrong time"}
        e = self._event(factsmod.HOLE_TIME_CORRECTED, payload, MARSHAL)
        self.taps.append(e)
        self.voidable.append(e)

    @precondition(lambda self: self.voidable)
    @rule(data=st.data())
    def void(self, data) -> None:
        target = data.draw(st.sampled_from(self.voidable))
        self.voidable.remove(target)
        self._event(factsmod.EVENT_VOIDED, {"target": target.id, "reason": "slip"}, MARSHAL)

    # -- the committee ----------------------------------------------------------------------

    @rule(group=st.sampled_from(IDS))
    def player_retired(self, group: str) -> None:
        if group in self.retired:
            return
        self.retired.add(group)
        payload = {"group": group, "player": f"{group}3", "reason": changesmod.RETIRED}
        self._event(changesmod.PLAYER_WITHDRAWN, payload, COMMITTEE)

    @rule(group=st.sampled_from(IDS), minutes=st.integers(-5, 10))
    def start_moved(self, group: str, minutes: int) -> None:
        start = self.starts[group] + timedelta(minutes=minutes)
        if self.played[group] or start <= self.clock.now():
            return  # a group not yet off, to a start still ahead
        self.starts[group] = start
        payload = {"group": group, "start": start.isoformat(), "reason": "late arrival"}
        self._event(changesmod.GROUP_START_CHANGED, payload, COMMITTEE)

    @rule()
    def siren(self) -> None:
        self.stopped = not self.stopped
        kind = "suspension" if self.stopped else "resume"
        self._event(factsmod.SIREN, {"kind": kind}, COMMITTEE)

    # -- the referees -----------------------------------------------------------------------

    @rule(group=st.sampled_from(IDS), minutes=st.integers(1, 6))
    def time_credit(self, group: str, minutes: int) -> None:
        payload = {"group": group, "minutes": minutes, "reason": "ruling"}
        e = self._event(factsmod.TIME_CREDIT_GRANTED, payload, REFEREE)
        self.voidable.append(e)

    @rule(group=st.sampled_from(IDS))
    def timing(self, group: str) -> None:
        if group in self.timed:
            self.timed.discard(group)
            payload = {"group": group, "reason": "players told"}
            self._event(rr.TIMING_STOPPED, payload, REFEREE)
        else:
            self.timed.add(group)
            payload = {"group": group, "decision": "time", "reason": None, "note": ""}
            self._event(rr.TIMING_DECIDED, payload, REFEREE)

    @rule(data=st.data())
    def acknowledge(self, data) -> None:
        open_alerts = sorted(a[0] for a in self.process.open_alerts())
        if not open_alerts:
            return
        key = data.draw(st.sampled_from(open_alerts))
        self._event(ALERT_ACKNOWLEDGED, {"alert": key, "note": ""}, REFEREE)

    # -- what must hold ---------------------------------------------------------------------

    @invariant()
    def equals_a_fresh_process(self) -> None:
        now = self.clock.now()
        fresh = fresh_look(self.store, self.clock, ROUND)
        held = self.process.open_alerts()
        assert held == fresh.open_alerts()
        # the same as a process that never raised anything: the alerts the facts call for,
        # less those a referee acknowledged
        assert held == fresh_look(self.store, self.clock, ROUND, facts_only=True).open_alerts()
        assert set(self.process.page.alerts) == {key for key, _, _ in held}
        rows = {g: shown(r, now) for g, r in self.process.page.rows.items()}
        assert rows == {g: shown(r, now) for g, r in fresh.page.rows.items()}


def run(engine: str, targets) -> None:
    """Run the machine on ``engine``, each example's store from ``targets()`` (a target and
    its disposal)."""
    machine = type("Machine", (AlertsFollowTheLog,), {"targets": staticmethod(targets)})
    run_state_machine_as_test(machine, settings=machine_settings(engine))


def test_on_sqlite(tmp_path) -> None:
    numbers = itertools.count()

    def targets():
        return str(tmp_path / f"pace-{next(numbers)}.db"), lambda: None

    run("sqlite", targets)


def test_on_postgresql(postgres_server) -> None:
    def targets():
        url = postgres_server.database("machine")
        return url, lambda: postgres_server.drop(url)

    run("postgresql", targets)


pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")

"""The live state equals the whole-log fold after every event, changes on the day included
(issue 28).

Generated rounds on a real SQLite file mix taps, voids, credits and withdrawals with every
kind of change of the draw (withdrawals, late entries, moves, swaps, start and tee changes,
groups added and removed, and their voids), appended straight to the store: the fold must be
defined for any log, including changes a check would have refused. After every event the
live service's state (``LiveRounds``: rebuilt from the log on a change, incremental on a tap)
must give exactly what the whole-log functions give for ``pace.rules.changes.apply`` of the
imported draw and ``facts.fold`` of the log; and its feed must run (a change tells every row).
"""

from __future__ import annotations

import os
import tempfile
import uuid
from datetime import date, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pace import config
from pace.clock import FakeClock
from pace.rules import changes as changesmod
from pace.rules import facts as factsmod
from pace.rules import position
from pace.rules.events import Event
from pace.rules.fieldfold import FAR
from pace.services.live import LiveService
from pace.services.rounds import RoundService
from pace.services.state import PARTS
from pace.store import open_store
from tests.builders import DAY, at, make_course, make_group

FOLDS = settings(
    max_examples=int(os.environ.get("PACE_FOLD_EXAMPLES", "25")), deadline=None, database=None
)
ROUND = "R"
T0 = at("08:00")
GROUPS = [
    make_group("A", "08:00", size=3),
    make_group("B", "08:10", size=3),
    make_group("C", "08:20", size=2),
    make_group("D", "08:45", size=2),
    make_group("E", "08:00", tee=4, size=2),
]
IDS = ["A", "B", "C", "D", "E", "N"]
NAMES = [p.name for g in GROUPS for p in g.players] + ["L1", "N1"]


def event(type: str, seconds: int, payload: dict) -> Event:
    return Event(str(uuid.uuid4()), type, ROUND, T0 + timedelta(seconds=seconds), payload,
                 by={"role": "committee", "name": "test"})  # fmt: skip


@st.composite
def logs(draw):
    """Return (pars, events): a generated round's log, changes of the draw among its facts."""
    pars = draw(st.lists(st.integers(3, 5), min_size=6, max_size=6))
    events: list[Event] = []
    voidable: list[Event] = []
    clock = 0
    for _ in range(draw(st.integers(1, 30))):
        clock += draw(st.integers(0, 900))
        when = max(0, clock + draw(st.integers(-600, 0)))
        kind = draw(st.sampled_from(["tap"] * 6 + ["void", "credit", "withdraw_group"]
                                    + list(changesmod.KINDS) * 2))  # fmt: skip
        g, h = draw(st.sampled_from(IDS)), draw(st.sampled_from(IDS))
        player, other = draw(st.sampled_from(NAMES)), draw(st.sampled_from(NAMES))
        start = (T0 + timedelta(minutes=draw(st.integers(0, 90)))).isoformat()
        payload: dict
        if kind == "tap":
            kind, payload = "hole_completed", {"group": g, "hole": draw(st.integers(1, 6))}
        elif kind == "void":
            if not voidable:
                continue
            target = draw(st.sampled_from(voidable))
            voidable.remove(target)
            payload = {"target": target.id, "reason": "slip"}
            kind = "event_voided"
        elif kind == "credit":
            kind, payload = "time_credit_granted", {"group": g, "minutes": 5}
        elif kind == "withdraw_group":
            kind, payload = "group_withdrawn", {"group": g}
        elif kind == changesmod.PLAYER_WITHDRAWN:
            reason = draw(st.sampled_from(changesmod.WITHDRAWALS))
            payload = {"group": g, "player": player, "reason": reason}
        elif kind == changesmod.PLAYER_ADDED:
            payload = {"group": g, "player": {"name": "L1", "handicap": 10}}
        elif kind == changesmod.PLAYER_MOVED:
            payload = {"player": player, "from": g, "to": h}
        elif kind == changesmod.PLAYERS_SWAPPED:
            payload = {"group": g, "player": player, "other_group": h, "other": other}
        elif kind == changesmod.GROUP_START_CHANGED:
            payload = {"group": g, "start": start}
        elif kind == changesmod.GROUP_TEE_CHANGED:
            payload = {"group": g, "tee": draw(st.integers(1, 6))}
        elif kind == changesmod.GROUP_ADDED:
            payload = {"group": "N", "start": start, "tee": draw(st.integers(1, 6)),
                       "players": [{"name": "N1"}, {"name": "N2"}]}  # fmt: skip
        else:
            payload = {"group": g}
        e = event(kind, when, {**payload, "reason": payload.get("reason", "r")})
        events.append(e)
        if kind != "event_voided":
            voidable.append(e)
    return pars, events


def assert_live_equals_whole_log(live_service: LiveService, drawn, log, instants) -> None:
    state = live_service.live(ROUND, instants[-1])
    setup = changesmod.apply(drawn, log)
    plan = position.plan_field(setup)
    assert state.view.setup.groups == setup.groups
    assert state.view.plan == plan
    facts = factsmod.fold(log)
    assert state.field.facts() == facts
    for now in instants:
        field = position.evaluate_field(setup, facts, now, plan)
        evaluated = position.evaluations(setup, facts, now, plan)
        overs = position.hole_overs(setup, facts, now, plan)
        episodes = position.episodes(setup, facts, now, plan)
        for p in plan.groups:
            assert state.field.status(p.id, now) == field.group(p.id)
            assert state.field.evaluations(p.id, now) == evaluated[p.id]
            assert state.field.overs(p.id, now) == overs.get(p.id, {})
            assert state.field.episodes(p.id, now) == tuple(e for e in episodes if e.group == p.id)
    for p in plan.groups:
        assert state.field.evaluations(p.id) == position.evaluations(setup, facts, FAR, plan)[p.id]


@FOLDS
@given(logs(), st.lists(st.integers(0, 5 * 3600), min_size=1, max_size=2))
def test_the_live_state_equals_the_whole_log_fold_after_every_event_changes_included(case, checks):
    pars, events = case
    with tempfile.TemporaryDirectory() as tmp:
        cfg = config.Settings().replace(database={"path": str(Path(tmp) / "pace.db")})
        store = open_store(cfg.database.path, synchronous="OFF")
        try:
            course = make_course(pars=pars)
            store.save_course(course)
            store.create_round(ROUND, course=course.name, day=date(*DAY), timezone="UTC")
            store.save_draw(ROUND, GROUPS)
            clock = FakeClock(T0)
            service = RoundService(store, cfg, clock)
            live = LiveService(service)
            drawn = service.round_view(ROUND).setup
            for i, e in enumerate(events):
                clock.set(max(clock.now(), e.at))
                store.append(e, recorded_at=clock.now())
                log = events[: i + 1]
                instants = [*(T0 + timedelta(seconds=s) for s in checks), clock.now()]
                assert_live_equals_whole_log(live, drawn, log, instants)
                deltas = live.changes(ROUND, clock.now())
                if changesmod.is_change(e, {x.id: x for x in log}):
                    parts = [d.data for d in deltas if d.kind == PARTS and "groups" in d.data]
                    assert [r["group"] for r in parts[0]["groups"]] == [
                        g.id for g in changesmod.apply(drawn, log).groups
                    ]
        finally:
            store.close()

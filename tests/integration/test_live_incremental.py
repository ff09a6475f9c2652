"""A command judges again only what it may change, and the rows still equal a fresh fold
(issue 37, part 1; docs/performance.md, "Third pass").

The live loop keeps the missed taps' estimates group by group (``estimatesmod.Standing``) and
judges again only the groups a command touches: the tapped group, the groups whose gap reads
the tapped hole (those playing it, or that left it last), and those with a fact since the tap's
instant whose evaluations changed. Generated rounds (missed taps, late taps with their instant,
corrections, voids, credits, withdrawals, sirens) on a real SQLite file check, after every
command and tick, that the kept estimates are the whole field's (:func:`estimatesmod.find`)
and that the rows a page holds (the snapshot, then the row deltas) are those a fresh process
folding the same stored log shows. A 200-group round checks that a tap on a quiet field
evaluates a handful of groups, not the field.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pace import config
from pace.clock import FakeClock
from pace.rules.events import Event
from pace.services import estimates as estimatesmod
from pace.services.live import LiveService
from pace.services.rounds import RoundService
from pace.services.state import ROW
from pace.store import open_store
from tests.builders import DAY, at, make_course, make_group

EXAMPLES = settings(
    max_examples=int(os.environ.get("PACE_FOLD_EXAMPLES", "25")), deadline=None, database=None
)
ROUND = "R"
T0 = at("08:00")
GROUPS = [
    make_group("A", "08:00", size=3),
    make_group("B", "08:10", size=3),
    make_group("C", "08:20", size=2),
    make_group("D", "08:30", size=2),
    make_group("E", "08:00", tee=4, size=2),
    make_group("F", "08:10", tee=4, size=2),
]
IDS = [g.id for g in GROUPS]
#: what a row shows that the clock does not move (the moving minutes a page projects)
SHOWN = ("status", "holes_completed", "hole", "lead", "holes", "estimate", "due", "moving")
#: what the feed's rows must hold as a fresh fold does after every command and tick
FED = ("holes_completed", "holes", "estimate", "due")


def event(type: str, when: timedelta, payload: dict) -> Event:
    return Event(str(uuid.uuid4()), type, ROUND, T0 + when, payload,
                 by={"role": "marshal", "device": "test"})  # fmt: skip


@st.composite
def rounds(draw):
    """Return a generated round's log: each group's taps in its order with some missed, some
    logged late with their instant, and a few corrections, voids, credits, withdrawals and
    sirens among them, in the order they reach the server."""
    taps: list[tuple[timedelta, timedelta, str, int, bool]] = []  # (sent, instant, group, hole,
    # reported by the group)
    for n, g in enumerate(IDS):
        start = timedelta(minutes=10 * (n % 4))
        t = start
        for hole in range(1, 7):
            t += timedelta(minutes=draw(st.integers(9, 22)))
            fate = draw(st.sampled_from(["tap"] * 5 + ["missed", "late", "report"]))
            if fate == "missed":
                continue
            sent = t + (timedelta(minutes=draw(st.integers(5, 40))) if fate == "late" else
                        timedelta(0))  # fmt: skip
            if fate == "report":  # the group's own report, entered up to 3 min late (issue 46)
                t += timedelta(seconds=draw(st.integers(0, 180)))
                sent = t
            taps.append((sent, t, g, hole, fate == "report"))
    taps.sort()
    events: list[tuple[timedelta, Event]] = []
    for sent, t, g, hole, reported in taps:
        payload = {"group": g, "hole": hole, **({"source": "group"} if reported else {})}
        events.append((sent, event("hole_completed", t, payload)))
    extra = draw(st.lists(st.tuples(st.sampled_from(["correct", "void", "credit", "withdraw",
                                                     "siren"]),
                                    st.integers(0, len(events) - 1), st.sampled_from(IDS)),
                          max_size=4))  # fmt: skip
    for kind, i, g in extra:
        sent, target = events[i]
        if kind == "correct":
            when = target.at + timedelta(minutes=draw(st.integers(-5, 5)))
            e = event("hole_time_corrected", sent, {"target": target.id, "at": when.isoformat(),
                                                    "reason": "paper"})  # fmt: skip
            e = Event(e.id, e.type, e.round, T0 + sent, e.payload, e.by)
        elif kind == "void":
            e = event("event_voided", sent, {"target": target.id, "reason": "slip"})
        elif kind == "credit":
            e = event("time_credit_granted", sent, {"group": g, "minutes": 5, "reason": "r"})
        elif kind == "withdraw":
            e = event("group_withdrawn", sent, {"group": g, "reason": "r"})
        else:
            e = event("siren", sent, {"kind": draw(st.sampled_from(["suspension", "resumption"]))})
        events.append((sent + timedelta(seconds=1), e))
    events.sort(key=lambda x: x[0])
    return events


def open_round(tmp: str, groups=GROUPS):
    cfg = config.Settings().replace(database={"path": str(Path(tmp) / "pace.db")})
    store = open_store(cfg.database.path, synchronous="OFF")
    course = make_course(pars=[4, 3, 5, 4, 4, 3])
    store.save_course(course)
    store.create_round(ROUND, course=course.name, day=date(*DAY), timezone="UTC")
    store.save_draw(ROUND, groups)
    return cfg, store


#: the instant the quiet field's taps are in (:func:`quiet_field`)
QUIET_AT = at("10:00") + timedelta(seconds=30)


@contextmanager
def quiet_field() -> Iterator[tuple[config.Settings, Any, FakeClock, LiveService]]:
    """Open a round of 100 groups off tee 1 and 100 off tee 4 every 8 minutes from 08:00,
    each hole played in 13 minutes, every tap up to :data:`QUIET_AT` stored; yield its
    settings, store, clock and live service, ticked at :data:`QUIET_AT`."""

    def start(n: int) -> str:
        return f"{8 + n * 8 // 60:02d}:{n * 8 % 60:02d}"

    groups = [make_group(f"{prefix}{n:03d}", start(n), tee=tee, size=3)
              for tee, prefix in ((1, "G"), (4, "H")) for n in range(100)]  # fmt: skip
    orders = {1: [1, 2, 3, 4, 5, 6], 4: [4, 5, 6, 1, 2, 3]}
    with tempfile.TemporaryDirectory() as tmp:
        cfg, store = open_round(tmp, groups)
        try:
            for g in groups:
                for j, hole in enumerate(orders[g.tee]):
                    when = g.start + timedelta(minutes=13 * (j + 1))
                    if when > QUIET_AT:
                        break
                    e = event("hole_completed", when - T0, {"group": g.id, "hole": hole})
                    store.append(e, recorded_at=QUIET_AT)
            clock = FakeClock(QUIET_AT)
            live = LiveService(RoundService(store, cfg, clock))
            live.tick(ROUND, QUIET_AT)
            yield cfg, store, clock, live
        finally:
            store.close()


def shown(row: dict) -> dict:
    return {k: row.get(k) for k in SHOWN}


@EXAMPLES
@given(rounds())
def test_after_every_command_the_rows_equal_a_fresh_fold_and_the_estimates_the_whole_fields(
    events,
):
    with tempfile.TemporaryDirectory() as tmp:
        cfg, store = open_round(tmp)
        try:
            clock = FakeClock(T0)
            live = LiveService(RoundService(store, cfg, clock))
            held = {r["group"]: r for r in live.snapshot(ROUND)["groups"]}
            for sent, e in events:
                now = max(clock.now(), T0 + sent, e.at)
                clock.set(now)
                store.append(e, recorded_at=now)
                held.update({d.data["group"]: d.data for d in live.changes(ROUND, now)
                             if d.kind == ROW})  # fmt: skip
                # the command's own deltas hold what a fresh fold shows, before any tick (its
                # rows first, judged before the woken groups' estimates: issue 50)
                fresh = LiveService(RoundService(store, cfg, clock)).snapshot(ROUND, now)
                for row in fresh["groups"]:
                    g = row["group"]
                    assert {k: held[g].get(k) for k in FED} == {k: row.get(k) for k in FED}, (
                        "command", e.type, g)  # fmt: skip
                    if g == e.payload.get("group"):  # the command's own group: all it shows
                        assert shown(held[g]) == shown(row), ("command", e.type, g)
                held.update({d.data["group"]: d.data for d in live.tick(ROUND, now)
                             if d.kind == ROW})  # fmt: skip
                state = live.live(ROUND, now)
                kept = live._judged(state, now).estimates
                whole = estimatesmod.find(state, now)
                assert estimatesmod._signature(kept) == estimatesmod._signature(whole)
                fresh = LiveService(RoundService(store, cfg, clock)).snapshot(ROUND, now)
                mine = {r["group"]: r for r in live.snapshot(ROUND, now)["groups"]}
                for row in fresh["groups"]:
                    g = row["group"]
                    assert shown(mine[g]) == shown(row), (e.type, g)
                    # what the feed told (the moving minutes and a status the clock alone
                    # changes aside: the tick's, docs/protocol.md)
                    assert {k: held[g].get(k) for k in FED} == {k: row.get(k) for k in FED}, (
                        e.type, g)  # fmt: skip
        finally:
            store.close()


def test_a_tap_on_a_quiet_200_group_field_judges_its_group_and_those_on_its_hole_only():
    """100 groups off tee 1 and 100 off tee 4 every 8 minutes from 08:00; at 10:00 the first
    sixteen of each tee are out, every tap in (no estimate anywhere)."""

    now = QUIET_AT
    with quiet_field() as (cfg, store, clock, live):
        assert not live._judged(live.live(ROUND, now), now).estimates  # a quiet field
        judged: list[str] = []
        status = live._status

        def spy(state, group, when):
            judged.append(group)
            return status(state, group, when)

        live._status = spy  # type: ignore[method-assign]
        standing = live._standing[ROUND]
        worked = standing.worked
        now += timedelta(seconds=10)
        clock.set(now)
        tap = event("hole_completed", now - T0, {"group": "G012", "hole": 2})
        store.append(tap, recorded_at=now)
        live.changes(ROUND, now)
        # the tapped group, and those whose gap reads hole 2: G013 plays it behind G012;
        # H007 and H008 play it on the other tee (the gap is to whoever completed the hole
        # before, whatever the tee). G011 and H006 left hole 2 before G012 completed it:
        # their gaps read only the completions before their own, so the tap cannot move
        # them (nor, at the last hole, the groups that finished long ago)
        assert judged[0] == "G012" and len(set(judged)) == len(judged), judged
        assert set(judged) == {"G012", "G013", "H007", "H008"}, judged
        # the estimates: worked out again for those same groups (the fold moved their
        # version) and the groups ahead of G012 on its tee that read hole 2 (G011): not
        # the field's
        assert standing.worked - worked == len(judged) + 1, (standing.worked - worked, judged)


def test_a_taps_row_leaves_before_the_woken_groups_estimates_are_worked_out():
    """The same field twenty minutes on, with no tick meanwhile: the silence of most groups on
    the course passed their hole's allotment (their wake-up instants came). A tap's first
    stage, its own row, works out the tapped group's estimates and those it touches, not the
    woken groups'; these are worked out before the stages that follow (issue 50)."""

    now = QUIET_AT
    with quiet_field() as (cfg, store, clock, live):
        standing = live._standing[ROUND]
        worked = standing.worked
        now += timedelta(minutes=20)
        clock.set(now)
        assert standing._waiting(now)  # wake-up instants came
        tap = event("hole_completed", now - T0, {"group": "G012", "hole": 2})
        store.append(tap, recorded_at=now)
        stages = live.stages(ROUND, now)
        first = next(stages)
        assert [d.data["group"] for d in first if d.kind == ROW] == ["G012"]
        early = standing.worked - worked
        # G012, the groups whose gap reads hole 2 (their version moved: G013, H007,
        # H008) and the one ahead of G012 that reads it (G011), as on a quiet field
        assert early == 5, early
        rest = [d for stage in stages for d in stage]
        woken = standing.worked - worked - early
        assert woken >= 5, woken  # the groups whose wake-up came, worked out after
        assert not standing._waiting(now)
        # and the rows the stages sent are those a fresh fold shows
        fresh = LiveService(RoundService(store, cfg, clock)).snapshot(ROUND, now)
        sent = {d.data["group"]: d.data for d in (*first, *rest) if d.kind == ROW}
        for row in fresh["groups"]:
            if row["group"] in sent:
                assert shown(sent[row["group"]]) == shown(row), row["group"]

"""The live projection's 80 % ranges from the course's history (issue 30 part 3): the rows the
dashboard reads carry the range of the projected finish and of the hole a group is first over
time at, from the finished rounds of a real SQLite file; no history, no range."""

from __future__ import annotations

from datetime import datetime, timedelta

from pace.clock import FakeClock
from pace.demo import history as gh
from pace.rules.events import Event
from pace.services.live import LiveService
from pace.services.rounds import RoundService
from pace.store import open_store

TRUTH = gh.default_truth()


def today_round(store, first_day, logged: int, missed: tuple[str, int] | None = None):
    """Store a round in play on the generated course, each group's first ``logged`` holes
    logged but the ``missed`` (group, index in the order) tap; return its setup and facts (the
    whole round as it will be played)."""
    _, setup, facts = gh.generate(TRUTH, 1, 77, first_day=first_day)[0]
    store.create_round("Today", course="Generated", day=first_day.date(), timezone="UTC")
    store.save_draw("Today", setup.groups)
    order = setup.course.hole_numbers
    taps = [
        c
        for c in facts.completions
        if order.index(c.hole) < logged and (c.group, order.index(c.hole)) != missed
    ]
    events = [
        Event(f"t{i}", "hole_completed", "Today", c.at, {"group": c.group, "hole": c.hole})
        for i, c in enumerate(taps)
    ]
    store.append_many(events, recorded_at=max(c.at for c in taps))
    return setup, facts, max(c.at for c in taps)


def rows(settings, now) -> dict[str, dict]:
    service = RoundService(open_store(settings.database.path), settings, FakeClock(now))
    try:
        snapshot = LiveService(service).snapshot("Today", now)
    finally:
        service.store.close()
    return {r["group"]: r for r in snapshot["groups"]}


def test_the_rows_carry_the_ranges_from_the_history_and_they_hold_the_truth(settings):
    history = gh.generate(TRUTH, 8, 76, mess=gh.Mess(missed=0.02, siren=0.5))
    day = history[-1][1].groups[0].start + timedelta(days=7)
    with open_store(settings.database.path) as store:
        gh.store_rounds(store, history)
        setup, facts, last = today_round(store, day, logged=6)
    shown = rows(settings, last)
    inside = 0
    for g in setup.groups:
        row = shown[g.id]
        assert row["holes_completed"] == 6
        lo, hi = (datetime.fromisoformat(t) for t in row["finish_range"])
        assert last <= lo < hi
        # the point projection (the allotments) and the range (the history) are both shown
        assert row["projected_finish"] is not None
        finish = max(c.at for c in facts.completions if c.group == g.id)
        inside += lo <= finish <= hi
        if row["over_min"] is not None and row["over_min"] <= 0 and row["status"] == "on_pace":
            early, late = row["over_hole_range"]
            order = row["order"]
            assert early is None or early in order[6:]
            if early is not None and late is not None:
                assert order.index(early) <= order.index(late)
    # 15 groups, each inside its 80 % range about four times in five
    assert inside >= 9


def test_without_history_there_is_no_range(settings):
    with open_store(settings.database.path) as store:
        store.save_course(gh.course_for(TRUTH))
        _, _, last = today_round(store, datetime.fromisoformat("2026-07-04T07:30:00+00:00"), 3)
    for row in rows(settings, last).values():
        assert row["finish_range"] is None and row["over_hole_range"] is None


def test_a_history_stored_on_the_day_is_read_within_minutes(settings):
    from pace.services.calibration import SPREAD_RETRY, CalibrationService

    course = gh.course_for(TRUTH)
    store = open_store(settings.database.path)
    try:
        store.save_course(course)
        calibration = CalibrationService(RoundService(store, settings))
        now = datetime.fromisoformat("2026-09-01T08:00:00+00:00")
        assert not calibration.spread(course, now).ratios
        gh.store_rounds(store, gh.generate(TRUTH, 3, 8))
        # kept while fresh, read again once the retry has passed
        assert not calibration.spread(course, now + SPREAD_RETRY / 2).ratios
        assert calibration.spread(course, now + SPREAD_RETRY).ratios
    finally:
        store.close()


def test_a_missed_tap_leaves_the_range_after_the_last_hole_logged(settings):
    """A group whose sixth hole's tap is missing while the group behind has completed it
    (docs/estimates.md): its status counts the estimated hole, its range runs from its last
    real completion (the row was not drawn: a KeyError on the estimated hole)."""
    history = gh.generate(TRUTH, 8, 76)
    day = history[-1][1].groups[0].start + timedelta(days=7)
    first = "1"
    with open_store(settings.database.path) as store:
        gh.store_rounds(store, history)
        setup, _, last = today_round(store, day, logged=6, missed=(first, 5))
    assert setup.groups[0].id == first
    shown = rows(settings, last)[first]
    lo, hi = (datetime.fromisoformat(t) for t in shown["finish_range"])
    assert last <= lo < hi
    assert rows(settings, last)[setup.groups[1].id]["finish_range"] is not None


def test_a_round_in_play_is_read_again_only_from_its_last_event_and_counts_once_finished(
    settings,
):
    # the scheduler asks for the finished rounds at every tick while a course has no history:
    # the round in play, whose log grows at every tap, is read from where it was (issue 37)
    from pace.services.calibration import CalibrationService

    store = open_store(settings.database.path)
    try:
        store.save_course(gh.course_for(TRUTH))
        setup, facts, _ = today_round(store, datetime.fromisoformat("2026-07-04T07:30:00+00:00"),
                                      logged=17)  # fmt: skip
        calibration = CalibrationService(RoundService(store, settings))
        read: list[int] = []
        events = store.events

        def counted(round, **kw):
            out = events(round, **kw)
            if "hole_completed" in (kw.get("types") or ()):  # (not the draw's changes read)
                read.append(len(out))
            return out

        store.events = counted  # type: ignore[method-assign]
        assert calibration.finished_rounds("Generated") == []
        assert calibration.finished_rounds("Generated") == []  # nothing new: nothing read
        assert read == [15 * 17]
        last = [c for c in facts.completions if c.hole == setup.course.hole_numbers[-1]]
        store.append_many(
            [Event(f"last{i}", "hole_completed", "Today", c.at, {"group": c.group, "hole": c.hole})
             for i, c in enumerate(last)],
            recorded_at=max(c.at for c in last),
        )  # fmt: skip
        [(name, _, finished)] = calibration.finished_rounds("Generated")
        assert read == [15 * 17, 15]  # only the last holes' taps read
        assert name == "Today" and len(finished.completions) == 15 * 18
    finally:
        store.close()

"""A round's life folded from its log (pace.rules.life, issue 28): the stages, the lock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pace.rules import life
from pace.rules.events import Event

T0 = datetime(2026, 6, 14, 6, 0, tzinfo=UTC)
BY = {"role": "committee", "name": "Jane"}


def ev(n: int, type: str, minutes: float, **payload: object) -> Event:
    return Event(f"e{n}", type, "R1", T0 + timedelta(minutes=minutes), payload, BY)


def test_planned_in_play_finished_final_reopened():
    start = T0 + timedelta(minutes=30)
    assert life.stage(life.fold([]), T0, start, False) == life.PLANNED
    assert life.stage(life.fold([]), start, start, False) == life.IN_PLAY
    tapped = [ev(1, "hole_completed", 10, group="1", hole=1)]
    assert life.fold(tapped).first_play == T0 + timedelta(minutes=10)
    assert life.stage(life.fold(tapped), T0 + timedelta(minutes=11), start, False) == "in_play"
    # the last group's last hole logged: finished without the committee's act
    assert life.stage(life.fold(tapped), T0, start, True) == life.FINISHED
    log = [*tapped, ev(2, life.ROUND_FINISHED, 300), ev(3, life.RESULTS_FINALISED, 320)]
    folded = life.fold(log)
    assert life.stage(folded, T0, start, False) == life.FINAL
    assert folded.final is not None and folded.final.who == "Jane"
    log.append(ev(4, life.RESULTS_REOPENED, 330, reason="late card"))
    folded = life.fold(log)
    assert life.stage(folded, T0, start, False) == life.FINISHED
    assert [a.reason for a in folded.reopened] == ["late card"]
    log.append(ev(5, life.RESULTS_FINALISED, 340))
    assert life.fold(log).final.id == "e5"


@pytest.mark.parametrize("kind", sorted(life.LOCKED))
def test_every_locked_fact_and_its_void_is_locked_only_while_final(kind):
    fact = ev(9, kind, 1, group="1")
    void = ev(10, "event_voided", 2, target="e9", reason="slip")
    final = life.fold([ev(1, life.ROUND_FINISHED, 0), ev(2, life.RESULTS_FINALISED, 0)])
    assert life.is_locked(final, fact) and life.is_locked(final, void, fact)
    reopened = life.fold([ev(2, life.RESULTS_FINALISED, 0), ev(3, life.RESULTS_REOPENED, 1)])
    assert not life.is_locked(reopened, fact) and not life.is_locked(reopened, void, fact)


def test_alerts_stay_open_after_final():
    final = life.fold([ev(2, life.RESULTS_FINALISED, 0)])
    assert not life.is_locked(final, ev(3, "alert_acknowledged", 1, key="k"))
    raised = ev(4, "alert_raised", 1, key="k")
    assert not life.is_locked(final, ev(5, "event_voided", 2, target="e4"), raised)

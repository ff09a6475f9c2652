"""What the broadcaster emits for a command, and when the hub yields (pace/web/broadcast.py).

The order pages hear is checked over the wire in tests/e2e/test_live.py; here, with a
socketio that only records, when the emitting greenlet lets the pages' writers run.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pace.rules.events import Event
from pace.services.commands import Outcome
from pace.services.state import ALERT, ROW, Delta
from pace.web.broadcast import Broadcaster

ROUND = "R1"


class Recorder:
    """A Flask-SocketIO stand-in: the emits and the yields, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []

    def emit(self, name: str, data: Any, to: Any = None) -> None:
        self.calls.append(("emit", name))

    def sleep(self, seconds: float) -> None:
        self.calls.append(("yield",))


def tap(created: bool = True) -> Outcome:
    at = datetime(2026, 6, 14, 9, 0, tzinfo=UTC)
    e = Event("e1", "hole_completed", ROUND, at, {"group": "1", "hole": 1}, seq=1, recorded_at=at)
    return Outcome(e, created)


def stages(round: str):
    yield (Delta(ROW, 1, {"group": "1"}), Delta(ROW, 2, {"group": "2"}))
    yield (Delta(ALERT, 3, {"kind": "out_of_position", "group": "2", "key": "k"}),)


def test_a_taps_event_and_its_rows_leave_together_then_each_stage_yields():
    # no page renders hole_logged: the rows must not wait for every page to be sent it
    socketio = Recorder()
    Broadcaster(socketio).outcome(tap(), stages)
    assert socketio.calls == [
        ("emit", "hole_logged"),
        ("emit", "group_updated"),
        ("emit", "group_updated"),
        ("yield",),
        ("emit", "alert_raised"),
        ("yield",),
    ]


def test_a_resend_announces_nothing():
    socketio = Recorder()
    Broadcaster(socketio).outcome(tap(created=False), stages)
    assert socketio.calls == []

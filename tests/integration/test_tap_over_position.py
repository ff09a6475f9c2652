"""An official's tap of a hole the group's positions completed counts over it (issue 48;
docs/positions.md "Readings", docs/status.md): it is taken, not refused ``already_logged``.

Found by ``bench/bench_latency.py --positions``: a marshal tapping a hole after the group's
phones had completed it was refused, so the tap that should win was lost.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from drivers import ROUND, local
from flask import Flask
from positioned import positions_app

from pace.app import close_app
from pace.clock import FakeClock
from pace.rules.events import Event
from pace.services import commands as cmd
from pace.services.commands import CommandError


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = positions_app(tmp_path, FakeClock(local("09:00")), mapped=False, allowed=False)
    try:
        yield app
    finally:
        close_app(app)


def inferred(app: Flask, group: str, hole: int, earliest: str, latest: str) -> None:
    """Store a completion inferred from the group's positions, as the positions' service does."""
    lo, hi = local(earliest), local(latest)
    app.extensions["pace"].live.append(Event(
        str(uuid.uuid4()), "hole_completed", ROUND, lo + (hi - lo) / 2,
        {"group": group, "hole": hole, "source": "position", "earliest": lo.isoformat(),
         "latest": hi.isoformat()},
        {"role": "positions", "device": "phone-1"},
    ))  # fmt: skip


def tap(app: Flask, group: str, hole: int, at: str) -> None:
    app.extensions["pace"].taps.log_hole_completed(cmd.LogHoleCompleted(
        str(uuid.uuid4()), ROUND, group, hole, cmd.DeviceTime(local(at)),
        cmd.Author("marshal", "m1")))  # fmt: skip


def test_a_marshals_tap_of_a_hole_the_positions_completed_counts_over_them(app):
    inferred(app, "1", 1, "08:13", "08:16")
    live = app.extensions["pace"].live
    assert live.live(ROUND).field.source("1", 1) == "position"
    tap(app, "1", 1, "08:14")
    field = live.live(ROUND).field
    assert field.source("1", 1) == "official"
    assert field.done("1")[1] == local("08:14")
    # the official's tap is logged once: a second one is refused as before
    with pytest.raises(CommandError) as refused:
        tap(app, "1", 1, "08:15")
    assert refused.value.code == "already_logged"

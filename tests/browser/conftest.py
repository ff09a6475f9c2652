"""Browser tests: Playwright drives Debian's Chromium against a real ``pace serve``.

Never run ``playwright install``: its download is unreachable here (TECH-NOTES.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest
from livesupport import TIMEZONE, LiveServer, live_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch Debian's Chromium instead of a Playwright download."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def local_today(hour: int, minute: int = 0) -> datetime:
    """Return today's ``hour:minute`` in the test round's time zone."""
    tz = ZoneInfo(TIMEZONE)
    return datetime.combine(datetime.now(tz).date(), time(hour, minute), tzinfo=tz)


@pytest.fixture
def today_at():
    """Return a function giving today's ``hour:minute`` in the round's time zone."""
    return local_today


@pytest.fixture
def server(tmp_path) -> Iterator[LiveServer]:
    """A real ``pace serve`` with round R1 for today, its clock starting at noon.

    The server's clock is set to noon so every group of the draw (08:00–08:50) has
    started whatever the hour the tests run; the browser keeps the real clock, so each
    tap also goes through the server's correction of the device's clock.
    """
    origin = local_today(12).isoformat()
    with live_server(tmp_path, extra_args=["--clock-origin", origin, "--tick", "0.2"]) as s:
        yield s

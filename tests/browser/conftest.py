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


def sign_in(context, server: LiveServer, role: str = "committee") -> None:
    """Open a session for ``role`` in ``context`` the way people do: a /join?code=... link."""
    page = context.new_page()
    page.goto(f"{server.url}/join?code={server.code(role)}")
    assert page.url.rstrip("/") == server.url, f"signing in as {role} failed: {page.url}"
    page.close()


@pytest.fixture
def new_context(new_context, server):
    """Wrap pytest-playwright's ``new_context``: every context is signed in as the committee
    (it may open every page), once, through ``/join?code=...``."""

    def make(**kwargs):
        context = new_context(**kwargs)
        sign_in(context, server)
        return context

    return make

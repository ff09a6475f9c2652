"""Browser tests: Playwright drives Debian's Chromium against a real ``pace serve``.

Never run ``playwright install``: its download is unreachable here (docs/testing.md,
"Browser tests").
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from datetime import datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from livesupport import TIMEZONE, LiveServer, live_server, setup_round

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


@pytest.fixture(scope="session")
def fresh_round(tmp_path_factory) -> Callable[[Path], Path]:
    """Return a function writing ``pace.db`` with round R1 for today into a folder.

    The database is made once a day through the command line (``pace import course``, then
    ``pace import draw``: two Python start-ups), then copied for each test: a copy of the file
    the same commands would write, so every test still starts from its own database.
    """
    made: dict[str, Path] = {}

    def fresh(folder: Path) -> Path:
        day = local_today(0).date().isoformat()
        if day not in made:
            made[day] = Path(setup_round(tmp_path_factory.mktemp(f"round-{day}"), day=day))
        db = folder / "pace.db"
        shutil.copyfile(made[day], db)
        return db

    return fresh


@pytest.fixture
def server(tmp_path, fresh_round) -> Iterator[LiveServer]:
    """A real ``pace serve`` with round R1 for today, its clock starting at noon.

    The server's clock is set to noon so every group of the draw (08:00–08:50) has
    started whatever the hour the tests run; the browser keeps the real clock, so each
    tap also goes through the server's correction of the device's clock.
    """
    origin = local_today(12).isoformat()
    args = ["--clock-origin", origin, "--tick", "0.2"]
    with live_server(tmp_path, db=fresh_round(tmp_path), extra_args=args) as s:
        yield s


def sign_in(context, server: LiveServer, role: str = "committee", code: str | None = None) -> None:
    """Open a session for ``role`` in ``context`` the way people do: a /join?code=... link
    (``code``, or a new one made with ``pace access code``)."""
    page = context.new_page()
    page.goto(f"{server.url}/join?code={code or server.code(role)}")
    assert page.url.rstrip("/") == server.url, f"signing in as {role} failed: {page.url}"
    page.close()


@pytest.fixture
def new_context(new_context, server):
    """Wrap pytest-playwright's ``new_context``: every context is signed in as the committee
    (it may open every page), once, through ``/join?code=...``.

    The test's contexts share one committee code (a code opens sessions all its round's day,
    docs/access.md): making it is a ``pace access code`` process, a second each; every context
    still opens a session of its own with it."""
    codes: dict[str, str] = {}

    def make(**kwargs):
        context = new_context(**kwargs)
        if "committee" not in codes:
            codes["committee"] = server.code("committee")
        sign_in(context, server, code=codes["committee"])
        return context

    return make

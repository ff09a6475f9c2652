"""Shared fixtures: settings on a tmp database, the app on a FakeClock, HTTP and socket clients.

The app is built in threading mode and driven through Flask's and Flask-SocketIO's test
clients, which run handlers synchronously (docs/testing.md, "The two kinds of client": never
mix them with real clients). Round ``R1`` is set up from ``tests/data/formats`` on ``DAY``:
group "1" starts 08:00 Europe/Brussels from tee 1 and is the lead group. The clock starts at
09:10 local and moves only when a test says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

pytest.register_assert_rewrite("drivers", "tests.drivers")

import engines  # noqa: E402
import livesupport  # noqa: E402,F401  (child processes run this checkout's code)
from drivers import COURSE, DAY, DRAW, ROUND, TIMEZONE, local  # noqa: E402
from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from flask_socketio.test_client import SocketIOTestClient  # noqa: E402

from pace import config  # noqa: E402
from pace.app import SCHEDULER, close_app, create_app  # noqa: E402
from pace.clock import FakeClock  # noqa: E402


@pytest.fixture
def settings(tmp_path) -> config.Settings:
    """Return default settings with a fresh database file and the threading async mode."""
    return config.Settings().replace(
        server={"async_mode": "threading"},
        database={"path": str(tmp_path / "pace.db")},
        scheduler={"enabled": False},
    )


@pytest.fixture
def clock() -> FakeClock:
    """Return the server's clock: 09:10 local on the round's day, moved only by the test."""
    return FakeClock(local("09:10"))


@pytest.fixture
def app(settings, clock) -> Iterator[Flask]:
    """Return the app with round ``R1`` (course Louiseville, six groups) set up; close it after."""
    app = create_app(settings, clock=clock, testing=True)
    service = app.extensions["pace"].live.service
    service.import_course(COURSE.read_text(encoding="utf-8"), str(COURSE))
    service.import_draw(
        DRAW.read_text(encoding="utf-8"), str(DRAW), round=ROUND, day=DAY, timezone=TIMEZONE
    )
    try:
        yield app
    finally:
        close_app(app)
        assert SCHEDULER not in app.extensions, "the scheduler was left running"
        assert app.extensions["pace"].store.closed, "the database was left open"


@pytest.fixture
def grant(app) -> Callable[..., str]:
    """Return a function opening a session for ``role`` (on round R1 by default): its token.

    ``grant("marshal")``; ``grant("committee", round=None)`` for the committee account.
    """

    def make(role: str, round: str | None = ROUND, name: str | None = None) -> str:
        return app.extensions["pace"].access.grant(role, round, name).token

    return make


@pytest.fixture
def login(app, grant) -> Callable[..., FlaskClient]:
    """Return a function giving a new HTTP test client signed in as ``role`` (None: nobody)."""

    def make(role: str | None, round: str | None = ROUND) -> FlaskClient:
        c = app.test_client()
        if role is not None:
            token = grant(role, round)
            with c.session_transaction() as s:
                s["token"] = token
        return c

    return make


@pytest.fixture
def client(login) -> FlaskClient:
    """Return Flask's test client for the app, signed in as the committee (every round)."""
    return login("committee", None)


@pytest.fixture
def connect(app, grant) -> Iterator[Callable[..., SocketIOTestClient]]:
    """Return a factory of socket test clients, e.g. ``connect("referee", round="S1")``.

    Each client has a session of its role (``auth={"token": ...}``; role ``None``: no
    session) and is disconnected after the test.
    """
    opened: list[SocketIOTestClient] = []

    def make(
        role: str | None = "marshal",
        device: str | None = None,
        round: str | None = ROUND,
        **auth: object,
    ):
        socketio = app.extensions["pace"].socketio
        if role is not None and "token" not in auth:
            auth["token"] = grant(role, round)
        c = socketio.test_client(
            app,
            auth={"device": device or f"{role}-{len(opened) + 1}", **auth},
        )
        opened.append(c)
        assert c.is_connected(), "the server refused the socket connection"
        return c

    yield make
    for c in opened:
        if c.is_connected():
            c.disconnect()
        # the test client keeps every instance in a class-level registry
        SocketIOTestClient.clients.pop(c.eio_sid, None)


@pytest.fixture
def sio(connect) -> SocketIOTestClient:
    """Return a marshal's socket test client."""
    return connect("marshal", "marshal-phone")


# -- the real engines: PostgreSQL and Redis (tests/engines.py) --------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[engines.PostgresServer]:
    """Return a PostgreSQL cluster started for this test session (skip, saying why, if none)."""
    try:
        server = engines.start_postgres()
    except engines.EngineUnavailable as e:
        pytest.skip(f"PostgreSQL cannot start here: {e}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(postgres_server) -> Iterator[str]:
    """Return the URL of a new, empty PostgreSQL database (dropped after the test)."""
    url = postgres_server.database()
    try:
        yield url
    finally:
        postgres_server.drop(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request, tmp_path) -> str:
    """Return where a store opens, on each engine: a SQLite file path, a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "data" / "pace.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def redis_url() -> Iterator[str]:
    """Return the URL of a redis-server started for this test (skip, saying why, if none)."""
    try:
        server = engines.start_redis()
    except engines.EngineUnavailable as e:
        pytest.skip(f"Redis cannot start here: {e}")
    try:
        yield server.url
    finally:
        server.stop()


# -- the order the workers take the files in (docs/testing.md) ---------------------------------

#: seconds each costly file took in a whole run on a quiet 2-core machine (two workers), the
#: others counted at a tenth of a second a test: the files go to the workers costliest first,
#: so none of them is left for last while the other worker waits (longest first, the classic
#: rule for balancing jobs over machines). A stale figure only costs balance, never a test.
FILE_SECONDS = {
    "tests/browser/test_accessibility.py": 345,
    "tests/browser/test_every_page_translated.py": 90,
    "tests/security/test_hostile_changes.py": 146,
    "tests/security/test_matrix.py": 143,
    "tests/e2e/test_crash.py": 97,
    "tests/integration/test_fuzz.py": 97,
    "tests/integration/test_alerts_state_machine.py": 60,
    "tests/browser/test_shotclock.py": 68,
    "tests/browser/test_pages.py": 60,
    "tests/e2e/test_partition.py": 52,
    "tests/integration/test_access.py": 45,
    "tests/security/test_hostile.py": 42,
    "tests/security/test_hostile_tees.py": 20,
    "tests/browser/test_deltas.py": 35,
    "tests/integration/test_live_incremental.py": 35,
    "tests/e2e/test_cluster.py": 32,
    "tests/browser/test_results_sheet.py": 30,
    "tests/e2e/test_demo_cast.py": 27,
    "tests/e2e/test_positions_privacy.py": 35,
    "tests/browser/test_scoring.py": 27,
    "tests/browser/test_demo_clock.py": 27,
    "tests/browser/test_console.py": 25,
    "tests/browser/test_console_forms.py": 20,
    "tests/browser/test_holdup_why.py": 20,
    "tests/browser/test_dashboard_penalties.py": 12,
    "tests/browser/test_dashboard_alerts.py": 30,
    "tests/integration/test_alerts_follow_the_log.py": 20,
    "tests/e2e/test_referee_spells_live.py": 23,
    "tests/browser/test_layout_shift.py": 22,
    "tests/browser/test_tees.py": 22,
    "tests/e2e/test_https_front.py": 21,
    "tests/browser/test_demo_walk.py": 20,
    "tests/browser/test_report.py": 17,
    "tests/browser/test_languages.py": 15,
    "tests/integration/test_dutch_documents.py": 8,
    "tests/browser/test_course_strip.py": 20,
    "tests/browser/test_course_map.py": 20,
    "tests/security/test_hostile_maps.py": 12,
    "tests/browser/test_strip_picture.py": 40,
    "tests/integration/test_results_sheet.py": 8,
    "tests/e2e/test_group_reports.py": 8,
    "tests/browser/test_group_reports.py": 10,
    "tests/browser/test_start_list_nl.py": 6,
    "tests/e2e/test_demo_groups.py": 20,
    "tests/browser/test_phone_pages.py": 25,
    "tests/browser/test_clubs_pages.py": 25,
}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the files costliest first (``FILE_SECONDS``), each file's tests as they were.

    With ``--dist loadfile --no-loadscope-reorder`` (pyproject's addopts) pytest-xdist hands
    the files to its workers in this order; both workers collect the same order.
    """
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def cost(path: str) -> float:
        return FILE_SECONDS.get(path, 0.1 * len(files[path]))

    ordered = sorted(files, key=lambda path: -cost(path))  # stable: ties keep their order
    items[:] = [item for path in ordered for item in files[path]]


#: how much of a served process's log a failed test shows
LOG_TAIL = 120


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Add the tail of each ``pace serve`` log a failed test used (``livesupport.LiveServer``)
    to its report: a failure that does not come again (a race under CI's load) keeps the
    server's side of it, which the test's folder, removed with the clone, would not."""
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    for name, value in getattr(item, "funcargs", {}).items():
        if not isinstance(value, livesupport.LiveServer) or not value.log.exists():
            continue
        lines = value.log.read_text(errors="replace").splitlines()[-LOG_TAIL:]
        report.sections.append((f"pace serve log ({name}, last {len(lines)} lines)",
                                "\n".join(lines)))  # fmt: skip

"""The composition root: ``create_app`` wires settings, store, services and the web adapter."""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request
from flask_socketio import SocketIO

from pace import config
from pace.clock import Clock, SystemClock
from pace.rules.errors import PaceError
from pace.services.access import AccessService
from pace.services.referees import RefereeService
from pace.services.reports import HoldUpPanel
from pace.services.rounds import PaceService
from pace.services.taps import LiveService
from pace.store import Store
from pace.web import access, audit, errors, http, referee, reports
from pace.web.broadcast import Broadcaster
from pace.web.report_jobs import ReportJobs
from pace.web.sockets import PaceNamespace
from pace.web.timesync import ClockOffsets

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Extension:
    """What the app holds at ``app.extensions["pace"]``."""

    settings: config.Settings
    store: Store
    live: LiveService
    broadcaster: Broadcaster
    namespace: PaceNamespace
    socketio: SocketIO
    scheduler: Any = None
    referee: RefereeService | None = None
    referee_broadcaster: referee.RefereeBroadcaster | None = None
    access: AccessService | None = None
    report_jobs: ReportJobs | None = None


def create_app(
    settings: config.Settings | None = None,
    *,
    clock: Clock | None = None,
    testing: bool = False,
) -> Flask:
    """Build the Flask app, its SocketIO server and its services; start nothing.

    ``settings`` defaults to ``config.load()``; tests pass their own, with a database under
    ``tmp_path`` and ``async_mode = "threading"``.
    """
    settings = settings or config.load()
    app = Flask(
        __name__, static_folder=str(ROOT / "static"), template_folder=str(ROOT / "templates")
    )
    app.config["TESTING"] = testing
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]

    store = Store.open(settings.database.path, synchronous=settings.database.synchronous)
    # the key signing session cookies: from the environment, else made once and kept in the
    # database, so sessions survive a restart (docs/access.md)
    app.config["SECRET_KEY"] = os.environ.get("PACE_SECRET_KEY") or store.secret(
        "flask_secret_key", make=lambda: secrets.token_hex(32)
    )
    service = PaceService(store, settings, clock or SystemClock())
    access_service = AccessService(store, settings, service.clock)
    live = LiveService(service)
    referees = RefereeService(live)
    HoldUpPanel(live)
    socketio = SocketIO(
        app,
        async_mode=settings.server.async_mode,
        cors_allowed_origins=[],
        json=app.json,
        logger=False,
        engineio_logger=False,
    )
    broadcaster = Broadcaster(socketio)
    offsets = ClockOffsets()
    namespace = PaceNamespace(live, broadcaster, offsets, access_service)
    referee_broadcaster = referee.RefereeBroadcaster(socketio, broadcaster)
    namespace.attach_referee(referees, referee_broadcaster)
    socketio.on_namespace(namespace)

    @socketio.on_error_default
    def socket_error(e: BaseException) -> dict[str, Any]:
        return errors.from_exception(
            e, context=f"socket event {getattr(request, 'event', None)!r}", testing=testing
        )

    @app.errorhandler(PaceError)
    def http_error(e: PaceError) -> Any:
        body = errors.from_exception(e, context=request.path, testing=testing)
        return jsonify(body), errors.http_status(body)

    @app.errorhandler(404)
    def not_found(e: Any) -> Any:
        body = errors.error_body("not_found", f"no page at {request.path}")
        return jsonify(body), 404

    @app.errorhandler(405)
    def wrong_method(e: Any) -> Any:
        body = errors.error_body("method_not_allowed", f"{request.method} is not allowed here")
        return jsonify(body), 405

    app.before_request(access.guard_request)
    app.context_processor(access.template_globals)
    app.register_blueprint(http.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(access.bp)
    app.register_blueprint(audit.bp)
    app.register_blueprint(reports.bp)
    app.extensions["pace"] = Extension(
        settings,
        store,
        live,
        broadcaster,
        namespace,
        socketio,
        referee=referees,
        referee_broadcaster=referee_broadcaster,
        access=access_service,
        report_jobs=ReportJobs(
            str(settings.database.path), settings.source, socketio.start_background_task
        ),
    )
    return app


def start_scheduler(app: Flask) -> Any:
    """Start the scheduler of this serving process; return it (call once)."""
    from pace.scheduler import PaceScheduler

    ext: Extension = app.extensions["pace"]
    scheduler = PaceScheduler(
        ext.live,
        ext.broadcaster,
        tick_seconds=ext.settings.scheduler.tick_seconds,
        probe=ext.namespace.probe_clocks,
        after_tick=tick_announcer(ext),
    )
    scheduler.start()
    ext.scheduler = scheduler
    return scheduler


def tick_announcer(ext: Extension) -> Any:
    """Return what the scheduler calls after each tick: the referees' announcements."""
    referees, announcer = ext.referee, ext.referee_broadcaster
    if referees is None or announcer is None:
        return None

    def announce(round: str, alerts: Any) -> None:
        announcer.after_tick(round, alerts, referees.changed_penalties)

    return announce


def close_app(app: Flask) -> None:
    """Stop the scheduler and close the database."""
    ext: Extension = app.extensions["pace"]
    if ext.scheduler is not None:
        ext.scheduler.shutdown()
        ext.scheduler = None
    if ext.report_jobs is not None:
        ext.report_jobs.close()
    ext.store.close()


def configure_logging() -> None:
    """Log at INFO for pace, without a line per scheduler tick or per HTTP request."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    logging.getLogger("geventwebsocket.handler").setLevel(logging.WARNING)


def run_server(app: Flask) -> None:
    """Serve ``app`` on its configured host and port until interrupted (blocks)."""
    ext: Extension = app.extensions["pace"]
    server = ext.settings.server
    kwargs: dict[str, Any] = {"host": server.host, "port": server.port, "log_output": False}
    if server.async_mode == "threading":
        kwargs["allow_unsafe_werkzeug"] = True
    ext.socketio.run(app, **kwargs)


def serve(settings: config.Settings, *, clock: Clock | None = None, banner: str = "") -> None:
    """Serve the app until interrupted: the pages, Socket.IO and the scheduler."""
    configure_logging()
    app = create_app(settings, clock=clock)
    ext: Extension = app.extensions["pace"]
    secret = ext.access.ensure_committee_account() if ext.access else None
    if secret is not None:
        print(
            f"committee secret: {secret}\n"
            "  shown this once and stored only hashed: write it down; sign in at /login",
            flush=True,
        )
    if settings.scheduler.enabled:
        start_scheduler(app)
    host, port = settings.server.host, settings.server.port
    print(
        banner or f"pace serving http://{host}:{port}/ (database {settings.database.path})",
        flush=True,
    )
    try:
        run_server(app)
    finally:
        close_app(app)

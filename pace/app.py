"""The composition root: ``create_app`` wires settings, store, services and the web adapter."""

from __future__ import annotations

import gc
import logging
import os
import secrets
import sys
from pathlib import Path
from typing import Any

import flask_babel
from flask import Flask, has_request_context, jsonify, request
from flask_socketio import SocketIO
from flask_talisman import Talisman
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from pace import config, i18n
from pace.clock import Clock, SystemClock
from pace.rules.errors import PaceError
from pace.services.access import AccessService, secret_notice
from pace.services.accounts import Accounts
from pace.services.board import BoardFeed
from pace.services.live import LiveService
from pace.services.positions import PositionService
from pace.services.referee_feed import RefereeFeed
from pace.services.referees import RefereeService
from pace.services.reports import HoldUpPanel, ReportCache, ReportService
from pace.services.rounds import RoundService
from pace.services.scores import ScoreService
from pace.services.taps import TapService
from pace.store import StorageError, Store, open_store
from pace.store.sqlite.db import SlowDiskOffload
from pace.web import (
    access,
    assets,
    clubs,
    edge,
    errors,
    health,
    http,
    logs,
    metrics,
    payloads,
    privacy,
)
from pace.web import i18n as i18n_pages
from pace.web.board_cache import BoardCache
from pace.web.broadcast import Broadcaster
from pace.web.derived import Derived
from pace.web.parts import EXTENSION, SCHEDULER, AppParts, parts_of
from pace.web.referee.announce import RefereeBroadcaster
from pace.web.reports.jobs import ReportJobs
from pace.web.scoring.announce import ScoreBroadcaster
from pace.web.sockets import PaceNamespace, WirePacket
from pace.web.timesync import ClockOffsets

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent


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
    for note in settings.notes:  # what config.toml asked and was taken otherwise
        log.warning("%s", note)
    app = flask_app(testing)
    store = open_store(settings.database.path, synchronous=settings.database.synchronous)
    app.config["SECRET_KEY"] = secret_key(store)
    cluster = join_cluster(settings, store)
    socketio = socket_server(app, settings.server, cluster)
    app_parts = assemble(app, settings, store, socketio, cluster, clock or SystemClock())
    harden(app, settings.server)
    answer_errors(app, socketio, testing)
    serve_pages(app)
    app.extensions[EXTENSION] = app_parts
    return app


def flask_app(testing: bool) -> Flask:
    """Return the Flask app with pace's templates, static files and request limits."""
    app = Flask(
        __name__, static_folder=str(ROOT / "static"), template_folder=str(ROOT / "templates")
    )
    assets.install(app)  # versioned, long-cached, compressed static files (pace/web/assets.py)
    app.config["TESTING"] = testing
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["MAX_CONTENT_LENGTH"] = payloads.MAX_BODY
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    return app


def secret_key(store: Store) -> str:
    """Return the key signing session cookies: from the environment, else made once and kept
    in the database, so sessions survive a restart (docs/access.md)."""
    key = os.environ.get("PACE_SECRET_KEY") or store.secret(
        "flask_secret_key", make=lambda: secrets.token_hex(32)
    )
    assert key is not None  # made when missing
    return key


def socket_server(app: Flask, server: config.ServerSettings, cluster: Any) -> SocketIO:
    """Return the Socket.IO server of ``app`` (sharing the cluster's message queue, if any)."""
    queue: dict[str, Any] = {}
    if cluster is not None:
        # numbered: a worker that missed a message of another tells its pages to join again
        queue = {"client_manager": cluster.socketio_queue()}
    return SocketIO(
        app,
        async_mode=server.async_mode,
        cors_allowed_origins=origin_check(server),
        json=app.json,
        serializer=WirePacket,
        max_http_buffer_size=payloads.MAX_MESSAGE,
        logger=False,
        engineio_logger=False,
        **queue,
    )


def assemble(
    app: Flask,
    settings: config.Settings,
    store: Store,
    socketio: SocketIO,
    cluster: Any,
    clock: Clock,
) -> AppParts:
    """Return the app's parts: the use cases over the store, the web adapter's over the
    socket server; register the live endpoint."""
    service = RoundService(store, settings, clock)
    access_service = AccessService(store, settings, service.clock)
    live = LiveService(service)
    referee_feed = RefereeFeed(live)
    scores = ScoreService(live, referee_feed)
    holdups = HoldUpPanel(live)
    holdups.pause = hub_yield(settings.server, socketio)
    board_feed = BoardFeed(live)
    broadcaster = Broadcaster(socketio, board_feed)
    namespace = PaceNamespace(live, broadcaster, ClockOffsets(), access_service)
    score_broadcaster = ScoreBroadcaster(socketio, scores)
    derived = Derived(live, score_broadcaster.changed, cluster)
    if cluster is not None:
        # a feed's numbers are one worker's: a page of another worker cannot follow them
        live.numbered = False
        # another worker's rows reach the marshals too: each row goes to them
        broadcaster.marshal_rows = None
    socketio.on_namespace(namespace)
    report_jobs = ReportJobs(
        str(settings.database.path), settings.source, socketio.start_background_task
    )
    counted = None
    if settings.server.metrics:
        counted = metrics.Metrics(live.rounds.open_alerts)
        live.rounds.committed = counted.commits.observe
        report_jobs.observe = counted.report_job
    return AppParts(
        settings=settings,
        store=store,
        socketio=socketio,
        namespace=namespace,
        access=access_service,
        accounts=Accounts(store, access_service, service.clock),
        live=live,
        taps=TapService(live),
        alerts=live.alerts,
        referee=RefereeService(live),
        referee_feed=referee_feed,
        scores=scores,
        board_feed=board_feed,
        holdups=holdups,
        reports=ReportService(live.service, ReportCache()),
        broadcaster=broadcaster,
        referee_broadcaster=RefereeBroadcaster(socketio, broadcaster, cards=derived.cards),
        score_broadcaster=score_broadcaster,
        derived=derived,
        board_cache=BoardCache(board_feed, app.json.dumps),
        report_jobs=report_jobs,
        cluster=cluster,
        metrics=counted,
        positions=PositionService(live, keep=settings.positions.keep),
    )


def hub_yield(server: config.ServerSettings, socketio: SocketIO) -> Any:
    """Return how a reading of who holds the field up lets the taps in between its groups
    (under gevent it runs on the hub: docs/architecture.md, "The hub is not held by slow
    parts")."""
    if server.async_mode == "gevent":
        from pace.web.server import hub_pause

        return hub_pause
    return lambda: socketio.sleep(0)


def answer_errors(app: Flask, socketio: SocketIO, testing: bool) -> None:
    """Answer every failure with the shared error shape: Socket.IO acks and HTTP alike
    (pace/web/errors.py)."""

    def store_failed(e: BaseException) -> None:
        # every store error a request meets passes one of these handlers once: counted here
        counted = parts_of(app).metrics
        if counted is not None and isinstance(e, StorageError):
            counted.store_failed(e)

    @socketio.on_error_default
    def socket_error(e: BaseException) -> dict[str, Any]:
        store_failed(e)
        return errors.from_exception(
            e, context=f"socket event {getattr(request, 'event', None)!r}", testing=testing,
            lang=i18n_pages.current_language() if has_request_context() else None,
        )  # fmt: skip

    # a browser reads each refusal as a page in its language, a client as JSON (issue 47)
    @app.errorhandler(PaceError)
    def http_error(e: PaceError) -> Any:
        store_failed(e)
        body = errors.from_exception(
            e, context=request.path, testing=testing, lang=i18n_pages.current_language()
        )
        return access.refusal(body, errors.http_status(body))

    @app.errorhandler(404)
    def not_found(e: Any) -> Any:
        return access.refusal(errors.error_body("not_found", f"no page at {request.path}"), 404)

    @app.errorhandler(405)
    def wrong_method(e: Any) -> Any:
        body = errors.error_body("method_not_allowed", f"{request.method} is not allowed here")
        return access.refusal(body, 405)

    @app.errorhandler(413)
    def too_large(e: Any) -> Any:
        body = errors.error_body(
            "payload_too_large", f"the body is larger than {payloads.MAX_BODY // 1024} KiB"
        )
        return access.refusal(body, 413)

    @app.errorhandler(Exception)
    def unexpected(e: Exception) -> Any:
        if isinstance(e, HTTPException):  # Flask's own answers (400 of a bad form, ...)
            body = errors.error_body("invalid_payload", e.description or e.name)
            return access.refusal(body, e.code or 400)
        body = errors.from_exception(e, context=request.path, testing=testing)
        return jsonify(body), 500


def serve_pages(app: Flask) -> None:
    """Register the pages: every request checked (``access.guard_request``), in the language
    it asks for (the gettext catalogues of pace/translations), the live round's and signing
    in's pages, then each feature's."""
    app.before_request(access.guard_request)
    app.after_request(i18n_pages.remember_language)
    app.context_processor(access.template_globals)
    flask_babel.Babel(
        app,
        locale_selector=i18n_pages.current_language,
        default_translation_directories=str(i18n.DIRECTORY),
    )
    app.register_blueprint(http.bp)
    app.register_blueprint(health.bp)  # /healthz, /readyz (pace/web/health.py)
    app.register_blueprint(metrics.bp)  # /metrics, when server.metrics is on
    app.register_blueprint(access.bp)
    app.register_blueprint(clubs.bp)  # people's accounts, clubs (issue 50)
    app.register_blueprint(privacy.bp)  # /privacy, the members' page on positions
    for feature in edge.FEATURES:
        if feature.pages is not None:
            app.register_blueprint(feature.pages)


def join_cluster(settings: config.Settings, store: Store) -> Any:
    """Return this worker's ``pace.cluster.Cluster`` when ``server.message_queue`` is set.

    The deployment's id is kept in the database (made by the first worker), so every worker
    on that database, and only those, share leases, nudges and Socket.IO messages in Redis.
    """
    url = settings.server.message_queue
    if not url:
        return None
    from pace.cluster import Cluster

    deployment = store.secret("cluster_id", make=lambda: secrets.token_hex(8))
    return Cluster(url, str(deployment), lease_seconds=settings.scheduler.lease_seconds)


def own_origin(environ: dict[str, Any]) -> str:
    """Return the origin this request was sent to (after ``ProxyFix``, the proxy's public one)."""
    return f"{environ.get('wsgi.url_scheme', 'http')}://{environ.get('HTTP_HOST', '')}"


def origin_check(server: config.ServerSettings) -> Any:
    """Return Engine.IO's origin check: the page's origin is this server's, or ``public_url``.

    A browser always sends ``Origin`` with the Socket.IO handshake, so a page of another site
    (or another port of this host) cannot open a connection carrying the session cookie.
    Clients that send no ``Origin`` (python-socketio, scripts) are not browsers: they carry a
    token, never the cookie by themselves.
    """
    public = server.public_url.rstrip("/")

    def allowed(origin: str | None, environ: dict[str, Any]) -> bool:
        return origin is not None and origin in (own_origin(environ), public)

    return allowed


#: Content-Security-Policy of every page: scripts, styles and connections of this site only
#: (no inline script anywhere), images also as ``data:`` (the QR codes), never in a frame.
CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def harden(app: Flask, server: config.ServerSettings) -> None:
    """Add the deployment's protections: proxy headers, security headers, cookie flags.

    Behind ``server.trusted_proxies`` reverse proxies, ``ProxyFix`` takes the client's address,
    scheme and host from their ``X-Forwarded-*`` headers (the rate limit of wrong codes keys on
    that address); with none, those headers are ignored. Flask-Talisman sets the CSP,
    ``X-Frame-Options: DENY``, ``Referrer-Policy: same-origin`` and, when ``public_url`` is
    https, the ``Secure`` cookie and HSTS (docs/access.md, "Deployment").
    """
    https = server.public_url.startswith("https://")
    n = server.trusted_proxies
    if n:
        # outside Flask-SocketIO's middleware: the origin check sees the client's origin too
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n, x_port=n)  # type: ignore[method-assign]
    Talisman(
        app,
        force_https=False,  # TLS ends at the proxy; pace itself may serve plain http
        strict_transport_security=https,
        session_cookie_secure=https,
        session_cookie_http_only=True,
        content_security_policy=CSP,
        frame_options="DENY",
        referrer_policy="same-origin",
    )


def start_scheduler(app: Flask) -> Any:
    """Start the scheduler of this serving process; return it (call once)."""
    from pace.scheduler import PaceScheduler

    app_parts = parts_of(app)
    cluster = app_parts.cluster
    scheduler = PaceScheduler(
        app_parts.live,
        app_parts.broadcaster,
        tick_seconds=app_parts.settings.scheduler.tick_seconds,
        probe=app_parts.namespace.probe_clocks,
        after_tick=tick_announcer(app_parts),
        leases=cluster.leases if cluster is not None else None,
        ticked=app_parts.metrics.ticks.observe if app_parts.metrics is not None else None,
        due=app_parts.metrics.ticks_due.observe if app_parts.metrics is not None else None,
        snapshots=snapshots(app_parts),
        backup_minutes=app_parts.settings.backup.every_minutes,
        sweep=app_parts.positions.sweep,
    )
    scheduler.start()
    app.extensions[SCHEDULER] = scheduler
    if cluster is not None:
        # another worker stored an event of a round this one ticks: tick it now
        app_parts.socketio.start_background_task(
            cluster.listen, scheduler.poke, app_parts.socketio.sleep
        )
    return scheduler


def snapshots(app_parts: AppParts) -> Any:
    """Return the scheduled backups of ``backup`` (None when ``every_minutes`` is 0)."""
    settings = app_parts.settings.backup
    if settings.every_minutes <= 0:
        return None
    from pace.services.backup import Snapshots

    counted = app_parts.metrics
    return Snapshots(
        app_parts.live.service,
        settings.folder,
        settings.keep,
        store_failed=counted.store_failed if counted is not None else None,
    )


def tick_announcer(app_parts: AppParts) -> Any:
    """Return what the scheduler calls after each tick's deltas: the cards that changed."""
    return app_parts.score_broadcaster.changed


def close_app(app: Flask) -> None:
    """Stop the scheduler and close the database."""
    app_parts = parts_of(app)
    scheduler = app.extensions.pop(SCHEDULER, None)
    if scheduler is not None:
        scheduler.shutdown()
    app_parts.report_jobs.close()
    if app_parts.cluster is not None:
        app_parts.cluster.close()
    app_parts.store.close()


def configure_logging(log_format: str = "text") -> None:
    """Log at INFO for pace in ``log_format`` (``server.log_format``: "text" or "json"),
    without a line per scheduler tick or per HTTP request (pace/web/logs.py)."""
    logs.configure(log_format)


def say(text: str, json_log: bool) -> None:
    """Tell the operator ``text``: printed, or a line of the JSON log (every line of which
    is JSON)."""
    if json_log:
        log.info("%s", text)
    else:
        print(text, flush=True)


def run_server(app: Flask) -> None:
    """Serve ``app`` on its configured host and port until interrupted (blocks)."""
    app_parts = parts_of(app)
    server = app_parts.settings.server
    if server.async_mode == "gevent":
        from pace.web.server import wsgi_server  # gevent only where it serves

        # Flask-SocketIO's run() would build the same server with Nagle's algorithm on
        # (pace/web/server.py); stop() finds it where run() keeps it
        app_parts.socketio.wsgi_server = wsgi_server(app, server.host, server.port)
        # a commit's wait on the disk in a real thread: the hub serves the others meanwhile,
        # the committing greenlet resumes (and acks) once it is done
        # (only with the standard library patched: the store's lock must be gevent's, or a
        # greenlet waiting for it would hold the hub while the commit's owner cannot resume)
        from gevent import monkey

        offload = getattr(app_parts.store, "offload_commits", None)  # SQLite's (PostgreSQL: none)
        if offload is not None and monkey.is_module_patched("threading"):
            offload(SlowDiskOffload(off_the_hub))
        app_parts.socketio.wsgi_server.serve_forever()
        return
    kwargs: dict[str, Any] = {"host": server.host, "port": server.port, "log_output": False}
    if server.async_mode == "threading":
        kwargs["allow_unsafe_werkzeug"] = True
    app_parts.socketio.run(app, **kwargs)


def off_the_hub(fn: Any) -> Any:
    """Return ``fn()`` run in gevent's thread pool; the calling greenlet waits for it.

    An exception (a full disk) is raised here, in the caller, as if ``fn`` ran here: the pool
    would print its traceback to the log.
    """
    import gevent

    def run() -> tuple[bool, Any]:
        try:
            return True, fn()
        except BaseException as e:  # handed back to the caller whole
            return False, e

    ok, value = gevent.get_hub().threadpool.apply(run)
    if not ok:
        raise value
    return value


def serve(settings: config.Settings, *, clock: Clock | None = None, banner: str = "") -> None:
    """Serve the app until interrupted: the pages, Socket.IO and the scheduler."""
    json_log = settings.server.log_format == "json"
    configure_logging(settings.server.log_format)
    app = create_app(settings, clock=clock)
    app_parts = parts_of(app)
    secret = app_parts.access.ensure_committee_account()
    if secret is not None:
        # a JSON log goes to a collector, never a person's terminal: the secret to its file
        interactive = sys.stdout.isatty() and not json_log
        notice = secret_notice(secret, settings.database.path, interactive=interactive)
        say(notice, json_log)
    if settings.scheduler.enabled:
        start_scheduler(app)
    host, port = settings.server.host, settings.server.port
    say(banner or f"pace serving http://{host}:{port}/ (database {app_parts.store.location})",
        json_log)  # fmt: skip
    # what the process has made so far (modules, the app, the rounds folded at start) lives
    # as long as it does: out of the collector's sight, a full collection stops the hub for
    # what the round adds since, not 60–80 ms (measured by bench/bench_latency.py, issue 13)
    gc.collect()
    gc.freeze()
    try:
        run_server(app)
    finally:
        close_app(app)

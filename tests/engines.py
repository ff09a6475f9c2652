"""Real PostgreSQL, Redis and Caddy servers for the tests and benches, each in its own temporary
folder.

A test session starts its own ``postgres`` (Debian's ``postgresql`` package; ``initdb`` as the
``postgres`` account when the tests run as root) and ``redis-server`` on free loopback ports,
and stops them at the end: nothing depends on a service of the machine. When an engine cannot
start (not installed, no account to run it as), ``EngineUnavailable`` says why, and the tests
that need it are skipped with that reason (``.ci/run`` installs them, so CI runs them).

Caddy (Debian's ``caddy``) is the HTTPS front of tests/e2e/test_https_front.py: ``start_caddy``
runs it on a free loopback port with ``tls internal`` and the repository's own
``deploy/pace.caddy``, its certificates and state under its folder (``HOME``, ``XDG_*``), its
admin endpoint off, no http:// listener for redirects, and its root never installed into the
machine's trust store.

The test cluster runs with ``fsync=off``: the tests kill pace's processes, never the
database's, so durability across a crash of the machine is not what they check, and a test
database is made in ~70 ms. ``start_postgres(durable=True)`` keeps PostgreSQL's defaults
(the benches of durable appends).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: where Debian puts PostgreSQL's server programs (``/usr/lib/postgresql/15/bin``)
DEBIAN_POSTGRES = Path("/usr/lib/postgresql")
START_SECONDS = 30.0


class EngineUnavailable(RuntimeError):
    """PostgreSQL, Redis or Caddy cannot be started here; the message says why."""


def free_port() -> int:
    """Return a TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postgres_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(DEBIAN_POSTGRES.glob("*/bin"), key=lambda p: p.parent.name, reverse=True)
    for folder in versions:
        if (folder / name).exists():
            return str(folder / name)
    raise EngineUnavailable(f"PostgreSQL's {name!r} is not installed (apt-get install postgresql)")


def _as_account() -> tuple[Callable[[], None] | None, pwd.struct_passwd | None]:
    """Return how to start PostgreSQL's programs: as the ``postgres`` account when root."""
    if os.geteuid() != 0:
        return _die_with_parent, None
    try:
        account = pwd.getpwnam("postgres")
    except KeyError:
        raise EngineUnavailable(
            "the tests run as root and there is no 'postgres' account to run PostgreSQL as"
        ) from None

    def demote() -> None:
        os.setgroups([])
        os.setgid(account.pw_gid)
        os.setuid(account.pw_uid)
        _die_with_parent()

    return demote, account


def _die_with_parent() -> None:
    # the server ends (fast shutdown) if the test process dies without stopping it
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG


@dataclass
class PostgresServer:
    """A running PostgreSQL cluster: ``database()`` makes a fresh database and returns its URL."""

    folder: Path
    port: int
    process: subprocess.Popen[bytes]
    made: list[str] = field(default_factory=list)

    def url(self, database: str = "postgres") -> str:
        """Return the URL of ``database`` on this server."""
        return f"postgresql://pace@127.0.0.1:{self.port}/{database}"

    def database(self, prefix: str = "t") -> str:
        """Create an empty database and return its URL."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self.made.append(name)
        return self.url(name)

    def drop(self, url: str) -> None:
        """Drop the database of ``url`` (its connections are ended first)."""
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres(*, durable: bool = False) -> PostgresServer:
    """Start a new PostgreSQL cluster on a free loopback port; ``EngineUnavailable`` if it can't."""
    initdb, postgres = _postgres_bin("initdb"), _postgres_bin("postgres")
    demote, account = _as_account()
    folder = Path(tempfile.mkdtemp(prefix="pace-pg-"))
    if account is not None:
        os.chown(folder, account.pw_uid, account.pw_gid)
    data = folder / "data"
    made = subprocess.run(
        [initdb, "-D", str(data), "-A", "trust", "-U", "pace", "-E", "UTF8", "--no-locale",
         *([] if durable else ["--no-sync"])],
        capture_output=True, preexec_fn=demote, timeout=120,
    )  # fmt: skip
    if made.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise EngineUnavailable(f"initdb failed: {made.stderr.decode(errors='replace')[-500:]}")
    port = free_port()
    settings = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
                "-c", "max_connections=300", "-c", "shared_buffers=64MB"]  # fmt: skip
    if not durable:
        settings += ["-c", "fsync=off", "-c", "full_page_writes=off"]
    log = (folder / "postgres.log").open("wb")
    process = subprocess.Popen(
        [postgres, "-D", str(data), "-p", str(port), *settings],
        stdout=log, stderr=subprocess.STDOUT, preexec_fn=demote,
    )  # fmt: skip
    log.close()
    server = PostgresServer(folder, port, process)
    try:
        _wait_for(lambda: _pg_answers(server.url()), process, folder / "postgres.log")
    except EngineUnavailable:
        server.stop()
        raise
    return server


def _pg_answers(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.OperationalError:
        return False


@dataclass
class RedisServer:
    """A running ``redis-server`` on loopback."""

    folder: Path
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        _terminate(self.process, self.folder)

    def halt(self) -> None:
        """Stop the server, keeping its folder and port for :meth:`resume` (every connection
        drops; every subscription and key is lost)."""
        self.process.terminate()
        self.process.wait(timeout=10)

    def resume(self) -> None:
        """Start the halted server again on the same port, empty."""
        self.process = _redis_process(self.folder, self.port)


def start_redis() -> RedisServer:
    """Start ``redis-server`` on a free loopback port; ``EngineUnavailable`` if it can't."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise EngineUnavailable("redis-server is not installed (apt-get install redis-server)")
    folder = Path(tempfile.mkdtemp(prefix="pace-redis-"))
    port = free_port()
    return RedisServer(folder, port, _redis_process(folder, port))


def _redis_process(folder: Path, port: int) -> subprocess.Popen[bytes]:
    binary = shutil.which("redis-server")
    assert binary is not None
    return _spawn(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(folder), "--daemonize", "no", "--protected-mode", "yes"],
        folder / "redis.log", lambda: _redis_answers(port),
    )  # fmt: skip


def _redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


#: what Caddy passes on to pace, shipped with the Caddyfiles (docs/deploy.md, "Caddy")
PACE_CADDY = Path(__file__).resolve().parents[1] / "deploy" / "pace.caddy"

CADDYFILE = """\
{{
\tadmin off
\tskip_install_trust
\tauto_https disable_redirects
\thttp_port {http_port}
\thttps_port {port}
\tlocal_certs
}}

https://127.0.0.1:{port} {{
\ttls internal
\timport {snippet}
}}
"""


@dataclass
class CaddyServer:
    """A running ``caddy`` on loopback: ``url`` is its https address (``tls internal``)."""

    folder: Path
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def log(self) -> str:
        return (self.folder / "caddy.log").read_text(errors="replace")

    def authority_keys(self) -> list[str]:
        """Return the SHA-256 of the public keys of Caddy's root and intermediate (base64), as
        Chromium's ``--ignore-certificate-errors-spki-list`` takes them: a browser given them
        trusts this Caddy's certificates, and no other's."""
        import base64
        import hashlib

        from cryptography import x509
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        pki = self.folder / "data" / "caddy" / "pki" / "authorities" / "local"
        keys = []
        for name in ("root.crt", "intermediate.crt"):
            cert = x509.load_pem_x509_certificate((pki / name).read_bytes())
            spki = cert.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
            keys.append(base64.b64encode(hashlib.sha256(spki).digest()).decode())
        return keys

    def stop(self) -> None:
        """Stop Caddy and remove its folder (its certificates with it)."""
        _terminate(self.process, self.folder)


def start_caddy(upstream: str) -> CaddyServer:
    """Start Caddy on a free loopback port in front of ``upstream`` (``127.0.0.1:5000``), with
    ``tls internal``; ``EngineUnavailable`` if it can't."""
    binary = shutil.which("caddy")
    if binary is None:
        raise EngineUnavailable("caddy is not installed (apt-get install caddy)")
    folder = Path(tempfile.mkdtemp(prefix="pace-caddy-"))
    port = free_port()
    config = folder / "Caddyfile"
    config.write_text(
        CADDYFILE.format(port=port, http_port=free_port(), snippet=PACE_CADDY), encoding="utf-8"
    )
    home = {"HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config")}  # fmt: skip
    process = _spawn(
        [binary, "run", "--config", str(config), "--adapter", "caddyfile"],
        folder / "caddy.log", lambda: _tls_answers(port),
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **home, "PACE_UPSTREAM": upstream},
    )  # fmt: skip
    return CaddyServer(folder, port, process)


def _tls_answers(port: int) -> bool:
    """Whether a TLS handshake with 127.0.0.1:``port`` succeeds (its certificate is made)."""
    import ssl

    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as raw:
            with context.wrap_socket(raw, server_hostname="127.0.0.1"):
                return True
    except (OSError, ssl.SSLError):
        return False


def _spawn(
    command: list[str],
    log: Path,
    ready: Callable[[], bool],
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start a server writing to ``log`` and wait until ``ready()``; if it does not get there,
    stop it, remove its folder (``log``'s) and raise ``EngineUnavailable``."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent, env=env
        )
    try:
        _wait_for(ready, process, log)
    except EngineUnavailable:
        _terminate(process, log.parent)
        raise
    return process


def _terminate(process: subprocess.Popen[bytes], folder: Path) -> None:
    """Stop a server (SIGTERM, then SIGKILL after 10 s) and remove its folder."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


def _wait_for(ready: Callable[[], bool], process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = log.read_text(errors="replace")[-800:]
            raise EngineUnavailable(f"the server exited with {process.returncode}: {said}")
        if ready():
            return
        try:
            process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass
    raise EngineUnavailable(f"the server did not answer within {START_SECONDS:.0f} s")


def main() -> int:
    """Say whether PostgreSQL, Redis and Caddy start here (``.ci/run`` prints it first)."""
    engines: tuple[tuple[str, Callable[[], Any]], ...] = (
        ("PostgreSQL", start_postgres),
        ("Redis", start_redis),
        ("Caddy", lambda: start_caddy(f"127.0.0.1:{free_port()}")),
    )
    for name, start in engines:
        try:
            start().stop()
            print(f"engines: {name} starts here; its tests run")
        except EngineUnavailable as e:
            print(f"engines: {name} cannot start here ({e}); its tests are skipped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

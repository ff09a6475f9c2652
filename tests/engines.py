"""Real PostgreSQL and Redis servers for the tests and benches, each in its own temporary folder.

A test session starts its own ``postgres`` (Debian's ``postgresql`` package; ``initdb`` as the
``postgres`` account when the tests run as root) and ``redis-server`` on free loopback ports,
and stops them at the end: nothing depends on a service of the machine. When an engine cannot
start (not installed, no account to run it as), ``EngineUnavailable`` says why, and the tests
that need it are skipped with that reason (``.ci/run`` installs both, so CI runs them).

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

#: where Debian puts PostgreSQL's server programs (``/usr/lib/postgresql/15/bin``)
DEBIAN_POSTGRES = Path("/usr/lib/postgresql")
START_SECONDS = 30.0


class EngineUnavailable(RuntimeError):
    """PostgreSQL or Redis cannot be started here; the message says why."""


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
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_redis() -> RedisServer:
    """Start ``redis-server`` on a free loopback port; ``EngineUnavailable`` if it can't."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise EngineUnavailable("redis-server is not installed (apt-get install redis-server)")
    folder = Path(tempfile.mkdtemp(prefix="pace-redis-"))
    port = free_port()
    log = (folder / "redis.log").open("wb")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(folder), "--daemonize", "no", "--protected-mode", "yes"],
        stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent,
    )  # fmt: skip
    log.close()
    server = RedisServer(folder, port, process)
    try:
        _wait_for(lambda: _redis_answers(port), process, folder / "redis.log")
    except EngineUnavailable:
        server.stop()
        raise
    return server


def _redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


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
    """Say whether PostgreSQL and Redis start here (``.ci/run`` prints it before the tests)."""
    for name, start in (("PostgreSQL", start_postgres), ("Redis", start_redis)):
        try:
            start().stop()
            print(f"engines: {name} starts here; its tests run")
        except EngineUnavailable as e:
            print(f"engines: {name} cannot start here ({e}); its tests are skipped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

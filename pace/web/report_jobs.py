"""Report jobs: the PDF of a round's report or letters, built while the page shows progress.

Each job runs ``pace report`` (or ``pace letters``) ``--format pdf --progress lines`` in a
child process over the same database file and configuration file, so laying out a long PDF
(seconds of CPU) never holds up the server's taps and broadcasts, and its ``progress N/M``
lines tell the page how far it is. Jobs live in memory; their files in a temporary folder,
removed after ``KEEP`` or when the app closes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pace.rules.errors import PaceError

#: How long a finished job's file stays available.
KEEP = 3600.0
#: At most this many jobs run at once (two cores: more would only queue in the kernel).
RUNNING_MAX = 2
KINDS = ("report", "letters")


class ReportJobError(PaceError, RuntimeError):
    """A report job cannot be started or found."""

    code = "not_found"


@dataclass
class Job:
    """One PDF being built: for which round, how far, and where its file is."""

    id: str
    round: str
    kind: str
    lang: str
    per: str
    state: str = "running"  # running, done, failed
    done: int = 0
    total: int = 0
    error: str | None = None
    path: Path | None = None
    started: float = field(default_factory=time.monotonic)
    #: the background task running it (a thread or a greenlet: ``join`` waits for it)
    task: Any = None

    def view(self) -> dict[str, Any]:
        """Return what the page shows of the job."""
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "error": self.error,
        }


class ReportJobs:
    """The report jobs of one app: start them, follow them, hand their files out."""

    def __init__(self, db_path: str, config_source: str, start_task: Any):
        self.db_path = db_path
        self.config_source = config_source
        self.start_task = start_task
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._folder: Path | None = None

    def _dir(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="pace-reports-"))
        return self._folder

    def start(self, round: str, kind: str, lang: str, per: str = "player") -> Job:
        """Start building the PDF of ``kind`` (report or letters) for ``round``."""
        with self._lock:
            self._expire()
            running = sum(1 for j in self._jobs.values() if j.state == "running")
            if running >= RUNNING_MAX:
                raise ReportJobError(
                    f"{running} PDFs are being built already; try again in a moment",
                    code="rate_limited",
                )
            job = Job(uuid.uuid4().hex, round, kind, lang, per)
            job.path = self._dir() / f"{job.id}.pdf"
            self._jobs[job.id] = job
        job.task = self.start_task(self._run, job)
        return job

    def get(self, round: str, job_id: str) -> Job:
        """Return the job ``job_id`` of ``round``; ``not_found`` if there is none."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None or job.round != round:
            raise ReportJobError(f"no report job {job_id[:40]!r} for round {round[:40]!r}")
        return job

    def _command(self, job: Job) -> list[str]:
        assert job.path is not None
        args = [
            sys.executable, "-m", "pace", job.kind, "--round", job.round, "--db", self.db_path,
            "--format", "pdf", "-o", str(job.path), "--lang", job.lang, "--progress", "lines",
        ]  # fmt: skip
        if job.kind == "letters":
            args += ["--per", job.per]
        return args

    def _run(self, job: Job) -> None:
        env = dict(os.environ)
        if Path(self.config_source).is_file():
            env["PACE_CONFIG"] = str(Path(self.config_source).resolve())
        tail: list[str] = []
        try:
            process = subprocess.Popen(
                self._command(job),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
        except OSError as e:
            job.state, job.error = "failed", f"could not start the PDF builder: {e}"
            return
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith("progress "):
                done, _, total = line.split()[1].partition("/")
                job.done, job.total = int(done), int(total)
            elif line.strip():
                tail = [*tail[-4:], line.strip()]
        code = process.wait()
        if code == 0 and job.path is not None and job.path.exists():
            job.state = "done"
        else:
            job.state = "failed"
            job.error = " ".join(tail)[-500:] or f"the PDF builder exited with {code}"

    def _expire(self) -> None:
        now = time.monotonic()
        for job_id, job in list(self._jobs.items()):
            if job.state != "running" and now - job.started > KEEP:
                if job.path is not None:
                    job.path.unlink(missing_ok=True)
                del self._jobs[job_id]

    def close(self) -> None:
        """Forget every job and remove their files."""
        with self._lock:
            self._jobs.clear()
            if self._folder is not None:
                shutil.rmtree(self._folder, ignore_errors=True)
                self._folder = None

"""Report jobs: the PDF of a round's report or letters, built while the page shows progress
(and the results sheet's PDF, which its page waits for).

Each job is built by a warm PDF builder (``pace.reports.worker``): a child process over the
same database and configuration file that keeps WeasyPrint, Pygal and pace loaded, so
laying out a long PDF (seconds of CPU) never holds up the server's taps and broadcasts, and
a PDF does not pay the builder's start (imports, fonts: about 2 s) again. A builder is
started when the report page is opened (``prewarm``) or by the first job, serves one job at
a time, and stops after ``IDLE`` seconds without work; at most ``RUNNING_MAX`` run. Its
``progress`` answers tell the page how far a job is. A builder that dies fails its job with
what it said on standard error and is replaced by the next job. Jobs live in memory; their
files in a temporary folder, removed after ``KEEP`` or when the app closes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from pace.rules.errors import PaceError

#: How long a finished job's file stays available.
KEEP = 3600.0
#: At most this many jobs run at once (two cores: more would only queue in the kernel).
RUNNING_MAX = 2
#: A PDF builder with no job for this long stops (it holds ~150 MB while warm).
IDLE = 900.0
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
    #: what a results sheet lays out (``pace.reports.results_sheet.sheet_request``): the
    #: server's results document, so the PDF says what the page says; None for the others
    document: dict[str, Any] | None = None
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


class PdfBuilder:
    """One warm PDF builder process (``pace.reports.worker``) and the jobs it is given."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path):
        self.log = log
        with open(log, "wb") as err:  # the child keeps its own descriptor of the file
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                encoding="utf-8",
                env=env,
            )
        self.ready = False
        self.idle_since = time.monotonic()
        self._lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def _answer(self) -> dict[str, Any] | None:
        out: IO[str] | None = self.process.stdout
        line = out.readline() if out is not None else ""
        if not line:
            return None
        try:
            answer: dict[str, Any] = json.loads(line)
        except ValueError:
            return {"failed": f"the PDF builder said {line.strip()[:200]!r}"}
        return answer

    def warm(self) -> bool:
        """Wait until the builder has loaded everything; return whether it is ready."""
        with self._lock:
            if not self.ready:
                answer = self._answer()
                self.ready = bool(answer and answer.get("ready"))
            return self.ready

    def build(self, job: Job) -> bool:
        """Build ``job``'s PDF; return False when the builder died before it began."""
        if not self.warm():
            return False
        request = {"kind": job.kind, "round": job.round, "lang": job.lang, "per": job.per,
                   "output": str(job.path)}  # fmt: skip
        if job.document is not None:
            request["document"] = job.document
        with self._lock:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(json.dumps(request) + "\n")
                self.process.stdin.flush()
            except (BrokenPipeError, OSError):
                return False
            began = False
            while (answer := self._answer()) is not None:
                if "progress" in answer:
                    began = True
                    job.done, job.total = (int(n) for n in answer["progress"][:2])
                elif answer.get("done"):
                    job.state = "done"
                    break
                else:
                    job.state, job.error = "failed", str(answer.get("failed"))[:500]
                    break
            else:
                if not began:
                    return False
                job.state, job.error = "failed", self.said() or "the PDF builder stopped"
        self.idle_since = time.monotonic()
        return True

    def said(self) -> str:
        """Return the end of what the builder wrote on standard error."""
        try:
            text = self.log.read_bytes()[-2000:].decode("utf-8", "replace")
        except OSError:
            return ""
        return " ".join(line.strip() for line in text.splitlines()[-5:] if line.strip())[-500:]

    def stop(self) -> None:
        """End the builder: its input closed, then killed if it does not leave at once."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


class ReportJobs:
    """The report jobs of one app: start them, follow them, hand their files out."""

    def __init__(self, db_path: str, config_source: str, start_task: Any):
        self.db_path = db_path
        self.config_source = config_source
        self.start_task = start_task
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._folder: Path | None = None
        self._idle: list[PdfBuilder] = []
        self._builders: list[PdfBuilder] = []
        self._closed = False
        #: told each job's start (``queued``) and end (``done``/``failed``, with its seconds):
        #: the operator's metrics (None: nobody listens)
        self.observe: Callable[[str, str, float | None], None] | None = None

    def _dir(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="pace-reports-"))
        return self._folder

    def start(
        self,
        round: str,
        kind: str,
        lang: str,
        per: str = "player",
        document: dict[str, Any] | None = None,
    ) -> Job:
        """Start building the PDF of ``kind`` (report, letters, or a results sheet laid out
        from ``document``) for ``round``."""
        with self._lock:
            self._expire()
            running = sum(1 for j in self._jobs.values() if j.state == "running")
            if running >= RUNNING_MAX:
                raise ReportJobError(
                    f"{running} PDFs are being built already; try again in a moment",
                    code="rate_limited",
                )
            job = Job(uuid.uuid4().hex, round, kind, lang, per, document=document)
            job.path = self._dir() / f"{job.id}.pdf"
            self._jobs[job.id] = job
        if self.observe is not None:
            self.observe(kind, "queued", None)
        job.task = self.start_task(self._run, job)
        return job

    def get(self, round: str, job_id: str) -> Job:
        """Return the job ``job_id`` of ``round``; ``not_found`` if there is none."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None or job.round != round:
            raise ReportJobError(f"no report job {job_id[:40]!r} for round {round[:40]!r}")
        return job

    def prewarm(self) -> None:
        """Have a PDF builder loading in the background, unless one is there already (the
        report page calls it: its PDF button is likely next)."""
        with self._lock:
            if self._closed or self._builders:
                return
            builder = self._new_builder()
            self._idle.append(builder)
        self.start_task(builder.warm)

    def builders(self) -> list[int]:
        """Return the process ids of the PDF builders running now."""
        with self._lock:
            return [b.pid for b in self._builders if b.alive()]

    def _command(self) -> list[str]:
        return [sys.executable, "-m", "pace.reports.worker", "--db", self.db_path]

    def _new_builder(self) -> PdfBuilder:
        env = dict(os.environ)
        if Path(self.config_source).is_file():
            env["PACE_CONFIG"] = str(Path(self.config_source).resolve())
        log = self._dir() / f"builder-{uuid.uuid4().hex[:8]}.log"
        builder = PdfBuilder(self._command(), env, log)
        self._builders.append(builder)
        return builder

    def _take(self) -> PdfBuilder:
        with self._lock:
            while self._idle:
                builder = self._idle.pop()
                if builder.alive():
                    return builder
                self._drop(builder)
            return self._new_builder()

    def _drop(self, builder: PdfBuilder) -> None:
        if builder in self._builders:
            self._builders.remove(builder)
        builder.stop()

    def _run(self, job: Job) -> None:
        try:
            self._build(job)
        finally:
            if self.observe is not None:
                state = "done" if job.state == "done" else "failed"
                self.observe(job.kind, state, time.monotonic() - job.started)

    def _build(self, job: Job) -> None:
        said = ""
        for _attempt in range(2):  # a builder found dead before it began: once more, afresh
            try:
                builder = self._take()
            except OSError as e:
                job.state, job.error = "failed", f"could not start the PDF builder: {e}"
                return
            began = builder.build(job)
            with self._lock:
                # a builder that did not begin is dead, even if the kernel has not reaped it
                # yet (``poll()`` still None just after a SIGKILL): never kept for another try
                if began and builder.alive() and not self._closed:
                    self._idle.append(builder)
                else:
                    said = builder.said()
                    self._drop(builder)
                    if job.state == "running" and began:
                        job.state, job.error = "failed", said or "the PDF builder stopped"
            if began:
                return
        job.state = "failed"
        job.error = said or "the PDF builder stopped before it began"

    def _expire(self) -> None:
        now = time.monotonic()
        for job_id, job in list(self._jobs.items()):
            if job.state != "running" and now - job.started > KEEP:
                if job.path is not None:
                    job.path.unlink(missing_ok=True)
                del self._jobs[job_id]
        for builder in list(self._idle):
            if now - builder.idle_since > IDLE or not builder.alive():
                self._idle.remove(builder)
                self._drop(builder)

    def close(self) -> None:
        """Forget every job, stop the PDF builders and remove their files."""
        with self._lock:
            self._closed = True
            builders, self._builders, self._idle = self._builders, [], []
            self._jobs.clear()
        for builder in builders:
            builder.stop()
        with self._lock:
            if self._folder is not None:
                shutil.rmtree(self._folder, ignore_errors=True)
                self._folder = None

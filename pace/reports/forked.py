"""Work shared with a forked child process: the machine's second core, where that is safe.

Laying a PDF out is seconds of Python, which one process runs on one core. ``in_parallel``
runs a second piece of work in a child made by ``os.fork`` (it inherits everything already
computed and imported: no start-up, nothing to send it), while this process does the first;
the child's result comes back pickled through a temporary file. It forks only from a
process with a single thread and no gevent hub (``pace report``, the server's PDF jobs, the
bench), never from the server itself; otherwise, or when the child fails, the work runs
here, one piece after the other, with the same result.
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
import threading
from collections.abc import Callable
from typing import TypeVar

A = TypeVar("A")
B = TypeVar("B")


def can_fork() -> bool:
    """Return whether this process may fork a worker: one thread, no gevent monkey-patching."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    monkey = sys.modules.get("gevent.monkey")
    return not (monkey is not None and monkey.is_anything_patched())


def in_parallel(here: Callable[[], A], there: Callable[[], B]) -> tuple[A, B]:
    """Return ``(here(), there())``, ``there`` run in a forked child while ``here`` runs in
    this process (one after the other when forking is not safe or the child fails)."""
    if not can_fork():
        return here(), there()
    fd, path = tempfile.mkstemp(prefix="pace-part-")
    os.close(fd)
    try:
        pid = os.fork()
        if pid == 0:  # the child: do its part, hand it over, leave without cleaning up
            code = 1
            try:
                with open(path, "wb") as out:
                    pickle.dump(there(), out, protocol=pickle.HIGHEST_PROTOCOL)
                code = 0
            finally:
                os._exit(code)
        try:
            mine = here()
        finally:
            _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) == 0:
            with open(path, "rb") as given:
                theirs: B = pickle.load(given)  # written by our own child just now
            return mine, theirs
        return mine, there()
    finally:
        os.unlink(path)

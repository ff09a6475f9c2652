"""Where pace's time goes in a tap, step by step: ``bench/bench_latency.py --spans``.

The bench starts pace through this launcher instead of ``python -m pace``:

    python bench/spans.py OUT serve --db … --port …

It patches the standard library for gevent first, as pace's entry point does, wraps the steps
of :data:`STEPS` with a timer, runs pace's command line with the rest of the arguments, and
when the process ends (the bench stops it with SIGINT) writes every timed call of each step
to ``OUT`` as JSON: ``{step: [[start, seconds], …]}``, the starts read with ``perf_counter``,
the one monotonic clock of every process of the machine, so they line up with the bench's
own instants. :func:`attribute` then gives each measured tap the calls that started while its
row was on its way.

The timers cost a few microseconds a call: a run with ``--spans`` is a little slower than
one without, so its figures explain the run's, they do not replace them.

The launcher also notes every websocket frame pace writes of the events a dashboard shows a
tap by (:func:`trace_frames`, written beside ``OUT``: :func:`frames_file`), and the bench's
relays do the same: :func:`fan_out` then splits each tap's row between the server's work before
its first write, the server's writes to every dashboard, and the clients' reading of them.
"""

from __future__ import annotations

import atexit
import bisect
import functools
import importlib
import inspect
import json
import re
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

#: the steps timed: (label, module, class, method); a tap's row goes through them in this order
STEPS: tuple[tuple[str, str, str, str], ...] = (
    ("session look-up", "pace.web.sockets", "PaceNamespace", "sender"),
    ("tap checked, stored, folded", "pace.services.taps", "TapService", "_completion"),
    ("  of which stored (commit, fsync)", "pace.store.sql.repo", "SqlStore", "append"),
    ("log read and folded (every look)", "pace.services.state", "LiveRounds", "get"),
    ("tapped row judged", "pace.services.live", "LiveService", "_row_deltas"),
    ("  of which estimates brought up", "pace.services.estimates", "Standing", "update"),
    ("a stage sent (the first)", "pace.web.broadcast", "Broadcaster", "send"),
    ("the whole event, to its ack", "pace.web.sockets", "PaceNamespace", "trigger_event"),
    ("scheduler tick", "pace.scheduler", "PaceScheduler", "_tick_once"),
)
#: the steps whose first call in a tap is its own (the others' calls are added up)
FIRST_ONLY = frozenset({"a stage sent (the first)", "the whole event, to its ack"})
#: the step of the first stage's send: from the tap to its start is the work before any write
SEND = "a stage sent (the first)"
TICK = "scheduler tick"
#: the step that runs a whole event, its later stages included: a tap sent while an earlier
#: event's call ran waits for what of it holds the round
EVENT = "the whole event, to its ack"


def timed(fn: Callable[..., Any], calls: list[list[float]]) -> Callable[..., Any]:
    """Return ``fn`` noting each call's start and duration in ``calls``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            calls.append([started, time.perf_counter() - started])

    return wrapper


def install() -> dict[str, list[list[float]]]:
    """Wrap every step of :data:`STEPS`; return the calls noted, by step."""
    calls: dict[str, list[list[float]]] = {}
    for label, module, cls, method in STEPS:
        owner = getattr(importlib.import_module(module), cls)
        fn = getattr(owner, method)
        if inspect.isgeneratorfunction(fn):
            raise TypeError(f"{cls}.{method} is a generator: its time is not one call's")
        setattr(owner, method, timed(fn, calls.setdefault(label, [])))
    return calls


def attribute(
    spans: Mapping[str, Sequence[Sequence[float]]], taps: Sequence[tuple[float, float]]
) -> dict[str, list[float]]:
    """Return, for each step, its seconds in each tap (``taps``: the instant each was sent
    and its row's latency), in the taps' order: the calls that started while the tap's row
    was on its way, added up (:data:`FIRST_ONLY`: the first such call). Two more series:
    ``before the first stage's send`` (from the tap to that call) and ``first stage sent →
    every dashboard``; ``during a tick`` is 1.0 for a tap whose row was on its way while
    the scheduler ticked, else 0.0; ``behind an earlier event`` is 1.0 for a tap sent while
    pace still ran an earlier event (its later stages: the other groups' rows, the alerts),
    else 0.0."""
    out: dict[str, list[float]] = {label: [] for label, *_ in STEPS}
    out["before the first stage's send"] = []
    out["first stage sent → every dashboard"] = []
    out["during a tick"] = []
    out["behind an earlier event"] = []
    ordered = {label: sorted((s, d) for s, d in calls) for label, calls in spans.items()}
    starts = {label: [s for s, _ in calls] for label, calls in ordered.items()}

    def within(label: str, t0: float, end: float) -> list[tuple[float, float]]:
        """Return the calls of ``label`` that started in [t0, end), in order."""
        at = starts.get(label, [])
        return ordered.get(label, [])[bisect.bisect_left(at, t0) : bisect.bisect_left(at, end)]

    for t0, row in taps:
        end = t0 + row
        for label, *_ in STEPS:
            inside = within(label, t0, end)
            if label in FIRST_ONLY:
                out[label].append(inside[0][1] if inside else 0.0)
            else:
                out[label].append(sum(d for _, d in inside))
        sent = [s for s, _ in within(SEND, t0, end)]
        out["before the first stage's send"].append(sent[0] - t0 if sent else row)
        out["first stage sent → every dashboard"].append(end - sent[0] if sent else 0.0)
        ticking = any(s < end and s + d > t0 for s, d in ordered.get(TICK, ()))
        out["during a tick"].append(1.0 if ticking else 0.0)
        behind = any(s < t0 < s + d for s, d in ordered.get(EVENT, ()))
        out["behind an earlier event"].append(1.0 if behind else 0.0)
    return out


#: the frames by which a dashboard shows a tap: pace's row, the bare relay's tap, as Engine.IO
#: writes them (``4`` a message, ``2`` an event)
ROWS = ('42["group_updated"', '42["hole_completed"')
#: the frames :func:`trace_frames` notes: the rows, and the alerts
TRACED = (*ROWS, '42["alert_raised"')
#: a tap's id in a frame's text (the bench's taps are UUIDs)
TAP_ID = re.compile(r'"id": ?"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"')


def carried(text: str) -> list[str]:
    """Return the ids of the taps a frame shows: those a row carries (an alert shows none)."""
    return TAP_ID.findall(text) if text.startswith(ROWS) else []


def frames_file(out: str) -> str:
    """Return where the frames of a process whose calls go to ``out`` are written."""
    return str(out) + ".frames"


def trace_frames(out: str) -> None:
    """Note each websocket frame of :data:`TRACED` the process writes: when its write began
    and ended (``perf_counter``) and which text it was; write them to ``out`` as JSON when the
    process ends: ``{"sends": [[start, end, text's number], …], "ids": [[tap id, …] of each
    text]}``, the taps each text shows (:func:`carried`) read once, at the end."""
    from geventwebsocket.websocket import WebSocket

    sends: list[tuple[float, float, int]] = []
    texts: dict[str, int] = {}
    send = WebSocket.send

    @functools.wraps(send)
    def traced(self: Any, message: Any, binary: Any = None) -> Any:
        started = time.perf_counter()
        try:
            return send(self, message, binary)
        finally:
            if isinstance(message, str) and message.startswith(TRACED):
                number = texts.setdefault(message, len(texts))
                sends.append((started, time.perf_counter(), number))

    WebSocket.send = traced

    def write() -> None:
        ids = [carried(text) for text in texts]
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"sends": sends, "ids": ids}, f)

    atexit.register(write)


def fan_out(
    frames: Mapping[str, Any], taps: Sequence[tuple[str, float, float]], dashboards: int
) -> dict[str, list[float]]:
    """Return, for each tap (``taps``: its id, the instant it was sent and its row's latency,
    in order), the seconds of three parts of its row, from a server's frames
    (:func:`trace_frames`): from the tap to the first write of the first frame that carries
    it; from there to the end of that frame's ``dashboards``-th write (the server's fan-out:
    the room's first writes are the dashboards', a marshal's same row comes later); and from
    there until every dashboard held the row (the clients' reading). A tap whose frame was
    not written that many times while its row was on its way gets none."""
    sends = sorted(frames["sends"])
    starts = [s for s, _, _ in sends]
    carries = [set(ids) for ids in frames["ids"]]
    out: dict[str, list[float]] = {"before": [], "server": [], "clients": []}
    for tap, t0, row in taps:
        end = t0 + row
        text = None
        writes: list[tuple[float, float]] = []
        for start, done, number in sends[bisect.bisect_left(starts, t0) :]:
            if start > end or len(writes) == dashboards:
                break
            if text is None and tap in carries[number]:
                text = number
            if number == text:
                writes.append((start, done))
        if len(writes) < dashboards:
            continue
        out["before"].append(writes[0][0] - t0)
        out["server"].append(writes[-1][1] - writes[0][0])
        out["clients"].append(end - writes[-1][1])
    return out


def main() -> None:
    """Run pace's command line (``sys.argv[2:]``) with its steps timed into ``sys.argv[1]``."""
    out, argv = sys.argv[1], sys.argv[2:]
    from gevent import monkey

    monkey.patch_all()
    # a bench started in the background (``cmd &``) hands its children SIGINT ignored: the
    # bench stops pace with SIGINT, and the calls are written only if pace then ends
    signal.signal(signal.SIGINT, signal.default_int_handler)
    calls = install()
    trace_frames(frames_file(out))

    def write() -> None:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(calls, f)

    atexit.register(write)
    sys.argv = ["pace", *argv]
    from pace.cli import cli

    cli()


if __name__ == "__main__":
    main()

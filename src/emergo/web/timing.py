"""Where a move's time goes on the server: spans recorded for ``tools/bench_web.py``.

Off unless the environment variable ``EMERGO_WEB_TIMINGS`` names a file: then each move sent
over a game's WebSocket carries a :class:`Trace` (a context variable, so it follows the move
into the worker thread that plays it), the server marks each phase of the move's path, and
on ``SIGUSR1`` it writes every phase's durations (ms) to that file as JSON (``SIGUSR2``
forgets them: the benchmark's warm-up).  Off, a mark is one context-variable lookup.
"""

from __future__ import annotations

import contextvars
import json
import os
import signal
import threading
import time
from pathlib import Path

PATH = os.environ.get("EMERGO_WEB_TIMINGS") or None

current: contextvars.ContextVar[Trace | None] = contextvars.ContextVar(
    "emergo_web_trace", default=None
)
_lock = threading.Lock()
_spans: dict[str, list[float]] = {}


class Trace:
    """One move's way through the server: named marks, each ending the phase of that name."""

    def __init__(self) -> None:
        self.start = self.last = time.perf_counter()

    def mark(self, phase: str) -> None:
        now = time.perf_counter()
        add(phase, now - self.last)
        self.last = now

    def done(self) -> None:
        add("total", time.perf_counter() - self.start)


def add(phase: str, seconds: float) -> None:
    with _lock:
        _spans.setdefault(phase, []).append(1000 * seconds)


def begin() -> Trace | None:
    """A new trace for a move when timing is on (for :data:`current`), else ``None``."""
    return Trace() if PATH is not None else None


def mark(phase: str) -> None:
    """Mark the end of ``phase`` of the current trace, if there is one."""
    trace = current.get()
    if trace is not None:
        trace.mark(phase)


def dump(path: str | None = PATH) -> None:
    if path is None:
        return
    with _lock:
        text = json.dumps(_spans)
    tmp = Path(path + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def reset() -> None:
    with _lock:
        _spans.clear()


def install() -> None:
    """Dump on SIGUSR1, forget on SIGUSR2 (main thread only; nothing when timing is off)."""
    if PATH is None or threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGUSR1, lambda *_: dump())
    signal.signal(signal.SIGUSR2, lambda *_: reset())

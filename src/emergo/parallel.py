"""Independent jobs run in parallel, results as they finish: the one interface of the runners.

The match runner (:mod:`emergo.match`), self-play (:mod:`emergo.selfplay`) and
``tools/tune.py`` hand their games to a :class:`Runner`: :class:`ThreadRunner` runs
them in threads of this process (the C kernel releases the GIL while it searches),
``emergo.ray_runner.RayRunner`` on the workers of a Ray cluster.  A job's result
must depend on the job alone (its own seed, no state left by the jobs before it), so
that every runner, and every number of workers, gives the same results.

>>> runner = ThreadRunner(2)
>>> sorted(runner.run(lambda n: n * n, [1, 2, 3]))
[(0, 1), (1, 4), (2, 9)]
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar

J = TypeVar("J")
R = TypeVar("R")

WORKERS_MAX = 64
"""Threads a :class:`ThreadRunner` may have."""


def check_ray_address(text: str) -> str:
    """A Ray cluster's address as given, when it is one, else a ValueError saying why:
    ``auto``, ``HOST:PORT``, ``ray://HOST:PORT`` or ``local:N`` (a new local cluster of N
    CPUs).  (Checked here, without Ray, so that a command line can check it early.)

    >>> check_ray_address("local:2")
    'local:2'
    """
    match = re.fullmatch(r"local:(\d{1,3})", text)
    if match and 1 <= int(match.group(1)) <= WORKERS_MAX:
        return text
    if text == "auto" or (
        not text.startswith("local:") and re.fullmatch(r"(ray://)?[\w.\-\[\]:]+:\d{1,5}", text)
    ):
        return text
    raise ValueError(
        f"Ray address {text[:60]!r}: expected auto, HOST:PORT, ray://HOST:PORT "
        f"or local:N (N in 1..{WORKERS_MAX})"
    )


class Runner(Protocol):
    """Runs ``fn`` on each job; yields ``(index of the job, result)`` as each finishes.

    A job's exception is raised from the iterator.  Closing the iterator early (a
    ``break``, Ctrl-C in the consumer) abandons the jobs not yet finished.  ``fn`` and
    the jobs are pickled by runners that run them in other processes.
    """

    workers: int
    """Jobs at once (for progress and for sizing the work)."""

    def run(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]: ...


class ThreadRunner:
    """Jobs in ``workers`` daemon threads of this process."""

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int):
            raise TypeError(f"workers must be an int, not {type(workers).__name__}")
        if not 1 <= workers <= WORKERS_MAX:
            raise ValueError(f"workers must be in 1..{WORKERS_MAX}, not {workers}")
        self.workers = workers

    def run(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        pending = iter(range(len(jobs)))
        lock = threading.Lock()
        stop = threading.Event()
        done: queue.Queue[tuple[int, R] | BaseException] = queue.Queue()

        def work() -> None:
            while not stop.is_set():
                with lock:
                    index = next(pending, None)
                if index is None:
                    return
                try:
                    done.put((index, fn(jobs[index])))
                except BaseException as e:  # reported by the consumer
                    done.put(e)
                    return

        threads = [
            threading.Thread(target=work, name=f"emergo-runner-{i}", daemon=True)
            for i in range(min(self.workers, len(jobs)))
        ]
        for thread in threads:
            thread.start()
        try:
            for _ in range(len(jobs)):
                while True:  # a timeout, so that Ctrl-C reaches the consumer at once
                    try:
                        item = done.get(timeout=0.1)
                        break
                    except queue.Empty:
                        continue
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            stop.set()

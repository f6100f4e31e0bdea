"""Jobs on a Ray cluster (``--ray ADDRESS``): the one module of emergo that imports Ray.

``pip install 'emergo[ray]'``.  :class:`RayRunner` is a :class:`emergo.parallel.Runner`:
``emergo match``, ``emergo selfplay`` and ``tools/tune.py`` hand it their games, one
Ray task each, and get the results as they arrive.  A game's result depends only on
its job (its own seed), so the results equal those of the local runner.

A worker lost mid-run costs only its unfinished tasks: Ray runs a task again
elsewhere when the process running it dies (``max_retries``), and a task that
still fails for a lost worker is sent again by this runner (``resubmit`` times).

Addresses: ``auto`` (the cluster that ``ray start --head`` started on this machine,
or ``RAY_ADDRESS``), ``HOST:PORT`` of a head node, ``ray://HOST:PORT`` (Ray Client),
and ``local:N``: a new in-process cluster of N CPUs, shut down at :meth:`RayRunner.close`
(for tests and one-off runs).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import ray
import ray.exceptions

from emergo.parallel import check_ray_address as check_address

J = TypeVar("J")
R = TypeVar("R")

MAX_RETRIES = 3
"""Ray's own retries of a task whose worker process died."""
RESUBMIT = 3
"""Further submissions of a task that still failed for a lost worker or node."""
_LOST = (
    ray.exceptions.WorkerCrashedError,
    ray.exceptions.NodeDiedError,
    ray.exceptions.ObjectLostError,
    ray.exceptions.OwnerDiedError,
)


def _call(fn: Callable[[Any], Any], job: Any) -> Any:
    return fn(job)


class RayRunner:
    """Runs jobs as Ray tasks on the cluster at ``address`` (see the module)."""

    def __init__(
        self,
        address: str = "auto",
        *,
        max_retries: int = MAX_RETRIES,
        resubmit: int = RESUBMIT,
        window: int | None = None,
    ) -> None:
        check_address(address)
        self.address = address
        self.max_retries = max_retries
        self.resubmit = resubmit
        self.resubmitted = 0
        """Tasks this runner sent again after a lost worker (Ray's own retries not counted)."""
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no report home
        self._own = False
        if ray.is_initialized():
            pass  # a caller's session (a notebook, a test): used as it is
        elif address.startswith("local:"):
            ray.init(
                num_cpus=int(address.split(":", 1)[1]),
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
            self._own = True
        else:
            try:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise ValueError(f"cannot reach the Ray cluster at {address}: {e}") from None
            self._own = True
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.workers = max(1, cpus)
        self.window = window or 4 * self.workers
        """Tasks in flight at once: results come back while the rest wait to be sent."""

    def run(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        task = ray.remote(num_cpus=1, max_retries=self.max_retries, retry_exceptions=False)(_call)
        fn_ref = ray.put(fn)
        queued = iter(range(len(jobs)))
        pending: dict[Any, int] = {}
        tries: dict[int, int] = {}

        def submit(index: int) -> None:
            pending[task.remote(fn_ref, jobs[index])] = index

        for index in queued:
            submit(index)
            if len(pending) >= self.window:
                break
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.1)
                for ref in ready:
                    index = pending.pop(ref)
                    try:
                        result = ray.get(ref)
                    except _LOST:
                        tries[index] = tries.get(index, 0) + 1
                        if tries[index] > self.resubmit:
                            raise
                        self.resubmitted += 1
                        submit(index)
                        continue
                    except ray.exceptions.RayTaskError as e:
                        raise e.as_instanceof_cause() from None  # type: ignore[no-untyped-call]
                    following = next(queued, None)
                    if following is not None:
                        submit(following)
                    yield index, result
        finally:
            for ref in pending:
                ray.cancel(ref)

    def close(self) -> None:
        """Shut the cluster connection down (and a ``local:N`` cluster with it)."""
        if self._own and ray.is_initialized():
            ray.shutdown()
        self._own = False

    def __enter__(self) -> RayRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

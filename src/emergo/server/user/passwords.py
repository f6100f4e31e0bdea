"""Password work (argon2id hashes: sign-up, log-in, a password changed or checked) in threads
of its own, a few at a time (issue 27, attacker's finding 1).

Each hash takes ``argon2_memory_kib`` (64 MiB by default) and tens of milliseconds of a core.
Run in the threads that serve every database call, 30 log-ins at once took 1.3-2 GB and held
every worker, so an unrelated player's move waited 10 s for a 503.  Here at most ``slots``
hashes run at once (the memory they take is bounded by it), at most ``queue`` more wait, and
past them the request is refused at once with a 503 and ``Retry-After``: nothing of it was
done.  The database workers never wait for a hash.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from emergo.server.core.errors import SiteError

T = TypeVar("T")

RETRY_AFTER = 2
"""Seconds a refused request is asked to wait: a hash's few tens of milliseconds, queued."""


class PasswordsBusy(SiteError):
    """Every slot and place in the queue is taken: try again (HTTP 503, ``Retry-After``)."""

    def __init__(self) -> None:
        super().__init__(
            "the server is checking many passwords at once: try again in a few seconds",
            503,
            headers={"retry-after": str(RETRY_AFTER)},
        )


class PasswordWork:
    def __init__(self, slots: int, queue: int) -> None:
        self._pool = ThreadPoolExecutor(slots, thread_name_prefix="emergo-passwords")
        self._limit = slots + queue
        self._taken = 0  # on the event loop only: no lock

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a service call that hashes) in a password thread; :class:`PasswordsBusy`
        when ``slots + queue`` calls are in already."""
        if self._taken >= self._limit:
            raise PasswordsBusy
        self._taken += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, functools.partial(fn, *args))
        finally:
            self._taken -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

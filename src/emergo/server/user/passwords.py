"""Password work (argon2id hashes: sign-up, log-in, a password changed or checked) in threads
of its own, a few at a time (issue 27, attacker's finding 1).

Each hash takes ``argon2_memory_kib`` (64 MiB by default) and tens of milliseconds of a core.
Run in the threads that serve every database call, 30 log-ins at once took 1.3-2 GB and held
every worker, so an unrelated player's move waited 10 s for a 503.  Here at most ``slots``
hashes run at once (the memory they take is bounded by it), at most ``queue`` more wait, and
past them the request is refused at once with a 503 and ``Retry-After``: nothing of it was
done.  The database workers never wait for a hash.

One client address holds at most ``per_client`` of those places (past them a 429 with
``Retry-After``): else one client sending log-ins as fast as it is answered kept the queue
full, and everyone else's log-in, sign-up and password change got the 503.  A place is given
back when its work has ended in its thread, not when the request gave up on it (its deadline,
a client gone): a hash that still runs still holds its slot.  The work runs in the request's
context (:func:`emergo.server.core.db.deadline`): a request answered 503 at its deadline
commits nothing afterwards (an account made, a password changed without the other sessions
closed, under a 503 that says nothing was done).
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
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


class ClientBusy(SiteError):
    """The client's address has its ``per_client`` checks under way (HTTP 429)."""

    def __init__(self) -> None:
        super().__init__(
            "your address has other password checks under way: try again in a few seconds",
            429,
            headers={"retry-after": str(RETRY_AFTER)},
        )


class PasswordWork:
    def __init__(self, slots: int, queue: int, per_client: int = 2) -> None:
        self._pool = ThreadPoolExecutor(slots, thread_name_prefix="emergo-passwords")
        self._limit = slots + queue
        self._per_client = per_client
        self._lock = threading.Lock()  # the counts are given back in the password threads
        self._taken = 0
        self._clients: dict[str, int] = {}

    async def run(self, client: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a service call that hashes) in a password thread, for ``client`` (its
        address); :class:`PasswordsBusy` when ``slots + queue`` calls are in already,
        :class:`ClientBusy` when ``per_client`` of them are the client's."""
        with self._lock:
            if self._taken >= self._limit:
                raise PasswordsBusy
            if self._clients.get(client, 0) >= self._per_client:
                raise ClientBusy
            self._taken += 1
            self._clients[client] = self._clients.get(client, 0) + 1
        try:
            work = self._pool.submit(contextvars.copy_context().run, fn, *args)
        except BaseException:
            self._give_back(client)
            raise
        # done when it ran, failed, or was cancelled before it began (a request that gave up)
        work.add_done_callback(lambda _done: self._give_back(client))
        return await asyncio.wrap_future(work)

    def _give_back(self, client: str) -> None:
        with self._lock:
            self._taken -= 1
            left = self._clients[client] - 1
            if left:
                self._clients[client] = left
            else:
                del self._clients[client]

    def taken(self) -> int:
        """The places held now (slots and queue)."""
        with self._lock:
            return self._taken

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

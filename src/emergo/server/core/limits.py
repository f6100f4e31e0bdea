"""Rate limits: a number of actions per fixed window, for an action and who does it.

:class:`SharedLimiter` counts in the database (one upsert a hit), so a limit holds across every
server process: sign-up, log-in, challenges, chat.  :class:`LocalLimiter` counts in this process
only: moves and other game commands (a move is already a transaction; docs/online.md says that
a user with N processes behind a balancer gets N times the limit).  Old windows are deleted by
the housekeeping sweep (:mod:`emergo.server.periodic`).

Two more bounds hold per process, in memory: :class:`Connections` caps the long-lived
connections (WebSockets, NDJSON streams) one client holds open, and :class:`Credits` the
messages one WebSocket sends (lila-ws's per-connection ``RateLimit``).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable

from sqlalchemy import delete, select, text

from emergo.server.core import models as m
from emergo.server.core.db import Database, now
from emergo.server.core.errors import SiteError
from emergo.server.core.words import duration


def address_key(host: str) -> str:
    """What a client's address counts as for the per-address limits: an IPv4 address as it is
    (also when written mapped into IPv6, ``::ffff:192.0.2.1``: one client, one count), an IPv6
    address as its /64, the network one subscriber is given and whose 2**64 addresses any of its
    hosts may take (as each address its own count, one client had a limit per address it chose:
    sign-ups, log-ins, password checks without bound; a host's privacy addresses change daily,
    so its own known log-in client was forgotten).  Anything else (a test client's name, "?")
    as it is, cut to 64 characters."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class RateLimited(SiteError):
    """Too many actions: try again in ``retry_after`` seconds (HTTP 429, ``Retry-After``)."""

    def __init__(self, what: str, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(
            f"too many {what}: try again in {duration(self.retry_after, up=True)}",
            429,
            headers={"retry-after": str(self.retry_after)},
        )


_UPSERT = text(
    'INSERT INTO rate_limits (key, "window", count) VALUES (:key, :window, 1) '
    "ON CONFLICT (key) DO UPDATE SET "
    'count = CASE WHEN rate_limits."window" = :window THEN rate_limits.count + 1 ELSE 1 END, '
    '"window" = :window '
    "RETURNING count"
)


class SharedLimiter:
    def __init__(self, db: Database) -> None:
        self.db = db

    def hit(self, action: str, who: str, limit: int, seconds: float) -> None:
        """Count one ``action`` by ``who``; :class:`RateLimited` past ``limit`` per window."""
        t = now()
        window = math.floor(t / seconds) * seconds
        with self.db.write(effect=False) as tx:  # a count, not the request's effect
            count = tx.execute(_UPSERT, {"key": f"{action}:{who}"[:200], "window": window}).scalar()
        if count is not None and count > limit:
            raise RateLimited(action, window + seconds - t)

    def check(self, action: str, who: str, limit: int, seconds: float) -> None:
        """:class:`RateLimited` when ``limit`` actions of the window are counted already (the
        next would be past it), counting none: for what is counted only when it fails."""
        t = now()
        window = math.floor(t / seconds) * seconds
        with self.db.read() as c:
            row = c.execute(
                select(m.rate_limits.c.window, m.rate_limits.c.count).where(
                    m.rate_limits.c.key == f"{action}:{who}"[:200]
                )
            ).first()
        if row is not None and row[0] == window and row[1] >= limit:
            raise RateLimited(action, window + seconds - t)

    def prune(self, older_than: float) -> None:
        with self.db.write() as tx:
            tx.execute(delete(m.rate_limits).where(m.rate_limits.c.window < older_than))


class LocalLimiter:
    """The same count in this process's memory (bounded: windows past are dropped)."""

    def __init__(self) -> None:
        self._counts: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()

    def hit(self, action: str, who: str, limit: int, seconds: float, cost: int = 1) -> None:
        """Count ``cost`` actions (a request that costs that many of the simplest one)."""
        t = now()
        window = math.floor(t / seconds) * seconds
        key = f"{action}:{who}"
        with self._lock:
            if len(self._counts) > 100_000:
                self._counts = {k: v for k, v in self._counts.items() if v[0] == window}
            start, count = self._counts.get(key, (window, 0))
            count = count + cost if start == window else cost
            self._counts[key] = (window, count)
        if count > limit:
            raise RateLimited(action, window + seconds - t)


CONNECTION_RETRY = 10.0
"""Seconds a client refused a connection is told to wait (``Retry-After``)."""


class Ticket:
    """One open connection of :class:`Connections`; :meth:`close` gives it back (once)."""

    def __init__(self, owner: Connections, who: str) -> None:
        self._owner = owner
        self._who: str | None = who

    def close(self) -> None:
        who, self._who = self._who, None
        if who is not None:
            self._owner._release(who)

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Connections:
    """Open WebSockets and NDJSON streams per client (a user, or an address when anonymous),
    in this process: past ``limit`` a new one is refused (:class:`RateLimited`: HTTP 429, a
    socket's close code 4429), so one client cannot hold thousands of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def open(self, who: str) -> Ticket:
        with self._lock:
            count = self._open.get(who, 0)
            if count >= self.limit:
                raise RateLimited(
                    f"open connections ({self.limit} a client): close some", CONNECTION_RETRY
                )
            self._open[who] = count + 1
        return Ticket(self, who)

    def count(self, who: str) -> int:
        with self._lock:
            return self._open.get(who, 0)

    def _release(self, who: str) -> None:
        with self._lock:
            count = self._open.get(who, 0) - 1
            if count > 0:
                self._open[who] = count
            else:
                self._open.pop(who, None)


class Credits:
    """The messages one WebSocket may send: ``limit`` a window of ``seconds`` (lila-ws's
    ``RateLimit``: credits refilled when the window is over).  :meth:`take` answers how far
    past the limit this message is: 0 within it, 1 for the first message over it (answer it
    with an error), more for the next ones (drop them); :attr:`limit` over it: close."""

    def __init__(
        self, limit: int, seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.seconds = seconds
        self._clock = clock
        self._window = clock()
        self._count = 0

    def take(self) -> int:
        t = self._clock()
        if t - self._window >= self.seconds:
            self._window, self._count = t, 0
        self._count += 1
        return max(0, self._count - self.limit)

    def retry_after(self) -> float:
        return max(0.0, self._window + self.seconds - self._clock())

"""Rate limits: a number of actions per fixed window, for an action and who does it.

:class:`SharedLimiter` counts in the database (one upsert a hit), so a limit holds across every
server process: sign-up, log-in, challenges, chat.  :class:`LocalLimiter` counts in this process
only: moves and other game commands (a move is already a transaction; docs/online.md says that
a user with N processes behind a balancer gets N times the limit).  Old windows are deleted by
the housekeeping sweep (:mod:`emergo.online.timers`).
"""

from __future__ import annotations

import math
import threading

from sqlalchemy import delete, text

from emergo.online import models as m
from emergo.online.db import Database, now


class RateLimited(Exception):
    """Too many actions: try again in ``retry_after`` seconds (HTTP 429)."""

    def __init__(self, what: str, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(f"too many {what}: try again in {self.retry_after} s")


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
        with self.db.write() as tx:
            count = tx.execute(_UPSERT, {"key": f"{action}:{who}"[:200], "window": window}).scalar()
        if count is not None and count > limit:
            raise RateLimited(action, window + seconds - t)

    def prune(self, older_than: float) -> None:
        with self.db.write() as tx:
            tx.execute(delete(m.rate_limits).where(m.rate_limits.c.window < older_than))


class LocalLimiter:
    """The same count in this process's memory (bounded: windows past are dropped)."""

    def __init__(self) -> None:
        self._counts: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()

    def hit(self, action: str, who: str, limit: int, seconds: float) -> None:
        t = now()
        window = math.floor(t / seconds) * seconds
        key = f"{action}:{who}"
        with self._lock:
            if len(self._counts) > 100_000:
                self._counts = {k: v for k, v in self._counts.items() if v[0] == window}
            start, count = self._counts.get(key, (window, 0))
            count = count + 1 if start == window else 1
            self._counts[key] = (window, count)
        if count > limit:
            raise RateLimited(action, window + seconds - t)

"""Who is connected to which game, across processes: for ``opponentGone`` and the claims.

Each process counts its own connections of each (game, player) (a game page's WebSocket, a
Board API game stream) and writes a heartbeat for each of them every :data:`BEAT` seconds (and
at once when one opens), into the ``presence`` table every process reads; a move is a
heartbeat too (:meth:`emergo.online.rounds.Rounds.play`).  A player is **present** while their
last heartbeat is younger than :data:`TTL`; otherwise they are **gone since** it (since the
game began, if they never connected).  A process killed mid-game stops beating, so its players
are gone :data:`TTL` seconds later, as if they had closed the page.
"""

from __future__ import annotations

from collections import Counter

from sqlalchemy import delete, func, select, text

from emergo.online import models as m
from emergo.online.db import Database, now

BEAT = 3.0
TTL = 10.0
_UPSERT_CROWD = text(
    "INSERT INTO crowds (game_id, process_id, count, seen) VALUES (:game, :process, :count, :seen) "
    "ON CONFLICT (game_id, process_id) DO UPDATE SET count = excluded.count, seen = excluded.seen"
)
_UPSERT = text(
    "INSERT INTO presence (game_id, user_id, seen) VALUES (:game, :user, :seen) "
    "ON CONFLICT (game_id, user_id) DO UPDATE SET seen = excluded.seen"
)


class Presence:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.local: Counter[tuple[str, int]] = Counter()
        self.watchers: Counter[str] = Counter()
        """Spectators of each game connected to this process (anyone not playing it)."""
        self._crowds_written: set[str] = set()

    def connect(self, game_id: str, user_id: int) -> None:
        """A connection of a player to their game opened (call, then :meth:`beat_one`)."""
        self.local[(game_id, user_id)] += 1

    def disconnect(self, game_id: str, user_id: int) -> None:
        key = (game_id, user_id)
        self.local[key] -= 1
        if self.local[key] <= 0:
            del self.local[key]

    def beat_one(self, game_id: str, user_id: int) -> None:
        with self.db.write() as tx:
            tx.execute(_UPSERT, {"game": game_id, "user": user_id, "seen": now()})

    def watch(self, game_id: str, delta: int) -> None:
        self.watchers[game_id] += delta
        if self.watchers[game_id] <= 0:
            del self.watchers[game_id]

    def beat(
        self,
        keys: list[tuple[str, int]],
        crowds: dict[str, int] | None = None,
        process_id: str | None = None,
    ) -> None:
        """The heartbeat of these players and this process's spectator counts (the periodic
        task: copies of :attr:`local` and :attr:`watchers`, made on the event loop that
        changes them)."""
        t = now()
        crowds = crowds or {}
        gone = self._crowds_written - set(crowds)
        if not keys and not crowds and not gone:
            return
        with self.db.write() as tx:
            if keys:
                tx.execute(_UPSERT, [{"game": g, "user": u, "seen": t} for g, u in keys])
            if process_id is not None:
                if crowds:
                    tx.execute(
                        _UPSERT_CROWD,
                        [
                            {"game": g, "process": process_id, "count": n, "seen": t}
                            for g, n in crowds.items()
                        ],
                    )
                if gone:
                    tx.execute(
                        delete(m.crowds)
                        .where(m.crowds.c.process_id == process_id)
                        .where(m.crowds.c.game_id.in_(gone))
                    )
                self._crowds_written = set(crowds)

    def crowd(self, game_id: str) -> int:
        """Spectators of a game on every live process."""
        with self.db.read() as c:
            total = c.execute(
                select(func.sum(m.crowds.c.count))
                .where(m.crowds.c.game_id == game_id)
                .where(m.crowds.c.seen > now() - TTL)
            ).scalar()
        return int(total or 0)

    def gone_since(self, game_id: str, user_id: int, started: float) -> float | None:
        """None while the player is present, else when they were last seen (module docstring)."""
        with self.db.read() as c:
            seen = c.execute(
                select(m.presence.c.seen)
                .where(m.presence.c.game_id == game_id)
                .where(m.presence.c.user_id == user_id)
            ).scalar()
        t = now()
        last = seen if seen is not None else started
        return None if t - last < TTL else last

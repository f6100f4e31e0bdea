"""Who is connected to which game, across processes: for ``opponentGone`` and the claims.

Each process counts its own connections of each (game, player) (a game page's WebSocket, a
Board API game stream) and writes a heartbeat for each of them every :data:`BEAT` seconds (and
at once when one opens), into the ``presence`` table every process reads; a move is a
heartbeat too (:meth:`moved`, written with the next beat).  A player is **present** while
their last heartbeat is younger than :data:`TTL`; otherwise they are **gone since** it (since the
game began, if they never connected).  A process killed mid-game stops beating, so its players
are gone :data:`TTL` seconds later, as if they had closed the page.

The same beat reads back, in one statement each, the heartbeats and spectator counts of every
game this process has connections to (:attr:`Presence.seen`, :attr:`Presence.crowds`): the
sockets and streams of those games ask this memory, never the database, however many they are.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import delete, func, select, text

from emergo.server.core import models as m
from emergo.server.core.db import Database, now

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
        self.moves: dict[tuple[str, int], float] = {}
        """Players who moved since the last beat (their heartbeat, written with it)."""
        self.seen: dict[tuple[str, int], float] = {}
        """The last heartbeat of the players of this process's games, as of the last beat."""
        self.crowds: dict[str, int] = {}
        """The spectators on every process of this process's games, as of the last beat."""
        self.read_at = 0.0
        self._games: Counter[str] = Counter()

    def moved(self, game_id: str, user_id: int) -> None:
        """A player moved: a heartbeat of theirs (written with the next beat)."""
        t = now()
        self.moves[(game_id, user_id)] = t
        self.seen[(game_id, user_id)] = t

    def connect(self, game_id: str, user_id: int) -> None:
        """A connection of a player to their game opened (call, then :meth:`beat_one`)."""
        self.local[(game_id, user_id)] += 1
        self._games[game_id] += 1

    def disconnect(self, game_id: str, user_id: int) -> None:
        key = (game_id, user_id)
        self.local[key] -= 1
        if self.local[key] <= 0:
            del self.local[key]
        self._games[game_id] -= 1
        if self._games[game_id] <= 0:
            del self._games[game_id]

    def beat_one(self, game_id: str, user_id: int) -> None:
        t = now()
        with self.db.write() as tx:
            tx.execute(_UPSERT, {"game": game_id, "user": user_id, "seen": t})
        self.seen[(game_id, user_id)] = t

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
        moves, self.moves = self.moves, {}
        seen = {key: t for key in keys}
        for key, at in moves.items():
            seen.setdefault(key, at)
        if not seen and not crowds and not gone:
            self.seen, self.crowds = {}, {}
            return
        with self.db.write() as tx:
            if seen:
                tx.execute(
                    _UPSERT, [{"game": g, "user": u, "seen": at} for (g, u), at in seen.items()]
                )
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
            games = sorted({g for g, _ in keys} | set(crowds))
            self._read_back(tx, games, t)

    def _read_back(self, tx: Any, games: list[str], t: float) -> None:
        """The heartbeats and spectators of ``games`` on every process (module docstring)."""
        seen: dict[tuple[str, int], float] = {}
        crowds: dict[str, int] = {}
        for i in range(0, len(games), 500):
            chunk = games[i : i + 500]
            for row in tx.execute(
                select(m.presence.c.game_id, m.presence.c.user_id, m.presence.c.seen).where(
                    m.presence.c.game_id.in_(chunk)
                )
            ):
                seen[(row.game_id, row.user_id)] = row.seen
            for row in tx.execute(
                select(m.crowds.c.game_id, func.sum(m.crowds.c.count))
                .where(m.crowds.c.game_id.in_(chunk))
                .where(m.crowds.c.seen > t - TTL)
                .group_by(m.crowds.c.game_id)
            ):
                crowds[row[0]] = int(row[1] or 0)
        self.seen, self.crowds, self.read_at = seen, crowds, t

    def watched(self, game_id: str) -> bool:
        """Whether this process's memory of the game is kept (module docstring)."""
        return now() - self.read_at < TTL / 2 and (
            game_id in self.watchers or game_id in self._games
        )

    def crowd(self, game_id: str) -> int:
        """Spectators of a game on every live process."""
        if self.watched(game_id):
            return self.crowds.get(game_id, 0)
        with self.db.read() as c:
            total = c.execute(
                select(func.sum(m.crowds.c.count))
                .where(m.crowds.c.game_id == game_id)
                .where(m.crowds.c.seen > now() - TTL)
            ).scalar()
        return int(total or 0)

    def gone_since(self, game_id: str, user_id: int, started: float) -> float | None:
        """None while the player is present, else when they were last seen (module docstring)."""
        if self.watched(game_id):
            last = self.seen.get((game_id, user_id), started)
            return None if now() - last < TTL else last
        with self.db.read() as c:
            seen = c.execute(
                select(m.presence.c.seen)
                .where(m.presence.c.game_id == game_id)
                .where(m.presence.c.user_id == user_id)
            ).scalar()
        t = now()
        last = max(seen if seen is not None else started, self.moves.get((game_id, user_id), 0.0))
        return None if t - last < TTL else last

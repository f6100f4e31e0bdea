"""Who is here: an ``online`` row a player (migration 0008), touched by his open pages' site
socket (``/ws/site``), and a bot account's by its open event stream (``/api/stream/event``),
when it opens and at least every :data:`SEEN_EVERY` seconds; he is online while it is younger
than :data:`ONLINE_FOR`. Any process of the site sees the same players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, text

from emergo.server.core import models as m
from emergo.server.core.db import Database, now
from emergo.server.round.service import Rounds

SEEN_EVERY = 30.0
"""Seconds between two marks of an open page (the site socket's idle wake-up)."""
ONLINE_FOR = 75.0
"""Seconds a player counts as online after his pages' last mark."""
MAX_LIST = 100

_UPSERT = text(
    "INSERT INTO online (user_id, seen) VALUES (:user, :seen) "
    "ON CONFLICT (user_id) DO UPDATE SET seen = excluded.seen"
)


@dataclass(frozen=True)
class Status:
    """A player's status: online now, and the game he is playing (a live one first)."""

    online: bool
    playing: str | None

    def json(self) -> dict[str, Any]:
        return {"online": self.online, "playing": self.playing}


class People:
    """Who is here on one database."""

    def __init__(self, db: Database, rounds: Rounds) -> None:
        self.db = db
        self.rounds = rounds

    def seen(self, user_id: int, t: float | None = None) -> None:
        """A page of ``user_id`` is open now."""
        with self.db.write() as tx:
            tx.execute(_UPSERT, {"user": user_id, "seen": now() if t is None else t})

    def online(
        self, limit: int = MAX_LIST, t: float | None = None, *, bots: bool = False
    ) -> list[str]:
        """The names of the players online now, by name (``bots``: the bot accounts only)."""
        t = now() if t is None else t
        query = (
            select(m.users.c.name)
            .join(m.online, m.online.c.user_id == m.users.c.id)
            .where(m.online.c.seen > t - ONLINE_FOR)
            .where(m.users.c.deleted.is_(False))
            .where(m.users.c.disabled.is_(False))
        )
        if bots:
            query = query.where(m.users.c.bot.is_(True))
        with self.db.read() as c:
            names = c.execute(
                query.order_by(m.users.c.name_key).limit(max(1, min(limit, MAX_LIST)))
            ).scalars()
            return [str(n) for n in names if n]

    def search(self, prefix: str, limit: int = 20) -> list[str]:
        """Names that start with ``prefix`` (any case), by name: at most ``limit``."""
        key = prefix.strip().lower()
        if not key or len(key) > 20:
            return []
        with self.db.read() as c:
            rows = c.execute(
                select(m.users.c.name, m.users.c.name_key)
                .where(m.users.c.name_key >= key)
                .where(m.users.c.name_key < key + "\uffff")
                .where(m.users.c.deleted.is_(False))
                .where(m.users.c.disabled.is_(False))
                .order_by(m.users.c.name_key)
                .limit(max(1, min(limit, MAX_LIST)))
            ).all()
        return [str(r.name) for r in rows if r.name and str(r.name_key).startswith(key)]

    def status(self, user_id: int, t: float | None = None) -> Status:
        t = now() if t is None else t
        with self.db.read() as c:
            seen = c.execute(select(m.online.c.seen).where(m.online.c.user_id == user_id)).scalar()
        games = [g for g in self.rounds.playing(user_id, limit=20) if not g.seats.hotseat]
        games.sort(key=lambda g: (g.speed != "live", -g.updated))
        return Status(
            online=seen is not None and seen > t - ONLINE_FOR,
            playing=games[0].id if games else None,
        )

"""The games being played now, for spectators (lichess's "current games"): the newest moves
first, any speed.  A read of the ``games`` table by its ``status`` index; no state of its own."""

from __future__ import annotations

from emergo.server.core import models as m
from emergo.server.core.db import Database
from emergo.server.round.views import GAME_ROWS, GameView, view_of

MAX_LIVE = 100
"""The most games one list holds."""


def live_games(db: Database, limit: int = 50, speed: str | None = None) -> list[GameView]:
    """Games in progress (both players seated, not over), the one moved last first."""
    query = GAME_ROWS.where(m.games.c.status == "started")
    if speed is not None:
        query = query.where(m.games.c.speed == speed)
    query = query.order_by(m.games.c.updated.desc(), m.games.c.id).limit(
        max(1, min(limit, MAX_LIVE))
    )
    with db.read() as c:
        rows = c.execute(query).all()
    return [view_of(r) for r in rows]


__all__ = ["MAX_LIVE", "live_games"]

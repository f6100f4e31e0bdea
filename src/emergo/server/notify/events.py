"""A user's events: the lines of lichess's ``/api/stream/event`` (a challenge, a game started or
finished), kept a day in ``user_events`` and told on the bus topic ``u:ID``.

Written in the transaction of what caused them (a challenge, the start or end of a game), so a
reader that woke on the topic finds them by id: :func:`last_event`, then :func:`events_after`.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select

from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now

BATCH = 500
"""Most events one read returns."""


def user_event(tx: Tx, user_id: int, data: dict[str, Any], t: float | None = None) -> None:
    """A line of a user's ``/api/stream/event``, written in the caller's transaction."""
    tx.execute(insert(m.user_events).values(user_id=user_id, data=data, at=t or now()))
    tx.notify(f"u:{user_id}")


def last_event(db: Database, user_id: int) -> int:
    """The id of the user's latest event (0: none): a new reader starts after it."""
    with db.read() as c:
        value = c.execute(
            select(func.max(m.user_events.c.id)).where(m.user_events.c.user_id == user_id)
        ).scalar()
    return int(value or 0)


def events_after(db: Database, user_id: int, after: int) -> list[tuple[int, dict[str, Any]]]:
    """The user's events after the id ``after``, oldest first: ``[(id, data), ...]``."""
    with db.read() as c:
        rows = c.execute(
            select(m.user_events.c.id, m.user_events.c.data)
            .where(m.user_events.c.user_id == user_id)
            .where(m.user_events.c.id > after)
            .order_by(m.user_events.c.id)
            .limit(BATCH)
        ).all()
    return [(r.id, r.data) for r in rows]

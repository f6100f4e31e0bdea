"""A player's puzzle rating over time, for the dashboard's chart (docs/training.md)."""

from __future__ import annotations

from sqlalchemy import select

from emergo.server.core import models as m
from emergo.server.core.db import Database, now

__all__ = ["rating_history"]


def rating_history(db: Database, user_id: int, days: int) -> list[list[int]]:
    """The puzzle rating after each rated try of the last ``days`` days, ``[ms, rating]``, led
    by the rating at the window's start: 1500 plus the sum of the rounds' changes (each the
    difference of the rounded ratings, so the sum is the rounded rating exactly).  A merged
    visitor's round (no change kept) is no point."""
    r, since = m.puzzle_rounds, now() - days * 86400
    rated = select(r.c.created, r.c.rating_diff).where(
        r.c.user_id == user_id, r.c.rating_diff.is_not(None)
    )
    rating, start, out = 1500, 1500, []
    with db.read() as c:
        for created, diff in c.execute(rated.order_by(r.c.created)):
            rating += diff
            if created < since:
                start = rating
            else:
                out.append([round(created * 1000), rating])
    return [[round(since * 1000), start], *out]

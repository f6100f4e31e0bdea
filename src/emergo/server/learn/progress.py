"""A player's progress through the course of /learn, kept per account (``learn_progress``).

Progress is the stars of each level done, the best kept: a level done again with fewer stars
keeps the old count, and a visitor's progress (kept in his browser) is merged into the account
he signs up or logs in with, level by level, the higher count winning.  The course itself says
which levels there are (:func:`checked`): an id it does not know is refused, never stored.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from sqlalchemy import insert, select, update

from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.core.errors import SiteError

__all__ = ["MAX_STARS", "Progress", "ProgressError", "checked", "merge_into"]

MAX_STARS = 3


class ProgressError(SiteError):
    """Progress a request cannot store: a level the course does not hold, a count of stars
    that is not 1 to 3."""


def checked(levels: Any, known: Collection[str]) -> dict[str, int]:
    """``levels`` (``{level id: stars}`` from a request) as stars by level, or a
    :class:`ProgressError` naming what is wrong: not an object, more entries than the course has
    levels, an id not in ``known``, stars not a whole number from 1 to 3."""
    if not isinstance(levels, dict):
        raise ProgressError('levels must be an object: {"stage/level": stars, ...}')
    if len(levels) > len(known):
        raise ProgressError(f"levels holds {len(levels)} entries; the course has {len(known)}")
    unknown = [str(key)[:80] for key in levels if key not in known]
    if unknown:
        shown = ", ".join(repr(k) for k in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise ProgressError(f"no level {shown}{more} in the course", unknown=unknown[:20])
    out: dict[str, int] = {}
    for key, stars in levels.items():
        if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= MAX_STARS:
            raise ProgressError(f"the stars of {key} must be a whole number from 1 to {MAX_STARS}")
        out[key] = stars
    return out


class Progress:
    """The stars of each account's levels (module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def stars(self, user_id: int) -> dict[str, int]:
        """The stars of every level the account has done, by level id."""
        table = m.learn_progress
        with self.db.read() as c:
            rows = c.execute(
                select(table.c.level, table.c.stars).where(table.c.user_id == user_id)
            ).all()
        return {row.level: row.stars for row in rows}

    def merge(self, user_id: int, levels: Mapping[str, int]) -> dict[str, int]:
        """Keep the better of the stored and the given stars of each level (checked first:
        :func:`checked`); the account's stars after it."""
        with self.db.write() as tx:
            return merge_into(tx, user_id, levels, now())


def merge_into(tx: Tx, user_id: int, levels: Mapping[str, int], t: float) -> dict[str, int]:
    """:meth:`Progress.merge` in the caller's transaction (a practice game's end gives its stars
    in the transaction that ends it); the account's stars after it."""
    table = m.learn_progress
    # the account's row locked: two merges of one account take turns (PostgreSQL)
    tx.execute(tx.locked(select(m.users.c.id).where(m.users.c.id == user_id)))
    have = {
        row.level: row.stars
        for row in tx.execute(
            select(table.c.level, table.c.stars).where(table.c.user_id == user_id)
        ).all()
    }
    for level, stars in levels.items():
        if level not in have:
            tx.execute(insert(table).values(user_id=user_id, level=level, stars=stars, updated=t))
        elif stars > have[level]:
            tx.execute(
                update(table)
                .where(table.c.user_id == user_id, table.c.level == level)
                .values(stars=stars, updated=t)
            )
        have[level] = max(stars, have.get(level, 0))
    return have

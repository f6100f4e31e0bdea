"""Follows and blocks, one ``relations`` row each (migration 0008).

A block wins over a follow: blocking a player ends the follows both ways, and a blocked player
can neither follow the blocker nor challenge him, pair with him from the lobby, or write to him
in a game's chat (:func:`blocked_between`, asked by the challenges and the chat in their own
transactions). Following a player one blocks lifts the block, as lichess does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, or_, select

from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.core.errors import SiteError
from emergo.server.user.accounts import User

KINDS = ("follow", "block")
MAX_FOLLOWS = 400
"""A player follows at most this many (lichess: 400)."""


class RelationError(SiteError):
    """A follow or block that cannot be: the message says why."""


@dataclass(frozen=True)
class Relation:
    """What ``user`` is to ``other`` and ``other`` to him."""

    following: bool
    blocking: bool
    followed_by: bool
    blocked_by: bool

    def json(self) -> dict[str, bool]:
        return {
            "following": self.following,
            "blocking": self.blocking,
            "followsYou": self.followed_by,
            "blocksYou": self.blocked_by,
        }


def _kinds(c: Any, a: int, b: int) -> set[str]:
    rows = c.execute(
        select(m.relations.c.kind)
        .where(m.relations.c.user_id == a)
        .where(m.relations.c.other_id == b)
    ).scalars()
    return set(rows)


def blocked_between(c: Any, a: int, b: int) -> bool:
    """Whether either of two players blocks the other (in ``c``, a transaction or connection)."""
    row = c.execute(
        select(m.relations.c.user_id)
        .where(m.relations.c.kind == "block")
        .where(
            or_(
                (m.relations.c.user_id == a) & (m.relations.c.other_id == b),
                (m.relations.c.user_id == b) & (m.relations.c.other_id == a),
            )
        )
        .limit(1)
    ).first()
    return row is not None


def blocks(c: Any, blocker: int, blocked: int) -> bool:
    """Whether ``blocker`` blocks ``blocked``."""
    return "block" in _kinds(c, blocker, blocked)


def followers(c: Any, user_id: int) -> list[int]:
    """The ids of the players who follow ``user_id``."""
    return list(
        c.execute(
            select(m.relations.c.user_id)
            .where(m.relations.c.other_id == user_id)
            .where(m.relations.c.kind == "follow")
        ).scalars()
    )


class Relations:
    """The follows and blocks of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def _set(self, tx: Tx, user: User, other: User, kind: str) -> None:
        if kind not in _kinds(tx, user.id, other.id):
            tx.execute(
                insert(m.relations).values(
                    user_id=user.id, other_id=other.id, kind=kind, created=now()
                )
            )

    def _unset(self, tx: Tx, a: int, b: int, kind: str) -> None:
        tx.execute(
            delete(m.relations)
            .where(m.relations.c.user_id == a)
            .where(m.relations.c.other_id == b)
            .where(m.relations.c.kind == kind)
        )

    def follow(self, user: User, other: User) -> Relation:
        if other.id == user.id:
            raise RelationError("you cannot follow yourself")
        with self.db.write() as tx:
            if blocks(tx, other.id, user.id):
                raise RelationError(f"{other.name} does not let you follow them", 403)
            count = len(
                tx.execute(
                    select(m.relations.c.other_id)
                    .where(m.relations.c.user_id == user.id)
                    .where(m.relations.c.kind == "follow")
                    .limit(MAX_FOLLOWS + 1)
                ).all()
            )
            if count >= MAX_FOLLOWS:
                raise RelationError(f"you follow {MAX_FOLLOWS} players: unfollow some first", 409)
            self._unset(tx, user.id, other.id, "block")
            self._set(tx, user, other, "follow")
        return self.between(user, other)

    def unfollow(self, user: User, other: User) -> Relation:
        with self.db.write() as tx:
            self._unset(tx, user.id, other.id, "follow")
        return self.between(user, other)

    def block(self, user: User, other: User) -> Relation:
        if other.id == user.id:
            raise RelationError("you cannot block yourself")
        with self.db.write() as tx:
            self._unset(tx, user.id, other.id, "follow")
            self._unset(tx, other.id, user.id, "follow")
            self._set(tx, user, other, "block")
        return self.between(user, other)

    def unblock(self, user: User, other: User) -> Relation:
        with self.db.write() as tx:
            self._unset(tx, user.id, other.id, "block")
        return self.between(user, other)

    def between(self, user: User, other: User) -> Relation:
        with self.db.read() as c:
            mine, theirs = _kinds(c, user.id, other.id), _kinds(c, other.id, user.id)
        return Relation(
            following="follow" in mine,
            blocking="block" in mine,
            followed_by="follow" in theirs,
            blocked_by="block" in theirs,
        )

    def names(self, user_id: int, kind: str) -> list[str]:
        """The names of the players ``user_id`` follows (``follow``) or blocks, by name."""
        if kind not in KINDS:
            raise RelationError(f"kind is one of {', '.join(KINDS)}")
        with self.db.read() as c:
            names = c.execute(
                select(m.users.c.name)
                .join(m.relations, m.relations.c.other_id == m.users.c.id)
                .where(m.relations.c.user_id == user_id)
                .where(m.relations.c.kind == kind)
                .where(m.users.c.deleted.is_(False))
                .order_by(m.users.c.name_key)
            ).scalars()
            return [str(n) for n in names if n]

    def followed_ids(self, user_id: int) -> list[int]:
        with self.db.read() as c:
            return list(
                c.execute(
                    select(m.relations.c.other_id)
                    .where(m.relations.c.user_id == user_id)
                    .where(m.relations.c.kind == "follow")
                ).scalars()
            )

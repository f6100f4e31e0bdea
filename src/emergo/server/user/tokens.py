"""Personal API tokens with scopes (lichess's personal access tokens), stored hashed.

A token is ``emo_`` and 32 random URL-safe characters, shown once when it is made (by
``emergo admin token NAME`` or the account page); the database keeps its SHA-256 and its first
8 characters (to tell tokens apart in a list).  A request sends it as
``Authorization: Bearer emo_...``.  Scopes, each a set of endpoints (docs/online.md):

* ``board:play`` -- play one's games with the Board API (stream, move, resign, draw, ...);
* ``challenge:read`` -- read one's challenges and the event stream;
* ``challenge:write`` -- make, accept, decline and cancel challenges;
* ``bot:play`` -- the Bot API of issue 20 (a bot account's games);
* ``preference:read`` -- read one's mail settings (the e-mail address among them);
* ``preference:write`` -- change them;
* ``email:read`` -- read the address alone (``GET /api/account/email``, lichess's).  Without
  these a token given to a program (a board app, a bot) can neither read the address nor send
  the notices elsewhere.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update

from emergo.server.core import models as m
from emergo.server.core.db import Database, now
from emergo.server.core.errors import SiteError
from emergo.server.core.text import plain_text
from emergo.server.user.accounts import User, _user, hash_secret

SCOPES = (
    "board:play",
    "challenge:read",
    "challenge:write",
    "bot:play",
    "preference:read",
    "preference:write",
    "follow:read",
    "follow:write",
    "study:read",
    "study:write",
    "tournament:write",
    "puzzle:read",  # issue 29: your puzzle history (emergo.server.puzzle)
    "puzzle:write",
    "email:read",  # issue 27: the account's e-mail address alone (lichess's)
)
DEFAULT_SCOPES = ("board:play", "challenge:read", "challenge:write", "tournament:write")
BOT_SCOPES = ("bot:play", "challenge:read", "challenge:write", "tournament:write")
"""A bot account's default: the Bot API's scope in place of the Board API's, which a bot
cannot use."""
PREFIX = "emo_"
MAX_TOKENS = 100
"""Tokens an account may hold at once (each is a row: no one fills the database with them)."""
MAX_ID = 2**31 - 1
"""The largest token id (a 32-bit SQL integer)."""
_TOUCH = 60.0  # last_used is written at most once a minute a token


class TokenError(SiteError):
    """A token or scope that cannot be used: the message says which."""


@dataclass(frozen=True)
class TokenInfo:
    id: int
    hint: str
    description: str
    scopes: tuple[str, ...]
    created: float
    last_used: float | None

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "hint": self.hint,
            "description": self.description,
            "scopes": list(self.scopes),
            "created": self.created,
            "lastUsed": self.last_used,
        }


def check_scopes(scopes: Any) -> tuple[str, ...]:
    if isinstance(scopes, str):
        scopes = scopes.replace(",", " ").split()
    if not isinstance(scopes, list | tuple) or not all(isinstance(s, str) for s in scopes):
        raise TokenError("scopes are a list of names")
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        raise TokenError(f"unknown scope {unknown[0][:40]!r} (known: {', '.join(SCOPES)})")
    return tuple(dict.fromkeys(scopes))


class Tokens:
    def __init__(self, db: Database) -> None:
        self.db = db

    def create(
        self, user_id: int, scopes: tuple[str, ...] = DEFAULT_SCOPES, description: str = ""
    ) -> str:
        """A new token of the account (returned once, never stored)."""
        scopes = check_scopes(list(scopes))
        if len(description) > 100:
            raise TokenError("a token's description is at most 100 characters")
        if not plain_text(description):
            raise TokenError("a token's description is one line of text (no control character)")
        token = PREFIX + secrets.token_urlsafe(24)
        with self.db.write() as tx:
            held = tx.execute(
                select(m.tokens.c.id).where(m.tokens.c.user_id == user_id).limit(MAX_TOKENS)
            ).all()
            if len(held) >= MAX_TOKENS:
                raise TokenError(f"an account holds at most {MAX_TOKENS} tokens: revoke some")
            tx.execute(
                insert(m.tokens).values(
                    user_id=user_id,
                    hash=hash_secret(token),
                    hint=token[:8],
                    description=description,
                    scopes=" ".join(scopes),
                    created=now(),
                )
            )
        return token

    def authenticate(self, token: str) -> tuple[User, frozenset[str], int] | None:
        """The account, scopes and id of a token; None when it is unknown, revoked or its
        account disabled."""
        if not token.startswith(PREFIX) or len(token) > 100:
            return None
        key = hash_secret(token)
        with self.db.read() as c:
            row = c.execute(
                select(
                    m.tokens.c.id.label("token_id"),
                    m.tokens.c.scopes,
                    m.tokens.c.last_used,
                    m.users,
                )
                .join(m.users, m.users.c.id == m.tokens.c.user_id)
                .where(m.tokens.c.hash == key)
            ).first()
        if row is None or row.disabled or row.deleted:
            return None
        t = now()
        if row.last_used is None or t - row.last_used > _TOUCH:
            with self.db.write() as tx:
                tx.execute(
                    update(m.tokens).where(m.tokens.c.id == row.token_id).values(last_used=t)
                )
        return _user(row), frozenset(row.scopes.split()), int(row.token_id)

    def list(self, user_id: int) -> list[TokenInfo]:
        with self.db.read() as c:
            rows = c.execute(
                select(m.tokens).where(m.tokens.c.user_id == user_id).order_by(m.tokens.c.id)
            ).all()
        return [
            TokenInfo(
                id=r.id,
                hint=r.hint,
                description=r.description,
                scopes=tuple(r.scopes.split()),
                created=r.created,
                last_used=r.last_used,
            )
            for r in rows
        ]

    def revoke(self, token_id: int, user_id: int | None = None) -> bool:
        """Delete a token (of ``user_id`` only, when given); whether there was one."""
        if not 1 <= token_id <= MAX_ID:  # no row has it, and a database refuses to compare it
            return False
        query = delete(m.tokens).where(m.tokens.c.id == token_id)
        if user_id is not None:
            query = query.where(m.tokens.c.user_id == user_id)
        with self.db.write() as tx:
            gone = bool(tx.execute(query).rowcount)
            if gone:  # every process forgets it and ends what it opened (user/credentials.py)
                tx.notify(f"a:t:{token_id}")
            return gone

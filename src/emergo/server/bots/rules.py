"""Who may use the Board API and who the Bot API (issue 20), and one open stream per token.

One implementation, two prefixes (lichess's rule): ``/api/board/...`` is for persons (a token
with ``board:play``), ``/api/bot/...`` for bot accounts (a token with ``bot:play``); a bot's
request to the Board API and a person's to the Bot API are refused with 403 saying which to
use.  A token may hold one stream of a kind open at a time (the event stream, a game's stream):
a second is answered 429 with ``Retry-After`` (lichess: one request at a time per token).  The
count is this process's: behind a balancer, one a process (docs/online.md).
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request

from emergo.server.core.auth import Actor, ApiError, require

BOT_PREFIX = "/api/bot/"
STREAM_RETRY = 6
"""Seconds a client is told to wait before opening a stream it has open already: the server
notices a dropped connection by its next keep-alive line, within this."""


def is_bot_route(request: Request) -> bool:
    return request.url.path.startswith(BOT_PREFIX)


async def require_player(request: Request, fields: dict[str, Any] | None = None) -> Actor:
    """The request's player, by the API of its path: a bot account with ``bot:play`` on
    ``/api/bot/``, a person with ``board:play`` on ``/api/board/``; 401/403 otherwise."""
    if is_bot_route(request):
        actor = await require(request, "bot:play", fields)
        if not actor.user.bot:
            raise ApiError(
                "the Bot API is for bot accounts: play with /api/board/... (or upgrade the "
                "account with POST /api/bot/account/upgrade before its first game)",
                403,
            )
        return actor
    actor = await require(request, None, fields)
    refuse_bot(actor)
    if "board:play" not in actor.scopes:
        raise ApiError("this token lacks the scope board:play", 403)
    return actor


def refuse_bot(actor: Actor | None) -> None:
    """A bot account on the Board API: 403 saying where to go."""
    if actor is not None and actor.user.bot:
        raise ApiError("a bot account plays with the Bot API: /api/bot/...", 403)


async def require_challenger(
    request: Request, scope: str, fields: dict[str, Any] | None = None
) -> Actor:
    """The user of a challenge endpoint: a token with ``scope`` (``challenge:read`` or
    ``challenge:write``), or a bot account's token with ``bot:play`` (lichess's rule: a bot
    answers and makes challenges with its one scope)."""
    actor = await require(request, None, fields)
    if scope in actor.scopes or (actor.user.bot and "bot:play" in actor.scopes):
        return actor
    raise ApiError(f"this token lacks the scope {scope}", 403)


class StreamSlots:
    """The streams open in this process, by token and kind: each key holds a weak reference to
    its stream's lines, so a stream whose response was dropped unsent frees its slot too."""

    def __init__(self) -> None:
        self._open: dict[str, weakref.ref[Any]] = {}
        self._lock = threading.Lock()

    def stream(
        self, request: Request, kind: str, lines: AsyncIterator[bytes]
    ) -> AsyncIterator[bytes]:
        """``lines``, holding the token's slot of ``kind`` until they end (or are dropped); a 429
        :class:`ApiError` when the slot is held."""
        key = _key(request, kind)
        if key is None:  # a session (the site's pages) has no token to count
            return lines
        wrapped = self._release_after(key, lines)
        with self._lock:
            ref = self._open.get(key)
            if ref is not None and ref() is not None:
                raise ApiError(
                    "this token has this stream open already: one at a time (close the other)",
                    429,
                    headers={"retry-after": str(STREAM_RETRY)},
                )
            self._open[key] = weakref.ref(wrapped)
        return wrapped

    async def _release_after(self, key: str, lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        try:
            async for line in lines:
                yield line
        finally:
            with self._lock:
                self._open.pop(key, None)


def _key(request: Request, kind: str) -> str | None:
    auth = request.headers.get("authorization")
    if auth is None:
        return None
    return hashlib.sha256(auth.strip().encode()).hexdigest() + "|" + kind


SLOTS = StreamSlots()

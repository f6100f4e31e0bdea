"""The plumbing of the site's WebSockets (a game's, the lobby's, the site-wide one): opening
(who, the CSRF subprotocol, the connection cap, 4503 when the database does not answer), a
bounded send queue, the pump of a socket the server writes to, and how a socket closes.

A session-cookie socket must come from the site (``Origin``) with the session's CSRF token,
offered as the subprotocol ``csrf.TOKEN`` beside ``emergo`` (the server chooses ``emergo``), or
as ``?csrf=`` (a URL, which access logs write: older pages); a token socket sends
``Authorization: Bearer``.  Each socket has a bounded send queue (:data:`SEND_QUEUE` messages):
a client that does not read is dropped (close code 4008), never holding up the others.  Every
message is a JSON object with a type ``t``: the modules' sockets (:mod:`emergo.server.round.socket`,
:mod:`emergo.server.lobby.socket`, :mod:`emergo.server.notify.socket`) say which.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from emergo.server.core.auth import (
    Actor,
    ApiError,
    actor_of,
    check_csrf,
    client_key,
    site_of,
)
from emergo.server.core.db import unavailable
from emergo.server.core.errors import SiteError
from emergo.server.core.limits import Credits, RateLimited, Ticket
from emergo.server.site import Site

log = logging.getLogger(__name__)
T = TypeVar("T")


SEND_QUEUE = 256
"""Messages waiting for one slow client before it is dropped."""
CLOSE_TOO_SLOW = 4008
CLOSE_TOO_MANY = 4429
"""Close code: too many sockets and streams open for this client, or a flood of messages."""
CREDIT_SECONDS = 10.0
"""The window of ``[limits] socket_messages_per_10s``."""
CLOSE_UNAVAILABLE = 4503
"""The database did not answer when the socket opened: the page tries again (socket.js)."""
CLOSE_RESTART = 1012
CLOSE_SIGNED_OUT = 4401
"""Close code: the socket's credential ended (token revoked, session logged out, account
disabled: :mod:`emergo.server.user.credentials`)."""


async def credential_end(site: Site, actor: Actor | None) -> None:
    """Returns when ``actor``'s credential ends, on any process (never for anonymous)."""
    if actor is None or not actor.topics:
        await asyncio.Event().wait()
        return
    with site.bus.subscribe(*actor.topics) as sub:
        while True:
            await sub.wait(None)
            if site.bus.closing:  # the server stopping ends the socket its own way
                await asyncio.Event().wait()
            if actor.ended(sub.take()):
                return


class Outbox:
    """One socket's bounded send queue and the task that drains it."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SEND_QUEUE)
        self.dropped = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._drain())

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode())

    def send_text(self, text: str) -> None:
        """A message encoded already (one text for every socket of a game)."""
        if self.dropped.is_set():
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped.set()

    async def _drain(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    return
                await self.ws.send_text(text)
        except Exception:  # the client went away
            self.dropped.set()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.task.cancel()
        with contextlib.suppress(BaseException):
            await self.task
        if self.ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(code, reason), 1.0)


PROTOCOL = "emergo"
"""The subprotocol the site's sockets speak; a page offers it with ``csrf.TOKEN``."""
_CSRF_PROTOCOL = "csrf."


def _offered(ws: WebSocket) -> list[str]:
    header = ws.headers.get("sec-websocket-protocol", "")
    return [p.strip() for p in header.split(",") if p.strip()]


def _csrf_of(ws: WebSocket) -> str | None:
    """The CSRF token of a cookie socket: offered as the subprotocol ``csrf.TOKEN`` (a header,
    which no access log writes), or ``?csrf=TOKEN`` (older pages: the URL, which proxies log)."""
    for protocol in _offered(ws):
        if protocol.startswith(_CSRF_PROTOCOL):
            return protocol[len(_CSRF_PROTOCOL) :]
    return ws.query_params.get("csrf")


async def accept(ws: WebSocket) -> None:
    """Accept the socket, choosing :data:`PROTOCOL` when the client offered subprotocols (a
    browser closes a socket whose server chose none of those it offered)."""
    await ws.accept(subprotocol=PROTOCOL if _offered(ws) else None)


def closing_code(slow: bool, site: Site) -> tuple[int, str]:
    """How a socket closes: too slow (4008), the server restarting (1012: the page comes back
    by itself), or normally."""
    if slow:
        return CLOSE_TOO_SLOW, "too slow"
    if site.bus.closing:
        return CLOSE_RESTART, "the server is restarting"
    return 1000, ""


async def _authenticate(ws: WebSocket) -> Actor | None:
    """The socket's user (None: anonymous), or it is closed with 4401/4403 and None raised."""
    actor = await actor_of(ws)
    if actor is not None:
        check_csrf(ws, actor, _csrf_of(ws))
    return actor


async def _refuse(ws: WebSocket, error: ApiError) -> None:
    await ws.close(4000 + error.status, str(error)[:120])


async def open_connection(ws: WebSocket, actor: Actor | None) -> Ticket | None:
    """One of the client's connections (``[limits] connections_per_client``); past the limit
    the socket is accepted and closed at once with 4429, so that a page sees the code (a
    refused handshake shows a browser nothing), and None returned."""
    try:
        return site_of(ws).connections.open(client_key(ws, actor))
    except RateLimited as e:
        await accept(ws)
        await ws.close(CLOSE_TOO_MANY, str(e)[:120])
        return None


def message_credits(ws: WebSocket) -> Credits:
    return Credits(site_of(ws).config.limits.socket_messages_per_10s, CREDIT_SECONDS)


def error_status(e: Exception) -> tuple[int, str]:
    """A refused command's status and message, as the HTTP edge would answer them."""
    return (e.status if isinstance(e, SiteError) else 400), str(e)


async def pump(
    ws: WebSocket,
    site: Site,
    out: Outbox,
    credits: Credits,
    sub: Any,
    push: Coroutine[Any, Any, None],
    actor: Actor | None = None,
) -> None:
    """Run a socket the server writes to (the lobby's, the site's): ``push`` sends, the client
    only pings (answered within its message credits: a flood closes it, 4429); it ends when
    either side ends, the client reads too slowly or ``actor``'s credential ends (4401), and
    closes as :func:`closing_code` says."""
    flooded = False

    async def receive() -> None:
        nonlocal flooded
        while True:
            try:
                raw = await ws.receive_text()
            except (WebSocketDisconnect, RuntimeError, KeyError):
                return
            over = credits.take()
            if over >= credits.limit:
                flooded = True
                return
            if over == 0 and raw.strip() in ('{"t":"ping"}', '{"t": "ping"}'):
                out.send({"t": "pong"})

    loop = asyncio.get_running_loop()
    ended = loop.create_task(credential_end(site, actor))
    tasks = [
        loop.create_task(push),
        loop.create_task(receive()),
        loop.create_task(out.dropped.wait()),
        ended,
    ]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        sub.close()
        if flooded:
            await out.close(CLOSE_TOO_MANY, "too many messages")
        elif ended.done() and not ended.cancelled():
            await out.close(CLOSE_SIGNED_OUT, "signed out")
        else:
            await out.close(*closing_code(out.dropped.is_set(), site))


async def opening(
    ws: WebSocket,
    site: Site,
    *,
    load: Callable[[], T] | None = None,
    scopes: frozenset[str] | None = None,
) -> tuple[Actor | None, T | None] | None:
    """Who opens the socket (and what ``load`` finds for it, in a worker thread: a module's
    game, say), or None once it is refused: bad credentials, anonymous or without one of
    ``scopes`` when asked (before the handshake, the client sees an HTTP 4xx), or a database
    that does not answer in time (4503: the page retries)."""
    try:
        async with asyncio.timeout(site.config.database.request_timeout):
            actor = await _authenticate(ws)
            found = await asyncio.to_thread(load) if load is not None else None
        if scopes is not None:
            if actor is None:
                raise ApiError("sign in first", 401)
            if not actor.scopes & scopes:  # a token's: as /api/stream/event
                raise ApiError("this token lacks the scope challenge:read", 403)
    except ApiError as e:
        await _refuse(ws, e)
        return None
    except Exception as e:
        if not (unavailable(e) or isinstance(e, TimeoutError)):
            raise
        await ws.close(CLOSE_UNAVAILABLE, "the database is not answering")  # the page retries
        return None
    return actor, found

"""NDJSON streams (lichess's: one JSON object a line, an empty line every :data:`KEEP_ALIVE`
seconds when there is nothing to say) and the small answers the HTTP edges share.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from emergo.server.core.auth import (
    Actor,
    client_key,
    site_of,
)
from emergo.server.core.db import unavailable
from emergo.server.core.limits import Ticket

log = logging.getLogger(__name__)

KEEP_ALIVE = 6.0
"""Seconds between keep-alive lines of an idle NDJSON stream (lichess: about 6)."""
NDJSON = "application/x-ndjson"


_OK = b'{"ok":true}'


def ok(**extra: Any) -> Response:
    """``{"ok": true, ...}``."""
    if not extra:
        return Response(_OK, media_type="application/json")
    return Response(orjson.dumps({"ok": True, **extra}), media_type="application/json")


def ndjson_line(data: dict[str, Any]) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS)


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


class NdjsonStream(StreamingResponse):
    """An NDJSON stream that holds one of its client's connections (``[limits]
    connections_per_client``) until it ends, however it ends."""

    def __init__(self, content: AsyncIterator[bytes], ticket: Ticket) -> None:
        super().__init__(content, media_type=NDJSON)
        self.ticket = ticket

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.ticket.close()


def connection_ticket(request: Request, actor: Actor | None) -> Ticket:
    """A connection of the request's client, or a 429 (too many open)."""
    return site_of(request).connections.open(client_key(request, actor))


async def ending_quietly(lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """A stream's lines; when the database stops answering the stream ends (the client opens
    it again and gets the whole state), never with a traceback."""
    try:
        async for line in lines:
            yield line
    except Exception as e:
        if not unavailable(e):
            raise
        log.warning("a stream ended: the database did not answer (%s)", type(e).__name__)

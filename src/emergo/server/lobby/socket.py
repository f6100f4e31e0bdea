"""``WS /ws/lobby``: the server sends ``{"t": "seeks", "seeks": [...]}`` at once and when
the lobby changes, and (signed in, or a token with a read scope) ``{"t": "event", "event":
...}``: the lines of ``/api/stream/event``.  Lobby actions are HTTP (``POST /api/lobby/seek``
...).
"""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket

from emergo.server.core.auth import (
    READ_SCOPES,
    Actor,
    site_of,
)
from emergo.server.core.db import now
from emergo.server.core.sockets import (
    Outbox,
    accept,
    message_credits,
    open_connection,
    opening,
    pump,
)
from emergo.server.notify.events import events_after, last_event
from emergo.server.round.jsonview import (
    add_challenge_ratings,
)


async def lobby_socket(ws: WebSocket) -> None:
    site = site_of(ws)
    opened = await opening(ws, site)
    if opened is None:
        return
    actor = opened[0]
    ticket = await open_connection(ws, actor)
    if ticket is None:
        return
    with ticket:
        await _lobby(ws, actor)


async def _lobby(ws: WebSocket, actor: Actor | None) -> None:
    site = site_of(ws)
    await accept(ws)
    out = Outbox(ws)
    credits = message_credits(ws)
    # a token without a read scope sees the public seeks only, as anonymous (the event stream
    # refuses it): its user's challenges are private
    reader = actor if actor is not None and actor.scopes & READ_SCOPES else None
    topics = ["lobby"] + ([f"u:{reader.user.id}"] if reader is not None else [])
    sub = site.bus.subscribe(*topics)
    base = str(ws.base_url).replace("ws", "http", 1).rstrip("/")

    async def seeks() -> None:
        found = await asyncio.to_thread(site.challenges.seeks)
        shown = [c.json(base) for c in found]
        await asyncio.to_thread(add_challenge_ratings, site, shown, now())
        out.send({"t": "seeks", "seeks": shown})

    async def push() -> None:
        last = await asyncio.to_thread(last_event, site.db, reader.user.id) if reader else 0
        await seeks()
        while True:
            woke = await sub.wait(30.0)
            if site.bus.closing:
                return
            fired = sub.take() if woke else {}
            if "lobby" in fired or not woke:
                await seeks()
            if reader is not None and f"u:{reader.user.id}" in fired:
                events = await asyncio.to_thread(events_after, site.db, reader.user.id, last)
                for event_id, data in events:
                    last = event_id
                    out.send({"t": "event", "event": data})

    await pump(ws, site, out, credits, sub, push(), actor)

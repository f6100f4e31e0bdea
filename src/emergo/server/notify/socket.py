"""``WS /ws/site``: every page of a signed-in player (lila's site socket).  The server sends
``{"t": "unread", "unread": n}`` (the notifications not read, at once and when it changes),
``{"t": "challenges", "in": [challenge...]}`` (the open challenges to the player, at once and
after each change) and ``{"t": "event", "event": ...}`` (the lines of ``/api/stream/event``
from the moment it opened).  Anonymous sockets are refused (4401).  The client sends ``{"t":
"ping"}`` now and then (``{"t": "pong"}``).
"""

from __future__ import annotations

import asyncio
import time

from starlette.websockets import WebSocket

from emergo.server.core.auth import (
    Actor,
    site_of,
)
from emergo.server.core.sockets import (
    Outbox,
    accept,
    message_credits,
    open_connection,
    opening,
    pump,
)
from emergo.server.notify.events import events_after, last_event
from emergo.server.people.service import SEEN_EVERY

EVENT_SCOPES = frozenset({"challenge:read", "board:play", "bot:play"})
"""A token needs one of these for the site socket (the event stream's scopes)."""
SITE_IDLE = SEEN_EVERY
"""Seconds a site socket sleeps when nothing happens (it wakes on the bus)."""


async def site_socket(ws: WebSocket) -> None:
    """``/ws/site`` (module docstring): what a signed-in player must know on any page."""
    site = site_of(ws)
    opened = await opening(ws, site, scopes=EVENT_SCOPES)
    if opened is None:
        return
    actor = opened[0]
    assert actor is not None  # opening refuses anonymous sockets when scopes are asked
    ticket = await open_connection(ws, actor)
    if ticket is None:
        return
    with ticket:
        await _site(ws, actor)


async def _site(ws: WebSocket, actor: Actor) -> None:
    site = site_of(ws)
    await accept(ws)
    user = actor.user
    out = Outbox(ws)
    credits = message_credits(ws)
    sub = site.bus.subscribe(f"u:{user.id}", f"n:{user.id}")
    base = str(ws.base_url).replace("ws", "http", 1).rstrip("/")

    async def unread() -> None:
        count = await asyncio.to_thread(site.notices.unread, user.id)
        out.send({"t": "unread", "unread": count})

    async def challenges() -> None:
        mine = await asyncio.to_thread(site.challenges.of_user, user)
        out.send({"t": "challenges", "in": [c.json(base) for c in mine["in"]]})

    async def push() -> None:
        # who is here (emergo.server.people): an open page marks its player at once and then
        # every SEEN_EVERY seconds
        await asyncio.to_thread(site.people.seen, user.id)
        seen = time.monotonic()
        last = await asyncio.to_thread(last_event, site.db, user.id)
        await unread()
        await challenges()
        while True:
            if time.monotonic() - seen >= SEEN_EVERY:
                seen = time.monotonic()
                await asyncio.to_thread(site.people.seen, user.id)
            woke = await sub.wait(SITE_IDLE)
            if site.bus.closing:
                return
            if not woke:
                continue
            fired = sub.take()
            if f"n:{user.id}" in fired:
                await unread()
            if f"u:{user.id}" in fired:
                events = await asyncio.to_thread(events_after, site.db, user.id, last)
                for event_id, data in events:
                    last = event_id
                    out.send({"t": "event", "event": data})
                if any(str(d.get("type", "")).startswith("challenge") for _i, d in events):
                    await challenges()

    await pump(ws, site, out, credits, sub, push(), actor)

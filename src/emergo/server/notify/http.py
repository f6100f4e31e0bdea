"""The user's events and notices over HTTP: ``GET /api/stream/event`` (lichess's event stream),
``GET /api/account/notifications`` (and ``.../read``), ``GET|POST /api/account/preferences``
(the mail settings).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.bots.rules import (
    SLOTS,
)
from emergo.server.core.auth import (
    READ_SCOPES,
    Actor,
    ApiError,
    fields_of,
    require,
    site_of,
)
from emergo.server.core.db import now
from emergo.server.core.streams import (
    KEEP_ALIVE,
    NdjsonStream,
    base_url,
    connection_ticket,
    ending_quietly,
    ndjson_line,
    ok,
)
from emergo.server.core.text import digits
from emergo.server.notify.events import events_after, last_event
from emergo.server.notify.notices import NoticeError
from emergo.server.people.service import SEEN_EVERY
from emergo.server.round.jsonview import summary
from emergo.server.site import Site
from emergo.server.user.http import bad_request


async def event_stream(request: Request) -> Response:
    """``GET /api/stream/event``: the user's challenges, game starts and game ends."""
    actor = await require(request)
    if not actor.scopes & READ_SCOPES:
        raise ApiError("this token lacks the scope challenge:read", 403)
    site = site_of(request)
    lines = SLOTS.stream(request, "event", _user_lines(site, actor, base_url(request)))
    return NdjsonStream(ending_quietly(lines), connection_ticket(request, actor))


async def _user_lines(site: Site, actor: Actor, base: str) -> AsyncIterator[bytes]:
    user = actor.user
    with site.bus.subscribe(f"u:{user.id}", *actor.topics) as sub:
        if user.bot:  # a bot is online while its stream is open (GET /api/bot/online)
            await asyncio.to_thread(site.people.seen, user.id)
        seen = time.monotonic()
        last = await asyncio.to_thread(last_event, site.db, user.id)
        games = await asyncio.to_thread(site.rounds.playing, user.id)
        t = now()
        for game in games:  # lichess's: the game as in nowPlaying (lichess-bot reads isMyTurn)
            yield ndjson_line(
                {"type": "gameStart", "game": {**summary(game, user.id, t), "id": game.id}}
            )
        mine = await asyncio.to_thread(site.challenges.of_user, user)
        for challenge in mine["in"]:
            yield ndjson_line({"type": "challenge", "challenge": challenge.json(base)})
        while True:
            # the server is stopping: the stream ends (checked each time round: a stream opened
            # after the stop began was never woken by it, and would hold the server's shutdown)
            if site.bus.closing:
                return
            if user.bot and time.monotonic() - seen >= SEEN_EVERY:
                await asyncio.to_thread(site.people.seen, user.id)
                seen = time.monotonic()
            if not await sub.wait(KEEP_ALIVE):
                yield b"\n"
                continue
            if site.bus.closing:
                return
            if actor.ended(sub.take()):  # the token revoked, the session ended: on any process
                return
            events = await asyncio.to_thread(events_after, site.db, user.id, last)
            for event_id, data in events:
                last = event_id
                yield ndjson_line(data)


async def notifications(request: Request) -> Response:
    """``GET /api/account/notifications``: your latest notices (newest first) and how many
    are unread."""
    actor = await require(request)
    site = site_of(request)
    feed, unread = await asyncio.to_thread(site.notices.feed, actor.user.id)
    return JSONResponse({"unread": unread, "notifications": feed})


async def notifications_read(request: Request) -> Response:
    """``POST /api/account/notifications/read``: mark your notices read (``upTo``: up to the
    notice of that id)."""
    fields = await fields_of(request)
    actor = await require(request, fields=fields)
    up_to = fields.get("upTo")
    if up_to is not None:
        whole = isinstance(up_to, int) and not isinstance(up_to, bool)
        if isinstance(up_to, str) and digits(up_to) and len(up_to) <= 10:
            up_to, whole = int(up_to), True
        if not whole or not 0 <= up_to < 2**31:  # an id: the databases' integers hold no more
            raise ApiError("upTo is a notice's id")
    site = site_of(request)
    await asyncio.to_thread(site.notices.mark_read, actor.user.id, up_to)
    return ok()


async def preferences(request: Request) -> Response:
    """``GET /api/account/preferences``: your mail settings; ``POST``: change them (``email``,
    ``mail``: off, digest or instant)."""
    site = site_of(request)
    if request.method == "GET":
        actor = await require(request, "preference:read")
        settings = await asyncio.to_thread(site.notices.settings, actor.user.id)
        return JSONResponse(settings.json())
    fields = await fields_of(request)
    actor = await require(request, "preference:write", fields=fields)
    try:
        settings = await asyncio.to_thread(
            site.notices.set_settings,
            actor.user.id,
            fields.get("email"),
            fields.get("mail", "off"),
        )
    except NoticeError as e:
        raise bad_request(e) from None
    return JSONResponse(settings.json())

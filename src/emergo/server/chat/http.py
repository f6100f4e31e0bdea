"""A game's chat over HTTP (lichess's Board API): ``POST`` and ``GET /api/board/game/{id}/chat``
(and ``/api/bot/...``) and ``POST .../chat/on|off`` (the players' room opened or closed); an
event's chat (issue 30): ``POST`` and ``GET /api/tournament/{id}/chat`` and
``/api/swiss/{id}/chat``.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.bots.rules import (
    is_bot_route,
    refuse_bot,
    require_player,
)
from emergo.server.core.auth import (
    Actor,
    ApiError,
    actor_of,
    fields_of,
    require,
    site_of,
)
from emergo.server.core.streams import ok
from emergo.server.round.http import game_or_404, readable_rooms

EVENT_CHAT_SCOPES = ("board:play", "bot:play", "tournament:write")
"""A token writes in an event's chat with a player's scope (a session has them all)."""


async def board_chat_post(request: Request) -> Response:
    """``POST /api/board/game/{id}/chat`` (``room``: player or spectator, ``text``)."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    room = fields.get("room", "player")
    line = await asyncio.to_thread(
        site.say, request.path_params["id"], actor.user, room, fields.get("text")
    )
    return ok(id=line.id)


async def board_chat_get(request: Request) -> Response:
    """``GET /api/board/game/{id}/chat``: the lines the user may read (``/api/bot/...``: a bot
    player's only)."""
    if is_bot_route(request):
        actor: Actor | None = await require_player(request)
    else:
        actor = await actor_of(request)
        refuse_bot(actor)
    site = site_of(request)
    game = await game_or_404(site, request.path_params["id"])
    if is_bot_route(request) and (actor is None or game.seats.color_of(actor.user.id) is None):
        raise ApiError("the Bot API reads the chat of your own games only", 403)
    rooms = readable_rooms(game, actor)
    lines = await asyncio.to_thread(site.chat.lines, game.id, rooms=rooms)
    return JSONResponse(
        [{"id": x.id, "room": x.room, "user": x.user, "text": x.text} for x in lines]
    )


async def board_chat_room(request: Request) -> Response:
    """``POST /api/board/game/{id}/chat/{on|off}``: open or close the players' room."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    await asyncio.to_thread(
        site.rounds.set_player_chat,
        request.path_params["id"],
        actor.user.id,
        request.path_params["state"] == "on",
    )
    return ok()


WAIT_SECONDS = 20.0
"""How long ``GET .../chat?since=N&wait=true`` waits on the bus for a new line (a long poll), at
most: it answers before the site's own deadline would answer 503 (``[database]
request_timeout``)."""


async def _event_id(request: Request) -> str:
    """The path's event, 404 unless it exists and is of the route's kind (Swiss or not)."""
    site = site_of(request)
    event = await asyncio.to_thread(site.tournaments.get, request.path_params["id"])
    swiss = request.url.path.startswith("/api/swiss/")
    if event is None or (event.kind == "swiss") != swiss:
        raise ApiError(f"no such {'Swiss ' if swiss else ''}tournament", 404)
    return str(event.id)


def _since(request: Request) -> int:
    raw = request.query_params.get("since", "0")
    if not raw.isdigit() or len(raw) > 18:
        raise ApiError("since is a chat line's id (a whole number, 0 or more)")
    return int(raw)


async def event_chat_post(request: Request) -> Response:
    """``POST /api/tournament/{id}/chat`` (and ``/api/swiss/{id}/chat``; ``text``): a line in the
    event's chat, by any signed-in account (a token needs a player's scope)."""
    fields = await fields_of(request)
    actor = await require(request, None, fields)
    if not any(scope in actor.scopes for scope in EVENT_CHAT_SCOPES):
        raise ApiError("this token lacks the scope board:play", 403)
    event_id = await _event_id(request)
    site = site_of(request)
    line = await asyncio.to_thread(site.say_event, event_id, actor.user, fields.get("text"))
    return ok(id=line.id)


async def event_chat_get(request: Request) -> Response:
    """``GET /api/tournament/{id}/chat`` (and ``/api/swiss/...``): ``{"lines": [...], "removed":
    [...]}``, the lines after ``since`` (the last 200) and which of the last 200 a moderator
    removed; with ``wait=true`` and nothing new, it waits on the bus for a line (at most
    :data:`WAIT_SECONDS`): the page's live chat.  Anyone may read it."""
    since = _since(request)
    wait = request.query_params.get("wait", "false")
    if wait not in ("true", "false"):
        raise ApiError("wait is true or false")
    event_id = await _event_id(request)
    site = site_of(request)
    with site.bus.subscribe(f"ec:{event_id}") as sub:
        lines = await asyncio.to_thread(site.chat.event_lines, event_id, after=since)
        limit = max(0.5, min(WAIT_SECONDS, site.config.database.request_timeout - 2.0))
        woke = not lines and wait == "true" and await sub.wait(limit)
        if woke and not site.bus.closing:
            sub.take()
            lines = await asyncio.to_thread(site.chat.event_lines, event_id, after=since)
    removed = await asyncio.to_thread(site.chat.event_removed, event_id)
    return JSONResponse(
        {"lines": [x.json() for x in lines], "removed": removed},
        headers={"cache-control": "no-store"},
    )

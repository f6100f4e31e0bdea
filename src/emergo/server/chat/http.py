"""A game's chat over HTTP (lichess's Board API): ``POST`` and ``GET /api/board/game/{id}/chat``
(and ``/api/bot/...``) and ``POST .../chat/on|off`` (the players' room opened or closed).
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
    site_of,
)
from emergo.server.core.streams import ok
from emergo.server.round.http import game_or_404, readable_rooms


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

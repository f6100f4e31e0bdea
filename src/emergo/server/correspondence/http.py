"""Vacation and conditional moves over HTTP: ``GET /api/account/vacation``, ``POST
/api/account/vacation/start|stop``, ``GET|POST /api/board/game/{id}/conditional``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.core.auth import ApiError, fields_of, require, site_of
from emergo.server.core.db import now
from emergo.server.correspondence.conditional import ConditionalError
from emergo.server.correspondence.vacation import VacationError
from emergo.server.user.http import bad_request


async def vacation(request: Request) -> Response:
    """``GET /api/account/vacation``: whether you are on vacation and the days you hold."""
    actor = await require(request)
    site = site_of(request)
    away = await asyncio.to_thread(site.correspondence.vacations, actor.user.id)
    return JSONResponse(vacation_json(away, now()))


def vacation_json(away: Any, t: float) -> dict[str, Any]:
    ends = away.ends_at() if away.on_vacation(t) else None
    return {
        "onVacation": away.on_vacation(t),
        "daysLeft": round(away.left(t) / 86400, 2),
        "endsAt": None if ends is None else int(ends * 1000),
    }


async def vacation_post(request: Request) -> Response:
    """``POST /api/account/vacation/{start|stop}``: your correspondence clocks stop while you
    are away (docs/ratings.md)."""
    fields = await fields_of(request)
    actor = await require(request, fields=fields)
    site = site_of(request)
    start = request.path_params["action"] == "start"
    service = site.correspondence
    action = service.start_vacation if start else service.stop_vacation
    try:
        away = await asyncio.to_thread(action, site.rounds, actor.user.id, now())
    except VacationError as e:
        raise ApiError(str(e), 409) from None
    return JSONResponse(vacation_json(away, now()))


async def conditional(request: Request) -> Response:
    """``GET /api/board/game/{id}/conditional``: your conditional moves in a game (yours only);
    ``POST`` (``lines``: a list of lines, or one text with a line a row; none: clear them)."""
    site = site_of(request)
    game_id = request.path_params["id"]
    if request.method == "GET":
        actor = await require(request, "board:play")
        game = await asyncio.to_thread(site.rounds.get, game_id)
        if game is None:
            raise ApiError("no such game", 404)
        if game.seats.color_of(actor.user.id) is None:
            raise ApiError("you do not play this game", 403)
        tree = await asyncio.to_thread(site.correspondence.conditional, game_id, actor.user.id)
        return JSONResponse({"lines": [] if tree is None else [" ".join(x) for x in tree.lines()]})
    fields = await fields_of(request)
    actor = await require(request, "board:play", fields=fields)
    raw = fields.get("lines", [])
    if isinstance(raw, str):
        raw = [line for line in raw.splitlines() if line.strip()]
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ApiError("lines is a list of texts (a line of moves each)")
    if len(raw) > 100:
        raise ApiError("at most 100 lines")
    try:
        tree = await asyncio.to_thread(
            site.correspondence.set_conditional, game_id, actor.user.id, raw
        )
    except ConditionalError as e:
        raise bad_request(e) from None
    return JSONResponse({"lines": [" ".join(x) for x in tree.lines()]})

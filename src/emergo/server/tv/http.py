"""TV over HTTP: ``GET /api/tv``, the game on TV now (``{"game": null}`` when none is played):
its id and page, the players with their ratings, the board, the moves so far."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.core.auth import site_of
from emergo.server.core.db import now
from emergo.server.tv.service import best_game


async def tv(request: Request) -> Response:
    site = site_of(request)
    found = await asyncio.to_thread(best_game, site, now())
    if found is None:
        return JSONResponse({"game": None})
    game, ratings = found
    s = game.state
    out: dict[str, Any] = {
        "id": game.id,
        "url": f"/game/{game.id}",
        "variant": game.variant,
        "timeControl": game.time_control,
        "white": {"name": game.seats.white, "rating": ratings["white"]},
        "black": {"name": game.seats.black, "rating": ratings["black"]},
        "initialFen": s.root,
        "moves": list(s.moves),
        "turn": "white" if s.turn else "black",
    }
    return JSONResponse({"game": out})

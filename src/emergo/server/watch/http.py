"""Watching: the games being played now (the player's review, item 22), as a page (``/watch``)
and as JSON (``GET /api/games/live``); each links to the game's page, where a spectator sees
the board, the clocks and the spectators' chat."""

from __future__ import annotations

import asyncio
import html
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.core.auth import ApiError, site_of
from emergo.server.core.db import now
from emergo.server.core.text import digits
from emergo.server.round.jsonview import player
from emergo.server.round.service import GameView
from emergo.server.user.perfs import SPEEDS
from emergo.server.watch.service import MAX_LIVE, live_games

e = html.escape


BOARD_NAMES = {"9x9": "9x9", "7x7": "7x7", "hex": "Hex"}


def control_words(time_control: str | None) -> str:
    """A stored time control in a list's words: ``5+3``, ``3 days a move``, ``Unlimited``."""
    if not time_control:
        return "Unlimited"
    if time_control.endswith("d") and digits(time_control[:-1]):
        days = int(time_control[:-1])
        return f"{days} day{'' if days == 1 else 's'} a move"
    base, _, inc = time_control.partition("+")
    try:
        minutes = float(base) / 60
    except ValueError:
        return time_control
    shown = {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(minutes, f"{minutes:g}")
    return f"{shown}+{inc or 0}"


def live_json(game: GameView, base: str, t: float) -> dict[str, Any]:
    s = game.state
    return {
        "id": game.id,
        "url": f"{base}/game/{game.id}",
        "variant": {"key": game.variant, "name": game.variant},
        "speed": game.speed,
        "rated": game.rated,
        "timeControl": game.time_control,
        "players": {
            "white": {"user": player(game.seats.white, game.seats.white_id)},
            "black": {"user": player(game.seats.black, game.seats.black_id)},
        },
        "plies": len(s.moves),
        "turn": "white" if s.turn else "black",
        "lastMoveAt": int(game.updated * 1000),
        "idleSeconds": max(0, int(t - game.updated)),
    }


def speed_param(request: Request) -> str | None:
    speed = request.query_params.get("speed") or None
    if speed is not None and speed not in SPEEDS:
        raise ApiError(f"speed is one of {', '.join(SPEEDS)}")
    return speed


def _limit(request: Request) -> int:
    raw = request.query_params.get("nb", "50")
    if not digits(raw) or not 1 <= int(raw[:6]) <= MAX_LIVE:
        raise ApiError(f"nb is a number of games, 1 to {MAX_LIVE}")
    return int(raw)


async def live_api(request: Request) -> Response:
    """``GET /api/games/live`` (``?speed=live|correspondence``, ``?nb=1..100``): the games
    being played, the one moved last first."""
    site = site_of(request)
    games = await asyncio.to_thread(live_games, site.db, _limit(request), speed_param(request))
    base = str(request.base_url).rstrip("/")
    t = now()
    return JSONResponse({"games": [live_json(g, base, t) for g in games]})

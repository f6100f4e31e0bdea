"""What the site's board needs from the server: a board's squares and a position's legal moves.

The browser holds no rules code (docs/board.md): for every position it shows, the game page asks
the server for the pieces, the hands, the phase, every legal move as its route of squares with its
texts, and the reasons vacant squares cannot be entered -- the local app's
:func:`emergo.web.positions.position_data`, the same JSON.  The page asks with the position
before a move and that one move (``pos=R22&moves=d4``), so a request replays one ply, or with the
game's start position and all its moves after a takeback or a reload.

``GET /api/geometry?variant=9x9`` and ``GET /api/position?pos=...&moves=...`` are public (a
spectator signed out sees the board too), cacheable (a position's answer never changes), computed
off the event loop, and counted per client address in this process (:data:`POSITIONS_PER_SECOND`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.geometry import VARIANTS, geometry
from emergo.web.inputs import board_of
from emergo.web.online_auth import ApiError, site_of
from emergo.web.positions import RequestError, geometry_data, line_data, position_data

POSITIONS_PER_SECOND = 60
"""Position requests a client address may make a second (stepping through a game with the arrow
keys asks for one a step the first time)."""
CACHE = {"cache-control": "public, max-age=86400"}


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


async def geometry_json(request: Request) -> Response:
    """``GET /api/geometry?variant=``: the squares of a board (names, coordinates, shape)."""
    variant = request.query_params.get("variant", "9x9")
    if variant not in VARIANTS:
        raise ApiError(f"unknown variant {variant[:20]!r} (known: {', '.join(VARIANTS)})")
    return JSONResponse(geometry_data(geometry(variant)), headers=CACHE)


def _position(data: dict[str, Any]) -> dict[str, Any]:
    board = board_of(data)
    out = position_data(board)
    out["line"] = line_data(board)
    return out


async def position_json(request: Request) -> Response:
    """``GET /api/position?pos=R22&moves=TEXT TEXT``: the position after the moves, with its
    legal moves as routes and the moves' data (``line``)."""
    site = site_of(request)
    site.local_limits.hit("positions", _client(request), POSITIONS_PER_SECOND, 1)
    try:
        out = await asyncio.to_thread(_position, dict(request.query_params))
    except RequestError as e:
        raise ApiError(str(e), e.status if e.status < 500 else 400) from None
    return JSONResponse(out, headers=CACHE)


def openapi_paths() -> dict[str, Any]:
    """The OpenAPI description of these two routes (:mod:`emergo.web.online_openapi`)."""

    def op(summary: str, params: list[dict[str, Any]]) -> dict[str, Any]:
        error = {
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {"error": {"type": "string"}},
                        "required": ["error"],
                    }
                }
            }
        }
        return {
            "get": {
                "summary": summary,
                "parameters": params,
                "security": [{}, {"bearer": []}],
                "responses": {
                    "200": {
                        "description": "done",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    },
                    "400": {"description": "bad input", **error},
                    "429": {"description": "rate limited: see Retry-After", **error},
                },
            }
        }

    def query(name: str, description: str, **schema: Any) -> dict[str, Any]:
        return {
            "name": name,
            "in": "query",
            "required": False,
            "schema": {"type": "string", **schema},
            "description": description,
        }

    return {
        "/api/geometry": op(
            "a board's squares (the game page's board)",
            [query("variant", "9x9 (default), 7x7 or hex", enum=list(VARIANTS))],
        ),
        "/api/position": op(
            "a position's pieces, hands and legal moves as routes (the game page's board)",
            [
                query("pos", "an R22 position (default: the 9x9 start)", maxLength=2000),
                query("moves", "move texts separated by spaces, played from pos", maxLength=8000),
            ],
        ),
    }

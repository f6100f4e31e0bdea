"""What the site's board needs from the server: a board's squares and a position's legal moves.

The browser holds no rules code (docs/board.md): for every position it shows, the game page asks
the server for the pieces, the hands, the phase, every legal move as its route of squares with its
texts, and the reasons vacant squares cannot be entered -- the local app's
:func:`emergo.server.board.positions.position_data`, the same JSON.  The page asks with the position
before a move and that one move (``pos=R22&moves=d4``), so a request replays one ply, or with the
game's start position and all its moves after a takeback or a reload.

Every request that replays a line (this module's, the analysis board's moves, analyses,
tables, reviews and records) is counted against one limit per client address, by the plies it
replays (:func:`count_line`), and replays it off the event loop (:func:`replayed`): a 333-ply
line is 17 ms of CPU, which on the loop would hold every other game of the process.

``GET /api/geometry?variant=9x9`` and ``GET /api/position?pos=...&moves=...`` are public (a
spectator signed out sees the board too), cacheable (a position's answer never changes), computed
off the event loop, and counted per client address in this process (:data:`POSITIONS_PER_SECOND`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from emergo.board import Board
from emergo.geometry import VARIANTS, geometry
from emergo.server.board.positions import (
    JSON,
    RequestError,
    geometry_data,
    line_data,
    position_data,
)
from emergo.server.core.auth import ApiError, client_address, fields_of, site_of
from emergo.server.core.inputs import board_of, moves_of

POSITIONS_PER_SECOND = 60
"""Position requests a client address may make a second (stepping through a game with the arrow
keys asks for one a step the first time), a request of a long line counting as several
(:data:`PLIES_A_REQUEST`)."""
PLIES_A_REQUEST = 30
"""Plies replayed that cost the server as much as a one-move request (measured, issue 27: 1.9 ms
for one move, 10.7 ms for a new 138-ply line, each ply about 0.064 ms): a request counts once
and once more for each of these.  An address is held so to about an eighth of a core, whatever
lines it sends, not half a core with the longest."""
CACHE = {"cache-control": "public, max-age=86400"}


def count_line(conn: HTTPConnection, data: JSON) -> None:
    """A request replaying ``data``'s ``moves``, counted against its client address's position
    limit (:data:`POSITIONS_PER_SECOND`): once, and once more for each :data:`PLIES_A_REQUEST`
    plies; 429 past it.  Local mode's one player is not counted."""
    site = site_of(conn)
    if site.config.local:
        return
    cost = 1 + len(moves_of(data.get("moves"))) // PLIES_A_REQUEST
    site.local_limits.hit("positions", client_address(conn), POSITIONS_PER_SECOND, 1, cost)


async def replayed(conn: HTTPConnection, data: JSON) -> Board:
    """The board of a request's ``pos`` and ``moves`` (:func:`board_of`), counted
    (:func:`count_line`) and replayed in a worker thread."""
    count_line(conn, data)
    return await asyncio.to_thread(board_of, data)


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
    legal moves as routes and the moves' data (``line``).  ``POST`` with the same fields as JSON
    (a long line: the analysis board's) answers the board's squares too (``geometry``)."""
    post = request.method == "POST"
    data = await fields_of(request) if post else dict(request.query_params)
    count_line(request, data)
    try:
        out = await asyncio.to_thread(_position, data)
    except RequestError as e:
        raise ApiError(str(e), e.status if e.status < 500 else 400) from None
    if post:
        out["geometry"] = geometry_data(geometry(out["variant"]))
        return JSONResponse(out)
    return JSONResponse(out, headers=CACHE)

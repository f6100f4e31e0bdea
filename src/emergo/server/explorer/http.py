"""``GET /api/explorer``: the opening explorer over HTTP (docs/explorer.md), in
lila-openingexplorer's shape.

``variant`` (``9x9`` by default, or the prefix of ``fen``), ``fen`` (our R22 position string;
the variant's start by default), ``play`` (move texts separated by commas, played from
``fen``), ``source`` (``archive``, the default, or ``engine``).  Open to everyone, in local and
public mode; counted per client address in this process (:data:`QUERIES_PER_SECOND`; local
mode's one player is not counted).  A request is the position's parse and three indexed
reads (:meth:`emergo.server.explorer.service.Explorer.lookup`); nothing is computed from the
games.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.board import Board
from emergo.errors import InvalidPositionError
from emergo.geometry import VARIANTS
from emergo.notation import position_variant
from emergo.server.board.positions import MAX_TEXT, RequestError, parse_move
from emergo.server.core.auth import client_address, site_of
from emergo.server.explorer.index import SOURCES, answer, digest
from emergo.server.site import Site
from emergo.symmetry import canonical

QUERIES_PER_SECOND = 30
"""Explorer requests a client address may make a second (a board stepped through with the
arrow keys asks for one a step)."""
MAX_PLAY = 100
"""Most moves ``play`` may hold (the explorer holds the first 40 plies of games)."""


def board_of(params: Mapping[str, str]) -> Board:
    """The position a request asks about; a :class:`RequestError` naming the field at fault."""
    fen = params.get("fen")
    variant = params.get("variant")
    if variant is not None and variant not in VARIANTS:
        raise RequestError(
            f"variant: unknown variant {variant[:20]!r} (known: {', '.join(VARIANTS)})"
        )
    if fen is not None and len(fen) > 2 * MAX_TEXT:
        raise RequestError("fen: the position is too long")
    if fen is not None and fen.strip():
        named = position_variant(fen)
        if variant is not None and named is not None and named != variant:
            raise RequestError(f"fen: the position is of {named}, variant says {variant}")
        try:
            board = Board(fen, variant=named or variant or "9x9")
        except (InvalidPositionError, ValueError) as e:
            raise RequestError(f"fen: not a position (R22): {e}") from None
    else:
        board = Board(variant=variant or "9x9")
    texts = [t.strip() for t in params.get("play", "").split(",") if t.strip()]
    if len(texts) > MAX_PLAY:
        raise RequestError(f"play: at most {MAX_PLAY} moves")
    for ply, text in enumerate(texts, 1):
        ended = board.outcome()
        if ended is not None:
            raise RequestError(f"play: move {ply} {text[:40]!r} follows the end: {ended.reason()}")
        try:
            board.push(parse_move(board, text))
        except RequestError as e:
            raise RequestError(f"play: move {ply} {text[:40]!r}: {e}") from None
    return board


def explore(site: Site, params: Mapping[str, str]) -> dict[str, Any]:
    """The answer for a request's fields (module docstring)."""
    source = params.get("source", "archive")
    if source not in SOURCES:
        raise RequestError(f"source: unknown source {source[:20]!r} (known: {', '.join(SOURCES)})")
    board = board_of(params)
    c = canonical(board)
    found = site.explorer.lookup(source, board.variant, digest(c.key))
    return answer(board, c, found)


async def explorer_json(request: Request) -> Response:
    """``GET /api/explorer?variant=&fen=&play=&source=``: the moves played from the position,
    with the results of their games, their average rating, top and recent games."""
    site = site_of(request)
    if not site.config.local:
        site.local_limits.hit("explorer queries", client_address(request), QUERIES_PER_SECOND, 1)
    return JSONResponse(await asyncio.to_thread(explore, site, dict(request.query_params)))


def openapi_paths() -> dict[str, Any]:
    """The OpenAPI description of ``GET /api/explorer`` (:mod:`emergo.server.openapi`)."""
    move_texts = {
        "move": {"type": "string", "description": "the move's canonical text (R21)"},
        "san": {"type": "string", "description": "the same (where lichess's clients read it)"},
        "checker": {
            "type": "string",
            "description": "the move in checkerboard names (R3; oblique names on hex)",
        },
    }
    results = {name: {"type": "integer", "minimum": 0} for name in ("white", "draws", "black")}
    player = {
        "type": "object",
        "properties": {
            "name": {"type": ["string", "null"]},
            "rating": {"type": ["integer", "null"], "description": "before the game"},
        },
    }
    game = {
        "type": "object",
        "properties": {
            **move_texts,
            "id": {"type": "string", "description": "the game: /game/{id}"},
            "winner": {"type": ["string", "null"], "enum": ["white", "black", None]},
            "speed": {"type": "string"},
            "mode": {"type": "string", "enum": ["rated", "casual"]},
            "white": player,
            "black": player,
            "year": {"type": "integer"},
            "month": {"type": "string", "description": "YYYY-MM"},
        },
    }
    answer = {
        "type": "object",
        "description": "lila-openingexplorer's answer, with our move texts for its uci",
        "properties": {
            **results,
            "moves": {
                "type": "array",
                "description": "the moves played from the position, the most played first",
                "items": {
                    "type": "object",
                    "properties": {
                        **move_texts,
                        **results,
                        "averageRating": {
                            "type": ["integer", "null"],
                            "description": "the movers' average rating, over rated games",
                        },
                    },
                },
            },
            "topGames": {"type": "array", "items": game, "maxItems": 4},
            "recentGames": {"type": "array", "items": game, "maxItems": 8},
            "opening": {"type": "null"},
        },
        "required": ["white", "draws", "black", "moves", "topGames", "recentGames", "opening"],
    }
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

    def query(name: str, description: str, **schema: Any) -> dict[str, Any]:
        return {
            "name": name,
            "in": "query",
            "required": False,
            "schema": {"type": "string", **schema},
            "description": description,
        }

    return {
        "/api/explorer": {
            "get": {
                "summary": "the opening explorer: the moves played from a position, how their "
                "games ended, their average rating, top and recent games (docs/explorer.md)",
                "parameters": [
                    query("variant", "9x9 (default), 7x7 or hex", enum=list(VARIANTS)),
                    query(
                        "fen",
                        "the position (R22, our position string); default the variant's start",
                        maxLength=2 * MAX_TEXT,
                    ),
                    query("play", "move texts separated by commas, played from fen"),
                    query(
                        "source",
                        "archive (the site's games, default) or engine (self-play)",
                        enum=list(SOURCES),
                    ),
                ],
                "responses": {
                    "200": {
                        "description": "done",
                        "content": {"application/json": {"schema": answer}},
                    },
                    "400": {"description": "bad input: the message names the field", **error},
                    "429": {"description": "rate limited: see Retry-After", **error},
                },
                "security": [{}, {"bearer": []}],
            }
        }
    }

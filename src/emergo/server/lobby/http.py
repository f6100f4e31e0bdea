"""The lobby's HTTP API: ``GET /api/lobby/seeks``, ``POST /api/lobby/seek`` and ``POST
/api/lobby/quick`` (quick pairing: join a matching seek at once, or post one)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.bots.rules import (
    require_challenger,
)
from emergo.server.challenge.service import terms_of
from emergo.server.core.auth import (
    ApiError,
    fields_of,
    site_of,
)
from emergo.server.core.db import now
from emergo.server.core.streams import base_url
from emergo.server.round.jsonview import (
    add_challenge_ratings,
)


async def seek_create(request: Request) -> Response:
    """``POST /api/lobby/seek``: an open challenge in the lobby."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    site = site_of(request)
    challenge = await asyncio.to_thread(site.challenge, actor.user, fields, kind="seek")
    return JSONResponse(challenge.json(base_url(request)))


async def seeks(request: Request) -> Response:
    site = site_of(request)
    found = await asyncio.to_thread(site.challenges.seeks)
    out = [c.json(base_url(request)) for c in found]
    await asyncio.to_thread(add_challenge_ratings, site, out, now())
    return JSONResponse({"seeks": out})


async def quick_pairing(request: Request) -> Response:
    """``POST /api/lobby/quick``: a challenge's terms (variant, clock or days, rated); the game
    at once when another player's seek matches (``{"gameId"}``), else the player's own seek
    (``{"seek": challenge}``; the game starts when someone takes it)."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    site = site_of(request)
    if actor.user.bot:
        raise ApiError("bots cannot seek in the lobby: they play by challenge", 403)
    await asyncio.to_thread(site.count_challenge, actor.user)
    terms = terms_of({**fields, "color": "random"})
    kind, seek, game_id = await asyncio.to_thread(site.challenges.quick, actor.user, terms)
    if kind == "game":
        return JSONResponse({"gameId": game_id})
    assert seek is not None
    return JSONResponse({"seek": seek.json(base_url(request))})

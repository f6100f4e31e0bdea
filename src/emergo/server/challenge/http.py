"""Challenges' HTTP API (lichess's): ``POST /api/challenge/{username}``, ``/api/challenge/open``,
``GET /api/challenge``, ``/api/challenge/{id}/show`` and ``POST .../accept|decline|cancel``.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.bots.rules import (
    require_challenger,
)
from emergo.server.core.auth import (
    ApiError,
    fields_of,
    site_of,
)
from emergo.server.core.db import now
from emergo.server.core.streams import base_url, ok
from emergo.server.round.jsonview import (
    add_challenge_ratings,
)


async def challenge_create(request: Request) -> Response:
    """``POST /api/challenge/{username}``: a direct challenge (lichess's fields; a JSON null is
    a field not given, as berserk sends every field it knows)."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    site = site_of(request)
    terms = {k: v for k, v in fields.items() if v is not None}
    challenge = await asyncio.to_thread(
        site.challenge, actor.user, terms, kind="direct", dest_name=request.path_params["username"]
    )
    return JSONResponse(challenge.json(base_url(request)))


async def challenge_open(request: Request) -> Response:
    """``POST /api/challenge/open``: an invitation link anyone who has it may accept."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    site = site_of(request)
    challenge = await asyncio.to_thread(site.challenge, actor.user, fields, kind="link")
    return JSONResponse(challenge.json(base_url(request)))


async def challenges_mine(request: Request) -> Response:
    actor = await require_challenger(request, "challenge:read")
    site = site_of(request)
    mine = await asyncio.to_thread(site.challenges.of_user, actor.user)
    base = base_url(request)
    out = {k: [c.json(base) for c in v] for k, v in mine.items()}
    await asyncio.to_thread(
        add_challenge_ratings, site, [c for v in out.values() for c in v], now()
    )
    return JSONResponse(out)


async def challenge_show(request: Request) -> Response:
    site = site_of(request)
    challenge = await asyncio.to_thread(site.challenges.get, request.path_params["id"])
    if challenge is None:
        raise ApiError("no such challenge", 404)
    return JSONResponse(challenge.json(base_url(request)))


async def challenge_answer(request: Request) -> Response:
    """``POST /api/challenge/{id}/accept|decline|cancel``."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    site = site_of(request)
    challenge_id = request.path_params["id"]
    action = request.path_params["action"]
    if action == "accept":
        game_id = await asyncio.to_thread(site.challenges.accept, challenge_id, actor.user)
        return ok(gameId=game_id)
    if action == "decline":
        reason = fields.get("reason", "generic")  # one of lichess's keys (checked)
        await asyncio.to_thread(site.challenges.decline, challenge_id, actor.user, reason)
        return ok()
    await asyncio.to_thread(site.challenges.cancel, challenge_id, actor.user)
    return ok()

"""Follows and blocks over HTTP, as lichess's API: ``POST /api/rel/{follow|unfollow|block|
unblock}/{username}``, ``GET /api/rel/following`` and ``/api/rel/blocking`` (the names), ``GET
/api/rel/with/{username}`` (what you are to each other). A token needs ``follow:write`` to
change and ``follow:read`` to read; a signed-in page has both."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.core.auth import ApiError, fields_of, require, site_of
from emergo.server.user.accounts import User


async def _other(request: Request) -> User:
    site = site_of(request)
    name = request.path_params["username"]
    other = await asyncio.to_thread(site.users.by_name, name)
    if other is None or other.disabled:
        raise ApiError(f"no player named {str(name)[:30]!r}", 404)
    return other


async def relation_post(request: Request) -> Response:
    """``POST /api/rel/{action}/{username}``: follow, unfollow, block or unblock a player."""
    fields = await fields_of(request)
    actor = await require(request, "follow:write", fields)
    other = await _other(request)
    site = site_of(request)
    action = request.path_params["action"]
    do = {
        "follow": site.relations.follow,
        "unfollow": site.relations.unfollow,
        "block": site.relations.block,
        "unblock": site.relations.unblock,
    }[action]
    relation = await asyncio.to_thread(do, actor.user, other)
    return JSONResponse({"ok": True, **relation.json()})


async def relation_with(request: Request) -> Response:
    """``GET /api/rel/with/{username}``: following, blocking, followsYou, blocksYou."""
    actor = await require(request, "follow:read")
    other = await _other(request)
    site = site_of(request)
    relation = await asyncio.to_thread(site.relations.between, actor.user, other)
    return JSONResponse(relation.json())


async def relation_list(request: Request) -> Response:
    """``GET /api/rel/{following|blocking}``: the names, by name."""
    actor = await require(request, "follow:read")
    site = site_of(request)
    kind = "follow" if request.path_params["kind"] == "following" else "block"
    names = await asyncio.to_thread(site.relations.names, actor.user.id, kind)
    return JSONResponse({"users": [{"id": n.lower(), "name": n} for n in names]})

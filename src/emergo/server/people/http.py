"""Who is here over HTTP: ``GET /api/players/online`` (the names of the players online now),
``GET /api/players/search?q=`` (names that start so; lichess's autocomplete), ``GET
/api/players/{username}/status`` (online, and the game being played: a link to watch)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.core.auth import ApiError, site_of


def _users(names: list[str]) -> list[dict[str, str]]:
    return [{"id": n.lower(), "name": n} for n in names]


async def online(request: Request) -> Response:
    site = site_of(request)
    names = await asyncio.to_thread(site.people.online)
    return JSONResponse({"users": _users(names)})


async def search(request: Request) -> Response:
    q = request.query_params.get("q", "")
    if len(q) > 20:
        raise ApiError("q is the start of a name: at most 20 characters")
    site = site_of(request)
    names = await asyncio.to_thread(site.people.search, q)
    return JSONResponse({"users": _users(names)})


async def status(request: Request) -> Response:
    site = site_of(request)
    name = request.path_params["username"]
    user = await asyncio.to_thread(site.users.by_name, name)
    if user is None or user.disabled:
        raise ApiError(f"no player named {str(name)[:30]!r}", 404)
    found = await asyncio.to_thread(site.people.status, user.id)
    return JSONResponse({"id": user.name.lower(), "name": user.name, **found.json()})

"""Users over HTTP: ``GET /api/account`` (and ``.../playing``, the tokens, ``.../email``), ``GET
/api/user/{username}`` (lichess's perfs), its rating history, ``POST /api/users`` (many users),
``GET /api/users/status`` (who is online or playing), the leaderboards.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.core.auth import (
    ApiError,
    actor_of,
    client_key,
    fields_of,
    require,
    row_id,
    site_of,
)
from emergo.server.core.db import now
from emergo.server.core.streams import ok
from emergo.server.round.jsonview import (
    summary,
)
from emergo.server.site import Site
from emergo.server.user.accounts import NAME, NAME_RULE
from emergo.server.user.perfs import PERF_KEYS
from emergo.server.user.tokens import check_scopes


async def account(request: Request) -> Response:
    """``GET /api/account``: who the request is from (with the session's CSRF token)."""
    actor = await require(request)
    out = actor.user.json()
    out["scopes"] = sorted(actor.scopes)
    if actor.csrf is not None:
        out["csrf"] = actor.csrf
    return JSONResponse(out)


async def playing(request: Request) -> Response:
    """``GET /api/account/playing``: the user's games in progress, their turn first."""
    actor = await require(request)
    site = site_of(request)
    games = await asyncio.to_thread(site.rounds.playing, actor.user.id)
    t = now()
    return JSONResponse({"nowPlaying": [summary(g, actor.user.id, t) for g in games]})


async def tokens_list(request: Request) -> Response:
    actor = await require(request)
    if actor.via != "session":
        raise ApiError("tokens are managed from the site (signed in) or emergo admin", 403)
    site = site_of(request)
    infos = await asyncio.to_thread(site.tokens.list, actor.user.id)
    return JSONResponse({"tokens": [i.json() for i in infos]})


async def token_create(request: Request) -> Response:
    fields = await fields_of(request)
    actor = await require(request, fields=fields)
    if actor.via != "session":
        raise ApiError("tokens are made from the site (signed in) or emergo admin", 403)
    site = site_of(request)
    scopes = check_scopes(fields.get("scopes", "board:play challenge:read challenge:write"))
    description = fields.get("description", "")
    if not isinstance(description, str):
        raise ApiError("description must be a string")
    token = await asyncio.to_thread(site.tokens.create, actor.user.id, scopes, description)
    return JSONResponse({"token": token, "scopes": list(scopes)}, status_code=201)


async def token_revoke(request: Request) -> Response:
    fields = await fields_of(request)
    actor = await require(request, fields=fields)
    if actor.via != "session":
        raise ApiError("tokens are revoked from the site (signed in) or emergo admin", 403)
    token_id = row_id(request.path_params["token_id"], "token")
    site = site_of(request)
    if not await asyncio.to_thread(site.tokens.revoke, token_id, actor.user.id):
        raise ApiError("no such token", 404)
    return ok()


RECORDS = "application/x-emergo-record"
"""The media type of game records (docs/records.md)."""
EXPORT_MAX = 100_000
"""The most games one export streams (``max`` bounds it further)."""


def bad_request(error: Exception) -> ApiError:
    status = getattr(error, "status", 400)
    return ApiError(str(error), status if isinstance(status, int) else 400)


async def public_user(site: Site, name: str) -> tuple[int, str, float, bool]:
    found = await asyncio.to_thread(site.archive.user, name)
    if found is None:
        raise ApiError("no such user", 404)
    return found


async def user_json(site: Site, found: tuple[int, str, float, bool]) -> dict[str, Any]:
    """lichess's public user (``GET /api/user/{username}``, ``POST /api/users``, the online
    bots): ``perfs`` (``rating``, ``rd``, ``prov``, ``games`` per variant and speed),
    ``count``, ``createdAt``; ``found`` is :meth:`Archive.user`'s answer."""
    user_id, name, created, bot = found
    perfs = await asyncio.to_thread(site.ratings.perfs, user_id)
    counts = await asyncio.to_thread(site.archive.counts, user_id)
    playing = await asyncio.to_thread(site.rounds.playing, user_id)
    counts["playing"] = len(playing)
    return {
        "id": name.lower(),
        "username": name,
        "title": "BOT" if bot else None,
        "createdAt": int(created * 1000),
        "perfs": perfs.to_json(now()),
        "count": counts,
    }


async def user_public(request: Request) -> Response:
    """``GET /api/user/{username}``: :func:`user_json`."""
    site = site_of(request)
    found = await public_user(site, request.path_params["username"])
    return JSONResponse(await user_json(site, found))


LOOKUPS_PER_MINUTE = 30
"""Requests a client (a user, or an address) may make a minute, per process, to ``POST
/api/users`` and ``GET /api/bot/online``: each reads a few rows for each of up to 300 users."""
STATUS_PER_MINUTE = 120
"""The same for ``GET /api/users/status`` (a page may poll it every second)."""
EXPORTS_PER_MINUTE = 20
"""Exports of a player's games (``GET /api/games/user/{username}``) a client may start a
minute, per process: each streams up to :data:`EXPORT_MAX` games."""


async def limited(request: Request, what: str, limit: int) -> None:
    """Count a costly public request against its client (:func:`client_key`): a 429 past
    ``limit`` a minute.  A bad token is refused (401), never taken for a visitor."""
    actor = await actor_of(request)
    site_of(request).local_limits.hit(what, client_key(request, actor), limit, 60)


MAX_IDS = 300
"""The most ids of one ``POST /api/users`` (lichess's)."""
MAX_STATUS_IDS = 100
"""The most ids of one ``GET /api/users/status`` (lichess's)."""


def user_ids(text: str, most: int) -> list[str]:
    """A comma-separated list of 1 to ``most`` user names (``ids``), each trimmed, without
    repeats; an :class:`ApiError` naming ``ids`` and the bad one otherwise."""
    if len(text) > most * 22:
        raise ApiError(f"ids: at most {most} user names, comma-separated")
    names = [n.strip() for n in text.split(",")]
    if names == [""]:
        raise ApiError(f"ids: give 1 to {most} user names, comma-separated")
    out: dict[str, str] = {}
    for name in names:
        if not NAME.fullmatch(name):
            raise ApiError(f"ids: {name[:30]!r} is not a user name ({NAME_RULE})")
        out.setdefault(name.lower(), name)
    if len(out) > most:
        raise ApiError(f"ids: at most {most} user names, comma-separated")
    return list(out.values())


async def users_by_id(request: Request) -> Response:
    """``POST /api/users``: the public users (:func:`user_json`) of a comma-separated body of
    up to :data:`MAX_IDS` names, in that order; unknown names left out (as lichess)."""
    await limited(request, "user lookups", LOOKUPS_PER_MINUTE)
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError("ids: the body is user names, comma-separated, in UTF-8") from None
    site = site_of(request)
    out = []
    for name in user_ids(text, MAX_IDS):
        found = await asyncio.to_thread(site.archive.user, name)
        if found is not None:
            out.append(await user_json(site, found))
    return JSONResponse(out)


async def users_status(request: Request) -> Response:
    """``GET /api/users/status?ids=a,b``: lichess's statuses: ``id``, ``name``, ``title`` of a
    bot, ``online: true`` (its pages or a bot's event stream are open: the presence of
    :mod:`emergo.server.people`), ``playing: true`` (and ``playingId`` with ``withGameIds``)
    only when so; unknown names left out."""
    await limited(request, "status requests", STATUS_PER_MINUTE)
    names = user_ids(request.query_params.get("ids", ""), MAX_STATUS_IDS)
    with_ids = request.query_params.get("withGameIds", "false").lower()  # berserk's "True"
    if with_ids not in ("true", "false", "1", "0"):
        raise ApiError("withGameIds must be true or false")
    site = site_of(request)
    out: list[dict[str, Any]] = []
    for name in names:
        user = await asyncio.to_thread(site.users.by_name, name)
        if user is None or user.disabled:
            continue
        status = await asyncio.to_thread(site.people.status, user.id)
        one: dict[str, Any] = {"id": user.name.lower(), "name": user.name}
        if user.bot:
            one["title"] = "BOT"
        if status.online:
            one["online"] = True
        if status.playing is not None:
            one["playing"] = True
            if with_ids in ("true", "1"):
                one["playingId"] = status.playing
        out.append(one)
    return JSONResponse(out)


async def account_email(request: Request) -> Response:
    """``GET /api/account/email`` (scope ``email:read``): the address the account's mail
    settings keep (``/api/account/preferences``; null when none)."""
    actor = await require(request, "email:read")
    site = site_of(request)
    settings = await asyncio.to_thread(site.notices.settings, actor.user.id)
    return JSONResponse({"email": settings.email})


async def rating_history(request: Request) -> Response:
    """``GET /api/user/{username}/rating-history``: each rating's points, ``[ms, rating]``."""
    site = site_of(request)
    user_id, *_ = await public_user(site, request.path_params["username"])
    history = await asyncio.to_thread(site.ratings.history, user_id)
    return JSONResponse(
        [
            {"name": key, "points": [[int(at * 1000), math.floor(r)] for at, r in history[key]]}
            for key in PERF_KEYS
            if key in history
        ]
    )


async def leaderboard(request: Request) -> Response:
    """``GET /api/player/top/{nb}/{perfType}``: the best ``nb`` (1-200) of one rating,
    provisional players left out."""
    site = site_of(request)
    perf = request.path_params["perf"]
    if perf not in PERF_KEYS:
        raise ApiError(f"no such rating (known: {', '.join(PERF_KEYS)})", 404)
    try:
        nb = int(request.path_params["nb"])
    except ValueError:
        raise ApiError("nb is a number of players", 400) from None
    if not 1 <= nb <= 200:
        raise ApiError("nb is 1 to 200", 400)
    leaders = await asyncio.to_thread(site.ratings.leaderboard, perf, now(), nb)
    return JSONResponse(
        {
            "users": [
                {
                    "id": x.name.lower(),
                    "username": x.name,
                    "perfs": {perf: {"rating": x.rating, "rd": x.rd, "games": x.games}},
                }
                for x in leaders
            ]
        }
    )


async def settings(request: Request) -> Response:
    """``GET /api/settings``: the account's board preferences (a visitor's are kept in the
    browser); ``PUT`` (or ``POST``) a change of some: all of them after it."""
    if request.method == "GET":
        actor = await require(request, "preference:read")
        site = site_of(request)
        return JSONResponse(await asyncio.to_thread(site.preferences.get, actor.user.id))
    fields = await fields_of(request)
    actor = await require(request, "preference:write", fields=fields)
    site = site_of(request)
    change = {k: v for k, v in fields.items() if k != "csrf"}
    return JSONResponse(await asyncio.to_thread(site.preferences.change, actor.user.id, change))

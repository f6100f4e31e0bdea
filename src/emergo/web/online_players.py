"""The online site's HTTP API of issue 21: ratings, profiles, leaderboards, the archive, a
player's games as records, notifications, mail settings, vacation and conditional moves.

Thin, as :mod:`emergo.web.online_api`: each endpoint authenticates, reads its fields, calls the
services (:mod:`emergo.online.ratings`, :mod:`~emergo.online.archive`,
:mod:`~emergo.online.notices`, :mod:`~emergo.online.correspondence`) in a worker thread and
answers JSON or streams.  Shaped as lichess's API where it has the endpoint
(``/api/user/{username}``, ``/api/user/{username}/rating-history``, ``/api/player/top/{nb}/
{perfType}``, ``/api/games/user/{username}``); docs/ratings.md lists the differences.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from emergo.online.archive import ArchivedGame, ArchiveError, Query, query_of
from emergo.online.conditional import ConditionalError
from emergo.online.db import now
from emergo.online.notices import NoticeError
from emergo.online.perfs import PERF_KEYS
from emergo.online.rounds import GameView
from emergo.online.site import Site
from emergo.online.vacation import VacationError
from emergo.web.online_api import NDJSON, ok, record_text
from emergo.web.online_auth import ApiError, fields_of, require, site_of

RECORDS = "application/x-emergo-record"
"""The media type of game records (docs/records.md)."""
EXPORT_MAX = 100_000
"""The most games one export streams (``max`` bounds it further)."""


def _check(error: Exception) -> ApiError:
    status = getattr(error, "status", 400)
    return ApiError(str(error), status if isinstance(status, int) else 400)


async def _user(site: Site, name: str) -> tuple[int, str, float, bool]:
    found = await asyncio.to_thread(site.archive.user, name)
    if found is None:
        raise ApiError("no such user", 404)
    return found


# --- users, ratings, leaderboards -----------------------------------------------------------------


async def user_public(request: Request) -> Response:
    """``GET /api/user/{username}``: lichess's user: ``perfs`` (``rating``, ``rd``, ``prov``,
    ``games`` per variant and speed), ``count``, ``createdAt``."""
    site = site_of(request)
    user_id, name, created, bot = await _user(site, request.path_params["username"])
    perfs = await asyncio.to_thread(site.ratings.perfs, user_id)
    counts = await asyncio.to_thread(site.archive.counts, user_id)
    playing = await asyncio.to_thread(site.rounds.playing, user_id)
    counts["playing"] = len(playing)
    return JSONResponse(
        {
            "id": name.lower(),
            "username": name,
            "title": "BOT" if bot else None,
            "createdAt": int(created * 1000),
            "perfs": perfs.to_json(now()),
            "count": counts,
        }
    )


async def rating_history(request: Request) -> Response:
    """``GET /api/user/{username}/rating-history``: each rating's points, ``[ms, rating]``."""
    site = site_of(request)
    user_id, *_ = await _user(site, request.path_params["username"])
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


# --- the archive ----------------------------------------------------------------------------------


def _query(request: Request, **fixed: str) -> Query:
    try:
        return query_of({**request.query_params, **fixed})
    except ArchiveError as e:
        raise _check(e) from None


async def games_search(request: Request) -> Response:
    """``GET /api/games/search``: a page of finished games, newest first: ``player``, ``vs``,
    ``variant``, ``speed``, ``rated``, ``result``, ``color``, ``since``, ``until`` (a day
    ``YYYY-MM-DD`` or milliseconds), ``max`` (1-100), ``before`` (the ``next`` of a page)."""
    site = site_of(request)
    q = _query(request)
    try:
        games, cursor = await asyncio.to_thread(site.archive.search, q)
    except ArchiveError as e:
        raise _check(e) from None
    return JSONResponse({"games": [g.json() for g in games], "next": cursor})


def game_json(game: ArchivedGame, view: GameView) -> dict[str, Any]:
    """A finished game for an export: the archive's JSON with its moves and clock."""
    out = game.json()
    out["createdAt"] = int(view.created * 1000)
    out["moves"] = " ".join(view.state.moves)
    out["initialFen"] = view.state.root
    out["timeControl"] = view.time_control
    return out


async def games_of_user(request: Request) -> Response:
    """``GET /api/games/user/{username}``: every finished game of a player, newest first, as
    records (docs/records.md, one after another) or, with ``Accept: application/x-ndjson``, one
    JSON object a line; the archive's filters (``vs``, ``rated``, ``perfType``, ``color``,
    ``since``, ``until``, ``max``)."""
    site = site_of(request)
    name = request.path_params["username"]
    await _user(site, name)
    q = _query(request, player=name)
    if "max" not in request.query_params:
        q = dataclasses.replace(q, limit=EXPORT_MAX)
    ndjson = NDJSON in request.headers.get("accept", "")
    first = dataclasses.replace(q, limit=min(q.limit, 100))
    try:  # the first page before the answer starts: a bad query is a 4xx, not a cut stream
        pairs, after = await asyncio.to_thread(site.archive.page_with_states, first)
    except ArchiveError as e:
        raise _check(e) from None
    return StreamingResponse(
        _export(site, q.limit, pairs, after, ndjson),
        media_type=NDJSON if ndjson else RECORDS,
        headers={} if ndjson else {"content-disposition": f'attachment; filename="{name}.egn"'},
    )


async def _export(
    site: Site,
    limit: int,
    pairs: list[tuple[ArchivedGame, GameView]],
    after: Query | None,
    ndjson: bool,
) -> AsyncIterator[bytes]:
    left = min(limit, EXPORT_MAX)
    while True:
        for game, view in pairs[:left]:
            if ndjson:
                yield (json.dumps(game_json(game, view), separators=(",", ":")) + "\n").encode()
            else:
                yield (await asyncio.to_thread(record_text, view, game) + "\n").encode()
        left -= len(pairs)
        if after is None or left <= 0:
            return
        page = dataclasses.replace(after, limit=min(left, 100))
        pairs, after = await asyncio.to_thread(site.archive.page_with_states, page)


# --- notifications, mail, vacation ----------------------------------------------------------------


async def notifications(request: Request) -> Response:
    """``GET /api/account/notifications``: your latest notices (newest first) and how many
    are unread."""
    actor = await require(request)
    site = site_of(request)
    feed, unread = await asyncio.to_thread(site.notices.feed, actor.user.id)
    return JSONResponse({"unread": unread, "notifications": feed})


async def notifications_read(request: Request) -> Response:
    """``POST /api/account/notifications/read``: mark your notices read (``upTo``: up to the
    notice of that id)."""
    fields = await fields_of(request)
    actor = await require(request, fields=fields)
    up_to = fields.get("upTo")
    if up_to is not None:
        whole = isinstance(up_to, int) and not isinstance(up_to, bool)
        if isinstance(up_to, str) and up_to.isdigit() and len(up_to) <= 10:
            up_to, whole = int(up_to), True
        if not whole or not 0 <= up_to < 2**31:  # an id: the databases' integers hold no more
            raise ApiError("upTo is a notice's id")
    site = site_of(request)
    await asyncio.to_thread(site.notices.mark_read, actor.user.id, up_to)
    return ok()


async def preferences(request: Request) -> Response:
    """``GET /api/account/preferences``: your mail settings; ``POST``: change them (``email``,
    ``mail``: off, digest or instant)."""
    site = site_of(request)
    if request.method == "GET":
        actor = await require(request)
        settings = await asyncio.to_thread(site.notices.settings, actor.user.id)
        return JSONResponse(settings.json())
    fields = await fields_of(request)
    actor = await require(request, fields=fields)
    try:
        settings = await asyncio.to_thread(
            site.notices.set_settings,
            actor.user.id,
            fields.get("email"),
            fields.get("mail", "off"),
        )
    except NoticeError as e:
        raise _check(e) from None
    return JSONResponse(settings.json())


async def vacation(request: Request) -> Response:
    """``GET /api/account/vacation``: whether you are on vacation and the days you hold."""
    actor = await require(request)
    site = site_of(request)
    away = await asyncio.to_thread(site.correspondence.vacations, actor.user.id)
    return JSONResponse(vacation_json(away, now()))


def vacation_json(away: Any, t: float) -> dict[str, Any]:
    ends = away.ends_at() if away.on_vacation(t) else None
    return {
        "onVacation": away.on_vacation(t),
        "daysLeft": round(away.left(t) / 86400, 2),
        "endsAt": None if ends is None else int(ends * 1000),
    }


async def vacation_post(request: Request) -> Response:
    """``POST /api/account/vacation/{start|stop}``: your correspondence clocks stop while you
    are away (docs/ratings.md)."""
    fields = await fields_of(request)
    actor = await require(request, fields=fields)
    site = site_of(request)
    start = request.path_params["action"] == "start"
    service = site.correspondence
    action = service.start_vacation if start else service.stop_vacation
    try:
        away = await asyncio.to_thread(action, site.rounds, actor.user.id, now())
    except VacationError as e:
        raise ApiError(str(e), 409) from None
    return JSONResponse(vacation_json(away, now()))


# --- conditional moves ----------------------------------------------------------------------------


async def conditional(request: Request) -> Response:
    """``GET /api/board/game/{id}/conditional``: your conditional moves in a game (yours only);
    ``POST`` (``lines``: a list of lines, or one text with a line a row; none: clear them)."""
    site = site_of(request)
    game_id = request.path_params["id"]
    if request.method == "GET":
        actor = await require(request, "board:play")
        game = await asyncio.to_thread(site.rounds.get, game_id)
        if game is None:
            raise ApiError("no such game", 404)
        if game.seats.color_of(actor.user.id) is None:
            raise ApiError("you do not play this game", 403)
        tree = await asyncio.to_thread(site.correspondence.conditional, game_id, actor.user.id)
        return JSONResponse({"lines": [] if tree is None else [" ".join(x) for x in tree.lines()]})
    fields = await fields_of(request)
    actor = await require(request, "board:play", fields=fields)
    raw = fields.get("lines", [])
    if isinstance(raw, str):
        raw = [line for line in raw.splitlines() if line.strip()]
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ApiError("lines is a list of texts (a line of moves each)")
    if len(raw) > 100:
        raise ApiError("at most 100 lines")
    try:
        tree = await asyncio.to_thread(
            site.correspondence.set_conditional, game_id, actor.user.id, raw
        )
    except ConditionalError as e:
        raise _check(e) from None
    return JSONResponse({"lines": [" ".join(x) for x in tree.lines()]})

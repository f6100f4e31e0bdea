"""The tournaments' HTTP API in lichess's shape (docs/tournaments.md, "The API").

Arenas (and our round robins and matches, ``system=robin|match``): ``GET/POST /api/tournament``,
``GET /api/tournament/{id}``, ``POST .../join``, ``.../withdraw``, ``GET .../results`` (NDJSON:
rank, score, rating, username, performance), ``GET .../games`` (NDJSON).  Swiss:
``POST /api/swiss/new`` (lichess: ``/api/swiss/new/{teamId}``; we have no teams),
``GET /api/swiss/{id}``, ``POST .../join``, ``.../withdraw``, ``GET .../results``,
``GET /swiss/{id}.trf``.  Making an event needs the scope ``tournament:write``; joining and
leaving it too, or a player's scope (``board:play``, a bot's ``bot:play``), so that a bot's
token joins as on lichess.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse

from emergo.server.bots.rules import require_player
from emergo.server.core.auth import Actor, ApiError, fields_of, require, site_of
from emergo.server.core.db import now
from emergo.server.core.streams import ok
from emergo.server.tournament.berserk import berserk
from emergo.server.tournament.event import PAGE_PAIRINGS, Event
from emergo.server.tournament.service import TournamentError
from emergo.server.tournament.spec import arena_spec, swiss_spec

PLAYER_SCOPES = ("tournament:write", "board:play", "bot:play")


async def _player(request: Request, fields: dict[str, Any]) -> Actor:
    actor = await require(request, None, fields)
    if not any(scope in actor.scopes for scope in PLAYER_SCOPES):
        raise ApiError("this token lacks the scope tournament:write", 403)
    return actor


async def _event(request: Request, swiss: bool) -> Event:
    site = site_of(request)
    event = await asyncio.to_thread(site.tournaments.get, request.path_params["id"])
    if event is None or (event.kind == "swiss") != swiss:
        raise ApiError(f"no such {'Swiss ' if swiss else ''}tournament", 404)
    return event


def _full(site: Any, event: Event, t: float) -> dict[str, Any]:
    """The event with its standing, its current pairings and its last 200 pairings, the newest
    first, as the event's page shows them (``GET /api/tournament/{id}``)."""
    event, _players, pairings, lines = site.tournaments.view(event.id)
    out = event.json(t)
    out["standing"] = {"page": 1, "players": [line.json(event.kind) for line in lines[:100]]}
    current = [p for p in pairings if p.status == "playing"]
    out["ongoing"] = [p.json() for p in current[:100]]
    out["nbOngoing"] = len(current)
    out["pairings"] = [p.json() for p in reversed(pairings[-PAGE_PAIRINGS:])]
    return out


async def tournaments(request: Request) -> Response:
    """``GET /api/tournament``: the events not yet started, going on, and finished lately."""
    site = site_of(request)
    found = await asyncio.to_thread(site.tournaments.listing)
    t = now()
    return JSONResponse({k: [e.json(t) for e in v] for k, v in found.items()})


async def tournament_create(request: Request) -> Response:
    """``POST /api/tournament``: a new arena (or round robin, match)."""
    fields = await fields_of(request)
    actor = await require(request, "tournament:write", fields)
    site = site_of(request)
    spec = arena_spec(fields)
    event = await asyncio.to_thread(site.tournaments.create, spec, actor.user)
    return JSONResponse(event.json(now()))


async def tournament_show(request: Request) -> Response:
    """``GET /api/tournament/{id}``."""
    event = await _event(request, swiss=False)
    site = site_of(request)
    return JSONResponse(await asyncio.to_thread(_full, site, event, now()))


async def swiss_show(request: Request) -> Response:
    """``GET /api/swiss/{id}``."""
    event = await _event(request, swiss=True)
    site = site_of(request)
    return JSONResponse(await asyncio.to_thread(_full, site, event, now()))


async def swiss_create(request: Request) -> Response:
    """``POST /api/swiss/new``: a new Swiss event."""
    fields = await fields_of(request)
    actor = await require(request, "tournament:write", fields)
    site = site_of(request)
    spec = swiss_spec(fields)
    event = await asyncio.to_thread(site.tournaments.create, spec, actor.user)
    return JSONResponse(event.json(now()))


async def _join(request: Request, swiss: bool) -> Response:
    fields = await fields_of(request)
    actor = await _player(request, fields)
    event = await _event(request, swiss)
    site = site_of(request)
    password = fields.get("password") if isinstance(fields.get("password"), str) else None
    await asyncio.to_thread(site.join_event, event.id, actor.user, password)
    return ok()


async def _withdraw(request: Request, swiss: bool) -> Response:
    fields = await fields_of(request)
    actor = await _player(request, fields)
    event = await _event(request, swiss)
    site = site_of(request)
    await asyncio.to_thread(site.tournaments.withdraw, event.id, actor.user)
    return ok()


async def tournament_join(request: Request) -> Response:
    """``POST /api/tournament/{id}/join`` (``password``: the entry code); again after a pause:
    back in the event's lobby."""
    return await _join(request, swiss=False)


async def tournament_withdraw(request: Request) -> Response:
    """``POST /api/tournament/{id}/withdraw``: leave before the start, pause once it runs."""
    return await _withdraw(request, swiss=False)


async def swiss_join(request: Request) -> Response:
    """``POST /api/swiss/{id}/join``."""
    return await _join(request, swiss=True)


async def swiss_withdraw(request: Request) -> Response:
    """``POST /api/swiss/{id}/withdraw``."""
    return await _withdraw(request, swiss=True)


def _ndjson(lines: list[dict[str, Any]]) -> Response:
    async def body() -> AsyncIterator[bytes]:
        for line in lines:
            yield (json.dumps(line, separators=(",", ":")) + "\n").encode()

    return StreamingResponse(body(), media_type="application/x-ndjson")


def _nb(request: Request) -> int:
    raw = request.query_params.get("nb")
    if raw is None:
        return 10_000
    # isascii: "²" is a digit to isdigit but not to int
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 10_000:
        raise ApiError("nb must be a whole number from 1 to 10000")
    return int(raw)


async def _results(request: Request, swiss: bool) -> Response:
    event = await _event(request, swiss)
    site = site_of(request)
    nb = _nb(request)
    _e, _players, _pairings, lines = await asyncio.to_thread(site.tournaments.view, event.id)
    return _ndjson([line.json(event.kind) for line in lines[:nb]])


async def tournament_results(request: Request) -> Response:
    """``GET /api/tournament/{id}/results``: NDJSON, one line a player, best first."""
    return await _results(request, swiss=False)


async def swiss_results(request: Request) -> Response:
    """``GET /api/swiss/{id}/results``: NDJSON (``points``, ``tieBreak``: Sonneborn-Berger)."""
    return await _results(request, swiss=True)


async def tournament_games(request: Request) -> Response:
    """``GET /api/tournament/{id}/games`` (and ``/api/swiss/{id}/games``): NDJSON, one line a
    pairing and its game, in the order they were made."""
    site = site_of(request)
    event = await asyncio.to_thread(site.tournaments.get, request.path_params["id"])
    if event is None:
        raise ApiError("no such tournament", 404)
    _e, _players, pairings, _lines = await asyncio.to_thread(site.tournaments.view, event.id)
    return _ndjson([p.json() for p in pairings])


async def swiss_trf(request: Request) -> Response:
    """``GET /swiss/{id}.trf``: the event as FIDE's TRF16 (what paired its rounds)."""
    site = site_of(request)
    event_id = request.path_params["id"]
    try:
        text = await asyncio.to_thread(site.tournaments.trf, event_id, request.url.hostname or "")
    except TournamentError:
        raise ApiError("no such Swiss tournament", 404) from None
    return PlainTextResponse(
        text,
        headers={"content-disposition": f'attachment; filename="emergo_swiss_{event_id}.trf"'},
    )


async def board_berserk(request: Request) -> Response:
    """``POST /api/board/game/{id}/berserk`` (and ``/api/bot/...``, lichess's): half of your
    clock for one more point if you win, in an arena game before your first move
    (:mod:`emergo.server.tournament.berserk`)."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    await asyncio.to_thread(berserk, site.db, request.path_params["id"], actor.user.id)
    return ok()

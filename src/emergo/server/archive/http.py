"""The archive's HTTP API: ``GET /api/games/search``, ``GET /api/games/user/{username}``
(JSON or NDJSON or records, as lichess's export) and ``GET /game/export/{id}`` (a game's
record, or lichess's JSON of it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse

from emergo import record
from emergo.board import WHITE, Board
from emergo.server.archive.search import ArchivedGame, ArchiveError, Query, query_of
from emergo.server.core.auth import (
    site_of,
)
from emergo.server.core.db import now
from emergo.server.core.streams import NDJSON, base_url
from emergo.server.round.http import game_or_404
from emergo.server.round.jsonview import add_game_ratings, status_of
from emergo.server.round.service import GameView
from emergo.server.site import Site
from emergo.server.user.accounts import DELETED_NAME
from emergo.server.user.http import (
    EXPORT_MAX,
    EXPORTS_PER_MINUTE,
    RECORDS,
    bad_request,
    limited,
    public_user,
)


def _clocks_flag(request: Request, default: bool) -> bool:
    """lichess's ``clocks`` query parameter: ``[%clk]`` after each move, or not."""
    value = request.query_params.get("clocks")
    if value is None:
        return default
    if value not in ("true", "false", "1", "0"):
        raise bad_request(ArchiveError("clocks must be true or false"))
    return value in ("true", "1")


_FIXED_TAGS = frozenset({"Variant", "Position", "Result", "Termination", "Names"})
"""Tags a stored game's own cannot replace: its start, its end and the moves' names are the
round's."""
_FAIR_TAGS = ("Ballot", "Swap", "Start")


async def game_export(request: Request) -> Response:
    """``GET /game/export/{id}``: the game's record (docs/records.md), with each move's clock
    (``[%clk]``, unless ``?clocks=false``) and the tags stored with the game; with ``Accept:
    application/json``, lichess's game object (:func:`export_json`)."""
    site = site_of(request)
    game = await game_or_404(site, request.path_params["id"])
    clocks = _clocks_flag(request, True)
    archived = await asyncio.to_thread(site.archive.one, game.id) if game.state.is_over else None
    if "application/json" in request.headers.get("accept", ""):
        out = export_json(game, archived)
        if archived is None:  # a game in play: each player's rating now for its kind
            await asyncio.to_thread(add_game_ratings, site, out["players"], game, now())
        return JSONResponse(out)
    tags, times = await asyncio.to_thread(site.archive.record_extras, game.id, clocks=clocks)
    text = await asyncio.to_thread(
        record_text, game, archived, base_url(request), tags=tags, clocks=times
    )
    return PlainTextResponse(
        text,
        media_type="application/x-emergo-record",
        headers={"content-disposition": f'attachment; filename="emergo-{game.id}.egn"'},
    )


def export_json(view: GameView, archived: ArchivedGame | None) -> dict[str, Any]:
    """lichess's game object of one game: a finished one's :func:`game_json` (ratings, winner),
    a game in play its players (their ratings added by :func:`game_export`) and ``status``;
    both with the ``clock`` (seconds, as lichess: ``initial``, ``increment``, ``totalTime`` for
    40 moves) or ``daysPerTurn``."""
    if archived is not None:
        out = game_json(archived, view)
    else:
        seats = view.seats
        out = {
            "id": view.id,
            "rated": view.rated,
            "variant": view.variant,
            "speed": view.speed,
            "perf": f"{view.variant}-{view.speed}",
            "createdAt": int(view.created * 1000),
            "lastMoveAt": int(view.updated * 1000),
            "status": status_of(view),
            "players": {
                side: {"user": None if name == DELETED_NAME else {"name": name, "id": name.lower()}}
                for side, name in (("white", seats.white), ("black", seats.black))
            },
            "moves": " ".join(view.state.moves),
            "initialFen": view.state.root,
            "timeControl": view.time_control,
        }
    clock = view.state.clock
    if clock is not None and clock.control.days is not None:
        out["daysPerTurn"] = clock.control.days
    elif clock is not None:
        out["clock"] = {
            "initial": int(clock.control.base),
            "increment": int(clock.control.increment),
            "totalTime": int(clock.control.estimate),
        }
    return out


def record_text(
    game: GameView,
    archived: ArchivedGame | None = None,
    base: str = "",
    *,
    tags: dict[str, str] | None = None,
    clocks: list[tuple[float | None, float | None]] | None = None,
) -> str:
    """The record of a stored game as lichess exports one: the event (rated or casual), the
    game's address, its date and time (UTC), the players with their ratings before the game and
    the change (a finished rated game), the time control, its fair start, the moves and how it
    ended; ``tags`` stored with the game (an imported game's names, a fair start) over the
    site's, and ``clocks`` (both clocks after each move) as each move's ``[%clk]``: the mover's
    time left."""
    board: Board = game.state.board().copy()
    started = datetime.fromtimestamp(game.created, UTC)
    site_tags = {
        "Event": f"{'Rated' if game.rated else 'Casual'} {game.variant} {game.speed} game",
        "Site": f"{base}/game/{game.id}" if base else game.id,
        "Date": started.strftime("%Y.%m.%d"),
        "White": game.seats.white,
        "Black": game.seats.black,
        "UTCDate": started.strftime("%Y.%m.%d"),
        "UTCTime": started.strftime("%H:%M:%S"),
    }
    if archived is not None:
        for side, rating, diff in (
            ("White", archived.white_rating, archived.white_diff),
            ("Black", archived.black_rating, archived.black_diff),
        ):
            if rating is not None:
                site_tags[f"{side}Elo"] = str(rating)
                if diff is not None:
                    site_tags[f"{side}RatingDiff"] = f"{diff:+d}"
    site_tags["TimeControl"] = game.time_control or "-"  # lichess's "-": no clock
    if archived is not None:  # its fair start (Ballot, Swap with the choice, Start; issue 30)
        site_tags.update({k: v for k, v in (archived.tags or {}).items() if k in _FAIR_TAGS})
    for key, value in (tags or {}).items():
        if key not in _FIXED_TAGS:
            site_tags[key] = value
    g = record.Game.from_board(board, **site_tags)
    if clocks and len(clocks) == len(board.move_stack):
        turn = board.root().turn
        for node, (white, black) in zip(g.mainline(), clocks, strict=True):
            node.clock = white if turn == WHITE else black
            turn = not turn
    outcome = game.state.outcome
    if outcome is not None and board.outcome() is None:
        g.headers["Result"] = outcome.result()
        g.headers["Termination"] = outcome.termination.value
    return record.write_game(g)


def _record(site: Site, view: GameView, game: ArchivedGame, clocks: bool) -> str:
    tags, times = site.archive.record_extras(view.id, clocks=clocks)
    return record_text(view, game, tags=tags, clocks=times)


def _query(request: Request, **fixed: str) -> Query:
    try:
        return query_of({**request.query_params, **fixed})
    except ArchiveError as e:
        raise bad_request(e) from None


async def games_search(request: Request) -> Response:
    """``GET /api/games/search``: a page of finished games, newest first: ``player``, ``vs``,
    ``variant``, ``speed``, ``rated``, ``result``, ``color``, ``since``, ``until`` (a day
    ``YYYY-MM-DD`` or milliseconds), ``max`` (1-100), ``before`` (the ``next`` of a page)."""
    site = site_of(request)
    q = _query(request)
    try:
        games, cursor = await asyncio.to_thread(site.archive.search, q)
    except ArchiveError as e:
        raise bad_request(e) from None
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
    await limited(request, "game exports", EXPORTS_PER_MINUTE)
    name = request.path_params["username"]
    await public_user(site, name)
    q = _query(request, player=name)
    if "max" not in request.query_params:
        q = dataclasses.replace(q, limit=EXPORT_MAX)
    ndjson = NDJSON in request.headers.get("accept", "")
    clocks = _clocks_flag(request, False)  # lichess's default for a player's games
    first = dataclasses.replace(q, limit=min(q.limit, 100))
    try:  # the first page before the answer starts: a bad query is a 4xx, not a cut stream
        pairs, after = await asyncio.to_thread(site.archive.page_with_states, first)
    except ArchiveError as e:
        raise bad_request(e) from None
    return StreamingResponse(
        _export(site, q.limit, pairs, after, ndjson, clocks),
        media_type=NDJSON if ndjson else RECORDS,
        headers={} if ndjson else {"content-disposition": f'attachment; filename="{name}.egn"'},
    )


async def _export(
    site: Site,
    limit: int,
    pairs: list[tuple[ArchivedGame, GameView]],
    after: Query | None,
    ndjson: bool,
    clocks: bool = False,
) -> AsyncIterator[bytes]:
    left = min(limit, EXPORT_MAX)
    while True:
        for game, view in pairs[:left]:
            if ndjson:
                yield (json.dumps(game_json(game, view), separators=(",", ":")) + "\n").encode()
            else:
                yield (await asyncio.to_thread(_record, site, view, game, clocks) + "\n").encode()
        left -= len(pairs)
        if after is None or left <= 0:
            return
        page = dataclasses.replace(after, limit=min(left, 100))
        pairs, after = await asyncio.to_thread(site.archive.page_with_states, page)

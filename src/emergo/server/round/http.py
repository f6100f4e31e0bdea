"""The round over HTTP: lichess's Board API (and the Bot API's same routes: who may use which is
:mod:`emergo.server.bots.rules`): a move, resign, abort, claims, draw and takeback answers, a
player's game stream and a spectator's, and ``GET /api/game/{id}``.

Thin: each endpoint authenticates (:mod:`emergo.server.core.auth`), reads its fields, calls the
site (:class:`emergo.server.site.Site`) in a worker thread and answers JSON, or streams NDJSON
(:mod:`emergo.server.core.streams`).  Errors are ``{"error": message}`` with a 4xx status; the
routes are listed in :mod:`emergo.server.routes`, the differences from lichess in
docs/online.md.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.bots.rules import (
    SLOTS,
    require_player,
)
from emergo.server.chat.service import ROOMS, may_read
from emergo.server.core.auth import (
    Actor,
    ApiError,
    actor_of,
    fields_of,
    require,
    site_of,
)
from emergo.server.core.db import now
from emergo.server.core.streams import (
    KEEP_ALIVE,
    NdjsonStream,
    connection_ticket,
    ending_quietly,
    ndjson_line,
    ok,
)
from emergo.server.round.jsonview import (
    add_game_ratings,
    game_full,
    game_state,
    gone_line,
    you_of,
)
from emergo.server.round.presence import BEAT
from emergo.server.round.service import GameError, GameView
from emergo.server.round.swap_choice import choose as choose_swap
from emergo.server.site import Site

log = logging.getLogger(__name__)


async def game_or_404(site: Site, game_id: str) -> GameView:
    """The game as this process knows it (its copy kept by the bus), else as stored."""
    game = site.rounds.cache.get(game_id) or await asyncio.to_thread(site.rounds.get, game_id)
    if game is None:
        raise ApiError("no such game", 404)
    return game


def _flag(value: Any) -> bool:
    return value is True or value == "true"


async def board_move(request: Request) -> Response:
    """``POST /api/board/game/{id}/move/{move}`` (``?offeringDraw=true``)."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    offering = _flag(request.query_params.get("offeringDraw") or fields.get("offeringDraw"))
    await asyncio.to_thread(
        site.play,
        request.path_params["id"],
        actor.user,
        "move",
        text=request.path_params["move"],
        offering_draw=offering,
    )
    return ok()


_BOARD_ACTIONS = {
    "resign": "resign",
    "abort": "abort",
    "claim-victory": "claim-victory",
    "claim-draw": "claim-draw",
}


async def board_action(request: Request) -> Response:
    """``POST /api/board/game/{id}/resign|abort|claim-victory|claim-draw``."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    action = _BOARD_ACTIONS[request.path_params["action"]]
    await asyncio.to_thread(site.play, request.path_params["id"], actor.user, action)
    return ok()


async def board_offer(request: Request) -> Response:
    """``POST /api/board/game/{id}/draw/{yes|no}`` and ``.../takeback/{yes|no}``."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    kind, answer = request.path_params["kind"], request.path_params["answer"]
    await asyncio.to_thread(site.play, request.path_params["id"], actor.user, f"{kind}-{answer}")
    return ok()


async def board_swap(request: Request) -> Response:
    """``POST /api/board/game/{id}/swap/{yes|no}`` (and ``/api/bot/...``): Black's choice under
    the swap rule, ``yes`` takes White's side, ``no`` plays on as Black (round/swap.py)."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    take = request.path_params["answer"] == "yes"
    await asyncio.to_thread(
        choose_swap, site.rounds, request.path_params["id"], actor.user.id, take
    )
    return ok()


def readable_rooms(game: GameView, actor: Actor | None) -> tuple[str, ...]:
    player = actor is not None and game.seats.color_of(actor.user.id) is not None
    over = game.state.outcome is not None
    return tuple(r for r in ROOMS if may_read(r, player=player, over=over))


async def hotseat_create(request: Request) -> Response:
    """``POST /api/hotseat``: a game in which the player holds both seats (two people at one
    screen), from a challenge's terms (``variant``, ``fen``, ``clock.limit`` ...):
    ``{"gameId"}``."""
    fields = await fields_of(request)
    actor = await require(request, "board:play", fields=fields)
    site = site_of(request)
    game_id = await asyncio.to_thread(site.hotseat, actor.user, fields)
    return ok(gameId=game_id, id=game_id)


async def game_json(request: Request) -> Response:
    """``GET /api/game/{id}``: the game as ``gameFull``, with the asker's colour."""
    actor = await actor_of(request)
    site = site_of(request)
    game = await game_or_404(site, request.path_params["id"])
    out = game_full(game, now())
    await asyncio.to_thread(add_game_ratings, site, out, game, now())
    out["you"] = you_of(game, actor.user.id if actor is not None else None)
    return JSONResponse(out)


async def board_game_stream(request: Request) -> Response:
    """``GET /api/board/game/stream/{id}`` (and ``/api/bot/...``): a player's stream of their
    game."""
    actor = await require_player(request)
    site = site_of(request)
    game = await game_or_404(site, request.path_params["id"])
    if game.seats.color_of(actor.user.id) is None:
        raise ApiError("you do not play this game: watch it at /api/stream/game/{id}", 403)
    lines = SLOTS.stream(request, f"game:{game.id}", game_lines(site, game, actor))
    return NdjsonStream(ending_quietly(lines), connection_ticket(request, actor))


async def spectator_stream(request: Request) -> Response:
    """``GET /api/stream/game/{id}``: anyone's stream of a game (spectators' chat only)."""
    actor = await actor_of(request)
    site = site_of(request)
    game = await game_or_404(site, request.path_params["id"])
    return NdjsonStream(
        ending_quietly(game_lines(site, game, actor, spectator=True)),
        connection_ticket(request, actor),
    )


async def game_lines(
    site: Site, game: GameView, actor: Actor | None, *, spectator: bool = False
) -> AsyncIterator[bytes]:
    """``gameFull``, then a ``gameState`` a new version, ``chatLine``, ``opponentGone``; the
    stream ends after the state that ends the game."""
    color = None if spectator or actor is None else game.seats.color_of(actor.user.id)
    user_id = actor.user.id if actor is not None else None
    if color is not None and user_id is not None:
        site.presence.connect(game.id, user_id)
    try:
        if color is not None and user_id is not None:
            await asyncio.to_thread(site.presence.beat_one, game.id, user_id)
        topics = actor.topics if actor is not None else ()
        with site.bus.subscribe(f"g:{game.id}", f"c:{game.id}", *topics) as sub:
            game = await game_or_404(site, game.id)
            yield ndjson_line(game_full(game, now()))
            version = game.version
            rooms = readable_rooms(game, actor) if not spectator else ("spectator",)
            lines = await asyncio.to_thread(site.chat.lines, game.id, rooms=rooms)
            last_chat = max((x.id for x in lines), default=0)
            for x in lines:
                yield ndjson_line(x.json())
            if game.state.outcome is not None:
                return
            gone: bool | None = None
            next_check = 0.0
            loop = asyncio.get_running_loop()
            while True:
                # asleep on the bus: a version, a chat line, the stream's end, or the keep-alive
                timeout = BEAT if color is not None else KEEP_ALIVE
                woke = await sub.wait(timeout)
                if site.bus.closing:  # the server is stopping: the stream ends
                    return
                fired = sub.take() if woke else {}
                if actor is not None and actor.ended(fired):  # signed out, on any process
                    return
                said = False
                if f"g:{game.id}" in fired:
                    seats = game.seats
                    game = await latest(site, game)
                    if game.seats != seats:  # a swap (round/swap.py): the whole game again
                        version = game.version
                        if color is not None and user_id is not None:
                            color = game.seats.color_of(user_id)
                        yield ndjson_line(game_full(game, now()))
                        said = True
                    elif game.version != version:
                        version = game.version
                        yield site.rounds.cache.shared(game, "gameState", _state_line(game))
                        said = True
                        if game.state.outcome is not None:
                            return
                if f"c:{game.id}" in fired:
                    rooms = readable_rooms(game, actor) if not spectator else ("spectator",)
                    new = await asyncio.to_thread(
                        site.chat.lines, game.id, after=last_chat, rooms=rooms
                    )
                    for x in new:
                        last_chat = x.id
                        yield ndjson_line(x.json())
                        said = True
                if color is not None and loop.time() >= next_check:
                    next_check = loop.time() + BEAT
                    since = await presence_call(
                        site,
                        game.id,
                        site.presence.gone_since,
                        game.id,
                        game.seats.id_of(not color),
                        game.created,
                    )
                    if (since is not None) != gone:
                        gone = since is not None
                        yield ndjson_line(gone_line(game, since))
                        said = True
                if not woke and not said:
                    yield b"\n"
    finally:
        if color is not None and user_id is not None:
            site.presence.disconnect(game.id, user_id)


def _state_line(game: GameView) -> Any:
    """What builds the ``gameState`` line of a version (once a process: the cache's)."""
    return lambda: ndjson_line(game_state(game, game.updated))


async def latest(site: Site, game: GameView) -> GameView:
    """The newest version of ``game`` on this process: its copy in memory, or one read of the
    database for all the game's readers here (:meth:`emergo.server.round.service.Rounds.latest`)."""
    found = site.rounds.cache.get(game.id)
    if found is not None:
        return found
    return await asyncio.to_thread(site.rounds.latest, game)


async def presence_call(site: Site, game_id: str, call: Any, *args: Any) -> Any:
    """A question to :class:`emergo.server.round.presence.Presence`: answered from this
    process's memory when it keeps the game, else in a worker thread (it reads the database)."""
    if site.presence.watched(game_id):
        return call(*args)
    return await asyncio.to_thread(call, *args)


async def unknown_game_action(request: Request) -> Response:
    raise GameError("unknown action", 404)

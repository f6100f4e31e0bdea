"""The online site's HTTP API: the Board API shaped as lichess's, and the JSON the pages use.

Thin: each endpoint authenticates (:mod:`emergo.web.online_auth`), reads its fields, calls the
site (:class:`emergo.online.site.Site`) in a worker thread and answers JSON, or streams NDJSON
(one JSON object a line, an empty line every :data:`KEEP_ALIVE` seconds when there is nothing
to say, as lichess).  Errors are ``{"error": message}`` with a 4xx status; the routes are listed
in :mod:`emergo.web.online_app`, the differences from lichess in docs/online.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from emergo import record
from emergo.board import Board
from emergo.online.archive import ArchivedGame
from emergo.online.chat import ROOMS, may_read
from emergo.online.db import now, unavailable
from emergo.online.limits import Ticket
from emergo.online.presence import BEAT
from emergo.online.rounds import GameError, GameView
from emergo.online.site import Site
from emergo.online.tokens import check_scopes
from emergo.web.online_auth import (
    READ_SCOPES,
    Actor,
    ApiError,
    actor_of,
    client_key,
    fields_of,
    require,
    row_id,
    site_of,
)
from emergo.web.online_botrules import (
    SLOTS,
    is_bot_route,
    refuse_bot,
    require_challenger,
    require_player,
)
from emergo.web.online_json import (
    add_challenge_ratings,
    add_game_ratings,
    game_full,
    game_state,
    summary,
)

log = logging.getLogger("emergo.web.online")
KEEP_ALIVE = 6.0
"""Seconds between keep-alive lines of an idle NDJSON stream (lichess: about 6)."""
NDJSON = "application/x-ndjson"


def ok(**extra: Any) -> JSONResponse:
    return JSONResponse({"ok": True, **extra})


def _line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


async def _game(site: Site, game_id: str) -> GameView:
    game = await asyncio.to_thread(site.rounds.get, game_id)
    if game is None:
        raise ApiError("no such game", 404)
    return game


# --- accounts -------------------------------------------------------------------------------------


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


# --- challenges and the lobby ---------------------------------------------------------------------


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def challenge_create(request: Request) -> Response:
    """``POST /api/challenge/{username}``: a direct challenge (lichess's fields)."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    site = site_of(request)
    challenge = await asyncio.to_thread(
        site.challenge, actor.user, fields, kind="direct", dest_name=request.path_params["username"]
    )
    return JSONResponse(challenge.json(_base(request)))


async def challenge_open(request: Request) -> Response:
    """``POST /api/challenge/open``: an invitation link anyone who has it may accept."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    site = site_of(request)
    challenge = await asyncio.to_thread(site.challenge, actor.user, fields, kind="link")
    return JSONResponse(challenge.json(_base(request)))


async def seek_create(request: Request) -> Response:
    """``POST /api/lobby/seek``: an open challenge in the lobby."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    site = site_of(request)
    challenge = await asyncio.to_thread(site.challenge, actor.user, fields, kind="seek")
    return JSONResponse(challenge.json(_base(request)))


async def seeks(request: Request) -> Response:
    site = site_of(request)
    found = await asyncio.to_thread(site.challenges.seeks)
    out = [c.json(_base(request)) for c in found]
    await asyncio.to_thread(add_challenge_ratings, site, out, now())
    return JSONResponse({"seeks": out})


async def challenges_mine(request: Request) -> Response:
    actor = await require_challenger(request, "challenge:read")
    site = site_of(request)
    mine = await asyncio.to_thread(site.challenges.of_user, actor.user)
    base = _base(request)
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
    return JSONResponse(challenge.json(_base(request)))


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


# --- playing: the Board API -----------------------------------------------------------------------


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


async def board_chat_post(request: Request) -> Response:
    """``POST /api/board/game/{id}/chat`` (``room``: player or spectator, ``text``)."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    room = fields.get("room", "player")
    line = await asyncio.to_thread(
        site.say, request.path_params["id"], actor.user, room, fields.get("text")
    )
    return ok(id=line.id)


async def board_chat_get(request: Request) -> Response:
    """``GET /api/board/game/{id}/chat``: the lines the user may read (``/api/bot/...``: a bot
    player's only)."""
    if is_bot_route(request):
        actor: Actor | None = await require_player(request)
    else:
        actor = await actor_of(request)
        refuse_bot(actor)
    site = site_of(request)
    game = await _game(site, request.path_params["id"])
    rooms = _rooms(game, actor)
    lines = await asyncio.to_thread(site.chat.lines, game.id, rooms=rooms)
    return JSONResponse(
        [{"id": x.id, "room": x.room, "user": x.user, "text": x.text} for x in lines]
    )


async def board_chat_room(request: Request) -> Response:
    """``POST /api/board/game/{id}/chat/{on|off}``: open or close the players' room."""
    fields = await fields_of(request)
    actor = await require_player(request, fields)
    site = site_of(request)
    await asyncio.to_thread(
        site.rounds.set_player_chat,
        request.path_params["id"],
        actor.user.id,
        request.path_params["state"] == "on",
    )
    return ok()


def _rooms(game: GameView, actor: Actor | None) -> tuple[str, ...]:
    player = actor is not None and game.seats.color_of(actor.user.id) is not None
    over = game.state.outcome is not None
    return tuple(r for r in ROOMS if may_read(r, player=player, over=over))


async def game_json(request: Request) -> Response:
    """``GET /api/game/{id}``: the game as ``gameFull``, with the asker's colour."""
    actor = await actor_of(request)
    site = site_of(request)
    game = await _game(site, request.path_params["id"])
    out = game_full(game, now())
    await asyncio.to_thread(add_game_ratings, site, out, game, now())
    color = game.seats.color_of(actor.user.id) if actor is not None else None
    out["you"] = None if color is None else ("white" if color else "black")
    return JSONResponse(out)


async def game_export(request: Request) -> Response:
    """``GET /game/export/{id}``: the game's record (docs/records.md)."""
    site = site_of(request)
    game = await _game(site, request.path_params["id"])
    archived = await asyncio.to_thread(site.archive.one, game.id) if game.state.is_over else None
    text = await asyncio.to_thread(record_text, game, archived, _base(request))
    return PlainTextResponse(
        text,
        media_type="application/x-emergo-record",
        headers={"content-disposition": f'attachment; filename="emergo-{game.id}.egn"'},
    )


def record_text(game: GameView, archived: ArchivedGame | None = None, base: str = "") -> str:
    """The record of a stored game as lichess exports one: the event (rated or casual), the
    game's address, its date and time (UTC), the players with their ratings before the game and
    the change (a finished rated game), the time control, the moves and how it ended."""
    board: Board = game.state.board().copy()
    started = datetime.fromtimestamp(game.created, UTC)
    tags = {
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
                tags[f"{side}Elo"] = str(rating)
                if diff is not None:
                    tags[f"{side}RatingDiff"] = f"{diff:+d}"
    tags["TimeControl"] = game.time_control or "-"  # lichess's "-": no clock
    g = record.Game.from_board(board, **tags)
    outcome = game.state.outcome
    if outcome is not None and board.outcome() is None:
        g.headers["Result"] = outcome.result()
        g.headers["Termination"] = outcome.termination.value
    return record.write_game(g)


# --- streams --------------------------------------------------------------------------------------


class _Stream(StreamingResponse):
    """An NDJSON stream that holds one of its client's connections (``[limits]
    connections_per_client``) until it ends, however it ends."""

    def __init__(self, content: AsyncIterator[bytes], ticket: Ticket) -> None:
        super().__init__(content, media_type=NDJSON)
        self.ticket = ticket

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.ticket.close()


def _ticket(request: Request, actor: Actor | None) -> Ticket:
    """A connection of the request's client, or a 429 (too many open)."""
    return site_of(request).connections.open(client_key(request, actor))


async def event_stream(request: Request) -> Response:
    """``GET /api/stream/event``: the user's challenges, game starts and game ends."""
    actor = await require(request)
    if not actor.scopes & READ_SCOPES:
        raise ApiError("this token lacks the scope challenge:read", 403)
    site = site_of(request)
    lines = SLOTS.stream(request, "event", _user_lines(site, actor, _base(request)))
    return _Stream(_ending(lines), _ticket(request, actor))


async def _ending(lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """A stream's lines; when the database stops answering the stream ends (the client opens
    it again and gets the whole state), never with a traceback."""
    try:
        async for line in lines:
            yield line
    except Exception as e:
        if not unavailable(e):
            raise
        log.warning("a stream ended: the database did not answer (%s)", type(e).__name__)


async def _user_lines(site: Site, actor: Actor, base: str) -> AsyncIterator[bytes]:
    user = actor.user
    with site.bus.subscribe(f"u:{user.id}") as sub:
        last = await asyncio.to_thread(site_last_event, site, user.id)
        games = await asyncio.to_thread(site.rounds.playing, user.id)
        for game in games:
            yield _line({"type": "gameStart", "game": {"gameId": game.id, "id": game.id}})
        mine = await asyncio.to_thread(site.challenges.of_user, user)
        for challenge in mine["in"]:
            yield _line({"type": "challenge", "challenge": challenge.json(base)})
        while True:
            if not await sub.wait(KEEP_ALIVE):
                yield b"\n"
                continue
            if site.bus.closing:  # the server is stopping: the stream ends
                return
            sub.take()
            events = await asyncio.to_thread(site_events_after, site, user.id, last)
            for event_id, data in events:
                last = event_id
                yield _line(data)


def site_last_event(site: Site, user_id: int) -> int:
    from sqlalchemy import func, select

    from emergo.online import models as m

    with site.db.read() as c:
        value = c.execute(
            select(func.max(m.user_events.c.id)).where(m.user_events.c.user_id == user_id)
        ).scalar()
    return int(value or 0)


def site_events_after(site: Site, user_id: int, after: int) -> list[tuple[int, dict[str, Any]]]:
    from sqlalchemy import select

    from emergo.online import models as m

    with site.db.read() as c:
        rows = c.execute(
            select(m.user_events.c.id, m.user_events.c.data)
            .where(m.user_events.c.user_id == user_id)
            .where(m.user_events.c.id > after)
            .order_by(m.user_events.c.id)
            .limit(500)
        ).all()
    return [(r.id, r.data) for r in rows]


async def board_game_stream(request: Request) -> Response:
    """``GET /api/board/game/stream/{id}`` (and ``/api/bot/...``): a player's stream of their
    game."""
    actor = await require_player(request)
    site = site_of(request)
    game = await _game(site, request.path_params["id"])
    if game.seats.color_of(actor.user.id) is None:
        raise ApiError("you do not play this game: watch it at /api/stream/game/{id}", 403)
    lines = SLOTS.stream(request, f"game:{game.id}", game_lines(site, game, actor))
    return _Stream(_ending(lines), _ticket(request, actor))


async def spectator_stream(request: Request) -> Response:
    """``GET /api/stream/game/{id}``: anyone's stream of a game (spectators' chat only)."""
    actor = await actor_of(request)
    site = site_of(request)
    game = await _game(site, request.path_params["id"])
    return _Stream(_ending(game_lines(site, game, actor, spectator=True)), _ticket(request, actor))


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
        with site.bus.subscribe(f"g:{game.id}", f"c:{game.id}") as sub:
            game = await _game(site, game.id)
            yield _line(game_full(game, now()))
            version = game.version
            rooms = _rooms(game, actor) if not spectator else ("spectator",)
            lines = await asyncio.to_thread(site.chat.lines, game.id, rooms=rooms)
            last_chat = max((x.id for x in lines), default=0)
            for x in lines:
                yield _line(x.json())
            if game.state.outcome is not None:
                return
            gone: bool | None = None
            next_check = 0.0
            loop = asyncio.get_running_loop()
            while True:
                timeout = BEAT if color is not None else KEEP_ALIVE
                woke = await sub.wait(timeout)
                if site.bus.closing:  # the server is stopping: the stream ends
                    return
                fired = sub.take() if woke else {}
                said = False
                if f"g:{game.id}" in fired or not woke:
                    game = await asyncio.to_thread(site.rounds.refresh, game)
                    if game.version != version:
                        version = game.version
                        yield _line(game_state(game, now()))
                        said = True
                        if game.state.outcome is not None:
                            return
                if f"c:{game.id}" in fired:
                    rooms = _rooms(game, actor) if not spectator else ("spectator",)
                    new = await asyncio.to_thread(
                        site.chat.lines, game.id, after=last_chat, rooms=rooms
                    )
                    for x in new:
                        last_chat = x.id
                        yield _line(x.json())
                        said = True
                if color is not None and loop.time() >= next_check:
                    next_check = loop.time() + BEAT
                    since = await asyncio.to_thread(
                        site.presence.gone_since,
                        game.id,
                        game.seats.id_of(not color),
                        game.created,
                    )
                    if (since is not None) != gone:
                        gone = since is not None
                        yield _line(_gone_line(game, since))
                        said = True
                if not woke and not said:
                    yield b"\n"
    finally:
        if color is not None and user_id is not None:
            site.presence.disconnect(game.id, user_id)


def _gone_line(game: GameView, since: float | None) -> dict[str, Any]:
    if since is None:
        return {"type": "opponentGone", "gone": False}
    from emergo import round as rnd

    grace = rnd.claim_grace(game.state.time_control)
    left = max(0.0, since + grace - now())
    return {"type": "opponentGone", "gone": True, "claimWinInSeconds": int(left + 0.999)}


async def unknown_game_action(request: Request) -> Response:
    raise GameError("unknown action", 404)

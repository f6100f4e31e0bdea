"""``WS /ws/game/{id}``: a game, for its players and spectators.  Every message is a JSON
object with a type ``t``.  The server sends:

* ``{"t": "full", "v", "game": gameFull, "you": "white"|"black"|"both"|null (both: a hot-seat
  game's player), "chat": [chatLine...],
  "playerChat": bool, "spectators": n}`` -- at once, and after ``resync``;
* ``{"t": "v", "v", "events": [the round's events of version v], "state": gameState}`` -- one a
  version, in order; a client that sees a gap (its version + 1 != ``v``) sends ``resync``;
* ``{"t": "chat", "line": chatLine}``, ``{"t": "chatRemoved", "id"}``,
  ``{"t": "chatRoom", "open": bool}`` (the players' room opened or closed);
* ``{"t": "opponentGone", "gone": bool, "claimInSeconds"?}`` (players), ``{"t": "crowd",
  "spectators": n}``;
* ``{"t": "ack", "id"}`` or ``{"t": "error", "id", "error", "status"}`` -- the answer to each
  command that had an ``id``; ``{"t": "pong"}``.

The client sends commands ``{"t": ACTION, "id"?: any, "v"?: its version, ...}`` with ACTION one
of :data:`emergo.server.round.commands.ACTIONS` (``move`` with ``move``: the text, ``lag``:
seconds it measured), ``chat`` (``room``, ``text``), ``chat-room`` (``open``), ``resync``,
``ping``.  Only the game's players may send commands; a spectator's gets a 403 ``error``; a
token socket acts only with ``board:play``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from emergo import round as rnd
from emergo.server.board.positions import move_data, position_data
from emergo.server.core.auth import (
    Actor,
    site_of,
)
from emergo.server.core.db import now, unavailable
from emergo.server.core.errors import SiteError
from emergo.server.core.guard import MAX_BODY
from emergo.server.core.inputs import parse_json
from emergo.server.core.limits import RateLimited
from emergo.server.core.sockets import (
    CLOSE_SIGNED_OUT,
    CLOSE_TOO_MANY,
    Outbox,
    accept,
    closing_code,
    credential_end,
    error_status,
    message_credits,
    open_connection,
    opening,
)
from emergo.server.round.commands import ACTIONS
from emergo.server.round.http import latest, presence_call, readable_rooms
from emergo.server.round.jsonview import (
    add_game_ratings,
    game_full,
    game_state,
    gone_line,
    you_of,
)
from emergo.server.round.presence import BEAT
from emergo.server.round.service import GameError, GameView
from emergo.server.site import Site

log = logging.getLogger(__name__)


async def game_socket(ws: WebSocket) -> None:
    site = site_of(ws)
    opened = await opening(ws, site, load=lambda: site.rounds.get(ws.path_params["id"]))
    if opened is None:
        return
    actor, game = opened
    if game is None:
        await ws.close(4404, "no such game")
        return
    ticket = await open_connection(ws, actor)
    if ticket is None:
        return
    with ticket:
        await accept(ws)
        session = GameSession(site, ws, game, actor)
        await session.run()


class GameSession:
    """One game socket (module docstring)."""

    def __init__(self, site: Site, ws: WebSocket, game: GameView, actor: Actor | None) -> None:
        self.site = site
        self.ws = ws
        self.game = game
        self.actor = actor
        self.color = game.seats.color_of(actor.user.id) if actor is not None else None
        self.version = 0
        self.last_chat = 0
        self.sent_chat: list[int] = []
        self.player_chat = game.player_chat
        self.gone: bool | None = None
        self.crowd = -1
        self.out = Outbox(ws)
        self.credits = message_credits(ws)
        self.flooded = False

    @property
    def player(self) -> bool:
        return self.color is not None

    async def run(self) -> None:
        site, game_id = self.site, self.game.id
        user_id = self.actor.user.id if self.actor is not None else None
        if self.player and user_id is not None:
            site.presence.connect(game_id, user_id)
        else:
            site.presence.watch(game_id, 1)
        sub = site.bus.subscribe(f"g:{game_id}", f"c:{game_id}")
        tasks: list[asyncio.Task[Any]] = []
        ended: asyncio.Task[None] | None = None
        try:
            if self.player and user_id is not None:
                await asyncio.to_thread(site.presence.beat_one, game_id, user_id)
            await self.send_full()
            loop = asyncio.get_running_loop()
            ended = loop.create_task(credential_end(site, self.actor))
            tasks = [
                loop.create_task(self.receive()),
                loop.create_task(self.push(sub)),
                loop.create_task(self.out.dropped.wait()),
                ended,
            ]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task
            sub.close()
            if self.player and user_id is not None:
                site.presence.disconnect(game_id, user_id)
            else:
                site.presence.watch(game_id, -1)
            slow = self.out.dropped.is_set() and self.ws.client_state == WebSocketState.CONNECTED
            if self.flooded:
                await self.out.close(CLOSE_TOO_MANY, "too many messages")
            elif ended is not None and ended.done() and not ended.cancelled():
                await self.out.close(CLOSE_SIGNED_OUT, "signed out")
            else:
                await self.out.close(*closing_code(slow, site))

    async def send_full(self) -> None:
        site = self.site
        game = await asyncio.to_thread(site.rounds.get, self.game.id)
        if game is None:
            return
        self.game = game
        rooms = readable_rooms(game, self.actor)
        lines = await asyncio.to_thread(site.chat.lines, game.id, rooms=rooms)
        crowd = await asyncio.to_thread(site.presence.crowd, game.id)
        self.version = game.version
        self.last_chat = max((x.id for x in lines), default=self.last_chat)
        self.sent_chat = [x.id for x in lines][-200:]
        self.player_chat = game.player_chat
        full = game_full(game, now())
        await asyncio.to_thread(add_game_ratings, site, full, game, now())
        self.out.send(
            {
                "t": "full",
                "v": game.version,
                "game": full,
                "you": you_of(self.game, self.actor.user.id if self.actor else None),
                "chat": [x.json() for x in lines],
                "playerChat": game.player_chat,
                "spectators": crowd,
            }
        )

    async def push(self, sub: Any) -> None:
        """Send what is new whenever the bus says so; asleep on it otherwise (the presence is
        this process's memory: :mod:`emergo.server.round.presence`)."""
        loop = asyncio.get_running_loop()
        next_check = 0.0
        while True:
            woke = await sub.wait(BEAT)
            if self.site.bus.closing:
                return
            fired = sub.take() if woke else {}
            try:
                if f"g:{self.game.id}" in fired:
                    await self.send_versions()
                if f"c:{self.game.id}" in fired:
                    await self.send_chat()
                if loop.time() >= next_check:
                    next_check = loop.time() + BEAT
                    await self.send_presence()
            except Exception as e:
                if not unavailable(e):
                    raise
                # the database away for a moment: the socket stays; the next notification looks
                # again (the client's version says what it lacks)
                log.warning("a game socket could not read the database: %s", type(e).__name__)

    async def send_versions(self) -> None:
        """The versions after the client's, each once, in order: their events from this
        process's memory (:mod:`emergo.server.round.cache`), the whole state when it has not
        kept them all."""
        site = self.site
        game = await latest(site, self.game)
        if game.version <= self.version:
            return
        found = site.rounds.cache.events(game.id, self.version, game.version)
        if found is None:
            await self.send_full()
            return
        self.game = game
        for version, events in found:
            self.out.send_text(
                site.rounds.cache.shared(
                    game, f"v{version}", lambda v=version, e=events: _version_text(game, v, e)
                )
            )
        self.version = game.version

    async def send_chat(self) -> None:
        site, game = self.site, self.game
        fresh = await latest(site, game)
        self.game = game = fresh
        if fresh.player_chat != self.player_chat:
            self.player_chat = fresh.player_chat
            self.out.send({"t": "chatRoom", "open": fresh.player_chat})
        rooms = readable_rooms(game, self.actor)
        lines = await asyncio.to_thread(site.chat.lines, game.id, after=self.last_chat, rooms=rooms)
        for x in lines:
            self.last_chat = x.id
            self.sent_chat = [*self.sent_chat[-199:], x.id]
            self.out.send({"t": "chat", "line": x.json()})
        removed = await asyncio.to_thread(site.chat.removed, game.id, self.sent_chat)
        for line_id in removed:
            self.sent_chat.remove(line_id)
            self.out.send({"t": "chatRemoved", "id": line_id})

    async def send_presence(self) -> None:
        site, game = self.site, self.game
        crowd = await presence_call(site, game.id, site.presence.crowd, game.id)
        if crowd != self.crowd:
            self.crowd = crowd
            self.out.send({"t": "crowd", "spectators": crowd})
        if self.color is None or game.state.outcome is not None:
            return
        since = await presence_call(
            site,
            game.id,
            site.presence.gone_since,
            game.id,
            game.seats.id_of(not self.color),
            game.created,
        )
        if (since is not None) != self.gone:
            self.gone = since is not None
            line = gone_line(game, since)
            message: dict[str, Any] = {"t": "opponentGone", "gone": line["gone"]}
            if "claimWinInSeconds" in line:
                message["claimInSeconds"] = line["claimWinInSeconds"]
            self.out.send(message)

    async def receive(self) -> None:
        while True:
            try:
                raw = await self.ws.receive_text()
            except (WebSocketDisconnect, RuntimeError, KeyError):
                return
            over = self.credits.take()
            if over == 0:
                await self.handle(raw)
            elif over == 1:  # the first over the limit is answered, the next ones dropped
                retry = RateLimited("messages on this socket", self.credits.retry_after())
                self.out.send({"t": "error", "id": None, "error": str(retry), "status": 429})
            elif over >= self.credits.limit:
                self.flooded = True
                return

    async def handle(self, raw: str) -> None:
        """One client message: answered, never a crash of the socket."""
        ident: Any = None
        try:
            if len(raw) > MAX_BODY:
                raise GameError("message too large", 413)
            # a lone surrogate anywhere (an id, a chat line) refuses the whole message before
            # anything is played: its answer could not be encoded
            data = parse_json(raw, "a message")
            if not isinstance(data, dict):
                raise GameError("a message is a JSON object")
            ident = data.get("id")
            if not (ident is None or isinstance(ident, int | str)) or (
                isinstance(ident, str) and len(ident) > 64
            ):
                ident = None
                raise GameError("id must be a number or a short string")
            kind = data.get("t")
            if kind == "ping":
                self.out.send({"t": "pong"})
                return
            if kind == "resync":
                self.site.local_limits.hit("resyncs", str(id(self)), 5, 1)
                await self.send_full()
            else:
                await self.command(kind, data)
            if ident is not None:
                self.out.send({"t": "ack", "id": ident})
        except (SiteError, rnd.RoundError) as e:
            status, message = error_status(e)
            self.out.send({"t": "error", "id": ident, "error": message, "status": status})
        except Exception as e:
            if not unavailable(e):
                raise
            # the database away or stalled: nothing was played; the client may send it again
            message = "the database is not answering: try again in a few seconds"
            self.out.send({"t": "error", "id": ident, "error": message, "status": 503})

    async def command(self, kind: Any, data: dict[str, Any]) -> None:
        site, actor = self.site, self.actor
        if actor is None:
            raise GameError("sign in to play or chat", 401)
        if kind in ("chat", "chat-room"):
            _may_play(actor)
        if kind == "chat":
            await asyncio.to_thread(
                site.say, self.game.id, actor.user, data.get("room", "player"), data.get("text")
            )
            return
        if kind == "chat-room":
            state = data.get("open")
            if not isinstance(state, bool):
                raise GameError("open must be true or false")
            await asyncio.to_thread(site.rounds.set_player_chat, self.game.id, actor.user.id, state)
            return
        if kind not in ACTIONS:
            raise GameError(f"unknown message type {str(kind)[:40]!r}")
        if not self.player:
            raise GameError("spectators only watch", 403)
        _may_play(actor)
        fields: dict[str, Any] = {"version": data.get("v")}
        if kind == "move":
            fields.update(
                text=data.get("move"),
                lag=data.get("lag", 0.0),
                offering_draw=data.get("offeringDraw") is True,
            )
        await asyncio.to_thread(site.play, self.game.id, actor.user, kind, **fields)


def _version_text(game: GameView, version: int, events: list[Any]) -> str:
    """The ``v`` message of a version (with the state when it is the newest), as sent."""
    message: dict[str, Any] = {"t": "v", "v": version, "events": events}
    if version == game.version:
        message["state"] = game_state(game, game.updated)
        ply = len(game.state.moves)
        if any(e.get("t") == "move" and e.get("ply") == ply for e in events):
            message["position"] = _moved_position(game.state)
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def _moved_position(state: rnd.RoundState) -> dict[str, Any]:
    """The position after a version's move, as ``GET /api/position`` answers it for the
    position before and that one move (``line.moves``: the move's data): the page draws it
    without asking (one computation a process, not a request a page)."""
    board = state.board()
    data = position_data(board)
    data["line"] = {"moves": [move_data(board, board.move_stack[-1])]}
    return data


def _may_play(actor: Actor) -> None:
    """A token socket acts (moves, offers, chat) only with ``board:play``, and a bot account
    not at all, as the Board API's HTTP endpoints: a 403 ``error`` otherwise (a session has every
    scope)."""
    if actor.user.bot:  # as the Board API's HTTP endpoints: a bot plays with the Bot API
        raise GameError("a bot account plays with the Bot API: /api/bot/...", 403)
    if "board:play" not in actor.scopes:
        raise GameError("this token lacks the scope board:play", 403)

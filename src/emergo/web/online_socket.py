"""The online site's WebSockets: a game (players and spectators) and the lobby.

``WS /ws/online/game/{id}`` -- every message is a JSON object with a type ``t``.  The server
sends:

* ``{"t": "full", "v", "game": gameFull, "you": "white"|"black"|null, "chat": [chatLine...],
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
of :data:`emergo.online.commands.ACTIONS` (``move`` with ``move``: the text, ``lag``: seconds
it measured), ``chat`` (``room``, ``text``), ``chat-room`` (``open``), ``resync``, ``ping``.
Only the game's players may send commands; a spectator's gets a 403 ``error``.

``WS /ws/online/lobby`` -- the server sends ``{"t": "seeks", "seeks": [...]}`` at once and when
the lobby changes, and (signed in) ``{"t": "event", "event": ...}``: the lines of
``/api/stream/event``.  Lobby actions are HTTP (``POST /api/lobby/seek`` ...).

``WS /ws/online/site`` -- every page of a signed-in player (issue 19's site-wide channel, lila's
site socket): the server sends ``{"t": "unread", "unread": n}`` (the notifications not read,
at once and when it changes), ``{"t": "challenges", "in": [challenge...]}`` (the open
challenges to the player, at once and after each change) and ``{"t": "event", "event": ...}``
(the lines of ``/api/stream/event`` from the moment it opened: a challenge, one declined or
canceled, a game started or finished).  Anonymous sockets are refused (4401).  The client
sends ``{"t": "ping"}`` now and then (``{"t": "pong"}``).

A session-cookie socket must come from the site (``Origin``) with the session's CSRF token,
offered as the subprotocol ``csrf.TOKEN`` beside ``emergo`` (the server chooses ``emergo``), or
as ``?csrf=`` (a URL, which access logs write: older pages); a token socket sends
``Authorization: Bearer``.  Each socket has a bounded send
queue (:data:`SEND_QUEUE` messages): a client that does not read is dropped (close code 4008),
never holding up the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Coroutine
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from emergo import round as rnd
from emergo.online.challenges import ChallengeError
from emergo.online.chat import ChatError
from emergo.online.commands import ACTIONS
from emergo.online.db import now, unavailable
from emergo.online.limits import Credits, RateLimited, Ticket
from emergo.online.presence import BEAT
from emergo.online.rounds import GameError, GameView
from emergo.online.site import Site
from emergo.web.online_api import _gone_line, _rooms, site_events_after, site_last_event
from emergo.web.online_auth import (
    READ_SCOPES,
    Actor,
    ApiError,
    actor_of,
    check_csrf,
    client_key,
    site_of,
)
from emergo.web.online_json import add_challenge_ratings, add_game_ratings, game_full, game_state
from emergo.web.online_security import MAX_BODY

log = logging.getLogger("emergo.web.online")

SEND_QUEUE = 256
"""Messages waiting for one slow client before it is dropped."""
CLOSE_TOO_SLOW = 4008
CLOSE_TOO_MANY = 4429
"""Close code: too many sockets and streams open for this client, or a flood of messages."""
CREDIT_SECONDS = 10.0
"""The window of ``[limits] socket_messages_per_10s``."""
CLOSE_UNAVAILABLE = 4503
"""The database did not answer when the socket opened: the page tries again (socket.js)."""
CLOSE_RESTART = 1012


class Outbox:
    """One socket's bounded send queue and the task that drains it."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SEND_QUEUE)
        self.dropped = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._drain())

    def send(self, message: dict[str, Any]) -> None:
        if self.dropped.is_set():
            return
        try:
            self.queue.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        except asyncio.QueueFull:
            self.dropped.set()

    async def _drain(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    return
                await self.ws.send_text(text)
        except Exception:  # the client went away
            self.dropped.set()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.task.cancel()
        with contextlib.suppress(BaseException):
            await self.task
        if self.ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(code, reason), 1.0)


PROTOCOL = "emergo"
"""The subprotocol the site's sockets speak; a page offers it with ``csrf.TOKEN``."""
_CSRF_PROTOCOL = "csrf."


def _offered(ws: WebSocket) -> list[str]:
    header = ws.headers.get("sec-websocket-protocol", "")
    return [p.strip() for p in header.split(",") if p.strip()]


def _csrf_of(ws: WebSocket) -> str | None:
    """The CSRF token of a cookie socket: offered as the subprotocol ``csrf.TOKEN`` (a header,
    which no access log writes), or ``?csrf=TOKEN`` (older pages: the URL, which proxies log)."""
    for protocol in _offered(ws):
        if protocol.startswith(_CSRF_PROTOCOL):
            return protocol[len(_CSRF_PROTOCOL) :]
    return ws.query_params.get("csrf")


async def _accept(ws: WebSocket) -> None:
    """Accept the socket, choosing :data:`PROTOCOL` when the client offered subprotocols (a
    browser closes a socket whose server chose none of those it offered)."""
    await ws.accept(subprotocol=PROTOCOL if _offered(ws) else None)


def _closing(slow: bool, site: Site) -> tuple[int, str]:
    """How a socket closes: too slow (4008), the server restarting (1012: the page comes back
    by itself), or normally."""
    if slow:
        return CLOSE_TOO_SLOW, "too slow"
    if site.bus.closing:
        return CLOSE_RESTART, "the server is restarting"
    return 1000, ""


async def _authenticate(ws: WebSocket) -> Actor | None:
    """The socket's user (None: anonymous), or it is closed with 4401/4403 and None raised."""
    actor = await actor_of(ws)
    if actor is not None:
        check_csrf(ws, actor, _csrf_of(ws))
    return actor


async def _refuse(ws: WebSocket, error: ApiError) -> None:
    await ws.close(4000 + error.status, str(error)[:120])


async def _connection(ws: WebSocket, actor: Actor | None) -> Ticket | None:
    """One of the client's connections (``[limits] connections_per_client``); past the limit
    the socket is accepted and closed at once with 4429, so that a page sees the code (a
    refused handshake shows a browser nothing), and None returned."""
    try:
        return site_of(ws).connections.open(client_key(ws, actor))
    except RateLimited as e:
        await _accept(ws)
        await ws.close(CLOSE_TOO_MANY, str(e)[:120])
        return None


def _credits(ws: WebSocket) -> Credits:
    return Credits(site_of(ws).config.limits.socket_messages_per_10s, CREDIT_SECONDS)


def _error(e: Exception) -> tuple[int, str]:
    if isinstance(e, RateLimited):
        return 429, str(e)
    if isinstance(e, rnd.RoundError):
        return 400, str(e)
    status = getattr(e, "status", 400)
    return int(status), str(e)


async def game_socket(ws: WebSocket) -> None:
    site = site_of(ws)
    opened = await _opening(ws, site, game=True)
    if opened is None:
        return
    actor, game = opened
    if game is None:
        await ws.close(4404, "no such game")
        return
    ticket = await _connection(ws, actor)
    if ticket is None:
        return
    with ticket:
        await _accept(ws)
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
        self.credits = _credits(ws)
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
        try:
            if self.player and user_id is not None:
                await asyncio.to_thread(site.presence.beat_one, game_id, user_id)
            await self.send_full()
            loop = asyncio.get_running_loop()
            tasks = [
                loop.create_task(self.receive()),
                loop.create_task(self.push(sub)),
                loop.create_task(self.out.dropped.wait()),
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
            else:
                await self.out.close(*_closing(slow, site))

    async def send_full(self) -> None:
        site = self.site
        game = await asyncio.to_thread(site.rounds.get, self.game.id)
        if game is None:
            return
        self.game = game
        rooms = _rooms(game, self.actor)
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
                "you": None if self.color is None else ("white" if self.color else "black"),
                "chat": [x.json() for x in lines],
                "playerChat": game.player_chat,
                "spectators": crowd,
            }
        )

    async def push(self, sub: Any) -> None:
        """Send what is new whenever the bus says so (and check now and then regardless)."""
        loop = asyncio.get_running_loop()
        next_check = 0.0
        while True:
            woke = await sub.wait(BEAT)
            if self.site.bus.closing:
                return
            fired = sub.take() if woke else {}
            try:
                if f"g:{self.game.id}" in fired or not woke:
                    await self.send_versions()
                if f"c:{self.game.id}" in fired:
                    await self.send_chat()
                if loop.time() >= next_check:
                    next_check = loop.time() + BEAT
                    await self.send_presence()
            except Exception as e:
                if not unavailable(e):
                    raise
                # the database away for a moment: the socket stays; the next beat looks again
                # (the client's version says what it lacks)
                log.warning("a game socket could not read the database: %s", type(e).__name__)

    async def send_versions(self) -> None:
        site = self.site
        found = await asyncio.to_thread(site.rounds.events_after, self.game.id, self.version)
        if not found:
            return
        if found[0][0] != self.version + 1:  # events pruned or a gap: the whole state
            await self.send_full()
            return
        game = await asyncio.to_thread(site.rounds.refresh, self.game)
        self.game = game
        t = now()
        for version, events in found:
            if version > game.version:
                break
            message: dict[str, Any] = {"t": "v", "v": version, "events": events}
            if version == game.version:
                message["state"] = game_state(game, t)
            self.version = version
            self.out.send(message)

    async def send_chat(self) -> None:
        site, game = self.site, self.game
        fresh = await asyncio.to_thread(site.rounds.refresh, game)
        self.game = game = fresh
        if fresh.player_chat != self.player_chat:
            self.player_chat = fresh.player_chat
            self.out.send({"t": "chatRoom", "open": fresh.player_chat})
        rooms = _rooms(game, self.actor)
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
        crowd = await asyncio.to_thread(site.presence.crowd, game.id)
        if crowd != self.crowd:
            self.crowd = crowd
            self.out.send({"t": "crowd", "spectators": crowd})
        if self.color is None or game.state.outcome is not None:
            return
        since = await asyncio.to_thread(
            site.presence.gone_since, game.id, game.seats.id_of(not self.color), game.created
        )
        if (since is not None) != self.gone:
            self.gone = since is not None
            line = _gone_line(game, since)
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
            try:
                data = json.loads(raw)
            except (ValueError, RecursionError):
                raise GameError("a message is a JSON object") from None
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
        except (GameError, rnd.RoundError, ChatError, ChallengeError, RateLimited, ApiError) as e:
            status, message = _error(e)
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


def _may_play(actor: Actor) -> None:
    """A token socket acts (moves, offers, chat) only with ``board:play``, as the Board API's
    HTTP endpoints: a 403 ``error`` otherwise (a session has every scope)."""
    if "board:play" not in actor.scopes:
        raise GameError("this token lacks the scope board:play", 403)


async def lobby_socket(ws: WebSocket) -> None:
    site = site_of(ws)
    opened = await _opening(ws, site)
    if opened is None:
        return
    actor = opened[0]
    ticket = await _connection(ws, actor)
    if ticket is None:
        return
    with ticket:
        await _lobby(ws, actor)


async def _lobby(ws: WebSocket, actor: Actor | None) -> None:
    site = site_of(ws)
    await _accept(ws)
    out = Outbox(ws)
    credits = _credits(ws)
    # a token without a read scope sees the public seeks only, as anonymous (the event stream
    # refuses it): its user's challenges are private
    reader = actor if actor is not None and actor.scopes & READ_SCOPES else None
    topics = ["lobby"] + ([f"u:{reader.user.id}"] if reader is not None else [])
    sub = site.bus.subscribe(*topics)
    base = str(ws.base_url).replace("ws", "http", 1).rstrip("/")

    async def seeks() -> None:
        found = await asyncio.to_thread(site.challenges.seeks)
        shown = [c.json(base) for c in found]
        await asyncio.to_thread(add_challenge_ratings, site, shown, now())
        out.send({"t": "seeks", "seeks": shown})

    async def push() -> None:
        last = await asyncio.to_thread(site_last_event, site, reader.user.id) if reader else 0
        await seeks()
        while True:
            woke = await sub.wait(30.0)
            if site.bus.closing:
                return
            fired = sub.take() if woke else {}
            if "lobby" in fired or not woke:
                await seeks()
            if reader is not None and f"u:{reader.user.id}" in fired:
                events = await asyncio.to_thread(site_events_after, site, reader.user.id, last)
                for event_id, data in events:
                    last = event_id
                    out.send({"t": "event", "event": data})

    await _pump(ws, site, out, credits, sub, push())


EVENT_SCOPES = frozenset({"challenge:read", "board:play", "bot:play"})
"""A token needs one of these for the site socket (the event stream's scopes)."""
SITE_IDLE = 30.0
"""Seconds a site socket sleeps when nothing happens (it wakes on the bus)."""


async def site_socket(ws: WebSocket) -> None:
    """``/ws/online/site`` (module docstring): what a signed-in player must know on any page."""
    site = site_of(ws)
    opened = await _opening(ws, site, scopes=EVENT_SCOPES)
    if opened is None:
        return
    actor = opened[0]
    assert actor is not None  # _opening refuses anonymous sockets when scopes are asked
    ticket = await _connection(ws, actor)
    if ticket is None:
        return
    with ticket:
        await _site(ws, actor)


async def _site(ws: WebSocket, actor: Actor) -> None:
    site = site_of(ws)
    await _accept(ws)
    user = actor.user
    out = Outbox(ws)
    credits = _credits(ws)
    sub = site.bus.subscribe(f"u:{user.id}", f"n:{user.id}")
    base = str(ws.base_url).replace("ws", "http", 1).rstrip("/")

    async def unread() -> None:
        count = await asyncio.to_thread(site.notices.unread, user.id)
        out.send({"t": "unread", "unread": count})

    async def challenges() -> None:
        mine = await asyncio.to_thread(site.challenges.of_user, user)
        out.send({"t": "challenges", "in": [c.json(base) for c in mine["in"]]})

    async def push() -> None:
        last = await asyncio.to_thread(site_last_event, site, user.id)
        await unread()
        await challenges()
        while True:
            woke = await sub.wait(SITE_IDLE)
            if site.bus.closing:
                return
            if not woke:
                continue
            fired = sub.take()
            if f"n:{user.id}" in fired:
                await unread()
            if f"u:{user.id}" in fired:
                events = await asyncio.to_thread(site_events_after, site, user.id, last)
                for event_id, data in events:
                    last = event_id
                    out.send({"t": "event", "event": data})
                if any(str(d.get("type", "")).startswith("challenge") for _i, d in events):
                    await challenges()

    await _pump(ws, site, out, credits, sub, push())


async def _pump(
    ws: WebSocket,
    site: Site,
    out: Outbox,
    credits: Credits,
    sub: Any,
    push: Coroutine[Any, Any, None],
) -> None:
    """Run a socket the server writes to (the lobby's, the site's): ``push`` sends, the client
    only pings (answered within its message credits: a flood closes it, 4429); it ends when
    either side ends or the client reads too slowly, and closes as :func:`_closing` says."""
    flooded = False

    async def receive() -> None:
        nonlocal flooded
        while True:
            try:
                raw = await ws.receive_text()
            except (WebSocketDisconnect, RuntimeError, KeyError):
                return
            over = credits.take()
            if over >= credits.limit:
                flooded = True
                return
            if over == 0 and raw.strip() in ('{"t":"ping"}', '{"t": "ping"}'):
                out.send({"t": "pong"})

    loop = asyncio.get_running_loop()
    tasks = [
        loop.create_task(push),
        loop.create_task(receive()),
        loop.create_task(out.dropped.wait()),
    ]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        sub.close()
        if flooded:
            await out.close(CLOSE_TOO_MANY, "too many messages")
        else:
            await out.close(*_closing(out.dropped.is_set(), site))


async def _opening(
    ws: WebSocket, site: Site, *, game: bool = False, scopes: frozenset[str] | None = None
) -> tuple[Actor | None, GameView | None] | None:
    """Who opens the socket (and its game when ``game``), or None once it is refused: bad
    credentials, anonymous or without one of ``scopes`` when asked (before the handshake, the
    client sees an HTTP 4xx), or a database that does not answer in time (4503: the page
    retries)."""
    try:
        async with asyncio.timeout(site.config.database.request_timeout):
            actor = await _authenticate(ws)
            found = await asyncio.to_thread(site.rounds.get, ws.path_params["id"]) if game else None
        if scopes is not None:
            if actor is None:
                raise ApiError("sign in first", 401)
            if not actor.scopes & scopes:  # a token's: as /api/stream/event
                raise ApiError("this token lacks the scope challenge:read", 403)
    except ApiError as e:
        await _refuse(ws, e)
        return None
    except Exception as e:
        if not (unavailable(e) or isinstance(e, TimeoutError)):
            raise
        await ws.close(CLOSE_UNAVAILABLE, "the database is not answering")  # the page retries
        return None
    return actor, found

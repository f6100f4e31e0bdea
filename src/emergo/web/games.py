"""Games in the browser: the one place the web app meets the game flow (:mod:`emergo.game`).

Phase 1 of issue 11 ships the saved-games endpoints that need only the store, and the live-game
endpoints written against the ``emergo.game`` API of the session plan (``Game``, ``Human``,
``Computer``, ``game.subscribe``, ``game.version``); ``emergo.game`` is imported lazily, so the
server runs (and these routes answer 501) before that module lands.  Nothing here decides a
rule or a turn: the :class:`emergo.game.Game` does.

A move is stored (committed) by the event callback before it is sent to any client, so a game
survives a restart; a reconnecting client sends the last ``version`` it saw and gets the state.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from emergo import record
from emergo.board import Board
from emergo.web.analysis import info_data
from emergo.web.inputs import body_json
from emergo.web.positions import JSON, RequestError, board_from, line_data, position_data
from emergo.web.store import Store

COLORS = {"white": True, "black": False}


def _store(request: Request | WebSocket) -> Store:
    store: Store | None = request.app.state.store
    if store is None:
        raise RequestError("this server has no store: start it with a database", 503)
    return store


def _game_id(request: Request | WebSocket) -> int:
    try:
        return int(request.path_params["game_id"])
    except (KeyError, ValueError):
        raise RequestError("a game id is a number", 404) from None


def _saved(store: Store, game_id: int) -> dict[str, Any]:
    saved = store.game(game_id)
    if saved is None:
        raise RequestError(f"no game {game_id}", 404)
    return saved


def _board_of_saved(saved: dict[str, Any]) -> Board:
    return board_from(saved["start"], list(saved.get("moves", [])))


# --- saved games (store only) ---------------------------------------------------------------------


async def list_games(request: Request) -> Response:
    store = _store(request)
    return JSONResponse({"games": await asyncio.to_thread(store.games)})


async def get_game(request: Request) -> Response:
    store = _store(request)
    saved = await asyncio.to_thread(_saved, store, _game_id(request))
    board = _board_of_saved(saved)
    return JSONResponse({**saved, "state": position_data(board), "line": line_data(board)})


async def delete_game(request: Request) -> Response:
    store = _store(request)
    game_id = _game_id(request)
    live = request.app.state.__dict__.setdefault("live_games", {})
    if game_id in live:
        live.pop(game_id).close()
    if not await asyncio.to_thread(store.delete_game, game_id):
        raise RequestError(f"no game {game_id}", 404)
    return JSONResponse({"deleted": game_id})


async def game_record(request: Request) -> Response:
    store = _store(request)
    saved = await asyncio.to_thread(_saved, store, _game_id(request))
    board = _board_of_saved(saved)
    tags = {"White": saved["white"], "Black": saved["black"], **saved.get("tags", {})}
    game = record.Game.from_board(board, **{k: str(v) for k, v in tags.items()})
    if saved.get("result", "*") != "*" and board.outcome() is None:
        game.headers["Result"] = saved["result"]
        if saved.get("termination"):
            game.headers["Termination"] = saved["termination"]
    return PlainTextResponse(
        record.write_game(game),
        headers={"content-disposition": f'attachment; filename="emergo-{saved["id"]}.egn"'},
    )


# --- live games (emergo.game) ---------------------------------------------------------------------


def _game_module() -> Any:
    try:  # the game flow (PLAN.md), imported lazily: it may not exist yet
        game_module = importlib.import_module("emergo.game")
    except ImportError:
        raise RequestError("live games need emergo.game, which this build lacks", 501) from None
    return game_module


def _player(module: Any, spec: Any, color: str) -> Any:
    """A player from ``{"kind": "human"|"engine", "name", "level", "movetime"}``."""
    if not isinstance(spec, dict):
        raise RequestError(f"{color} must be an object such as {{'kind': 'human'}}")
    kind = spec.get("kind", "human")
    if kind == "human":
        return module.Human(str(spec.get("name", "Human"))[:100])
    if kind == "engine":
        level, movetime = spec.get("level"), spec.get("movetime")
        if movetime is not None:
            if not isinstance(movetime, int | float) or not 0 < movetime <= 60:
                raise RequestError("movetime must be seconds in (0, 60]")
            return module.Computer.engine(movetime=float(movetime))
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 11:
            raise RequestError("level must be an integer from 1 to 11")
        return module.Computer.engine(level=level)
    raise RequestError(f"unknown player kind {kind!r} (human or engine)")


class LiveGame:
    """A running :class:`emergo.game.Game`, its store row, and the WebSockets watching it."""

    def __init__(self, game: Any, game_id: int, store: Store, loop: asyncio.AbstractEventLoop):
        self.game = game
        self.id = game_id
        self.store = store
        self.loop = loop
        self.clients: set[WebSocket] = set()
        self._tasks: set[asyncio.Future[None]] = set()
        self.unsubscribe = game.subscribe(self.on_event)

    def on_event(self, event: Any) -> None:
        """From any thread: store what must survive, then tell every client (in that order)."""
        name = type(event).__name__
        if name == "MovePlayed":
            self.store.add_move(self.id, event.ply, event.text, version=event.version)
        elif name == "TakenBack":
            self.store.take_back(self.id, len(self.game.moves), version=event.version)
        elif name == "GameOver":
            self.store.finish_game(self.id, event.outcome.result(), event.outcome.termination.value)
        message = {"type": "event", "event": name, **_event_fields(event)}
        if name == "Thinking":  # engine progress: the line, not a new state
            info = getattr(event, "info", None)
            if info is not None:
                message["info"] = info_data(self.game.board, info)
        with_state = name != "Thinking"
        self.loop.call_soon_threadsafe(self._spawn, message, with_state)

    def _spawn(self, message: JSON, with_state: bool) -> None:
        """On the event loop: send ``message`` (and the state) to every client."""
        task = asyncio.ensure_future(self.broadcast(message, with_state))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def state(self) -> JSON:
        board = self.game.board
        outcome = self.game.outcome
        data = position_data(board)
        if outcome is not None and data["outcome"] is None:  # resignation, agreement, time
            data["outcome"] = {
                "result": outcome.result(),
                "termination": outcome.termination.value,
                "reason": outcome.reason(),
            }
        return {
            "type": "state",
            "game": self.id,
            "version": self.game.version,
            "thinking": self.game.thinking,
            "state": data,
            "line": line_data(board),
        }

    async def broadcast(self, message: JSON, with_state: bool = True) -> None:
        state = self.state() if with_state else None
        for ws in list(self.clients):
            with contextlib.suppress(Exception):
                await ws.send_json(message)
                if state is not None:
                    await ws.send_json(state)

    def close(self) -> None:
        self.unsubscribe()
        self.game.close()


def _event_fields(event: Any) -> JSON:
    out: JSON = {}
    for key in ("ply", "text", "version", "color"):
        if hasattr(event, key):
            value = getattr(event, key)
            out[key] = value if not isinstance(value, bool) else ("white" if value else "black")
    return out


async def create_game(request: Request) -> Response:
    module = _game_module()
    store = _store(request)
    data = await body_json(request)
    board = board_from(data.get("pos"), None)
    white = _player(module, data.get("white", {"kind": "human"}), "white")
    black = _player(module, data.get("black", {"kind": "engine", "level": 5}), "black")
    game = module.Game(white=white, black=black, board=board)
    game_id = await asyncio.to_thread(
        store.create_game,
        board.position(),
        variant=board.variant,
        white=str(getattr(white, "name", "?")),
        black=str(getattr(black, "name", "?")),
        players={"white": data.get("white"), "black": data.get("black")},
    )
    live = LiveGame(game, game_id, store, asyncio.get_running_loop())
    request.app.state.__dict__.setdefault("live_games", {})[game_id] = live
    game.start()
    return JSONResponse({"id": game_id, **live.state()})


async def ws_game(ws: WebSocket) -> None:
    """A live game: the server sends ``state`` messages (with ``version``) and events; the
    client sends ``{"type": "move", "text"}``, ``takeback``, ``resign``, ``draw``, ``hint``."""
    await ws.accept()
    game_id = _game_id(ws)
    live: LiveGame | None = ws.app.state.__dict__.get("live_games", {}).get(game_id)
    if live is None:
        await ws.send_json({"type": "error", "error": f"no live game {game_id}"})
        await ws.close(4404)
        return
    live.clients.add(ws)
    await ws.send_json(live.state())
    try:
        while True:
            raw = await ws.receive_text()
            try:
                await _command(live, json.loads(raw))
            except (ValueError, RequestError) as e:  # IllegalMoveError, GameError are ValueErrors
                await ws.send_json({"type": "error", "error": str(e)})
    except WebSocketDisconnect:
        pass
    finally:
        live.clients.discard(ws)


async def _command(live: LiveGame, data: Any) -> None:
    if not isinstance(data, dict):
        raise RequestError("a message must be a JSON object")
    kind = data.get("type")
    game = live.game
    side = COLORS.get(data.get("by", "white" if game.turn else "black"))
    if kind == "move":
        text = data.get("text")
        if not isinstance(text, str) or len(text) > 200:
            raise RequestError("text must be a move text")
        await asyncio.to_thread(game.play, text, by=side)
    elif kind == "takeback":
        await asyncio.to_thread(game.takeback, by=side)
    elif kind == "resign":
        await asyncio.to_thread(game.resign, by=side)
    elif kind == "draw":
        await asyncio.to_thread(game.offer_draw, by=side)
    elif kind == "stop":
        game.stop_thinking()
    else:
        raise RequestError(f"unknown message type {kind!r}")


def routes() -> list[BaseRoute]:
    return [
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/games/{game_id}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game_id}/record", game_record, methods=["GET"]),
        WebSocketRoute("/ws/game/{game_id}", ws_game),
    ]


async def shutdown(app: Starlette) -> None:
    """Stop every live game's background work (engine threads)."""
    for live in list(app.state.__dict__.get("live_games", {}).values()):
        with contextlib.suppress(Exception):
            live.close()

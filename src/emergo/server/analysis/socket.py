"""The analysis board's sockets: the engine's lines streamed as they improve, and a review of a
whole line move by move; both stoppable.  Every message is a JSON object with a type ``t``, as
the site's other sockets (:mod:`emergo.server.core.sockets`: the opening, the CSRF subprotocol of
a session, the connection cap, a bounded send queue).

``WS /ws/analyse``: the client sends ``{"t": "start", "id"?, "pos", "moves", "multipv",
"time"|"depth"|"infinite"}`` (a new start stops the search running) and ``{"t": "stop"}``; the
server sends ``{"t": "info", "id", "line"}`` as a line improves and ``{"t": "done", "id",
"lines"}``, or ``{"t": "error", "id"?, "error"}``.

``WS /ws/review``: ``{"t": "start", "id"?, "pos", "moves", "time", "names"}`` starts a review
(one at a time), ``{"t": "stop"}`` stops it at once; the server sends ``{"t": "progress", "id",
"done", "total"}`` (positions searched), ``{"t": "move", "id", "move"}`` (each move's review, as
soon as it is settled) and ``{"t": "done", "id", "stopped", "moves", "text"}`` (the annotated
record).

Each search runs on the site's analysis threads (:class:`emergo.server.analysis.engine.Analysis`),
bounded by its limits; a page that goes away stops its search.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from emergo import record
from emergo.analyse import GameReview, review_game
from emergo.board import Board
from emergo.search import Limit
from emergo.server.analysis.engine import Analyst, backend_for, review_data
from emergo.server.analysis.http import review_request
from emergo.server.board.http import count_line, replayed
from emergo.server.board.positions import JSON, RequestError
from emergo.server.core.auth import site_of
from emergo.server.core.errors import SiteError
from emergo.server.core.inputs import parse_json
from emergo.server.core.limits import Credits
from emergo.server.core.sockets import (
    Outbox,
    accept,
    closing_code,
    message_credits,
    open_connection,
    opening,
)

log = logging.getLogger(__name__)

MAX_MESSAGE = 64 * 1024


def _message(raw: str) -> tuple[str, JSON]:
    """A client's message: ``("start", data)`` or ``("stop", data)``, else a RequestError."""
    if len(raw) > MAX_MESSAGE:
        raise RequestError("message too large")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise RequestError("a message must be a JSON object")
    kind = data.get("t")
    if kind not in ("start", "stop"):
        raise RequestError("t must be start or stop")
    return kind, data


async def _serve(
    ws: WebSocket, handle: Callable[[str, JSON, Outbox], Awaitable[None]], stop: Callable[[], None]
) -> None:
    """Open the socket (anyone may: the analysis board works signed out), read its messages
    within its credits and hand each to ``handle``; ``stop`` when it ends."""
    site = site_of(ws)
    opened = await opening(ws, site)
    if opened is None:
        return
    ticket = await open_connection(ws, opened[0])
    if ticket is None:
        return
    with ticket:
        await accept(ws)
        out = Outbox(ws)
        credits: Credits = message_credits(ws)
        try:
            while not out.dropped.is_set():
                try:
                    raw = await ws.receive_text()
                except (WebSocketDisconnect, RuntimeError):
                    break
                except KeyError:  # a binary frame
                    out.send({"t": "error", "error": "send JSON text messages"})
                    continue
                if credits.take() >= credits.limit:
                    out.send({"t": "error", "error": "too many messages: wait a moment"})
                    continue
                try:
                    kind, data = _message(raw)
                    await handle(kind, data, out)
                except SiteError as e:
                    out.send({"t": "error", "id": _id(raw), "error": str(e)})
        finally:
            stop()
            await out.close(*closing_code(out.dropped.is_set(), site))


def _id(raw: str) -> Any:
    with contextlib.suppress(Exception):
        data = parse_json(raw)
        if isinstance(data, dict):
            value = data.get("id")
            if value is None or isinstance(value, int | str):
                return value
    return None


async def analyse_socket(ws: WebSocket) -> None:
    site = site_of(ws)
    analyst = Analyst(site.analysis)
    task: asyncio.Task[None] | None = None

    async def search(
        board: Board, limit: Limit, multipv: int, request_id: Any, out: Outbox
    ) -> None:
        try:
            lines = await analyst.run(
                board,
                limit,
                multipv,
                lambda line: out.send({"t": "info", "id": request_id, "line": line}),
            )
        except SiteError as e:
            out.send({"t": "error", "id": request_id, "error": str(e)})
            return
        out.send({"t": "done", "id": request_id, "lines": lines})

    async def handle(kind: str, data: JSON, out: Outbox) -> None:
        nonlocal task
        if kind == "stop":
            analyst.stop()
            return
        limit, multipv = site.analysis.limit(data, stream=True)  # checked before stopping
        board = await replayed(ws, data)
        if board.outcome() is not None:
            raise RequestError("the game is over: nothing to analyse", kind="over")
        if task is not None and not task.done():
            analyst.stop()
            await task
        task = asyncio.ensure_future(search(board, limit, multipv, data.get("id"), out))

    def stop() -> None:
        analyst.stop()
        if task is not None:
            task.cancel()

    try:
        await _serve(ws, handle, stop)
    finally:
        await analyst.close()


async def review_socket(ws: WebSocket) -> None:
    from emergo.players import backend

    site = site_of(ws)
    loop = asyncio.get_running_loop()
    halt = threading.Event()
    task: asyncio.Task[None] | None = None

    async def run(board: Board, seconds: float, names: Any, request_id: Any, out: Outbox) -> None:
        game = record.Game.from_board(board)
        partial = GameReview(game)  # what a move's comment needs: the game
        stop = halt

        def post(message: JSON) -> None:  # from the review's thread
            loop.call_soon_threadsafe(out.send, message)

        def work() -> tuple[JSON, bool]:
            result = review_game(
                game,
                backend(backend_for(board.variant)),
                Limit(time=seconds),
                stop=stop,
                on_move=lambda r: post(
                    {"t": "move", "id": request_id, "move": review_data(partial, r, names)}
                ),
                progress=lambda done, total: post(
                    {"t": "progress", "id": request_id, "done": done, "total": total}
                ),
            )
            moves = [review_data(result, r, names) for r in result.moves]
            text = record.write_game(result.annotated(), names=names)
            return {"moves": moves, "text": text}, stop.is_set()

        try:
            answer, stopped = await site.analysis.run(work)
        except Exception as e:  # the engine failed: the page hears why, the server goes on
            log.exception("a review failed")
            out.send({"t": "error", "id": request_id, "error": f"the review failed: {e}"})
            return
        out.send({"t": "done", "id": request_id, "stopped": stopped, **answer})

    async def handle(kind: str, data: JSON, out: Outbox) -> None:
        nonlocal task, halt
        if kind == "stop":
            halt.set()
            return
        if task is not None and not task.done():
            raise RequestError("a review is running: stop it first")
        site.analysis.check()
        count_line(ws, data)
        board, seconds, names = await asyncio.to_thread(review_request, data)
        halt = threading.Event()
        task = asyncio.ensure_future(run(board, seconds, names, data.get("id"), out))

    def stop() -> None:  # a page that goes away stops its review
        halt.set()

    await _serve(ws, handle, stop)
    if task is not None:
        with contextlib.suppress(BaseException):
            await task

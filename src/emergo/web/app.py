"""The ASGI application of ``emergo serve``: pages, the JSON API and WebSockets (Starlette).

Routes (docs/web.md documents each for third-party clients):

* ``GET /`` the board page; ``/static/...`` its files (shipped in the package, no CDN);
* ``GET|POST /api/position`` a position (``pos``, R22) after ``moves``: board, hands, legal
  moves as routes, reasons why vacant squares cannot be entered;
* ``POST /api/move`` parse a move text in any notation against a position;
* ``POST /api/analyse`` a bounded engine analysis; ``WS /ws/analyse`` a streamed, stoppable one;
* ``GET|POST /api/tablebase`` the endgame tables' value of a position and of each move;
* ``POST /api/record/import`` and ``/api/record/export`` game records (:mod:`emergo.record`);
* ``POST /api/review`` the engine's review of a line; ``WS /ws/review`` a streamed, stoppable one;
* ``GET|PUT /api/settings`` the page's settings, kept in the store;
* ``GET /api/store`` the store's schema version;
* ``/api/games...`` and ``WS /ws/game/{id}`` games (:mod:`emergo.web.games`);
* ``/api/studies...`` the analysis board's variation trees (:mod:`emergo.web.studies`).

Nothing here decides a rule: every answer comes from :class:`emergo.Board`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import logging
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from emergo import record
from emergo.analyse import GameReview, review_game
from emergo.board import Board
from emergo.geometry import NAMINGS, VARIANTS, geometry
from emergo.search import Limit
from emergo.web.analysis import (
    Analyst,
    in_search_thread,
    limit_from,
    review_data,
    tablebase_data,
)
from emergo.web.inputs import (
    board_of,
    body_json,
    clean_name,
    control_message,
    names_of,
    text_of,
)
from emergo.web.positions import (
    JSON,
    RequestError,
    geometry_data,
    line_data,
    move_data,
    outcome_data,
    parse_move,
    position_data,
)
from emergo.web.security import MAX_BODY, BodyTooLarge, Guard
from emergo.web.store import SCHEMA_HEAD, Store

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("emergo.web")

SETTINGS = {
    "view": ("diamond", "checker"),
    "names": NAMINGS,
    "theme": ("light", "dark", "auto"),
    "coordinates": (True, False),
    "animation": (True, False),
    "flipped": (True, False),
    "sound": (True, False),
}
"""The settings the page may store, with their allowed values."""


# --- endpoints ------------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def store_info(request: Request) -> Response:
    """``{"schema": "0002", "head": "0002"}``: the store's schema version (null without a
    store) and the newest one this server knows."""
    store: Store | None = request.app.state.store
    schema = await asyncio.to_thread(store.schema_version) if store is not None else None
    return JSONResponse({"schema": schema, "head": SCHEMA_HEAD})


async def api_geometry(request: Request) -> Response:
    variant = request.query_params.get("variant", "9x9")
    if variant not in VARIANTS:
        raise RequestError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    return JSONResponse(geometry_data(geometry(variant)))


async def api_position(request: Request) -> Response:
    if request.method == "POST":
        data = await body_json(request)
    else:
        data = dict(request.query_params)
    board = board_of(data)
    out = position_data(board)
    out["geometry"] = geometry_data(board.geometry)
    out["line"] = line_data(board)
    return JSONResponse(out)


async def api_move(request: Request) -> Response:
    data = await body_json(request)
    board = board_of(data)
    if board.outcome() is not None:
        raise RequestError(f"the game is over: {board.outcome().reason()}", kind="over")  # type: ignore[union-attr]
    text = text_of(data, "text", limit=200, required=True) or ""
    move = parse_move(board, text, names_of(data.get("names")))
    played = move_data(board, move)
    board.push(move)
    out = position_data(board)
    out["move"] = played
    return JSONResponse(out)


async def api_analyse(request: Request) -> Response:
    data = await body_json(request)
    board = board_of(data)
    limit, multipv = limit_from(data, allow_infinite=False)
    if board.outcome() is not None:
        return JSONResponse({"position": board.position(), "lines": [], "over": True})
    analyst: Analyst = request.app.state.analyst_factory()

    async def watch() -> None:  # a client that goes away stops its search
        while not await request.is_disconnected():
            await asyncio.sleep(0.1)
        analyst.stop()

    watcher = asyncio.ensure_future(watch())
    try:
        lines = await analyst.run(board, limit, multipv)
    finally:
        watcher.cancel()
        await analyst.close()
    _save_analysis(request.app.state.store, board, data, lines)
    return JSONResponse({"position": board.position(), "lines": lines})


async def api_tablebase(request: Request) -> Response:
    """``{"pos", "moves"}`` -> ``{"position", "tablebase", "missing"}``: the endgame tables'
    value of the position and of each legal move (:func:`~emergo.web.analysis.tablebase_data`),
    ``null`` outside the tables or once the game is over; ``missing`` says how to build the
    table the position needs when that is why (a 3-column table not built yet)."""
    data = await body_json(request) if request.method == "POST" else dict(request.query_params)
    board = board_of(data)
    return JSONResponse(await asyncio.to_thread(_tablebase_answer, board))


def _tablebase_answer(board: Board) -> JSON:
    """In a worker thread: the first probe of a board builds its 2-column table (~10 ms)."""
    answer: JSON = {"position": board.position(), "tablebase": None, "missing": None}
    if board.outcome() is not None:
        return answer
    answer["tablebase"] = tablebase_data(board)
    if answer["tablebase"] is not None:
        return answer
    try:
        from emergo import tablebase
    except ImportError:  # pragma: no cover - the module imports without the kernel
        return answer
    try:
        tablebase.default().probe_wdl(board)
    except tablebase.MissingTableError as e:
        answer["missing"] = str(e)
    except tablebase.TablebaseError:
        pass  # outside the tables
    return answer


def _save_analysis(store: Store | None, board: Board, data: JSON, lines: list[JSON]) -> None:
    if store is None or not lines:
        return
    limit: dict[str, Any] = {
        k: data.get(k) for k in ("time", "depth", "multipv", "infinite") if k in data
    }
    store.save_analysis(board.position(), limit, lines)


async def ws_analyse(ws: WebSocket) -> None:
    """Streamed analysis: ``{"type": "start", pos, moves, multipv, time|depth|infinite}`` starts
    a search (stopping the one running), ``{"type": "stop"}`` stops it; the server sends
    ``{"type": "info", "line": ...}`` as lines improve and ``{"type": "done", "lines": ...}``."""
    await ws.accept()
    analyst: Analyst = ws.app.state.analyst_factory()
    store: Store | None = ws.app.state.store
    task: asyncio.Task[None] | None = None
    send_lock = asyncio.Lock()
    pending: set[asyncio.Future[None]] = set()

    async def send(message: JSON) -> None:
        async with send_lock:
            await _send_safely(ws, message)

    async def search(board: Board, data: JSON, request_id: Any) -> None:
        limit, multipv = limit_from(data, allow_infinite=True)

        def on_info(line: JSON) -> None:
            task = asyncio.ensure_future(send({"type": "info", "id": request_id, "line": line}))
            pending.add(task)
            task.add_done_callback(pending.discard)

        try:
            lines = await analyst.run(board, limit, multipv, on_info)
        except RequestError as e:
            await send({"type": "error", "id": request_id, "error": str(e)})
            return
        await send({"type": "done", "id": request_id, "lines": lines})
        await asyncio.to_thread(_save_analysis, store, board, data, lines)

    try:
        while True:
            try:
                raw = await ws.receive_text()
            except KeyError:  # a binary frame
                await send({"type": "error", "error": "send JSON text messages"})
                continue
            try:
                kind, data = control_message(raw)
                if kind == "stop":
                    analyst.stop()
                    continue
                board = board_of(data)
                limit_from(data, allow_infinite=True)  # check before stopping the old search
                if board.outcome() is not None:
                    raise RequestError("the game is over: nothing to analyse", kind="over")
            except (ValueError, RequestError) as e:
                await send({"type": "error", "error": str(e)})
                continue
            if task is not None and not task.done():
                analyst.stop()
                await task
            task = asyncio.ensure_future(search(board, data, data.get("id")))
    except WebSocketDisconnect:
        pass
    finally:
        analyst.stop()
        if task is not None:
            with contextlib.suppress(Exception):
                await task
        await analyst.close()


async def api_record_import(request: Request) -> Response:
    """Read a record's games (at most 100): tags, start position, moves, result, errors."""
    data = await body_json(request)
    text = text_of(data, "text", limit=MAX_BODY, required=True) or ""
    names = names_of(data.get("names"))
    games: list[JSON] = []
    handle = io.StringIO(text)
    try:
        for game in record.read_games(handle, names=names, errors="collect"):
            if len(games) >= 100:
                break
            start = game.board()
            board = start.copy()
            moves = []
            for move in game.moves:
                moves.append(move_data(board, move))
                board.push(move)
            try:  # the end as the record has it (resigned, on time, agreed), with its reason
                outcome = game.outcome()
            except ValueError:  # a game read up to an error: its moves stop before the end
                outcome = None
            games.append(
                {
                    "tags": dict(game.headers),
                    "start": start.position(),
                    "moves": moves,
                    "comments": {str(k): v for k, v in game.comments.items()},
                    "marks": {str(k): v for k, v in game.marks.items()},
                    "result": game.headers.get("Result", "*"),
                    "outcome": outcome_data(outcome) if outcome is not None else None,
                    "errors": [str(e) for e in game.errors],
                }
            )
    except ValueError as e:
        raise RequestError(f"cannot read the record: {e}", kind="record") from None
    if not games:
        raise RequestError("the record holds no game", kind="record")
    return JSONResponse({"games": games})


def _by_ply(data: JSON, key: str) -> dict[int, str]:
    """``{"1": "text", ...}``: short strings by ply (the record's comments or marks)."""
    value = data.get(key) or {}
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and k.isdecimal() and len(k) < 6 and isinstance(v, str) and len(v) < 1000
        for k, v in value.items()
    ):
        raise RequestError(f"{key} must be an object of short strings by ply")
    return {int(k): clean_name(v, f"the {key} of ply {k}", limit=1000) for k, v in value.items()}


async def api_record_export(request: Request) -> Response:
    """Write the line from ``pos`` through ``moves`` as a record, with ``tags``, ``comments``
    and ``marks`` (by ply); the ``Date`` is today's unless a tag gives it."""
    data = await body_json(request)
    board = board_of(data)
    tags = data.get("tags") or {}
    if not isinstance(tags, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and len(k) < 64 and len(v) < 1000
        for k, v in tags.items()
    ):
        raise RequestError("tags must be an object of short strings")
    for key, value in tags.items():  # one line of printable text each, as names
        clean_name(value, f"the tag {key}", limit=1000)
    tags = {"Date": dt.date.today().strftime("%Y.%m.%d"), **tags}
    try:
        game = record.Game.from_board(board, **tags)
        game.comments = _by_ply(data, "comments")
        game.marks = _by_ply(data, "marks")
        text = record.write_game(game, names=names_of(data.get("names")))
    except ValueError as e:
        raise RequestError(f"cannot write the record: {e}", kind="record") from None
    return JSONResponse({"text": text})


REVIEW_MAX_TIME = 2.0
"""Most seconds a review may search each position."""
REVIEW_MAX_MOVES = 300


def review(board: Board, seconds: float, names: Any) -> JSON:
    """The engine's review of the line on ``board`` (its move stack): every move's loss and mark
    (``?!``, ``?``, ``??``: :func:`emergo.analyse.review_game`), and the annotated record."""
    from emergo.players import backend
    from emergo.web.games import backend_for

    game = record.Game.from_board(board)
    result = review_game(game, backend(backend_for(board.variant)), Limit(time=seconds))
    moves = [review_data(result, r, names) for r in result.moves]
    return {"moves": moves, "text": record.write_game(result.annotated(names), names=names)}


def review_request(data: JSON) -> tuple[Board, float, Any]:
    """The line, seconds a position and names of a review request, checked."""
    board = board_of(data)
    if not board.move_stack:
        raise RequestError("no moves to review")
    if len(board.move_stack) > REVIEW_MAX_MOVES:
        raise RequestError(f"at most {REVIEW_MAX_MOVES} moves can be reviewed")
    seconds = data.get("time", 0.2)
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        raise RequestError("time must be seconds")
    if not 0 < seconds <= REVIEW_MAX_TIME:
        raise RequestError(f"time must be in (0, {REVIEW_MAX_TIME}] seconds a position")
    return board, float(seconds), names_of(data.get("names"))


async def api_review(request: Request) -> Response:
    """``POST /api/review {"pos", "moves", "time": seconds a position (<= 2), "names"}``."""
    board, seconds, names = review_request(await body_json(request))
    return JSONResponse(await in_search_thread(review, board, seconds, names))


async def ws_review(ws: WebSocket) -> None:
    """A streamed, stoppable review: ``{"type": "start", pos, moves, time, names, id?}`` starts
    one (one at a time), ``{"type": "stop"}`` stops it at once; the server sends ``progress``
    (``done``, ``total`` positions), ``move`` (each move's review, as soon as it is settled) and
    ``done`` (``stopped``, the moves reviewed, the annotated record ``text``)."""
    from emergo.players import backend
    from emergo.web.games import backend_for

    await ws.accept()
    loop = asyncio.get_running_loop()
    outbox: asyncio.Queue[JSON | None] = asyncio.Queue()
    stop = threading.Event()
    task: asyncio.Task[None] | None = None

    async def sender() -> None:
        while (message := await outbox.get()) is not None:
            await _send_safely(ws, message)

    def post(message: JSON) -> None:  # from the review's thread
        loop.call_soon_threadsafe(outbox.put_nowait, message)

    async def run(
        board: Board, seconds: float, names: Any, request_id: Any, stop: threading.Event
    ) -> None:
        game = record.Game.from_board(board)
        partial = GameReview(game)  # what a move's comment needs: the game

        def work() -> tuple[JSON, bool]:
            searcher = backend(backend_for(board.variant))
            result = review_game(
                game,
                searcher,
                Limit(time=seconds),
                stop=stop,
                on_move=lambda r: post(
                    {"type": "move", "id": request_id, "move": review_data(partial, r, names)}
                ),
                progress=lambda done, total: post(
                    {"type": "progress", "id": request_id, "done": done, "total": total}
                ),
            )
            moves = [review_data(result, r, names) for r in result.moves]
            text = record.write_game(result.annotated(names), names=names)
            return {"moves": moves, "text": text}, stop.is_set()

        try:
            out, stopped = await in_search_thread(work)
        except Exception as e:  # the engine failed: the page hears why, the server goes on
            log.exception("review failed")
            error = f"the review failed: {e}"
            outbox.put_nowait({"type": "error", "id": request_id, "error": error})
            return
        outbox.put_nowait({"type": "done", "id": request_id, "stopped": stopped, **out})

    sending = asyncio.ensure_future(sender())
    try:
        while True:
            try:
                raw = await ws.receive_text()
            except KeyError:  # a binary frame
                outbox.put_nowait({"type": "error", "error": "send JSON text messages"})
                continue
            try:
                kind, data = control_message(raw)
                if kind == "stop":
                    stop.set()
                    continue
                if task is not None and not task.done():
                    raise RequestError("a review is running: stop it first")
                board, seconds, names = review_request(data)
            except (ValueError, RequestError) as e:
                outbox.put_nowait({"type": "error", "error": str(e)})
                continue
            stop = threading.Event()
            task = asyncio.ensure_future(run(board, seconds, names, data.get("id"), stop))
    except WebSocketDisconnect:
        pass
    finally:
        stop.set()  # a page that goes away stops its review
        try:
            if task is not None:
                with contextlib.suppress(Exception):
                    await task
            outbox.put_nowait(None)
            await sending
        finally:  # this handler cancelled meanwhile: leave no task of its own pending
            for pending in (task, sending):
                if pending is not None:
                    pending.cancel()


async def _send_safely(ws: WebSocket, message: JSON) -> None:
    """Send a message; a socket that has gone is no error, and a message that cannot be sent
    (it cannot be encoded) is logged and skipped: the socket's sender goes on, never silent."""
    try:
        await ws.send_json(message)
    except (RuntimeError, WebSocketDisconnect):
        pass
    except Exception:
        log.exception("a message of %s cannot be sent", ws.url.path)
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await ws.send_json(
                {"type": "error", "error": "internal error: the server log says more"}
            )


async def api_settings(request: Request) -> Response:
    store: Store | None = request.app.state.store
    if request.method == "PUT":
        data = await body_json(request)
        for key, value in data.items():
            if key not in SETTINGS or value not in SETTINGS[key]:
                raise RequestError(f"unknown setting or value: {key}={value!r}")
        if store is not None:
            return JSONResponse(await asyncio.to_thread(store.set_settings, data))
        request.app.state.settings.update(data)
    if store is not None:
        return JSONResponse(await asyncio.to_thread(store.settings))
    return JSONResponse(request.app.state.settings)


# --- errors ---------------------------------------------------------------------------------------


async def request_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    return JSONResponse({"error": str(exc), **exc.extra}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def too_large(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"request body larger than {MAX_BODY} bytes"}, 413)


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s", request.url.path, exc_info=exc)
    return JSONResponse({"error": "internal error: the server log says more"}, 500)


# --- the application ------------------------------------------------------------------------------


def create_app(
    store: Store | None = None,
    *,
    hosts: tuple[str, ...] = (),
    analyst_factory: Any = Analyst,
    player_factory: Any = None,
) -> Guard:
    """The web application: Starlette routes wrapped in the Host/Origin :class:`Guard`.

    ``store`` keeps settings, analyses and games (none: settings in memory, no games);
    ``hosts`` are extra host names the server answers to besides localhost (``--host``);
    ``player_factory(spec, variant)`` makes the players of live games (tests pass their own).
    """
    from emergo.web import games, studies

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await games.startup(app)
        yield
        await games.shutdown(app)

    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/store", store_info),
        Route("/api/geometry", api_geometry),
        Route("/api/position", api_position, methods=["GET", "POST"]),
        Route("/api/move", api_move, methods=["POST"]),
        Route("/api/analyse", api_analyse, methods=["POST"]),
        Route("/api/tablebase", api_tablebase, methods=["GET", "POST"]),
        Route("/api/record/import", api_record_import, methods=["POST"]),
        Route("/api/record/export", api_record_export, methods=["POST"]),
        Route("/api/review", api_review, methods=["POST"]),
        Route("/api/settings", api_settings, methods=["GET", "PUT"]),
        WebSocketRoute("/ws/analyse", ws_analyse),
        WebSocketRoute("/ws/review", ws_review),
        *games.routes(),
        *studies.routes(),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            RequestError: request_error,
            HTTPException: http_error,
            BodyTooLarge: too_large,
            Exception: server_error,
        },
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.settings = {}
    app.state.analyst_factory = analyst_factory
    if player_factory is not None:
        app.state.player_factory = player_factory
    return Guard(app, hosts)

"""The analysis board over HTTP: a move read against a position, a bounded engine analysis, the
endgame tables' values, a review of a line, records read and written.

Open to everyone (lichess's analysis board works signed out), each request bounded by the
site's ``[analysis]`` limits (:class:`emergo.server.analysis.engine.Analysis`) and its client's
rate (:data:`SEARCHES_PER_MINUTE`); nothing here decides a rule: every answer comes from
:class:`emergo.Board`.

* ``POST /api/move`` ``{"pos", "moves", "text", "names"}``: the move a text names (any notation
  the parser takes) and the position after it;
* ``POST /api/analyse`` ``{"pos", "moves", "multipv", "time"|"depth"}``: the engine's lines
  (``WS /ws/analyse`` streams them: :mod:`emergo.server.analysis.socket`);
* ``GET|POST /api/tablebase`` ``{"pos", "moves"}``: the tables' value of the position and of each
  move, ``missing`` saying how to build the table the position needs;
* ``POST /api/review`` ``{"pos", "moves", "time", "names"}``: every move's loss and mark, and the
  annotated record (``WS /ws/review`` streams it);
* ``POST /api/record/import`` ``{"text", "names"}`` and ``POST /api/record/export`` ``{"pos",
  "moves", "tags", "comments", "marks", "names"}``: records (docs/records.md).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo import record
from emergo.analyse import review_game
from emergo.board import Board
from emergo.search import Limit
from emergo.server.analysis.engine import Analyst, backend_for, review_data, tablebase_data
from emergo.server.analysis.trees import tree_data
from emergo.server.board.http import count_line, replayed
from emergo.server.board.positions import (
    JSON,
    RequestError,
    move_data,
    outcome_data,
    parse_move,
    position_data,
)
from emergo.server.core.auth import actor_of, client_key, fields_of, site_of
from emergo.server.core.inputs import board_of, clean_name, names_of, text_of

SEARCHES_PER_MINUTE = 60
"""Engine requests (analyses, reviews) a client may make a minute, per process."""
RECORD_GAMES = 100
"""Most games one record import reads."""
REVIEW_MAX_TIME = 2.0
"""Most seconds a review may search each position."""
REVIEW_MAX_MOVES = 300


async def searching(request: Request) -> None:
    """A client's engine request, counted (:data:`SEARCHES_PER_MINUTE`; 429 past it)."""
    site = site_of(request)
    site.analysis.check()
    if site.config.local:  # local mode's one player is not counted
        return
    who = client_key(request, await actor_of(request))
    site.local_limits.hit("engine searches", who, SEARCHES_PER_MINUTE, 60)


async def api_move(request: Request) -> Response:
    data = await fields_of(request)
    count_line(request, data)
    return JSONResponse(await asyncio.to_thread(_move_answer, data))


def _move_answer(data: JSON) -> JSON:
    board = board_of(data)
    ended = board.outcome()
    if ended is not None:
        raise RequestError(f"the game is over: {ended.reason()}", kind="over")
    text = text_of(data, "text", limit=200, required=True) or ""
    move = parse_move(board, text, names_of(data.get("names")))
    played = move_data(board, move)
    board.push(move)
    out = position_data(board)
    out["move"] = played
    return out


async def api_analyse(request: Request) -> Response:
    data = await fields_of(request)
    site = site_of(request)
    limit, multipv = site.analysis.limit(data, stream=False)
    await searching(request)
    board = await replayed(request, data)
    if board.outcome() is not None:
        return JSONResponse({"position": board.position(), "lines": [], "over": True})
    analyst = Analyst(site.analysis)

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
    return JSONResponse({"position": board.position(), "lines": lines})


async def api_tablebase(request: Request) -> Response:
    """``{"pos", "moves"}`` -> ``{"position", "tablebase", "missing"}``: the endgame tables'
    value of the position and of each legal move (:func:`tablebase_data`), ``null`` outside the
    tables or once the game is over; ``missing`` says how to build the table the position needs
    when that is why (a 3-column table not built yet)."""
    data = await fields_of(request) if request.method == "POST" else dict(request.query_params)
    board = await replayed(request, data)
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


async def api_record_import(request: Request) -> Response:
    """Read a record's games (at most :data:`RECORD_GAMES`): tags, start position, moves,
    result, errors."""
    data = await fields_of(request)
    text = text_of(data, "text", limit=1 << 20, required=True) or ""
    names = names_of(data.get("names"))
    return JSONResponse(await asyncio.to_thread(read_record, text, names))


def read_record(text: str, names: Any) -> JSON:
    games: list[JSON] = []
    try:
        for game in record.read_games(io.StringIO(text), names=names, errors="collect"):
            if len(games) >= RECORD_GAMES:
                break
            start = game.board()
            board = start.copy()
            moves: list[JSON] = []
            comments: dict[str, str] = {"0": game.comment} if game.comment else {}
            marks: dict[str, str] = {}
            for ply, node in enumerate(game.mainline(), 1):  # the main line, as the page shows it
                moves.append(move_data(board, node.move))
                board.push(node.move)
                if node.comment:
                    comments[str(ply)] = node.comment
                nag = min((n for n in node.nags if n in record.MARK_OF_NAG), default=None)
                if nag is not None:
                    marks[str(ply)] = record.MARK_OF_NAG[nag]
            try:  # the end as the record has it (resigned, on time, agreed), with its reason
                outcome = game.outcome()
            except ValueError:  # a game read up to an error: its moves stop before the end
                outcome = None
            games.append(
                {
                    "tags": dict(game.headers),
                    "start": start.position(),
                    "moves": moves,
                    "comments": comments,
                    "marks": marks,
                    "result": game.headers.get("Result", "*"),
                    "outcome": outcome_data(outcome) if outcome is not None else None,
                    "errors": [str(e) for e in game.errors],
                    "tree": tree_data(game),
                }
            )
    except ValueError as e:
        raise RequestError(f"cannot read the record: {e}", kind="record") from None
    if not games:
        raise RequestError("the record holds no game", kind="record")
    return {"games": games}


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
    """Write a tree (``tree``: the record's JSON form, docs/records.md, with its variations,
    comments, NAGs, clocks and shapes), or the line from ``pos`` through ``moves`` with ``tags``,
    ``comments`` and ``marks`` (by ply), as a record; the ``Date`` is today's unless a tag
    gives it."""
    data = await fields_of(request)
    if "tree" in data:
        return JSONResponse({"text": await asyncio.to_thread(_write_tree, data)})
    board = await replayed(request, data)
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
        nodes: list[record.GameNode] = [game, *game.mainline()]
        for ply, comment in _by_ply(data, "comments").items():
            if ply >= len(nodes):
                raise ValueError(f"a comment after ply {ply}, but the line has {len(nodes) - 1}")
            nodes[ply].comment = comment
        for ply, mark in _by_ply(data, "marks").items():
            node = nodes[ply] if 0 < ply < len(nodes) else None
            if not isinstance(node, record.ChildNode) or mark not in record.NAG_OF_MARK:
                known = " ".join(record.MARKS)
                raise ValueError(f"mark {mark!r} of ply {ply}: a mark is one of {known}")
            node.nags.add(record.NAG_OF_MARK[mark])
        text = record.write_game(game, names=names_of(data.get("names")))
    except ValueError as e:
        raise RequestError(f"cannot write the record: {e}", kind="record") from None
    return JSONResponse({"text": text})


def _write_tree(data: JSON) -> str:
    tree = data["tree"]
    if not isinstance(tree, dict):
        raise RequestError("tree must be a record's JSON form (docs/records.md)")
    headers = tree.get("headers") or {}
    if not isinstance(headers, dict):
        raise RequestError("tree.headers must be an object of tags")
    for key, value in headers.items():
        if not isinstance(value, str):
            raise RequestError(f"the tag {str(key)[:40]} must be a string")
        clean_name(value, f"the tag {str(key)[:40]}", limit=1000)
    headers = {"Date": dt.date.today().strftime("%Y.%m.%d"), **headers}
    try:
        game = record.Game.from_json({**tree, "headers": headers})
        ended = game.end().board().outcome()
        if ended is not None:  # the rules ended the main line: the record says how
            game.headers["Result"] = ended.result()
            game.headers["Termination"] = ended.termination.value
        return record.write_game(game, names=names_of(data.get("names")))
    except ValueError as e:  # RecordError: a move, a field, a result the moves contradict
        raise RequestError(f"cannot write the record: {e}", kind="record") from None


def review(board: Board, seconds: float, names: Any) -> JSON:
    """The engine's review of the line on ``board`` (its move stack): every move's loss and mark
    (``?!``, ``?``, ``??``: :func:`emergo.analyse.review_game`), and the annotated record."""
    from emergo.players import backend

    game = record.Game.from_board(board)
    result = review_game(game, backend(backend_for(board.variant)), Limit(time=seconds))
    moves = [review_data(result, r, names) for r in result.moves]
    return {"moves": moves, "text": record.write_game(result.annotated(), names=names)}


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
    data = await fields_of(request)
    await searching(request)
    count_line(request, data)
    board, seconds, names = await asyncio.to_thread(review_request, data)
    return JSONResponse(await site_of(request).analysis.run(review, board, seconds, names))

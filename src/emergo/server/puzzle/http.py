"""Puzzles over HTTP, in lichess's shape (docs/training.md): the daily puzzle, a puzzle, the
next one, a player's activity (NDJSON) and dashboard, replay, a result; the timed run's puzzles
and result.

Reading a puzzle needs no account; a player's own history needs a session or a token with
``puzzle:read``, a result kept in his account a session or ``puzzle:write`` (signed out, a
result is judged and nothing kept: the page keeps its progress in the browser).  A token
without the scope is refused (403), never taken for a visitor.

``POST /api/puzzle/{id}/result`` (our route; lichess's is its page's): the body is the moves
played from the puzzle's position, the solver's and the replies in turn, ending with the
solver's latest (``{"moves": ["c5-c4", "d4xb4", "a4xc4"]}``), or ``{"win": false}`` to give up
(the solution asked for).  The server judges the line with :func:`emergo.puzzles.check`:
``right`` (go on: ``reply`` is the opponent's move), ``wrong`` (``refutation``, ``solution``) or
``solved``; a wrong or solved line ends the attempt, the first one rated
(``round.ratingDiff``, ``perf``).  ``{"win": true}`` is refused: a win is a line.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from emergo.geometry import VARIANTS
from emergo.puzzles import accepted
from emergo.server.board.positions import MAX_TEXT
from emergo.server.core.auth import (
    Actor,
    ApiError,
    actor_of,
    check_csrf,
    client_address,
    fields_of,
    require,
    site_of,
)
from emergo.server.core.streams import NDJSON, ndjson_line
from emergo.server.puzzle.service import ANGLES, MAX_BATCH, MAX_DAYS, STORM_PUZZLES, Stored
from emergo.server.site import Site

RESULTS_PER_SECOND = 20
"""Results a client may have judged a second (a wrong move's refutation is a search)."""
BATCHES_PER_MINUTE = 10
"""Batches a player may merge a minute (a browser sends one when he signs in)."""
STORM_RUNS_PER_MINUTE = 20
"""Timed runs a client may have counted a minute (a run lasts 3 minutes)."""
MAX_LINE = 40
"""Most moves a line may hold (a solution has at most 11)."""
ACTIVITY_MAX = 200
_ID = re.compile(r"[0-9a-z]{1,8}")


async def optional(
    request: Request, scope: str, fields: dict[str, Any] | None = None
) -> Actor | None:
    """The request's player when he sends credentials (a token must hold ``scope``; a cookie
    POST must pass the CSRF check), else None: a visitor."""
    actor = await actor_of(request)
    if actor is None:
        return None
    if scope not in actor.scopes:
        raise ApiError(f"this token lacks the scope {scope}", 403)
    if request.method == "POST":
        given = request.headers.get("x-csrf-token")
        if given is None and fields is not None and isinstance(fields.get("csrf"), str):
            given = fields["csrf"]
        check_csrf(request, actor, given)
    return actor


def _puzzle_id(request: Request) -> str:
    text = request.path_params["id"]
    if not _ID.fullmatch(text):
        raise ApiError(f"no puzzle {text[:20]!r}", 404)
    return str(text)


def _days(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text[:4]) <= MAX_DAYS:
        raise ApiError(f"days must be a whole number from 1 to {MAX_DAYS}")
    return int(text)


def puzzle_json(site: Site, stored: Stored, actor: Actor | None) -> dict[str, Any]:
    """A puzzle's answer: lichess's ``game`` and ``puzzle``, the link to its game (the archive's
    when the site played it), and the player's puzzle rating when he is signed in."""
    source = stored.puzzle.source
    archived = False
    if source.startswith("record:"):
        archived = site.puzzles.in_archive(source.split(":", 1)[1])
    data = stored.json(archived=archived)
    if actor is not None and "puzzle:read" in actor.scopes:
        perf, games = site.puzzles.perf(actor.user.id)
        data["user"] = {
            "rating": round(perf.rating),
            "games": games,
            "provisional": perf.provisional,
        }
    return data


async def daily(request: Request) -> Response:
    """``GET /api/puzzle/daily``: the puzzle of the day, the same for everyone."""
    site = site_of(request)
    actor = await optional(request, "puzzle:read")
    stored = await asyncio.to_thread(site.puzzles.daily)
    return JSONResponse(await asyncio.to_thread(puzzle_json, site, stored, actor))


async def show(request: Request) -> Response:
    """``GET /api/puzzle/{id}``: a puzzle."""
    site = site_of(request)
    puzzle_id = _puzzle_id(request)
    actor = await optional(request, "puzzle:read")
    stored = await asyncio.to_thread(site.puzzles.get, puzzle_id)
    return JSONResponse(await asyncio.to_thread(puzzle_json, site, stored, actor))


async def next_puzzle(request: Request) -> Response:
    """``GET /api/puzzle/next?angle=&variant=``: a puzzle at the player's level (signed out:
    at ``rating``, default 1500) of a theme and a board, not tried yet."""
    site = site_of(request)
    actor = await optional(request, "puzzle:read")
    q = request.query_params
    angle = q.get("angle") or "mix"
    if angle not in ANGLES:
        raise ApiError(f"no theme {angle[:40]!r}: one of {', '.join(ANGLES)}")
    variant = q.get("variant") or None
    if variant is not None and variant not in VARIANTS:
        raise ApiError(f"no board {variant[:20]!r}: one of {', '.join(VARIANTS)}")
    rating = None
    if q.get("rating"):
        text = q["rating"]
        if not text.isascii() or not text.isdigit() or not 400 <= int(text[:5]) <= 4000:
            raise ApiError("rating must be a whole number from 400 to 4000")
        rating = float(text)
    user_id = actor.user.id if actor is not None else None
    stored = await asyncio.to_thread(
        site.puzzles.next_for, user_id, angle=angle, variant=variant, rating=rating
    )
    return JSONResponse(await asyncio.to_thread(puzzle_json, site, stored, actor))


def _moves(value: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):  # a form: the texts separated by spaces
        value = value.split()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ApiError("moves must be a list of move texts")
    if len(value) > MAX_LINE or any(len(v) > MAX_TEXT for v in value):
        raise ApiError(f"a line holds at most {MAX_LINE} moves of {MAX_TEXT} characters")
    return list(value)


def _win(value: Any) -> bool | None:
    if value is None:
        return None
    if value in (False, "false", "0"):
        return False
    if value in (True, "true", "1"):
        return True
    raise ApiError("win must be true or false")


async def result(request: Request) -> Response:
    """``POST /api/puzzle/{id}/result``: a line judged, and kept when it ends the attempt
    (module docstring)."""
    site = site_of(request)
    puzzle_id = _puzzle_id(request)
    fields = await fields_of(request)
    actor = await optional(request, "puzzle:write", fields)
    site.local_limits.hit("puzzle results", client_address(request), RESULTS_PER_SECOND, 1)
    moves, win = _moves(fields.get("moves")), _win(fields.get("win"))
    if win and moves is None:
        raise ApiError("a win is a line: send the moves played")
    if moves is None and win is None:
        raise ApiError("send the moves played, or win false to give up")
    user_id = actor.user.id if actor is not None else None
    attempt = await asyncio.to_thread(
        site.puzzles.attempt, puzzle_id, user_id, moves, gave_up=moves is None
    )
    return JSONResponse(attempt.json())


def _attempt(item: Any, i: int, latest: float) -> tuple[str, bool, bool, float]:
    """The ``i``-th of a batch: ``{"id", "win", "fixed", "date"}`` (``date`` in ms)."""
    where = f"solutions[{i}]"
    if not isinstance(item, dict):
        raise ApiError(f'{where} must be {{"id": ..., "win": ..., "date": ...}}')
    if not isinstance(item.get("id"), str) or not _ID.fullmatch(item["id"]):
        raise ApiError(f"{where}.id must be a puzzle id")
    win, fixed, date = item.get("win"), item.get("fixed", False), item.get("date")
    if not isinstance(win, bool):
        raise ApiError(f"{where}.win must be true or false")
    if not isinstance(fixed, bool):
        raise ApiError(f"{where}.fixed must be true or false")
    if isinstance(date, bool) or not isinstance(date, int) or not 0 <= date <= latest:
        raise ApiError(f"{where}.date must be a time in milliseconds since 1970, not ahead")
    return item["id"], win, fixed, date / 1000


async def batch(request: Request) -> Response:
    """``POST /api/puzzle/batch``: a visitor's attempts kept in his browser, merged into his
    account once he is signed in (``{"solutions": [{"id", "win", "fixed", "date"}]}``, at most
    :data:`MAX_BATCH`): kept unrated (docs/training.md).  Answers ``{"merged": N}``."""
    site = site_of(request)
    fields = await fields_of(request)
    actor = await require(request, "puzzle:write", fields)
    site.local_limits.hit("puzzle batches", str(actor.user.id), BATCHES_PER_MINUTE, 60)
    solutions = fields.get("solutions")
    if not isinstance(solutions, list) or len(solutions) > MAX_BATCH:
        raise ApiError(f"solutions must be a list of at most {MAX_BATCH} attempts")
    latest = (time.time() + 86400) * 1000  # a browser's clock may run a little ahead
    rounds = [_attempt(item, i, latest) for i, item in enumerate(solutions)]
    merged = await asyncio.to_thread(site.puzzles.merge, actor.user.id, rounds)
    return JSONResponse({"merged": merged})


async def activity(request: Request) -> Response:
    """``GET /api/puzzle/activity?max=``: your latest attempts, newest first, one JSON a line."""
    site = site_of(request)
    actor = await require(request, "puzzle:read")
    text = request.query_params.get("max") or "50"
    if not text.isascii() or not text.isdigit() or not 1 <= int(text[:4]) <= ACTIVITY_MAX:
        raise ApiError(f"max must be a whole number from 1 to {ACTIVITY_MAX}")
    lines = await asyncio.to_thread(site.puzzles.activity, actor.user.id, int(text))

    async def body() -> AsyncIterator[bytes]:
        for line in lines:
            yield ndjson_line(line)

    return StreamingResponse(body(), media_type=NDJSON)


async def dashboard(request: Request) -> Response:
    """``GET /api/puzzle/dashboard/{days}``: your results of the last days, per theme."""
    site = site_of(request)
    actor = await require(request, "puzzle:read")
    days = _days(request.path_params["days"])
    return JSONResponse(await asyncio.to_thread(site.puzzles.dashboard, actor.user.id, days))


async def replay(request: Request) -> Response:
    """``GET /api/puzzle/replay/{days}/{theme}``: the puzzles you failed and have not solved
    since (lichess's shape: ``replay.remaining``)."""
    site = site_of(request)
    actor = await require(request, "puzzle:read")
    days = _days(request.path_params["days"])
    theme = request.path_params["theme"]
    if theme not in ANGLES:
        raise ApiError(f"no theme {theme[:40]!r}: one of {', '.join(ANGLES)}", 404)
    ids = await asyncio.to_thread(site.puzzles.replay, actor.user.id, days, theme)
    return JSONResponse(
        {"replay": {"days": days, "theme": theme, "nb": len(ids), "remaining": ids}}
    )


def storm_puzzle(stored: Stored) -> dict[str, Any]:
    """A run's puzzle: the puzzle's fields and ``accepted``, for each of the solver's moves
    the moves :func:`emergo.puzzles.check` takes there (text: ``right`` or ``solved``), so
    that the page judges at once by the server's one rule (a transposing capture route is
    right, as on /training)."""
    return {**stored.json()["puzzle"], "accepted": list(accepted(stored.puzzle))}


async def storm(request: Request) -> Response:
    """``GET /api/storm?variant=``: a timed run's puzzles, easiest first, and its rules."""
    from emergo.server.puzzle.service import COMBO_BONUS, STORM_MISTAKE, STORM_SECONDS

    site = site_of(request)
    actor = await optional(request, "puzzle:read")
    variant = request.query_params.get("variant") or None
    if variant is not None and variant not in VARIANTS:
        raise ApiError(f"no board {variant[:20]!r}: one of {', '.join(VARIANTS)}")
    found = await asyncio.to_thread(site.puzzles.storm, variant)
    data: dict[str, Any] = {
        "puzzles": await asyncio.to_thread(lambda: [storm_puzzle(s) for s in found]),
        "seconds": STORM_SECONDS,
        "mistake": STORM_MISTAKE,
        "combo": [list(c) for c in COMBO_BONUS],
    }
    if actor is not None:
        data["high"] = await asyncio.to_thread(site.puzzles.storm_best, actor.user.id)
    return JSONResponse(data)


def _count(value: Any, what: str, most: int) -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise ApiError(f"{what} must be a whole number from 0 to {most}")
    return value


async def storm_result(request: Request) -> Response:
    """``POST /api/storm``: a run's end.  ``solved``: each puzzle solved with its line
    (``[{"id", "moves"}]``), judged again; ``errors``, ``combo``, ``time`` (seconds)."""
    site = site_of(request)
    fields = await fields_of(request)
    actor = await optional(request, "puzzle:write", fields)
    solved = fields.get("solved", [])
    if not isinstance(solved, list) or len(solved) > STORM_PUZZLES:
        raise ApiError(f"solved must be a list of at most {STORM_PUZZLES} puzzles")
    lines: list[tuple[str, list[str]]] = []
    for item in solved:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise ApiError('each solved puzzle is {"id": ..., "moves": [...]}')
        line = _moves(item.get("moves"))
        if not line or not _ID.fullmatch(item["id"]):
            raise ApiError(f"puzzle {str(item['id'])[:20]!r}: send its moves")
        lines.append((item["id"], line))
    site.local_limits.hit("storm runs", client_address(request), STORM_RUNS_PER_MINUTE, 60)
    run = await asyncio.to_thread(
        site.puzzles.storm_result,
        actor.user.id if actor is not None else None,
        lines,
        errors=_count(fields.get("errors", 0), "errors", 10_000),
        combo=_count(fields.get("combo", 0), "combo", 10_000),
        seconds=_count(fields.get("time", 0), "time", 3600),
    )
    return JSONResponse(run.json())


# --- the OpenAPI description ---------------------------------------------------------------


def openapi_paths() -> dict[str, Any]:
    """The OpenAPI description of these routes (:mod:`emergo.server.openapi`)."""
    said = {
        400: "bad input, or not an attempt at the puzzle",
        401: "no or bad credentials",
        403: "a token without the scope, or no CSRF token",
        404: "no such puzzle (or none of the theme and board)",
        413: "body too large",
        415: "body neither JSON nor a form",
        429: "rate limited: see Retry-After",
    }
    error = {
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {"error": {"type": "string"}},
                    "required": ["error"],
                }
            }
        }
    }

    def answers(*codes: int, kind: str = "application/json") -> dict[str, Any]:
        out: dict[str, Any] = {
            "200": {"description": "done", "content": {kind: {"schema": {"type": "object"}}}}
        }
        for code in codes:
            out[str(code)] = {"description": said[code], **error}
        return out

    def body(schema: dict[str, Any]) -> dict[str, Any]:
        return {
            "required": True,
            "content": {
                "application/json": {"schema": schema},
                "application/x-www-form-urlencoded": {"schema": schema},
            },
        }

    def param(name: str, where: str, schema: dict[str, Any], text: str, required: bool) -> Any:
        return {
            "name": name,
            "in": where,
            "required": required,
            "schema": schema,
            "description": text,
        }

    pid = param("id", "path", {"type": "string", "maxLength": 8}, "a puzzle's id", True)
    days = param(
        "days", "path", {"type": "integer", "minimum": 1, "maximum": MAX_DAYS}, "days", True
    )
    angle = {"type": "string", "enum": list(ANGLES)}
    board = {"type": "string", "enum": list(VARIANTS)}
    move = {"type": "string", "maxLength": MAX_TEXT}
    line = {"type": "array", "items": move, "maxItems": MAX_LINE}
    read = [{}, {"bearer": ["puzzle:read"]}]
    write = [{}, {"bearer": ["puzzle:write"]}]
    mine = [{"bearer": ["puzzle:read"]}]
    return {
        "/api/puzzle/daily": {
            "get": {
                "summary": "the puzzle of the day",
                "security": read,
                "responses": answers(401, 403, 404),
            }
        },
        "/api/puzzle/next": {
            "get": {
                "summary": "a puzzle at your level, of a theme (angle) and a board",
                "security": read,
                "parameters": [
                    param("angle", "query", angle, "a theme, or mix", False),
                    param("variant", "query", board, "the board", False),
                    param(
                        "rating",
                        "query",
                        {"type": "integer", "minimum": 400, "maximum": 4000},
                        "signed out: the level",
                        False,
                    ),
                ],
                "responses": answers(400, 401, 403, 404),
            }
        },
        "/api/puzzle/activity": {
            "get": {
                "summary": "your latest attempts, newest first",
                "security": mine,
                "parameters": [
                    param(
                        "max",
                        "query",
                        {"type": "integer", "minimum": 1, "maximum": ACTIVITY_MAX},
                        "how many",
                        False,
                    )
                ],
                "responses": answers(400, 401, 403, kind=NDJSON),
            }
        },
        "/api/puzzle/dashboard/{days}": {
            "get": {
                "summary": "your results of the last days, per theme (weakest first)",
                "security": mine,
                "parameters": [days],
                "responses": answers(400, 401, 403),
            }
        },
        "/api/puzzle/replay/{days}/{theme}": {
            "get": {
                "summary": "the puzzles you failed and have not solved since",
                "security": mine,
                "parameters": [days, param("theme", "path", angle, "a theme, or mix", True)],
                "responses": answers(400, 401, 403, 404),
            }
        },
        "/api/puzzle/batch": {
            "post": {
                "summary": "a visitor's attempts kept in his browser, merged into his account "
                "once he signs in: kept for his history and dashboard, never rated",
                "security": [{"bearer": ["puzzle:write"]}],
                "requestBody": body(
                    {
                        "type": "object",
                        "properties": {
                            "solutions": {
                                "type": "array",
                                "maxItems": MAX_BATCH,
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "id": {"type": "string", "maxLength": 8},
                                        "win": {"type": "boolean"},
                                        "fixed": {"type": "boolean"},
                                        "date": {"type": "integer", "minimum": 0},
                                    },
                                    "required": ["id", "win", "date"],
                                },
                            }
                        },
                        "required": ["solutions"],
                    }
                ),
                "responses": answers(400, 401, 403, 413, 415, 429),
            }
        },
        "/api/puzzle/{id}": {
            "get": {
                "summary": "a puzzle",
                "security": read,
                "parameters": [pid],
                "responses": answers(401, 403, 404),
            }
        },
        "/api/puzzle/{id}/result": {
            "post": {
                "summary": "a line judged; the attempt kept when it ends (the first try rated)",
                "security": write,
                "parameters": [pid],
                "requestBody": body(
                    {"type": "object", "properties": {"moves": line, "win": {"type": "boolean"}}}
                ),
                "responses": answers(400, 401, 403, 404, 413, 415, 429),
            }
        },
        "/api/storm": {
            "get": {
                "summary": "a timed run's puzzles (easiest first) and its rules",
                "security": read,
                "parameters": [param("variant", "query", board, "the board", False)],
                "responses": answers(400, 401, 403, 404),
            },
            "post": {
                "summary": "a timed run's end: its solved puzzles judged, the score kept",
                "security": write,
                "requestBody": body(
                    {
                        "type": "object",
                        "properties": {
                            "solved": {
                                "type": "array",
                                "maxItems": STORM_PUZZLES,
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "id": {"type": "string", "maxLength": 8},
                                        "moves": line,
                                    },
                                    "required": ["id", "moves"],
                                },
                            },
                            "errors": {"type": "integer", "minimum": 0, "maximum": 10000},
                            "combo": {"type": "integer", "minimum": 0, "maximum": 10000},
                            "time": {"type": "integer", "minimum": 0, "maximum": 3600},
                        },
                    }
                ),
                "responses": answers(400, 401, 403, 404, 413, 415, 429),
            },
        },
    }

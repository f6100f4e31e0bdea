"""The course of /learn over HTTP (docs/learn.md): the course, a step judged, a player's progress.

* ``GET /api/learn``: the course as JSON (:meth:`Course.data`), each level marked ``available``
  (a ``tables`` level whose table this site has not built is not), and the pages' words
  (``texts``); public and the same for everyone (an ``ETag``).
* ``POST /api/learn/judge``: one step of an attempt judged.  The server keeps nothing: the page
  sends the level, the moves played since its start and the mistakes so far, and the new move
  or answer; the answer is the :class:`~emergo.server.learn.Verdict` (refused with the board's
  R-cited reason, wrong with the reason, right with the reply, done with stars, failed) with
  what the page's board needs: the moves to play in turn (``steps``: the player's, then the
  reply) and the position the attempt stands at (``board``, as ``GET /api/position``).
* ``GET /api/learn/progress`` and ``POST /api/learn/progress``: a signed-in player's stars
  (a session, or a token with ``preference:read`` / ``preference:write``); a post is merged,
  the best stars kept (:mod:`emergo.server.learn.progress`).
* ``POST /api/learn/practice``: a practice level against a house bot started as a real game of
  the site (a session, or a token with ``challenge:write``); its end gives the level's stars
  (:mod:`emergo.server.learn.practice`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.board import Board
from emergo.geometry import NAMINGS, Names
from emergo.server.board.positions import MAX_TEXT, move_data, position_data
from emergo.server.core.auth import ApiError, client_address, fields_of, require, site_of
from emergo.server.core.printable import unprintable
from emergo.server.learn import Attempt, AttemptError, Course, Verdict
from emergo.server.learn.practice import shipped_course
from emergo.server.learn.progress import Progress, checked
from emergo.server.learn.texts import page_texts

STEPS_PER_SECOND = 30
"""Steps a client address may have judged a second (a person makes one every few seconds)."""
MAX_LINE = 400
"""Most moves an attempt may hold (the longest line of the course is a few dozen)."""
MAX_MISTAKES = 10_000

_lock = threading.Lock()
_course_json: tuple[frozenset[str], bytes, str] | None = None


def course_json(course: Course) -> tuple[bytes, str]:
    """The body of ``GET /api/learn`` and its ``ETag`` (made again only when a table appears)."""
    global _course_json
    missing = frozenset(course.unavailable())
    with _lock:
        cached = _course_json
    if cached is not None and cached[0] == missing:
        return cached[1], cached[2]
    data = course.data()
    for stage in data["stages"]:
        for level in stage["levels"]:
            level["available"] = level["id"] not in missing
    data["texts"] = page_texts(course.catalogue)
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    tag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
    with _lock:
        _course_json = (missing, body, tag)
    return body, tag


async def learn(request: Request) -> Response:
    """``GET /api/learn``: the course (module docstring)."""
    course = await asyncio.to_thread(shipped_course)
    body, tag = await asyncio.to_thread(course_json, course)
    headers = {"etag": tag, "cache-control": "no-cache"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


# --- a step judged ---------------------------------------------------------------------------


def _text(value: Any, what: str) -> str:
    """A move's text from a request: a string of printable characters, not too long."""
    if not isinstance(value, str):
        raise ApiError(f"{what} must be a move text (a string)")
    if len(value) > MAX_TEXT:
        raise ApiError(f"{what} is too long (at most {MAX_TEXT} characters)")
    for index, char in enumerate(value):
        why = unprintable(char)
        if why is not None:
            raise ApiError(f"{what}: character {index + 1} (U+{ord(char):04X}) is {why}")
    return value


def _count(value: Any, what: str, most: int) -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise ApiError(f"{what} must be a whole number from 0 to {most}")
    return value


def _moves(value: Any) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):  # a form: the texts separated by spaces
        if len(value) > MAX_LINE * 20:
            raise ApiError(f"an attempt holds at most {MAX_LINE} moves")
        value = value.split()
    if not isinstance(value, list):
        raise ApiError("moves must be a list of move texts")
    if len(value) > MAX_LINE:
        raise ApiError(f"an attempt holds at most {MAX_LINE} moves")
    return tuple(_text(text, f"move {i + 1} of moves") for i, text in enumerate(value))


def _step(board: Board, text: str) -> dict[str, Any]:
    """A move played on ``board``, as the page's board animates it: the move and the pieces
    and hands after it."""
    move = board.parse_move(text)
    data = move_data(board, move)
    board.push(move)
    after = position_data(board)
    return {"move": data, "pieces": after["pieces"], "hands": after["hands"]}


def judge_step(course: Course, fields: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``POST /api/learn/judge`` (module docstring); an :class:`ApiError` for a
    request that is not an attempt at a level of the course."""
    level_id = fields.get("level")
    if not isinstance(level_id, str):
        raise ApiError("level must be a level's id (stage/level)")
    if level_id not in course.levels:
        shown = level_id[:80]
        raise ApiError(f"no level {shown!r} in the course (GET /api/learn lists them)", 404)
    level = course.levels[level_id]
    if level.opponent == "bot":
        raise ApiError(
            f"{level_id} is played against a house bot in a real game: POST /api/learn/practice",
            409,
        )
    if level_id in course.unavailable():
        raise ApiError(
            f"{level_id} needs an endgame table this site has not built (the "
            f"{course.tables_needed(level)}-column table of {level.variant})",
            503,
        )
    attempt = Attempt(
        level_id,
        _moves(fields.get("moves")),
        _count(fields.get("mistakes", 0), "mistakes", MAX_MISTAKES),
    )
    move, answer = fields.get("move"), fields.get("answer")
    if (move is None) == (answer is None):
        wanted = "answer" if level.is_question else "move"
        raise ApiError(f"send the {wanted} to judge (one of move or answer)")
    names = fields.get("names", level.names)
    if names not in NAMINGS:
        raise ApiError(f"names must be one of {', '.join(NAMINGS)}")
    chosen: Names = names
    try:
        if level.is_question:
            if move is not None:
                raise ApiError(f"{level_id} is a question: send its answer")
            if isinstance(answer, int) and not isinstance(answer, bool):
                answer = str(answer)
            verdict = course.answer(attempt, _text(answer, "answer"))
        else:
            if answer is not None:
                raise ApiError(f"{level_id} is played with moves: send a move")
            before = course.board(attempt)
            verdict = course.judge(attempt, _text(move, "move"), names=chosen)
    except AttemptError as e:
        raise ApiError(str(e)) from None
    out = verdict.data()
    if level.is_question:
        out.update(steps=[], board=position_data(course.start_board(level)))
        return out
    out.update(_moves_shown(course, before, attempt, verdict))
    return out


def _moves_shown(course: Course, board: Board, attempt: Attempt, verdict: Verdict) -> Any:
    """``steps`` and ``board`` of a move's verdict: a wrong move is shown and taken back, a
    right one shown with its reply; a refused one changes nothing."""
    if verdict.status == "refused" or verdict.move is None:
        return {"steps": [], "board": position_data(board)}
    if verdict.status == "wrong":
        steps = [_step(board, verdict.move)]
        board.pop()
        return {"steps": steps, "board": position_data(board)}
    played = verdict.attempt.moves[len(attempt.moves) :]
    steps = [_step(board, text) for text in played]
    return {"steps": steps, "board": position_data(board)}


async def judge(request: Request) -> Response:
    """``POST /api/learn/judge``: a step of an attempt judged (module docstring)."""
    fields = await fields_of(request)
    site = site_of(request)
    site.local_limits.hit("learn steps", client_address(request), STEPS_PER_SECOND, 1)
    course = await asyncio.to_thread(shipped_course)
    out = await asyncio.to_thread(judge_step, course, fields)
    return JSONResponse(out)


# --- progress --------------------------------------------------------------------------------


def _posted(fields: dict[str, Any], known: set[str]) -> dict[str, int]:
    """The stars a post gives: ``levels`` (an object), or one ``level`` and its ``stars``."""
    if "levels" in fields:
        return checked(fields["levels"], known)
    level, stars = fields.get("level"), fields.get("stars")
    if level is None:
        raise ApiError('send levels ({"stage/level": stars, ...}) or one level and its stars')
    if isinstance(stars, str) and stars.isascii() and stars.isdigit() and len(stars) == 1:
        stars = int(stars)
    if not isinstance(level, str):
        raise ApiError("level must be a level's id (stage/level)")
    return checked({level: stars}, known)


async def progress(request: Request) -> Response:
    """``GET /api/learn/progress``: your stars by level; ``POST`` merges stars in (the best
    kept) and answers the stars after it."""
    site = site_of(request)
    store = Progress(site.db)
    if request.method == "GET":
        actor = await require(request, "preference:read")
        stars = await asyncio.to_thread(store.stars, actor.user.id)
        return JSONResponse({"levels": stars})
    fields = await fields_of(request)
    actor = await require(request, "preference:write", fields)
    course = await asyncio.to_thread(shipped_course)
    given = _posted(fields, set(course.levels))
    played = sorted(k for k in given if course.levels[k].opponent == "bot")
    if played:  # their stars come only from a practice game's end (learn/practice.py)
        raise ApiError(
            f"{played[0]} is played against a house bot: its stars come from the game "
            "(POST /api/learn/practice), not from a post",
            409,
        )
    stars = await asyncio.to_thread(store.merge, actor.user.id, given)
    return JSONResponse({"levels": stars})


async def practice(request: Request) -> Response:
    """``POST /api/learn/practice``: start the game of a practice level (``level``: its id)
    against the house bot of its strength; ``gameId`` and the level's id."""
    fields = await fields_of(request)
    actor = await require(request, "challenge:write", fields)
    level = fields.get("level")
    if not isinstance(level, str):
        raise ApiError("level must be a level's id (stage/level)")
    site = site_of(request)
    game_id = await asyncio.to_thread(site.practice_game, actor.user, level)
    return JSONResponse({"id": game_id, "gameId": game_id, "level": level})


# --- the OpenAPI description ---------------------------------------------------------------


def openapi_paths() -> dict[str, Any]:
    """The OpenAPI description of these routes (:mod:`emergo.server.openapi`)."""
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
    said = {
        400: "bad input",
        401: "no or bad credentials",
        403: "a token without the scope, or no CSRF token",
        404: "no such level",
        409: "a level played otherwise (judged: one against a house bot; practice: one not)",
        413: "body too large",
        415: "body neither JSON nor a form",
        429: "rate limited: see Retry-After",
        503: "the level's endgame table (judged) or house bot (practice) is not on this site",
    }

    def answers(*codes: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "200": {
                "description": "done",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
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

    text = {"type": "string", "maxLength": MAX_TEXT}
    step = {
        "type": "object",
        "properties": {
            "level": {"type": "string", "maxLength": 80, "description": "stage/level"},
            "moves": {"type": "array", "items": text, "maxItems": MAX_LINE},
            "mistakes": {"type": "integer", "minimum": 0, "maximum": MAX_MISTAKES},
            "move": text,
            "answer": text,
            "names": {"type": "string", "enum": list(NAMINGS)},
        },
        "required": ["level"],
    }
    stars = {"type": "integer", "minimum": 1, "maximum": 3}
    posted = {
        "type": "object",
        "properties": {
            "levels": {"type": "object", "additionalProperties": stars},
            "level": {"type": "string", "maxLength": 80},
            "stars": stars,
        },
    }
    return {
        "/api/learn": {
            "get": {
                "summary": "the course of /learn: stages, levels, the pages' words",
                "security": [{}, {"bearer": []}],
                "responses": answers(),
            }
        },
        "/api/learn/judge": {
            "post": {
                "summary": "one step of an attempt at a level judged (the page keeps the moves)",
                "security": [{}, {"bearer": []}],
                "requestBody": body(step),
                "responses": answers(400, 404, 409, 413, 415, 429, 503),
            }
        },
        "/api/learn/progress": {
            "get": {
                "summary": "your stars in the levels of /learn",
                "security": [{"bearer": ["preference:read"]}],
                "responses": answers(401, 403),
            },
            "post": {
                "summary": "merge stars into your progress (the best kept)",
                "security": [{"bearer": ["preference:write"]}],
                "requestBody": body(posted),
                "responses": answers(400, 401, 403, 413, 415),
            },
        },
        "/api/learn/practice": {
            "post": {
                "summary": "start a practice level's game against its house bot; its end gives "
                "the level's stars",
                "security": [{"bearer": ["challenge:write"]}],
                "requestBody": body(
                    {
                        "type": "object",
                        "properties": {"level": {"type": "string", "maxLength": 80}},
                        "required": ["level"],
                    }
                ),
                "responses": answers(400, 401, 403, 404, 409, 413, 415, 503),
            }
        },
    }

"""Reading a request's input: its JSON body and the fields the API shares (names, moves, ``pos``).

Each helper raises :class:`~emergo.web.positions.RequestError` (a 4xx with a message) on bad input.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from emergo.board import Board
from emergo.geometry import NAMINGS, Names
from emergo.web.positions import JSON, MAX_MOVES, RequestError, board_from
from emergo.web.security import MAX_BODY, BodyTooLarge


async def body_json(request: Request) -> JSON:
    """The request's JSON object, or a 400/413 :class:`RequestError` saying what is wrong."""
    try:
        raw = await request.body()
    except BodyTooLarge:
        raise RequestError(f"request body larger than {MAX_BODY} bytes", 413) from None
    if len(raw) > MAX_BODY:
        raise RequestError(f"request body larger than {MAX_BODY} bytes", 413)
    data = parse_json(raw or b"{}", "the request body")
    if not isinstance(data, dict):
        raise RequestError("the request body must be a JSON object")
    return data


def control_message(raw: str) -> tuple[str, JSON]:
    """A message of a search socket (``/ws/analysis``, ``/ws/review``): ``("start", data)`` or
    ``("stop", data)``, or a :class:`RequestError` saying what is wrong."""
    if len(raw) > MAX_BODY:
        raise RequestError("message too large")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise RequestError("a message must be a JSON object")
    kind = data.get("type")
    if kind not in ("start", "stop"):
        raise RequestError("type must be start or stop")
    return kind, data


MAX_ID = 2**63 - 1
"""The largest id the store holds (SQLite's integers are 64-bit)."""


def parse_json(raw: str | bytes, what: str = "the message") -> Any:
    """JSON text decoded (an HTTP body or a WebSocket message: the one place), or a 400
    :class:`RequestError`: not JSON, not UTF-8, or nested too deeply to decode."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise RequestError(f"{what} is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise RequestError(f"{what} is not valid JSON ({e})") from None


def id_of(text: Any, what: str) -> int:
    """A row id from a URL: a whole number in 1..2**63-1, else a 404 :class:`RequestError`."""
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise RequestError(f"a {what} id is a number", 404) from None
    if not 1 <= value <= MAX_ID:
        raise RequestError(f"no {what} {text} (ids are 1 to {MAX_ID})", 404)
    return value


def names_of(value: Any) -> Names:
    if value is None:
        return "oblique"
    if value not in NAMINGS:
        raise RequestError(f"names must be one of {', '.join(NAMINGS)}")
    result: Names = value
    return result


def moves_of(value: Any) -> list[str]:
    """Moves from a request: a list of texts, or one string of texts separated by spaces."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        if len(value) > MAX_MOVES * 40:
            raise RequestError("too many moves")
        return value.split()
    if isinstance(value, list) and all(isinstance(m, str) for m in value):
        return list(value)
    raise RequestError("moves must be a list of move texts or one string of them")


def text_of(data: JSON, key: str, *, limit: int = 4000, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            raise RequestError(f"{key} is missing")
        return None
    if not isinstance(value, str):
        raise RequestError(f"{key} must be a string")
    if len(value) > limit:
        raise RequestError(f"{key} is too long (at most {limit} characters)")
    return value


def board_of(data: JSON) -> Board:
    return board_from(text_of(data, "pos"), moves_of(data.get("moves")))

"""Reading the fields the API shares (names, moves, ``pos``, texts) from a request's decoded
fields or a socket's message.

Each helper raises :class:`~emergo.server.board.positions.RequestError` (a 4xx with a message) on
bad input.
"""

from __future__ import annotations

import json
import re
from typing import Any

from emergo.board import Board
from emergo.geometry import NAMINGS, Names
from emergo.server.board.positions import JSON, MAX_MOVES, RequestError, board_from
from emergo.server.core.printable import unprintable

_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
"""A ``\\uD800``-``\\uDFFF`` escape: the only way JSON in UTF-8 can carry a surrogate."""


def parse_json(raw: str | bytes, what: str = "the message") -> Any:
    """JSON text decoded (an HTTP body or a WebSocket message: the one place), or a 400
    :class:`RequestError`: not JSON, not UTF-8, nested too deeply to decode, or holding a
    string no UTF-8 text can hold (a lone surrogate such as ``"\\ud800"``: it passed every
    check and then failed the store, the record or the answer's encoding half-way)."""
    try:
        data = json.loads(raw)
    except RecursionError:
        raise RequestError(f"{what} is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise RequestError(f"{what} is not valid JSON ({e})") from None
    escaped = raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")
    if _SURROGATE_ESCAPE.search(escaped):  # rare: only then walk the whole value
        where = _lone_surrogate(data)
        if where is not None:
            raise RequestError(
                f"{what} holds a lone surrogate ({where}): text must be valid Unicode, "
                "encodable as UTF-8"
            )
    return data


def _lone_surrogate(value: Any) -> str | None:
    """Where in a decoded JSON value a string (a key or a value) cannot be encoded as UTF-8."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return f"in {path or 'the top'}"
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, dict):
            for key, v in item.items():
                name = key.encode("utf-8", "backslashreplace").decode("utf-8")
                stack.append((key, f"a key of {path or 'the top'}"))
                stack.append((v, f"{path}.{name}" if path else name))
    return None


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


def clean_name(value: Any, what: str, *, limit: int = 100, default: str = "") -> str:
    """A name (a player's, a study's), checked at the door: a string of at most ``limit``
    characters, one line of printable text (:func:`unprintable`: a record's tags and every
    page show it), spaces at its ends dropped; ``default`` when it is missing or blank."""
    if value is None:
        return default
    if not isinstance(value, str):
        raise RequestError(f"{what} must be a string")
    if len(value) > limit:
        raise RequestError(f"{what} is too long (at most {limit} characters)")
    for index, char in enumerate(value):
        why = unprintable(char)
        if why is not None:
            raise RequestError(
                f"{what} must be one line of printable text: character {index + 1} "
                f"(U+{ord(char):04X}) is {why}"
            )
    return value.strip() or default


def board_of(data: JSON) -> Board:
    return board_from(text_of(data, "pos"), moves_of(data.get("moves")))

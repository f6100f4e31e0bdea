"""Reading a request's input: its JSON body and the fields the API shares (names, moves, ``pos``).

Each helper raises :class:`~emergo.web.positions.RequestError` (a 4xx with a message) on bad input.
"""

from __future__ import annotations

import json
import re
import unicodedata
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


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: they reorder the text around a name (spoofing)."""


def unprintable(char: str) -> str | None:
    """Why ``char`` may not stand in a name or a tag (one line of text a record can hold),
    or None: control characters (a newline, a tab, NUL), line and paragraph separators,
    surrogates, private-use characters and the bidirectional controls."""
    category = unicodedata.category(char)
    if category == "Cc":
        return "a control character"
    if category in ("Zl", "Zp"):
        return "a line break"
    if category == "Cs":
        return "a lone surrogate"
    if category == "Co":
        return "a private-use character"
    if char in _BIDI_CONTROLS:
        return "a bidirectional control"
    return None


def one_line(text: str) -> str:
    """``text`` with every character :func:`unprintable` finds made a space (stored data from
    before names were checked, written into a record that must stay readable)."""
    return "".join(" " if unprintable(c) else c for c in text).strip()


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
